//! Inputs found by the fuzz targets in `crates/engine/fuzz` (minimised),
//! kept as regression tests: each must give a clean `Err`, or an `Ok` that
//! keeps the engine's invariants, and never a panic.

use houserules_engine::{Game, MoveKind, Variant};

fn game(fen: &str) -> Result<Game, houserules_engine::GameError> {
    Game::from_fen(Variant::chess(), fen)
}

/// Plays every legal move of `g` on a copy, and the first legal reply after
/// it: playing a legal move must not panic.
fn play_all(g: &Game) {
    for m in g.legal_moves() {
        let mut next = g.clone();
        next.apply(m).expect("a legal move applies");
        let replies = next.legal_moves();
        if let Some(&r) = replies.first() {
            next.apply(r).expect("a legal reply applies");
        }
        let _ = next.fen();
        let _ = next.status();
    }
}

/// fuzz `fen`: a half-move clock of `u32::MAX` overflowed in
/// `Position::play_unchecked` (`self.halfmove + 1`), a panic in debug builds
/// and a silent wrap to 0 in release. The FEN should be refused, or the
/// clock saturate.
#[test]
fn halfmove_clock_at_u32_max_does_not_overflow() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 4294967295 1",
        "8/2q5/3P4/KB5r/1R3p1k/8/4P1P1/8 w - - 4294967295",
    ] {
        if let Ok(g) = game(fen) {
            play_all(&g);
            let _ = g.perft(2, false);
        }
    }
}

/// fuzz `fen`: a full-move number of `u32::MAX` overflowed after a Black
/// move (`self.fullmove += 1`).
#[test]
fn fullmove_number_at_u32_max_does_not_overflow() {
    if let Ok(g) = game("4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295") {
        play_all(&g);
        let _ = g.perft(2, false);
    }
}

/// fuzz `fen`: the en passant square was kept when the piece it would
/// capture (one rank past it) is not a pawn, here the black king on f5, so
/// `exf6` "en passant" captured the king. The FEN written afterwards had no
/// black king and did not read back. The field should be dropped (the FEN
/// reader keeps it only when an en passant capture is possible) or the FEN
/// refused.
#[test]
fn en_passant_square_in_front_of_a_non_pawn_is_not_kept() {
    let fens = [
        "8/8/8/4Pk2/8/8/8/4K3 w - f6 0 1",
        // As found: several kings and pieces on odd squares.
        "rPnbbqnp/ppp1p1pp/8/3pPk2/8/8/PPPK1PPP/bqBNQBQR w KQkQ f6 0 3",
        // Black to move, the white king in front of the square.
        "4k3/8/8/8/3pK3/8/8/8 b - e3 0 1",
    ];
    for fen in fens {
        let Ok(g) = game(fen) else { continue };
        for m in g.legal_moves() {
            assert_ne!(
                m.kind,
                MoveKind::EnPassant,
                "{fen}: en passant capture of a non-pawn {}",
                g.uci(m)
            );
            let mut next = g.clone();
            next.apply(m).expect("a legal move applies");
            let written = next.fen();
            assert!(
                game(&written).is_ok(),
                "{fen}: after {} the FEN {written} does not read back",
                g.uci(m)
            );
        }
    }
}

/// fuzz `fen`: a two-square en passant field (passed square and landing
/// square, RULINGS P27) was accepted whatever the geometry: with `d3f7`,
/// `exd3` "en passant" removed the pawn on f7, and the FEN written back
/// (`d3`, one square) read as a different position. A passed square that
/// the piece on the landing square cannot have passed over should be
/// dropped (or the FEN refused), and the written FEN must read back the same.
#[test]
fn two_square_en_passant_field_with_impossible_geometry_is_not_kept() {
    let fens = [
        "4k3/5p2/8/8/8/8/4P3/4K3 w - d3f7 0 1",
        "4k3/5p2/8/8/8/8/4P3/4K3 w - f7d3 0 1",
        // As found.
        "rnbqbrnk/Pbp1pprp/8/3pKP2/8/8/PPPPPr1P/NQRBKBNR w kq d3f7 0 1",
    ];
    for fen in fens {
        let Ok(g) = game(fen) else { continue };
        let written = g.fen();
        let again = game(&written).expect("the written FEN reads");
        assert_eq!(again.fen(), written, "{fen}: FEN round trip");
        for m in g.legal_moves() {
            assert_ne!(
                m.kind,
                MoveKind::EnPassant,
                "{fen}: impossible en passant {}",
                g.uci(m)
            );
        }
    }
}
