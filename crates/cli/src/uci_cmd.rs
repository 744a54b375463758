//! `houserules uci`: the engine opponent over the UCI protocol, for any
//! shipped game (`UCI_Variant`), YAML game file (`GameFile`), preset rule
//! set (`HouseRules`) and modifiers (`Modifiers`). The search runs on its
//! own thread so that `stop`, `isready` and `quit` are answered at once.
//!
//! With `Modifiers`, `position` replays its moves through a rule-set
//! session seeded with the `Seed` option, so that the random outcomes of
//! the moves already played are the referee's (our `match` and server
//! seed their sessions the same way); the search itself never reads that
//! seed ([`houserules_search::SessionSearcher`]). UCI carries moves only:
//! a choice that a move raises is answered with its timeout default (the
//! first option, rulings B4/B7), as a referee that speaks UCI must answer
//! it too.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use clap::Args;
use houserules_engine::{Game, PieceKind, Variant};
use houserules_search::{
    session_engine_for, Action, Level, Limits, Objective, Score, SearchInfo, Searcher,
    SessionPlayer, LEVEL_ELO,
};
use houserules_session::{Input, Session as RuleSession};

/// The lowest `UCI_Elo`: level 1's estimate.
const ELO_MIN: u32 = LEVEL_ELO[0];
/// The highest `UCI_Elo`: level 8's estimate.
const ELO_MAX: u32 = LEVEL_ELO[7];

use crate::error::{CliError, Outcome};
use crate::position::VariantArgs;

/// Options of `houserules uci`.
#[derive(Debug, Args)]
#[command(after_help = "\
Speaks UCI on standard input and output, e.g. from a chess GUI or
python-chess. Options: UCI_Variant (shipped games, by our ids or
Fairy-Stockfish's names: losalamos, knightmate, fischerandom), UCI_Chess960,
HouseRules (presets in --rules syntax), GameFile (a YAML game), Hash,
Skill Level (1-8), UCI_LimitStrength with UCI_Elo (a rating mapped to the
nearest level, see docs/engine.md), Modifiers (in --modifiers syntax) with
Seed (the seed the moves' random outcomes were drawn with; choices that
moves raise are answered with their first option).

Example:
  printf 'uci\\nposition startpos moves e2e4\\ngo depth 6\\n' | houserules uci")]
pub struct UciArgs {}

/// The `UCI_Variant` value that Fairy-Stockfish and python-chess give
/// lichess's antichess; here it is FIDE chess under the `suicide-chess`
/// preset, which has the same rules (compulsory capture, the king an
/// ordinary piece, no castling, a side with no piece or no move wins).
const ANTICHESS: &str = "antichess";

/// The shipped game a `UCI_Variant` value names: our own ids, and the
/// names Fairy-Stockfish's `UCI_Variant` uses for the same games
/// (`losalamos`, `knightmate`, `fischerandom`; the PGN crate's
/// [`GAME_NAMES`](houserules_pgn::export::GAME_NAMES) lists them), so a
/// GUI or tool configured for Fairy-Stockfish drives us unchanged.
/// Case is ignored, as Fairy-Stockfish ignores it.
fn shipped_game(value: &str) -> Option<String> {
    let v = value.trim().to_ascii_lowercase();
    if v == "fischerandom" {
        return Some("chess960".into());
    }
    if houserules_definitions::builtin_ids().contains(&v.as_str()) {
        return Some(v);
    }
    houserules_pgn::export::GAME_NAMES
        .iter()
        .find(|(_, names)| names.iter().any(|n| !n.contains(' ') && *n == v))
        .map(|(id, _)| (*id).to_string())
}

/// Fairy-Stockfish's names of shipped games that differ from our ids,
/// offered in the `UCI_Variant` combo beside them.
const FSF_ALIASES: [&str; 3] = ["losalamos", "knightmate", "fischerandom"];

/// A shared, line-locked output.
type Out = Arc<Mutex<dyn Write + Send>>;

fn say(out: &Out, line: &str) {
    if let Ok(mut o) = out.lock() {
        // A closed pipe ends the session at the next read; nothing to do.
        // An `info string` of several lines (a game file's diagnostics)
        // is sent as one `info string` line each, so the GUI reads no
        // stray lines.
        match line.strip_prefix("info string ") {
            Some(text) if text.contains('\n') => {
                for l in text.lines().filter(|l| !l.trim().is_empty()) {
                    let _ = writeln!(o, "info string {l}");
                }
            }
            _ => {
                let _ = writeln!(o, "{line}");
            }
        }
        let _ = o.flush();
    }
}

/// The engine's state between commands.
struct Session {
    out: Out,
    variant_name: String,
    chess960: bool,
    house_rules: String,
    game_file: String,
    /// The `Modifiers` option, in `--modifiers` syntax.
    modifiers: String,
    /// The `Seed` option: the session seed of a modifier rule set.
    seed: u32,
    /// The position as a rule-set session when `Modifiers` is set.
    rule_session: Option<RuleSession>,
    level: u8,
    limit_strength: bool,
    elo: u32,
    hash_mb: usize,
    /// The game chosen by the options and its start position (the
    /// preferred layout of the presets, e.g. knightmate's).
    variant: Option<(Variant, String)>,
    game: Game,
    /// Why the last `position` set no position (`go` then answers
    /// `bestmove 0000`).
    position_error: Option<String>,
    /// The rule-set errors reported after the last option change.
    reported: Vec<String>,
    searcher: Arc<Mutex<Searcher>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// Runs `houserules uci` on standard input and output. The caller must
/// not hold the standard output's lock: the search thread writes too.
///
/// # Errors
/// None in practice: protocol errors are reported as `info string` lines.
pub fn run(_args: &UciArgs) -> Result<Outcome, CliError> {
    let out: Out = Arc::new(Mutex::new(std::io::stdout()));
    serve(std::io::stdin().lock(), out);
    Ok(Outcome::Success)
}

/// Speaks UCI: reads commands from `input` until `quit` or its end.
pub fn serve(mut input: impl BufRead, out: Out) {
    let mut s = Session {
        out,
        variant_name: "chess".into(),
        chess960: false,
        house_rules: String::new(),
        game_file: String::new(),
        modifiers: String::new(),
        seed: 0,
        rule_session: None,
        level: 8,
        limit_strength: false,
        elo: ELO_MAX,
        hash_mb: 16,
        variant: None,
        game: Game::chess(),
        position_error: None,
        reported: Vec::new(),
        searcher: Arc::new(Mutex::new(Searcher::new(16))),
        stop: Arc::new(AtomicBool::new(false)),
        thread: None,
    };
    // Bytes, not `lines()`: a line that is not UTF-8 (a Latin-1 path in
    // `GameFile`) is read lossily and answered, not taken for the end.
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        if !s.command(line.trim()) {
            break;
        }
    }
    s.stop_search();
}

impl Session {
    /// Handles one command; `false` on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match cmd {
            "uci" => self.uci(),
            "isready" => say(&self.out, "readyok"),
            "ucinewgame" => {
                self.stop_search();
                if let Ok(mut s) = self.searcher.lock() {
                    s.new_game();
                }
            }
            "setoption" => self.setoption(rest),
            "position" => {
                self.stop_search();
                self.position_error = None;
                if let Err(e) = self.position(rest) {
                    say(&self.out, &format!("info string error: {e}"));
                }
            }
            "go" => self.go(rest),
            "stop" => self.stop_search(),
            "quit" => return false,
            "" => {}
            other => say(&self.out, &format!("info string unknown command: {other}")),
        }
        true
    }

    fn uci(&self) {
        let mut vars = houserules_definitions::builtin_ids().join(" var ");
        vars.push_str(" var ");
        vars.push_str(ANTICHESS);
        for alias in FSF_ALIASES {
            vars.push_str(" var ");
            vars.push_str(alias);
        }
        let lines = [
            "id name houserules".to_string(),
            "id author the houserules authors".into(),
            format!("option name UCI_Variant type combo default chess var {vars}"),
            "option name UCI_Chess960 type check default false".into(),
            "option name HouseRules type string default <empty>".into(),
            "option name GameFile type string default <empty>".into(),
            "option name Modifiers type string default <empty>".into(),
            "option name Seed type spin default 0 min 0 max 4294967295".into(),
            "option name Hash type spin default 16 min 1 max 4096".into(),
            "option name Skill Level type spin default 8 min 1 max 8".into(),
            "option name UCI_LimitStrength type check default false".into(),
            format!("option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}"),
            "uciok".into(),
        ];
        for l in lines {
            say(&self.out, &l);
        }
    }

    fn setoption(&mut self, rest: &str) {
        let Some(rest) = rest.strip_prefix("name ") else {
            say(&self.out, "info string error: setoption needs `name`");
            return;
        };
        // `setoption name X value` with nothing after `value` (the line
        // is trimmed) clears a string option, as GUIs and python-chess
        // send it for an empty string.
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => match rest.strip_suffix(" value") {
                Some(n) => (n.trim(), ""),
                None => (rest.trim(), ""),
            },
        };
        let value = if value == "<empty>" { "" } else { value };
        self.stop_search();
        let rule_set = |s: &Self| {
            (
                s.variant_name.clone(),
                s.chess960,
                s.house_rules.clone(),
                s.game_file.clone(),
                s.modifiers.clone(),
            )
        };
        let before = rule_set(self);
        match name.to_ascii_lowercase().as_str() {
            // The rule-set options rebuild the game only when they change
            // (python-chess sends UCI_Variant before every position).
            "uci_variant" => {
                if self.variant_name != value {
                    self.variant_name = value.to_string();
                    self.variant = None;
                }
            }
            "uci_chess960" => {
                let on = value.eq_ignore_ascii_case("true");
                if self.chess960 != on {
                    self.chess960 = on;
                    self.variant = None;
                }
            }
            "houserules" => {
                if self.house_rules != value {
                    self.house_rules = value.to_string();
                    self.variant = None;
                }
            }
            "gamefile" => {
                if self.game_file != value {
                    self.game_file = value.to_string();
                    self.variant = None;
                }
            }
            "modifiers" => self.modifiers = value.to_string(),
            "seed" => match value.parse::<u32>() {
                Ok(n) => self.seed = n,
                Err(_) => say(
                    &self.out,
                    &format!("info string error: Seed {value:?} is not 0 to 4294967295"),
                ),
            },
            // Out of range is refused like `Skill Level`, not clamped: a
            // typo must not allocate 4 GiB without a word.
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => {
                    self.hash_mb = mb;
                    if let Ok(mut s) = self.searcher.lock() {
                        s.set_hash(self.hash_mb);
                    }
                }
                _ => say(
                    &self.out,
                    &format!("info string error: Hash {value:?} is not 1 to 4096"),
                ),
            },
            "skill level" => match value.parse::<u8>() {
                Ok(l) if (1..=8).contains(&l) => self.level = l,
                _ => say(
                    &self.out,
                    &format!("info string error: Skill Level {value:?} is not 1 to 8"),
                ),
            },
            "uci_limitstrength" => match value.to_ascii_lowercase().as_str() {
                "true" => self.limit_strength = true,
                "false" => self.limit_strength = false,
                _ => say(
                    &self.out,
                    &format!("info string error: UCI_LimitStrength {value:?} is not true or false"),
                ),
            },
            "uci_elo" => match value.parse::<u32>() {
                Ok(e) if (ELO_MIN..=ELO_MAX).contains(&e) => self.elo = e,
                _ => say(
                    &self.out,
                    &format!("info string error: UCI_Elo {value:?} is not {ELO_MIN} to {ELO_MAX}"),
                ),
            },
            _ => say(&self.out, &format!("info string unknown option: {name}")),
        }
        if rule_set(self) != before {
            self.rules_changed();
        }
    }

    /// After an option changed the rule set: the position goes back to the
    /// new rule set's start, as Fairy-Stockfish does (a `go` without a new
    /// `position` must not search a position of the old rules), and the
    /// rule set is judged now, when the option is set. Each error is
    /// reported once: those already reported after the last change are
    /// not repeated (one bad option must not hide the next one's error).
    fn rules_changed(&mut self) {
        let mut errors = Vec::new();
        if !self.house_rules.is_empty() {
            if let Err(e) = houserules_presets::RuleSet::parse(&self.house_rules) {
                errors.push((format!("HouseRules: {e}"), e.to_string()));
            }
        }
        self.position_error = None;
        if let Err(e) = self.position("startpos") {
            let e = e.to_string();
            // The presets' own error, already named under `HouseRules`.
            if !errors.iter().any(|(_, bare)| e.contains(bare.as_str())) {
                errors.push((e.clone(), e));
            }
        }
        let errors: Vec<String> = errors.into_iter().map(|(e, _)| e).collect();
        for e in errors.iter().filter(|e| !self.reported.contains(e)) {
            say(&self.out, &format!("info string error: {e}"));
        }
        self.reported = errors;
    }

    /// The game chosen by the options (built once per change).
    fn variant(&mut self) -> Result<(Variant, String), CliError> {
        if let Some(v) = &self.variant {
            return Ok(v.clone());
        }
        let rules = self.rules();
        let args = VariantArgs {
            game: self.game_arg(),
            rules: (!rules.is_empty()).then_some(rules),
            layout: None,
            modifiers: None,
        };
        let chosen = args.choose()?;
        let mut v = chosen.variant;
        if self.chess960 {
            v = v.with_chess960(true);
        }
        say(
            &self.out,
            &format!(
                "info string variant {} ({})",
                v.definition().id,
                chosen.label
            ),
        );
        let chosen = (v, chosen.start_fen);
        self.variant = Some(chosen.clone());
        Ok(chosen)
    }

    /// The preset list in force: `HouseRules`, after `suicide-chess`
    /// when `UCI_Variant` is `antichess`.
    fn rules(&self) -> String {
        match (self.variant_name == ANTICHESS, self.house_rules.is_empty()) {
            (false, _) => self.house_rules.clone(),
            (true, true) => "suicide-chess".into(),
            (true, false) => format!("suicide-chess,{}", self.house_rules),
        }
    }

    /// Sets the position of `position …`. A bad rule set, FEN or command
    /// leaves no position (`go` then answers `bestmove 0000`, never a move
    /// of an older position); a move that is not legal keeps the moves
    /// before it, as Stockfish does, and the error names its ply.
    fn position(&mut self, rest: &str) -> Result<(), CliError> {
        match self.position_setup(rest) {
            Ok(None) => Ok(()),
            Ok(Some(bad_move)) => Err(bad_move),
            Err(e) => {
                self.position_error = Some(e.to_string());
                Err(e)
            }
        }
    }

    /// [`Self::position`]: `Err` when no position could be set up, else
    /// the error of the first move refused, if any.
    fn position_setup(&mut self, rest: &str) -> Result<Option<CliError>, CliError> {
        let (variant, start_fen) = self.variant()?;
        let (setup, moves) = match rest.split_once("moves") {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (rest.trim(), ""),
        };
        let mut game = if setup == "startpos" {
            Game::from_fen(variant, &start_fen)
                .map_err(|e| CliError::input(format!("the start position {start_fen}: {e}")))?
        } else if let Some(fen) = setup.strip_prefix("fen ") {
            // Rights only Chess960 castling keeps make it a Chess960
            // position, as Stockfish keeps them without UCI_Chess960.
            Game::from_fen(variant, fen.trim())
                .map(|mut g| {
                    g.detect_chess960();
                    g
                })
                .map_err(|e| CliError::input(format!("position fen: {e}")))?
        } else {
            return Err(CliError::input(format!(
                "position: expected `startpos` or `fen FEN`, got {setup:?}"
            )));
        };
        if !self.modifiers.trim().is_empty() {
            let (session, bad) = self.rule_position(&game.fen(), moves)?;
            self.game = session.game().clone();
            self.rule_session = Some(session);
            return Ok(bad);
        }
        self.rule_session = None;
        let mut bad = None;
        for (i, m) in moves.split_whitespace().enumerate() {
            if let Err(e) = game.apply_uci(m) {
                bad = Some(move_error(i, m, &e.to_string()));
                break;
            }
        }
        self.game = game;
        Ok(bad)
    }

    /// The position under `Modifiers`: a session from `fen` with the
    /// `Seed`, the moves replayed, every choice answered with its timeout
    /// default.
    fn rule_position(
        &mut self,
        fen: &str,
        moves: &str,
    ) -> Result<(RuleSession, Option<CliError>), CliError> {
        if self.chess960 {
            return Err(CliError::input(
                "Modifiers with UCI_Chess960 is not supported (the session needs a chess960 layout)",
            ));
        }
        let rules = self.rules();
        let args = VariantArgs {
            game: self.game_arg(),
            rules: (!rules.is_empty()).then_some(rules),
            layout: None,
            modifiers: None,
        };
        let mut request = crate::ruleset::request(&args, Some(fen), &self.modifiers)?;
        request.seed = Some(self.seed.into());
        let mut s = RuleSession::create(request)
            .map_err(|e| CliError::input(format!("Modifiers {}: {e}", self.modifiers)))?;
        let settle = |s: &mut RuleSession| {
            while s.pending_choice().is_some() {
                if s.timeout_choice().is_err() {
                    break;
                }
            }
        };
        settle(&mut s);
        for (i, m) in moves.split_whitespace().enumerate() {
            if let Err(e) = s.submit(Input::Move { mv: m.to_string() }) {
                return Ok((s, Some(move_error(i, m, &e.message))));
            }
            settle(&mut s);
        }
        Ok((s, None))
    }

    /// The `game` of the rule set: `GameFile`, or `UCI_Variant` when it
    /// names a shipped game other than chess.
    fn game_arg(&self) -> Option<String> {
        if !self.game_file.is_empty() {
            Some(self.game_file.clone())
        } else if self.variant_name.is_empty()
            || self.variant_name == "chess"
            || self.variant_name == ANTICHESS
        {
            None
        } else {
            // An unknown name is passed on as given, so the error names it.
            Some(shipped_game(&self.variant_name).unwrap_or_else(|| self.variant_name.clone()))
        }
    }

    fn go(&mut self, rest: &str) {
        self.stop_search();
        if let Some(e) = &self.position_error {
            // UCI's null move: the last `position` set none, and a move of
            // an older position would be illegal in the GUI's game. An
            // infinite search still answers only after `stop`.
            say(
                &self.out,
                &format!("info string error: no position to search: {e}"),
            );
            let (limits, _, _) = parse_go(rest);
            let (out, stop) = (self.out.clone(), self.stop.clone());
            stop.store(false, Ordering::SeqCst);
            self.thread = Some(std::thread::spawn(move || {
                while limits.infinite && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                say(&out, "bestmove 0000");
            }));
            return;
        }
        // UCI clients wait for `bestmove` after every `go`: a bad
        // parameter is reported and the search runs without it (the
        // other parameters kept).
        let (mut limits, searchmoves, errors) = parse_go(rest);
        for e in errors {
            say(&self.out, &format!("info string error: {e}"));
        }
        for m in searchmoves {
            match self.game.parse_uci(&m) {
                Ok(mv) => limits.searchmoves.push(mv),
                Err(e) => say(
                    &self.out,
                    &format!("info string error: go searchmoves {m}: {e}"),
                ),
            }
        }
        self.stop.store(false, Ordering::SeqCst);
        let game = self.game.clone();
        let out = self.out.clone();
        let stop = self.stop.clone();
        let searcher = self.searcher.clone();
        let level = if self.limit_strength {
            Level::from_elo(self.elo).get()
        } else {
            self.level
        };
        let objective = Objective::from_rules(&self.rules());
        if let Some(session) = self.rule_session.clone() {
            self.thread = Some(std::thread::spawn(move || {
                // The searcher's own seed (0), never the game's `Seed`;
                // the session search chosen for the rule set.
                let mut e = SessionPlayer::new(session_engine_for(&session));
                e.set_level(Level::new(level));
                e.set_objective(objective);
                let t0 = std::time::Instant::now();
                let seat = session.game().turn();
                let r = e.search(&session, seat, &limits, &stop);
                let score = match r.score {
                    Score::Cp(cp) => format!("cp {cp}"),
                    Score::Mate(n) => format!("mate {n}"),
                };
                let ms = t0.elapsed().as_millis().max(1) as u64;
                say(
                    &out,
                    &format!(
                        "info depth {} score {score} nodes {} nps {} time {ms}",
                        r.depth,
                        r.nodes,
                        r.nodes * 1000 / ms
                    ),
                );
                if limits.infinite {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
                match r.action {
                    Some(Action::Move(uci)) => say(&out, &format!("bestmove {uci}")),
                    _ => say(&out, "bestmove (none)"),
                }
            }));
            return;
        }
        let hp = hit_points(&self.rules(), &game);
        self.thread = Some(std::thread::spawn(move || {
            let Ok(mut s) = searcher.lock() else { return };
            s.set_level(Level::new(level));
            s.set_objective(objective);
            s.set_hit_points(hp);
            let r = s.search(&game, &limits, &stop, |info| {
                say(&out, &info_line(&game, info));
            });
            match r.best {
                Some(m) => say(&out, &format!("bestmove {}", game.uci(m))),
                None => say(&out, "bestmove (none)"),
            }
        }));
    }

    fn stop_search(&mut self) {
        if let Some(t) = self.thread.take() {
            self.stop.store(true, Ordering::SeqCst);
            let _ = t.join();
        }
    }
}

/// The error of `position … moves` at the `i`-th move (0-based) `m`.
fn move_error(i: usize, m: &str, why: &str) -> CliError {
    let kept = match i {
        0 => "the position before it stands".to_string(),
        1 => "the position after the move before it stands".to_string(),
        n => format!("the position after the {n} moves before it stands"),
    };
    CliError::input(format!("position moves: ply {} {m}: {why} ({kept})", i + 1))
}

/// The start hit points per piece kind when the presets `rules` include
/// `piece-hp` (kings 1, other pieces 2: RULINGS P6), for the evaluation's
/// hit-point term; `None` otherwise.
pub(crate) fn hit_points(rules: &str, game: &Game) -> Option<Vec<u8>> {
    let on = rules
        .split(',')
        .any(|r| r.split(':').next().unwrap_or("").trim() == "piece-hp");
    on.then(|| {
        (0..game.variant().definition().pieces.len())
            .map(|k| houserules_presets::rules::start_hp(PieceKind(k as u8)))
            .collect()
    })
}

/// The `info` line of one iteration.
fn info_line(game: &Game, info: &SearchInfo) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let ms = info.elapsed.as_millis().max(1) as u64;
    let mut g = game.clone();
    let mut pv = Vec::new();
    for &m in &info.pv {
        pv.push(g.uci(m));
        if g.apply(m).is_err() {
            break;
        }
    }
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.nodes * 1000 / ms,
        info.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// The parameters of `go` (UCI), which end a `searchmoves` list.
const GO_WORDS: [&str; 12] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
];

/// The limits of a `go` command and its `searchmoves` (UCI text).
/// The limits of `go` and its `searchmoves`, with one error per bad
/// parameter (skipped; the others are kept).
fn parse_go(rest: &str) -> (Limits, Vec<String>, Vec<String>) {
    let mut l = Limits::default();
    let mut searchmoves = Vec::new();
    let mut errors = Vec::new();
    let mut words = rest.split_whitespace().peekable();
    let num = |w: Option<&str>, what: &str| -> Result<u64, String> {
        let v = w.ok_or_else(|| format!("go {what}: missing value"))?;
        // Clocks may go negative in some GUIs: treat as zero.
        if let Ok(n) = v.parse::<i64>() {
            return Ok(n.max(0) as u64);
        }
        Err(format!("go {what}: {v:?} is not a number"))
    };
    let ms = Duration::from_millis;
    while let Some(w) = words.next() {
        if let Err(e) = go_word(&mut l, &mut searchmoves, w, &mut words, num, ms) {
            errors.push(e);
        }
    }
    (l, searchmoves, errors)
}

/// One parameter of `go` (with its value, taken from `words`).
fn go_word<'a>(
    l: &mut Limits,
    searchmoves: &mut Vec<String>,
    w: &str,
    words: &mut std::iter::Peekable<std::str::SplitWhitespace<'a>>,
    num: impl Fn(Option<&str>, &str) -> Result<u64, String>,
    ms: fn(u64) -> Duration,
) -> Result<(), String> {
    {
        match w {
            "depth" => l.depth = Some(num(words.next(), w)? as u32),
            "nodes" => l.nodes = Some(num(words.next(), w)?),
            "movetime" => l.movetime = Some(ms(num(words.next(), w)?)),
            "wtime" => l.wtime = Some(ms(num(words.next(), w)?)),
            "btime" => l.btime = Some(ms(num(words.next(), w)?)),
            "winc" => l.winc = Some(ms(num(words.next(), w)?)),
            "binc" => l.binc = Some(ms(num(words.next(), w)?)),
            "movestogo" => l.movestogo = Some(num(words.next(), w)? as u32),
            "infinite" => l.infinite = true,
            "ponder" => {}
            "mate" => l.depth = Some(2 * num(words.next(), w)? as u32),
            "searchmoves" => {
                while let Some(m) = words.next_if(|m| !GO_WORDS.contains(m)) {
                    searchmoves.push(m.to_string());
                }
            }
            other => return Err(format!("go: unknown parameter {other:?}")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str) -> Vec<String> {
        let buf = Shared::default();
        let out: Out = Arc::new(Mutex::new(buf.clone()));
        serve(input.as_bytes(), out);
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn handshake_and_mate_in_one() {
        // UCI spec: `uci` is answered by `id` lines, options and `uciok`;
        // `isready` by `readyok`; `go` ends with `bestmove`.
        let lines = session(
            "uci\nisready\nucinewgame\n\
             position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6\n\
             go depth 3\nisready\nquit\n",
        );
        assert!(lines.iter().any(|l| l == "uciok"));
        assert!(lines.iter().any(|l| l.starts_with("id name ")));
        assert!(lines.iter().any(|l| l == "readyok"));
        assert!(lines.iter().any(|l| l.starts_with("info depth 1 ")));
        // Scholar's mate: Qxf7# (mate in 1, see crates/search/tests/mates.py).
        assert!(lines.iter().any(|l| l == "bestmove h5f7"), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.contains("score mate 1")),
            "{lines:?}"
        );
    }

    #[test]
    fn infinite_stops_on_stop() {
        let t = std::time::Instant::now();
        let lines = session("position startpos\ngo infinite\nstop\nquit\n");
        assert!(t.elapsed() < Duration::from_secs(2));
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
            1
        );
    }

    #[test]
    fn house_rules_option_and_errors() {
        let lines = session(
            "setoption name HouseRules value suicide-chess\n\
             position fen 8/8/8/8/8/8/1p6/R7 w - - 0 1\ngo depth 4\n\
             position startpos moves e2e5\nsetoption name Skill Level value 9\nquit\n",
        );
        // Hand proof in crates/search/tests/search.rs: Rc1 wins.
        assert!(lines.iter().any(|l| l == "bestmove a1c1"), "{lines:?}");
        assert!(lines
            .iter()
            .any(|l| l.contains("error: position moves: ply 1 e2e5")));
        assert!(lines.iter().any(|l| l.contains("Skill Level")));
    }

    #[test]
    fn modifiers_option_searches_the_session() {
        // Under kamikaze (a capture may blast the eight squares around
        // it), Qxf7 is still mate in every outcome: f8 and e7 stay covered
        // by the queen, d7 and d8 are Black's own (proof in
        // crates/search/tests/session.rs).
        let lines = session(
            "uci
setoption name Modifiers value kamikaze
setoption name Seed value 5
             position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6
go depth 2
isready
quit
",
        );
        assert!(lines
            .iter()
            .any(|l| l == "option name Modifiers type string default <empty>"));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("option name Seed type spin")));
        assert!(lines.iter().any(|l| l == "bestmove h5f7"), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.contains("score mate 1")),
            "{lines:?}"
        );
    }

    #[test]
    fn modifiers_position_answers_choices_with_their_default() {
        // parry asks both players for a throw after 3. exd5; UCI carries
        // moves only, so the throws take their timeout default (rock for
        // both: a tie, rulings B4/B7, the capture stands) and the engine
        // then answers for Black with a move of the resulting position, in
        // which the white pawn stands on d5 (Qxd5 is legal).
        let lines = session(
            "setoption name Modifiers value parry
             position startpos moves e2e4 d7d5 e4d5
go depth 1
isready
quit
",
        );
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("no bestmove in {lines:?}"));
        assert_ne!(best, "(none)", "{lines:?}");
        let mut s = RuleSession::create(houserules_session::CreateRequest {
            modifiers: vec![serde_json::json!("parry")],
            ..Default::default()
        })
        .unwrap();
        for m in ["e2e4", "d7d5", "e4d5"] {
            s.submit(Input::Move { mv: m.into() }).unwrap();
        }
        s.timeout_choice().unwrap();
        // d5 is square 8·4 + 3 = 35.
        let d5 = s.game().piece_at(35).map(|p| p.color);
        assert_eq!(d5, Some(houserules_engine::Color::White));
        assert!(s.legal_moves_uci().contains(&best.to_string()), "{best}");
    }

    #[test]
    fn a_bad_modifier_is_an_info_string_error() {
        let lines = session(
            "setoption name Modifiers value no_such_rule
position startpos
go depth 1
quit
",
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: ") && l.contains("no_such_rule")),
            "{lines:?}"
        );
    }

    #[test]
    fn limit_strength_options() {
        let lines = session(
            "uci\nsetoption name UCI_LimitStrength value true\n\
             setoption name UCI_Elo value 99999\nsetoption name UCI_Elo value 1000\n\
             setoption name UCI_LimitStrength value maybe\n\
             position startpos\ngo depth 1\nquit\n",
        );
        assert!(lines
            .iter()
            .any(|l| l == "option name UCI_LimitStrength type check default false"));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Elo type spin")));
        assert!(lines
            .iter()
            .any(|l| l.contains("error: UCI_Elo \"99999\" is not")));
        assert!(lines
            .iter()
            .any(|l| l.contains("error: UCI_LimitStrength \"maybe\"")));
        assert!(lines.iter().any(|l| l.starts_with("bestmove ")));
    }

    #[test]
    fn fairy_stockfish_variant_names_select_the_shipped_games() {
        // Fairy-Stockfish's UCI_Variant names (its `uci` combo lists
        // losalamos, knightmate, fischerandom). Los Alamos is 6×6 with no
        // bishops: b1c3 is its knight's move (start FEN
        // rnqknr/pppppp/6/6/PPPPPP/RNQKNR); Knightmate's b1 holds a mann
        // (a non-royal king, `rmbqkbmr`), so b1c3 is illegal there and
        // b1b2 is not possible either (a pawn stands there), but b1 is not
        // a knight; Fischer random castles king-takes-rook.
        let lines = session(
            "uci\nsetoption name UCI_Variant value losalamos\n\
             position startpos moves b1c3\ngo depth 1\nisready\n\
             setoption name UCI_Variant value KnightMate\n\
             position startpos\ngo depth 1\nisready\n\
             setoption name UCI_Variant value fischerandom\n\
             position startpos\ngo depth 1\nquit\n",
        );
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        let combo = lines
            .iter()
            .find(|l| l.starts_with("option name UCI_Variant"))
            .expect("UCI_Variant option");
        for v in ["var losalamos", "var knightmate", "var fischerandom"] {
            assert!(combo.contains(v), "{combo}");
        }
        let variants: Vec<_> = lines
            .iter()
            .filter(|l| l.starts_with("info string variant"))
            .collect();
        assert!(variants[0].contains("los-alamos"), "{variants:?}");
        assert!(variants[1].contains("knightmate-classic"), "{variants:?}");
        assert!(variants[2].contains("chess960"), "{variants:?}");
    }

    #[test]
    fn antichess_variant_is_suicide_chess() {
        // After 1. e3 b5 White must capture: Bxb5 is the only legal move
        // (python-chess's AntichessBoard lists only f1b5).
        let lines = session(
            "setoption name UCI_Variant value antichess\n\
             position startpos moves e2e3 b7b5\ngo depth 2\nquit\n",
        );
        assert!(lines.iter().any(|l| l == "bestmove f1b5"), "{lines:?}");
    }

    #[test]
    fn startpos_is_the_presets_layout() {
        // knightmate-rules prefers the knightmate layout, whose d1 is a
        // knight (`rnbnkbnr`, crates/presets/src/layout.rs): d1c3 is a
        // knight's move there and impossible for the standard d1 queen.
        // (A guard: the preset's definition already carries the layout,
        // so this passed before `startpos` used the chosen start FEN.)
        let lines = session(
            "setoption name HouseRules value knightmate-rules\n\
             position startpos moves d1c3\ngo depth 1\nquit\n",
        );
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("bestmove ")),
            "{lines:?}"
        );
    }

    #[test]
    fn searchmoves_restricts_the_root() {
        // Scholar's mate position: Qxf7# is the only mate (mates.py), yet
        // with `searchmoves a2a3` the answer must be a2a3; and a bad `go`
        // parameter still gets a `bestmove` (clients wait for one).
        let lines = session(
            "position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6\n\
             go depth 3 searchmoves a2a3\nisready\ngo sideways\nisready\nquit\n",
        );
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 2, "{lines:?}");
        assert_eq!(best[0], "bestmove a2a3");
        assert!(lines
            .iter()
            .any(|l| l.contains("error: go: unknown parameter")));
    }

    #[test]
    fn go_parameters() {
        let (l, _, errors) = parse_go("wtime 1000 btime -5 winc 10 binc 0 movestogo 5");
        assert!(errors.is_empty());
        assert_eq!(l.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(l.btime, Some(Duration::ZERO));
        assert_eq!(parse_go("depth x").2.len(), 1);
        assert_eq!(parse_go("sideways").2.len(), 1);
        let (l, moves, errors) = parse_go("searchmoves e2e4 d2d4 depth 3");
        assert!(errors.is_empty());
        assert_eq!(moves, ["e2e4", "d2d4"]);
        assert_eq!(l.depth, Some(3));
    }

    #[test]
    fn go_bad_increment_keeps_the_clock() {
        // Trial 15: `go wtime 1000 btime 1000 winc abc` dropped every
        // parameter and searched until `stop` (never sent by a GUI that
        // sent a clock): only the bad `winc` is to be skipped.
        let (l, _, errors) = parse_go("wtime 1000 btime 1000 winc abc binc 10");
        assert_eq!(errors, [r#"go winc: "abc" is not a number"#]);
        assert_eq!(l.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(l.btime, Some(Duration::from_millis(1000)));
        assert_eq!(l.winc, None);
        assert_eq!(l.binc, Some(Duration::from_millis(10)));
    }

    #[test]
    fn invalid_utf8_line_does_not_end_the_session() {
        // Trial 15: a line with bytes that are not UTF-8 ended the session
        // silently (no `readyok`, no `bestmove`). Lossily read, it is an
        // unknown command and the session goes on.
        let buf = Shared::default();
        let out: Out = Arc::new(Mutex::new(buf.clone()));
        serve(
            &b"\xff\xfegarbage\nisready\nposition startpos\ngo depth 1\nquit\n"[..],
            out,
        );
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.contains(&"readyok"), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("bestmove ")),
            "{lines:?}"
        );
    }

    #[test]
    fn game_file_diagnostics_are_info_string_lines() {
        // Trial 15: `setoption name GameFile value F` with a bad F sent the
        // YAML diagnostic's source lines (`1 | ...`, `  |`) as bare lines.
        let dir = std::env::temp_dir().join(format!("hr-uci-gamefile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bad.yaml");
        std::fs::write(&file, "just a string\n").unwrap();
        let lines = session(&format!(
            "setoption name GameFile value {}\nisready\nquit\n",
            file.display()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            lines.iter().any(|l| l.starts_with("info string error:")),
            "{lines:?}"
        );
        for l in &lines {
            assert!(
                l.starts_with("info string ") || l == "readyok",
                "stray line {l:?} in {lines:?}"
            );
        }
    }

    #[test]
    fn hash_out_of_range_is_refused_not_clamped() {
        // Trial 15: `setoption name Hash value 99999999` was clamped to
        // the declared max (4096 MiB) silently: 5 s and 3 GB resident
        // before `readyok`. Outside `min 1 max 4096` it is an error.
        for v in ["99999999", "0", "4097", "abc", "-5"] {
            let lines = session(&format!("setoption name Hash value {v}\nisready\nquit\n"));
            let want = format!("info string error: Hash {v:?} is not 1 to 4096");
            assert!(lines.contains(&want), "{v}: {lines:?}");
        }
    }

    #[test]
    fn setoption_empty_value_clears_house_rules() {
        // Trial 15: python-chess sends `setoption name HouseRules value `
        // for "" (the line trimmed: `... value`), which was read as an
        // option named `HouseRules value`, so piece-hp stayed on. Cleared,
        // the rules are FIDE chess again (`info string variant chess`).
        let lines = session(
            "setoption name HouseRules value piece-hp\n\
             setoption name HouseRules value \n\
             position startpos\ngo depth 1\nquit\n",
        );
        assert!(
            !lines.iter().any(|l| l.contains("unknown option")),
            "{lines:?}"
        );
        assert_eq!(lines.last().map(|l| l.starts_with("bestmove ")), Some(true));
        assert!(
            lines
                .iter()
                .any(|l| l == "info string variant chess (chess)"),
            "{lines:?}"
        );
    }
    #[test]
    fn a_bad_rule_set_leaves_no_position_for_go() {
        // Trial 15: after `position` failed (shogi is no game here),
        // `go` searched the previous position and answered `bestmove
        // e2e4`, a White move where the GUI had Black to move. Now the
        // position is missing and `go` answers UCI's null move.
        let lines = session(
            "setoption name UCI_Variant value shogi\n\
             position startpos moves e2e4\ngo depth 2\nquit\n",
        );
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best, ["bestmove 0000"], "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: no position to search")),
            "{lines:?}"
        );
    }

    #[test]
    fn an_illegal_move_keeps_the_moves_before_it() {
        // Trial 15: `position startpos moves e2e4 e7e5 e1e2 xx` searched
        // the start position. As Stockfish does, the moves before the bad
        // one stand: after 1. e4 e5 2. Ke2 Black is to move, and every
        // Black piece stands on rank 5, 7 or 8, so the best move starts
        // there. The error names the ply.
        let lines = session("position startpos moves e2e4 e7e5 e1e2 xx\ngo depth 2\nquit\n");
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("no bestmove in {lines:?}"));
        assert!(matches!(&best[1..2], "5" | "7" | "8"), "{best}: {lines:?}");
        assert!(lines.iter().any(|l| l.contains("ply 4 xx")), "{lines:?}");
    }

    #[test]
    fn a_bad_variant_is_reported_once() {
        // Trial 15: after a bad `UCI_Variant`, every later `setoption`
        // repeated its error and hid its own (`HouseRules` here). Each
        // option that changes the rule set is judged once; `Hash` says
        // nothing.
        let lines = session(
            "setoption name UCI_Variant value nosuch\n\
             setoption name Hash value 32\n\
             setoption name HouseRules value no-such-preset\nquit\n",
        );
        let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 2, "{lines:?}");
        assert!(errors[0].contains("nosuch"), "{errors:?}");
        assert!(errors[1].contains("HouseRules"), "{errors:?}");
        assert!(errors[1].contains("no-such-preset"), "{errors:?}");
    }

    #[test]
    fn infinite_go_without_a_position_answers_after_stop() {
        // Re-trial (session 9): after a bad `position`, `go infinite`
        // answered `bestmove 0000` at once and `stop` got nothing; UCI
        // answers an infinite search only after `stop`. The `isready`
        // between them is answered first.
        let lines = session("position sideways\ngo infinite\nisready\nstop\nquit\n");
        let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
        let best = lines
            .iter()
            .position(|l| l == "bestmove 0000")
            .expect("bestmove 0000");
        assert!(ready < best, "{lines:?}");
    }

    #[test]
    fn a_rule_change_resets_the_position_to_the_new_start() {
        // Re-trial (session 9): after Capablanca's `position startpos`, a
        // switch to chess with no new `position` searched the Capablanca
        // position and answered a chancellor's `h1g3`. As Fairy-Stockfish
        // does, the position is now the new rule set's start: the answer
        // is one of FIDE's 20 first moves (16 pawn moves, 4 knight moves).
        let lines = session(
            "setoption name UCI_Variant value capablanca\nposition startpos\n\
             setoption name UCI_Variant value chess\ngo depth 1\nquit\n",
        );
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("no bestmove in {lines:?}"));
        let knight = ["b1a3", "b1c3", "g1f3", "g1h3"].contains(&best);
        let pawn = best.len() == 4
            && best[..1] == best[2..3]
            && &best[1..2] == "2"
            && matches!(&best[3..4], "3" | "4");
        assert!(knight || pawn, "{best}: {lines:?}");
    }

    #[test]
    fn a_bad_modifier_is_reported_when_set() {
        // Re-trial (session 9): `setoption name Modifiers value nonsense`
        // printed nothing; the error came only at each `position`.
        let lines = session("setoption name Modifiers value nonsense\nquit\n");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error:") && l.contains("nonsense")),
            "{lines:?}"
        );
    }
}
