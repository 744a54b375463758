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
        let mut game = Game::from_fen(variant.clone(), &e.fen)
            .unwrap_or_else(|err| panic!("{file}:{} {}: {err}", e.line, e.fen));
        // Castling rights on rooks off the corners are Chess960's (the
        // atomic960 positions), read as `perft` on the command line does.
        game.detect_chess960();
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
fn three_check() {
    run("3check", "3check.perft", 2);
}

#[test]
fn racing_kings() {
    run("racingkings", "racingkings.perft", 3);
}

#[test]
fn antichess() {
    run("antichess", "antichess.perft", 3);
}

/// The JSON state carries hands and promoted marks in its `board` field
/// (the FEN board field) and reads them back.
#[test]
fn crazyhouse_state_round_trip_keeps_hands_and_promoted_marks() {
    use houserules_presets::{RuleSet, StateDoc};
    let (variant, _) = lichess::find("crazyhouse").unwrap().build().unwrap();
    let fen = "4k3/1Q~6/8/8/4b3/8/Kpp5/8[RNn] b - - 0 1";
    let g = Game::from_fen(variant, fen).unwrap();
    let doc = StateDoc::from_game_on(&RuleSet::empty(), &g, Some("crazyhouse")).unwrap();
    assert_eq!(doc.board, "4k3/1Q~6/8/8/4b3/8/Kpp5/8[RNn]");
    let (_, back) = StateDoc::parse(&doc.to_json()).unwrap().to_game().unwrap();
    assert_eq!(back.fen(), fen);
    assert!(back.is_promoted(49), "b7 keeps its promoted mark");
}

/// Three-check's counters: python-chess's `3+3` after the en passant field
/// and lichess's checks given (`+1+0`) after the clocks read alike; the
/// counters are part of the position, so a repetition with another count
/// is no repetition (python-chess's transposition key holds them).
#[test]
fn three_check_counters_in_fen_and_repetition() {
    let (v, _) = lichess::find("three-check").unwrap().build().unwrap();
    let a = Game::from_fen(v.clone(), "4k3/8/8/8/8/8/8/R3K3 w - - 2+3 0 1").unwrap();
    let b = Game::from_fen(v.clone(), "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +1+0").unwrap();
    assert_eq!(a.fen(), "4k3/8/8/8/8/8/8/R3K3 w - - 2+3 0 1");
    assert_eq!(b.fen(), a.fen());
    // Ra8+ Kd7 Ra1 Ke8: the board is back, White has given one more check.
    let mut g = a.clone();
    for m in ["a1a8", "e8d7", "a8a1", "d7e8"] {
        g.apply_uci(m).unwrap();
    }
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 4 3");
    assert_eq!(g.repetitions(), 1);
}

#[test]
fn atomic() {
    run("atomic", "atomic.perft", 7);
}

#[test]
fn horde() {
    run("horde", "horde.perft", 3);
}
