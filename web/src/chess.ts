/**
 * Board geometry and notation the UI needs on top of the server's state: board size from the FEN,
 * square names up to 16×16, check detection for the standard movers, SAN of a move seen live,
 * keyboard input to UCI, and SAN tokens from a PGN.
 */
import type { Color, PieceOut } from './protocol';

export const FILES = 'abcdefghijklmnop';

export function squareName(file: number, rank: number): string {
  return `${FILES[file]}${rank + 1}`;
}

/** `e4` → [4, 3]; null for a name outside a 16×16 board. */
export function parseSquare(s: string): [number, number] | null {
  const m = /^([a-p])(1[0-6]|[1-9])$/.exec(s);
  if (!m) return null;
  return [FILES.indexOf(m[1]), Number(m[2]) - 1];
}

export interface BoardShape {
  files: number;
  ranks: number;
  /** FEN letter per occupied square. */
  letters: Map<string, string>;
}

/**
 * Reads the board part of a FEN: ranks from the top separated by `/`, digits (more than one for
 * runs of 10+) for empty squares, letters for pieces, `+` before and `~` after a letter allowed,
 * a `[holdings]` suffix ignored. Throws an Error saying where it is malformed.
 */
/** The en passant square of a FEN (its fourth field), or undefined for `-`. */
export function enPassantOf(fen: string): string | undefined {
  const f = fen.trim().split(/\s+/)[3];
  return f && f !== '-' ? f : undefined;
}

export function boardShape(fen: string): BoardShape {
  const board = fen.trim().split(/\s+/)[0].replace(/\[.*\]$/, '');
  const rows = board.split('/');
  const letters = new Map<string, string>();
  let files = 0;
  rows.forEach((row, i) => {
    const rank = rows.length - 1 - i;
    let f = 0;
    for (let j = 0; j < row.length; ) {
      const ch = row[j];
      if (/[0-9]/.test(ch)) {
        let k = j;
        while (k < row.length && /[0-9]/.test(row[k])) k++;
        f += Number(row.slice(j, k));
        j = k;
      } else if (/[A-Za-z]/.test(ch)) {
        if (f < 16) letters.set(squareName(f, rank), ch);
        f += 1;
        j += 1;
        while (j < row.length && row[j] === '~') j++;
      } else if (ch === '+' || ch === '*') {
        j += 1;
      } else {
        throw new Error(`FEN: unexpected "${ch}" in rank ${rank + 1}`);
      }
    }
    files = Math.max(files, f);
  });
  if (rows.length < 1 || rows.length > 16 || files < 1 || files > 16) {
    throw new Error(`FEN: board of ${files}×${rows.length} squares is outside 1…16`);
  }
  return { files, ranks: rows.length, letters };
}

const STANDARD_LETTER: Record<string, string> = { pawn: 'P', knight: 'N', bishop: 'B', rook: 'R', queen: 'Q', king: 'K' };

/** The piece letter (upper case) of a type: the standard six, else the FEN letter seen for it, else its initial. */
export function pieceLetter(type: string, fenLetter?: string): string {
  return STANDARD_LETTER[type] ?? fenLetter?.toUpperCase() ?? type.charAt(0).toUpperCase();
}

// Movers for check detection: leaps and rides of the standard pieces and the usual compounds.
const ORTHO = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const DIAG = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const KNIGHT = [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]];
interface Mover { leaps: number[][]; rides: number[][] }
const MOVERS: Record<string, Mover> = {
  knight: { leaps: KNIGHT, rides: [] },
  bishop: { leaps: [], rides: DIAG },
  rook: { leaps: [], rides: ORTHO },
  queen: { leaps: [], rides: [...ORTHO, ...DIAG] },
  king: { leaps: [...ORTHO, ...DIAG], rides: [] },
  archbishop: { leaps: KNIGHT, rides: DIAG },
  cardinal: { leaps: KNIGHT, rides: DIAG },
  chancellor: { leaps: KNIGHT, rides: ORTHO },
  marshal: { leaps: KNIGHT, rides: ORTHO },
  amazon: { leaps: KNIGHT, rides: [...ORTHO, ...DIAG] },
};

/**
 * The square of `side`'s king when it is attacked by a piece whose movement this client knows
 * (the six standard pieces and the common compounds), else null. The server's `inCheck`, when
 * present, is preferred by the caller; this covers the standard and near-standard games.
 */
export function checkedKing(pieces: PieceOut[], side: Color, files: number, ranks: number): string | null {
  const at = new Map<string, PieceOut>();
  for (const p of pieces) at.set(p.square, p);
  const king = pieces.find((p) => p.type === 'king' && p.color === side);
  if (!king) return null;
  const ks = parseSquare(king.square);
  if (!ks) return null;
  const on = (f: number, r: number) => f >= 0 && r >= 0 && f < files && r < ranks;
  for (const p of pieces) {
    if (p.color === side) continue;
    const s = parseSquare(p.square);
    if (!s) continue;
    const [f, r] = s;
    if (p.type === 'pawn') {
      const dir = p.color === 'white' ? 1 : -1;
      if (ks[1] === r + dir && Math.abs(ks[0] - f) === 1) return king.square;
      continue;
    }
    const m = MOVERS[p.type];
    if (!m) continue;
    for (const [df, dr] of m.leaps) if (f + df === ks[0] && r + dr === ks[1]) return king.square;
    for (const [df, dr] of m.rides) {
      let x = f + df;
      let y = r + dr;
      while (on(x, y)) {
        if (x === ks[0] && y === ks[1]) return king.square;
        if (at.has(squareName(x, y))) break;
        x += df;
        y += dr;
      }
    }
  }
  return null;
}

/** Splits UCI `e2e4`, `e7e8q`, `a10a11`, `P@e4` into from, to and promotion letter. */
export function splitUci(uci: string): { from: string; to: string; promo: string } | null {
  const m = /^([a-p](?:1[0-6]|[1-9]))([a-p](?:1[0-6]|[1-9]))([a-z]?)$/.exec(uci);
  if (!m) return null;
  return { from: m[1], to: m[2], promo: m[3] };
}

/**
 * The castling move meant by clicking the king on `from` and then its own rook on `to`, or null.
 * Chess960 writes castling king-takes-rook (`e1h1`), so that move is simply among the legal moves;
 * standard chess writes the king's destination (`e1g1`), so the rook's square is no destination
 * and the click would select the rook (session-7 web trial). Then the castling move is the legal
 * king move along its rank by two or more files towards that rook (as `toSan` reads castling).
 */
export function castlingByRook(from: string, to: string, pieces: PieceOut[], legalMoves: string[]): string | null {
  const at = new Map(pieces.map((p) => [p.square, p]));
  const king = at.get(from);
  const rook = at.get(to);
  if (!king || !rook || king.type !== 'king' || rook.type !== 'rook' || rook.color !== king.color) return null;
  const [kf, kr] = parseSquare(from)!;
  const [rf, rr] = parseSquare(to)!;
  if (rr !== kr || rf === kf) return null;
  const direct = legalMoves.find((u) => u === `${from}${to}`);
  if (direct) return direct;
  for (const u of legalMoves) {
    const mv = splitUci(u);
    if (!mv || mv.from !== from || mv.promo) continue;
    const [tf, tr] = parseSquare(mv.to)!;
    if (tr === kr && Math.abs(tf - kf) >= 2 && Math.sign(tf - kf) === Math.sign(rf - kf)) return u;
  }
  return null;
}

/**
 * SAN of `uci` played from a position with `pieces` and `legalMoves` (FIDE Appendix C):
 * piece letter, the least disambiguation (file, then rank, then both), `x` for captures
 * (en passant included), `=Q` for promotion, `O-O`/`O-O-O` for castling (the king moving two or
 * more files, or onto its own rook), and the check (`+`) or mate (`#`) suffix given by the caller.
 */
export function toSan(uci: string, pieces: PieceOut[], legalMoves: string[], suffix: '' | '+' | '#', letters?: Map<string, string>, enPassant?: string): string {
  const mv = splitUci(uci);
  if (!mv) return uci;
  const at = new Map(pieces.map((p) => [p.square, p]));
  const piece = at.get(mv.from);
  if (!piece) return uci;
  const target = at.get(mv.to);
  const [ff] = parseSquare(mv.from)!;
  const [tf] = parseSquare(mv.to)!;
  if (piece.type === 'king' && (Math.abs(tf - ff) >= 2 || (target && target.color === piece.color && target.type === 'rook'))) {
    return (tf > ff ? 'O-O' : 'O-O-O') + suffix;
  }
  const promo = mv.promo ? `=${mv.promo.toUpperCase()}` : '';
  const rivals = legalMoves
    .map(splitUci)
    .filter((o): o is NonNullable<typeof o> => !!o && o.to === mv.to && o.from !== mv.from)
    .map((o) => at.get(o.from))
    .filter((p): p is PieceOut => !!p && p.type === piece.type && p.color === piece.color);
  if (piece.type === 'pawn') {
    // As the engine writes it (crates/engine/src/san.rs): a capture takes an enemy piece or is en
    // passant (the move goes to the FEN's en passant square); the file is written for captures and
    // for any move off the file or shared with another pawn (Berolina pawns step diagonally
    // without capturing: `ec4`, not `exc4`; session-7 web trial).
    const capture = (!!target && target.color !== piece.color) || (!!enPassant && mv.to === enPassant && tf !== ff);
    let file = '';
    if (capture || tf !== ff || rivals.length) {
      file = mv.from[0];
      if (rivals.some((p) => p.square[0] === mv.from[0])) file += mv.from.slice(1);
    }
    return `${file}${capture ? 'x' : ''}${mv.to}${promo}${suffix}`;
  }
  const letter = pieceLetter(piece.type, letters?.get(mv.from));
  let dis = '';
  if (rivals.length) {
    const sameFile = rivals.some((p) => p.square[0] === mv.from[0]);
    const sameRank = rivals.some((p) => p.square.slice(1) === mv.from.slice(1));
    dis = !sameFile ? mv.from[0] : !sameRank ? mv.from.slice(1) : mv.from;
  }
  return `${letter}${dis}${target ? 'x' : ''}${mv.to}${promo}${suffix}`;
}

const stripSan = (s: string) => s.replace(/[+#!?]+$/, '').replace(/^0-0-0$/, 'O-O-O').replace(/^0-0$/, 'O-O');

/**
 * Reads what a player typed: UCI (checked against the legal moves) or SAN (compared with the SAN
 * of every legal move, ignoring check marks, `x` and `=` being optional). Returns the UCI or an
 * Error saying why not.
 */
export function parseTypedMove(text: string, pieces: PieceOut[], legalMoves: string[], letters?: Map<string, string>, enPassant?: string): string | Error {
  const r = readTypedMove(text, pieces, legalMoves, letters, enPassant);
  return typeof r === 'string' || r instanceof Error ? r : new Error(`"${cutEcho(text.trim())}" needs the promotion piece: ${r.options.map((o) => `${r.from}${r.to}${o}`).join(', ')}`);
}

const cutEcho = (s: string) => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

/**
 * A typed move as UCI; a promotion typed without its piece (`g7g8`, `g8`) as its squares and the
 * pieces to choose from (the page opens the promotion picker); or an Error whose echo of the text
 * is cut to 40 characters. `e2-e4` reads as `e2e4` (session-7 web trial).
 */
export function readTypedMove(text: string, pieces: PieceOut[], legalMoves: string[], letters?: Map<string, string>, enPassant?: string): string | { from: string; to: string; options: string[] } | Error {
  let t = text.trim();
  if (!t) return new Error('type a move, e.g. e4, Nf3 or e2e4');
  if (t.length > 40) return new Error(`"${cutEcho(t)}" is not a move: too long`);
  t = t.replace(/^([a-z]\d+)[-–]([a-z]\d+)/i, '$1$2');
  const lower0 = t.toLowerCase();
  // A promotion without its piece: every legal move it could be differs only in the piece.
  const promos = legalMoves.filter((m) => {
    if (m.length <= lower0.length || !/^[a-z]$/.test(m.slice(-1)) || !/\d/.test(m.slice(-2, -1))) return false;
    if (m.slice(0, -1) === lower0) return true;
    const san = toSan(m, pieces, legalMoves, '', letters, enPassant);
    return stripSan(san).replace(/=?[A-Z]$/, '') === stripSan(t) && /=?[A-Z]$/.test(stripSan(san));
  });
  if (promos.length > 0 && !legalMoves.includes(lower0)) {
    const base = promos[0].slice(0, -1);
    if (promos.every((m) => m.slice(0, -1) === base)) {
      const sq = /^([a-z]\d+)([a-z]\d+)$/.exec(base);
      if (sq) return { from: sq[1], to: sq[2], options: promos.map((m) => m.slice(-1)) };
    }
  }
  return parsePlain(t, pieces, legalMoves, letters, enPassant);
}

function parsePlain(t: string, pieces: PieceOut[], legalMoves: string[], letters?: Map<string, string>, enPassant?: string): string | Error {
  const lower = t.toLowerCase();
  if (legalMoves.includes(lower)) return lower;
  const loose = (s: string) => stripSan(s).replace(/x|=/g, '');
  const want = loose(t);
  const hits = legalMoves.filter((m) => {
    const san = toSan(m, pieces, legalMoves, '', letters, enPassant);
    return stripSan(san) === stripSan(t) || loose(san) === want;
  });
  if (hits.length === 1) return hits[0];
  if (hits.length > 1) {
    // Several promotions reached by a bare "e8": ask for the piece.
    return new Error(`"${cutEcho(t)}" is ambiguous: ${hits.join(', ')}`);
  }
  // Too little disambiguation ("Rd1" when both rooks reach d1, FIDE C.10.3): ambiguous, not illegal
  // (trial 20). The moves it could be, in SAN, with their file or rank dropped to compare.
  const bare = (s: string) => loose(s).replace(/^([A-Z])[a-z]?\d*([a-z]\d+)/, '$1$2');
  const sans = legalMoves.map((m) => toSan(m, pieces, legalMoves, '', letters, enPassant)).filter((san) => bare(san) === bare(t));
  if (sans.length > 1) return new Error(`"${cutEcho(t)}" is ambiguous: ${sans.slice(0, -1).join(', ')} or ${sans[sans.length - 1]}`);
  return new Error(`"${cutEcho(t)}" is not a legal move here`);
}

/**
 * The SAN tokens of a PGN's movetext (tags, comments, variations, NAGs, numbers and the result
 * dropped), one per move the game's log records: the server writes a move that left the board
 * unchanged as `-- {[%hr move exd5] …}` (a capture parry cancelled: the move is `exd5`) and a
 * skipped turn as `-- {[%hr skip] …}` (no move at all; docs/protocol.md § The PGN).
 */
export function pgnSanMoves(pgn: string): string[] {
  const body = pgn
    .split('\n')
    // Tag lines only: a comment wrapped onto a new line may start with `[%hr …]`.
    .filter((l) => !/^\s*\[[A-Za-z0-9_]+\s+".*"\s*\]\s*$/.test(l))
    .join(' ')
    .replace(/(^|\s)--\s*\{\s*\[%hr move ([^\]\s]+)\][^}]*\}/g, ' $2 ')
    .replace(/(^|\s)--\s*\{\s*\[%hr skip\][^}]*\}/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/;[^\n]*/g, ' ');
  let depth = 0;
  let flat = '';
  for (const ch of body) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) flat += ch;
  }
  return flat
    .split(/\s+/)
    .map((tok) => tok.replace(/^\d+\.(\.\.)?/, ''))
    .filter((tok) => tok && !/^\$\d+$/.test(tok) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(tok) && !/^\d+\.+$/.test(tok));
}

/** The piece letters a pocket shows, in this order (crazyhouse's droppable pieces first). */
export const POCKET_ORDER = ['Q', 'R', 'B', 'N', 'P'];

/**
 * The pockets (pieces in hand) of a FEN with a `[...]` part after the board, as crazyhouse writes
 * them (`.../RNBQKBNR[QNnp] w …`): White's letters are upper case, Black's lower case; each side's
 * counts by upper-case letter. `null` when the FEN has no pocket part (a game without drops).
 */
export function pocketsOf(fen: string): { white: Record<string, number>; black: Record<string, number> } | null {
  const board = fen.trim().split(/\s+/)[0] ?? '';
  const m = /\[([A-Za-z]*)\]$/.exec(board);
  if (!m) return null;
  const out = { white: {} as Record<string, number>, black: {} as Record<string, number> };
  for (const ch of m[1]) {
    const side = ch === ch.toUpperCase() ? out.white : out.black;
    const k = ch.toUpperCase();
    side[k] = (side[k] ?? 0) + 1;
  }
  return out;
}

/** A drop in UCI (`N@f3`): the piece letter (upper case) and the square, or null. */
export function splitDrop(uci: string): { piece: string; to: string } | null {
  const m = /^([A-Za-z])@([a-p](?:1[0-6]|[1-9]))$/.exec(uci);
  return m ? { piece: m[1].toUpperCase(), to: m[2] } : null;
}
