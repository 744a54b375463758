/**
 * The game page: a seat (token in the URL) or a spectator. Hot seat for the editor's sandbox:
 * `#white=T1&black=T2` opens both seats, and each action goes through the seat it belongs to.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { PieceGlyph } from '../board/pieces';
import { Board } from '../board/Board';
import { MarkerLegend } from '../board/markers';
import { boardShape, checkedKing, enPassantOf, pgnSanMoves, pocketsOf, POCKET_ORDER, readTypedMove, splitDrop, toSan } from '../chess';
import { cancelledMoves, choiceTitle, cut, eventRows, modifierName, pieceLabel, reasonText, stillWaitingFor, waitingText } from '../words';
import {
  api,
  ApiError,
  GameConnection,
  isLive,
  wsUrl,
  type ClientMessage,
  type ClockReading,
  type Color,
  type GameView,
  type PieceOut,
  type Rules,
  type Seat,
} from '../protocol';
import { shownName } from './Opponent';
import { NameSeat } from './NameSeat';
import { SANDBOX_PLAYER } from './liveGames';
import {
  annotateSan,
  choiceForMe,
  drawOfferText,
  formatClock,
  leavingForfeits,
  initialClient,
  markAnswered,
  NOT_SENT,
  pushNotice,
  reduce,
  resyncSent,
  remainingMs,
  setConnection,
  type GameClient,
} from '../store';
import { describePiece } from '../board/Board';
import { choiceSeconds, draftedLines, inlineRuleNames, rulesSummary } from '../rules';
import { RulesPanel } from './RulesPanel';
import { play, setSoundOn, soundFor, soundOn } from '../sounds';
import { canPremove, premoveStep, type Premove } from '../premove';
import { rememberSeat, seatIn, seatUrl, type MySeat } from './myGames';
import { gameParts } from './liveGames';
import { timeControl } from '../rules';

export interface GamePageProps {
  id: string;
  token?: string;
  /** Hot seat: both tokens (the sandbox). */
  hotSeat?: { white: string; black: string };
  /** The sandbox's way back: the editor that started it (`/editor` or `/yaml`). */
  backTo?: string;
}

/**
 * The piece the inspect line describes, as it stands now: the same piece id on the board (it may
 * have moved, its attributes changed), or null once it is gone (session-14 trial: after an atomic
 * explosion the line kept naming a piece no longer on the board). Without ids (0, or shared) the
 * same square, type and colour.
 */
export function pieceNow(p: PieceOut | null, pieces: PieceOut[]): PieceOut | null {
  if (!p) return null;
  const same = pieces.filter((x) => x.id === p.id);
  if (p.id && same.length === 1) return same[0];
  return pieces.find((x) => x.square === p.square && x.type === p.type && x.color === p.color) ?? null;
}

function inCheckOf(g: GameView): boolean {
  if (typeof g.session.inCheck === 'boolean') return g.session.inCheck;
  try {
    const { files, ranks } = boardShape(g.session.fen);
    return checkedKing(g.session.pieces, g.session.sideToMove, files, ranks) !== null;
  } catch {
    return false;
  }
}

const sanOf = (uci: string, g: GameView, suffix: '' | '+' | '#') => {
  let letters: Map<string, string> | undefined;
  try {
    letters = boardShape(g.session.fen).letters;
  } catch {
    letters = undefined;
  }
  return toSan(uci, g.session.pieces, g.session.legalMoves, suffix, letters, enPassantOf(g.session.fen));
};

/**
 * Whether a seat may ask to take back its last move now: some move was played and it is the
 * opponent's turn (the server refuses a request whose last move is the opponent's, `takeback.not-
 * yours`; session-14 trial: the button was shown on one's own turn and the refusal appeared far
 * from it). Not while a choice is pending (trial 18: offered during a Parry throw; the move is
 * undecided and the server refuses with `takeback.choice`).
 */
export function canAskTakeback(plies: number, sideToMove: string | undefined, mySide: string, choicePending = false): boolean {
  return plies > 0 && sideToMove !== undefined && sideToMove !== mySide && !choicePending;
}

/**
 * The rules and clock of a game in a few words, from its creation request ("Chess · Parry · 5+3"),
 * for the lobby's "Your games".
 */
export function requestLine(request: unknown, rules: Rules | null): string {
  const r = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
  const ids = (v: unknown) => (Array.isArray(v) ? v : []).map((x) => (typeof x === 'string' ? x : typeof x === 'object' && x !== null ? String((x as { name?: unknown; id?: unknown }).name ?? (x as { id?: unknown }).id ?? 'custom rule') : '?'));
  const parts = gameParts(
    { id: '', status: '', game: typeof r.game === 'string' ? r.game : undefined, presets: ids(r.presets).map((p) => p.split(':')[0]), modifiers: ids(r.modifiers), layout: typeof r.layout === 'string' ? r.layout : undefined },
    rules,
  );
  return [...parts, timeControl(r.clock)].join(' · ');
}

/**
 * Why the last move cannot be taken back, from the log (null: it can, as far as the page knows).
 * The server refuses a move that drew randomness (`takeback.random`: a coin, a random pick, a
 * chance) or after which a choice was answered (`takeback.choice`), docs/protocol.md § Takeback;
 * the entries after the last `move` say whether it did (trial 20 item 2: the button was offered
 * after a Parry throw and refused).
 */
export function takebackBlocked(log: { event: string; detail?: unknown }[]): string | null {
  let i = log.length - 1;
  while (i >= 0 && log[i].event !== 'move') i--;
  if (i < 0) return null;
  const after = log.slice(i + 1).map((e) => e.event);
  if (after.some((e) => e === 'choice' || e === 'draft')) return 'Your last move cannot be taken back: a choice was answered after it.';
  if (after.some((e) => e === 'coin' || e === 'random-pick' || e === 'chance')) return 'Your last move cannot be taken back: it drew randomness (a coin, a random pick), which would come out the same again.';
  return null;
}

/**
 * Whether "Claim victory" can work now: the opponent has been away `claimVictoryAfterMs` (trial 20
 * item 2: the button came 3 s after they left, beside "If they are not back in 37 s…"). `awayMs`:
 * how long this page has seen them gone (from when it opened, when they were gone already: the
 * server's timer started no later). No `afterMs` (an older server): at once.
 */
export function claimReady(awayMs: number, afterMs: number | undefined): boolean {
  return afterMs === undefined || awayMs >= afterMs;
}

/**
 * The line while the game is paused (choice mode "no timeout": the chooser is away; trial 20 item 3:
 * the opponent's page never said so). `waitingFor`: the pending choice's chooser(s) still to answer
 * (`white`, `black`, `both`), null when unknown.
 */
export function pausedText(waitingFor: string | null, mySide: Color | null): string {
  const who = waitingFor === 'white' ? 'White' : waitingFor === 'black' ? 'Black' : waitingFor === 'both' ? 'both players' : 'the player';
  if (mySide && waitingFor === (mySide === 'white' ? 'black' : 'white')) return `Game paused: waiting for your opponent (${who}) to come back and choose.`;
  return `Game paused: waiting for ${who} to come back and choose.`;
}

/**
 * Why this seat cannot move now, as the move box says it (null: it can). Checked before the typed
 * text is read: out of turn the legal moves are the opponent's, and every move read "not a legal
 * move" (issue 26 item 9).
 */
export function whyNoMove(o: {
  live: boolean;
  connection: string;
  mySide: Color | null;
  sideToMove: Color;
  /** The pending choice's `forPlayer`, or null when none is pending. */
  choiceFor: string | null;
}): string | null {
  if (!o.mySide) return 'spectators do not move';
  if (!o.live) return 'the game is over';
  if (o.connection !== 'open') return 'not connected: wait until the connection is back';
  if (o.choiceFor === o.mySide) return 'answer the pending choice first';
  if (o.choiceFor === 'both') return 'a choice is pending: moves wait for its answer';
  if (o.choiceFor) return 'your opponent must answer a choice first';
  if (o.sideToMove !== o.mySide) return 'not your turn';
  return null;
}

/**
 * Whether the opponent has been at the board, as the server requires before a win can be claimed
 * (`claim.opponent-never-joined`): seen connected by this page, or has moved in the game.
 */
export function opponentCame(seenPresent: boolean, moveColors: string[], opponent: Color): boolean {
  return seenPresent || moveColors.includes(opponent);
}

/**
 * What a player reads while the opponent is away (session-11 trial: nothing but a grey dot said
 * it): `awayMs`, how long this page has seen them gone (null when they were already gone when the
 * page opened: the server's own timer started earlier), and `afterMs`, the server's
 * `claimVictoryAfterMs`.
 */
export function awayText(awayMs: number | null, afterMs: number | undefined): string {
  const wait = afterMs ? Math.round(afterMs / 1000) : null;
  if (wait === null) return 'Your opponent left the game. If they do not come back, you can claim the win.';
  if (awayMs === null) return `Your opponent is not connected. Once they have been away ${wait} s you can claim the win (Claim victory).`;
  const left = Math.ceil((afterMs! - awayMs) / 1000);
  if (left > 0) return `Your opponent left the game. If they are not back in ${left} s, you can claim the win.`;
  return 'Your opponent left the game: you can claim the win now (Claim victory), or wait for them.';
}

/**
 * Whose time a pending choice spends (session-14 trial: during a Parry answer the clock ran with
 * no word of whose it was). The clock of the player the game waits for runs; for a choice for both,
 * the mover's until the mover has answered, then the other's (docs/protocol.md § Clocks during
 * choices; trial 18: only the mover's ran, so a defender could run it down). Null when no clock runs.
 */
export function choiceClockText(running: Color | null, mySide: Color | null): string | null {
  if (!running) return null;
  const who = running === 'white' ? 'White' : 'Black';
  if (mySide === running) return 'Your clock runs until you answer.';
  return `${who}’s clock runs until ${who} answers.`;
}

/**
 * What a spectator is told of a rematch (trial 18: nothing): who offered it, that it was agreed
 * (with a link to watch it, the page's caller adds), or declined. Null when there is none.
 */
export function rematchSpectatorText(rematch: { status: string; offeredBy: string } | null | undefined): string | null {
  if (!rematch) return null;
  const who = rematch.offeredBy === 'white' ? 'White' : 'Black';
  switch (rematch.status) {
    case 'offered':
      return `${who} offers a rematch (colours swapped).`;
    case 'accepted':
      return 'The players agreed a rematch (colours swapped).';
    case 'declined':
      return 'The rematch was declined.';
    default:
      return null;
  }
}

/**
 * The line under the board while a choice is pending (trial 18: at 390 px the prompt and its
 * countdown were below the fold with nothing near the board saying a choice waits). `mine`: this
 * page has a prompt to answer; `title` its heading; else `waiting`, the other player's line.
 */
export function choiceNearBoardText(mine: boolean, title: string, waiting: string, left: number | null): string {
  const time = left === null ? '' : ` (${left} s left)`;
  return mine ? `${title}: your answer is needed${time}.` : `${waiting.replace(/…$/, '')}${time}.`;
}

/**
 * The screen reader's line after a move: "Black played Qh4#." — ' Check.' only for a check that is
 * not mate (trial 18: "Black played Qh4#. Check.").
 */
export function playedText(mover: string, san: string, check: boolean): string {
  const mate = san.endsWith('#');
  return `${mover} played ${san}.${check && !mate ? ' Check.' : ''}`;
}

/** "1-0 · checkmate" from the status when no game-over message was seen. */
/**
 * The SAN the move list shows for ply `i`: the server's list when it sends one, the SAN the page saw
 * in the ply's update, the server's PGN for plies before the page opened, and, for the last ply
 * while a choice it raised waits (a capture waiting for its Parry throw), the state's `pendingMove`
 * (trial 20: `2. e4d5` after a reload, since the PGN of an unfinished game ends before an undecided
 * move). UCI only when none of these has it (an older server).
 */
export function plySan(
  i: number,
  o: { moves?: { san: string }[]; seen: Record<number, string>; pgn: string[]; ucis: string[]; pending?: { uci: string; san: string } | null },
): string {
  const pending = o.pending && i === o.ucis.length - 1 && o.pending.uci === o.ucis[i] ? o.pending.san : undefined;
  return o.moves?.[i]?.san ?? o.seen[i] ?? pending ?? o.pgn[i] ?? o.ucis[i];
}

export function resultOf(c: GameClient): { result: string; reason: string } | null {
  if (c.gameOver) return c.gameOver;
  // A game ended by resignation, agreement or a flag: the server's result
  // (the session's status still reads "ongoing" or "awaiting-choice").
  if (c.game?.result) return c.game.result;
  const st = c.game?.session.status;
  if (!st || isLive(st)) return null;
  const result = st.winner === 'white' ? '1-0' : st.winner === 'black' ? '0-1' : '½-½';
  return { result, reason: st.reason ?? st.status };
}

/**
 * The move list's rows: numbered pairs of SAN (a game whose first move is Black's starts "1. …"),
 * then the result as the last row when the game is over (PGN's termination marker, "1-0"; the
 * reason is in the banner). Session-6 web trial: the list never showed the result.
 */
export function moveListRows(sans: string[], firstBlack: boolean, result: string | null): { n: number | null; w?: string; b?: string }[] {
  const rows: { n: number | null; w?: string; b?: string }[] = [];
  sans.forEach((san, i) => {
    const k = i + (firstBlack ? 1 : 0);
    const n = Math.floor(k / 2) + 1;
    if (k % 2 === 0) rows.push({ n, w: san });
    else if (rows.length && rows[rows.length - 1].n === n) rows[rows.length - 1].b = san;
    else rows.push({ n, w: '…', b: san });
  });
  if (result) rows.push({ n: null, w: result });
  return rows;
}

export function GamePage({ id, token, hotSeat, backTo }: GamePageProps) {
  const [client, setClient] = useState<GameClient>(initialClient);
  const clientRef = useRef(client);
  const conns = useRef<{ seat: Seat | null; conn: GameConnection }[]>([]);
  const [flip, setFlip] = useState(false);
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState('');
  const [inspect, setInspect] = useState<PieceOut | null>(null);
  const [pgnSan, setPgnSan] = useState<string[]>([]);
  const [sentRps, setSentRps] = useState<string | null>(null);
  // Display names of the library's modifiers, for the active rules line (ids when unknown).
  const [ruleNames, setRuleNames] = useState<Record<string, string>>({});
  const [ruleDescriptions, setRuleDescriptions] = useState<Record<string, string>>({});
  const [rules, setRules] = useState<Rules | null>(null);
  // The creation request (the record's), for the rules panel; undefined until it answers.
  const [request, setRequest] = useState<unknown>(undefined);
  // Every name a rule of this game goes by: the library's, and the game's own inline rules' (a
  // rule made in the editor is in no library: "In play now" named it by its id, session-14 trial).
  const names = useMemo(() => ({ ...ruleNames, ...inlineRuleNames(request) }), [ruleNames, request]);
  useEffect(() => {
    api.creationRequest(id).then(setRequest, () => {});
  }, [id]);
  const [askPromotion, setAskPromotion] = useState<{ from: string; to: string; options: string[]; at: number } | null>(null);
  useEffect(() => {
    api.rules().then(
      (r) => {
        setRules(r);
        setRuleNames(Object.fromEntries(r.modifiers.filter((m) => m.name).map((m) => [m.id, m.name as string])));
        setRuleDescriptions(Object.fromEntries(r.modifiers.filter((m) => m.description).map((m) => [m.id, m.description as string])));
      },
      () => {},
    );
  }, []);

  // Why the page cannot join, once the first connection has failed and the
  // game has never loaded (regression, session-6 web trial: an unknown game
  // or a wrong seat token showed "Connecting again…" forever).
  const [joinProblem, setJoinProblem] = useState<string | null>(null);
  useEffect(() => {
    if (client.game || client.connection !== 'reconnecting' || joinProblem) return;
    api.getGame(id).then(
      () => setJoinProblem(token ? 'The game exists, but this link does not open a seat in it: check the invite link (its seat token).' : null),
      (e: unknown) => {
        if (e instanceof ApiError && e.status === 404) {
          setJoinProblem(`There is no game "${cut(id)}" on this server: check the link.`);
          conns.current.forEach((x) => x.conn.close());
        }
      },
    );
  }, [client.connection, !!client.game]);

  const update = (f: (c: GameClient) => GameClient) => {
    const next = f(clientRef.current);
    clientRef.current = next;
    setClient(next);
  };

  useEffect(() => {
    const tokens: (string | undefined)[] = hotSeat ? [hotSeat.white, hotSeat.black] : [token];
    conns.current = tokens.map((t, i) => {
      const entry: { seat: Seat | null; conn: GameConnection } = { seat: null, conn: null as unknown as GameConnection };
      entry.conn = new GameConnection({
        url: wsUrl(location.origin, id, t),
        lastSeq: () => clientRef.current.seq,
        onState: (s) => {
          if (i === 0) update((c) => setConnection(c, s, Date.now()));
        },
        onBadFrame: (e) => update((c) => pushNotice(c, 'error', e.message, Date.now())),
        onMessage: (m) => {
          if (m.kind === 'welcome') entry.seat = m.seat;
          if (
            i > 0 &&
            (m.kind === 'welcome' || m.kind === 'state' || m.kind === 'update' || m.kind === 'patch' || m.kind === 'presence' || m.kind === 'game-over')
          )
            return;
          update((c) => {
            const next = reduce(c, m, Date.now());
            return annotateSan(c, next, sanOf, inCheckOf);
          });
          // A gap in seq (protocol 3): ask for what was missed.
          const want = clientRef.current.resyncFrom;
          if (want !== null && entry.conn.send({ kind: 'resync', lastSeq: want })) update(resyncSent);
        },
      });
      return entry;
    });
    return () => conns.current.forEach((e) => e.conn.close());
  }, [id, token, hotSeat?.white, hotSeat?.black]);


  const g = client.game;
  const s = g?.session;
  const moveUcis = useMemo(
    () => (s?.log ?? []).filter((e) => e.event === 'move').map((e) => String((e.detail as { uci?: unknown })?.uci ?? '?')),
    [s?.log],
  );

  // History from before this page opened: SAN from the server's PGN.
  useEffect(() => {
    if (!g || moveUcis.length === 0 || pgnSan.length >= moveUcis.length || s?.moves) return;
    const missing = moveUcis.some((_, i) => client.san[i] === undefined);
    if (!missing) return;
    api.pgnText(id).then((t) => setPgnSan(pgnSanMoves(t))).catch(() => {});
    // only when the count of moves changes
  }, [moveUcis.length]);

  // Leaving or reloading during one's own choice in timeout-with-default mode forfeits at once
  // (docs/protocol.md § Rules of play): the browser asks first while such a choice is pending.
  const mustStay = leavingForfeits(client, !!hotSeat);
  useEffect(() => {
    if (!mustStay) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [mustStay]);
  // The rule of each choice this page saw pending (choice id → descriptor id): the log's choice
  // entries do not name it. Kept for the tab's life, so a reload still names earlier choices.
  const choiceKey = `houserules.choiceRules.${id}`;
  const [choiceRules, setChoiceRules] = useState<Record<string, string>>(() => {
    try {
      return JSON.parse(sessionStorage.getItem(choiceKey) ?? '{}') as Record<string, string>;
    } catch {
      return {};
    }
  });
  const pc = s?.pendingChoice;
  useEffect(() => {
    if (!pc?.choiceId || !pc.descriptorId || choiceRules[pc.choiceId]) return;
    const next = { ...choiceRules, [pc.choiceId]: pc.descriptorId };
    setChoiceRules(next);
    try {
      sessionStorage.setItem(choiceKey, JSON.stringify(next));
    } catch {
      /* storage full or off: names only for this page's life */
    }
  }, [pc?.choiceId]);
  // The event log shows its newest entries: it follows the bottom unless the reader scrolled up.
  const logRef = useRef<HTMLOListElement>(null);
  const logAtBottom = useRef(true);
  // The move list too: its newest move in view (it showed moves 1 to 11 of 14).
  const movesRef = useRef<HTMLOListElement>(null);
  const movesAtBottom = useRef(true);
  useEffect(() => {
    const el = logRef.current;
    if (el && logAtBottom.current) el.scrollTop = el.scrollHeight;
    const ml = movesRef.current;
    if (ml && movesAtBottom.current) ml.scrollTop = ml.scrollHeight;
  }, [s?.log.length, !!logRef.current, !!movesRef.current]);
  // A typed move's error is stale once the game has moved on.
  // Any input counts (trial 20: the error stayed after a good move played on the board while a
  // choice kept the ply count, and while the next move was typed).
  useEffect(() => setTypedError(''), [s?.plyCount, s?.log.length]);
  // The seats this page has seen connected (a win can be claimed only against one that came).
  const seenOpponent = useRef<Partial<Record<Color, boolean>>>({});
  // When this page saw each seat leave (its presence went from on to off), for "claim in N s".
  const leftAt = useRef<Partial<Record<Color, number>>>({});
  // When this page opened: an opponent already away then has been away at least since.
  const openedAt = useRef(Date.now());
  for (const c of ['white', 'black'] as const) {
    if (g?.presence[c]) {
      seenOpponent.current[c] = true;
      delete leftAt.current[c];
    } else if (g && seenOpponent.current[c] && leftAt.current[c] === undefined) leftAt.current[c] = Date.now();
  }
  // The rematch this page asked for was accepted: to the new game, with this seat's token.
  const [dropPick, setDropPick] = useState<{ piece: string; at: number } | null>(null);
  // Sounds (issue 26): one per new move (capture, check) and at the end; none for the state a page opens with.
  const [sound, setSound] = useState(soundOn());
  const heard = useRef<{ n: number; ended: boolean } | null>(null);
  const endedNow = !!(g && resultOf(client));
  useEffect(() => {
    if (!g) return;
    const n = moveUcis.length;
    const prev = heard.current;
    heard.current = { n, ended: endedNow };
    if (!prev) return;
    const lastSan = String(g.session.moves?.[n - 1]?.san ?? client.san[n - 1] ?? '');
    const kind = soundFor({ moved: n > prev.n, capture: lastSan.includes('x'), check: inCheckOf(g) || lastSan.includes('+'), ended: endedNow && !prev.ended });
    if (kind) play(kind);
  }, [moveUcis.length, endedNow]);
  const rematchAsked = useRef(false);
  // To the rematch once: the accept's answer and the state saying "accepted" both lead there, and
  // a second navigation aborted the first (seen as a flaky browser check under load).
  const leaving = useRef(false);
  const goTo = (url: string) => {
    if (leaving.current) return;
    leaving.current = true;
    location.assign(url);
  };
  const [rematchError, setRematchError] = useState('');
  const rematchStatus = g?.rematch?.status;
  useEffect(() => {
    if (rematchStatus !== 'accepted' || !rematchAsked.current || !token) return;
    api.rematch(id, token).then((r) => goTo(r.url)).catch((e: Error) => setRematchError(e.message));
  }, [rematchStatus]);

  // The premove (src/premove.ts): sent when the turn comes if legal then, dropped otherwise, when a
  // choice comes up or the game ends. The sandbox (hot seat) has no opponent's time.
  const [premove, setPremove] = useState<Premove | null>(null);
  const premoveMySide: Color | null = hotSeat || !client.seat || client.seat === 'spectator' ? null : client.seat;
  const premovePly = useRef<number | null>(null);
  useEffect(() => {
    const before = premovePly.current;
    premovePly.current = s?.plyCount ?? null;
    if (!premove || !g || !s) return;
    const undone = before !== null && s.plyCount < before;
    const liveNow = isLive(s.status) && !resultOf(client);
    const myTurn = !!premoveMySide && s.sideToMove === premoveMySide && client.connection === 'open';
    const step = premoveStep(premove, { live: liveNow, myTurn, choicePending: !!s.pendingChoice, legalMoves: s.legalMoves, pieces: s.pieces, undone });
    if (step.action === 'keep' || step.action === 'none') return;
    setPremove(null);
    if (step.action === 'send') {
      const ok = conns.current[0]?.conn.send({ kind: 'move', move: step.uci, ply: s.plyCount }) ?? false;
      if (!ok) update((c) => pushNotice(c, 'error', NOT_SENT, Date.now(), 'unsent'));
    }
  }, [premove, s?.plyCount, s?.sideToMove, !!s?.pendingChoice, s?.status, client.connection, !!client.gameOver, !!g?.result]);

  // "Your games" (trial 20 item 1): this browser remembers the seat it plays, so the lobby can bring
  // a player back to it after the tab is closed.
  const mySeatNow = !hotSeat && token && (client.seat === 'white' || client.seat === 'black') ? client.seat : null;
  const finishedNow = !!(g && resultOf(client));
  useEffect(() => {
    if (!mySeatNow || !token || !g) return;
    const other = mySeatNow === 'white' ? 'black' : 'white';
    rememberSeat({
      id,
      seat: mySeatNow,
      token,
      opponent: g.players[other] ?? null,
      rules: request !== undefined ? requestLine(request, rules) : undefined,
      at: Date.now(),
      finished: finishedNow || undefined,
    });
  }, [mySeatNow, token, !!g, g?.players.white, g?.players.black, request, rules, finishedNow]);
  // The plain (spectator) link opened in a browser that holds a seat of this game: offered.
  const [heldSeat] = useState<MySeat | null>(() => (token || hotSeat ? null : seatIn(id)));

  if (!g || !s) {
    return (
      <main class="game loading">
        <p role="status">{joinProblem ?? (client.connection === 'reconnecting' ? 'Connecting again…' : 'Connecting to the game…')}</p>
        {client.notices.map((n) => (
          <p class={`notice ${n.kind}`}>{n.text}</p>
        ))}
      </main>
    );
  }

  const seat = client.seat;
  const hot = !!hotSeat;
  const mySide: Color | null = hot ? s.sideToMove : seat === 'spectator' ? null : seat;
  // A seat sees its own side at the bottom; a spectator and the sandbox see White's, unless flipped.
  const home: Color = !hot && mySide === 'black' ? 'black' : 'white';
  const orientation: Color = flip ? (home === 'white' ? 'black' : 'white') : home;
  // Regression (session-6 web trial): after a resignation or an agreed
  // draw the other player kept the move box, the game's buttons and a
  // pending choice's buttons, since the session's status still read live.
  const live = isLive(s.status) && !resultOf(client);
  const choice = choiceForMe(client, hot);
  const movable = live && !s.pendingChoice && !!mySide && s.sideToMove === mySide && client.connection === 'open';
  const shape = (() => {
    try {
      return boardShape(s.fen);
    } catch {
      return null;
    }
  })();
  // Also once the game is over: the mated king stays marked (issue 26 item 10).
  const checkSq = inCheckOf(g) && shape ? checkedKing(s.pieces, s.sideToMove, shape.files, shape.ranks) : null;
  const lastUci = moveUcis.at(-1) ?? null;
  // Who made the last move, from the log: while a choice the move raised is
  // pending the turn has not passed, so the side to move would name the
  // wrong player (regression, session-6 web trial: "Black played exd5").
  const lastMover = (() => {
    const e = (s.log ?? []).filter((x) => x.event === 'move').at(-1);
    const c = (e?.detail as { color?: unknown } | undefined)?.color;
    if (c === 'white' || c === 'black') return c === 'white' ? 'White' : 'Black';
    return s.sideToMove === 'white' ? 'Black' : 'White';
  })();
  const result = resultOf(client);
  const drawOffer = drawOfferText(g.drawOffer, hot ? null : mySide);
  const rematch = g.rematch ?? null;
  const takebackOffer = g.takebackOffer ?? null;
  const takebackWhyNot = takebackBlocked(s.log);
  // This seat's place in the rematch: the same route offers, accepts, or (agreed) answers the seat again.
  const goRematch = () => {
    if (!token) return;
    rematchAsked.current = true;
    api
      .rematch(id, token)
      .then((r) => {
        setRematchError('');
        // An accept (200), or an engine, which agrees at once: to the new game now. A person's
        // acceptance is waited for (the effect above goes when the state says accepted).
        const engine = [g.players.white, g.players.black].some((n) => n?.startsWith('engine:'));
        if (!r.created || engine) goTo(r.url);
      })
      .catch((e: Error) => setRematchError(e.message));
  };

  const sendAs = (side: Color | null, m: ClientMessage): boolean => {
    const e = (hot && side ? conns.current.find((x) => x.seat === side) : conns.current[0]) ?? conns.current[0];
    const ok = e?.conn.send(m) ?? false;
    if (!ok) update((c) => pushNotice(c, 'error', NOT_SENT, Date.now(), 'unsent'));
    return ok;
  };
  const sendMove = (uci: string) => {
    setTypedError('');
    return sendAs(s.sideToMove, { kind: 'move', move: uci, ply: s.plyCount });
  };
  const answer = (value: string) => {
    if (!choice) return;
    const who = choice.prompt.forPlayer;
    const side: Color | null = who === 'both' ? (hot ? (s.pendingChoice?.collected?.white ? 'black' : 'white') : mySide) : (who as Color);
    if (sendAs(side, { kind: 'submit-choice', choiceId: choice.choiceId, value })) {
      if (choice.prompt.kind === 'rps') setSentRps(value);
      if (!(hot && who === 'both')) update((c) => markAnswered(c, choice.choiceId));
    }
  };

  const clock = (side: Color) =>
    g.clocks ? <Clock reading={g.clocks} side={side} offset={client.clockOffset} live={live} /> : null;
  const player = (side: Color) => (
    <div class="player">
      <span class={`presence ${g.presence[side] ? 'on' : 'off'}`} title={g.presence[side] ? 'connected' : 'not connected'} aria-label={g.presence[side] ? 'connected' : 'not connected'} />
      {/* The side's colour as a king, so an unnamed player's row still says which side it is. */}
      <svg class="side-glyph" viewBox="0 0 100 100" width="20" height="20" role="img" aria-label={side === 'white' ? 'White' : 'Black'}>
        <PieceGlyph type="king" color={side} letter={side === 'white' ? 'K' : 'k'} />
      </svg>
      {/* The sandbox's marker name (for the lobby's list) is no player's name: the side instead. */}
      <span class="name" data-player-name={side} title={g.players[side] ?? undefined}>{g.players[side] === SANDBOX_PLAYER ? (side === 'white' ? 'White' : 'Black') : shownName(g.players[side])}</span>
      {(hot || seat === side) && <span class="you">(you)</span>}
      {clock(side)}
    </div>
  );
  const top: Color = orientation === 'white' ? 'black' : 'white';
  const bottom: Color = orientation;
  // Crazyhouse: the pockets from the FEN, and the pieces that have a legal drop now.
  const pockets = pocketsOf(s.fen);
  const dropsNow = new Set(s.legalMoves.map((u) => splitDrop(u)?.piece).filter((x): x is string => !!x));
  const pocket = (side: Color) =>
    pockets ? (
      <Pocket side={side} counts={pockets[side]} drops={dropsNow} onPick={movable && side === mySide ? (k) => setDropPick({ piece: k, at: Date.now() }) : null} />
    ) : null;
  const opponent: Color | null = mySide ? (mySide === 'white' ? 'black' : 'white') : null;
  const moveColors = s.log.filter((e) => e.event === 'move').map((e) => String((e.detail as { color?: unknown } | null)?.color ?? ''));
  const choiceFor = s.pendingChoice ? String(s.pendingChoice.prompt?.forPlayer ?? s.pendingChoice.forPlayer) : null;

  // Only while the game goes on (session-7 web trial: the choice squares stayed blue after the end).
  const boardChoice =
    live && choice && ['piece', 'square', 'column', 'row'].includes(choice.prompt.kind)
      ? { kind: choice.prompt.kind as 'piece' | 'square' | 'column' | 'row', options: choice.prompt.options.map(String) }
      : null;
  // Every prompt carries the game's timeout (a draft card's too, from session 18); the game's rule
  // from the record stands in for an older server's card prompt.
  const timeout = s.pendingChoice?.prompt?.timeout ?? s.pendingChoice?.timeout ?? (s.pendingChoice?.kind === 'card' && request !== undefined ? choiceSeconds(request) : undefined);
  // The server's time left on the pending choice as of the last state, when it sends it.
  const choiceLeftMs = g.choiceLeftMs;

  const san = (i: number) => plySan(i, { moves: s.moves, seen: client.san, pgn: pgnSan, ucis: moveUcis, pending: g.pendingMove });
  const firstBlack = (s.log.find((e) => e.event === 'move')?.detail as { color?: string } | undefined)?.color === 'black';
  // A capture parry cancelled stays in the list, marked (session-7 web trial).
  const parried = cancelledMoves(s.log);
  const rows = moveListRows(moveUcis.map((_, i) => (parried.has(i) ? `${san(i)}${PARRIED}` : san(i))), firstBlack, result?.result ?? null);
  const events = eventRows(s.log, names, san, choiceRules, firstBlack);
  const pendingKind = s.pendingChoice ? String(s.pendingChoice.prompt?.kind ?? s.pendingChoice.kind) : '';
  const pendingFor = s.pendingChoice?.descriptorId ? modifierName(s.pendingChoice.descriptorId, names) : null;
  // An open challenge's free seat: the opponent has not joined until their seat is taken or present.
  const notJoined = !!opponent && !hot && g.seats?.[opponent] === false && !g.presence[opponent];
  const inspected = pieceNow(inspect, s.pieces);
  const cards = (s.pendingChoice?.prompt as { cards?: { id: string; duration?: unknown }[] } | undefined)?.cards ?? [];

  return (
    <main class={pockets ? 'game pockets' : 'game'}>
      <div class="conn" data-connection={client.connection} role="status" aria-live="polite">
        {client.connection === 'open' ? 'connected' : client.connection === 'reconnecting' ? 'reconnecting…' : client.connection}
        {' · '}
        {g.paused ? 'game paused until the player comes back · ' : ''}
        {hot ? 'sandbox: you play both sides' : seat === 'spectator' ? 'spectating' : `playing ${seat}`}
        {/* The way back to the editor (session-14 trial: the sandbox had none but the browser's). */}
        {hot && (
          <>
            {' · '}
            <a href={backTo ?? '/editor'} data-sandbox-back>
              ← Back to the {backTo === '/yaml' ? 'game' : 'modifier'} editor
            </a>
          </>
        )}
      </div>
      <section class="board-col">
        {heldSeat && seat === 'spectator' && (
          <p class="notice info held-seat" role="status" data-held-seat={heldSeat.seat}>
            You have a seat in this game:{' '}
            <a href={seatUrl(heldSeat.id, heldSeat.token)} data-held-seat-link>
              {live ? 'play' : 'open it'} as {heldSeat.seat === 'white' ? 'White' : 'Black'}
            </a>
            {live ? '' : ' (the game is over)'}.
          </p>
        )}
        {notJoined && live && (
          <p class="notice info" role="status" data-waiting-opponent>
            Your opponent has not joined yet: the game is in the lobby’s open challenges. It starts when someone takes the {opponent} seat.
          </p>
        )}
        {g.paused && live && (
          <p class="notice warning" role="status" data-paused>
            {pausedText(s.pendingChoice ? stillWaitingFor(s.pendingChoice) : null, hot ? null : mySide)}
          </p>
        )}
        {player(top)}
        {pocket(top)}
        <div class="board-wrap">
          <Board
            fen={s.fen}
            pieces={s.pieces}
            markers={s.markers}
            orientation={orientation}
            legalMoves={s.legalMoves}
            movable={movable}
            lastMove={lastUci}
            checkSquare={checkSq}
            choice={boardChoice}
            onMove={sendMove}
            onChoose={answer}
            onInspect={setInspect}
            askPromotion={askPromotion}
            dropPick={dropPick}
            premoveSide={
              canPremove({ live, connection: client.connection, mySide: hot ? null : mySide, hot, sideToMove: s.sideToMove, choicePending: !!s.pendingChoice })
                ? mySide
                : null
            }
            premove={premove}
            onPremove={setPremove}
          />
        </div>
        {s.pendingChoice && live && (
          <p class="choice-near notice info" data-choice-near={choice ? 'mine' : 'waiting'} role="status">
            <ChoiceNearBoard
              mine={!!choice}
              title={choice ? choiceTitle(choice.prompt.kind, pendingFor) : ''}
              waiting={sentRps && s.pendingChoice.kind === 'rps' ? 'Your answer is in: waiting for your opponent' : waitingText(stillWaitingFor(s.pendingChoice), pendingKind, pendingFor)}
              timeout={timeout ?? null}
              since={client.receivedAt}
              leftMs={choiceLeftMs}
            />
            {choice && (
              <>
                {' '}
                <button type="button" data-choice-jump onClick={() => document.querySelector('.choice')?.scrollIntoView({ block: 'center', behavior: 'smooth' })}>
                  Answer
                </button>
              </>
            )}
          </p>
        )}
        {premove && (
          <p class="premove-note" data-premove-note role="status">
            Premove {premove.from}–{premove.to}: played when your turn comes, if legal then. Click elsewhere on the board or right-click to cancel.
          </p>
        )}
        {pocket(bottom)}
        {/* Under the board, not over it: the final position stays in view (issue 26 item 10). */}
        {result && (
          <div class="banner" role="alert" data-result={result.result}>
            <strong>{result.result}</strong> <span data-reason={result.reason}>{reasonText(result.reason, (id) => rules?.presets.find((p) => p.id === id)?.name)}</span>
          </div>
        )}
        {player(bottom)}
        <p class="sr-only" aria-live="polite">
          {moveUcis.length ? playedText(lastMover, san(moveUcis.length - 1), !!checkSq && !result) : ''}
        </p>
        <p class="inspect" aria-live="polite">{inspected ? describePiece(inspected) : 'Hover or tap a piece to see its attributes.'}</p>
      </section>
      <section class="side">
        {/* One's own seat without a name (an invite link, a join): ask for one first, in view
            beside the board at desktop width (issue 26). */}
        {!hot && token && live && (seat === 'white' || seat === 'black') && !g.players[seat] && <NameSeat id={id} token={token} />}
        {request !== undefined && <RulesPanel summary={rulesSummary(request, rules, typeof s.seed === 'number' ? s.seed : undefined)} drafted={draftedLines(s.activeModifiers, request, rules, s.plyCount, names)} />}
        {s.pendingChoice && live && (
          <div class="choice" data-choice={s.pendingChoice.prompt?.kind ?? s.pendingChoice.kind} role="region" aria-label="Pending choice">
            {choice ? (
              <>
                <h3>{choiceTitle(choice.prompt.kind, pendingFor)}</h3>
                <ChoiceCountdown seconds={timeout ?? null} since={client.receivedAt} leftMs={choiceLeftMs} />
                {choiceClockText(g.clocks?.running ?? null, mySide ?? null) && <p class="clock-note" data-choice-clock>{choiceClockText(g.clocks?.running ?? null, mySide ?? null)}</p>}
                {choice.prompt.kind === 'rps' || choice.prompt.kind === 'coin-flip' || choice.prompt.kind === 'card' ? null : <p>Click the board, or pick:</p>}
                <div class={choice.prompt.kind === 'card' ? 'options cards' : 'options'}>
                  {(choice.prompt.options.length ? choice.prompt.options : defaultOptions(choice.prompt.kind)).map((o) => (
                    <button type="button" data-option={String(o)} onClick={() => answer(String(o))} class={choice.prompt.kind === 'card' ? 'card' : undefined}>
                      {choice.prompt.kind === 'card' ? (
                        <>
                          <b>{modifierName(String(o), names)}</b>
                          <span class="len">{cardLength(cards.find((c) => c.id === String(o))?.duration)}</span>
                          {ruleDescriptions[String(o)] && <small>{ruleDescriptions[String(o)]}</small>}
                        </>
                      ) : (
                        optionLabel(choice.prompt.kind, String(o), s.pieces)
                      )}
                    </button>
                  ))}
                </div>
              </>
            ) : (
              <>
                <p>
                  {sentRps && s.pendingChoice.kind === 'rps'
                    ? 'Your answer is in. It stays hidden from your opponent until both have answered.'
                    : waitingText(stillWaitingFor(s.pendingChoice), pendingKind, pendingFor)}
                </p>
                {choiceClockText(g.clocks?.running ?? null, mySide ?? null) && <p class="clock-note" data-choice-clock>{choiceClockText(g.clocks?.running ?? null, mySide ?? null)}</p>}
              </>
            )}
          </div>
        )}
        {mySide && live && <form
          class="typed"
          onSubmit={(e) => {
            e.preventDefault();
            const why = hot ? null : whyNoMove({ live, connection: client.connection, mySide, sideToMove: s.sideToMove, choiceFor });
            const r = why ? null : readTypedMove(typed, s.pieces, s.legalMoves, shape?.letters, enPassantOf(s.fen));
            if (why) setTypedError(why);
            else if (r instanceof Error) setTypedError(r.message);
            else if (!movable || r === null) setTypedError('not connected: wait until the connection is back');
            else if (typeof r !== 'string') {
              // A promotion typed without its piece: the board's picker asks for it.
              setTypedError('');
              setTyped('');
              setAskPromotion({ ...r, at: Date.now() });
            }
            else {
              setTypedError('');
              setTyped('');
              sendMove(r);
            }
          }}
        >
          <label>
            Move <input value={typed} onInput={(e) => {
              setTyped((e.target as HTMLInputElement).value);
              setTypedError('');
            }} placeholder="e4, Nf3, e2e4" aria-describedby="typed-error" autocomplete="off" />
          </label>
          <button type="submit">Play</button>
          <span id="typed-error" class="err" role="alert">{typedError}</span>
        </form>}
        {live && takebackOffer && !hot && (
          <p class="notice info" role="status" data-takeback-offer={takebackOffer}>
            {takebackOffer === mySide ? 'Takeback asked: waiting for your opponent.' : `${takebackOffer === 'white' ? 'White' : 'Black'} asks to take back their last move.`}
          </p>
        )}
        {result && mySide && !hot && token && (
          <div class="rematch" data-rematch={rematch?.status ?? 'none'}>
            {!rematch && <button type="button" data-rematch-action="offer" onClick={goRematch}>Rematch</button>}
            {rematch?.status === 'offered' && rematch.offeredBy === mySide && <p class="notice info" role="status">Rematch offered: waiting for your opponent.</p>}
            {rematch?.status === 'offered' && rematch.offeredBy !== mySide && (
              <>
                <p class="notice info" role="status">Your opponent offers a rematch (colours swapped).</p>
                <button type="button" data-rematch-action="accept" onClick={goRematch}>Accept rematch</button>
                <button type="button" data-rematch-action="decline" onClick={() => sendAs(mySide, { kind: 'decline-rematch' })}>Decline</button>
              </>
            )}
            {rematch?.status === 'accepted' && <button type="button" data-rematch-action="go" onClick={goRematch}>Go to the rematch</button>}
            {rematch?.status === 'declined' && <p class="notice info" role="status">The rematch was declined.</p>}
            {rematchError && <p class="err" role="alert">{rematchError}</p>}
          </div>
        )}
        {result && !mySide && rematchSpectatorText(rematch) && (
          <p class="notice info" role="status" data-rematch-spectator={rematch?.status}>
            {rematchSpectatorText(rematch)}
            {rematch?.status === 'accepted' && (
              <>
                {' '}
                <a href={`/games/${encodeURIComponent(rematch.game)}`}>Watch the rematch</a>
              </>
            )}
          </p>
        )}
        {live && drawOffer && (
          <p class="draw-offer notice info" role="status" data-draw-offer={g.drawOffer ?? ''}>{drawOffer}</p>
        )}
        <div class="actions">
          <button type="button" onClick={() => setFlip(!flip)}>Flip</button>
          <button
            type="button"
            data-sound={sound ? 'on' : 'off'}
            aria-pressed={sound}
            title="Sounds for moves, captures, checks and the end (remembered in this browser)"
            onClick={() => {
              setSoundOn(!sound);
              setSound(!sound);
            }}
          >
            {sound ? 'Sound on' : 'Sound off'}
          </button>
          {mySide && live && !hot && (
            <>
              <button type="button" onClick={() => confirm('Resign this game?') && sendAs(mySide, { kind: 'resign' })}>Resign</button>
              {/* Not before the opponent has joined an open challenge (trial 20 item 2). */}
              {notJoined ? null : g.drawOffer && g.drawOffer !== mySide ? (
                <>
                  <button type="button" onClick={() => sendAs(mySide, { kind: 'accept-draw' })}>Accept draw</button>
                  <button type="button" onClick={() => sendAs(mySide, { kind: 'decline-draw' })}>Decline draw</button>
                </>
              ) : (
                <button type="button" disabled={g.drawOffer === mySide} onClick={() => sendAs(mySide, { kind: 'offer-draw' })}>
                  {g.drawOffer === mySide ? 'Draw offered' : 'Offer draw'}
                </button>
              )}
              {takebackOffer && takebackOffer !== mySide ? (
                <>
                  <button type="button" data-takeback="accept" onClick={() => sendAs(mySide, { kind: 'accept-takeback' })}>Accept takeback</button>
                  <button type="button" data-takeback="decline" onClick={() => sendAs(mySide, { kind: 'decline-takeback' })}>Decline takeback</button>
                </>
              ) : (
                canAskTakeback(moveUcis.length, s.sideToMove, mySide, !!s.pendingChoice) && (
                  <button type="button" data-takeback="offer" data-takeback-blocked={takebackWhyNot ? '' : undefined} disabled={takebackOffer === mySide || !!takebackWhyNot} title={takebackWhyNot ?? 'Ask your opponent to take back your last move (not a move that drew randomness or raised a choice).'} onClick={() => sendAs(mySide, { kind: 'offer-takeback' })}>
                    {takebackOffer === mySide ? 'Takeback asked' : 'Takeback'}
                  </button>
                )
              )}
              {/* Only when the server says a draw can be claimed now (its `drawClaim`; issue 26 item 9). */}
              {s.sideToMove === mySide && !!s.drawClaim && (
                <button type="button" data-claim="draw" title={s.drawClaim === 'threefold-repetition' ? 'The position has appeared three times.' : 'Fifty moves by each side without a capture or a pawn move.'} onClick={() => sendAs(mySide, { kind: 'claim-draw' })}>Claim draw</button>
              )}
              {opponent && !g.presence[opponent] && !notJoined && opponentCame(!!seenOpponent.current[opponent], moveColors, opponent) && (
                <ClaimVictory since={leftAt.current[opponent] ?? openedAt.current} afterMs={g.claimVictoryAfterMs} onClaim={() => sendAs(mySide, { kind: 'claim-victory' })} />
              )}
            </>
          )}
          <a href={api.pgnUrl(id)} download={`${id}.pgn`}>PGN</a>
          <a href={api.recordUrl(id)} download={`${id}.json`}>Record</a>
        </div>
        {rows.length > 0 && <ol
          class="moves"
          aria-label="Moves"
          ref={movesRef}
          onScroll={(e) => {
            const el = e.currentTarget;
            movesAtBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
          }}
        >
          {rows.map((r) =>
            r.n === null ? (
              <li key="result" class="result" data-move-result={r.w}>
                <span class="n" /> <span class="w">{r.w}</span>
              </li>
            ) : (
              <li key={r.n}>
                <span class="n">{r.n}.</span> <MoveCell cls="w" san={r.w ?? ""} /> <MoveCell cls="b" san={r.b ?? ''} />
              </li>
            ),
          )}
        </ol>}
        {events.length > 0 && (
          <details class="events" open>
            <summary>Rule events ({events.length})</summary>
            <ol
              ref={logRef}
              data-event-log
              onScroll={(e) => {
                const el = e.currentTarget;
                logAtBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
              }}
            >
              {events.map((r) => (
                <li key={r.key} data-event-when={r.when}>
                  <span class="when">{r.when}</span>
                  <span class="what">
                    {r.rule && (
                      <b class={r.sure ? 'rule' : 'rule unsure'} title={r.sure ? undefined : 'The log does not say which of these rules made this entry.'}>
                        {r.rule}:{' '}
                      </b>
                    )}
                    {r.text}
                  </span>
                </li>
              ))}
            </ol>
          </details>
        )}
        {s.activeModifiers.length > 0 && (
          <p class="mods" data-rules={s.activeModifiers.map((m) => m.id).join(' ')}>In play now: {s.activeModifiers.map((m) => modifierName(m.id, names)).join(', ')}</p>
        )}
        {opponent && live && !hot && !g.presence[opponent] && !notJoined && opponentCame(!!seenOpponent.current[opponent], moveColors, opponent) && (
          <AwayNotice since={leftAt.current[opponent] ?? null} afterMs={g.claimVictoryAfterMs} />
        )}
        <MarkerLegend present={s.markers.map((m) => m.kind)} />
        <div class="notices" aria-live="assertive">
          {client.notices.slice(-3).map((n) => (
            <p class={`notice ${n.kind}`}>{n.text}</p>
          ))}
        </div>
      </section>
    </main>
  );
}

/** Re-renders itself ten times a second (not the page) while its side's clock runs. */
function useTicker(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(t);
  }, [active]);
  return active ? Date.now() : now;
}

function Clock({ reading, side, offset, live }: { reading: ClockReading; side: Color; offset: number | null; live: boolean }) {
  const running = reading.running === side && live;
  const now = useTicker(running);
  const ms = remainingMs(reading, side, now, offset);
  return (
    <div class={`clock ${side}${running ? ' running' : ''}${ms < 10_000 ? ' low' : ''}`} data-clock={side} role="timer" aria-label={`${side} clock`}>
      {formatClock(ms)}
    </div>
  );
}

/** The opponent-away notice, counting down to the moment the win can be claimed. */
/** The "Claim victory" button, shown once the claim can work (`claimReady`). */
function ClaimVictory({ since, afterMs, onClaim }: { since: number; afterMs?: number; onClaim: () => void }) {
  const now = useTicker(!claimReady(Date.now() - since, afterMs));
  if (!claimReady(now - since, afterMs)) return null;
  return (
    <button type="button" data-claim="victory" title="Your opponent has been away long enough: you may claim the win." onClick={onClaim}>
      Claim victory
    </button>
  );
}

function AwayNotice({ since, afterMs }: { since: number | null; afterMs?: number }) {
  const now = useTicker(since !== null);
  return (
    <p class="notice info" data-opponent-away role="status">
      {awayText(since === null ? null : now - since, afterMs)}
    </p>
  );
}

/**
 * Seconds left of a pending choice, counted from `since`, when the page received the last state:
 * the server's `choiceLeftMs` of that state when it sends one — after a restart the server starts
 * the timer again and the page must follow it (trial 18: pages kept the old countdown) — else the
 * prompt's `seconds` (an older server). Null when the choice has no running timer.
 */
export function choiceSecondsLeft(now: number, leftMs: number | null | undefined, seconds: number | null, since: number): number | null {
  if (leftMs !== undefined) return leftMs === null ? null : Math.max(0, Math.ceil((leftMs - (now - since)) / 1000));
  if (!seconds) return null;
  return Math.max(0, Math.ceil(seconds - (now - since) / 1000));
}

function ChoiceCountdown({ seconds, since, leftMs }: { seconds: number | null; since: number; leftMs: number | null | undefined }) {
  const now = useTicker(true);
  const left = choiceSecondsLeft(now, leftMs, seconds, since);
  if (left === null) return null;
  return <p class="timeout">{left} s left, then the first option is taken</p>;
}

function ChoiceNearBoard({ mine, title, waiting, timeout, since, leftMs }: { mine: boolean; title: string; waiting: string; timeout: number | null; since: number; leftMs: number | null | undefined }) {
  const now = useTicker(true);
  return <>{choiceNearBoardText(mine, title, waiting, choiceSecondsLeft(now, leftMs, timeout, since))}</>;
}

const POCKET_NAMES: Record<string, string> = { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', K: 'king' };

/**
 * One side's pocket (pieces in hand, crazyhouse): each piece type with its count. On one's own
 * turn a piece with a legal drop can be clicked (then a square of the board) or dragged to the board.
 */
function Pocket({ side, counts, drops, onPick }: { side: Color; counts: Record<string, number>; drops: Set<string>; onPick: ((piece: string) => void) | null }) {
  const letters = [...POCKET_ORDER, ...Object.keys(counts).filter((k) => !POCKET_ORDER.includes(k))];
  return (
    <div class="pocket" data-pocket={side} role="group" aria-label={`${side}'s pocket`}>
      {letters.map((k) => {
        const n = counts[k] ?? 0;
        const can = !!onPick && n > 0 && drops.has(k);
        const type = POCKET_NAMES[k] ?? k.toLowerCase();
        return (
          <button
            type="button"
            class={`pocket-piece${n ? '' : ' empty'}`}
            data-pocket-piece={k}
            data-count={n}
            disabled={!can}
            draggable={can}
            aria-label={`${side} ${type} in hand: ${n}`}
            onClick={() => can && onPick?.(k)}
            onDragStart={(e) => {
              e.dataTransfer?.setData('text/x-houserules-drop', k);
              onPick?.(k);
            }}
          >
            <svg viewBox="0 0 100 100" aria-hidden="true">
              <PieceGlyph type={type} color={side} letter={side === 'white' ? k : k.toLowerCase()} />
            </svg>
            {n > 0 && <span class="count">{n}</span>}
          </button>
        );
      })}
    </div>
  );
}

function defaultOptions(kind: string): string[] {
  if (kind === 'rps') return ['rock', 'paper', 'scissors'];
  if (kind === 'coin-flip') return ['heads', 'tails'];
  return [];
}
function optionLabel(kind: string, o: string, pieces: PieceOut[]): string {
  if (kind === 'piece') return pieceLabel(o, pieces);
  // Text labels: the emoji were empty boxes in Debian's Chromium without an emoji font (session-7 web trial).
  const words: Record<string, string> = { rock: 'Rock', paper: 'Paper', scissors: 'Scissors', heads: 'Heads', tails: 'Tails' };
  return kind === 'rps' || kind === 'coin-flip' ? words[o] ?? o : o;
}

/** The text a parried move carries in the move list (struck through by `MoveCell`). */
const PARRIED = ' (parried)';

function MoveCell({ cls, san }: { cls: string; san: string }) {
  if (san.endsWith(PARRIED)) {
    const m = san.slice(0, -PARRIED.length);
    return (
      <span class={`${cls} parried`} data-parried={m} title="The capture was parried: the pieces did not move.">
        <s>{m}</s> (parried)
      </span>
    );
  }
  return <span class={cls}>{san}</span>;
}

/** A draft card's length: plies, a range of plies, or a named lifetime. */
function cardLength(d: unknown): string {
  if (typeof d === 'number') return `for ${d} plies`;
  if (Array.isArray(d) && d.length === 2) return `for ${d[0]}–${d[1]} plies`;
  if (d === 'instant') return 'acts once, at once';
  if (d === 'permanent') return 'for the rest of the game';
  if (typeof d === 'string') return d;
  return '';
}
