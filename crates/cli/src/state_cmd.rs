//! `houserules state`: writes the JSON state (`houserules-state/1`,
//! docs/state-format.md) of a position, optionally after playing moves, so
//! that positions with state FEN cannot carry (hit points, the half-move
//! of a multi-move turn, a locked result) can be saved and given back to
//! `--state`.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use houserules_engine::Game;
use houserules_presets::RuleSet;

use crate::error::{CliError, Outcome};
use crate::movelist;
use crate::pgn_out::{self, RuleTags};
use crate::position::{load_state, PositionArgs};

const EXAMPLES: &str = "\
Examples:
  houserules state --rules piece-hp --play e2e4,d7d5,e4d5
  houserules state --rules piece-hp,king-heals --play 'e4 e5 Ke2' --output pos.json
  houserules state --state pos.json --play e8e7
  houserules state --play '1. e4 e5 2. Nf3 Nc6 3. Bb5' --pgn game.pgn
  houserules state --game capablanca --play 'e4 e5' --pgn game.pgn
  houserules moves --state pos.json

The document goes to standard output, or to --output. The state format
holds FIDE chess with preset rules (--rules, --layout); a position of a
shipped or YAML game (--game) cannot be written in it, so with such a game
`state` writes only the --pgn file.

--pgn writes the game played by --play as PGN: the Seven Tag Roster, the
rule set (`Variant` names a game other than FIDE chess, `HouseRules` the
presets in --rules syntax), `SetUp`/`FEN` when the game did not start from
its own start position, and the result of the final position (`*` while
it goes on).";

/// Options of `houserules state`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct StateArgs {
    #[command(flatten)]
    position: PositionArgs,

    /// Write the document to this file instead of standard output
    #[arg(long, short = 'o', value_name = "FILE.json")]
    output: Option<PathBuf>,

    /// Also write the game (the --play moves from the position) as PGN to
    /// this file
    #[arg(long, value_name = "FILE.pgn")]
    pgn: Option<PathBuf>,
}

/// Runs `houserules state`.
///
/// # Errors
/// [`CliError::Input`] for a bad position or rule option, `--game` with a
/// game other than chess without `--pgn`, a move that cannot be played
/// (naming it, its number in `--play` and the position), or an output
/// file that cannot be written.
pub fn run(args: &StateArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    if args.position.variant.modifiers.is_some() {
        return Err(CliError::input(
            "--modifiers: the state format holds a position with preset rules, not modifiers \
             (`houserules play` runs a game with modifiers)",
        ));
    }
    let (rules, start) = match &args.position.state {
        Some(path) => load_state(path)?,
        None => {
            let text = args.position.variant.rules.as_deref().unwrap_or("");
            let rules = RuleSet::parse(text)
                .map_err(|e| CliError::input(format!("--rules {text}: {e}")))?;
            (rules, args.position.start_game()?)
        }
    };
    // The state document holds FIDE chess (with presets) only.
    let other_game = args
        .position
        .variant
        .game
        .as_deref()
        .filter(|_| start.variant().definition().id != "chess");
    if let Some(g) = other_game {
        if args.pgn.is_none() || args.output.is_some() {
            return Err(CliError::input(format!(
                "--game {g}: the state format holds FIDE chess with preset rules only \
                 (--rules, --layout); write the game with --pgn FILE, or see its position \
                 with `houserules moves --game {g} --play ...`"
            )));
        }
    }
    let mut game = start.clone();
    let sans = match &args.position.play {
        Some(list) => movelist::play(&mut game, list)?,
        None => Vec::new(),
    };
    if let Some(path) = &args.pgn {
        let tags = RuleTags::of_game(&game, &rules.to_cli());
        // A Chess960 game always names its start position (PGN readers
        // would otherwise start from the standard array).
        let own_start = !start.is_chess960()
            && Game::from_fen(start.variant().clone(), "startpos")
                .is_ok_and(|g| g.fen() == start.fen());
        let result = pgn_out::result_of(&game.status());
        pgn_out::write(
            path,
            &pgn_out::build(&tags, &start.fen(), own_start, &sans, result),
        )?;
    }
    if other_game.is_some() {
        return Ok(Outcome::Success);
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
