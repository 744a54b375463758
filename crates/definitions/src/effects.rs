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

use houserules_engine::definition::{Reach, Shape};
use houserules_engine::hooks::RuleHooks;
use houserules_engine::{BitSet, Color, Move, MoveKind, Position, Tables};

/// One mutation applied after the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// `destroy self`: the moving piece is removed from the square it
    /// reached (after any promotion).
    DestroySelf,
    /// `move self N steps toward target`: the moving piece ends `N` steps
    /// from its origin on the line to the target square (whatever stood on
    /// the target is captured as usual); with `N` at or beyond the target it
    /// stays on the target.
    MoveSelfToward(u8),
}

/// The mutations of one movement entry.
#[derive(Clone, Debug)]
pub(crate) struct Effect {
    /// The piece type that declares the entry.
    pub piece: usize,
    /// The entry's shape, for White (Black's is mirrored vertically).
    pub shape: Shape,
    /// The mutations, in the order written.
    pub ops: Vec<Op>,
    /// Where the first of them is written (for diagnostics).
    pub span: Range<usize>,
}

/// The after-move hook that runs the movement mutations of a definition.
#[derive(Clone, Debug)]
pub struct MutationHooks {
    effects: Vec<Effect>,
}

impl MutationHooks {
    pub(crate) fn new(effects: Vec<Effect>) -> MutationHooks {
        MutationHooks { effects }
    }
}

/// Whether `shape` (of a `color` piece) produces the move `from`→`to` in
/// `pos`: a vector that reaches `to` within the shape's reach, every square
/// before it empty for rides, and the shape's mode allowing a capture or a
/// quiet move as the target square requires.
fn generates<B: BitSet>(
    t: &Tables<B>,
    pos: &Position<B>,
    shape: &Shape,
    color: Color,
    from: u8,
    to: u8,
) -> bool {
    if shape.only.is_some_and(|c| c != color) {
        return false;
    }
    let w = t.width() as i32;
    let (fx, fy) = (from as i32 % w, from as i32 / w);
    let (dx, dy) = (to as i32 % w - fx, to as i32 / w - fy);
    let capture = match pos.piece_at(to) {
        Some(p) if p.color != color => true,
        Some(_) => return false,
        None => false,
    };
    if !(if capture {
        shape.mode.captures()
    } else {
        shape.mode.moves()
    }) {
        return false;
    }
    let occ = pos.occupied();
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

impl<B: BitSet> RuleHooks<B> for MutationHooks {
    fn after_move(&self, t: &Tables<B>, before: &Position<B>, pos: &mut Position<B>, m: Move) {
        if m.kind == MoveKind::Castle {
            return;
        }
        let Some(p) = before.piece_at(m.from) else {
            return;
        };
        for e in &self.effects {
            if e.piece != p.kind.index() || !generates(t, before, &e.shape, p.color, m.from, m.to) {
                continue;
            }
            for op in &e.ops {
                match *op {
                    Op::DestroySelf => {
                        pos.remove_piece(m.to);
                    }
                    Op::MoveSelfToward(n) => {
                        let w = t.width() as i32;
                        let (fx, fy) = (m.from as i32 % w, m.from as i32 / w);
                        let (dx, dy) = (m.to as i32 % w - fx, m.to as i32 / w - fy);
                        let dist = dx.abs().max(dy.abs());
                        if (n as i32) < dist {
                            let (ux, uy) = (dx.signum(), dy.signum());
                            let sq = (fy + n as i32 * uy) * w + fx + n as i32 * ux;
                            pos.relocate_piece(m.to, sq as u8);
                        }
                    }
                }
            }
        }
    }
}
