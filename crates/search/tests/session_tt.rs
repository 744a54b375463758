//! The session search's transposition table (issue 15): its key covers
//! the rule-layer state but not the random stream, and at a fixed depth
//! the search answers the same with and without it.

use houserules_engine::Color;
use houserules_search::{Action, Limits, Score, SessionSearcher};
use houserules_session::{CreateRequest, Input, Session};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn session(fen: Option<&str>, modifiers: Vec<Value>, seed: u32) -> Session {
    Session::create(CreateRequest {
        fen: fen.map(str::to_string),
        modifiers,
        seed: Some(json!(seed)),
        ..CreateRequest::default()
    })
    .expect("a valid request")
}

/// An edit of a saved session's state.
type Edit = Box<dyn FnOnce(&mut Value)>;

/// `s` saved, its state edited by `edit`, and restored: a session that
/// differs from `s` only where `edit` changed the state.
fn edited(s: &Session, edit: impl FnOnce(&mut Value)) -> Session {
    let mut snap = s.snapshot();
    edit(&mut snap["state"]);
    Session::restore(&snap).expect("a restorable snapshot")
}

#[test]
fn the_key_covers_rule_layer_state_but_not_the_random_stream() {
    // minefield lays mines (markers) at creation; kamikaze is a second
    // instance with its own state.
    let mut s = session(None, vec![json!("minefield"), json!("kamikaze")], 5);
    for mv in ["e2e4", "e7e5"] {
        s.submit(Input::Move { mv: mv.into() }).unwrap();
    }
    let state = serde_json::to_value(s.state()).unwrap();
    assert!(
        !state["markers"].as_array().unwrap().is_empty(),
        "minefield lays markers: {state}"
    );
    // The random stream: another seed and another number of draws give
    // the same key, and so does a longer log.
    let rng = edited(&s, |st| {
        st["rng"]["seed"] = json!(987_654);
        st["rng"]["stream"] = json!(41);
        st["log"]
            .as_array_mut()
            .unwrap()
            .push(json!({"event": "note", "detail": null}));
    });
    assert_ne!(rng.state().rng, s.state().rng);
    assert_eq!(
        rng.search_key(),
        s.search_key(),
        "rng and log are not keyed"
    );
    // Each of these rule-layer changes gives another key.
    let base = s.search_key();
    let first_marker_square = state["markers"][0]["square"].as_u64().unwrap();
    let changes: Vec<(&str, Edit)> = vec![
        (
            "ply count",
            Box::new(|st| st["plyCount"] = json!(st["plyCount"].as_u64().unwrap() + 2)),
        ),
        (
            "game variable",
            Box::new(|st| st["vars"]["score"] = json!(1)),
        ),
        (
            "modifier variable",
            Box::new(|st| st["modifiers"][0]["vars"]["count"] = json!(3)),
        ),
        (
            "modifier lifetime",
            Box::new(|st| {
                st["modifiers"][1]["lifetime"] = json!({"kind": "moves", "expiresAtMove": 9})
            }),
        ),
        (
            "marker square",
            Box::new(move |st| st["markers"][0]["square"] = json!((first_marker_square + 8) % 64)),
        ),
        (
            "marker removed",
            Box::new(|st| {
                st["markers"].as_array_mut().unwrap().pop();
            }),
        ),
        (
            // The piece with id 1 (a1's rook at the start) gets hit points.
            "piece attribute",
            Box::new(|st| st["attrs"]["1"] = json!({"Hp": 2})),
        ),
        ("skip counter", Box::new(|st| st["skipsInRow"] = json!(1))),
    ];
    for (what, edit) in changes {
        let other = edited(&s, edit);
        assert_eq!(other.game().fen(), s.game().fen(), "{what}: same position");
        assert_ne!(other.search_key(), base, "{what} must change the key");
    }
}

#[test]
fn a_pending_choice_and_its_answers_are_keyed() {
    // parry asks both players for a throw after 1. e4 d5 2. exd5: the
    // position is the same before and after White answers, the key not.
    let mut s = session(None, vec![json!("parry")], 0);
    for mv in ["e2e4", "d7d5", "e4d5"] {
        s.submit(Input::Move { mv: mv.into() }).unwrap();
    }
    assert_eq!(s.pending_choice().map(|c| c.kind.as_str()), Some("rps"));
    let asked = s.search_key();
    let mut answered = s.clone();
    answered
        .submit(Input::Choice {
            choice: json!("rock"),
            player: Some("white".into()),
            auto: None,
        })
        .unwrap();
    assert!(answered.pending_choice().is_some(), "Black still to throw");
    assert_ne!(answered.search_key(), asked);
    // Without the prompt (dropped from the state), the key differs too.
    let dropped = edited(&s, |st| {
        st["pending"] = json!([]);
    });
    assert_ne!(dropped.search_key(), asked);
}

/// Action, score and nodes of a fixed-depth search.
fn search(s: &Session, seat: Color, depth: u32, tt: bool) -> (Option<Action>, Score, u64) {
    let mut e = SessionSearcher::new();
    e.set_seed(7);
    e.set_transposition_table(tt);
    let r = e.search(s, seat, &Limits::depth(depth), &AtomicBool::new(false));
    (r.action, r.score, r.nodes)
}

#[test]
fn the_table_changes_no_answer_at_a_fixed_depth() {
    // The table's cut-offs only take values stored at the same depth (the
    // ply count is in the key, so a transposition at another depth is
    // another key) and sampled outcomes are seeded by the node, so the
    // search with the table computes the same values as without it, in
    // fewer nodes. Several rule sets: randomness in moves (kamikaze,
    // critical_strike), markers (minefield), choices (mind_control,
    // parry), and a middlegame.
    let middlegame = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let cases: Vec<(&str, Option<&str>, Vec<Value>, u32)> = vec![
        ("kamikaze", Some(middlegame), vec![json!("kamikaze")], 3),
        (
            "minefield+kamikaze",
            None,
            vec![json!("minefield"), json!("kamikaze")],
            3,
        ),
        ("mind_control", None, vec![json!("mind_control")], 3),
        (
            "parry+critical_strike",
            Some(middlegame),
            vec![json!("parry"), json!("critical_strike")],
            2,
        ),
        ("all_on_red", Some(middlegame), vec![json!("all_on_red")], 3),
    ];
    println!("session search, nodes to a fixed depth without and with the table");
    for (name, fen, mods, depth) in cases {
        let s = session(fen, mods, 1);
        let seat = match s.pending_choice() {
            Some(c) if c.for_player == "black" => Color::Black,
            _ => s.game().turn(),
        };
        // Times are printed for information (a ratio in the same run; the
        // key's hashing costs time per node); only nodes are judged.
        let t0 = Instant::now();
        let (a0, s0, n0) = search(&s, seat, depth, false);
        let t0 = t0.elapsed();
        let t1 = Instant::now();
        let (a1, s1, n1) = search(&s, seat, depth, true);
        let t1 = t1.elapsed();
        println!(
            "{name:22} depth {depth}: nodes {n0:7} without, {n1:7} with ({:.2}×); \
             time {:.2}×; {a1:?} {s1:?}",
            n1 as f64 / n0 as f64,
            t1.as_secs_f64() / t0.as_secs_f64()
        );
        assert_eq!((&a1, &s1), (&a0, &s0), "{name}: same action and score");
        assert!(n1 <= n0, "{name}: the table must not cost nodes");
    }
}

#[test]
fn mates_are_found_with_the_table() {
    // Scholar's mate under kamikaze (the position and its proof are in
    // tests/session.rs: Qxf7 is mate in every blast outcome), searched
    // deeper than the mate with the table on: the stored mate scores are
    // relative to their node, so the root still reads mate in 1.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let s = session(Some(fen), vec![json!("kamikaze")], 7);
    for depth in [1, 2, 3] {
        let (a, score, _) = search(&s, Color::White, depth, true);
        assert_eq!(a, Some(Action::Move("h5f7".into())), "depth {depth}");
        assert_eq!(score, Score::Mate(1), "depth {depth}");
    }
}
