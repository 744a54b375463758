//! # Push shapes (`mode: push`, issue 25 item 4)
//!
//! A move shape of `add-moves` / `replace-moves` with `mode: push` moves
//! onto empty squares and onto an own piece or a royal one (either side's),
//! pushing the line of pieces there one square along the move, farthest
//! first, into the first empty square beyond it (no move when that square
//! is off the board or hard-blocked); it captures nothing and attacks
//! nothing. Such a move is judged after the push (legality that sees a
//! move's effects, `runtime/effects.rs`). The rule below is the catalogue's
//! "Pawns Learned Strength" as this language says it: pawns may step one
//! square forward pushing what stands there. Every position is derived by
//! hand in its comment.

use std::collections::BTreeMap;

use houserules_engine::{Game, Variant};
use houserules_modifiers::runtime::{Lifetime, Options};
use houserules_modifiers::Runtime;

const PAWNS_LEARNED_STRENGTH: &str = r#"{
  "version": 1,
  "id": "pawns-learned-strength",
  "name": "Pawns learned strength",
  "passive": [{"kind": "add-moves", "params": {"pieces": {"type": ["pawn"]},
    "shapes": [{"kind": "step", "direction": "forward", "mode": "push"}]}}]
}"#;

/// FIDE chess from `fen` with the push rule attached.
fn runtime(fen: &str) -> Runtime {
    let game = Game::from_fen(Variant::chess(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut rt = Runtime::new(game, Options::default()).expect("runtime");
    let d = houserules_modifiers::validate(PAWNS_LEARNED_STRENGTH).expect("a valid descriptor");
    let turn = rt.game().turn();
    rt.attach(d, turn, Lifetime::Permanent, BTreeMap::new())
        .expect("attaches");
    rt.drive();
    rt
}

fn legal(rt: &Runtime) -> Vec<String> {
    let mut v = rt.legal_moves_uci();
    v.sort();
    v
}

/// The legal move written `uci` (a push is no engine move: the engine's
/// own UCI reader refuses it).
fn listed(rt: &Runtime, uci: &str) -> houserules_engine::Move {
    *rt.legal_moves()
        .iter()
        .find(|&&m| rt.game().uci(m) == uci)
        .unwrap_or_else(|| panic!("{uci} is listed"))
}

fn board_part(rt: &Runtime) -> String {
    rt.game()
        .fen()
        .split(' ')
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_pawn_pushes_an_own_piece_ahead_of_it() {
    // White: Ke1, Pe2, Ne3; Black: Ke8. FIDE chess gives the pawn no move
    // (e3 is occupied, so no double step either). Pushing, e2-e3 moves the
    // knight to e4 (empty) and the pawn lands on e3; its SAN is a quiet
    // pawn move, `e3`, and nothing is captured.
    let mut rt = runtime("4k3/8/8/8/8/4N3/4P3/4K3 w - - 0 1");
    assert!(legal(&rt).contains(&"e2e3".to_string()));
    let m = listed(&rt, "e2e3");
    assert_eq!(rt.san_among(m, &rt.legal_moves()), "e3");
    rt.submit_move("e2e3").expect("legal");
    assert_eq!(board_part(&rt), "4k3/8/8/8/4N3/4P3/8/4K3");
    assert!(rt.state().log.iter().any(|e| e.event == "pushed"));
}

#[test]
fn a_line_that_cannot_move_is_not_pushed() {
    // White: Ka1, Pe6, Ne7, Ne8; Black: Ka8. The line e7-e8 would go to
    // e9, off the board: no push, and the pawn has no move.
    let rt = runtime("k3N3/4N3/4P3/8/8/8/8/K7 w - - 0 1");
    assert!(!legal(&rt).iter().any(|m| m.starts_with("e6")));
}

#[test]
fn a_pawn_may_push_the_enemy_king() {
    // White: Ka1, Pe6; Black: Ke7, Ka8 absent (Black's king is the one on
    // e7). No move captures a royal (rulings C2), but a push is no
    // capture: e6-e7 pushes the king to e8 and the pawn lands on e7. The
    // pawn then attacks d8 and f8, not e8: no check.
    let mut rt = runtime("8/4k3/4P3/8/8/8/8/K7 w - - 0 1");
    assert!(legal(&rt).contains(&"e6e7".to_string()));
    let m = listed(&rt, "e6e7");
    assert_eq!(rt.san_among(m, &rt.legal_moves()), "e7");
    rt.submit_move("e6e7").expect("legal");
    assert_eq!(board_part(&rt), "4k3/4P3/8/8/8/8/8/K7");
    assert!(!rt.is_check());
}

#[test]
fn a_pushed_piece_that_blocks_the_check_makes_the_push_legal() {
    // White: Ka4, Nd3, Pd2; Black: Rh4, Kh8. The rook checks along the
    // fourth rank (b4 to g4 empty). d2-d3 pushes the knight to d4, between
    // the rook and the king, and the pawn lands on d3: legal. Judged on
    // the board the engine's move alone leaves (the pawn on d3, the knight
    // gone, d4 empty) the king would still be in check.
    let mut rt = runtime("7k/8/8/8/K6r/3N4/3P4/8 w - - 0 1");
    assert!(rt.is_check());
    assert!(legal(&rt).contains(&"d2d3".to_string()));
    rt.submit_move("d2d3").expect("legal");
    assert_eq!(board_part(&rt), "7k/8/8/8/K2N3r/3P4/8/8");
}

#[test]
fn a_push_that_moves_the_own_king_into_check_is_illegal() {
    // White: Kd3, Pd2; Black: Rh4, Kh8. The king is not in check (the
    // rook holds the fourth rank and the h-file). d2-d3 pushes the king to
    // d4, on the rook's rank: illegal. Judged on the board the engine's
    // move alone leaves (the pawn "capturing" its own king), it would have
    // looked legal, since no white king would then stand anywhere.
    let rt = runtime("7k/8/8/8/7r/3K4/3P4/8 w - - 0 1");
    assert!(!legal(&rt).contains(&"d2d3".to_string()));
}

#[test]
fn a_push_may_take_the_own_king_out_of_check() {
    // White: Kd3, Pd2; Black: Rh3, Kh8. The rook checks along the third
    // rank. d2-d3 pushes the king to d4 (not attacked: the rook holds the
    // third rank and the h-file) and the pawn lands on d3, between: legal.
    let mut rt = runtime("7k/8/8/8/8/3K3r/3P4/8 w - - 0 1");
    assert!(rt.is_check());
    assert!(legal(&rt).contains(&"d2d3".to_string()));
    rt.submit_move("d2d3").expect("legal");
    assert_eq!(board_part(&rt), "7k/8/8/8/3K4/3P3r/8/8");
}

#[test]
fn a_push_shape_attacks_nothing() {
    // White: Ka1, Pe6; Black: Ke7 (pushable) would be "attacked" only if
    // a push were a capture. Black to move here: Black's king on e7 is not
    // in check from the pawn on e6 (it attacks d7 and f7 only).
    let rt = runtime("8/4k3/4P3/8/8/8/8/K7 b - - 0 1");
    assert!(!rt.is_check());
}

#[test]
fn the_validator_takes_push_on_steps_and_slides_only() {
    let leap = PAWNS_LEARNED_STRENGTH.replace(
        r#"{"kind": "step", "direction": "forward", "mode": "push"}"#,
        r#"{"kind": "leap", "direction": [1, 2], "mode": "push"}"#,
    );
    let err = format!("{:?}", houserules_modifiers::validate(&leap).unwrap_err());
    assert!(err.contains("push"), "{err}");
    let slide = PAWNS_LEARNED_STRENGTH.replace(
        r#""kind": "step", "direction": "forward", "mode": "push""#,
        r#""kind": "slide", "direction": "forward", "mode": "push""#,
    );
    houserules_modifiers::validate(&slide).expect("a slide may push");
}
