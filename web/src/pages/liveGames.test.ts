import { describe, expect, it } from 'vitest';
import type { CreatedGame, GameSummary, Rules } from '../protocol';
import { sandboxUrl, gameLine, playersLine, sameNameHint, sameNameNote, SANDBOX_PLAYER, watchable } from './liveGames';

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
  it('leaves out games the server calls abandoned (trial 18: they were listed)', () => {
    expect(watchable(g({ inputs: 4, abandoned: true }))).toBe(false);
    expect(watchable(g({ inputs: 4, abandoned: false }))).toBe(true);
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

// Issue 26 item 10: presets and modifiers of the same name appeared twice in the lobby without
// saying which is which, and a computer game read "? vs engine:5". Entries as GET /api/rules
// lists them (main at 3f20f3a): the preset `proletariat` and the catalog modifier `proletariat`
// (no. 25) are both "Proletariat"; `no-mans-land` (template) and `no_mans_land` (catalog no. 59; the template carries the same catalog entry)
// are both "No Man's Land".
describe('rules of the same name', () => {
  const rules: Rules = {
    games: [],
    layouts: [],
    presets: [{ id: 'proletariat', name: 'Proletariat' }, { id: 'piece-hp', name: 'Hit Points' }],
    modifiers: [
      { id: 'proletariat', name: 'Proletariat', kind: 'catalog', catalog: { id: 'proletariat', number: 25 } },
      { id: 'no-mans-land', name: "No Man's Land", kind: 'template', catalog: { id: 'no_mans_land', number: 59 } },
      { id: 'no_mans_land', name: "No Man's Land", kind: 'catalog', catalog: { id: 'no_mans_land', number: 59 } },
      { id: 'parry', name: 'Parry', kind: 'parity' },
    ],
  };
  it('says which is which, and nothing for a name of its own', () => {
    expect(sameNameNote('preset', 'proletariat', rules)).toBe('preset');
    expect(sameNameNote('modifier', 'proletariat', rules)).toBe('modifier');
    expect(sameNameNote('modifier', 'no-mans-land', rules)).toBe('modifier, template');
    expect(sameNameNote('modifier', 'no_mans_land', rules)).toBe('modifier, catalog no. 59');
    expect(sameNameNote('modifier', 'parry', rules)).toBeNull();
    expect(sameNameNote('preset', 'piece-hp', rules)).toBeNull();
  });
  it('says it in the lobby checklists without repeating the list’s kind', () => {
    expect(sameNameHint('preset', 'proletariat', rules)).toBe('also a modifier');
    expect(sameNameHint('modifier', 'proletariat', rules)).toBe('also a preset');
    expect(sameNameHint('modifier', 'no-mans-land', rules)).toBe('template');
    expect(sameNameHint('modifier', 'no_mans_land', rules)).toBe('catalog no. 59');
    expect(sameNameHint('modifier', 'parry', rules)).toBeNull();
  });
  it('marks them in a lobby line', () => {
    expect(gameLine(g({ presets: ['proletariat'], modifiers: ['proletariat', 'parry'] }), rules)).toBe('Chess · Proletariat (preset) · Proletariat (modifier) · Parry');
  });
  it('names the engine and a player without a name in words', () => {
    expect(playersLine(undefined, 'engine:5')).toBe('Anonymous vs Computer (level 5)');
    expect(playersLine('Ann', null)).toBe('Ann vs Anonymous');
    expect(playersLine(null, undefined)).toBeNull();
  });
  it('says an open challenge waits for an opponent (trial 18: "Carol vs Anonymous" before anyone joined)', () => {
    expect(playersLine('Carol', null, 'white')).toBe('Carol (white), waiting for an opponent');
    // Trial 20 (regression): U+202E (right-to-left override) in a name reversed the rest of the
    // lobby's line; the control goes, and right-to-left letters are isolated (U+2068 … U+2069).
    expect(playersLine('\u202ERTL', 'engine:3')).toBe('RTL vs Computer (level 3)');
    expect(playersLine('\u05D3\u05E0\u05D4', 'Bob')).toBe('\u2068\u05D3\u05E0\u05D4\u2069 vs Bob');
    expect(playersLine('x\u2069\u202Ey', null, 'white')).toBe('xy (white), waiting for an opponent');
    expect(playersLine(null, null, 'black')).toBe('Anonymous (black), waiting for an opponent');
  });
});

describe('sandboxUrl', () => {
  // Regression (session-14 trial): the sandbox had no way back; the address names its editor.
  const g = { id: 'g 1', seats: { white: { token: 'tw', url: '' }, black: { token: 'tb', url: '' } }, spectateUrl: '' } as unknown as CreatedGame;
  it('opens both seats and names the editor to go back to', () => {
    expect(sandboxUrl(g)).toBe('/games/g%201#white=tw&black=tb&from=editor');
    expect(sandboxUrl(g, 'yaml')).toBe('/games/g%201#white=tw&black=tb&from=yaml');
  });
});
