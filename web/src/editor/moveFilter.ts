/**
 * The move filter of `forbid-move` and `must-move-if-able` as a form (issue 26 problem 5): the keys
 * docs/modifiers.md § Primitives lists (`side`, `piece`, `from`, `to`, `capture`, `castling`, …;
 * validator: crates/modifiers/src/validate.rs `MOVE_FILTER`), read into form values and written
 * back. Keys and shapes the form does not offer are kept as they are and named, to be edited in the
 * JSON beside the form.
 */
import type { Json } from './model';

type Obj = { [k: string]: Json };
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The move-filter keys the form edits; the rest (`target`, `progress`, `crossesFile`, `when`, `added`) stay JSON. */
export const FORM_KEYS = ['side', 'piece', 'from', 'to', 'capture', 'castling'] as const;

/**
 * A square filter as the form shows it: every square, listed squares, files, ranks, squares with a
 * marker, or `custom` (any other shape: shown as JSON, left alone by the form).
 */
export type SquareMode = 'any' | 'squares' | 'file' | 'rank' | 'marker' | 'custom';
export interface SquareForm {
  mode: SquareMode;
  /** Squares, files or ranks as typed ("e4 d5", "a h", "1 2"); the marker kind in `marker` mode. */
  text: string;
}

const words = (v: Json | undefined): string => (Array.isArray(v) ? v.map(String).join(' ') : v === undefined || v === null ? '' : String(v));

/** The form's view of a square filter (`undefined`: the key is absent, every square). */
export function readSquareFilter(v: Json | undefined): SquareForm {
  if (v === undefined || (isObj(v) && Object.keys(v).length === 0)) return { mode: 'any', text: '' };
  if (!isObj(v)) return { mode: 'custom', text: '' };
  const keys = Object.keys(v);
  if (keys.length !== 1) return { mode: 'custom', text: '' };
  const [k] = keys;
  if (k === 'squares' || k === 'file' || k === 'rank') return { mode: k, text: words(v[k]) };
  if (k === 'hasMarker' && isObj(v.hasMarker) && Object.keys(v.hasMarker).join() === 'kind' && typeof v.hasMarker.kind === 'string') {
    return { mode: 'marker', text: v.hasMarker.kind };
  }
  return { mode: 'custom', text: '' };
}

/**
 * A square filter from the form (undefined: leave the key out, every square). Squares, files and
 * ranks are split on spaces and commas; one item is written alone, several as a list, as the
 * validator takes either; ranks typed as digits stay strings ("1" is rank 1, as square names read).
 */
export function writeSquareFilter(f: SquareForm): Json | undefined {
  if (f.mode === 'any' || f.mode === 'custom') return undefined;
  if (f.mode === 'marker') return { hasMarker: { kind: f.text || 'frozen-square' } };
  const items = f.text.split(/[\s,]+/).filter(Boolean);
  return { [f.mode]: items.length === 1 ? items[0] : items };
}

/** The piece part of the form: the piece kinds (empty: any kind) and colour (`''`: either). */
export interface PieceForm {
  types: string[];
  color: string;
  /** Keys of the piece filter the form does not edit (kept; named beside the form). */
  other: string[];
}
export function readPieceFilter(v: Json | undefined): PieceForm {
  if (!isObj(v)) return { types: [], color: '', other: v === undefined ? [] : ['piece'] };
  const t = v.type;
  const types = Array.isArray(t) ? t.map(String) : typeof t === 'string' ? [t] : [];
  const color = typeof v.color === 'string' ? v.color : '';
  return { types, color, other: Object.keys(v).filter((k) => k !== 'type' && k !== 'color') };
}
/** The piece filter with the form's kinds and colour, other keys kept; undefined when nothing is left (any piece). */
export function writePieceFilter(old: Json | undefined, types: string[], color: string): Json | undefined {
  const out: Obj = isObj(old) ? { ...old } : {};
  if (types.length) out.type = types;
  else delete out.type;
  if (color) out.color = color;
  else delete out.color;
  return Object.keys(out).length ? out : undefined;
}

/** A three-way boolean key (`capture`, `castling`): `''` absent (either), `'true'`, `'false'`. */
export const readFlag = (v: Json | undefined): '' | 'true' | 'false' => (v === true ? 'true' : v === false ? 'false' : '');
export const writeFlag = (s: string): boolean | undefined => (s === 'true' ? true : s === 'false' ? false : undefined);

/** The filter with `key` set to `value`, or without it when `value` is undefined (a new object). */
export function withKey(filter: Json | undefined, key: string, value: Json | undefined): Obj {
  const out: Obj = isObj(filter) ? { ...filter } : {};
  if (value === undefined) delete out[key];
  else out[key] = value;
  return out;
}

/** The keys of a move filter that only the JSON edits: the form's own ones in a shape it cannot show, and the rest. */
export function jsonOnlyKeys(filter: Json | undefined): string[] {
  if (!isObj(filter)) return [];
  const out: string[] = [];
  for (const k of Object.keys(filter)) {
    if (!(FORM_KEYS as readonly string[]).includes(k)) out.push(k);
    else if ((k === 'from' || k === 'to') && readSquareFilter(filter[k]).mode === 'custom') out.push(k);
    else if (k === 'piece') out.push(...readPieceFilter(filter.piece).other.map((o) => `piece.${o}`));
    else if (k === 'side' && typeof filter.side !== 'string') out.push(k);
  }
  return out;
}
