//! # Perft suites of lichess's variants
//!
//! The variant perft files of scalachess (MIT, copied to `tests/data`, see
//! `tests/data/ATTRIBUTION.md`; the same counts as python-chess's
//! `examples/perft` files) are checked at every listed depth, with bulk
//! counting, and without it for counts up to 20,000.
//!
//! ```text
//! cargo test -p houserules-engine --release --test variant_perft
//! ```

mod common;

use common::read_local;
use houserules_engine::suite;
use houserules_engine::{Game, Variant};

/// Every position of `file` under `variant`, every listed depth.
fn run(file: &str, variant: Variant, positions: usize) {
    let text = read_local(file);
    let entries = suite::parse(&text).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    assert_eq!(entries.len(), positions, "{file}: number of positions");
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
            if want <= 20_000 {
                let slow = game.perft(depth, false);
                if slow != want {
                    failures.push(format!(
                        "{file}:{} {} depth {depth} without bulk counting: expected {want}, got {slow}",
                        e.line, e.id
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn crazyhouse() {
    run("crazyhouse.perft", Variant::crazyhouse(), 4);
}

/// Regression: a pawn dropped on its second rank may double-step (the
/// first differential run found `d2d4` missing after `P@d2`). Counts by
/// python-chess 1.11.2's `CrazyhouseBoard` (a plain recursive perft):
/// 53, 2,654, 28,213.
#[test]
fn crazyhouse_dropped_pawn_on_its_second_rank_double_steps() {
    let g =
        Game::from_fen(Variant::crazyhouse(), "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1").expect("FEN");
    assert_eq!([1, 2, 3].map(|d| g.perft(d, false)), [53, 2_654, 28_213]);
    let mut g = g;
    g.apply_uci("P@d2").expect("drop");
    g.apply_uci("P@d7").expect("drop");
    assert!(g.apply_uci("d2d4").is_ok(), "the dropped pawn double-steps");
}
