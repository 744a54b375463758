//! The board-geometry presets (`rook-warp`, `wrap-board`, `bouncing-pieces`,
//! `bouncing-pieces-2`) and single-colour Berolina scope: the spec's
//! numbered scenarios and edge-case bullets, one test each, named
//! `<preset>_<scenario>`. Expected move sets are worked out by hand from
//! presets-and-triggers.md and RULINGS P1, P3, P4, P23, P24 and P27 (the
//! comments show the paths). Fairy-Stockfish has no wrapped, warped or
//! bounced rides, so these presets have no perft oracle; the symmetry
//! properties at the end stand in for one.

mod common;

use common::{dests, g, game, no, play, sq, yes};
use houserules_engine::{Game, Variant};
use houserules_presets::{compose, RuleSet};

fn set(squares: &str) -> Vec<String> {
    let mut v: Vec<String> = squares.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------- rook-warp

const RW: &str = "rook-warp";

#[test]
fn rook_warp_1_same_destination_listed_once() {
    // a1 on the corner: north a2..a8 then the warp would re-enter a1 (its
    // origin); east b1..h1 likewise; west and south it stands on the edge.
    let x = g(RW, "4k3/8/8/8/8/7K/8/R7 w - - 0 1");
    assert_eq!(
        dests(&x, "a1"),
        set("a2 a3 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1")
    );
}

#[test]
fn rook_warp_2_a4h4_is_a_normal_capture_not_a_warp() {
    // RULINGS P3 voids the scenario's explanation: a4 stands on the a-file
    // edge and does not warp west; h4 is taken by the ordinary slide, once.
    let x = g(RW, "4k3/8/8/8/R6n/8/2K5/8 w - - 0 1");
    assert_eq!(
        dests(&x, "a4"),
        set("a1 a2 a3 a5 a6 a7 a8 b4 c4 d4 e4 f4 g4 h4")
    );
}

#[test]
fn rook_warp_3_friendly_piece_ends_the_warp() {
    // d5..d8, then the warp meets the own piece on d1 at once.
    let x = g(RW, "4k3/8/8/8/3R4/8/8/3N2K1 w - - 0 1");
    let d: Vec<String> = dests(&x, "d4")
        .into_iter()
        .filter(|s| s.starts_with('d'))
        .collect();
    assert_eq!(d, set("d2 d3 d5 d6 d7 d8"));
}

#[test]
fn rook_warp_3_warp_reaches_past_the_far_edge() {
    // The same slide with d1 empty and the own piece on d2: d1 is reached
    // only by warping over d8 (the slide south stops at d3).
    let x = g(RW, "4k3/8/8/8/3R4/8/3N4/6K1 w - - 0 1");
    let d: Vec<String> = dests(&x, "d4")
        .into_iter()
        .filter(|s| s.starts_with('d'))
        .collect();
    assert_eq!(d, set("d1 d3 d5 d6 d7 d8"));
}

#[test]
fn rook_warp_4_capture_on_the_edge_ends_the_slide() {
    // Enemy on d8, own piece on d1: d8 is captured and nothing warps.
    let x = g(RW, "3nk3/8/8/8/3R4/8/8/3N2K1 w - - 0 1");
    let d: Vec<String> = dests(&x, "d4")
        .into_iter()
        .filter(|s| s.starts_with('d'))
        .collect();
    assert_eq!(d, set("d2 d3 d5 d6 d7 d8"));
    // With d1 empty and d2 blocked, d1 is still out of reach.
    let y = g(RW, "3nk3/8/8/8/3R4/8/3N4/6K1 w - - 0 1");
    no(&y, &["d4d1"]);
    yes(&y, &["d4d8"]);
}

#[test]
fn rook_warp_edge_warped_rook_cannot_castle() {
    // The a1 rook leaves (losing its right), comes back to a1 by a warp
    // (a5..a8 then a1; the way south is blocked by the knight on a2), and
    // may not castle.
    let mut x = g(RW, "4k3/8/8/8/8/8/8/R1n1K3 w Q - 0 1");
    play(&mut x, &["a1a4", "c1a2"]);
    assert_eq!(x.fen().split(' ').nth(2), Some("-"));
    yes(&x, &["a4a1"]);
    play(&mut x, &["a4a1", "a2b4"]);
    no(&x, &["e1c1"]);
}

#[test]
fn rook_warp_edge_friendly_king_interrupts_the_warp() {
    // f1 east: g1, h1, warp a1, then its own king on b1; west: e1, d1, c1.
    let x = g(RW, "4k3/8/8/8/8/8/8/1K3R2 w - - 0 1");
    let r1: Vec<String> = dests(&x, "f1")
        .into_iter()
        .filter(|s| s.ends_with('1'))
        .collect();
    assert_eq!(r1, set("a1 c1 d1 e1 g1 h1"));
}

#[test]
fn rook_warp_edge_first_enemy_on_the_warp_is_captured() {
    // f1 east: g1, h1, warp, captures on a1 and stops before b1.
    let x = g(RW, "4k3/8/8/8/8/8/8/n1K2R2 w - - 0 1");
    yes(&x, &["f1a1"]);
    no(&x, &["f1b1"]);
}

#[test]
fn rook_warp_edge_queens_do_not_warp() {
    // The same board with a queen: no d1 (RULINGS P3).
    let x = g(RW, "4k3/8/8/8/3Q4/8/3N4/6K1 w - - 0 1");
    no(&x, &["d4d1"]);
    yes(&x, &["d4d8", "d4d3"]);
}

#[test]
fn rook_warp_edge_promoted_rook_warps() {
    let mut x = g(RW, "4k3/P7/8/8/8/8/6K1/8 w - - 0 1");
    play(&mut x, &["a7a8r", "e8d7"]);
    // a8 south a7..a1 ordinarily; north it stands on the edge; east b8..h8.
    // Block a4 with nothing: the warp adds no new square from a corner.
    assert_eq!(dests(&x, "a8").len(), 14);
}

#[test]
fn rook_warp_edge_warped_rook_attacks() {
    // RULINGS P1: the rook on d6 reaches d1..d4 by warping over d8 (its
    // way south is blocked by the pawn on d5), so the king on e2 may not
    // step onto d1, d2 or d3.
    let x = g(RW, "8/8/3r4/3P4/8/8/4K3/k7 w - - 0 1");
    assert_eq!(dests(&x, "e2"), set("e1 e3 f1 f2 f3"));
}

#[test]
fn rook_warp_edge_check_and_pin_through_the_warp() {
    let x = g(RW, "8/8/3r4/3P4/8/8/3K4/k7 w - - 0 1");
    assert!(x.is_check(), "d6-d7-d8-warp-d1-d2 checks");
    // A knight on d1 shields the king and is pinned there.
    let y = g(RW, "8/8/3r4/3P4/8/8/3K4/k2N4 w - - 0 1");
    assert!(!y.is_check());
    assert!(dests(&y, "d1").is_empty(), "the d1 knight is pinned");
}

#[test]
fn rook_warp_edge_start_position_unchanged() {
    // RULINGS P3: nothing changes in the start position. Within four plies
    // no rook can reach an edge with a square covered (its file needs both
    // a pawn and the enemy's a7/a8 or h7/h8 pieces gone), so the FIDE perft
    // (chessprogramming.org) holds: 20, 400, 8902, 197281.
    let x = game(RW, None, None);
    assert_eq!(
        (
            x.perft(1, true),
            x.perft(2, true),
            x.perft(3, true),
            x.perft(4, true)
        ),
        (20, 400, 8902, 197_281)
    );
}

// --------------------------------------------------------------- wrap-board

const WB: &str = "wrap-board";

#[test]
fn wrap_board_1_rook_wraps_west() {
    // a4 west wraps to h4, g4, ... b4; east b4..h4; the slide stops before
    // returning to a4 (RULINGS P4). Every rank square once.
    let x = g(WB, "4k3/8/8/8/R7/8/8/4K3 w - - 0 1");
    yes(&x, &["a4h4", "a4b4", "a4c4"]);
    assert_eq!(
        dests(&x, "a4"),
        set("a1 a2 a3 a5 a6 a7 a8 b4 c4 d4 e4 f4 g4 h4")
    );
}

#[test]
fn wrap_board_2_bishop_wraps_to_h2() {
    // a1 north-west wraps: h2, g3, f4, e5, d6, c7, b8; north-east b2..h8.
    let x = g(WB, "4k3/8/8/8/8/8/8/B3K3 w - - 0 1");
    yes(&x, &["a1h2"]);
    assert_eq!(
        dests(&x, "a1"),
        set("b2 c3 d4 e5 f6 g7 h8 h2 g3 f4 d6 c7 b8")
    );
}

#[test]
fn wrap_board_3_pawn_capture_wraps() {
    // The scenario's colours cannot be right (a black pawn on h5 captures
    // toward rank 4); it is read as "pawn captures wrap, and only capture":
    // White h5xa6 exactly when an enemy stands on a6, and Black's mirror
    // h5xa4.
    yes(&g(WB, "4k3/8/n7/7P/8/8/8/4K3 w - - 0 1"), &["h5a6"]);
    no(&g(WB, "4k3/8/8/7P/8/8/8/4K3 w - - 0 1"), &["h5a6"]);
    yes(&g(WB, "4k3/8/8/7p/N7/8/8/4K3 b - - 0 1"), &["h5a4"]);
    no(&g(WB, "4k3/8/8/7p/8/8/8/4K3 b - - 0 1"), &["h5a4"]);
}

#[test]
fn wrap_board_edge_castling_does_not_wrap() {
    // O-O needs f1 and g1 empty; it never goes round through h1 to d1.
    let x = g(WB, "4k3/8/8/8/8/8/8/4KN1R w K - 0 1");
    assert_eq!(dests(&x, "e1"), set("d1 d2 e2 f2"));
    // Ordinary castling is unchanged.
    yes(
        &g(WB, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        &["e1g1", "e1c1"],
    );
}

#[test]
fn wrap_board_edge_rook_attacks_through_the_wrap() {
    // RULINGS P24: the rook on a4 attacks h4 (and beyond, g4) through the
    // wrap even though its way east is blocked on c4.
    let x = g(WB, "3k4/8/8/8/r1P5/6K1/8/8 w - - 0 1");
    assert_eq!(dests(&x, "g3"), set("f2 f3 g2 h2 h3"));
    let y = g(WB, "3k4/8/8/8/r1P4K/8/8/8 w - - 0 1");
    assert!(y.is_check(), "a4 checks h4 across the edge");
}

#[test]
fn wrap_board_edge_full_wrap_attacks_not_pacman_check() {
    // Not ThressGame's simplified check (an a-file piece attacks only the
    // h-file square): the rook on a4 attacks g4 across the edge too.
    let x = g(WB, "8/8/8/8/r1P5/5K2/8/k7 w - - 0 1");
    no(&x, &["f3g4", "f3f4", "f3e4"]);
    yes(&x, &["f3g3", "f3e3", "f3g2"]);
}

#[test]
fn wrap_board_edge_pin_through_the_wrap() {
    // a4 west: h4 (knight), then g4 (its king): the knight is pinned.
    let x = g(WB, "8/8/8/8/R1p3kn/8/8/K7 b - - 0 1");
    assert!(dests(&x, "h4").is_empty());
}

#[test]
fn wrap_board_edge_wrapped_knight_attacks() {
    // The a1 knight leaps across the edge to g2 and h3 (and b3, c2): the
    // h1 king may take it on a1 (a neighbour across the edge) or step to
    // g1, h2 and a2, not g2.
    let x = g(WB, "4k3/8/8/8/8/8/8/n6K w - - 0 1");
    assert_eq!(dests(&x, "h1"), set("a1 a2 g1 h2"));
}

#[test]
fn wrap_board_edge_en_passant_across_the_edge() {
    // h7-h5 passes h6, which the a5 pawn attacks across the edge.
    let mut x = g(WB, "4k3/7p/8/P7/8/8/8/4K3 b - - 0 1");
    play(&mut x, &["h7h5"]);
    assert_eq!(x.fen().split(' ').nth(3), Some("h6"));
    play(&mut x, &["a5h6"]);
    assert!(x.piece_at(sq("h5")).is_none(), "en passant took h5");
    // And the mirror for Black.
    let mut y = g(WB, "4k3/8/8/8/p7/8/7P/4K3 w - - 0 1");
    play(&mut y, &["h2h4", "a4h3"]);
    assert!(y.piece_at(sq("h4")).is_none());
}

#[test]
fn wrap_board_edge_en_passant_fen_across_the_edge_is_read() {
    // The same position written as FEN: the field h6 names a capture that
    // exists only across the edge, so it is kept.
    let x = g(WB, "4k3/8/8/P6p/8/8/8/4K3 w - h6 0 2");
    yes(&x, &["a5h6"]);
    assert_eq!(x.fen().split(' ').nth(3), Some("h6"));
}

#[test]
fn wrap_board_edge_start_position_perft_by_hand() {
    // White's first moves are FIDE's 20: every leap or capture across the
    // edge lands on an own piece or an empty square a pawn may not take.
    // Black's replies lose 8 of FIDE's 400 to pins across the edge: after
    // c3 or c4 the queen's ray d1-c2-b3-a4-h5-g6 pins f7 to e8, after g3
    // or g4 the bishop's ray f1-g2-h3-a4-b5-c6 pins d7 (two pushes each).
    let x = game(WB, None, None);
    assert_eq!((x.perft(1, true), x.perft(2, true)), (20, 392));
}

// ---------------------------------------------------------- bouncing-pieces

const BP: &str = "bouncing-pieces";
const BP2: &str = "bouncing-pieces-2";

#[test]
fn bouncing_pieces_ruling_turns_on_the_edge_square() {
    // RULINGS P23's path: from f1 north-east g2, h3, then g4, f5, e6, d7,
    // c8 (the top edge ends it, one reflection only); north-west e2, d3,
    // c4, b5, a6, then b7, c8.
    let x = g(BP, "7k/8/8/8/8/8/8/K4B2 w - - 0 1");
    assert_eq!(
        dests(&x, "f1"),
        set("g2 h3 g4 f5 e6 d7 c8 e2 d3 c4 b5 a6 b7")
    );
}

#[test]
fn bouncing_pieces_queen_diagonals_bounce_orthogonals_do_not() {
    // The queen on f1: the bishop's 13 squares plus the whole f-file and
    // first rank (no reflection there).
    let x = g(BP, "8/8/8/k6K/8/8/8/5Q2 w - - 0 1");
    let mut want = set("g2 h3 g4 f5 e6 d7 c8 e2 d3 c4 b5 a6 b7");
    want.extend(set("f2 f3 f4 f6 f7 f8 a1 b1 c1 d1 e1 g1 h1"));
    want.sort();
    assert_eq!(dests(&x, "f1"), want);
}

#[test]
fn bouncing_pieces_rooks_do_not_bounce() {
    let x = g(BP, "7k/8/8/8/8/8/8/K4R2 w - - 0 1");
    assert_eq!(
        dests(&x, "f1"),
        set("b1 c1 d1 e1 g1 h1 f2 f3 f4 f5 f6 f7 f8")
    );
}

#[test]
fn bouncing_pieces_no_reflection_off_first_and_last_rank() {
    // e2: north-east f3, g4, h5, g6, f7, e8; north-west d3, c4, b5, a6,
    // b7, c8; south-east f1 and south-west d1 end on the first rank.
    let x = g(BP, "7k/8/8/8/8/8/4B3/K7 w - - 0 1");
    assert_eq!(
        dests(&x, "e2"),
        set("f3 g4 h5 g6 f7 e8 d3 c4 b5 a6 b7 c8 f1 d1")
    );
}

#[test]
fn bouncing_pieces_bounced_ray_attacks() {
    // RULINGS P23: the f1 bishop's bounced ray g2-h3-g4-f5 attacks g4 and
    // f5, so the f4 king may not step there.
    let x = g(BP, "k7/8/8/8/5K2/8/8/5b2 w - - 0 1");
    assert_eq!(dests(&x, "f4"), set("e3 e4 e5 f3 g3 g5"));
}

#[test]
fn bouncing_pieces_check_along_a_bounced_ray_can_be_blocked() {
    let x = g(BP, "k7/8/8/5K2/8/8/1N6/5b2 w - - 0 1");
    assert!(x.is_check(), "f1-g2-h3-g4-f5");
    // The b2 knight reaches d3, d1, c4 and a4: none is on the ray or the
    // checker's square, so it has no legal move.
    assert!(dests(&x, "b2").is_empty());
    let y = g(BP, "k7/8/8/5K2/8/4N3/8/5b2 w - - 0 1");
    assert!(y.is_check());
    // From e3 the knight takes the checker on f1 or blocks on g2 or g4.
    assert_eq!(dests(&y, "e3"), set("f1 g2 g4"));
}

#[test]
fn bouncing_pieces_2_reflects_off_all_four_edges() {
    // e2 with two reflections (hand-traced):
    // NE f3 g4 h5 | g6 f7 e8 | d7 c6 b5 a4 (third reflection: stop)
    // NW d3 c4 b5 a6 | b7 c8 | d7 e6 f5 g4 h3
    // SE f1 | g2 h3 | g4 f5 e6 d7 c8
    // SW d1 | c2 b3 a4 | b5 c6 d7 e8
    let x = g(BP2, "7k/8/8/8/8/8/4B3/K7 w - - 0 1");
    assert_eq!(
        dests(&x, "e2"),
        set("f3 g4 h5 g6 f7 e8 d7 c6 b5 a4 d3 c4 a6 b7 c8 e6 f5 h3 f1 g2 d1 c2 b3")
    );
}

#[test]
fn bouncing_pieces_2_corner_turns_back_and_stops_before_origin() {
    // g7: NE h8 is a corner (two reflections), the ray comes back to g7
    // and stops; SW runs to a1 (corner), comes back up and stops before
    // g7; NW f8 | e7 d6 c5 b4 a3; SE h6 | g5 f4 e3 d2 c1.
    let y = g(BP2, "K7/6B1/8/8/8/8/8/7k w - - 0 1");
    assert_eq!(
        dests(&y, "g7"),
        set("h8 f6 e5 d4 c3 b2 a1 f8 e7 d6 c5 b4 a3 h6 g5 f4 e3 d2 c1")
    );
}

#[test]
fn bouncing_pieces_2_bottom_reflection_attacks() {
    // The e2 bishop reaches g2 only through f1 (a reflection off the first
    // rank), so under bouncing-pieces-2 the h1 king may not take g2's
    // square, while under bouncing-pieces it may.
    let fen = "k7/8/8/8/8/8/4b3/7K w - - 0 1";
    assert_eq!(dests(&g(BP2, fen), "h1"), set("g1 h2"));
    assert_eq!(dests(&g(BP, fen), "h1"), set("g1 g2 h2"));
}

#[test]
fn bouncing_pieces_start_position_perft_by_hand() {
    // White's 20 first moves are FIDE's. Black's replies lose 8 of FIDE's
    // 400: after c3 or c4 the queen's bounced ray d1-c2-b3-a4-b5-c6 pins
    // d7 to the king on e8, after e3 or e4 the ray d1-e2-f3-g4-h5-g6 pins
    // f7 (each pinned pawn loses its two pushes). The first reflection off
    // the back ranks needs more plies, so bouncing-pieces-2 agrees.
    for rules in [BP, BP2] {
        let x = game(rules, None, None);
        assert_eq!((x.perft(1, true), x.perft(2, true)), (20, 392), "{rules}");
    }
}

// ------------------------------------------------ berolina single-colour scope

#[test]
fn berolina_pawns_scope_white_only_white_pawns_are_berolina() {
    let x = game("berolina-pawns:scope=white", None, None);
    assert_eq!(dests(&x, "e2"), set("d3 f3 c4 g4"));
    // 26 Berolina pawn moves (14 single, 12 double) + 4 knight moves = 30;
    // every one leaves Black its 20 FIDE replies.
    assert_eq!((x.perft(1, true), x.perft(2, true)), (30, 600));
    let mut y = x.clone();
    play(&mut y, &["b1c3"]);
    assert_eq!(dests(&y, "e7"), set("e5 e6"));
}

#[test]
fn berolina_pawns_scope_black_only_black_pawns_are_berolina() {
    let x = game("berolina-pawns:scope=black", None, None);
    assert_eq!(dests(&x, "e2"), set("e3 e4"));
    assert_eq!((x.perft(1, true), x.perft(2, true)), (20, 600));
    let mut y = x.clone();
    play(&mut y, &["b1c3"]);
    assert_eq!(dests(&y, "e7"), set("d6 f6 c5 g5"));
}

#[test]
fn berolina_pawns_scope_white_fide_pawn_takes_double_step_en_passant() {
    // RULINGS P27: b2-d4 passes c3; the FIDE pawn on b4 takes it en passant
    // with its diagonal capture onto c3, removing d4. The FEN writes the
    // two-square field (passed square, landing square).
    let mut x = g(
        "berolina-pawns:scope=white",
        "4k3/8/8/8/1p6/8/1P6/4K3 w - - 0 1",
    );
    play(&mut x, &["b2d4"]);
    assert_eq!(x.fen().split(' ').nth(3), Some("c3d4"));
    yes(&x, &["b4c3"]);
    // The FEN reads back with its en passant field.
    yes(&g("berolina-pawns:scope=white", &x.fen()), &["b4c3"]);
    play(&mut x, &["b4c3"]);
    assert!(x.piece_at(sq("d4")).is_none());
}

#[test]
fn berolina_pawns_scope_black_fide_pawn_takes_double_step_en_passant() {
    let mut x = g(
        "berolina-pawns:scope=black",
        "4k3/1p6/8/1P6/8/8/8/4K3 b - - 0 1",
    );
    play(&mut x, &["b7d5"]);
    assert_eq!(x.fen().split(' ').nth(3), Some("c6d5"));
    play(&mut x, &["b5c6"]);
    assert!(x.piece_at(sq("d5")).is_none());
}

#[test]
fn berolina_pawns_2_scope_white_sideways_capture_for_white_only() {
    let x = g(
        "berolina-pawns-2:scope=white",
        "4k3/8/8/8/3pP3/8/8/4K3 w - - 0 1",
    );
    yes(&x, &["e4d4"]);
    let y = g(
        "berolina-pawns-2:scope=white",
        "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1",
    );
    no(&y, &["d4e4"]);
}

#[test]
fn berolina_pawns_scope_colour_flip_symmetry() {
    // Swapping colours and mirroring the ranks maps scope=white onto
    // scope=black: the start position with White to move under one has the
    // same perft as the start position with Black to move under the other.
    let w = game("berolina-pawns:scope=white", None, None);
    let b = g(
        "berolina-pawns:scope=black",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    );
    assert_eq!(w.perft(3, true), b.perft(3, true));
}

// ------------------------------------------------------------ composition

#[test]
fn rook_warp_edge_incompatible_with_wrap_board() {
    // Spec edge case; the refusal names both presets (RULINGS P17).
    for (a, b) in [
        ("rook-warp", "wrap-board"),
        ("bouncing-pieces", "wrap-board"),
        ("bouncing-pieces-2", "wrap-board"),
        ("bouncing-pieces-2", "bouncing-pieces"),
    ] {
        for rules in [format!("{a},{b}"), format!("{b},{a}")] {
            let e = RuleSet::parse(&rules).unwrap_err().to_string();
            assert!(e.contains(a) && e.contains(b), "{rules}: {e}");
        }
    }
    // Warp and bounce touch different rays and compose.
    assert!(RuleSet::parse("rook-warp,bouncing-pieces").is_ok());
}

// Interactions the spec does not describe (decisions, see
// docs/board-topology.md): every rule that looks at squares sees the same
// board as the moves do.

#[test]
fn wrap_board_with_knights_leap_twice_double_leaps_wrap() {
    // a1-h3-f4 (or a1-g2-f4) crosses the edge; without the wrap f4 is out
    // of a double leap's reach from a1.
    let fen = "4k3/8/8/8/8/8/8/N2K4 w - - 0 1";
    yes(&g("knights-leap-twice,wrap-board", fen), &["a1f4"]);
    no(&g("knights-leap-twice", fen), &["a1f4"]);
}

#[test]
fn bouncing_pieces_with_knight_immunity_bounced_ray_passes_knights() {
    // RULINGS P11 with P23: the f1 bishop's bounced ray g2-h3-g4-f5-e6
    // passes the white knight on g4 for attack detection, so the e5 king
    // may not step onto f5 or e6; without knight-immunity the knight
    // shields them.
    let fen = "k7/8/8/4K3/6N1/8/8/5b2 w - - 0 1";
    no(
        &g("bouncing-pieces,knight-immunity", fen),
        &["e5f5", "e5e6"],
    );
    yes(&g(BP, fen), &["e5f5", "e5e6"]);
}

#[test]
fn wrap_board_with_queen_splits_bishop_placed_across_the_edge() {
    // The queen takes a4 from h4 across the edge; N, NE, E, SE, S and SW
    // (h3, across the edge) are taken, so the bishop goes W, to h4.
    let mut x = g(
        "queen-splits,wrap-board",
        "4k3/8/8/pp6/np5Q/PP5P/8/4K3 w - - 0 1",
    );
    play(&mut x, &["h4a4"]);
    let p = |s: &str| x.piece_at(sq(s)).map(|p| (p.kind.0, p.color));
    use houserules_engine::Color::White;
    assert_eq!(p("a4"), Some((3, White)), "a rook on the capture square");
    assert_eq!(
        p("h4"),
        Some((2, White)),
        "the bishop west of a4, across the edge"
    );
}

#[test]
fn wrap_board_with_explosive_rook_blast_wraps() {
    // a1xa4 detonates; on the cylinder h4 and g4 are at distance 1 and 2.
    let fen = "4k3/8/8/8/n5pp/8/8/R3K3 w - - 0 1";
    let mut x = g("explosive-rook,wrap-board", fen);
    play(&mut x, &["a1a4"]);
    assert!(x.piece_at(sq("h4")).is_none() && x.piece_at(sq("g4")).is_none());
    let mut y = g("explosive-rook", fen);
    play(&mut y, &["a1a4"]);
    assert!(y.piece_at(sq("h4")).is_some() && y.piece_at(sq("g4")).is_some());
}

#[test]
fn wrap_board_with_berolina_double_step_across_the_edge_opens_en_passant() {
    // a2 north-west: h3 (across the edge), g4. The Black Berolina pawn on h4
    // takes it en passant with its straight capture onto h3.
    let mut x = g(
        "berolina-pawns,wrap-board",
        "4k3/8/8/8/7p/8/P7/4K3 w - - 0 1",
    );
    assert_eq!(dests(&x, "a2"), set("b3 h3 c4 g4"));
    play(&mut x, &["a2g4"]);
    assert_eq!(x.fen().split(' ').nth(3), Some("h3g4"));
    play(&mut x, &["h4h3"]);
    assert!(x.piece_at(sq("g4")).is_none(), "en passant took g4");
}

// --------------------------------------------------------------- properties

/// `fen` with every piece moved `k` files east, round the cylinder (the
/// castling field must be `-`).
fn shift_files(fen: &str, k: usize) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let ranks: Vec<String> = f[0]
        .split('/')
        .map(|r| {
            let mut cells: Vec<char> = Vec::new();
            for c in r.chars() {
                match c.to_digit(10) {
                    Some(n) => cells.extend(std::iter::repeat_n('.', n as usize)),
                    None => cells.push(c),
                }
            }
            cells.rotate_right(k % 8);
            compress(&cells)
        })
        .collect();
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!(
            "{}{}",
            (b'a' + (b[0] - b'a' + k as u8) % 8) as char,
            b[1] as char
        )
    };
    format!("{} {} - {} {} {}", ranks.join("/"), f[1], ep, f[4], f[5])
}

/// `fen` mirrored left to right (files a..h reversed).
fn mirror_files(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let ranks: Vec<String> = f[0]
        .split('/')
        .map(|r| {
            let mut cells: Vec<char> = Vec::new();
            for c in r.chars() {
                match c.to_digit(10) {
                    Some(n) => cells.extend(std::iter::repeat_n('.', n as usize)),
                    None => cells.push(c),
                }
            }
            cells.reverse();
            compress(&cells)
        })
        .collect();
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", (b'h' - (b[0] - b'a')) as char, b[1] as char)
    };
    format!("{} {} - {} {} {}", ranks.join("/"), f[1], ep, f[4], f[5])
}

fn compress(cells: &[char]) -> String {
    let mut s = String::new();
    let mut empty = 0;
    for &c in cells {
        if c == '.' {
            empty += 1;
        } else {
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push(c);
        }
    }
    if empty > 0 {
        s.push_str(&empty.to_string());
    }
    s
}

/// Middle-game positions without castling rights (castling is fixed to
/// the files, so it is neither shift- nor mirror-symmetric).
const POSITIONS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w - - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "4k3/8/8/P6p/8/8/8/4K3 w - h6 0 2",
];

/// Perft under `rules`, or the error when the FEN is not a legal position
/// under them (a transformed position must then be refused too).
fn perft_or_refusal(rules: &str, fen: &str, depth: u32) -> Result<u64, String> {
    let (v, _) = houserules_presets::build_from_str(rules, None).unwrap();
    Game::from_fen(v, fen)
        .map(|g| g.perft(depth, true))
        .map_err(|e| e.to_string())
}

#[test]
fn wrap_board_perft_is_invariant_under_file_rotation() {
    // On a cylinder every file is alike: rotating the whole position round
    // the board changes no count. Any move or attack that forgot the wrap
    // breaks this (FIDE chess fails it from the first position).
    let mut played = 0;
    for fen in POSITIONS {
        let base = perft_or_refusal(WB, fen, 3);
        played += usize::from(base.is_ok());
        for k in [1, 3, 6] {
            let shifted = shift_files(fen, k);
            assert_eq!(perft_or_refusal(WB, &shifted, 3), base, "{fen} shifted {k}");
        }
    }
    assert!(played >= 3, "too few positions are legal on the cylinder");
    let fide = Game::from_fen(Variant::chess(), POSITIONS[0]).unwrap();
    let fide_shifted = Game::from_fen(Variant::chess(), &shift_files(POSITIONS[0], 1)).unwrap();
    assert_ne!(fide.perft(2, true), fide_shifted.perft(2, true));
}

#[test]
fn board_geometry_perft_is_invariant_under_left_right_mirror() {
    for rules in [WB, RW, BP, BP2] {
        for fen in POSITIONS {
            let a = perft_or_refusal(rules, fen, 3);
            let b = perft_or_refusal(rules, &mirror_files(fen), 3);
            assert_eq!(a, b, "{rules}: {fen}");
        }
    }
}

#[test]
fn topology_without_hooks_takes_the_general_path() {
    // The engine alone (no rule hooks) must play a definition with a
    // topology exactly as the preset layer does: its fast legal-move path
    // assumes straight pins and single check lines, so it must step aside.
    for rules in [WB, RW, BP, BP2] {
        let (def, hooks) = compose(&RuleSet::parse(rules).unwrap()).unwrap();
        let bare = Variant::new(def.clone()).unwrap();
        let hooked = Variant::with_hooks(def, hooks).unwrap();
        for fen in POSITIONS {
            let Ok(a) = Game::from_fen(bare.clone(), fen) else {
                continue;
            };
            let b = Game::from_fen(hooked.clone(), fen).unwrap();
            assert_eq!(a.perft(3, true), b.perft(3, true), "{rules}: {fen}");
        }
    }
}

#[test]
fn board_geometry_random_playouts_captures_are_attacks_and_undo_restores() {
    // Move generation walks each path forward; attack detection reads the
    // reverse index built from the same paths. On random playouts every
    // capture must be an attack (RULINGS P1), no move may leave the mover's
    // king attacked, and undo must restore the FEN and the hash.
    use houserules_engine::{Color, MoveKind};
    let mut rng = common::Rng(23);
    let sets = [
        WB,
        RW,
        BP,
        BP2,
        "knights-leap-twice,wrap-board",
        "rook-warp,bouncing-pieces",
        "berolina-pawns,wrap-board",
        "bouncing-pieces-2,knight-immunity",
        "rook-warp,berolina-pawns-2:scope=black",
    ];
    let mut captures = 0;
    for rules in sets {
        for _ in 0..6 {
            let mut x = game(rules, None, None);
            for _ in 0..80 {
                let moves = x.legal_moves();
                if moves.is_empty() || x.status().is_over() {
                    break;
                }
                let us = x.turn();
                // Double leaps attack through the preset's own hook, which
                // `Game::attackers` (the engine's tables) does not see.
                let hooked = |from: u8| {
                    rules.contains("knights-leap-twice")
                        && x.piece_at(from).is_some_and(|p| p.kind.0 == 1)
                };
                for m in &moves {
                    let victim = x.piece_at(m.to);
                    if m.kind == MoveKind::Normal
                        && victim.is_some_and(|p| p.color != us)
                        && !hooked(m.from)
                    {
                        captures += 1;
                        assert!(
                            x.attackers(m.to, us).contains(&m.from),
                            "{rules}: {} captures but does not attack in {}",
                            x.uci(*m),
                            x.fen()
                        );
                    }
                }
                let m = moves[(rng.next() % moves.len() as u64) as usize];
                let (f, h) = (x.fen(), x.hash());
                x.apply(m).unwrap();
                let king = (0..64u8).find(|&s| {
                    x.piece_at(s)
                        .is_some_and(|p| p.kind.0 == 5 && p.color == us)
                });
                if let Some(k) = king {
                    let them = if us == Color::White {
                        Color::Black
                    } else {
                        Color::White
                    };
                    assert!(
                        x.attackers(k, them).is_empty(),
                        "{rules}: {} leaves the king attacked, {f}",
                        x.uci(m)
                    );
                }
                x.undo().unwrap();
                assert_eq!((x.fen(), x.hash()), (f, h), "{rules}: undo");
                x.apply(m).unwrap();
            }
        }
    }
    assert!(captures > 1000, "only {captures} captures checked");
}
