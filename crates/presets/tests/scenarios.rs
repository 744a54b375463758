//! The spec's numbered test scenarios and edge cases, one test each, named
//! `<preset>_<scenario>`; expected values from presets-and-triggers.md and
//! RULINGS.md (scenarios whose literal board is impossible are adapted to
//! the nearest legal board, as noted).

mod common;

use common::{g, game, no, play, yes};
use houserules_engine::{Color, Game, Status};

fn winner(g: &Game) -> Option<Option<Color>> {
    match g.status() {
        Status::Variant { winner, .. } => Some(winner),
        Status::Checkmate { winner } => Some(Some(winner)),
        Status::Stalemate => Some(None),
        _ => None,
    }
}
fn field(g: &Game, i: usize) -> String {
    g.fen().split(' ').nth(i).unwrap().to_string()
}

const PMB: &str = "pawns-move-backward";
#[test]
fn pawns_move_backward_1_step_back() {
    yes(&g(PMB, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"), &["e4e3"]);
}
#[test]
fn pawns_move_backward_2_no_backward_capture() {
    no(&g(PMB, "4k3/8/8/8/4P3/3n4/8/4K3 w - - 0 1"), &["e4d3"]);
}
#[test]
fn pawns_move_backward_3_destination_occupied() {
    no(&g(PMB, "4k3/8/8/8/4P3/4N3/8/4K3 w - - 0 1"), &["e4e3"]);
}
#[test]
fn pawns_move_backward_p21_pawn_may_stand_on_its_first_rank() {
    // P21: a pawn may step back onto its own first rank, so a FEN with one
    // there is a reachable position (FIDE pawns there are refused, as
    // python-chess and shakmaty refuse them); from there it steps forward.
    let f = "4k3/8/8/8/8/8/8/P3K3 w - - 0 1";
    let x = g(PMB, f);
    assert_eq!(x.check_piece_ranks(), Ok(()));
    yes(&x, &["a1a2"]);
    let err = g("berolina-pawns", f)
        .check_piece_ranks()
        .unwrap_err()
        .to_string();
    assert!(err.contains("a1") && err.contains("first rank"), "{err}");
    // P6: a piece-hp push may put a pawn on a back rank, so the check
    // accepts every placement there.
    assert_eq!(g("piece-hp", f).check_piece_ranks(), Ok(()));
}
#[test]
fn pawns_move_backward_edge_no_en_passant_and_clock_reset() {
    let mut x = g(PMB, "4k3/8/8/8/4P3/8/8/4K3 w - - 7 20");
    play(&mut x, &["e4e3"]);
    assert_eq!(field(&x, 3), "-");
    assert_eq!(x.halfmove_clock(), 0);
}
#[test]
fn pawns_move_backward_edge_home_rank_loses_double_step() {
    let mut x = g(PMB, "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1");
    play(&mut x, &["e3e2", "e8d8"]);
    no(&x, &["e2e4"]);
    yes(&x, &["e2e3"]);
}
#[test]
fn pawns_move_backward_edge_first_rank_steps_forward_without_promoting() {
    let mut x = g(PMB, "4k3/8/8/8/8/8/4P3/K7 w - - 0 1");
    yes(&x, &["e2e1"]);
    play(&mut x, &["e2e1", "e8d8"]);
    yes(&x, &["e1e2"]);
    no(&x, &["e1e3"]);
}

const PDNC: &str = "pawn-diagonal-no-capture";
#[test]
fn pawn_diagonal_no_capture_1_quiet_diagonals() {
    yes(
        &g(PDNC, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"),
        &["e4d5", "e4f5"],
    );
}
#[test]
fn pawn_diagonal_no_capture_2_capture_unchanged() {
    yes(&g(PDNC, "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1"), &["e4d5"]);
}
#[test]
fn pawn_diagonal_no_capture_3_friendly_blocks() {
    no(&g(PDNC, "4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1"), &["e4d5"]);
}
#[test]
fn pawn_diagonal_no_capture_edge_quiet_diagonal_no_en_passant() {
    let mut x = g(PDNC, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
    play(&mut x, &["e4d5"]);
    assert_eq!(field(&x, 3), "-");
}
#[test]
fn pawn_diagonal_no_capture_edge_quiet_diagonal_promotes() {
    yes(
        &g(PDNC, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"),
        &["b7a8q", "b7c8n"],
    );
}
#[test]
fn pawn_diagonal_no_capture_edge_en_passant_is_one_move() {
    let mut x = g(PDNC, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    play(&mut x, &["e2e4"]);
    let n = x
        .legal_moves()
        .iter()
        .filter(|m| x.uci(**m) == "d4e3")
        .count();
    assert_eq!(n, 1, "RULINGS P20");
    play(&mut x, &["d4e3"]);
    assert!(x.piece_at(common::sq("e4")).is_none(), "en passant took e4");
}

const KLT: &str = "knights-leap-twice";
#[test]
fn knights_leap_twice_1_double_leap() {
    yes(&g(KLT, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"), &["b1c4"]);
}
#[test]
fn knights_leap_twice_2_blocked_intermediate() {
    // Via a3 only when d2 (the other path to c4) is blocked too.
    yes(&g(KLT, "4k3/8/8/8/8/P7/8/1N2K3 w - - 0 1"), &["b1c4"]);
    no(&g(KLT, "4k3/8/8/8/8/P7/3P4/1N2K3 w - - 0 1"), &["b1c4"]);
}
#[test]
fn knights_leap_twice_3_enemy_intermediate() {
    // a4 is reachable only through c3.
    yes(&g(KLT, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"), &["b1a4"]);
    let x = g(KLT, "4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1");
    yes(&x, &["b1c3"]);
    no(&x, &["b1a4"]);
}
#[test]
fn knights_leap_twice_edge_double_leap_attacks() {
    // RULINGS P1/P5: the king may not step onto c4, which b1 reaches.
    let x = g(KLT, "8/8/8/3k4/8/8/8/1N2K3 b - - 0 1");
    assert!(!x.legal_moves().is_empty());
    // Regression: `is_check` and `attackers` missed the double leap
    // b1-c3-d5 ("double-leap may deliver check", spec edge case 2).
    assert!(x.is_check());
    assert_eq!(x.attackers(35, Color::White), [1]);
    no(&x, &["d5c4"]);
    yes(&x, &["d5e5"]);
}
#[test]
fn knights_leap_twice_edge_no_null_move() {
    let x = g(KLT, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    assert!(x.legal_moves().iter().all(|m| m.from != m.to));
}

const BIC: &str = "bishops-ignore-color";
#[test]
fn bishops_ignore_color_1_orthogonal_step() {
    yes(&g(BIC, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), &["c1d1"]);
}
#[test]
fn bishops_ignore_color_2_friendly_blocker() {
    no(&g(BIC, "4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1"), &["c1b1"]);
}
#[test]
fn bishops_ignore_color_3_diagonal_capture_and_step() {
    yes(
        &g(BIC, "4k3/8/8/8/8/8/1p6/2B1K3 w - - 0 1"),
        &["c1b2", "c1c2"],
    );
}
#[test]
fn bishops_ignore_color_edge_one_square_only() {
    no(&g(BIC, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), &["c1c3"]);
}
#[test]
fn bishops_ignore_color_edge_step_attacks() {
    no(&g(BIC, "8/8/8/8/8/2k5/8/2B1K3 b - - 0 1"), &["c3c2"]);
}

const CTW: &str = "capture-to-win";
#[test]
fn capture_to_win_1_first_capture_wins() {
    let mut x = game(CTW, None, None);
    play(&mut x, &["e2e4", "d7d5"]);
    assert_eq!(winner(&x), None);
    play(&mut x, &["e4d5"]);
    assert_eq!(winner(&x), Some(Some(Color::White)));
    assert!(x.legal_moves().is_empty());
}
#[test]
fn capture_to_win_2_no_moves_is_draw() {
    assert_eq!(
        winner(&g(CTW, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")),
        Some(None)
    );
}
#[test]
fn capture_to_win_3_capture_out_of_check_wins() {
    let mut x = g(CTW, "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
    play(&mut x, &["e1d2"]);
    assert_eq!(winner(&x), Some(Some(Color::White)));
}
#[test]
fn capture_to_win_edge_en_passant_counts() {
    let mut x = g(CTW, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    play(&mut x, &["e5d6"]);
    assert_eq!(winner(&x), Some(Some(Color::White)));
}
#[test]
fn capture_to_win_edge_promotion_is_not_capture() {
    let mut x = g(CTW, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    play(&mut x, &["b7b8q"]);
    assert_eq!(winner(&x), None);
}

const LPS: &str = "last-piece-standing";
#[test]
fn last_piece_standing_1_capture_last_piece_wins() {
    let mut x = g(LPS, "4k3/8/8/8/8/8/3q4/4K3 b - - 0 1");
    assert!(!x.is_check());
    play(&mut x, &["d2e1"]);
    assert_eq!(winner(&x), Some(Some(Color::Black)));
}
#[test]
fn last_piece_standing_2_no_legal_moves_loses() {
    assert_eq!(
        winner(&g(LPS, "8/8/8/8/8/p7/P7/K7 b - - 0 1")),
        Some(Some(Color::White))
    );
}
#[test]
fn last_piece_standing_3_no_insufficient_material() {
    assert_eq!(
        g(LPS, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").status(),
        Status::Ongoing
    );
}
#[test]
fn last_piece_standing_edge_moving_into_attack_is_legal() {
    yes(&g(LPS, "4k3/8/8/8/8/8/r7/4K3 w - - 0 1"), &["e1e2"]);
}
#[test]
fn last_piece_standing_edge_no_king_promotion() {
    no(&g(LPS, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"), &["b7b8k"]);
}

#[test]
fn capture_all_side_without_pieces_loses() {
    let mut x = g("capture-all", "8/8/8/8/8/8/3q4/4K3 b - - 0 1");
    play(&mut x, &["d2e1"]);
    assert_eq!(winner(&x), Some(Some(Color::Black)));
    assert_eq!(
        g("capture-all", "4k3/8/8/8/8/8/8/4K3 w - - 0 1").status(),
        Status::Ongoing
    );
}

const SC: &str = "suicide-chess";
#[test]
fn suicide_chess_capture_is_compulsory() {
    let x = g(
        SC,
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2",
    );
    assert_eq!(common::ucis(&x), vec!["e4d5"]);
}
#[test]
fn suicide_chess_pawn_promotes_to_king() {
    yes(&g(SC, "8/8/8/8/8/8/1p6/8 b - - 0 1"), &["b2b1k"]);
}
#[test]
fn suicide_chess_no_pieces_wins() {
    let mut x = g(SC, "8/8/8/8/8/8/1p6/1R6 w - - 0 1");
    play(&mut x, &["b1b2"]);
    assert_eq!(winner(&x), Some(Some(Color::Black)));
}
#[test]
fn suicide_chess_no_castling_no_check() {
    let x = game(SC, None, None);
    assert_eq!(field(&x, 2), "-");
    let y = g(SC, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert_eq!(common::ucis(&y), vec!["e1e2"]);
}

#[test]
fn coregal_queen_may_not_stand_attacked() {
    let x = g("coregal", "4k3/8/8/8/8/8/r7/3QK3 w - - 0 1");
    no(&x, &["d1d2"]);
    yes(&x, &["d1c1"]);
}
/// Regression (found by the Fairy-Stockfish differential): two kings
/// against a king and a bishop was called a dead position (FIDE's
/// insufficient-material rule), yet the bishop mates: after Bf8-g7 the
/// king on a1 is attacked along the long diagonal, b1 and b2 are covered
/// by the king on c2 (and b2 by the bishop), the king on a2 blocks a2 and
/// nothing can capture or block (P16: no king may be left attacked).
#[test]
fn dual_king_edge_a_lone_bishop_can_mate() {
    let mut x = g("dual-king", "5b2/8/8/8/8/8/K1k5/K7 b - - 0 1");
    assert_eq!(x.status(), Status::Ongoing);
    play(&mut x, &["f8g7"]);
    assert_eq!(
        x.status(),
        Status::Checkmate {
            winner: Color::Black
        }
    );
    // Kings alone can never give check: a dead position.
    let y = g("dual-king", "8/8/8/8/8/8/K1k5/K7 b - - 0 1");
    assert_eq!(y.status(), Status::InsufficientMaterial);
}

#[test]
fn dual_king_no_king_may_be_left_attacked() {
    no(
        &g("dual-king", "3kk3/8/8/8/8/8/r7/3KK3 w - - 0 1"),
        &["d1d2", "e1e2"],
    );
}
#[test]
fn weak_dual_king_one_king_may_be_left_attacked() {
    let x = g("weak-dual-king", "3kk3/8/8/8/8/8/r7/3KK3 w - - 0 1");
    yes(&x, &["d1d2"]);
    let mut y = g("weak-dual-king", "3kk3/8/8/8/8/8/3r4/3KK3 b - - 0 1");
    play(&mut y, &["d2d1"]);
    assert_eq!(winner(&y), None, "one king left: the game goes on");
}
#[test]
fn knightmate_rules_side_without_knight_loses() {
    assert_eq!(
        winner(&g("knightmate-rules", "n3k3/8/8/8/8/8/8/4K3 w - - 0 1")),
        Some(Some(Color::Black))
    );
}
#[test]
fn extinction_chess_last_pawn_promoting_loses() {
    let mut x = g("extinction-chess", "4k3/1P6/8/8/8/8/p7/4K3 w - - 0 1");
    play(&mut x, &["b7b8q"]);
    assert_eq!(winner(&x), Some(Some(Color::Black)));
}
#[test]
fn first_promotion_wins_locks_result() {
    let mut x = g("first-promotion-wins", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    play(&mut x, &["b7b8q"]);
    assert_eq!(winner(&x), Some(Some(Color::White)));
    assert!(x.legal_moves().is_empty());
}
#[test]
fn double_move_two_half_moves_per_turn() {
    let mut x = game("double-move", None, None);
    play(&mut x, &["e2e4"]);
    assert_eq!(x.turn(), Color::White);
    play(&mut x, &["d2d4"]);
    assert_eq!(x.turn(), Color::Black);
}
#[test]
fn double_move_check_ends_turn() {
    let mut x = g("double-move", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    play(&mut x, &["a1a8"]);
    assert_eq!(x.turn(), Color::Black);
}
#[test]
fn monster_rules_white_plays_two_black_one() {
    let mut x = game("monster-rules", None, None);
    play(&mut x, &["e1d1", "d1e1"]);
    assert_eq!(x.turn(), Color::Black);
    play(&mut x, &["e7e5"]);
    assert_eq!(x.turn(), Color::White);
}
#[test]
fn god_kings_leap_and_immunity() {
    let x = g("god-kings", "4k3/8/8/8/8/8/r7/4K3 w - - 0 1");
    yes(&x, &["e1e3", "e1g3", "e1e2"]);
    no(&g("god-kings", "8/8/8/8/8/4k3/8/4K3 w - - 0 1"), &["e1e3"]);
}
#[test]
fn early_promotion_sixth_rank_queens() {
    let mut x = g("early-promotion", "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1");
    play(&mut x, &["e5e6"]);
    assert_eq!(x.fen().split('/').nth(2).unwrap(), "4Q3");
}
#[test]
fn proletariat_pieces_move_as_pawns() {
    let x = g("proletariat", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    yes(&x, &["b1b2", "e1e2"]);
    no(&x, &["b1c3", "e1d1"]);
}
#[test]
fn short_stop_one_square_only() {
    let x = g("short-stop", "r3k2r/8/8/8/8/8/4P3/RN2K2R w KQkq - 0 1");
    yes(&x, &["a1a2", "b1b2", "e2e3"]);
    no(&x, &["a1a3", "b1c3", "e2e4", "e1g1", "e1h1"]);
}
#[test]
fn trans_rights_king_slides_queen_steps() {
    let x = g("trans-rights", "7k/8/8/8/8/8/8/Q3K3 w - - 0 1");
    yes(&x, &["e1e4", "e1e7", "a1a2"]);
    no(&x, &["a1a3"]);
}

const QS: &str = "queen-splits";
#[test]
fn queen_splits_1_rook_and_bishop_north() {
    let mut x = g(QS, "4k3/8/8/8/3p4/8/8/3QK3 w - - 0 1");
    play(&mut x, &["d1d4"]);
    assert_eq!(
        x.fen().split(' ').next().unwrap(),
        "4k3/8/8/3B4/3R4/8/8/4K3"
    );
}
#[test]
fn queen_splits_2_bishop_on_first_empty_clockwise() {
    // RULINGS P12: the square the queen left (d3, S) is the first empty one.
    let mut x = g(QS, "4k3/8/8/2PPP3/2PrP3/2PQP3/8/4K3 w - - 0 1");
    play(&mut x, &["d3d4"]);
    assert_eq!(
        x.fen().split(' ').next().unwrap(),
        "4k3/8/8/2PPP3/2PRP3/2PBP3/8/4K3"
    );
}
#[test]
fn queen_splits_3_corner() {
    let mut x = g(QS, "4k3/8/8/8/8/8/7p/6KQ w - - 0 1");
    play(&mut x, &["h1h2"]);
    assert_eq!(x.fen().split(' ').next().unwrap(), "4k3/8/8/8/8/7B/7R/6K1");
}

const ER: &str = "explosive-rook";
#[test]
fn explosive_rook_1_rank_and_file_within_two() {
    // c4 left empty so that the rook can reach d4 from a4.
    let mut x = g(ER, "7k/3p4/3p4/3p4/R2ppp2/3p4/3p4/K7 w - - 0 1");
    play(&mut x, &["a4d4"]);
    assert_eq!(x.fen().split(' ').next().unwrap(), "7k/3p4/8/8/3R4/8/8/K7");
}
#[test]
fn explosive_rook_2_own_king_blown_up_loses() {
    let mut x = g(ER, "7k/8/8/3K4/R2p4/8/8/8 w - - 0 1");
    play(&mut x, &["a4d4"]);
    assert_eq!(winner(&x), Some(Some(Color::Black)));
}
#[test]
fn explosive_rook_3_corner() {
    let mut x = g(ER, "k7/8/7K/8/p7/p7/R7/rnbn4 w - - 0 1");
    play(&mut x, &["a2a1"]);
    assert_eq!(x.fen().split(' ').next().unwrap(), "k7/8/7K/8/p7/8/8/R2n4");
}

const KI: &str = "knight-immunity";
#[test]
fn knight_immunity_1_bishop_cannot_take_knight() {
    let x = g(KI, "4k3/8/7n/8/8/8/8/2B1K3 w - - 0 1");
    no(&x, &["c1h6"]);
    yes(&x, &["c1g5"]);
}
#[test]
fn knight_immunity_3_knight_may_take_bishop() {
    yes(&g(KI, "4k3/8/8/8/8/1b6/3N4/4K3 w - - 0 1"), &["d2b3"]);
}
#[test]
fn knight_immunity_edge_knight_does_not_shield() {
    let x = g(KI, "7k/6n1/8/8/8/8/8/B3K3 b - - 0 1");
    // Regression: the bishop's ray through the knight on g7 is check
    // (spec edge case 1), also for `is_check` and `attackers`.
    assert!(x.is_check());
    assert_eq!(x.attackers(63, Color::White), [0]);
    no(&x, &["g7e6"]);
    yes(&x, &["h8h7"]);
}
#[test]
fn knight_immunity_edge_queen_may_take_knight() {
    yes(&g(KI, "4k3/8/7n/8/8/8/8/2Q1K3 w - - 0 1"), &["c1h6"]);
}

const DPS: &str = "double-pawn-sprint";
#[test]
fn double_pawn_sprint_1_sprint_from_any_rank() {
    let x = g(DPS, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
    yes(&x, &["e4e6"]);
}
#[test]
fn double_pawn_sprint_2_en_passant_on_passed_square() {
    let mut x = g(DPS, "4k3/8/3p4/8/4P3/8/8/4K3 w - - 0 1");
    play(&mut x, &["e4e6"]);
    yes(&x, &["d6e5"]);
    play(&mut x, &["d6e5"]);
    assert!(x.piece_at(common::sq("e6")).is_none(), "RULINGS P2");
}
#[test]
fn double_pawn_sprint_3_promotion() {
    yes(&g(DPS, "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"), &["e7e8q"]);
    yes(&g(DPS, "k7/8/4P3/8/8/8/8/4K3 w - - 0 1"), &["e6e8q"]);
}
#[test]
fn double_pawn_sprint_edge_no_jump() {
    no(&g(DPS, "4k3/8/8/4n3/4P3/8/8/4K3 w - - 0 1"), &["e4e6"]);
}
