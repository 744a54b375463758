import { describe, expect, it } from 'vitest';
import type { GameClient } from '../store';
import { resultOf } from './Game';

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
