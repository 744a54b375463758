/**
 * The lobby's opponent choice (issue 15): a friend (invite links) or the computer at a level from 1
 * to 8, which the server seats as a player named `engine:N` (docs/protocol.md, "Playing the
 * engine"). Kept apart from Lobby.tsx so that the lobby needs only a few lines for it.
 */
import type { Color, CreateGameRequest } from '../protocol';

/** Who the creator plays. */
export type Opponent = { kind: 'friend' } | { kind: 'computer'; level: number };

/** The engine's levels (houserules-search: 1 weakest, 8 full strength). */
export const ENGINE_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8];

/** The name that seats the engine at `level` (`engine:N`). */
export const engineName = (level: number) => `engine:${level}`;

/** Seats the computer on the colour the creator does not play (`me`); a friend changes nothing. */
export function withOpponent(req: CreateGameRequest, opponent: Opponent, me: Color): CreateGameRequest {
  if (opponent.kind !== 'computer') return req;
  return { ...req, [me === 'white' ? 'black' : 'white']: engineName(opponent.level) };
}

/** A player's name as shown: `engine:N` reads "Computer (level N)", any other name as it is. */
export function playerLabel(name: string | undefined): string | undefined {
  const m = /^engine:([1-8])$/.exec(name ?? '');
  return m ? `Computer (level ${m[1]})` : name;
}

/**
 * What the pages call a seat without a name, on the board and in the lobby alike (session-14
 * trial: the board said "white", the lobby "anonymous"). The server's PGN writes the standard's
 * unknown name, `?` (PGN Standard §8.1.1.5), which the page does not show.
 */
export const ANONYMOUS = 'Anonymous';

/** A player's name as shown anywhere on the pages: `playerLabel`, or `ANONYMOUS` for none. */
export const shownName = (name: string | null | undefined): string => playerLabel(name ?? undefined) || ANONYMOUS;

/** The choice itself: two radio buttons and, for the computer, its level. */
export function OpponentChoice({ value, onChange }: { value: Opponent; onChange: (o: Opponent) => void }) {
  const level = value.kind === 'computer' ? value.level : 3;
  return (
    <fieldset class="opponent">
      <legend>Opponent</legend>
      <div class="row">
        <label class="check">
          <input type="radio" name="opponent" value="friend" checked={value.kind === 'friend'} onChange={() => onChange({ kind: 'friend' })} />
          <span>a friend <small>invite links to share</small></span>
        </label>
        <label class="check">
          <input type="radio" name="opponent" value="computer" checked={value.kind === 'computer'} onChange={() => onChange({ kind: 'computer', level })} />
          <span>the computer <small>any rules but draft mode</small></span>
        </label>
        {value.kind === 'computer' && (
          <label for="lobby-engine-level">
            Level
            <select id="lobby-engine-level" name="engineLevel" value={level} onChange={(e) => onChange({ kind: 'computer', level: Number((e.target as HTMLSelectElement).value) })}>
              {ENGINE_LEVELS.map((n) => (
                <option value={n}>{n === 1 ? '1 (weakest)' : n === 8 ? '8 (strongest)' : String(n)}</option>
              ))}
            </select>
          </label>
        )}
      </div>
    </fieldset>
  );
}
