//! Search speed: nodes per second of [`Searcher`] on a fixed set of
//! positions, FIDE chess and preset rule sets.
//!
//! `cargo bench -p houserules-search --bench nps` searches each position
//! with a fixed node budget (2,000,000 nodes, full strength, a fresh
//! 64 MiB transposition table) and prints one row per position: the depth
//! reached, the nodes, the time and the nodes per second (the best of
//! `HOUSERULES_BENCH_RUNS` runs, default 3). `HOUSERULES_BENCH_QUICK=1`
//! (or running without `--bench`, as `cargo test --benches` does) uses
//! 100,000 nodes and one run: a smoke run. Any other argument filters the
//! rows by name.
//!
//! The figures are absolute. No ratio is printed: no reference engine
//! counts nodes the way this search does (Stockfish's `bench` nps counts
//! its own node definition, with a different evaluation and pruning), so
//! a quotient would not compare like with like.
//!
//! The last rows search a session with the five passive modifiers of the
//! session bench (ice_physics, bloodthirsty, hobbit_slaughter, ice_age,
//! frozen-column) and one with kamikaze and parry (chance nodes and
//! choices) with [`SessionSearcher`], on a budget of 20,000 session
//! copies (1,000 in a smoke run): every node there plays a move through
//! the session, so its rate is far below the engine's.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use houserules_engine::{Color, Game, Variant};
use houserules_search::{Limits, Objective, Searcher, SessionSearcher};
use houserules_session::{CreateRequest, Session};

/// One benchmark position.
struct Case {
    name: &'static str,
    /// Preset rules (`--rules` syntax), empty for FIDE chess.
    rules: &'static str,
    /// The position; `None`: the rule set's start position.
    fen: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        name: "chess startpos",
        rules: "",
        fen: None,
    },
    Case {
        name: "chess kiwipete",
        rules: "",
        fen: Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    },
    Case {
        name: "chess middlegame",
        rules: "",
        // After 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7.
        fen: Some("r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"),
    },
    Case {
        name: "chess endgame",
        rules: "",
        fen: Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    },
    Case {
        name: "suicide-chess",
        rules: "suicide-chess",
        fen: None,
    },
    Case {
        name: "double-move",
        rules: "double-move",
        fen: None,
    },
    Case {
        name: "piece-hp",
        rules: "piece-hp",
        fen: None,
    },
    Case {
        name: "extinction-chess",
        rules: "extinction-chess",
        fen: None,
    },
];

/// Session rows: a name and the modifiers, from the initial position.
const SESSION_CASES: [(&str, &[&str]); 2] = [
    (
        "5 modifiers",
        &[
            "ice_physics",
            "bloodthirsty",
            "hobbit_slaughter",
            "ice_age",
            "frozen-column",
        ],
    ),
    ("kamikaze+parry", &["kamikaze", "parry"]),
];

fn game(case: &Case) -> Game {
    let (variant, start) = if case.rules.is_empty() {
        let v = Variant::chess();
        let fen = v.definition().start_fen.clone();
        (v, fen)
    } else {
        houserules_presets::build_from_str(case.rules, None).expect("a shipped preset builds")
    };
    Game::from_fen(variant, case.fen.unwrap_or(&start)).expect("a valid FEN")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bench = args.iter().any(|a| a == "--bench");
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let quick = !bench || std::env::var("HOUSERULES_BENCH_QUICK").is_ok_and(|v| v == "1");
    let runs: usize = if quick {
        1
    } else {
        std::env::var("HOUSERULES_BENCH_RUNS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(3)
    };
    let budget: u64 = if quick { 100_000 } else { 2_000_000 };
    println!(
        "search nodes per second: {budget} nodes per position, best of {runs} run(s); absolute \
         figures (no reference engine counts nodes alike)"
    );
    println!(
        "{:<18} {:>5} {:>10} {:>9} {:>12}",
        "position", "depth", "nodes", "ms", "nodes/s"
    );
    for case in CASES {
        if !filters.is_empty() && !filters.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        let g = game(case);
        let limits = Limits {
            nodes: Some(budget),
            ..Limits::default()
        };
        let row = best_of(runs, || {
            let mut s = Searcher::new(64);
            s.set_objective(Objective::from_rules(case.rules));
            let r = s.search(&g, &limits, &AtomicBool::new(false), |_| {});
            (r.depth, r.nodes)
        });
        print_row(case.name, row);
    }
    let budget: u64 = if quick { 1_000 } else { 20_000 };
    for (name, mods) in SESSION_CASES {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let session = Session::create(CreateRequest {
            modifiers: mods.iter().map(|m| serde_json::json!(m)).collect(),
            ..CreateRequest::default()
        })
        .expect("library modifiers attach");
        let limits = Limits {
            nodes: Some(budget),
            ..Limits::default()
        };
        let row = best_of(runs, || {
            let r = SessionSearcher::new().search(
                &session,
                Color::White,
                &limits,
                &AtomicBool::new(false),
            );
            (r.depth, r.nodes)
        });
        print_row(name, row);
    }
}

/// The fastest of `runs` searches (`search` gives depth and nodes): its
/// depth, nodes and time.
fn best_of(runs: usize, mut search: impl FnMut() -> (u32, u64)) -> (u32, u64, Duration) {
    let rate = |n: u64, d: Duration| n as f64 / d.as_secs_f64().max(1e-9);
    let mut best: Option<(u32, u64, Duration)> = None;
    for _ in 0..runs {
        let t = Instant::now();
        let (depth, nodes) = search();
        let took = t.elapsed();
        if best.is_none_or(|(_, n, d)| rate(nodes, took) > rate(n, d)) {
            best = Some((depth, nodes, took));
        }
    }
    best.expect("at least one run")
}

/// One row: name, depth, nodes, milliseconds, nodes per second.
fn print_row(name: &str, (depth, nodes, took): (u32, u64, Duration)) {
    println!(
        "{:<18} {:>5} {:>10} {:>9.1} {:>12.0}",
        name,
        depth,
        nodes,
        took.as_secs_f64() * 1000.0,
        nodes as f64 / took.as_secs_f64().max(1e-9)
    );
}
