//! `houserules perft`: leaf counts of the legal-move tree (perft), for one
//! position or for every position of a suite file.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use houserules_engine::suite;
use houserules_engine::{Game, Move};
use serde::Serialize;

/// The most worker threads `--threads` accepts: far above the cores of
/// any machine this runs on, and low enough that a typo (`--threads
/// 100000`) is refused rather than spawning that many threads.
const MAX_THREADS: i64 = 256;

use crate::error::{CliError, Outcome};
use crate::parallel;
use crate::position::PositionArgs;
use crate::progress;

/// The deepest perft accepted (far beyond anything that finishes).
pub const MAX_DEPTH: u32 = 64;

/// How long a single perft runs before its progress bar appears.
const BAR_DELAY: Duration = Duration::from_secs(1);

const EXAMPLES: &str = "\
Examples:
  houserules perft --depth 6
  houserules perft --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' --depth 3 --divide
  houserules perft --depth 5 --json
  houserules perft --suite ../shared/data/perft/tricky.perft --max-nodes 1000000
  houserules perft --suite ../shared/data/perft/standard.epd --max-nodes 100000 --json
  houserules perft --game capablanca --depth 3
  houserules perft --rules suicide-chess --depth 4
  houserules perft --rules dual-king --layout dual-classic --depth 3
  houserules perft --layout chess960:518 --depth 4
  houserules perft --rules suicide-chess --suite ../shared/data/perft/antichess.perft

Exit status: 0 when every count matches, 1 when a suite count does not,
2 on bad input (a bad FEN, a missing file, a malformed suite line).";

/// Options of `houserules perft`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,

    #[command(flatten)]
    fen_style: crate::position::FenStyleArg,

    /// Depth in plies: count the move sequences of exactly this length
    /// (required unless --suite)
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "suite",
        value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64),
    )]
    depth: Option<u32>,

    /// Also print every root move (in UCI) with the count below it
    #[arg(long)]
    divide: bool,

    /// Play every move of the last ply instead of counting them in bulk
    /// (slower; the counts are the same)
    #[arg(long)]
    no_bulk: bool,

    /// Run every position of a suite file instead: `.perft` (`id`, `epd`,
    /// `perft DEPTH NODES` lines) or `.epd` (`FEN ;D1 n ;D2 n`)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "state", "play", "depth", "divide"])]
    suite: Option<PathBuf>,

    /// With --suite: check only the depths whose expected count is at most
    /// N nodes; 0 means no limit, as for HOUSERULES_PERFT_MAX_NODES
    /// [default: no limit]
    // `conflicts_with`: clap lets `requires = "suite"` pass when --depth
    // (which --suite conflicts with) is given, so --max-nodes was ignored.
    #[arg(long, value_name = "N", requires = "suite", conflicts_with = "depth")]
    max_nodes: Option<u64>,

    /// Worker threads, 1 to 256 [default: the number of CPUs]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    threads: Option<u16>,

    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

/// Runs `houserules perft`.
///
/// # Errors
/// [`CliError`] on bad input or when the output cannot be written.
pub fn run(args: &PerftArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let threads = args
        .threads
        .map_or_else(parallel::default_threads, usize::from);
    let bulk = !args.no_bulk;
    if let Some(list) = &args.position.variant.modifiers {
        if args.suite.is_some() {
            return Err(CliError::input(
                "--modifiers cannot be used with --suite (a suite's counts are for its FEN's rules)",
            ));
        }
        return run_session(args, list, bulk, out);
    }
    match &args.suite {
        Some(path) => run_suite(args, path, bulk, threads, out),
        None => run_single(args, bulk, threads, out),
    }
}

/// The JSON report of a single perft.
#[derive(Serialize)]
struct PerftReport<'a> {
    fen: &'a str,
    depth: u32,
    bulk: bool,
    nodes: u64,
    seconds: f64,
    nps: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<&'a BTreeMap<String, u64>>,
    /// With --modifiers: what the count does not enumerate.
    #[serde(skip_serializing_if = "Option::is_none")]
    notes: Option<Vec<String>>,
}

/// Perft under modifiers: the modifier session's tree (crate::ruleset),
/// one thread.
fn run_session(
    args: &PerftArgs,
    list: &str,
    bulk: bool,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let mut s =
        crate::ruleset::session(&args.position.variant, args.position.fen.as_deref(), list)?;
    if let Some(moves) = &args.position.play {
        crate::movelist::play_session(&mut s, moves)?;
    }
    let depth = args.depth.unwrap_or(0);
    if args.divide && depth == 0 {
        return Err(CliError::input("--divide needs --depth 1 or more"));
    }
    let start = Instant::now();
    let mut total = crate::ruleset::Count::default();
    let mut divide = BTreeMap::new();
    if depth == 0 {
        total.nodes = 1;
    } else {
        for m in s.legal_moves_uci() {
            let Some(c) = crate::ruleset::after(&s, &m) else {
                continue;
            };
            let n = crate::ruleset::below(&s, &c, depth - 1, bulk);
            divide.insert(m, n.nodes);
            total += n;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 {
        (total.nodes as f64 / seconds) as u64
    } else {
        0
    };
    let notes = crate::ruleset::notes(&s, &total);
    if args.json {
        let fen = s.game().fen();
        let report = PerftReport {
            fen: &fen,
            depth,
            bulk,
            nodes: total.nodes,
            seconds,
            nps,
            divide: args.divide.then_some(&divide),
            notes: Some(notes),
        };
        writeln!(out, "{}", to_json(&report))?;
    } else {
        if args.divide {
            for (uci, n) in &divide {
                writeln!(out, "{uci}: {n}")?;
            }
            writeln!(out)?;
        }
        writeln!(out, "Nodes: {}", total.nodes)?;
        writeln!(out, "Time: {seconds:.3} s ({nps} nodes/s)")?;
        for n in notes {
            writeln!(out, "note: {n}")?;
        }
    }
    Ok(Outcome::Success)
}

fn run_single(
    args: &PerftArgs,
    bulk: bool,
    threads: usize,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let game = args.position.game()?;
    let depth = args.depth.unwrap_or(0);
    if args.divide && depth == 0 {
        return Err(CliError::input("--divide needs --depth 1 or more"));
    }
    let start = Instant::now();
    let per_move = if depth == 0 {
        Vec::new()
    } else {
        perft_by_root_move(&game, depth, bulk, threads)
    };
    let nodes = if depth == 0 {
        game.perft(0, bulk)
    } else {
        per_move.iter().map(|(_, n)| n).sum()
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    };
    let divide: Option<BTreeMap<String, u64>> = args
        .divide
        .then(|| per_move.iter().map(|&(m, n)| (game.uci(m), n)).collect());

    if args.json {
        let fen = args.fen_style.fen_style.fen(&game);
        let report = PerftReport {
            fen: &fen,
            depth,
            bulk,
            nodes,
            seconds,
            nps,
            divide: divide.as_ref(),
            notes: None,
        };
        writeln!(out, "{}", to_json(&report))?;
    } else {
        if let Some(divide) = &divide {
            for (uci, n) in divide {
                writeln!(out, "{uci}: {n}")?;
            }
            writeln!(out)?;
        }
        writeln!(out, "Nodes: {nodes}")?;
        writeln!(out, "Time: {seconds:.3} s ({nps} nodes/s)")?;
    }
    Ok(Outcome::Success)
}

/// Perft below each root move, the root moves shared among `threads`
/// threads, with a progress bar over root moves for long runs.
fn perft_by_root_move(game: &Game, depth: u32, bulk: bool, threads: usize) -> Vec<(Move, u64)> {
    let moves = game.legal_moves();
    let mut counts = vec![0; moves.len()];
    progress::with_bar(moves.len() as u64, "root moves", BAR_DELAY, |bar| {
        let below = |&m: &Move| {
            let mut child = game.clone();
            child.apply(m).expect("a generated move is legal");
            child.perft(depth - 1, bulk)
        };
        parallel::for_each(&moves, threads, below, |i, n| {
            counts[i] = n;
            bar.inc(1);
        });
    });
    moves.into_iter().zip(counts).collect()
}

/// A position of a suite, checked.
struct Job {
    id: String,
    line: usize,
    fen: String,
    game: Game,
    /// The `(depth, expected, line)` triples to check (within
    /// `--max-nodes`); `line` is the count's own line (its `perft` line in
    /// a `.perft` file).
    checks: Vec<(u32, u64, usize)>,
}

/// A count that differs from the suite's.
#[derive(Serialize)]
struct Mismatch<'a> {
    id: &'a str,
    /// The wrong count's line (its `perft` line in a `.perft` file).
    line: usize,
    /// The position's line (its `epd` line).
    position_line: usize,
    fen: &'a str,
    depth: u32,
    expected: u64,
    got: u64,
}

/// The JSON report of a suite run.
#[derive(Serialize)]
struct SuiteReport<'a> {
    file: String,
    positions: usize,
    passed: usize,
    failed: usize,
    skipped: usize,
    counts_checked: usize,
    nodes: u64,
    seconds: f64,
    nps: u64,
    mismatches: Vec<Mismatch<'a>>,
}

/// Reads and checks a suite file: every FEN must be valid before anything
/// runs.
fn load_suite(args: &PerftArgs, path: &Path) -> Result<Vec<Job>, CliError> {
    let shown = path.display();
    // Suites are text of a few MiB (random.perft is 1 MiB); 64 MiB at most.
    let text = crate::error::read_text_limited(path, 64 << 20)
        .map_err(|e| CliError::input(format!("cannot read suite file {shown}: {e}")))?;
    let entries = suite::parse(&text).map_err(|e| CliError::input(format!("{shown}: {e}")))?;
    if entries.is_empty() {
        return Err(CliError::input(format!(
            "{shown}: no positions (expected `id`/`epd`/`perft` lines or `FEN ;D1 n` lines)"
        )));
    }
    let variant = args.position.chosen()?.variant;
    entries
        .into_iter()
        .map(|e| {
            let game = Game::from_fen(variant.clone(), &e.fen)
                .map(|mut g| {
                    // Suites mix standard and Chess960 positions without
                    // saying which: a position whose castling rights
                    // standard castling would drop is Chess960, as
                    // shakmaty's `CastlingMode::detect` decides.
                    g.detect_chess960();
                    g
                })
                .map_err(|err| {
                    CliError::input(format!("{shown}: line {} (id {}): {err}", e.line, e.id))
                })?;
            // The count's own line (a `perft` line of a `.perft` file), not
            // the position's.
            if let Some(i) = e.counts.iter().position(|&(d, _)| d > MAX_DEPTH) {
                let line = e.count_lines.get(i).copied().unwrap_or(e.line);
                return Err(CliError::input(format!(
                    "{shown}: line {line} (id {}, position on line {}): depth {} is deeper than {MAX_DEPTH}",
                    e.id, e.line, e.counts[i].0
                )));
            }
            // 0 is no limit, as for HOUSERULES_PERFT_MAX_NODES (README).
            let max = args.max_nodes.filter(|&m| m > 0).unwrap_or(u64::MAX);
            let checks = e
                .counts
                .iter()
                .zip(&e.count_lines)
                .map(|(&(d, n), &l)| (d, n, l))
                .filter(|&(_, n, _)| n <= max)
                .collect();
            Ok(Job {
                id: e.id,
                line: e.line,
                fen: e.fen,
                game,
                checks,
            })
        })
        .collect()
}

fn run_suite(
    args: &PerftArgs,
    path: &Path,
    bulk: bool,
    threads: usize,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let jobs = load_suite(args, path)?;
    let start = Instant::now();
    // Results arrive in completion order; they are reported in file order.
    let mut results: Vec<Option<Vec<u64>>> = vec![None; jobs.len()];
    let mut reported = 0;
    let mut mismatches = Vec::new();
    let mut failed_positions = 0;
    let mut write_error = None;
    progress::with_bar(jobs.len() as u64, "positions", Duration::ZERO, |bar| {
        let work = |job: &Job| {
            job.checks
                .iter()
                .map(|&(d, _, _)| job.game.perft(d, bulk))
                .collect::<Vec<u64>>()
        };
        parallel::for_each(&jobs, threads, work, |i, got| {
            results[i] = Some(got);
            bar.inc(1);
            while let Some(Some(got)) = results.get(reported) {
                let job = &jobs[reported];
                let before = mismatches.len();
                for (&(depth, expected, line), &got) in job.checks.iter().zip(got) {
                    if got != expected {
                        mismatches.push(Mismatch {
                            id: &job.id,
                            line,
                            position_line: job.line,
                            fen: &job.fen,
                            depth,
                            expected,
                            got,
                        });
                    }
                }
                if mismatches.len() > before {
                    failed_positions += 1;
                    bar.set_message(format!("({failed_positions} failed)"));
                    if !args.json && write_error.is_none() {
                        let shown = path.display();
                        let r = bar.suspend(|| {
                            mismatches[before..].iter().try_for_each(|m| {
                                // A position without an `id` is named by
                                // its line, which `file:line` already says.
                                let id = if m.id == format!("line {}", m.position_line) {
                                    String::new()
                                } else {
                                    format!("{}: ", m.id)
                                };
                                writeln!(
                                    out,
                                    "{shown}:{}: {id}depth {}: expected {}, got {} (FEN {})",
                                    m.line, m.depth, m.expected, m.got, m.fen
                                )
                            })
                        });
                        write_error = r.err();
                    }
                }
                reported += 1;
            }
        });
    });
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let seconds = start.elapsed().as_secs_f64();
    let skipped = jobs.iter().filter(|j| j.checks.is_empty()).count();
    let counts_checked: usize = jobs.iter().map(|j| j.checks.len()).sum();
    let nodes: u64 = results.iter().flatten().flatten().sum();
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    };
    let passed = jobs.len() - skipped - failed_positions;

    if args.json {
        let report = SuiteReport {
            file: path.display().to_string(),
            positions: jobs.len(),
            passed,
            failed: failed_positions,
            skipped,
            counts_checked,
            nodes,
            seconds,
            nps,
            mismatches,
        };
        writeln!(out, "{}", to_json(&report))?;
    } else {
        write!(out, "{passed} passed, {failed_positions} failed")?;
        if skipped > 0 {
            let why = match args.max_nodes {
                Some(max) if max > 0 => format!("no count within --max-nodes {max}"),
                _ => "no counts".to_string(),
            };
            write!(out, ", {skipped} skipped ({why})")?;
        }
        writeln!(
            out,
            " [{counts_checked} counts, {nodes} nodes, {seconds:.2} s]"
        )?;
    }
    Ok(Outcome::failed_if(failed_positions > 0))
}

/// Serialises a report made of strings and numbers (which cannot fail).
fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("reports serialise")
}
