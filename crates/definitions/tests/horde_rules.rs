//! The format's additions for horde (issue 25 item 4): movement entries
//! limited by `self.rank`, `royal_optional` and `end.no_pieces`, on the
//! shipped `horde.yaml` and on small hand-written games.
//!
//! Expected values: python-chess 1.11.2's `HordeBoard` where the game is
//! horde (each quoted beside its position), else derived by hand in the
//! comments.

use houserules_engine::definition::{Outcome, ShapeMode};
use houserules_engine::{Color, Game, Status, Variant};

fn horde() -> Variant {
    let src = houserules_definitions::builtin_source("horde").expect("shipped");
    let def = houserules_definitions::load_str("horde.yaml", src)
        .unwrap_or_else(|e| panic!("horde loads:\n{}", e.render()));
    Variant::new(def).expect("horde compiles")
}

fn sorted_uci(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = g.legal_moves().iter().map(|&m| g.uci(m)).collect();
    v.sort();
    v
}

/// A one-piece-type game (plus a king) whose first piece has `movement`.
fn game(movement: &str, setup: &str) -> Result<Variant, String> {
    let text = format!(
        "id: test\nboard: {{ width: 8, height: 8 }}\nsetup: {setup}\nroyal: [King]\npieces:\n  - id: X\n    symbol: X\n    movement:\n{movement}  - id: King\n    symbol: K\n    movement:\n      - type: Step\n        direction: Omnidirectional\n"
    );
    houserules_definitions::load_variant_str("test.yaml", &text).map_err(|e| e.render())
}

#[test]
fn horde_yaml_says_the_rules() {
    let v = horde();
    let d = v.definition();
    assert_eq!(d.royal_optional, [true, false]);
    assert_eq!(d.end.no_pieces, Some(Outcome::Loss));
    assert!(!d.end.insufficient_material);
    let pawn = &d.pieces[0];
    // Single step, two double steps (from the second rank with en passant,
    // from the first without), capture.
    let doubles: Vec<&Vec<u8>> = pawn
        .shapes
        .iter()
        .filter(|s| s.mode == ShapeMode::MoveOnly && !s.from_ranks.is_empty())
        .map(|s| &s.from_ranks)
        .collect();
    assert_eq!(doubles, [&vec![1u8], &vec![0u8]]);
    assert!(pawn.shapes.iter().all(|s| !s.first_move_only));
}

/// python-chess: `4k3/8/8/8/8/1p6/8/P7 w` has `a1a2 a1a3`; after `a1a3`
/// the FEN is `4k3/8/8/8/8/Pp6/8/8 b - - 0 1` (no en passant square) and
/// Black's moves are `b3b2` and the five king moves (no `b3a2`).
#[test]
fn a_double_step_from_the_first_rank_opens_no_en_passant() {
    let mut g = Game::from_fen(horde(), "4k3/8/8/8/8/1p6/8/P7 w - - 0 1").unwrap();
    assert_eq!(sorted_uci(&g), ["a1a2", "a1a3"]);
    g.apply_uci("a1a3").unwrap();
    assert_eq!(g.fen(), "4k3/8/8/8/8/Pp6/8/8 b - - 0 1");
    assert_eq!(
        sorted_uci(&g),
        ["b3b2", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]
    );
}

/// python-chess: after `a2a4` in `4k3/8/8/8/1p6/8/P7/8 w` the FEN is
/// `4k3/8/8/8/Pp6/8/8/8 b - a3 0 1` and `b4a3` is legal.
#[test]
fn a_double_step_from_the_second_rank_opens_en_passant() {
    let mut g = Game::from_fen(horde(), "4k3/8/8/8/1p6/8/P7/8 w - - 0 1").unwrap();
    g.apply_uci("a2a4").unwrap();
    assert_eq!(g.fen(), "4k3/8/8/8/Pp6/8/8/8 b - a3 0 1");
    assert!(sorted_uci(&g).contains(&"b4a3".to_string()));
}

/// python-chess: from `4k3/8/8/8/8/8/8/P7 w`, `a1a2 e8d8` gives
/// `3k4/8/8/8/8/8/P7/8 w - - 1 2` with `a2a3 a2a4`: the pawn that stepped
/// onto its second rank double-steps, however it got there.
#[test]
fn a_pawn_that_stepped_onto_its_second_rank_double_steps() {
    let mut g = Game::from_fen(horde(), "4k3/8/8/8/8/8/8/P7 w - - 0 1").unwrap();
    g.apply_uci("a1a2").unwrap();
    g.apply_uci("e8d8").unwrap();
    assert_eq!(g.fen(), "3k4/8/8/8/8/8/P7/8 w - - 1 2");
    assert_eq!(sorted_uci(&g), ["a2a3", "a2a4"]);
}

/// python-chess: `4k3/8/8/8/8/8/8/8 w` is a variant loss for White (the
/// side to move has no pieces), `… b` a variant win for Black (the
/// opponent has none); neither has legal moves. `HordeBoard.status()` is
/// valid without a white king and `STATUS_NO_BLACK_KING` without a black
/// one.
#[test]
fn a_side_with_no_pieces_has_lost_and_only_white_may_lack_a_king() {
    for fen in ["4k3/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/8 b - - 0 1"] {
        let g = Game::from_fen(horde(), fen).unwrap();
        assert!(g.legal_moves().is_empty(), "{fen}");
        assert_eq!(
            g.status(),
            Status::Variant {
                winner: Some(Color::Black),
                reason: "no-pieces-left".into()
            },
            "{fen}"
        );
    }
    let err = Game::from_fen(horde(), "8/8/8/8/8/8/8/P7 w - - 0 1").unwrap_err();
    assert!(err.to_string().contains("for black"), "{err}");
}

/// python-chess: in `4k3/8/8/8/8/8/4P3/3q4 b`, `d1e2` is `Qxe2#` (it
/// takes White's last piece) and leaves `4k3/8/8/8/8/8/4q3/8 w - - 0 2`,
/// a variant loss for White with no legal moves.
#[test]
fn taking_the_last_piece_wins_at_once() {
    let mut g = Game::from_fen(horde(), "4k3/8/8/8/8/8/4P3/3q4 b - - 0 1").unwrap();
    let m = g.parse_uci("d1e2").unwrap();
    assert_eq!(g.san(m), "Qxe2#");
    g.apply(m).unwrap();
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/4q3/8 w - - 0 2");
    assert!(g.legal_moves().is_empty());
    assert!(matches!(
        g.status(),
        Status::Variant {
            winner: Some(Color::Black),
            ..
        }
    ));
}

/// By hand: an X that leaps one square forward only from its fourth rank
/// (`self.rank == 4`). White's X on d4 has d5; on d3 it has nothing, and
/// Black's X on d5 (its own fourth rank) has d4. The kings on e1/e8 have
/// five moves each, less the squares the other side's X attacks.
#[test]
fn a_leap_limited_by_rank_moves_from_that_rank_only() {
    let m = "      - type: Leap\n        direction: [0, 1]\n        condition: $target.is_empty and self.rank == 4\n";
    let v = game(m, "4k3/8/8/8/3X4/8/8/4K3 w - - 0 1").unwrap();
    let xs = |fen: &str| {
        let g = Game::from_fen(v.clone(), fen).unwrap();
        sorted_uci(&g)
            .into_iter()
            .filter(|u| u.starts_with('d'))
            .collect::<Vec<_>>()
    };
    assert_eq!(xs("4k3/8/8/8/3X4/8/8/4K3 w - - 0 1"), ["d4d5"]);
    assert!(xs("4k3/8/8/8/8/3X4/8/4K3 w - - 0 1").is_empty());
    assert_eq!(xs("4k3/8/8/3x4/8/8/8/4K3 b - - 0 1"), ["d5d4"]);
    assert!(xs("4k3/8/8/8/3x4/8/8/4K3 b - - 0 1").is_empty());
}

/// A ride limited by rank that may capture cannot be played by the engine
/// (it would capture without attacking): refused with a diagnostic.
#[test]
fn a_capturing_ride_limited_by_rank_is_refused() {
    let m = "      - type: Slide\n        direction: Orthogonal\n        condition: $path.is_clear and ($target.is_empty or $target.has_enemy) and self.rank == 1\n";
    let err = game(m, "4k3/8/8/8/3X4/8/8/4K3 w - - 0 1").unwrap_err();
    assert!(err.contains("engine-unsupported"), "{err}");
    assert!(err.contains("self.rank"), "{err}");
}

/// `royal_optional` names players; an unknown one is an error naming it.
#[test]
fn royal_optional_names_players() {
    let text = houserules_definitions::builtin_source("horde")
        .unwrap()
        .replace("royal_optional: [White]", "royal_optional: [Wite]");
    let err = houserules_definitions::load_str("h.yaml", &text)
        .unwrap_err()
        .render();
    assert!(err.contains("unknown player `Wite`"), "{err}");
    assert!(err.contains("White"), "{err}");
}
