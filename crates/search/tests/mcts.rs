//! The Monte-Carlo session search (issue 15's fallback): it takes a hanging
//! queen and mates in one in positions worked out by hand, never plays an
//! action the session refuses over random positions of random rule sets
//! (choices and randomness included), answers the same for the same seed
//! and limits, and answers at once when told to stop.

use houserules_engine::Color;
use houserules_search::{
    session_engine_for, Action, Limits, MctsSearcher, SessionEngine, SessionResult,
};
use houserules_session::{CreateRequest, Input, Session};
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

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn decide(s: &Session, seat: Color, n: u64, seed: u64) -> SessionResult {
    let mut e = MctsSearcher::new();
    e.set_seed(seed);
    e.search(s, seat, &nodes(n), &AtomicBool::new(false))
}

#[test]
fn takes_a_hanging_queen() {
    // White: Kg1, Rd1, Pf2 g2 h2; Black: Kg8, Qd5, Pf7 g7 h7. The black
    // queen on d5 is unguarded and attacked by the rook down the open
    // d-file. Rxd5 wins it (876 cp of material, eval.rs); every other move
    // loses at once: the queen takes the unguarded rook with mate
    // (Qxd1+: f1 and h1 are on the queen's rank, f2, g2, h2 are White's
    // own pawns). Both the evaluation and the exact result of the game
    // point to d1d5, at every seed.
    let fen = "6k1/5ppp/8/3q4/8/8/5PPP/3R2K1 w - - 0 1";
    for seed in [0, 1, 2] {
        let s = session(Some(fen), vec![json!("kamikaze")], 5);
        let r = decide(&s, Color::White, 3_000, seed);
        assert_eq!(r.action, Some(Action::Move("d1d5".into())), "seed {seed}");
    }
}

#[test]
fn mates_in_one() {
    // 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6: Qxf7 is mate (the queen on f7 is
    // guarded by the c4 bishop; e7 and f8 are covered by the queen, d7
    // and d8 are Black's own). Under kamikaze the capture may blow up f6,
    // g7 and f8, which opens no flight square (f8 and e7 stay covered),
    // so it is mate in every outcome: every visit of h5f7 scores an exact
    // 1, above the evaluation's winning chance of any other move.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let s = session(Some(fen), vec![json!("kamikaze")], 7);
    for seed in [0, 1, 2] {
        let r = decide(&s, Color::White, 3_000, seed);
        assert_eq!(r.action, Some(Action::Move("h5f7".into())), "seed {seed}");
    }
    // The back rank: Ra8 is mate (Kg8 is walled in by its own f7, g7, h7
    // pawns, and f8, h8 are on the rook's rank). A rook up, every other
    // move still evaluates well (about 0.95 by the logistic), so the mate
    // must win on its exact 1.
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let s = session(Some(fen), vec![json!("minefield")], 3);
    for seed in [0, 1, 2] {
        let r = decide(&s, Color::White, 3_000, seed);
        assert_eq!(r.action, Some(Action::Move("a1a8".into())), "seed {seed}");
    }
}

#[test]
fn the_same_seed_and_limits_give_the_same_action() {
    let s = session(None, vec![json!("kamikaze"), json!("minefield")], 3);
    let a = decide(&s, Color::White, 1_500, 11);
    let b = decide(&s, Color::White, 1_500, 11);
    assert_eq!(a, b);
}

#[test]
fn the_games_seed_is_never_read() {
    // The same position and rules under two game seeds: a search that read
    // the game's stream would see different futures (kamikaze blasts after
    // captures). The search reseeds its copies from its own stream, so the
    // answer, the score and the nodes are the same.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let a = session(Some(fen), vec![json!("kamikaze")], 1);
    let b = session(Some(fen), vec![json!("kamikaze")], 99);
    assert_ne!(a.state_hash(), b.state_hash(), "the seeds differ");
    assert_eq!(
        decide(&a, Color::White, 1_500, 5),
        decide(&b, Color::White, 1_500, 5)
    );
}

#[test]
fn nothing_to_decide_for_the_side_not_to_move() {
    let s = session(None, vec![json!("kamikaze")], 0);
    assert_eq!(decide(&s, Color::Black, 500, 0).action, None);
}

#[test]
fn a_stop_flag_answers_at_once() {
    // Told to stop before it starts, with no other limit (it would search
    // forever): it answers with a legal action after no iteration.
    let s = session(None, vec![json!("kamikaze")], 0);
    let mut e = MctsSearcher::new();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = e.search(&s, Color::White, &limits, &AtomicBool::new(true));
    let Some(Action::Move(m)) = r.action else {
        panic!("a move, got {:?}", r.action);
    };
    assert!(s.legal_moves_uci().contains(&m));
    assert_eq!(r.nodes, 0);
}

#[test]
fn plays_only_accepted_actions_under_random_rule_sets_with_choices() {
    // Random rule sets of library modifiers with randomness (kamikaze,
    // critical_strike, all_on_red's coin and skipped turns, minefield,
    // second_chance) and choices (mind_control's picks, parry's
    // rock-paper-scissors), from random openings: both seats are MCTS on
    // a small budget for 30 actions or to the end; the session must
    // accept every action, and some seat must always be able to act.
    let library = [
        "kamikaze",
        "minefield",
        "mind_control",
        "parry",
        "critical_strike",
        "all_on_red",
        "second_chance",
        "ice_age",
    ];
    let mut rng = 0x1234_5678_u64;
    let mut next = move || {
        // SplitMix64, for the rule sets and openings of this test.
        rng = rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for game in 0..8u32 {
        let k = 1 + (next() % 2) as usize;
        let mut ids: Vec<&str> = Vec::new();
        while ids.len() < k {
            let id = library[(next() % library.len() as u64) as usize];
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        let mods = ids.iter().map(|id| json!(id)).collect();
        let mut s = session(None, mods, game);
        // A random opening of up to 6 plies (choices answered with their
        // first option, as the match runner's openings).
        for _ in 0..6 {
            if s.is_over() {
                break;
            }
            let input = match s.pending_choice() {
                Some(c) => Input::Choice {
                    choice: c.prompt["options"][0].clone(),
                    player: (c.for_player == "both").then(|| "white".to_string()),
                    auto: None,
                },
                None => {
                    let uci = s.legal_moves_uci();
                    if uci.is_empty() {
                        break;
                    }
                    Input::Move {
                        mv: uci[(next() % uci.len() as u64) as usize].clone(),
                    }
                }
            };
            s.submit(input).expect("an opening action");
        }
        let mut e = MctsSearcher::new();
        e.set_seed(u64::from(game));
        for ply in 0..30 {
            if s.is_over() {
                break;
            }
            let mut acted = false;
            for seat in [Color::White, Color::Black] {
                let r = e.search(&s, seat, &nodes(150), &AtomicBool::new(false));
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
fn the_choice_per_rule_set() {
    // As measured (docs/engine.md): MCTS where a modifier skips turns
    // (all_on_red's `skip-turn`), alpha-beta elsewhere.
    let pick = |ids: &[&str]| {
        let s = session(None, ids.iter().map(|id| json!(id)).collect(), 0);
        session_engine_for(&s)
    };
    assert_eq!(pick(&["kamikaze"]), SessionEngine::AlphaBeta);
    assert_eq!(pick(&["ice_age"]), SessionEngine::AlphaBeta);
    assert_eq!(pick(&["all_on_red"]), SessionEngine::Mcts);
    assert_eq!(pick(&["kamikaze", "all_on_red"]), SessionEngine::Mcts);
    for e in [SessionEngine::AlphaBeta, SessionEngine::Mcts] {
        assert_eq!(SessionEngine::parse(e.name()), Some(e));
    }
    assert_eq!(SessionEngine::parse("mcts"), Some(SessionEngine::Mcts));
    assert_eq!(
        SessionEngine::parse("alphabeta"),
        Some(SessionEngine::AlphaBeta)
    );
    assert_eq!(SessionEngine::parse("auto"), None);
}
