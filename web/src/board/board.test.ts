import { describe, expect, it } from 'vitest';
import { auraAttrs, choiceSquares, hitPoints } from './Board';
import { pc } from '../test/fixtures';
import { legendKinds } from './markers';

describe('board choices', () => {
  const pieces = [{ ...pc('b8', 'knight', 'black'), id: 57 }];
  it('maps squares, piece ids, columns and rows to the squares to click', () => {
    expect([...choiceSquares({ kind: 'piece', options: ['57'] }, pieces, 8, 8)]).toEqual([['b8', '57']]);
    expect([...choiceSquares({ kind: 'square', options: ['e4', 'z9'] }, pieces, 8, 8)]).toEqual([['e4', 'e4']]);
    // column "c" on a 5×5 board: c1…c5
    expect([...choiceSquares({ kind: 'column', options: ['c'] }, [], 5, 5).keys()]).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    // row "10" on a 10×10 board: a10…j10, each standing for "10"
    const row = choiceSquares({ kind: 'row', options: ['10'] }, [], 10, 10);
    expect([row.size, row.get('a10'), row.get('j10')]).toEqual([10, '10', '10']);
    // a column outside the board offers nothing
    expect(choiceSquares({ kind: 'column', options: ['h'] }, [], 5, 5).size).toBe(0);
  });
});

describe('piece badges', () => {
  it('reads hit points and the attributes auras changed', () => {
    const p = { ...pc('e2', 'pawn', 'white'), attrs: { Hp: 2, speed: 1 }, baseAttrs: { Hp: 1, speed: 1 } };
    expect(hitPoints(p)).toBe(2);
    expect(auraAttrs(p)).toEqual(['Hp']);
    expect(hitPoints(pc('e1', 'king', 'white'))).toBeNull();
  });
});

// Regression (session-6 web trial): the legend listed all nine marker kinds whatever the board held.
describe('marker legend', () => {
  it('lists the kinds on the board in collision priority order, none when there are none', () => {
    // modifier-dsl-decisions § Marker Collision Priority: portal-end, frozen-square, mine, pit,
    // death-square, tornado, treasure, blocked; ward last (modifier-rulings D1).
    expect(legendKinds(['ward', 'mine', 'mine', 'portal-end'])).toEqual(['portal-end', 'mine', 'ward']);
    expect(legendKinds([])).toEqual([]);
  });
});
