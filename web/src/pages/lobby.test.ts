import { describe, expect, it } from 'vitest';
import { conflicts, modifierEntry, modifierKey } from './Lobby';

describe('rule conflicts in the lobby', () => {
  const rules = [
    { id: 'piece-hp', name: 'Hit points', incompatible: ['atomic'] },
    { id: 'atomic', name: 'Atomic' },
    { id: 'double-move', name: 'Double move', requires: ['piece-hp'] },
  ];
  it('explains incompatible pairs listed on either side, and missing requirements', () => {
    expect(conflicts(['atomic', 'piece-hp'], rules)).toEqual(['“Atomic” cannot be combined with “Hit points”.']);
    expect(conflicts(['double-move'], rules)).toEqual(['“Double move” needs “Hit points” too.']);
    expect(conflicts(['double-move', 'piece-hp'], rules)).toEqual([]);
  });
});

describe('saved modifiers in the lobby', () => {
  // GET /api/rules lists the built-in library, then the saved ones (docs/protocol.md); a template
  // saved unchanged keeps its built-in id.
  const entries = [
    { id: 'simple-mine', name: 'Simple Mine' },
    { id: 'simple-mine', name: 'Simple Mine', saved: true, descriptor: { id: 'simple-mine', parameters: [{ name: 'square', default: 'c6' }] } },
  ];
  it('keys a saved modifier apart from a built-in one of the same id', () => {
    expect(entries.map(modifierKey)).toEqual(['simple-mine', 'saved:simple-mine']);
  });
  it('sends a built-in id as is and a saved modifier inline', () => {
    expect(modifierEntry('simple-mine', entries)).toBe('simple-mine');
    expect(modifierEntry('saved:simple-mine', entries)).toEqual(entries[1].descriptor);
  });
});
