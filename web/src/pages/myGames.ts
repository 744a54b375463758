/**
 * "Your games": the seats this browser created or joined, remembered in localStorage, so a player
 * who closed the tab can get back to their seat (trial 20 item 1: the lobby offered only "Watch",
 * and a seat's link is the only way into it). Each entry holds the seat's token: the same secret
 * the invite link carries, kept in the browser that already had it.
 */
import type { Color } from '../protocol';

/** One remembered seat. `at`: when it was last opened (ms since the epoch). */
export interface MySeat {
  id: string;
  seat: Color;
  token: string;
  /** The seat's page: `/games/{id}?token=T`. */
  url: string;
  /** The opponent's name, when known ("engine:5" for the computer). */
  opponent?: string | null;
  /** The rules and clock in a few words ("Chess · Parry · 5+3"). */
  rules?: string;
  at: number;
  /** The game was seen finished (it is listed among the finished ones, with a link to view it). */
  finished?: boolean;
}

export const MY_GAMES_KEY = 'houserules.myGames';
/** At most this many seats are kept (the oldest go first). */
export const MAX_MY_GAMES = 50;

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function storage(): Store | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The seat's page for a token. */
export function seatUrl(id: string, token: string): string {
  return `/games/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;
}

/** Every remembered seat, newest first; a damaged entry is skipped. */
export function loadMyGames(s: Store | null = storage()): MySeat[] {
  if (!s) return [];
  try {
    const v = JSON.parse(s.getItem(MY_GAMES_KEY) ?? '[]') as unknown;
    if (!Array.isArray(v)) return [];
    return v
      .filter((x): x is MySeat => !!x && typeof x === 'object' && typeof x.id === 'string' && (x.seat === 'white' || x.seat === 'black') && typeof x.token === 'string' && typeof x.at === 'number')
      .sort((a, b) => b.at - a.at);
  } catch {
    return [];
  }
}

function save(list: MySeat[], s: Store | null): void {
  if (!s) return;
  try {
    s.setItem(MY_GAMES_KEY, JSON.stringify(list.slice(0, MAX_MY_GAMES)));
  } catch {
    /* storage full or off: the list is for this page's life only */
  }
}

/**
 * Remembers a seat (or refreshes it: the same game and seat is one entry, its fields merged, `at`
 * the newest). Returns the list as stored.
 */
export function rememberSeat(e: Omit<MySeat, 'url'> & { url?: string }, s: Store | null = storage()): MySeat[] {
  const list = loadMyGames(s);
  const old = list.find((x) => x.id === e.id && x.seat === e.seat);
  const entry: MySeat = { ...old, ...e, url: e.url ?? seatUrl(e.id, e.token) };
  // A field not known this time keeps what was known before.
  if (e.opponent === undefined && old?.opponent !== undefined) entry.opponent = old.opponent;
  if (e.rules === undefined && old?.rules !== undefined) entry.rules = old.rules;
  if (old?.finished && e.finished === undefined) entry.finished = true;
  const next = [entry, ...list.filter((x) => x !== old)].sort((a, b) => b.at - a.at);
  save(next, s);
  return next.slice(0, MAX_MY_GAMES);
}

/** Forgets every seat of a game (the server no longer has it: 404). */
export function forgetGame(id: string, s: Store | null = storage()): MySeat[] {
  const next = loadMyGames(s).filter((x) => x.id !== id);
  save(next, s);
  return next;
}

/** Marks a game's seats finished. */
export function markFinished(id: string, s: Store | null = storage()): MySeat[] {
  const list = loadMyGames(s);
  if (!list.some((x) => x.id === id && !x.finished)) return list;
  const next = list.map((x) => (x.id === id ? { ...x, finished: true } : x));
  save(next, s);
  return next;
}

/** The seat this browser holds in a game, if any (the most recent when it holds both). */
export function seatIn(id: string, s: Store | null = storage()): MySeat | null {
  return loadMyGames(s).find((x) => x.id === id) ?? null;
}

/**
 * The lobby's "Your games": the unfinished ones first (newest first), then at most `finishedMax`
 * finished ones (newest first).
 */
export function yourGames(list: MySeat[], finishedMax = 5): { unfinished: MySeat[]; finished: MySeat[] } {
  const sorted = [...list].sort((a, b) => b.at - a.at);
  return { unfinished: sorted.filter((x) => !x.finished), finished: sorted.filter((x) => x.finished).slice(0, finishedMax) };
}

/** "White vs Ann" / "Black vs the computer (level 5)": the seat and the opponent, for the list. */
export function seatLine(e: Pick<MySeat, 'seat' | 'opponent'>): string {
  const side = e.seat === 'white' ? 'White' : 'Black';
  const o = e.opponent;
  if (!o) return `${side} vs ?`;
  const m = /^engine:(\d+)$/.exec(o);
  if (m) return `${side} vs the computer (level ${m[1]})`;
  if (o.startsWith('engine')) return `${side} vs the computer`;
  return `${side} vs ${o}`;
}

/** "5 min ago", "2 h ago", "3 days ago": when the seat was last opened. */
export function agoText(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return 'just now';
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}
