/**
 * The lobby's lists: which games the live list shows, and each line in words (names from
 * GET /api/rules rather than ids; session-7 web trial).
 */
import type { CreatedGame, GameSummary, RuleEntry, Rules } from '../protocol';
import { humanId } from '../words';
import { shownName } from './Opponent';

/**
 * The player name the editors' sandbox games carry for both seats (the server has no sandbox
 * mark): the lobby leaves such games out of its live list.
 */
export const SANDBOX_PLAYER = 'sandbox (editor)';

/**
 * The game page of a sandbox game with both seats' tokens: one person plays both sides (hot seat).
 * `from`: the editor that started it, which the page links back to (session-14 trial: no way back).
 */
export function sandboxUrl(g: CreatedGame, from: 'editor' | 'yaml' = 'editor'): string {
  return `/games/${encodeURIComponent(g.id)}#white=${encodeURIComponent(g.seats.white?.token ?? '')}&black=${encodeURIComponent(g.seats.black?.token ?? '')}&from=${from}`;
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
 * An invitation nobody opened yet is left out, and so is a game the server calls abandoned.
 */
export function watchable(g: GameSummary): boolean {
  // Trial 18: abandoned games were listed (the server says which, `abandoned`).
  if (g.status !== 'live' || isSandbox(g) || g.abandoned) return false;
  return !!g.seat || (g.inputs ?? 0) > 0 || (g.plyCount ?? 0) > 0;
}

const nameIn = (id: string, entries: RuleEntry[] | undefined) => entries?.find((e) => e.id === id)?.name ?? humanId(id);

/** A modifier's origin in words: "catalog no. 33", "template", "saved", or its kind. */
function origin(m: RuleEntry): string {
  if (m.saved) return 'saved';
  // A template carries the catalog entry it was made for: its kind tells it from that entry.
  if (m.kind !== 'template' && typeof m.catalog?.number === 'number') return `catalog no. ${m.catalog.number}`;
  return m.kind ?? 'library';
}

/**
 * What tells a rule from another of the same name (issue 26 item 10: Proletariat, Short Stop,
 * God Kings and Early Promotion are presets and modifiers; No Man's Land is two modifiers): null
 * when the name is its own, else "preset", or "modifier" with its origin ("modifier, catalog no.
 * 33") when another modifier shares the name too.
 */
export function sameNameNote(kind: 'preset' | 'modifier', id: string, rules: Rules | null): string | null {
  if (!rules) return null;
  const self = (kind === 'preset' ? rules.presets : rules.modifiers).find((e) => e.id === id);
  if (!self) return null;
  const name = (self.name ?? self.id).toLowerCase();
  const same = (e: RuleEntry) => (e.name ?? e.id).toLowerCase() === name;
  const asPreset = rules.presets.some((e) => e.id !== id && same(e)) || (kind === 'modifier' && rules.presets.some(same));
  const asModifier = rules.modifiers.filter((e) => !(kind === 'modifier' && e.id === id) && same(e));
  if (!asPreset && asModifier.length === 0) return null;
  if (kind === 'preset') return 'preset';
  return asModifier.length ? `modifier, ${origin(self)}` : 'modifier';
}

/**
 * The same in the lobby's own checklists, where the list already says preset or modifier: what
 * tells the entry apart there ("also a modifier", "catalog no. 59", "template; also a preset").
 */
export function sameNameHint(kind: 'preset' | 'modifier', id: string, rules: Rules | null): string | null {
  const note = sameNameNote(kind, id, rules);
  if (!note || !rules) return null;
  const self = (kind === 'preset' ? rules.presets : rules.modifiers).find((e) => e.id === id)!;
  const name = (self.name ?? self.id).toLowerCase();
  const same = (e: RuleEntry) => (e.name ?? e.id).toLowerCase() === name;
  if (kind === 'preset') return rules.modifiers.some(same) ? 'also a modifier' : null;
  const parts = note.startsWith('modifier, ') ? [note.slice('modifier, '.length)] : [];
  if (rules.presets.some(same)) parts.push('also a preset');
  return parts.join('; ') || null;
}

/** A rule's name in a list line, with what tells it from another of the same name: "Proletariat (modifier)". */
function ruleName(kind: 'preset' | 'modifier', id: string, rules: Rules | null): string {
  const name = nameIn(id, kind === 'preset' ? rules?.presets : rules?.modifiers);
  const note = sameNameNote(kind, id, rules);
  return note ? `${name} (${note})` : name;
}

/**
 * A player's name for a line of plain text: explicit bidi controls removed, and a name with
 * right-to-left letters wrapped in a first-strong isolate (U+2068 … U+2069), so that no name can
 * reorder the rest of the line (trial 20: a name with U+202E turned the lobby's "RTL vs Computer
 * (level 3)" into "(3 level) retupmoC sv LTR"). Other names are left as typed.
 */
export function isolatedName(name: string | null | undefined): string {
  const shown = shownName(name).replace(/[\u202A-\u202E\u2066-\u2069]/g, '');
  return /[\u0590-\u08FF\u200F\uFB1D-\uFDFF\uFE70-\uFEFF]/.test(shown) ? `\u2068${shown}\u2069` : shown;
}

/**
 * The players of a lobby line: names as shown on the game page (`engine:5` reads "Computer
 * (level 5)"), "Anonymous" for a seat without a name, as the game page says (issue 26 item 10:
 * "? vs engine:5"; session-14 trial: the board and the lobby used two words); null when neither
 * has a name.
 */
export function playersLine(white: string | null | undefined, black: string | null | undefined, openSeat?: 'white' | 'black'): string | null {
  // An open challenge (its creator's seat given, the other free): nobody is the opponent yet
  // (trial 18: "Carol vs Anonymous" before anyone joined).
  if (openSeat) return `${isolatedName(openSeat === 'white' ? white : black)} (${openSeat}), waiting for an opponent`;
  if (!white && !black) return null;
  return `${isolatedName(white)} vs ${isolatedName(black)}`;
}

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
  for (const p of g.presets ?? []) parts.push(ruleName('preset', p, rules));
  for (const id of g.modifiers ?? []) parts.push(ruleName('modifier', id, rules));
  return parts;
}
