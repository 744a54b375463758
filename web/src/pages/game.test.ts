import { describe, expect, it } from 'vitest';
import type { GameClient } from '../store';
import { moveListRows, resultOf } from './Game';

// Regression (session-6 web trial): after a resignation or an agreed draw the
// session's status still reads "ongoing" (the game ended outside the rules),
// so the other player's page kept its controls. The server's `result` ends it.
describe('resultOf', () => {
  const client = (result: unknown, status: string) =>
    ({ gameOver: null, game: { result, session: { status: { status } } } }) as unknown as GameClient;

  it('takes the server result of a resigned game whose status is ongoing', () => {
    expect(resultOf(client({ result: '1-0', reason: 'resignation' }, 'ongoing'))).toEqual({
      result: '1-0',
      reason: 'resignation',
    });
  });

  it('is null for a game that goes on', () => {
    expect(resultOf(client(null, 'ongoing'))).toBeNull();
  });
});

// Regression (session-6 web trial): the move list never showed the result at its end.
describe('moveListRows', () => {
  it('ends a finished game with its result, after the last move', () => {
    // Fool's mate: 1. f3 e5 2. g4 Qh4# 0-1
    expect(moveListRows(['f3', 'e5', 'g4', 'Qh4#'], false, '0-1')).toEqual([
      { n: 1, w: 'f3', b: 'e5' },
      { n: 2, w: 'g4', b: 'Qh4#' },
      { n: null, w: '0-1' },
    ]);
  });
  it('has no result row while the game goes on, and starts with "…" when Black moved first', () => {
    expect(moveListRows(['e5', 'Nf3'], true, null)).toEqual([
      { n: 1, w: '…', b: 'e5' },
      { n: 2, w: 'Nf3' },
    ]);
  });
});
