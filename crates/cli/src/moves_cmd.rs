//! `houserules moves`: the legal moves of a position, in UCI and SAN.

use std::io::Write;

use clap::Args;
use houserules_engine::Status;
use serde::Serialize;

use crate::error::{CliError, Outcome};
use crate::position::PositionArgs;

const EXAMPLES: &str = "\
Examples:
  houserules moves
  houserules moves --fen 'rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2'
  houserules moves --fen startpos --json
  houserules moves --game gardner
  houserules moves --rules suicide-chess --fen 'rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 2'
  houserules moves --state position.json   (JSON state format, docs/state-format.md)

Text output is one move per line, `UCI SAN`, sorted by UCI, then a
`status:` line when the game is over. JSON output is an array of
{\"uci\", \"san\"} objects; when the game is over the status goes to stderr.";

/// Options of `houserules moves`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct MovesArgs {
    #[command(flatten)]
    position: PositionArgs,

    /// Print a JSON array of {"uci", "san"} objects instead of text
    #[arg(long)]
    json: bool,
}

/// A legal move in both notations.
#[derive(Serialize)]
struct MoveText {
    uci: String,
    san: String,
}

/// Runs `houserules moves`.
///
/// # Errors
/// [`CliError`] on a bad FEN or when the output cannot be written.
pub fn run(args: &MovesArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    if let Some(list) = &args.position.variant.modifiers {
        return run_session(args, list, out);
    }
    let game = args.position.game()?;
    let mut moves: Vec<MoveText> = game
        .legal_moves()
        .into_iter()
        .map(|m| MoveText {
            uci: game.uci(m),
            san: game.san(m),
        })
        .collect();
    moves.sort_by(|a, b| a.uci.cmp(&b.uci));
    let status = game.status();
    if args.json {
        let json = serde_json::to_string(&moves).expect("strings serialise");
        writeln!(out, "{json}")?;
        if status.is_over() {
            reportln!("status: {}", describe(&status));
        }
    } else {
        for m in &moves {
            writeln!(out, "{:<6} {}", m.uci, m.san)?;
        }
        if status.is_over() {
            writeln!(out, "status: {}", describe(&status))?;
        }
    }
    Ok(Outcome::Success)
}

/// The legal moves under modifiers: the session's dry-mode legality, SAN
/// as the engine writes it for the position.
fn run_session(args: &MovesArgs, list: &str, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let s = crate::ruleset::session(&args.position.variant, args.position.fen.as_deref(), list)?;
    let legal = s.legal_moves();
    let ucis = s.legal_moves_uci();
    let mut moves: Vec<MoveText> = legal
        .iter()
        .zip(ucis)
        .map(|(m, uci)| MoveText {
            uci,
            san: s.game().san(*m),
        })
        .collect();
    moves.sort_by(|a, b| a.uci.cmp(&b.uci));
    let st = s.status();
    let name = st["status"].as_str().unwrap_or("ongoing");
    let status = (name != "ongoing").then(|| match st["winner"].as_str() {
        Some(w) => format!("{name} ({w} wins)"),
        None if name == "awaiting-choice" => name.to_string(),
        None => format!("{name} (draw)"),
    });
    if args.json {
        let json = serde_json::to_string(&moves).expect("strings serialise");
        writeln!(out, "{json}")?;
        if let Some(status) = status {
            reportln!("status: {status}");
        }
    } else {
        for m in &moves {
            writeln!(out, "{:<6} {}", m.uci, m.san)?;
        }
        if let Some(status) = status {
            writeln!(out, "status: {status}")?;
        }
    }
    Ok(Outcome::Success)
}

/// `checkmate (black wins)`, `stalemate (draw)`, …
fn describe(status: &Status) -> String {
    let result = match status {
        Status::Ongoing => return status.name().to_string(),
        Status::Checkmate { winner }
        | Status::Variant {
            winner: Some(winner),
            ..
        } => format!("{winner} wins"),
        _ => "draw".to_string(),
    };
    format!("{} ({result})", status.name())
}
