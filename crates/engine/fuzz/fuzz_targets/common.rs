//! Shared by the fuzz targets: the chess variant and fixed positions.
#![allow(dead_code)] // each target uses part of it

use std::sync::OnceLock;

use houserules_engine::{Game, Variant};

/// FIDE chess, compiled once.
pub fn chess() -> &'static Variant {
    static V: OnceLock<Variant> = OnceLock::new();
    V.get_or_init(Variant::chess)
}

/// Positions in which SAN and UCI strings are read: castling both ways,
/// en passant, promotions (with capture), ambiguous piece moves, Chess960
/// castling, check.
pub const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n4k/1P6/8/8/8/8/8/K7 w - - 0 1",
    "7k/8/8/8/8/8/6p1/K4R1R b - - 0 1",
    "1k6/8/8/8/Q3Q3/8/8/Q3Q2K w - - 0 1",
    "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1",
];

/// The games of [`FENS`], set up once.
pub fn games() -> &'static [Game] {
    static G: OnceLock<Vec<Game>> = OnceLock::new();
    G.get_or_init(|| {
        FENS.iter()
            .map(|f| Game::from_fen(chess().clone(), f).expect("fixed FEN is valid"))
            .collect()
    })
}
