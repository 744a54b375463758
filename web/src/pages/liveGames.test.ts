import { describe, expect, it } from 'vitest';
import type { GameSummary, Rules } from '../protocol';
import { gameLine, SANDBOX_PLAYER, watchable } from './liveGames';

const g = (over: Partial<GameSummary>): GameSummary => ({ id: 'x', status: 'live', ...over });

// Session-7 web trial: the live list showed invitations nobody opened and the editor's sandboxes.
describe('live games list', () => {
  it('shows joined open challenges and games someone acted in', () => {
    expect(watchable(g({ seat: 'white', inputs: 0 }))).toBe(true);
    expect(watchable(g({ inputs: 1 }))).toBe(true);
  });
  it('leaves out invitations nobody acted in, sandboxes and other statuses', () => {
    expect(watchable(g({ inputs: 0 }))).toBe(false);
    expect(watchable(g({}))).toBe(false);
    expect(watchable(g({ inputs: 5, white: SANDBOX_PLAYER, black: SANDBOX_PLAYER }))).toBe(false);
    expect(watchable(g({ status: 'open', seat: 'white' }))).toBe(false);
    expect(watchable(g({ status: 'finished', inputs: 9 }))).toBe(false);
  });
  it('names game, layout, presets and modifiers from GET /api/rules', () => {
    const rules: Rules = {
      games: [{ id: 'gardner', name: 'Gardner minichess' }],
      layouts: [],
      presets: [{ id: 'piece-hp', name: 'Piece hit points' }],
      modifiers: [{ id: 'mr_freeze', name: 'Mr. Freeze' }],
    };
    expect(gameLine(g({ game: 'gardner', presets: ['piece-hp'], modifiers: ['mr_freeze', 'no_such'] }), rules)).toBe(
      'Gardner minichess · Piece hit points · Mr. Freeze · No such',
    );
    expect(gameLine(g({ layout: 'chess960:518' }), rules)).toBe('Chess · Chess960 position 518');
    expect(gameLine(g({ game: 'name: X\nboard: {}' }), rules)).toBe('custom game');
  });
});
