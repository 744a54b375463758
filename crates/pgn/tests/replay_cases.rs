//! Replay on small games whose expected results were computed with
//! python-chess 1.11.2 (noted next to each case).

use houserules_pgn::replay::{is_null_move, rules_for_variant};
use houserules_pgn::{replay, PgnGame, Reader, ReplayErrorKind, ReplayWarning, Rules};

fn game(text: &str) -> PgnGame {
    Reader::new(text.as_bytes())
        .next()
        .expect("one game")
        .expect("reads")
}

#[test]
fn variant_tag_spellings() {
    for v in [
        "Standard",
        "normal",
        "chess",
        "From Position",
        "STANDARD",
        " standard ",
    ] {
        assert_eq!(rules_for_variant(Some(v)), Ok(Rules::Chess), "{v}");
    }
    assert_eq!(rules_for_variant(None), Ok(Rules::Chess));
    for v in [
        "Chess960",
        "chess 960",
        "fischerandom",
        "Fischerandom",
        "FRC",
        "frc",
        "Fischer Random",
        "fischerrandom",
    ] {
        assert_eq!(rules_for_variant(Some(v)), Ok(Rules::Chess960), "{v}");
    }
    for v in ["Antichess", "Crazyhouse", "Atomic", "Three-check"] {
        assert_eq!(rules_for_variant(Some(v)), Err(v.to_string()));
    }
}

#[test]
fn unsupported_variant_is_an_error_not_a_crash() {
    let r = replay(&game("[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 N@f6 *"));
    let e = r.error.clone().expect("error");
    assert_eq!(
        e.kind,
        ReplayErrorKind::VariantNotSupported("Crazyhouse".into())
    );
    // The tag is the game's first line, its `[` in column 1.
    assert_eq!(
        e.to_string(),
        "variant not supported: Crazyhouse (line 1:1)"
    );
    assert_eq!((r.plies, r.final_fen(), r.status()), (0, None, None));
}

#[test]
fn bad_fen_tag() {
    let r = replay(&game("[SetUp \"1\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n*"));
    let e = r.error.clone().expect("error");
    assert!(matches!(e.kind, ReplayErrorKind::BadFen(_)), "{e}");
    assert!(
        e.to_string().starts_with("bad FEN tag: `8/8/8 w - - 0 1`"),
        "{e}"
    );
    // Regression (new-user trial): the error said where the tag is. The
    // FEN tag is on line 2, its `[` in column 1.
    assert!(e.to_string().ends_with("(line 2:1)"), "{e}");
}

#[test]
fn starts_from_the_fen_tag() {
    // python-chess: 3 plies, 8/3k4/8/8/4P3/8/3K4/8 b - - 2 2
    let r = replay(&game(
        "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 2. Kd2 *",
    ));
    assert!(r.error.is_none());
    assert_eq!(r.plies, 3);
    assert_eq!(
        r.final_fen().as_deref(),
        Some("8/3k4/8/8/4P3/8/3K4/8 b - - 2 2")
    );
    // python-chess: checkmate after 1. Qg7 from a FEN.
    let r = replay(&game(
        "[FEN \"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1\"]\n\n1. Qg7 *",
    ));
    assert_eq!(r.status().as_deref(), Some("checkmate"));
    assert_eq!(
        r.final_fen().as_deref(),
        Some("7k/6Q1/6K1/8/8/8/8/8 b - - 1 1")
    );
    // python-chess: K v K is insufficient material.
    let r = replay(&game("[FEN \"8/8/8/8/8/k7/8/K7 w - - 0 1\"]\n\n*"));
    assert_eq!(
        (r.plies, r.status().as_deref()),
        (0, Some("insufficient-material"))
    );
}

#[test]
fn null_moves() {
    assert!(is_null_move("--") && is_null_move("Z0") && !is_null_move("e4"));
    // python-chess: 6 plies, r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 4 4
    let r = replay(&game("1. e4 e5 2. Z0 Nf6 3. -- Nc6 *"));
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(r.plies, 6);
    assert_eq!(
        r.final_fen().as_deref(),
        Some("r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 4 4")
    );
}

#[test]
fn uci_fallback() {
    // python-chess: 7 plies, ..., RNBQ1RK1 b kq - 5 4 (e1g1 castles).
    let r = replay(&game("1. e2e4 e7e5 2. g1f3 b8c6 3. f1c4 g8f6 4. e1g1 *"));
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(
        r.final_fen().as_deref(),
        Some("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4")
    );
}

#[test]
fn king_takes_rook_castling_in_standard_chess() {
    // python-chess reads `e1h1` as castling: r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1
    let r = replay(&game(
        "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. e1h1 *",
    ));
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(
        r.final_fen().as_deref(),
        Some("r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1")
    );
}

#[test]
fn illegal_and_ambiguous_moves_are_reported_with_their_ply() {
    // python-chess: illegal san 'Ke3' after 2 plies.
    let r = replay(&game("1. e4 e5 2. Ke3 *"));
    let e = r.error.clone().expect("error");
    assert_eq!(
        (e.ply, e.san.as_deref(), &e.kind),
        (Some(3), Some("Ke3"), &ReplayErrorKind::Illegal)
    );
    assert_eq!(r.plies, 2);
    assert_eq!(
        e.fen.as_deref(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    );
    assert_eq!(e.pos.map(|p| (p.line, p.column)), Some((1, 13)));

    // python-chess: ambiguous san 'Nd2' after 4 plies (knights b1 and f3).
    let r = replay(&game("1. Nf3 Nf6 2. d3 d6 3. Nd2 *"));
    let e = r.error.clone().expect("error");
    assert_eq!((e.ply, r.plies), (Some(5), 4));
    let ReplayErrorKind::Ambiguous(mut c) = e.kind.clone() else {
        panic!("{e}")
    };
    c.sort();
    assert_eq!(c, ["b1d2", "f3d2"]);
    assert!(e.to_string().contains("ambiguous"), "{e}");

    let r = replay(&game("1. e4 Xx9 *"));
    assert_eq!(r.error.expect("error").kind, ReplayErrorKind::Syntax);
}

#[test]
fn chess960_castling() {
    // python-chess: 4 plies, 2kr2r1/1ppppppp/p7/8/8/7P/PPPPPPP1/R4RK1 w - - 1 3;
    // UCI of the castlings b1g1 and b8a8.
    let text = "[Variant \"FRC\"]\n[SetUp \"1\"]\n[FEN \"rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1\"]\n\n1. O-O a6 2. h3 O-O-O *";
    let r = replay(&game(text));
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(r.rules, Some(Rules::Chess960));
    assert_eq!(
        r.final_fen().as_deref(),
        Some("2kr2r1/1ppppppp/p7/8/8/7P/PPPPPPP1/R4RK1 w - - 1 3")
    );
    let g = r.game.expect("game");
    assert!(g.is_chess960());
}

#[test]
fn replay_with_asks_the_resolver_for_the_trimmed_tag() {
    use std::cell::RefCell;
    let seen = RefCell::new(Vec::new());
    let record = |tag: &str| {
        seen.borrow_mut().push(tag.to_string());
        None
    };
    let plain = game("1. e4 e5 *");
    let r = houserules_pgn::replay_with(&plain, &record);
    assert_eq!((r.plies, r.rules), (2, Some(Rules::Chess)));
    let zh = game("[Variant \" Crazyhouse \"]\n\n1. e4 *");
    let r = houserules_pgn::replay_with(&zh, &record);
    assert_eq!(
        r.error.expect("refused").kind,
        ReplayErrorKind::VariantNotSupported(" Crazyhouse ".into())
    );
    // An unresolved tag falls back to the built-in rules, as `replay`.
    assert_eq!(*seen.borrow(), ["", "Crazyhouse"]);
}

#[test]
fn a_resolved_variant_starts_from_its_own_start_position() {
    let suicide = |tag: &str| {
        (tag == "Antichess").then(|| {
            houserules_presets::build_from_str("suicide-chess", None)
                .expect("builds")
                .0
        })
    };
    // python-chess 1.11.2 AntichessBoard: after 1. e4 d5 2. exd5,
    // rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b - - 0 2 (no castling).
    let g = game("[Variant \"Antichess\"]\n\n1. e4 d5 2. exd5 *");
    let r = houserules_pgn::replay_with(&g, &suicide);
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(r.rules, Some(Rules::Resolved));
    assert_eq!(
        r.final_fen().as_deref(),
        Some("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b - - 0 2")
    );
    // Without the resolver the same game is refused.
    assert!(matches!(
        replay(&g).error.expect("refused").kind,
        ReplayErrorKind::VariantNotSupported(_)
    ));
}

#[test]
fn a_resolved_chess960_game_keeps_chess960_castling() {
    // As chess960_castling above, through a resolver that answers every tag
    // with FIDE chess.
    let text = "[Variant \"FRC\"]\n[SetUp \"1\"]\n[FEN \"rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1\"]\n\n1. O-O a6 2. h3 O-O-O *";
    let chess = |_: &str| Some(houserules_engine::Variant::chess());
    let r = houserules_pgn::replay_with(&game(text), &chess);
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(r.rules, Some(Rules::Resolved));
    assert_eq!(
        r.final_fen().as_deref(),
        Some("2kr2r1/1ppppppp/p7/8/8/7P/PPPPPPP1/R4RK1 w - - 1 3")
    );
    assert!(r.game.expect("game").is_chess960());
}

/// Regression (new-user trial): a written result that contradicts the
/// board went unnoticed. Fool's mate is a Black win (FIDE 5.1.1), so
/// `1-0` contradicts it; the tag and the movetext marker also differ.
#[test]
fn result_contradicting_checkmate_is_a_warning() {
    let r = replay(&game("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2"));
    assert!(r.error.is_none());
    assert_eq!(
        r.warnings,
        [
            ReplayWarning::ResultTagDiffers {
                tag: "1-0".into(),
                movetext: "1/2-1/2".into()
            },
            ReplayWarning::ResultMismatch {
                written: "1-0".into(),
                expected: "0-1".into(),
                status: "checkmate".into()
            }
        ]
    );
    // Written correctly, or unknown (`*`), or an unfinished position with
    // any result (a resignation): no warning.
    for text in [
        "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1",
        "1. f3 e5 2. g4 Qh4# *",
        "[Result \"1-0\"]\n\n1. e4 e5 1-0",
    ] {
        assert_eq!(replay(&game(text)).warnings, [], "{text}");
    }
}

/// Moves after an automatic draw (FIDE 9.6.1: the fifth occurrence of a
/// position ends the game). Knights out and back twice from the start: the
/// start position occurs for the 3rd time after ply 8, the 5th after ply
/// 16; the 17th move is played past the end.
#[test]
fn moves_after_fivefold_repetition_are_a_warning() {
    let cycle = "Nf3 Nf6 Ng1 Ng8 ";
    let text = format!("{} e4 1/2-1/2", cycle.repeat(4));
    let r = replay(&game(&text));
    assert!(r.error.is_none());
    assert_eq!(r.plies, 17);
    assert_eq!(
        r.warnings,
        [ReplayWarning::MovesAfterEnd {
            ply: 16,
            status: "fivefold-repetition".into()
        }]
    );
    // Stopping at the fifth occurrence: no warning (the result is right).
    let r = replay(&game(&format!("{} 1/2-1/2", cycle.repeat(4))));
    assert_eq!(r.warnings, []);
}

/// Regression (session-6 trial): a `1/2-1/2` justified by a claim made by
/// announcing a move (FIDE 9.2.1, 9.3.1) was not recognised. python-chess
/// 1.11.2 on the final positions: `can_claim_threefold_repetition()` is
/// True for the first game (announcing Ng8 brings the start position
/// back a third time), `can_claim_fifty_moves()` True for the second
/// (White to move at half-move clock 99), both False for the third.
#[test]
fn a_draw_claimed_by_announcing_a_move_justifies_the_result() {
    let r = replay(&game(
        "[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 1/2-1/2",
    ));
    assert_eq!(r.claim, Some(houserules_engine::Claim::ThreefoldRepetition));
    assert_eq!(r.claim_move.as_deref(), Some("Ng8"));

    let r = replay(&game(
        "[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n[FEN \"7k/8/8/8/8/8/8/KR6 b - - 98 80\"]\n\n80... Kg8 1/2-1/2",
    ));
    assert_eq!(r.claim, Some(houserules_engine::Claim::FiftyMoveRule));
    // Any rook or king move completes the 50 moves; a pawnless position
    // has no irreversible move but captures, and there are none.
    assert!(r.claim_move.is_some());

    let r = replay(&game(
        "[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 1/2-1/2",
    ));
    assert_eq!(r.claim, None);
    assert_eq!(r.claim_move, None);
}
