/**
 * The modifier editor's model, without UI: the palette (the spec's six categories, as the Rust
 * descriptor assigns them: crates/modifiers/src/descriptor.rs `PrimitiveKind::category`), the six
 * locked templates (the shipped library files themselves), where a new node goes, JSON paths of
 * the fields, and which finding belongs beside which field.
 */
import simpleMine from '../../../crates/modifiers/library/simple-mine.json';
import vampire from '../../../crates/modifiers/library/vampire-on-capture.json';
import frozenColumn from '../../../crates/modifiers/library/frozen-column.json';
import coinFlip from '../../../crates/modifiers/library/coin-flip-restriction.json';
import religiousBishop from '../../../crates/modifiers/library/religious-bishop.json';
import noMansLand from '../../../crates/modifiers/library/no-mans-land.json';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export interface Node {
  kind: string;
  params?: { [k: string]: Json };
  effects?: Node[];
}
export interface Descriptor {
  version: number;
  id: string;
  name: string;
  description?: string;
  parameters?: { name: string; type: string; default?: Json; description?: string }[];
  draft?: Json;
  passive?: Node[];
  triggers?: Node[];
  [k: string]: unknown;
}

/** The six template descriptors (modifier-dsl-decisions § Locked Lists), in the spec's order. */
export const TEMPLATES: Descriptor[] = [simpleMine, vampire, frozenColumn, coinFlip, religiousBishop, noMansLand] as Descriptor[];

export type Category = 'State' | 'Mechanic' | 'Trigger' | 'Imperative' | 'Iteration' | 'Restriction';

/** The palette: the spec's six categories with their kinds (docs/modifiers.md § Triggers, § Primitives). */
export const PALETTE: Record<Category, string[]> = {
  Trigger: [
    'on-rule-activated', 'on-rule-expire', 'on-turn-start', 'on-turn-end', 'on-move', 'on-capture', 'on-captured',
    'on-damaged', 'on-promotion', 'on-check-received', 'on-check-delivered', 'on-moved-onto-square', 'conditional',
    'on-piece-entered-marker', 'on-marker-expire', 'on-capture-attempt', 'on-kill-attempt',
  ],
  State: ['seed-attribute', 'set-piece-attr', 'add-to-attribute', 'set-capture-flag', 'set-var', 'add-to-var'],
  Mechanic: ['add-aura', 'add-moves', 'replace-moves', 'set-board-topology'],
  Imperative: [
    'spawn-marker', 'remove-marker', 'move-marker', 'spawn-piece', 'kill', 'remove-piece', 'swap-pieces', 'step-piece', 'move-piece',
    'convert-piece', 'cancel-capture', 'cancel-kill', 'skip-turn', 'detach-modifier', 'request-choice', 'flip-coin',
  ],
  Iteration: ['for-each', 'random-pick', 'with-probability', 'conditional'],
  Restriction: ['forbid-move', 'must-move-if-able', 'protect', 'keep-farthest'],
};

/** A starting node for a kind: its required parameters with plausible values (docs/modifiers.md § Primitives). */
export function newNode(category: Category, kind: string): Node {
  const P: Record<string, { [k: string]: Json }> = {
    'on-moved-onto-square': { filter: { squares: ['e4'] } },
    'on-piece-entered-marker': { kind: 'mine' },
    'on-marker-expire': { kind: 'mine' },
    'seed-attribute': { attr: 'Hp', value: 1 },
    'set-piece-attr': { attr: 'Hp', value: 1 },
    'add-to-attribute': { attr: 'Hp', delta: 1 },
    'set-capture-flag': { flag: 'noCapture' },
    'set-var': { name: 'x', value: 0 },
    'add-to-var': { name: 'x', delta: 1 },
    'add-aura': { radius: 1, targetAttr: 'Hp', delta: 1, source: { type: ['king'] } },
    'add-moves': { pieces: { type: ['pawn'] }, shapes: [{ kind: 'step', direction: 'backward' }] },
    'replace-moves': { pieces: { type: ['knight'] }, shapes: [{ kind: 'leap', direction: [1, 2], symmetry: 'full' }] },
    'set-board-topology': { wrapFiles: true },
    'spawn-marker': { kind: 'mine', at: 'e4', lifetime: { kind: 'permanent' } },
    'remove-marker': { markers: { kind: 'mine' } },
    'move-marker': { markers: { kind: 'mine' }, to: 'd4' },
    'spawn-piece': { type: 'pawn', color: 'white', at: 'e4' },
    kill: { pieces: '$event.piece' },
    'remove-piece': { pieces: '$event.piece' },
    'swap-pieces': { a: '$event.attacker', b: '$event.defender' },
    'step-piece': { pieces: '$event.piece', direction: 'forward', distance: 1 },
    'move-piece': { piece: '$event.piece', to: 'e4' },
    'convert-piece': { pieces: '$event.piece', color: 'white' },
    'request-choice': { kind: 'piece', forPlayer: 'chooser', bind: 'choice', then: [] },
    'flip-coin': { forPlayer: 'turn', bind: 'coin' },
    'for-each': { over: { pieces: { type: ['pawn'] } }, bind: 'item', do: [] },
    'random-pick': { from: { pieces: { type: ['pawn'] } }, bind: 'pick', then: [] },
    'with-probability': { p: 0.5, then: [] },
    conditional: { if: { eq: [1, 1] }, then: [] },
    'forbid-move': { piece: { type: ['king'] } },
    'must-move-if-able': { capture: true },
    protect: { pieces: { type: ['king'] }, against: ['capture'] },
    'keep-farthest': { pieces: { type: ['rook'] } },
  };
  if (category === 'Trigger') {
    const params = kind === 'conditional' ? { if: { eq: [1, 1] } } : P[kind];
    return params ? { kind, params: structuredClone(params), effects: [] } : { kind, effects: [] };
  }
  const params = P[kind];
  return params ? { kind, params: structuredClone(params) } : { kind };
}

/**
 * A library template as the editor opens it: a copy with an id of its own, `ID-custom`, and
 * "(custom)" after its name (session-14 trial: the copy kept the library's id, the validator
 * called it valid, and Save was refused: the server keeps library ids for the library).
 */
export function templateCopy(t: Descriptor): Descriptor {
  const d = structuredClone(t);
  if (!d.id.endsWith('-custom')) d.id = `${d.id}-custom`.slice(0, 64);
  if (!/\(custom\)$/.test(d.name)) d.name = `${d.name} (custom)`;
  return d;
}

/**
 * Why an id cannot be saved: it is a library modifier's (`libraryIds`: GET /api/rules modifiers
 * that are not `saved`), which POST /api/modifiers refuses (`modifier.id-taken`). Null when free.
 */
export function libraryIdClash(id: string, libraryIds: Iterable<string>): string | null {
  for (const l of libraryIds) {
    if (l === id) return `“${id}” is the id of a library modifier: Save would be refused. Give the rule an id of its own, such as “${`${id}-custom`.slice(0, 64)}”.`;
  }
  return null;
}

/** Where the palette's effects go: a trigger's effect list (which trigger, inside which containers), or none. */
export interface EffectContext {
  /** The trigger kind the list belongs to; null when the target is not a trigger's effects. */
  trigger: string | null;
  /** Inside `with-probability` or `random-pick` (a draw). */
  inDraw: boolean;
  /** Inside `for-each`. */
  inIteration: boolean;
}

/** The context of the list at `target` (`$.triggers[0].effects[1].params.then`): its trigger and containers. */
export function effectContext(d: Descriptor, target: Path): EffectContext {
  const steps = parsePath(target);
  const out: EffectContext = { trigger: null, inDraw: false, inIteration: false };
  if (steps[0] !== 'triggers' || typeof steps[1] !== 'number') return out;
  const trig = d.triggers?.[steps[1]];
  if (!trig) return out;
  out.trigger = trig.kind;
  // Walk the nodes the path goes through: …effects[i].params.then[j]…
  let cur: unknown = trig;
  for (let i = 2; i < steps.length; i++) {
    const st = steps[i];
    if (cur === null || typeof cur !== 'object') break;
    const node = cur as Node;
    if (st === 'params' && typeof steps[i + 1] === 'string') {
      const body = steps[i + 1] as string;
      if ((node.kind === 'with-probability' || node.kind === 'random-pick') && (BODY_KEYS as readonly string[]).includes(body)) out.inDraw = true;
      if (node.kind === 'for-each' && body === 'do') out.inIteration = true;
    }
    cur = (cur as Record<string | number, unknown>)[st];
  }
  return out;
}

/**
 * The primitives allowed only in some triggers (crates/modifiers/src/validate.rs, rulings;
 * docs/modifiers.md § Primitives): `descriptor.primitives.wrong-trigger` otherwise.
 */
export const ONLY_IN: Record<string, string[]> = {
  'cancel-capture': ['on-capture-attempt'],
  'cancel-kill': ['on-kill-attempt'],
  'skip-turn': ['on-turn-start', 'on-rule-activated'],
};
const CHOICES = ['request-choice', 'flip-coin'];

/**
 * Why the palette does not offer `kind` for the list being added to, in the validator's words
 * (wrong-trigger, choice-in-draw, choice-in-iteration), or null when it may go there. Triggers,
 * passive primitives (they go to `passive`) and lists outside a trigger are not restricted here.
 */
export function notAllowedHere(cat: Category, kind: string, ctx: EffectContext): string | null {
  if (cat === 'Trigger' || isPassiveCategory(cat) || ctx.trigger === null) return null;
  const only = ONLY_IN[kind];
  if (only && !only.includes(ctx.trigger)) return `${kind} is allowed only in ${only.join(' or ')}, not in ${ctx.trigger}`;
  if (CHOICES.includes(kind)) {
    if (ctx.trigger === 'on-kill-attempt') return `${kind} is not allowed in on-kill-attempt`;
    if (ctx.inDraw) return `${kind} is not allowed inside with-probability or random-pick: draws must not wait for an answer`;
    if (ctx.inIteration) return `${kind} is not allowed inside for-each`;
  }
  return null;
}

/** Passive-only categories go to `passive`; `add-aura` may go to either. */
export const isPassiveCategory = (c: Category) => c === 'Mechanic' || c === 'Restriction';

export const BODY_KEYS = ['then', 'else', 'do'] as const;

/** Where a node sits: a JSON path such as `$.triggers[0].effects[1].params.then[0]`. */
export type Path = string;

/** Every path the editor renders a field for: header fields, parameters, nodes, their params and bodies. */
export function fieldPaths(d: Descriptor): Path[] {
  const out: Path[] = ['$', '$.version', '$.id', '$.name', '$.description'];
  (d.parameters ?? []).forEach((_, i) => out.push(`$.parameters[${i}]`, `$.parameters[${i}].default`));
  const walk = (nodes: Node[] | undefined, at: Path) => {
    (nodes ?? []).forEach((n, i) => {
      const p = `${at}[${i}]`;
      out.push(p, `${p}.kind`);
      for (const [k, v] of Object.entries(n.params ?? {})) {
        out.push(`${p}.params.${k}`);
        if ((BODY_KEYS as readonly string[]).includes(k) && Array.isArray(v)) walk(v as unknown as Node[], `${p}.params.${k}`);
      }
      if (n.effects) walk(n.effects, `${p}.effects`);
    });
  };
  walk(d.passive, '$.passive');
  walk(d.triggers, '$.triggers');
  return out;
}

/** The rendered field a finding belongs to: the longest rendered path that is the finding's path or an ancestor of it. */
export function ownerOf(findingPath: string, rendered: Path[]): Path {
  let best = '$';
  for (const p of rendered) {
    if (p.length <= best.length) continue;
    if (findingPath === p || findingPath.startsWith(`${p}.`) || findingPath.startsWith(`${p}[`)) best = p;
  }
  return best;
}

/** Reads a value at a path like `$.triggers[0].params.then[1]` (undefined when absent). */
export function getAt(root: unknown, path: Path): unknown {
  let cur: unknown = root;
  for (const step of parsePath(path)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[step];
  }
  return cur;
}

export function parsePath(path: Path): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path.replace(/^\$/, '')))) out.push(m[1] !== undefined ? m[1] : Number(m[2]));
  return out;
}

/** A copy of `root` with the value at `path` replaced (or removed when `value` is undefined). */
export function setAt<T>(root: T, path: Path, value: unknown): T {
  const steps = parsePath(path);
  const copy = structuredClone(root) as unknown as Record<string | number, unknown>;
  let cur: Record<string | number, unknown> = copy;
  for (let i = 0; i < steps.length - 1; i++) {
    const next = cur[steps[i]];
    if (next === null || typeof next !== 'object') cur[steps[i]] = typeof steps[i + 1] === 'number' ? [] : {};
    cur = cur[steps[i]] as Record<string | number, unknown>;
  }
  const last = steps[steps.length - 1];
  if (value === undefined) {
    if (Array.isArray(cur) && typeof last === 'number') cur.splice(last, 1);
    else delete cur[last];
  } else cur[last] = value;
  return copy as unknown as T;
}

/** Which renderer a parameter gets (the spec's four, or plain JSON): by the primitive and key, or the declared type. */
export type Renderer = 'square' | 'piece' | 'marker-kind' | 'lifetime' | 'json';
export function rendererFor(nodeKind: string, key: string, value: unknown): Renderer {
  if (key === 'lifetime') return 'lifetime';
  if (key === 'kind' && (nodeKind === 'spawn-marker' || nodeKind === 'on-piece-entered-marker' || nodeKind === 'on-marker-expire')) return 'marker-kind';
  if ((key === 'at' || key === 'to') && typeof value === 'string') return 'square';
  if (key === 'type' && nodeKind === 'spawn-piece' && typeof value === 'string') return 'piece';
  return 'json';
}
export function rendererForType(type: string): Renderer {
  if (type === 'square') return 'square';
  if (type === 'piece-type') return 'piece';
  if (type === 'marker-kind') return 'marker-kind';
  return 'json';
}

/** A blank descriptor for "new". */
export const blankDescriptor = (): Descriptor => ({ version: 1, id: 'my-rule', name: 'My rule', description: '', triggers: [] });

/**
 * Reads the JSON view's text as a descriptor: the object, or the syntax error with its 1-based line
 * and column (from the parser's character position; the end of the text when it ran out), so the
 * validator never calls malformed JSON valid (session-6 web trial).
 */
export function parseDescriptorText(text: string): { descriptor: Descriptor } | { error: string; line: number; column: number } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    const raw = (e as Error).message;
    const m = /at position (\d+)/.exec(raw);
    const pos = m ? Number(m[1]) : text.length;
    const before = text.slice(0, pos).split('\n');
    const line = before.length;
    const column = before[before.length - 1].length + 1;
    // The parser's own wording without its position (given as line and column instead).
    const what = raw.replace(/\s*\(line \d+ column \d+\)/, '').replace(/\s*in JSON at position \d+/, '').replace(/^JSON\.parse: /, '') || 'not JSON';
    return { error: `JSON syntax error at line ${line}, column ${column}: ${what}`, line, column };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    return { error: 'the descriptor must be a JSON object ({"version": 1, "id": …})', line: 1, column: 1 };
  }
  return { descriptor: v as Descriptor };
}
