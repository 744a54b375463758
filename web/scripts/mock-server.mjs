// A stand-in for `houserules serve` (issue 13) so the web app can be driven in a browser before the
// real server exists: the same HTTP routes and WebSocket messages, a small standard-chess move
// generator (no castling, no en passant: enough to click, drag and promote), clocks, and a few
// scripted house-rule states (markers, hit points, auras, choices). NOT a rules engine: the browser
// tests against the real server replace it at integration.
//
//   node scripts/mock-server.mjs [--port 8080] [--dist dist]
import { createServer } from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { randomBytes } from 'node:crypto';
import { WebSocketServer } from 'ws';

const FILES = 'abcdefghijklmnop';
const sq = (f, r) => `${FILES[f]}${r + 1}`;
const parse = (s) => [FILES.indexOf(s[0]), Number(s.slice(1)) - 1];
const TYPES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king', m: 'marshal', c: 'cardinal' };
// Grand chess (10×10): the mock moves its standard movers (not the marshal and cardinal), pawns
// with their double step from the third rank; enough to play a few moves on a 10×10 board.
const GRAND = 'r8r/1nbqkmcbn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKMCBN1/R8R w - - 0 1';
const LETTER = Object.fromEntries(Object.entries(TYPES).map(([k, v]) => [v, k]));

function piecesFromFen(fen) {
  const rows = fen.split(' ')[0].split('/');
  const out = [];
  let id = 0;
  rows.forEach((row, i) => {
    let f = 0;
    for (const tok of row.match(/\d+|[a-zA-Z]/g) ?? []) {
      if (/\d/.test(tok)) f += Number(tok);
      else {
        out.push({ id: id++, square: sq(f, rows.length - 1 - i), type: TYPES[tok.toLowerCase()], color: tok === tok.toUpperCase() ? 'white' : 'black', attrs: {}, baseAttrs: {} });
        f++;
      }
    }
  });
  return out;
}
function fenOf(pieces, side, ply, n = 8) {
  const at = new Map(pieces.map((p) => [p.square, p]));
  const rows = [];
  for (let r = n - 1; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < n; f++) {
      const p = at.get(sq(f, r));
      if (!p) empty++;
      else {
        if (empty) row += empty;
        empty = 0;
        const l = LETTER[p.type] ?? 'x';
        row += p.color === 'white' ? l.toUpperCase() : l;
      }
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join('/')} ${side[0]} - - 0 ${Math.floor(ply / 2) + 1}`;
}

const ORTHO = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const DIAG = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const KN = [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]];
const MOVERS = { knight: [KN, false], bishop: [DIAG, true], rook: [ORTHO, true], queen: [[...ORTHO, ...DIAG], true], king: [[...ORTHO, ...DIAG], false] };

function pseudo(pieces, side, n = 8) {
  const at = new Map(pieces.map((p) => [p.square, p]));
  const out = [];
  const on = (f, r) => f >= 0 && f < n && r >= 0 && r < n;
  const home = n === 10 ? 2 : 1; // Grand's pawns start on the third rank
  for (const p of pieces) {
    if (p.color !== side) continue;
    const [f, r] = parse(p.square);
    if (p.type === 'pawn') {
      const d = side === 'white' ? 1 : -1;
      const last = side === 'white' ? n - 1 : 0;
      const add = (to, tr) => (tr === last ? ['q', 'r', 'b', 'n'].forEach((x) => out.push(p.square + to + x)) : out.push(p.square + to));
      if (on(f, r + d) && !at.has(sq(f, r + d))) {
        add(sq(f, r + d), r + d);
        const start = side === 'white' ? home : n - 1 - home;
        if (r === start && !at.has(sq(f, r + 2 * d))) out.push(p.square + sq(f, r + 2 * d));
      }
      for (const df of [-1, 1]) {
        const t = on(f + df, r + d) && at.get(sq(f + df, r + d));
        if (t && t.color !== side) add(sq(f + df, r + d), r + d);
      }
      continue;
    }
    const [dirs, ride] = MOVERS[p.type] ?? [[], false];
    for (const [df, dr] of dirs) {
      let x = f + df;
      let y = r + dr;
      while (on(x, y)) {
        const t = at.get(sq(x, y));
        if (t && t.color === side) break;
        out.push(p.square + sq(x, y));
        if (t || !ride) break;
        x += df;
        y += dr;
      }
    }
  }
  return out;
}
function play(pieces, uci) {
  const [, from, to, promo] = /^([a-p]\d+)([a-p]\d+)([qrbn])?$/.exec(uci) ?? [];
  return pieces
    .filter((p) => p.square !== to)
    .map((p) => (p.square === from ? { ...p, square: to, type: promo ? TYPES[promo] : p.type } : p));
}
function inCheck(pieces, side, n = 8) {
  const king = pieces.find((p) => p.type === 'king' && p.color === side);
  if (!king) return false;
  const other = side === 'white' ? 'black' : 'white';
  return pseudo(pieces, other, n).some((m) => dest(m) === king.square);
}
function legal(pieces, side, n = 8) {
  return pseudo(pieces, side, n).filter((m) => !inCheck(play(pieces, m), side, n));
}
/** The destination square of a UCI move (ranks may have two digits). */
const dest = (uci) => /^[a-p]\d+([a-p]\d+)/.exec(uci)?.[1];

// ---------------------------------------------------------------------------------------------

const games = new Map();
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const token = () => randomBytes(16).toString('hex');

function createGame(req) {
  const id = randomBytes(5).toString('hex');
  const mods = (req.modifiers ?? []).map((m) => (typeof m === 'string' ? m.split(':')[0] : m.id ?? 'custom'));
  const grand = req.game === 'grand';
  let pieces = piecesFromFen(grand ? GRAND : req.fen ?? START);
  const markers = [];
  let pending = null;
  if (mods.includes('showcase') || (req.presets ?? []).includes('piece-hp')) {
    pieces = pieces.map((p) => ({ ...p, attrs: { hp: p.type === 'king' ? 3 : p.type === 'pawn' ? 1 : 2 }, baseAttrs: { hp: p.type === 'king' ? 3 : p.type === 'pawn' ? 1 : 2 } }));
  }
  if (mods.includes('showcase')) {
    const kinds = ['portal-end', 'frozen-square', 'mine', 'pit', 'death-square', 'tornado', 'treasure', 'blocked', 'ward'];
    const squares = ['a4', 'b5', 'c4', 'd5', 'e5', 'f4', 'g5', 'h4', 'h5'];
    kinds.forEach((k, i) => markers.push({ id: 100 + i, kind: k, square: squares[i], lifetime: i % 2 ? { kind: 'permanent' } : { kind: 'moves', expiresAtMove: 12 }, owner: i % 3 === 0 ? 'white' : null, links: [], source: 1 }));
    markers.push({ id: 120, kind: 'mine', square: 'd5', lifetime: { kind: 'one-shot' }, owner: 'black', links: [], source: 1 });
    // an aura: the white king's neighbours get +1 hp
    pieces = pieces.map((p) => (['d1', 'f1', 'd2', 'e2', 'f2'].includes(p.square) ? { ...p, attrs: { ...p.attrs, hp: p.attrs.hp + 1 } } : p));
  }
  if (mods.includes('mind_control')) {
    const opts = pieces.filter((p) => p.color === 'black' && p.type !== 'king' && p.type !== 'pawn').map((p) => p.square);
    pending = { kind: 'piece', options: opts, forPlayer: 'white' };
  } else if (mods.includes('parry')) pending = { kind: 'rps', options: ['rock', 'paper', 'scissors'], forPlayer: 'both' };
  else if (mods.includes('all_on_red')) pending = { kind: 'coin-flip', options: ['heads', 'tails'], forPlayer: 'white' };
  else if (mods.includes('frozen_choice')) pending = { kind: 'column', options: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], forPlayer: 'white' };
  const clock = req.clock ? { white: req.clock.initialSeconds * 1000, black: req.clock.initialSeconds * 1000, inc: req.clock.incrementSeconds * 1000, since: Date.now() } : null;
  const g = {
    id, req, mods, pieces, grand, markers, side: 'white', ply: 0, seq: 1, log: [], moves: [], status: { status: pending ? 'awaiting-choice' : 'ongoing', winner: null, reason: null },
    pending: pending ? { choiceId: `c${900 + Math.floor(Math.random() * 99)}`, prompt: { ...pending, timeout: req.choiceTimeout?.mode === 'no-timeout' ? null : req.choiceTimeout?.seconds ?? 60 }, collected: pending.kind === 'rps' ? {} : undefined } : null,
    tokens: { white: token(), black: token() }, joined: { white: true, black: false }, sockets: new Set(), drawOffer: null, result: null, clock, inputs: [],
  };
  for (const m of mods) g.log.push({ event: 'attach', detail: { id: m } });
  games.set(id, g);
  return g;
}

function clockReading(g) {
  if (!g.clock) return null;
  const now = Date.now();
  const running = g.result || g.ply < 1 ? null : g.side; // runs from white's first move on
  const used = running ? now - g.clock.since : 0;
  return { white: { remainingMs: Math.max(0, g.clock.white - (running === 'white' ? used : 0)) }, black: { remainingMs: Math.max(0, g.clock.black - (running === 'black' ? used : 0)) }, serverTime: now, running };
}

function stateOf(g) {
  const pendingChoice = g.pending
    ? { choiceId: g.pending.choiceId, descriptorId: g.mods[0] ?? 'custom', modifierInstanceId: 1, triggerPath: [], primitiveIndex: 0, bindings: {}, kind: g.pending.prompt.kind, prompt: g.pending.prompt, forPlayer: g.pending.prompt.forPlayer, arm: {}, bind: 'choice', collected: g.pending.collected ? Object.fromEntries(Object.keys(g.pending.collected).map((k) => [k, 'hidden'])) : undefined, timeout: g.pending.prompt.timeout }
    : null;
  return {
    id: g.id,
    seq: g.seq,
    fen: fenOf(g.pieces, g.side, g.ply, g.grand ? 10 : 8),
    sideToMove: g.side,
    status: g.status,
    legalMoves: g.pending || g.result ? [] : legal(g.pieces, g.side, g.grand ? 10 : 8),
    pendingChoice,
    markers: g.markers,
    activeModifiers: g.mods.map((m, i) => ({ instance: i + 1, id: m, chooser: 'white', lifetime: { kind: 'permanent' }, attachedAt: 0, vars: {} })),
    pieces: g.pieces,
    seed: 0,
    rngStream: 0,
    plyCount: g.ply,
    vars: {},
    log: g.log,
    clocks: clockReading(g),
    presence: { white: [...g.sockets].some((s) => s.seat === 'white'), black: [...g.sockets].some((s) => s.seat === 'black') },
    drawOffer: g.drawOffer,
    players: { white: g.req.white ?? 'White', black: g.req.black ?? 'Black' },
  };
}

function broadcast(g) {
  g.seq += 1;
  const st = stateOf(g);
  for (const s of g.sockets) s.send(JSON.stringify({ kind: 'state', seq: g.seq, state: st }));
}
function finish(g, result, reason, winner) {
  g.result = { result, reason };
  g.status = { status: reason, winner: winner ?? null, reason };
  broadcast(g);
  for (const s of g.sockets) s.send(JSON.stringify({ kind: 'game-over', result, reason }));
}
const err = (ws, code, message) => ws.send(JSON.stringify({ kind: 'error', code, message }));

function onMessage(g, ws, text) {
  if (text.length > 65536) return err(ws, 'message.too-large', 'message over 64 KiB');
  let m;
  try {
    m = JSON.parse(text);
  } catch {
    return err(ws, 'message.malformed', 'not JSON');
  }
  const seat = ws.seat;
  switch (m.kind) {
    case 'hello': {
      ws.send(JSON.stringify({ kind: 'welcome', protocolVersion: m.protocolVersion ?? 1, seat, seq: g.seq, state: stateOf(g) }));
      for (const s of g.sockets) s.send(JSON.stringify({ kind: 'presence', ...stateOf(g).presence }));
      if (g.pending && (g.pending.prompt.forPlayer === seat || (g.pending.prompt.forPlayer === 'both' && seat !== 'spectator' && !(seat in (g.pending.collected ?? {}))))) {
        ws.send(JSON.stringify({ kind: 'request-choice', choiceId: g.pending.choiceId, prompt: g.pending.prompt }));
      }
      return;
    }
    case 'ping':
      return ws.send(JSON.stringify({ kind: 'pong' }));
    case 'move': {
      if (seat === 'spectator') return err(ws, 'seat.spectator', 'a spectator cannot move');
      if (m.ply < g.ply) return ws.send(JSON.stringify({ kind: 'state', seq: g.seq, state: stateOf(g) }));
      if (g.result) return err(ws, 'game.over', 'the game is over');
      if (seat !== g.side) return err(ws, 'move.out-of-turn', `it is ${g.side}'s move`);
      if (g.pending) return err(ws, 'choice.pending', 'a choice is pending');
      const legalMoves = legal(g.pieces, g.side, g.grand ? 10 : 8);
      if (!legalMoves.includes(m.move)) return err(ws, 'move.illegal', `${m.move} is not legal here`);
      if (g.clock && g.ply >= 1) {
        const used = Date.now() - g.clock.since;
        g.clock[g.side] = Math.max(0, g.clock[g.side] - used) + g.clock.inc;
      }
      if (g.clock) g.clock.since = Date.now();
      const color = g.side;
      g.pieces = play(g.pieces, m.move);
      g.ply += 1;
      g.side = g.side === 'white' ? 'black' : 'white';
      g.log.push({ event: 'move', detail: { uci: m.move, color } });
      g.drawOffer = null;
      if (legal(g.pieces, g.side, g.grand ? 10 : 8).length === 0) {
        if (inCheck(g.pieces, g.side, g.grand ? 10 : 8)) return finish(g, color === 'white' ? '1-0' : '0-1', 'checkmate', color);
        return finish(g, '1/2-1/2', 'stalemate');
      }
      return broadcast(g);
    }
    case 'submit-choice': {
      if (!g.pending || m.choiceId !== g.pending.choiceId) return err(ws, 'choice.unknown', 'no such pending choice');
      const who = g.pending.prompt.forPlayer;
      if (who !== 'both' && who !== seat) return err(ws, 'choice.not-yours', 'this choice is not yours');
      if (!g.pending.prompt.options.includes(m.value)) return err(ws, 'choice.invalid', `${m.value} is not an option`);
      if (who === 'both') {
        g.pending.collected[seat] = m.value;
        if (Object.keys(g.pending.collected).length < 2) return broadcast(g);
      }
      g.log.push({ event: 'choice', detail: { choiceId: m.choiceId, value: who === 'both' ? g.pending.collected : m.value, player: seat } });
      g.pending = null;
      g.status = { status: 'ongoing', winner: null, reason: null };
      return broadcast(g);
    }
    case 'resign':
      if (seat === 'spectator') return err(ws, 'seat.spectator', 'a spectator cannot resign');
      return finish(g, seat === 'white' ? '0-1' : '1-0', 'resignation', seat === 'white' ? 'black' : 'white');
    case 'offer-draw':
      g.drawOffer = seat;
      return broadcast(g);
    case 'accept-draw':
      if (g.drawOffer && g.drawOffer !== seat) return finish(g, '1/2-1/2', 'agreement');
      return err(ws, 'draw.none', 'no draw offer to accept');
    case 'decline-draw':
      g.drawOffer = null;
      return broadcast(g);
    case 'claim-draw':
      return err(ws, 'draw.no-claim', 'no draw can be claimed in this position');
    case 'claim-victory':
      return err(ws, 'victory.opponent-present', 'your opponent is connected');
    default:
      return err(ws, 'message.unknown-kind', `unknown message kind ${m.kind}`);
  }
}

const RULES = {
  games: [
    { id: 'chess', name: 'Chess', description: 'FIDE chess' },
    { id: 'grand', name: 'Grand chess', description: '10×10 with marshal and cardinal' },
    { id: 'gardner', name: 'Gardner minichess', description: '5×5' },
  ],
  layouts: [
    { id: 'standard', name: 'Standard', game: 'chess' },
    { id: 'chess960:518', name: 'Chess960 #518', game: 'chess' },
    { id: 'horde', name: 'Horde', game: 'chess', description: 'White has 36 pawns' },
  ],
  presets: [
    { id: 'piece-hp', name: 'Hit points', description: 'Pieces have hit points; a capture deals one damage.', incompatible_with: ['suicide-chess'], incompatibleReasons: { 'suicide-chess': 'suicide-chess is lichess Antichess exactly and takes no other objective, royalty or turn rule (RULINGS P15)' }, requires: [], implemented: true },
    { id: 'suicide-chess', name: 'Suicide Chess', description: 'Losing chess: captures are compulsory.', incompatible_with: ['piece-hp'], incompatibleReasons: { 'piece-hp': 'suicide-chess is lichess Antichess exactly and takes no other objective, royalty or turn rule (RULINGS P15)' }, requires: [], implemented: true },
    { id: 'pacman-style', name: 'Pac-Man board', category: 'Board', incompatible_with: [], requires: [], implemented: false, needs: 'board topology mutation' },
    { id: 'wrap-files', name: 'Wrap-around', description: 'The a- and h-files touch.' },
    { id: 'king-of-the-hill', name: 'King of the hill', description: 'A king in the centre wins.' },
  ],
  modifiers: [
    { id: 'minefield', name: 'Minefield', description: 'Mines on the board.' },
    { id: 'mind_control', name: 'Mind control', description: 'Take control of an enemy piece.' },
    { id: 'parry', name: 'Parry', description: 'Rock-paper-scissors decides a capture.' },
    { id: 'all_on_red', name: 'All on red', description: 'A coin decides your turn.' },
    { id: 'showcase', name: 'Showcase (mock)', description: 'Every marker kind, hit points and an aura.' },
  ],
};

// A stand-in validator: only the checks the browser tests need (the real one is the Rust validator).
function validateDescriptor(d) {
  const out = [];
  if (!d || typeof d !== 'object') return [{ code: 'descriptor.field.type', path: '$', message: 'not an object' }];
  if (!/^[a-z0-9_-]{1,64}$/.test(d.id ?? '')) out.push({ code: 'descriptor.id.invalid', path: '$.id', message: 'malformed descriptor id' });
  const walk = (nodes, at) => (nodes ?? []).forEach((n, i) => {
    const p = `${at}[${i}]`;
    const at2 = n.params?.at;
    if (typeof at2 === 'string' && !at2.startsWith('$') && !/^[a-h][1-8]$/.test(at2)) out.push({ code: 'descriptor.square.invalid', path: `${p}.params.at`, message: `"${at2}" is not a square of the 8×8 board` });
    for (const k of ['then', 'else', 'do']) if (Array.isArray(n.params?.[k])) walk(n.params[k], `${p}.params.${k}`);
    if (n.effects) walk(n.effects, `${p}.effects`);
  });
  walk(d.passive, '$.passive');
  walk(d.triggers, '$.triggers');
  (d.parameters ?? []).forEach((p, i) => {
    if (p.type === 'square' && typeof p.default === 'string' && !/^[a-h][1-8]$/.test(p.default)) out.push({ code: 'descriptor.parameters.invalid', path: `$.parameters[${i}].default`, message: `default "${p.default}" is not a square` });
  });
  return out;
}

const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const port = Number(opt('--port', process.env.PORT ?? 8080));
const dist = opt('--dist', new URL('../dist', import.meta.url).pathname);
const library = [];

const json = (res, code, v) => {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(v));
};
const body = (req) => new Promise((ok) => {
  let s = '';
  req.on('data', (c) => (s += c));
  req.on('end', () => {
    try {
      ok(s ? JSON.parse(s) : {});
    } catch {
      ok(undefined);
    }
  });
});
const summary = (g) => ({ id: g.id, status: g.result ? 'finished' : g.joined.black ? 'live' : 'open', game: g.req.game ?? 'chess', presets: g.req.presets ?? [], modifiers: g.mods, clock: g.req.clock ?? null, white: 'White', black: g.joined.black ? 'Black' : null, openSeats: g.joined.black ? [] : ['black'], plyCount: g.ply });

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const p = url.pathname;
  let m;
  if (p === '/api/rules') return json(res, 200, { ...RULES, modifiers: [...RULES.modifiers, ...library] });
  if (p === '/api/validate' && req.method === 'POST') {
    // as issue 13's server: the body is a descriptor (starts with `{`) or a YAML game
    const text = await new Promise((ok) => {
      let s = '';
      req.on('data', (c) => (s += c));
      req.on('end', () => ok(s));
    });
    if (!text.trimStart().startsWith('{')) {
      const findings = /name:/.test(text) ? [] : [{ code: 'game.field.missing', path: '$.name', message: 'missing field `name`', line: 1, column: 1 }];
      return json(res, 200, { findings, preview: findings.length ? null : { fen: 'rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1', legalMoves: ['a2a3', 'b2b3', 'c2c3', 'd2d3', 'e2e3', 'b1a3', 'b1c3'] } });
    }
    let d;
    try {
      d = JSON.parse(text);
    } catch (e) {
      return json(res, 200, { ok: false, findings: [{ code: 'descriptor.json.syntax', path: '$', message: e.message }] });
    }
    const findings = validateDescriptor(d);
    return json(res, 200, { ok: findings.length === 0, findings });
  }
  if ((m = /^\/api\/_mock\/drop\/([^/]+)$/.exec(p)) && req.method === 'POST') {
    // mock only: cut every socket of a game, as a network drop would
    for (const s of games.get(m[1])?.sockets ?? []) s.terminate();
    return json(res, 200, {});
  }
  if (p === '/api/modifiers' && req.method === 'POST') {
    const b = await body(req);
    const f = validateDescriptor(b);
    if (f.length) return json(res, 400, { message: 'invalid descriptor', findings: f });
    library.push({ id: b.id, name: b.name, description: b.description });
    return json(res, 201, { id: b.id });
  }
  if (p === '/api/games' && req.method === 'POST') {
    const b = await body(req);
    if (!b) return json(res, 400, { message: 'body is not JSON', findings: [{ code: 'request.json', path: '$', message: 'not JSON' }] });
    const g = createGame(b);
    // seat URLs in the server's form (/games/{id}?token=T)
    return json(res, 201, { id: g.id, seats: { white: { token: g.tokens.white, url: `/games/${g.id}?token=${g.tokens.white}` }, black: { token: g.tokens.black, url: `/games/${g.id}?token=${g.tokens.black}` } }, spectateUrl: `/games/${g.id}` });
  }
  if (p === '/api/games' && req.method === 'GET') {
    const status = url.searchParams.get('status');
    return json(res, 200, [...games.values()].map(summary).filter((s) => !status || s.status === status));
  }
  if ((m = /^\/api\/games\/([^/]+)(\/[a-z]+)?$/.exec(p))) {
    const g = games.get(m[1]);
    if (!g) return json(res, 404, { message: 'no such game' });
    if (!m[2]) return json(res, 200, stateOf(g));
    if (m[2] === '/join' && req.method === 'POST') {
      if (g.joined.black) return json(res, 409, { message: 'no free seat' });
      g.joined.black = true;
      return json(res, 200, { seat: 'black', token: g.tokens.black, url: `/game/${g.id}?token=${g.tokens.black}` });
    }
    if (m[2] === '/pgn') {
      res.writeHead(200, { 'content-type': 'application/x-chess-pgn' });
      return res.end(`[Event "houserules mock"]\n\n${g.moves.join(' ')} *\n`);
    }
    if (m[2] === '/record') return json(res, 200, { request: g.req, inputs: g.log });
  }
  if (p.startsWith('/api/')) return json(res, 404, { message: 'not found' });
  // static files, with the SPA fallback to index.html
  const file = normalize(join(dist, p));
  const target = file.startsWith(dist) && existsSync(file) && statSync(file).isFile() ? file : join(dist, 'index.html');
  if (!existsSync(target)) {
    res.writeHead(500, { 'content-type': 'text/plain' });
    return res.end('the web app is not built: run `npm run build` in web/');
  }
  res.writeHead(200, { 'content-type': MIME[extname(target)] ?? 'application/octet-stream' });
  res.end(readFileSync(target));
});

const wss = new WebSocketServer({ noServer: true });
server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url, 'http://x');
  const m = /^\/api\/games\/([^/]+)\/ws$/.exec(url.pathname);
  const g = m && games.get(m[1]);
  if (!g) return socket.destroy();
  const t = url.searchParams.get('token');
  const seat = t === g.tokens.white ? 'white' : t === g.tokens.black ? 'black' : 'spectator';
  if (t && seat === 'spectator') return socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.seat = seat;
    if (seat === 'black') g.joined.black = true;
    g.sockets.add(ws);
    ws.on('message', (d) => onMessage(g, ws, d.toString()));
    ws.on('close', () => {
      g.sockets.delete(ws);
      for (const s of g.sockets) s.send(JSON.stringify({ kind: 'presence', ...stateOf(g).presence }));
    });
  });
});

// Mock-only: keep the SAN list the PGN route answers (the real server writes its own PGN).
export { games };
server.listen(port, '127.0.0.1', () => console.log(`mock server on http://127.0.0.1:${port}/`));
