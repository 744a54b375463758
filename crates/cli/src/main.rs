//! `houserules`: chess with house rules — the command-line front end of the
//! houserules rules engine.
//!
//! One module per subcommand: each defines its clap options (`…Args`) and a
//! `run` function that writes to the given output and returns an
//! [`Outcome`] or a [`CliError`]. To add a subcommand, add a module and a
//! variant of [`Command`].

/// `eprint!` that ignores a closed or full standard error (`eprint!`
/// panics then, e.g. under `2>&1 | head`): messages are best effort.
macro_rules! report {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// [`report!`] with a line end.
macro_rules! reportln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod error;
mod games_cmd;
mod modifiers_cmd;
mod moves_cmd;
mod parallel;
mod perft_cmd;
mod pgn_cmd;
mod position;
mod progress;
mod rules_cmd;
mod ruleset;
mod state_cmd;
mod validate_cmd;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::error::{CliError, Outcome};

const EXAMPLES: &str = "\
Examples:
  houserules perft --depth 6
  houserules perft --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' --depth 3 --divide
  houserules perft --suite ../shared/data/perft/tricky.perft --max-nodes 1000000
  houserules moves --fen startpos --json
  houserules pgn check games.pgn
  houserules games
  houserules perft --game capablanca --depth 3
  houserules validate my-game.yaml
  houserules rules
  houserules modifiers
  houserules validate my-rule.json
  houserules play --create request.json --inputs inputs.jsonl --json
  houserules perft --rules suicide-chess --depth 4
  houserules perft --rules dual-king --layout dual-classic --depth 3
  houserules state --rules piece-hp --play e2e4,d7d5,e4d5 --output pos.json
  houserules moves --state pos.json

Exit status: 0 on success, 1 when a check fails (a perft mismatch, a PGN
game with an error, a game file with problems), 2 on bad input (a bad FEN, a missing file, a malformed
line) or when the output cannot be written (a full disk). After the
reader closes an output pipe (`houserules ... | head`), the rest of the
output is discarded quietly and the command still ends with its own
status (so `set -o pipefail` sees a failed check).
`houserules <COMMAND> --help` shows each command's options.";

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "houserules",
    version,
    about = "Chess with house rules: one rules engine for FIDE chess and its variants",
    after_help = EXAMPLES,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal-move tree (perft) of a position,
    /// or check every position of a perft suite file
    Perft(perft_cmd::PerftArgs),
    /// List the legal moves of a position in UCI and SAN
    Moves(moves_cmd::MovesArgs),
    /// Work with PGN files
    #[command(subcommand)]
    Pgn(PgnCommand),
    /// List the shipped game definitions (for --game)
    Games(games_cmd::GamesArgs),
    /// Check a YAML game file or a JSON modifier descriptor and report its problems
    Validate(validate_cmd::ValidateArgs),
    /// List the preset house rules (for --rules) and starting layouts (for
    /// --layout)
    Rules(rules_cmd::RulesArgs),
    /// List the shipped modifier library
    Modifiers(modifiers_cmd::ModifiersArgs),
    /// Replay a scripted game with modifiers and print the resulting state
    Play(modifiers_cmd::PlayArgs),
    /// Write the JSON state (for --state) of a position, after optional
    /// moves
    State(state_cmd::StateArgs),
}

/// The `pgn` subcommands.
#[derive(Debug, Subcommand)]
enum PgnCommand {
    /// Replay every game of PGN files and report each game's errors
    #[command(after_help = "\
Examples:
  houserules pgn check games.pgn
  houserules pgn check a.pgn b.pgn --json
  zcat games.pgn.gz | houserules pgn check -
  houserules pgn check --game capablanca capablanca-games.pgn
  houserules pgn check --rules coregal coregal-games.pgn
  houserules pgn check --state position.json games.pgn

A `Variant` tag naming Antichess, Suicide or Giveaway replays the game
with the suicide-chess preset; one naming a shipped game (Berolina,
Capablanca, Grand, Los Alamos, Knightmate, ...) with that game. --game/--rules/--layout choose the rules of
the games without a Variant tag (or with Standard/Chess960 ones).

A file that holds no game (an empty file, /dev/null) is reported as
`FILE: no game found`; with --json, as a line whose `game` and `error` are
null and whose `warnings` say so.

Exit status: 0 when every game replays (also when a file holds no game:
no game failed), 1 when a game has an error, 2 when a file cannot be read
or a game option is wrong.")]
    Check(PgnCheckArgs),
}

/// Options of `houserules pgn check`.
#[derive(Debug, Args)]
struct PgnCheckArgs {
    /// PGN files to check (`-` is standard input)
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,

    /// Print JSON instead of text
    #[arg(long)]
    json: bool,

    /// Start the games without a FEN tag (and without a variant tag, or a
    /// standard or Chess960 one) from the position of a JSON state file
    /// (docs/state-format.md), under its rules; games with a FEN tag use
    /// its rules too. Replaces --game, --rules and --layout
    #[arg(
        long,
        value_name = "FILE.json",
        conflicts_with_all = ["game", "rules", "layout", "modifiers"]
    )]
    state: Option<PathBuf>,

    /// The game of the games without a variant tag.
    #[command(flatten)]
    variant: position::VariantArgs,
}

/// A file that cannot be opened or read is reported like a bad game, the
/// other files are still checked, and the exit status is then 2.
fn pgn_check(args: &PgnCheckArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    if args.variant.modifiers.is_some() {
        return Err(CliError::input(
            "--modifiers: `pgn check` replays games under --game and --rules only; \
             replaying under modifiers is not built yet",
        ));
    }
    let resolver = if let Some(path) = &args.state {
        pgn_cmd::Resolver::with_start(position::load_state(path)?.1)
    } else if args.variant.is_given() {
        pgn_cmd::Resolver::new(Some(args.variant.choose()?.variant))
    } else {
        pgn_cmd::Resolver::new(None)
    };
    match pgn_cmd::run(&args.files, args.json, &resolver, out) {
        Ok(c) if c.unreadable => Ok(Outcome::Unreadable),
        Ok(c) => Ok(Outcome::failed_if(c.game_errors)),
        // Only writing the report can fail.
        Err(e) => Err(e.into()),
    }
}

fn run(cli: &Cli, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let outcome = match &cli.command {
        Command::Perft(args) => perft_cmd::run(args, out)?,
        Command::Moves(args) => moves_cmd::run(args, out)?,
        Command::Pgn(PgnCommand::Check(args)) => pgn_check(args, out)?,
        Command::Games(args) => games_cmd::run(args, out)?,
        Command::Validate(args) => validate_cmd::run(args, out)?,
        Command::Rules(args) => rules_cmd::run(args, out)?,
        Command::Modifiers(args) => modifiers_cmd::list(args, out)?,
        Command::Play(args) => modifiers_cmd::play(args, out)?,
        Command::State(args) => state_cmd::run(args, out)?,
    };
    out.flush()?;
    Ok(outcome)
}

/// Standard output that remembers its first write error. Every command
/// writes through it, so [`main`] decides the end of every failed write in
/// one place, whatever the command made of the error. A closed pipe
/// (`houserules … | head`) is not an error of the command: from then on
/// the output is discarded silently and the command runs to its end, so
/// its exit status stays that of its checks (`set -o pipefail` users see a
/// failed check). Any other write error (a full disk, `> /dev/full`) ends
/// the program with a message and status 2.
struct Stdout<W: Write> {
    inner: W,
    /// The reader closed the pipe: further output is discarded.
    closed: bool,
    failed: Option<std::io::Error>,
}

impl<W: Write> Stdout<W> {
    /// Notes the first write error other than a closed pipe, and turns a
    /// closed pipe into a discarded write.
    fn note(&mut self, r: std::io::Result<usize>, len: usize) -> std::io::Result<usize> {
        match r {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(len)
            }
            Err(e) => {
                if self.failed.is_none() {
                    self.failed = Some(std::io::Error::new(e.kind(), e.to_string()));
                }
                Err(e)
            }
            ok => ok,
        }
    }
}

impl<W: Write> Write for Stdout<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let r = self.inner.write(buf);
        self.note(r, buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let r = self.inner.flush();
        self.note(r.map(|()| 0), 0).map(|_| ())
    }
}

/// Parses the command line. Clap prints help, version and usage errors
/// itself; its print result is checked here, so that `--help >/dev/full`
/// exits 2 with a message like any output that cannot be written (a
/// closed pipe only discards the text, as for the commands).
fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        let printed = e.print().and_then(|()| std::io::stdout().flush());
        match printed {
            Err(w) if w.kind() != std::io::ErrorKind::BrokenPipe => {
                reportln!("error: {}", CliError::Output(w));
                ExitCode::from(error::EXIT_BAD_INPUT)
            }
            _ => ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(error::EXIT_BAD_INPUT)),
        }
    })
}

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let mut stdout = Stdout {
        inner: std::io::stdout().lock(),
        closed: false,
        failed: None,
    };
    let result = run(&cli, &mut stdout);
    if let Some(e) = stdout.failed {
        let e = CliError::Output(e);
        reportln!("error: {e}");
        return ExitCode::from(e.exit_code());
    }
    match result {
        Ok(outcome) => ExitCode::from(outcome.exit_code()),
        Err(e) => {
            reportln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_definition_is_valid() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
