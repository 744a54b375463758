//! Helpers shared by the YAML game tests (`properties.rs`, `topology.rs`,
//! `mutations.rs`): load a variant from YAML text, start a game from it,
//! play UCI moves and list a piece's destination squares.
//!
//! None of them computes an expected value: they only run our loader and
//! engine, and every test states its expected values itself.

#![allow(dead_code)]

use houserules_definitions::load_variant_str;
use houserules_engine::{Game, Variant};

/// Loads the variant of the YAML `text`; `name` is the file name used in
/// diagnostics. Panics with the rendered diagnostics if it does not load.
pub fn variant(name: &str, text: &str) -> Variant {
    load_variant_str(name, text).unwrap_or_else(|e| panic!("{name} does not load:\n{}", e.render()))
}

/// A game of the YAML `text` from its start position, or from `fen`.
/// Panics if the text does not load or the FEN is refused.
pub fn game(name: &str, text: &str, fen: Option<&str>) -> Game {
    let v = variant(name, text);
    match fen {
        None => Game::new(v),
        Some(f) => Game::from_fen(v, f).unwrap_or_else(|e| panic!("{f}: {e}")),
    }
}

/// Plays the UCI `moves` in order; panics on the first refused one.
pub fn play(g: &mut Game, moves: &[&str]) {
    for m in moves {
        g.apply_uci(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", g.fen()));
    }
}

/// The destination squares of the legal moves from the square `from`
/// (e.g. `"c2"`), sorted.
pub fn dests(g: &Game, from: &str) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_moves()
        .iter()
        .map(|m| g.uci(*m))
        .filter(|u| &u[..2] == from)
        .map(|u| u[2..].to_string())
        .collect();
    v.sort();
    v
}

/// The whitespace-separated squares of `squares`, sorted, to compare with
/// [`dests`].
pub fn set(squares: &str) -> Vec<String> {
    let mut v: Vec<String> = squares.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}
