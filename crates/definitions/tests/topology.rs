//! # Board topology (`edge`) and per-player shapes (`only`) in YAML
//!
//! The example files `docs/examples/cylinder-chess.yaml` (every entry of
//! chess with `edge: WrapFiles`) and `docs/examples/half-berolina.yaml`
//! (Berolina pawns for White, FIDE pawns for Black) load and play as
//! their comments say. Expected values are derived by hand in the comment
//! above each assertion; the topology rules are those of
//! `docs/board-topology.md` (RULINGS P4 for the cylinder, P27 for en
//! passant between the two kinds of pawn).

mod common;

use common::{dests, game, set};
use houserules_definitions::{load_str, Code};

const CYLINDER: &str = include_str!("../../../docs/examples/cylinder-chess.yaml");
const HALF_BEROLINA: &str = include_str!("../../../docs/examples/half-berolina.yaml");

/// White's first moves are FIDE's 20: every leap or pawn capture across
/// the edge lands on an own piece or on an empty square a pawn may not
/// take. Black's replies lose 8 of FIDE's 400 to pins across the edge:
/// after c3 or c4 the queen's ray d1-c2-b3-a4, wrapping to h5-g6, pins the
/// f7 pawn to the e8 king (f6 and f5 are lost); after g3 or g4 the
/// bishop's ray f1-g2-h3, wrapping to a4-b5-c6, pins d7 (d6 and d5 lost).
/// 4 × 2 = 8, so 392.
#[test]
fn cylinder_start_position_perft_by_hand() {
    let g = game("cylinder-chess.yaml", CYLINDER, None);
    assert_eq!((g.perft(1, true), g.perft(2, true)), (20, 392));
    assert_eq!(g.perft(2, false), 392);
}

/// A bishop on a1: north-east b2..h8; north-west wraps to h2, then g3, f4,
/// e5 (already reached), d6, c7, b8. A rook on a4: the whole file, and
/// the whole rank once (west wraps to h4, g4 … b4; the ride stops before
/// its own square).
#[test]
fn cylinder_rides_wrap_round_the_files() {
    let g = game(
        "cylinder-chess.yaml",
        CYLINDER,
        Some("4k3/8/8/8/8/8/8/B3K3 w - - 0 1"),
    );
    assert_eq!(
        dests(&g, "a1"),
        set("b2 c3 d4 e5 f6 g7 h8 h2 g3 f4 d6 c7 b8")
    );
    let g = game(
        "cylinder-chess.yaml",
        CYLINDER,
        Some("4k3/8/8/8/R7/8/8/4K3 w - - 0 1"),
    );
    assert_eq!(
        dests(&g, "a4"),
        set("a1 a2 a3 a5 a6 a7 a8 b4 c4 d4 e4 f4 g4 h4")
    );
}

/// The a1 knight leaps across the edge to g2 and h3 (and to b3, c2): the
/// h1 king may take it on a1 (its neighbour across the edge), or step to
/// g1, h2 and a2, but not onto g2.
#[test]
fn cylinder_leaps_and_attacks_wrap() {
    let g = game(
        "cylinder-chess.yaml",
        CYLINDER,
        Some("4k3/8/8/8/8/8/8/n6K w - - 0 1"),
    );
    assert_eq!(dests(&g, "h1"), set("a1 a2 g1 h2"));
}

/// White's Berolina pawns from the start: a double step needs two files
/// of room, so the a- and h-pawns have one single step and one double
/// (inward), the b- and g-pawns two singles and one double, the c- to
/// f-pawns two of each: 2 + 2 + 3 + 3 + 4 × 4 = 26, with the knights' 4
/// moves 30 (Fairy-Stockfish's `berolina` start has 30 too). Black's FIDE
/// pawns: 16, knights 4: 20. No first move of either side changes the
/// other's count (White's pawns reach rank 4 at most, Black's rank 5 at
/// most, and nothing attacks the other side's pieces), so perft(2) is
/// 30 × 20 = 600 from either side.
#[test]
fn half_berolina_pawns_differ_by_player() {
    let w = game("half-berolina.yaml", HALF_BEROLINA, None);
    assert_eq!((w.perft(1, true), w.perft(2, true)), (30, 600));
    let b = game(
        "half-berolina.yaml",
        HALF_BEROLINA,
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
    );
    assert_eq!((b.perft(1, true), b.perft(2, true)), (20, 600));
    assert_eq!(dests(&w, "b2"), set("a3 c3 d4"));
    assert_eq!(dests(&b, "b7"), set("b6 b5"));
}

/// RULINGS P27: a FIDE pawn may take a Berolina double step en passant on
/// the square it passed. b2-d4 passes c3, which the black b4 pawn attacks:
/// b4xc3 removes the pawn on d4.
#[test]
fn half_berolina_fide_pawn_takes_a_berolina_double_step_en_passant() {
    let mut g = game(
        "half-berolina.yaml",
        HALF_BEROLINA,
        Some("4k3/8/8/8/1p6/8/1P6/4K3 w - - 0 1"),
    );
    g.apply_uci("b2d4").expect("double step");
    g.apply_uci("b4c3").expect("en passant");
    assert_eq!(g.fen(), "4k3/8/8/8/8/2p5/8/4K3 w - - 0 2");
}

fn only_diag(text: &str) -> houserules_definitions::Diagnostic {
    match load_str("bad.yaml", text) {
        Ok(_) => panic!("loaded, but it is broken"),
        Err(ds) => {
            assert_eq!(ds.len(), 1, "{}", ds.render());
            ds.iter().next().cloned().expect("one")
        }
    }
}

#[test]
fn unknown_player_in_only_is_named_with_a_suggestion() {
    let t = HALF_BEROLINA.replacen("only: Black", "only: Blak", 1);
    let d = only_diag(&t);
    assert_eq!(d.code(), Code::UnknownName, "{}", d.render());
    let line = t.lines().position(|l| l.contains("only: Blak")).unwrap() + 1;
    assert_eq!(d.line_col(), (line, 15), "{}", d.render());
    assert_eq!(d.help_text(), Some("did you mean `Black`?"));
}

#[test]
fn unknown_edge_is_named_with_a_suggestion() {
    let t = CYLINDER.replacen("        edge: WrapFiles", "        edge: WrapFile", 1);
    let d = only_diag(&t);
    assert_eq!(d.code(), Code::InvalidValue, "{}", d.render());
    let line = t
        .lines()
        .position(|l| l == "        edge: WrapFile")
        .unwrap()
        + 1;
    assert_eq!(d.line_col().0, line, "{}", d.render());
    assert!(
        d.help_text().is_some_and(|h| h.contains("WrapFiles")),
        "{}",
        d.render()
    );
}

#[test]
fn bounce_out_of_range_and_warp_on_a_leap_are_refused() {
    let t = CYLINDER.replacen(
        "        edge: WrapFiles",
        "        edge: { Bounce: { max: 0 } }",
        1,
    );
    let d = only_diag(&t);
    assert_eq!(d.code(), Code::InvalidValue, "{}", d.render());
    assert!(d.message().contains("1 to 15"), "{}", d.message());
    // The first entry is the pawn's single step, a jump: Warp would do
    // nothing there.
    let t = CYLINDER.replacen("        edge: WrapFiles", "        edge: Warp", 1);
    let d = only_diag(&t);
    assert_eq!(d.code(), Code::Invalid, "{}", d.render());
    let line = t.lines().position(|l| l == "        edge: Warp").unwrap() + 1;
    assert_eq!(d.line_col(), (line, 15), "{}", d.render());
}

/// `bouncing-pieces` as YAML: the bishops' and the queens' diagonal rides
/// reflect once on the side edges. From the start White has FIDE's 20
/// moves (every bounced ray starts behind the own pawns); Black loses 8
/// of FIDE's 400 replies to pins along bounced rays: after c3 or c4 the
/// queen's ray d1-c2-b3-a4 turns on a4 to b5-c6-d7-e8 and pins d7 (d6, d5);
/// after e3 or e4 the bishop's ray f1-e2-d3-c4-b5-a6 turns to b7, a black
/// pawn with c8 behind it (no pin), and the queen's ray d1-e2-f3-g4-h5
/// turns on h5 to g6-f7-e8: f7 is pinned (f6, f5). 4 × 2 = 8, so 392.
#[test]
fn bouncing_diagonals_perft_by_hand() {
    let t = CYLINDER
        .replace("        edge: WrapFiles\n", "")
        .replacen(
            "        direction: Diagonal\n        range: Unlimited\n",
            "        direction: Diagonal\n        range: Unlimited\n        edge: { Bounce: { max: 1 } }\n",
            1,
        )
        .replacen(
            "        direction: Omnidirectional\n        range: Unlimited\n        condition: $path.is_clear and ($target.is_empty or $target.has_enemy)\n",
            "        direction: Diagonal\n        range: Unlimited\n        condition: $path.is_clear and ($target.is_empty or $target.has_enemy)\n        edge: { Bounce: { max: 1 } }\n      - type: Slide\n        direction: Orthogonal\n        range: Unlimited\n        condition: $path.is_clear and ($target.is_empty or $target.has_enemy)\n",
            1,
        );
    assert_eq!(t.matches("Bounce").count(), 2, "{t}");
    let g = game("bounce.yaml", &t, None);
    assert_eq!((g.perft(1, true), g.perft(2, true)), (20, 392));
}
