//! Shared test helpers.
#![allow(dead_code)]

use houserules_engine::Game;
use houserules_presets::{build_from_str, Layout, RuleSet};

/// The shared data directory; fails with a plain message when absent.
pub fn data(rel: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| {
        panic!(
            "test data {} is missing ({e}); it is expected at ../../../shared/data from the crate",
            p.display()
        )
    })
}

/// A game under `rules` from `fen` (`None`: the layout's start).
pub fn game(rules: &str, layout: Option<&str>, fen: Option<&str>) -> Game {
    let (v, start) = build_from_str(rules, layout).unwrap();
    Game::from_fen(v, fen.unwrap_or(&start)).unwrap()
}

/// The rule set of a tsv `rules` column.
pub fn rules(s: &str) -> RuleSet {
    RuleSet::parse(s).unwrap()
}

/// Squares by name.
pub fn sq(s: &str) -> u8 {
    let b = s.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'a')
}

/// Whether a UCI move is legal.
pub fn legal(g: &Game, uci: &str) -> bool {
    g.legal_moves().iter().any(|m| g.uci(*m) == uci)
}

/// The sorted UCI moves.
pub fn ucis(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = g.legal_moves().iter().map(|m| g.uci(*m)).collect();
    v.sort();
    v
}

#[allow(unused)]
fn _layout(_: Layout) {}
