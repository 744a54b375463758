//! `houserules match`: games between two engines under any rule set, with
//! the rules engine as referee. An engine is one of our levels (searched
//! in this process) or an external UCI engine (a command line, e.g.
//! `/usr/games/stockfish`). Colours alternate; every opening (from a file
//! or random plies) is played once with each colour. The games are
//! written as PGN (the houserules PGN writer, with the rule-set tags) and
//! the score is printed with W/D/L, the Elo difference and its 95 %
//! margin.
//!
//! Adjudication, as chess GUIs do it: a draw that could be claimed
//! (threefold repetition, the 50-move rule) ends the game as a draw, and
//! so does `--max-plies`; an illegal or missing move, a crashed engine or
//! an overstepped clock loses.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use clap::Args;
use houserules_engine::{Color, Game, Status};
use houserules_search::{Level, Limits, Objective, Searcher};

use crate::error::{CliError, Outcome};
use crate::pgn_out::{self, RuleTags};
use crate::position::VariantArgs;

/// Options of `houserules match`.
#[derive(Debug, Args)]
#[command(after_help = "\
An engine is `level:N` (our engine at level 1-8, in this process) or the
command line of a UCI engine. Options of an external engine are given as
NAME=VALUE with --option1/--option2. With --modifiers, `level:N:mcts` or
`level:N:alphabeta` picks the session search of that side (Monte-Carlo
tree search or expectimax alpha-beta); `level:N` or `level:N:auto` takes
the choice made per rule set (docs/engine.md).

Examples:
  houserules match level:8 level:1 --games 10 --depth 3 --seed 1
  houserules match level:8 /usr/games/stockfish --option2 UCI_LimitStrength=true \\
      --option2 UCI_Elo=1500 --games 20 --tc 10+0.1 --pgn games.pgn
  houserules match level:6 level:3 --rules piece-hp --games 20 --random-plies 4
  houserules match level:8:mcts level:8:alphabeta --modifiers kamikaze \
      --nodes 4000 --games 20 --random-plies 4")]
pub struct MatchArgs {
    /// The first engine: `level:N` or a UCI engine's command line. With
    /// --modifiers, `level:N:mcts` or `level:N:alphabeta` picks the session
    /// search (`level:N` or `level:N:auto`: the choice per rule set)
    #[arg(value_name = "ENGINE1")]
    pub engine1: String,

    /// The second engine: `level:N` or a UCI engine's command line. With
    /// --modifiers, `level:N:mcts` or `level:N:alphabeta` picks the session
    /// search (`level:N` or `level:N:auto`: the choice per rule set)
    #[arg(value_name = "ENGINE2")]
    pub engine2: String,

    /// Number of games (ENGINE1 has White in the odd-numbered ones)
    #[arg(long, default_value_t = 2)]
    pub games: u32,

    /// Time control: SECONDS[+INCREMENT] per game and side, e.g. `10+0.1`
    /// [default when no --depth, --nodes or --movetime: 10+0.1]
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,

    /// Fixed depth per move (instead of a clock)
    #[arg(long)]
    pub depth: Option<u32>,

    /// Fixed node count per move (instead of a clock)
    #[arg(long)]
    pub nodes: Option<u64>,

    /// Fixed time per move in milliseconds (instead of a clock)
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,

    /// Opening positions: a file with one FEN (or EPD) per line; `#`
    /// starts a comment. Each is played twice, colours swapped
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Random legal plies from the start position as the opening (seeded
    /// by --seed; each opening is played twice, colours swapped)
    #[arg(long, default_value_t = 0)]
    pub random_plies: u32,

    /// Seed of the random openings and of the low levels' randomness
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// A game still going after this many plies is adjudicated a draw
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,

    /// Start no new game after this many seconds of the match
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<u64>,

    /// Time an engine may overstep its clock before it loses on time
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub time_margin: u64,

    /// The PGN file to write the games to
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,

    /// A UCI option of the first engine, `NAME=VALUE` (repeatable)
    #[arg(long = "option1", value_name = "NAME=VALUE")]
    pub option1: Vec<String>,

    /// A UCI option of the second engine, `NAME=VALUE` (repeatable)
    #[arg(long = "option2", value_name = "NAME=VALUE")]
    pub option2: Vec<String>,

    /// `UCI_Variant` sent to external engines [default: Fairy-Stockfish's name of the game (`losalamos`, `knightmate`) or its id
    /// when it is not FIDE chess or Chess960 (those get `UCI_Chess960`); `antichess` for `--rules suicide-chess`]
    #[arg(long, value_name = "NAME")]
    pub uci_variant: Option<String>,

    /// The rule set.
    #[command(flatten)]
    pub variant: VariantArgs,
}

/// How long each move may take.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Control {
    /// A clock per side: base time and increment.
    Clock { base: Duration, inc: Duration },
    /// Per-move limits (any of depth, nodes, movetime).
    PerMove {
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<Duration>,
    },
}

impl Control {
    fn from_args(a: &MatchArgs) -> Result<Control, CliError> {
        let per_move = a.depth.is_some() || a.nodes.is_some() || a.movetime.is_some();
        match (&a.tc, per_move) {
            (Some(_), true) => Err(CliError::input(
                "--tc and --depth/--nodes/--movetime exclude each other",
            )),
            (Some(tc), false) => parse_tc(tc),
            (None, true) => Ok(Control::PerMove {
                depth: a.depth,
                nodes: a.nodes,
                movetime: a.movetime.map(Duration::from_millis),
            }),
            (None, false) => parse_tc("10+0.1"),
        }
    }

    /// The PGN `TimeControl` tag value (PGN standard 9.6.1), `-` for
    /// per-move limits.
    pub(crate) fn tag(&self) -> String {
        match self {
            Control::Clock { base, inc } if inc.is_zero() => format!("{}", base.as_secs_f64()),
            Control::Clock { base, inc } => {
                format!("{}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
            Control::PerMove { .. } => "-".into(),
        }
    }
}

/// `SECONDS[+INCREMENT]`.
fn parse_tc(tc: &str) -> Result<Control, CliError> {
    let bad = || {
        CliError::input(format!(
            "--tc {tc:?}: expected SECONDS[+INCREMENT], e.g. 10+0.1"
        ))
    };
    let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
    let secs = |s: &str| -> Result<Duration, CliError> {
        let v: f64 = s.trim().parse().map_err(|_| bad())?;
        if !v.is_finite() || !(0.0..=86_400.0).contains(&v) {
            return Err(bad());
        }
        Ok(Duration::from_secs_f64(v))
    };
    let (base, inc) = (secs(base)?, secs(inc)?);
    if base.is_zero() {
        return Err(bad());
    }
    Ok(Control::Clock { base, inc })
}

/// The limits of one `go`: the clocks of both sides or the per-move ones.
pub(crate) fn limits(control: &Control, clocks: [Duration; 2]) -> Limits {
    match control {
        Control::Clock { inc, .. } => Limits {
            wtime: Some(clocks[0]),
            btime: Some(clocks[1]),
            winc: Some(*inc),
            binc: Some(*inc),
            ..Limits::default()
        },
        Control::PerMove {
            depth,
            nodes,
            movetime,
        } => Limits {
            depth: *depth,
            nodes: *nodes,
            movetime: *movetime,
            ..Limits::default()
        },
    }
}

/// Why an engine gave no usable move.
#[derive(Debug)]
enum Failure {
    /// No answer in time, or the engine's output ended.
    NoAnswer(String),
}

/// One side of the match.
trait Player {
    /// The name for the PGN and the report.
    fn name(&self) -> String;
    /// A new game starts.
    fn new_game(&mut self, seed: u64) -> Result<(), Failure>;
    /// The move (UCI) for `game`, whose start is `start` (FEN, `None`:
    /// the variant's own start position) and whose moves are `moves`.
    fn choose(
        &mut self,
        game: &Game,
        start: Option<&str>,
        moves: &[String],
        limits: &Limits,
        hard_deadline: Duration,
    ) -> Result<String, Failure>;
}

/// Our engine at a level, searched in this process.
struct Ours {
    level: Level,
    searcher: Searcher,
}

impl Player for Ours {
    fn name(&self) -> String {
        format!("houserules level {}", self.level.get())
    }

    fn new_game(&mut self, seed: u64) -> Result<(), Failure> {
        self.searcher.new_game();
        self.searcher.set_seed(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        game: &Game,
        _start: Option<&str>,
        _moves: &[String],
        limits: &Limits,
        _hard_deadline: Duration,
    ) -> Result<String, Failure> {
        let r = self
            .searcher
            .search(game, limits, &AtomicBool::new(false), |_| {});
        r.best
            .map(|m| game.uci(m))
            .ok_or_else(|| Failure::NoAnswer("no move found".into()))
    }
}

/// An external UCI engine over pipes.
struct External {
    argv: Vec<String>,
    options: Vec<(String, String)>,
    /// Options sent only to an engine that lists them in its `uci`
    /// answer: the rule set's `HouseRules` (houserules itself reads it;
    /// other engines would answer "no such option").
    if_listed: Vec<(String, String)>,
    name: String,
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    lines: Option<Receiver<String>>,
}

impl External {
    fn new(
        command: &str,
        options: Vec<(String, String)>,
        if_listed: Vec<(String, String)>,
    ) -> Result<External, CliError> {
        let argv: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if argv.is_empty() {
            return Err(CliError::input("an engine command is empty"));
        }
        let mut e = External {
            name: argv[0].rsplit('/').next().unwrap_or(&argv[0]).to_string(),
            argv,
            options,
            if_listed,
            child: None,
            stdin: None,
            lines: None,
        };
        e.start()
            .map_err(|Failure::NoAnswer(m)| CliError::input(format!("engine {command:?}: {m}")))?;
        Ok(e)
    }

    /// Starts the process and completes the `uci` handshake and options.
    fn start(&mut self) -> Result<(), Failure> {
        self.stop_process();
        let mut child = Command::new(&self.argv[0])
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure::NoAnswer(format!("cannot start: {e}")))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        self.stdin = child.stdin.take();
        self.child = Some(child);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.lines = Some(rx);
        self.send("uci")?;
        let ids = self.until("uciok", Duration::from_secs(10))?;
        if let Some(n) = ids.iter().find_map(|l| l.strip_prefix("id name ")) {
            self.name = n.trim().to_string();
        }
        for (name, value) in self.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        for (name, value) in self.if_listed.clone() {
            let listed = ids.iter().any(|l| {
                l.strip_prefix("option name ")
                    .is_some_and(|r| r.starts_with(&format!("{name} ")))
            });
            let given = self
                .options
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(&name));
            if listed && !given {
                self.send(&format!("setoption name {name} value {value}"))?;
            }
        }
        self.send("isready")?;
        self.until("readyok", Duration::from_secs(10))?;
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::NoAnswer("engine not running".into()))?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| Failure::NoAnswer(format!("cannot write to the engine: {e}")))
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, Failure> {
        let rx = self
            .lines
            .as_ref()
            .ok_or_else(|| Failure::NoAnswer("engine not running".into()))?;
        let end = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::NoAnswer(format!(
                        "no `{prefix}` within {:.1} s",
                        timeout.as_secs_f64()
                    )))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::NoAnswer(format!(
                        "the engine ended before `{prefix}`"
                    )))
                }
            }
        }
    }

    fn stop_process(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit");
        }
        if let Some(mut child) = self.child.take() {
            let end = Instant::now() + Duration::from_millis(500);
            while Instant::now() < end {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            if let Ok(None) = child.try_wait() {
                let _ = child.kill();
            }
            let _ = child.wait();
        }
        self.lines = None;
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.stop_process();
    }
}

impl Player for External {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, _seed: u64) -> Result<(), Failure> {
        if self.child.is_none() {
            self.start()?;
        }
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.until("readyok", Duration::from_secs(10)).map(|_| ())
    }

    fn choose(
        &mut self,
        _game: &Game,
        start: Option<&str>,
        moves: &[String],
        limits: &Limits,
        hard_deadline: Duration,
    ) -> Result<String, Failure> {
        let mut pos = match start {
            None => "position startpos".to_string(),
            Some(fen) => format!("position fen {fen}"),
        };
        if !moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&moves.join(" "));
        }
        self.send(&pos)?;
        self.send(&go_command(limits))?;
        let answer = self.until("bestmove", hard_deadline);
        let lines = match answer {
            Ok(l) => l,
            Err(e) => {
                // A hung or dead engine is restarted for the next game.
                self.stop_process();
                return Err(e);
            }
        };
        let last = lines.last().map(String::as_str).unwrap_or("");
        Ok(last.split_whitespace().nth(1).unwrap_or("").to_string())
    }
}

/// The `go` command of `limits`.
fn go_command(l: &Limits) -> String {
    let mut go = String::from("go");
    let ms = |d: Duration| d.as_millis();
    if let (Some(w), Some(b)) = (l.wtime, l.btime) {
        go.push_str(&format!(" wtime {} btime {}", ms(w), ms(b)));
        go.push_str(&format!(
            " winc {} binc {}",
            ms(l.winc.unwrap_or_default()),
            ms(l.binc.unwrap_or_default())
        ));
    }
    if let Some(d) = l.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = l.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if let Some(t) = l.movetime {
        go.push_str(&format!(" movetime {}", ms(t)));
    }
    go
}

/// `NAME=VALUE` options.
fn parse_options(list: &[String], which: &str) -> Result<Vec<(String, String)>, CliError> {
    list.iter()
        .map(|o| {
            o.split_once('=')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                .filter(|(n, _)| !n.is_empty())
                .ok_or_else(|| CliError::input(format!("--{which} {o:?}: expected NAME=VALUE")))
        })
        .collect()
}

/// An engine from its command-line spelling.
fn player(
    spec: &str,
    options: Vec<(String, String)>,
    objective: Objective,
    hit_points: Option<Vec<u8>>,
    if_listed: Vec<(String, String)>,
    which: &str,
) -> Result<Box<dyn Player>, CliError> {
    if let Some(level) = level_of(spec, which)? {
        if !options.is_empty() {
            return Err(CliError::input(format!(
                "--option{} is for external engines; {spec} takes none",
                &which[which.len() - 1..]
            )));
        }
        let mut searcher = Searcher::new(16);
        searcher.set_level(Level::new(level));
        searcher.set_objective(objective);
        searcher.set_hit_points(hit_points);
        return Ok(Box::new(Ours {
            level: Level::new(level),
            searcher,
        }));
    }
    Ok(Box::new(External::new(spec, options, if_listed)?))
}

/// The level of an engine given as `level:N`, `None` for an external
/// engine's command line.
///
/// # Errors
/// [`CliError::Input`] when N is not 1 to 8.
pub(crate) fn level_of(spec: &str, which: &str) -> Result<Option<u8>, CliError> {
    let Some(n) = spec.strip_prefix("level:") else {
        return Ok(None);
    };
    n.parse::<u8>()
        .ok()
        .filter(|l| (1..=8).contains(l))
        .map(Some)
        .ok_or_else(|| CliError::input(format!("{which} {spec:?}: the level must be 1 to 8")))
}

/// A small deterministic generator (splitmix64) for random openings.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// An opening: a start FEN (`None`: the game's own) and moves (UCI).
#[derive(Clone, Debug)]
struct Opening {
    fen: Option<String>,
    moves: Vec<String>,
}

/// The FENs of an openings file: one per line, EPD accepted (its first
/// four fields, with `0 1` added), `#` comments and blank lines skipped.
fn read_openings(path: &PathBuf, base: &Game) -> Result<Vec<Opening>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("--openings {}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else if fields.len() >= 4 {
            format!("{} 0 1", fields[..4].join(" "))
        } else {
            line.to_string()
        };
        Game::from_fen(base.variant().clone(), &fen).map_err(|e| {
            CliError::input(format!("--openings {} line {}: {e}", path.display(), i + 1))
        })?;
        out.push(Opening {
            fen: Some(fen),
            moves: Vec::new(),
        });
    }
    if out.is_empty() {
        return Err(CliError::input(format!(
            "--openings {}: no position in the file",
            path.display()
        )));
    }
    Ok(out)
}

/// `plies` random legal moves from `start`, not ending the game.
fn random_opening(start: &Game, plies: u32, rng: &mut Rng) -> Opening {
    'retry: for _ in 0..100 {
        let mut g = start.clone();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = g.legal_moves();
            if legal.is_empty() {
                continue 'retry;
            }
            let m = legal[(rng.next() % legal.len() as u64) as usize];
            moves.push(g.uci(m));
            if g.apply(m).is_err() || g.status() != Status::Ongoing {
                continue 'retry;
            }
        }
        return Opening { fen: None, moves };
    }
    Opening {
        fen: None,
        moves: Vec::new(),
    }
}

/// The end of one game.
struct Played {
    result: &'static str,
    termination: String,
    pgn: houserules_pgn::PgnGame,
}

/// The score of a match from the first engine's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins of the first engine.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses of the first engine.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction (win 1, draw ½).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// The Elo difference of the logistic model, `-400·log10(1/s − 1)`,
    /// and its 95 % margin: half the distance between the Elo values of
    /// `s ± 1.96·σ/√n`, σ the standard deviation of the game scores
    /// (the method of cutechess-cli); infinite when a bound leaves
    /// (0, 1). `None` when the score is 0 or 1 (the difference is
    /// unbounded) or no game was played.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        let s = self.score();
        if self.games() == 0 || s <= 0.0 || s >= 1.0 {
            return None;
        }
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let dev = 1.96 * var.sqrt() / n.sqrt();
        let elo = |p: f64| -400.0 * (1.0 / p - 1.0).log10();
        // A bound outside (0, 1) has no Elo value: the margin is unbounded.
        let margin = if s + dev >= 1.0 || s - dev <= 0.0 {
            f64::INFINITY
        } else {
            (elo(s + dev) - elo(s - dev)) / 2.0
        };
        // `+ 0.0` turns −0 into 0 for printing.
        Some((elo(s) + 0.0, margin))
    }
}

/// The `UCI_Variant` for external engines: `--uci-variant`, else
/// `antichess` for `--rules suicide-chess`, else Fairy-Stockfish's name of
/// the game (the first name of [`houserules_pgn::export::GAME_NAMES`]:
/// `losalamos` for `los-alamos`, `knightmate` for `knightmate-classic`),
/// else the game's id; `None` for FIDE chess and Chess960, which UCI
/// selects with `UCI_Chess960` ([`chess960_of`]).
fn uci_variant_of(args: &MatchArgs, game: &Game) -> Option<String> {
    if let Some(v) = &args.uci_variant {
        return Some(v.clone());
    }
    if args.variant.rules.as_deref().map(str::trim) == Some("suicide-chess") {
        return Some("antichess".into());
    }
    let id = &game.variant().definition().id;
    let id = id.split('+').next().unwrap_or(id);
    if id == "chess" || id == "chess960" {
        return None;
    }
    let fsf = houserules_pgn::export::GAME_NAMES
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, names)| names[0]);
    Some(fsf.unwrap_or(id).to_string())
}

/// Whether external engines are told `UCI_Chess960 true`: the game
/// castles as Chess960 (the UCI protocol's option for it; Stockfish and
/// Fairy-Stockfish both read it).
fn chess960_of(game: &Game) -> bool {
    game.is_chess960()
}

/// Runs `houserules match`.
///
/// # Errors
/// [`CliError::Input`] for bad options, an engine that cannot be started
/// or does not complete the UCI handshake, an unreadable openings file,
/// or a PGN file that cannot be written.
pub fn run(args: &MatchArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    if args.games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    let control = Control::from_args(args)?;
    // A PGN path that cannot be written is refused before the first game,
    // not after the last (the games would be lost). An existing file is
    // opened without truncating it (a match that fails on another option
    // must not empty an earlier match's record); a new one is created and
    // removed again.
    if let Some(path) = &args.pgn {
        let existed = path.exists();
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| CliError::input(format!("--pgn {}: cannot write: {e}", path.display())))?;
        if !existed {
            let _ = std::fs::remove_file(path);
        }
    }
    if let Some(list) = &args.variant.modifiers {
        return crate::match_session::run(args, list, &control, out);
    }
    let chosen = args.variant.choose()?;
    let base = Game::from_fen(chosen.variant.clone(), &chosen.start_fen)
        .map_err(|e| CliError::input(format!("the rule set's start position: {e}")))?;
    let own_fen = chosen.variant.definition().start_fen.clone();
    let rules = args.variant.rules.clone().unwrap_or_default();
    let objective = Objective::from_rules(&rules);
    let uci_variant = uci_variant_of(args, &base);
    let hp = crate::uci_cmd::hit_points(&rules, &base);
    let mut opts = [
        parse_options(&args.option1, "option1")?,
        parse_options(&args.option2, "option2")?,
    ];
    for (o, spec) in opts.iter_mut().zip([&args.engine1, &args.engine2]) {
        if spec.starts_with("level:") {
            continue;
        }
        if let Some(v) = &uci_variant {
            if !o.iter().any(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant")) {
                o.insert(0, ("UCI_Variant".into(), v.clone()));
            }
        }
        if chess960_of(&base)
            && !o
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("UCI_Chess960"))
        {
            o.insert(0, ("UCI_Chess960".into(), "true".into()));
        }
    }
    let [o1, o2] = opts;
    // An engine that reads `HouseRules` (houserules itself) is told the
    // presets, unless `UCI_Variant antichess` already says them.
    let if_listed: Vec<(String, String)> =
        if rules.trim().is_empty() || uci_variant.as_deref() == Some("antichess") {
            Vec::new()
        } else {
            vec![("HouseRules".into(), rules.clone())]
        };
    let mut players = [
        player(
            &args.engine1,
            o1,
            objective,
            hp.clone(),
            if_listed.clone(),
            "ENGINE1",
        )?,
        player(&args.engine2, o2, objective, hp, if_listed, "ENGINE2")?,
    ];
    let names = [players[0].name(), players[1].name()];
    let openings: Vec<Opening> = match &args.openings {
        Some(path) => read_openings(path, &base)?,
        None => Vec::new(),
    };
    let mut rng = Rng(args.seed ^ 0x5EED);
    let mut random = Vec::new();
    let tags = RuleTags::of_game(&base, &rules);
    let mut board = Scoreboard::new(names);
    for i in 0..args.games {
        if board.time_up(i, args, out)? {
            break;
        }
        let pair = (i / 2) as usize;
        let opening = if !openings.is_empty() {
            openings[pair % openings.len()].clone()
        } else if args.random_plies > 0 {
            while random.len() <= pair {
                random.push(random_opening(&base, args.random_plies, &mut rng));
            }
            random[pair].clone()
        } else {
            Opening {
                fen: None,
                moves: Vec::new(),
            }
        };
        // Game i: ENGINE1 has White when i is even.
        let white = (i % 2) as usize;
        let seed = args.seed.wrapping_add(u64::from(i));
        let played = play_game(
            &mut players,
            white,
            &base,
            &own_fen,
            &opening,
            &control,
            args,
            seed,
            &tags,
        )?;
        let plies = played.pgn.mainline.moves.len();
        board.record(
            out,
            args,
            control.tag(),
            i,
            white,
            played.pgn,
            played.result,
            &played.termination,
            &format!("{plies} plies"),
        )?;
    }
    board.finish(out, args)?;
    Ok(Outcome::Success)
}

/// The games of a match so far: their PGN, the score and the clock of
/// the whole match (shared by `match` and `match --modifiers`).
pub(crate) struct Scoreboard {
    names: [String; 2],
    tally: Tally,
    pgn_text: String,
    start: Instant,
}

impl Scoreboard {
    /// An empty board for engines `names` (ENGINE1, ENGINE2).
    pub(crate) fn new(names: [String; 2]) -> Scoreboard {
        Scoreboard {
            names,
            tally: Tally::default(),
            pgn_text: String::new(),
            start: Instant::now(),
        }
    }

    /// Whether `--max-time` has passed before game `i` (said on `out`).
    pub(crate) fn time_up(
        &self,
        i: u32,
        args: &MatchArgs,
        out: &mut dyn Write,
    ) -> Result<bool, CliError> {
        let up = args
            .max_time
            .is_some_and(|t| self.start.elapsed() >= Duration::from_secs(t));
        if up {
            writeln!(
                out,
                "--max-time reached: {} of {} games played",
                i, args.games
            )?;
        }
        Ok(up)
    }

    /// Adds game `i` (ENGINE1 had White when `white` is 0): its PGN with
    /// the match's tags, the score, and a report line ending with `detail`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record(
        &mut self,
        out: &mut dyn Write,
        args: &MatchArgs,
        time_control: String,
        i: u32,
        white: usize,
        mut pgn: houserules_pgn::PgnGame,
        result: &str,
        termination: &str,
        detail: &str,
    ) -> Result<(), CliError> {
        let names = &self.names;
        pgn.set_tag("Event", "houserules match");
        pgn.set_tag("Round", (i + 1).to_string());
        pgn.set_tag("White", names[white].as_str());
        pgn.set_tag("Black", names[1 - white].as_str());
        pgn.set_tag("TimeControl", time_control);
        // The tag takes the standard's word (PGN standard 9.8.1), the
        // report line the detail.
        let word = termination.split(':').next().unwrap_or("normal");
        pgn.set_tag("Termination", word);
        self.pgn_text.push_str(&houserules_pgn::write_pgn(&pgn));
        match (result, white) {
            ("1-0", 0) | ("0-1", 1) => self.tally.wins += 1,
            ("1-0", 1) | ("0-1", 0) => self.tally.losses += 1,
            _ => self.tally.draws += 1,
        }
        writeln!(
            out,
            "game {}/{}: {} - {}: {result} ({termination}), {detail}",
            i + 1,
            args.games,
            names[white],
            names[1 - white],
        )?;
        out.flush()?;
        Ok(())
    }

    /// Writes the PGN file and prints the score ([`report()`]).
    pub(crate) fn finish(&self, out: &mut dyn Write, args: &MatchArgs) -> Result<(), CliError> {
        report(
            out,
            args,
            &self.names,
            &self.tally,
            &self.pgn_text,
            self.start,
        )
    }
}

/// Writes the PGN file and prints the match's score, Elo difference and
/// W/D/L from the first engine's side.
fn report(
    out: &mut dyn Write,
    args: &MatchArgs,
    names: &[String; 2],
    tally: &Tally,
    pgn_text: &str,
    match_start: Instant,
) -> Result<(), CliError> {
    if let Some(path) = &args.pgn {
        std::fs::write(path, pgn_text)
            .map_err(|e| CliError::input(format!("--pgn {}: cannot write: {e}", path.display())))?;
    }
    writeln!(
        out,
        "Score of {} vs {}: {} - {} - {} [{:.3}] {}",
        names[0],
        names[1],
        tally.wins,
        tally.losses,
        tally.draws,
        tally.score(),
        tally.games()
    )?;
    match tally.elo() {
        Some((elo, margin)) if margin.is_finite() => {
            writeln!(out, "Elo difference: {elo:.1} +/- {margin:.1} (95%)")?
        }
        Some((elo, _)) => writeln!(
            out,
            "Elo difference: {elo:.1} +/- unbounded (95%; play more games)"
        )?,
        None => writeln!(
            out,
            "Elo difference: unbounded (score {:.3}; play more games)",
            tally.score()
        )?,
    }
    writeln!(
        out,
        "W/D/L: {}/{}/{} (from {}'s side), {:.0} s",
        tally.wins,
        tally.draws,
        tally.losses,
        names[0],
        match_start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// Plays one game; `white` is the index of the player with White.
#[allow(clippy::too_many_arguments)]
fn play_game(
    players: &mut [Box<dyn Player>; 2],
    white: usize,
    base: &Game,
    own_fen: &str,
    opening: &Opening,
    control: &Control,
    args: &MatchArgs,
    seed: u64,
    tags: &RuleTags,
) -> Result<Played, CliError> {
    let mut game = match &opening.fen {
        Some(fen) => Game::from_fen(base.variant().clone(), fen)
            .map_err(|e| CliError::input(format!("opening {fen}: {e}")))?,
        None => base.clone(),
    };
    let start_fen = game.fen();
    // The position sent to external engines: `startpos` for the game's
    // own start position, else its FEN.
    let start_arg = (start_fen != own_fen).then(|| start_fen.clone());
    let mut moves: Vec<String> = Vec::new();
    let mut sans: Vec<String> = Vec::new();
    for m in &opening.moves {
        let mv = game
            .parse_uci(m)
            .map_err(|e| CliError::input(format!("opening move {m}: {e}")))?;
        sans.push(game.san(mv));
        game.apply(mv)
            .map_err(|e| CliError::input(format!("opening move {m}: {e}")))?;
        moves.push(m.clone());
    }
    let side = |c: Color| if c == Color::White { white } else { 1 - white };
    let (mut clocks, inc) = match control {
        Control::Clock { base, inc } => ([*base; 2], *inc),
        Control::PerMove { .. } => ([Duration::ZERO; 2], Duration::ZERO),
    };
    let margin = Duration::from_millis(args.time_margin);
    let mut failed: Option<(Color, String)> = None;
    for (k, p) in players.iter_mut().enumerate() {
        let color = if k == white {
            Color::White
        } else {
            Color::Black
        };
        if let Err(Failure::NoAnswer(e)) = p.new_game(seed) {
            failed = Some((color, format!("abandoned: {e}")));
        }
    }
    let (result, termination) = loop {
        if let Some((loser, why)) = failed.take() {
            let r = if loser == Color::White { "0-1" } else { "1-0" };
            break (r, why);
        }
        let status = game.status();
        if status != Status::Ongoing {
            break (pgn_out::result_of(&status), "normal".to_string());
        }
        if game.claimable_draw().is_some() {
            break ("1/2-1/2", "adjudication: a claimable draw".to_string());
        }
        if sans.len() >= args.max_plies {
            break ("1/2-1/2", format!("adjudication: {} plies", args.max_plies));
        }
        let turn = game.turn();
        let who = side(turn);
        let ti = turn.index();
        let lim = limits(control, clocks);
        let hard = match control {
            Control::Clock { .. } => clocks[ti] + margin + Duration::from_secs(5),
            Control::PerMove { movetime, .. } => {
                movetime.map_or(Duration::from_secs(120), |t| t + Duration::from_secs(5))
            }
        };
        let t0 = Instant::now();
        let answer = players[who].choose(&game, start_arg.as_deref(), &moves, &lim, hard);
        let used = t0.elapsed();
        let uci = match answer {
            Ok(u) => u,
            Err(Failure::NoAnswer(e)) => {
                failed = Some((turn, format!("abandoned: {e}")));
                continue;
            }
        };
        if matches!(control, Control::Clock { .. }) {
            if used > clocks[ti] + margin {
                failed = Some((turn, "time forfeit".into()));
                continue;
            }
            clocks[ti] = clocks[ti].saturating_sub(used) + inc;
        }
        let mv = match game.parse_uci(&uci) {
            Ok(m) if game.is_legal(m) => m,
            _ => {
                failed = Some((turn, format!("rules infraction: illegal move {uci:?}")));
                continue;
            }
        };
        sans.push(game.san(mv));
        if game.apply(mv).is_err() {
            failed = Some((turn, format!("rules infraction: illegal move {uci:?}")));
            continue;
        }
        moves.push(uci);
    };
    // SetUp and FEN tags when the game did not start from the rule
    // set's own start position.
    let pgn = pgn_out::build(tags, &start_fen, start_fen == own_fen, &sans, result);
    Ok(Played {
        result,
        termination,
        pgn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_margin() {
        // Hand derivation: 6 wins, 2 draws, 2 losses of 10 score
        // s = 0.7; Elo = −400·log10(1/0.7 − 1) = −400·log10(0.42857) =
        // 147.19. The game scores' variance is (6·0.3² + 2·0.2² + 2·0.7²)/10
        // = 0.16, σ = 0.4, 1.96·σ/√10 = 0.24792; −400·log10(1/0.94792 − 1)
        // = 504.05 and −400·log10(1/0.45208 − 1) = −33.40, so the margin
        // is (504.05 + 33.40)/2 = 268.73.
        let t = Tally {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        let (elo, margin) = t.elo().unwrap();
        assert!((elo - 147.19).abs() < 0.05, "{elo}");
        assert!((margin - 268.73).abs() < 0.05, "{margin}");
        // An even score is 0 Elo; a whitewash is unbounded.
        let even = Tally {
            wins: 3,
            draws: 4,
            losses: 3,
        };
        assert!(even.elo().unwrap().0.abs() < 1e-9);
        let all = Tally {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        assert_eq!(all.elo(), None);
        // One win, one loss: s = 0.5, σ = 0.5, 1.96·0.5/√2 = 0.693 > 0.5,
        // so the lower bound is below 0 and the margin unbounded.
        let split = Tally {
            wins: 1,
            draws: 0,
            losses: 1,
        };
        assert_eq!(split.elo(), Some((0.0, f64::INFINITY)));
    }

    #[test]
    fn time_controls() {
        assert_eq!(
            parse_tc("10+0.1").unwrap(),
            Control::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            }
        );
        assert_eq!(parse_tc("60").unwrap().tag(), "60");
        assert_eq!(parse_tc("10+0.1").unwrap().tag(), "10+0.1");
        for bad in ["", "x", "0", "-5", "10+y", "inf"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn go_commands() {
        let l = limits(
            &Control::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100),
            },
            [Duration::from_millis(9500), Duration::from_millis(8000)],
        );
        assert_eq!(go_command(&l), "go wtime 9500 btime 8000 winc 100 binc 100");
        let l = limits(
            &Control::PerMove {
                depth: Some(3),
                nodes: None,
                movetime: None,
            },
            [Duration::ZERO; 2],
        );
        assert_eq!(go_command(&l), "go depth 3");
    }
}
