//! Compiled move-generation tables for one game definition.
//!
//! Compiling a [`GameDefinition`] turns every movement shape into
//! per-square bitboards (leaps) and ray tables (rides), and every attack into
//! a reverse table, so that move generation never interprets a shape, looks
//! up a string or allocates.

use crate::bitboard::BitSet;
use crate::definition::{EnPassantRole, GameDefinition, Reach, ShapeMode, Vector};
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

/// A ride of one piece type: a ray and what it may do.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ride {
    pub ray: u16,
    pub mode: ShapeMode,
}

/// A shape usable only by unmoved pieces (the pawn's double step).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FirstMove {
    /// A ray index when the shape rides, else `None` with `leap` targets.
    pub ray: Option<u16>,
    pub leap: usize,
    pub mode: ShapeMode,
    pub creates_ep: bool,
}

/// Attackers along one ray: pieces of `kinds` standing on the ray from a
/// target square attack it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttackRay {
    pub ray: u16,
    pub kinds: u32,
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
    pub first_moves: Vec<FirstMove>,
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

/// Compiled tables for a game definition on bitboards of type `B`.
#[derive(Clone, Debug)]
pub struct Tables<B> {
    pub(crate) width: u8,
    pub(crate) height: u8,
    pub(crate) squares: usize,
    pub(crate) board: B,
    pub(crate) rays: Vec<Ray<B>>,
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
}

/// Recognises the pawn pattern in a piece type's shapes (for `color`).
fn pawn_pattern<B: BitSet>(
    pt: &crate::definition::PieceType,
    color: Color,
    w: u8,
    h: u8,
) -> Option<PawnPattern<B>> {
    let flip = |v: Vector| {
        if color == Color::White {
            v
        } else {
            (v.0, -v.1)
        }
    };
    let mut push: Option<Vector> = None;
    let mut caps: Vec<Vector> = Vec::new();
    let mut double: Option<Vector> = None;
    let single = |r: Reach| {
        matches!(r, Reach::Leap) || matches!(r, Reach::Ride { min, max: Some(1) } if min <= 1)
    };
    for sh in &pt.shapes {
        match (sh.mode, sh.first_move_only) {
            (ShapeMode::MoveOnly, false)
                if single(sh.reach) && sh.vectors.len() == 1 && push.is_none() =>
            {
                push = Some(flip(sh.vectors[0]));
            }
            (ShapeMode::CaptureOnly, false) if single(sh.reach) => {
                caps.extend(sh.vectors.iter().map(|&v| flip(v)));
            }
            (ShapeMode::MoveOnly, true)
                if sh.reach
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
    let push = push?;
    if caps.len() > 4 || double.is_some_and(|d| d != push) {
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
    for (i, &v) in caps.iter().enumerate() {
        c[i] = (delta(v), src(v));
    }
    Some(PawnPattern {
        push: (delta(push), src(push)),
        caps: c,
        ncaps: caps.len(),
        double: double.is_some(),
    })
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

        let mut kinds: [Vec<KindTables<B>>; 2] = [Vec::new(), Vec::new()];
        let mut attack_rays: [Vec<AttackRay>; 2] = [Vec::new(), Vec::new()];
        let mut leap_attackers = [0u32; 2];
        let mut first_move_kinds = 0u32;
        let mut ep_kinds = 0u32;
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
                    first_leaps: Vec::new(),
                    initial: B::EMPTY,
                    leaper_only: true,
                    magic: 0,
                    pawn: None,
                };
                for &r in &pt.initial_ranks {
                    if r < h {
                        let rr = crate::definition::relative_rank(r, color, h);
                        for f in 0..w {
                            kt.initial |= B::bit(sq(f as i32, rr as i32));
                        }
                    }
                }
                for shape in &pt.shapes {
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
                        if shape.first_move_only {
                            kt.leaper_only = false;
                            first_move_kinds |= 1 << k;
                            let fm = if single_leap {
                                let mut t = vec![B::EMPTY; n];
                                for s in 0..n as i32 {
                                    let (x, y) =
                                        (s % w as i32 + vv.0 as i32, s / w as i32 + vv.1 as i32);
                                    if on(x, y) {
                                        t[s as usize] = B::bit(sq(x, y));
                                    }
                                }
                                kt.first_leaps.push(t);
                                FirstMove {
                                    ray: None,
                                    leap: kt.first_leaps.len() - 1,
                                    mode: shape.mode,
                                    creates_ep: shape.en_passant == EnPassantRole::Creates,
                                }
                            } else {
                                let (min, max) = match shape.reach {
                                    Reach::Ride { min, max } => {
                                        (min.max(1), max.unwrap_or(u8::MAX))
                                    }
                                    Reach::Leap => unreachable!(),
                                };
                                FirstMove {
                                    ray: Some(ray_index(vv, min, max, &mut rays)),
                                    leap: 0,
                                    mode: shape.mode,
                                    creates_ep: shape.en_passant == EnPassantRole::Creates,
                                }
                            };
                            kt.first_moves.push(fm);
                            continue;
                        }
                        if single_leap {
                            for s in 0..n as i32 {
                                let (x, y) =
                                    (s % w as i32 + vv.0 as i32, s / w as i32 + vv.1 as i32);
                                if !on(x, y) {
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
                            let ray = ray_index(vv, min, max, &mut rays);
                            kt.rides.push(Ride {
                                ray,
                                mode: shape.mode,
                            });
                            if shape.mode.captures() {
                                // Attackers of a square ride toward it: look
                                // from the square along the reversed vector.
                                let rev = ray_index((-vv.0, -vv.1), min, max, &mut rays);
                                match attack_rays[c].iter_mut().find(|a| a.ray == rev) {
                                    Some(a) => a.kinds |= 1 << k,
                                    None => attack_rays[c].push(AttackRay {
                                        ray: rev,
                                        kinds: 1 << k,
                                    }),
                                }
                            }
                        }
                    }
                }
                kt.pawn = pawn_pattern(pt, color, w, h);
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
        let mut back_rank = [B::EMPTY; 2];
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
            kinds,
            n_kinds: nk,
            attack_rays,
            leap_attackers,
            royal_kinds,
            pawn_kinds,
            ep_kinds,
            first_move_kinds,
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
            roles: def.pieces.iter().map(|p| p.role).collect(),
            files: std::array::from_fn(|i| (i % w as usize) as u8),
            ranks: std::array::from_fn(|i| (i / w as usize) as u8),
            magic: None,
            rook_like: [0; 2],
            bishop_like: [0; 2],
        }
        .with_magic())
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

    /// Installs rule-layer hooks (see [`crate::hooks`]).
    pub fn set_hooks(&mut self, hooks: std::sync::Arc<dyn crate::hooks::RuleHooks<B>>) {
        self.hooks = Some(hooks);
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
