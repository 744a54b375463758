//! The modifier runtime: the parity scenarios of thressgame-catalog.md
//! (§ Parity rules), the templates, and the rulings' tests, through the
//! session API. RNG outcomes are forced by choosing seeds; the seed used for
//! each outcome is named in the test (first draws from modifier-rulings F2:
//! seed 0 → 1144304738, heads, a 25 % miss; seed 1 → 2693262067, tails;
//! seed 7 → 50271532, a 25 % hit).

use houserules_session::{CreateRequest, Input, Session};
use serde_json::{json, Value};

fn session(fen: &str, modifiers: &[Value], seed: u32) -> Session {
    Session::create(CreateRequest {
        fen: Some(fen.to_string()),
        modifiers: modifiers.to_vec(),
        seed: Some(json!(seed)),
        ..CreateRequest::default()
    })
    .expect("valid request")
}

fn mv(s: &mut Session, uci: &str) {
    s.submit(Input::Move { mv: uci.into() })
        .unwrap_or_else(|e| panic!("{uci}: {e}"));
}

fn refused(s: &mut Session, uci: &str) -> bool {
    let before = s.state_hash();
    let r = s.submit(Input::Move { mv: uci.into() }).is_err();
    assert_eq!(
        before,
        s.state_hash(),
        "a refused input leaves the session unchanged"
    );
    r
}

fn choose(s: &mut Session, v: &str) {
    s.submit_choice(&json!(v))
        .unwrap_or_else(|e| panic!("{v}: {e}"));
}

fn choose_as(s: &mut Session, v: &str, player: &str) {
    s.submit(Input::Choice {
        choice: json!(v),
        player: Some(player.into()),
        auto: None,
    })
    .unwrap_or_else(|e| panic!("{v}: {e}"));
}

/// The first four FEN fields (the catalog gives board and side only).
fn fen2(s: &Session) -> String {
    s.game()
        .fen()
        .split(' ')
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

fn legal(s: &Session) -> Vec<String> {
    s.legal_moves_uci()
}

fn active(s: &Session) -> Vec<String> {
    s.state()
        .modifiers
        .iter()
        .map(|m| m.descriptor.clone())
        .collect()
}

/// Replaces the markers of a session through its snapshot (the catalog's
/// "state injected directly"): `(kind, square)` pairs owned by the first
/// attached instance.
fn with_markers(s: &Session, markers: &[(&str, &str)]) -> Session {
    let mut snap = s.snapshot();
    let inst = snap["state"]["modifiers"][0]["id"].clone();
    let mut next = snap["state"]["nextEntity"].as_u64().unwrap();
    let mut list = Vec::new();
    for (kind, sq) in markers {
        let b = sq.as_bytes();
        let idx = (b[1] - b'1') * 8 + (b[0] - b'a');
        list.push(json!({"id": next, "kind": kind, "square": idx, "lifetime": {"kind": "one-shot"}, "source": inst}));
        next += 1;
    }
    snap["state"]["markers"] = Value::Array(list);
    snap["state"]["nextEntity"] = json!(next);
    Session::restore(&snap).expect("restorable")
}

fn marker_squares(s: &Session) -> Vec<String> {
    s.to_json()["markers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["square"].as_str().unwrap().to_string())
        .collect()
}

// ------------------------------------------------------------- minefield

#[test]
fn minefield_activation_places_two_mines_on_empty_squares() {
    let s = session("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", &[json!("minefield")], 0);
    let m = marker_squares(&s);
    assert_eq!(m.len(), 2);
    for sq in &m {
        assert!(
            !["e8", "e2", "e1"].contains(&sq.as_str()),
            "mines go on empty squares"
        );
    }
    assert_eq!(s.state().rng.stream, 2, "random-pick of 2 draws twice (F3)");
}

#[test]
fn minefield_test1_pawn_ends_on_mine_dies_and_rule_detaches() {
    let s = session("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", &[json!("minefield")], 0);
    let mut s = with_markers(&s, &[("mine", "e4")]);
    mv(&mut s, "e2e4");
    assert_eq!(fen2(&s), "4k3/8/8/8/8/8/8/4K3 b");
    assert!(marker_squares(&s).is_empty());
    assert!(!active(&s).contains(&"minefield".to_string()));
}

#[test]
fn minefield_test2_sliding_over_a_mine_does_nothing() {
    let s = session("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", &[json!("minefield")], 0);
    let mut s = with_markers(&s, &[("mine", "e3")]);
    mv(&mut s, "e2e4");
    assert_eq!(fen2(&s), "4k3/8/8/8/4P3/8/8/4K3 b");
    assert_eq!(marker_squares(&s), vec!["e3"]);
}

#[test]
fn minefield_test3_king_survives_and_uses_up_the_mine() {
    // The catalog's K v K is a dead position (insufficient material) before
    // the move; a black pawn on h7 keeps the game going.
    let s = session("4k3/7p/8/8/8/8/8/4K3 w - - 0 1", &[json!("minefield")], 0);
    let mut s = with_markers(&s, &[("mine", "d1")]);
    mv(&mut s, "e1d1");
    assert_eq!(fen2(&s), "4k3/7p/8/8/8/8/8/3K4 b");
    assert!(marker_squares(&s).is_empty());
}

// -------------------------------------------------------------- mr_freeze

#[test]
fn mr_freeze_catalog_scenario() {
    let mut s = session(
        "3rk3/8/8/8/8/2n5/8/3QK3 w - - 0 1",
        &[json!("mr_freeze")],
        0,
    );
    let pc = s.pending_choice().expect("White picks a file");
    assert_eq!(pc.kind, "column");
    assert_eq!(pc.for_player, "white");
    assert!(
        s.legal_moves_uci().is_empty(),
        "no move while a choice is pending (B2)"
    );
    assert!(refused(&mut s, "e1f2"));
    choose(&mut s, "d");
    assert_eq!(marker_squares(&s).len(), 8);
    // 1. White: d1d4 rejected (frozen), e1f2 accepted.
    assert!(refused(&mut s, "d1d4"));
    mv(&mut s, "e1f2");
    // 2. Black: c3d1 rejected (target frozen), c3d5 accepted.
    assert!(refused(&mut s, "c3d1"));
    mv(&mut s, "c3d5");
    // 3. White: no capture of d5 or d8.
    assert!(!legal(&s)
        .iter()
        .any(|m| m.ends_with("d5") || m.ends_with("d8")));
    // Frozen attackers give no check (C3): the d5 knight covers e3.
    assert!(legal(&s).contains(&"f2e3".to_string()));
}

// ------------------------------------------------------------------ parry

fn parry_session() -> Session {
    let mut s = session("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", &[json!("parry")], 0);
    mv(&mut s, "e4d5");
    let pc = s.pending_choice().expect("rps prompt");
    assert_eq!(pc.kind, "rps");
    assert_eq!(pc.for_player, "both");
    s
}

#[test]
fn parry_defender_wins_cancels_the_capture_and_skips() {
    let mut s = parry_session();
    assert!(
        refused(&mut s, "e8d8"),
        "moves are refused while the rps is pending"
    );
    choose_as(&mut s, "rock", "white");
    assert!(
        s.pending_choice().is_some(),
        "answers stay hidden until both are in"
    );
    choose_as(&mut s, "paper", "black");
    assert_eq!(fen2(&s), "4k3/8/8/3p4/4P3/8/8/4K3 b");
    assert_eq!(s.state().ply_count, 0);
}

/// Rulings B5: rps answers stay hidden until both slots are filled. The
/// session output (what a server forwards to players) shows the first
/// answer as `"hidden"`, in the pending choice and in the log; the second
/// answer's log entry reveals both.
#[test]
fn parry_first_rps_answer_is_hidden_in_the_output() {
    let mut s = parry_session();
    choose_as(&mut s, "scissors", "white");
    let out = s.to_json();
    assert_eq!(
        out["pendingChoice"]["collected"],
        json!({"white": "hidden"})
    );
    let log = out["log"].as_array().expect("log");
    let first = log.last().expect("the choice entry");
    assert_eq!(first["event"], "choice");
    assert_eq!(
        first["detail"]["value"], "hidden",
        "the throw leaks: {first}"
    );
    choose_as(&mut s, "rock", "black");
    let out = s.to_json();
    let log = out["log"].as_array().expect("log");
    let last = log
        .iter()
        .rev()
        .find(|e| e.to_string().contains("\"choiceId\""))
        .expect("choice entries");
    assert!(
        last.to_string().contains("\"white\":\"scissors\""),
        "revealed once both are in: {last}"
    );
}

#[test]
fn parry_attacker_win_or_tie_lets_the_capture_through() {
    for (w, b) in [("rock", "scissors"), ("rock", "rock")] {
        let mut s = parry_session();
        choose_as(&mut s, b, "black");
        choose_as(&mut s, w, "white");
        assert_eq!(fen2(&s), "4k3/8/8/3P4/8/8/8/4K3 b", "{w} vs {b}");
        assert_eq!(s.state().ply_count, 1);
    }
}

// ------------------------------------------------------------- all_on_red

#[test]
fn all_on_red_test1_tails_with_a_stuck_king_skips_the_turn() {
    // Seed 1: the first draw is tails (F2).
    let s = session(
        "4k3/8/8/8/8/8/3PPP2/3QKB2 w - - 0 1",
        &[json!("all_on_red")],
        1,
    );
    assert_eq!(fen2(&s), "4k3/8/8/8/8/8/3PPP2/3QKB2 b");
    assert_eq!(s.state().ply_count, 0);
    // Black flipped at its turn start (a second draw).
    assert_eq!(s.state().rng.stream, 2);
}

#[test]
fn all_on_red_test2_tails_only_the_king_moves() {
    let mut s = session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &[json!("all_on_red")], 1);
    assert!(refused(&mut s, "a1a5"));
    mv(&mut s, "e1e2");
}

#[test]
fn all_on_red_test3_heads_any_move() {
    // Seed 0: the first draw is heads.
    let mut s = session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &[json!("all_on_red")], 0);
    mv(&mut s, "a1a5");
}

#[test]
fn all_on_red_flips_exactly_once_before_whites_first_move() {
    let s = session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &[json!("all_on_red")], 0);
    assert_eq!(s.state().rng.stream, 1);
}

// --------------------------------------------------- religious_conversion

#[test]
fn religious_conversion_bishop_converts_adjacent_enemy_pawns() {
    let mut s = session(
        "4k3/4p3/8/3p1p2/8/5B2/8/4K3 w - - 0 1",
        &[json!("religious_conversion")],
        0,
    );
    mv(&mut s, "f3e4");
    assert_eq!(fen2(&s), "4k3/4p3/8/3P1P2/4B3/8/8/4K3 b");
}

#[test]
fn religious_conversion_pawn_moving_next_to_a_bishop_is_not_converted() {
    let mut s = session(
        "4k3/4p3/8/5B2/8/8/8/4K3 b - - 0 1",
        &[json!("religious_conversion")],
        0,
    );
    mv(&mut s, "e7e6");
    assert_eq!(fen2(&s), "4k3/8/4p3/5B2/8/8/8/4K3 w");
}

#[test]
fn religious_conversion_and_minefield_bishop_dies_first() {
    // Rulings A1: traps fire before the stages, so the dead bishop converts nobody.
    let s = session(
        "4k3/8/8/3p4/8/5B2/8/4K3 w - - 0 1",
        &[json!("minefield"), json!("religious_conversion")],
        0,
    );
    let mut s = with_markers(&s, &[("mine", "e4")]);
    mv(&mut s, "f3e4");
    assert_eq!(fen2(&s), "4k3/8/8/3p4/8/8/8/4K3 b");
}

// ------------------------------------------------------------ ice_physics

#[test]
fn ice_physics_test1_rook_goes_to_the_end() {
    let s = session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &[json!("ice_physics")], 0);
    let mut rook: Vec<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("a1"))
        .collect();
    rook.sort();
    assert_eq!(rook, vec!["a1a8", "a1d1"]);
    assert!(legal(&s).contains(&"e1e2".to_string()));
}

#[test]
fn ice_physics_test2_farthest_is_the_capture() {
    let s = session(
        "4k3/8/8/p7/8/8/8/R3K3 w - - 0 1",
        &[json!("ice_physics")],
        0,
    );
    let up: Vec<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("a1a"))
        .collect();
    assert_eq!(up, vec!["a1a5"]);
}

// --------------------------------------------------------------- kamikaze

#[test]
fn kamikaze_hit_kills_the_ring_but_not_the_capturer() {
    // Seed 7: the first draw is a 25 % hit (F2).
    let mut s = session(
        "4k3/8/3p4/4n3/3P1N2/8/8/4K3 w - - 0 1",
        &[json!("kamikaze")],
        7,
    );
    mv(&mut s, "d4e5");
    assert_eq!(fen2(&s), "4k3/8/8/4P3/8/8/8/4K3 b");
}

#[test]
fn kamikaze_miss_changes_nothing_else() {
    // Seed 0: the first draw is a miss.
    let mut s = session(
        "4k3/8/3p4/4n3/3P1N2/8/8/4K3 w - - 0 1",
        &[json!("kamikaze")],
        0,
    );
    mv(&mut s, "d4e5");
    assert_eq!(fen2(&s), "4k3/8/3p4/4P3/5N2/8/8/4K3 b");
}

// ----------------------------------------------------------- mind_control

#[test]
fn mind_control_catalog_scenario() {
    let mut s = session(
        "4k3/3q4/8/8/8/8/P7/4K3 w - - 0 1",
        &[json!("mind_control:lifetime=1")],
        0,
    );
    let pc = s.pending_choice().expect("the chooser picks first");
    assert_eq!(pc.for_player, "white");
    assert_eq!(
        pc.prompt["options"],
        json!(["d7"]),
        "royals are never offered (B4)"
    );
    choose(&mut s, "d7");
    assert_eq!(s.pending_choice().unwrap().for_player, "black");
    choose(&mut s, "a2");
    assert_eq!(fen2(&s), "4k3/3Q4/8/8/8/8/p7/4K3 w");
    assert!(refused(&mut s, "d7e8"), "no move captures a royal (C2)");
    assert!(!legal(&s).contains(&"d7e8".to_string()));
    mv(&mut s, "e1f1");
    assert!(
        !active(&s).contains(&"mind_control".to_string()),
        "expired after its one ply"
    );
    mv(&mut s, "e8d7");
}

#[test]
fn mind_control_with_black_to_move_black_picks_first() {
    let s = session(
        "4k3/3q4/8/8/8/8/P7/4K3 b - - 0 1",
        &[json!("mind_control")],
        0,
    );
    assert_eq!(s.pending_choice().unwrap().for_player, "black");
}

#[test]
fn mind_control_against_a_lone_king_asks_nothing() {
    let s = session(
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
        &[json!("mind_control")],
        0,
    );
    let pc = s
        .pending_choice()
        .expect("Black still picks one of White's pieces");
    assert_eq!(pc.for_player, "black");
    let mut s = s;
    choose(&mut s, "a2");
    assert_eq!(fen2(&s), "4k3/8/8/8/8/8/p7/4K3 w");
}

// -------------------------------------------------------------- templates

#[test]
fn simple_mine_kills_the_first_non_royal_on_its_square() {
    let mut s = session(
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        &[json!("simple-mine")],
        0,
    );
    assert_eq!(marker_squares(&s), vec!["e4"]);
    mv(&mut s, "e2e4");
    assert_eq!(fen2(&s), "4k3/8/8/8/8/8/8/4K3 b");
    let mut s = session(
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        &[json!("simple-mine:square=e3")],
        0,
    );
    mv(&mut s, "e2e3");
    assert_eq!(fen2(&s), "4k3/8/8/8/8/8/8/4K3 b");
}

#[test]
fn vampire_on_capture_attacker_gains_hp() {
    let mut s = session(
        "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
        &[json!("vampire-on-capture:amount=2")],
        0,
    );
    mv(&mut s, "e4d5");
    let j = s.to_json();
    let p = j["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["square"] == "d5")
        .unwrap()
        .clone();
    assert_eq!(p["attrs"]["Hp"], json!(2));
}

#[test]
fn frozen_column_freezes_its_file() {
    let s = session(
        "4k3/8/8/8/8/8/3P4/3QK3 w - - 0 1",
        &[json!("frozen-column")],
        0,
    );
    assert!(!legal(&s).iter().any(|m| m.starts_with('d')));
    let s = session(
        "4k3/8/8/8/8/8/3P4/3QK3 w - - 0 1",
        &[json!("frozen-column:file=a")],
        0,
    );
    assert!(legal(&s).contains(&"d2d4".to_string()));
}

#[test]
fn coin_flip_restriction_tails_only_the_allowed_type() {
    // The flip happens at Black's turn start: the first draw; seed 1 → tails.
    let mut s = session(
        "4k3/p7/8/8/8/8/8/4K3 w - - 0 1",
        &[json!("coin-flip-restriction")],
        1,
    );
    mv(&mut s, "e1e2");
    assert!(legal(&s).iter().all(|m| m.starts_with("e8")));
    let mut s = session(
        "4k3/p7/8/8/8/8/8/4K3 w - - 0 1",
        &[json!("coin-flip-restriction")],
        0,
    );
    mv(&mut s, "e1e2");
    assert!(legal(&s).contains(&"a7a5".to_string()));
}

#[test]
fn religious_bishop_ring_four_converts_orthogonal_neighbours_only() {
    let mut s = session(
        "4k3/8/8/3ppp2/8/5B2/8/4K3 w - - 0 1",
        &[json!("religious-bishop:ring=4")],
        0,
    );
    mv(&mut s, "f3e4");
    assert_eq!(fen2(&s), "4k3/8/8/3pPp2/4B3/8/8/4K3 b");
}

#[test]
fn no_mans_land_blocks_its_file_and_crossings() {
    let s = session(
        "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1",
        &[json!("no-mans-land")],
        0,
    );
    let l = legal(&s);
    assert!(
        !l.contains(&"e2e4".to_string()),
        "blocked squares stop moves"
    );
    assert!(!l.contains(&"a1h1".to_string()));
    assert!(l.contains(&"a1d1".to_string()));
    assert!(!l
        .iter()
        .any(|m| m.starts_with("a1") && m.as_bytes()[2] > b'e'));
}

// -------------------------------------------------------------- dispatch

#[test]
fn dry_mode_legal_moves_change_nothing() {
    let s = session(
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        &[json!("all_on_red"), json!("kamikaze")],
        3,
    );
    let before = s.snapshot();
    for _ in 0..3 {
        let _ = s.legal_moves_uci();
        let _ = s.status();
    }
    assert_eq!(before, s.snapshot());
}

#[test]
fn cascade_stops_after_eight_generations_and_the_game_goes_on() {
    let d = json!({
        "version": 1, "id": "bleeder", "name": "Bleeder",
        "triggers": [
            {"kind": "on-move", "effects": [
                {"kind": "set-piece-attr", "params": {"attr": "Hp", "value": 100}},
                {"kind": "add-to-attribute", "params": {"attr": "Hp", "delta": -1}}
            ]},
            {"kind": "on-damaged", "effects": [
                {"kind": "add-to-attribute", "params": {"attr": "Hp", "delta": -1}}
            ]}
        ]
    });
    let mut s = session("4k3/7p/8/8/8/8/8/4K3 w - - 0 1", &[d], 0);
    mv(&mut s, "e1e2");
    let log = &s.state().log;
    assert!(log
        .iter()
        .any(|e| e.detail["code"] == "runtime.cascade-depth-exceeded"));
    let hp = s.to_json()["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["square"] == "e2")
        .unwrap()["attrs"]["Hp"]
        .clone();
    // on-move (generation 1) sets 99; on-damaged runs at generations 2..8.
    assert_eq!(hp, json!(92));
    mv(&mut s, "e8d8");
}

#[test]
fn choice_resumes_and_runs_the_rest_of_the_ply_once() {
    // A choice raised in stage 3 (on-capture) resumes, and the same ply's
    // on-turn-end still runs exactly once (rulings B3).
    let d = json!({
        "version": 1, "id": "ask", "name": "Ask",
        "triggers": [
            {"kind": "on-capture", "effects": [
                {"kind": "request-choice", "params": {"kind": "coin-flip", "forPlayer": "mover", "bind": "c"}},
                {"kind": "add-to-var", "params": {"name": "captures", "delta": 1}}
            ]},
            {"kind": "on-turn-end", "effects": [
                {"kind": "add-to-var", "params": {"name": "ends", "delta": 1}}
            ]}
        ]
    });
    let mut s = session("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", &[d], 0);
    mv(&mut s, "e4d5");
    assert!(s.pending_choice().is_some());
    assert_eq!(s.to_json()["status"]["status"], "awaiting-choice");
    choose(&mut s, "tails");
    let vars = &s.state().modifiers[0].vars;
    assert_eq!(vars["captures"], json!(1));
    assert_eq!(vars["ends"], json!(1));
}

#[test]
fn timeout_takes_the_first_option() {
    let mut s = session(
        "3rk3/8/8/8/8/2n5/8/3QK3 w - - 0 1",
        &[json!("mr_freeze")],
        0,
    );
    s.timeout_choice().unwrap();
    assert!(marker_squares(&s).iter().all(|m| m.starts_with('a')));
    assert_eq!(
        s.inputs().last().unwrap(),
        &Input::Choice {
            choice: json!("a"),
            player: None,
            auto: Some("timeout".into())
        }
    );
}

#[test]
fn skip_turn_auto_flip_equals_manual_flip() {
    // Rulings B6: auto mode with a seed forcing tails and manual mode with
    // the input "tails" reach the same position.
    let auto = session(
        "4k3/8/8/8/8/8/3PPP2/3QKB2 w - - 0 1",
        &[json!("all_on_red")],
        1,
    );
    let mut manual = Session::create(CreateRequest {
        fen: Some("4k3/8/8/8/8/8/3PPP2/3QKB2 w - - 0 1".into()),
        modifiers: vec![json!("all_on_red")],
        coin_flips: Some(houserules_session::CoinFlips::Manual),
        ..CreateRequest::default()
    })
    .unwrap();
    assert_eq!(manual.pending_choice().unwrap().kind, "coin-flip");
    choose(&mut manual, "tails");
    // Black now flips (manual) at its turn start.
    assert_eq!(manual.pending_choice().unwrap().for_player, "black");
    assert_eq!(fen2(&manual), fen2(&auto));
}

#[test]
fn check_edges_credit_a_discovered_check_to_the_mover() {
    let d = json!({
        "version": 1, "id": "watch", "name": "Watch",
        "triggers": [
            {"kind": "on-check-delivered", "effects": [{"kind": "set-var", "params": {"name": "by", "value": "$self.type"}}]},
            {"kind": "on-check-received", "effects": [{"kind": "set-var", "params": {"name": "victim", "value": "$self.color"}}]},
            {"kind": "on-promotion", "effects": [{"kind": "set-var", "params": {"name": "promo", "value": "$event.promotedTo"}}]}
        ]
    });
    let mut s = session(
        "4k3/8/8/8/4N3/8/P7/4R1K1 w - - 0 1",
        std::slice::from_ref(&d),
        0,
    );
    mv(&mut s, "e4c5");
    let vars = &s.state().modifiers[0].vars;
    assert_eq!(
        vars["by"],
        json!("knight"),
        "the rook's check is credited to the knight that uncovered it"
    );
    assert_eq!(vars["victim"], json!("black"));
    // Edge-triggered: a check that continues fires nothing new.
    let mut s = session("4k3/P7/8/8/8/8/8/6K1 w - - 0 1", &[d], 0);
    mv(&mut s, "a7a8q");
    let vars = &s.state().modifiers[0].vars;
    assert_eq!(vars["promo"], json!("queen"));
    assert_eq!(vars["by"], json!("queen"));
}

#[test]
fn a_side_left_without_a_royal_loses() {
    // Rulings C2: remove-piece may remove a royal; the side without one loses.
    let d = json!({
        "version": 1, "id": "regicide", "name": "Regicide",
        "triggers": [{"kind": "on-move", "params": {"subject": {"type": ["rook"]}}, "effects": [
            {"kind": "remove-piece", "params": {"pieces": {"royal": true, "color": {"opponent-of": "$self.color"}}}}
        ]}]
    });
    let mut s = session("4k3/7p/8/8/8/8/8/R3K3 w - - 0 1", &[d], 0);
    mv(&mut s, "a1a2");
    assert_eq!(
        s.status(),
        json!({"status": "royal-loss", "winner": "white"})
    );
    assert!(s.legal_moves_uci().is_empty());
    assert!(refused(&mut s, "h7h6"));
}

/// Regression (new-user trial): under `weak-dual-king` a king may be
/// captured (RULINGS P16: losing one king is survivable, and RULINGS
/// override modifier-rulings C2), so a session without modifiers lists
/// exactly the engine's moves, `h6f4` (Bishop takes the king on f4)
/// included.
#[test]
fn weak_dual_king_king_captures_stay_legal_in_a_session() {
    let fen = "rnb2knr/p1k1p2p/5pPb/1ppp4/2P2K2/PPK4P/RB1PP1P1/1N3BNR b - - 5 15";
    let s = Session::create(CreateRequest {
        fen: Some(fen.to_string()),
        presets: vec!["weak-dual-king".into()],
        ..CreateRequest::default()
    })
    .expect("valid request");
    let (variant, _) =
        houserules_presets::build_from_str("weak-dual-king", None).expect("preset builds");
    let engine = houserules_engine::Game::from_fen(variant, fen).expect("fen");
    let mut want: Vec<String> = engine
        .legal_moves()
        .iter()
        .map(|m| engine.uci(*m))
        .collect();
    want.sort();
    let mut got = legal(&s);
    got.sort();
    assert!(got.contains(&"h6f4".to_string()));
    assert_eq!(got, want);
}

/// Regression (new-user trial): inputs with unknown keys, both `move` and
/// `choice`, an unknown `auto` or player were accepted (or the choice
/// dropped). The input format (`play --help`): `{"move": UCI or SAN}` or
/// `{"choice": VALUE, "player"?: "white"|"black", "auto"?: "timeout"}`.
#[test]
fn inputs_are_read_strictly() {
    assert_eq!(
        Input::parse(r#"{"move": "e2e4"}"#),
        Ok(Input::Move { mv: "e2e4".into() })
    );
    assert_eq!(
        Input::parse(r#"{"choice": "e", "player": "black", "auto": "timeout"}"#),
        Ok(Input::Choice {
            choice: json!("e"),
            player: Some("black".into()),
            auto: Some("timeout".into())
        })
    );
    for (bad, says) in [
        (r#"{"choice": "e", "extra": 1}"#, "unknown key `extra`"),
        (r#"{"choice": "e", "auto": "whenever"}"#, "`auto`"),
        (r#"{"move": "d2d4", "choice": "e"}"#, "not both"),
        (r#"{"choice": "e", "player": "green"}"#, "`player`"),
        (r#"{"move": null}"#, "UCI or SAN"),
        ("{}", "needs `move`"),
        ("[]", "JSON object"),
        ("{", "EOF"),
    ] {
        match Input::parse(bad) {
            Err(e) => assert!(e.contains(says), "{bad}: {e}"),
            Ok(i) => panic!("{bad} accepted as {i:?}"),
        }
    }
}

/// Regression (new-user trial): a SAN move was refused as "not legal"
/// without saying that moves are read in UCI. SAN is now read (issue 11):
/// White's first move Nf3 is the g1 knight's move to f3, recorded in UCI;
/// text that is neither UCI nor SAN gets the hint.
#[test]
fn a_san_move_is_played_and_other_text_gets_a_hint() {
    let mut s = session(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[],
        0,
    );
    // An illegal move in UCI form gets no hint.
    let e = s
        .submit(Input::Move { mv: "e2e5".into() })
        .expect_err("illegal");
    assert!(!e.message.contains("UCI"), "{e}");
    let e = s
        .submit(Input::Move {
            mv: "knight".into(),
        })
        .expect_err("neither UCI nor SAN");
    assert!(
        e.message.contains("UCI") && e.message.contains("SAN"),
        "{e}"
    );
    s.submit(Input::Move { mv: "Nf3".into() })
        .expect("SAN is read");
    assert_eq!(s.inputs(), [Input::Move { mv: "g1f3".into() }]);
}
