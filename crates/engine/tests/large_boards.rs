//! Boards larger than 64 squares run on the u128 path of the same engine.

use houserules_engine::definition::*;
use houserules_engine::{Game, Variant};

#[test]
fn capablanca_10x8_matches_fairy_stockfish() {
    // Counts: ../shared/data/variant-perft.tsv, rows `game:capablanca` (Fairy-Stockfish c19b5f6).
    // Built here in Rust to prove the u128 path; the YAML definition comes later.
    let mut d = GameDefinition::fide();
    d.width = 10;
    let kn = expand((2, 1), Symmetry::Full);
    let mut a = d.pieces[2].clone();
    a.id = "Archbishop".into();
    a.symbol = 'A';
    a.role = None;
    a.shapes
        .push(Shape::leap(kn.clone(), ShapeMode::MoveOrCapture));
    let mut c = d.pieces[3].clone();
    c.id = "Chancellor".into();
    c.symbol = 'C';
    c.role = None;
    c.shapes.push(Shape::leap(kn, ShapeMode::MoveOrCapture));
    d.pieces.push(a);
    d.pieces.push(c);
    d.promotion = Some(Promotion {
        pieces: vec![0],
        ranks: vec![7],
        choices: vec![4, 3, 2, 1, 6, 7],
        optional_ranks: vec![],
        limits: vec![],
    });
    d.castling = Some(Castling {
        king: 5,
        rook: 3,
        king_files: [2, 8],
        rook_files: [3, 7],
        chess960: false,
    });
    d.start_fen = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1".into();
    let v = Variant::new(d).unwrap();
    let g = Game::new(v);
    assert_eq!(g.perft(1, true), 28);
    assert_eq!(g.perft(2, true), 784);
    assert_eq!(g.perft(3, true), 25228);
    assert_eq!(g.perft(4, true), 805128);
}
