/**
 * The board: our own SVG component for any board up to 16×16 squares. Squares carry
 * `data-square="e4"`, pieces `data-piece="white-knight"` (and `data-on="e4"`), markers
 * `data-marker="mine"`. Moves by click-click or drag to the legal destinations given; a promotion
 * picker offers the game's promotion choices; choices of a piece, square, column or row are made
 * by clicking the board.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import { boardShape, castlingByRook, FILES, parseSquare, pieceLetter, splitDrop, splitUci, squareName } from '../chess';
import type { Color, MarkerOut, PieceOut } from '../protocol';
import { MarkerIcon, MARKER_STYLE } from './markers';
import { PieceGlyph } from './pieces';
import type { Premove } from '../premove';

export type BoardChoice = { kind: 'piece' | 'square' | 'column' | 'row'; options: string[] };

export interface BoardProps {
  fen: string;
  pieces: PieceOut[];
  markers?: MarkerOut[];
  orientation?: Color;
  legalMoves?: string[];
  /** Whether the user may move now (their turn, no choice pending). */
  movable?: boolean;
  lastMove?: string | null;
  checkSquare?: string | null;
  choice?: BoardChoice | null;
  coordinates?: boolean;
  onMove?: (uci: string) => void;
  onChoose?: (value: string) => void;
  onInspect?: (p: PieceOut | null) => void;
  label?: string;
  /** Opens the promotion picker for a move typed without its piece (`at` tells two asks apart). */
  askPromotion?: { from: string; to: string; options: string[]; at: number } | null;
  /** A pocket piece picked for a drop (`N`; `at` tells two picks apart): its legal squares are shown, a click there drops it. */
  dropPick?: { piece: string; at: number } | null;
  /**
   * Premoves (src/premove.ts): the colour whose pieces may be premoved now (the opponent is to
   * move), or null. A piece of that colour is picked and put on any other square by click-click or
   * drag; a click elsewhere or a right click cancels.
   */
  premoveSide?: Color | null;
  /** The premove entered, highlighted on its two squares until it is sent or dropped. */
  premove?: Premove | null;
  onPremove?: (p: Premove | null) => void;
}

/** The pseudo-square a drop of `piece` starts from in the board's move map (`N@`). */
export const dropFrom = (piece: string) => `${piece.toUpperCase()}@`;

const S = 100; // one square in SVG units
const PROMO_TYPES: Record<string, string> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight', k: 'king', p: 'pawn' };

/** Hit points of a piece: the `hp` attribute (also `Hp`, `HP`), when a number. */
export function hitPoints(p: PieceOut): number | null {
  for (const k of ['hp', 'Hp', 'HP']) {
    const v = p.attrs?.[k];
    if (typeof v === 'number') return v;
  }
  return null;
}

/** Attributes changed by auras: effective differs from stored. */
export function auraAttrs(p: PieceOut): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(p.attrs ?? {})) {
    if (JSON.stringify(v) !== JSON.stringify(p.baseAttrs?.[k])) out.push(k);
  }
  return out;
}

export function describePiece(p: PieceOut): string {
  const attrs = Object.entries(p.attrs ?? {}).map(([k, v]) => {
    const base = p.baseAttrs?.[k];
    return JSON.stringify(v) === JSON.stringify(base) ? `${k}: ${JSON.stringify(v)}` : `${k}: ${JSON.stringify(v)} (stored ${JSON.stringify(base ?? null)}, aura)`;
  });
  return `${p.color} ${p.type} on ${p.square}${attrs.length ? ` — ${attrs.join(', ')}` : ''}`;
}

function fileOfOption(o: string): number | null {
  if (/^[a-p]$/.test(o)) return FILES.indexOf(o);
  if (/^\d+$/.test(o)) return Number(o);
  return null;
}
function rankOfOption(o: string): number | null {
  // Ranks are named "1"…"16" (1-based), as square names read.
  if (/^\d+$/.test(o)) return Number(o) - 1;
  return null;
}

/**
 * The squares a board choice offers, each with the option it stands for: a square or piece by its
 * square name (a piece also by its id), a column by file letter ("a") or 0-based index, a row by
 * its rank name ("1" is rank 1) — every square of the column or row.
 */
export function choiceSquares(c: BoardChoice | null, pieces: PieceOut[], files: number, ranks: number): Map<string, string> {
  const m = new Map<string, string>();
  if (!c) return m;
  for (const o of c.options) {
    const opt = String(o);
    if (c.kind === 'square' || c.kind === 'piece') {
      if (parseSquare(opt)) m.set(opt, opt);
      else {
        const p = pieces.find((x) => String(x.id) === opt);
        if (p) m.set(p.square, opt);
      }
    } else if (c.kind === 'column') {
      const f = fileOfOption(opt);
      if (f !== null && f < files) for (let r = 0; r < ranks; r++) m.set(squareName(f, r), opt);
    } else if (c.kind === 'row') {
      const r = rankOfOption(opt);
      if (r !== null && r >= 0 && r < ranks) for (let f = 0; f < files; f++) m.set(squareName(f, r), opt);
    }
  }
  return m;
}

export function Board(props: BoardProps) {
  const { fen, pieces, markers = [], orientation = 'white', legalMoves = [], movable = false, coordinates = true } = props;
  const shape = useMemo(() => {
    try {
      return boardShape(fen);
    } catch {
      return { files: 8, ranks: 8, letters: new Map<string, string>() };
    }
  }, [fen]);
  const { files, ranks } = shape;
  const [selected, setSelected] = useState<string | null>(null);
  const [drag, setDrag] = useState<{ from: string; x: number; y: number; moved: boolean } | null>(null);
  const [promo, setPromo] = useState<{ from: string; to: string; options: string[] } | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const ask = props.askPromotion;
  useEffect(() => {
    if (ask) setPromo({ from: ask.from, to: ask.to, options: ask.options });
  }, [ask?.at]);
  const pick = props.dropPick;
  useEffect(() => {
    if (pick) setSelected(dropFrom(pick.piece));
  }, [pick?.at]);

  const flip = orientation === 'black';
  const xOf = (f: number) => (flip ? files - 1 - f : f) * S;
  const yOf = (r: number) => (flip ? r : ranks - 1 - r) * S;

  const bySquare = useMemo(() => new Map(pieces.map((p) => [p.square, p])), [pieces]);
  const dests = useMemo(() => {
    const m = new Map<string, Map<string, string[]>>();
    for (const u of legalMoves) {
      const drop = splitDrop(u);
      const mv = drop ? { from: dropFrom(drop.piece), to: drop.to } : splitUci(u);
      if (!mv) continue;
      const to = m.get(mv.from) ?? new Map<string, string[]>();
      to.set(mv.to, [...(to.get(mv.to) ?? []), u]);
      m.set(mv.from, to);
    }
    return m;
  }, [legalMoves]);

  // Choice mode: which squares are offered, and the option each square stands for.
  const choiceMap = useMemo(() => choiceSquares(props.choice ?? null, pieces, files, ranks), [props.choice, pieces, files, ranks]);
  // The option under the pointer: a column or row choice lights its whole line.
  const [hoverOpt, setHoverOpt] = useState<string | null>(null);

  const lastDrop = props.lastMove ? splitDrop(props.lastMove) : null;
  const last = props.lastMove ? (lastDrop ? { from: lastDrop.to, to: lastDrop.to } : splitUci(props.lastMove)) : null;
  const selDests = selected && movable ? dests.get(selected) : undefined;
  const premoving = !!props.premoveSide;
  const pre = props.premove ?? null;
  // A selection made for a premove is dropped when premoving ends without one (the turn came: the
  // piece stays picked for a real move then, as lichess keeps it).
  useEffect(() => {
    if (!premoving && !movable) setSelected(null);
  }, [premoving, movable]);

  const toSvg = (ev: { clientX: number; clientY: number }) => {
    const svg = svgRef.current;
    const ctm = svg?.getScreenCTM();
    if (!svg || !ctm) return null;
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse());
    return { x: pt.x, y: pt.y };
  };
  const squareAt = (x: number, y: number): string | null => {
    const cx = Math.floor(x / S);
    const cy = Math.floor(y / S);
    if (cx < 0 || cy < 0 || cx >= files || cy >= ranks) return null;
    const f = flip ? files - 1 - cx : cx;
    const r = flip ? cy : ranks - 1 - cy;
    return squareName(f, r);
  };

  const tryMove = (from: string, to: string) => {
    const cands = dests.get(from)?.get(to);
    if (!cands?.length) return false;
    setSelected(null);
    if (cands.length > 1) {
      setPromo({ from, to, options: cands.map((u) => splitUci(u)?.promo ?? '') });
    } else props.onMove?.(cands[0]);
    return true;
  };

  /** Selects `sq` and starts dragging its piece from the pointer's point. */
  const grab = (sq: string, pt: { x: number; y: number }, ev: JSX.TargetedPointerEvent<SVGSVGElement>) => {
    setSelected(sq);
    setDrag({ from: sq, x: pt.x, y: pt.y, moved: false });
    try {
      (ev.currentTarget as Element).setPointerCapture?.(ev.pointerId);
    } catch {
      /* synthetic events have no active pointer */
    }
  };

  const onDown = (ev: JSX.TargetedPointerEvent<SVGSVGElement>) => {
    if (promo) return;
    const pt = toSvg(ev);
    if (!pt) return;
    const sq = squareAt(pt.x, pt.y);
    if (!sq) return;
    if (props.choice) {
      const opt = choiceMap.get(sq);
      if (opt !== undefined) props.onChoose?.(opt);
      return;
    }
    const piece = bySquare.get(sq);
    props.onInspect?.(piece ?? null);
    if (!movable && premoving) {
      if (ev.button === 2) return; // a right click: the context-menu handler cancels
      // Any click cancels an entered premove (a click on an own piece then picks it for a new one).
      if (props.premove) props.onPremove?.(null);
      if (selected && selected !== sq && !(piece && piece.color === props.premoveSide)) {
        setSelected(null);
        props.onPremove?.({ from: selected, to: sq });
        return;
      }
      if (piece && piece.color === props.premoveSide && selected !== sq) {
        grab(sq, pt, ev);
      } else setSelected(null);
      return;
    }
    if (!movable) return;
    if (selected && selected !== sq && tryMove(selected, sq)) return;
    // King, then its own rook: castle towards it (standard chess writes castling as `e1g1`).
    const castle = selected && selected !== sq ? castlingByRook(selected, sq, pieces, legalMoves) : null;
    if (castle) {
      setSelected(null);
      props.onMove?.(castle);
      return;
    }
    if (dests.has(sq)) {
      grab(sq, pt, ev);
    } else setSelected(null);
  };
  const onMoveEv = (ev: JSX.TargetedPointerEvent<SVGSVGElement>) => {
    if (props.choice) {
      const at = toSvg(ev);
      const sq = at ? squareAt(at.x, at.y) : null;
      const opt = sq ? (choiceMap.get(sq) ?? null) : null;
      if (opt !== hoverOpt) setHoverOpt(opt);
    }
    if (!drag) return;
    const pt = toSvg(ev);
    if (!pt) return;
    const [f, r] = parseSquare(drag.from)!;
    const moved = drag.moved || Math.hypot(pt.x - (xOf(f) + S / 2), pt.y - (yOf(r) + S / 2)) > S / 4;
    setDrag({ ...drag, x: pt.x, y: pt.y, moved });
  };
  const onUp = (ev: JSX.TargetedPointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const d = drag;
    setDrag(null);
    if (!d.moved) return; // a click: the piece stays selected for click-click
    const pt = toSvg(ev);
    const sq = pt ? squareAt(pt.x, pt.y) : null;
    if (!movable && premoving) {
      // A piece dragged in the opponent's time: a premove to wherever it is let go (own pieces too:
      // they may be gone by then), or nothing when let go where it started or off the board.
      setSelected(null);
      if (sq && sq !== d.from) props.onPremove?.({ from: d.from, to: sq });
      return;
    }
    if (sq && sq !== d.from && !tryMove(d.from, sq)) {
      const castle = castlingByRook(d.from, sq, pieces, legalMoves);
      if (castle) {
        setSelected(null);
        props.onMove?.(castle);
      }
    }
  };

  const squares: JSX.Element[] = [];
  for (let r = 0; r < ranks; r++) {
    for (let f = 0; f < files; f++) {
      const name = squareName(f, r);
      const light = (f + r) % 2 === 1;
      const p = bySquare.get(name);
      const marks = markers.filter((m) => m.square === name).map((m) => m.kind);
      const label = `${name}${p ? `, ${p.color} ${p.type}` : ''}${marks.length ? `, marker ${marks.join(' and ')}` : ''}`;
      const classes = ['sq', light ? 'light' : 'dark'];
      if (last && (last.from === name || last.to === name)) classes.push('last');
      if (selected === name && (movable || premoving)) classes.push(movable ? 'selected' : 'premove-from');
      if (pre && (pre.from === name || pre.to === name)) classes.push('premove');
      if (props.checkSquare === name) classes.push('check');
      if (choiceMap.has(name)) classes.push('choosable');
      if (props.choice && hoverOpt !== null && choiceMap.get(name) === hoverOpt) classes.push('choose-hover');
      squares.push(
        <rect key={name} data-square={name} class={classes.join(' ')} x={xOf(f)} y={yOf(r)} width={S} height={S} role="img" aria-label={label} />,
      );
    }
  }

  const markerEls: JSX.Element[] = [];
  const markerTints: JSX.Element[] = [];
  const perSquare = new Map<string, number>();
  for (const m of markers) {
    const s = parseSquare(m.square);
    if (!s) continue;
    const i = perSquare.get(m.square) ?? 0;
    perSquare.set(m.square, i + 1);
    const x = xOf(s[0]);
    const y = yOf(s[1]);
    if (i === 0) {
      markerTints.push(
        <rect key={`t${m.square}`} x={x} y={y} width={S} height={S} fill={MARKER_STYLE[m.kind]?.tint ?? '#000'} opacity="0.3" pointer-events="none" />,
      );
    }
    markerEls.push(
      <g key={`m${m.id}`} data-marker={m.kind} data-on={m.square} pointer-events="none">
        <g transform={`translate(${x + 3 + i * 30} ${y + 3}) scale(0.3)`}>
          <circle cx="50" cy="50" r="50" fill="#fff" opacity="0.85" />
          <MarkerIcon kind={m.kind} />
        </g>
        <title>
          {MARKER_STYLE[m.kind]?.label ?? m.kind}
          {m.owner ? ` (${m.owner})` : ''}
          {m.lifetime.kind === 'moves' ? `, expires at ply ${m.lifetime.expiresAtMove}` : m.lifetime.kind === 'one-shot' ? ', one-shot' : ''}
        </title>
      </g>,
    );
  }

  const dots: JSX.Element[] = [];
  if (selDests) {
    for (const to of selDests.keys()) {
      const s = parseSquare(to)!;
      const occupied = bySquare.has(to);
      dots.push(
        occupied ? (
          <circle key={`d${to}`} class="dest capture" data-dest={to} cx={xOf(s[0]) + S / 2} cy={yOf(s[1]) + S / 2} r={S * 0.45} />
        ) : (
          <circle key={`d${to}`} class="dest" data-dest={to} cx={xOf(s[0]) + S / 2} cy={yOf(s[1]) + S / 2} r={S * 0.15} />
        ),
      );
    }
  }

  const pieceEls = pieces.map((p) => {
    const s = parseSquare(p.square);
    if (!s) return null;
    const dragging = drag?.moved && drag.from === p.square;
    const x = dragging ? drag!.x - S / 2 : xOf(s[0]);
    const y = dragging ? drag!.y - S / 2 : yOf(s[1]);
    const hp = hitPoints(p);
    const aura = auraAttrs(p);
    return (
      <g
        key={`p${p.id}-${p.square}`}
        data-piece={`${p.color}-${p.type}`}
        data-on={p.square}
        class={dragging ? 'piece dragging' : 'piece'}
        transform={`translate(${x} ${y})`}
        onPointerEnter={() => props.onInspect?.(p)}
      >
        <title>{describePiece(p)}</title>
        {aura.length > 0 && <circle class="aura" data-aura={aura.join(' ')} cx="50" cy="50" r="46" />}
        <PieceGlyph type={p.type} color={p.color} letter={pieceLetter(p.type, shape.letters.get(p.square))} />
        {hp !== null && (
          // Top right: the bottom right holds the file letters on the first rank (issue 26 item 10).
          <g class="hp" data-hp={hp}>
            <circle cx="82" cy="18" r="16" />
            <text x="82" y="19" text-anchor="middle" dominant-baseline="central">
              {hp}
            </text>
          </g>
        )}
      </g>
    );
  });

  const coords: JSX.Element[] = [];
  if (coordinates) {
    for (let f = 0; f < files; f++) {
      coords.push(
        <text key={`f${f}`} class="coord" x={xOf(f) + S - 6} y={ranks * S - 6} text-anchor="end">
          {FILES[f]}
        </text>,
      );
    }
    for (let r = 0; r < ranks; r++) {
      coords.push(
        // Two-digit ranks (10×10 boards) in a narrower label, clear of the piece's top-left corner.
        <text key={`r${r}`} class={r + 1 >= 10 ? 'coord narrow' : 'coord'} x={4} y={yOf(r) + 22}>
          {r + 1}
        </text>,
      );
    }
  }

  let picker: JSX.Element | null = null;
  if (promo) {
    const s = parseSquare(promo.to)!;
    const x = xOf(s[0]);
    const down = yOf(s[1]) < (ranks * S) / 2;
    const mover = bySquare.get(promo.from)?.color ?? 'white';
    picker = (
      <g class="promotion" role="dialog" aria-label="Choose the promotion piece">
        <rect x="0" y="0" width={files * S} height={ranks * S} fill="#000" opacity="0.35" onClick={() => setPromo(null)} />
        {promo.options.map((o, i) => {
          const y = down ? yOf(s[1]) + i * S : yOf(s[1]) - i * S;
          const type = PROMO_TYPES[o] ?? o;
          return (
            <g
              key={o}
              data-promotion={o}
              transform={`translate(${x} ${y})`}
              role="button"
              aria-label={`promote to ${type}`}
              onClick={(e) => {
                e.stopPropagation();
                const uci = `${promo.from}${promo.to}${o}`;
                setPromo(null);
                props.onMove?.(uci);
              }}
            >
              <rect width={S} height={S} fill="#f4f4f4" stroke="#555" stroke-width="2" />
              <PieceGlyph type={type} color={mover} letter={o.toUpperCase()} />
            </g>
          );
        })}
      </g>
    );
  }

  return (
    <svg
      ref={svgRef}
      class="board"
      viewBox={`0 0 ${files * S} ${ranks * S}`}
      role="group"
      aria-label={props.label ?? `Board, ${files} by ${ranks}, ${orientation} at the bottom`}
      data-files={files}
      data-ranks={ranks}
      data-premove={pre ? `${pre.from}${pre.to}` : undefined}
      onPointerDown={onDown}
      onPointerMove={onMoveEv}
      onPointerUp={onUp}
      onDragOver={(ev) => {
        if (movable) ev.preventDefault();
      }}
      onDrop={(ev) => {
        // A pocket piece dragged here (the pocket's drag data is its letter).
        ev.preventDefault();
        const piece = ev.dataTransfer?.getData('text/x-houserules-drop');
        const pt = toSvg(ev);
        const sq = pt ? squareAt(pt.x, pt.y) : null;
        if (piece && sq && movable) tryMove(dropFrom(piece), sq);
      }}
      onContextMenu={(ev) => {
        // A right click cancels a premove and a premove's picked piece (lichess).
        if (!premoving && !pre) return;
        ev.preventDefault();
        setSelected(null);
        setDrag(null);
        if (pre) props.onPremove?.(null);
      }}
      onPointerLeave={() => {
        props.onInspect?.(null);
        setHoverOpt(null);
      }}
    >
      {squares}
      {markerTints}
      {coords}
      {dots}
      {pieceEls}
      {markerEls}
      {picker}
    </svg>
  );
}
