//! # Perft suites: the move generator against published node counts
//!
//! Every position of five suite files is set up with `Game::from_fen` and
//! `Game::perft(depth, true)` is compared with the count written in the
//! file, for every listed depth whose expected count is at most the cap.
//! The shallowest listed depth is always checked (a few `standard.epd`
//! lines list only deep counts, e.g. `;D5 11139762`); small depths (expected count at most
//! 20,000) are also checked without bulk counting.
//!
//! | test | file | positions | where |
//! | --- | --- | --- | --- |
//! | `standard_epd` | `standard.epd` ("perftsuite.epd") | 128 | `../shared/data/perft` (GPL, not copied) |
//! | `tricky` | `tricky.perft` | 18 | `tests/data` (MIT, copied; see `tests/data/ATTRIBUTION.md`) |
//! | `tricky_shakmaty` | `tricky-shakmaty.perft` | 26 | `../shared/data/perft` (GPL, not copied) |
//! | `chess960` | `chess960.perft` (Shredder-FEN castling) | 960 | `tests/data` (MIT, copied) |
//! | `random` | `random.perft` | 6,838 | `../shared/data/perft` (all rights reserved, not copied) |
//!
//! The number of positions of each file is checked, so an empty or
//! truncated suite fails. The suites in `../shared` are resolved from the
//! crate as `crates/engine/../../../shared/data/perft`, i.e. the `shared/`
//! folder beside the repository checkout; when it is missing those tests
//! FAIL with a message saying so (they never pass silently).
//!
//! ## Running
//!
//! Default run (a node cap per depth of 5,000,000 for the three small files
//! and 2,000,000 for `chess960.perft` and `random.perft`: 5.8 billion leaf
//! nodes, about 35 CPU-seconds, so about 20 s on 2 idle cores in the
//! optimised test profile):
//!
//! ```text
//! cargo test -p houserules-engine --test perft_suites
//! ```
//!
//! Deeper run (every depth up to 50 million nodes: 133 billion leaf nodes,
//! mostly `random.perft` depth 5 and `chess960.perft` depth 5; measured at
//! about 740 CPU-seconds, so 6–7 minutes on 2 idle cores):
//!
//! ```text
//! HOUSERULES_PERFT_MAX_NODES=50000000 cargo test -p houserules-engine --test perft_suites -- --nocapture
//! ```
//!
//! Full run, every depth of every file (about 4.9 trillion leaf nodes:
//! `random.perft` depth 6 alone is 4.3 trillion, `chess960.perft` depth 6
//! 0.5 trillion, `tricky.perft` 42 billion; at about 180 million leaf
//! nodes per second per core, roughly 4 hours on 2 idle cores):
//!
//! ```text
//! HOUSERULES_PERFT_MAX_NODES=0 cargo test -p houserules-engine --test perft_suites -- --nocapture
//! ```
//!
//! Leaf nodes per file and cap (default / 50M / none): `standard.epd`
//! 0.11G / 0.65G / 4.8G; `tricky.perft` 0.018G / 0.14G / 41.7G;
//! `tricky-shakmaty.perft` 0.004G at any cap; `chess960.perft` 0.58G /
//! 16.6G / 524G; `random.perft` 5.1G / 115G / 4,322G.
//!
//! Environment variables:
//!
//! - `HOUSERULES_PERFT_MAX_NODES`: check a depth only when its expected
//!   count is at most this, for every file (default 5,000,000 for the small
//!   files, 2,000,000 for the two large ones; `0` means no cap).
//! - `HOUSERULES_TEST_THREADS`: worker threads per suite (default: the
//!   machine's available parallelism). The test harness may also run the
//!   five suites side by side; `--test-threads=1` runs them one at a time.
//!
//! On a mismatch the test reports the suite, line, id, FEN, depth, expected
//! and actual counts, and (for the first few) walks down with shakmaty to
//! the first position whose move list differs, so the report names a FEN
//! and the moves in question.

mod common;

use std::time::Instant;

use common::{
    env_u64, locate_perft_divergence, our_game, parallel_map, read_local, read_shared, secs,
    threads,
};
use houserules_engine::suite::{self, SuiteEntry};

/// Default cap (expected node count per checked depth) for the two large
/// files, `chess960.perft` and `random.perft`.
const DEFAULT_MAX_NODES_LARGE: u64 = 2_000_000;
/// Default cap for the small files: the classic positions are checked a
/// little deeper (start position depth 5, Kiwipete depth 4).
const DEFAULT_MAX_NODES_SMALL: u64 = 5_000_000;
/// Depths with at most this many nodes are also checked without bulk
/// counting.
const NON_BULK_MAX_NODES: u64 = 20_000;
/// Mismatches that get a shakmaty walk-down in the failure report.
const LOCATE_AT_MOST: usize = 5;

enum Source {
    /// `crates/engine/tests/data`.
    Local,
    /// `../shared/data/perft`.
    Shared,
}

struct Outcome {
    depths: usize,
    nodes: u64,
    failures: Vec<Failure>,
}

struct Failure {
    message: String,
    fen: String,
    depth: u32,
}

fn check_entry(suite: &str, e: &SuiteEntry, cap: u64) -> Outcome {
    let mut out = Outcome {
        depths: 0,
        nodes: 0,
        failures: Vec::new(),
    };
    let where_ = format!("{suite}:{} (id {})", e.line, e.id);
    let game = match our_game(&e.fen) {
        Ok(g) => g,
        Err(msg) => {
            out.failures.push(Failure {
                message: format!("{where_}: {msg}"),
                fen: e.fen.clone(),
                depth: 0,
            });
            return out;
        }
    };
    let shallowest = e.counts.iter().map(|&(d, _)| d).min().unwrap_or(0);
    for (&(depth, expected), &line) in e.counts.iter().zip(&e.count_lines) {
        if depth > shallowest && cap != 0 && expected > cap {
            continue;
        }
        // The count's own line (its `perft` line), not the position's.
        let where_ = format!("{suite}:{line} (id {}, position on line {})", e.id, e.line);
        let got = game.perft(depth, true);
        out.depths += 1;
        out.nodes += expected;
        if got != expected {
            out.failures.push(Failure {
                message: format!(
                    "{where_}: {}\n    perft({depth}) = {got}, expected {expected}",
                    e.fen
                ),
                fen: e.fen.clone(),
                depth,
            });
            continue;
        }
        if expected <= NON_BULK_MAX_NODES {
            let slow = game.perft(depth, false);
            if slow != expected {
                out.failures.push(Failure {
                    message: format!(
                        "{where_}: {}\n    perft({depth}) without bulk counting = {slow}, expected {expected} (bulk gave the right count)",
                        e.fen
                    ),
                    fen: e.fen.clone(),
                    depth,
                });
            }
        }
    }
    out
}

/// Runs one suite file; panics with every mismatch.
fn run_suite(name: &str, source: Source, expected_entries: usize, default_cap: u64) {
    let t0 = Instant::now();
    let text = match source {
        Source::Local => read_local(name),
        Source::Shared => read_shared(name),
    };
    let entries = suite::parse(&text)
        .unwrap_or_else(|e| panic!("{name}: the suite parser rejects the file: {e}"));
    assert_eq!(
        entries.len(),
        expected_entries,
        "{name}: expected {expected_entries} positions, the parser found {} (truncated or changed file?)",
        entries.len()
    );
    for e in &entries {
        assert!(
            !e.counts.is_empty(),
            "{name}:{} (id {}): no perft counts parsed",
            e.line,
            e.id
        );
    }
    let cap = env_u64("HOUSERULES_PERFT_MAX_NODES", default_cap);
    let outcomes = parallel_map(&entries, threads(), |_, e| check_entry(name, e, cap));
    let depths: usize = outcomes.iter().map(|o| o.depths).sum();
    let nodes: u64 = outcomes.iter().map(|o| o.nodes).sum();
    let failures: Vec<&Failure> = outcomes.iter().flat_map(|o| &o.failures).collect();
    eprintln!(
        "{name}: {} positions, {depths} depths, {nodes} leaf nodes checked (cap {}), {} mismatches, {}",
        entries.len(),
        if cap == 0 { "none".to_string() } else { cap.to_string() },
        failures.len(),
        secs(t0.elapsed())
    );
    // Every position had at least its shallowest count checked.
    assert!(
        depths >= entries.len(),
        "{name}: only {depths} depths checked for {} positions",
        entries.len()
    );
    if !failures.is_empty() {
        let mut report = format!("{name}: {} perft mismatches:\n", failures.len());
        for (i, f) in failures.iter().enumerate() {
            report.push_str(&format!("  {}\n", f.message));
            if i < LOCATE_AT_MOST && f.depth > 0 {
                report.push_str(&format!(
                    "    located with shakmaty: {}\n",
                    locate_perft_divergence(&f.fen, f.depth)
                ));
            }
        }
        panic!("{report}");
    }
}

#[test]
fn standard_epd() {
    run_suite("standard.epd", Source::Shared, 128, DEFAULT_MAX_NODES_SMALL);
}

#[test]
fn tricky() {
    run_suite("tricky.perft", Source::Local, 18, DEFAULT_MAX_NODES_SMALL);
}

#[test]
fn tricky_shakmaty() {
    run_suite(
        "tricky-shakmaty.perft",
        Source::Shared,
        26,
        DEFAULT_MAX_NODES_SMALL,
    );
}

#[test]
fn chess960() {
    run_suite(
        "chess960.perft",
        Source::Local,
        960,
        DEFAULT_MAX_NODES_LARGE,
    );
}

#[test]
fn random() {
    run_suite(
        "random.perft",
        Source::Shared,
        6838,
        DEFAULT_MAX_NODES_LARGE,
    );
}

/// The Chess960 suite's castling field is Shredder-FEN; reading it and
/// writing it back with `shredder_fen()` must give the file's own board,
/// side to move and castling letters.
#[test]
fn chess960_shredder_fen_round_trip() {
    let text = read_local("chess960.perft");
    let entries = suite::parse(&text).expect("chess960.perft parses");
    assert_eq!(entries.len(), 960);
    let mut bad = Vec::new();
    for e in &entries {
        let g = our_game(&e.fen).unwrap_or_else(|m| panic!("chess960.perft:{}: {m}", e.line));
        let want: Vec<&str> = e.fen.split_whitespace().take(3).collect();
        let shredder = g.shredder_fen();
        let got: Vec<&str> = shredder.split_whitespace().take(3).collect();
        if want != got {
            bad.push(format!(
                "chess960.perft:{} (id {}): read {}, wrote {shredder}",
                e.line, e.id, e.fen
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} Shredder-FEN round-trip mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
