//! `houserules state`: writes the JSON state (`houserules-state/1`,
//! docs/state-format.md) of a position, optionally after playing moves, so
//! that positions with state FEN cannot carry (hit points, the half-move
//! of a multi-move turn, a locked result) can be saved and given back to
//! `--state`.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use houserules_engine::uci::is_uci_shaped;
use houserules_presets::RuleSet;

use crate::error::{CliError, Outcome};
use crate::position::{load_state, PositionArgs};

const EXAMPLES: &str = "\
Examples:
  houserules state --rules piece-hp --play e2e4,d7d5,e4d5
  houserules state --rules piece-hp,king-heals --play 'e4 e5 Ke2' --output pos.json
  houserules state --state pos.json --play e8e7
  houserules moves --state pos.json

The document goes to standard output, or to --output. The state format
holds FIDE chess with preset rules (--rules, --layout); a shipped or YAML
game (--game) cannot be written in it.";

/// Options of `houserules state`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct StateArgs {
    #[command(flatten)]
    position: PositionArgs,

    /// Moves to play from the position first, in UCI or SAN, separated by
    /// commas or spaces (`e2e4,e7e5` or `'e4 e5 Nf3'`; move numbers such
    /// as `1.` are skipped)
    #[arg(long, value_name = "MOVES")]
    play: Option<String>,

    /// Write the document to this file instead of standard output
    #[arg(long, short = 'o', value_name = "FILE.json")]
    output: Option<PathBuf>,
}

/// Runs `houserules state`.
///
/// # Errors
/// [`CliError::Input`] for a bad position or rule option, `--game` with a
/// game other than chess, a move that cannot be played (naming it, its
/// number in `--play` and the position), or an output file that cannot
/// be written.
pub fn run(args: &StateArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    if args.position.variant.modifiers.is_some() {
        return Err(CliError::input(
            "--modifiers: the state format holds a position with preset rules, not modifiers \
             (`houserules play` runs a game with modifiers)",
        ));
    }
    let (rules, mut game) = match &args.position.state {
        Some(path) => load_state(path)?,
        None => {
            if let Some(g) = args.position.variant.game.as_deref() {
                if g != "chess" {
                    return Err(CliError::input(format!(
                        "--game {g}: the state format holds FIDE chess with preset rules only \
                         (--rules, --layout); a position of another game is written as FEN \
                         (`houserules moves` shows its moves)"
                    )));
                }
            }
            let game = args.position.game()?;
            let text = args.position.variant.rules.as_deref().unwrap_or("");
            let rules = RuleSet::parse(text)
                .map_err(|e| CliError::input(format!("--rules {text}: {e}")))?;
            (rules, game)
        }
    };
    if let Some(list) = &args.play {
        let tokens = list
            .split([',', ' ', '\t', '\n'])
            .map(strip_move_number)
            .filter(|s| !s.is_empty() && *s != "e.p.");
        for (i, mv) in tokens.enumerate() {
            let fen = game.fen();
            // A decided game takes no more moves; say so rather than
            // calling the move illegal.
            let status = game.status();
            if !matches!(status, houserules_engine::Status::Ongoing) {
                return Err(CliError::input(format!(
                    "--play: move {} `{mv}`: the game is over ({}) in `{fen}`",
                    i + 1,
                    status.name()
                )));
            }
            let played = if is_uci_shaped(mv) {
                game.apply_uci(mv).map(drop).map_err(|e| e.to_string())
            } else {
                game.apply_san(mv).map(drop).map_err(|e| e.to_string())
            };
            played.map_err(|e| {
                CliError::input(format!(
                    "--play: move {} `{mv}` cannot be played in `{fen}`: {e}",
                    i + 1
                ))
            })?;
        }
    }
    let json = houserules_presets::state::to_json(&rules, &game)
        .map_err(|e| CliError::input(format!("cannot write the state: {e}")))?;
    match &args.output {
        Some(path) => std::fs::write(path, json).map_err(|e| {
            CliError::input(format!("--output {}: cannot write: {e}", path.display()))
        })?,
        None => out.write_all(json.as_bytes())?,
    }
    Ok(Outcome::Success)
}

/// A token of a pasted move list without its move number: `1.` and `12...`
/// become empty, `2.Nf3` becomes `Nf3` (PGN export format writes no space
/// there, and readers accept both).
fn strip_move_number(s: &str) -> &str {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &s[digits..];
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    if digits > 0 && dots > 0 {
        &rest[dots..]
    } else {
        s
    }
}
