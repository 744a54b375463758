//! Perft against the shared oracles: `variant-perft.tsv` (Fairy-Stockfish)
//! and `antichess.perft` (lichess/scalachess).
//!
//! Rows are capped at `MAX_NODES` leaves so that the suite runs quickly;
//! set `HOUSERULES_FULL_PERFT=1` to run every row in full.

mod common;

use houserules_engine::Game;
use houserules_presets::build;

const BEROLINA2_SIDEWAYS_EP_FEN: &str =
    "rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";

const MAX_NODES: u64 = 2_000_000;

fn cap() -> u64 {
    if std::env::var("HOUSERULES_FULL_PERFT").is_ok() {
        u64::MAX
    } else {
        MAX_NODES
    }
}

#[test]
fn variant_perft_tsv_rows_of_implemented_presets_match() {
    let text = common::data("variant-perft.tsv");
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 5 {
            continue;
        }
        let (rules, fen, depth, nodes) = (cols[0], cols[2], cols[3], cols[4]);
        if rules.starts_with("game:") {
            continue; // game definitions belong to the definitions crate
        }
        if rules == "berolina-pawns-2:scope=both" && fen == BEROLINA2_SIDEWAYS_EP_FEN {
            // Known conflict, reported to the lead: from depth 3 these counts
            // include a sideways en passant capture (d5c6 a7c5 c6xb6 e.p.,
            // reproduced with pyffish 0.0.90 and a berolina custom piece with
            // sideways captures), which the spec forbids for berolina-pawns-2
            // ("sideways captures do not trigger or accept ep"). Depths 1-2
            // do not reach it and are checked.
            if depth.parse::<u32>().unwrap() >= 3 {
                skipped.push(format!("line {}", i + 1));
                continue;
            }
        }
        let depth: u32 = depth.parse().unwrap();
        let nodes: u64 = nodes.parse().unwrap();
        if nodes > cap() {
            continue;
        }
        let rs = common::rules(rules);
        let (v, _) = build(&rs, None).unwrap();
        let g = Game::from_fen(v, fen).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let got = g.perft(depth, true);
        checked += 1;
        if got != nodes {
            failures.push(format!(
                "line {}: {rules} {fen} depth {depth}: want {nodes}, got {got}",
                i + 1
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 50, "only {checked} rows checked");
    assert_eq!(skipped.len(), 3, "{skipped:?}");
}

#[test]
fn suicide_chess_antichess_perft_file_matches() {
    let text = common::data("perft/antichess.perft");
    let suite = houserules_engine::suite::parse(&text).unwrap();
    assert!(!suite.is_empty());
    for e in suite {
        let (v, _) = build(&common::rules("suicide-chess"), None).unwrap();
        let g = Game::from_fen(v, &e.fen).unwrap_or_else(|err| panic!("{}: {err}", e.id));
        for (d, n) in e.counts {
            if n > cap() {
                continue;
            }
            assert_eq!(g.perft(d, true), n, "{} depth {d}", e.id);
        }
    }
}
