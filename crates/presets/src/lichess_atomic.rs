//! Atomic chess (lichess; python-chess 1.11.2's `AtomicBoard`) as rule
//! hooks on FIDE chess.
//!
//! A capture explodes: the capturing piece and every piece other than a
//! pawn on the eight squares around the capture square leave the board
//! (the captured piece too, en passant's included). Legality sees the
//! explosion: a move is legal when, after it and its explosion, the
//! mover's king still stands and is not attacked, or the enemy king is
//! gone (that move wins, even out of check). Kings next to each other
//! ("connected") are never in check, since neither can capture the other
//! (a king's capture would explode itself), and a king may castle across
//! squares next to the enemy king.

use houserules_engine::bitboard::BitSet;
use houserules_engine::hooks::{HookProfile, HookResult, ListRule, Royalty, RuleHooks};
use houserules_engine::{Color, Move, MoveKind, PieceKind, Position, Tables};

/// FIDE chess's piece kinds in [`GameDefinition::fide`](houserules_engine::definition::GameDefinition::fide)'s
/// order: pawn, knight, bishop, rook, queen, king.
pub(crate) const PAWN: PieceKind = PieceKind(0);
pub(crate) const KNIGHT: PieceKind = PieceKind(1);
pub(crate) const BISHOP: PieceKind = PieceKind(2);
pub(crate) const ROOK: PieceKind = PieceKind(3);
pub(crate) const QUEEN: PieceKind = PieceKind(4);
pub(crate) const KING: PieceKind = PieceKind(5);

/// Atomic chess's rules (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct Atomic;

/// The eight squares around `sq` (a king's leaps).
#[inline(always)]
fn ring<B: BitSet>(t: &Tables<B>, sq: u8) -> B {
    t.leap_attacks(Color::White, KING, sq)
}

#[inline(always)]
fn kings<B: BitSet>(pos: &Position<B>, c: Color) -> B {
    pos.by_kind(KING) & pos.by_color(c)
}

/// The dark squares (a1 is dark).
fn dark_squares<B: BitSet>(t: &Tables<B>) -> B {
    let mut b = B::EMPTY;
    for s in 0..64u8 {
        if (s % 8 + s / 8) % 2 == 0 && (s as usize) < t.width() as usize * t.height() as usize {
            b |= B::bit(s);
        }
    }
    b
}

/// python-chess's `AtomicBoard.has_insufficient_material(color)`.
fn insufficient<B: BitSet>(t: &Tables<B>, pos: &Position<B>, color: Color) -> bool {
    let them = color.flip();
    let all_kings = pos.by_kind(KING);
    // Nothing matters once the opponent's king has exploded.
    if (pos.by_color(them) & all_kings).is_empty() {
        return false;
    }
    // A bare king cannot win.
    if (pos.by_color(color) & !all_kings).is_empty() {
        return true;
    }
    // While the opponent has more than a king, its own pieces may explode
    // next to its king, unless only bishops that never meet are left.
    if (pos.by_color(them) & !all_kings).any() {
        let bishops = pos.by_kind(BISHOP);
        if pos.occupied() == bishops | all_kings {
            let dark = dark_squares(t);
            let (w, b) = (
                bishops & pos.by_color(Color::White),
                bishops & pos.by_color(Color::Black),
            );
            if (w & dark).is_empty() {
                return (b & !dark).is_empty();
            }
            if (w & !dark).is_empty() {
                return (b & dark).is_empty();
            }
        }
        return false;
    }
    // A queen or a pawn (a future queen) mates a bare king.
    if (pos.by_kind(QUEEN) | pos.by_kind(PAWN)).any() {
        return false;
    }
    // A lone knight, bishop or rook cannot.
    let minors = pos.by_kind(KNIGHT) | pos.by_kind(BISHOP) | pos.by_kind(ROOK);
    if minors.count() == 1 {
        return true;
    }
    // Nor can two knights.
    if pos.occupied() == pos.by_kind(KNIGHT) | all_kings {
        return pos.by_kind(KNIGHT).count() <= 2;
    }
    false
}

impl<B: BitSet> RuleHooks<B> for Atomic {
    fn profile(&self) -> HookProfile {
        HookProfile {
            piece_moves: false,
            extra_moves: false,
            // Castling's attack tests (see `filter_move`).
            filter_move: true,
            list_rule: ListRule::Keep,
            // Every move is played with its explosion and judged by
            // `leaves_mover_exposed`.
            royalty: Royalty::Custom,
            effects: true,
            board_effects: true,
            engine_attacks: false,
            game_over: true,
        }
    }

    /// A side without its king has lost: no moves follow.
    fn game_over(&self, _t: &Tables<B>, pos: &Position<B>) -> bool {
        kings(pos, Color::White).is_empty() || kings(pos, Color::Black).is_empty()
    }

    fn filter_moves(&self, t: &Tables<B>, pos: &Position<B>, moves: &mut Vec<Move>) {
        if RuleHooks::<B>::game_over(self, t, pos) {
            moves.clear();
        }
    }

    /// A square next to `by`'s king is never attacked for king safety:
    /// that king cannot capture, and any capture there would explode it
    /// (python-chess's `_attacked_for_king` and `_kings_connected`).
    fn is_attacked(&self, t: &Tables<B>, pos: &Position<B>, sq: u8, occ: B, by: Color) -> bool {
        if (ring(t, sq) & kings(pos, by)).any() {
            return false;
        }
        pos.is_attacked(t, sq, occ, by)
    }

    fn castling_attack_tests(&self) -> bool {
        false
    }

    /// Castling as python-chess judges it (`generate_castling_moves` with
    /// `AtomicBoard._attacked_for_king`): the king's square and the
    /// squares it crosses not attacked with the king lifted and the rook
    /// in place, its destination not attacked with the rook moved; squares
    /// next to the enemy king never count. Other moves pass.
    fn filter_move(&self, t: &Tables<B>, pos: &Position<B>, m: Move) -> bool {
        if m.kind != MoveKind::Castle {
            return true;
        }
        let w = t.width();
        let (ksq, rsq) = (m.from, m.to);
        let rank = ksq / w * w;
        let (kto, rto) = if rsq < ksq {
            (rank + 2, rank + 3)
        } else {
            (rank + 6, rank + 5)
        };
        let them = pos.turn().flip();
        let mut near_enemy_king = B::EMPTY;
        for k in kings(pos, them).iter() {
            near_enemy_king |= ring(t, k);
        }
        let (lo, hi) = (ksq.min(kto), ksq.max(kto));
        let mut path = B::bit(ksq);
        for s in lo + 1..hi {
            path |= B::bit(s);
        }
        let occ = pos.occupied();
        let attacked = |squares: B, o: B| {
            (squares & !near_enemy_king)
                .iter()
                .any(|s| pos.is_attacked(t, s, o, them))
        };
        let (kb, rb) = (B::bit(ksq), B::bit(rsq));
        !attacked(path, occ ^ kb) && !attacked(B::bit(kto), occ ^ kb ^ rb ^ B::bit(rto))
    }

    fn leaves_mover_exposed(&self, t: &Tables<B>, after: &Position<B>, mover: Color) -> bool {
        let ours = kings(after, mover);
        if ours.is_empty() {
            // The mover's own king exploded (or captured): illegal.
            return true;
        }
        if kings(after, mover.flip()).is_empty() {
            // The enemy king exploded: the move wins.
            return false;
        }
        let occ = after.occupied();
        ours.iter()
            .any(|s| RuleHooks::<B>::is_attacked(self, t, after, s, occ, mover.flip()))
    }

    /// The explosion of a capture.
    fn after_move(&self, t: &Tables<B>, before: &Position<B>, pos: &mut Position<B>, m: Move) {
        let capture = match m.kind {
            MoveKind::EnPassant => true,
            MoveKind::Normal | MoveKind::DoubleStep => before
                .piece_at(m.to)
                .is_some_and(|p| p.color != before.turn()),
            MoveKind::Castle | MoveKind::Drop => false,
        };
        if !capture {
            return;
        }
        let blast = ring(t, m.to) & pos.occupied() & !pos.by_kind(PAWN);
        // A king caught in the blast takes its side's castling rights
        // with it (python-chess clears the rank's rights).
        for c in Color::ALL {
            if (blast & kings(pos, c)).any() {
                pos.remove_castling_rights(pos.castling_rooks() & pos.by_color(c));
            }
        }
        pos.remove_piece(m.to);
        for s in blast.iter() {
            pos.remove_piece(s);
        }
    }

    /// A side whose king exploded has lost (python-chess's
    /// `is_variant_loss` before `is_variant_win`).
    fn game_result(
        &self,
        _t: &Tables<B>,
        pos: &Position<B>,
        _legal: &[Move],
    ) -> Option<HookResult> {
        let us = pos.turn();
        let (mine, theirs) = (kings(pos, us).any(), kings(pos, us.flip()).any());
        let winner = match (mine, theirs) {
            (true, true) | (false, false) => return None,
            (false, true) => us.flip(),
            (true, false) => us,
        };
        Some(HookResult {
            winner: Some(winner),
            reason: "king-exploded".into(),
        })
    }

    fn setup_needs_royals(&self) -> bool {
        false
    }

    /// Positions a game can reach: some king stands, a side has at most
    /// one, and the side not to move is not in check unless the side to
    /// move has already lost its king.
    fn check_setup(&self, t: &Tables<B>, pos: &Position<B>) -> Result<(), String> {
        for c in Color::ALL {
            if kings(pos, c).count() > 1 {
                return Err(format!("{c} has more than one king"));
            }
        }
        if pos.by_kind(KING).is_empty() {
            return Err("neither side has a king".into());
        }
        let (us, them) = (pos.turn(), pos.turn().flip());
        if kings(pos, us).any() && RuleHooks::<B>::in_check(self, t, pos, them) {
            return Err(format!("the side not to move ({them}) is in check"));
        }
        Ok(())
    }

    fn insufficient_material(&self, t: &Tables<B>, pos: &Position<B>) -> Option<bool> {
        Some(insufficient(t, pos, Color::White) && insufficient(t, pos, Color::Black))
    }
}
