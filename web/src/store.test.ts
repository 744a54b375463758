import { describe, expect, it } from 'vitest';
import { CONNECTION_LOST, NOT_SENT, pushNotice, choiceForMe, drawOfferText, formatClock, initialClient, leavingForfeits, markAnswered, observeOffset, reduce, remainingMs, resyncSent, setConnection } from './store';
import type { ServerMessage } from './protocol';
import { pc, session } from './test/fixtures';

const welcome = (seq: number, over: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): ServerMessage => ({
  kind: 'welcome', protocolVersion: 2, seat: 'white', seq, state: { seq, ...session(over), ...extra },
});
const state = (seq: number, over: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): ServerMessage => ({
  kind: 'state', seq, state: { seq, ...session(over), ...extra },
});

describe('applying server states', () => {
  it('takes the seat and state from welcome', () => {
    const c = reduce(initialClient(), welcome(3, { plyCount: 2 }), 1000);
    expect(c.seat).toBe('white');
    expect(c.seq).toBe(3);
    expect(c.game?.session.plyCount).toBe(2);
    expect(c.receivedAt).toBe(1000);
  });

  it('applies later states in seq order and ignores stale or repeated ones', () => {
    let c = reduce(initialClient(), welcome(1), 0);
    c = reduce(c, state(2, { plyCount: 1 }), 10);
    c = reduce(c, state(2, { plyCount: 99 }), 20); // a duplicate after a resync
    c = reduce(c, state(1, { plyCount: 98 }), 30); // an old one
    expect(c.seq).toBe(2);
    expect(c.game?.session.plyCount).toBe(1);
  });

  it('reads the session nested under "session" as well as flattened', () => {
    const m: ServerMessage = { kind: 'state', seq: 5, state: { seq: 5, session: session({ plyCount: 7 }) } };
    const c = reduce(reduce(initialClient(), welcome(1), 0), m, 0);
    expect(c.game?.session.plyCount).toBe(7);
  });

  it('keeps the old state and reports an unreadable one', () => {
    let c = reduce(initialClient(), welcome(1), 0);
    c = reduce(c, { kind: 'state', seq: 2, state: { seq: 2 } }, 0);
    expect(c.seq).toBe(1);
    expect(c.notices.at(-1)?.text).toContain('missing "fen"');
  });

  it('records errors and game over', () => {
    let c = reduce(initialClient(), welcome(1), 0);
    c = reduce(c, { kind: 'error', code: 'move.illegal', message: 'e2e5 is not legal' }, 5);
    c = reduce(c, { kind: 'game-over', result: '1-0', reason: 'checkmate' }, 6);
    expect(c.notices.at(-1)).toEqual({ kind: 'error', text: 'e2e5 is not legal', at: 5 });
    expect(c.gameOver).toEqual({ result: '1-0', reason: 'checkmate' });
  });

  it('updates presence from presence messages', () => {
    let c = reduce(initialClient(), welcome(1, {}, { presence: { white: true, black: true } }), 0);
    c = reduce(c, { kind: 'presence', black: { connected: false } }, 0);
    expect(c.game?.presence).toEqual({ white: true, black: false });
    c = reduce(c, { kind: 'presence', seat: 'black', connected: true }, 0);
    expect(c.game?.presence).toEqual({ white: true, black: true });
  });
});

describe('reconnect', () => {
  it('counts a reconnect and warns once when the connection drops', () => {
    let c = setConnection(initialClient(), 'open', 0);
    c = setConnection(c, 'reconnecting', 1);
    c = setConnection(c, 'reconnecting', 2);
    c = setConnection(c, 'open', 3);
    expect(c.reconnects).toBe(1);
    expect(c.notices.filter((n) => n.kind === 'warning')).toHaveLength(1);
  });

  // Issue 26 item 3 (regression): after a server restart (close 1012) the page reconnected and
  // moves arrived, but "connection lost; reconnecting…" stayed for the rest of the game.
  it('clears the connection-lost warning once the new connection is open and welcome arrives', () => {
    let c = reduce(setConnection(initialClient(), 'open', 0), welcome(4, { plyCount: 3 }), 0);
    c = reduce(c, { kind: 'error', code: 'move.illegal', message: 'not a legal move' }, 1);
    c = setConnection(c, 'reconnecting', 2);
    expect(c.notices.map((n) => n.text)).toContain(CONNECTION_LOST);
    // the server is down for several attempts: one warning, not one per attempt
    for (let t = 3; t < 8; t++) c = setConnection(setConnection(c, 'connecting', t), 'reconnecting', t);
    expect(c.notices.filter((n) => n.text === CONNECTION_LOST)).toHaveLength(1);
    // open, but no welcome yet: the socket may still fail
    c = setConnection(c, 'open', 9);
    expect(c.notices.map((n) => n.text)).toContain(CONNECTION_LOST);
    // the restarted server's welcome carries the seq the page has (nothing missed)
    c = reduce(c, welcome(4, { plyCount: 3 }), 10);
    expect(c.notices.map((n) => n.text)).not.toContain(CONNECTION_LOST);
    // other notices stay; play goes on
    expect(c.notices.map((n) => n.kind)).toEqual(['error']);
    c = reduce(c, state(5, { plyCount: 4 }), 11);
    expect(c.game?.session.plyCount).toBe(4);
    // a second drop warns again
    c = setConnection(c, 'reconnecting', 12);
    expect(c.notices.filter((n) => n.text === CONNECTION_LOST)).toHaveLength(1);
  });

  it('resumes from a welcome after reconnect without going back', () => {
    let c = reduce(initialClient(), welcome(4, { plyCount: 3 }), 0);
    // the server's welcome after a reconnect with lastSeq 4 carries seq 4 (nothing missed) …
    c = reduce(c, welcome(4, { plyCount: 3 }), 10);
    expect(c.seq).toBe(4);
    expect(c.game?.session.plyCount).toBe(3);
    // … or a later seq when moves were played meanwhile
    c = reduce(c, welcome(6, { plyCount: 5 }), 20);
    expect(c.game?.session.plyCount).toBe(5);
    // … never an older one.
    c = reduce(c, welcome(5, { plyCount: 4 }), 30);
    expect(c.game?.session.plyCount).toBe(5);
  });

  // Trial 20 (regression): after a server restart the page kept the clock reading from before the
  // outage, since the welcome carried the seq it had, and counted the outage down. By hand: White
  // (to move) has 300,000 ms at server time 1,000; the server is down from 5,000 to 25,000 and
  // charges White only the 4,000 ms thought before it (docs/protocol.md § Clocks): its welcome at
  // 25,000 reads 296,000. At 25,000 the page must show 296,000, not 300,000 − 24,000 = 276,000.
  it('takes the clock of a welcome at the seq it has (a restart)', () => {
    const clocks = (ms: number, at: number) => ({ clocks: { white: { remainingMs: ms }, black: { remainingMs: 300_000 }, running: 'white', serverTime: at } });
    let c = reduce(initialClient(), welcome(4, {}, clocks(300_000, 1_000)), 1_000);
    c = reduce(c, welcome(4, {}, clocks(296_000, 25_000)), 25_000);
    expect(remainingMs(c.game!.clocks!, 'white', 25_000, c.clockOffset)).toBe(296_000);
  });
});

describe('choices', () => {
  const pending = {
    choiceId: 'c12', descriptorId: 'mind_control', kind: 'piece', forPlayer: 'white',
    prompt: { kind: 'piece', options: ['d7', 'e7'], forPlayer: 'white' },
  };
  it('offers the pending choice to its player only', () => {
    const c = reduce(initialClient(), welcome(1, { pendingChoice: pending }), 0);
    expect(choiceForMe(c)?.prompt.options).toEqual(['d7', 'e7']);
    expect(choiceForMe({ ...c, seat: 'black' })).toBeNull();
    expect(choiceForMe({ ...c, seat: 'spectator' })).toBeNull();
  });
  it('hides an answered rps until the state moves on', () => {
    const rps = { ...pending, choiceId: 'c3', kind: 'rps', forPlayer: 'both', prompt: { kind: 'rps', options: ['rock', 'paper', 'scissors'], forPlayer: 'both' }, collected: { white: 'hidden' } };
    const c = reduce(initialClient(), welcome(1, { pendingChoice: rps }), 0);
    expect(choiceForMe(c)).toBeNull(); // white's slot is filled
    expect(choiceForMe({ ...c, seat: 'black' })?.choiceId).toBe('c3');
    expect(choiceForMe(markAnswered({ ...c, seat: 'black' }, 'c3'))).toBeNull();
  });
  // Trial 20 item 4: a second tab of the seat had the server's request-choice; after the first tab
  // answered (the state's slot filled) it kept the buttons, and a click read "already answered".
  it('hides a request of a both-players choice once the state shows this seat answered (another tab)', () => {
    const rps = { ...pending, choiceId: 'c3', kind: 'rps', forPlayer: 'both', prompt: { kind: 'rps', options: ['rock', 'paper', 'scissors'], forPlayer: 'both' }, collected: {} };
    let c = reduce(initialClient(), welcome(1, { pendingChoice: rps }), 0);
    c = reduce(c, { kind: 'request-choice', choiceId: 'c3', prompt: rps.prompt as never }, 0);
    expect(choiceForMe(c)?.choiceId).toBe('c3');
    c = reduce(c, state(2, { pendingChoice: { ...rps, collected: { white: 'hidden' } } }), 0);
    expect(choiceForMe(c)).toBeNull();
  });
  it('drops a request once a state shows it resolved', () => {
    let c = reduce(initialClient(), welcome(1, { pendingChoice: pending }), 0);
    c = reduce(c, { kind: 'request-choice', choiceId: 'c12', prompt: pending.prompt as never }, 0);
    expect(c.request?.choiceId).toBe('c12');
    c = reduce(c, state(2), 0);
    expect(c.request).toBeNull();
  });
});

describe('clocks', () => {
  const reading = { white: 60_000, black: 30_000, serverTime: 1_000_000, running: 'white' as const };
  it('counts down the running side from the server reading', () => {
    // offset: server is 500 ms ahead; 2 s of client time after the reading was taken
    expect(remainingMs(reading, 'white', 1_000_000 - 500 + 2000, 500)).toBe(58_000);
    expect(remainingMs(reading, 'black', 1_000_000 + 9999, 500)).toBe(30_000);
  });
  it('never goes below zero', () => {
    expect(remainingMs(reading, 'white', 1_000_000 + 120_000, 0)).toBe(0);
  });
  it('keeps the largest offset sample (the one with least latency)', () => {
    // samples: serverTime − receivedAt = 100 − (latency 40) and 100 − (latency 5)
    expect(observeOffset(observeOffset(null, 1000, 940), 2000, 1905)).toBe(95);
  });
  it('reads clocks from the state with the server time', () => {
    const c = reduce(initialClient(), welcome(1, {}, { clocks: { white: { remainingMs: 5000 }, black: { remainingMs: 7000 }, serverTime: 1234 } }), 1200);
    expect(c.game?.clocks).toMatchObject({ white: 5000, black: 7000, serverTime: 1234, running: 'white' });
    expect(c.clockOffset).toBe(34);
  });
  it('formats m:ss, tenths under ten seconds, hours', () => {
    expect(formatClock(65_000)).toBe('1:05');
    expect(formatClock(9_450)).toBe('0:09.4');
    expect(formatClock(3_725_000)).toBe('1:02:05');
  });
});

describe('SAN of live moves', () => {
  it('is written from the state before and the state after', async () => {
    const { annotateSan } = await import('./store');
    const { toSan } = await import('./chess');
    const { pc } = await import('./test/fixtures');
    const before = reduce(initialClient(), welcome(1, { pieces: [pc('g1', 'knight', 'white'), pc('e1', 'king', 'white'), pc('e8', 'king', 'black')], legalMoves: ['g1f3'] }), 0);
    const after = reduce(before, state(2, { plyCount: 1, sideToMove: 'black', log: [{ event: 'move', detail: { uci: 'g1f3', color: 'white' } }] }), 0);
    const c = annotateSan(before, after, (u, g, s) => toSan(u, g.session.pieces, g.session.legalMoves, s), () => false);
    expect(c.san).toEqual({ 0: 'Nf3' });
    // a jump of two plies (a resync) writes nothing: the caller falls back to the PGN
    const later = reduce(c, state(4, { plyCount: 3, log: [1, 2, 3].map(() => ({ event: 'move', detail: { uci: 'a2a3' } })) }), 0);
    expect(annotateSan(before, later, () => 'x', () => false).san).toEqual({ 0: 'Nf3' });
  });
});

// Regressions (session-6 web trial): a draw offer had no text and a declined one said nothing;
// error texts stayed after the next successful action; a reload during a default-mode choice
// forfeited without a warning.
describe('draw offers', () => {
  it('says who offers, and that the offer was sent', () => {
    expect(drawOfferText('white', 'black')).toBe('White offers a draw.');
    expect(drawOfferText('white', null)).toBe('White offers a draw.');
    expect(drawOfferText('white', 'white')).toMatch(/^Draw offer sent/);
    expect(drawOfferText(null, 'white')).toBeNull();
  });
  it('tells a declined offer from one that lapsed with a move, and says nothing when accepted', () => {
    const offered = reduce(initialClient(), welcome(1, {}, { drawOffer: 'white' }), 0);
    const declined = reduce(offered, state(2, {}, { drawOffer: null }), 10);
    expect(declined.notices.map((n) => n.text)).toEqual(['White’s draw offer was declined.']);
    const lapsed = reduce(offered, state(2, { plyCount: 1 }, { drawOffer: null }), 10);
    expect(lapsed.notices.map((n) => n.text)).toEqual(['White’s draw offer lapsed: a move was played.']);
    const accepted = reduce(offered, state(2, {}, { drawOffer: null, result: { result: '1/2-1/2', reason: 'agreement' } }), 10);
    expect(accepted.notices).toEqual([]);
  });
  // Regression (session-7 web trial): after a later agreed draw, "Black's draw offer was declined."
  // stayed under the game-over banner.
  it('drops the note of an earlier declined offer when the game ends', () => {
    const offered = reduce(initialClient(), welcome(1, {}, { drawOffer: 'black' }), 0);
    const declined = reduce(offered, state(2, {}, { drawOffer: null }), 10);
    expect(declined.notices.map((n) => n.text)).toEqual(['Black’s draw offer was declined.']);
    const reoffered = reduce(declined, state(3, {}, { drawOffer: 'white' }), 20);
    const agreed = reduce(reoffered, state(4, {}, { drawOffer: null, result: { result: '1/2-1/2', reason: 'agreement' } }), 30);
    expect(agreed.notices).toEqual([]);
  });
  // Regression (session-7 web trial): error codes such as claim.too-early were shown as slugs.
  it('says known error codes in words and keeps the server message otherwise', () => {
    let c = reduce(initialClient(), welcome(1), 0);
    c = reduce(c, { kind: 'error', code: 'claim.too-early', message: 'claim.too-early' }, 1);
    expect(c.notices.at(-1)?.text).toBe('Your opponent has not been away long enough to claim victory yet.');
    c = reduce(c, { kind: 'error', code: 'some.new-code', message: 'a new refusal' }, 2);
    expect(c.notices.at(-1)?.text).toBe('a new refusal');
  });
});

describe('stale errors', () => {
  it('clears error texts when the next state arrives, keeping warnings', () => {
    let c = reduce(initialClient(), welcome(1), 0);
    c = reduce(c, { kind: 'error', code: 'move.illegal', message: 'not a legal move' }, 1);
    c = reduce(c, { kind: 'warning', message: 'draw claim incorrect' }, 2);
    expect(c.notices.map((n) => n.kind)).toEqual(['error', 'warning']);
    c = reduce(c, state(2, { plyCount: 1 }), 3);
    expect(c.notices.map((n) => n.kind)).toEqual(['warning']);
  });
});

describe('leaving during a choice', () => {
  const choice = (timeout?: number) => ({
    choiceId: 'c1', descriptorId: 'x', kind: 'square', forPlayer: 'white',
    prompt: { kind: 'square', options: ['e4'], forPlayer: 'white', ...(timeout === undefined ? {} : { timeout }) },
  });
  it('forfeits only for the chooser, in timeout-with-default mode (the prompt has a timeout)', () => {
    const c = reduce(initialClient(), welcome(1, { pendingChoice: choice(60), status: { status: 'awaiting-choice' } }), 0);
    expect(leavingForfeits(c)).toBe(true);
    expect(leavingForfeits({ ...c, seat: 'black' })).toBe(false);
    expect(leavingForfeits({ ...c, seat: 'spectator' })).toBe(false);
    // no-timeout mode pauses the game instead (docs/protocol.md § Rules of play)
    const paused = reduce(initialClient(), welcome(1, { pendingChoice: choice(), status: { status: 'awaiting-choice' } }), 0);
    expect(leavingForfeits(paused)).toBe(false);
    expect(leavingForfeits(reduce(initialClient(), welcome(1), 0))).toBe(false);
  });
});

describe('protocol 3 updates', () => {
  const info = (seq: number, over: Record<string, unknown> = {}) => ({
    seq,
    clock: null,
    presence: { white: true, black: true },
    drawOffer: null,
    result: null,
    paused: false,
    seats: { white: true, black: true },
    engine: null,
    ...over,
  });
  // 1. e4 from the fixture: the white pawn (id 12) appears on e4 (it was not in the fixture's
  // two-king list), one log entry is appended, Black is to move.
  const update = (seq: number, over: Record<string, unknown> = {}): ServerMessage => ({
    kind: 'update',
    ...info(seq),
    input: { move: 'e2e4' },
    move: { uci: 'e2e4', san: 'e4' },
    plyCount: 1,
    fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
    sideToMove: 'black',
    status: { status: 'ongoing' },
    legalMoves: ['e7e5'],
    pendingChoice: null,
    events: [{ event: 'move', detail: { uci: 'e2e4' } }],
    pieces: { removed: [], changed: [pc('e4', 'pawn', 'white', 12)] },
    rngStream: 0,
    ...over,
  }) as ServerMessage;

  it('applies an update to the state of seq - 1', () => {
    let c = reduce(initialClient(), { ...welcome(4), protocolVersion: 3 } as ServerMessage, 0);
    c = reduce(c, update(5), 10);
    expect(c.seq).toBe(5);
    const s = c.game!.session;
    expect(s.plyCount).toBe(1);
    expect(s.sideToMove).toBe('black');
    expect(s.legalMoves).toEqual(['e7e5']);
    expect(s.log).toEqual([{ event: 'move', detail: { uci: 'e2e4' } }]);
    expect(s.pieces.map((p) => p.square).sort()).toEqual(['e1', 'e4', 'e8']);
    expect(c.resyncFrom).toBeNull();
  });

  it('removes and replaces pieces by id', () => {
    let c = reduce(initialClient(), welcome(1), 0);
    c = reduce(c, update(2, { pieces: { removed: [60], changed: [pc('e2', 'king', 'white', 4)] } }), 0);
    expect(c.game!.session.pieces).toEqual([pc('e2', 'king', 'white', 4)]);
  });

  it('asks for a resync once on a gap, and ignores old updates', () => {
    let c = reduce(initialClient(), welcome(1), 0);
    c = reduce(c, update(3), 0); // seq 2 was missed
    expect(c.seq).toBe(1);
    expect(c.resyncFrom).toBe(1);
    c = resyncSent(c);
    expect(c.resyncFrom).toBeNull();
    c = reduce(c, update(4), 0); // still missing 2: asked already
    expect(c.resyncFrom).toBeNull();
    c = reduce(c, update(2), 0);
    c = reduce(c, update(3, { plyCount: 2 }), 0);
    expect(c.seq).toBe(3);
    c = reduce(c, update(2, { plyCount: 9 }), 0); // an old one
    expect(c.game!.session.plyCount).toBe(2);
    // the full state answers a gap older than the server's history
    c = reduce(c, state(10, { plyCount: 10 }), 0);
    expect(c.seq).toBe(10);
  });

  it("keeps the server's SAN and check flag over standard chess's (issue 26: trans-rights)", async () => {
    const { annotateSan } = await import('./store');
    // Under trans-rights a queen steps like a king (docs/presets.md), so Qe2 with the black king
    // on e8 gives no check: the server says so (inCheck false, SAN `Qe2`), while standard chess's
    // test, which the page's own SAN writer would use, reads a check down the e-file.
    const before = reduce(initialClient(), { ...welcome(1), protocolVersion: 3 } as ServerMessage, 0);
    const m = update(2, {
      input: { move: 'd1e2' },
      move: { uci: 'd1e2', san: 'Qe2' },
      inCheck: false,
      events: [{ event: 'move', detail: { uci: 'd1e2' } }],
      pieces: { removed: [], changed: [pc('e2', 'queen', 'white', 3)] },
    });
    const after = reduce(before, m, 0);
    expect(after.game!.session.inCheck).toBe(false);
    expect(after.san).toEqual({ 0: 'Qe2' });
    // The page's own writer, with standard chess's check, does not replace it.
    expect(annotateSan(before, after, () => 'Qe2+', () => true).san).toEqual({ 0: 'Qe2' });
    // And a check the rules in force see is kept as sent.
    const check = reduce(before, update(2, { inCheck: true }), 0);
    expect(check.game!.session.inCheck).toBe(true);
  });

  // Regression (trial 18): the SAN of a Parry-contested capture was judged while the throw waited
  // (the mover still to move), so the move list read `Qxf7` then `Kxf7+`; python-chess: `Qxf7+`.
  it('gives a contested capture the check sign of the position once the throw decided it', () => {
    const pending = { choiceId: 'c2', kind: 'rps', forPlayer: 'both', prompt: { kind: 'rps', forPlayer: 'both', options: ['rock', 'paper', 'scissors'] } };
    const before = reduce(initialClient(), { ...welcome(1), protocolVersion: 3 } as ServerMessage, 0);
    // White's capture: the board unchanged while the throw waits, White still to move.
    const asked = reduce(before, update(2, {
      input: { move: 'h5f7' },
      move: { uci: 'h5f7', san: 'Qxf7' },
      fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      sideToMove: 'white',
      status: { status: 'awaiting-choice' },
      pendingChoice: pending,
      events: [{ event: 'move', detail: { uci: 'h5f7' } }],
      pieces: { removed: [], changed: [] },
    }), 0);
    expect(asked.san).toEqual({ 0: 'Qxf7' });
    // Both throws in, the capture stands: the board changed, Black to move and in check.
    const decided = reduce(asked, update(3, {
      input: { choice: 'scissors', player: 'black' },
      move: null,
      fen: 'rnbqkbnr/pppppQpp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1',
      sideToMove: 'black',
      status: { status: 'ongoing' },
      inCheck: true,
      pendingChoice: null,
      events: [{ event: 'capture-stands', detail: { uci: 'h5f7' } }],
      pieces: { removed: [], changed: [] },
    }), 0);
    expect(decided.san).toEqual({ 0: 'Qxf7+' });
  });

  it('applies a patch at the seq it has, without touching the session', () => {
    let c = reduce(initialClient(), welcome(2, {}, { seats: { white: true, black: false } }), 0);
    c = reduce(c, { kind: 'patch', ...info(2) } as ServerMessage, 0);
    expect(c.game!.seats).toEqual({ white: true, black: true });
    expect(c.game!.session.plyCount).toBe(0);
    c = reduce(c, { kind: 'patch', ...info(3) } as ServerMessage, 0);
    expect(c.resyncFrom).toBe(2);
  });

  // Issue 26 (trial 20 item 8): a seat named after creation reaches every page in the next patch;
  // a message without `players` (an older server) keeps the names the page had.
  it('takes the players of a patch, and keeps them when a message has none', () => {
    let c = reduce(initialClient(), welcome(2, {}, { players: { white: 'Ann', black: null } }), 0);
    expect(c.game!.players).toEqual({ white: 'Ann', black: undefined });
    c = reduce(c, { kind: 'patch', ...info(2), players: { white: 'Ann', black: 'Bo' } } as ServerMessage, 0);
    expect(c.game!.players).toEqual({ white: 'Ann', black: 'Bo' });
    c = reduce(c, { kind: 'patch', ...info(2) } as ServerMessage, 0);
    expect(c.game!.players).toEqual({ white: 'Ann', black: 'Bo' });
  });

  // Trial 20: a capture waiting for its Parry throw was `2. e4d5` in the move list after a reload.
  it('keeps the pending move of a welcome and of an update, and drops it once decided', () => {
    const pm = { uci: 'e4d5', san: 'exd5' };
    let c = reduce(initialClient(), { ...welcome(3, {}, { pendingMove: pm }), protocolVersion: 3 } as ServerMessage, 0);
    expect(c.game!.pendingMove).toEqual(pm);
    c = reduce(c, update(4, { move: null, pendingMove: null }), 0);
    expect(c.game!.pendingMove).toBeNull();
  });
  // Trial 20 item 6: a page opened while the capture's choice waited showed `e4d5` for good.
  it('keeps the SAN of a pending move for its ply once the choice is decided', () => {
    const pm = { uci: 'e4d5', san: 'exd5' };
    const log = [{ event: 'move', detail: { uci: 'e2e4', color: 'white' } }, { event: 'move', detail: { uci: 'd7d5', color: 'black' } }, { event: 'move', detail: { uci: 'e4d5', color: 'white' } }];
    let c = reduce(initialClient(), welcome(3, { log }, { pendingMove: pm }), 0);
    expect(c.san[2]).toBe('exd5');
    c = reduce(c, state(4, { log }, { pendingMove: null }), 1);
    expect(c.san[2]).toBe('exd5');
    // A pending move that is not the log's last move (an older server's mismatch) is not used.
    const other = reduce(initialClient(), welcome(3, { log }, { pendingMove: { uci: 'a2a3', san: 'a3' } }), 0);
    expect(other.san[2]).toBeUndefined();
  });
});

// Trial 20: when a takeback was accepted the asker was told nothing (the move just went).
describe('takeback notices', () => {
  it('tells the asker their takeback was accepted, the opponent which move went, and a decline', () => {
    const asked = (seat: 'white' | 'black', plies: number) =>
      reduce(initialClient(), { ...welcome(3, { plyCount: plies }, { takebackOffer: 'white' }), seat } as ServerMessage, 0);
    const undone = state(4, { plyCount: 2 }, { takebackOffer: null });
    expect(reduce(asked('white', 3), undone, 1).notices.map((n) => n.text)).toContain('Your takeback was accepted: your last move was taken back.');
    expect(reduce(asked('black', 3), undone, 1).notices.map((n) => n.text)).toContain('White’s last move was taken back.');
    const declined = state(4, { plyCount: 3 }, { takebackOffer: null });
    expect(reduce(asked('white', 3), declined, 1).notices.map((n) => n.text)).toContain('Your takeback request was declined.');
    // A move played meanwhile cancels the request (docs/protocol.md § Takeback): said as such
    // (trial 20 item 7: it read "declined").
    const moved = state(4, { plyCount: 4 }, { takebackOffer: null });
    expect(reduce(asked('white', 3), moved, 1).notices.map((n) => n.text)).toEqual(['Your takeback request was cancelled: your opponent moved instead.']);
    expect(reduce(asked('black', 3), moved, 1).notices.map((n) => n.text)).toEqual(['White’s takeback request was cancelled: Black moved instead.']);
    // A capture waiting for its choice: one more move in the log, the ply count unchanged.
    const capture = state(4, { plyCount: 3, log: [{ event: 'move', detail: { uci: 'e4d5', color: 'black' } }] }, { takebackOffer: null });
    expect(reduce(asked('white', 3), capture, 1).notices.map((n) => n.text)).toEqual(['Your takeback request was cancelled: your opponent moved instead.']);
  });
  // Trial 20 item 7: "declined" stayed above "accepted"; the newer takeback notice replaces it.
  it('keeps only the newest takeback notice', () => {
    let c = reduce(initialClient(), welcome(3, { plyCount: 3 }, { takebackOffer: 'white' }), 0);
    c = reduce(c, state(4, { plyCount: 3 }, { takebackOffer: null }), 1);
    c = reduce(c, state(5, { plyCount: 3 }, { takebackOffer: 'white' }), 2);
    c = reduce(c, state(6, { plyCount: 2 }, { takebackOffer: null }), 3);
    expect(c.notices.map((n) => n.text)).toEqual(['Your takeback was accepted: your last move was taken back.']);
  });
});

// Issue 26 item 9: notices piled up (the same refusal five times), and "not connected: the action
// was not sent" stayed on the page after the reconnect.
describe('notices', () => {
  it('replaces a notice of the same text instead of adding it again', () => {
    let c = initialClient();
    for (let i = 0; i < 5; i++) c = pushNotice(c, 'error', 'not your turn', i);
    c = pushNotice(c, 'error', 'other', 9);
    expect(c.notices.map((n) => n.text)).toEqual(['not your turn', 'other']);
    expect(c.notices[0].at).toBe(4);
  });
  it('drops "the action was not sent" at the next welcome', () => {
    let c = setConnection(reduce(initialClient(), welcome(1), 0), 'open', 0);
    c = setConnection(c, 'reconnecting', 1);
    c = pushNotice(c, 'error', NOT_SENT, 2, 'unsent');
    c = pushNotice(c, 'info', 'kept', 3);
    expect(c.notices.map((n) => n.text)).toEqual([CONNECTION_LOST, NOT_SENT, 'kept']);
    c = reduce(setConnection(c, 'open', 4), welcome(1), 5);
    expect(c.notices.map((n) => n.text)).toEqual(['kept']);
  });
});
