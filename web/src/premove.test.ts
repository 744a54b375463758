import { describe, expect, it } from 'vitest';
import { canPremove, premoveStep, resolvePremove } from './premove';
import { pc } from './test/fixtures';

const base = { live: true, connection: 'open', mySide: 'white' as const, hot: false, sideToMove: 'black' as const, choicePending: false };

describe('when a premove may be entered', () => {
  it('in the opponent’s turn only, as a connected seat', () => {
    expect(canPremove(base)).toBe(true);
    expect(canPremove({ ...base, sideToMove: 'white' })).toBe(false); // own turn: a real move
    expect(canPremove({ ...base, mySide: null })).toBe(false); // a spectator
    expect(canPremove({ ...base, hot: true })).toBe(false); // the sandbox: both sides are one person's
    expect(canPremove({ ...base, live: false })).toBe(false);
    expect(canPremove({ ...base, connection: 'reconnecting' })).toBe(false);
  });
  it('not during a pending choice', () => {
    expect(canPremove({ ...base, choicePending: true })).toBe(false);
  });
});

describe('the move a premove stands for', () => {
  const pieces = [pc('e1', 'king', 'white'), pc('h1', 'rook', 'white'), pc('g7', 'pawn', 'white')];
  it('is the legal move between its squares', () => {
    expect(resolvePremove({ from: 'e2', to: 'e4' }, ['e2e3', 'e2e4', 'g1f3'], pieces)).toBe('e2e4');
  });
  it('promotes to a queen (lichess’s auto-queen on premove), else to the first piece offered', () => {
    expect(resolvePremove({ from: 'g7', to: 'g8' }, ['g7g8n', 'g7g8q', 'g7g8r'], pieces)).toBe('g7g8q');
    expect(resolvePremove({ from: 'g7', to: 'g8' }, ['g7g8n', 'g7g8r'], pieces)).toBe('g7g8n');
  });
  it('castles from the king onto its own rook', () => {
    expect(resolvePremove({ from: 'e1', to: 'h1' }, ['e1g1', 'e1f1'], pieces)).toBe('e1g1');
  });
  it('is none when no legal move goes there', () => {
    expect(resolvePremove({ from: 'e2', to: 'e5' }, ['e2e3', 'e2e4'], pieces)).toBeNull();
  });
});

describe('a premove when the state changes', () => {
  const now = { live: true, myTurn: true, choicePending: false, legalMoves: ['e2e4', 'd2d4'], pieces: [] };
  it('is sent at once when the turn comes and it is legal', () => {
    expect(premoveStep({ from: 'e2', to: 'e4' }, now)).toEqual({ action: 'send', uci: 'e2e4' });
  });
  it('is dropped silently when it is not legal then', () => {
    // e.g. the opponent's move blocked the square or pinned the piece
    expect(premoveStep({ from: 'e2', to: 'e5' }, now)).toEqual({ action: 'drop' });
  });
  it('waits in the opponent’s turn', () => {
    expect(premoveStep({ from: 'e2', to: 'e4' }, { ...now, myTurn: false })).toEqual({ action: 'keep' });
  });
  it('is dropped when a choice comes up or the game ends', () => {
    expect(premoveStep({ from: 'e2', to: 'e4' }, { ...now, choicePending: true })).toEqual({ action: 'drop' });
    expect(premoveStep({ from: 'e2', to: 'e4' }, { ...now, myTurn: false, live: false })).toEqual({ action: 'drop' });
  });
  it('is dropped after a takeback', () => {
    expect(premoveStep({ from: 'e2', to: 'e4' }, { ...now, myTurn: false, undone: true })).toEqual({ action: 'drop' });
  });
  it('does nothing without one', () => {
    expect(premoveStep(null, now)).toEqual({ action: 'none' });
  });
});
