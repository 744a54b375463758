import { describe, expect, it } from 'vitest';
import { jsonOnlyKeys, readFlag, readPieceFilter, readSquareFilter, withKey, writeFlag, writePieceFilter, writeSquareFilter } from './moveFilter';

// Issue 26 problem 5: the forbid-move selector was a raw JSON field. The form reads and writes the
// move filter's keys (docs/modifiers.md § Values: square filter keys `squares`, `file`, `rank`,
// `hasMarker`; piece filter `type`, `color`) and keeps what it does not show.
describe('square filters in the form', () => {
  it('reads each shape the form offers', () => {
    expect(readSquareFilter(undefined)).toEqual({ mode: 'any', text: '' });
    expect(readSquareFilter({})).toEqual({ mode: 'any', text: '' });
    expect(readSquareFilter({ squares: ['e4', 'd5'] })).toEqual({ mode: 'squares', text: 'e4 d5' });
    expect(readSquareFilter({ file: 'd' })).toEqual({ mode: 'file', text: 'd' });
    expect(readSquareFilter({ rank: ['1', '8'] })).toEqual({ mode: 'rank', text: '1 8' });
    expect(readSquareFilter({ hasMarker: { kind: 'frozen-square' } })).toEqual({ mode: 'marker', text: 'frozen-square' });
  });
  it('leaves other shapes to the JSON', () => {
    expect(readSquareFilter({ empty: true }).mode).toBe('custom');
    expect(readSquareFilter({ file: 'd', empty: true }).mode).toBe('custom');
    expect(readSquareFilter({ hasMarker: { kind: 'mine', own: true } }).mode).toBe('custom');
  });
  it('writes one item alone and several as a list', () => {
    expect(writeSquareFilter({ mode: 'squares', text: 'e4' })).toEqual({ squares: 'e4' });
    expect(writeSquareFilter({ mode: 'squares', text: 'e4, d5  c6' })).toEqual({ squares: ['e4', 'd5', 'c6'] });
    expect(writeSquareFilter({ mode: 'file', text: 'a h' })).toEqual({ file: ['a', 'h'] });
    expect(writeSquareFilter({ mode: 'marker', text: 'mine' })).toEqual({ hasMarker: { kind: 'mine' } });
    expect(writeSquareFilter({ mode: 'any', text: 'x' })).toBeUndefined();
  });
});

describe('pieces, flags and the rest', () => {
  it('sets kinds and colour, keeping the piece filter’s other keys', () => {
    expect(readPieceFilter({ type: ['king'], color: 'white', royal: true })).toEqual({ types: ['king'], color: 'white', other: ['royal'] });
    expect(readPieceFilter({ type: 'pawn' }).types).toEqual(['pawn']);
    expect(writePieceFilter({ type: ['king'], royal: true }, ['king', 'queen'], 'black')).toEqual({ type: ['king', 'queen'], royal: true, color: 'black' });
    expect(writePieceFilter({ type: ['king'] }, [], '')).toBeUndefined();
  });
  it('reads three-way flags', () => {
    expect([readFlag(undefined), readFlag(true), readFlag(false)]).toEqual(['', 'true', 'false']);
    expect([writeFlag(''), writeFlag('true'), writeFlag('false')]).toEqual([undefined, true, false]);
  });
  it('sets and removes keys without touching the original', () => {
    const f = { piece: { type: ['king'] }, capture: true };
    expect(withKey(f, 'capture', undefined)).toEqual({ piece: { type: ['king'] } });
    expect(withKey(f, 'to', { squares: 'e4' })).toEqual({ ...f, to: { squares: 'e4' } });
    expect(f).toEqual({ piece: { type: ['king'] }, capture: true });
  });
  it('names what only the JSON edits', () => {
    expect(jsonOnlyKeys({ piece: { type: ['king'], royal: true }, from: { empty: true }, when: { eq: [1, 1] }, capture: true })).toEqual(['piece.royal', 'from', 'when']);
    expect(jsonOnlyKeys({ piece: { type: ['king'] }, to: { squares: 'e4' } })).toEqual([]);
  });
});
