//! `houserules pgn check` (placeholder; being written).

use std::io::Write;
use std::path::PathBuf;

/// Replays every game of every file and writes one report per game.
/// Returns `Ok(true)` when any game had an error.
pub fn run(files: &[PathBuf], json: bool, out: &mut dyn Write) -> std::io::Result<bool> {
    let _ = (files, json);
    writeln!(out, "pgn check is not implemented yet")?;
    Ok(true)
}
