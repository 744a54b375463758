//! `houserules games`: the shipped game definitions.

use std::io::Write;

use clap::Args;
use serde::Serialize;

use crate::error::{CliError, Outcome};

const EXAMPLES: &str = "\
Examples:
  houserules games
  houserules games --json
  houserules perft --game capablanca --depth 3

Text output is one line per game: id, name, board size (files x ranks)
and the piece letters (white's; black uses lower case). JSON output is an
array of {\"id\", \"name\", \"width\", \"height\", \"pieces\": [{\"letter\",
\"id\", \"royal\"}]} objects.";

/// Options of `houserules games`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct GamesArgs {
    /// Print a JSON array instead of text
    #[arg(long)]
    json: bool,
}

/// One shipped game.
#[derive(Serialize)]
struct GameInfo {
    id: String,
    name: String,
    width: u8,
    height: u8,
    pieces: Vec<PieceInfo>,
}

/// One piece type of a game.
#[derive(Serialize)]
struct PieceInfo {
    letter: String,
    id: String,
    royal: bool,
}

/// Runs `houserules games`.
///
/// # Errors
/// [`CliError`] when the output cannot be written.
pub fn run(args: &GamesArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let games: Vec<GameInfo> = houserules_definitions::builtin_ids()
        .into_iter()
        .filter_map(houserules_definitions::builtin)
        .map(|def| GameInfo {
            pieces: def
                .pieces
                .iter()
                .map(|p| PieceInfo {
                    letter: p.symbol.to_ascii_uppercase().to_string(),
                    id: p.id.clone(),
                    royal: p.royal,
                })
                .collect(),
            id: def.id,
            name: def.name,
            width: def.width,
            height: def.height,
        })
        .collect();
    if args.json {
        let json = serde_json::to_string(&games).expect("strings and numbers serialise");
        writeln!(out, "{json}")?;
        return Ok(Outcome::Success);
    }
    let id_w = games.iter().map(|g| g.id.len()).max().unwrap_or(0);
    let name_w = games.iter().map(|g| g.name.len()).max().unwrap_or(0);
    for g in &games {
        let letters: Vec<&str> = g.pieces.iter().map(|p| p.letter.as_str()).collect();
        let size = format!("{}x{}", g.width, g.height);
        writeln!(
            out,
            "{:<id_w$}  {:<name_w$}  {size:<5}  {}",
            g.id,
            g.name,
            letters.join(" ")
        )?;
    }
    for id in houserules_definitions::pending_builtin_ids() {
        writeln!(out, "{id} (shipped, needs engine features not built yet)")?;
    }
    Ok(Outcome::Success)
}
