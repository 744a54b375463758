//! # Perft files of lichess's variants, through the shipped games
//!
//! Every shipped lichess game ([`houserules_presets::lichess`]) with a
//! perft file of scalachess (MIT; copied to
//! `crates/engine/tests/data`, see its `ATTRIBUTION.md`) is checked at
//! every listed depth with bulk counting, and without it for counts up to
//! 20,000.

use std::path::PathBuf;

use houserules_engine::{suite, Game};
use houserules_presets::lichess;

fn run(id: &str, file: &str, positions: usize) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../engine/tests/data")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let entries = suite::parse(&text).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    assert_eq!(entries.len(), positions, "{file}: number of positions");
    let (variant, _) = lichess::find(id).expect("shipped").build().expect("builds");
    let mut failures = Vec::new();
    for e in &entries {
        let game = Game::from_fen(variant.clone(), &e.fen)
            .unwrap_or_else(|err| panic!("{file}:{} {}: {err}", e.line, e.fen));
        for &(depth, want) in &e.counts {
            let got = game.perft(depth, true);
            if got != want {
                failures.push(format!(
                    "{file}:{} {} ({}) depth {depth}: expected {want}, got {got}",
                    e.line, e.id, e.fen
                ));
            }
            if want <= 20_000 && game.perft(depth, false) != want {
                failures.push(format!(
                    "{file}:{} {} depth {depth} without bulk counting differs",
                    e.line, e.id
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn crazyhouse() {
    run("crazyhouse", "crazyhouse.perft", 4);
}

#[test]
fn antichess() {
    run("antichess", "antichess.perft", 3);
}
