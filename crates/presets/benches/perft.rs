//! Perft throughput of the presets: every preset with an oracle, suicide
//! chess beside shakmaty's Antichess, and FIDE chess through the preset
//! builder against the engine's own `Variant::chess()`.
//!
//! `cargo bench -p houserules-presets --bench perft` prints one table, in
//! million leaves per second (bulk counting of the last ply everywhere),
//! the best of `HOUSERULES_BENCH_RUNS` runs (default 3). Its rows:
//!
//! - `<rules> (tsv line L) dN`, one per distinct `rules` value of
//!   `../shared/data/variant-perft.tsv` (the Fairy-Stockfish oracle; read at
//!   run time, relative to the crate, like the oracle tests), `game:` rows
//!   excepted (those are game definitions, not presets). The row is the
//!   tsv row with the most leaves at most 10 M (quick: 200 k), and our count
//!   must equal the tsv's. For `suicide-chess` every distinct position of
//!   the tsv is a row, and shakmaty's `Antichess` runs the same position
//!   and depth: the `reference` column is shakmaty and `ratio` is
//!   houserules/shakmaty (above 1: houserules is faster; the goal).
//!   Rows without a reference have `-` there. The berolina-pawns-2 rows of
//!   the sideways en passant position are left out from depth 3, as in the
//!   oracle tests (the oracle counts a capture the spec forbids).
//!   When the tsv is missing, these rows are skipped with a message on
//!   stderr and the FIDE rows still run.
//! - `fide/<position> dN`: FIDE perft of the start position (depths 5 and
//!   6) and Kiwipete (depth 5) with a variant from
//!   `houserules_presets::build` and an empty rule set, against
//!   `Variant::chess()` (the engine bench's figure): `ratio` is
//!   presets/engine, and presets not in use should cost nothing
//!   (issue 4: slowdown at most 1.05, i.e. ratio at least 0.95).
//! - `lichess/<game> <FEN> dN`: each shipped lichess game
//!   (`houserules_presets::lichess`) on its start position and a position
//!   of its scalachess perft file, beside shakmaty 0.30.1's variant of the
//!   same name (`ratio` is houserules/shakmaty; issue 25's goal is at
//!   least 1.0). `cargo bench -p houserules-presets --bench perft -- lichess`
//!   runs only these.
//!
//! Every houserules row goes through `Game::perft`, the public path the CLI
//! uses. Node counts are checked: against the tsv, against shakmaty, against
//! the engine variant, and between runs.
//!
//! `HOUSERULES_BENCH_QUICK=1` uses small depths (a smoke run). Run without
//! `--bench` (as `cargo test --benches` does) it is a quick smoke run of one
//! repetition. Any other argument filters the rows by name
//! (`cargo bench -p houserules-presets --bench perft -- suicide`).
//!
//! Plain wall-clock timing with [`Instant`]; each repetition runs every
//! row and both engines of a row back to back, so slow drift of the shared
//! machine falls on both sides of a ratio.

#[path = "../../engine/benches/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use houserules_engine::{Game, Variant};
use houserules_presets::{build, RuleSet};

/// Most leaves of a preset row (full run and quick run).
const MAX_LEAVES: u64 = 10_000_000;
const QUICK_MAX_LEAVES: u64 = 200_000;

/// The berolina-pawns-2 position whose oracle counts include a sideways en
/// passant capture from depth 3 (see `tests/oracles.rs`).
const BEROLINA2_SIDEWAYS_EP_FEN: &str =
    "rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";

/// FIDE positions: name, FEN, depth, quick depth, leaves at depth
/// (published perft results, chessprogramming.org "Perft Results").
const FIDE: &[(&str, &str, u32, u32, u64)] = &[
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        3,
        4_865_609,
    ),
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        4,
        119_060_324,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        3,
        193_690_690,
    ),
];

/// The published FIDE counts at the quick depths.
fn fide_quick_leaves(name: &str, depth: u32) -> Option<u64> {
    match (name, depth) {
        ("startpos", 3) => Some(8_902),
        ("startpos", 4) => Some(197_281),
        ("kiwipete", 3) => Some(97_862),
        _ => None,
    }
}

/// A perft closure: depth → leaves (bulk counting).
type Runner = Box<dyn Fn(u32) -> u64>;

/// One table row: houserules and an optional reference engine.
struct Row {
    label: String,
    depth: u32,
    /// Expected leaves (tsv or published), if known.
    expected: Option<u64>,
    hr: Runner,
    reference: Option<(&'static str, Runner)>,
    nodes: u64,
    best: [Duration; 2],
}

fn shakmaty_perft<P: shakmaty::Position + Clone>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for m in moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += shakmaty_perft(&child, depth - 1);
    }
    nodes
}

fn game_runner(variant: Variant, fen: &str, what: &str) -> Runner {
    let g = Game::from_fen(variant, fen)
        .unwrap_or_else(|e| panic!("{what}: houserules cannot read {fen}: {e}"));
    Box::new(move |depth| black_box(&g).perft(depth, true))
}

fn antichess_runner(fen: &str) -> Runner {
    let pos: shakmaty::variant::Antichess = fen
        .parse::<shakmaty::fen::Fen>()
        .unwrap_or_else(|e| panic!("shakmaty cannot read {fen}: {e}"))
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty refuses {fen} as Antichess: {e}"));
    Box::new(move |depth| shakmaty_perft(black_box(&pos), depth))
}

/// The oracle file, from the crate directory (`../shared` of the repo).
fn tsv_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/variant-perft.tsv")
}

/// One oracle row of the tsv.
struct TsvRow {
    /// 1-based line number in the file.
    line: usize,
    rules: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

/// The tsv's preset rows (`game:` rows and the known conflict left out), or
/// why there are none.
fn read_tsv() -> Result<Vec<TsvRow>, String> {
    let path = tsv_path();
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{} is missing ({e})", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 5 || cols[0].starts_with("game:") {
            continue;
        }
        let bad = |what: &str| format!("{} line {}: bad {what}", path.display(), i + 1);
        let depth: u32 = cols[3].parse().map_err(|_| bad("depth"))?;
        let nodes: u64 = cols[4].parse().map_err(|_| bad("node count"))?;
        if cols[0] == "berolina-pawns-2:scope=both"
            && cols[2] == BEROLINA2_SIDEWAYS_EP_FEN
            && depth >= 3
        {
            continue;
        }
        rows.push(TsvRow {
            line: i + 1,
            rules: cols[0].to_string(),
            fen: cols[2].to_string(),
            depth,
            nodes,
        });
    }
    Ok(rows)
}

/// The rows for the presets with an oracle.
fn preset_rows(tsv: &[TsvRow], cap: u64) -> Vec<Row> {
    let mut ids: Vec<&str> = Vec::new();
    for r in tsv {
        if !ids.contains(&r.rules.as_str()) {
            ids.push(&r.rules);
        }
    }
    let mut rows = Vec::new();
    for id in ids {
        let rules = RuleSet::parse(id).unwrap_or_else(|e| panic!("tsv rules {id}: {e}"));
        let (variant, _) = build(&rules, None).unwrap_or_else(|e| panic!("build {id}: {e}"));
        // suicide-chess: every position (each beside shakmaty); others: one.
        let mut chosen: Vec<&TsvRow> = Vec::new();
        for r in tsv.iter().filter(|r| r.rules == id && r.nodes <= cap) {
            let same = if id == "suicide-chess" {
                chosen.iter().position(|c| c.fen == r.fen)
            } else if chosen.is_empty() {
                None
            } else {
                Some(0)
            };
            match same {
                Some(k) if chosen[k].nodes < r.nodes => chosen[k] = r,
                Some(_) => {}
                None => chosen.push(r),
            }
        }
        if chosen.is_empty() {
            eprintln!("no tsv row of {id} has at most {cap} leaves: skipped");
        }
        for r in chosen {
            let reference =
                (id == "suicide-chess").then(|| ("shakmaty Antichess", antichess_runner(&r.fen)));
            rows.push(Row {
                label: format!("{id} (tsv line {}) d{}", r.line, r.depth),
                depth: r.depth,
                expected: Some(r.nodes),
                hr: game_runner(variant.clone(), &r.fen, id),
                reference,
                nodes: 0,
                best: [Duration::MAX; 2],
            });
        }
    }
    rows
}

/// FIDE through the preset builder (no rules) against the engine.
fn fide_rows(quick: bool) -> Vec<Row> {
    let (empty, _) = build(&RuleSet::empty(), None).expect("the empty rule set builds");
    FIDE.iter()
        .map(|&(name, fen, depth, quick_depth, leaves)| {
            let depth = if quick { quick_depth } else { depth };
            let expected = if quick {
                fide_quick_leaves(name, depth)
            } else {
                Some(leaves)
            };
            Row {
                label: format!("fide/{name} d{depth} (presets vs engine)"),
                depth,
                expected,
                hr: game_runner(empty.clone(), fen, "fide"),
                reference: Some((
                    "engine Variant::chess",
                    game_runner(Variant::chess(), fen, "fide"),
                )),
                nodes: 0,
                best: [Duration::MAX; 2],
            }
        })
        .collect()
}

/// lichess's shipped games beside shakmaty's variants (issue 25: goal
/// houserules/shakmaty >= 1.0): game id, FEN, depth, quick depth. Leaves
/// are checked against shakmaty. The positions are the start positions and
/// positions of scalachess's perft files (`crates/engine/tests/data/*.perft`,
/// MIT), with the depth whose count is a few million leaves.
const LICHESS: &[(&str, &str, u32, u32)] = &[
    (
        "crazyhouse",
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
        5,
        3,
    ),
    ("crazyhouse", "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", 5, 3),
    (
        "antichess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        5,
        3,
    ),
    (
        "atomic",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        3,
    ),
    (
        "atomic",
        "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
        4,
        2,
    ),
    (
        "3check",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        5,
        3,
    ),
    (
        "3check",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 1+1 0 1",
        4,
        2,
    ),
    (
        "kingofthehill",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        3,
    ),
    (
        "kingofthehill",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        2,
    ),
    (
        "horde",
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        6,
        4,
    ),
    (
        "horde",
        "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - - 0 1",
        5,
        3,
    ),
    (
        "racingkings",
        "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        5,
        3,
    ),
    ("racingkings", "4brn1/2K2k2/8/8/8/8/8/8 w - - 0 1", 7, 4),
];

/// A perft runner of shakmaty's `P` on `fen`.
fn shakmaty_runner<P>(fen: &str) -> Runner
where
    P: shakmaty::Position + shakmaty::FromSetup + Clone + 'static,
{
    let pos: P = fen
        .parse::<shakmaty::fen::Fen>()
        .unwrap_or_else(|e| panic!("shakmaty cannot read {fen}: {e}"))
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty refuses {fen}: {e}"));
    Box::new(move |d| shakmaty_perft(black_box(&pos), d))
}

fn lichess_rows(quick: bool) -> Vec<Row> {
    use shakmaty::variant as v;
    LICHESS
        .iter()
        .map(|&(id, fen, depth, quick_depth)| {
            let depth = if quick { quick_depth } else { depth };
            let (variant, _) = houserules_presets::lichess::find(id)
                .expect("shipped")
                .build()
                .expect("builds");
            let reference: (&'static str, Runner) = match id {
                "crazyhouse" => ("shakmaty Crazyhouse", shakmaty_runner::<v::Crazyhouse>(fen)),
                "antichess" => ("shakmaty Antichess", antichess_runner(fen)),
                "atomic" => ("shakmaty Atomic", shakmaty_runner::<v::Atomic>(fen)),
                "3check" => ("shakmaty ThreeCheck", shakmaty_runner::<v::ThreeCheck>(fen)),
                "kingofthehill" => (
                    "shakmaty KingOfTheHill",
                    shakmaty_runner::<v::KingOfTheHill>(fen),
                ),
                "horde" => ("shakmaty Horde", shakmaty_runner::<v::Horde>(fen)),
                "racingkings" => (
                    "shakmaty RacingKings",
                    shakmaty_runner::<v::RacingKings>(fen),
                ),
                other => panic!("no shakmaty variant for {other}"),
            };
            Row {
                label: format!("lichess/{id} {} d{depth}", &fen[..fen.len().min(24)]),
                depth,
                expected: None,
                hr: game_runner(variant, fen, id),
                reference: Some(reference),
                nodes: 0,
                best: [Duration::MAX; 2],
            }
        })
        .collect()
}

fn main() {
    let settings = common::Settings::from_env();
    let (quick, runs) = (settings.quick, settings.runs);

    let mut rows = match read_tsv() {
        Ok(tsv) => preset_rows(&tsv, if quick { QUICK_MAX_LEAVES } else { MAX_LEAVES }),
        Err(why) => {
            eprintln!("variant-perft.tsv: {why}; the preset rows are skipped");
            Vec::new()
        }
    };
    rows.extend(fide_rows(quick));
    rows.extend(lichess_rows(quick));
    rows.retain(|r| settings.selects(&r.label));

    eprintln!(
        "presets perft bench: {} run(s){}",
        runs,
        if quick { ", quick depths" } else { "" }
    );
    for run in 0..runs {
        for row in &mut rows {
            let mut engines: Vec<(&str, &Runner)> = vec![("houserules", &row.hr)];
            if let Some((name, f)) = &row.reference {
                engines.push((name, f));
            }
            let mut counts = [0u64; 2];
            for (e, (name, f)) in engines.iter().enumerate() {
                let start = Instant::now();
                counts[e] = black_box(f(black_box(row.depth)));
                let dt = start.elapsed();
                row.best[e] = row.best[e].min(dt);
                eprintln!(
                    "  run {}/{} {:<52} {:<22} {:>11} leaves {:>8.3} s {:>7.1} Mnps",
                    run + 1,
                    runs,
                    row.label,
                    name,
                    counts[e],
                    dt.as_secs_f64(),
                    common::mnps(counts[e], dt)
                );
            }
            if let Some(want) = row.expected {
                assert_eq!(
                    counts[0], want,
                    "{}: houserules leaves differ from the oracle",
                    row.label
                );
            }
            if let Some((name, _)) = &row.reference {
                assert_eq!(
                    counts[0], counts[1],
                    "{}: houserules and {name} disagree",
                    row.label
                );
            }
            if run == 0 {
                row.nodes = counts[0];
            } else {
                assert_eq!(
                    row.nodes, counts[0],
                    "{}: leaf count changed between runs",
                    row.label
                );
            }
        }
    }

    println!();
    println!(
        "presets perft (bulk), best of {runs} run(s), million leaves per second \
         (ratio = houserules / reference; above 1: houserules is faster)"
    );
    println!(
        "| {:<52} | {:>11} | {:>10} | {:<21} | {:>9} | {:>6} |",
        "row", "leaves", "houserules", "reference", "ref Mnps", "ratio"
    );
    println!(
        "|{:-<54}|{:->13}|{:->12}|{:-<23}|{:->11}|{:->8}|",
        ":", ":", ":", ":", ":", ":"
    );
    for row in &rows {
        let h = common::mnps(row.nodes, row.best[0]);
        let (name, r, ratio) = match &row.reference {
            Some((name, _)) => {
                let r = common::mnps(row.nodes, row.best[1]);
                (*name, format!("{r:.1}"), format!("{:.3}", h / r))
            }
            None => ("-", "-".into(), "-".into()),
        };
        println!(
            "| {:<52} | {:>11} | {:>10.1} | {:<21} | {:>9} | {:>6} |",
            row.label, row.nodes, h, name, r, ratio
        );
    }
}
