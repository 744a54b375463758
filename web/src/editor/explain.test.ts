import { describe, expect, it } from 'vitest';
import { applyFix, describeRule, markerUse, markerWarnings, moveFilterText } from './explain';
import { TEMPLATES, type Descriptor } from './model';

// Issue 26 problem 5: a rule that only places a frozen-square marker. The runtime gives a marker
// no effect of its own except `blocked` (docs/modifiers.md § Runtime), so this rule changes nothing.
const onlyMarker: Descriptor = {
  version: 1,
  id: 'freeze_e4',
  name: 'Freeze e4',
  triggers: [
    {
      kind: 'on-rule-activated',
      effects: [{ kind: 'spawn-marker', params: { kind: 'frozen-square', at: 'e4', lifetime: { kind: 'permanent' } } }],
    },
  ],
};

describe('markers nothing reads', () => {
  it('warns about a frozen-square marker that no filter reads', () => {
    const w = markerWarnings(onlyMarker);
    expect(w.map((x) => [x.kind, x.paths])).toEqual([['frozen-square', ['$.triggers[0].effects[0]']]]);
    expect(w[0].message).toMatch(/nothing in it reads them/);
  });
  it('does not warn about the six templates (each reads what it places)', () => {
    for (const t of TEMPLATES) expect(markerWarnings(t), t.id).toEqual([]);
  });
  it('counts a kind given by a parameter, and a trigger or filter reading it', () => {
    const d: Descriptor = {
      ...structuredClone(onlyMarker),
      parameters: [{ name: 'k', type: 'marker-kind', default: 'mine' }],
    };
    d.triggers![0].effects![0].params!.kind = '$param.k';
    expect(markerWarnings(d).map((w) => w.kind)).toEqual(['mine']);
    d.triggers!.push({ kind: 'on-piece-entered-marker', params: { kind: 'mine' }, effects: [] });
    expect(markerWarnings(d)).toEqual([]);
  });
  it('does not count removing or moving a marker as reading it', () => {
    const d = structuredClone(onlyMarker);
    d.triggers!.push({ kind: 'on-rule-expire', effects: [{ kind: 'remove-marker', params: { markers: { kind: 'frozen-square' } } }] });
    expect(markerWarnings(d).map((w) => w.kind)).toEqual(['frozen-square']);
  });
  it('never warns about blocked (a hard block by itself)', () => {
    const d = structuredClone(onlyMarker);
    d.triggers![0].effects![0].params!.kind = 'blocked';
    expect(markerUse(d).placed.has('blocked')).toBe(true);
    expect(markerWarnings(d)).toEqual([]);
  });
  it('warns about a marker read as the rule’s own but never placed (own defaults to true)', () => {
    const d: Descriptor = { version: 1, id: 'x', name: 'x', passive: [{ kind: 'forbid-move', params: { from: { hasMarker: { kind: 'frozen-square' } } } }] };
    const w = markerWarnings(d);
    expect(w.map((x) => [x.kind, x.fix])).toEqual([['frozen-square', undefined]]);
    expect(w[0].message).toMatch(/never places one/);
    // `own: false` reads other rules' markers: nothing to warn about
    d.passive![0].params!.from = { hasMarker: { kind: 'frozen-square', own: false } };
    expect(markerWarnings(d)).toEqual([]);
  });
  it('the fix makes frozen squares freeze: forbid-move from a square with the marker', () => {
    const [w] = markerWarnings(onlyMarker);
    const fixed = applyFix(onlyMarker, w.fix!);
    // the Frozen Column template's own filter (crates/modifiers/library/frozen-column.json)
    expect(fixed.passive).toEqual([{ kind: 'forbid-move', params: { from: { hasMarker: { kind: 'frozen-square' } } } }]);
    expect(markerWarnings(fixed)).toEqual([]);
    expect(onlyMarker.passive).toBeUndefined(); // the original is untouched
  });
  it('the fix for a mine kills the piece that lands on it, as Simple Mine', () => {
    const d = structuredClone(onlyMarker);
    d.triggers![0].effects![0].params!.kind = 'mine';
    const fixed = applyFix(d, markerWarnings(d)[0].fix!);
    expect(fixed.triggers![1]).toEqual(TEMPLATES[0].triggers![1]);
  });
});

describe('the rule in words', () => {
  it('says what the marker-only rule does, and what the fixed one does', () => {
    expect(describeRule(onlyMarker)).toEqual(['When the rule starts: place a frozen-square marker on e4, for good.']);
    const fixed = applyFix(onlyMarker, markerWarnings(onlyMarker)[0].fix!);
    expect(describeRule(fixed)[0]).toBe('Forbidden: moves by any piece from squares with a frozen-square marker.');
  });
  it('reads Simple Mine', () => {
    expect(describeRule(TEMPLATES[0])).toEqual([
      'When the rule starts: place a mine marker on the parameter square (e4), used up by the first piece.',
      'When a piece lands on a mine marker: kill the piece.',
    ]);
  });
  it('reads a move filter', () => {
    expect(moveFilterText(TEMPLATES[0], { side: 'white', piece: { type: ['king', 'queen'] }, to: { squares: ['e4', 'd5'] }, capture: true })).toBe(
      'of white by kings and queens to e4, d5 (captures only)',
    );
  });
});
