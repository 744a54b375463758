import type { PieceOut } from '../protocol';

/** A piece for tests. */
export const pc = (square: string, type: string, color: 'white' | 'black', id = 0): PieceOut => ({
  id, square, type, color, attrs: {}, baseAttrs: {},
});

/** A minimal session output in the shape of docs/session-output.schema.json. */
export const session = (over: Record<string, unknown> = {}) => ({
  fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  sideToMove: 'white',
  status: { status: 'ongoing', winner: null, reason: null },
  legalMoves: ['e2e4', 'g1f3'],
  pendingChoice: null,
  markers: [],
  activeModifiers: [],
  pieces: [pc('e1', 'king', 'white', 4), pc('e8', 'king', 'black', 60)],
  seed: 0,
  rngStream: 0,
  plyCount: 0,
  vars: {},
  log: [],
  ...over,
});
