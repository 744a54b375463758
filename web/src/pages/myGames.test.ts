import { describe, expect, it } from 'vitest';
import { agoText, forgetGame, loadMyGames, markFinished, MAX_MY_GAMES, MY_GAMES_KEY, rememberSeat, seatIn, seatLine, yourGames } from './myGames';
import { layoutChoices, seatCheck } from './Lobby';
import type { Rules } from '../protocol';

/** An in-memory Storage. */
function mem(): Pick<Storage, 'getItem' | 'setItem'> & { data: Record<string, string> } {
  const data: Record<string, string> = {};
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v) };
}

// Trial 20 item 1: a player who closed the tab could not get back to their seat (the lobby offered
// only "Watch"). The browser remembers each seat it created or joined.
describe('your games (localStorage)', () => {
  it('remembers a seat with its link, merges a later visit, and keeps what it knew', () => {
    const s = mem();
    rememberSeat({ id: 'g1', seat: 'white', token: 't1', opponent: 'Ann', rules: 'Chess · Parry · 5+3', at: 1 }, s);
    rememberSeat({ id: 'g1', seat: 'white', token: 't1', at: 5 }, s);
    const list = loadMyGames(s);
    expect(list).toEqual([{ id: 'g1', seat: 'white', token: 't1', url: '/games/g1?token=t1', opponent: 'Ann', rules: 'Chess · Parry · 5+3', at: 5 }]);
    expect(seatIn('g1', s)?.token).toBe('t1');
    expect(seatIn('g2', s)).toBeNull();
  });
  it('lists unfinished first, newest first, and at most five finished', () => {
    const s = mem();
    for (let i = 0; i < 8; i++) rememberSeat({ id: `f${i}`, seat: 'black', token: 'x', at: 100 + i, finished: true }, s);
    rememberSeat({ id: 'old', seat: 'white', token: 'a', at: 10 }, s);
    rememberSeat({ id: 'new', seat: 'white', token: 'b', at: 20 }, s);
    const { unfinished, finished } = yourGames(loadMyGames(s));
    expect(unfinished.map((x) => x.id)).toEqual(['new', 'old']);
    expect(finished.map((x) => x.id)).toEqual(['f7', 'f6', 'f5', 'f4', 'f3']);
  });
  it('drops a game the server no longer has, and marks one finished', () => {
    const s = mem();
    rememberSeat({ id: 'a', seat: 'white', token: 'x', at: 1 }, s);
    rememberSeat({ id: 'b', seat: 'black', token: 'y', at: 2 }, s);
    expect(forgetGame('a', s).map((x) => x.id)).toEqual(['b']);
    expect(markFinished('b', s)[0].finished).toBe(true);
    // A later visit that does not know the result keeps it finished.
    rememberSeat({ id: 'b', seat: 'black', token: 'y', at: 3 }, s);
    expect(loadMyGames(s)[0].finished).toBe(true);
  });
  it('skips damaged storage and keeps at most MAX_MY_GAMES', () => {
    const s = mem();
    s.data[MY_GAMES_KEY] = '{not json';
    expect(loadMyGames(s)).toEqual([]);
    s.data[MY_GAMES_KEY] = JSON.stringify([{ id: 'ok', seat: 'white', token: 't', at: 1, url: '/games/ok?token=t' }, { id: 'bad', seat: 'red', token: 't', at: 2 }, null]);
    expect(loadMyGames(s).map((x) => x.id)).toEqual(['ok']);
    for (let i = 0; i < MAX_MY_GAMES + 5; i++) rememberSeat({ id: `g${i}`, seat: 'white', token: 't', at: 10 + i }, s);
    expect(loadMyGames(s)).toHaveLength(MAX_MY_GAMES);
  });
  it('says the seat, the opponent and when', () => {
    expect(seatLine({ seat: 'white', opponent: 'Ann' })).toBe('White vs Ann');
    expect(seatLine({ seat: 'black', opponent: 'engine:5' })).toBe('Black vs the computer (level 5)');
    expect(seatLine({ seat: 'black', opponent: null })).toBe('Black vs ?');
    expect(agoText(0, 30_000)).toBe('just now');
    expect(agoText(0, 5 * 60_000)).toBe('5 min ago');
    expect(agoText(0, 3 * 3_600_000)).toBe('3 h ago');
    expect(agoText(0, 72 * 3_600_000)).toBe('3 days ago');
  });
  it('drops an entry only on 404', () => {
    expect(seatCheck({ ok: false, status: 404 })).toBe('gone');
    expect(seatCheck({ ok: false, status: 503 })).toBe('unknown');
    expect(seatCheck({ ok: false, status: null })).toBe('unknown');
    expect(seatCheck({ ok: true, live: false })).toBe('finished');
    expect(seatCheck({ ok: true, live: true })).toBe('live');
  });
});

// Trial 20 item 7: the Layout select listed "Standard start" and "standard".
describe('layoutChoices', () => {
  it('leaves out `standard` (the first entry, "Standard start")', () => {
    const rules = { presets: [], modifiers: [], layouts: [{ id: 'standard' }, { id: 'chess960', name: 'Chess960' }, { id: 'grand-start', game: 'grand' }] } as unknown as Rules;
    expect(layoutChoices(rules, '').map((l) => l.id)).toEqual(['chess960', 'grand-start']);
    expect(layoutChoices(rules, 'capablanca').map((l) => l.id)).toEqual(['chess960']);
  });
});
