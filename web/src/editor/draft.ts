/**
 * What the modifier editor keeps between page loads (issue 26 problem 4): the draft being edited,
 * so Try it → Back and a reload find the rule as it was left, and the saved rules the editor can
 * reopen (the server's library entries with `saved: true`, and the ones kept only in this browser).
 */
import type { RuleEntry } from '../protocol';
import type { CustomModifier } from '../pages/customModifiers';
import type { Descriptor } from './model';

/** The localStorage key of the editor's draft. */
export const DRAFT_KEY = 'houserules.editorDraft';

/**
 * The editor's draft: the descriptor, which view was open, and in the JSON view its text (kept as
 * typed, malformed or not, since the JSON view is never left with an error: nothing typed is lost).
 */
export interface Draft {
  descriptor: Descriptor;
  view: 'visual' | 'json';
  jsonText?: string;
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

/** The stored draft, or null when there is none or it is not one (a hand-edited or older entry). */
export function loadDraft(storage: Store | undefined = globalThis.localStorage): Draft | null {
  try {
    const v = JSON.parse(storage?.getItem(DRAFT_KEY) ?? 'null') as Partial<Draft> | null;
    if (!v || typeof v !== 'object' || !v.descriptor || typeof v.descriptor !== 'object' || Array.isArray(v.descriptor)) return null;
    const view = v.view === 'json' ? 'json' : 'visual';
    return { descriptor: v.descriptor, view, ...(view === 'json' && typeof v.jsonText === 'string' ? { jsonText: v.jsonText } : {}) };
  } catch {
    return null;
  }
}

/** Stores the draft; a full or disabled storage keeps it for this page's life only (no error shown for that). */
export function saveDraft(d: Draft, storage: Store | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(DRAFT_KEY, JSON.stringify(d));
  } catch {
    /* storage full or off */
  }
}

/** A rule the editor can reopen: `key` is `saved:ID` (server library) or `local:ID` (this browser only). */
export interface SavedRule {
  key: string;
  id: string;
  name: string;
  descriptor: Descriptor;
  where: 'server' | 'browser';
}

/**
 * The saved rules to reopen: `GET /api/rules` modifiers with `saved: true` and a descriptor, then
 * those saved in this browser that the server does not list (a save the server refused, or another
 * server's), each once, in that order.
 */
export function savedRules(modifiers: RuleEntry[], local: CustomModifier[]): SavedRule[] {
  const out: SavedRule[] = [];
  for (const m of modifiers) {
    const d = m.descriptor;
    if (!m.saved || !d || typeof d !== 'object' || Array.isArray(d)) continue;
    out.push({ key: `saved:${m.id}`, id: m.id, name: m.name ?? m.id, descriptor: d as Descriptor, where: 'server' });
  }
  for (const m of local) {
    if (out.some((s) => s.id === m.id)) continue;
    out.push({ key: `local:${m.id}`, id: m.id, name: m.name, descriptor: m.descriptor as Descriptor, where: 'browser' });
  }
  return out;
}

/** The editor's address that opens a saved rule (the lobby's "edit" links). */
export const editUrl = (key: string) => `/editor?open=${encodeURIComponent(key)}`;

/** The rule key an editor address asks to open (`?open=saved:ID`), or null. */
export function openKey(search: string): string | null {
  const k = new URLSearchParams(search).get('open');
  return k && /^(saved|local):./.test(k) ? k : null;
}
