/**
 * The lobby's lists: which games the live list shows, and each line in words (names from
 * GET /api/rules rather than ids; session-7 web trial).
 */
import type { CreatedGame, GameSummary, RuleEntry, Rules } from '../protocol';
import { humanId } from '../words';

/**
 * The player name the editors' sandbox games carry for both seats (the server has no sandbox
 * mark): the lobby leaves such games out of its live list.
 */
export const SANDBOX_PLAYER = 'sandbox (editor)';

/** The game page of a sandbox game with both seats' tokens: one person plays both sides (hot seat). */
export function sandboxUrl(g: CreatedGame): string {
  return `/games/${encodeURIComponent(g.id)}#white=${encodeURIComponent(g.seats.white?.token ?? '')}&black=${encodeURIComponent(g.seats.black?.token ?? '')}`;
}

/** Whether a game is one of the editors' sandbox games ("Try it", "Play this game"). */
export function isSandbox(g: Pick<GameSummary, 'white' | 'black'>): boolean {
  return g.white === SANDBOX_PLAYER || g.black === SANDBOX_PLAYER;
}

/**
 * Whether the live list shows a game: live, not a sandbox, and either a joined open challenge
 * (its creator's `seat` is set and the status left `open`, so both seats are taken) or a game in
 * which someone has acted (`inputs`, the server's count of moves, answers and events, above 0;
 * `plyCount` where a server sends it).
 * An invitation nobody opened yet is left out.
 */
export function watchable(g: GameSummary): boolean {
  if (g.status !== 'live' || isSandbox(g)) return false;
  return !!g.seat || (g.inputs ?? 0) > 0 || (g.plyCount ?? 0) > 0;
}

const nameIn = (id: string, entries: RuleEntry[] | undefined) => entries?.find((e) => e.id === id)?.name ?? humanId(id);

/**
 * A lobby line's description: game, layout, presets and modifiers by name ("Gardner minichess ·
 * Piece hit points · Parry"), unknown ids as words, a long inline game text as "custom game".
 */
export function gameLine(g: GameSummary, rules: Rules | null, games: RuleEntry[] = []): string {
  return gameParts(g, rules, games).join(' · ');
}

/** The parts of `gameLine`: the game first, then layout, presets and modifiers. */
export function gameParts(g: GameSummary, rules: Rules | null, games: RuleEntry[] = []): string[] {
  const parts: string[] = [];
  if (!g.game) parts.push('Chess');
  else if (g.game.length > 40 || g.game.includes('\n')) parts.push('custom game');
  else parts.push(nameIn(g.game, rules?.games?.length ? rules.games : games));
  if (g.layout) {
    const m = /^chess960:(\d+)$/.exec(g.layout);
    parts.push(m ? `Chess960 position ${m[1]}` : nameIn(g.layout, rules?.layouts));
  }
  for (const p of g.presets ?? []) parts.push(nameIn(p, rules?.presets));
  for (const id of g.modifiers ?? []) parts.push(nameIn(id, rules?.modifiers));
  return parts;
}
