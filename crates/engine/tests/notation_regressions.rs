//! Regression tests for issue 11's wrong notation answers (library side).
//! Expected values are the issue's, checked with python-chess 1.11.2 where
//! it has an answer (the calls are quoted above each test).

use houserules_engine::fen::FenError;
use houserules_engine::san::SanError;
use houserules_engine::uci::UciError;
use houserules_engine::{Game, GameError, Variant};

mod common;

fn castles(g: &Game) -> Vec<String> {
    common::move_lines(g)
        .into_iter()
        .filter(|l| l.contains("O-O"))
        .collect()
}

/// Issue 11, item 1: standard castling is written king-to-destination even
/// when the enemy king stands on the castling side's back rank on a lower
/// file. python-chess: `Board('8/8/8/8/8/8/8/k3K2R w K - 0 1')` castles
/// `e1g1 O-O+`; `Board('r3k2K/8/8/8/8/8/8/8 b q - 0 1')` castles
/// `e8c8 O-O-O+`.
#[test]
fn standard_castling_is_never_king_takes_rook() {
    let g = Game::from_fen(Variant::chess(), "8/8/8/8/8/8/8/k3K2R w K - 0 1").unwrap();
    assert!(!g.is_chess960());
    assert_eq!(castles(&g), ["e1g1 O-O+"]);
    let g = Game::from_fen(Variant::chess(), "r3k2K/8/8/8/8/8/8/8 b q - 0 1").unwrap();
    assert_eq!(castles(&g), ["e8c8 O-O-O+"]);
    // Perft divide goes through the same writer.
    let g = Game::from_fen(Variant::chess(), "8/8/8/8/8/8/8/k3K2R w K - 0 1").unwrap();
    let divide: Vec<String> = g.divide(1, true).iter().map(|(m, _)| g.uci(*m)).collect();
    assert!(divide.contains(&"e1g1".to_string()), "{divide:?}");
    assert!(!divide.contains(&"e1h1".to_string()), "{divide:?}");
}

/// Issue 11, item 2: a Chess960 game writes castling king-takes-rook
/// whatever the position. python-chess
/// `Board('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1', chess960=True)`:
/// `e1a1 O-O-O`, `e1h1 O-O`.
#[test]
fn chess960_castling_is_always_king_takes_rook() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1";
    let g = Game::from_fen(Variant::chess960(), fen).unwrap();
    assert!(g.is_chess960());
    assert_eq!(castles(&g), ["e1a1 O-O-O", "e1h1 O-O"]);
    // The library call a PGN `Variant "Chess960"` tag makes: the mode set
    // after reading the FEN tag.
    let mut g = Game::from_fen(Variant::chess(), fen).unwrap();
    assert_eq!(castles(&g), ["e1c1 O-O-O", "e1g1 O-O"]);
    g.set_chess960(true);
    assert_eq!(castles(&g), ["e1a1 O-O-O", "e1h1 O-O"]);
    // Both forms are read in either mode.
    for uci in ["e1h1", "e1g1"] {
        assert_eq!(g.uci(g.parse_uci(uci).unwrap()), "e1h1");
    }
}

/// Issue 11, item 3: in standard chess a right whose corner rook is not
/// there is dropped. python-chess: `Board('4k3/8/8/8/8/8/8/4KR2 w K - 0 1')`
/// has 13 legal moves and FEN castling `-`; `Board('r3k3/8/8/8/8/8/8/4KR2
/// w Qq - 0 1').fen()` keeps only `q`.
#[test]
fn standard_castling_rights_need_their_corner_rook() {
    let g = Game::from_fen(Variant::chess(), "4k3/8/8/8/8/8/8/4KR2 w K - 0 1").unwrap();
    assert_eq!(g.perft(1, true), 13);
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/4KR2 w - - 0 1");
    let g = Game::from_fen(Variant::chess(), "r3k3/8/8/8/8/8/8/4KR2 w Qq - 0 1").unwrap();
    assert_eq!(g.fen(), "r3k3/8/8/8/8/8/8/4KR2 w q - 0 1");
    // In Chess960 the same letters name the rooks there: `K` the f1 rook
    // (python-chess with chess960=True: 14 moves, `e1f1` castles).
    let g = Game::from_fen(Variant::chess960(), "4k3/8/8/8/8/8/8/4KR2 w K - 0 1").unwrap();
    assert_eq!(g.perft(1, true), 14);
    // Shredder-FEN file letters keep their meaning in Chess960 (python-chess
    // with chess960=True: only `e1b1 O-O-O`, as the g8 rook attacks g1).
    let g = Game::from_fen(
        Variant::chess960(),
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
    )
    .unwrap();
    assert_eq!(g.shredder_fen(), "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1");
    assert_eq!(castles(&g), ["e1b1 O-O-O"]);
}

/// Issue 11, item 4: two kings of one colour are refused for typed
/// positions, naming both kings; with no black king as well, both faults.
#[test]
fn two_kings_of_one_colour_are_named() {
    let g = Game::from_fen(Variant::chess(), "4k3/8/8/8/8/8/8/3KK3 w - - 0 1").unwrap();
    let e = g.check_royal_count().unwrap_err();
    assert_eq!(
        e.to_string(),
        "FEN position is not valid: white has 2 kings (d1, e1), the rules allow 1"
    );
    let e = Game::from_fen(Variant::chess(), "8/8/8/8/8/8/8/3KK3 w - - 0 1").unwrap_err();
    assert_eq!(
        e,
        GameError::Fen(FenError::RoyalCount(vec![
            "white has 2 kings (d1, e1), the rules allow 1".into(),
            "black has no king".into()
        ]))
    );
    // One king each is fine.
    let g = Game::from_fen(Variant::chess(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(g.check_royal_count(), Ok(()));
}

/// Issue 11, item 10: a pawn move to the last rank without its piece.
/// python-chess's promotions to h8 in `7n/6P1/8/8/8/8/8/K6k w - - 0 1`:
/// `gxh8=B gxh8=N gxh8=Q gxh8=R` (its own error is only "illegal san").
#[test]
fn missing_promotion_piece_lists_the_choices() {
    let g = Game::from_fen(Variant::chess(), "7n/6P1/8/8/8/8/8/K6k w - - 0 1").unwrap();
    let SanError::MissingPromotion { mut choices, .. } = g.parse_san("gxh8").unwrap_err() else {
        panic!("not a missing-promotion error");
    };
    choices.sort();
    assert_eq!(choices, ["gxh8=B", "gxh8=N", "gxh8=Q", "gxh8=R"]);
    let e = g.parse_san("gxh8").unwrap_err().to_string();
    assert!(e.contains("missing the promotion piece"), "{e}");
    let e = g.parse_uci("g7h8").unwrap_err();
    let UciError::MissingPromotion { mut choices, .. } = e.clone() else {
        panic!("not a missing-promotion error: {e}");
    };
    choices.sort();
    assert_eq!(choices, ["g7h8b", "g7h8n", "g7h8q", "g7h8r"]);
    assert!(e.to_string().contains("missing the promotion piece"), "{e}");
    // A move that is simply illegal stays illegal.
    assert!(matches!(g.parse_san("gxf8"), Err(SanError::Illegal(_))));
}
