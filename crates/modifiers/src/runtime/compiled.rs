//! Passive restrictions compiled to bitboards, so that dry-mode move
//! generation costs bit operations per move rather than an interpretation
//! of the descriptors (issue 5 § Benchmark; docs/performance.md
//! § Modifiers).
//!
//! The rules are those of `legal.rs` (modifier-rulings A10, C2, C3, C4),
//! which stays the reference: every filter of a restriction reads the
//! position and the session state, never the move, so its verdict on every
//! square (or on every piece, by colour and kind) is decided once for the
//! position and the move is then judged by masks. A [`Plan`] keeps piece
//! conditions as kinds per colour and square masks, placed on each board
//! by bit operations; it is cached on the session while what it read
//! besides the board is unchanged (see `Key`). Restriction shapes that
//! cannot be decided this way make [`Session::legality_plan`] return
//! `None`, and the interpreter runs instead:
//!
//! - move-shape mechanics (`add-moves`, `replace-moves`, wrapping files)
//!   and hard blocks (`blocked` markers), which change the move list and
//!   the attack rays;
//! - a restriction that changes who gives check (a fully immobilising
//!   `forbid-move`, `protect … against capture`) whose filter reads the
//!   board (`empty`, `sameFileAs`, pieces named by reference, or an
//!   expression with `count`), since check is judged on the position after
//!   each move;
//! - a definition with more than 64 piece kinds.
//!
//! Like the interpreter, nothing here fires a trigger, draws a random
//! number or touches markers or pending choices (dry mode).

use houserules_engine::definition::Role;
use houserules_engine::{
    Color, GameDefinition, Move, MoveKind, PieceKind, Position, Tables, TargetBatch,
};
use serde_json::Value;

use super::aura;
use super::eval::{square_of, truthy, Cx};
use super::legal::immobilising;
use super::Session;
use crate::descriptor::{MarkerKind, PrimitiveKind};

/// Bit `c` of a colour (White 0, Black 1).
fn ci(c: Color) -> usize {
    c.index()
}

/// Whether piece kind `k` has the descriptor name `name` (the same names as
/// `kind_name`, without building a string).
fn kind_is(def: &GameDefinition, k: usize, name: &str) -> bool {
    let Some(p) = def.pieces.get(k) else {
        return false;
    };
    match p.role {
        Some(Role::Pawn) => name == "pawn",
        Some(Role::Knight) => name == "knight",
        Some(Role::Bishop) => name == "bishop",
        Some(Role::Rook) => name == "rook",
        Some(Role::Queen) => name == "queen",
        Some(Role::King) => name == "king",
        None => {
            p.id.len() == name.len()
                && p.id
                    .bytes()
                    .map(|b| b.to_ascii_lowercase())
                    .eq(name.bytes())
        }
    }
}

/// Whether an expression reads the board it is evaluated on (only `count`
/// does: `in-check` and `legal-move-count` read the game's own position).
/// Whether an expression reads `$it` (the candidate of a `where`).
fn mentions_it(e: &Value) -> bool {
    match e {
        Value::String(s) => s == "$it" || s.starts_with("$it.") || s.starts_with("$it["),
        Value::Array(a) => a.iter().any(mentions_it),
        Value::Object(o) => o.values().any(mentions_it),
        _ => false,
    }
}

fn reads_board(e: &Value) -> bool {
    match e {
        Value::Object(o) => o.iter().any(|(k, v)| k == "count" || reads_board(v)),
        Value::Array(a) => a.iter().any(reads_board),
        _ => false,
    }
}

/// A piece filter decided by colour, kind, square and royalty: a piece of
/// colour `c` and kind `k` on `s` matches when bit `k` of `kinds[c]` and bit
/// `s` of `squares` are set and its royalty is allowed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PieceMask {
    /// Allowed kinds per colour.
    pub kinds: [u64; 2],
    /// Allowed squares.
    pub squares: u64,
    /// Bit 0: a non-royal piece may match; bit 1: a royal may.
    pub royal: u8,
    /// The filter read the board (valid for the compiled position only).
    pub dynamic: bool,
    /// Every kind of the definition.
    all_kinds: u64,
}

impl PieceMask {
    /// Every piece of a definition with `n` (≤ 64) kinds.
    fn all(n: usize) -> PieceMask {
        let k = if n >= 64 { !0 } else { (1u64 << n) - 1 };
        PieceMask {
            kinds: [k, k],
            squares: !0,
            royal: 3,
            dynamic: false,
            all_kinds: k,
        }
    }
    const NONE: PieceMask = PieceMask {
        kinds: [0, 0],
        squares: 0,
        royal: 0,
        dynamic: false,
        all_kinds: 0,
    };

    /// Squares of `color`'s pieces on `pos` that match; `royals` are the
    /// royal squares of `color` there.
    fn on(&self, pos: &Position<u64>, color: Color, royals: u64) -> u64 {
        let mut kinds = self.kinds[ci(color)];
        if kinds == 0 || self.squares == 0 || self.royal == 0 {
            return 0;
        }
        let ours = pos.by_color(color) & self.squares;
        // Every piece has one kind: OR the boards of the allowed kinds, or
        // remove those of the others when they are fewer (`notType`).
        let all = self.all_kinds;
        let mut out;
        if (all & !kinds).count_ones() < kinds.count_ones() {
            let mut rest = all & !kinds;
            out = ours;
            while rest != 0 {
                let k = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                out &= !pos.by_kind(PieceKind(k));
            }
        } else {
            out = 0;
            while kinds != 0 {
                let k = kinds.trailing_zeros() as u8;
                kinds &= kinds - 1;
                out |= pos.by_kind(PieceKind(k)) & ours;
            }
        }
        match self.royal {
            1 => out & !royals,
            2 => out & royals,
            _ => out,
        }
    }

    /// Whether a royal of `color` and kind `k` on `sq` matches.
    fn royal_matches(&self, color: Color, k: PieceKind, sq: u8) -> bool {
        self.royal & 2 != 0
            && self.kinds[ci(color)] & (1u64 << k.0) != 0
            && self.squares & (1u64 << sq) != 0
    }
}

/// A move filter decided for one position (rulings 2.1 § MoveFilter).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveMask {
    /// `side` and `when` hold.
    pub gate: bool,
    /// Allowed origin squares (`from` and `piece`).
    pub from: u64,
    /// Allowed destination squares.
    pub to: u64,
    /// `capture`: required capture status.
    pub capture: Option<bool>,
    /// `target`: squares of the enemy pieces whose capture matches.
    pub target: Option<u64>,
    /// `castling`: required castling status.
    pub castling: Option<bool>,
    /// `progress`: bit 0 forward, 1 backward, 2 sideways.
    pub progress: Option<u8>,
    /// `crossesFile`: file mask.
    pub crosses: Option<u8>,
}

/// A move filter with its piece conditions still to be placed on a board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StaticMove {
    /// The filter, `from` holding the `from` squares only.
    mask: MoveMask,
    /// `piece`: the mover.
    piece: Option<PieceMask>,
    /// `target`: the captured piece.
    target: Option<PieceMask>,
}

impl StaticMove {
    /// The filter matches no castling move whatever the board (castling
    /// captures nothing).
    fn never_castles(&self) -> bool {
        self.mask.capture == Some(true)
            || self.mask.target.is_some()
            || self.target.is_some()
            || self.mask.castling == Some(false)
            || !self.mask.gate
    }

    /// The filter on `pos` (`royals`: royal squares by colour index).
    fn on(&self, pos: &Position<u64>, royals: [u64; 2]) -> MoveMask {
        let us = pos.turn();
        let mut m = self.mask;
        if let Some(p) = &self.piece {
            m.from &= p.on(pos, us, royals[ci(us)]);
        }
        if let Some(p) = &self.target {
            let them = us.flip();
            m.target = Some(p.on(pos, them, royals[ci(them)]));
        }
        m
    }
}

/// The captured square of `m` on `pos`, if it captures (as the
/// interpreter's `captured_view`: an enemy piece on the destination, or
/// beside the origin for en passant; castling captures nothing).
#[inline]
fn captured_sq(pos: &Position<u64>, m: Move) -> Option<u8> {
    let them = pos.by_color(pos.turn().flip());
    let sq = match m.kind {
        MoveKind::Castle => return None,
        MoveKind::EnPassant => (m.from / 8) * 8 + m.to % 8,
        _ => m.to,
    };
    (them & (1u64 << sq) != 0).then_some(sq)
}

impl MoveMask {
    /// Only `from` (and `piece`) restrict it.
    fn only_from(&self) -> bool {
        self.to == !0 && self.only_squares()
    }

    /// Only `to` restricts it.
    fn only_to(&self) -> bool {
        self.from == !0 && self.only_squares()
    }

    fn only_squares(&self) -> bool {
        self.gate
            && self.capture.is_none()
            && self.target.is_none()
            && self.castling.is_none()
            && self.progress.is_none()
            && self.crosses.is_none()
    }

    /// The targets of the batch `b` that the filter matches; the set form
    /// of [`Self::matches`]. `them`: the squares of the side not to move.
    #[inline(always)]
    fn matching(&self, pos: &Position<u64>, them: u64, b: &Batch) -> u64 {
        if !self.gate {
            return 0;
        }
        let mut tg = from_in(b, self.from) & self.to;
        if tg == 0 {
            return 0;
        }
        if self.progress.is_none()
            && self.crosses.is_none()
            && matches!(b.kind, MoveKind::Normal | MoveKind::DoubleStep)
        {
            // The captured piece is the one on the destination.
            match self.capture {
                Some(true) => tg &= them,
                Some(false) => tg &= !them,
                None => {}
            }
            if let Some(t) = self.target {
                tg &= them & t;
            }
            if self.castling == Some(true) {
                tg = 0;
            }
            return tg;
        }
        if self.progress.is_none() && self.crosses.is_none() && b.kind == MoveKind::Castle {
            // Castling captures nothing.
            let keep =
                self.capture != Some(true) && self.target.is_none() && self.castling != Some(false);
            return if keep { tg } else { 0 };
        }
        self.matching_each(pos, b, tg)
    }

    /// [`Self::matching`] move by move, on the targets `tg` of `b`.
    #[inline(never)]
    fn matching_each(&self, pos: &Position<u64>, b: &Batch, mut tg: u64) -> u64 {
        let mut out = 0;
        while tg != 0 {
            let to = tg.trailing_zeros() as u8;
            tg &= tg - 1;
            let m = Move {
                from: origin(b, to),
                to,
                promotion: None,
                kind: b.kind,
            };
            if self.matches(pos, m) {
                out |= 1u64 << to;
            }
        }
        out
    }

    #[inline(always)]
    fn matches(&self, pos: &Position<u64>, m: Move) -> bool {
        if !self.gate || self.from & (1u64 << m.from) == 0 || self.to & (1u64 << m.to) == 0 {
            return false;
        }
        if let Some(c) = self.capture {
            if c != captured_sq(pos, m).is_some() {
                return false;
            }
        }
        if let Some(t) = self.target {
            if captured_sq(pos, m).is_none_or(|s| t & (1u64 << s) == 0) {
                return false;
            }
        }
        if let Some(c) = self.castling {
            if c != (m.kind == MoveKind::Castle) {
                return false;
            }
        }
        if let Some(p) = self.progress {
            let dy = i32::from(m.to / 8) - i32::from(m.from / 8);
            let dy = if pos.turn() == Color::White { dy } else { -dy };
            let bit = if m.kind == MoveKind::Castle || dy == 0 {
                4
            } else if dy > 0 {
                1
            } else {
                2
            };
            if p & bit == 0 {
                return false;
            }
        }
        if let Some(files) = self.crosses {
            let (f, t) = (m.from % 8, m.to % 8);
            let (a, b) = (f.min(t), f.max(t));
            // Files strictly between, or the destination file when it
            // differs from the origin's.
            let between = if b > a + 1 {
                ((1u16 << b) - (1u16 << (a + 1))) as u8
            } else {
                0
            };
            let dest = if t != f { 1u8 << t } else { 0 };
            if files & (between | dest) == 0 {
                return false;
            }
        }
        true
    }
}

/// A fully immobilising `forbid-move` that disarms pieces of the side not
/// to move (rulings C3).
#[derive(Clone, Copy, Debug)]
struct Disarm {
    pieces: PieceMask,
}

/// What the compiled restrictions were read from, besides the board: a
/// cached plan serves while these are unchanged.
#[derive(Debug, PartialEq)]
struct Key {
    /// Attached instances, in attach order.
    insts: Vec<u32>,
    /// The game's side to move (`turn`, and the side the plan is for).
    turn: Color,
    /// The mover of the ply in dispatch (`mover`).
    mover: Option<Color>,
    /// `(id, square, kind, source)` of the markers, when a filter reads
    /// markers.
    markers: Option<Vec<(u32, u8, MarkerKind, u32)>>,
}

/// The active restrictions compiled for the side to move, board aside
/// (piece conditions are placed on each board by colour, kind and square).
#[derive(Debug)]
pub(crate) struct Plan {
    key: Key,
    /// Valid for other boards and later calls (no reference to variables,
    /// events or bindings, no `when`/`where`, nothing read from the board).
    cacheable: bool,
    /// `forbid-move` filters with piece conditions or beyond squares
    /// (phase 2, placed on each position).
    forbid: Vec<StaticMove>,
    /// Origins that `forbid-move` filters of squares alone freeze.
    forbid_from: u64,
    /// Destinations that `forbid-move` filters of squares alone forbid.
    forbid_to: u64,
    /// Pieces protected against capture (phase 2, the other side's).
    protect_targets: Vec<PieceMask>,
    /// Fully immobilising `forbid-move`s of the other side (rule-aware
    /// attacks).
    disarm: Vec<Disarm>,
    /// `protect … against capture` that may cover the side to move's
    /// royals (rule-aware check).
    protect_own: Vec<PieceMask>,
    /// Every royal kind of the side to move is protected on every square,
    /// so no move leaves it in check (rulings C4; no hooks).
    royals_safe: bool,
    /// `keep-farthest` choices (phase 4).
    keep_farthest: Vec<PieceMask>,
    /// `must-move-if-able` filters, in attach order (phase 5).
    must_move: Vec<StaticMove>,
    /// Some passive rule is attached.
    any: bool,
    /// A passive aura of an attached descriptor may set capture flags: the
    /// interpreter judges (the masks do not model disarmed pieces).
    capture_auras: bool,
}

/// The cached [`Plan`] of a session (shared by clones, rebuilt when its
/// key no longer matches). A `RefCell`, not a lock: the cache is read on
/// every legality call, where a lock's atomic operations cost about as much
/// as the filtering itself; a session is used from one thread at a time
/// (it stays `Send`).
#[derive(Debug, Default)]
pub(crate) struct PlanCache(std::cell::RefCell<Option<std::sync::Arc<Plan>>>);

impl Clone for PlanCache {
    fn clone(&self) -> PlanCache {
        PlanCache(std::cell::RefCell::new(self.get()))
    }
}

impl PlanCache {
    fn get(&self) -> Option<std::sync::Arc<Plan>> {
        self.0.try_borrow().ok().and_then(|g| g.clone())
    }

    fn set(&self, p: std::sync::Arc<Plan>) {
        if let Ok(mut g) = self.0.try_borrow_mut() {
            *g = Some(p);
        }
    }
}

/// Whether restriction parameters read something a cached plan cannot
/// follow: a reference other than `$param`, a board-reading or expression
/// key.
fn volatile(v: &Value) -> bool {
    match v {
        Value::String(s) => s.starts_with('$') && !s.starts_with("$param."),
        Value::Array(a) => a.iter().any(volatile),
        Value::Object(o) => o.iter().any(|(k, v)| {
            matches!(k.as_str(), "when" | "where" | "empty" | "sameFileAs") || volatile(v)
        }),
        _ => false,
    }
}

/// Whether parameters read markers.
fn reads_markers(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.iter().any(reads_markers),
        Value::Object(o) => o.iter().any(|(k, v)| {
            matches!(k.as_str(), "hasMarker" | "onMarker" | "hardBlocked") || reads_markers(v)
        }),
        _ => false,
    }
}

/// `(direction << 3) | distance` of a move along a line from `a` to `b`
/// (direction 0–7, distance 1–7), 0 when not on a line.
const fn line_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let dx = (b % 8) as i32 - (a % 8) as i32;
            let dy = (b / 8) as i32 - (a / 8) as i32;
            let n = if dx.abs() > dy.abs() {
                dx.abs()
            } else {
                dy.abs()
            };
            if n != 0 && (dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
                let d = ((dx / n + 1) * 3 + (dy / n + 1)) as u8; // 0..8, 4 unused
                let d = if d > 4 { d - 1 } else { d };
                t[a][b] = (d << 3) | n as u8;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

static LINES: [[u8; 64]; 64] = line_table();

impl Session {
    /// Calls `f` on each item a value names: a list's items, a reference's
    /// items, or the value itself (as `items(val(v))` with each item
    /// resolved again), without copying literals.
    fn each_item(&self, cx: &Cx, v: &Value, f: &mut dyn FnMut(&Value)) {
        match v {
            Value::String(s) if s.starts_with('$') => {
                let r = self.resolve_ref(cx, s);
                match r {
                    Value::Array(a) => {
                        for x in &a {
                            self.each_resolved(cx, x, f);
                        }
                    }
                    Value::Null => {}
                    x => self.each_resolved(cx, &x, f),
                }
            }
            Value::Array(a) => {
                for x in a {
                    self.each_resolved(cx, x, f);
                }
            }
            Value::Null => {}
            x => f(x),
        }
    }

    fn each_resolved(&self, cx: &Cx, x: &Value, f: &mut dyn FnMut(&Value)) {
        match x {
            Value::String(s) if s.starts_with('$') => f(&self.resolve_ref(cx, s)),
            x => f(x),
        }
    }

    /// Squares a square parameter names (as `Session::squares`).
    fn square_set(&self, cx: &Cx, v: &Value) -> u64 {
        let mut m = 0u64;
        self.each_item(cx, v, &mut |x| {
            if let Some(s) = square_of(x) {
                m |= 1u64 << s;
            }
        });
        m
    }

    /// Squares holding a marker matching `spec` (as `has_marker`).
    fn marker_squares(&self, cx: &Cx, spec: &Value) -> u64 {
        let kind = spec.get("kind").map(|k| match k {
            Value::String(s) if s.starts_with('$') => self.resolve_ref(cx, s),
            k => k.clone(),
        });
        let Some(kind) = kind
            .as_ref()
            .and_then(Value::as_str)
            .and_then(MarkerKind::parse)
        else {
            return 0;
        };
        let own = spec.get("own").and_then(Value::as_bool).unwrap_or(true);
        self.st
            .markers
            .iter()
            .filter(|m| m.kind == kind && (!own || Some(m.source) == cx.inst))
            .fold(0, |b, m| b | (1u64 << m.square))
    }

    /// Squares adjacent to the centres of `spec` (as `adjacent`).
    fn adjacent_squares(&self, cx: &Cx, spec: &Value) -> u64 {
        let Some(of) = spec.get("of") else { return 0 };
        let ring = spec
            .get("ring")
            .map(|r| self.val(cx, r))
            .and_then(|r| r.as_u64())
            .unwrap_or(8);
        let mut centres = self.square_set(cx, of);
        let mut out = 0u64;
        while centres != 0 {
            let c = centres.trailing_zeros() as i32;
            centres &= centres - 1;
            for (df, dr) in [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                if ring == 4 && df != 0 && dr != 0 {
                    continue;
                }
                let (f, r) = (c % 8 + df, c / 8 + dr);
                if (0..8).contains(&f) && (0..8).contains(&r) {
                    out |= 1u64 << (r * 8 + f);
                }
            }
        }
        out
    }

    /// A square filter as a mask on `pos`, and whether it read the board.
    fn square_mask(&self, cx: &Cx, f: &Value, pos: &Position<u64>) -> (u64, bool) {
        let Some(o) = f.as_object() else {
            return (self.square_set(cx, f), false);
        };
        let mut m = !0u64;
        let mut dynamic = false;
        for (k, x) in o {
            m &= match k.as_str() {
                "squares" => self.square_set(cx, x),
                "file" => {
                    let mut files = 0u64;
                    self.each_item(cx, x, &mut |v| {
                        if let Some(fl) = super::eval::file_of(v) {
                            files |= 0x0101_0101_0101_0101u64 << fl;
                        }
                    });
                    files
                }
                "rank" => {
                    let mut ranks = 0u64;
                    self.each_item(cx, x, &mut |v| {
                        if let Some(r) = super::eval::rank_of(v) {
                            ranks |= 0xffu64 << (8 * r);
                        }
                    });
                    ranks
                }
                "relRank" => {
                    let one = Value::Object([(k.clone(), x.clone())].into_iter().collect());
                    (0..64u8)
                        .filter(|&s| self.square_ok(cx, &one, s))
                        .fold(0, |b, s| b | (1u64 << s))
                }
                "empty" => {
                    dynamic = true;
                    match x.as_bool() {
                        Some(true) => !pos.occupied(),
                        Some(false) => pos.occupied(),
                        None => 0,
                    }
                }
                "hardBlocked" => {
                    let b = self.blocked_mask();
                    match x.as_bool() {
                        Some(true) => b,
                        Some(false) => !b,
                        None => 0,
                    }
                }
                "hasMarker" => self.marker_squares(cx, x),
                "adjacentTo" => self.adjacent_squares(cx, x),
                "exclude" => !self.square_set(cx, x),
                // `$it` is each square in turn: judged square by square.
                "where" if mentions_it(x) => {
                    dynamic = true;
                    let one = Value::Object([(k.clone(), x.clone())].into_iter().collect());
                    (0..64u8)
                        .filter(|&s| self.square_ok(cx, &one, s))
                        .fold(0, |b, s| b | (1u64 << s))
                }
                "where" => {
                    dynamic |= reads_board(x);
                    if truthy(&self.eval(cx, x)) {
                        !0
                    } else {
                        0
                    }
                }
                _ => !0,
            };
        }
        (m, dynamic)
    }

    /// A piece filter compiled on `pos` (as `piece_ok`).
    fn piece_mask(&self, cx: &Cx, f: &Value, pos: &Position<u64>) -> PieceMask {
        let def = self.game.variant().definition();
        let n = def.pieces.len();
        let Some(o) = f.as_object() else {
            if f.is_string() {
                // Pieces named by reference: their squares on this board.
                let sq = self
                    .pieces_param(cx, f)
                    .iter()
                    .fold(0u64, |b, p| b | (1u64 << p.sq));
                return PieceMask {
                    squares: sq,
                    dynamic: true,
                    ..PieceMask::all(n)
                };
            }
            return PieceMask::NONE;
        };
        let mut pm = PieceMask::all(n);
        let type_bits = |x: &Value| {
            let mut bits = 0u64;
            self.each_item(cx, x, &mut |v| {
                if let Some(name) = v.as_str() {
                    for k in 0..n {
                        if kind_is(def, k, name) {
                            bits |= 1u64 << k;
                        }
                    }
                }
            });
            bits
        };
        for (k, x) in o {
            match k.as_str() {
                "color" => {
                    let cs = self.players(cx, x);
                    for c in Color::ALL {
                        if !cs.contains(&c) {
                            pm.kinds[ci(c)] = 0;
                        }
                    }
                }
                "type" => {
                    let b = type_bits(x);
                    pm.kinds[0] &= b;
                    pm.kinds[1] &= b;
                }
                "notType" => {
                    let b = type_bits(x);
                    pm.kinds[0] &= !b;
                    pm.kinds[1] &= !b;
                }
                "royal" => {
                    pm.royal &= match x.as_bool() {
                        Some(true) => 2,
                        Some(false) => 1,
                        None => 0,
                    }
                }
                "on" => {
                    let (m, d) = self.square_mask(cx, x, pos);
                    pm.squares &= m;
                    pm.dynamic |= d;
                }
                "onMarker" => pm.squares &= self.marker_squares(cx, x),
                "adjacentTo" => pm.squares &= self.adjacent_squares(cx, x),
                "sameFileAs" => {
                    pm.dynamic = true;
                    let files = self
                        .pieces_param(cx, x)
                        .iter()
                        .fold(0u64, |b, p| b | (0x0101_0101_0101_0101u64 << (p.sq % 8)));
                    pm.squares &= files;
                }
                "exclude" => pm.squares &= !self.square_set(cx, x),
                // `$it` is each piece in turn: judged piece by piece.
                "where" if mentions_it(x) => {
                    pm.dynamic = true;
                    let one = Value::Object([(k.clone(), x.clone())].into_iter().collect());
                    pm.squares &= super::pieces_of(pos)
                        .iter()
                        .filter(|p| self.piece_ok(cx, &one, &self.view(pos, p)))
                        .fold(0u64, |b, p| b | (1u64 << p.sq));
                }
                "where" => {
                    pm.dynamic |= reads_board(x);
                    if !truthy(&self.eval(cx, x)) {
                        pm.kinds = [0, 0];
                    }
                }
                _ => {}
            }
        }
        pm
    }

    /// A move filter compiled on `pos` for its side to move (as
    /// `move_matches`), piece conditions kept apart.
    fn move_mask(
        &self,
        cx: &Cx,
        f: &std::collections::BTreeMap<String, Value>,
        pos: &Position<u64>,
    ) -> (StaticMove, bool) {
        let us = pos.turn();
        let mut dynamic = false;
        let mut sm = StaticMove {
            mask: MoveMask {
                gate: true,
                from: !0,
                to: !0,
                capture: None,
                target: None,
                castling: None,
                progress: None,
                crosses: None,
            },
            piece: None,
            target: None,
        };
        let mm = &mut sm.mask;
        for (k, x) in f {
            match k.as_str() {
                "side" => mm.gate &= self.players(cx, x).contains(&us),
                "piece" => {
                    let pm = self.piece_mask(cx, x, pos);
                    dynamic |= pm.dynamic;
                    sm.piece = Some(pm);
                }
                "from" | "to" => {
                    let (m, d) = self.square_mask(cx, x, pos);
                    dynamic |= d;
                    if k == "from" {
                        mm.from &= m;
                    } else {
                        mm.to &= m;
                    }
                }
                "capture" => match x.as_bool() {
                    Some(b) => mm.capture = Some(b),
                    None => mm.gate = false,
                },
                "target" => {
                    let pm = self.piece_mask(cx, x, pos);
                    dynamic |= pm.dynamic;
                    sm.target = Some(pm);
                }
                "castling" => match x.as_bool() {
                    Some(b) => mm.castling = Some(b),
                    None => mm.gate = false,
                },
                "progress" => {
                    let mut p = 0u8;
                    if let Some(a) = x.as_array() {
                        for v in a {
                            p |= match v.as_str() {
                                Some("forward") => 1,
                                Some("backward") => 2,
                                Some("sideways") => 4,
                                _ => 0,
                            };
                        }
                    }
                    mm.progress = Some(p);
                }
                "crossesFile" => {
                    // As the interpreter: one-letter strings and numbers.
                    let mut files = 0u8;
                    let v = self.val(cx, x);
                    for it in super::eval::items(v) {
                        let f = match self.val(cx, &it) {
                            Value::String(s) if s.len() == 1 => {
                                Some(s.as_bytes()[0].wrapping_sub(b'a'))
                            }
                            Value::Number(n) => n.as_u64().map(|n| n as u8),
                            _ => None,
                        };
                        if let Some(f) = f.filter(|&f| f < 8) {
                            files |= 1 << f;
                        }
                    }
                    mm.crosses = Some(files);
                }
                "when" => mm.gate &= truthy(&self.eval(cx, x)),
                // A plan runs only without move shapes (module docs), so
                // no move is added: `added: true` matches nothing.
                "added" => mm.gate &= x.as_bool() == Some(false),
                _ => {}
            }
        }
        (sm, dynamic)
    }

    /// The key of a plan built now; `markers` when a filter reads them.
    fn plan_key(&self, markers: bool) -> Key {
        Key {
            insts: self.st.modifiers.iter().map(|m| m.id).collect(),
            turn: self.game.turn(),
            mover: self.st.cursor.ply.as_ref().map(|p| p.mover),
            markers: markers.then(|| {
                self.st
                    .markers
                    .iter()
                    .map(|m| (m.id, m.square, m.kind, m.source))
                    .collect()
            }),
        }
    }

    /// Whether a plan with this key still describes the session.
    fn key_holds(&self, k: &Key) -> bool {
        k.turn == self.game.turn()
            && k.mover == self.st.cursor.ply.as_ref().map(|p| p.mover)
            && k.insts.len() == self.st.modifiers.len()
            && k.insts
                .iter()
                .zip(&self.st.modifiers)
                .all(|(a, m)| *a == m.id)
            && k.markers.as_ref().is_none_or(|ms| {
                ms.len() == self.st.markers.len()
                    && ms
                        .iter()
                        .zip(&self.st.markers)
                        .all(|(a, m)| *a == (m.id, m.square, m.kind, m.source))
            })
    }

    /// The plan of the active restrictions for the current position: the
    /// cached one while its key holds, else a new one (cached when it may
    /// be); `None` when the interpreter must run (see the module
    /// documentation).
    pub(crate) fn legality_plan<R>(&self, depth: u8, f: impl FnOnce(&Plan) -> R) -> Option<R> {
        if self.blocked_mask() != 0 {
            return None;
        }
        // Capture flags and auras on them change who may capture and who
        // gives check (set-capture-flag); the plan's masks do not model
        // them, so the interpreter judges such positions. Checked cheaply
        // per call; the passive auras of the attached descriptors are read
        // once per plan (`capture_auras`).
        if self.capture_flag_stored() || self.granted_auras_may_touch(aura::CAPTURE_FLAG) {
            return None;
        }
        // The cached plan is used in place (no reference count touched);
        // a nested call meanwhile sees the cache busy and builds its own.
        if let Ok(g) = self.plan_cache.0.try_borrow() {
            if let Some(p) = g.as_ref().filter(|p| self.key_holds(&p.key)) {
                return (!p.capture_auras).then(|| f(p));
            }
        }
        let p = self.build_plan(depth)?;
        if p.capture_auras {
            return None;
        }
        let r = f(&p);
        if p.cacheable {
            self.plan_cache.set(std::sync::Arc::new(p));
        }
        Some(r)
    }

    /// Compiles the active restrictions for the side to move of the
    /// current position.
    fn build_plan(&self, depth: u8) -> Option<Plan> {
        let (pos, _) = self.pos();
        let def = self.game.variant().definition();
        if def.pieces.len() > 64 {
            return None;
        }
        let hooks = self.pos().1.hooks();
        let us = pos.turn();
        let ev = std::collections::BTreeMap::new();
        let b = std::collections::BTreeMap::new();
        let mut cacheable = true;
        let mut markers = false;
        let mut p = Plan {
            key: self.plan_key(false),
            cacheable: true,
            forbid: Vec::new(),
            forbid_from: 0,
            forbid_to: 0,
            protect_targets: Vec::new(),
            disarm: Vec::new(),
            protect_own: Vec::new(),
            royals_safe: false,
            keep_farthest: Vec::new(),
            must_move: Vec::new(),
            any: false,
            capture_auras: self.passive_auras_may_touch(aura::CAPTURE_FLAG),
        };
        for m in &self.st.modifiers {
            let Some(d) = self.st.descriptors.get(&m.descriptor) else {
                continue;
            };
            if m.params.values().any(volatile) {
                cacheable = false;
            }
            let cx = Cx {
                inst: Some(m.id),
                event: &ev,
                subject: &Value::Null,
                binds: &b,
                pos: Some(pos),
                depth,
                it: &Value::Null,
            };
            for n in &d.passive {
                p.any = true;
                let params = &n.params;
                let rel = matches!(
                    n.kind,
                    PrimitiveKind::ForbidMove
                        | PrimitiveKind::Protect
                        | PrimitiveKind::KeepFarthest
                        | PrimitiveKind::MustMoveIfAble
                );
                if rel && params.values().any(volatile) {
                    cacheable = false;
                }
                if rel && params.values().any(reads_markers) {
                    markers = true;
                }
                match n.kind {
                    PrimitiveKind::AddMoves | PrimitiveKind::ReplaceMoves => return None,
                    PrimitiveKind::SetBoardTopology
                        if params.get("wrapFiles").and_then(Value::as_bool) == Some(true) =>
                    {
                        return None
                    }
                    PrimitiveKind::ForbidMove => {
                        let (sm, dynamic) = self.move_mask(&cx, params, pos);
                        cacheable &= !dynamic;
                        // Square-only filters are the same on every
                        // position: merged once here.
                        // (A closed gate forbids nothing.)
                        if sm.piece.is_some() || sm.target.is_some() {
                            p.forbid.push(sm);
                        } else if sm.mask.only_from() {
                            p.forbid_from |= sm.mask.from;
                        } else if sm.mask.only_to() {
                            p.forbid_to |= sm.mask.to;
                        } else if sm.mask.gate {
                            p.forbid.push(sm);
                        }
                        if !immobilising(params.keys()) {
                            continue;
                        }
                        // Judged on the positions after each move, so the
                        // board must not be read.
                        let when = params.get("when");
                        if when.is_some_and(reads_board) || dynamic {
                            return None;
                        }
                        if when.is_some_and(|w| !truthy(&self.eval(&cx, w))) {
                            continue;
                        }
                        if let Some(s) = params.get("side") {
                            if !self.players(&cx, s).contains(&us.flip()) {
                                continue;
                            }
                        }
                        let mut pieces = sm.piece.unwrap_or(PieceMask::all(def.pieces.len()));
                        pieces.squares &= sm.mask.from;
                        p.disarm.push(Disarm { pieces });
                    }
                    PrimitiveKind::Protect => {
                        let against = params
                            .get("against")
                            .and_then(Value::as_array)
                            .is_some_and(|a| a.iter().any(|x| x == "capture"));
                        if !against {
                            continue;
                        }
                        let when = params.get("when");
                        if when.is_some_and(reads_board) {
                            return None;
                        }
                        if when.is_some_and(|w| !truthy(&self.eval(&cx, w))) {
                            continue;
                        }
                        let Some(f) = params.get("pieces") else {
                            continue;
                        };
                        let pm = self.piece_mask(&cx, f, pos);
                        cacheable &= !pm.dynamic;
                        p.protect_targets.push(pm);
                        if pm.kinds[ci(us)] != 0 && pm.royal & 2 != 0 && pm.squares != 0 {
                            if pm.dynamic {
                                return None;
                            }
                            p.protect_own.push(pm);
                        }
                    }
                    PrimitiveKind::KeepFarthest => {
                        if let Some(f) = params.get("pieces") {
                            let pm = self.piece_mask(&cx, f, pos);
                            cacheable &= !pm.dynamic;
                            p.keep_farthest.push(pm);
                        }
                    }
                    PrimitiveKind::MustMoveIfAble => {
                        let (sm, dynamic) = self.move_mask(&cx, params, pos);
                        cacheable &= !dynamic;
                        p.must_move.push(sm);
                    }
                    _ => {}
                }
            }
        }
        p.royals_safe = hooks.is_none()
            && def.pieces.iter().enumerate().all(|(k, piece)| {
                !piece.royal
                    || p.protect_own.iter().any(|pm| {
                        pm.royal & 2 != 0 && pm.squares == !0 && pm.kinds[ci(us)] & (1u64 << k) != 0
                    })
            });
        p.key = self.plan_key(markers);
        p.cacheable = cacheable;
        Some(p)
    }

    /// Legal moves of the side to move under a plan (the phases of
    /// `interpreted_legal_moves`).
    pub(crate) fn legal_from_plan(&self, plan: &Plan) -> Vec<Move> {
        if !plan.any {
            return self.engine_legal_filtered(self.game.legal_moves());
        }
        self.legal_from_busy_plan(plan)
    }

    /// The rules' legal moves and the engine's ([`Game::legal_moves`]),
    /// listing them once when no passive rule applies (the rules' moves are
    /// then the engine's, less C2's royal captures).
    ///
    /// [`Game::legal_moves`]: houserules_engine::Game::legal_moves
    pub(crate) fn rule_and_engine_legal(&self) -> (Vec<Move>, Vec<Move>) {
        let both = self.legality_plan(0, |p| {
            if p.any {
                (self.legal_from_busy_plan(p), None)
            } else {
                let engine = self.game.legal_moves();
                (self.engine_legal_filtered(engine.clone()), Some(engine))
            }
        });
        match both {
            Some((rule, Some(engine))) => (rule, engine),
            Some((rule, None)) => (rule, self.game.legal_moves()),
            None => (self.interpreted_legal_moves(0), self.game.legal_moves()),
        }
    }

    /// No passive rule: the engine's own legality (`moves`), hooks
    /// included, less the captures of royals C2 forbids.
    fn engine_legal_filtered(&self, mut moves: Vec<Move>) -> Vec<Move> {
        let (pos, t) = self.pos();
        let us = pos.turn();
        let them = us.flip();
        let hooks = t.hooks();
        let self_check = hooks.is_none_or(|h| h.self_check_filter());
        if self_check {
            // C2, for the royals we attack (castling lands on our rook).
            let occ = pos.occupied();
            let mut r = self.royal_mask(pos, them);
            let mut hit = 0u64;
            while r != 0 {
                let sq = r.trailing_zeros() as u8;
                r &= r - 1;
                if hooks.is_some() || pos.is_attacked(t, sq, occ, us) {
                    hit |= 1u64 << sq;
                }
            }
            if hit != 0 {
                moves.retain(|m| m.kind == MoveKind::Castle || hit & (1u64 << m.to) == 0);
            }
        }
        moves
    }

    /// Legal moves under a plan with passive rules.
    fn legal_from_busy_plan(&self, plan: &Plan) -> Vec<Move> {
        let (pos, t) = self.pos();
        let us = pos.turn();
        let them = us.flip();
        let hooks = t.hooks();
        let self_check = hooks.is_none_or(|h| h.self_check_filter());
        let mut royals = [0u64; 2];
        royals[ci(us)] = self.royal_mask(pos, us);
        royals[ci(them)] = self.royal_mask(pos, them);
        // Attacks are FIDE's when nothing of theirs is disarmed (pieces
        // only leave the board by our move) and none of our royals may be
        // protected.
        let attacks_as_fide = hooks.is_none()
            && plan.protect_own.is_empty()
            && plan
                .disarm
                .iter()
                .all(|d| d.pieces.on(pos, them, royals[ci(them)]) == 0);
        let per_move_check = !attacks_as_fide && self_check && !plan.royals_safe;
        // Phase 2: single-move restrictions and royal captures (C2).
        let mut frozen_from = plan.forbid_from;
        // Protected enemy pieces: castling (onto our rook) and en passant
        // (onto an empty square) never meet them on the destination.
        let protected = plan
            .protect_targets
            .iter()
            .fold(0u64, |b, pm| b | pm.on(pos, them, royals[ci(them)]));
        let mut no_to = protected | plan.forbid_to;
        // C2: only enemy royals that we attack can be captured (castling
        // lands on our own rook).
        if self_check {
            let occ = pos.occupied();
            // Protected royals are off limits already.
            let mut r = royals[ci(them)] & !protected;
            while r != 0 {
                let sq = r.trailing_zeros() as u8;
                r &= r - 1;
                if hooks.is_some() || pos.is_attacked(t, sq, occ, us) {
                    no_to |= 1u64 << sq;
                }
            }
        }
        let mut general: Vec<MoveMask> = Vec::new();
        for f in &plan.forbid {
            let mm = f.on(pos, royals);
            if !mm.gate {
                continue;
            }
            if mm.only_from() {
                frozen_from |= mm.from;
            } else if mm.only_to() {
                no_to |= mm.to;
            } else {
                general.push(mm);
            }
        }
        let p2 = Phase2 {
            frozen_from,
            no_to,
            protected,
            general,
        };
        if hooks.is_none() && !per_move_check {
            if let Some(moves) = by_targets(plan, pos, t, royals, &p2, attacks_as_fide) {
                return moves;
            }
        }
        let mut moves = Vec::with_capacity(64);
        if attacks_as_fide {
            pos.legal_moves_into(t, &mut moves);
        } else {
            pos.pseudo_legal_moves_hooked(t, hooks, &mut moves);
        }
        let mut kf = plan
            .keep_farthest
            .iter()
            .map(|pm| pm.on(pos, us, royals[ci(us)]))
            .filter(|&c| c != 0);
        let first_kf = kf.next();
        let mut best = [0u32; 64];
        if per_move_check || hooks.is_some() {
            moves.retain(|m| p2.keeps(pos, *m));
            // Phase 3: self-check under rule-aware attacks.
            if per_move_check {
                moves.retain(|m| {
                    let mut after = *pos;
                    match hooks {
                        Some(h) => after.play_with_hooks(t, h, *m),
                        None => after.play_unchecked(t, *m),
                    }
                    !self.plan_in_check(plan, &after, t, us)
                });
            }
            if hooks.is_some() {
                // Hooks may add a move twice.
                let mut seen = [0u64; 64];
                let mut out = Vec::with_capacity(moves.len());
                for m in moves {
                    if seen[m.from as usize] & (1u64 << m.to) == 0 || !out.contains(&m) {
                        seen[m.from as usize] |= 1u64 << m.to;
                        out.push(m);
                    }
                }
                moves = out;
            }
            if let Some(chosen) = first_kf {
                for m in &moves {
                    note_farthest(&mut best, chosen, *m);
                }
            }
        } else if p2.frozen_from == 0 && p2.no_to == 0 && p2.general.is_empty() {
            // Nothing for phase 2 (then never an en passant victim either).
            if let Some(chosen) = first_kf {
                for m in &moves {
                    note_farthest(&mut best, chosen, *m);
                }
            }
        } else {
            // One pass: phase 2, and the farthest distances of the first
            // keep-farthest among the moves it keeps.
            let chosen = first_kf.unwrap_or(0);
            let mut w = 0;
            for r in 0..moves.len() {
                let m = moves[r];
                if p2.keeps(pos, m) {
                    note_farthest(&mut best, chosen, m);
                    moves[w] = m;
                    w += 1;
                }
            }
            moves.truncate(w);
        }
        // Phase 4: keep-farthest, per piece and direction.
        if let Some(chosen) = first_kf {
            moves.retain(|m| is_farthest(&best, chosen, *m));
        }
        for chosen in kf {
            best = [0u32; 64];
            for m in &moves {
                note_farthest(&mut best, chosen, *m);
            }
            moves.retain(|m| is_farthest(&best, chosen, *m));
        }
        // Phase 5: must-move-if-able, in attach order.
        for sm in &plan.must_move {
            let f = sm.on(pos, royals);
            if moves.iter().any(|m| f.matches(pos, *m)) {
                moves.retain(|m| f.matches(pos, *m));
            }
        }
        moves
    }

    /// Whether `color` has a royal in check on `after` under the plan's
    /// rule-aware attacks: disarmed pieces attack nothing, protected
    /// royals are never in check (rulings C3, C4).
    fn plan_in_check(
        &self,
        plan: &Plan,
        after: &Position<u64>,
        t: &Tables<u64>,
        color: Color,
    ) -> bool {
        let them = color.flip();
        let royals = self.royals(after, t, color);
        if royals == 0 {
            return false;
        }
        let occ = after.occupied();
        let mut disarmed = 0u64;
        if !plan.disarm.is_empty() {
            let their_royals = self.royals(after, t, them);
            for d in &plan.disarm {
                disarmed |= d.pieces.on(after, them, their_royals);
            }
        }
        let mut rs = royals;
        while rs != 0 {
            let sq = rs.trailing_zeros() as u8;
            rs &= rs - 1;
            if after.attackers_to(t, sq, occ, them) & !disarmed == 0 {
                continue;
            }
            let protected = after.piece_at(sq).is_some_and(|p| {
                plan.protect_own
                    .iter()
                    .any(|pm| pm.royal_matches(color, p.kind, sq))
            });
            if !protected {
                return true;
            }
        }
        false
    }
}

/// The single-move restrictions of phase 2 on one position.
struct Phase2 {
    /// Origins of pieces that may not move.
    frozen_from: u64,
    /// Destinations no move may take (enemy royals, protected pieces,
    /// forbidden squares).
    no_to: u64,
    /// Enemy pieces protected against capture (for en passant).
    protected: u64,
    /// Other forbid-move filters.
    general: Vec<MoveMask>,
}

impl Phase2 {
    /// The targets among `tg` (from `from`, of `kind`) that phase 2 keeps;
    /// the set form of [`Self::keeps`].
    #[inline(always)]
    fn targets(&self, pos: &Position<u64>, them: u64, b: &Batch) -> u64 {
        let mut tg = from_in(b, !self.frozen_from) & !self.no_to;
        if b.kind == MoveKind::EnPassant {
            tg = single_ep(b, tg, self.protected);
        }
        for f in &self.general {
            if tg != 0 {
                tg &= !f.matching(pos, them, &Batch { targets: tg, ..*b });
            }
        }
        tg
    }

    #[inline(always)]
    fn keeps(&self, pos: &Position<u64>, m: Move) -> bool {
        self.frozen_from & (1u64 << m.from) == 0
            && self.no_to & (1u64 << m.to) == 0
            && (m.kind != MoveKind::EnPassant
                || self.protected & (1u64 << ((m.from / 8) * 8 + m.to % 8)) == 0)
            && (self.general.is_empty() || !self.general.iter().any(|f| f.matches(pos, m)))
    }
}

/// `(origin, shift, distance)` of a keep-farthest candidate: a move of a
/// chosen piece along a line, castling aside. The farthest distance per
/// origin is kept in 4 bits per direction.
#[inline(always)]
fn farthest_key(chosen: u64, m: Move) -> Option<(usize, u32, u32)> {
    if chosen & (1u64 << m.from) == 0 || m.kind == MoveKind::Castle {
        return None;
    }
    let l = LINES[m.from as usize][m.to as usize];
    (l != 0).then_some((m.from as usize, u32::from(l >> 3) * 4, u32::from(l & 7)))
}

#[inline(always)]
fn note_farthest(best: &mut [u32; 64], chosen: u64, m: Move) {
    if let Some((i, sh, n)) = farthest_key(chosen, m) {
        if n > (best[i] >> sh) & 15 {
            best[i] = (best[i] & !(15 << sh)) | (n << sh);
        }
    }
}

#[inline(always)]
fn is_farthest(best: &[u32; 64], chosen: u64, m: Move) -> bool {
    farthest_key(chosen, m).is_none_or(|(i, sh, n)| (best[i] >> sh) & 15 == n)
}

/// One batch of moves, as [`Position::move_target_sets`] gives them.
type Batch = TargetBatch<u64>;

/// The origin of the move of `b` to `to`.
#[inline(always)]
fn origin(b: &Batch, to: u8) -> u8 {
    if b.delta == 0 {
        b.from
    } else {
        (i32::from(to) - i32::from(b.delta)) as u8
    }
}

/// The targets of `b` whose move starts on a square of `mask`.
#[inline(always)]
fn from_in(b: &Batch, mask: u64) -> u64 {
    if b.delta == 0 {
        b.targets & ((mask >> (b.from & 63)) & 1).wrapping_neg()
    } else if b.delta > 0 {
        b.targets & (mask << b.delta)
    } else {
        b.targets & (mask >> -b.delta)
    }
}

/// Pushes the moves of one batch: to each target, once per promotion
/// choice when the batch promotes.
#[inline(always)]
fn push_targets(pos: &Position<u64>, t: &Tables<u64>, b: &Batch, push: &mut impl FnMut(Move)) {
    let mut tg = b.targets;
    while tg != 0 {
        let to = tg.trailing_zeros() as u8;
        tg &= tg - 1;
        let from = origin(b, to);
        if b.promote {
            pos.for_each_promotion(t, |k| {
                push(Move {
                    from,
                    to,
                    promotion: Some(k),
                    kind: b.kind,
                })
            });
        } else {
            push(Move {
                from,
                to,
                promotion: None,
                kind: b.kind,
            });
        }
    }
}

/// The phases of `legal_from_plan` on target sets rather than on a move
/// list, when no hooks and no per-move check test apply: each restriction
/// is a set operation per batch (one piece, or one direction of the
/// pawn-pattern pieces), and only the moves kept are listed. `legal`: the
/// engine's legal moves (FIDE attacks), else its pseudo-legal ones. `None`
/// when the engine cannot give legal target sets.
fn by_targets(
    plan: &Plan,
    pos: &Position<u64>,
    t: &Tables<u64>,
    royals: [u64; 2],
    p2: &Phase2,
    legal: bool,
) -> Option<Vec<Move>> {
    // On the stack: a position rarely gives more than 64 batches (one per
    // piece, one per pawn direction and kind, castling and en passant).
    let mut bs: smallvec::SmallVec<[Batch; 64]> = smallvec::SmallVec::new();
    // Pseudo-legal castling is judged for attacked squares only if it
    // survives the rules (`judge_castling`): most plans drop it first.
    let mut castles: smallvec::SmallVec<[usize; 4]> = smallvec::SmallVec::new();
    if legal {
        // Castling comes judged.
        if !pos.move_target_sets(t, true, true, |b| bs.push(b)) {
            return None;
        }
    } else {
        pos.move_target_sets(t, false, false, |b| {
            if b.kind == MoveKind::Castle {
                castles.push(bs.len());
            }
            bs.push(b);
        });
    }
    // Must-move filters that never match castling (it captures nothing)
    // leave its judgement to the end.
    let judge_late = !legal && plan.must_move.iter().all(StaticMove::never_castles);
    let us = pos.turn();
    let them = pos.by_color(us.flip());
    // Phase 2.
    if p2.frozen_from != 0 || p2.no_to != 0 || !p2.general.is_empty() {
        for b in bs.iter_mut() {
            b.targets = p2.targets(pos, them, b);
        }
    }
    // Phase 4: keep-farthest, per piece and direction, in attach order.
    for pm in &plan.keep_farthest {
        let chosen = pm.on(pos, us, royals[ci(us)]);
        if chosen != 0 {
            keep_farthest_by_union(&mut bs, chosen);
        }
    }
    if !legal && !judge_late {
        judge_castling(pos, t, &mut bs, &castles);
    }
    // Phase 5: must-move-if-able, in attach order.
    for sm in &plan.must_move {
        let f = sm.on(pos, royals);
        if bs.iter().any(|b| f.matching(pos, them, b) != 0) {
            for b in bs.iter_mut() {
                b.targets = f.matching(pos, them, b);
            }
        }
    }
    if judge_late {
        judge_castling(pos, t, &mut bs, &castles);
    }
    let mut moves = Vec::with_capacity(64);
    for b in &bs {
        push_targets(pos, t, b, &mut |m| moves.push(m));
    }
    Some(moves)
}

/// Drops the castling moves left in the batches `castles` of `bs` whose
/// king would be in check, cross or land on an attacked square (the
/// engine's test; castling is judged with rights and paths only when
/// listed for this module).
fn judge_castling(pos: &Position<u64>, t: &Tables<u64>, bs: &mut [Batch], castles: &[usize]) {
    for &i in castles {
        let b = &mut bs[i];
        let mut tg = b.targets;
        while tg != 0 {
            let to = tg.trailing_zeros() as u8;
            tg &= tg - 1;
            let m = Move {
                from: b.from,
                to,
                promotion: None,
                kind: MoveKind::Castle,
            };
            if !pos.castling_is_safe(t, m) {
                b.targets &= !(1u64 << to);
            }
        }
    }
}

/// Phase 4 for one keep-farthest rule: the targets of the `chosen` pieces
/// (castling aside) reduced to the farthest on each line, judged on the
/// union of each piece's moves (a piece may have several batches, and a
/// set-wise batch holds moves of several pieces).
fn keep_farthest_by_union(bs: &mut [Batch], chosen: u64) {
    let mut union = [0u64; 64];
    for b in bs.iter().filter(|b| b.kind != MoveKind::Castle) {
        if b.delta == 0 {
            if chosen & (1u64 << b.from) != 0 {
                union[b.from as usize & 63] |= b.targets;
            }
        } else {
            let mut m = from_in(b, chosen);
            while m != 0 {
                let to = m.trailing_zeros() as u8;
                m &= m - 1;
                union[origin(b, to) as usize & 63] |= 1u64 << to;
            }
        }
    }
    for b in bs.iter_mut().filter(|b| b.kind != MoveKind::Castle) {
        if b.delta == 0 {
            if chosen & (1u64 << b.from) != 0 {
                b.targets &= farthest(b.from, union[b.from as usize & 63]);
            }
        } else {
            let mut m = from_in(b, chosen);
            while m != 0 {
                let to = m.trailing_zeros() as u8;
                m &= m - 1;
                let from = origin(b, to);
                b.targets &= farthest(from, union[from as usize & 63]) | !(1u64 << to);
            }
        }
    }
}

/// The targets `tg` of an en passant batch without those whose victim is
/// protected.
#[inline]
fn single_ep(b: &Batch, mut tg: u64, protected: u64) -> u64 {
    let mut out = 0;
    while tg != 0 {
        let to = tg.trailing_zeros() as u8;
        tg &= tg - 1;
        let from = origin(b, to);
        if protected & (1u64 << ((from / 8) * 8 + to % 8)) == 0 {
            out |= 1u64 << to;
        }
    }
    out
}

/// The eight rays from each square (queen directions), and whether each
/// direction runs towards higher square indices.
const fn ray_table() -> [[u64; 8]; 64] {
    let dirs = [
        (1i32, 0i32),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut t = [[0u64; 8]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = dirs[d];
            let (mut x, mut y) = ((s % 8) as i32 + dx, (s / 8) as i32 + dy);
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                t[s][d] |= 1u64 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

static RAYS: [[u64; 8]; 64] = ray_table();
/// Directions of `RAYS` that run towards higher indices.
const UP: [bool; 8] = [true, false, true, false, true, false, true, false];

/// Of the targets `tg` of the piece on `from`, those off the lines through
/// `from` and, on each ray, the farthest one (ice_physics' keep-farthest).
#[inline]
fn farthest(from: u8, tg: u64) -> u64 {
    let rays = &RAYS[from as usize];
    let mut keep = tg;
    for d in 0..8 {
        let r = tg & rays[d];
        if r != 0 {
            let far = if UP[d] {
                1u64 << (63 - r.leading_zeros())
            } else {
                r & r.wrapping_neg()
            };
            keep &= !r | far;
        }
    }
    keep
}
