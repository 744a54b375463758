/**
 * Premoves, as lichess has them (issue 26 "What to build"): one move entered during the opponent's
 * turn, shown on the board, cancelled by a click elsewhere or a right click, and sent as soon as the
 * turn comes if it is legal then; dropped silently if it is not. Under house rules the page cannot
 * know which moves will exist after the opponent's move (modifiers add moves, wrap files, move
 * pieces), so any own piece may be premoved to any other square: the server's legal moves decide
 * when the turn comes. None while a choice is pending (the position it leads to is unknown), and a
 * premove is dropped when a choice comes up or the game ends. A premove that promotes promotes to
 * a queen when the rules allow one (lichess's "auto-queen on premove"), else to the first piece offered.
 */
import { castlingByRook, splitUci } from './chess';
import type { Color, PieceOut } from './protocol';

export interface Premove {
  from: string;
  to: string;
}

/** Whether this page may enter a premove now: a seat (not the sandbox), connected, the opponent's turn, no choice pending. */
export function canPremove(o: { live: boolean; connection: string; mySide: Color | null; hot: boolean; sideToMove: Color; choicePending: boolean }): boolean {
  return o.live && o.connection === 'open' && !!o.mySide && !o.hot && !o.choicePending && o.sideToMove !== o.mySide;
}

/**
 * The legal move a premove stands for now, or null: the legal move from its square to its square
 * (a queen among promotions), or castling when it goes from the king to its own rook.
 */
export function resolvePremove(p: Premove, legalMoves: string[], pieces: PieceOut[]): string | null {
  const cands = legalMoves.filter((u) => {
    const m = splitUci(u);
    return m && m.from === p.from && m.to === p.to;
  });
  if (cands.length) return cands.find((u) => u.endsWith('q')) ?? cands[0];
  return castlingByRook(p.from, p.to, pieces, legalMoves);
}

/**
 * What to do with a premove after the state changed: `send` the move (the turn came and it is
 * legal), `drop` it (the turn came and it is not, a choice is pending, the game ended, a move was
 * taken back), or `keep`
 * waiting (still the opponent's turn).
 */
export function premoveStep(
  p: Premove | null,
  o: { live: boolean; myTurn: boolean; choicePending: boolean; legalMoves: string[]; pieces: PieceOut[]; undone?: boolean },
): { action: 'none' | 'keep' | 'drop' } | { action: 'send'; uci: string } {
  if (!p) return { action: 'none' };
  // A takeback (the ply count went down) changes the position the premove was meant for (lichess drops it too).
  if (!o.live || o.choicePending || o.undone) return { action: 'drop' };
  if (!o.myTurn) return { action: 'keep' };
  const uci = resolvePremove(p, o.legalMoves, o.pieces);
  return uci ? { action: 'send', uci } : { action: 'drop' };
}
