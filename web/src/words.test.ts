import { describe, expect, it } from 'vitest';
import { cancelledMoves, choiceTitle, errorText, eventText, randomSeed, reasonText, waitingText } from './words';

const names = { parry: 'Parry', mr_freeze: 'Mr. Freeze', bottomless_pit: 'Bottomless Pit' };

// Regressions (session-7 web trial): slugs and raw log fields on the game page.
describe('game-over reasons', () => {
  it('says the common reasons in words', () => {
    expect(reasonText('disconnect-during-choice')).toBe('the player left while their choice was pending');
    expect(reasonText('royal-loss')).toBe('the king was lost');
    expect(reasonText('checkmate')).toBe('by checkmate');
  });
  it('turns an unknown slug into words', () => {
    expect(reasonText('some-new-reason')).toBe('Some new reason');
  });
});

describe('error codes', () => {
  it('says claim.too-early in words', () => {
    expect(errorText('claim.too-early', 'claim.too-early')).not.toMatch(/claim\.too-early/);
  });
});

describe('choice prompts', () => {
  it('names the modifier the choice is for', () => {
    expect(choiceTitle('square', 'Bottomless Pit')).toBe('Bottomless Pit: choose a square');
    expect(choiceTitle('square', null)).toBe('Choose a square');
    expect(waitingText('white', 'column', 'Mr. Freeze')).toBe('Waiting for White to choose a column (Mr. Freeze)…');
  });
  // Session-7 trial: "Call the coin" read as a guess, but in manual mode (rulings B6) the players
  // report a real coin tossed at the table.
  it('asks for a real coin toss, not a call', () => {
    expect(choiceTitle('coin-flip', 'All on Red')).toBe('All on Red: toss a real coin and enter how it landed');
    expect(choiceTitle('coin-flip', null)).not.toMatch(/call|guess/i);
    expect(waitingText('black', 'coin-flip', null)).toBe('Waiting for Black to enter the result of a real coin toss…');
  });
});

describe('rule-event log', () => {
  it('writes attach, random-pick and choice as sentences without instance ids', () => {
    const attach = eventText({ event: 'attach', detail: { chooser: 'white', id: 'parry', instance: 1 } }, names);
    expect(attach).toBe('Parry is now in play (chosen by White).');
    expect(attach).not.toMatch(/instance|\b1\b/);
    expect(eventText({ event: 'random-pick', detail: { bind: 'spots', value: ['d1', 'e4'] } }, names)).toBe('Picked at random: d1, e4.');
    expect(eventText({ event: 'choice', detail: { choiceId: 'c3', value: 'e', player: 'white', auto: null } }, names)).toBe('White chose e.');
    // A one-player choice is logged without its player: no "? chose" (session-7 re-trial).
    expect(eventText({ event: 'choice', detail: { choiceId: 'c2', value: 'e7', player: null, auto: null } }, names)).toBe('Chosen: e7.');
    expect(eventText({ event: 'choice', detail: { choiceId: 'c3', value: 'hidden', player: 'white' } }, names)).toBe('White has answered (hidden until both have).');
    expect(eventText({ event: 'detach', detail: { id: 'mr_freeze', instance: 2 } }, names)).toBe('Mr. Freeze has ended.');
  });
  it('hides moves (they are in the move list) and keeps unknown events readable', () => {
    expect(eventText({ event: 'move', detail: { uci: 'e2e4', color: 'white' } }, names)).toBeNull();
    expect(eventText({ event: 'new-thing', detail: { instance: 4, square: 'e4' } }, names)).toBe('New thing: square e4.');
  });
  it('finds the moves a parry cancelled: the entry after the move', () => {
    const log = [
      { event: 'move', detail: { uci: 'e2e4' } },
      { event: 'move', detail: { uci: 'd7d5' } },
      { event: 'move', detail: { uci: 'e4d5' } },
      { event: 'choice', detail: {} },
      { event: 'capture-cancelled', detail: { uci: 'e4d5' } },
      { event: 'move', detail: { uci: 'e8e7' } },
    ];
    expect([...cancelledMoves(log)]).toEqual([2]);
  });
});

describe('random seed', () => {
  it('is the u32 the random source gives', () => {
    expect(randomSeed((a) => a.fill(4294967295))).toBe(4294967295);
  });
});
