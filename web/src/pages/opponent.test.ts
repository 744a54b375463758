import { describe, expect, it } from 'vitest';
import { ANONYMOUS, playerLabel, shownName, withOpponent } from './Opponent';

describe('the opponent choice', () => {
  // docs/protocol.md, "Playing the engine": a player named `engine:N` (N 1–8) is the engine.
  it('seats the computer on the colour the creator does not play', () => {
    expect(withOpponent({ presets: [] }, { kind: 'computer', level: 4 }, 'white')).toEqual({ presets: [], black: 'engine:4' });
    expect(withOpponent({}, { kind: 'computer', level: 1 }, 'black')).toEqual({ white: 'engine:1' });
  });
  it('leaves a game against a friend as it is', () => {
    expect(withOpponent({ presets: ['piece-hp'] }, { kind: 'friend' }, 'white')).toEqual({ presets: ['piece-hp'] });
  });
  it('shows the engine by its level and other names as they are', () => {
    expect(playerLabel('engine:3')).toBe('Computer (level 3)');
    expect(playerLabel('engine:9')).toBe('engine:9');
    expect(playerLabel('ann')).toBe('ann');
    expect(playerLabel(undefined)).toBeUndefined();
  });
  it('calls a seat without a name Anonymous, one word for every page (session-14 trial)', () => {
    expect(ANONYMOUS).toBe('Anonymous');
    expect(shownName(undefined)).toBe('Anonymous');
    expect(shownName(null)).toBe('Anonymous');
    expect(shownName('')).toBe('Anonymous');
    expect(shownName('engine:2')).toBe('Computer (level 2)');
    expect(shownName('Ada')).toBe('Ada');
  });
});
