//! The other catalog rules (thressgame-catalog.md § Per-rule catalog, as
//! expressed in modifier-rulings § 2.3), each with a scenario through the
//! session API. Expected positions follow the catalog's text; RNG outcomes
//! are forced by seeds (first draws, rulings F2: seed 0 → u ≈ 0.266, seed
//! 1 → u ≈ 0.627).

use houserules_session::{CoinFlips, CreateRequest, Input, Session};
use serde_json::json;

fn session(fen: &str, m: &str, seed: u32) -> Session {
    Session::create(CreateRequest {
        fen: Some(fen.into()),
        modifiers: vec![json!(m)],
        seed: Some(json!(seed)),
        ..CreateRequest::default()
    })
    .unwrap_or_else(|e| panic!("{m}: {e}"))
}

fn mv(s: &mut Session, uci: &str) {
    s.submit(Input::Move { mv: uci.into() })
        .unwrap_or_else(|e| panic!("{uci}: {e}"));
}

fn choose(s: &mut Session, v: &str) {
    s.submit_choice(&json!(v))
        .unwrap_or_else(|e| panic!("{v}: {e}"));
}

fn board(s: &Session) -> String {
    s.game()
        .fen()
        .split(' ')
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

fn count(s: &Session, ty: &str, color: &str) -> usize {
    s.to_json()["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["type"] == ty && p["color"] == color)
        .count()
}

fn non_royal(s: &Session) -> usize {
    s.to_json()["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["type"] != "king")
        .count()
}

fn legal(s: &Session) -> Vec<String> {
    s.legal_moves_uci()
}

fn active(s: &Session, id: &str) -> bool {
    s.state().modifiers.iter().any(|m| m.descriptor == id)
}

fn with_marker(s: &Session, kind: &str, sq: u8) -> Session {
    let mut snap = s.snapshot();
    let inst = snap["state"]["modifiers"][0]["id"].clone();
    let id = snap["state"]["nextEntity"].as_u64().unwrap();
    snap["state"]["markers"] = json!([{"id": id, "kind": kind, "square": sq, "lifetime": {"kind": "permanent"}, "source": inst}]);
    snap["state"]["nextEntity"] = json!(id + 1);
    Session::restore(&snap).unwrap()
}

#[test]
fn march_of_the_pawnguins_steps_and_queens() {
    let s = session(
        "4k3/6P1/8/8/8/3p4/P2P4/4K3 w - - 0 1",
        "march_of_the_pawnguins",
        0,
    );
    assert_eq!(board(&s), "4k1Q1/8/8/8/8/P2p4/3P4/4K3 w");
    assert!(
        !active(&s, "march_of_the_pawnguins"),
        "instant cards detach at once"
    );
}

#[test]
fn the_rumbling_kills_the_occupant_ahead() {
    let s = session("4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1", "the_rumbling", 0);
    assert_eq!(board(&s), "4k3/8/8/3P4/8/8/8/4K3 w");
}

#[test]
fn they_deserved_it_kills_exactly_one_non_royal() {
    for seed in 0..200 {
        let s = session(
            "4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1",
            "they_deserved_it",
            seed,
        );
        assert_eq!(non_royal(&s), 1, "seed {seed}");
        assert_eq!(count(&s, "king", "white") + count(&s, "king", "black"), 2);
    }
}

#[test]
fn born_again_christian_queens_become_bishops() {
    let s = session("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1", "born_again_christian", 0);
    assert_eq!(board(&s), "3bk3/8/8/8/8/8/8/3BK3 w");
}

#[test]
fn dub_thee_knight_two_pawns_or_all_of_them() {
    let s = session("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", "dub_thee_knight", 0);
    assert_eq!(board(&s), "4k3/8/8/8/8/8/N7/4K3 w");
    let s = session("4k3/pp6/8/8/8/8/P7/4K3 w - - 0 1", "dub_thee_knight", 5);
    assert_eq!(
        count(&s, "knight", "white") + count(&s, "knight", "black"),
        2
    );
}

#[test]
fn back_that_shit_up_no_promotion_on_own_back_rank() {
    // Rulings C5: e2 → e1 stays a pawn whose only move is e1e2.
    let s = session("4k3/8/8/8/8/8/4P3/K7 w - - 0 1", "back_that_shit_up", 0);
    assert_eq!(board(&s), "4k3/8/8/8/8/8/8/K3P3 w");
    let pawn: Vec<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("e1"))
        .collect();
    assert_eq!(pawn, vec!["e1e2"]);
}

#[test]
fn drafted_for_battle_swaps_with_the_kings() {
    let mut s = session("4kb2/8/8/8/8/8/8/1N2K3 w - - 0 1", "drafted_for_battle", 0);
    choose(&mut s, "b1");
    choose(&mut s, "f8");
    assert_eq!(board(&s), "4bk2/8/8/8/8/8/8/1K2N3 w");
    let s = session("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "drafted_for_battle", 0);
    assert!(
        s.pending_choice().is_none(),
        "void when a side has no bishop or knight"
    );
}

#[test]
fn hot_drop_gives_each_side_a_queen() {
    let s = session("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "hot_drop", 3);
    assert_eq!(
        (count(&s, "queen", "white"), count(&s, "queen", "black")),
        (1, 1)
    );
}

#[test]
fn risk_it_rook_manual_flips() {
    let mut s = Session::create(CreateRequest {
        fen: Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()),
        modifiers: vec![json!("risk_it_rook")],
        coin_flips: Some(CoinFlips::Manual),
        ..CreateRequest::default()
    })
    .unwrap();
    choose(&mut s, "heads");
    assert_eq!(
        count(&s, "rook", "white"),
        1,
        "one head gives the chooser a rook"
    );
    choose(&mut s, "heads");
    choose(&mut s, "tails");
    assert_eq!(
        count(&s, "rook", "black"),
        0,
        "the opponent needs two heads"
    );
}

#[test]
fn two_kids_in_a_trenchcoat_trades_two_pawns_for_a_locked_bishop() {
    let mut s = session(
        "4k3/7p/8/8/8/8/PP6/4K3 w - - 0 1",
        "two_kids_in_a_trenchcoat",
        0,
    );
    choose(&mut s, "a2");
    assert!(!s.pending_choice().unwrap().prompt["options"]
        .as_array()
        .unwrap()
        .contains(&json!("a2")));
    choose(&mut s, "b2");
    choose(&mut s, "d4");
    assert_eq!(board(&s), "4k3/7p/8/8/3B4/8/8/4K3 w");
    assert!(
        !legal(&s).iter().any(|m| m.starts_with("d4")),
        "locked for the next move"
    );
    mv(&mut s, "e1e2");
    mv(&mut s, "e8e7");
    assert!(
        legal(&s).iter().any(|m| m.starts_with("d4")),
        "the lock lasted one ply"
    );
}

#[test]
fn chaaaarge_front_pieces_first() {
    let s = session("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1", "chaaaarge", 0);
    assert_eq!(board(&s), "4k3/8/8/8/8/P7/R7/4K3 w");
}

#[test]
fn the_enemy_is_routed_rearmost_first() {
    let s = session("4k3/r7/p7/8/8/8/8/4K3 w - - 0 1", "the_enemy_is_routed", 0);
    assert_eq!(board(&s), "r3k3/p7/8/8/8/8/8/4K3 w");
}

#[test]
fn nuclear_fallout_blocks_two_squares_for_good() {
    let s = session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "nuclear_fallout", 0);
    assert!(!active(&s, "nuclear_fallout"));
    let m = s.to_json()["markers"].as_array().unwrap().clone();
    assert_eq!(m.len(), 2);
    for x in &m {
        assert_eq!(x["kind"], "blocked");
        let sq = x["square"].as_str().unwrap();
        assert!(
            !legal(&s).iter().any(|l| &l[2..4] == sq),
            "no move ends on {sq}"
        );
    }
}

#[test]
fn get_up_in_their_face_slides_and_promotes() {
    let s = session("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1", "get_up_in_their_face", 0);
    assert_eq!(board(&s), "Q3k3/R7/8/8/8/8/8/4K3 w");
}

#[test]
fn a_light_breeze_moves_file_e_then_d() {
    let s = session("4k3/8/8/8/8/8/8/3RKn2 w - - 0 1", "a_light_breeze", 0);
    assert_eq!(board(&s), "5k2/8/8/8/8/8/8/4RK2 w");
}

#[test]
fn anti_camping_swaps_the_picked_enemy() {
    let mut s = session("4k3/3n4/8/8/8/8/3P4/4K3 w - - 0 1", "anti_camping", 0);
    choose(&mut s, "d7");
    assert_eq!(board(&s), "4k3/3P4/8/8/8/8/3n4/4K3 w");
}

#[test]
fn bottomless_pit_kills_non_royals_forever() {
    let mut s = session("4k3/7p/8/8/8/8/8/3RK3 w - - 0 1", "bottomless_pit", 0);
    choose(&mut s, "d4");
    mv(&mut s, "d1d4");
    assert_eq!(board(&s), "4k3/7p/8/8/8/8/8/4K3 b");
    assert!(active(&s, "bottomless_pit"));
    assert_eq!(s.to_json()["markers"].as_array().unwrap().len(), 1);
}

#[test]
fn moving_up_the_corporate_ladder_swaps_in_a_file_and_locks() {
    let mut s = session(
        "4k3/3r4/8/8/8/8/3P4/4K3 w - - 0 1",
        "moving_up_the_corporate_ladder",
        0,
    );
    choose(&mut s, "d2");
    assert_eq!(s.pending_choice().unwrap().prompt["options"], json!(["d7"]));
    choose(&mut s, "d7");
    assert_eq!(board(&s), "4k3/3P4/8/8/8/8/3r4/4K3 w");
    assert!(!legal(&s).iter().any(|m| m.starts_with("d7")));
}

#[test]
fn early_promotion_on_the_sixth_rank() {
    let mut s = session("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "early_promotion", 0);
    mv(&mut s, "e5e6");
    assert_eq!(board(&s), "4k3/8/4Q3/8/8/8/8/4K3 b");
}

#[test]
fn down_with_the_ship_attacker_dies() {
    let mut s = session("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "down_with_the_ship", 0);
    mv(&mut s, "e4d5");
    assert_eq!(board(&s), "4k3/8/8/8/8/8/8/4K3 b");
}

#[test]
fn second_chance_respawns_same_type_and_colour() {
    // Seed 0: first draw u ≈ 0.266 < 0.5, a respawn (rulings A9 test).
    let mut s = session("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "second_chance", 0);
    mv(&mut s, "e4d5");
    assert_eq!(count(&s, "knight", "black"), 1);
    // Seed 1: u ≈ 0.627, no respawn.
    let mut s = session("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "second_chance", 1);
    mv(&mut s, "e4d5");
    assert_eq!(count(&s, "knight", "black"), 0);
}

#[test]
fn hobbit_slaughter_only_pawns_are_captured_and_kings_are_never_in_check() {
    let s = session("4k3/8/8/3n1p2/4P3/8/8/4K3 w - - 0 1", "hobbit_slaughter", 0);
    assert!(!legal(&s).contains(&"e4d5".to_string()));
    assert!(legal(&s).contains(&"e4f5".to_string()));
    let s = session("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "hobbit_slaughter", 0);
    assert!(legal(&s).contains(&"e1d1".to_string()));
}

#[test]
fn critical_strike_kills_an_adjacent_enemy_on_a_hit() {
    let mut s = session("4k3/8/3n4/3p4/4P3/8/8/4K3 w - - 0 1", "critical_strike", 0);
    mv(&mut s, "e4d5");
    assert_eq!(board(&s), "4k3/8/8/3P4/8/8/8/4K3 b");
    let mut s = session("4k3/8/3n4/3p4/4P3/8/8/4K3 w - - 0 1", "critical_strike", 1);
    mv(&mut s, "e4d5");
    assert_eq!(board(&s), "4k3/8/3n4/3P4/8/8/8/4K3 b");
}

#[test]
fn invulnerability_potion_ward_blocks_captures_and_follows_moves() {
    let mut s = session(
        "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1",
        "invulnerability_potion",
        0,
    );
    assert_eq!(s.to_json()["markers"][0]["square"], "d5");
    mv(&mut s, "e8e7");
    assert!(!legal(&s).contains(&"e4d5".to_string()));
    mv(&mut s, "e1e2");
    mv(&mut s, "d5d4");
    assert_eq!(s.to_json()["markers"][0]["square"], "d4");
}

#[test]
fn severe_constipation_frozen_knight_gives_no_check() {
    let s = session("4k3/8/3N4/8/8/8/7P/4K3 b - - 0 1", "severe_constipation", 0);
    assert_eq!(s.status()["status"], "ongoing");
    assert!(legal(&s).contains(&"e8f7".to_string()));
    let s = session("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "severe_constipation", 0);
    assert!(!legal(&s).iter().any(|m| m.starts_with("b1")));
}

#[test]
fn bloodthirsty_must_capture() {
    let s = session("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "bloodthirsty", 0);
    assert_eq!(legal(&s), vec!["e4d5"]);
}

#[test]
fn ice_age_rook_on_a1_does_not_check_a8() {
    // Rulings C3 test.
    // The a8 king is frozen too; a black pawn move shows Black is not in check.
    let s = session("k7/3p4/8/8/8/8/8/R3K3 b - - 0 1", "ice_age", 0);
    assert!(legal(&s).contains(&"d7d6".to_string()));
    assert_eq!(s.status()["status"], "ongoing");
}

#[test]
fn no_cowards_rook_still_checks_along_the_rank() {
    // Rulings C3 test: destination-dependent restrictions leave attacks alone.
    let s = session("4k3/8/8/8/8/8/8/r6K w - - 0 1", "no_cowards", 0);
    let mut l = legal(&s);
    l.sort();
    assert_eq!(l, vec!["h1g2", "h1h2"]);
}

#[test]
fn blood_sacrifice_with_lifetime_three_kills_three_times() {
    // Rulings A4 test.
    let mut s = session(
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
        "blood_sacrifice:lifetime=3",
        0,
    );
    for m in ["e1d1", "e8d8", "d1e1"] {
        mv(&mut s, m);
    }
    assert_eq!(non_royal(&s), 13);
    let any = legal(&s).into_iter().find(|m| m.starts_with("d8")).unwrap();
    mv(&mut s, &any);
    assert_eq!(non_royal(&s), 13, "no kill after the rule's last ply");
}

#[test]
fn portal_storm_swaps_two_pieces_and_queens_a_pawn_on_the_far_rank() {
    let mut s = session("4k2n/8/8/8/8/8/P7/4K3 w - - 0 1", "portal_storm", 0);
    mv(&mut s, "e1d1");
    assert_eq!(board(&s), "4k2Q/8/8/8/8/8/n7/3K4 b");
}

#[test]
fn living_bomb_explodes_on_expiry() {
    let mut s = session(
        "4k3/8/8/1p6/8/8/3N4/4K3 w - - 0 1",
        "living_bomb:lifetime=2",
        0,
    );
    choose(&mut s, "d2");
    mv(&mut s, "d2c4");
    assert_eq!(s.to_json()["markers"][0]["square"], "c4");
    mv(&mut s, "e8d8");
    assert_eq!(board(&s), "3k4/8/8/8/8/8/8/4K3 w");
}

#[test]
fn mitosis_copies_the_locked_piece_on_expiry() {
    let mut s = session("4k3/7p/8/8/8/8/3N4/4K3 w - - 0 1", "mitosis:lifetime=2", 0);
    choose(&mut s, "d2");
    assert!(!legal(&s).iter().any(|m| m.starts_with("d2")));
    mv(&mut s, "e1f1");
    mv(&mut s, "e8d8");
    assert_eq!(count(&s, "knight", "white"), 2);
}

#[test]
fn treasure_chest_queens_the_collector() {
    let s = session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "treasure_chest", 0);
    let mut s = with_marker(&s, "treasure", 32); // a5
    mv(&mut s, "a1a5");
    assert_eq!(board(&s), "4k3/8/8/Q7/8/8/8/4K3 b");
    assert!(s.to_json()["markers"].as_array().unwrap().is_empty());
}

#[test]
fn no_mans_land_picked_file() {
    let mut s = session("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1", "no_mans_land", 0);
    choose(&mut s, "e");
    let l = legal(&s);
    assert!(!l.contains(&"e2e4".to_string()));
    assert!(!l.contains(&"a1h1".to_string()));
    assert!(l.contains(&"a1d1".to_string()));
    assert!(
        l.contains(&"e1f1".to_string()),
        "pieces in the file may leave"
    );
}

#[test]
fn cash_grab_rook_on_the_far_rank_becomes_a_queen() {
    let mut s = session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "cash_grab", 0);
    mv(&mut s, "a1a8");
    assert_eq!(board(&s), "Q3k3/8/8/8/8/8/8/4K3 b");
}

#[test]
fn summoning_ritual_more_corners_gets_a_rook() {
    let mut s = session(
        "r3k3/8/8/8/8/8/8/R3K2R w - - 0 1",
        "summoning_ritual:lifetime=1",
        0,
    );
    mv(&mut s, "e1e2");
    assert_eq!(count(&s, "rook", "white"), 3);
    assert_eq!(count(&s, "rook", "black"), 1);
}

#[test]
fn call_down_lightning_strikes_the_other_colour() {
    let s = session(
        "1n2k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "call_down_lightning:lifetime=1",
        0,
    );
    let mut s = with_marker(&s, "death-square", 28); // e4
    mv(&mut s, "e2e4");
    assert_eq!(board(&s), "4k3/8/8/8/4P3/8/8/4K3 b");
}

#[test]
fn get_the_fuck_off_kills_on_the_marked_squares() {
    let mut s = session(
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "get_the_fuck_off:lifetime=1",
        0,
    );
    choose(&mut s, "e4");
    assert!(!s.pending_choice().unwrap().prompt["options"]
        .as_array()
        .unwrap()
        .contains(&json!("e4")));
    choose(&mut s, "d5");
    mv(&mut s, "e2e4");
    assert_eq!(board(&s), "4k3/8/8/8/8/8/8/4K3 b");
}

#[test]
fn gigachad_aura_kills_next_to_kings() {
    let mut s = session(
        "4k3/3p4/8/8/8/8/3P4/4K3 w - - 0 1",
        "gigachad_aura:lifetime=1",
        0,
    );
    mv(&mut s, "e1f1");
    assert_eq!(board(&s), "4k3/8/8/8/8/8/3P4/5K2 b");
}

fn sorted_from(s: &Session, from: &str) -> Vec<String> {
    let mut v: Vec<String> = legal(s)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect();
    v.sort();
    v
}

#[test]
fn proletariat_pieces_move_and_attack_like_pawns() {
    let s = session("4k3/8/8/4r3/8/8/1p6/R3K3 w - - 0 1", "proletariat", 0);
    let mut l = legal(&s);
    l.sort();
    // The e5 rook attacks only d4 and f4 (as a black pawn), so e2 is safe.
    assert_eq!(l, vec!["a1a2", "a1b2", "e1e2"]);
}

#[test]
fn short_stop_one_square_moves() {
    let s = session("4k3/7p/8/8/8/8/8/RN2K3 w - - 0 1", "short_stop", 0);
    assert_eq!(sorted_from(&s, "b1"), vec!["b1b2", "b1c1"]);
    assert_eq!(sorted_from(&s, "a1"), vec!["a1a2"]);
    assert_eq!(
        sorted_from(&s, "e1"),
        vec!["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]
    );
}

#[test]
fn pawns_with_viagra_sideways_capture() {
    let s = session("4k3/8/8/8/3pP3/8/8/4K3 w - - 0 1", "pawns_with_viagra", 0);
    assert!(legal(&s).contains(&"e4d4".to_string()));
    // The sideways square is an attack (P1): a king beside a pawn is in check.
    let s = session("8/8/8/8/4Pk2/8/8/4K3 b - - 0 1", "pawns_with_viagra", 0);
    assert!(s.is_check());
}

#[test]
fn trains_rights_kings_slide_and_queens_step() {
    let s = session("7k/8/8/8/8/8/8/1Q2K3 w - - 0 1", "trains_rights", 0);
    assert!(legal(&s).contains(&"e1e7".to_string()));
    assert!(
        !legal(&s).contains(&"e1e8".to_string()),
        "the black king's slide covers e8"
    );
    assert!(
        !legal(&s).contains(&"e1e5".to_string()),
        "and the long diagonal"
    );
    assert_eq!(
        sorted_from(&s, "b1"),
        vec!["b1a1", "b1a2", "b1b2", "b1c1", "b1c2"]
    );
}

#[test]
fn estrogen_king_slides_too() {
    let s = session("4k3/7p/8/8/8/8/8/4K3 w - - 0 1", "estrogen", 0);
    assert!(legal(&s).contains(&"e1a5".to_string()));
    assert!(legal(&s).contains(&"e1d1".to_string()));
}

#[test]
fn pacman_style_files_wrap() {
    let s = session("4k3/7p/8/8/8/N7/8/R3K3 w - - 0 1", "pacman_style", 0);
    assert!(
        legal(&s).contains(&"a1h1".to_string()),
        "the rook slides across the edge"
    );
    assert!(!legal(&s).contains(&"a1e1".to_string()));
    assert!(
        legal(&s).contains(&"a3h5".to_string()),
        "the knight jumps across the edge"
    );
    // A rook on a4 checks a king on h4 across the edge (P1).
    let s = session("4k3/8/8/8/r6K/8/8/8 w - - 0 1", "pacman_style", 0);
    assert!(s.is_check());
}

#[test]
fn god_kings_leap_and_are_never_in_check() {
    let s = session("4k3/7p/8/8/8/8/8/4K3 w - - 0 1", "god_kings", 0);
    assert!(legal(&s).contains(&"e1e3".to_string()));
    assert!(legal(&s).contains(&"e1c3".to_string()));
    let s = session("4k3/7p/8/8/8/8/8/r3K3 w - - 0 1", "god_kings", 0);
    assert!(!s.is_check());
    assert!(legal(&s).contains(&"e1d1".to_string()));
}

#[test]
fn knee_surgery_leaps_without_immunity() {
    let s = session("4k3/7p/8/8/8/8/8/4K3 w - - 0 1", "knee_surgery", 0);
    assert!(legal(&s).contains(&"e1e3".to_string()));
    let s = session("4k3/7p/8/8/8/8/8/r3K3 w - - 0 1", "knee_surgery", 0);
    assert!(s.is_check());
    assert!(!legal(&s).contains(&"e1d1".to_string()));
    assert!(legal(&s).contains(&"e1e3".to_string()));
}
