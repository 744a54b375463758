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
    expect(JSON.parse(sockets[0].sent[0])).toEqual({ kind: 'hello', protocolVersion: 2 });
    seq = 7;
    sockets[0].drop();
    sockets[0].drop(); // a second close event of the same socket changes nothing
    expect(timers.map((t) => t.ms)).toEqual([250]);
    timers[0].f();
    sockets[1].drop();
    expect(timers.map((t) => t.ms)).toEqual([250, 500]);
    timers[1].f();
    sockets[2].open();
    expect(JSON.parse(sockets[2].sent[0])).toEqual({ kind: 'hello', protocolVersion: 2, lastSeq: 7 });
    expect(conn.send({ kind: 'move', move: 'e2e4', ply: 0 })).toBe(true);
    expect(sockets[2].sent[1]).toBe('{"kind":"move","move":"e2e4","ply":0}');
    conn.close();
    expect(states.at(-1)).toBe('closed');
    expect(conn.send({ kind: 'ping' })).toBe(false);
  });
});
