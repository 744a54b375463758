//! The public `Game` API on positions whose outcome the FIDE Laws fix.
//! Expected values cite the article they come from.

use houserules_engine::{Claim, Color, Game, GameError, Status, Variant};

fn game(fen: &str) -> Game {
    Game::from_fen(Variant::chess(), fen).expect("valid FEN")
}

#[test]
fn fools_mate_is_checkmate() {
    // FIDE 5.1.1: the king is in check and has no legal move.
    let mut g = Game::chess();
    for m in ["f3", "e5", "g4", "Qh4#"] {
        g.apply_san(m).unwrap();
    }
    assert!(g.is_check());
    assert_eq!(
        g.status(),
        Status::Checkmate {
            winner: Color::Black
        }
    );
    assert!(g.legal_moves().is_empty());
}

#[test]
fn stalemate() {
    // FIDE 5.2.1: no legal move and not in check.
    let g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!g.is_check());
    assert_eq!(g.status(), Status::Stalemate);
}

#[test]
fn insufficient_material_cases() {
    // FIDE 5.2.2 / 9.6; RULINGS G3.
    for fen in [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",   // K v K
        "8/8/8/4k3/8/8/8/4KB2 w - - 0 1",  // K+B v K
        "8/8/8/4k3/8/8/8/4KN2 w - - 0 1",  // K+N v K
        "8/8/8/3bk3/8/8/8/4KB2 w - - 0 1", // K+B v K+B, d5 and f1 both light squares
    ] {
        assert_eq!(game(fen).status(), Status::InsufficientMaterial, "{fen}");
    }
    for fen in [
        "8/8/8/2b1k3/8/8/8/4KB2 w - - 0 1", // c5 dark, f1 light: a mate exists
        "8/8/8/4k3/8/8/8/3NKN2 w - - 0 1",  // two knights: mate possible with help
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",  // a pawn
        "8/8/8/4k3/8/8/8/4KR2 w - - 0 1",   // a rook
    ] {
        assert_eq!(game(fen).status(), Status::Ongoing, "{fen}");
    }
}

#[test]
fn seventy_five_move_rule_is_automatic_fifty_is_claimable() {
    // FIDE 9.3 (claim at 50 moves = 100 half-moves), 9.6.2 (automatic at 75).
    let g = game("8/8/8/4k3/8/8/8/R3K3 w - - 100 80");
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(g.claimable_draw(), Some(Claim::FiftyMoveRule));
    let g = game("8/8/8/4k3/8/8/8/R3K3 w - - 149 80");
    assert_eq!(g.status(), Status::Ongoing);
    let g = game("8/8/8/4k3/8/8/8/R3K3 w - - 150 80");
    assert_eq!(g.status(), Status::SeventyFiveMoveRule);
}

#[test]
fn checkmate_on_the_seventy_fifth_move_stands() {
    // FIDE 9.6.2: "... unless the last move resulted in checkmate".
    let mut g = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100");
    g.apply_san("Ra8#").unwrap();
    assert_eq!(g.halfmove_clock(), 150);
    assert_eq!(
        g.status(),
        Status::Checkmate {
            winner: Color::White
        }
    );
}

#[test]
fn threefold_is_claimable_fivefold_is_automatic() {
    // FIDE 9.2 (claim on the third occurrence), 9.6.1 (fifth ends the game).
    let mut g = Game::chess();
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    for m in shuffle {
        g.apply_san(m).unwrap();
    }
    assert_eq!(g.repetitions(), 2);
    assert_eq!(g.claimable_draw(), None);
    for m in shuffle {
        g.apply_san(m).unwrap();
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable_draw(), Some(Claim::ThreefoldRepetition));
    assert_eq!(g.status(), Status::Ongoing);
    for m in shuffle.iter().chain(shuffle.iter()) {
        g.apply_san(m).unwrap();
    }
    assert_eq!(g.repetitions(), 5);
    assert_eq!(g.status(), Status::FivefoldRepetition);
}

#[test]
fn en_passant_right_is_part_of_the_position() {
    // FIDE 9.2.2.1: positions are the same only if the same en passant
    // capture is possible. After 1.e4 no black pawn can take en passant, so
    // the FEN has no en passant square (RULINGS G2).
    let mut g = Game::chess();
    g.apply_san("e4").unwrap();
    assert_eq!(
        g.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let mut g = game("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3");
    g.apply_san("e4").unwrap();
    assert_eq!(
        g.fen(),
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"
    );
    g.apply_san("dxe3").unwrap();
    assert!(g.piece_at(28).is_none(), "the pawn on e4 is removed");
}

#[test]
fn en_passant_that_exposes_the_king_is_illegal() {
    // FIDE 3.9: no move may leave the own king in check. Here dxe3 e.p.
    // would open the fourth rank to the rook on h4.
    let g = game("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1");
    assert!(g.parse_san("dxe3").is_err());
    // And the FEN drops the unusable en passant square (G2).
    assert_eq!(g.fen(), "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1");
}

#[test]
fn castling_through_check_is_illegal() {
    // FIDE 3.8.2.2: the king may not pass over a square attacked by the
    // opponent. The rook on f8 attacks f1.
    let g = game("1k3r2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(g.parse_san("O-O").is_err());
    assert!(g.parse_san("O-O-O").is_ok());
    assert_eq!(g.uci(g.parse_san("O-O-O").unwrap()), "e1c1");
}

#[test]
fn promotion_offers_four_pieces_and_only_then_a_promotion_field() {
    // FIDE 3.7.5.
    let g = game("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let promos: Vec<String> = g
        .legal_moves()
        .iter()
        .filter(|m| m.from == 52)
        .map(|&m| g.uci(m))
        .collect();
    let mut promos_sorted = promos.clone();
    promos_sorted.sort();
    assert_eq!(promos_sorted, vec!["e7e8b", "e7e8n", "e7e8q", "e7e8r"]);
    assert!(g
        .legal_moves()
        .iter()
        .filter(|m| m.from != 52)
        .all(|m| m.promotion.is_none()));
}

#[test]
fn illegal_move_is_refused_and_game_unchanged() {
    let mut g = Game::chess();
    let before = g.fen();
    let m = houserules_engine::Move::new(12, 36); // e2e5
    match g.apply(m) {
        Err(GameError::IllegalMove { uci, .. }) => assert_eq!(uci, "e2e5"),
        other => panic!("expected IllegalMove, got {other:?}"),
    }
    assert_eq!(g.fen(), before);
}

#[test]
fn undo_restores_position_and_hash() {
    let mut g = Game::chess();
    let (fen, hash) = (g.fen(), g.hash());
    g.apply_san("e4").unwrap();
    assert_ne!(g.hash(), hash);
    g.undo().unwrap();
    assert_eq!((g.fen(), g.hash()), (fen, hash));
    assert!(matches!(g.undo(), Err(GameError::NothingToUndo)));
}

#[test]
fn piece_ids_follow_pieces() {
    let mut g = Game::chess();
    let id = g.piece_id(12); // e2
    assert_ne!(id, 0);
    g.apply_san("e4").unwrap();
    assert_eq!(g.piece_id(28), id);
    assert_eq!(g.piece_id(12), 0);
    // A promoted pawn keeps its identity.
    let mut g = game("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let id = g.piece_id(52);
    g.apply_uci("e7e8q").unwrap();
    assert_eq!(g.piece_id(60), id);
}

#[test]
fn attackers_of_a_square() {
    // Start position: f3 is attacked by the g1 knight and the e2, g2 pawns.
    let g = Game::chess();
    let mut a = g.attackers(21, Color::White);
    a.sort();
    assert_eq!(a, vec![6, 12, 14]);
}

#[test]
fn chess960_castling_is_king_takes_rook_in_uci() {
    // chess960.perft position 0 family: king g1, rooks f1 and h1 (HFhf).
    let g = Game::from_fen(
        Variant::chess960(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    )
    .expect("valid FEN");
    assert!(g.is_chess960());
    assert_eq!(
        g.shredder_fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    );
}

#[test]
fn san_reader_follows_python_chess_leniency() {
    // python-chess parse_san: fully specified squares without a piece
    // letter name any move, castling included; a pawn capture needs its
    // file; `0-0` and `e8Q` are accepted.
    let g = Game::chess();
    assert_eq!(g.uci(g.parse_san("g1f3").unwrap()), "g1f3");
    assert_eq!(g.san(g.parse_san("b1c3").unwrap()), "Nc3");
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(g.san(g.parse_san("e1g1").unwrap()), "O-O");
    assert_eq!(g.san(g.parse_san("e1h1").unwrap()), "O-O");
    assert_eq!(g.san(g.parse_san("0-0-0").unwrap()), "O-O-O");
    let g = game("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    assert!(g.parse_san("d5").is_err(), "a pawn capture needs its file");
    assert_eq!(g.uci(g.parse_san("exd5").unwrap()), "e4d5");
    assert_eq!(g.uci(g.parse_san("ed5").unwrap()), "e4d5");
    let g = game("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert_eq!(g.uci(g.parse_san("e8Q").unwrap()), "e7e8q");
    assert_eq!(g.uci(g.parse_san("e8=N+").unwrap()), "e7e8n");
    assert!(g.parse_san("e8").is_err(), "promotion piece is required");
}

#[test]
fn two_square_en_passant_field_reads_in_either_order() {
    // RULINGS P27 writes (passed, landing); Fairy-Stockfish writes
    // (landing, passed). The occupied square is the landing square.
    for fen in [
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3e4 0 1",
        "4k3/8/8/8/3pP3/8/8/4K3 b - e4e3 0 1",
    ] {
        let g = game(fen);
        assert_eq!(g.fen(), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "{fen}");
        assert!(g.parse_san("dxe3").is_ok(), "{fen}");
    }
}
