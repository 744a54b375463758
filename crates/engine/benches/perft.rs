//! Perft throughput of houserules against cozy-chess and shakmaty.
//!
//! `cargo bench -p houserules-engine --bench perft` runs perft of the start
//! position (depth 6) and Kiwipete (depth 5), with bulk counting and
//! without, on all three engines, checks that they agree on the node
//! counts, and prints one table of million nodes per second with the
//! ratios houserules/cozy and houserules/shakmaty (above 1: houserules is
//! faster).
//!
//! Paired timing (the shared machine's speed drifts by up to 2× within
//! seconds, so engines timed one after the other each for seconds can land
//! on different sides of a drift): a row's perft is split into the
//! subtrees of the root moves (their node counts sum to the perft), and
//! each subtree is timed on the three engines back to back (tens to a few
//! hundred milliseconds each, the engine order rotating from subtree to
//! subtree). A ratio is the median of the per-subtree ratios, weighted by
//! the subtree's node count so that it stands for the whole tree; the
//! million nodes per second are the median over the rounds of each
//! engine's whole-tree speed. `HOUSERULES_BENCH_RUNS` sets the number of
//! rounds (default 3), each a pass over every subtree of every row.
//!
//! `HOUSERULES_BENCH_QUICK=1` uses smaller depths (a smoke run). Run
//! without `--bench` (as `cargo test --benches` does) it is a quick smoke run
//! of one round. Any other argument filters the rows by name
//! (`cargo bench --bench perft -- kiwi`).

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use houserules_engine::Variant;

/// One benchmark position.
struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    quick_depth: u32,
}

const CASES: &[Case] = &[
    Case {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
        quick_depth: 4,
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
        quick_depth: 3,
    },
];

// ---------------------------------------------------------------- cozy-chess

#[path = "common/cozy.rs"]
mod cozy;

// ------------------------------------------------------------------ shakmaty

fn shakmaty_perft(pos: &shakmaty::Chess, depth: u32, bulk: bool) -> u64 {
    use shakmaty::Position as _;
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if bulk && depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for m in moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += shakmaty_perft(&child, depth - 1, bulk);
    }
    nodes
}

// --------------------------------------------------------------------- runner

/// The engines, in table order.
const ENGINES: [&str; 3] = ["houserules", "cozy", "shakmaty"];

/// A perft closure per engine for one position.
type Runner = Box<dyn Fn(u32, bool) -> u64>;

fn runners(fen: &str) -> [Runner; 3] {
    let variant = Variant::chess();
    let t = variant.tables_u64().expect("chess fits u64");
    let pos = houserules_engine::fen::parse(variant.definition(), t, fen)
        .expect("houserules reads the FEN");
    let hr: Runner = Box::new(move |depth, bulk| {
        let t = variant.tables_u64().expect("chess fits u64");
        black_box(&pos).perft(t, depth, bulk)
    });

    let board = cozy_chess::Board::from_fen(fen, false).expect("cozy-chess reads the FEN");
    let cozy: Runner = Box::new(move |depth, bulk| cozy::perft(black_box(&board), depth, bulk));

    let sk = shakmaty_of(fen);
    let shak: Runner = Box::new(move |depth, bulk| shakmaty_perft(black_box(&sk), depth, bulk));
    [hr, cozy, shak]
}

fn shakmaty_of(fen: &str) -> shakmaty::Chess {
    fen.parse::<shakmaty::fen::Fen>()
        .expect("shakmaty reads the FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("shakmaty accepts the position")
}

/// The positions after each root move of `fen` (shakmaty's legal moves,
/// written as FEN with the en passant square when a capture there is
/// legal), with a runner per engine for each.
fn subtrees(fen: &str) -> Vec<[Runner; 3]> {
    use shakmaty::Position as _;
    let root = shakmaty_of(fen);
    root.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = root.clone();
            child.play_unchecked(m);
            let fen = shakmaty::fen::Fen::from_position(&child, shakmaty::EnPassantMode::Legal)
                .to_string();
            runners(&fen)
        })
        .collect()
}

/// One table row: a position at one depth, bulk or not, and what its
/// rounds measured.
struct Row {
    label: String,
    case: usize,
    depth: u32,
    bulk: bool,
    nodes: u64,
    /// Per round, per engine: seconds for the whole tree.
    rounds: Vec<[f64; 3]>,
    /// Per subtree timing: (nodes, hr/cozy speed ratio, hr/shak ratio).
    pairs: Vec<(u64, f64, f64)>,
}

/// The median of `v`.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The weighted median of `(weight, value)` pairs: the value at which the
/// cumulative weight, in order of value, reaches half of the total.
fn weighted_median(mut v: Vec<(u64, f64)>) -> f64 {
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    let total: u64 = v.iter().map(|p| p.0).sum();
    let mut acc = 0;
    for &(w, x) in &v {
        acc += w;
        if 2 * acc >= total {
            return x;
        }
    }
    v.last().map_or(f64::NAN, |p| p.1)
}

fn main() {
    let settings = common::Settings::from_env();
    let (quick, runs) = (settings.quick, settings.runs);

    let mut rows: Vec<Row> = Vec::new();
    for (ci, case) in CASES.iter().enumerate() {
        for bulk in [true, false] {
            let depth = if quick { case.quick_depth } else { case.depth };
            let label = format!(
                "{} d{} {}",
                case.name,
                depth,
                if bulk { "bulk" } else { "no-bulk" }
            );
            if !settings.selects(&label) {
                continue;
            }
            rows.push(Row {
                label,
                case: ci,
                depth,
                bulk,
                nodes: 0,
                rounds: Vec::new(),
                pairs: Vec::new(),
            });
        }
    }
    let trees: Vec<Vec<[Runner; 3]>> = CASES.iter().map(|c| subtrees(c.fen)).collect();
    // The whole trees once, as a check that the subtrees sum to the perft.
    let whole: Vec<[Runner; 3]> = CASES.iter().map(|c| runners(c.fen)).collect();

    eprintln!(
        "perft bench: {} round(s) of paired subtrees{}",
        runs,
        if quick { ", quick depths" } else { "" }
    );
    let mut turn = 0usize;
    for run in 0..runs {
        for row in rows.iter_mut() {
            let mut secs = [0f64; 3];
            let mut total = 0u64;
            for sub in &trees[row.case] {
                let mut counts = [0u64; 3];
                let mut dt = [0f64; 3];
                // Rotate which engine goes first.
                for i in 0..3 {
                    let e = (turn + i) % 3;
                    let start = Instant::now();
                    counts[e] = black_box(sub[e](black_box(row.depth - 1), row.bulk));
                    dt[e] = start.elapsed().as_secs_f64();
                }
                turn += 1;
                assert!(
                    counts.iter().all(|&n| n == counts[0]),
                    "engines disagree on a subtree of {}: houserules {}, cozy {}, shakmaty {}",
                    row.label,
                    counts[0],
                    counts[1],
                    counts[2]
                );
                total += counts[0];
                for e in 0..3 {
                    secs[e] += dt[e];
                }
                row.pairs.push((counts[0], dt[1] / dt[0], dt[2] / dt[0]));
            }
            if run == 0 {
                let full = whole[row.case][0](row.depth, row.bulk);
                assert_eq!(
                    full, total,
                    "{}: subtrees do not sum to the perft",
                    row.label
                );
                row.nodes = total;
            } else {
                assert_eq!(
                    row.nodes, total,
                    "{}: node count changed between runs",
                    row.label
                );
            }
            eprintln!(
                "  round {}/{} {:<24} {:>11} nodes  {}",
                run + 1,
                runs,
                row.label,
                total,
                (0..3)
                    .map(|e| format!(
                        "{} {:.3} s ({:.1} Mnps)",
                        ENGINES[e],
                        secs[e],
                        common::mnps(total, Duration::from_secs_f64(secs[e]))
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            row.rounds.push(secs);
        }
    }

    println!();
    println!(
        "perft, {runs} round(s) of paired subtrees: million nodes per second (median of rounds), \
         ratios (median of per-subtree ratios weighted by nodes; > 1: houserules is faster)"
    );
    println!(
        "| {:<24} | {:>11} | {:>10} | {:>8} | {:>8} | {:>8} | {:>8} | {:>5} |",
        "position", "nodes", "houserules", "cozy", "shakmaty", "hr/cozy", "hr/shak", "pairs"
    );
    println!(
        "|{:-<26}|{:->13}|{:->12}|{:->10}|{:->10}|{:->10}|{:->10}|{:->7}|",
        ":", ":", ":", ":", ":", ":", ":", ":"
    );
    for row in &rows {
        let mnps = |e: usize| {
            median(
                row.rounds
                    .iter()
                    .map(|r| common::mnps(row.nodes, Duration::from_secs_f64(r[e])))
                    .collect(),
            )
        };
        let cozy = weighted_median(row.pairs.iter().map(|p| (p.0, p.1)).collect());
        let shak = weighted_median(row.pairs.iter().map(|p| (p.0, p.2)).collect());
        println!(
            "| {:<24} | {:>11} | {:>10.1} | {:>8.1} | {:>8.1} | {:>8.3} | {:>8.3} | {:>5} |",
            row.label,
            row.nodes,
            mnps(0),
            mnps(1),
            mnps(2),
            cozy,
            shak,
            row.pairs.len()
        );
    }
}
