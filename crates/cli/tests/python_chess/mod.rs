//! python-chess 1.11.2 (the reference reader) run on a PGN file, for the
//! CLI tests that check our PGN against it.

use std::path::Path;
use std::process::Command;

/// python-chess's reading of the first game of `pgn`: the final position's
/// FEN and the number of errors it met while reading.
///
/// # Panics
/// When python3 or python-chess is missing (the message says what to
/// install).
pub fn end_of_game(pgn: &Path) -> (String, usize) {
    let py = Command::new("python3")
        .args([
            "-c",
            "import chess.pgn, sys; g = chess.pgn.read_game(open(sys.argv[1])); \
             b = g.end().board(); print(b.fen()); print(len(g.errors))",
            pgn.to_str().unwrap(),
        ])
        .output()
        .expect("python3 runs (this test needs python-chess 1.11.2: pip install chess==1.11.2)");
    assert!(
        py.status.success(),
        "python-chess failed (pip install chess==1.11.2): {}",
        String::from_utf8_lossy(&py.stderr)
    );
    let out = String::from_utf8_lossy(&py.stdout).to_string();
    let mut lines = out.lines();
    (
        lines.next().unwrap_or_default().to_string(),
        lines
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(usize::MAX),
    )
}
