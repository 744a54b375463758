/**
 * What a descriptor will do, in words, and the markers it places that nothing reads (issue 26
 * problem 5). A marker is only a mark on the board: the runtime gives none of them an effect of its
 * own except `blocked` (no move ends on or slides through it: docs/modifiers.md § Runtime,
 * crates/modifiers/src/runtime/eval.rs). A `frozen-square` marker freezes nothing unless a filter
 * reads it (`forbid-move` with `from: {hasMarker: …}`, as the Frozen Column template does), and a
 * mine kills nothing without an `on-piece-entered-marker` trigger. The validator calls such a rule
 * valid (it is), so the editor says what the rule does, warns, and offers the usual meaning as one
 * click.
 */
import { newNode, type Descriptor, type Json, type Node } from './model';

type Obj = { [k: string]: Json };
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The value of `$param.NAME` (its default), or the value itself. */
function resolve(d: Descriptor, v: unknown): unknown {
  if (typeof v === 'string' && v.startsWith('$param.')) {
    const p = (d.parameters ?? []).find((x) => x.name === v.slice(7));
    return p?.default;
  }
  return v;
}

/** Where each marker kind is placed (`spawn-marker` paths) and which kinds something reads (`*`: every kind). */
export function markerUse(d: Descriptor): { placed: Map<string, string[]>; read: Set<string>; readOwn: Set<string> } {
  const placed = new Map<string, string[]>();
  const read = new Set<string>(['blocked']); // the runtime's own hard block
  // Kinds read as this rule's own markers only (`own` absent or true: the runtime's default,
  // crates/modifiers/src/runtime/eval.rs), which another rule's markers never match.
  const readOwn = new Set<string>();
  const readKind = (v: unknown, own: unknown = true) => {
    const k = resolve(d, v);
    read.add(typeof k === 'string' ? k : '*'); // a kind known only at run time may be any kind
    if (typeof k === 'string' && own !== false) readOwn.add(k);
  };
  const walk = (v: unknown, path: string, inNodeKind: string | null) => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${path}[${i}]`, inNodeKind));
      return;
    }
    if (!isObj(v)) return;
    const kind = typeof v.kind === 'string' && (isObj(v.params) || Array.isArray(v.effects)) ? v.kind : null;
    if (kind) {
      const params = isObj(v.params) ? v.params : {};
      if (kind === 'spawn-marker') {
        const k = resolve(d, params.kind);
        if (typeof k === 'string') placed.set(k, [...(placed.get(k) ?? []), path]);
      }
      if (kind === 'on-piece-entered-marker' || kind === 'on-marker-expire') readKind(params.kind, params.own);
    }
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'onMarker' || k === 'hasMarker') && isObj(x)) readKind(x.kind, x.own);
      // A marker source (`for-each` over markers, a `count`): it reads the markers, unless it only
      // names the markers that `remove-marker` or `move-marker` act on (moving a mark gives it no effect).
      else if (k === 'markers' && isObj(x) && inNodeKind !== 'remove-marker' && inNodeKind !== 'move-marker') readKind(x.kind ?? '*', x.own);
      const child = k === 'params' && kind ? kind : k === 'effects' || k === 'then' || k === 'else' || k === 'do' ? null : inNodeKind;
      walk(x, `${path}.${k}`, child);
    }
  };
  walk(d.passive, '$.passive', null);
  walk(d.triggers, '$.triggers', null);
  return { placed, read, readOwn };
}

/** What a marker kind is usually meant to do, as nodes that make it do so (null: no usual meaning). */
export interface MarkerFix {
  label: string;
  passive?: Node[];
  triggers?: Node[];
}
export function markerFix(kind: string): MarkerFix {
  const killOnEntry = (what: string): MarkerFix => ({
    label: `Make a ${kind} kill the piece that lands on it (${what})`,
    triggers: [{ kind: 'on-piece-entered-marker', params: { kind }, effects: [{ kind: 'kill', params: { pieces: '$event.piece' } }] }],
  });
  switch (kind) {
    case 'frozen-square':
      // rulings C3: a piece a destination-independent forbid-move names cannot move and attacks nothing.
      return { label: 'Freeze the pieces on these squares (they cannot move and give no check)', passive: [{ kind: 'forbid-move', params: { from: { hasMarker: { kind } } } }] };
    case 'ward':
      return { label: 'Protect the pieces on these squares from capture and kills', passive: [{ kind: 'protect', params: { pieces: { onMarker: { kind } }, against: ['capture', 'kill'] } }] };
    case 'mine':
      return killOnEntry('as the Simple Mine template');
    case 'pit':
    case 'death-square':
      return killOnEntry('kings are spared, as by any kill');
    default:
      return {
        label: `Add a trigger for a piece entering a ${kind} (then give it effects)`,
        triggers: [{ ...newNode('Trigger', 'on-piece-entered-marker'), params: { kind } }],
      };
  }
}

/** A marker the rule places and nothing reads: its kind, where it is placed, and the usual fix. */
export interface MarkerWarning {
  kind: string;
  paths: string[];
  message: string;
  /** The usual meaning as nodes to add; none for a marker read but never placed. */
  fix?: MarkerFix;
}
export function markerWarnings(d: Descriptor): MarkerWarning[] {
  const { placed, read, readOwn } = markerUse(d);
  const out: MarkerWarning[] = [];
  // Read as the rule's own but never placed by it: the filter or trigger never matches.
  for (const kind of readOwn) {
    if (kind === 'blocked' || placed.has(kind)) continue;
    out.push({
      kind,
      paths: [],
      message:
        `The rule reads ${kind} markers but never places one, and a rule sees only its own markers unless the filter says "own": false: ` +
        `as it stands that part never applies. Place ${kind} markers with spawn-marker, or set "own": false to read other rules' markers.`,
    });
  }
  if (read.has('*')) return out;
  for (const [kind, paths] of placed) {
    if (read.has(kind)) continue;
    out.push({
      kind,
      paths,
      message:
        `The rule places ${kind} markers, but nothing in it reads them: a marker has no effect of its own (only “blocked” does), ` +
        `so they are drawn on the board and change nothing. Add a filter or trigger that reads ${kind}, or use the button.`,
      fix: markerFix(kind),
    });
  }
  return out;
}

/** The descriptor with a fix's nodes appended to `passive` and `triggers`. */
export function applyFix(d: Descriptor, fix: MarkerFix): Descriptor {
  const out = structuredClone(d);
  if (fix.passive) out.passive = [...(out.passive ?? []), ...structuredClone(fix.passive)];
  if (fix.triggers) out.triggers = [...(out.triggers ?? []), ...structuredClone(fix.triggers)];
  return out;
}

// ---- the rule in words

const REFS: Record<string, string> = {
  '$event.piece': 'the piece',
  '$event.attacker': 'the capturing piece',
  '$event.defender': 'the captured piece',
  '$event.from': 'the square it left',
  '$event.to': 'the square it reached',
  '$event.marker': 'the marker',
  $self: 'this piece',
};

function value(d: Descriptor, v: unknown): string {
  if (typeof v === 'string') {
    if (REFS[v]) return REFS[v];
    if (v.startsWith('$param.')) {
      const r = resolve(d, v);
      return `the parameter ${v.slice(7)}${r !== undefined ? ` (${String(r)})` : ''}`;
    }
    if (v.startsWith('$bind.')) return `each ${v.slice(6)}`;
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => value(d, x)).join(', ');
  if (isObj(v)) return JSON.stringify(v);
  return String(v);
}

function plural(t: string): string {
  return t.endsWith('s') ? t : `${t}s`;
}

/** A piece filter in words: "white kings and queens on squares with a frozen-square marker". */
export function piecesText(d: Descriptor, v: unknown): string {
  if (!isObj(v)) return value(d, v);
  if (isObj(v.pieces)) return piecesText(d, v.pieces);
  const types = Array.isArray(v.type) ? v.type.map(String) : typeof v.type === 'string' ? [v.type] : [];
  const color = typeof v.color === 'string' ? `${v.color} ` : '';
  let s = `${color}${types.length ? types.map(plural).join(' and ') : 'pieces'}`;
  if (isObj(v.onMarker)) s += ` on a ${value(d, v.onMarker.kind)} marker`;
  if (v.on !== undefined) s += ` on ${squaresText(d, v.on)}`;
  if (v.royal === false) s += ' (not royal)';
  return s;
}

/** A square filter in words: "e4, e5", "file d", "squares with a mine marker". */
export function squaresText(d: Descriptor, v: unknown): string {
  if (!isObj(v)) return value(d, v);
  const parts: string[] = [];
  if (v.squares !== undefined) parts.push(value(d, v.squares));
  if (v.file !== undefined) parts.push(`file ${value(d, v.file)}`);
  if (v.rank !== undefined) parts.push(`rank ${value(d, v.rank)}`);
  if (isObj(v.hasMarker)) parts.push(`squares with a ${value(d, v.hasMarker.kind)} marker`);
  if (v.empty === true) parts.push('empty squares');
  if (v.empty === false) parts.push('occupied squares');
  const rest = Object.keys(v).filter((k) => !['squares', 'file', 'rank', 'hasMarker', 'empty', 'kind'].includes(k));
  if (rest.length) parts.push(`squares where ${rest.join(', ')} hold`);
  return parts.length ? parts.join(' and ') : 'any square';
}

/** A move filter in words: "by white kings from file d to empty squares, captures only". */
export function moveFilterText(d: Descriptor, f: unknown): string {
  if (!isObj(f)) return 'every move';
  const parts: string[] = [];
  if (typeof f.side === 'string') parts.push(`of ${f.side}`);
  parts.push(f.piece !== undefined ? `by ${piecesText(d, f.piece)}` : 'by any piece');
  if (f.from !== undefined) parts.push(`from ${squaresText(d, f.from)}`);
  if (f.to !== undefined) parts.push(`to ${squaresText(d, f.to)}`);
  if (f.capture === true) parts.push('(captures only)');
  if (f.capture === false) parts.push('(non-captures only)');
  if (f.castling === true) parts.push('(castling only)');
  if (f.castling === false) parts.push('(not castling)');
  if (f.target !== undefined) parts.push(`capturing ${piecesText(d, f.target)}`);
  if (f.added === true) parts.push('(moves added by a modifier only)');
  if (f.when !== undefined) parts.push(', when its condition holds');
  return parts.join(' ').replace(' ,', ',');
}

const TRIGGERS: Record<string, (d: Descriptor, p: Obj) => string> = {
  'on-rule-activated': () => 'When the rule starts',
  'on-rule-expire': () => 'When the rule ends',
  'on-turn-start': () => 'At the start of each turn',
  'on-turn-end': () => 'At the end of each turn',
  'on-move': () => 'After each move',
  'on-capture': () => 'When a piece captures',
  'on-captured': () => 'When a piece is captured',
  'on-damaged': () => 'When a piece is damaged',
  'on-promotion': () => 'When a pawn promotes',
  'on-check-received': () => 'When a king is put in check',
  'on-check-delivered': () => 'When a move gives check',
  'on-moved-onto-square': (d, p) => `When a piece moves onto ${squaresText(d, p.filter)}`,
  conditional: () => 'Whenever its condition holds',
  'on-piece-entered-marker': (d, p) => `When a piece lands on a ${value(d, p.kind)} marker`,
  'on-marker-expire': (d, p) => `When a ${value(d, p.kind)} marker expires`,
  'on-capture-attempt': () => 'When a capture is attempted',
  'on-kill-attempt': () => 'When a piece is about to be killed',
};

function lifetimeText(l: unknown): string {
  if (!isObj(l)) return '';
  if (l.kind === 'permanent') return ', for good';
  if (l.kind === 'one-shot') return ', used up by the first piece';
  if (l.kind === 'moves') return `, for ${String(l.plies)} plies`;
  return '';
}

/** One node in words (nested bodies included). */
export function nodeText(d: Descriptor, n: Node): string {
  const p: Obj = n.params ?? {};
  const body = (k: string) => (Array.isArray(p[k]) ? (p[k] as unknown as Node[]).map((x) => nodeText(d, x)).join('; ') || 'nothing' : 'nothing');
  switch (n.kind) {
    case 'spawn-marker':
      return `place a ${value(d, p.kind)} marker on ${value(d, p.at)}${lifetimeText(p.lifetime)}`;
    case 'remove-marker':
      return `remove ${isObj(p.markers) && p.markers.kind !== undefined ? `the ${value(d, p.markers.kind)} markers` : 'the markers'}`;
    case 'kill':
      return `kill ${piecesText(d, p.pieces)}`;
    case 'remove-piece':
      return `remove ${piecesText(d, p.pieces)} from the board`;
    case 'spawn-piece':
      return `put a ${value(d, p.color)} ${value(d, p.type)} on ${value(d, p.at)}`;
    case 'forbid-move':
      return `Forbidden: moves ${moveFilterText(d, p)}`;
    case 'must-move-if-able':
      return `Compulsory when possible: moves ${moveFilterText(d, p)}`;
    case 'protect':
      return `${piecesText(d, p.pieces)} cannot be ${(Array.isArray(p.against) ? p.against : [p.against]).map((a) => (a === 'capture' ? 'captured' : a === 'kill' ? 'killed' : String(a))).join(' or ')}`;
    case 'for-each': {
      const src = isObj(p.over) ? (isObj(p.over.squares) ? squaresText(d, p.over.squares) : isObj(p.over.pieces) ? piecesText(d, p.over.pieces) : value(d, p.over)) : value(d, p.over);
      return `for each of ${src}: ${body('do')}`;
    }
    case 'with-probability':
      return `with probability ${String(p.p)}: ${body('then')}${Array.isArray(p.else) ? `, else ${body('else')}` : ''}`;
    case 'conditional':
      return `if its condition holds: ${body('then')}${Array.isArray(p.else) ? `, else ${body('else')}` : ''}`;
    case 'random-pick':
      return `pick at random from ${value(d, p.from)}: ${body('then')}`;
    case 'cancel-capture':
      return 'cancel the capture';
    case 'skip-turn':
      return 'skip the turn';
    default:
      return n.kind;
  }
}

/** The rule in words: one line per passive node and per trigger ("When the rule starts: place …"). */
export function describeRule(d: Descriptor): string[] {
  const out: string[] = [];
  for (const n of d.passive ?? []) out.push(`${nodeText(d, n)}.`);
  for (const t of d.triggers ?? []) {
    const head = TRIGGERS[t.kind]?.(d, t.params ?? {}) ?? `On ${t.kind}`;
    const effects = (t.effects ?? []).map((e) => nodeText(d, e));
    out.push(`${head}: ${effects.length ? effects.join('; ') : 'nothing (the trigger has no effects yet)'}.`);
  }
  return out;
}
