//! Shared test helpers.
#![allow(dead_code)]

use houserules_engine::{BitSet, Game, Move, Position, Tables};
use houserules_presets::{build_from_str, Layout, RuleSet, PRESETS};

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

/// A game under `rules` from `fen`.
pub fn g(rules: &str, fen: &str) -> Game {
    game(rules, None, Some(fen))
}

/// Asserts that every UCI move of `ms` is legal.
pub fn yes(g: &Game, ms: &[&str]) {
    for m in ms {
        assert!(legal(g, m), "{m} should be legal in {}", g.fen());
    }
}

/// Asserts that no UCI move of `ms` is legal.
pub fn no(g: &Game, ms: &[&str]) {
    for m in ms {
        assert!(!legal(g, m), "{m} should be illegal in {}", g.fen());
    }
}

/// Plays the UCI moves `ms` (each must be legal).
pub fn play(g: &mut Game, ms: &[&str]) {
    for m in ms {
        g.apply_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
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

/// SplitMix64: a seeded stream so that random playouts reproduce.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A random preset combination: `min + rng % spread` draws among the
/// implemented presets (a repeated draw is dropped), parsed as a rule set;
/// `None` when the drawn presets cannot be combined.
pub fn random_rule_set(rng: &mut Rng, min: usize, spread: u64) -> Option<RuleSet> {
    let implemented: Vec<&str> = PRESETS
        .iter()
        .filter(|p| p.implemented)
        .map(|p| p.id)
        .collect();
    let k = min + (rng.next() % spread) as usize;
    let mut ids: Vec<&str> = Vec::new();
    for _ in 0..k {
        let id = implemented[(rng.next() % implemented.len() as u64) as usize];
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    RuleSet::parse(&ids.join(",")).ok()
}

/// The destinations of the legal moves from `from` (e.g. `"c2"`), sorted,
/// each move once (a destination listed twice would be a duplicate move).
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

/// The legal moves by playing every pseudo-legal move through the rule
/// hooks (the general path, without the engine's fast legality profile):
/// the reference the hooked move generators are compared with.
pub fn hooked_reference<B: BitSet>(pos: &Position<B>, t: &Tables<B>) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::new();
    let Some(h) = t.hooks() else {
        pos.legal_moves_into(t, &mut out);
        return out;
    };
    let mut pseudo = Vec::new();
    pos.pseudo_legal_moves_hooked(t, Some(h), &mut pseudo);
    let us = pos.turn();
    for m in pseudo {
        if h.self_check_filter() {
            let mut after = *pos;
            after.play_with_hooks(t, h, m);
            let occ = after.occupied();
            if h.royal_squares(t, &after, us)
                .iter()
                .any(|s| h.is_attacked(t, &after, s, occ, us.flip()))
            {
                continue;
            }
        }
        if !out.contains(&m) {
            out.push(m);
        }
    }
    h.filter_moves(t, pos, &mut out);
    out
}
