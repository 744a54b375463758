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

/// What legality needs of a position, gathered once: the side to move's
/// single king, the enemy's, and which quiet moves cannot expose the
/// king. Legality follows `leaves_mover_exposed` after `after_move`'s
/// explosion (python-chess's `AtomicBoard.is_legal`), judged on bitboards:
/// the mover's king must stand and not be attacked after the move and its
/// blast, unless the blast took the enemy king (a win) or the kings are
/// connected (never check).
struct Node<B> {
    them: Color,
    /// The mover's king square.
    ksq: u8,
    /// The enemy king.
    enemy_king: B,
    /// The kings stand next to each other.
    connected: bool,
    occ: B,
    their: B,
    /// Pieces that are not pawns (blasts remove only those).
    blastable: B,
    /// The king and the pieces pinned to it, when the king is not attacked
    /// (`Position::exposed_movers_of`); `None` when it is.
    exposed: Option<B>,
}

impl<B: BitSet> Node<B> {
    /// `None` when a side has no king or more than one (the caller then
    /// plays every move).
    fn new(t: &Tables<B>, pos: &Position<B>) -> Option<Node<B>> {
        let us = pos.turn();
        let them = us.flip();
        let (ours, enemy_king) = (kings(pos, us), kings(pos, them));
        if ours.count() != 1 || enemy_king.count() != 1 {
            return None;
        }
        let ksq = ours.lsb();
        let connected = (ring(t, ksq) & enemy_king).any();
        let exposed = if connected {
            None
        } else {
            pos.exposed_movers_of(t, ours)
        };
        Some(Node {
            them,
            ksq,
            enemy_king,
            connected,
            occ: pos.occupied(),
            their: pos.by_color(them),
            blastable: pos.occupied() & !pos.by_kind(PAWN),
            exposed,
        })
    }

    /// Whether every quiet move of the (non-king) piece on `from` is
    /// legal: the kings are connected (and stay so: the king does not
    /// move), or the piece is neither the king nor pinned and the king is
    /// not attacked.
    #[inline(always)]
    fn quiet_safe(&self, from: u8) -> bool {
        self.connected || self.exposed.is_some_and(|e| !e.has(from))
    }

    /// A move (not castling, not en passant) from `from` to `to`.
    #[inline(always)]
    fn legal(&self, t: &Tables<B>, pos: &Position<B>, from: u8, to: u8) -> bool {
        if self.their.has(to) {
            self.capture_legal(pos, t, from, to)
        } else {
            self.quiet_legal(pos, t, from, to)
        }
    }

    /// A move onto the empty square `to`.
    #[inline(always)]
    fn quiet_legal(&self, pos: &Position<B>, t: &Tables<B>, from: u8, to: u8) -> bool {
        let occ = (self.occ ^ B::bit(from)) | B::bit(to);
        if from == self.ksq {
            // Next to the enemy king the king is never in check.
            return (ring(t, to) & self.enemy_king).any()
                || !pos.is_attacked(t, to, occ, self.them);
        }
        self.quiet_safe(from) || !pos.is_attacked(t, self.ksq, occ, self.them)
    }

    /// A capture on `to`: the capturer and the non-pawns around `to` leave
    /// the board with the captured piece.
    #[inline(always)]
    fn capture_legal(&self, pos: &Position<B>, t: &Tables<B>, from: u8, to: u8) -> bool {
        if from == self.ksq {
            // The king's own capture explodes it.
            return false;
        }
        let blast = ring(t, to) & self.blastable;
        if blast.has(self.ksq) {
            return false;
        }
        if ((blast | B::bit(to)) & self.enemy_king).any() {
            // The enemy king exploded (or was taken): the move wins.
            return true;
        }
        if self.connected {
            return true;
        }
        // Pieces off the board do not attack (`is_attacked` reads only
        // pieces on `occ`).
        let occ = self.occ & !(blast | B::bit(from) | B::bit(to));
        !pos.is_attacked(t, self.ksq, occ, self.them)
    }
}

impl Atomic {
    /// The general path's judgement of one move: `filter_move`, then the
    /// move and its explosion played and `leaves_mover_exposed` asked.
    fn legal_by_play<B: BitSet>(&self, t: &Tables<B>, pos: &Position<B>, m: Move) -> bool {
        if !RuleHooks::<B>::filter_move(self, t, pos, m) {
            return false;
        }
        let mut after = *pos;
        after.play_with_hooks(t, self, m);
        !RuleHooks::<B>::leaves_mover_exposed(self, t, &after, pos.turn())
    }
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
            // Legal moves are judged on bitboards without playing them
            // (`own_legal_moves`); the general path above stays for the
            // engine's other callers and gives the same moves.
            own_moves: true,
        }
    }

    fn own_legal_moves(&self, t: &Tables<B>, pos: &Position<B>, out: &mut Vec<Move>) {
        if RuleHooks::<B>::game_over(self, t, pos) {
            return;
        }
        let start = out.len();
        pos.pseudo_legal_moves_into(t, false, out);
        let node = Node::new(t, pos);
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            let legal = match (&node, m.kind) {
                (Some(n), MoveKind::Normal | MoveKind::DoubleStep) => n.legal(t, pos, m.from, m.to),
                _ => self.legal_by_play(t, pos, m),
            };
            if legal {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
    }

    fn own_legal_count(&self, t: &Tables<B>, pos: &Position<B>) -> u64 {
        if RuleHooks::<B>::game_over(self, t, pos) {
            return 0;
        }
        let Some(node) = Node::new(t, pos) else {
            let mut v = Vec::new();
            RuleHooks::<B>::own_legal_moves(self, t, pos, &mut v);
            return v.len() as u64;
        };
        let mut promotions = 0u64;
        pos.for_each_promotion(t, |_| promotions += 1);
        let mut n = 0u64;
        pos.move_target_sets(t, false, false, |b| {
            let from_of = |to: u8| {
                if b.delta == 0 {
                    b.from
                } else {
                    (to as i32 - b.delta as i32) as u8
                }
            };
            if !matches!(b.kind, MoveKind::Normal | MoveKind::DoubleStep) {
                // Castling and en passant: played and judged.
                for to in b.targets.iter() {
                    let m = Move {
                        from: from_of(to),
                        to,
                        promotion: None,
                        kind: b.kind,
                    };
                    n += u64::from(self.legal_by_play(t, pos, m));
                }
                return;
            }
            let each = if b.promote { promotions } else { 1 };
            if b.delta == 0 && b.from != node.ksq {
                // One piece other than the king: its quiet moves need no
                // test when it cannot expose the king.
                let quiet = b.targets & !node.their;
                let mut k = 0u64;
                if node.quiet_safe(b.from) {
                    k += u64::from(quiet.count());
                } else {
                    k += quiet
                        .iter()
                        .filter(|&to| node.quiet_legal(pos, t, b.from, to))
                        .count() as u64;
                }
                k += (b.targets & node.their)
                    .iter()
                    .filter(|&to| node.capture_legal(pos, t, b.from, to))
                    .count() as u64;
                n += k * each;
                return;
            }
            let k = b
                .targets
                .iter()
                .filter(|&to| node.legal(t, pos, from_of(to), to))
                .count() as u64;
            n += k * each;
        });
        n
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
