/**
 * The game page's rules panel (issue 26 item 1): what is being played, in words, from the game's
 * creation request (`GET /api/games/{id}/record`'s `request`) and the descriptions of
 * `GET /api/rules` — no description is copied into the app.
 */
import type { Lifetime, RuleEntry, Rules } from './protocol';
import { humanId } from './words';

/** One preset or modifier of the game, as the panel lists it. */
export interface RuleLine {
  kind: 'preset' | 'modifier';
  id: string;
  name: string;
  /** Options given with it (`scope=black`, `lifetime 6 plies`), in words; '' when none. */
  options: string;
  /** The description's first sentence (the panel's one line). */
  short: string;
  /** The whole description ('' when GET /api/rules has none). */
  full: string;
}

export interface RulesSummary {
  /** The game's name ("Chess", "Gardner minichess", a YAML game's `name`, "custom game"). */
  game: string;
  /** The layout or start position in words, or null for the game's own. */
  layout: string | null;
  presets: RuleLine[];
  modifiers: RuleLine[];
  /** Draft mode: a rule card is drafted every third ply (RULINGS M4). */
  draft: boolean;
  /** "5+2" (minutes + increment in seconds), or "untimed". */
  timeControl: string;
  /** What happens when a chooser does not answer. */
  choiceTimeout: string;
  seed: number;
  /** "by a real coin, entered by the player" for manual coin flips, else null. */
  coinFlips: string | null;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Words whose period ends no sentence ("Mr. Freeze", "e.g. a pawn"). */
const ABBREVIATIONS = /(?:^|[\s(])(?:Mr|Mrs|Dr|St|vs|e\.g|i\.e|etc)$/;

/**
 * The first sentence of a description (the panel's one line; the whole text is a tap away): up
 * to the first ".", "!" or "?" followed by a space and a capital or "(", or the end, skipping
 * abbreviations such as "Mr." and "e.g.".
 */
export function firstSentence(text: string): string {
  const t = text.trim();
  const re = /[.!?](?=\s+[A-Z(]|$)/g;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    if (!ABBREVIATIONS.test(t.slice(0, m.index))) return t.slice(0, m.index + 1);
  }
  return t;
}

const FRACTIONS: Record<number, string> = { 15: '¼', 30: '½', 45: '¾' };

/**
 * A Fischer clock as players write it: minutes + increment seconds ("5+2", "½+0", "1½+1"); a
 * start time that is not a multiple of 15 s as seconds ("100 s+2"); "untimed" without a clock.
 */
export function timeControl(clock: unknown): string {
  if (!isObj(clock)) return 'untimed';
  const init = typeof clock.initialSeconds === 'number' ? clock.initialSeconds : NaN;
  const inc = typeof clock.incrementSeconds === 'number' ? clock.incrementSeconds : 0;
  if (!Number.isFinite(init)) return 'untimed';
  const whole = Math.floor(init / 60);
  const rest = init % 60;
  let minutes: string;
  if (rest === 0) minutes = String(whole);
  else if (FRACTIONS[rest]) minutes = `${whole || ''}${FRACTIONS[rest]}`;
  else minutes = `${init} s`;
  return `${minutes}+${inc}`;
}

/** The choice-timeout mode in words (docs/protocol.md § Rules of play: 60 s with default when absent). */
export function choiceTimeoutText(ct: unknown): string {
  if (isObj(ct) && ct.mode === 'no-timeout') return 'no time limit: the game pauses while the chooser is away';
  const s = isObj(ct) && typeof ct.seconds === 'number' ? ct.seconds : 60;
  return `${s} s to answer, then the first option is taken`;
}

/** A layout id in words ("Chess960 position 518"); a FEN start as "set-up position". */
export function layoutText(layout: unknown, fen: unknown, rules: Rules | null): string | null {
  if (typeof layout === 'string' && layout && layout !== 'standard') {
    const m = /^chess960:(\d+)$/.exec(layout);
    if (m) return `Chess960 position ${m[1]}`;
    if (/^chess960:random/.test(layout)) return 'Chess960, random position';
    return rules?.layouts.find((l) => l.id === layout)?.name ?? humanId(layout);
  }
  if (typeof fen === 'string' && fen) return 'set-up position (FEN)';
  if (isObj(fen)) return 'set-up position';
  return null;
}

/** The game's name: FIDE chess when absent, a shipped game by its name, a YAML game by its `name:`. */
export function gameName(game: unknown, rules: Rules | null): string {
  if (typeof game !== 'string' || !game) return 'Chess';
  if (game.includes('\n') || game.length > 64) {
    const m = /^name:\s*["']?([^"'\n]+?)["']?\s*$/m.exec(game);
    return m ? `${m[1]} (custom game)` : 'custom game';
  }
  return rules?.games.find((g) => g.id === game)?.name ?? humanId(game);
}

/** `ID:K=V;K2=V2` → [ID, "K V, K2 V2"]. */
function splitOptions(entry: string): [string, string] {
  const i = entry.indexOf(':');
  if (i < 0) return [entry, ''];
  const opts = entry
    .slice(i + 1)
    .split(';')
    .filter(Boolean)
    .map((kv) => kv.replace('=', ' '))
    .join(', ');
  return [entry.slice(0, i), opts];
}

function line(kind: RuleLine['kind'], id: string, options: string, entry: RuleEntry | undefined, fallback?: { name?: unknown; description?: unknown }): RuleLine {
  const name = entry?.name ?? (typeof fallback?.name === 'string' ? fallback.name : undefined) ?? humanId(id);
  const full = (entry?.description ?? (typeof fallback?.description === 'string' ? fallback.description : '')).trim();
  return { kind, id, name, options, short: firstSentence(full), full };
}

/** One `modifiers` entry of the request: a library id with options, an inline descriptor, or `{descriptor, lifetime?, chooser?, params?}`. */
function modifierLine(m: unknown, rules: Rules | null): RuleLine {
  const find = (id: string) => rules?.modifiers.find((e) => e.id === id);
  if (typeof m === 'string') {
    const [id, opts] = splitOptions(m);
    return line('modifier', id, opts, find(id));
  }
  if (isObj(m) && 'descriptor' in m) {
    const opts: string[] = [];
    if (m.lifetime !== undefined && m.lifetime !== null) opts.push(typeof m.lifetime === 'number' ? `lifetime ${m.lifetime} plies` : `lifetime ${String(m.lifetime)}`);
    // `chooser` is the side the rule calls its chooser (docs/modifiers.md), not who picked the
    // rule, which was set at creation: "chosen by white" read as White's pick (trial 20).
    if (typeof m.chooser === 'string') opts.push(`chooser side ${m.chooser}`);
    if (isObj(m.params)) for (const [k, v] of Object.entries(m.params)) opts.push(`${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
    const d = m.descriptor;
    if (typeof d === 'string') return line('modifier', d, opts.join(', '), find(d));
    const id = isObj(d) && typeof d.id === 'string' ? d.id : 'custom';
    return line('modifier', id, opts.join(', '), undefined, isObj(d) ? d : undefined);
  }
  const id = isObj(m) && typeof m.id === 'string' ? m.id : 'custom';
  // A saved or edited rule sent inline: its own name and description.
  return line('modifier', id, '', undefined, isObj(m) ? m : undefined);
}

/**
 * The panel's content from the creation request (unknown fields ignored) and GET /api/rules
 * (null while it loads: names then read as words from the ids). `seed`: the state's seed when
 * the page has it (the request's, else 0 — rulings F4).
 */
export function rulesSummary(request: unknown, rules: Rules | null, seed?: number): RulesSummary {
  const r = isObj(request) ? request : {};
  const presets = (Array.isArray(r.presets) ? r.presets : []).map((p) => {
    const [id, opts] = splitOptions(String(p));
    return line('preset', id, opts, rules?.presets.find((e) => e.id === id));
  });
  const modifiers = (Array.isArray(r.modifiers) ? r.modifiers : []).map((m) => modifierLine(m, rules));
  return {
    game: gameName(r.game, rules),
    layout: layoutText(r.layout, r.fen ?? r.state, rules),
    presets,
    modifiers,
    draft: r.draft === true || isObj(r.draft),
    timeControl: timeControl(r.clock),
    choiceTimeout: choiceTimeoutText(r.choiceTimeout),
    seed: seed ?? (typeof r.seed === 'number' ? r.seed : 0),
    coinFlips: r.coinFlips === 'manual' ? 'tossed at the table and entered by the player' : null,
  };
}

/**
 * The rules a draft put in play (trial 20: while a drafted rule was in play the panel said "No
 * presets or modifiers"): the active modifiers that are not the request's own, each with who
 * drafted it and, for a rule of N plies, the ply it ends after (`plyCount` now: its plies left).
 */
export function draftedLines(
  active: { id: string; chooser: string; lifetime: Lifetime }[],
  request: unknown,
  rules: Rules | null,
  plyCount: number,
  names: Record<string, string> = {},
): RuleLine[] {
  const r = isObj(request) ? request : {};
  const own = new Set(
    (Array.isArray(r.modifiers) ? r.modifiers : []).map((m) => {
      if (typeof m === 'string') return splitOptions(m)[0];
      const d = isObj(m) && 'descriptor' in m ? m.descriptor : m;
      return typeof d === 'string' ? d : isObj(d) && typeof d.id === 'string' ? d.id : '';
    }),
  );
  return active
    .filter((m) => !own.has(m.id))
    .map((m) => {
      const opts = [`drafted by ${m.chooser === 'white' ? 'White' : m.chooser === 'black' ? 'Black' : m.chooser}`];
      if (m.lifetime.kind === 'moves') {
        const left = Math.max(0, m.lifetime.expiresAtMove - plyCount);
        opts.push(`${left} ${left === 1 ? 'ply' : 'plies'} left`);
      } else if (m.lifetime.kind === 'one-shot') opts.push('once');
      const entry = rules?.modifiers.find((e) => e.id === m.id);
      return line('modifier', m.id, opts.join(', '), entry, names[m.id] ? { name: names[m.id] } : undefined);
    });
}

/**
 * The names of the game's inline rules (a descriptor in the request's `modifiers`, alone or as
 * `{descriptor: …}`), by descriptor id: rules made in the editor or saved to this server are in
 * no library, and the page named them by their ids (session-14 trial: "In play now: my-mine").
 */
export function inlineRuleNames(request: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const mods = isObj(request) && Array.isArray(request.modifiers) ? request.modifiers : [];
  for (const m of mods) {
    const d = isObj(m) && isObj(m.descriptor) ? m.descriptor : m;
    if (isObj(d) && typeof d.id === 'string' && typeof d.name === 'string' && d.name.trim()) out[d.id] = d.name.trim();
  }
  return out;
}

/**
 * The seconds a pending choice has by the game's rule (`choiceTimeout`; docs/protocol.md § Rules
 * of play: 60 s with default when absent), or null in `no-timeout` mode: the countdown of a prompt
 * that carries no `timeout` of its own (a draft card's: the server times it out by this rule, and
 * the page showed no countdown, session-14 trial).
 */
export function choiceSeconds(request: unknown): number | null {
  const ct = isObj(request) ? request.choiceTimeout : undefined;
  if (isObj(ct) && ct.mode === 'no-timeout') return null;
  return isObj(ct) && typeof ct.seconds === 'number' && ct.seconds > 0 ? ct.seconds : 60;
}
