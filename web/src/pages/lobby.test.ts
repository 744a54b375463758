import { describe, expect, it } from 'vitest';
import { conflicts } from './Lobby';

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
