import { describe, expect, it } from 'vitest';
import type { Descriptor } from './model';
import { bindNames, readPieces, refChoices, switchPieces } from './pieces';

// Regression (session-14 trial): `pieces` was a raw JSON field. A reference or a piece filter
// (docs/modifiers.md § Values), as form values.
describe('the pieces form', () => {
  it('reads a reference, a filter and other shapes', () => {
    expect(readPieces('$event.attacker')).toEqual({ mode: 'ref', ref: '$event.attacker', types: [], color: '', other: [] });
    expect(readPieces({ type: ['pawn', 'knight'], color: 'white', on: { rank: '2' } })).toEqual({ mode: 'filter', ref: '', types: ['pawn', 'knight'], color: 'white', other: ['on'] });
    expect(readPieces({ type: 'rook' }).types).toEqual(['rook']);
    expect(readPieces({}).mode).toBe('filter');
    expect(readPieces([1, 2]).mode).toBe('custom');
    expect(readPieces('e4').mode).toBe('custom');
  });
  it('offers the event pieces and the bindings the rule defines', () => {
    const d: Descriptor = {
      version: 1,
      id: 'x',
      name: 'x',
      triggers: [{ kind: 'on-move', effects: [{ kind: 'random-pick', params: { from: { pieces: {} }, bind: 'pick', then: [{ kind: 'flip-coin', params: { forPlayer: 'turn', bind: 'coin' } }] } }] }],
    };
    expect(bindNames(d)).toEqual(['pick', 'coin']);
    const refs = refChoices(d, '$bind.pick').map(([v]) => v);
    expect(refs).toEqual(['$event.piece', '$event.attacker', '$event.defender', '$self', '$bind.pick', '$bind.coin']);
    // a reference the list lacks is kept as an option
    expect(refChoices(d, '$var.x').map(([v]) => v).at(-1)).toBe('$var.x');
  });
  it('switches mode to a sensible value', () => {
    expect(switchPieces('ref')).toBe('$event.piece');
    expect(switchPieces('filter')).toEqual({});
  });
});
