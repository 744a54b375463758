//! The session search (issue 15: chance nodes and choices): it finds
//! mates through a modifier session, values a random rule by its
//! expectation, never reads the game's own random stream, answers choices,
//! and never plays an action the session refuses.

use houserules_engine::Color;
use houserules_search::{Action, Level, Limits, SessionSearcher};
use houserules_session::{CreateRequest, Session};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;

fn session(fen: Option<&str>, modifiers: Vec<Value>, seed: u32) -> Session {
    Session::create(CreateRequest {
        fen: fen.map(str::to_string),
        modifiers,
        seed: Some(json!(seed)),
        ..CreateRequest::default()
    })
    .expect("a valid request")
}

fn decide(s: &Session, seat: Color, depth: u32, seed: u64, samples: u32) -> (Option<Action>, i32) {
    let mut e = SessionSearcher::new();
    e.set_seed(seed);
    e.set_samples(samples);
    let r = e.search(s, seat, &Limits::depth(depth), &AtomicBool::new(false));
    let cp = match r.score {
        houserules_search::Score::Cp(c) => c,
        houserules_search::Score::Mate(m) => 100_000 * m.signum(),
    };
    (r.action, cp)
}

/// A rule whose captures are dangerous: after each capture, with
/// probability `p`, the capturing piece dies.
fn capture_may_kill_the_capturer(p: f64) -> Value {
    json!({
        "version": 1,
        "id": "risky-captures",
        "name": "Risky captures",
        "triggers": [{
            "kind": "on-capture",
            "effects": [{
                "kind": "with-probability",
                "params": {
                    "p": p,
                    "then": [{ "kind": "kill", "params": { "pieces": "$event.attacker" } }]
                }
            }]
        }]
    })
}

#[test]
fn finds_scholars_mate_through_a_random_modifier() {
    // 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6: Qxf7 is mate (the queen on f7 is
    // guarded by the c4 bishop; e7 and f8 are covered by the queen, d7
    // and d8 are Black's own). Under kamikaze the capture may blow up f6,
    // g7 and f8, which opens no flight square (f8 and e7 stay covered),
    // so it is mate in every outcome.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let s = session(Some(fen), vec![json!("kamikaze")], 7);
    // Depth 1 too: a mate at the horizon is scored as mate, not by
    // material (a bug found by the UCI test: quiescence ignored it).
    for depth in [1, 2] {
        let (a, cp) = decide(&s, Color::White, depth, 0, 4);
        assert_eq!(a, Some(Action::Move("h5f7".into())), "depth {depth}");
        assert!(cp >= 100_000, "depth {depth}: a mate score, got {cp}");
    }
}

#[test]
fn a_likely_fatal_capture_is_avoided_and_a_safe_one_taken() {
    // White: Kg1, Qd1, Ph2; Black: Kg8, Ph7 and an unguarded rook on b3
    // that only the queen can take (the rook does not attack d1). Material
    // (eval.rs, from mobility: queen 876, rook 570, pawn 100) after a
    // quiet move: 876 + 100 − 570 − 100 = 306. After Qxb3 with the
    // capturer dying with probability p: 876 + 100 − 100 = 876 if the
    // queen lives, 0 if it dies, so 876·(1 − p): 613 at p = 0.3 (take)
    // and 88 at p = 0.9 (avoid). The margins (over 300 and over 200
    // centipawns) dwarf the positional terms (tens) and the spread of a
    // 16-sample mean (seeded, so the test is deterministic).
    let fen = "6k1/7p/8/8/8/1r6/7P/3Q2K1 w - - 0 1";
    let risky = session(Some(fen), vec![capture_may_kill_the_capturer(0.9)], 1);
    let (a, _) = decide(&risky, Color::White, 2, 3, 16);
    assert_ne!(a, Some(Action::Move("d1b3".into())), "p = 0.9: avoid");
    let safe = session(Some(fen), vec![capture_may_kill_the_capturer(0.3)], 1);
    let (a, cp) = decide(&safe, Color::White, 2, 3, 16);
    assert_eq!(a, Some(Action::Move("d1b3".into())), "p = 0.3: take");
    // The score is a mean over outcomes, not one outcome: below the
    // queen-lives value (876 plus a few positional points) and above the
    // quiet 306.
    assert!(
        (307..850).contains(&cp),
        "expected value near 613, got {cp}"
    );
}

#[test]
fn the_games_seed_is_never_read() {
    // The same position and rules under two game seeds: a search that read
    // the game's stream would see different futures (kamikaze blasts after
    // captures) and could value them differently. The search reseeds its
    // copy from its own seed, so answer and score are the same.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let a = session(Some(fen), vec![json!("kamikaze")], 1);
    let b = session(Some(fen), vec![json!("kamikaze")], 99);
    assert_ne!(a.state_hash(), b.state_hash(), "the seeds differ");
    assert_eq!(
        decide(&a, Color::White, 2, 5, 4),
        decide(&b, Color::White, 2, 5, 4)
    );
}

#[test]
fn the_same_seed_and_limits_give_the_same_action() {
    let s = session(None, vec![json!("kamikaze"), json!("minefield")], 3);
    assert_eq!(
        decide(&s, Color::White, 2, 11, 4),
        decide(&s, Color::White, 2, 11, 4)
    );
}

#[test]
fn nothing_to_decide_for_the_side_not_to_move() {
    let s = session(None, vec![json!("kamikaze")], 0);
    assert_eq!(decide(&s, Color::Black, 2, 0, 4).0, None);
}

#[test]
fn plays_only_accepted_actions_under_random_rule_sets_with_choices() {
    // Library modifiers with randomness (kamikaze, all_on_red, critical
    // strike, second chance) and with choices (mind_control, parry…):
    // both sides are the engine at depth 1 for 40 plies or to the end;
    // every action must be accepted by the session.
    let sets: [&[&str]; 4] = [
        &["kamikaze", "minefield"],
        &["mind_control"],
        &["parry", "critical_strike"],
        &["all_on_red", "second_chance"],
    ];
    for (i, ids) in sets.iter().enumerate() {
        let mods = ids.iter().map(|id| json!(id)).collect();
        let mut s = session(None, mods, i as u32);
        let mut e = SessionSearcher::new();
        e.set_level(Level::new(2));
        e.set_seed(i as u64);
        for ply in 0..40 {
            if s.is_over() {
                break;
            }
            let mut acted = false;
            for seat in [Color::White, Color::Black] {
                let r = e.search(&s, seat, &Limits::depth(1), &AtomicBool::new(false));
                if let Some(a) = r.action {
                    s.submit(a.input()).unwrap_or_else(|err| {
                        panic!("set {ids:?} ply {ply}: {a:?} refused: {err:?}")
                    });
                    acted = true;
                    break;
                }
            }
            assert!(
                acted,
                "set {ids:?} ply {ply}: no seat could act, status {}",
                s.status()
            );
        }
    }
}

#[test]
fn piece_choices_are_decision_plies_for_the_player_who_chooses() {
    // mind_control (attached at creation, White the chooser): White picks
    // one of Black's non-royal pieces (Qc1 or Nb6), then Black one of
    // White's (Re2 or Nb4); both switch sides after the second pick.
    // Material from eval.rs (queen 876, rook 570, knight 264), White's
    // point of view:
    // - White picks the queen: Black's rook pick leaves queen and knight
    //   against rook and knight (1140 − 834 = +306), its knight pick queen
    //   and rook against two knights (1446 − 528 = +918): Black picks e2;
    // - White picks the knight: the rook pick leaves two knights against
    //   queen and rook (528 − 1446 = −918), the knight pick rook and knight
    //   against queen and knight (834 − 1140 = −306): Black picks e2.
    // So White picks c1 (+306 > −918), and Black, asked next, picks e2.
    // The squares (White Kd4, Re2, Nb4; Black Kf5, Qc1, Nb6) were picked
    // with python-chess so that no piece attacks an enemy piece before or
    // after the switches: material alone decides at this depth.
    let fen = "8/8/1n6/5k2/1N1K4/8/4R3/2q5 w - - 0 1";
    let mut s = session(Some(fen), vec![json!("mind_control")], 0);
    assert_eq!(s.pending_choice().map(|c| c.kind.as_str()), Some("piece"));
    let (a, _) = decide(&s, Color::White, 1, 0, 4);
    let Some(Action::Choice { value, .. }) = a else {
        panic!("a choice, got {a:?}");
    };
    assert_eq!(value, json!("c1"));
    assert_eq!(
        decide(&s, Color::Black, 1, 0, 4).0,
        None,
        "not Black's choice yet"
    );
    s.submit(
        Action::Choice {
            value,
            player: None,
        }
        .input(),
    )
    .unwrap();
    let (a, _) = decide(&s, Color::Black, 1, 0, 4);
    assert_eq!(
        a,
        Some(Action::Choice {
            value: json!("e2"),
            player: None
        })
    );
}

#[test]
fn rock_paper_scissors_is_answered_for_the_searchers_seat_only() {
    // parry contests every capture with rock-paper-scissors between both
    // players (rulings B5): after 1. e4 d5 2. exd5 each seat answers for
    // itself, with the player named, from the searcher's own stream (the
    // uniform mix, the game's equilibrium).
    let mut s = session(None, vec![json!("parry")], 0);
    for mv in ["e2e4", "d7d5", "e4d5"] {
        s.submit(houserules_session::Input::Move { mv: mv.into() })
            .unwrap();
    }
    assert_eq!(s.pending_choice().map(|c| c.kind.as_str()), Some("rps"));
    for seat in [Color::White, Color::Black] {
        let (a, _) = decide(&s, seat, 1, 1, 4);
        let Some(Action::Choice { value, player }) = a else {
            panic!("{seat:?}: a throw, got {a:?}");
        };
        assert!(["rock", "paper", "scissors"].contains(&value.as_str().unwrap()));
        assert_eq!(player.as_deref(), Some(seat.name()));
    }
}
