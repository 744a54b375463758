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
//! case and its plain-FIDE reference are timed in alternating batches of
//! about 5 ms, and a ratio is the median of the per-pair ratios (a
//! shared machine's speed drifts between cases; within a pair it moves
//! both sides together). `cargo bench -p houserules-session --bench runtime`;
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

/// Calls of `f` in a batch of about 5 ms.
fn batch_size<R>(f: &mut impl FnMut() -> R) -> u64 {
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            black_box(f());
        }
        if t.elapsed() >= Duration::from_millis(5) || n >= 1 << 30 {
            return n;
        }
        n *= 2;
    }
}

/// Time per call of one batch of `n` calls of `f`, in nanoseconds.
fn per_call<R>(n: u64, f: &mut impl FnMut() -> R) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        black_box(f());
    }
    t.elapsed().as_nanos() as f64 / n as f64
}

/// The median time per call of `case` and the median of its ratios to
/// `reference`, in nanoseconds and as a multiple. The two are timed in
/// alternating batches, each ratio from a pair of batches a few
/// milliseconds apart, so that a machine whose speed drifts (a shared
/// machine, frequency scaling) moves both sides of a ratio together.
fn paired<R, S>(
    samples: usize,
    mut reference: impl FnMut() -> R,
    mut case: impl FnMut() -> S,
) -> (f64, f64) {
    let (nr, nc) = (batch_size(&mut reference), batch_size(&mut case));
    let mut times = Vec::with_capacity(samples);
    let mut ratios = Vec::with_capacity(samples);
    for _ in 0..samples {
        let r = per_call(nr, &mut reference);
        let c = per_call(nc, &mut case);
        times.push(c);
        ratios.push(c / r);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(&mut times), median(&mut ratios))
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
        let legal_engine = || plain.legal_moves().len();
        let make_engine = || {
            let mut g = plain.clone();
            g.apply(first).expect("legal");
            g.hash()
        };
        println!(
            "{:<14}{:>14}{:>10}   ({label}, medians of {samples} paired batches)",
            "case", "ns/call", "× FIDE"
        );
        println!(
            "{:<14}{:>14.0}{:>10.2}",
            "legal/engine",
            paired(samples, legal_engine, legal_engine).0,
            1.0
        );
        println!(
            "{:<14}{:>14.0}{:>10.2}",
            "make/engine",
            paired(samples, make_engine, make_engine).0,
            1.0
        );
        for (name, mods) in &sets {
            let s = session(fen, mods);
            let legal_name = format!("legal/{name}");
            if want(&legal_name) {
                let (ns, ratio) = paired(samples, legal_engine, || s.legal_moves().len());
                let goal = if *name == "5" { "   (goal ≤ 2)" } else { "" };
                println!("{legal_name:<14}{ns:>14.0}{:>10.2}{goal}", ratio);
            }
            let make_name = format!("make/{name}");
            if want(&make_name) {
                let m = s.legal_moves_uci()[0].clone();
                let (ns, ratio) = paired(samples, make_engine, || {
                    let mut t = s.clone();
                    t.submit(Input::Move { mv: m.clone() }).expect("legal");
                    t.state().ply_count
                });
                let goal = match *name {
                    "0" => "   (goal ≤ 3)",
                    "5" => "   (goal ≤ 30)",
                    _ => "",
                };
                println!("{make_name:<14}{ns:>14.0}{ratio:>10.2}{goal}");
            }
        }
    }
}
