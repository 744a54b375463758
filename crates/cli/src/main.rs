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

/// jemalloc gives back to the system what unloaded games freed (glibc's
/// malloc kept the server's resident memory at its peak; issue 21).
#[cfg(all(unix, not(target_env = "musl")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

mod error;
mod games_cmd;
mod loadtest_cmd;
mod match_cmd;
mod match_session;
mod modifiers_cmd;
mod movelist;
mod moves_cmd;
mod ops_cmd;
mod parallel;
mod perft_cmd;
mod pgn_cmd;
mod pgn_out;
mod pgn_session;
mod position;
mod progress;
mod rules_cmd;
mod ruleset;
mod serve_cmd;
mod state_cmd;
mod uci_cmd;
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
  houserules pgn format games.pgn --output clean.pgn
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
  houserules serve --addr 127.0.0.1:8080
  houserules moves --game capablanca --play 'e2e4 e7e5'
  houserules state --play '1. e4 e5 2. Nf3' --pgn game.pgn
  houserules match level:8 level:2 --games 10 --depth 4 --pgn games.pgn

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
    /// Serve games over HTTP and WebSocket (SQLite by default, or Postgres)
    Serve(serve_cmd::ServeArgs),
    /// Copy a live SQLite store consistently (Postgres: pg_dump)
    Backup(ops_cmd::BackupArgs),
    /// Write every game of a store (finished and live) as PGN
    Export(ops_cmd::ExportArgs),
    /// Hold many concurrent bot games against a server on this machine and
    /// report moves per second, ack latency and memory
    Loadtest(loadtest_cmd::LoadtestArgs),
    /// Play as a UCI engine on standard input and output, for any shipped
    /// game, YAML game file or preset rule set
    Uci(uci_cmd::UciArgs),
    /// Play games between two engines (our levels or UCI engines) under
    /// any rule set; write PGN and print the score and Elo difference
    Match(match_cmd::MatchArgs),
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
  houserules pgn check --strict games.pgn
  houserules pgn check --modifiers minefield game.pgn

A `HouseRules` tag (presets in --rules syntax, e.g. `piece-hp,wrap-board`)
replays the game with those presets. A `Variant` tag naming Antichess,
Suicide or Giveaway replays it with the suicide-chess preset; one naming a
shipped game by its id, its name or its Fairy-Stockfish name (berolina,
capablanca, gardner, grand, losalamos, knightmate, clobberers, chess960 or
fischerandom) with that game. --game/--rules/--layout choose the rules of
the other games (no Variant tag, an unknown one, or Standard/Chess960 for
presets); where a game's tags name another game, the tags win, with a
warning. A `Modifiers` tag (library modifiers in --modifiers syntax, as
`play --pgn` writes it) or --modifiers replays the game through the
modifier session, seed 0 as `play`: a move after which a player must
choose cannot be replayed (PGN records no answers) and is reported.

Each game's line gives its plies, how it ended (the first thing that ended
it: a fivefold repetition before a later 75-move rule), its final FEN and,
for a written 1/2-1/2 that a claim justifies, the claim
(`draw by claim: threefold-repetition` or `fifty-move-rule`), with the move
announced when the claim needs one (FIDE 9.2.1, 9.3.1: `(announcing Ng8)`). A PGN syntax
error is reported after the plies replayed before it. --strict adds
warnings for SAN only the lenient reader accepts (`0-0`, `e8Q`,
superfluous disambiguation, wrong check marks, UCI or long algebraic moves,
`P` on pawn moves), with their line.
Long games are checked in bounded memory (a hash per ply); tags (1 MiB a
game) and a game's text (64 MiB) have budgets.

A file that holds no game (an empty file, /dev/null) is reported as
`FILE: no game found`; with --json, as a line whose `game` and `error` are
null and whose `warnings` say so.

Exit status: 0 when every game replays (also when a file holds no game:
no game failed), 1 when a game has an error, 2 when a file cannot be read
(also compressed or binary input: \"not a PGN text file (compressed? use
zcat)\") or a game option is wrong.")]
    Check(PgnCheckArgs),
    /// Write every game of PGN files back in export format
    #[command(after_help = "\
Examples:
  houserules pgn format games.pgn
  houserules pgn format a.pgn b.pgn --output clean.pgn
  houserules pgn format --game capablanca capablanca-games.pgn
  houserules pgn format --rules piece-hp,wrap-board house-games.pgn

Every game is written in export format: the Seven Tag Roster first (missing
tags as `?`), SAN as houserules writes it, comments, NAGs and variations
kept, `SetUp` beside `FEN`, and the tags that make the file replay under the
same rules: `Variant` (the game), `HouseRules` (the presets, in --rules
syntax) and `FEN` for a layout's start. Games are chosen as in `pgn check`.

Problems go to standard error: a game that cannot be read is not written; a
move that does not replay is written as it was, with the rest of its line.
Exit status: 0 when every game was written as SAN, 1 when a game had an
error, 2 when a file cannot be read.")]
    Format(PgnFormatArgs),
}

/// Options of `houserules pgn format`.
#[derive(Debug, Args)]
struct PgnFormatArgs {
    /// PGN files to rewrite (`-` is standard input)
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,

    /// Write to this file instead of standard output (not one of the input
    /// files)
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,

    /// The game of the games without a variant tag.
    #[command(flatten)]
    variant: position::VariantArgs,
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

    /// Also warn about SAN only the lenient reader accepts (`0-0`, `e8Q`,
    /// superfluous or missing disambiguation, wrong check marks, UCI)
    #[arg(long)]
    strict: bool,

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

    #[command(flatten)]
    fen_style: position::FenStyleArg,
}

/// A file that cannot be opened or read is reported like a bad game, the
/// other files are still checked, and the exit status is then 2.
fn pgn_check(args: &PgnCheckArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let mut resolver = pgn_cmd::Resolver::from_args(args.state.as_deref(), &args.variant)?;
    resolver.fen_style = args.fen_style.fen_style;
    let opts = pgn_cmd::CheckOptions {
        json: args.json,
        strict: args.strict,
    };
    match pgn_cmd::run(&args.files, opts, &resolver, out) {
        Ok(c) if c.unreadable => Ok(Outcome::Unreadable),
        Ok(c) => Ok(Outcome::failed_if(c.game_errors)),
        // Only writing the report can fail.
        Err(e) => Err(e.into()),
    }
}

/// `pgn format`: to standard output or `--output`, problems on standard
/// error.
fn pgn_format(args: &PgnFormatArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let resolver = pgn_cmd::Resolver::from_args(None, &args.variant)?;
    let mut err = std::io::stderr();
    let checked = match &args.output {
        None => pgn_cmd::format(&args.files, &resolver, out, &mut err)?,
        Some(path) => {
            // Writing over an input would truncate it before it is read.
            let target = std::fs::canonicalize(path).ok();
            if target.is_some()
                && args
                    .files
                    .iter()
                    .any(|f| std::fs::canonicalize(f).ok() == target)
            {
                return Err(CliError::input(format!(
                    "--output {}: this is one of the input files; write to another file",
                    path.display()
                )));
            }
            let file = std::fs::File::create(path).map_err(|e| {
                CliError::input(format!("--output {}: cannot create: {e}", path.display()))
            })?;
            let mut w = std::io::BufWriter::new(file);
            let c = pgn_cmd::format(&args.files, &resolver, &mut w, &mut err)?;
            w.flush()?;
            c
        }
    };
    Ok(if checked.unreadable {
        Outcome::Unreadable
    } else {
        Outcome::failed_if(checked.game_errors)
    })
}

fn run(cli: &Cli, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let outcome = match &cli.command {
        Command::Perft(args) => perft_cmd::run(args, out)?,
        Command::Moves(args) => moves_cmd::run(args, out)?,
        Command::Pgn(PgnCommand::Check(args)) => pgn_check(args, out)?,
        Command::Pgn(PgnCommand::Format(args)) => pgn_format(args, out)?,
        Command::Games(args) => games_cmd::run(args, out)?,
        Command::Validate(args) => validate_cmd::run(args, out)?,
        Command::Rules(args) => rules_cmd::run(args, out)?,
        Command::Modifiers(args) => modifiers_cmd::list(args, out)?,
        Command::Play(args) => modifiers_cmd::play(args, out)?,
        Command::State(args) => state_cmd::run(args, out)?,
        Command::Serve(args) => serve_cmd::run(args, out)?,
        Command::Backup(args) => ops_cmd::backup(args, out)?,
        Command::Export(args) => ops_cmd::export(args, out)?,
        Command::Loadtest(args) => loadtest_cmd::run(args, out)?,
        // Run by `main` without the standard output lock.
        Command::Uci(args) => uci_cmd::run(args)?,
        Command::Match(args) => match_cmd::run(args, out)?,
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
    // `serve --config FILE`: the file's settings become the environment's
    // defaults before clap reads the command line (serve_cmd.rs).
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Err(e) = serve_cmd::apply_config_file(&args) {
        reportln!("error: {e}");
        return ExitCode::from(e.exit_code());
    }
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    if let Command::Uci(args) = &cli.command {
        // The UCI session writes from its search thread too, so this
        // thread must not hold the standard output's lock (it would
        // block every `info` and `bestmove` line).
        return match uci_cmd::run(args) {
            Ok(outcome) => ExitCode::from(outcome.exit_code()),
            Err(e) => {
                reportln!("error: {e}");
                ExitCode::from(e.exit_code())
            }
        };
    }
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
