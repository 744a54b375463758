//! Perft throughput of houserules against cozy-chess and shakmaty.
//!
//! `cargo bench -p houserules-engine --bench perft` runs perft of the start
//! position (depth 6) and Kiwipete (depth 5), with bulk counting and
//! without, on all three engines, checks that they agree on the node
//! counts, and prints one table of million nodes per second (the best of
//! `HOUSERULES_BENCH_RUNS` runs, default 3) with the ratios
//! houserules/cozy and houserules/shakmaty (above 1: houserules is faster).
//!
//! `HOUSERULES_BENCH_QUICK=1` uses smaller depths (a smoke run). Run
//! without `--bench` (as `cargo test --benches` does) it is a quick smoke run
//! of one repetition. Any other argument filters the rows by name
//! (`cargo bench --bench perft -- kiwi`).
//!
//! Plain wall-clock timing with [`Instant`]: the numbers are nodes per
//! second, not criterion's statistics. Rows run engine after engine, and
//! every repetition runs all engines again, so slow drift of the machine is
//! shared between them.

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

    let sk: shakmaty::Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .expect("shakmaty reads the FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("shakmaty accepts the position");
    let shak: Runner = Box::new(move |depth, bulk| shakmaty_perft(black_box(&sk), depth, bulk));
    [hr, cozy, shak]
}

/// One table row: a position at one depth, bulk or not.
struct Row {
    label: String,
    nodes: u64,
    best: [Duration; 3],
}

fn main() {
    let settings = common::Settings::from_env();
    let (quick, runs) = (settings.quick, settings.runs);

    let mut rows: Vec<Row> = Vec::new();
    let mut plan: Vec<(usize, bool)> = Vec::new();
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
                nodes: 0,
                best: [Duration::MAX; 3],
            });
            plan.push((ci, bulk));
        }
    }
    let engines: Vec<[Runner; 3]> = CASES.iter().map(|c| runners(c.fen)).collect();

    eprintln!(
        "perft bench: {} run(s){}",
        runs,
        if quick { ", quick depths" } else { "" }
    );
    for run in 0..runs {
        for (row, &(ci, bulk)) in rows.iter_mut().zip(&plan) {
            let case = &CASES[ci];
            let depth = if quick { case.quick_depth } else { case.depth };
            let mut counts = [0u64; 3];
            for (e, f) in engines[ci].iter().enumerate() {
                let start = Instant::now();
                counts[e] = black_box(f(black_box(depth), bulk));
                let dt = start.elapsed();
                row.best[e] = row.best[e].min(dt);
                eprintln!(
                    "  run {}/{} {:<24} {:<10} {:>11} nodes {:>8.3} s {:>7.1} Mnps",
                    run + 1,
                    runs,
                    row.label,
                    ENGINES[e],
                    counts[e],
                    dt.as_secs_f64(),
                    common::mnps(counts[e], dt)
                );
            }
            assert!(
                counts.iter().all(|&n| n == counts[0]),
                "engines disagree on {}: houserules {}, cozy {}, shakmaty {}",
                row.label,
                counts[0],
                counts[1],
                counts[2]
            );
            if run == 0 {
                row.nodes = counts[0];
            } else {
                assert_eq!(
                    row.nodes, counts[0],
                    "{}: node count changed between runs",
                    row.label
                );
            }
        }
    }

    println!();
    println!(
        "perft, best of {runs} run(s), million nodes per second (ratio > 1: houserules is faster)"
    );
    println!(
        "| {:<24} | {:>11} | {:>10} | {:>8} | {:>8} | {:>8} | {:>8} |",
        "position", "nodes", "houserules", "cozy", "shakmaty", "hr/cozy", "hr/shak"
    );
    println!(
        "|{:-<26}|{:->13}|{:->12}|{:->10}|{:->10}|{:->10}|{:->10}|",
        ":", ":", ":", ":", ":", ":", ":"
    );
    for row in &rows {
        let [h, c, s] = row.best.map(|d| common::mnps(row.nodes, d));
        println!(
            "| {:<24} | {:>11} | {:>10.1} | {:>8.1} | {:>8.1} | {:>8.3} | {:>8.3} |",
            row.label,
            row.nodes,
            h,
            c,
            s,
            h / c,
            h / s
        );
    }
}
