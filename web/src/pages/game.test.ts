import { describe, expect, it } from 'vitest';
import type { GameClient } from '../store';
import { awayText, canAskTakeback, claimReady, requestLine, pausedText, takebackBlocked, choiceClockText, choiceNearBoardText, choiceSecondsLeft, moveListRows, opponentCame, pieceNow, playedText, plySan, rematchSpectatorText, resultOf, whyNoMove } from './Game';
import type { PieceOut } from '../protocol';

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

// Issue 26 item 9: a move typed out of turn read "not a legal move" (the legal moves listed are the
// opponent's); typed while disconnected, "it is not your move"; while the opponent must choose,
// "not a legal move". The move box now says why before it reads the text.
describe('whyNoMove', () => {
  const base = { live: true, connection: 'open', mySide: 'white' as const, sideToMove: 'white' as const, choiceFor: null };
  it('is null when the seat may move', () => {
    expect(whyNoMove(base)).toBeNull();
  });
  it('says "not your turn" out of turn', () => {
    expect(whyNoMove({ ...base, sideToMove: 'black' })).toBe('not your turn');
  });
  it('says the page is not connected, before the turn', () => {
    expect(whyNoMove({ ...base, connection: 'reconnecting', sideToMove: 'black' })).toMatch(/^not connected/);
  });
  it('names whose choice holds the game', () => {
    expect(whyNoMove({ ...base, choiceFor: 'black' })).toBe('your opponent must answer a choice first');
    expect(whyNoMove({ ...base, choiceFor: 'white' })).toBe('answer the pending choice first');
    expect(whyNoMove({ ...base, choiceFor: 'both' })).toMatch(/choice is pending/);
  });
  it('says the game is over, and that spectators do not move', () => {
    expect(whyNoMove({ ...base, live: false })).toBe('the game is over');
    expect(whyNoMove({ ...base, mySide: null })).toBe('spectators do not move');
  });
});

// Issue 26 item 9: "Claim victory" was offered before the opponent ever joined, which the server
// refuses (`claim.opponent-never-joined`: a seat that connected or moved).
describe('opponentCame', () => {
  it('is false for an opponent never seen and without a move', () => {
    expect(opponentCame(false, ['white'], 'black')).toBe(false);
  });
  it('is true once seen connected, or once they moved', () => {
    expect(opponentCame(true, [], 'black')).toBe(true);
    expect(opponentCame(false, ['white', 'black'], 'black')).toBe(true);
  });
});

// Session-14 trial: Takeback was offered to the side to move, whose last move is not the last one
// played; the server refuses such a request (docs/protocol.md: a player asks to take back their own
// last move).
describe('canAskTakeback', () => {
  it('is offered after one\'s own move, in the opponent\'s turn', () => {
    expect(canAskTakeback(1, 'black', 'white')).toBe(true);
  });
  it('is not offered on one\'s own turn or before any move', () => {
    expect(canAskTakeback(2, 'white', 'white')).toBe(false);
    expect(canAskTakeback(0, 'black', 'white')).toBe(false);
  });
  it('is not offered while a choice is pending (trial 18: offered during a Parry throw)', () => {
    expect(canAskTakeback(3, 'white', 'black', true)).toBe(false);
    expect(canAskTakeback(3, 'white', 'black', false)).toBe(true);
  });
});

describe('pieceNow', () => {
  // Regression (session-14 trial, atomic): after a capture exploded the hovered piece, the
  // inspect line kept naming it. The line follows the piece by id.
  const pc = (id: number, square: string, type = 'knight', color: 'white' | 'black' = 'white'): PieceOut => ({ id, square, type, color, attrs: {}, baseAttrs: {} });
  it('follows the hovered piece to its square now, by id', () => {
    expect(pieceNow(pc(7, 'g1'), [pc(7, 'f3'), pc(8, 'g1', 'rook')])).toEqual(pc(7, 'f3'));
  });
  it('is null once the piece is gone (exploded, captured)', () => {
    expect(pieceNow(pc(7, 'f3'), [pc(8, 'g1', 'rook'), pc(9, 'e5', 'pawn', 'black')])).toBeNull();
    expect(pieceNow(null, [pc(7, 'f3')])).toBeNull();
  });
  it('without a usable id, matches square, type and colour', () => {
    expect(pieceNow(pc(0, 'b1'), [pc(0, 'b1'), pc(0, 'g1')])).toEqual(pc(0, 'b1'));
    expect(pieceNow(pc(0, 'b1'), [pc(0, 'b1', 'bishop')])).toBeNull();
  });
});

describe('the opponent-away notice (session-11 trial: only a grey dot said it)', () => {
  it('counts down to the claim, from when this page saw them leave', () => {
    expect(awayText(0, 60_000)).toBe('Your opponent left the game. If they are not back in 60 s, you can claim the win.');
    expect(awayText(45_500, 60_000)).toBe('Your opponent left the game. If they are not back in 15 s, you can claim the win.');
    expect(awayText(60_000, 60_000)).toBe('Your opponent left the game: you can claim the win now (Claim victory), or wait for them.');
  });
  it('says the rule when the page did not see them leave, or knows no wait', () => {
    expect(awayText(null, 30_000)).toBe('Your opponent is not connected. Once they have been away 30 s you can claim the win (Claim victory).');
    expect(awayText(5_000, undefined)).toBe('Your opponent left the game. If they do not come back, you can claim the win.');
  });
});

describe('whose clock a pending choice spends (the chooser the game waits for: docs/protocol.md § Clocks during choices)', () => {
  it('names the running clock as the one whose answer is awaited (trial 18: a defender ran the mover’s clock down)', () => {
    expect(choiceClockText('white', 'black')).toBe('White’s clock runs until White answers.');
    expect(choiceClockText('black', 'black')).toBe('Your clock runs until you answer.');
    expect(choiceClockText('black', null)).toBe('Black’s clock runs until Black answers.');
    expect(choiceClockText(null, 'white')).toBeNull();
  });
});

describe('rematchSpectatorText', () => {
  // Regression (trial 18): a spectator was not told about a rematch.
  it('tells a spectator of the offer, the agreement and the refusal', () => {
    expect(rematchSpectatorText({ status: 'offered', offeredBy: 'black' })).toBe('Black offers a rematch (colours swapped).');
    expect(rematchSpectatorText({ status: 'accepted', offeredBy: 'white' })).toBe('The players agreed a rematch (colours swapped).');
    expect(rematchSpectatorText({ status: 'declined', offeredBy: 'white' })).toBe('The rematch was declined.');
    expect(rematchSpectatorText(null)).toBeNull();
  });
});

describe('choiceNearBoardText', () => {
  // Regression (trial 18): at 390 px nothing near the board said a choice waits.
  it('says under the board that an answer is needed, or whom the game waits for', () => {
    expect(choiceNearBoardText(true, 'Parry: rock, paper, scissors', '', 12)).toBe('Parry: rock, paper, scissors: your answer is needed (12 s left).');
    expect(choiceNearBoardText(false, '', 'Waiting for both players to choose a throw (Parry)…', null)).toBe('Waiting for both players to choose a throw (Parry).');
  });
});

describe('choiceSecondsLeft', () => {
  // Regression (trial 18): after a restart the server starts the timer again; pages kept the old countdown.
  it('counts down from the server’s time left as of the last state', () => {
    // 20 s left when the state came at t=1000; at t=6000, 15 s.
    expect(choiceSecondsLeft(6_000, 20_000, 60, 1_000)).toBe(15);
    // The server says no timer runs (a chooser is away): no countdown, whatever the prompt says.
    expect(choiceSecondsLeft(6_000, null, 60, 1_000)).toBeNull();
    // An older server (no field): the prompt's seconds from the state's arrival.
    expect(choiceSecondsLeft(6_000, undefined, 60, 1_000)).toBe(55);
    expect(choiceSecondsLeft(6_000, undefined, null, 1_000)).toBeNull();
  });
});

describe('playedText', () => {
  // Regression (trial 18): "Black played Qh4#. Check." after mate.
  it('says Check. after a check, not after mate', () => {
    expect(playedText('Black', 'Qh4#', true)).toBe('Black played Qh4#.');
    expect(playedText('White', 'Qxf7+', true)).toBe('White played Qxf7+. Check.');
    expect(playedText('White', 'e4', false)).toBe('White played e4.');
  });
});

// Trial 20: a contested capture still waiting for its Parry throw read `2. e4d5` after a reload
// (the server's PGN of an unfinished game ends before an undecided move).
describe('plySan', () => {
  const ucis = ['e2e4', 'd7d5', 'e4d5'];
  it('takes the pending move for the last ply, and UCI only when nothing has it', () => {
    const o = { seen: {}, pgn: ['e4', 'd5'], ucis, pending: { uci: 'e4d5', san: 'exd5' } };
    expect([0, 1, 2].map((i) => plySan(i, o))).toEqual(['e4', 'd5', 'exd5']);
    expect(plySan(2, { ...o, pending: null })).toBe('e4d5');
  });
  it('prefers the SAN seen live, and ignores a pending move of another ply', () => {
    expect(plySan(2, { seen: { 2: 'exd5+' }, pgn: [], ucis, pending: { uci: 'e4d5', san: 'exd5' } })).toBe('exd5+');
    expect(plySan(1, { seen: {}, pgn: [], ucis, pending: { uci: 'd7d5', san: 'd5' } })).toBe('d7d5');
  });
});

// Trial 20 item 2: Takeback was offered after a move whose Parry throw was answered, and the server
// refused (`takeback.choice`; `takeback.random` for a move that drew randomness, docs/protocol.md).
describe('takebackBlocked', () => {
  const mv = (uci: string) => ({ event: 'move', detail: { uci } });
  it('allows a plain last move, and one whose randomness came before it', () => {
    expect(takebackBlocked([mv('e2e4')])).toBeNull();
    expect(takebackBlocked([mv('e2e4'), { event: 'coin', detail: { value: 'heads' } }, mv('e7e5')])).toBeNull();
    expect(takebackBlocked([])).toBeNull();
  });
  it('refuses after an answered choice or a random draw, with the reason', () => {
    expect(takebackBlocked([mv('e4d5'), { event: 'choice', detail: { answers: { white: 'rock', black: 'paper' } } }, { event: 'capture-stands', detail: {} }])).toMatch(/a choice was answered/);
    expect(takebackBlocked([mv('e2e4'), { event: 'coin', detail: { value: 'tails' } }])).toMatch(/drew randomness/);
    expect(takebackBlocked([mv('e2e4'), { event: 'random-pick', detail: { value: 'c4' } }])).toMatch(/drew randomness/);
  });
});

// Trial 20 item 2: "Claim victory" 3 s after the opponent left, beside "not back in 37 s".
describe('claimReady', () => {
  it('is true only once the opponent has been away claimVictoryAfterMs', () => {
    expect(claimReady(3_000, 40_000)).toBe(false);
    expect(claimReady(39_999, 40_000)).toBe(false);
    expect(claimReady(40_000, 40_000)).toBe(true);
    expect(claimReady(0, undefined)).toBe(true);
  });
  it('agrees with the away notice: no claim while it still counts down', () => {
    const away = 3_000;
    expect(awayText(away, 40_000)).toMatch(/37 s/);
    expect(claimReady(away, 40_000)).toBe(false);
  });
});

// Trial 20 item 3: in "no timeout" mode the game paused for an absent chooser and no page said so.
describe('pausedText', () => {
  it('names the chooser the game waits for', () => {
    expect(pausedText('black', 'white')).toBe('Game paused: waiting for your opponent (Black) to come back and choose.');
    expect(pausedText('black', null)).toBe('Game paused: waiting for Black to come back and choose.');
    expect(pausedText('white', null)).toBe('Game paused: waiting for White to come back and choose.');
    expect(pausedText(null, null)).toBe('Game paused: waiting for the player to come back and choose.');
  });
});

// Trial 20 item 1: "Your games" lists each seat with its rules and clock.
describe('requestLine', () => {
  it('names the game, the rules and the clock of a creation request', () => {
    expect(requestLine({ presets: [], modifiers: ['parry'], clock: { initialSeconds: 300, incrementSeconds: 3 } }, null)).toMatch(/^Chess · .* · 5\+3$/);
    expect(requestLine({}, null)).toBe('Chess · untimed');
  });
});
