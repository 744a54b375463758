//! `houserules uci` end to end: the binary driven over pipes, and the
//! conformance script `data/uci_conformance.py`, in which python-chess's
//! `chess.engine` (an independent UCI client) drives it and checks every
//! `bestmove` against python-chess's or Fairy-Stockfish's move generator.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_houserules")
}

/// Regression: `main` held the standard output's lock while the UCI
/// session ran, so the search thread could never write `bestmove` and
/// `go` hung forever (the in-memory tests of `uci_cmd` did not see it).
#[test]
fn the_binary_answers_go_with_bestmove() {
    let mut child = Command::new(binary())
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("houserules uci starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Scholar's mate position: Qxf7# is the only mate in 1
    // (crates/search/tests/mates.py proves it with python-chess).
    writeln!(
        stdin,
        "position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6\ngo depth 2"
    )
    .unwrap();
    stdin.flush().unwrap();
    let mut best = None;
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(30)) {
        if let Some(m) = line.strip_prefix("bestmove ") {
            best = Some(m.to_string());
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let status = child.wait().expect("houserules uci ends");
    assert_eq!(best.as_deref(), Some("h5f7"), "no bestmove within 30 s");
    assert!(status.success());
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/uci_conformance.py")
}

/// The python-chess conformance script (see its docstring for the
/// checks). It needs `python3` with python-chess 1.11.2 (PyPI `chess`)
/// and Debian's `fairy-stockfish` (or `FAIRY_STOCKFISH=path`); when one
/// is missing the test fails and says how to install it, rather than
/// passing without having checked anything.
#[test]
fn python_chess_drives_houserules_uci() {
    let fairy = std::env::var("FAIRY_STOCKFISH")
        .unwrap_or_else(|_| "/usr/games/fairy-stockfish".to_string());
    let out = match Command::new("python3")
        .arg(script())
        .arg(binary())
        .arg(&fairy)
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!(
            "python3 cannot be run ({e}): this test needs Python 3 with python-chess \
             (`apt-get install python3` and `pip install chess==1.11.2`)"
        ),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => assert!(stdout.contains("checks passed"), "{stdout}"),
        Some(3) => panic!(
            "python-chess is not installed: `pip install chess==1.11.2` (PyPI package \
             `chess`), then run again.\n{stderr}"
        ),
        _ => panic!("UCI conformance failed:\n{stdout}\n{stderr}"),
    }
}
