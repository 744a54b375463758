/**
 * The `pieces` parameter (`kill`, `remove-piece`, `step-piece`, `convert-piece`, `add-moves`,
 * `replace-moves`, `protect`, `keep-farthest`) as a form (session-14 trial: it was a raw JSON
 * field): either a reference to the event's or a bound piece (`$event.piece`, `$bind.pick`), or a
 * piece filter edited by kinds and colour (docs/modifiers.md § Values: piece filter keys). Keys
 * the form does not offer (`on`, `where`, …) are kept, named, and editable in the JSON beside it.
 */
import type { Descriptor, Json, Node } from './model';
import { readPieceFilter } from './moveFilter';

/** How the form shows a `pieces` value. */
export type PiecesMode = 'ref' | 'filter' | 'custom';

/** The references a `pieces` value usually names, with words for the select. */
export const EVENT_PIECES: [string, string][] = [
  ['$event.piece', 'the event’s piece'],
  ['$event.attacker', 'the capturing piece'],
  ['$event.defender', 'the captured piece'],
  ['$self', 'the trigger’s subject'],
];

/** The form's view: the mode, and the reference (ref mode) or the filter's kinds, colour and other keys. */
export function readPieces(v: Json | undefined): { mode: PiecesMode; ref: string; types: string[]; color: string; other: string[] } {
  if (typeof v === 'string' && v.startsWith('$')) return { mode: 'ref', ref: v, types: [], color: '', other: [] };
  if (v === undefined || (v !== null && typeof v === 'object' && !Array.isArray(v))) {
    const f = readPieceFilter(v);
    return { mode: 'filter', ref: '', types: f.types, color: f.color, other: f.other };
  }
  return { mode: 'custom', ref: '', types: [], color: '', other: [] };
}

/** The `bind` names a descriptor defines (`$bind.NAME` may name them), in document order, each once. */
export function bindNames(d: Descriptor): string[] {
  const out: string[] = [];
  const walk = (nodes: Node[] | undefined) => {
    for (const n of nodes ?? []) {
      const b = n.params?.bind;
      if (typeof b === 'string' && b && !out.includes(b)) out.push(b);
      for (const k of ['then', 'else', 'do']) {
        const body = n.params?.[k];
        if (Array.isArray(body)) walk(body as unknown as Node[]);
      }
      if (n.effects) walk(n.effects);
    }
  };
  walk(d.passive);
  walk(d.triggers);
  return out;
}

/** The references the form's select offers: the event's pieces, then `$bind.NAME` for each binding, then `current` if it is another one. */
export function refChoices(d: Descriptor, current: string): [string, string][] {
  const out: [string, string][] = [...EVENT_PIECES, ...bindNames(d).map((b): [string, string] => [`$bind.${b}`, `what “${b}” holds`])];
  if (current && !out.some(([v]) => v === current)) out.push([current, current]);
  return out;
}

/** The value for a mode switch: the first event piece for ref, an empty filter (every piece) for filter. */
export function switchPieces(mode: PiecesMode): Json {
  return mode === 'ref' ? '$event.piece' : {};
}
