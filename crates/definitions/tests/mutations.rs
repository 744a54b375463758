//! # Movement mutations run as rule hooks
//!
//! `tests/data/mutations.yaml` is a 5×5 test game with one piece per
//! mutation (movement-grammar.md, "Mutations": a movement entry's
//! mutations run when a move of that entry's shape is taken):
//!
//! - Bomber `B`: steps one square in any direction to an empty square;
//!   captures one square in any direction with `destroy self`, so after a
//!   capture both its square and the target square are empty.
//! - Rifle `R`: slides orthogonally to empty squares; captures orthogonally
//!   at any distance with `move self 0 steps toward target`, so it captures
//!   without moving.
//! - Lancer `L`: slides diagonally; captures diagonally at any distance with
//!   `move self 1 step toward target`, ending one square from its origin on
//!   the way (on the target when that is one square away).
//! - Pusher `U`: steps orthogonally; captures an orthogonal neighbour with
//!   `move target 1 step past self final_position`: the enemy is pushed one
//!   square on, and is captured only when pushed off the board or onto
//!   another piece.
//! - Swapper `W`: steps in any direction; captures a neighbour with
//!   `move target 1 step toward self`: the two trade places.
//! - Jumper `J`: steps diagonally; captures a diagonal neighbour with
//!   `move self 1 step past target final_position`: it jumps over the enemy
//!   and lands beyond it, which must be an empty square of the board.
//! - King `K`: royal, one step in any direction.
//!
//! Every expected count below is derived by hand in the comment above it;
//! each perft(2) differs from the count the same position would have
//! without the mutation, so the hooks are what the test checks. Squares are
//! a1–e5.

mod common;

use common::dests;
use houserules_definitions::{load_str, load_variant_str};
use houserules_engine::{Game, Piece};

const NAME: &str = "mutations.yaml";
const GAME: &str = include_str!("data/mutations.yaml");

fn game(fen: &str) -> Game {
    common::game(NAME, GAME, Some(fen))
}

fn sq(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 5 + (b[0] - b'a')
}

fn symbol(g: &Game, name: &str) -> Option<char> {
    g.piece_at(sq(name)).map(|p: Piece| {
        let s = g.variant().definition().pieces[p.kind.index()].symbol;
        if p.color == houserules_engine::Color::White {
            s
        } else {
            s.to_ascii_lowercase()
        }
    })
}

#[test]
fn hook_mutations_need_the_variant_loader_and_others_get_no_hooks() {
    let err = load_str("mutations.yaml", GAME).unwrap_err();
    let d = err.iter().next().expect("one diagnostic");
    let line = GAME
        .lines()
        .position(|l| l.contains("mutations: [ destroy self ]"))
        .unwrap()
        + 1;
    assert_eq!(d.line_col(), (line, 22), "points at `destroy self`");
    assert!(common::variant(NAME, GAME).has_hooks());
    // Zero cost for definitions without such mutations: no hooks at all.
    let chess = houserules_definitions::builtin_source("chess").unwrap();
    assert!(!load_variant_str("chess.yaml", chess).unwrap().has_hooks());
}

/// White K a1, Bomber c2; Black Bomber c3, K e5.
///
/// perft(1) = 10. White king: a2, b1 (b2 is attacked by the black Bomber's
/// capture shape) = 2. White Bomber: steps to b1 b2 b3 c1 d1 d2 d3 = 7,
/// capture c3 = 1. No move exposes the king.
///
/// perft(2) = 100. The black Bomber always has 8 moves (its 8 neighbours:
/// steps to the empty ones, a capture of the white Bomber when adjacent).
/// The black king (d5, d4, e4) loses the squares the white Bomber attacks:
/// after Bd3 it has d5 only (9 replies), after the other 6 quiet Bomber
/// moves and the 2 king moves all 3 (11 replies each: 8 × 11 = 88). After
/// c2xc3 the white Bomber is gone with the black one (`destroy self`):
/// only the black king is left, with 3 moves. 88 + 9 + 3 = 100. (Were the
/// Bomber to stay on c3 it would attack d4: 99.)
#[test]
fn destroy_self_removes_the_capturing_bomber() {
    let fen = "4k/5/2b2/2B2/K4 w - - 0 1";
    let g = game(fen);
    assert_eq!(g.perft(1, false), 10);
    assert_eq!(g.perft(2, false), 100);
    assert_eq!(g.perft(2, true), 100);

    let mut g = game(fen);
    g.apply_uci("c2c3").unwrap();
    assert_eq!(symbol(&g, "c2"), None);
    assert_eq!(symbol(&g, "c3"), None, "the Bomber destroyed itself");
    assert_eq!(g.fen(), "4k/5/5/5/K4 b - - 0 1");
    // A quiet step keeps the Bomber.
    let mut g = game(fen);
    g.apply_uci("c2d2").unwrap();
    assert_eq!(symbol(&g, "d2"), Some('B'));
}

/// `destroy self` is judged for legality on the board after it. White K
/// a1, Bomber a2; Black Bomber a3, Rifle a5, K e5: the two Bombers both
/// stand between the black Rifle and the white king.
///
/// White king: b1 (b2 is attacked by the black Bomber) = 1. White Bomber:
/// steps to b1, b2, b3 (the black Bomber still shields a1) = 3; the capture
/// a2xa3 would empty both a2 and a3 and open the a-file to the Rifle, so it
/// is illegal (it would be legal were the Bomber to land on a3). 4 moves.
#[test]
fn destroy_self_cannot_expose_the_king() {
    let g = game("r3k/5/b4/B4/K4 w - - 0 1");
    let mut moves: Vec<String> = g.legal_moves().iter().map(|&m| g.uci(m)).collect();
    moves.sort();
    assert_eq!(moves, ["a1b1", "a2b1", "a2b2", "a2b3"]);
}

/// White K a1, Rifle a2; Black Rifle a4, K e5.
///
/// perft(1) = 4. The white Rifle shields its king from the black Rifle on
/// the a-file: it may step to a3 or capture a4 (from a2, staying there);
/// sideways moves expose a1. King: b1, b2 (a2 is its own Rifle) = 2.
///
/// perft(2) = 32. After Ra3: the black Rifle has a5, b4 c4 d4 e4 and the
/// capture of a3 (6), the king d5 d4 e4 (3) = 9. After a2xa4 the white
/// Rifle is still on a2 (`move self 0 steps toward target`) and attacks
/// rank 2 and the a-file only: the black king has 3 moves = 3. After Kb1
/// and after Kb2 the black Rifle has a3 a5 b4 c4 d4 e4 and the capture of
/// a2 (7) and the king 3 = 10 each. 9 + 3 + 10 + 10 = 32. (Were the Rifle
/// to land on a4 it would attack d4 and e4: 30.)
#[test]
fn rifle_captures_without_moving() {
    let fen = "4k/r4/5/R4/K4 w - - 0 1";
    let g = game(fen);
    assert_eq!(g.perft(1, false), 4);
    assert_eq!(g.perft(2, false), 32);
    let mut g = game(fen);
    g.apply_uci("a2a4").unwrap();
    assert_eq!(symbol(&g, "a2"), Some('R'), "the Rifle stays on a2");
    assert_eq!(symbol(&g, "a4"), None, "the captured Rifle is gone");
}

/// a1xd4 along the diagonal a1-b2-c3-d4 (b2, c3 empty) ends on b2: one
/// step from a1 toward d4. b2xc3 (one square away) ends on c3.
#[test]
fn lancer_advances_one_step_toward_its_target() {
    let mut g = game("4k/3b1/5/5/L3K w - - 0 1");
    g.apply_uci("a1d4").unwrap();
    assert_eq!(symbol(&g, "a1"), None);
    assert_eq!(symbol(&g, "b2"), Some('L'));
    assert_eq!(symbol(&g, "d4"), None);

    let mut g = game("4k/5/5/2b2/1L2K w - - 0 1");
    g.apply_uci("b1c2").unwrap();
    assert_eq!(symbol(&g, "c2"), Some('L'));
    assert_eq!(symbol(&g, "b1"), None);
}

/// c2xc3 pushes the black Rifle from c3 to c4 and the Pusher takes c3.
/// Pushed off the board (c4xc5: c6 does not exist) or onto a piece (c4
/// holds a black Bomber), the Rifle is captured.
#[test]
fn pusher_pushes_its_target_one_square_on() {
    let mut g = game("4k/5/2r2/2U2/K4 w - - 0 1");
    g.apply_uci("c2c3").unwrap();
    assert_eq!(symbol(&g, "c2"), None);
    assert_eq!(symbol(&g, "c3"), Some('U'));
    assert_eq!(symbol(&g, "c4"), Some('r'), "pushed, not captured");

    let mut g = game("2r1k/2U2/5/5/K4 w - - 0 1");
    g.apply_uci("c4c5").unwrap();
    assert_eq!(symbol(&g, "c5"), Some('U'));
    assert_eq!(g.fen(), "2U1k/5/5/5/K4 b - - 0 1", "pushed off the board");

    let mut g = game("4k/2b2/2r2/2U2/K4 w - - 0 1");
    g.apply_uci("c2c3").unwrap();
    assert_eq!(g.fen(), "4k/2b2/2U2/5/K4 b - - 0 1", "pushed onto c4");
}

/// c1xc2 against a black Lancer: the Swapper goes to c2, the Lancer to c1
/// (from where it attacks b2, a3, d2, e3, not the a1 king). With a black
/// Rifle on b2 beside a Swapper on a2, a2xb2 would put the Rifle on a2,
/// attacking the a1 king: illegal, so the Swapper only steps to a3, b1, b3
/// (moving off a2 exposes nothing: the Rifle on b2 sees rank 2 and the
/// b-file).
#[test]
fn swapper_trades_places_and_legality_is_judged_after() {
    let mut g = game("4k/5/5/2l2/K1W2 w - - 0 1");
    g.apply_uci("c1c2").unwrap();
    assert_eq!(symbol(&g, "c2"), Some('W'));
    assert_eq!(symbol(&g, "c1"), Some('l'));

    let g = game("4k/5/5/Wr3/K4 w - - 0 1");
    assert_eq!(dests(&g, "a2"), ["a3", "b1", "b3"]);
}

/// b2xc3 jumps to d4, and the Rifle on c3 is captured. With d4 taken (a
/// black Bomber) the jump does not exist: b2 has its steps a3 and c1 only.
/// From d4 the jump over e5 would land off the board: d4 has c3, c5, e3.
#[test]
fn jumper_captures_by_jumping_over() {
    let mut g = game("4k/5/2r2/1J3/K4 w - - 0 1");
    assert_eq!(dests(&g, "b2"), ["a3", "c1", "c3"]);
    g.apply_uci("b2c3").unwrap();
    assert_eq!(g.fen(), "4k/3J1/5/5/K4 b - - 0 1");

    let g = game("4k/3b1/2r2/1J3/K4 w - - 0 1");
    assert_eq!(dests(&g, "b2"), ["a3", "c1"]);

    let g = game("3kr/3J1/5/5/K4 w - - 0 1");
    assert_eq!(dests(&g, "d4"), ["c3", "c5", "e3"]);
}

/// A `move` of the target on an entry that may also move to an empty
/// square has no target piece to move there: refused where it is written.
#[test]
fn target_move_needs_a_capture_only_entry() {
    let t = GAME.replacen(
        "      - type: Capture\n        direction: Orthogonal\n        condition: $target.has_enemy\n        mutations: [ move target",
        "      - type: Step\n        direction: Orthogonal\n        condition: $target.is_empty or $target.has_enemy\n        mutations: [ move target",
        1,
    );
    assert_ne!(t, GAME);
    let err = load_variant_str("bad.yaml", &t).unwrap_err();
    assert_eq!(err.len(), 1, "{}", err.render());
    let d = err.iter().next().unwrap();
    assert_eq!(
        d.code(),
        houserules_definitions::Code::Invalid,
        "{}",
        d.render()
    );
    let line = t
        .lines()
        .position(|l| l.contains("[ move target 1 step past"))
        .unwrap()
        + 1;
    assert_eq!(d.line_col(), (line, 34), "{}", d.render());
}
