//! The extension seams, proved with the FIDE rules alone: hooks that
//! re-state FIDE behaviour through the general path must give the reference
//! perft counts, and hooks that change one thing must change exactly that
//! (checked against cozy-chess as the oracle).

mod common;

use common::WhiteForever;
use houserules_engine::hooks::{HookResult, RuleHooks};
use houserules_engine::{
    BitSet, Game, GameDefinition, Move, MoveKind, Position, Status, Tables, Variant,
};

fn hooked<H: RuleHooks<u64> + RuleHooks<u128> + 'static>(h: H) -> Variant {
    Variant::with_hooks(GameDefinition::fide(), h).unwrap()
}

fn cozy_perft(fen: &str, d: u32) -> u64 {
    fn go(b: &cozy_chess::Board, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        let mut n = 0;
        b.generate_moves(|ms| {
            for m in ms {
                let mut c = b.clone();
                c.play_unchecked(m);
                n += go(&c, d - 1);
            }
            false
        });
        n
    }
    go(&fen.parse().unwrap(), d)
}

/// Every hook at its default: the general path alone.
#[derive(Debug)]
struct Defaults;
impl<B: BitSet> RuleHooks<B> for Defaults {}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn general_path_matches_reference_perft() {
    // chessprogramming.org "Perft Results": Kiwipete depth 3 = 97,862;
    // position 3 depth 4 = 43,238; position 4 depth 3 = 9,467.
    let v = hooked(Defaults);
    assert_eq!(
        Game::from_fen(v.clone(), KIWIPETE).unwrap().perft(3, true),
        97862
    );
    assert_eq!(
        Game::from_fen(v.clone(), "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")
            .unwrap()
            .perft(4, true),
        43238
    );
    assert_eq!(
        Game::from_fen(
            v,
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
        )
        .unwrap()
        .perft(3, false),
        9467
    );
}

/// Legal-move filter: no castling. Must equal FIDE without castling rights.
#[derive(Debug)]
struct NoCastling;
impl<B: BitSet> RuleHooks<B> for NoCastling {
    fn filter_move(&self, _t: &Tables<B>, _pos: &Position<B>, m: Move) -> bool {
        m.kind != MoveKind::Castle
    }
}

#[test]
fn legal_move_filter_removes_exactly_the_filtered_moves() {
    let v = hooked(NoCastling);
    let want = cozy_perft(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
        3,
    );
    assert_eq!(Game::from_fen(v, KIWIPETE).unwrap().perft(3, true), want);
}

/// Per-piece override + extra moves: the knight's shapes are replaced by
/// nothing, and its leaps are given back as extra moves. Must equal FIDE.
#[derive(Debug)]
struct GiveBack;
impl<B: BitSet> RuleHooks<B> for GiveBack {
    fn piece_moves(
        &self,
        _t: &Tables<B>,
        pos: &Position<B>,
        from: u8,
        _out: &mut Vec<Move>,
    ) -> bool {
        // FIDE kind order: P N B R Q K; kind 1 is the knight.
        pos.piece_at(from).is_some_and(|p| p.kind.0 == 1)
    }
    fn extra_moves(&self, _t: &Tables<B>, pos: &Position<B>, out: &mut Vec<Move>) {
        let us = pos.turn();
        for from in pos.by_color(us).iter() {
            if pos.piece_at(from).is_none_or(|p| p.kind.0 != 1) {
                continue;
            }
            let (f, r) = ((from % 8) as i8, (from / 8) as i8);
            for (dx, dy) in [
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ] {
                let (x, y) = (f + dx, r + dy);
                if (0..8).contains(&x) && (0..8).contains(&y) {
                    let to = (y * 8 + x) as u8;
                    if !pos.by_color(us).has(to) {
                        out.push(Move::new(from, to));
                    }
                }
            }
        }
    }
}

#[test]
fn per_piece_override_and_extra_moves_feed_the_same_filter() {
    assert_eq!(
        Game::from_fen(hooked(GiveBack), KIWIPETE)
            .unwrap()
            .perft(3, true),
        97862
    );
}

#[test]
fn turn_advance_keeps_the_mover() {
    let mut g = Game::from_fen(hooked(WhiteForever), "startpos").unwrap();
    g.apply_san("e4").unwrap();
    assert_eq!(g.turn(), houserules_engine::Color::White);
    assert_eq!(g.fullmove_number(), 1);
    g.apply_san("d4").unwrap();
    assert_eq!(g.turn(), houserules_engine::Color::White);
}

/// Game-result check: the first capture wins (preset capture-to-win, P9).
#[derive(Debug)]
struct FirstBlood;
impl<B: BitSet> RuleHooks<B> for FirstBlood {
    fn game_result(
        &self,
        _t: &Tables<B>,
        pos: &Position<B>,
        _legal: &[Move],
    ) -> Option<HookResult> {
        let total = pos.occupied().count();
        (total < 32).then(|| HookResult {
            winner: Some(pos.turn().flip()),
            reason: "capture-to-win".into(),
        })
    }
}

#[test]
fn game_result_hook_decides_before_standard_checks() {
    let mut g = Game::from_fen(hooked(FirstBlood), "startpos").unwrap();
    for m in ["e4", "d5", "exd5"] {
        assert_eq!(g.status(), Status::Ongoing);
        g.apply_san(m).unwrap();
    }
    assert_eq!(
        g.status(),
        Status::Variant {
            winner: Some(houserules_engine::Color::White),
            reason: "capture-to-win".into()
        }
    );
}

/// Royal-piece set + self-check filter off: the king may step into check.
/// K on e1, black rook on d8: FIDE allows only e2, f1, f2; without royalty
/// d1 and d2 are playable too.
#[derive(Debug)]
struct NoRoyals;
impl<B: BitSet> RuleHooks<B> for NoRoyals {
    fn royal_squares(&self, _t: &Tables<B>, _pos: &Position<B>, _c: houserules_engine::Color) -> B {
        B::EMPTY
    }
    fn self_check_filter(&self) -> bool {
        false
    }
}

#[test]
fn royal_set_and_self_check_filter_seams() {
    let fen = "3rk3/8/8/8/8/8/8/4K3 w - - 0 1";
    let fide = Game::from_fen(Variant::chess(), fen).unwrap();
    let free = Game::from_fen(hooked(NoRoyals), fen).unwrap();
    // FIDE: Ke1 to e2, f1, f2 (d1, d2 attacked by the rook) = 3 moves.
    assert_eq!(fide.legal_moves().len(), 3);
    // Without royalty all five king steps are playable.
    assert_eq!(free.legal_moves().len(), 5);
}
