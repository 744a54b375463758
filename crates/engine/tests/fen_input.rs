//! FEN input that the reference libraries refuse or normalise: every
//! expectation is shakmaty's (0.30.1) reading of the same text, which
//! agrees with python-chess (`Board.status()`, `Board.fen()`).

use houserules_engine::fen::FenError;
use houserules_engine::{Game, Variant};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, PositionErrorKinds};

/// shakmaty's reading: the normalised FEN, or the position error kinds.
fn shakmaty(fen: &str) -> Result<String, PositionErrorKinds> {
    let setup: Fen = fen.parse().expect("shakmaty parses the text");
    let pos: Chess = setup
        .into_position(CastlingMode::Standard)
        .map_err(|e| e.kinds())?;
    Ok(Fen::from_position(&pos, EnPassantMode::Legal).to_string())
}

#[test]
fn pawn_on_first_or_last_rank_is_refused_naming_the_square() {
    // Regression (new-user trial): such FENs were accepted silently by
    // the CLI.
    for (fen, square) in [
        ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "h8"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "a1"),
        ("4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "a1"),
        ("p3k3/8/8/8/8/8/8/4K3 b - - 0 1", "a8"),
    ] {
        let kinds = shakmaty(fen).expect_err("shakmaty refuses it");
        assert!(
            kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK),
            "{fen}"
        );
        // Read as python-chess's `Board` reads it, refused by the check
        // front ends run on typed positions.
        let g = Game::from_fen(Variant::chess(), fen).expect("read");
        match g.check_piece_ranks() {
            Err(e @ FenError::PieceRank { .. }) => {
                let msg = e.to_string();
                assert!(msg.contains(square) && msg.contains("pawn"), "{msg}");
            }
            other => panic!("{fen}: expected a piece-rank error, got {other:?}"),
        }
    }
    // Pawns on their second and seventh ranks stay legal.
    let fen = "4k3/P7/8/8/8/8/p7/4K3 w - - 0 1";
    let g = Game::from_fen(Variant::chess(), fen).unwrap();
    assert_eq!(g.check_piece_ranks(), Ok(()));
    assert_eq!(g.fen(), shakmaty(fen).unwrap());
}

#[test]
fn repeated_castling_letter_reads_as_one_right() {
    // shakmaty ("ignores repeated castling rights") and python-chess both
    // read `KKq` as `Kq`; so do we (docs/status.md, decisions).
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KKq - 0 1";
    let g = Game::from_fen(Variant::chess(), fen).unwrap();
    assert_eq!(g.fen(), shakmaty(fen).unwrap());
    assert_eq!(g.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1");
}

#[test]
fn full_move_number_zero_reads_as_one() {
    // shakmaty ("accepts 0 as fullmove number and uses 1 instead") and
    // python-chess (`max(fullmove, 1)`) agree.
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 0";
    let g = Game::from_fen(Variant::chess(), fen).unwrap();
    assert_eq!(g.fullmove_number(), 1);
    assert_eq!(g.fen(), shakmaty(fen).unwrap());
}

/// A board field with the wrong number of ranks says how many it has and
/// how many the board needs, not "rank 1: 1 ranks" (new-user trial).
#[test]
fn wrong_rank_count_names_both_counts() {
    let e = Game::from_fen(Variant::chess(), "garbage").expect_err("one rank");
    assert!(
        matches!(
            e,
            houserules_engine::GameError::Fen(FenError::RankCount {
                found: 1,
                expected: 8
            })
        ),
        "{e:?}"
    );
    let seven = Game::from_fen(Variant::chess(), "8/8/8/8/8/8/8 w - - 0 1")
        .expect_err("seven ranks")
        .to_string();
    assert!(seven.contains("has 7 ranks, expected 8"), "{seven}");
}

/// Regression: a half-move clock of 20 digits was "expected a non-negative
/// number"; it is one, only above the largest clock stored (u32::MAX,
/// 4294967295). A non-number keeps the old message.
#[test]
fn too_large_clock_is_said_to_be_too_large() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1";
    let msg = Game::from_fen(Variant::chess(), fen)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("half-move clock"), "{msg}");
    assert!(msg.contains("too large (at most 4294967295)"), "{msg}");
    let msg = Game::from_fen(Variant::chess(), "4k3/8/8/8/8/8/8/4K3 w - - -1 1")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("expected a non-negative number"), "{msg}");
}

/// Regression (trial 20): a short last part of the board field (White's
/// first rank) was reported as "rank 8 (from the top)", which reads as
/// chess's rank 8. By hand: `4k3/8/8/8/8/8/8/4K2` has seven files in its
/// eighth part, rank 1 of the board; `4k3/8/8/8/8/8/8/9` is over the
/// width there too.
#[test]
fn a_bad_rank_is_named_by_its_number_on_the_board() {
    for (fen, rank, reason) in [
        ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", 1, "7 files, expected 8"),
        ("4k2/8/8/8/8/8/8/4K3 w - - 0 1", 8, "7 files, expected 8"),
        ("4k3/8/8/8/8/8/8/9 w - - 0 1", 1, "more than 8 files"),
    ] {
        let err = Game::from_fen(Variant::chess(), fen).expect_err(fen);
        assert_eq!(
            err.to_string(),
            format!("FEN board field, rank {rank}: {reason}"),
            "{fen}"
        );
    }
}
