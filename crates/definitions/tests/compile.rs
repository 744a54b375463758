//! What the format's entries compile to (the table "How conditions become
//! engine rules" of docs/game-format.md).

use houserules_engine::definition::{EnPassantRole, Reach, Shape, ShapeMode};
use houserules_engine::GameDefinition;

/// A one-piece-type game (plus a king) whose first piece has `movement`.
fn game(movement: &str, extra: &str) -> GameDefinition {
    let text = format!(
        "id: test\nboard: {{ width: 8, height: 8 }}\nsetup: 4k3/8/8/8/3X4/8/8/4K3 w - - 0 1\nroyal: [King]\npieces:\n  - id: X\n    symbol: X\n    movement:\n{movement}{extra}  - id: King\n    symbol: K\n    movement:\n      - type: Step\n        direction: Omnidirectional\n"
    );
    houserules_definitions::load_str("test.yaml", &text)
        .unwrap_or_else(|e| panic!("{}\n{text}", e.render()))
}

fn shapes(movement: &str) -> Vec<Shape> {
    game(movement, "").pieces[0].shapes.clone()
}

#[test]
fn step_range_two_jumps_without_a_clear_path_and_rides_with_one() {
    let s = shapes("      - type: Step\n        direction: Orthogonal\n        range: 2\n");
    assert_eq!(s[0].reach, Reach::Leap);
    assert_eq!(s[0].vectors, [(0, 2), (0, -2), (2, 0), (-2, 0)]);
    let s = shapes("      - type: Step\n        direction: Forward\n        range: 2\n        condition: $path.is_clear and $target.is_empty\n");
    assert_eq!(
        s[0].reach,
        Reach::Ride {
            min: 2,
            max: Some(2)
        }
    );
    assert_eq!(s[0].mode, ShapeMode::MoveOnly);
}

#[test]
fn slide_along_a_literal_vector_is_a_rider() {
    let s = shapes("      - type: Slide\n        direction: [2, 1]\n        symmetry: Full\n");
    assert_eq!(s[0].reach, Reach::Ride { min: 1, max: None });
    assert_eq!(s[0].vectors.len(), 8);
    assert_eq!(s[0].mode, ShapeMode::MoveOrCapture);
}

#[test]
fn target_tests_give_the_mode() {
    let mode = |c: &str| {
        shapes(&format!(
            "      - type: Leap\n        direction: [1, 2]\n        condition: {c}\n"
        ))[0]
            .mode
    };
    assert_eq!(mode("$target.is_empty"), ShapeMode::MoveOnly);
    assert_eq!(mode("$target.has_enemy"), ShapeMode::CaptureOnly);
    assert_eq!(
        mode("$target.is_empty or $target.has_enemy"),
        ShapeMode::MoveOrCapture
    );
    assert_eq!(mode("not $target.has_friend"), ShapeMode::MoveOrCapture);
    assert_eq!(
        mode("$target.has_piece and not $target.has_friend"),
        ShapeMode::CaptureOnly
    );
}

#[test]
fn first_move_only() {
    let s = shapes("      - type: Leap\n        direction: [0, 3]\n        condition: self.has_moved == false and $target.is_empty\n");
    assert!(s[0].first_move_only);
    assert_eq!(s[0].en_passant, EnPassantRole::None);
}

#[test]
fn symmetries() {
    let v = |sym: &str| {
        shapes(&format!(
            "      - type: Leap\n        direction: [2, 1]\n        symmetry: {sym}\n"
        ))[0]
            .vectors
            .clone()
    };
    assert_eq!(v("None"), [(2, 1)]);
    assert_eq!(v("LeftRight"), [(2, 1), (-2, 1)]);
    assert_eq!(v("ForwardBackward"), [(2, 1), (2, -1)]);
}

#[test]
fn capture_with_a_range_rides() {
    let s =
        shapes("      - type: Capture\n        direction: Diagonal\n        range: Unlimited\n");
    assert_eq!(s[0].reach, Reach::Ride { min: 1, max: None });
    assert_eq!(s[0].mode, ShapeMode::CaptureOnly);
}

#[test]
fn promotion_zone_from_a_relative_rank() {
    let d = game(
        "      - type: Step\n        direction: Forward\n",
        "    triggers:\n      - event: AfterMove\n        condition: self.rank >= $board.height - 1 and $board.width == 8\n        action: Promote(King)\n",
    );
    let p = d.promotion.expect("promotion");
    assert_eq!(p.ranks, [6, 7]);
    assert_eq!(p.pieces, [0]);
    assert!(d.pieces[0].pawn_like);
}
