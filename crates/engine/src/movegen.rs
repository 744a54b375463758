//! Legal move generation.
//!
//! The fast path (exactly one royal piece for the side to move, no rule
//! hooks) generates legal moves directly from checkers and pins, the way
//! fast chess move generators do, but for any piece set: checks and pins
//! are found along the compiled rays of whatever pieces ride. En passant is
//! verified by playing it. Everything else (several or no royals, hooks)
//! takes the general path: pseudo-legal moves filtered by playing them.

use crate::bitboard::BitSet;
use crate::definition::ShapeMode;
use crate::hooks::{ListRule, Royalty};
use crate::position::Position;
use crate::tables::{DropTables, Tables, MAX_KINDS};

thread_local! {
    /// Set while [`Position::without_drop_mates`] counts the defender's
    /// replies, so that their own drops are not tested for mate in turn.
    static IN_MATE_TEST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}
use crate::types::{Color, Move, MoveKind, PieceKind, Square};

/// Receives generated moves: either whole target sets (for bulk counting)
/// or single moves.
pub(crate) trait Sink<B> {
    /// Whether the order of generation matters (move lists); counting may
    /// visit pieces by movement class instead of by kind.
    const ORDERED: bool = true;
    /// Moves from `from` to each square of `targets`, of `kind`; when
    /// `promote`, one move per promotion choice.
    fn targets(&mut self, from: u8, targets: B, kind: MoveKind, promote: bool);
    /// Moves of several pieces, each from `to - delta` to `to` for every
    /// `to` in `targets`.
    fn shifted(&mut self, targets: B, delta: i32, kind: MoveKind, promote: bool);
    /// One move.
    fn single(&mut self, m: Move);
    /// Drops of a piece of `kind` from the hand onto each of `targets`.
    #[inline]
    fn drops(&mut self, kind: u8, targets: B)
    where
        B: BitSet,
    {
        for to in targets.iter() {
            self.single(Move::drop(PieceKind(kind), to));
        }
    }
}

/// How a plain mover (see [`Tables::plain`]) of one kind and colour moves:
/// move-or-capture leaps, and rook-wise or bishop-wise magic rides.
struct PlainMover<'a, B> {
    leaps: &'a [B; 128],
    rook: bool,
    bishop: bool,
    mg: &'static crate::magic::Magics,
}

impl<'a, B: BitSet> PlainMover<'a, B> {
    /// Kind `k` of colour index `ui` on `t`, with its magic tables `mg`.
    #[inline(always)]
    fn new(t: &'a Tables<B>, ui: usize, k: usize, mg: &'static crate::magic::Magics) -> Self {
        PlainMover {
            leaps: &t.hot[ui][k & 15].leap_any,
            rook: t.rook_like[ui] & (1 << k) != 0,
            bishop: t.bishop_like[ui] & (1 << k) != 0,
            mg,
        }
    }

    /// The squares it reaches from `sq` over the occupancy `o` (own pieces
    /// included: the caller masks them).
    #[inline(always)]
    fn targets(&self, sq: u8, o: u64) -> B {
        let mut a = self.leaps[sq as usize & 127];
        if self.rook {
            a |= B::from_u64(self.mg.rook(sq, o));
        }
        if self.bishop {
            a |= B::from_u64(self.mg.bishop(sq, o));
        }
        a
    }
}

/// Counts moves without listing them.
pub(crate) struct Counter {
    pub n: u64,
    pub promo: u64,
}

impl<B: BitSet> Sink<B> for Counter {
    const ORDERED: bool = false;
    #[inline(always)]
    fn targets(&mut self, _from: u8, targets: B, _kind: MoveKind, promote: bool) {
        self.n += targets.count() as u64 * if promote { self.promo } else { 1 };
    }
    #[inline(always)]
    fn shifted(&mut self, targets: B, _delta: i32, _kind: MoveKind, promote: bool) {
        self.n += targets.count() as u64 * if promote { self.promo } else { 1 };
    }
    #[inline(always)]
    fn single(&mut self, _m: Move) {
        self.n += 1;
    }
    #[inline(always)]
    fn drops(&mut self, _kind: u8, targets: B)
    where
        B: BitSet,
    {
        self.n += targets.count() as u64;
    }
}

/// Counts moves, and among them captures (for compulsory capture), playing
/// only the moves of `test` pieces (and, with `test_singles`, castling and
/// en passant) to judge them with [`Position::leaves_royals_safe`]. The
/// other moves are legal as generated.
pub(crate) struct Tally<'a, B: BitSet> {
    pub n: u64,
    pub captures: u64,
    pub promo: u64,
    pub their: B,
    pub test: B,
    pub test_singles: bool,
    pub pos: &'a Position<B>,
    pub t: &'a Tables<B>,
    pub choices: Choices,
}

impl<'a, B: BitSet> Tally<'a, B> {
    pub fn new(pos: &'a Position<B>, t: &'a Tables<B>, promo: u64) -> Tally<'a, B> {
        Tally {
            n: 0,
            captures: 0,
            promo,
            their: pos.by_color[pos.turn.flip().index()],
            test: B::EMPTY,
            test_singles: false,
            pos,
            t,
            choices: pos.promotion_choices(t),
        }
    }

    #[inline(always)]
    fn is_capture(&self, to: u8, kind: MoveKind) -> bool {
        kind == MoveKind::EnPassant || (kind != MoveKind::Castle && self.their.has(to))
    }

    #[cold]
    fn tested(&mut self, m: Move, promote: bool) {
        let one = |m: Move, s: &mut Self| {
            if s.pos.leaves_royals_safe(s.t, m) {
                s.n += 1;
                s.captures += u64::from(s.is_capture(m.to, m.kind));
            }
        };
        if promote {
            let choices = self.choices;
            for &c in choices.as_slice() {
                one(
                    Move {
                        promotion: Some(PieceKind(c)),
                        ..m
                    },
                    self,
                );
            }
        } else {
            one(m, self);
        }
    }
}

impl<B: BitSet> Sink<B> for Tally<'_, B> {
    const ORDERED: bool = false;
    #[inline(always)]
    fn targets(&mut self, from: u8, targets: B, kind: MoveKind, promote: bool) {
        let singles = self.test_singles
            && (matches!(kind, MoveKind::EnPassant | MoveKind::Castle)
                || (promote && self.t.royal_promo));
        if !self.test.has(from) && !singles {
            let mult = if promote { self.promo } else { 1 };
            self.n += targets.count() as u64 * mult;
            let caps = match kind {
                MoveKind::EnPassant => targets,
                MoveKind::Castle => B::EMPTY,
                _ => targets & self.their,
            };
            self.captures += caps.count() as u64 * mult;
        } else {
            for to in targets.iter() {
                self.tested(
                    Move {
                        from,
                        to,
                        promotion: None,
                        kind,
                    },
                    promote,
                );
            }
        }
    }
    #[inline(always)]
    fn shifted(&mut self, targets: B, delta: i32, kind: MoveKind, promote: bool) {
        if self.test.is_empty() && !(self.test_singles && promote && self.t.royal_promo) {
            let mult = if promote { self.promo } else { 1 };
            self.n += targets.count() as u64 * mult;
            self.captures += (targets & self.their).count() as u64 * mult;
        } else {
            for to in targets.iter() {
                self.targets((to as i32 - delta) as u8, B::bit(to), kind, promote);
            }
        }
    }
    #[inline(always)]
    fn single(&mut self, m: Move) {
        let singles = self.test_singles && matches!(m.kind, MoveKind::EnPassant | MoveKind::Castle);
        if singles || self.test.has(m.from) {
            self.tested(m, false);
        } else {
            self.n += 1;
            self.captures += u64::from(self.is_capture(m.to, m.kind));
        }
    }
}

/// Collects moves into a list.
pub(crate) struct Collect<'a> {
    pub out: &'a mut Vec<Move>,
    pub choices: Choices,
}

/// The promotion choices available in a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Choices {
    pub kinds: [u8; MAX_KINDS],
    pub n: usize,
}

impl Choices {
    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        &self.kinds[..self.n]
    }
}

/// Emits `tg` from `from`: plain moves everywhere but the compulsory
/// promotion zone, promotions on the compulsory and optional zones.
#[inline(always)]
fn emit<B: BitSet, S: Sink<B>>(sink: &mut S, from: u8, tg: B, kind: MoveKind, zones: (B, B)) {
    sink.targets(from, tg & !zones.0, kind, false);
    let pz = tg & (zones.0 | zones.1);
    if pz.any() {
        sink.targets(from, pz, kind, true);
    }
}

/// [`emit`] for set-wise moves by `delta`.
#[inline(always)]
fn emit_shifted<B: BitSet, S: Sink<B>>(
    sink: &mut S,
    tg: B,
    delta: i32,
    kind: MoveKind,
    zones: (B, B),
) {
    sink.shifted(tg & !zones.0, delta, kind, false);
    let pz = tg & (zones.0 | zones.1);
    if pz.any() {
        sink.shifted(pz, delta, kind, true);
    }
}

impl Collect<'_> {
    /// One move, or one per promotion choice.
    #[inline(always)]
    fn push(&mut self, from: u8, to: u8, kind: MoveKind, promote: bool) {
        if promote {
            for &c in self.choices.as_slice() {
                self.out.push(Move {
                    from,
                    to,
                    promotion: Some(PieceKind(c)),
                    kind,
                });
            }
        } else {
            self.out.push(Move {
                from,
                to,
                promotion: None,
                kind,
            });
        }
    }
}

impl<B: BitSet> Sink<B> for Collect<'_> {
    #[inline]
    fn targets(&mut self, from: u8, targets: B, kind: MoveKind, promote: bool) {
        for to in targets.iter() {
            self.push(from, to, kind, promote);
        }
    }
    #[inline]
    fn shifted(&mut self, targets: B, delta: i32, kind: MoveKind, promote: bool) {
        for to in targets.iter() {
            self.push((to as i32 - delta) as u8, to, kind, promote);
        }
    }
    #[inline]
    fn single(&mut self, m: Move) {
        self.out.push(m);
    }
}

/// Sorts the enemy magic riders on `xray` (squares that see the royal on
/// `ksq` through its own side's pieces) given the occupancy and own pieces
/// `(occ, ours)`: a rider with nothing between it and the royal checks (it
/// joins `checkers`, and it and the squares between join `block`); one
/// with exactly one own piece between pins that piece, reported as
/// `pin(piece bit, segment)` (the squares between and the rider).
#[inline(always)]
pub(crate) fn magic_snipers<B: BitSet>(
    mg: &crate::magic::Magics,
    ksq: u8,
    mut xray: u64,
    (occ, ours): (u64, u64),
    (checkers, block): (&mut B, &mut B),
    mut pin: impl FnMut(u64, B),
) {
    while xray != 0 {
        let s = xray.trailing_zeros() as u8;
        xray &= xray - 1;
        let btw = mg.between(ksq, s);
        let on = btw & occ;
        if on == 0 {
            *checkers |= B::bit(s);
            *block |= B::from_u64(btw) | B::bit(s);
        } else if on & (on - 1) == 0 && on & ours != 0 {
            pin(on, B::from_u64(btw) | B::bit(s));
        }
    }
}

impl<B: BitSet> Position<B> {
    /// Pseudo-legal targets of the piece of `kind`/`us` on `sq` by its
    /// ordinary (not first-move) shapes: `(quiet, captures)`.
    #[inline(always)]
    pub(crate) fn shape_targets(
        &self,
        t: &Tables<B>,
        kind: usize,
        us: Color,
        sq: u8,
        occ: B,
        their: B,
    ) -> (B, B) {
        let kt = &t.kinds[us.index()][kind];
        let s = sq as usize;
        let empty = !occ & t.board;
        let mut any = kt.leap_any[s];
        let mut quiet = kt.leap_quiet[s];
        let mut capt = kt.leap_capture[s];
        if kt.magic != 0 {
            if let Some(mg) = t.magic {
                let o = occ.to_u64();
                if kt.magic & 1 != 0 {
                    any |= B::from_u64(mg.rook(sq, o));
                }
                if kt.magic & 2 != 0 {
                    any |= B::from_u64(mg.bishop(sq, o));
                }
            }
        }
        for r in &kt.rides {
            let a = if r.path {
                t.paths[r.ray as usize].attacks(sq, occ)
            } else {
                t.rays[r.ray as usize].attacks(sq, occ)
            };
            match r.mode {
                ShapeMode::MoveOrCapture => any |= a,
                ShapeMode::MoveOnly => quiet |= a,
                ShapeMode::CaptureOnly => capt |= a,
            }
        }
        ((any | quiet) & empty, (any | capt) & their)
    }

    /// The squares the `us` piece of `kind` on `sq` reaches by its
    /// ordinary shapes over the board `occ`: the empty squares it may move
    /// to and the squares of `their` it may capture on. First-move shapes
    /// (the pawn's double step), castling and rule hooks are left out, and
    /// a move that leaves a royal piece attacked is still counted
    /// (pseudo-legal). The search's mobility term counts them. `kind` must
    /// be a kind of the game (it indexes the tables).
    pub fn shape_reach(
        &self,
        t: &Tables<B>,
        kind: PieceKind,
        us: Color,
        sq: u8,
        occ: B,
        their: B,
    ) -> B {
        let (quiet, captures) = self.shape_targets(t, kind.index(), us, sq, occ, their);
        quiet | captures
    }

    /// First-move targets (the pawn's double step): `(quiet, captures,
    /// creates_ep)` per shape, summed; `creates_ep` moves are returned in
    /// the first set when the shape opens en passant.
    #[inline(always)]
    fn first_move_targets(
        &self,
        t: &Tables<B>,
        kind: usize,
        us: Color,
        sq: u8,
        occ: B,
        their: B,
    ) -> (B, B) {
        let kt = &t.kinds[us.index()][kind];
        let empty = !occ & t.board;
        let mut dbl = B::EMPTY;
        let mut plain = B::EMPTY;
        for fm in &kt.first_moves {
            if !fm.from.has(sq) || (fm.needs_unmoved && !self.unmoved.has(sq)) {
                continue;
            }
            let a = match fm.ray {
                Some(r) if fm.path => t.paths[r as usize].attacks(sq, occ),
                Some(r) => t.rays[r as usize].attacks(sq, occ),
                None => kt.first_leaps[fm.leap][sq as usize],
            };
            let a = match fm.mode {
                ShapeMode::MoveOrCapture => a & (empty | their),
                ShapeMode::MoveOnly => a & empty,
                ShapeMode::CaptureOnly => a & their,
            };
            if fm.creates_ep {
                dbl |= a;
            } else {
                plain |= a;
            }
        }
        (dbl, plain)
    }

    /// Generates legal moves into `sink`. Returns `false` (and generates
    /// nothing) when the fast path does not apply.
    #[inline(always)]
    pub(crate) fn gen_fast<S: Sink<B>>(&self, t: &Tables<B>, sink: &mut S) -> bool {
        if t.plain {
            self.gen_fast_with::<S, true, false>(t, sink)
        } else {
            self.gen_fast_other(t, sink)
        }
    }

    /// [`Self::gen_fast`] off plain tables, out of line so that the plain
    /// path's code stays as it was: horde's ranked pawns set-wise in a copy
    /// of their own (the plain and the generic copies keep no branch for
    /// them), or the generic copy.
    #[inline(never)]
    fn gen_fast_other<S: Sink<B>>(&self, t: &Tables<B>, sink: &mut S) -> bool {
        if t.ranked_pawns {
            self.gen_fast_with::<S, false, true>(t, sink)
        } else {
            self.gen_fast_with::<S, false, false>(t, sink)
        }
    }

    /// [`Self::gen_fast`]; `PLAIN` when the tables are plain (see
    /// [`Tables::plain`]): generic ray scans and split quiet/capture
    /// shapes are then compiled out, pins are resolved through the magic
    /// line table, and per-kind lookups go through [`Tables::hot`].
    /// `RANKED` when some kind has a ranked pawn pattern
    /// ([`RankedPawn`](crate::tables::RankedPawn)): its unpinned pieces
    /// are then generated set-wise too.
    fn gen_fast_with<S: Sink<B>, const PLAIN: bool, const RANKED: bool>(
        &self,
        t: &Tables<B>,
        sink: &mut S,
    ) -> bool {
        let us = self.turn;
        let them = us.flip();
        // `fast_royal_kinds` is empty under board topologies: no royal here
        // sends the position to the general path at no extra cost.
        let royals = self.pieces_of(t.fast_royal_kinds, us);
        if royals.is_empty() || royals.more_than_one() {
            return false;
        }
        let ksq = royals.lsb();
        let occ = self.occupied();
        let our = self.by_color[us.index()];
        let their = self.by_color[them.index()];

        // Checkers and the squares that block or capture them; pins.
        let mut checkers = B::EMPTY;
        let mut block = B::EMPTY;
        let mut pinned = B::EMPTY;
        // Plain: every pin's segment (between king and pinner, pinner
        // included). Segments of different pins share no half-line from the
        // king, so a pinned piece's own segment is its half-line within
        // them (leapers must not jump past the pinner or the king).
        let mut pin_segments = B::EMPTY;
        let mut pins: [(u8, B); 16] = [(0, B::EMPTY); 16];
        let mut npins = 0;
        let tc = them.index();
        let mut m = t.leap_attackers[tc];
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            checkers |=
                t.hot[tc][k & 15].rev_leap_attacks[ksq as usize & 127] & self.by_kind[k] & their;
        }
        block |= checkers;
        // Enemy magic riders, gathered once for pins and king safety.
        let (rl, bl) = (
            self.pieces_of(t.rook_like[tc], them),
            self.pieces_of(t.bishop_like[tc], them),
        );
        if let Some(mg) = t.magic {
            let o = occ.to_u64();
            let th = their.to_u64();
            let ours = our.to_u64();
            let (rq, bq) = (rl.to_u64(), bl.to_u64());
            let xray = (mg.rook(ksq, th) & rq) | (mg.bishop(ksq, th) & bq);
            magic_snipers(
                mg,
                ksq,
                xray,
                (o, ours),
                (&mut checkers, &mut block),
                |on, seg| {
                    pinned |= B::from_u64(on);
                    pin_segments |= seg;
                    if !PLAIN && npins < 16 {
                        pins[npins] = (on.trailing_zeros() as u8, seg);
                        npins += 1;
                    }
                },
            );
        }
        for ar in if PLAIN {
            &[][..]
        } else {
            &t.attack_rays[tc][..]
        } {
            let snipers = self.pieces_of(ar.kinds, them);
            if snipers.is_empty() {
                continue;
            }
            let ray = &t.rays[ar.ray as usize];
            // Cheap pre-test: any sniper on the ray at all?
            if (ray.lim[ksq as usize] & snipers).is_empty() {
                continue;
            }
            let direct = ray.attacks(ksq, occ) & snipers;
            if direct.any() {
                checkers |= direct;
                let c = direct.lsb();
                block |= ray.between(ksq, c) | direct;
                continue;
            }
            let xray = ray.attacks(ksq, their) & snipers;
            if xray.any() {
                let s = xray.lsb();
                let btw = ray.between(ksq, s);
                let on = btw & occ;
                if on.any() && !on.more_than_one() && (on & our).any() && npins < 16 {
                    pinned |= on;
                    pins[npins] = (on.lsb(), btw | xray);
                    npins += 1;
                }
            }
        }
        let nk = t.n_kinds;
        let zones_of = |k: usize| {
            if t.promo_kinds & (1 << k) != 0 {
                (t.promo_zone[us.index()], t.promo_optional[us.index()])
            } else {
                (B::EMPTY, B::EMPTY)
            }
        };
        let kingkind = if t.royal_kinds.is_power_of_two() {
            t.royal_kinds.trailing_zeros() as usize
        } else {
            self.piece_at(ksq).map(|p| p.kind.index()).unwrap_or(0)
        };

        if !checkers.more_than_one() {
            let mask = if checkers.any() { block } else { t.board };
            // Counting on a plain path whose movers are pure leapers or
            // pure magic riders: visit riders by movement class (rook-wise
            // and bishop-wise sets never overlap), leapers by kind.
            let by_class = PLAIN && !S::ORDERED && t.plain_split[us.index()];
            let mut todo: u32 = (1u32 << nk) - 1;
            if by_class {
                let mg = t.magic.expect("plain tables have magics");
                let o = occ.to_u64();
                let our_rest = our & !B::bit(ksq);
                let to_ok = mask & !our;
                let allowed = |sq: u8| {
                    if pinned.has(sq) {
                        to_ok & pin_segments & B::from_u64(mg.ray(ksq, sq))
                    } else {
                        to_ok
                    }
                };
                let mut km = t.plain_leapers[us.index()];
                while km != 0 {
                    let k = km.trailing_zeros() as usize;
                    km &= km - 1;
                    let leaps = &t.hot[us.index()][k & 15].leap_any;
                    for sq in (self.by_kind[k & 15] & our_rest).iter() {
                        sink.targets(
                            sq,
                            leaps[sq as usize & 127] & allowed(sq),
                            MoveKind::Normal,
                            false,
                        );
                    }
                }
                for sq in (self.pieces_of(t.rook_like[us.index()], us) & our_rest).iter() {
                    let a = B::from_u64(mg.rook(sq, o));
                    sink.targets(sq, a & allowed(sq), MoveKind::Normal, false);
                }
                for sq in (self.pieces_of(t.bishop_like[us.index()], us) & our_rest).iter() {
                    let a = B::from_u64(mg.bishop(sq, o));
                    sink.targets(sq, a & allowed(sq), MoveKind::Normal, false);
                }
                todo &= !t.plain_movers[us.index()];
            }
            while todo != 0 {
                let k = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let mut pcs = self.by_kind[k] & our;
                if k == kingkind {
                    pcs &= !B::bit(ksq);
                }
                if pcs.is_empty() {
                    continue;
                }
                if PLAIN && t.plain_movers[us.index()] & (1 << k) != 0 {
                    // Move-or-capture leaps and magic rides only.
                    let mg = t.magic.expect("plain tables have magics");
                    let mover = PlainMover::new(t, us.index(), k, mg);
                    let o = occ.to_u64();
                    for sq in pcs.iter() {
                        let a = mover.targets(sq, o);
                        let mut allowed = mask & !our;
                        if pinned.has(sq) {
                            allowed &= pin_segments & B::from_u64(mg.ray(ksq, sq));
                        }
                        sink.targets(sq, a & allowed, MoveKind::Normal, false);
                    }
                    continue;
                }
                let zones = zones_of(k);
                let has_first = t.first_gen_kinds & (1 << k) != 0;
                if let Some(pp) = &t.kinds[us.index()][k].pawn {
                    // Unpinned pawn-pattern pieces, all at once.
                    let free = pcs & !pinned;
                    pcs &= pinned;
                    let empty = !occ & t.board;
                    let emit = |tg: B, delta: i32, kind: MoveKind, sink: &mut S| {
                        emit_shifted(sink, tg, delta, kind, zones)
                    };
                    let (d, src) = pp.push;
                    let single = (free & src).shift(d) & empty;
                    emit(single & mask, d, MoveKind::Normal, sink);
                    if pp.double {
                        let mid = (free & self.unmoved & src).shift(d) & empty;
                        let dbl = (mid & src).shift(d) & empty & mask;
                        emit(dbl, 2 * d, MoveKind::DoubleStep, sink);
                    }
                    for &(cd, csrc) in &pp.caps[..pp.ncaps] {
                        emit(
                            (free & csrc).shift(cd) & their & mask,
                            cd,
                            MoveKind::Normal,
                            sink,
                        );
                    }
                }
                if RANKED {
                    if let Some(rp) = &t.kinds[us.index()][k].ranked {
                        // Unpinned ranked pawns, all at once; pinned ones
                        // below, square by square.
                        let free = pcs & !pinned;
                        pcs &= pinned;
                        let empty = !occ & t.board;
                        let pp = &rp.pattern;
                        let (d, src) = pp.push;
                        let single = (free & src).shift(d) & empty & mask;
                        emit_shifted(sink, single, d, MoveKind::Normal, zones);
                        for &(from, ep) in &rp.doubles[..rp.ndoubles] {
                            let mid = (free & from).shift(d) & empty;
                            let dbl = (mid & src).shift(d) & empty & mask;
                            let kind = if ep {
                                MoveKind::DoubleStep
                            } else {
                                MoveKind::Normal
                            };
                            emit_shifted(sink, dbl, 2 * d, kind, zones);
                        }
                        for &(cd, csrc) in &pp.caps[..pp.ncaps] {
                            let tg = (free & csrc).shift(cd) & their & mask;
                            emit_shifted(sink, tg, cd, MoveKind::Normal, zones);
                        }
                    }
                }
                for sq in pcs.iter() {
                    let (q, c) = self.shape_targets(t, k, us, sq, occ, their);
                    let mut allowed = mask;
                    if pinned.has(sq) {
                        if PLAIN {
                            let mg = t.magic.expect("plain tables have magics");
                            allowed &= pin_segments & B::from_u64(mg.ray(ksq, sq));
                        } else {
                            for &(p, line) in &pins[..npins] {
                                if p == sq {
                                    allowed &= line;
                                }
                            }
                        }
                    }
                    let tg = (q | c) & allowed;
                    emit(sink, sq, tg, MoveKind::Normal, zones);
                    if has_first && (self.unmoved | t.kinds[us.index()][k].rank_first).has(sq) {
                        let (dbl, plain) = self.first_move_targets(t, k, us, sq, occ, their);
                        let dbl = dbl & allowed & !(q | c);
                        let plain = plain & allowed & !(q | c) & !dbl;
                        emit(sink, sq, dbl, MoveKind::DoubleStep, zones);
                        emit(sink, sq, plain, MoveKind::Normal, zones);
                    }
                }
            }
            if self.ep.any() {
                self.gen_en_passant(t, sink, true);
            }
            if let Some(d) = t.drops.as_deref() {
                // A drop only adds a piece: it is legal exactly when it
                // lands on an empty square that blocks the one check, if
                // any (python-chess's `legal_drop_squares_mask`).
                self.gen_drops(t, d, sink, mask & !occ & t.board);
            }
        }

        if PLAIN {
            self.plain_royal_moves(t, sink, ksq, kingkind, checkers.is_empty(), (rl, bl));
            return true;
        }
        // The royal piece: every target must be safe with it lifted.
        let (q, c) = self.shape_targets(t, kingkind, us, ksq, occ, their);
        let occ_wo = occ ^ B::bit(ksq);
        let mut safe = B::EMPTY;
        let o = occ_wo.to_u64();
        'targets: for to in (q | c).iter() {
            let mut m = t.leap_attackers[tc];
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                if (t.hot[tc][k & 15].rev_leap_attacks[to as usize & 127] & self.by_kind[k] & their)
                    .any()
                {
                    continue 'targets;
                }
            }
            if let Some(mg) = t.magic {
                if rl.any() && (B::from_u64(mg.rook(to, o)) & rl).any() {
                    continue;
                }
                if bl.any() && (B::from_u64(mg.bishop(to, o)) & bl).any() {
                    continue;
                }
            }
            for ar in &t.attack_rays[tc] {
                let p = self.pieces_of(ar.kinds, them);
                if p.any() && (t.rays[ar.ray as usize].attacks(to, occ_wo) & p).any() {
                    continue 'targets;
                }
            }
            safe |= B::bit(to);
        }
        emit(sink, ksq, safe, MoveKind::Normal, zones_of(kingkind));
        if checkers.is_empty() {
            let attacked = |s: u8, o: B| self.is_attacked(t, s, o, them);
            self.gen_castling(t, sink, true, true, None, attacked);
        }
        true
    }

    /// The royal piece's moves on plain tables ([`Tables::plain`]): its
    /// leaps and magic rides (a plain royal has no other shape), each
    /// target judged with the royal lifted, and castling when
    /// `not_in_check`. The squares enemy leaps reach are gathered once
    /// (a pawn-pattern kind's by its capture shifts, any other kind's by
    /// its leap table), so that each target and castling square costs a
    /// bit test and two magic lookups; `snipers` are the enemy rook-wise
    /// and bishop-wise riders.
    #[inline(always)]
    fn plain_royal_moves<S: Sink<B>>(
        &self,
        t: &Tables<B>,
        sink: &mut S,
        ksq: u8,
        kingkind: usize,
        not_in_check: bool,
        snipers: (B, B),
    ) {
        let us = self.turn;
        let (ui, tc) = (us.index(), us.flip().index());
        let mg = t.magic.expect("plain tables have magics");
        let our = self.by_color[ui];
        let their = self.by_color[tc];
        let occ = self.occupied();
        let mover = PlainMover::new(t, ui, kingkind & 15, mg);
        let targets = mover.targets(ksq, occ.to_u64()) & !our;
        let (open, other_king) = self.open_castlings(t, ksq, not_in_check);
        if targets.is_empty() && open.is_empty() && !other_king {
            return;
        }
        let mut leaps = B::EMPTY;
        let mut m = t.leap_attackers[tc];
        while m != 0 {
            let k = m.trailing_zeros() as usize & 15;
            m &= m - 1;
            let pcs = self.by_kind[k] & their;
            if pcs.is_empty() {
                continue;
            }
            if t.plain_movers[tc] & (1 << k) != 0 {
                // Plain movers' leaps are all move-or-capture.
                let table = &t.hot[tc][k].leap_any;
                for s in pcs.iter() {
                    leaps |= table[s as usize & 127];
                }
            } else {
                let kt = &t.kinds[tc][k];
                match &kt.pawn {
                    Some(pp) => {
                        for &(cd, csrc) in &pp.caps[..pp.ncaps] {
                            leaps |= (pcs & csrc).shift(cd);
                        }
                    }
                    None => {
                        for s in pcs.iter() {
                            leaps |= kt.leap_attacks[s as usize];
                        }
                    }
                }
            }
        }
        let (rl, bl) = (snipers.0.to_u64(), snipers.1.to_u64());
        let o = (occ ^ B::bit(ksq)).to_u64();
        let mut safe = B::EMPTY;
        for to in (targets & !leaps).iter() {
            if mg.rook(to, o) & rl == 0 && mg.bishop(to, o) & bl == 0 {
                safe |= B::bit(to);
            }
        }
        let zones = if t.promo_kinds & (1 << kingkind) != 0 {
            (t.promo_zone[ui], t.promo_optional[ui])
        } else {
            (B::EMPTY, B::EMPTY)
        };
        emit(sink, ksq, safe, MoveKind::Normal, zones);
        self.plain_castles(t, sink, ksq, open, (targets, safe), leaps, (rl, bl));
        if other_king {
            let attacked = |s: u8, o: B| {
                let o = o.to_u64();
                leaps.has(s) || mg.rook(s, o) & rl != 0 || mg.bishop(s, o) & bl != 0
            };
            self.gen_castling(t, sink, true, true, Some((ksq, targets, safe)), attacked);
        }
    }

    /// The castling moves a plain royal on `ksq` may still make when
    /// `not_in_check`: the rook squares (as a set) of the wings whose path
    /// is empty, when the castling king is this royal (FIDE 3.8.2); and
    /// whether another castling king of the side stands on the back rank
    /// (its castling then goes through `gen_castling`).
    #[inline(always)]
    pub(crate) fn open_castlings(&self, t: &Tables<B>, ksq: u8, not_in_check: bool) -> (B, bool) {
        let ui = self.turn.index();
        let mut open = B::EMPTY;
        let mut other_king = false;
        if let (true, Some((kk, _, _, _))) = (not_in_check, t.castling) {
            let our = self.by_color[ui];
            let rights = self.castling & our & t.back_rank[ui];
            if rights.any() {
                let kings = self.by_kind[kk as usize & 15] & our & t.back_rank[ui];
                if kings == B::bit(ksq) {
                    let paths = &t.castle_paths[ui];
                    let kfile = (t.file(ksq) as usize & 15) * 16;
                    let occ = self.occupied();
                    for r in rights.iter() {
                        let p = &paths[(kfile + (t.file(r) as usize & 15)) & 255];
                        if (p.empty & occ).is_empty() {
                            open |= B::bit(r);
                        }
                    }
                } else {
                    other_king = kings.any() && !kings.more_than_one();
                }
            }
        }
        (open, other_king)
    }

    /// Emits the castlings of the royal on `ksq` (not in check) to the
    /// rook squares `open` ([`Self::open_castlings`]), given its own
    /// targets and the safe ones among them (judged with it lifted), the
    /// squares enemy leaps reach, and the enemy rook-wise and bishop-wise
    /// riders, every enemy ride being a magic ride.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn plain_castles<S: Sink<B>>(
        &self,
        t: &Tables<B>,
        sink: &mut S,
        ksq: u8,
        open: B,
        (targets, safe): (B, B),
        leaps: B,
        (rl, bl): (u64, u64),
    ) {
        if open.is_empty() {
            return;
        }
        let mg = t.magic.expect("plain tables have magics");
        let paths = &t.castle_paths[self.turn.index()];
        let kfile = (t.file(ksq) as usize & 15) * 16;
        let occ = self.occupied();
        // FIDE 3.8.2.2, as `gen_castling` judges it for a king known not
        // to be in check when every enemy ride is a magic ride: the king's
        // own square is not tested again, and path squares among the
        // king's targets keep the verdicts found above.
        for rsq in open.iter() {
            let p = &paths[(kfile + (t.file(rsq) as usize & 15)) & 255];
            let o2 = (occ ^ B::bit(ksq) ^ B::bit(rsq)).to_u64();
            let tested = (p.kpath & !B::bit(ksq)) | B::bit(p.kto);
            let seen = tested & targets & !B::bit(p.kto);
            if (seen & !safe).any() {
                continue;
            }
            let attacked = (tested & !seen)
                .iter()
                .any(|s| leaps.has(s) || mg.rook(s, o2) & rl != 0 || mg.bishop(s, o2) & bl != 0);
            if !attacked {
                sink.single(Move {
                    from: ksq,
                    to: rsq,
                    promotion: None,
                    kind: MoveKind::Castle,
                });
            }
        }
    }

    /// En passant captures; when `legal`, each is verified by playing it.
    pub(crate) fn gen_en_passant<S: Sink<B>>(&self, t: &Tables<B>, sink: &mut S, legal: bool) {
        if self.ep.is_empty() {
            return;
        }
        let us = self.turn;
        let c = us.index();
        let mut mk = t.ep_kinds;
        while mk != 0 {
            let k = mk.trailing_zeros() as usize;
            mk &= mk - 1;
            let mine = self.by_kind[k] & self.by_color[c];
            for to in self.ep.iter() {
                if self.occupied().has(to) {
                    continue;
                }
                let froms = t.kinds[c][k].rev_leap_ep[to as usize] & mine;
                for from in froms.iter() {
                    let promote = t.promo_kinds & (1 << k) != 0 && t.promo_zone[c].has(to);
                    let m = Move {
                        from,
                        to,
                        promotion: None,
                        kind: MoveKind::EnPassant,
                    };
                    if legal && !self.leaves_royals_safe(t, m) {
                        continue;
                    }
                    if promote {
                        sink.targets(from, B::bit(to), MoveKind::EnPassant, true);
                    } else {
                        sink.single(m);
                    }
                }
            }
        }
    }

    /// Castling moves (FIDE 3.8.2, Chess960 placement). When `safe`, the
    /// king may not be in check, pass or land on an attacked square;
    /// `not_in_check` says the caller already knows the king is not in check;
    /// `known` gives the king's square with the targets already judged for
    /// it (lifted) and the safe ones among them; `attacked(square, occ)`
    /// tells whether the enemy attacks a square over `occ`.
    #[inline(always)]
    fn gen_castling<S: Sink<B>, A: Fn(u8, B) -> bool>(
        &self,
        t: &Tables<B>,
        sink: &mut S,
        safe: bool,
        not_in_check: bool,
        known: Option<(u8, B, B)>,
        attacked: A,
    ) {
        let Some((kk, _rk, _kf, _rf)) = t.castling else {
            return;
        };
        let us = self.turn;
        let rights = self.castling & self.by_color[us.index()] & t.back_rank[us.index()];
        if rights.is_empty() {
            return;
        }
        let kings = self.by_kind[kk as usize] & self.by_color[us.index()] & t.back_rank[us.index()];
        if kings.is_empty() || kings.more_than_one() {
            return;
        }
        let ksq = kings.lsb();
        let occ = self.occupied();
        // A king in check may not castle (FIDE Art. 3.8.2.2): test its
        // square once for every wing, then judge the paths as the fast
        // path does for a king known not to be in check.
        let mut not_in_check = not_in_check;
        if safe && !not_in_check {
            if attacked(ksq, occ) {
                return;
            }
            not_in_check = true;
        }
        let paths = &t.castle_paths[us.index()];
        let kfile = (t.file(ksq) as usize & 15) * 16;
        for rsq in rights.iter() {
            let p = &paths[(kfile + (t.file(rsq) as usize & 15)) & 255];
            if (p.empty & occ).any() {
                continue;
            }
            let (kto, kpath) = (p.kto, p.kpath);
            if safe {
                let occ2 = occ ^ B::bit(ksq) ^ B::bit(rsq);
                let them = us.flip();
                // The king's square is tested with the rook lifted too. When
                // the king is known not to be in check and every enemy ride
                // is a magic rook or bishop ride, that test is redundant:
                // lifting the rook only opens its rank beyond it, and an
                // attack along there reaches the king's destination as well
                // (or is blocked by a path square, which must be empty);
                // unless the king stays where it is.
                let skip_king = not_in_check && t.attack_rays[them.index()].is_empty();
                let tested = if skip_king {
                    (kpath & !B::bit(ksq)) | B::bit(kto)
                } else {
                    kpath | B::bit(ksq)
                };
                // By the same argument, path squares other than the
                // destination may be judged with the rook in place: reuse
                // the verdicts on the king's own targets.
                let (tested, bad) = match known {
                    Some((k, seen, ok)) if skip_king && k == ksq => {
                        let seen = tested & seen & !B::bit(kto);
                        (tested & !seen, (seen & !ok).any())
                    }
                    _ => (tested, false),
                };
                if bad || tested.iter().any(|s| attacked(s, occ2)) {
                    continue;
                }
            }
            sink.single(Move {
                from: ksq,
                to: rsq,
                promotion: None,
                kind: MoveKind::Castle,
            });
        }
    }

    /// Pseudo-legal moves of the pieces `pcs` of kind `k` of the side to
    /// move by their compiled shapes (first-move shapes included), with
    /// promotion `zones` (compulsory, optional).
    #[inline(always)]
    fn gen_shapes<S: Sink<B>>(&self, t: &Tables<B>, sink: &mut S, k: usize, pcs: B, zones: (B, B)) {
        let us = self.turn;
        let occ = self.occupied();
        let their = self.by_color[us.flip().index()];
        let has_first = t.first_gen_kinds & (1 << k) != 0;
        for sq in pcs.iter() {
            let (q, c) = self.shape_targets(t, k, us, sq, occ, their);
            let tg = q | c;
            emit(sink, sq, tg, MoveKind::Normal, zones);
            if has_first && (self.unmoved | t.kinds[us.index()][k].rank_first).has(sq) {
                let (dbl, plain) = self.first_move_targets(t, k, us, sq, occ, their);
                emit(sink, sq, dbl & !tg, MoveKind::DoubleStep, zones);
                emit(sink, sq, plain & !tg & !dbl, MoveKind::Normal, zones);
            }
        }
    }

    /// Pseudo-legal moves (no king-safety filter), castling judged with
    /// attacks when `castle_safe`.
    pub(crate) fn gen_pseudo<S: Sink<B>>(&self, t: &Tables<B>, sink: &mut S, castle_safe: bool) {
        let them = self.turn.flip();
        if t.ranked_pawns {
            return self.gen_pseudo_ranked(t, sink, castle_safe);
        }
        self.gen_pseudo_with(t, sink, castle_safe, |s: u8, o: B| {
            self.is_attacked(t, s, o, them)
        });
    }

    /// [`Self::gen_pseudo`] for tables with ranked pawn patterns
    /// ([`RankedPawn`](crate::tables::RankedPawn), horde's pawns): those
    /// set-wise by shifts (push, each ranked double step, captures), every
    /// other kind by its shapes. The same moves as the per-square shapes
    /// (kept out of the shared generators, which have no branch for them;
    /// docs/performance.md).
    #[inline(never)]
    fn gen_pseudo_ranked<S: Sink<B>>(&self, t: &Tables<B>, sink: &mut S, castle_safe: bool) {
        let us = self.turn;
        let ui = us.index();
        let occ = self.occupied();
        let our = self.by_color[ui];
        let their = self.by_color[us.flip().index()];
        let empty = !occ & t.board;
        for k in 0..t.n_kinds {
            let pcs = self.by_kind[k] & our;
            if pcs.is_empty() {
                continue;
            }
            let zones = if t.promo_kinds & (1 << k) != 0 {
                (t.promo_zone[ui], t.promo_optional[ui])
            } else {
                (B::EMPTY, B::EMPTY)
            };
            let Some(rp) = &t.kinds[ui][k].ranked else {
                self.gen_shapes(t, sink, k, pcs, zones);
                continue;
            };
            let pp = &rp.pattern;
            let (d, src) = pp.push;
            let single = (pcs & src).shift(d) & empty;
            emit_shifted(sink, single, d, MoveKind::Normal, zones);
            for &(from, ep) in &rp.doubles[..rp.ndoubles] {
                let mid = (pcs & from).shift(d) & empty;
                let dbl = (mid & src).shift(d) & empty;
                let kind = if ep {
                    MoveKind::DoubleStep
                } else {
                    MoveKind::Normal
                };
                emit_shifted(sink, dbl, 2 * d, kind, zones);
            }
            for &(cd, csrc) in &pp.caps[..pp.ncaps] {
                emit_shifted(
                    sink,
                    (pcs & csrc).shift(cd) & their,
                    cd,
                    MoveKind::Normal,
                    zones,
                );
            }
        }
        self.gen_en_passant(t, sink, false);
        let them = us.flip();
        self.gen_castling(t, sink, castle_safe, false, None, |s: u8, o: B| {
            self.is_attacked(t, s, o, them)
        });
        if let Some(d) = t.drops.as_deref() {
            self.gen_drops(t, d, sink, empty);
        }
    }

    /// [`Self::gen_pseudo`] with castling judged by `attacked(square, occ)`
    /// (the enemy attacks `square` over `occ`): rule hooks pass their own
    /// attack test, so castling through a square sees exactly the attacks
    /// the rules give (RULINGS P1), no more and no fewer.
    pub(crate) fn gen_pseudo_with<S: Sink<B>, A: Fn(u8, B) -> bool>(
        &self,
        t: &Tables<B>,
        sink: &mut S,
        castle_safe: bool,
        attacked: A,
    ) {
        let us = self.turn;
        let our = self.by_color[us.index()];
        for k in 0..t.n_kinds {
            let pcs = self.by_kind[k] & our;
            let zones = if t.promo_kinds & (1 << k) != 0 {
                (t.promo_zone[us.index()], t.promo_optional[us.index()])
            } else {
                (B::EMPTY, B::EMPTY)
            };
            self.gen_shapes(t, sink, k, pcs, zones);
        }
        self.gen_en_passant(t, sink, false);
        self.gen_castling(t, sink, castle_safe, false, None, attacked);
        if let Some(d) = t.drops.as_deref() {
            self.gen_drops(t, d, sink, !self.occupied() & t.board);
        }
    }

    /// [`Self::gen_pseudo`] on plain tables ([`Tables::plain`]) where
    /// possible: pawn-pattern pieces set-wise by shifts, plain movers by
    /// one leap lookup and magic rides (as the fast path does, without
    /// pins or check masks). The same moves; other tables fall back to
    /// [`Self::gen_pseudo`].
    pub(crate) fn gen_pseudo_fast<S: Sink<B>>(
        &self,
        t: &Tables<B>,
        sink: &mut S,
        castle_safe: bool,
    ) {
        let Some(mg) = t.magic.filter(|_| t.plain) else {
            return self.gen_pseudo(t, sink, castle_safe);
        };
        let us = self.turn;
        let ui = us.index();
        let occ = self.occupied();
        let o = occ.to_u64();
        let our = self.by_color[ui];
        let their = self.by_color[us.flip().index()];
        let empty = !occ & t.board;
        for k in 0..t.n_kinds {
            let mut pcs = self.by_kind[k] & our;
            if pcs.is_empty() {
                continue;
            }
            if t.plain_movers[ui] & (1 << k) != 0 {
                let mover = PlainMover::new(t, ui, k, mg);
                for sq in pcs.iter() {
                    let a = mover.targets(sq, o);
                    sink.targets(sq, a & !our, MoveKind::Normal, false);
                }
                continue;
            }
            let zones = if t.promo_kinds & (1 << k) != 0 {
                (t.promo_zone[ui], t.promo_optional[ui])
            } else {
                (B::EMPTY, B::EMPTY)
            };
            if let Some(pp) = &t.kinds[ui][k].pawn {
                let free = pcs;
                pcs = B::EMPTY;
                let (d, src) = pp.push;
                let single = (free & src).shift(d) & empty;
                emit_shifted(sink, single, d, MoveKind::Normal, zones);
                if pp.double {
                    let mid = (free & self.unmoved & src).shift(d) & empty;
                    let dbl = (mid & src).shift(d) & empty;
                    emit_shifted(sink, dbl, 2 * d, MoveKind::DoubleStep, zones);
                }
                for &(cd, csrc) in &pp.caps[..pp.ncaps] {
                    emit_shifted(
                        sink,
                        (free & csrc).shift(cd) & their,
                        cd,
                        MoveKind::Normal,
                        zones,
                    );
                }
            }
            self.gen_shapes(t, sink, k, pcs, zones);
        }
        self.gen_en_passant(t, sink, false);
        if let Some(d) = t.drops.as_deref() {
            self.gen_drops(t, d, sink, empty);
        }
        if (self.castling & our).is_empty() {
            return;
        }
        // Plain tables: every enemy ride is a magic rook or bishop ride, so
        // the castling squares are judged with the riders gathered once
        // rather than by `is_attacked`'s per-square kind loops.
        let them = us.flip();
        let tc = them.index();
        let (rl, bl) = (
            self.pieces_of(t.rook_like[tc], them).to_u64(),
            self.pieces_of(t.bishop_like[tc], them).to_u64(),
        );
        let attacked = |s: u8, o: B| {
            let th = their & o;
            if self.leap_attacked(t, s, th, tc) {
                return true;
            }
            let (o, th) = (o.to_u64(), th.to_u64());
            mg.rook(s, o) & rl & th != 0 || mg.bishop(s, o) & bl & th != 0
        };
        self.gen_castling(t, sink, castle_safe, false, None, attacked);
    }

    /// Drops of the side to move onto `allowed` (empty squares, already
    /// cut to the check's blocking squares by the legal generator), each
    /// kind in hand on its drop zone, without doubled files where the rules
    /// forbid them and without mating drops where those are illegal.
    #[inline(never)]
    pub(crate) fn gen_drops<S: Sink<B>>(
        &self,
        t: &Tables<B>,
        d: &DropTables<B>,
        sink: &mut S,
        allowed: B,
    ) {
        let us = self.turn.index();
        let mut m = d.hand;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.pockets[us][k % MAX_KINDS] == 0 {
                continue;
            }
            let mut tg = allowed & d.zone[us][k % MAX_KINDS];
            if d.no_doubled & (1 << k) != 0 {
                for s in (self.by_kind[k % MAX_KINDS] & self.by_color[us]).iter() {
                    tg &= !d.file[t.file(s) as usize & 15];
                }
            }
            if d.no_mate & (1 << k) != 0 && !IN_MATE_TEST.with(|c| c.get()) {
                tg = self.without_drop_mates(t, k, tg);
            }
            if tg.any() {
                sink.drops(k as u8, tg);
            }
        }
    }

    /// `targets` without the squares where a drop of `kind` would give
    /// checkmate (a drop that may not mate, shogi's pawn). The defender's
    /// replies are counted with every drop allowed, so the test does not
    /// recurse.
    #[cold]
    fn without_drop_mates(&self, t: &Tables<B>, kind: usize, targets: B) -> B {
        let mut keep = targets;
        IN_MATE_TEST.with(|c| c.set(true));
        for to in targets.iter() {
            let mut after = *self;
            let m = Move::drop(PieceKind(kind as u8), to);
            match &t.hooks {
                Some(h) => after.play_with_hooks(t, h.as_ref(), m),
                None => after.play_unchecked(t, m),
            }
            if after.in_check_hooked(t) && after.count_legal(t) == 0 {
                keep &= !B::bit(to);
            }
        }
        IN_MATE_TEST.with(|c| c.set(false));
        keep
    }

    /// Promotion choices open to the side to move (limits applied).
    #[inline(always)]
    pub(crate) fn promotion_choices(&self, t: &Tables<B>) -> Choices {
        let mut c = Choices {
            kinds: [0; MAX_KINDS],
            n: 0,
        };
        if t.promo_limits.is_none() {
            c.n = t.promo_choices.len().min(MAX_KINDS);
            c.kinds[..c.n].copy_from_slice(&t.promo_choices[..c.n]);
            return c;
        }
        let ours = self.by_color[self.turn.index()];
        for &k in &t.promo_choices {
            if let Some(l) = &t.promo_limits {
                if (self.by_kind[k as usize] & ours).count() >= l[k as usize] as u32 {
                    continue;
                }
            }
            if c.n < MAX_KINDS {
                c.kinds[c.n] = k;
                c.n += 1;
            }
        }
        c
    }

    /// Whether playing `m` leaves every royal piece of the mover unattacked.
    pub(crate) fn leaves_royals_safe(&self, t: &Tables<B>, m: Move) -> bool {
        let mut after = *self;
        after.play_unchecked(t, m);
        let us = self.turn;
        let occ = after.occupied();
        after
            .royals(t, us)
            .iter()
            .all(|s| !after.is_attacked(t, s, occ, us.flip()))
    }

    /// The pieces of the side to move whose moves may leave one of its
    /// royals attacked, when that can be told without playing the moves:
    /// no royal is attacked and every enemy attack is a leap or a magic
    /// rook or bishop ride, so a move exposes a royal only when the royal
    /// itself moves or the mover is the only piece between a royal and an
    /// enemy magic rider (a pin). Returns the royals and those pinned
    /// pieces, or `None` when every move must be played to be judged.
    /// Castling and en passant are always played (the rook or the victim
    /// leaves a square too), and so are promotions to a royal kind (the new
    /// royal must be safe too).
    pub(crate) fn exposed_movers(&self, t: &Tables<B>) -> Option<B> {
        self.exposed_movers_of(t, self.royals(t, self.turn))
    }

    /// The pieces of the side to move whose moves may leave one of the
    /// royals `royals` attacked, when that can be told without playing the
    /// moves (rule layers with their own royal set): the royals and the
    /// pieces pinned to them. `None` when a royal is already attacked or
    /// some enemy attack is neither a leap nor a magic rook or bishop ride:
    /// then every move must be played to be judged.
    pub fn exposed_movers_of(&self, t: &Tables<B>, royals: B) -> Option<B> {
        let us = self.turn;
        let them = us.flip();
        let tc = them.index();
        if royals.is_empty() {
            return Some(B::EMPTY);
        }
        if !t.attack_rays[tc].is_empty() {
            return None;
        }
        let occ = self.occupied();
        if royals.iter().any(|r| self.is_attacked(t, r, occ, them)) {
            return None;
        }
        let mut exposed = royals;
        if let Some(mg) = t.magic {
            let o = occ.to_u64();
            let th = self.by_color[tc].to_u64();
            let ours = self.by_color[us.index()].to_u64();
            let rl = self.pieces_of(t.rook_like[tc], them).to_u64();
            let bl = self.pieces_of(t.bishop_like[tc], them).to_u64();
            for r in royals.iter() {
                for (rookwise, snipers) in [(true, rl), (false, bl)] {
                    if snipers == 0 {
                        continue;
                    }
                    let mut xray = if rookwise {
                        mg.rook(r, th)
                    } else {
                        mg.bishop(r, th)
                    } & snipers;
                    while xray != 0 {
                        let s = xray.trailing_zeros() as u8;
                        xray &= xray - 1;
                        let on = mg.between(r, s) & o;
                        if on.count_ones() == 1 && on & ours != 0 {
                            exposed |= B::from_u64(on);
                        }
                    }
                }
            }
        }
        Some(exposed)
    }

    /// Whether lifting the piece on `from` may open a line along which
    /// `by` attacks `target` (a discovered attack). Exact when every attack
    /// of `by` is a leap or a magic rook or bishop ride; `true` (cannot
    /// tell) otherwise. Rule layers use it to judge a move without playing
    /// it.
    pub fn may_uncover(&self, t: &Tables<B>, target: Square, from: Square, by: Color) -> bool {
        let c = by.index();
        if !t.attack_rays[c].is_empty() {
            return true;
        }
        let Some(mg) = t.magic else {
            return false;
        };
        let line = mg.ray(target, from);
        if line == 0 {
            return false;
        }
        let o = (self.occupied() & !B::bit(from)).to_u64();
        let (att, snipers) = if t.file(target) == t.file(from) || t.rank(target) == t.rank(from) {
            (mg.rook(target, o), self.pieces_of(t.rook_like[c], by))
        } else {
            (mg.bishop(target, o), self.pieces_of(t.bishop_like[c], by))
        };
        att & line & snipers.to_u64() != 0
    }

    /// Legal moves by the engine's rules (royals of the compiled royal
    /// kinds), appended to `out`: the fast generator, or pseudo-legal
    /// moves of which only those that may expose a royal are played.
    #[inline(always)]
    fn engine_legal_into(&self, t: &Tables<B>, out: &mut Vec<Move>) {
        let choices = self.promotion_choices(t);
        let mut sink = Collect { out, choices };
        if self.gen_fast(t, &mut sink) {
            return;
        }
        let start = out.len();
        let mut ps = Collect { out, choices };
        self.gen_pseudo(t, &mut ps, true);
        let exposed = self.exposed_movers(t);
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            let plain = matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
                && m.promotion
                    .is_none_or(|k| t.royal_kinds & (1u32 << (k.0 as u32 & 31)) == 0);
            let known = plain && exposed.is_some_and(|e| !e.has(m.from));
            if known || self.leaves_royals_safe(t, m) {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
    }

    /// Legal moves by the engine's own rules, hooks ignored (royals of the
    /// compiled royal kinds, castling with the engine's attack tests),
    /// appended to `out`: for hooks that list their legal moves
    /// themselves ([`HookProfile::own_moves`](crate::hooks::HookProfile::own_moves))
    /// from the engine's and filter them.
    pub fn engine_legal_moves_into(&self, t: &Tables<B>, out: &mut Vec<Move>) {
        self.engine_legal_into(t, out);
    }

    /// Pseudo-legal moves of the side to move by the compiled shapes, hooks
    /// ignored, appended to `out`; castling with the engine's attack tests
    /// when `judge_castling`, else with its rights and empty paths only
    /// (for hooks that judge castling themselves). The moves of
    /// [`Self::move_target_sets`] (`legal` false) one by one.
    pub fn pseudo_legal_moves_into(
        &self,
        t: &Tables<B>,
        judge_castling: bool,
        out: &mut Vec<Move>,
    ) {
        let mut sink = Collect {
            out,
            choices: self.promotion_choices(t),
        };
        self.gen_pseudo_fast(t, &mut sink, judge_castling);
    }

    /// All legal moves (through the hooks when the tables carry some),
    /// appended to `out`.
    pub fn legal_moves_into(&self, t: &Tables<B>, out: &mut Vec<Move>) {
        if t.stops && self.play_stopped(t) {
            return;
        }
        if t.hooks.is_some() {
            return self.legal_moves_with_hooks(t, out);
        }
        self.engine_legal_into(t, out);
    }

    /// [`Self::legal_moves_into`] with hooks installed: the path their
    /// profile allows (kept out of line so that the hookless path's code
    /// stays as it was).
    #[inline(never)]
    fn legal_moves_with_hooks(&self, t: &Tables<B>, out: &mut Vec<Move>) {
        let Some(h) = &t.hooks else {
            return self.engine_legal_into(t, out);
        };
        if t.hook_profile.own_moves {
            return h.own_legal_moves(t, self, out);
        }
        if !t.hook_fast {
            return self.legal_moves_hooked(t, h.as_ref(), out);
        }
        // The hooks' profile lets the engine generate (see HookProfile).
        let p = &t.hook_profile;
        if p.game_over && h.game_over(t, self) {
            return;
        }
        let start = out.len();
        if p.royalty == Royalty::None {
            let mut sink = Collect {
                out,
                choices: self.promotion_choices(t),
            };
            self.gen_pseudo_fast(t, &mut sink, false);
        } else {
            self.engine_legal_into(t, out);
        }
        if p.list_rule == ListRule::CompulsoryCapture {
            let their = self.by_color[self.turn.flip().index()];
            let capture = |m: &Move| {
                m.kind == MoveKind::EnPassant || (m.kind != MoveKind::Castle && their.has(m.to))
            };
            if out[start..].iter().any(capture) {
                let mut w = start;
                for i in start..out.len() {
                    if capture(&out[i]) {
                        out[w] = out[i];
                        w += 1;
                    }
                }
                out.truncate(w);
            }
        }
    }

    /// Number of legal moves (bulk counting). Allocates nothing.
    pub fn count_legal(&self, t: &Tables<B>) -> u64 {
        if t.orthodox && t.hooks.is_none() {
            if let Some(n) = self.count_orthodox(t) {
                return n;
            }
        }
        let promo = if t.promo_limits.is_none() {
            t.promo_choices.len()
        } else {
            self.promotion_choices(t).n
        };
        if t.stops && self.play_stopped(t) {
            return 0;
        }
        let mut c = Counter {
            n: 0,
            promo: promo as u64,
        };
        if t.hooks.is_none() && self.gen_fast(t, &mut c) {
            c.n
        } else {
            self.count_legal_other(t, promo as u64)
        }
    }

    /// [`Self::count_legal`] off the hookless fast path (kept out of line
    /// so that the fast path's code stays as it was).
    #[inline(never)]
    fn count_legal_other(&self, t: &Tables<B>, promo: u64) -> u64 {
        let Some(h) = &t.hooks else {
            let mut tally = Tally::new(self, t, promo);
            self.tally_pseudo(t, &mut tally);
            return tally.n;
        };
        if t.hook_profile.own_moves {
            return h.own_legal_count(t, self);
        }
        if !t.hook_fast {
            // The general path lists the moves, into a reused buffer.
            thread_local! {
                static SCRATCH: std::cell::Cell<Vec<Move>> = const { std::cell::Cell::new(Vec::new()) };
            }
            let mut v = SCRATCH.with(|c| c.take());
            v.clear();
            self.legal_moves_hooked(t, h.as_ref(), &mut v);
            let n = v.len() as u64;
            SCRATCH.with(|c| c.set(v));
            return n;
        }
        let p = &t.hook_profile;
        if p.game_over && h.game_over(t, self) {
            return 0;
        }
        let mut tally = Tally::new(self, t, promo);
        if p.royalty == Royalty::None {
            self.gen_pseudo_fast(t, &mut tally, false);
        } else if !self.gen_fast(t, &mut tally) {
            self.tally_pseudo(t, &mut tally);
        }
        if p.list_rule == ListRule::CompulsoryCapture && tally.captures > 0 {
            tally.captures
        } else {
            tally.n
        }
    }

    /// Counts the engine-legal moves from the pseudo-legal ones, playing
    /// only those that may expose a royal ([`Self::exposed_movers`]).
    fn tally_pseudo(&self, t: &Tables<B>, tally: &mut Tally<'_, B>) {
        tally.test = self.exposed_movers(t).unwrap_or(t.board);
        tally.test_singles = true;
        self.gen_pseudo(t, tally, true);
    }
}

/// Passes each generated batch on as `(from, targets, kind, promote)`.
struct ByPiece<F>(F);

impl<B: BitSet, F: FnMut(u8, B, MoveKind, bool)> Sink<B> for ByPiece<F> {
    #[inline(always)]
    fn targets(&mut self, from: u8, targets: B, kind: MoveKind, promote: bool) {
        if targets.any() {
            (self.0)(from, targets, kind, promote);
        }
    }
    #[inline(always)]
    fn shifted(&mut self, targets: B, delta: i32, kind: MoveKind, promote: bool) {
        for to in targets.iter() {
            (self.0)((to as i32 - delta) as u8, B::bit(to), kind, promote);
        }
    }
    #[inline(always)]
    fn single(&mut self, m: Move) {
        // Single moves (castling, en passant) never carry a promotion.
        (self.0)(m.from, B::bit(m.to), m.kind, false);
    }
}

/// One batch of moves of [`Position::move_target_sets`]: moves of one kind
/// to each square of `targets`, from `from` when `delta` is 0, else each
/// from `to - delta` (pawn-pattern pieces moved set-wise; `from` is then
/// 0). With `promote`, one move per choice of
/// [`Position::for_each_promotion`] for each target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetBatch<B> {
    /// The origin square of a batch of one piece (`delta` = 0).
    pub from: u8,
    /// The destination squares.
    pub targets: B,
    /// 0, or the square difference `to - from` of every move of the batch.
    pub delta: i8,
    /// The kind of every move of the batch.
    pub kind: MoveKind,
    /// Whether each target stands for one move per promotion choice.
    pub promote: bool,
}

/// Hands the batches over whole ([`Position::move_target_sets`]).
struct BySet<F>(F);

impl<B: BitSet, F: FnMut(TargetBatch<B>)> Sink<B> for BySet<F> {
    #[inline(always)]
    fn targets(&mut self, from: u8, targets: B, kind: MoveKind, promote: bool) {
        if targets.any() {
            (self.0)(TargetBatch {
                from,
                targets,
                delta: 0,
                kind,
                promote,
            });
        }
    }
    #[inline(always)]
    fn shifted(&mut self, targets: B, delta: i32, kind: MoveKind, promote: bool) {
        if targets.any() {
            // Pawn-pattern steps on boards of at most 16 files.
            (self.0)(TargetBatch {
                from: 0,
                targets,
                delta: delta as i8,
                kind,
                promote,
            });
        }
    }
    #[inline(always)]
    fn single(&mut self, m: Move) {
        (self.0)(TargetBatch {
            from: m.from,
            targets: B::bit(m.to),
            delta: 0,
            kind: m.kind,
            promote: false,
        });
    }
}

impl<B: BitSet> Position<B> {
    /// The moves of the side to move as target sets, for rule layers that
    /// filter whole sets before listing moves (the modifier runtime):
    /// `f(from, targets, kind, promote)` for each batch, where `promote`
    /// asks for one move per choice of [`Self::for_each_promotion`]. Listing
    /// the batches in order gives the moves in the order of
    /// [`Self::legal_moves_into`] (`legal`) or of
    /// [`Self::pseudo_legal_moves_hooked`] without hooks. One origin may
    /// have several batches. Returns `false`, without calling `f`, when
    /// `legal` is asked but the tables carry hooks or the position is not
    /// on the fast path (not exactly one royal); pseudo-legal batches are
    /// always given (hooks ignored, castling judged with attacks).
    pub fn move_targets<F: FnMut(u8, B, MoveKind, bool)>(
        &self,
        t: &Tables<B>,
        legal: bool,
        f: F,
    ) -> bool {
        self.gen_batches(t, legal, true, &mut ByPiece(f))
    }

    /// The generator behind [`Self::move_targets`] and
    /// [`Self::move_target_sets`].
    #[inline(always)]
    fn gen_batches<S: Sink<B>>(
        &self,
        t: &Tables<B>,
        legal: bool,
        judge_castling: bool,
        sink: &mut S,
    ) -> bool {
        if legal {
            t.hooks.is_none() && self.gen_fast(t, sink)
        } else {
            self.gen_pseudo_fast(t, sink, judge_castling);
            true
        }
    }

    /// The moves of the side to move as [`TargetBatch`]es, for rule layers
    /// that filter whole sets before listing moves (the modifier runtime):
    /// [`Self::move_targets`], except that the moves of pawn-pattern pieces
    /// come set-wise (one batch per direction, `delta` ≠ 0) rather than one
    /// batch per move, and that with `judge_castling` false pseudo-legal
    /// castling is checked for rights and empty paths only: a caller that
    /// drops most moves judges the castling moves it keeps with
    /// [`Self::castling_is_safe`], and skips the attack tests of the others.
    /// Listing the batches in order gives the moves in the same order as
    /// [`Self::move_targets`]. Returns `false` as that does.
    pub fn move_target_sets<F: FnMut(TargetBatch<B>)>(
        &self,
        t: &Tables<B>,
        legal: bool,
        judge_castling: bool,
        f: F,
    ) -> bool {
        self.gen_batches(t, legal, judge_castling, &mut BySet(f))
    }

    /// The engine-legal moves of the side to move as [`TargetBatch`]es
    /// ([`Self::move_target_sets`] with `legal`), hooks ignored: for hooks
    /// that count their legal moves themselves
    /// ([`HookProfile::own_moves`](crate::hooks::HookProfile::own_moves)).
    /// Returns `false`, without calling `f`, when the position is not on
    /// the engine's fast path (not exactly one royal).
    pub fn engine_legal_target_sets<F: FnMut(TargetBatch<B>)>(&self, t: &Tables<B>, f: F) -> bool {
        self.gen_fast(t, &mut BySet(f))
    }

    /// Whether the castling move `m` (king takes rook, as the move lists
    /// give it; rights and empty paths already checked) passes the attack
    /// tests of FIDE Art. 3.8.2.2: the king is not in check and neither
    /// crosses nor lands on a square the enemy attacks (judged with king
    /// and rook lifted, so that a rook's own square or a Chess960 king
    /// that stays in place is judged correctly). Plain attacks, no hooks.
    pub fn castling_is_safe(&self, t: &Tables<B>, m: Move) -> bool {
        let us = self.turn;
        let them = us.flip();
        let occ = self.occupied();
        if self.is_attacked(t, m.from, occ, them) {
            return false;
        }
        let kfile = (t.file(m.from) as usize & 15) * 16;
        let p = &t.castle_paths[us.index()][(kfile + (t.file(m.to) as usize & 15)) & 255];
        let occ2 = occ ^ B::bit(m.from) ^ B::bit(m.to);
        !(p.kpath | B::bit(m.from))
            .iter()
            .any(|s| self.is_attacked(t, s, occ2, them))
    }

    /// Calls `f` with each promotion choice open to the side to move (limits
    /// applied), in the order moves list them.
    pub fn for_each_promotion(&self, t: &Tables<B>, mut f: impl FnMut(PieceKind)) {
        let c = self.promotion_choices(t);
        for &k in c.as_slice() {
            f(PieceKind(k));
        }
    }
}
