import { describe, expect, it } from 'vitest';
import { DRAFT_KEY, editUrl, loadDraft, openKey, saveDraft, savedRules } from './draft';
import { TEMPLATES } from './model';

/** A Storage stand-in (vitest runs in node: no localStorage). */
function memory(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('the editor draft (issue 26 problem 4: lost after Try it → Back)', () => {
  it('comes back as it was saved, edits included', () => {
    const s = memory();
    const d = { ...structuredClone(TEMPLATES[0]), id: 'my_mine', name: 'My mine' };
    saveDraft({ descriptor: d, view: 'visual' }, s);
    expect(loadDraft(s)).toEqual({ descriptor: d, view: 'visual' });
  });
  it('keeps the JSON view and its text, malformed text too', () => {
    const s = memory();
    saveDraft({ descriptor: TEMPLATES[1], view: 'json', jsonText: '{"id" "x"' }, s);
    expect(loadDraft(s)).toEqual({ descriptor: TEMPLATES[1], view: 'json', jsonText: '{"id" "x"' });
  });
  it('is none when nothing or something else is stored', () => {
    expect(loadDraft(memory())).toBeNull();
    expect(loadDraft(memory({ [DRAFT_KEY]: 'not json' }))).toBeNull();
    expect(loadDraft(memory({ [DRAFT_KEY]: '{"descriptor": [1]}' }))).toBeNull();
    expect(loadDraft(undefined)).toBeNull();
  });
  it('survives a storage that refuses writes', () => {
    const s = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(() => saveDraft({ descriptor: TEMPLATES[0], view: 'visual' }, s)).not.toThrow();
  });
});

describe('saved rules to reopen', () => {
  const mine = { version: 1, id: 'mine_on_c6', name: 'Mine on c6', triggers: [] };
  it('lists the server’s saved entries with their descriptor, then this browser’s others', () => {
    const server = [
      { id: 'simple-mine', name: 'Simple Mine', kind: 'template' }, // the library: not a saved rule
      { id: 'mine_on_c6', name: 'Mine on c6', saved: true, descriptor: mine },
      { id: 'broken', saved: true }, // no descriptor: nothing to open
    ];
    const local = [
      { id: 'mine_on_c6', name: 'old local copy', descriptor: { ...mine, name: 'old' } },
      { id: 'only_here', name: 'Only here', descriptor: { version: 1, id: 'only_here', name: 'Only here' } },
    ];
    const r = savedRules(server, local);
    expect(r.map((x) => [x.key, x.name, x.where])).toEqual([
      ['saved:mine_on_c6', 'Mine on c6', 'server'],
      ['local:only_here', 'Only here', 'browser'],
    ]);
    expect(r[0].descriptor).toBe(mine);
  });
  it('opens from the lobby’s link', () => {
    expect(editUrl('saved:mine on c6')).toBe('/editor?open=saved%3Amine%20on%20c6');
    expect(openKey('?open=saved%3Amine%20on%20c6')).toBe('saved:mine on c6');
    expect(openKey('?open=local:x')).toBe('local:x');
    expect(openKey('?open=other:x')).toBeNull();
    expect(openKey('')).toBeNull();
  });
});
