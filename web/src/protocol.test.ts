import { describe, expect, it } from 'vitest';
import { GameConnection, parseGameLocation, parseServerMessage, wsUrl, type SocketLike } from './protocol';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  send(d: string) { this.sent.push(d); }
  close() { this.readyState = 3; }
  open() { this.readyState = 1; this.onopen?.({}); }
  drop() { this.readyState = 3; this.onclose?.({}); }
}

describe('messages', () => {
  it('refuses frames it cannot read, with the reason', () => {
    expect((parseServerMessage('nope') as Error).message).toContain('not JSON');
    expect((parseServerMessage('{"kind":"state","state":{}}') as Error).message).toContain('"seq"');
    expect((parseServerMessage('{"kind":"teleport"}') as Error).message).toContain('unknown server message kind');
    expect(parseServerMessage('{"kind":"game-over","result":"1-0","reason":"resignation"}')).toEqual({ kind: 'game-over', result: '1-0', reason: 'resignation' });
  });
  it('finds the game and token in seat and spectate URLs', () => {
    expect(parseGameLocation('/game/abc', '?token=T1', '')).toEqual({ id: 'abc', token: 'T1' });
    expect(parseGameLocation('/g/abc', '', '#token=T2')).toEqual({ id: 'abc', token: 'T2' });
    expect(parseGameLocation('/game/abc', '', '')).toEqual({ id: 'abc', token: undefined });
    expect(parseGameLocation('/editor', '', '')).toBeNull();
    expect(wsUrl('https://h.example', 'a b', 'T')).toBe('wss://h.example/api/games/a%20b/ws?token=T');
  });
});

describe('connection', () => {
  it('says hello, then hello with lastSeq after a drop, with backoff', () => {
    const sockets: FakeSocket[] = [];
    const timers: { f: () => void; ms: number }[] = [];
    const states: string[] = [];
    let seq = 0;
    const conn = new GameConnection({
      url: 'ws://x', lastSeq: () => seq, onMessage: () => {}, onState: (s) => states.push(s),
      makeSocket: () => { const s = new FakeSocket(); sockets.push(s); return s; },
      setTimer: (f, ms) => timers.push({ f, ms }),
    });
    sockets[0].open();
    expect(JSON.parse(sockets[0].sent[0])).toEqual({ kind: 'hello', protocolVersion: 3 });
    seq = 7;
    sockets[0].drop();
    sockets[0].drop(); // a second close event of the same socket changes nothing
    expect(timers.map((t) => t.ms)).toEqual([250]);
    timers[0].f();
    sockets[1].drop();
    expect(timers.map((t) => t.ms)).toEqual([250, 500]);
    timers[1].f();
    sockets[2].open();
    expect(JSON.parse(sockets[2].sent[0])).toEqual({ kind: 'hello', protocolVersion: 3, lastSeq: 7 });
    expect(conn.send({ kind: 'move', move: 'e2e4', ply: 0 })).toBe(true);
    expect(sockets[2].sent[1]).toBe('{"kind":"move","move":"e2e4","ply":0}');
    conn.close();
    expect(states.at(-1)).toBe('closed');
    expect(conn.send({ kind: 'ping' })).toBe(false);
  });
});

describe('the server’s game view', () => {
  it('reads the shape crates/server sends (clock.serverTimeMs, presence booleans, result, paused)', async () => {
    const { readGameState } = await import('./protocol');
    const { session } = await import('./test/fixtures');
    const g = readGameState({
      ...session({ plyCount: 0 }),
      id: 'g1', seq: 3,
      clock: { white: { remainingMs: 180000 }, black: { remainingMs: 179000 }, running: null, serverTimeMs: 1700000000000 },
      presence: { white: true, black: false }, drawOffer: 'black',
      result: { result: '0-1', reason: 'resignation' }, paused: true, players: { white: 'ann', black: null },
    });
    expect(g.clocks).toMatchObject({ white: 180000, black: 179000, running: null, serverTime: 1700000000000 });
    expect([g.id, g.seq, g.presence, g.drawOffer, g.result, g.paused, g.players.white]).toEqual(['g1', 3, { white: true, black: false }, 'black', { result: '0-1', reason: 'resignation' }, true, 'ann']);
  });
});
