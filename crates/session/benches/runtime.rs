//! Legal-move generation and make-move throughput of a session with 0, 1
//! and 5 modifiers attached (issue 5 § Benchmark; issue 12 § Session
//! speed: make/0 at most 3×, make/5 at most 30×, legal/5 at most 2× the
//! engine, each line saying so), on Kiwipete and on the
//! initial position, reported as ratios to plain FIDE measured in the same
//! run. The five are passive
//! rules (no choices): ice_physics, bloodthirsty, hobbit_slaughter, ice_age
//! and the frozen-column template.
//!
//! Same work on both sides of a ratio: `legal/*` lists the legal moves of
//! the same position (`Game::legal_moves` for plain FIDE); `make/*` copies
//! the game and plays its first legal move, legality check included
//! (`Game::apply` for plain FIDE, `Session::submit` with the full after-move
//! dispatch for sessions).
//!
//! A custom harness (not criterion) so that the ratios are printed: each
//! case is timed in batches of about 10 ms, and the median batch gives the
//! time per call. `cargo bench -p houserules-session --bench runtime`;
//! `RUNTIME_BENCH_SAMPLES=N` sets the number of batches (default 15).

use std::hint::black_box;
use std::time::{Duration, Instant};

use houserules_engine::{Game, Variant};
use houserules_session::{CreateRequest, Input, Session};
use serde_json::json;

/// The positions, by name: Kiwipete (castling both ways, captures, a
/// pinned piece) and the initial position (no capture, no castling).
const POSITIONS: [(&str, &str); 2] = [
    (
        "Kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "initial position",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
];

/// A session on `fen` with `mods` attached.
fn session(fen: &str, mods: &[&str]) -> Session {
    Session::create(CreateRequest {
        fen: Some(fen.into()),
        modifiers: mods.iter().map(|m| json!(m)).collect(),
        ..CreateRequest::default()
    })
    .expect("valid")
}

/// Median time per call of `f`, in nanoseconds.
fn time<R>(samples: usize, mut f: impl FnMut() -> R) -> f64 {
    // Calibrate a batch of about 10 ms.
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            black_box(f());
        }
        if t.elapsed() >= Duration::from_millis(10) || n >= 1 << 30 {
            break;
        }
        n *= 2;
    }
    let mut per: Vec<f64> = (0..samples)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                black_box(f());
            }
            t.elapsed().as_nanos() as f64 / n as f64
        })
        .collect();
    per.sort_by(f64::total_cmp);
    per[per.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument selects cases by
    // substring, as with criterion.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let samples = std::env::var("RUNTIME_BENCH_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15usize)
        .max(1);
    let sets: [(&str, Vec<&str>); 3] = [
        ("0", vec![]),
        ("1", vec!["ice_physics"]),
        (
            "5",
            vec![
                "ice_physics",
                "bloodthirsty",
                "hobbit_slaughter",
                "ice_age",
                "frozen-column",
            ],
        ),
    ];
    let want = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    for (label, fen) in POSITIONS {
        let plain = Game::from_fen(Variant::chess(), fen).expect("valid FEN");
        let first = plain.legal_moves()[0];
        let legal_engine = time(samples, || plain.legal_moves().len());
        let make_engine = time(samples, || {
            let mut g = plain.clone();
            g.apply(first).expect("legal");
            g.hash()
        });
        println!(
            "{:<14}{:>14}{:>10}   ({label}, median of {samples} batches)",
            "case", "ns/call", "× FIDE"
        );
        println!("{:<14}{:>14.0}{:>10.2}", "legal/engine", legal_engine, 1.0);
        println!("{:<14}{:>14.0}{:>10.2}", "make/engine", make_engine, 1.0);
        for (name, mods) in &sets {
            let s = session(fen, mods);
            let legal_name = format!("legal/{name}");
            if want(&legal_name) {
                let ns = time(samples, || s.legal_moves().len());
                let goal = if *name == "5" { "   (goal ≤ 2)" } else { "" };
                println!(
                    "{legal_name:<14}{ns:>14.0}{:>10.2}{goal}",
                    ns / legal_engine
                );
            }
            let make_name = format!("make/{name}");
            if want(&make_name) {
                let m = s.legal_moves_uci()[0].clone();
                let ns = time(samples, || {
                    let mut t = s.clone();
                    t.submit(Input::Move { mv: m.clone() }).expect("legal");
                    t.state().ply_count
                });
                let goal = match *name {
                    "0" => "   (goal ≤ 3)",
                    "5" => "   (goal ≤ 30)",
                    _ => "",
                };
                println!("{make_name:<14}{ns:>14.0}{:>10.2}{goal}", ns / make_engine);
            }
        }
    }
}
