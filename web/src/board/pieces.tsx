/**
 * The piece set: our own simple drawings of the six standard pieces (this project's work, same
 * licence as the app), on a 100×100 grid; fairy kinds are drawn as a disc with their letter.
 */
import type { Color } from '../protocol';

const BODY: Record<string, string> = {
  // base plate shared by all: drawn separately
  pawn: 'M50 18a12 12 0 1 1-0.1 0zM38 40h24l-4 8 8 26H34l8-26z',
  rook: 'M28 20h9v8h8v-8h10v8h8v-8h9v16l-7 6v30H35V42l-7-6z',
  knight:
    'M36 80c0-14 4-22 12-30-6 2-12 4-17 10l-7-6c2-10 10-20 18-26l2-10 6 8c14 2 24 14 24 34v20z',
  bishop: 'M50 12a6 6 0 1 1-0.1 0zM50 22c12 10 18 20 14 32-2 6-6 10-6 10h-16s-4-4-6-10c-4-12 2-22 14-32zM40 66h20l4 12H36z',
  queen: 'M22 30l10 34h36l10-34-14 18-6-26-8 22-8-22-6 26zM34 68h32l2 10H32z',
  king: 'M47 8h6v8h8v6h-8v8h-6v-8h-8v-6h8zM30 40c0-8 10-12 20-8 10-4 20 0 20 8 0 10-8 18-10 26H40c-2-8-10-16-10-26zM38 68h24l2 10H36z',
};
const DETAIL: Record<string, string> = {
  bishop: 'M50 32v14M43 39h14',
  knight: 'M44 30a3 3 0 1 1 0.1 0',
  queen: 'M22 30a4 4 0 1 1 0.1 0M36 22a4 4 0 1 1 0.1 0M50 18a4 4 0 1 1 0.1 0M64 22a4 4 0 1 1 0.1 0M78 30a4 4 0 1 1 0.1 0',
  king: 'M50 32v34',
  rook: 'M35 42h30M35 70h30',
};

export const STANDARD_TYPES = Object.keys(BODY);

/** A piece drawn in a 100×100 box at the origin. `letter` is used for kinds without a drawing. */
export function PieceGlyph({ type, color, letter }: { type: string; color: Color; letter: string }) {
  const fill = color === 'white' ? '#fdfdf8' : '#2b2b2b';
  const stroke = color === 'white' ? '#1d1d1d' : '#0a0a0a';
  const detail = color === 'white' ? '#1d1d1d' : '#e8e8e8';
  const body = BODY[type];
  if (!body) {
    return (
      <g>
        <circle cx="50" cy="50" r="36" fill={fill} stroke={stroke} stroke-width="4" />
        <text x="50" y="51" text-anchor="middle" dominant-baseline="central" font-size="42" font-weight="700" font-family="system-ui, sans-serif" fill={detail}>
          {letter}
        </text>
      </g>
    );
  }
  return (
    <g stroke-linejoin="round" stroke-linecap="round">
      <rect x="26" y="78" width="48" height="10" rx="3" fill={fill} stroke={stroke} stroke-width="4" />
      <path d={body} fill={fill} stroke={stroke} stroke-width="4" />
      {DETAIL[type] && (
        <path d={DETAIL[type]} fill={type === 'queen' || type === 'knight' ? detail : 'none'} stroke={detail} stroke-width="3" />
      )}
    </g>
  );
}
