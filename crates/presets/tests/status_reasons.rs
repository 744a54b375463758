//! Start positions the rules cannot score, and game-status reasons that
//! say why a game ended (found by the new-user trial, docs/status.md).

mod common;

use common::game;
use houserules_engine::{fen::FenError, Color, Game, GameError, Status};
use houserules_presets::build_from_str;

fn refused(rules: &str, fen: &str) -> String {
    let (v, _) = build_from_str(rules, None).unwrap();
    match Game::from_fen(v, fen) {
        Err(GameError::Fen(FenError::Rules(why))) => why,
        other => panic!("{rules} {fen}: expected a refusal, got {other:?}"),
    }
}

fn variant_status(g: &Game) -> (Option<Color>, String) {
    match g.status() {
        Status::Variant { winner, reason } => (winner, reason),
        s => panic!("expected a rule result, got {s:?}"),
    }
}

#[test]
fn knightmate_rules_start_without_knights_on_both_sides_is_refused() {
    // P16: a side with no knight loses; with neither side having one the
    // position cannot be scored, so it is refused rather than called a
    // loss for the side judged first.
    let why = refused("knightmate-rules", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(why.contains("knight"), "{why}");
    // One side without knights: a finished game, accepted and scored.
    let g = game(
        "knightmate-rules",
        None,
        Some("1n2k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    );
    assert_eq!(
        variant_status(&g),
        (Some(Color::Black), "no-knights-left".into())
    );
}

#[test]
fn extinction_chess_start_without_the_target_on_both_sides_is_refused() {
    // P19: a side whose target type is gone loses.
    let why = refused(
        "extinction-chess:target=queen",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    );
    assert!(why.contains("queens"), "{why}");
    let why = refused(
        "extinction-chess:target=any",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w - - 0 1",
    );
    assert!(why.contains("queens"), "{why}");
    let g = game(
        "extinction-chess",
        None,
        Some("rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNR w - - 0 1"),
    );
    assert_eq!(
        variant_status(&g),
        (Some(Color::Black), "pawns-extinct".into())
    );
}

#[test]
fn weak_dual_king_start_without_kings_on_both_sides_is_refused() {
    let why = refused("weak-dual-king", "rnbq1bnr/8/8/8/8/8/8/RNBQ1BNR w - - 0 1");
    assert!(why.contains("king"), "{why}");
}

#[test]
fn suicide_chess_status_names_why_the_game_ended() {
    // P15 (lichess Antichess): a side with no pieces wins; a stalemated
    // side wins.
    let g = game("suicide-chess", None, Some("8/8/8/8/8/8/8/k7 w - - 0 1"));
    assert_eq!(
        variant_status(&g),
        (Some(Color::White), "no-pieces-left".into())
    );
    // White's pawn on a4 is blocked by Black's on a5; Black's king on h8
    // can still move, so White (to move) is stalemated and wins.
    let g = game("suicide-chess", None, Some("7k/8/8/p7/P7/8/8/8 w - - 0 1"));
    assert_eq!(
        variant_status(&g),
        (Some(Color::White), "no-legal-moves".into())
    );
}

#[test]
fn locked_results_name_the_first_capture_or_promotion() {
    let mut g = game("capture-to-win", None, None);
    for m in ["e2e4", "d7d5", "e4d5"] {
        g.apply_uci(m).unwrap();
    }
    assert_eq!(
        variant_status(&g),
        (Some(Color::White), "first-capture".into())
    );
    let mut g = game(
        "first-promotion-wins",
        None,
        Some("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"),
    );
    g.apply_uci("b7b8q").unwrap();
    assert_eq!(
        variant_status(&g),
        (Some(Color::White), "first-promotion".into())
    );
}
