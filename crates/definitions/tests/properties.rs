//! # Piece properties: declared defaults, conditions on them, `set`
//!
//! `docs/examples/charged-pieces.yaml` (movement-grammar.md, "Mutations":
//! a movement entry's mutations run when that shape is taken; pieces have
//! a properties bag with defaults) is a 5×5 game:
//!
//! - Charger `C`: steps to an empty neighbour; captures a neighbour only
//!   while `self.charges > 0` (default 2), each capture using one
//!   (`set self.charges = self.charges - 1`).
//! - Sprinter `S`: one step forward (move or capture), and once in its
//!   life two steps forward over an empty square, on any move
//!   (`self.sprint == true`, then `set self.sprint = false`).
//! - Hunter `H`: steps to an empty neighbour; captures a neighbour only
//!   when it is an enemy Sprinter that has used its double step
//!   (`$target.type == Sprinter and $target.sprint == false`).
//! - King `K`: royal, one step in any direction.
//!
//! Every expected value is derived by hand in the comment above it.
//! Squares are a1–e5.

mod common;

use common::{dests, play, set};
use houserules_definitions::{load_str, load_variant_str, Code, Diagnostic};
use houserules_engine::Game;

const NAME: &str = "charged-pieces.yaml";
const GAME: &str = include_str!("../../../docs/examples/charged-pieces.yaml");

fn game(fen: Option<&str>) -> Game {
    common::game(NAME, GAME, fen)
}

#[test]
fn properties_run_as_hooks_that_keep_attribute_bytes() {
    let v = common::variant(NAME, GAME);
    assert!(v.has_hooks());
    let err = load_str("charged-pieces.yaml", GAME).unwrap_err();
    assert_eq!(err.iter().next().unwrap().code(), Code::EngineUnsupported);
}

/// Start: White S b1, K c1, S d1, C c2; Black mirrored (s b5, k c5, s d5,
/// c c4).
///
/// perft(1) = 11: each Sprinter 1 step + its double step = 4; the Charger
/// steps to b2 d2 b3 c3 d3 = 5 (no enemy next to it); the king b2, d2 = 2.
///
/// perft(2) = 111. Black's 11 replies stay 11 after b1b2, d1d2, Cb2, Cd2,
/// Kb2 and Kd2 (6 × 11). After b1b3 the black b-Sprinter loses its double
/// step (b3 taken), the black Charger trades the step to b3 for its capture,
/// and b4 is attacked, so the king has d4 only: 9; d1d3 likewise 9. After
/// Cb3 (attacking b4 and c4) and Cd3: 9 each the same way. After Cc3 both
/// king squares b4 and d4 are attacked, the black Charger captures c3 instead
/// of stepping there: 2 + 2 + 5 + 0 = 9. 66 + 5 × 9 = 111.
#[test]
fn start_position_perft_by_hand() {
    let g = game(None);
    assert_eq!((g.perft(1, true), g.perft(2, true)), (11, 111));
    assert_eq!(g.perft(2, false), 111);
}

/// White K a1, Charger c2; Black Sprinters b3 and c3, K e5.
///
/// The Charger: steps b1 c1 d1 b2 d2 d3, captures b3 c3 (2 charges): 8.
/// The king: a2, b1; b2 is attacked by the b3 Sprinter (forward for Black
/// is toward rank 1): 2. 10 moves.
///
/// c2xb3 uses a charge (1 left); after e5e4, b3-c4 keeps it: the Charger
/// on c4 attacks d5, d4 and d3, so the black king on e4 has e5 and e3
/// only. With c2xb3, e5e4, b3xc3 instead, the Charger has no charge
/// left: it attacks nothing, so the black king has all of d5 e5 d4 d3 e3;
/// after e4d4 the Charger cannot take the king beside it and only steps to
/// its 7 empty neighbours.
#[test]
fn charges_allow_captures_and_attacks_until_used_up() {
    let fen = "4k/5/1ss2/2C2/K4 w - - 0 1";
    let g = game(Some(fen));
    assert_eq!(g.legal_moves().len(), 10);
    assert_eq!(dests(&g, "c2"), set("b1 c1 d1 b2 d2 d3 b3 c3"));

    let mut one_left = game(Some(fen));
    play(&mut one_left, &["c2b3", "e5e4", "b3c4"]);
    assert_eq!(dests(&one_left, "e4"), set("e5 e3"));

    let mut none_left = game(Some(fen));
    play(&mut none_left, &["c2b3", "e5e4", "b3c3"]);
    assert_eq!(dests(&none_left, "e4"), set("d5 e5 d4 d3 e3"));
    play(&mut none_left, &["e4d4"]);
    assert_eq!(dests(&none_left, "c3"), set("b2 c2 d2 b3 d3 b4 c4"));
}

/// Regression: a range ending at `i64::MAX` panicked in debug with
/// "attempt to add with overflow" (`min + count` before `- 1`). With
/// charges MAX-1..=MAX (default MAX) the Charger never runs out: using a
/// charge from MAX-1 is clamped back to MAX-1, still above 0. So in the position of
/// `charges_allow_captures_and_attacks_until_used_up`, after c2xb3, e5e4,
/// b3xc3 the Charger on c3 still attacks d4 and d3 and the black king on
/// e4 has d5, e5 and e3 only (with 2 charges it had all five).
#[test]
fn charges_up_to_i64_max_do_not_overflow() {
    let text = with(
        "{ default: 2, min: 0, max: 2 }",
        "{ default: 9223372036854775807, min: 9223372036854775806, max: 9223372036854775807 }",
    );
    let mut g = common::game(NAME, &text, Some("4k/5/1ss2/2C2/K4 w - - 0 1"));
    play(&mut g, &["c2b3", "e5e4", "b3c3"]);
    assert_eq!(dests(&g, "e4"), set("d5 e5 e3"));
}

/// The Charger's charges travel with it, are part of the position's hash
/// and come back on undo. After c2xb3 the board is that of the FEN below,
/// but a game read from that FEN has a Charger with its default 2 charges:
/// same board, different positions.
#[test]
fn charges_are_hashed_and_undone() {
    let fen = "4k/5/1ss2/2C2/K4 w - - 0 1";
    let mut g = game(Some(fen));
    let start_hash = g.hash();
    play(&mut g, &["c2b3"]);
    let fresh = game(Some(&g.fen()));
    assert_eq!(fresh.fen(), g.fen());
    assert_ne!(fresh.hash(), g.hash(), "charges 1 and 2 differ");
    play(&mut g, &["e5e4", "b3c3"]);
    g.undo().unwrap();
    // One charge again: c3 can be taken.
    assert!(dests(&g, "b3").contains(&"c3".to_string()));
    g.undo().unwrap();
    g.undo().unwrap();
    assert_eq!(g.hash(), start_hash);
}

/// The Sprinter's double step is once in its life, not on its first move
/// only: a1-a2 keeps it (a2 may still go to a4); a1-a3 uses it (a3 may then
/// only go to a4, not a5). A Sprinter read from FEN on a3 still has it.
#[test]
fn sprint_is_once_per_piece_on_any_move() {
    let fen = "4k/5/5/5/S3K w - - 0 1";
    let mut g = game(Some(fen));
    assert_eq!(dests(&g, "a1"), set("a2 a3"));
    play(&mut g, &["a1a2", "e5d5"]);
    assert_eq!(dests(&g, "a2"), set("a3 a4"));

    let mut g = game(Some(fen));
    play(&mut g, &["a1a3", "e5d5"]);
    assert_eq!(dests(&g, "a3"), set("a4"));

    let g = game(Some("4k/5/S4/5/4K w - - 0 1"));
    assert_eq!(dests(&g, "a3"), set("a4 a5"));
}

/// A Sprinter's flag lives in its type's bits: a Charger's charges and a
/// Sprinter's sprint do not mix up when both move (here the Charger's
/// capture uses a charge while the Sprinter keeps its sprint).
#[test]
fn each_piece_keeps_its_own_properties() {
    let mut g = game(Some("4k/5/2s2/2C2/S3K w - - 0 1"));
    play(&mut g, &["c2c3", "e5d5", "a1a2", "d5e5"]);
    assert_eq!(dests(&g, "a2"), set("a3 a4"), "sprint still there");
}

/// Black d5-d3 spends the d-Sprinter's double step; the b3 Sprinter (read
/// from FEN) still has it. The Hunter on c2 steps to its 6 empty
/// neighbours b1 b2 c1 c3 d1 d2 and captures d3, not b3. With both
/// Sprinters fresh it captures nothing. The Hunter never attacks a king:
/// the black king may stand beside it.
#[test]
fn hunter_reads_the_target_piece_properties() {
    let mut g = game(Some("3sk/5/1s3/2H2/K4 b - - 0 1"));
    play(&mut g, &["d5d3"]);
    assert_eq!(dests(&g, "c2"), set("b1 b2 c1 c3 d1 d2 d3"));

    let g = game(Some("4k/5/1s1s1/2H2/K4 w - - 0 1"));
    assert_eq!(dests(&g, "c2"), set("b1 b2 c1 c3 d1 d2"));

    let g = game(Some("5/5/4k/2H2/K4 b - - 0 1"));
    assert_eq!(dests(&g, "e3"), set("d2 d3 d4 e2 e4"));
}

// ------------------------------------------------------------ diagnostics

fn one(text: &str) -> Diagnostic {
    match load_str("bad.yaml", text) {
        Ok(_) => panic!("loaded, but it is broken"),
        Err(ds) => {
            assert_eq!(ds.len(), 1, "{}", ds.render());
            ds.iter().next().cloned().expect("one")
        }
    }
}

fn with(from: &str, to: &str) -> String {
    assert!(GAME.contains(from), "no `{from}`");
    GAME.replacen(from, to, 1)
}

fn at(text: &str, needle: &str) -> (usize, usize) {
    let (i, l) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(needle) && !l.trim_start().starts_with('#'))
        .expect("needle");
    (i + 1, l.find(needle).unwrap() + 1)
}

#[test]
fn default_out_of_range() {
    let t = with("sprint: true", "sprint: 300");
    let d = one(&t);
    assert_eq!(d.code(), Code::InvalidValue, "{}", d.render());
    assert_eq!(d.line_col(), at(&t, "300"), "{}", d.render());
    assert!(
        d.message().contains("out of range 0 to 255"),
        "{}",
        d.message()
    );

    let t = with(
        "{ default: 2, min: 0, max: 2 }",
        "{ default: 3, min: 0, max: 2 }",
    );
    let d = one(&t);
    assert_eq!(d.code(), Code::InvalidValue, "{}", d.render());
    assert_eq!(d.line_col(), at(&t, "{ default: 3"), "{}", d.render());
}

#[test]
fn unknown_property_with_suggestion() {
    let t = with("self.charges > 0", "self.charge > 0");
    let d = one(&t);
    assert_eq!(d.code(), Code::UnknownAccessor, "{}", d.render());
    assert_eq!(d.line_col(), at(&t, "charge >"), "{}", d.render());
    assert_eq!(d.help_text(), Some("did you mean `charges`?"));
}

#[test]
fn wrong_types_in_conditions_and_sets() {
    let t = with("self.sprint == true", "self.sprint > 0");
    let d = one(&t);
    assert_eq!(d.code(), Code::ConditionType, "{}", d.render());
    assert_eq!(d.line_col(), at(&t, "self.sprint > 0"), "{}", d.render());

    let t = with("set self.sprint = false", "set self.sprint = 3");
    let d = one(&t);
    assert_eq!(d.code(), Code::ConditionType, "{}", d.render());
    assert_eq!(d.line_col(), at(&t, "3 ]"), "{}", d.render());
}

#[test]
fn set_constant_out_of_range() {
    let t = with(
        "set self.charges = self.charges - 1",
        "set self.charges = 7",
    );
    let d = one(&t);
    assert_eq!(d.code(), Code::InvalidValue, "{}", d.render());
    assert_eq!(d.line_col(), at(&t, "7 ]"), "{}", d.render());
    assert!(d.message().contains("0 to 2"), "{}", d.message());
}

#[test]
fn too_many_bits_for_one_piece() {
    let t = with(
        "      sprint: true\n",
        "      sprint: true\n      steps: 0\n",
    );
    let d = one(&t);
    assert_eq!(d.code(), Code::InvalidValue, "{}", d.render());
    assert!(d.message().contains("need 9 bits"), "{}", d.message());
    assert_eq!(d.line_col().0, at(&t, "sprint: true").0, "{}", d.render());
}

#[test]
fn target_property_errors() {
    let t = with("$target.sprint == false", "$target.sprnt == false");
    let d = one(&t);
    assert_eq!(d.code(), Code::UnknownAccessor, "{}", d.render());
    assert_eq!(d.line_col(), at(&t, "sprnt"), "{}", d.render());
    assert_eq!(d.help_text(), Some("did you mean `sprint`?"));

    let t = with("$target.sprint == false", "$target.sprint == 0");
    let d = one(&t);
    assert_eq!(d.code(), Code::ConditionType, "{}", d.render());
    assert_eq!(
        d.line_col(),
        at(&t, "$target.sprint == 0"),
        "{}",
        d.render()
    );
}

/// The hook that applies property tests tells a piece's entries apart by
/// their straight paths, so a type with a property test cannot also have
/// a wrapping entry (yet): refused, not played wrong.
#[test]
fn property_tests_beside_a_wrapping_entry_are_refused() {
    let t = with(
        "      - type: Step\n        direction: Omnidirectional\n        condition: $target.is_empty\n      - type: Capture\n        direction: Omnidirectional\n        condition: $target.has_enemy and self.charges > 0",
        "      - type: Step\n        direction: Omnidirectional\n        condition: $target.is_empty\n        edge: WrapFiles\n      - type: Capture\n        direction: Omnidirectional\n        condition: $target.has_enemy and self.charges > 0",
    );
    let err = load_variant_str("bad.yaml", &t).unwrap_err();
    assert_eq!(err.len(), 1, "{}", err.render());
    let d = err.iter().next().unwrap();
    assert_eq!(d.code(), Code::EngineUnsupported, "{}", d.render());
    assert!(d.message().contains("`Charger`"), "{}", d.message());
}

/// Reading wide number properties of both the mover and the target would
/// need a table of 3 × 64 mover bytes × 901 destination states × 8 rows at
/// load time: over the budget, refused with a clear message.
#[test]
fn too_many_property_combinations_are_refused() {
    let t = with(
        "      charges: { default: 2, min: 0, max: 2 }\n",
        "      charges: { default: 2, min: 0, max: 2 }\n      heat: { default: 0, max: 63 }\n",
    )
    .replacen(
        "      sprint: true\n",
        "      sprint: true\n      steps: { default: 0, max: 127 }\n",
        1,
    )
    .replacen(
        "$target.has_enemy and self.charges > 0",
        "$target.has_enemy and self.heat < 9 and $target.steps > 0",
        1,
    );
    let d = one(&t);
    assert_eq!(d.code(), Code::EngineUnsupported, "{}", d.render());
    assert!(
        d.message().contains("too many property combinations"),
        "{}",
        d.message()
    );
    assert_eq!(d.line_col().0, at(&t, "self.heat < 9").0, "{}", d.render());
}

/// An 8×8 game with FIDE kings and rooks (castling as in `chess.yaml`) and
/// the Charger of `charged-pieces.yaml`, whose charges start at `charges`.
fn castling_game(charges: u8) -> String {
    format!(
        r#"id: charged-castling
name: Charged castling
board: {{ width: 8, height: 8 }}
players:
  - {{ id: White, facing: North }}
  - {{ id: Black, facing: South }}
setup: 4k3/8/8/8/8/8/7c/4K2R w K - 0 1
royal: [King]
pieces:
  - id: King
    symbol: K
    role: King
    properties:
      has_moved: false
    movement:
      - type: Step
        direction: Omnidirectional
        condition: $target.is_empty or $target.has_enemy
    actions:
      - id: Castle
        condition: self.has_moved == false and $engine.state.is_in_check(self.owner) == false
        targets:
          - entity: Rook
            condition: >
              target.has_moved == false and
              target.owner == self.owner and
              $path.is_clear(self, target) and
              $engine.state.is_path_safe(self, target) == true
        mutations:
          - move self 2 steps toward target
          - move target 1 step past self final_position
  - id: Rook
    symbol: R
    role: Rook
    properties:
      has_moved: false
    movement:
      - type: Slide
        direction: Orthogonal
        range: Unlimited
        condition: $path.is_clear and ($target.is_empty or $target.has_enemy)
  - id: Charger
    symbol: C
    properties:
      charges: {{ default: {charges}, min: 0, max: 2 }}
    movement:
      - type: Step
        direction: Omnidirectional
        condition: $target.is_empty
      - type: Capture
        direction: Omnidirectional
        condition: $target.has_enemy and self.charges > 0
        mutations: [ set self.charges = self.charges - 1 ]
end:
  insufficient_material: false
"#
    )
}

/// Regression (castling judged with the engine's attacks instead of the
/// rules'): a black Charger on h2 reaches g1, the square the king lands on
/// when castling short. With charges it attacks g1, so `e1g1` is illegal
/// (FIDE Art. 3.8.2.2 as the file's `is_path_safe` says); without charges
/// it attacks nothing (a forbidden capture is no attack, RULINGS P1), so
/// castling is legal.
#[test]
fn castling_sees_only_the_attacks_properties_allow() {
    for (charges, legal) in [(2, false), (0, true)] {
        let g = common::game("charged-castling.yaml", &castling_game(charges), None);
        let king = dests(&g, "e1");
        assert_eq!(
            king.contains(&"g1".to_string()) || king.contains(&"h1".to_string()),
            legal,
            "charges {charges}: king moves {king:?}"
        );
    }
}
