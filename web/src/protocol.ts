/**
 * Everything the web app knows about the server (issue 13): the HTTP API, the WebSocket messages
 * of protocol v1/v2, and the reader that turns the server's game state into the shape the UI uses.
 *
 * This is the ONLY module that knows wire shapes. Where issue 13's text leaves a shape open (the
 * exact nesting of clocks, presence and draw offers in the state, the seat URL form), the reader
 * below accepts the plausible spellings and the comment says which; adjust here at integration.
 */

export type Color = 'white' | 'black';
export type Seat = Color | 'spectator';
export const PROTOCOL_VERSION = 3;

// ---------------------------------------------------------------------------------------------
// Session output (docs/session-output.schema.json)

export type MarkerKind =
  | 'portal-end'
  | 'frozen-square'
  | 'mine'
  | 'pit'
  | 'death-square'
  | 'tornado'
  | 'treasure'
  | 'blocked'
  | 'ward';

/** Marker kinds in collision priority order (modifier-dsl-decisions § Marker Collision Priority; ward: rulings D1). */
export const MARKER_PRIORITY: readonly MarkerKind[] = [
  'portal-end',
  'frozen-square',
  'mine',
  'pit',
  'death-square',
  'tornado',
  'treasure',
  'blocked',
  'ward',
];

export type Lifetime =
  | { kind: 'permanent' }
  | { kind: 'moves'; expiresAtMove: number }
  | { kind: 'one-shot' };

export interface MarkerOut {
  id: number;
  kind: MarkerKind;
  square: string;
  lifetime: Lifetime;
  owner: Color | null;
  links: number[];
  source: number;
}

export interface PieceOut {
  id: number;
  square: string;
  type: string;
  color: Color;
  attrs: Record<string, unknown>;
  baseAttrs: Record<string, unknown>;
}

export type ChoiceKind = 'piece' | 'square' | 'column' | 'row' | 'coin-flip' | 'rps' | 'card';

export interface ChoicePrompt {
  kind: ChoiceKind;
  options: string[];
  filter?: unknown;
  forPlayer: Color | 'both';
  timeout?: number | null;
}

export interface PendingChoice {
  choiceId: string;
  descriptorId: string;
  kind: ChoiceKind;
  forPlayer: string;
  prompt: ChoicePrompt;
  collected?: Record<string, unknown>;
  timeout?: number | null;
}

/** The rule a log entry belongs to (docs/protocol.md § The rule log); absent for none. */
export interface LogRule {
  kind: 'modifier' | 'preset';
  id: string;
  name: string;
}

export interface LogEntry {
  event: string;
  detail: unknown;
  /** The modifier or preset that wrote the entry (servers from session 18 on). */
  rule?: LogRule;
}

export interface StatusShape {
  status: string;
  winner?: Color | null;
  reason?: string | null;
}

export interface SessionOutput {
  fen: string;
  sideToMove: Color;
  status: StatusShape;
  legalMoves: string[];
  pendingChoice: PendingChoice | null;
  markers: MarkerOut[];
  activeModifiers: { instance: number; id: string; chooser: Color; lifetime: Lifetime }[];
  pieces: PieceOut[];
  plyCount: number;
  log: LogEntry[];
  vars?: Record<string, unknown>;
  /** The game's seed (a u32; rulings F4). */
  seed?: number;
  /** Optional: SAN of every ply so far, if the server sends it (preferred over the client's own). */
  moves?: { uci: string; san: string }[];
  /**
   * The draw the side to move may claim now with `claim-draw` (`threefold-repetition`,
   * `fifty-move-rule`), or null; absent from older servers.
   */
  drawClaim?: string | null;
  /**
   * Whether the side to move is in check under the rules in force (the server's `inCheck`; a
   * preset such as trans-rights changes what checks). Absent only from older servers.
   */
  inCheck?: boolean;
}

// ---------------------------------------------------------------------------------------------
// The game state as the UI uses it

export interface ClockReading {
  white: number;
  black: number;
  /** Server time (ms since the epoch) of the reading. */
  serverTime: number;
  /** The side whose clock runs, or null when none runs. */
  running: Color | null;
  initialSeconds?: number;
  incrementSeconds?: number;
}

export interface GameView {
  id: string;
  seq: number;
  session: SessionOutput;
  clocks: ClockReading | null;
  presence: { white: boolean; black: boolean };
  drawOffer: Color | null;
  players: { white?: string; black?: string };
  result: { result: string; reason: string } | null;
  /** The game waits for a player to come back (no-timeout choice mode). */
  paused: boolean;
  /** Whether each seat has been taken (an open challenge's free seat reads false until someone joins); absent: unknown. */
  seats?: { white: boolean; black: boolean };
  /** How long the opponent must be away before victory can be claimed (ms), when the server says. */
  claimVictoryAfterMs?: number;
  /** The rematch asked for after the end (docs/protocol.md § Rematch), or null. */
  rematch?: RematchView | null;
  /** The side whose takeback request stands (§ Takeback), or null. */
  takebackOffer?: Color | null;
  /**
   * Milliseconds left on the pending choice's timer as of this state (then its default is taken),
   * null when none runs; absent from an older server (the prompt's `timeout` is used then).
   */
  choiceLeftMs?: number | null;
  /** The last move while a choice it raised waits (its SAN without a check sign), or null; absent from older servers. */
  pendingMove?: { uci: string; san: string } | null;
}

/** A rematch: the new game, who asked, where it stands. */
export interface RematchView {
  game: string;
  offeredBy: Color;
  status: 'offered' | 'accepted' | 'declined';
}

function readRematch(v: unknown): RematchView | null {
  if (!isObj(v) || typeof v.game !== 'string') return null;
  const by = color(v.offeredBy);
  const st = v.status;
  if (!by || (st !== 'offered' && st !== 'accepted' && st !== 'declined')) return null;
  return { game: v.game, offeredBy: by, status: st };
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const color = (v: unknown): Color | null => (v === 'white' || v === 'black' ? v : null);

/** Ongoing statuses: the game is not over. */
export function isLive(status: StatusShape): boolean {
  return status.status === 'ongoing' || status.status === 'awaiting-choice' || status.status === 'paused';
}

function readClockSide(v: unknown): number | undefined {
  // `{"remainingMs": N}` (issue 13's words) or a bare number of ms.
  if (isObj(v)) return num(v.remainingMs);
  return num(v);
}

/**
 * Reads the server's game state (GET /api/games/{id}, or `state` in welcome/state messages).
 * Accepts the session output nested under `state`/`session` or flattened beside `seq`; clocks
 * under `clocks` or `clock`, with `serverTime`/`serverTimeMs`/`at` for the reading's time.
 * Throws an Error naming the field when the session output itself is missing.
 */
export function readGameState(raw: unknown, fallbackSeq = 0, id = ''): GameView {
  if (!isObj(raw)) throw new Error('game state: not an object');
  const inner = isObj(raw.session) ? raw.session : isObj(raw.state) && 'fen' in raw.state ? raw.state : raw;
  if (typeof inner.fen !== 'string') throw new Error('game state: missing "fen"');
  if (!Array.isArray(inner.pieces)) throw new Error('game state: missing "pieces"');
  const session = {
    legalMoves: [],
    pendingChoice: null,
    markers: [],
    activeModifiers: [],
    log: [],
    plyCount: 0,
    status: { status: 'ongoing' },
    sideToMove: 'white',
    ...inner,
  } as unknown as SessionOutput;

  const c = isObj(raw.clocks) ? raw.clocks : isObj(raw.clock) ? raw.clock : null;
  let clocks: ClockReading | null = null;
  if (c) {
    const w = readClockSide(c.white);
    const b = readClockSide(c.black);
    if (w !== undefined && b !== undefined) {
      const serverTime = num(c.serverTime) ?? num(c.serverTimeMs) ?? num(c.at) ?? num(raw.serverTime) ?? Date.now();
      const running =
        'running' in c
          ? color(c.running)
          : isLive(session.status) && session.status.status !== 'paused'
            ? session.sideToMove
            : null;
      clocks = {
        white: w,
        black: b,
        serverTime,
        running,
        initialSeconds: num(c.initialSeconds),
        incrementSeconds: num(c.incrementSeconds),
      };
    }
  }

  const p = isObj(raw.presence) ? raw.presence : {};
  const presentOf = (v: unknown) => (isObj(v) ? v.connected === true || v.present === true : v === true);
  const drawOffer = color(raw.drawOffer) ?? (isObj(raw.drawOffers) ? color(raw.drawOffers.by) : color(raw.drawOffers));
  const players = isObj(raw.players) ? raw.players : raw;
  const r = isObj(raw.result) ? raw.result : null;
  return {
    id: typeof raw.id === 'string' ? raw.id : id,
    seq: num(raw.seq) ?? fallbackSeq,
    session,
    clocks,
    presence: { white: presentOf(p.white), black: presentOf(p.black) },
    drawOffer,
    players: {
      white: typeof players.white === 'string' ? players.white : undefined,
      black: typeof players.black === 'string' ? players.black : undefined,
    },
    result: r ? { result: String(r.result ?? ''), reason: String(r.reason ?? '') } : null,
    paused: raw.paused === true,
    seats: isObj(raw.seats) ? { white: raw.seats.white !== false, black: raw.seats.black !== false } : undefined,
    claimVictoryAfterMs: num(raw.claimVictoryAfterMs),
    rematch: readRematch(raw.rematch),
    takebackOffer: color(raw.takebackOffer),
    choiceLeftMs: 'choiceLeftMs' in raw ? (num(raw.choiceLeftMs) ?? null) : undefined,
    pendingMove: readPendingMove(raw.pendingMove),
  };
}

/** The state's `pendingMove`: `{uci, san}` strings, or null. */
export function readPendingMove(v: unknown): { uci: string; san: string } | null {
  return isObj(v) && typeof v.uci === 'string' && typeof v.san === 'string' ? { uci: v.uci, san: v.san } : null;
}

// ---------------------------------------------------------------------------------------------
// WebSocket messages

export type ClientMessage =
  | { kind: 'hello'; protocolVersion: 1 | 2 | 3; lastSeq?: number }
  | { kind: 'move'; move: string; ply: number }
  | { kind: 'submit-choice'; choiceId: string; value: string }
  | { kind: 'resign' }
  | { kind: 'offer-draw' }
  | { kind: 'accept-draw' }
  | { kind: 'decline-draw' }
  | { kind: 'claim-draw' }
  | { kind: 'claim-victory' }
  | { kind: 'ping' }
  | { kind: 'resync'; lastSeq: number }
  | { kind: 'offer-takeback' }
  | { kind: 'accept-takeback' }
  | { kind: 'decline-takeback' }
  | { kind: 'decline-rematch' };

/** (v3) The game-level fields sent in every `update` and alone as `patch` (docs/protocol.md § Version 3). */
export interface GameInfo {
  seq: number;
  clock: unknown;
  presence: { white: boolean; black: boolean };
  drawOffer: Color | null;
  result: { result: string; reason: string } | null;
  paused: boolean;
  seats: { white: boolean; black: boolean };
  engine: { color: Color; level: number; thinking: boolean } | null;
  rematch?: RematchView | null;
  takebackOffer?: Color | null;
  choiceLeftMs?: number | null;
  /** The players' names (null: unnamed); in every message from servers that let a seat be named later. */
  players?: { white?: string | null; black?: string | null };
  /** The last move while a choice it raised waits (a capture waiting for its Parry throw): UCI and bare SAN. */
  pendingMove?: { uci: string; san: string } | null;
}

/** (v3) What one accepted input changed: apply it to the state of `seq - 1`. */
export interface UpdateMessage extends GameInfo {
  kind: 'update';
  input: unknown;
  move: { uci: string; san: string } | null;
  plyCount: number;
  fen: string;
  sideToMove: Color;
  /** Whether the side to move is in check under the rules in force (absent from older servers). */
  inCheck?: boolean;
  /** The draw the side to move may claim now, or null (absent from older servers). */
  drawClaim?: string | null;
  status: StatusShape;
  legalMoves: string[];
  pendingChoice: PendingChoice | null;
  events: LogEntry[];
  pieces: { removed: number[]; changed: PieceOut[] } | null;
  markers?: MarkerOut[];
  activeModifiers?: SessionOutput['activeModifiers'];
  vars?: Record<string, unknown>;
  rngStream: number;
}

export type ServerMessage =
  | { kind: 'welcome'; protocolVersion: number; seat: Seat; seq: number; state: unknown }
  | { kind: 'state'; seq: number; state: unknown }
  | { kind: 'request-choice'; choiceId: string; prompt: ChoicePrompt }
  | { kind: 'error'; code: string; message: string; ref?: unknown }
  | { kind: 'warning'; code?: string; message: string }
  | { kind: 'game-over'; result: string; reason: string }
  | { kind: 'presence'; white?: unknown; black?: unknown; [k: string]: unknown }
  | { kind: 'pong' }
  | UpdateMessage
  | ({ kind: 'patch' } & GameInfo);

/** Parses one server frame; returns an Error (never throws) for a frame the client cannot read. */
export function parseServerMessage(text: string): ServerMessage | Error {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return new Error(`server message is not JSON: ${(e as Error).message}`);
  }
  if (!isObj(v) || typeof v.kind !== 'string') return new Error('server message without "kind"');
  switch (v.kind) {
    case 'welcome':
    case 'state':
      if (num(v.seq) === undefined) return new Error(`${v.kind} message without a numeric "seq"`);
      if (!isObj(v.state)) return new Error(`${v.kind} message without "state"`);
      return v as ServerMessage;
    case 'update':
      if (num(v.seq) === undefined) return new Error('update message without a numeric "seq"');
      if (typeof v.fen !== 'string' || !Array.isArray(v.events) || !Array.isArray(v.legalMoves)) {
        return new Error('update message without "fen", "events" or "legalMoves"');
      }
      return v as unknown as ServerMessage;
    case 'patch':
      if (num(v.seq) === undefined) return new Error('patch message without a numeric "seq"');
      return v as unknown as ServerMessage;
    case 'request-choice':
      if (typeof v.choiceId !== 'string' || !isObj(v.prompt)) return new Error('request-choice without choiceId/prompt');
      return v as ServerMessage;
    case 'error':
    case 'warning':
    case 'game-over':
    case 'presence':
    case 'pong':
      return v as ServerMessage;
    default:
      return new Error(`unknown server message kind "${v.kind}"`);
  }
}

// ---------------------------------------------------------------------------------------------
// URLs

/** Where the game page finds the game id and the seat token: `/game/{id}?token=T` (also `/games/…`, `/g/…`, `#token=T`). */
export function parseGameLocation(pathname: string, search: string, hash: string): { id: string; token?: string } | null {
  const m = /^\/(?:game|games|g)\/([^/?#]+)/.exec(pathname);
  if (!m) return null;
  const q = new URLSearchParams(search);
  const h = new URLSearchParams(hash.replace(/^#/, ''));
  const token = q.get('token') ?? h.get('token') ?? undefined;
  return { id: decodeURIComponent(m[1]), token: token || undefined };
}

export function wsUrl(origin: string, id: string, token?: string): string {
  const u = new URL(`/api/games/${encodeURIComponent(id)}/ws`, origin);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  if (token) u.searchParams.set('token', token);
  return u.toString();
}

// ---------------------------------------------------------------------------------------------
// HTTP API

export interface Finding {
  code: string;
  path: string;
  message: string;
  line?: number;
  column?: number;
  severity?: string;
  /** A hint from the server ("did you mean `width`?"), shown beside the message. */
  help?: string;
}

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public findings: Finding[] = [],
  ) {
    super(message);
  }
}

export interface SeatLink {
  token: string;
  url: string;
}
export interface CreatedGame {
  id: string;
  /** An open challenge (`seat` in the request) carries only the creator's seat. */
  seats: { white?: SeatLink; black?: SeatLink };
  spectateUrl: string;
}

export interface CreateGameRequest {
  game?: string;
  fen?: string;
  layout?: string;
  presets?: string[];
  modifiers?: (string | object)[];
  seed?: number;
  draft?: boolean | object;
  choiceTimeout?: { mode: 'timeout-with-default'; seconds: number } | { mode: 'no-timeout' };
  coinFlips?: 'auto' | 'manual';
  clock?: { initialSeconds: number; incrementSeconds: number };
  white?: string;
  black?: string;
  /** An open challenge: the creator's seat; the other is taken by POST /api/games/{id}/join. */
  seat?: Color;
}

export interface RuleEntry {
  id: string;
  name?: string;
  description?: string;
  incompatible?: string[];
  /** Presets: why it cannot be combined with another, by that preset's id (GET /api/rules). */
  incompatibleReasons?: Record<string, string>;
  /** Presets that must be chosen with this one. */
  requires?: string[];
  /** False when the engine cannot play it yet; `needs` says what is missing. */
  implemented?: boolean;
  needs?: string;
  parameters?: { name: string; type: string; default?: unknown }[];
  kind?: string;
  /** Layouts: the game they belong to; presets: the category. */
  game?: string;
  category?: string;
  descriptor?: unknown;
  /** Modifiers: saved with POST /api/modifiers (its descriptor is then sent inline). */
  saved?: boolean;
  /** Library modifiers: their entry in the catalog, when they come from it. */
  catalog?: { id?: string; number?: number } | null;
}
export interface Rules {
  games: RuleEntry[];
  layouts: RuleEntry[];
  presets: RuleEntry[];
  modifiers: RuleEntry[];
}

export interface GameSummary {
  id: string;
  status: string;
  game?: string;
  presets?: string[];
  modifiers?: string[];
  clock?: { initialSeconds: number; incrementSeconds: number } | null;
  white?: string | null;
  black?: string | null;
  openSeats?: Color[];
  /** An open challenge's creator seat (from the creation request); the other seat is free. */
  seat?: Color;
  layout?: string;
  plyCount?: number;
  createdAt?: string;
  /** How many inputs the game's log holds (moves, choice answers, game events); 0: nobody acted. */
  inputs?: number;
  /**
   * A live game nobody is at: no connection, nothing running, no input for the server's idle-unload
   * time (docs/protocol.md § Lobby). The live list leaves it out.
   */
  abandoned?: boolean;
}

function findingsOf(body: unknown): Finding[] {
  if (isObj(body)) {
    const f = body.findings ?? body.errors ?? body.diagnostics;
    if (Array.isArray(f)) return f.filter(isObj).map((x) => ({
      code: String(x.code ?? ''),
      path: String(x.path ?? ''),
      message: String(x.message ?? ''),
      line: num(x.line),
      column: num(x.column),
      severity: typeof x.severity === 'string' ? x.severity : undefined,
      help: typeof x.help === 'string' && x.help ? x.help : undefined,
    }));
  }
  return [];
}

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* a non-JSON answer: reported below with its text */
  }
  if (!res.ok) throw new ApiError(res.status, refusalText(res.status, parsed, text, res.statusText), findingsOf(parsed));
  return parsed as T;
}

/**
 * What a refused request says to a reader: its findings as "path: message" (one per line), else
 * the error's message, else the status with at most 200 characters of a non-JSON answer (the
 * session-6 web trial saw the raw HTTP body `{"findings":[…]}` in the lobby).
 */
export function refusalText(status: number, parsed: unknown, text: string, statusText = ''): string {
  const findings = findingsOf(parsed);
  if (findings.length) return findings.map((f) => (f.path && f.path !== '$' ? `${f.path}: ${f.message}` : f.message)).join('\n');
  if (isObj(parsed) && typeof parsed.message === 'string' && parsed.message) return parsed.message;
  const body = parsed === undefined ? text.trim().slice(0, 200) : '';
  return `the server answered ${status}${statusText ? ` ${statusText}` : ''}${body ? `: ${body}` : ''}`;
}

/** Rule entries: bare ids or objects; `incompatible_with`/`incompatibleWith` read as `incompatible` (the presets registry's serde names). */
function listOf(v: unknown, key: string): RuleEntry[] {
  const a = isObj(v) ? v[key] : undefined;
  if (!Array.isArray(a)) return [];
  const strs = (x: unknown) => (Array.isArray(x) ? x.map(String) : undefined);
  return a.map((x): RuleEntry => {
    if (!isObj(x)) return { id: String(x) };
    return {
      ...(x as unknown as RuleEntry),
      id: String(x.id),
      incompatible: strs(x.incompatible ?? x.incompatibleWith ?? x.incompatible_with),
      requires: strs(x.requires),
    };
  });
}

/** POST /api/validate: the server tells a descriptor (a body starting with `{`) from a YAML game. */
async function validateBody(body: string): Promise<{ findings: Finding[]; answer: unknown }> {
  const res = await fetch('/api/validate', { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
  const text = await res.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new ApiError(res.status, `POST /api/validate: ${res.status} ${text.slice(0, 200)}`);
  }
  if (!res.ok && !(isObj(answer) && Array.isArray(answer.findings))) {
    throw new ApiError(res.status, `POST /api/validate: ${res.status} ${isObj(answer) ? String(answer.message ?? '') : ''}`);
  }
  return { findings: findingsOf(answer), answer };
}

export const api = {
  createGame: (req: CreateGameRequest) => call<CreatedGame>('POST', '/api/games', req),
  getGame: async (id: string) => readGameState(await call<unknown>('GET', `/api/games/${encodeURIComponent(id)}`), 0, id),
  listGames: async (status: 'open' | 'live' | 'finished') => {
    const v = await call<unknown>('GET', `/api/games?status=${status}`);
    const rows: unknown[] = Array.isArray(v) ? v : isObj(v) && Array.isArray(v.games) ? v.games : [];
    // The server's rows carry the creation request under `request`: its fields describe the game.
    return rows.filter(isObj).map((r) => {
      const req = isObj(r.request) ? r.request : {};
      const mods = Array.isArray(req.modifiers) ? req.modifiers.map((m) => (typeof m === 'string' ? m : isObj(m) ? String(m.name ?? m.id ?? 'custom') : '?')) : undefined;
      return { ...req, modifiers: mods, ...r } as unknown as GameSummary;
    });
  },
  /** POST /api/games/{id}/rematch with a seat token: offers a rematch, or accepts the opponent's; this seat in the new game. */
  rematch: async (id: string, token: string) => {
    const res = await fetch(`/api/games/${encodeURIComponent(id)}/rematch`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* reported below */
    }
    if (!res.ok) throw new ApiError(res.status, refusalText(res.status, parsed, text, res.statusText), findingsOf(parsed));
    return { ...(parsed as { id: string; seat: Color; token: string; url: string }), created: res.status === 201 };
  },
  /** POST /api/games/{id}/join, with the joiner's name when given (it names the seat if its creator did not). */
  joinGame: (id: string, name?: string) =>
    call<{ seat: Color; token: string; url: string; name?: string }>('POST', `/api/games/${encodeURIComponent(id)}/join`, name ? { name } : {}),
  /** POST /api/games/{id}/name with a seat token: names the seat once, while it has no name. */
  nameSeat: (id: string, token: string, name: string) =>
    call<{ seat: Color; name: string }>('POST', `/api/games/${encodeURIComponent(id)}/name`, { name }, { authorization: `Bearer ${token}` }),
  /**
   * GET /api/rules; `saved`: the ids of the saved rules to list too (the server lists none
   * unasked: editor/knownRules.ts says which a browser asks for).
   */
  rules: async (saved: string[] = []): Promise<Rules> => {
    const q = saved.length ? `?saved=${saved.map(encodeURIComponent).join(',')}` : '';
    const v = await call<unknown>('GET', `/api/rules${q}`);
    return { games: listOf(v, 'games'), layouts: listOf(v, 'layouts'), presets: listOf(v, 'presets'), modifiers: listOf(v, 'modifiers') };
  },
  /** POST /api/validate with a descriptor (the JSON itself as the body); answers the findings. */
  validate: async (descriptor: unknown): Promise<Finding[]> => (await validateBody(JSON.stringify(descriptor))).findings,
  /**
   * POST /api/validate with a YAML game (the text as the body): the findings (with line and
   * column) and, when the server sends it, a preview of the start position (`fen`, `legalMoves`).
   */
  validateYaml: async (yaml: string) => {
    const { findings, answer } = await validateBody(yaml);
    const pv = isObj(answer) ? (isObj(answer.preview) ? answer.preview : answer) : {};
    const preview = typeof pv.fen === 'string' ? { fen: pv.fen, legalMoves: Array.isArray(pv.legalMoves) ? pv.legalMoves.map(String) : [] } : null;
    return { findings, preview };
  },
  /**
   * Saves a descriptor to the server's modifier library (POST /api/modifiers). The first save of an
   * id answers its owner token (`ownerToken`, given once); saving that id again needs it, sent as
   * `Authorization: Bearer TOKEN` (else 403 `modifier.not-owner`). editor/ownerTokens.ts keeps them.
   */
  saveModifier: (descriptor: unknown, ownerToken?: string) =>
    call<{ id: string; ownerToken?: string }>('POST', '/api/modifiers', descriptor, ownerToken ? { authorization: `Bearer ${ownerToken}` } : {}),
  pgnUrl: (id: string) => `/api/games/${encodeURIComponent(id)}/pgn`,
  recordUrl: (id: string) => `/api/games/${encodeURIComponent(id)}/record`,
  /** The game's creation request (`GET /api/games/{id}/record`'s `request`): the rules panel reads it. */
  creationRequest: async (id: string): Promise<unknown> => {
    const v = await call<unknown>('GET', `/api/games/${encodeURIComponent(id)}/record`);
    return isObj(v) ? v.request : undefined;
  },
  pgnText: async (id: string) => {
    const res = await fetch(`/api/games/${encodeURIComponent(id)}/pgn`);
    if (!res.ok) throw new ApiError(res.status, `GET pgn: ${res.status}`);
    return res.text();
  },
};

// ---------------------------------------------------------------------------------------------
// The connection: hello, reconnect with lastSeq, resend nothing twice (the ply does that)

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface ConnectionOptions {
  url: string;
  /** The seq the client already has (0 = none); read at every (re)connect. */
  lastSeq: () => number;
  onMessage: (m: ServerMessage) => void;
  onState: (s: ConnectionState, attempt: number) => void;
  onBadFrame?: (e: Error) => void;
  makeSocket?: (url: string) => SocketLike;
  /** Backoff before reconnect attempt n (from 1): 250 ms doubling to 5 s. */
  backoff?: (attempt: number) => number;
  setTimer?: (f: () => void, ms: number) => unknown;
}

export const defaultBackoff = (attempt: number) => Math.min(5000, 250 * 2 ** Math.max(0, attempt - 1));

/** One game's WebSocket: sends `hello` (v3, with `lastSeq` once it has a state) at every open and reconnects after a drop. */
export class GameConnection {
  private ws: SocketLike | null = null;
  private attempt = 0;
  private stopped = false;
  state: ConnectionState = 'connecting';

  constructor(private o: ConnectionOptions) {
    this.open();
  }

  private setState(s: ConnectionState) {
    this.state = s;
    this.o.onState(s, this.attempt);
  }

  private open() {
    const make = this.o.makeSocket ?? ((u: string) => new WebSocket(u) as unknown as SocketLike);
    let ws: SocketLike;
    try {
      ws = make(this.o.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      const last = this.o.lastSeq();
      const hello: ClientMessage = last > 0
        ? { kind: 'hello', protocolVersion: PROTOCOL_VERSION, lastSeq: last }
        : { kind: 'hello', protocolVersion: PROTOCOL_VERSION };
      ws.send(JSON.stringify(hello));
      this.setState('open');
    };
    ws.onmessage = (ev) => {
      const m = parseServerMessage(typeof ev.data === 'string' ? ev.data : String(ev.data));
      if (m instanceof Error) this.o.onBadFrame?.(m);
      else this.o.onMessage(m);
    };
    ws.onerror = () => {
      /* onclose follows */
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect() {
    if (this.stopped) return;
    this.attempt += 1;
    this.setState('reconnecting');
    const wait = (this.o.backoff ?? defaultBackoff)(this.attempt);
    (this.o.setTimer ?? ((f, ms) => setTimeout(f, ms)))(() => {
      if (!this.stopped) this.open();
    }, wait);
  }

  /** Sends a message; false when the socket is not open (the UI says so; a move is re-sent by the user). */
  send(m: ClientMessage): boolean {
    if (!this.ws || this.ws.readyState !== 1) return false;
    this.ws.send(JSON.stringify(m));
    return true;
  }

  close() {
    this.stopped = true;
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.setState('closed');
  }
}
