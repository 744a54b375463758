//! Horde (lichess; python-chess 1.11.2's `HordeBoard`) as rule hooks on
//! FIDE chess.
//!
//! White has no king and 36 pawns (`rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/
//! PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1`); Black plays FIDE chess. The
//! rules, as python-chess's source has them:
//!
//! - A side with no pieces left has lost (`is_variant_loss`/`_win`; an
//!   empty board would be a draw, `is_variant_draw`), and the game is
//!   over: no moves follow (`generate_legal_moves` at a variant end).
//! - A pawn on its first or second rank may double-step
//!   (`generate_pseudo_legal_moves`: the single step's square, then one
//!   more onto the third or fourth rank), however it got there, so a pawn
//!   that stepped from the first rank to the second may still double-step.
//! - Only a double step from the second rank opens en passant (`push`
//!   sets the en passant square only for a double step from the second
//!   rank; a capturer must stand on the fifth rank, which a pawn passed
//!   by a step from the first rank never neighbours).
//! - White, without a king, is never in check; every pseudo-legal move
//!   of White's is legal.
//! - No dead position: python-chess's `has_insufficient_material(BLACK)`
//!   is always false (the king can always take the whole horde), so
//!   `is_insufficient_material()`, which needs both sides, never holds.

use houserules_engine::bitboard::BitSet;
use houserules_engine::hooks::{HookProfile, HookResult, ListRule, Royalty, RuleHooks};
use houserules_engine::{Color, Move, MoveKind, Position, Tables};

use crate::lichess_atomic::PAWN;

/// Horde's rules (see the module documentation). The game definition it
/// runs on is FIDE chess with the pawn's initial ranks set to the first
/// and second ([`crate::lichess::LichessGame::build`]), so that a
/// position read from FEN counts pawns on both as unmoved.
#[derive(Clone, Copy, Debug, Default)]
pub struct Horde;

/// The rank (0-based, seen from White) of `sq` relative to `color`'s side.
#[inline]
fn relative_rank<B: BitSet>(t: &Tables<B>, sq: u8, color: Color) -> u8 {
    let r = sq / t.width();
    match color {
        Color::White => r,
        Color::Black => t.height() - 1 - r,
    }
}

impl<B: BitSet> RuleHooks<B> for Horde {
    fn profile(&self) -> HookProfile {
        HookProfile {
            piece_moves: false,
            extra_moves: false,
            filter_move: false,
            list_rule: ListRule::Keep,
            // The engine's royal set (Black's king; White has none).
            royalty: Royalty::Engine,
            // `after_move` marks unmoved pawns and closes en passant: rule
            // state only, never pieces.
            effects: true,
            board_effects: false,
            engine_attacks: true,
            game_over: true,
        }
    }

    /// A side without pieces: the game is over.
    fn game_over(&self, _t: &Tables<B>, pos: &Position<B>) -> bool {
        Color::ALL.iter().any(|&c| pos.by_color(c).is_empty())
    }

    fn filter_moves(&self, t: &Tables<B>, pos: &Position<B>, moves: &mut Vec<Move>) {
        if RuleHooks::<B>::game_over(self, t, pos) {
            moves.clear();
        }
    }

    /// A pawn that lands on its second rank (a step or a capture from the
    /// first) may double-step from there; a double step from the first
    /// rank opens no en passant.
    fn after_move(&self, t: &Tables<B>, before: &Position<B>, pos: &mut Position<B>, m: Move) {
        let us = before.turn();
        let pawn_moved = before.piece_at(m.from).is_some_and(|p| p.kind == PAWN);
        if !pawn_moved || m.kind == MoveKind::Drop {
            return;
        }
        let from_rank = relative_rank(t, m.from, us);
        if m.kind == MoveKind::DoubleStep && from_rank == 0 {
            pos.clear_en_passant();
        }
        if relative_rank(t, m.to, us) == 1
            && m.promotion.is_none()
            && pos.piece_at(m.to).is_some_and(|p| p.kind == PAWN)
        {
            let bit = B::bit(m.to);
            if !pos.unmoved_squares().has(m.to) {
                pos.set_unmoved_squares(pos.unmoved_squares() | bit);
            }
        }
    }

    /// python-chess's order: the side to move without pieces has lost
    /// (`is_variant_loss`), else the opponent without pieces has
    /// (`is_variant_win`); an empty board is a draw (`is_variant_draw`).
    fn game_result(
        &self,
        _t: &Tables<B>,
        pos: &Position<B>,
        _legal: &[Move],
    ) -> Option<HookResult> {
        let us = pos.turn();
        let (mine, theirs) = (pos.by_color(us).any(), pos.by_color(us.flip()).any());
        let winner = match (mine, theirs) {
            (true, true) => return None,
            (false, false) => None,
            (false, true) => Some(us.flip()),
            (true, false) => Some(us),
        };
        Some(HookResult {
            winner,
            reason: "horde".into(),
        })
    }

    /// White has no king (python-chess's `HordeBoard.status` drops
    /// `STATUS_NO_WHITE_KING`).
    fn setup_needs_royals(&self) -> bool {
        false
    }

    /// Never a dead position (see the module documentation).
    fn insufficient_material(&self, _t: &Tables<B>, _pos: &Position<B>) -> Option<bool> {
        Some(false)
    }
}
