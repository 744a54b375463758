//! Filters decided for a position: piece masks (colour, kind, square,
//! royalty) and move masks.

use super::generate::{from_in, origin, Batch};
use super::*;

/// Bit `c` of a colour (White 0, Black 1).
pub(super) fn ci(c: Color) -> usize {
    c.index()
}

/// Whether piece kind `k` has the descriptor name `name` (the same names as
/// `kind_name`, without building a string).
pub(super) fn kind_is(def: &GameDefinition, k: usize, name: &str) -> bool {
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
pub(super) fn mentions_it(e: &Value) -> bool {
    match e {
        Value::String(s) => s == "$it" || s.starts_with("$it.") || s.starts_with("$it["),
        Value::Array(a) => a.iter().any(mentions_it),
        Value::Object(o) => o.values().any(mentions_it),
        _ => false,
    }
}

pub(super) fn reads_board(e: &Value) -> bool {
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
    pub(super) all_kinds: u64,
}

impl PieceMask {
    /// Every piece of a definition with `n` (≤ 64) kinds.
    pub(super) fn all(n: usize) -> PieceMask {
        let k = if n >= 64 { !0 } else { (1u64 << n) - 1 };
        PieceMask {
            kinds: [k, k],
            squares: !0,
            royal: 3,
            dynamic: false,
            all_kinds: k,
        }
    }
    pub(super) const NONE: PieceMask = PieceMask {
        kinds: [0, 0],
        squares: 0,
        royal: 0,
        dynamic: false,
        all_kinds: 0,
    };

    /// Squares of `color`'s pieces on `pos` that match; `royals` are the
    /// royal squares of `color` there.
    pub(super) fn on(&self, pos: &Position<u64>, color: Color, royals: u64) -> u64 {
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
    pub(super) fn royal_matches(&self, color: Color, k: PieceKind, sq: u8) -> bool {
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
    pub(super) mask: MoveMask,
    /// `piece`: the mover.
    pub(super) piece: Option<PieceMask>,
    /// `target`: the captured piece.
    pub(super) target: Option<PieceMask>,
}

impl StaticMove {
    /// The filter matches no castling move whatever the board (castling
    /// captures nothing).
    pub(super) fn never_castles(&self) -> bool {
        self.mask.capture == Some(true)
            || self.mask.target.is_some()
            || self.target.is_some()
            || self.mask.castling == Some(false)
            || !self.mask.gate
    }

    /// The filter on `pos` (`royals`: royal squares by colour index).
    pub(super) fn on(&self, pos: &Position<u64>, royals: [u64; 2]) -> MoveMask {
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
pub(super) fn captured_sq(pos: &Position<u64>, m: Move) -> Option<u8> {
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
    pub(super) fn only_from(&self) -> bool {
        self.to == !0 && self.only_squares()
    }

    /// Only `to` restricts it.
    pub(super) fn only_to(&self) -> bool {
        self.from == !0 && self.only_squares()
    }

    pub(super) fn only_squares(&self) -> bool {
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
    pub(super) fn matching(&self, pos: &Position<u64>, them: u64, b: &Batch) -> u64 {
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
    pub(super) fn matching_each(&self, pos: &Position<u64>, b: &Batch, mut tg: u64) -> u64 {
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
    pub(super) fn matches(&self, pos: &Position<u64>, m: Move) -> bool {
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
