import { describe, expect, it } from 'vitest';
import { boardShape, castlingByRook, checkedKing, enPassantOf, parseTypedMove, pgnSanMoves, readTypedMove, toSan } from './chess';
import { pc } from './test/fixtures';

describe('board shape from FEN', () => {
  it('reads 8×8, 10×10 Grand and 5×5 Gardner', () => {
    expect(boardShape('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toMatchObject({ files: 8, ranks: 8 });
    // Grand chess start: 10 files, 10 ranks, rooks in the corners of ranks 10 and 1
    const g = boardShape('r8r/1nbqkmcbn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKMCBN1/R8R w - - 0 1');
    expect([g.files, g.ranks, g.letters.get('j10'), g.letters.get('f9')]).toEqual([10, 10, 'r', 'm']);
    expect(boardShape('rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1')).toMatchObject({ files: 5, ranks: 5 });
  });
  it('names where a FEN is malformed', () => {
    expect(() => boardShape('8/8/8/8/8/8/8/7% w')).toThrow('unexpected "%" in rank 1');
  });
});

describe('SAN', () => {
  const start = [pc('g1', 'knight', 'white'), pc('b1', 'knight', 'white'), pc('e2', 'pawn', 'white'), pc('e1', 'king', 'white'), pc('h1', 'rook', 'white'), pc('d8', 'rook', 'black')];
  it('writes piece moves, pawn pushes, captures, castling and promotion', () => {
    expect(toSan('g1f3', start, ['g1f3'], '')).toBe('Nf3');
    expect(toSan('e2e4', start, [], '')).toBe('e4');
    expect(toSan('e1g1', start, [], '')).toBe('O-O');
    expect(toSan('e1h1', start, [], '')).toBe('O-O'); // king takes own rook (Chess960 UCI)
    expect(toSan('e7e8q', [pc('e7', 'pawn', 'white')], [], '+')).toBe('e8=Q+');
    expect(toSan('e5d6', [pc('e5', 'pawn', 'white')], [], '', undefined, 'd6')).toBe('exd6'); // en passant: empty target
    expect(enPassantOf('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3')).toBe('f6');
    expect(enPassantOf('8/8/8/8/8/8/8/K6k w - - 0 1')).toBeUndefined();
  });
  it('disambiguates by file, then rank (FIDE C.10.3)', () => {
    const ps = [pc('b1', 'knight', 'white'), pc('f1', 'knight', 'white'), pc('a1', 'rook', 'white'), pc('a5', 'rook', 'white')];
    expect(toSan('b1d2', ps, ['b1d2', 'f1d2'], '')).toBe('Nbd2');
    expect(toSan('a1a3', ps, ['a1a3', 'a5a3'], '')).toBe('R1a3');
  });
  it('reads typed SAN and UCI', () => {
    expect(parseTypedMove('Nf3', start, ['g1f3', 'e2e4'])).toBe('g1f3');
    expect(parseTypedMove('e2e4', start, ['g1f3', 'e2e4'])).toBe('e2e4');
    expect(parseTypedMove('0-0', start, ['e1g1'])).toBe('e1g1');
    expect(parseTypedMove('Nc3', start, ['g1f3'])).toBeInstanceOf(Error);
  });
  // Trial 20 (regression): with rooks on a1 and f1 and b1–e1 empty both reach d1, so "Rd1" needs
  // its file (FIDE C.10.3: Rad1, Rfd1); it read "not a legal move here".
  it('says a move typed without enough disambiguation is ambiguous', () => {
    const ps = [pc('a1', 'rook', 'white'), pc('f1', 'rook', 'white'), pc('g1', 'king', 'white')];
    const legal = ['a1d1', 'f1d1', 'a1b1', 'g1h1'];
    const r = parseTypedMove('Rd1', ps, legal);
    expect(r).toBeInstanceOf(Error);
    expect((r as Error).message).toBe('"Rd1" is ambiguous: Rad1 or Rfd1');
    expect(parseTypedMove('Rxd1', ps, legal)).toBeInstanceOf(Error);
    expect(parseTypedMove('Rad1', ps, legal)).toBe('a1d1');
    expect((parseTypedMove('Rd2', ps, legal) as Error).message).toBe('"Rd2" is not a legal move here');
  });
  // Regressions (session-7 web trial).
  it('reads e2-e4 as e2e4, but keeps O-O castling', () => {
    expect(readTypedMove('e2-e4', start, ['g1f3', 'e2e4'])).toBe('e2e4');
    expect(readTypedMove('O-O', start, ['e1g1', 'e2e4'])).toBe('e1g1');
  });
  it('asks for the piece of a promotion typed without it (g7g8, g8, gxh8)', () => {
    const ps = [pc('g7', 'pawn', 'white'), pc('h8', 'rook', 'black'), pc('e1', 'king', 'white')];
    const legal = ['g7g8q', 'g7g8r', 'g7g8b', 'g7g8n', 'g7h8q', 'g7h8r', 'g7h8b', 'g7h8n', 'e1e2'];
    const ask = { from: 'g7', to: 'g8', options: ['q', 'r', 'b', 'n'] };
    expect(readTypedMove('g7g8', ps, legal)).toEqual(ask);
    expect(readTypedMove('g8', ps, legal)).toEqual(ask);
    expect(readTypedMove('gxh8', ps, legal)).toEqual({ ...ask, to: 'h8' });
    // with the piece it is the move itself
    expect(readTypedMove('g8=N', ps, legal)).toBe('g7g8n');
    expect(readTypedMove('g7g8q', ps, legal)).toBe('g7g8q');
    expect(readTypedMove('e1e2', ps, legal)).toBe('e1e2');
  });
  it('cuts the echo of a very long typed text', () => {
    const r = readTypedMove('x'.repeat(5000), start, ['e2e4']);
    expect(r).toBeInstanceOf(Error);
    expect((r as Error).message.length).toBeLessThan(80);
  });
});

describe('SAN of Berolina pawns (session-7 web trial: `exc4` for a quiet step)', () => {
  // As `houserules moves --game berolina` writes them (crates/engine/src/san.rs): a diagonal step
  // onto an empty square is not a capture, so no `x`; the file is written because the pawn leaves
  // it, and a rank too when another pawn of that file could reach the square.
  it('writes a quiet diagonal step without x, and a straight capture with it', () => {
    const ps = [pc('e2', 'pawn', 'white'), pc('d2', 'pawn', 'white'), pc('f2', 'pawn', 'white')];
    expect(toSan('e2c4', ps, ['e2c4', 'e2g4', 'd2e3', 'f2e3'], '')).toBe('ec4');
    // d2 and f2 both step to e3: the file tells them apart.
    expect(toSan('d2e3', ps, ['d2e3', 'f2e3'], '')).toBe('de3');
    const cap = [pc('e4', 'pawn', 'white'), pc('e5', 'pawn', 'black')];
    expect(toSan('e4e5', cap, ['e4e5'], '')).toBe('exe5');
  });
});

describe('check', () => {
  it('sees rook, knight and pawn checks and a blocked line', () => {
    expect(checkedKing([pc('e1', 'king', 'white'), pc('e8', 'rook', 'black')], 'white', 8, 8)).toBe('e1');
    expect(checkedKing([pc('e1', 'king', 'white'), pc('e2', 'pawn', 'white'), pc('e8', 'rook', 'black')], 'white', 8, 8)).toBeNull();
    expect(checkedKing([pc('e1', 'king', 'white'), pc('f3', 'knight', 'black')], 'white', 8, 8)).toBe('e1');
    expect(checkedKing([pc('e8', 'king', 'black'), pc('d7', 'pawn', 'white')], 'black', 8, 8)).toBe('e8');
  });
});

describe('PGN movetext', () => {
  it('drops tags, numbers, comments, variations and the result', () => {
    const pgn = '[Event "x"]\n\n1. e4 {best} e5 2. Nf3 (2. f4 exf4) 2... Nc6 $1 3. Bb5 1-0\n';
    expect(pgnSanMoves(pgn)).toEqual(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5']);
  });
  // Session-14 trial: a capture parry cancelled showed as "--" in the move list, the status line
  // and the event log. The server writes it as a null move with the move tried in a command
  // (docs/protocol.md § The PGN); a skipped turn is a null move that is no move of the log.
  it('reads the move of a null move and drops a skipped turn', () => {
    const pgn =
      '[Modifiers "parry"]\n\n1. e4 d5 2. -- {[%hr move exd5] [%hr choice rock player=white]\n' +
      '[%hr choice paper player=black] the board did not change: capture-cancelled} 2... Nf6\n' +
      '3. Nf3 -- {[%hr skip] the rules skipped black\'s turn} 4. Nc3 *\n';
    expect(pgnSanMoves(pgn)).toEqual(['e4', 'd5', 'exd5', 'Nf6', 'Nf3', 'Nc3']);
  });
});

// Session-7 web trial: clicking the king and then its own rook selected the rook in standard chess.
describe('castling by clicking the rook', () => {
  const back = [pc('e1', 'king', 'white'), pc('h1', 'rook', 'white'), pc('a1', 'rook', 'white'), pc('e8', 'king', 'black')];
  it('finds the standard castling move written as the king’s destination', () => {
    // Standard notation (FIDE; docs/status.md "Chess960 is a castling mode"): e1g1 and e1c1.
    const legal = ['e1f1', 'e1d1', 'e1g1', 'e1c1', 'h1h2'];
    expect(castlingByRook('e1', 'h1', back, legal)).toBe('e1g1');
    expect(castlingByRook('e1', 'a1', back, legal)).toBe('e1c1');
  });
  it('takes the Chess960 king-takes-rook move as written', () => {
    expect(castlingByRook('e1', 'h1', back, ['e1h1', 'e1a1'])).toBe('e1h1');
  });
  it('is null without a legal castling move that way, or for another piece', () => {
    expect(castlingByRook('e1', 'h1', back, ['e1f1', 'e1c1'])).toBeNull();
    expect(castlingByRook('h1', 'e1', back, ['e1g1'])).toBeNull();
    expect(castlingByRook('e1', 'e8', back, ['e1g1'])).toBeNull();
  });
});

describe('pockets and drops', () => {
  it('reads the pockets of a crazyhouse FEN (counts by side, upper case White)', async () => {
    const { pocketsOf } = await import('./chess');
    // After 1. e4 d5 2. exd5 Qxd5 in crazyhouse each side holds one pawn: `[Pp]` as Fairy-Stockfish writes it.
    expect(pocketsOf('rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3')).toEqual({ white: { P: 1 }, black: { P: 1 } });
    expect(pocketsOf('8/8/8/8/8/8/8/K6k[NNqp] w - - 0 1')).toEqual({ white: { N: 2 }, black: { Q: 1, P: 1 } });
    expect(pocketsOf('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1')).toEqual({ white: {}, black: {} });
    expect(pocketsOf('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toBeNull();
  });
  it('reads a drop in UCI', async () => {
    const { splitDrop } = await import('./chess');
    expect(splitDrop('N@f3')).toEqual({ piece: 'N', to: 'f3' });
    expect(splitDrop('p@e10')).toEqual({ piece: 'P', to: 'e10' });
    expect(splitDrop('e2e4')).toBeNull();
  });
});
