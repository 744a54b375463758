//! Movement mutations that run as rule hooks (`docs/game-format.md`,
//! "Mutations").
//!
//! A movement entry's `mutations` run when a move of that entry's shape is
//! played (movement-grammar.md, "Mutations"). The en passant marker and
//! the en passant capture compile into engine shapes; the mutations here
//! change the board after the move and so run in the engine's after-move
//! hook ([`houserules_engine::hooks::RuleHooks::after_move`]). Definitions
//! without them get no hooks and keep the engine's fast path.

use std::ops::Range;

use houserules_engine::definition::{EnPassantRole, Reach, Shape};
use houserules_engine::hooks::RuleHooks;
use houserules_engine::{BitSet, Color, Move, MoveKind, Position, Tables};

use crate::props::{has, ByteSet};

/// One mutation applied after the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// `destroy self`: the moving piece is removed from the square it
    /// reached (after any promotion).
    DestroySelf,
    /// `move self N steps toward target`: the moving piece ends `N` steps
    /// from its origin on the line to the target square (whatever stood on
    /// the target is captured as usual); with `N` at or beyond the target it
    /// stays on it.
    MoveSelfToward(u8),
    /// `move self N steps past target final_position`: the moving piece
    /// ends `N` squares beyond the target square on the line of the move
    /// (a jump capture, as in draughts); the move exists only when that
    /// square is on the board and empty.
    MoveSelfPast(u8),
    /// `move target N steps toward self`: the piece on the target square is
    /// not captured but moved `N` squares back along the line toward the
    /// square the mover came from (onto it when `N` reaches it: the two
    /// swap places). Captured after all when that square is taken.
    MoveTargetToward(u8),
    /// `move target N steps past self final_position`: the piece on the
    /// target square is pushed to `N` squares beyond the mover's square on
    /// the line of the move; pushed off the board or onto another piece, it
    /// is captured.
    MoveTargetPast(u8),
    /// `set self.P = …`, compiled to the moving piece's new attribute byte
    /// for each old one (`crate::props`).
    Set(Box<[u8; 256]>),
}

/// One movement entry as the hooks see it.
#[derive(Clone, Debug)]
pub(crate) struct Effect {
    /// The piece type that declares the entry.
    pub piece: usize,
    /// The entry's shape, for White (Black's is mirrored vertically).
    pub shape: Shape,
    /// The attribute bytes for which the entry may be used (a condition on
    /// declared properties); `None`: any.
    pub guard: Option<ByteSet>,
    /// The enemy pieces the entry may capture, as attribute bytes per
    /// piece type (a condition on `$target.<property>` or
    /// `$target.type`); `None`: any.
    pub dest_guard: Option<Vec<ByteSet>>,
    /// The mutations, in the order written.
    pub ops: Vec<Op>,
    /// Where the first of them (or the guarding condition) is written.
    pub span: Range<usize>,
}

/// The rule hooks of a definition: movement mutations after the move, and
/// the property guards of movement entries as a move filter (with the
/// attacks they allow).
#[derive(Clone, Debug)]
pub struct MutationHooks {
    effects: Vec<Effect>,
    /// Piece types with a guarded entry that captures.
    guarded_captures: u32,
    /// Whether properties live in the attribute bytes.
    attrs: bool,
    /// Piece types whose moves the filter must judge (a guard, or a
    /// landing square that must be free).
    filtered: u32,
}

impl MutationHooks {
    pub(crate) fn new(effects: Vec<Effect>, attrs: bool) -> MutationHooks {
        let mut guarded = 0u32;
        let mut guarded_captures = 0u32;
        for e in &effects {
            if e.guard.is_some() || e.dest_guard.is_some() {
                guarded |= 1 << e.piece;
                if e.shape.mode.captures() {
                    guarded_captures |= 1 << e.piece;
                }
            }
        }
        // The compiler lists every entry of these kinds.
        let mut filtered = guarded;
        for e in &effects {
            if e.ops.iter().any(|o| matches!(o, Op::MoveSelfPast(_))) {
                filtered |= 1 << e.piece;
            }
        }
        MutationHooks {
            effects,
            guarded_captures,
            attrs,
            filtered,
        }
    }

    fn passes(e: &Effect, raw: u8) -> bool {
        e.guard.as_ref().is_none_or(|g| has(g, raw))
    }

    /// Whether the entry may capture the piece on `sq` (any enemy when
    /// `sq` is empty: an attack on a square to be entered).
    fn takes<B: BitSet>(e: &Effect, pos: &Position<B>, sq: u8) -> bool {
        let Some(sets) = &e.dest_guard else {
            return true;
        };
        match pos.piece_at(sq) {
            Some(p) => sets
                .get(p.kind.index())
                .is_some_and(|s| has(s, pos.piece_attribute(sq))),
            None => sets.iter().any(|s| s.iter().any(|&w| w != 0)),
        }
    }

    /// Whether the entry's jumps (`move self N steps past target`) land on
    /// an empty square of the board (judged before the move: the mover's
    /// square counts as empty).
    fn lands<B: BitSet>(e: &Effect, t: &Tables<B>, pos: &Position<B>, m: Move) -> bool {
        e.ops.iter().all(|o| match o {
            Op::MoveSelfPast(n) => match along(t, m, m.to, i32::from(*n)) {
                Some(sq) => sq == m.from || !pos.occupied().has(sq),
                None => false,
            },
            _ => true,
        })
    }

    /// Whether the piece on `from` attacks `sq` over `occ` with an entry
    /// its properties allow.
    fn attacks_from<B: BitSet>(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        from: u8,
        sq: u8,
        occ: B,
    ) -> bool {
        let Some(p) = pos.piece_at(from) else {
            return true;
        };
        let k = p.kind.index();
        if self.guarded_captures & (1 << k) == 0 {
            return true;
        }
        let raw = pos.piece_attribute(from);
        self.effects.iter().any(|e| {
            e.piece == k
                && e.shape.mode.captures()
                && Self::passes(e, raw)
                && Self::takes(e, pos, sq)
                && (!e.shape.first_move_only || pos.unmoved_squares().has(from))
                && reaches(t, &e.shape, p.color, from, sq, occ)
        })
    }
}

/// The number of steps from `a` to `b` along a line (the larger of the
/// file and rank distances).
fn steps_between<B: BitSet>(t: &Tables<B>, a: u8, b: u8) -> i32 {
    let w = i32::from(t.width());
    let (dx, dy) = (
        i32::from(b) % w - i32::from(a) % w,
        i32::from(b) / w - i32::from(a) / w,
    );
    dx.abs().max(dy.abs())
}

/// The square `n` steps from `sq` in the direction of the move `m` (from
/// its origin toward its destination), if it is on the board.
fn along<B: BitSet>(t: &Tables<B>, m: Move, sq: u8, n: i32) -> Option<u8> {
    let w = i32::from(t.width());
    let h = i32::from(t.height());
    let (ux, uy) = (
        (i32::from(m.to) % w - i32::from(m.from) % w).signum(),
        (i32::from(m.to) / w - i32::from(m.from) / w).signum(),
    );
    let (x, y) = (i32::from(sq) % w + n * ux, i32::from(sq) / w + n * uy);
    ((0..w).contains(&x) && (0..h).contains(&y)).then_some((y * w + x) as u8)
}

/// Whether `shape` (of a `color` piece on `from`) reaches `to` over the
/// occupancy `occ`: a vector that reaches `to` within the shape's reach,
/// every square before it empty for rides. What stands on `to` is not
/// looked at.
fn reaches<B: BitSet>(
    t: &Tables<B>,
    shape: &Shape,
    color: Color,
    from: u8,
    to: u8,
    occ: B,
) -> bool {
    if shape.only.is_some_and(|c| c != color) {
        return false;
    }
    let w = t.width() as i32;
    let (fx, fy) = (from as i32 % w, from as i32 / w);
    let (dx, dy) = (to as i32 % w - fx, to as i32 / w - fy);
    shape.vectors.iter().any(|&(vx, vy)| {
        let (vx, vy) = (
            vx as i32,
            if color == Color::White { vy } else { -vy } as i32,
        );
        match shape.reach {
            Reach::Leap => (dx, dy) == (vx, vy),
            Reach::Ride { min, max } => {
                // `to` = from + k·v for one k ≥ 1.
                let k = if vx != 0 {
                    dx / vx
                } else if vy != 0 {
                    dy / vy
                } else {
                    return false;
                };
                if k < 1 || (dx, dy) != (k * vx, k * vy) {
                    return false;
                }
                if k < min as i32 || max.is_some_and(|m| k > m as i32) {
                    return false;
                }
                (1..k).all(|j| {
                    let sq = (fy + j * vy) * w + fx + j * vx;
                    !occ.has(sq as u8)
                })
            }
        }
    })
}

/// Whether `shape` (of a `color` piece) produces the move `m` in `pos`:
/// the piece may use it (first-move shapes), it reaches the destination,
/// and its mode allows a capture or a quiet move as the destination
/// requires; en passant captures come from the shape that takes en
/// passant.
fn generates<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    shape: &Shape,
    color: Color,
    m: Move,
) -> bool {
    if shape.first_move_only && !pos.unmoved_squares().has(m.from) {
        return false;
    }
    let capture = match m.kind {
        MoveKind::EnPassant => {
            return shape.en_passant == EnPassantRole::Captures
                && reaches(t, shape, color, m.from, m.to, pos.occupied());
        }
        _ => match pos.piece_at(m.to) {
            Some(p) if p.color != color => true,
            Some(_) => return false,
            None => false,
        },
    };
    if !(if capture {
        shape.mode.captures()
    } else {
        shape.mode.moves()
    }) {
        return false;
    }
    reaches(t, shape, color, m.from, m.to, pos.occupied())
}

impl<B: BitSet> RuleHooks<B> for MutationHooks {
    fn uses_piece_attributes(&self) -> bool {
        self.attrs
    }

    fn filter_move(&self, t: &Tables<B>, pos: &Position<B>, m: Move) -> bool {
        if self.filtered == 0 || m.kind == MoveKind::Castle {
            return true;
        }
        let Some(p) = pos.piece_at(m.from) else {
            return true;
        };
        let k = p.kind.index();
        if self.filtered & (1 << k) == 0 {
            return true;
        }
        let raw = pos.piece_attribute(m.from);
        // Every entry of a filtered kind is listed.
        self.effects.iter().any(|e| {
            e.piece == k
                && Self::passes(e, raw)
                && (!pos.occupied().has(m.to) || Self::takes(e, pos, m.to))
                && generates(t, pos, &e.shape, p.color, m)
                && Self::lands(e, t, pos, m)
        })
    }

    fn is_attacked(&self, t: &Tables<B>, pos: &Position<B>, sq: u8, occ: B, by: Color) -> bool {
        if self.guarded_captures == 0 {
            return pos.is_attacked(t, sq, occ, by);
        }
        pos.attackers_to(t, sq, occ, by)
            .iter()
            .any(|from| self.attacks_from(t, pos, from, sq, occ))
    }

    fn attackers(&self, t: &Tables<B>, pos: &Position<B>, sq: u8, occ: B, by: Color) -> B {
        let all = pos.attackers_to(t, sq, occ, by);
        if self.guarded_captures == 0 {
            return all;
        }
        let mut out = B::EMPTY;
        for from in all.iter() {
            if self.attacks_from(t, pos, from, sq, occ) {
                out |= B::bit(from);
            }
        }
        out
    }

    fn after_move(&self, t: &Tables<B>, before: &Position<B>, pos: &mut Position<B>, m: Move) {
        if m.kind == MoveKind::Castle {
            return;
        }
        let Some(p) = before.piece_at(m.from) else {
            return;
        };
        let promoted = m.promotion.is_some();
        if self.attrs && promoted {
            // A promoted piece starts with its new type's defaults.
            pos.set_piece_attribute(m.to, 0);
        }
        let raw = before.piece_attribute(m.from);
        // Where the moving piece is now (`None` once destroyed).
        let mut cur = Some(m.to);
        for e in &self.effects {
            if e.ops.is_empty()
                || e.piece != p.kind.index()
                || !Self::passes(e, raw)
                || (before.occupied().has(m.to) && !Self::takes(e, before, m.to))
                || !generates(t, before, &e.shape, p.color, m)
            {
                continue;
            }
            for op in &e.ops {
                let Some(at) = cur else {
                    break;
                };
                match op {
                    Op::DestroySelf => {
                        pos.remove_piece(at);
                        cur = None;
                    }
                    Op::MoveSelfToward(n) => {
                        let n = i32::from(*n);
                        let dist = steps_between(t, m.from, m.to);
                        if n < dist {
                            if let Some(sq) = along(t, m, m.from, n) {
                                if pos.relocate_piece(at, sq) {
                                    cur = Some(sq);
                                }
                            }
                        }
                    }
                    Op::MoveSelfPast(n) => {
                        if let Some(sq) = along(t, m, m.to, i32::from(*n)) {
                            if pos.relocate_piece(at, sq) {
                                cur = Some(sq);
                            }
                        }
                    }
                    Op::MoveTargetToward(n) | Op::MoveTargetPast(n) => {
                        let Some(victim) = before.piece_at(m.to) else {
                            continue;
                        };
                        let n = i32::from(*n);
                        let dest = if let Op::MoveTargetPast(_) = op {
                            along(t, m, at, n)
                        } else {
                            let k = (steps_between(t, m.from, m.to) - n).max(0);
                            along(t, m, m.from, k)
                        };
                        if let Some(sq) = dest {
                            pos.place_piece(
                                t,
                                sq,
                                victim,
                                before.piece_id(m.to),
                                before.piece_attribute(m.to),
                            );
                        }
                    }
                    Op::Set(table) => {
                        // The entry's properties are the old type's; a
                        // promoted piece keeps its new type's defaults.
                        if !promoted {
                            let a = pos.piece_attribute(at);
                            pos.set_piece_attribute(at, table[usize::from(a)]);
                        }
                    }
                }
            }
        }
    }
}
