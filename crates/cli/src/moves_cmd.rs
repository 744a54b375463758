//! `houserules moves`: the legal moves of a position, in UCI and SAN.

use std::io::Write;

use clap::Args;
use houserules_engine::{Claim, Status};
use serde::Serialize;

use crate::error::{CliError, Outcome};
use crate::position::PositionArgs;

const EXAMPLES: &str = "\
Examples:
  houserules moves
  houserules moves --fen 'rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2'
  houserules moves --fen startpos --json
  houserules moves --play 'e4 e5 Nf3 Nc6 Bb5'
  houserules moves --play 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1'   (Ng8 claims a threefold repetition)
  houserules moves --game gardner --play d2d3
  houserules moves --rules suicide-chess --fen 'rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 2'
  houserules moves --state position.json   (JSON state format, docs/state-format.md)

Text output is one move per line, `UCI SAN`, sorted by UCI; a move that
lets its player claim a draw by announcing it (FIDE 9.2.1, 9.3.1) has
`claim: threefold-repetition` or `claim: fifty-move-rule` after it. Then a
`claimable draw:` line when the side to move may claim one without a move
(FIDE 9.2.2, 9.3.2), and a `status:` line when the game is over. JSON
output is an array of {\"uci\", \"san\"} objects, with \"claims\" (the
names) on the moves that allow one; the claimable draws without a move and
the status go to stderr.

Repetitions are counted over the --play moves: a position given by --fen
or --state has no history before it. Under --modifiers a position repeats
only when the rule state repeats too (modifier variables, markers, piece
attributes, docs/modifiers.md § Repetition).";

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

/// A legal move in both notations, with the draws announcing it claims.
#[derive(Serialize)]
struct MoveText {
    uci: String,
    san: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    claims: Vec<&'static str>,
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
            claims: game
                .claimable_draw_after(m)
                .unwrap_or_default()
                .into_iter()
                .map(Claim::name)
                .collect(),
        })
        .collect();
    moves.sort_by(|a, b| a.uci.cmp(&b.uci));
    let status = game.status();
    let claims: Vec<&str> = if status.is_over() {
        Vec::new()
    } else {
        game.claimable_draws()
            .into_iter()
            .map(Claim::name)
            .collect()
    };
    if args.json {
        let json = serde_json::to_string(&moves).expect("strings serialise");
        writeln!(out, "{json}")?;
        if !claims.is_empty() {
            reportln!("claimable draw: {}", claims.join(", "));
        }
        if status.is_over() {
            reportln!("status: {}", describe(&status));
        }
    } else {
        write_moves(out, &moves, &claims)?;
        if status.is_over() {
            writeln!(out, "status: {}", describe(&status))?;
        }
    }
    Ok(Outcome::Success)
}

/// The legal moves under modifiers: the session's dry-mode legality, SAN
/// disambiguated among the moves the active rules allow.
fn run_session(args: &MovesArgs, list: &str, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let mut s =
        crate::ruleset::session(&args.position.variant, args.position.fen.as_deref(), list)?;
    if let Some(moves) = &args.position.play {
        crate::movelist::play_session(&mut s, moves)?;
    }
    let legal = s.legal_moves();
    let ucis = s.legal_moves_uci();
    let mut moves: Vec<MoveText> = legal
        .iter()
        .zip(ucis)
        .map(|(m, uci)| MoveText {
            uci,
            san: s.san_among(*m, &legal),
            // Repetition counts the rule state too (issue 25 item 4).
            claims: s
                .claimable_draw_after(*m)
                .unwrap_or_default()
                .into_iter()
                .map(Claim::name)
                .collect(),
        })
        .collect();
    moves.sort_by(|a, b| a.uci.cmp(&b.uci));
    let st = s.status();
    let name = st["status"].as_str().unwrap_or("ongoing");
    let claims: Vec<&str> = if name == "ongoing" {
        s.claimable_draws().into_iter().map(Claim::name).collect()
    } else {
        Vec::new()
    };
    let status = (name != "ongoing").then(|| match st["winner"].as_str() {
        Some(w) => format!("{name} ({w} wins)"),
        None if name == "awaiting-choice" => name.to_string(),
        None => format!("{name} (draw)"),
    });
    if args.json {
        let json = serde_json::to_string(&moves).expect("strings serialise");
        writeln!(out, "{json}")?;
        if !claims.is_empty() {
            reportln!("claimable draw: {}", claims.join(", "));
        }
        if let Some(status) = status {
            reportln!("status: {status}");
        }
    } else {
        write_moves(out, &moves, &claims)?;
        if let Some(status) = status {
            writeln!(out, "status: {status}")?;
        }
    }
    Ok(Outcome::Success)
}

/// `checkmate (black wins)`, `stalemate (draw)`, …
/// The text listing: one move a line (UCI, SAN and the draws claimable by
/// announcing it), then the draws claimable in the position itself.
fn write_moves(out: &mut dyn Write, moves: &[MoveText], claims: &[&str]) -> std::io::Result<()> {
    for m in moves {
        if m.claims.is_empty() {
            writeln!(out, "{:<6} {}", m.uci, m.san)?;
        } else {
            writeln!(
                out,
                "{:<6} {:<8} claim: {}",
                m.uci,
                m.san,
                m.claims.join(", ")
            )?;
        }
    }
    if !claims.is_empty() {
        writeln!(out, "claimable draw: {}", claims.join(", "))?;
    }
    Ok(())
}

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
