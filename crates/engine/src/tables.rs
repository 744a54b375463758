//! Compiled move-generation tables for one game definition.
//!
//! Compiling a [`GameDefinition`] turns every movement shape into
//! per-square bitboards (leaps) and ray tables (rides), and every attack into
//! a reverse table, so that move generation never interprets a shape, looks
//! up a string or allocates.

use crate::bitboard::BitSet;
use crate::definition::{Edge, EnPassantRole, GameDefinition, Reach, ShapeMode, Vector};
use crate::types::Color;

/// Most piece types a definition may have.
pub const MAX_KINDS: usize = 16;

/// A bitboard per square, for up to 128 squares. Indexing masks the
/// square to 7 bits, so lookups need no bounds check (squares are always
/// below 128 by construction).
#[derive(Clone, Debug)]
pub(crate) struct SqMap<B>(Box<[B; 128]>);

impl<B: BitSet> SqMap<B> {
    pub(crate) fn new() -> Self {
        SqMap(Box::new([B::EMPTY; 128]))
    }
}

impl<B> std::ops::Index<usize> for SqMap<B> {
    type Output = B;
    #[inline(always)]
    fn index(&self, i: usize) -> &B {
        &self.0[i & 127]
    }
}

impl<B> std::ops::IndexMut<usize> for SqMap<B> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut B {
        &mut self.0[i & 127]
    }
}

/// One ray: a direction, with the squares it reaches from every square.
#[derive(Clone, Debug)]
pub(crate) struct Ray<B> {
    /// Squares along the ray to the edge, per origin square.
    pub full: SqMap<B>,
    /// Squares along the ray within `max` steps.
    pub lim: SqMap<B>,
    /// Squares closer than `min` steps (never destinations).
    pub near: SqMap<B>,
    /// Whether square indices grow along the ray (first blocker is the lsb).
    pub positive: bool,
    pub vector: Vector,
    pub min: u8,
    pub max: u8,
}

impl<B: BitSet> Ray<B> {
    /// The squares this ray reaches from `sq` over `occ`, up to and
    /// including the first occupied square.
    #[inline(always)]
    pub fn attacks(&self, sq: u8, occ: B) -> B {
        let s = sq as usize;
        let blockers = self.full[s] & occ;
        let reach = if blockers.is_empty() {
            self.lim[s]
        } else {
            let b = if self.positive {
                blockers.lsb()
            } else {
                blockers.msb()
            };
            self.lim[s] & !self.full[b as usize]
        };
        reach & !self.near[s]
    }

    /// The squares strictly between `a` and `b` along this ray (`b` on it).
    #[inline(always)]
    pub fn between(&self, a: u8, b: u8) -> B {
        self.full[a as usize] & !self.full[b as usize] & !B::bit(b)
    }
}

/// A ride along precomputed square sequences, for rides that leave the
/// straight line inside the board (wrapped, warped or bounced: [`Edge`]).
/// Move generation walks the sequence to the first occupied square; attack
/// detection uses the reverse index built from the same sequences, so
/// moves and attacks can never disagree (RULINGS P1).
#[derive(Clone, Debug)]
pub(crate) struct PathRay<B> {
    /// The squares of every origin's path, in order, cut at `max` steps.
    seq: Vec<u8>,
    /// Per origin square: offset into `seq` and length.
    span: Vec<(u32, u8)>,
    /// The fewest steps (closer squares must be empty, but are no
    /// destinations).
    min: u8,
    /// Per target square: `(origin, squares that must be empty)` for every
    /// path that reaches it (first visit only).
    att: Vec<Vec<(u8, B)>>,
    /// Per target square: the origins of `att` (a quick pre-test).
    att_from: SqMap<B>,
    /// What the table was built from (tables are shared between shapes).
    key: (Vector, u8, u8, Edge),
}

impl<B: BitSet> PathRay<B> {
    /// The squares the path from `sq` reaches over `occ`, up to and
    /// including the first occupied square (as [`Ray::attacks`]).
    #[inline]
    pub fn attacks(&self, sq: u8, occ: B) -> B {
        let (start, len) = self.span[sq as usize];
        let path = &self.seq[start as usize..start as usize + len as usize];
        let mut out = B::EMPTY;
        for (i, &s) in path.iter().enumerate() {
            if i + 1 >= self.min as usize {
                out |= B::bit(s);
            }
            if occ.has(s) {
                break;
            }
        }
        out
    }

    /// The pieces of `from` that reach `sq` along this path over `occ`.
    #[inline]
    pub fn attackers(&self, sq: u8, occ: B, from: B) -> B {
        let cand = self.att_from[sq as usize] & from;
        if cand.is_empty() {
            return B::EMPTY;
        }
        let mut out = B::EMPTY;
        for &(o, between) in &self.att[sq as usize] {
            if cand.has(o) && (between & occ).is_empty() {
                out |= B::bit(o);
            }
        }
        out
    }
}

/// The squares a ride along `v` visits from `(f, r)` under `edge`, at most
/// `max` of them (see [`Edge`] for the rules).
fn edge_path(w: i32, h: i32, f: i32, r: i32, v: Vector, edge: Edge, max: u8) -> Vec<u8> {
    let on = |x: i32, y: i32| x >= 0 && y >= 0 && x < w && y < h;
    let (mut x, mut y) = (f, r);
    let (mut dx, mut dy) = (v.0 as i32, v.1 as i32);
    let mut out: Vec<u8> = Vec::new();
    let mut warped = false;
    let mut bounces = 0u8;
    // Every rule below ends a ray within a few laps; the cap only guards
    // against a vector that would cycle without returning to its origin.
    let cap = (4 * w * h).min(255) as usize;
    while out.len() < max as usize && out.len() < cap {
        let (mut nx, mut ny) = (x + dx, y + dy);
        if !on(nx, ny) {
            let (off_x, off_y) = (nx < 0 || nx >= w, ny < 0 || ny >= h);
            match edge {
                Edge::Stop => break,
                Edge::WrapFiles => {
                    if off_y {
                        break;
                    }
                    nx = nx.rem_euclid(w);
                }
                Edge::Warp => {
                    if out.is_empty() || warped {
                        break;
                    }
                    warped = true;
                    nx = nx.rem_euclid(w);
                    ny = ny.rem_euclid(h);
                }
                Edge::Bounce { ends, max: most } => {
                    let need = u8::from(off_x) + u8::from(off_y);
                    if out.is_empty() || (off_y && !ends) || bounces + need > most {
                        break;
                    }
                    bounces += need;
                    if off_x {
                        dx = -dx;
                    }
                    if off_y {
                        dy = -dy;
                    }
                    (nx, ny) = (x + dx, y + dy);
                    if !on(nx, ny) {
                        break;
                    }
                }
            }
        }
        if (nx, ny) == (f, r) {
            break;
        }
        out.push((ny * w + nx) as u8);
        (x, y) = (nx, ny);
    }
    out
}

/// The edge behaviour that matters for `v`: rides that can never meet the
/// edges an `edge` acts on stay straight (and fast).
fn effective_edge(v: Vector, edge: Edge) -> Edge {
    match edge {
        Edge::WrapFiles | Edge::Bounce { ends: false, .. } if v.0 == 0 => Edge::Stop,
        e => e,
    }
}

/// A ride of one piece type: a ray (or, when `path`, a [`PathRay`]) and
/// what it may do.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ride {
    pub ray: u16,
    pub mode: ShapeMode,
    /// `ray` indexes [`Tables::paths`] rather than [`Tables::rays`].
    pub path: bool,
}

/// A shape usable only by unmoved pieces (the pawn's double step).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FirstMove<B> {
    /// A ray index when the shape rides, else `None` with `leap` targets.
    pub ray: Option<u16>,
    /// `ray` indexes [`Tables::paths`].
    pub path: bool,
    pub leap: usize,
    pub mode: ShapeMode,
    pub creates_ep: bool,
    /// Squares the shape may start from (its `from_ranks`; every square
    /// when it has none).
    pub from: B,
    /// Whether the piece must also be unmoved (`first_move_only`); a
    /// shape limited only by ranks is used from `from` however the piece
    /// got there.
    pub needs_unmoved: bool,
}

/// Attackers along one ray: pieces of `kinds` standing on the ray from a
/// target square attack it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttackRay {
    pub ray: u16,
    pub kinds: u32,
    /// `ray` indexes [`Tables::paths`]: a forward path whose reverse index
    /// gives the attackers (not a reversed straight ray).
    pub path: bool,
}

/// Per piece type and colour.
#[derive(Clone, Debug)]
pub(crate) struct KindTables<B> {
    /// Move-or-capture leap targets per square.
    pub leap_any: SqMap<B>,
    /// Move-only leap targets.
    pub leap_quiet: SqMap<B>,
    /// Capture-only leap targets.
    pub leap_capture: SqMap<B>,
    /// Capture-only leaps that may take en passant.
    pub leap_ep: SqMap<B>,
    /// Every square this piece attacks by a leap from a square.
    pub leap_attacks: SqMap<B>,
    /// Reverse of `leap_attacks`: squares from which it attacks a square.
    pub rev_leap_attacks: SqMap<B>,
    /// Reverse of `leap_ep`.
    pub rev_leap_ep: SqMap<B>,
    pub rides: Vec<Ride>,
    pub first_moves: Vec<FirstMove<B>>,
    /// Squares from which a first-move shape limited only by ranks starts
    /// (moved pieces too): the union of their `from`.
    pub rank_first: B,
    /// Extra per-square targets used by `first_moves` leaps.
    pub first_leaps: Vec<Vec<B>>,
    /// Squares on which a piece of this kind counts as unmoved from FEN.
    pub initial: B,
    /// Whether any shape is a ride or first move (else only leaps).
    pub leaper_only: bool,
    /// Rides served by magic tables: bit 0 rook-wise, bit 1 bishop-wise.
    pub magic: u8,
    /// Set when the shapes are exactly a pawn's: generated set-wise.
    pub pawn: Option<PawnPattern<B>>,
    /// Set when the shapes are a pawn's with double steps limited by ranks
    /// rather than by the first move (horde's): generated set-wise only by
    /// [`Position::gen_pseudo`](crate::Position)'s ranked copy, so that
    /// the shared generators keep no branch for them (`pawn` is then
    /// `None` and the other generators go square by square).
    pub ranked: Option<RankedPawn<B>>,
}

/// A pawn pattern ([`PawnPattern`], without its first-move double step)
/// whose double steps start from given ranks however the pawn got there
/// (horde: from the first and second ranks; only the second rank's opens
/// en passant).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RankedPawn<B> {
    /// The push and captures.
    pub pattern: PawnPattern<B>,
    /// Per double step: the squares it starts from, and whether it opens
    /// en passant (a `DoubleStep` move, else `Normal`).
    pub doubles: [(B, bool); 2],
    /// How many of `doubles` are used.
    pub ndoubles: usize,
}

/// Shapes of the pawn pattern: one move-only step, up to four capture-only
/// leaps, and optionally a first-move double step along the push. Pieces
/// with such shapes are generated for the whole set at once by shifting.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PawnPattern<B> {
    /// Index delta of the push, and the squares it can be made from.
    pub push: (i32, B),
    /// Capture deltas and their source squares.
    pub caps: [(i32, B); 4],
    pub ncaps: usize,
    /// Whether unmoved pieces may double-step (opening en passant).
    pub double: bool,
}

impl<B: BitSet> PawnPattern<B> {
    /// No shape at all (a placeholder for kinds without the pattern).
    pub(crate) const NONE: PawnPattern<B> = PawnPattern {
        push: (0, B::EMPTY),
        caps: [(0, B::EMPTY); 4],
        ncaps: 0,
        double: false,
    };
}

/// Compiled tables for a game definition on bitboards of type `B`.
#[derive(Clone, Debug)]
pub struct Tables<B> {
    pub(crate) width: u8,
    pub(crate) height: u8,
    pub(crate) squares: usize,
    pub(crate) board: B,
    pub(crate) rays: Vec<Ray<B>>,
    /// Rides along non-straight paths (board topologies, [`Edge`]).
    pub(crate) paths: Vec<PathRay<B>>,
    /// Whether some shape wraps the files (en passant squares are then
    /// found modulo the width).
    pub(crate) wrap_files: bool,
    /// The royal kinds as the fast legal-move path sees them: `0` when a
    /// shape has a topology (pins and check lines are then not straight,
    /// and one piece may check along two paths), which sends every position
    /// to the general path without a test on the fast one.
    pub(crate) fast_royal_kinds: u32,
    /// Whether some promotion choice is a royal kind (coregal: a pawn may
    /// promote to a royal queen): such promotions are always played to be
    /// judged, and the fast path is off (`fast_royal_kinds` is 0).
    pub(crate) royal_promo: bool,
    /// `[color][kind]`.
    pub(crate) kinds: [Vec<KindTables<B>>; 2],
    pub(crate) n_kinds: usize,
    /// Attack rays per attacking colour.
    pub(crate) attack_rays: [Vec<AttackRay>; 2],
    /// Kinds that attack by leaps, per colour (bit mask).
    pub(crate) leap_attackers: [u32; 2],
    /// Royal kinds (bit mask).
    pub(crate) royal_kinds: u32,
    /// Pawn-like kinds (bit mask): reset the half-move clock.
    pub(crate) pawn_kinds: u32,
    /// Kinds that may take en passant (bit mask).
    pub(crate) ep_kinds: u32,
    /// Kinds with first-move shapes (their unmoved state is tracked).
    pub(crate) first_move_kinds: u32,
    /// Kinds with first-move shapes or rides limited by ranks: the kinds
    /// whose `first_moves` the generators read.
    pub(crate) first_gen_kinds: u32,
    /// Whether some kind has a [`RankedPawn`] pattern: `gen_pseudo` then
    /// takes its ranked copy.
    pub(crate) ranked_pawns: bool,
    /// Promotion: promoting kinds (mask), zone per colour, choices.
    pub(crate) promo_kinds: u32,
    pub(crate) promo_zone: [B; 2],
    /// Where promotion is optional, per colour.
    pub(crate) promo_optional: [B; 2],
    pub(crate) promo_choices: Vec<u8>,
    /// Per-kind promotion limits (255: none); `None` when no limit is set.
    pub(crate) promo_limits: Option<[u8; MAX_KINDS]>,
    /// Castling: king kind, rook kind, destination files.
    pub(crate) castling: Option<(u8, u8, [u8; 2], [u8; 2])>,
    /// Back rank per colour.
    pub(crate) back_rank: [B; 2],
    pub(crate) light_squares: B,
    /// Rule-layer hooks; `None` keeps the fast path.
    pub(crate) hooks: Option<std::sync::Arc<dyn crate::hooks::RuleHooks<B>>>,
    /// Whether moves carry per-piece attribute bytes (set from the hooks).
    pub(crate) piece_attrs: bool,
    /// What the installed hooks use (read once in [`Tables::set_hooks`]).
    pub(crate) hook_profile: crate::hooks::HookProfile,
    /// Whether the hooks let the engine generate legal moves itself
    /// ([`crate::hooks::HookProfile::engine_generates`]).
    pub(crate) hook_fast: bool,
    /// FIDE roles per kind (for insufficient material and SAN letters).
    pub(crate) roles: Vec<Option<crate::definition::Role>>,
    /// File and rank of every square (avoids a division per lookup).
    pub(crate) files: [u8; 128],
    pub(crate) ranks: [u8; 128],
    /// Magic tables, on 8×8 boards.
    pub(crate) magic: Option<&'static crate::magic::Magics>,
    /// Kinds (mask) that attack along all four unlimited orthogonal rides,
    /// per colour; served by `magic`.
    pub(crate) rook_like: [u32; 2],
    /// The same for diagonal rides.
    pub(crate) bishop_like: [u32; 2],
    /// The lookups of the legal-move fast path, `[color][kind]`, in one flat
    /// block: indexed by masked kind and square, so without bounds checks
    /// and one pointer closer than `kinds`.
    pub(crate) hot: Box<[[HotKind<B>; MAX_KINDS]; 2]>,
    /// Whether the definition is "plain": magic tables serve every ride,
    /// every piece type but pawn-pattern ones moves only by move-or-capture
    /// leaps and magic rides, and no royal type has the pawn pattern. The
    /// legal-move fast path then skips generic ray scans and split
    /// quiet/capture shapes (see `movegen`).
    pub(crate) plain: bool,
    /// Per colour, the kinds (mask) that a plain fast path generates with
    /// one leap lookup plus magic rides: no pawn pattern, no first-move
    /// shapes, no promotion.
    pub(crate) plain_movers: [u32; 2],
    /// Per colour, the plain movers that only leap (no magic ride).
    pub(crate) plain_leapers: [u32; 2],
    /// Per colour: every plain mover either only leaps or only rides by
    /// magic, and every magic rider is a plain mover (counting may then
    /// visit riders by movement class).
    pub(crate) plain_split: [bool; 2],
    /// Whether the tables are plain with the orthodox layout (see
    /// [`crate::orthodox`]): six kinds, FIDE's pawn, knight, bishop, rook,
    /// queen and king in that order by movement class (a promoting pawn
    /// pattern with en passant, two plain leapers of which the last is the
    /// one royal and the only castling king, a bishop-wise, a rook-wise and
    /// a both-wise magic rider), promotion compulsory and unlimited, on a
    /// board of 64 squares. Move counting then reads kinds by index.
    pub(crate) orthodox: bool,
    /// The pawn kind's pattern per colour, when `orthodox`.
    pub(crate) orthodox_pawn: [PawnPattern<B>; 2],
    /// Castling geometry per colour, king file and rook file
    /// (`[color][king_file * 16 + rook_file]`), both on the back rank.
    pub(crate) castle_paths: Box<[[CastlePath<B>; 256]; 2]>,
    /// Drop rules (pieces in hand), when the game has them; `None` costs
    /// the move generator one untaken branch.
    pub(crate) drops: Option<Box<DropTables<B>>>,
    /// Checks that win (three-check), 0 for none
    /// ([`crate::definition::EndRules::check_limit`]).
    pub(crate) check_limit: u8,
    /// A side with no pieces left ends the game
    /// ([`crate::definition::EndRules::no_pieces`]).
    pub(crate) no_pieces: bool,
    /// `no_pieces` gives a winner (it is not [`crate::definition::Outcome::Draw`]).
    pub(crate) no_pieces_wins: bool,
    /// Whether a rule ends the game in positions where moves remain
    /// (`check_limit` or `no_pieces`): the generators then ask
    /// `Position::play_stopped` first (one untaken branch otherwise).
    pub(crate) stops: bool,
    /// Whether every move takes the general make-move path
    /// (`Position::play_special`): piece attributes or pockets to keep.
    pub(crate) special_play: bool,
}

/// Compiled drop rules ([`crate::definition::Drops`]).
#[derive(Clone, Debug)]
pub(crate) struct DropTables<B> {
    /// Kinds that may be held in hand (mask).
    pub hand: u32,
    /// Squares each kind may be dropped on, `[color][kind]`.
    pub zone: [[B; MAX_KINDS]; 2],
    /// Kinds that may not be dropped onto a file holding one of the same
    /// kind and side (mask).
    pub no_doubled: u32,
    /// Kinds whose drop may not give checkmate (mask).
    pub no_mate: u32,
    /// The kind a captured promoted piece becomes in the hand.
    pub demote_to: u8,
    /// Every square of each file.
    pub file: [B; 16],
}

/// Where a castling king goes and which squares must be empty.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastlePath<B> {
    /// Squares the king passes over and lands on (its own excluded).
    pub kpath: B,
    /// Squares of both paths that must be empty (king and rook excluded).
    pub empty: B,
    /// The king's destination.
    pub kto: u8,
}

/// Hot per-square lookups of one piece type and colour (copies of
/// [`KindTables`] fields).
#[derive(Clone, Copy, Debug)]
pub(crate) struct HotKind<B> {
    /// `KindTables::leap_any`.
    pub leap_any: [B; 128],
    /// `KindTables::rev_leap_attacks`.
    pub rev_leap_attacks: [B; 128],
}

/// Castling geometry for every king and rook file pair on the back ranks
/// (FIDE 3.8.2 with Chess960 placement: the king and rook land on fixed
/// files). Pairs without castling can never be empty (`empty` = all).
fn castle_paths<B: BitSet>(def: &GameDefinition, w: u8, h: u8) -> Box<[[CastlePath<B>; 256]; 2]> {
    let never = CastlePath {
        kpath: B::EMPTY,
        empty: B::below(B::CAPACITY),
        kto: 0,
    };
    let mut out: Box<[[CastlePath<B>; 256]; 2]> = vec![[never; 256]; 2]
        .into_boxed_slice()
        .try_into()
        .expect("two colours");
    let Some(c) = &def.castling else {
        return out;
    };
    let span = |a: u8, b: u8| {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        if hi - lo <= 1 {
            B::EMPTY
        } else {
            B::below(hi as usize) & !B::below(lo as usize + 1)
        }
    };
    for (ci, rank) in [(0usize, 0u8), (1, h - 1)] {
        let base = rank * w;
        for kf in 0..w {
            for rf in 0..w {
                let side = usize::from(rf > kf);
                let (kd, rd) = (c.king_files[side], c.rook_files[side]);
                if kf == rf || kd >= w || rd >= w {
                    continue;
                }
                let (ksq, rsq, kto, rto) = (base + kf, base + rf, base + kd, base + rd);
                let kpath = span(ksq, kto) | B::bit(kto);
                let rpath = span(rsq, rto) | B::bit(rto);
                out[ci][kf as usize * 16 + rf as usize] = CastlePath {
                    kpath,
                    empty: (kpath | rpath) & !B::bit(ksq) & !B::bit(rsq),
                    kto,
                };
            }
        }
    }
    out
}

/// An all-empty `hot` block, built on the heap.
fn hot_zeroed<B: BitSet>() -> Box<[[HotKind<B>; MAX_KINDS]; 2]> {
    let row = HotKind {
        leap_any: [B::EMPTY; 128],
        rev_leap_attacks: [B::EMPTY; 128],
    };
    vec![[row; MAX_KINDS]; 2]
        .into_boxed_slice()
        .try_into()
        .expect("two colours")
}

/// Every square of a `w`×`h` board.
fn src_all<B: BitSet>(w: u8, h: u8) -> B {
    let mut b = B::EMPTY;
    for s in 0..(w as u16 * h as u16) {
        b |= B::bit(s as u8);
    }
    b
}

/// Recognises the pawn pattern in a piece type's shapes (for `color`):
/// a plain one, or one with double steps limited by ranks.
fn pawn_pattern<B: BitSet>(
    pt: &crate::definition::PieceType,
    color: Color,
    w: u8,
    h: u8,
) -> (Option<PawnPattern<B>>, Option<RankedPawn<B>>) {
    match pawn_shapes(pt, color, w, h) {
        None => (None, None),
        Some((p, ranked)) if ranked.is_empty() => (Some(p), None),
        // Not with a first-move double step as well.
        Some((p, _)) if p.double => (None, None),
        Some((pattern, ranked)) => {
            let mut doubles = [(B::EMPTY, false); 2];
            for (d, &r) in doubles.iter_mut().zip(&ranked) {
                *d = r;
            }
            (
                None,
                Some(RankedPawn {
                    pattern,
                    doubles,
                    ndoubles: ranked.len(),
                }),
            )
        }
    }
}

/// The pawn shapes of [`pawn_pattern`]: the pattern, and the double steps
/// limited by ranks (their start squares and whether each opens en
/// passant), at most two.
#[allow(clippy::type_complexity)]
fn pawn_shapes<B: BitSet>(
    pt: &crate::definition::PieceType,
    color: Color,
    w: u8,
    h: u8,
) -> Option<(PawnPattern<B>, Vec<(B, bool)>)> {
    let flip = |v: Vector| {
        if color == Color::White {
            v
        } else {
            (v.0, -v.1)
        }
    };
    let mut push: Option<(Vector, B)> = None;
    let mut caps: Vec<(Vector, B)> = Vec::new();
    let mut double: Option<Vector> = None;
    let mut rank_doubles: Vec<(Vector, B, bool)> = Vec::new();
    // The squares a shape may start from (its `from_ranks`).
    let from = |sh: &crate::definition::Shape| -> B {
        let mut b = B::EMPTY;
        for r in 0..h {
            if sh.from_ranks.is_empty()
                || sh
                    .from_ranks
                    .contains(&crate::definition::relative_rank(r, color, h))
            {
                for f in 0..w {
                    b |= B::bit(r * w + f);
                }
            }
        }
        b
    };
    let single = |r: Reach| {
        matches!(r, Reach::Leap) || matches!(r, Reach::Ride { min, max: Some(1) } if min <= 1)
    };
    for sh in pt
        .shapes
        .iter()
        .filter(|s| s.only.is_none_or(|c| c == color))
    {
        if sh.edge != Edge::Stop {
            // Set-wise shifts cannot wrap; such pawns go square by square.
            return None;
        }
        let double_ride = sh.reach
            == Reach::Ride {
                min: 2,
                max: Some(2),
            };
        match (sh.mode, sh.first_move_only) {
            (ShapeMode::MoveOnly, false)
                if single(sh.reach) && sh.vectors.len() == 1 && push.is_none() =>
            {
                push = Some((flip(sh.vectors[0]), from(sh)));
            }
            (ShapeMode::CaptureOnly, false) if single(sh.reach) => {
                caps.extend(sh.vectors.iter().map(|&v| (flip(v), from(sh))));
            }
            (ShapeMode::MoveOnly, false)
                if double_ride
                    && !sh.from_ranks.is_empty()
                    && sh.vectors.len() == 1
                    && rank_doubles.len() < 2 =>
            {
                rank_doubles.push((
                    flip(sh.vectors[0]),
                    from(sh),
                    sh.en_passant == EnPassantRole::Creates,
                ));
            }
            (ShapeMode::MoveOnly, true)
                if sh.from_ranks.is_empty()
                    && sh.reach
                        == Reach::Ride {
                            min: 2,
                            max: Some(2),
                        }
                    && sh.vectors.len() == 1
                    && double.is_none()
                    && sh.en_passant == EnPassantRole::Creates =>
            {
                double = Some(flip(sh.vectors[0]));
            }
            _ => return None,
        }
    }
    let (push, push_from) = push?;
    if (push_from != src_all::<B>(w, h) && (double.is_some() || !rank_doubles.is_empty()))
        || caps.len() > 4
        || double.is_some_and(|d| d != push)
        || rank_doubles.iter().any(|&(d, _, _)| d != push)
    {
        return None;
    }
    let src = |v: Vector| {
        let mut b = B::EMPTY;
        for r in 0..h as i32 {
            for f in 0..w as i32 {
                let (x, y) = (f + v.0 as i32, r + v.1 as i32);
                if x >= 0 && y >= 0 && x < w as i32 && y < h as i32 {
                    b |= B::bit((r * w as i32 + f) as u8);
                }
            }
        }
        b
    };
    let delta = |v: Vector| v.1 as i32 * w as i32 + v.0 as i32;
    let mut c = [(0, B::EMPTY); 4];
    for (i, &(v, f)) in caps.iter().enumerate() {
        c[i] = (delta(v), src(v) & f);
    }
    // Pawns with double steps limited by ranks (horde) are returned apart:
    // the shared set-wise generators keep no branch for them.
    let ranked = rank_doubles
        .iter()
        .map(|&(_, from, ep)| (from & src(push), ep))
        .collect();
    Some((
        PawnPattern {
            push: (delta(push), src(push) & push_from),
            caps: c,
            ncaps: caps.len(),
            double: double.is_some(),
        },
        ranked,
    ))
}

/// Error compiling a definition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DefinitionError {
    /// The board is empty, wider or taller than 16, or larger than the
    /// bitboard.
    #[error("board {width}x{height} is not supported (each side 1..=16, at most 128 squares)")]
    BoardSize {
        /// Files.
        width: u8,
        /// Ranks.
        height: u8,
    },
    /// Too many piece types.
    #[error("{0} piece types; at most 16 are supported")]
    TooManyKinds(usize),
    /// A piece type index out of range (promotion or castling).
    #[error("{what} names piece type index {index}, but there are only {len}")]
    BadKind {
        /// Which rule.
        what: &'static str,
        /// The index.
        index: usize,
        /// How many piece types there are.
        len: usize,
    },
    /// A null vector or one that does not fit the board.
    #[error("piece `{piece}`: vector ({x}, {y}) cannot move on a {width}x{height} board")]
    BadVector {
        /// Piece id.
        piece: String,
        /// dx.
        x: i8,
        /// dy.
        y: i8,
        /// Files.
        width: u8,
        /// Ranks.
        height: u8,
    },
    /// A ride limited by ranks (`from_ranks`) that may capture: such a
    /// ride is generated like a first-move shape, which attacks nothing,
    /// so its captures would not be attacks.
    #[error("piece `{piece}`: a ride limited to some ranks must be move-only")]
    RankedRide {
        /// Piece id.
        piece: String,
    },
    /// The drop rules name a piece type the game does not have, or a
    /// royal one.
    #[error("drop rules: {0}")]
    Drops(String),
    /// Two piece types share a symbol.
    #[error("piece types `{0}` and `{1}` share the symbol `{2}`")]
    DuplicateSymbol(String, String, char),
}

impl<B: BitSet> Tables<B> {
    /// Compiles `def` for bitboards of type `B`.
    ///
    /// # Errors
    /// [`DefinitionError`] when the board does not fit `B` or a shape is
    /// malformed.
    pub fn new(def: &GameDefinition) -> Result<Tables<B>, DefinitionError> {
        let (w, h) = (def.width, def.height);
        let n = w as usize * h as usize;
        if w == 0 || h == 0 || w > 16 || h > 16 || n > B::CAPACITY {
            return Err(DefinitionError::BoardSize {
                width: w,
                height: h,
            });
        }
        if def.pieces.len() > MAX_KINDS {
            return Err(DefinitionError::TooManyKinds(def.pieces.len()));
        }
        for (i, a) in def.pieces.iter().enumerate() {
            for b in &def.pieces[i + 1..] {
                if a.symbol.eq_ignore_ascii_case(&b.symbol) {
                    return Err(DefinitionError::DuplicateSymbol(
                        a.id.clone(),
                        b.id.clone(),
                        a.symbol,
                    ));
                }
            }
        }
        let nk = def.pieces.len();
        let check = |what: &'static str, index: usize| {
            if index >= nk {
                Err(DefinitionError::BadKind {
                    what,
                    index,
                    len: nk,
                })
            } else {
                Ok(())
            }
        };
        if let Some(p) = &def.promotion {
            for &k in p.pieces.iter().chain(&p.choices) {
                check("promotion", k)?;
            }
        }
        if let Some(c) = &def.castling {
            check("castling", c.king)?;
            check("castling", c.rook)?;
        }
        let on = |f: i32, r: i32| f >= 0 && r >= 0 && f < w as i32 && r < h as i32;
        let sq = |f: i32, r: i32| (r * w as i32 + f) as u8;
        let mut rays: Vec<Ray<B>> = Vec::new();
        let ray_index = |v: Vector, min: u8, max: u8, rays: &mut Vec<Ray<B>>| -> u16 {
            if let Some(i) = rays
                .iter()
                .position(|r| r.vector == v && r.min == min && r.max == max)
            {
                return i as u16;
            }
            let mut full = SqMap::new();
            let mut lim = SqMap::new();
            let mut near = SqMap::new();
            for s in 0..n as i32 {
                let (f, r) = (s % w as i32, s / w as i32);
                let (mut x, mut y, mut k) = (f, r, 0u8);
                loop {
                    x += v.0 as i32;
                    y += v.1 as i32;
                    k = k.saturating_add(1);
                    if !on(x, y) {
                        break;
                    }
                    let b = B::bit(sq(x, y));
                    full[s as usize] |= b;
                    if k <= max {
                        lim[s as usize] |= b;
                    }
                    if k < min {
                        near[s as usize] |= b;
                    }
                }
            }
            let positive = (v.1 as i32 * w as i32 + v.0 as i32) > 0;
            rays.push(Ray {
                full,
                lim,
                near,
                positive,
                vector: v,
                min,
                max,
            });
            (rays.len() - 1) as u16
        };

        let mut paths: Vec<PathRay<B>> = Vec::new();
        let path_index = |v: Vector, min: u8, max: u8, edge: Edge, paths: &mut Vec<PathRay<B>>| {
            let key = (v, min, max, edge);
            if let Some(i) = paths.iter().position(|p| p.key == key) {
                return i as u16;
            }
            let mut seq = Vec::new();
            let mut span = Vec::with_capacity(n);
            let mut att: Vec<Vec<(u8, B)>> = vec![Vec::new(); n];
            let mut att_from = SqMap::new();
            for s in 0..n as i32 {
                let path = edge_path(w as i32, h as i32, s % w as i32, s / w as i32, v, edge, max);
                span.push((seq.len() as u32, path.len() as u8));
                // A target is attacked from `s` when the squares before its
                // first visit are empty (a later visit needs it empty).
                let mut between = B::EMPTY;
                for (i, &t) in path.iter().enumerate() {
                    if i + 1 >= min as usize && !between.has(t) {
                        att[t as usize].push((s as u8, between));
                        att_from[t as usize] |= B::bit(s as u8);
                    }
                    between |= B::bit(t);
                }
                seq.extend(path);
            }
            paths.push(PathRay {
                seq,
                span,
                min,
                att,
                att_from,
                key,
            });
            (paths.len() - 1) as u16
        };
        let mut wrap_files = false;
        let mut topology = false;

        let mut kinds: [Vec<KindTables<B>>; 2] = [Vec::new(), Vec::new()];
        let mut attack_rays: [Vec<AttackRay>; 2] = [Vec::new(), Vec::new()];
        let mut leap_attackers = [0u32; 2];
        let mut first_move_kinds = 0u32;
        let mut rank_kinds = 0u32;
        let mut ep_kinds = 0u32;
        let mut ranked_pawns = false;
        for color in Color::ALL {
            let c = color.index();
            for (k, pt) in def.pieces.iter().enumerate() {
                let mut kt = KindTables {
                    leap_any: SqMap::new(),
                    leap_quiet: SqMap::new(),
                    leap_capture: SqMap::new(),
                    leap_ep: SqMap::new(),
                    leap_attacks: SqMap::new(),
                    rev_leap_attacks: SqMap::new(),
                    rev_leap_ep: SqMap::new(),
                    rides: Vec::new(),
                    first_moves: Vec::new(),
                    rank_first: B::EMPTY,
                    first_leaps: Vec::new(),
                    initial: B::EMPTY,
                    leaper_only: true,
                    magic: 0,
                    pawn: None,
                    ranked: None,
                };
                for &r in &pt.initial_ranks {
                    if r < h {
                        let rr = crate::definition::relative_rank(r, color, h);
                        for f in 0..w {
                            kt.initial |= B::bit(sq(f as i32, rr as i32));
                        }
                    }
                }
                for shape in pt
                    .shapes
                    .iter()
                    .filter(|s| s.only.is_none_or(|c| c == color))
                {
                    if shape.edge != Edge::Stop {
                        topology = true;
                        wrap_files |= shape.edge == Edge::WrapFiles;
                    }
                    // The squares the shape may start from (`from_ranks`).
                    let mut from = B::EMPTY;
                    for r in 0..h {
                        if shape.from_ranks.is_empty()
                            || shape
                                .from_ranks
                                .contains(&crate::definition::relative_rank(r, color, h))
                        {
                            for f in 0..w {
                                from |= B::bit(sq(f as i32, r as i32));
                            }
                        }
                    }
                    // Leaps have no path: only the cylinder moves them.
                    let wrap = |x: i32| {
                        if shape.edge == Edge::WrapFiles {
                            x.rem_euclid(w as i32)
                        } else {
                            x
                        }
                    };
                    for &v in &shape.vectors {
                        let vv = (v.0, if color == Color::White { v.1 } else { -v.1 });
                        if vv == (0, 0) || vv.0.unsigned_abs() >= w || vv.1.unsigned_abs() >= h {
                            return Err(DefinitionError::BadVector {
                                piece: pt.id.clone(),
                                x: v.0,
                                y: v.1,
                                width: w,
                                height: h,
                            });
                        }
                        let single_leap = match shape.reach {
                            Reach::Leap => true,
                            Reach::Ride { min, max } => min <= 1 && max == Some(1),
                        };
                        // A ride limited by ranks is generated like a
                        // first-move shape, from `from` only.
                        let by_rank =
                            !shape.first_move_only && !shape.from_ranks.is_empty() && !single_leap;
                        if by_rank && shape.mode != ShapeMode::MoveOnly {
                            return Err(DefinitionError::RankedRide {
                                piece: pt.id.clone(),
                            });
                        }
                        if shape.first_move_only || by_rank {
                            kt.leaper_only = false;
                            if by_rank {
                                kt.rank_first |= from;
                                rank_kinds |= 1 << k;
                            } else {
                                first_move_kinds |= 1 << k;
                            }
                            let fm = if single_leap {
                                let mut t = vec![B::EMPTY; n];
                                for s in 0..n as i32 {
                                    let (x, y) = (
                                        wrap(s % w as i32 + vv.0 as i32),
                                        s / w as i32 + vv.1 as i32,
                                    );
                                    if on(x, y) {
                                        t[s as usize] = B::bit(sq(x, y));
                                    }
                                }
                                kt.first_leaps.push(t);
                                FirstMove {
                                    ray: None,
                                    path: false,
                                    leap: kt.first_leaps.len() - 1,
                                    mode: shape.mode,
                                    creates_ep: shape.en_passant == EnPassantRole::Creates,
                                    from,
                                    needs_unmoved: shape.first_move_only,
                                }
                            } else {
                                let (min, max) = match shape.reach {
                                    Reach::Ride { min, max } => {
                                        (min.max(1), max.unwrap_or(u8::MAX))
                                    }
                                    Reach::Leap => unreachable!(),
                                };
                                let edge = effective_edge(vv, shape.edge);
                                let path = edge != Edge::Stop;
                                FirstMove {
                                    ray: Some(if path {
                                        path_index(vv, min, max, edge, &mut paths)
                                    } else {
                                        ray_index(vv, min, max, &mut rays)
                                    }),
                                    path,
                                    leap: 0,
                                    mode: shape.mode,
                                    creates_ep: shape.en_passant == EnPassantRole::Creates,
                                    from,
                                    needs_unmoved: shape.first_move_only,
                                }
                            };
                            kt.first_moves.push(fm);
                            continue;
                        }
                        if single_leap {
                            for s in 0..n as i32 {
                                let (x, y) =
                                    (wrap(s % w as i32 + vv.0 as i32), s / w as i32 + vv.1 as i32);
                                if !on(x, y) || !from.has(s as u8) {
                                    continue;
                                }
                                let b = B::bit(sq(x, y));
                                let su = s as usize;
                                match shape.mode {
                                    ShapeMode::MoveOrCapture => kt.leap_any[su] |= b,
                                    ShapeMode::MoveOnly => kt.leap_quiet[su] |= b,
                                    ShapeMode::CaptureOnly => kt.leap_capture[su] |= b,
                                }
                                if shape.mode.captures() {
                                    kt.leap_attacks[su] |= b;
                                    kt.rev_leap_attacks[sq(x, y) as usize] |= B::bit(s as u8);
                                    leap_attackers[c] |= 1 << k;
                                }
                                if shape.en_passant == EnPassantRole::Captures {
                                    kt.leap_ep[su] |= b;
                                    kt.rev_leap_ep[sq(x, y) as usize] |= B::bit(s as u8);
                                    ep_kinds |= 1 << k;
                                }
                            }
                        } else {
                            kt.leaper_only = false;
                            let (min, max) = match shape.reach {
                                Reach::Ride { min, max } => (min.max(1), max.unwrap_or(u8::MAX)),
                                Reach::Leap => unreachable!(),
                            };
                            let edge = effective_edge(vv, shape.edge);
                            if edge != Edge::Stop {
                                // Attacks come from the same forward paths.
                                let p = path_index(vv, min, max, edge, &mut paths);
                                kt.rides.push(Ride {
                                    ray: p,
                                    mode: shape.mode,
                                    path: true,
                                });
                                if shape.mode.captures() {
                                    match attack_rays[c].iter_mut().find(|a| a.path && a.ray == p) {
                                        Some(a) => a.kinds |= 1 << k,
                                        None => attack_rays[c].push(AttackRay {
                                            ray: p,
                                            kinds: 1 << k,
                                            path: true,
                                        }),
                                    }
                                }
                                continue;
                            }
                            let ray = ray_index(vv, min, max, &mut rays);
                            kt.rides.push(Ride {
                                ray,
                                mode: shape.mode,
                                path: false,
                            });
                            if shape.mode.captures() {
                                // Attackers of a square ride toward it: look
                                // from the square along the reversed vector.
                                let rev = ray_index((-vv.0, -vv.1), min, max, &mut rays);
                                match attack_rays[c].iter_mut().find(|a| !a.path && a.ray == rev) {
                                    Some(a) => a.kinds |= 1 << k,
                                    None => attack_rays[c].push(AttackRay {
                                        ray: rev,
                                        kinds: 1 << k,
                                        path: false,
                                    }),
                                }
                            }
                        }
                    }
                }
                (kt.pawn, kt.ranked) = pawn_pattern(pt, color, w, h);
                ranked_pawns |= kt.ranked.is_some();
                kinds[c].push(kt);
            }
        }
        let mut royal_kinds = 0;
        let mut pawn_kinds = 0;
        for (k, pt) in def.pieces.iter().enumerate() {
            if pt.royal {
                royal_kinds |= 1 << k;
            }
            if pt.pawn_like {
                pawn_kinds |= 1 << k;
            }
        }
        let mut promo_zone = [B::EMPTY; 2];
        let mut promo_optional = [B::EMPTY; 2];
        let mut promo_limits = None;
        let mut promo_kinds = 0;
        let mut promo_choices = Vec::new();
        if let Some(p) = &def.promotion {
            for &(k, _) in &p.limits {
                check("promotion limit", k)?;
            }
            if !p.limits.is_empty() {
                let mut l = [u8::MAX; MAX_KINDS];
                for &(k, n) in &p.limits {
                    l[k] = n;
                }
                promo_limits = Some(l);
            }
            for color in Color::ALL {
                for &r in &p.optional_ranks {
                    if r < h {
                        let rr = crate::definition::relative_rank(r, color, h);
                        for f in 0..w {
                            promo_optional[color.index()] |= B::bit(sq(f as i32, rr as i32));
                        }
                    }
                }
            }
            for &k in &p.pieces {
                promo_kinds |= 1 << k;
            }
            for color in Color::ALL {
                for &r in &p.ranks {
                    if r < h {
                        let rr = crate::definition::relative_rank(r, color, h);
                        for f in 0..w {
                            promo_zone[color.index()] |= B::bit(sq(f as i32, rr as i32));
                        }
                    }
                }
            }
            promo_choices = p.choices.iter().map(|&k| k as u8).collect();
        }
        let royal_promo = promo_choices
            .iter()
            .any(|&k| royal_kinds & (1u32 << (k as u32 & 31)) != 0);
        let mut back_rank = [B::EMPTY; 2];
        let drops = match &def.drops {
            None => None,
            Some(d) => Some(Box::new(drop_tables(def, d, nk, w, h, &sq)?)),
        };
        let mut light_squares = B::EMPTY;
        for f in 0..w as i32 {
            back_rank[0] |= B::bit(sq(f, 0));
            back_rank[1] |= B::bit(sq(f, h as i32 - 1));
            for r in 0..h as i32 {
                if (f + r) % 2 == 1 {
                    light_squares |= B::bit(sq(f, r));
                }
            }
        }
        Ok(Tables {
            width: w,
            height: h,
            squares: n,
            board: B::below(n),
            rays,
            paths,
            wrap_files,
            // A promotion that creates a royal piece must be judged with the
            // new royal too, which the fast path does not do.
            fast_royal_kinds: if topology || royal_promo {
                0
            } else {
                royal_kinds
            },
            royal_promo,
            kinds,
            n_kinds: nk,
            attack_rays,
            leap_attackers,
            royal_kinds,
            pawn_kinds,
            ep_kinds,
            first_move_kinds,
            first_gen_kinds: first_move_kinds | rank_kinds,
            ranked_pawns,
            promo_kinds,
            promo_zone,
            promo_optional,
            promo_choices,
            promo_limits,
            castling: def
                .castling
                .as_ref()
                .map(|c| (c.king as u8, c.rook as u8, c.king_files, c.rook_files)),
            back_rank,
            light_squares,
            hooks: None,
            piece_attrs: false,
            hook_profile: crate::hooks::HookProfile::GENERAL,
            hook_fast: false,
            roles: def.pieces.iter().map(|p| p.role).collect(),
            files: std::array::from_fn(|i| (i % w as usize) as u8),
            ranks: std::array::from_fn(|i| (i / w as usize) as u8),
            magic: None,
            rook_like: [0; 2],
            bishop_like: [0; 2],
            hot: hot_zeroed(),
            plain: false,
            plain_movers: [0; 2],
            plain_leapers: [0; 2],
            plain_split: [false; 2],
            orthodox: false,
            orthodox_pawn: [PawnPattern::NONE; 2],
            castle_paths: castle_paths(def, w, h),
            special_play: drops.is_some() || def.end.check_limit.is_some(),
            check_limit: def.end.check_limit.unwrap_or(0),
            no_pieces: def.end.no_pieces.is_some(),
            no_pieces_wins: def
                .end
                .no_pieces
                .is_some_and(|o| o != crate::definition::Outcome::Draw),
            stops: def.end.check_limit.is_some() || def.end.no_pieces.is_some(),
            drops,
        }
        .with_magic()
        .with_hot())
    }

    /// On 8×8 boards, moves complete unlimited orthogonal and diagonal ride
    /// groups to magic tables (movement and attack detection alike).
    fn with_magic(mut self) -> Self {
        if self.width != 8 || self.height != 8 || B::CAPACITY != 64 {
            return self;
        }
        const ORTH: [Vector; 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        const DIAG: [Vector; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let rays = self.rays.clone();
        let is_full = |r: &Ride, group: &[Vector]| {
            if r.path {
                return false;
            }
            let ray = &rays[r.ray as usize];
            r.mode == ShapeMode::MoveOrCapture
                && ray.min == 1
                && ray.max == u8::MAX
                && group.contains(&ray.vector)
        };
        for c in 0..2 {
            for k in 0..self.n_kinds {
                let kt = &mut self.kinds[c][k];
                for (bit, group) in [(1u8, &ORTH), (2u8, &DIAG)] {
                    let have = group.iter().all(|v| {
                        kt.rides
                            .iter()
                            .any(|r| is_full(r, group) && rays[r.ray as usize].vector == *v)
                    });
                    if have {
                        kt.magic |= bit;
                        kt.rides.retain(|r| !is_full(r, group));
                        if bit == 1 {
                            self.rook_like[c] |= 1 << k;
                        } else {
                            self.bishop_like[c] |= 1 << k;
                        }
                    }
                }
                kt.leaper_only = kt.rides.is_empty() && kt.first_moves.is_empty() && kt.magic == 0;
            }
            // Attack rays now served by magic lose those kinds.
            let (rl, bl) = (self.rook_like[c], self.bishop_like[c]);
            for ar in &mut self.attack_rays[c] {
                if ar.path {
                    continue;
                }
                let ray = &rays[ar.ray as usize];
                if ray.min == 1 && ray.max == u8::MAX {
                    if ORTH.contains(&ray.vector) {
                        ar.kinds &= !rl;
                    } else if DIAG.contains(&ray.vector) {
                        ar.kinds &= !bl;
                    }
                }
            }
            self.attack_rays[c].retain(|a| a.kinds != 0);
        }
        self.magic = Some(crate::magic::Magics::get());
        self
    }

    /// Fills `hot` from `kinds` and decides `plain` (after `with_magic`).
    fn with_hot(mut self) -> Self {
        for c in 0..2 {
            for (k, kt) in self.kinds[c].iter().enumerate() {
                let h = &mut self.hot[c][k];
                for s in 0..128 {
                    h.leap_any[s] = kt.leap_any[s];
                    h.rev_leap_attacks[s] = kt.rev_leap_attacks[s];
                }
            }
        }
        let no_split = |kt: &KindTables<B>| {
            (0..128).all(|s| kt.leap_quiet[s].is_empty() && kt.leap_capture[s].is_empty())
        };
        self.plain = self.magic.is_some()
            && self.attack_rays.iter().all(|a| a.is_empty())
            && self.kinds.iter().all(|ks| {
                ks.iter().enumerate().all(|(k, kt)| {
                    kt.rides.is_empty()
                        && match kt.pawn {
                            Some(_) => self.royal_kinds & (1 << k) == 0,
                            None => kt.first_moves.is_empty() && no_split(kt),
                        }
                })
            });
        for c in 0..2 {
            for (k, kt) in self.kinds[c].iter().enumerate() {
                if kt.pawn.is_none()
                    && kt.first_moves.is_empty()
                    && (self.promo_kinds | self.first_move_kinds) & (1 << k) == 0
                {
                    self.plain_movers[c] |= 1 << k;
                }
            }
            let riders = self.rook_like[c] | self.bishop_like[c];
            self.plain_leapers[c] = self.plain_movers[c] & !riders;
            self.plain_split[c] = riders & !self.plain_movers[c] == 0
                && self.kinds[c].iter().enumerate().all(|(k, kt)| {
                    riders & (1 << k) == 0 || (0..128).all(|s| kt.leap_any[s].is_empty())
                });
        }
        self.with_orthodox()
    }

    /// Decides `orthodox` (after `with_hot`).
    fn with_orthodox(mut self) -> Self {
        use crate::orthodox::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
        let bit = |k: usize| 1u32 << k;
        let per_colour = |c: usize| {
            self.kinds[c].get(PAWN).is_some_and(|kt| kt.pawn.is_some())
                && self.leap_attackers[c] == bit(PAWN) | bit(KNIGHT) | bit(KING)
                && self.plain_leapers[c] == bit(KNIGHT) | bit(KING)
                && self.plain_movers[c]
                    == bit(KNIGHT) | bit(BISHOP) | bit(ROOK) | bit(QUEEN) | bit(KING)
                && self.bishop_like[c] == bit(BISHOP) | bit(QUEEN)
                && self.rook_like[c] == bit(ROOK) | bit(QUEEN)
                && self.plain_split[c]
                && self.promo_optional[c].is_empty()
        };
        self.orthodox = self.plain
            && self.drops.is_none()
            && !self.stops
            && B::CAPACITY == 64
            && self.squares == 64
            && self.n_kinds == 6
            && self.royal_kinds == bit(KING)
            && self.fast_royal_kinds == bit(KING)
            && !self.royal_promo
            && self.promo_kinds == bit(PAWN)
            && self.promo_limits.is_none()
            && !self.promo_choices.is_empty()
            && self.ep_kinds == bit(PAWN)
            && self.first_move_kinds == bit(PAWN)
            && self.castling.is_none_or(|c| c.0 as usize == KING)
            && per_colour(0)
            && per_colour(1);
        if self.orthodox {
            for c in 0..2 {
                self.orthodox_pawn[c] = self.kinds[c][PAWN].pawn.expect("checked above");
            }
        }
        self
    }

    /// Installs rule-layer hooks (see [`crate::hooks`]).
    pub fn set_hooks(&mut self, hooks: std::sync::Arc<dyn crate::hooks::RuleHooks<B>>) {
        self.piece_attrs = hooks.uses_piece_attributes();
        self.special_play = self.piece_attrs || self.drops.is_some() || self.check_limit != 0;
        self.hook_profile = hooks.profile();
        self.hook_fast = self.hook_profile.engine_generates();
        self.hooks = Some(hooks);
    }

    /// The move-or-capture leap targets of a `color` piece of `kind` on
    /// `sq` by its ordinary shapes, board topology included (rule layers
    /// build compound leaps from them, e.g. `knights-leap-twice`).
    pub fn leaps(&self, color: Color, kind: crate::PieceKind, sq: u8) -> B {
        self.kinds[color.index()]
            .get(kind.index())
            .map_or(B::EMPTY, |kt| kt.leap_any[sq as usize])
    }

    /// Every square a `color` piece of `kind` on `sq` attacks by its leap
    /// shapes, capture-only leaps included (a pawn's diagonals), board
    /// topology included; rides are not included. Empty for an unknown
    /// kind. The evaluation's mobility term keeps pieces off the squares
    /// enemy pawns attack with it.
    pub fn leap_attacks(&self, color: Color, kind: crate::PieceKind, sq: u8) -> B {
        self.kinds[color.index()]
            .get(kind.index())
            .map_or(B::EMPTY, |kt| kt.leap_attacks[sq as usize])
    }

    /// Whether moves carry per-piece attribute bytes
    /// ([`Position::piece_attribute`](crate::Position::piece_attribute));
    /// only then does `play_unchecked` pay for them.
    pub fn uses_piece_attributes(&self) -> bool {
        self.piece_attrs
    }

    /// The installed rule-layer hooks, if any (rule layers that judge
    /// hypothetical positions themselves, such as the modifier runtime).
    pub fn hooks(&self) -> Option<&dyn crate::hooks::RuleHooks<B>> {
        self.hooks.as_deref()
    }

    /// Board width in files.
    pub fn width(&self) -> u8 {
        self.width
    }
    /// Board height in ranks.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// File of `sq` (0-based).
    #[inline(always)]
    pub(crate) fn file(&self, sq: u8) -> u8 {
        self.files[(sq & 127) as usize]
    }
    /// Rank of `sq` (0-based).
    #[inline(always)]
    pub(crate) fn rank(&self, sq: u8) -> u8 {
        self.ranks[(sq & 127) as usize]
    }
}

/// Compiles the drop rules `d` of `def` (`nk` kinds on a `w`×`h` board;
/// `sq(file, rank)` is the square index).
fn drop_tables<B: BitSet>(
    def: &GameDefinition,
    d: &crate::definition::Drops,
    nk: usize,
    w: u8,
    h: u8,
    sq: &dyn Fn(i32, i32) -> u8,
) -> Result<DropTables<B>, DefinitionError> {
    let mut t = DropTables {
        hand: 0,
        zone: [[B::EMPTY; MAX_KINDS]; 2],
        no_doubled: 0,
        no_mate: 0,
        demote_to: 0,
        file: [B::EMPTY; 16],
    };
    for f in 0..w as i32 {
        for r in 0..h as i32 {
            t.file[f as usize] |= B::bit(sq(f, r));
        }
    }
    if d.demote_to >= nk {
        return Err(DefinitionError::Drops(format!(
            "the demoted piece type {} is not in the game",
            d.demote_to
        )));
    }
    t.demote_to = d.demote_to as u8;
    for rule in &d.pieces {
        let k = rule.piece;
        if k >= nk {
            return Err(DefinitionError::Drops(format!(
                "piece type {k} is not in the game"
            )));
        }
        if def.pieces[k].royal {
            // A royal piece is never captured, so it never reaches a hand;
            // rule layers that make a held type royal (`coregal` on
            // crazyhouse) keep it off the hand rather than fail. The YAML
            // front end refuses a royal piece in `drops` outright.
            continue;
        }
        if rule.ranks.iter().any(|&r| r >= h) {
            return Err(DefinitionError::Drops(format!(
                "{}: a drop rank is off the board ({} ranks)",
                def.pieces[k].id, h
            )));
        }
        t.hand |= 1 << k;
        if rule.no_doubled {
            t.no_doubled |= 1 << k;
        }
        if !rule.may_mate {
            t.no_mate |= 1 << k;
        }
        for c in Color::ALL {
            let mut z = B::EMPTY;
            for r in 0..h {
                if rule.ranks.is_empty() || rule.ranks.contains(&r) {
                    let rr = crate::definition::relative_rank(r, c, h);
                    for f in 0..w {
                        z |= B::bit(sq(f as i32, rr as i32));
                    }
                }
            }
            t.zone[c.index()][k] = z;
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Square names of a path on a board `w` files wide.
    fn names(path: &[u8], w: u8) -> Vec<String> {
        path.iter()
            .map(|&s| format!("{}{}", (b'a' + s % w) as char, s / w + 1))
            .collect()
    }
    fn path(w: i32, h: i32, from: &str, v: Vector, edge: Edge) -> Vec<String> {
        let b = from.as_bytes();
        let (f, r) = ((b[0] - b'a') as i32, (b[1] - b'1') as i32);
        names(&edge_path(w, h, f, r, v, edge, u8::MAX), w as u8)
    }

    #[test]
    fn bounce_turns_on_the_edge_square_as_in_rulings_p23() {
        // RULINGS P23: f1, g2, h3, then g4, f5 ... (from e0's diagonal: a
        // bishop on f1 going north-east), ending on the last rank.
        let one = Edge::Bounce {
            ends: false,
            max: 1,
        };
        assert_eq!(
            path(8, 8, "f1", (1, 1), one),
            ["g2", "h3", "g4", "f5", "e6", "d7", "c8"]
        );
    }

    #[test]
    fn bounce_stops_after_its_last_reflection() {
        // On a 3-file board the second side edge comes quickly: one
        // reflection ends at a5, two at c7.
        let b = |max| Edge::Bounce { ends: false, max };
        assert_eq!(path(3, 8, "a1", (1, 1), b(1)), ["b2", "c3", "b4", "a5"]);
        assert_eq!(
            path(3, 8, "a1", (1, 1), b(2)),
            ["b2", "c3", "b4", "a5", "b6", "c7"]
        );
    }

    #[test]
    fn bounce_corner_counts_two_and_stops_before_the_origin() {
        // RULINGS P23: g7 north-east reaches the h8 corner, turns both ways
        // and would come straight back to g7.
        let two = Edge::Bounce { ends: true, max: 2 };
        assert_eq!(path(8, 8, "g7", (1, 1), two), ["h8"]);
        // With one reflection left, a corner ends the ray (on 8x8 only the
        // long diagonals meet corners, so a 4x3 board shows it): a2, b3
        // (top, one), c2, d1 (corner, two more needed).
        assert_eq!(path(4, 3, "a2", (1, 1), two), ["b3", "c2", "d1"]);
    }

    #[test]
    fn bounce_ray_pointing_off_the_board_is_empty() {
        let one = Edge::Bounce {
            ends: false,
            max: 1,
        };
        assert!(path(8, 8, "h3", (1, 1), one).is_empty());
    }

    #[test]
    fn warp_continues_once_and_stops_before_the_origin() {
        // RULINGS P3.
        assert_eq!(
            path(8, 8, "d4", (0, 1), Edge::Warp),
            ["d5", "d6", "d7", "d8", "d1", "d2", "d3"]
        );
        // A rook on the edge does not warp in that direction.
        assert!(path(8, 8, "a4", (-1, 0), Edge::Warp).is_empty());
        assert_eq!(path(8, 8, "a1", (0, 1), Edge::Warp).len(), 7);
    }

    #[test]
    fn wrap_files_wraps_sideways_only_and_stops_before_the_origin() {
        // RULINGS P4.
        assert_eq!(
            path(8, 8, "a4", (-1, 0), Edge::WrapFiles),
            ["h4", "g4", "f4", "e4", "d4", "c4", "b4"]
        );
        assert_eq!(
            path(8, 8, "a1", (-1, 1), Edge::WrapFiles),
            ["h2", "g3", "f4", "e5", "d6", "c7", "b8"]
        );
        assert!(path(8, 8, "d8", (0, 1), Edge::WrapFiles).is_empty());
    }
}
