import { describe, expect, it } from 'vitest';
import { setSoundOn, soundFor, soundOn, SOUND_KEY } from './sounds';

describe('sounds', () => {
  it('picks the end over a check over a capture over a move (as lichess: one sound per event)', () => {
    expect(soundFor({ moved: true, capture: true, check: true, ended: true })).toBe('end');
    expect(soundFor({ moved: true, capture: true, check: true, ended: false })).toBe('check');
    expect(soundFor({ moved: true, capture: true, check: false, ended: false })).toBe('capture');
    expect(soundFor({ moved: true, capture: false, check: false, ended: false })).toBe('move');
    expect(soundFor({ moved: false, capture: false, check: false, ended: false })).toBeNull();
    // A resignation ends the game without a move.
    expect(soundFor({ moved: false, capture: false, check: false, ended: true })).toBe('end');
  });
  it('remembers the off switch', () => {
    const m = new Map<string, string>();
    const st = { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
    expect(soundOn(st)).toBe(true);
    setSoundOn(false, st);
    expect(m.get(SOUND_KEY)).toBe('off');
    expect(soundOn(st)).toBe(false);
    setSoundOn(true, st);
    expect(soundOn(st)).toBe(true);
  });
});
