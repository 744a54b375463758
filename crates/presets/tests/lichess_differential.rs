//! # lichess's variants against python-chess
//!
//! `tests/data/lichess_<variant>.txt` hold seeded random playouts made by
//! python-chess 1.11.2's variant boards (`tests/data/make_lichess_reference.py`
//! documents the format). Each playout is replayed through the shipped game
//! ([`houserules_presets::lichess`]) and at every position compared:
//!
//! - the legal moves in UCI and SAN (digest of the sorted `UCI SAN` lines);
//! - the FEN, string for string (pockets `[…]`, promoted `~`, the en
//!   passant square only when a capture is legal), and python-chess's FEN
//!   read back by us gives the same FEN (round trip);
//! - the result (`Board.outcome()` without claims).
//!
//! ## Longer runs
//!
//! `HOUSERULES_LICHESS_POSITIONS=N` (and optionally
//! `HOUSERULES_LICHESS_SEED`, default 25, the committed files' seed) runs
//! the generator for N positions per variant instead of reading the
//! committed files (needs `python3` with `pip install chess==1.11.2`):
//!
//! ```text
//! HOUSERULES_LICHESS_POSITIONS=100000 cargo test -p houserules-presets --release --test lichess_differential -- --nocapture
//! ```

use std::path::PathBuf;

use houserules_engine::{Color, Game, Status};
use houserules_presets::lichess;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// FNV-1a 64 of `lines` joined by `\n` (as the generator's `digest`).
fn digest(lines: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            h ^= u64::from(b'\n');
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        for &b in line.as_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

fn move_lines(g: &Game) -> Vec<String> {
    let legal = g.legal_moves();
    let mut v: Vec<String> = legal
        .iter()
        .map(|&m| format!("{} {}", g.uci_among(m, &legal), g.san(m)))
        .collect();
    v.sort();
    v
}

/// python-chess's `Outcome.result()` for our status.
fn result(s: &Status) -> &'static str {
    let win = |c: Color| if c == Color::White { "1-0" } else { "0-1" };
    match s {
        Status::Ongoing => "*",
        Status::Checkmate { winner } => win(*winner),
        Status::Variant {
            winner: Some(w), ..
        } => win(*w),
        _ => "1/2-1/2",
    }
}

/// The committed reference of `variant`, or a fresh one from the generator.
fn reference(variant: &str) -> String {
    let committed = data_dir().join(format!("lichess_{variant}.txt"));
    match std::env::var("HOUSERULES_LICHESS_POSITIONS") {
        Err(_) => std::fs::read_to_string(&committed)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", committed.display())),
        Ok(n) => {
            let seed = std::env::var("HOUSERULES_LICHESS_SEED").unwrap_or_else(|_| "25".into());
            let script = data_dir().join("make_lichess_reference.py");
            let out = std::process::Command::new("python3")
                .arg(&script)
                .args([variant, &n, &seed])
                .output()
                .unwrap_or_else(|e| panic!("cannot run python3 {}: {e}", script.display()));
            assert!(
                out.status.success(),
                "{} failed (needs `pip install chess==1.11.2`): {}",
                script.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout).expect("UTF-8")
        }
    }
}

/// Replays the reference of `variant` (a python-chess variant name that is
/// also our id); returns the number of positions compared.
fn check(variant: &str, min_positions: usize) {
    let info = lichess::find(variant).unwrap_or_else(|| panic!("{variant} is not shipped"));
    let (v, _) = info.build().expect("the game builds");
    let text = reference(variant);
    let mut game: Option<Game> = None;
    let mut positions = 0usize;
    let mut failures = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lineno = n + 1;
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] == "P" {
            game = Some(
                Game::from_fen(v.clone(), f[2])
                    .unwrap_or_else(|e| panic!("line {lineno}: python-chess's FEN {}: {e}", f[2])),
            );
            continue;
        }
        let (want, want_result, want_fen, mv) = (f[0], f[1], f[2], f[3]);
        let Some(g) = game.as_mut() else { continue };
        positions += 1;
        let mut problems = Vec::new();
        if g.fen() != want_fen {
            problems.push(format!("FEN: ours {}, python-chess's {want_fen}", g.fen()));
        }
        match Game::from_fen(v.clone(), want_fen) {
            Ok(back) if back.fen() == want_fen => {}
            Ok(back) => problems.push(format!("FEN read back as {}", back.fen())),
            Err(e) => problems.push(format!("python-chess's FEN refused: {e}")),
        }
        let ours = move_lines(g);
        if digest(&ours) != want {
            problems.push(format!(
                "moves: ours {}\n  python-chess's: python3 crates/presets/tests/data/make_lichess_reference.py {variant} --moves '{want_fen}'",
                ours.join(", ")
            ));
        }
        let got = result(&g.status());
        if got != want_result {
            problems.push(format!(
                "result: ours {got} ({:?}), python-chess's {want_result}",
                g.status()
            ));
        }
        if !problems.is_empty() {
            failures.push(format!(
                "line {lineno} ({want_fen}):\n  {}",
                problems.join("\n  ")
            ));
            game = None;
            if failures.len() >= 10 {
                break;
            }
            continue;
        }
        if mv != "-" {
            if let Err(e) = g.apply_uci(mv) {
                failures.push(format!(
                    "line {lineno}: cannot play {mv} in {}: {e}",
                    g.fen()
                ));
                game = None;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{variant}: {} position(s) differ from python-chess:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        positions >= min_positions,
        "{variant}: only {positions} positions compared"
    );
    eprintln!("{variant}: {positions} positions compared with python-chess: 0 differences");
}

#[test]
fn crazyhouse_matches_python_chess() {
    check("crazyhouse", 3000);
}

#[test]
fn antichess_matches_python_chess() {
    check("antichess", 3000);
}

#[test]
fn king_of_the_hill_matches_python_chess() {
    check("kingofthehill", 3000);
}

#[test]
fn three_check_matches_python_chess() {
    check("3check", 3000);
}

#[test]
fn racing_kings_matches_python_chess() {
    check("racingkings", 3000);
}

#[test]
fn atomic_matches_python_chess() {
    check("atomic", 3000);
}

#[test]
fn horde_matches_python_chess() {
    check("horde", 3000);
}
