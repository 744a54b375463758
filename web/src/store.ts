/**
 * The game page's client state: a pure reducer over server messages, so it can be tested without
 * a browser. Time is passed in (`now`, ms on the client's clock) rather than read.
 */
import { errorText } from './words';
import {
  readGameState,
  type ChoicePrompt,
  type ClockReading,
  type Color,
  type ConnectionState,
  type GameView,
  type Seat,
  type ServerMessage,
  type SessionOutput,
  type UpdateMessage,
  type GameInfo,
} from './protocol';

export interface Notice {
  kind: 'error' | 'warning' | 'info';
  text: string;
  at: number;
  /**
   * `connection`: the "connection lost" warning, which lasts only until the connection is back
   * (open, and the server's `welcome` read); `unsent`: an action not sent for want of a
   * connection, which goes at the same moment (issue 26 item 9: it stayed after the reconnect).
   * Other notices stay until newer ones push them out.
   */
  tag?: 'connection' | 'unsent';
}

/** The error shown when an action could not be sent (it clears once the connection is back). */
export const NOT_SENT = 'not connected: the action was not sent';

/** The warning shown while the connection is down (issue 26 item 3: it must clear once back). */
export const CONNECTION_LOST = 'connection lost; reconnecting…';

export interface GameClient {
  seat: Seat;
  game: GameView | null;
  /** The highest seq applied. A state with a lower or equal seq is stale and ignored. */
  seq: number;
  /** The client's wall-clock time when `game` was received. */
  receivedAt: number;
  /** Estimate of (server clock − client clock) in ms; see `observeOffset`. */
  clockOffset: number | null;
  /** A choice the server asked this seat for (v2 request-choice), until a state shows it resolved. */
  request: { choiceId: string; prompt: ChoicePrompt } | null;
  /** Choice ids this client has answered (their prompts stay answered across states). */
  answered: string[];
  gameOver: { result: string; reason: string } | null;
  connection: ConnectionState;
  reconnects: number;
  notices: Notice[];
  /** SAN of plies seen live, by ply index (0 = first move), computed by the caller. */
  san: Record<number, string>;
  /**
   * (v3) A `resync` to send, with this `lastSeq`: set when an update or patch shows a gap in `seq`;
   * the page sends it and calls `resyncSent`.
   */
  resyncFrom: number | null;
  /** (v3) The `lastSeq` of the last `resync` sent, so that one gap asks once. */
  resyncAsked: number | null;
}

export const initialClient = (): GameClient => ({
  seat: 'spectator',
  game: null,
  seq: 0,
  receivedAt: 0,
  clockOffset: null,
  request: null,
  answered: [],
  gameOver: null,
  connection: 'connecting',
  reconnects: 0,
  notices: [],
  san: {},
  resyncFrom: null,
  resyncAsked: null,
});

/**
 * Server offset from one reading: serverTime − receivedAt = offset − latency, and latency ≥ 0, so
 * the largest sample seen is the best lower bound of the true offset.
 */
export function observeOffset(prev: number | null, serverTime: number, receivedAt: number): number {
  const sample = serverTime - receivedAt;
  return prev === null ? sample : Math.max(prev, sample);
}

/** Remaining ms of `side` at client time `now`, counting down from the server's reading; never negative. */
export function remainingMs(c: ClockReading, side: Color, now: number, offset: number | null): number {
  const base = c[side];
  if (c.running !== side) return Math.max(0, base);
  const serverNow = now + (offset ?? c.serverTime - now);
  return Math.max(0, base - Math.max(0, serverNow - c.serverTime));
}

/** "m:ss", with tenths under 10 s and hours when needed. */
export function formatClock(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) {
    const s = Math.floor(t / 1000);
    const tenths = Math.floor((t % 1000) / 100);
    return `0:0${s}.${tenths}`;
  }
  const total = Math.floor(t / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

const MAX_NOTICES = 20;
function notice(c: GameClient, kind: Notice['kind'], text: string, now: number, tag?: Notice['tag']): Notice[] {
  // The same text again replaces the older one (issue 26 item 9: repeated refusals piled up).
  const rest = c.notices.filter((n) => n.text !== text);
  return [...rest, tag ? { kind, text, at: now, tag } : { kind, text, at: now }].slice(-MAX_NOTICES);
}

/** `c` with a notice added (a notice of the same text goes first: notices do not pile up). */
export function pushNotice(c: GameClient, kind: Notice['kind'], text: string, now: number, tag?: Notice['tag']): GameClient {
  return { ...c, notices: notice(c, kind, text, now, tag) };
}

function applyState(c: GameClient, seq: number, raw: unknown, now: number, sameSeq = false): GameClient {
  // Stale or duplicate (a resync after reconnect); a v3 patch carries the seq we have.
  if (c.game && (seq < c.seq || (seq === c.seq && !sameSeq))) return c;
  let g: GameView;
  try {
    g = readGameState(raw, seq, c.game?.id ?? '');
  } catch (e) {
    return { ...c, notices: notice(c, 'error', `unreadable state: ${(e as Error).message}`, now) };
  }
  g = { ...g, seq };
  const pending = g.session.pendingChoice;
  // A request stays only while the state still shows that choice pending.
  const request = c.request && pending && pending.choiceId === c.request.choiceId ? c.request : null;
  const clockOffset = g.clocks ? observeOffset(c.clockOffset, g.clocks.serverTime, now) : c.clockOffset;
  const over = g.result ?? c.gameOver;
  // A new state means the game moved on: error texts of earlier actions are stale (session-6 web
  // trial: they stayed on the page after the next successful action).
  let notices = c.notices.filter((n) => n.kind !== 'error');
  // A finished game drops the notes about earlier draw offers (session-7 web trial: "Black's draw
  // offer was declined." stayed under the banner of the draw agreed later).
  if (g.result) notices = notices.filter((n) => n.kind !== 'info');
  // An offer that went away without ending the game was declined (or lapsed with a move; the
  // server clears a standing offer on every move). Session-6 web trial: nothing said so.
  const offer = c.game?.drawOffer ?? null;
  if (c.game && offer && !g.drawOffer && !g.result) {
    const who = offer === 'white' ? 'White' : 'Black';
    const text = g.session.plyCount === c.game.session.plyCount
      ? `${who}’s draw offer was declined.`
      : `${who}’s draw offer lapsed: a move was played.`;
    notices = [...notices, { kind: 'info' as const, text, at: now }].slice(-MAX_NOTICES);
  }
  // A takeback request that went away: taken back (fewer plies) or declined. Trial 20: the asker was
  // told nothing when it was accepted (the move just vanished from the board).
  const asked = c.game?.takebackOffer ?? null;
  if (c.game && asked && !g.takebackOffer && !g.result) {
    const before = c.game.session.plyCount;
    // A move played instead of an answer cancels the request (docs/protocol.md § Takeback). Counted
    // by the log's moves, not `plyCount`: a capture waiting for its Parry throw does not count a
    // ply yet, and such a move read "declined" (trial 20, item 7).
    const movesOf = (l: { event: string }[]) => l.filter((e) => e.event === 'move').length;
    const moved = g.session.plyCount > before || (g.session.plyCount === before && movesOf(g.session.log) > movesOf(c.game.session.log));
    const text = takebackText(asked, c.seat, g.session.plyCount < before, moved);
    // A newer takeback notice replaces the older ones (trial 20: "declined" stayed above "accepted").
    notices = [...notices.filter((n) => !isTakebackNotice(n.text)), { kind: 'info' as const, text, at: now }].slice(-MAX_NOTICES);
  }
  // The SAN of a move waiting for its choice (`pendingMove`, a contested capture): kept for that ply,
  // so the page shows it once the choice is decided too (trial 20, item 6: a page opened while the
  // choice waited showed `e4d5` for good, since the PGN it reads has no undecided move).
  let san = c.san;
  if (g.pendingMove) {
    const ucis = g.session.log.filter((e) => e.event === 'move').map((e) => (e.detail as { uci?: unknown } | null)?.uci);
    const ply = ucis.length - 1;
    if (ply >= 0 && ucis[ply] === g.pendingMove.uci && san[ply] === undefined) san = { ...san, [ply]: g.pendingMove.san };
  }
  return { ...c, game: g, seq, receivedAt: now, clockOffset, request, gameOver: over, notices, san };
}

/** Whether a notice is one of `takebackText`'s (a newer one replaces it). */
export function isTakebackNotice(text: string): boolean {
  return /takeback request was|takeback was accepted|last move was taken back/.test(text);
}

/**
 * What a page says when the takeback request of `asker` is gone: accepted (`undone`: the move was
 * taken back), cancelled (`moved`: the opponent moved instead of answering), or declined; `seat`
 * is the page's seat.
 */
export function takebackText(asker: Color, seat: Seat | null, undone: boolean, moved = false): string {
  const who = asker === 'white' ? 'White' : 'Black';
  const other = asker === 'white' ? 'Black' : 'White';
  if (moved) return asker === seat ? 'Your takeback request was cancelled: your opponent moved instead.' : `${who}’s takeback request was cancelled: ${other} moved instead.`;
  if (undone) return asker === seat ? 'Your takeback was accepted: your last move was taken back.' : `${who}’s last move was taken back.`;
  return asker === seat ? 'Your takeback request was declined.' : `${who}’s takeback request was declined.`;
}

/**
 * The line about a standing draw offer for a seat (null: none): the other player reads who offers
 * (and answers with Accept/Decline), the offerer that it was sent, a spectator who offers.
 */
export function drawOfferText(offer: Color | null, me: Color | null): string | null {
  if (!offer) return null;
  if (offer === me) return 'Draw offer sent: waiting for your opponent to answer.';
  return `${offer === 'white' ? 'White' : 'Black'} offers a draw.`;
}

/** The full state of `g` with the game-level fields of a v3 update or patch, and `session`. */
function withInfo(g: GameView, m: GameInfo, session: SessionOutput): Record<string, unknown> {
  return {
    id: g.id,
    seq: m.seq,
    session,
    clock: m.clock,
    presence: m.presence,
    drawOffer: m.drawOffer,
    result: m.result,
    paused: m.paused,
    seats: m.seats,
    engine: m.engine,
    rematch: m.rematch ?? null,
    takebackOffer: m.takebackOffer ?? null,
    ...('choiceLeftMs' in m ? { choiceLeftMs: m.choiceLeftMs } : {}),
    // A seat named after creation (issue 26) reaches the page in the next message's `players`.
    players: m.players ?? g.players,
    pendingMove: m.pendingMove ?? null,
    claimVictoryAfterMs: g.claimVictoryAfterMs,
  };
}

/** A gap in `seq`: ask once for what was missed (the page sends `resync`). */
function gap(c: GameClient): GameClient {
  return c.resyncAsked === c.seq ? c : { ...c, resyncFrom: c.seq };
}

/**
 * (v3) Applies an `update` to the state of `seq - 1`: the pieces by id, the lists sent whole when
 * they changed, the input's log entries appended. An older one is ignored; a newer one means some
 * were missed, and asks for a resync.
 */
function applyUpdate(c: GameClient, m: UpdateMessage, now: number): GameClient {
  const g = c.game;
  if (!g || m.seq <= c.seq) return c;
  if (m.seq !== c.seq + 1) return gap(c);
  const s = g.session;
  let pieces = s.pieces;
  if (m.pieces) {
    const gone = new Set([...m.pieces.removed, ...m.pieces.changed.map((p) => p.id)]);
    pieces = [...pieces.filter((p) => !gone.has(p.id)), ...m.pieces.changed];
  }
  const session: SessionOutput = {
    ...s,
    fen: m.fen,
    sideToMove: m.sideToMove,
    status: m.status,
    legalMoves: m.legalMoves,
    pendingChoice: m.pendingChoice,
    plyCount: m.plyCount,
    pieces,
    markers: m.markers ?? s.markers,
    activeModifiers: m.activeModifiers ?? s.activeModifiers,
    vars: m.vars ?? s.vars,
    log: [...s.log, ...m.events],
  };
  if (typeof m.inCheck === 'boolean') session.inCheck = m.inCheck;
  if (m.drawClaim !== undefined) session.drawClaim = m.drawClaim;
  const next = applyState(c, m.seq, withInfo(g, m, session), now);
  // The server's SAN of the move (written among the moves the rules in force allowed, with their
  // check test): the page's own SAN would use standard chess's (issue 26: `Qe2+` under
  // trans-rights, where the server's SAN and PGN have no check).
  const ply = session.log.filter((e) => e.event === 'move').length - 1;
  if (!m.move && s.pendingChoice && !m.pendingChoice && s.sideToMove !== m.sideToMove && ply >= 0 && next.game !== c.game) {
    // The answer that decided a contested move (a Parry throw): its SAN was written while the choice
    // waited, its check sign judged with the mover still to move. The sign is the position's now
    // (trial 18: `Qxf7` then `Kxf7+`, python-chess `Qxf7+`, `Kxf7`). A cancelled capture (board
    // unchanged) keeps its SAN as tried.
    const old = next.san[ply];
    if (old !== undefined && m.fen.split(' ')[0] !== s.fen.split(' ')[0]) return { ...next, san: { ...next.san, [ply]: resuffix(old, m.status, m.inCheck) } };
  }
  if (!m.move || next.game === c.game) return next;
  return ply < 0 ? next : { ...next, san: { ...next.san, [ply]: m.move.san } };
}

/** `san` with the check sign of the position after it: `#` at checkmate, `+` in check, else none. */
export function resuffix(san: string, status: { status?: string } | undefined, inCheck: boolean | undefined): string {
  const bare = san.replace(/[+#]+$/, '');
  if (status?.status === 'checkmate') return `${bare}#`;
  return inCheck ? `${bare}+` : bare;
}

/** (v3) Applies a `patch`: the game-level fields at the seq the client has. */
function applyPatch(c: GameClient, m: { kind: 'patch' } & GameInfo, now: number): GameClient {
  const g = c.game;
  if (!g || m.seq < c.seq) return c;
  if (m.seq > c.seq) return gap(c);
  return applyState(c, m.seq, withInfo(g, m, g.session), now, true);
}

/** Marks the pending `resync` as sent. */
export function resyncSent(c: GameClient): GameClient {
  return c.resyncFrom === null ? c : { ...c, resyncAsked: c.resyncFrom, resyncFrom: null };
}

/** Applies one server message. */
export function reduce(c: GameClient, m: ServerMessage, now: number): GameClient {
  switch (m.kind) {
    case 'welcome': {
      const seat = m.seat;
      // The connection is back (a welcome is the first message of an open socket): the
      // "connection lost" warning goes, whether or not the welcome brings anything new.
      const notices = c.notices.some((n) => n.tag) ? c.notices.filter((n) => !n.tag) : c.notices;
      // After a reconnect with lastSeq the welcome may carry the seq we have, but it is the server's
      // state now: applied, since its clock reading is new (trial 20: after a restart the page kept
      // the reading from before the outage and counted the outage down, 20 s off until the next
      // move). Only an older seq is skipped.
      const next = applyState({ ...c, seat, notices }, m.seq, m.state, now, true);
      // The game did not move on: the notices stay as they were (an error of an earlier action too).
      return c.game && m.seq === c.seq && next.game ? { ...next, notices } : next;
    }
    case 'state':
      return applyState(c, m.seq, m.state, now);
    case 'request-choice':
      if (c.answered.includes(m.choiceId)) return c;
      return { ...c, request: { choiceId: m.choiceId, prompt: m.prompt } };
    case 'error':
      return { ...c, notices: notice(c, 'error', errorText(m.code, m.message), now) };
    case 'warning':
      return { ...c, notices: notice(c, 'warning', m.message, now) };
    case 'game-over':
      return { ...c, gameOver: { result: m.result, reason: m.reason } };
    case 'presence': {
      if (!c.game) return c;
      const p = (v: unknown) =>
        typeof v === 'object' && v !== null ? (v as { connected?: boolean }).connected === true : v === true;
      // `{white, black}` (each a bool or `{connected}`), or one seat: `{seat, connected}`.
      const one = (side: 'white' | 'black') =>
        m.seat === side && typeof m.connected === 'boolean' ? m.connected : undefined;
      const presence = {
        white: one('white') ?? ('white' in m ? p(m.white) : c.game.presence.white),
        black: one('black') ?? ('black' in m ? p(m.black) : c.game.presence.black),
      };
      return { ...c, game: { ...c.game, presence } };
    }
    case 'pong':
      return c;
    case 'update':
      return applyUpdate(c, m, now);
    case 'patch':
      return applyPatch(c, m, now);
  }
}

/**
 * The connection's state changed. A drop of an open connection adds the `connection` warning
 * (once, however many attempts follow); `reduce` removes it at the next `welcome`, which proves
 * the new connection works (after a server restart, close code 1012, as after any drop).
 */
export function setConnection(c: GameClient, s: ConnectionState, now: number): GameClient {
  const reconnects = s === 'open' && c.connection === 'reconnecting' ? c.reconnects + 1 : c.reconnects;
  const warned = c.notices.some((n) => n.tag === 'connection');
  const notices =
    s === 'reconnecting' && c.connection === 'open' && !warned
      ? notice(c, 'warning', CONNECTION_LOST, now, 'connection')
      : s === 'closed'
        ? c.notices.filter((n) => n.tag !== 'connection')
        : c.notices;
  return { ...c, connection: s, reconnects, notices };
}

export function markAnswered(c: GameClient, choiceId: string): GameClient {
  return { ...c, answered: [...c.answered, choiceId], request: null };
}

/** The choice this seat should answer now, if any: the server's request, or the state's pending choice addressed to it. */
export function choiceForMe(c: GameClient, hotSeat = false): { choiceId: string; prompt: ChoicePrompt } | null {
  const pending = c.game?.session.pendingChoice;
  if (!pending || c.answered.includes(pending.choiceId)) return null;
  const who = pending.prompt?.forPlayer ?? pending.forPlayer;
  // rps: our slot already holds an answer ("hidden" to everyone until both are in). Checked before
  // the server's request (trial 20, item 4: a second tab of the seat kept its request's buttons
  // after the first tab answered, and a click read "That choice was already answered").
  if (who === 'both' && pending.collected && !hotSeat) {
    const slot = pending.collected[c.seat as string];
    if (slot !== undefined && slot !== null) return null;
  }
  if (c.request && c.request.choiceId === pending.choiceId) return c.request;
  const mine = hotSeat || who === c.seat || (who === 'both' && c.seat !== 'spectator');
  if (!mine) return null;
  const prompt: ChoicePrompt = pending.prompt ?? { kind: pending.kind, options: [], forPlayer: who as Color };
  return { choiceId: pending.choiceId, prompt };
}

/**
 * SAN for a ply seen live: when `next` is exactly one ply after `prev` and its log ends with that
 * ply's move, the SAN is written from `prev`'s pieces and legal moves (disambiguation) and `next`'s
 * status (mate) and check. Returns `next` with the SAN recorded.
 */
export function annotateSan(
  prev: GameClient,
  next: GameClient,
  toSanFn: (uci: string, prevGame: GameView, suffix: '' | '+' | '#') => string,
  inCheck: (g: GameView) => boolean,
): GameClient {
  const a = prev.game;
  const b = next.game;
  if (!a || !b || b === a) return next;
  const moves = b.session.log.filter((e) => e.event === 'move');
  const ply = moves.length - 1;
  if (ply < 0 || next.san[ply] !== undefined) return next;
  const prevMoves = a.session.log.filter((e) => e.event === 'move').length;
  if (prevMoves !== ply) return next;
  const uci = (moves[ply].detail as { uci?: string } | null)?.uci;
  if (typeof uci !== 'string') return next;
  const suffix = b.session.status.status === 'checkmate' ? '#' : inCheck(b) ? '+' : '';
  return { ...next, san: { ...next.san, [ply]: toSanFn(uci, a, suffix) } };
}

/**
 * Whether leaving or reloading the page now loses the game: a choice is pending for this seat in
 * `timeout-with-default` mode (its prompt carries `timeout`), where a player whose last connection
 * closes during their choice forfeits at once (docs/protocol.md § Rules of play, from the spec).
 * The page asks the browser for a `beforeunload` prompt while it is true.
 */
export function leavingForfeits(c: GameClient, hotSeat = false): boolean {
  const g = c.game;
  if (!g || g.result || c.gameOver || c.seat === 'spectator' && !hotSeat) return false;
  const st = g.session.status.status;
  if (st !== 'ongoing' && st !== 'awaiting-choice') return false;
  const p = g.session.pendingChoice;
  const timeout = p?.prompt?.timeout ?? p?.timeout;
  return typeof timeout === 'number' && choiceForMe(c, hotSeat) !== null;
}
