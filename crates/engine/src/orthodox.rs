//! Counting legal moves for the orthodox piece layout.
//!
//! Bulk-counting perft and the search's move counts spend most of their time
//! in [`Position::count_legal`]. Its generic fast path finds the movers,
//! checkers and snipers by looping over kind masks (which kinds leap, which
//! ride rook-wise or bishop-wise), since a game may have any piece set.
//! Most games houserules plays have FIDE's six piece types in FIDE's order
//! (chess, Chess960 and every preset on the 8×8 board): for them
//! [`Tables::orthodox`] is set and this counter reads each kind's set by a
//! constant index instead.
//!
//! Nothing here is specific to FIDE beyond the layout: leaps still come from
//! the game's tables, the pawns' steps from their [`PawnPattern`], castling
//! and en passant from the shared code of the generic path, so a game whose
//! "knight" leaps differently but keeps the layout is counted exactly too.
//! The differential tests against shakmaty and cozy-chess and the perft
//! suites check every count against the move lists.

use crate::bitboard::BitSet;
use crate::movegen::{magic_snipers, Counter};
use crate::position::Position;
use crate::tables::{PawnPattern, Tables};

/// Kind indices of the orthodox layout (FIDE's piece types in the order of
/// the chess definition).
pub(crate) const PAWN: usize = 0;
pub(crate) const KNIGHT: usize = 1;
pub(crate) const BISHOP: usize = 2;
pub(crate) const ROOK: usize = 3;
pub(crate) const QUEEN: usize = 4;
pub(crate) const KING: usize = 5;

/// Pawn moves of the pawns `set` (one colour) onto `mask`, counted with
/// `promo` moves per promotion into `zone`: pushes onto `empty`, double
/// steps of `unmoved` pawns, captures of `their`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn pawn_moves<B: BitSet>(
    pp: &PawnPattern<B>,
    set: B,
    mask: B,
    empty: B,
    unmoved: B,
    their: B,
    zone: B,
    promo: u64,
) -> u64 {
    let count = |tg: B| tg.count() as u64 + (tg & zone).count() as u64 * (promo - 1);
    let (d, src) = pp.push;
    let mut n = count((set & src).shift(d) & empty & mask);
    if pp.double {
        let mid = (set & unmoved & src).shift(d) & empty;
        n += count((mid & src).shift(d) & empty & mask);
    }
    for &(cd, csrc) in &pp.caps[..pp.ncaps & 3] {
        n += count((set & csrc).shift(cd) & their & mask);
    }
    n
}

impl<B: BitSet> Position<B> {
    /// The number of legal moves on orthodox tables ([`Tables::orthodox`],
    /// no hooks): the same count as the generic fast path, each promotion
    /// counted once per choice. `None` when the side to move has no king
    /// or more than one (the general path judges those).
    #[inline(always)]
    pub(crate) fn count_orthodox(&self, t: &Tables<B>) -> Option<u64> {
        let ui = self.turn.index();
        let ti = ui ^ 1;
        let our = self.by_color[ui];
        let their = self.by_color[ti];
        let kings = self.by_kind[KING];
        let own_king = kings & our;
        if own_king.is_empty() || own_king.more_than_one() {
            return None;
        }
        let mg = t.magic?;
        let ksq = own_king.lsb();
        let k = ksq as usize & 127;
        let occ = our | their;
        let o = occ.to_u64();
        let pawns = self.by_kind[PAWN];
        let knights = self.by_kind[KNIGHT];
        let queens = self.by_kind[QUEEN];
        let diag = (self.by_kind[BISHOP] | queens) & their;
        let orth = (self.by_kind[ROOK] | queens) & their;
        let (rq, bq) = (orth.to_u64(), diag.to_u64());
        let (hu, ht) = (&t.hot[ui], &t.hot[ti]);

        // Checkers by leaps, then riders seen through our own pieces:
        // a direct one checks, one behind a single own piece pins it.
        let mut checkers = ((ht[PAWN].rev_leap_attacks[k] & pawns)
            | (ht[KNIGHT].rev_leap_attacks[k] & knights)
            | (ht[KING].rev_leap_attacks[k] & kings))
            & their;
        let mut block = checkers;
        let mut pinned = B::EMPTY;
        let mut segments = B::EMPTY;
        let th = their.to_u64();
        let snipers = (mg.rook(ksq, th) & rq) | (mg.bishop(ksq, th) & bq);
        let ours = our.to_u64();
        magic_snipers(
            mg,
            ksq,
            snipers,
            (o, ours),
            (&mut checkers, &mut block),
            |on, seg| {
                pinned |= B::from_u64(on);
                segments |= seg;
            },
        );

        let promo = t.promo_choices.len() as u64;
        let mut n = 0u64;
        if !checkers.more_than_one() {
            let target = if checkers.any() { block } else { t.board } & !our;
            // A pinned piece stays on its own pin segment: the part of all
            // segments on its half-line from the king.
            let pin_mask = |sq: u8| segments & B::from_u64(mg.ray(ksq, sq));
            let leaps = &hu[KNIGHT].leap_any;
            for sq in (knights & our).iter() {
                let mut a = leaps[sq as usize & 127] & target;
                if pinned.has(sq) {
                    a &= pin_mask(sq);
                }
                n += a.count() as u64;
            }
            let our_queens = queens & our;
            for sq in ((self.by_kind[BISHOP] & our) | our_queens).iter() {
                let mut a = B::from_u64(mg.bishop(sq, o)) & target;
                if pinned.has(sq) {
                    a &= pin_mask(sq);
                }
                n += a.count() as u64;
            }
            for sq in ((self.by_kind[ROOK] & our) | our_queens).iter() {
                let mut a = B::from_u64(mg.rook(sq, o)) & target;
                if pinned.has(sq) {
                    a &= pin_mask(sq);
                }
                n += a.count() as u64;
            }
            let pp = &t.orthodox_pawn[ui];
            let our_pawns = pawns & our;
            let empty = !occ & t.board;
            let zone = t.promo_zone[ui];
            // Direct calls, not a closure: the closure stopped being
            // inlined once the tables grew (session 18, callgrind).
            let um = self.unmoved;
            n += pawn_moves(
                pp,
                our_pawns & !pinned,
                target,
                empty,
                um,
                their,
                zone,
                promo,
            );
            for sq in (our_pawns & pinned).iter() {
                let mask = target & pin_mask(sq);
                n += pawn_moves(pp, B::bit(sq), mask, empty, um, their, zone, promo);
            }
            if self.ep.any() {
                let mut c = Counter { n: 0, promo };
                self.gen_en_passant(t, &mut c, true);
                n += c.n;
            }
        }

        // The king: each target judged with the king lifted.
        let targets = hu[KING].leap_any[k] & !our;
        let (open, _) = self.open_castlings(t, ksq, checkers.is_empty());
        if targets.is_empty() && open.is_empty() {
            return Some(n);
        }
        let their_pawns = pawns & their;
        let tp = &t.orthodox_pawn[ti];
        let mut leaps = B::EMPTY;
        for &(cd, csrc) in &tp.caps[..tp.ncaps & 3] {
            leaps |= (their_pawns & csrc).shift(cd);
        }
        for s in (knights & their).iter() {
            leaps |= ht[KNIGHT].leap_any[s as usize & 127];
        }
        for s in (kings & their).iter() {
            leaps |= ht[KING].leap_any[s as usize & 127];
        }
        let lifted = o ^ (1u64 << ksq);
        let mut safe = B::EMPTY;
        for to in (targets & !leaps).iter() {
            if mg.rook(to, lifted) & rq == 0 && mg.bishop(to, lifted) & bq == 0 {
                safe |= B::bit(to);
            }
        }
        n += safe.count() as u64;
        if open.any() {
            let mut c = Counter { n: 0, promo };
            self.plain_castles(t, &mut c, ksq, open, (targets, safe), leaps, (rq, bq));
            n += c.n;
        }
        Some(n)
    }
}

#[cfg(test)]
mod tests {
    use crate::definition::GameDefinition;
    use crate::{fen, Variant};

    /// Legal move counts from python-chess 1.11.2
    /// (`chess.Board(fen).legal_moves.count()`): the Chess Programming
    /// Wiki's perft positions, then en passant exposing the king along a
    /// rank (both colours), a double check, a pinned pawn taking its
    /// pinner, a promotion, castling through and out of attack, and a
    /// pinned pawn that may only push.
    const REFERENCE: [(&str, u64); 14] = [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            48,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 14),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            6,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            44,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P3/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            47,
        ),
        ("8/8/8/KPp4r/8/8/8/7k w - c6 0 2", 4),
        ("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", 6),
        ("4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1", 2),
        ("4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1", 5),
        ("3qk3/4P3/8/8/8/8/8/4K3 w - - 0 1", 7),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 26),
        ("r3k2r/8/8/8/8/8/5b2/R3K2R w KQkq - 0 1", 5),
        ("1k6/8/8/5q2/8/3P4/2PKP3/8 w - - 0 1", 10),
        ("4k3/1P6/8/8/8/8/8/4K2q w - - 0 1", 3),
    ];

    #[test]
    fn fide_and_chess960_tables_are_orthodox() {
        for v in [Variant::chess(), Variant::chess960()] {
            assert!(v.tables_u64().expect("8×8").orthodox);
        }
    }

    #[test]
    fn orthodox_counts_match_python_chess() {
        let v = Variant::chess();
        let t = v.tables_u64().expect("8×8");
        for (f, expected) in REFERENCE {
            let pos = fen::parse(v.definition(), t, f).expect("a legal FEN");
            assert_eq!(pos.count_orthodox(t), Some(expected), "{f}");
            assert_eq!(pos.count_legal(t), expected, "{f}");
        }
    }

    /// Knight and bishop swapped: the same game, but kind 1 now rides
    /// bishop-wise and kind 2 leaps, which is not the orthodox layout, so
    /// the generic counter must serve it (and still count python-chess's
    /// 48 moves of Kiwipete).
    #[test]
    fn reordered_kinds_are_not_orthodox() {
        let mut def = GameDefinition::fide();
        def.pieces.swap(1, 2);
        let v = Variant::new(def).expect("compiles");
        let t = v.tables_u64().expect("8×8");
        assert!(!t.orthodox);
        let (f, expected) = REFERENCE[0];
        let pos = fen::parse(v.definition(), t, f).expect("a legal FEN");
        assert_eq!(pos.count_legal(t), expected);
    }
}
