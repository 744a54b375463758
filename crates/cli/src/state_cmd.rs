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
use crate::position::{is_file_argument, load_state, PositionArgs};

const EXAMPLES: &str = "\
Examples:
  houserules state --rules piece-hp --play e2e4,d7d5,e4d5
  houserules state --rules piece-hp,king-heals --play 'e4 e5 Ke2' --output pos.json
  houserules state --state pos.json --play e8e7
  houserules state --play '1. e4 e5 2. Nf3 Nc6 3. Bb5' --pgn game.pgn
  houserules state --game capablanca --play 'e4 e5' --pgn game.pgn
  houserules moves --state pos.json

The document goes to standard output, or to --output. It holds the game
(--game: a shipped game by its id, a game file by its YAML text), the
preset rules (--rules, --layout) and the position.

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
/// [`CliError::Input`] for a bad position or rule option, a game file
/// that cannot be read, a move that cannot be played
/// (naming it, its number in `--play` and the position), or an output
/// file that cannot be written.
pub fn run(args: &StateArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    // Regression (session-6 trial): `--pgn F -o F` wrote the document over
    // the PGN, and both were reported written.
    if let (Some(pgn), Some(output)) = (&args.pgn, &args.output) {
        if same_file(pgn, output) {
            return Err(CliError::input(format!(
                "--pgn {} and --output name the same file; give two files",
                pgn.display()
            )));
        }
    }
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
    // A game other than FIDE chess is written to the document's `game`
    // field: a shipped game by its id, a game file by its YAML text (so
    // the document stands alone, without the file).
    let game_field = match args.position.variant.game.as_deref() {
        Some(g) if start.variant().definition().id != "chess" => Some(if is_file_argument(g) {
            crate::error::read_text_limited(std::path::Path::new(g), 1 << 20)
                .map_err(|e| CliError::input(format!("--game {g}: cannot read the file: {e}")))?
        } else {
            g.to_string()
        }),
        _ => None,
    };
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
    let json = houserules_presets::StateDoc::from_game_on(&rules, &game, game_field.as_deref())
        .map_err(|e| CliError::input(format!("cannot write the state: {e}")))?
        .to_json();
    match &args.output {
        Some(path) => std::fs::write(path, json).map_err(|e| {
            CliError::input(format!("--output {}: cannot write: {e}", path.display()))
        })?,
        None => out.write_all(json.as_bytes())?,
    }
    Ok(Outcome::Success)
}

/// Whether `a` and `b` name one file, existing or not: their folders
/// resolved (links, `..`) and their file names equal.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    let resolve = |p: &std::path::Path| {
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        };
        std::fs::canonicalize(dir)
            .ok()
            .zip(p.file_name().map(ToOwned::to_owned))
    };
    a == b || resolve(a).is_some_and(|ra| resolve(b).is_some_and(|rb| ra == rb))
}
