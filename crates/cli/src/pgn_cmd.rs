//! `houserules pgn check`: replays every game of PGN files and reports each
//! game on one line (text or JSON).

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use houserules_engine::{Game, Variant};
use houserules_pgn::replay::rules_for_variant;
use houserules_pgn::{replay_from, replay_with, PgnError, Reader, ReplayError};
use serde::Serialize;

/// The `Variant` tag values (lower case) that select the `suicide-chess`
/// preset: lichess's Antichess and the older names of the same game.
const ANTICHESS_TAGS: &[&str] = &[
    "antichess",
    "anti chess",
    "anti-chess",
    "suicide",
    "suicide chess",
    "giveaway",
    "giveaway chess",
];

/// Chooses the rules of each game from its `Variant` tag (see
/// [`houserules_pgn::VariantResolver`]).
///
/// - Antichess / Suicide / Giveaway (any case): the `suicide-chess` preset
///   from the standard layout, whatever the command line chose.
/// - The name of a shipped game (`Berolina`, `Capablanca`, `Grand`,
///   `Gardner`, `Los Alamos`, `Knightmate`, … in any case, spaces or
///   hyphens): that game, whatever the command line chose.
/// - No tag, or a standard or Chess960 one: the game chosen on the command
///   line (`--game`, `--rules`, `--layout`), when one was; else the pgn
///   crate's own FIDE / Chess960 handling.
/// - Anything else: not resolved, so the game reports
///   `variant not supported`.
///
/// With a start position (`--state`), the games of the state's rules that
/// have no `FEN` tag start from it rather than from a start position.
pub struct Resolver {
    base: Option<Variant>,
    start: Option<Game>,
    antichess: OnceLock<Option<Variant>>,
    /// How the reports write FENs (`--fen-style`).
    pub fen_style: crate::position::FenStyle,
}

impl Resolver {
    /// A resolver whose standard games use `base` (FIDE chess when `None`).
    pub fn new(base: Option<Variant>) -> Resolver {
        Resolver {
            base,
            start: None,
            antichess: OnceLock::new(),
            fen_style: crate::position::FenStyle::Xfen,
        }
    }

    /// A resolver whose standard games use `start`'s rules and, without a
    /// `FEN` tag, start from `start` itself (a `--state` position, with
    /// the state FEN cannot carry).
    pub fn with_start(start: Game) -> Resolver {
        Resolver {
            base: Some(start.variant().clone()),
            start: Some(start),
            antichess: OnceLock::new(),
            fen_style: crate::position::FenStyle::Xfen,
        }
    }

    /// The variant for a `Variant` tag value (`""` when absent).
    pub fn resolve(&self, tag: &str) -> Option<Variant> {
        let lower = tag.trim().to_ascii_lowercase();
        if ANTICHESS_TAGS.contains(&lower.as_str()) {
            return self
                .antichess
                .get_or_init(|| {
                    houserules_presets::build_from_str("suicide-chess", Some("standard"))
                        .ok()
                        .map(|(v, _)| v)
                })
                .clone();
        }
        match rules_for_variant(Some(tag)) {
            Ok(_) => self.base.clone(),
            Err(_) => shipped_game_for_tag(&lower).and_then(|d| Variant::new(d).ok()),
        }
    }
}

/// The shipped game a `Variant` tag names: its id with spaces or
/// underscores as hyphens; `knightmate` is Fairy-Stockfish's name of
/// `knightmate-classic`.
fn shipped_game_for_tag(lower: &str) -> Option<houserules_engine::GameDefinition> {
    let id = lower.replace([' ', '_'], "-");
    let id = if id == "knightmate" {
        "knightmate-classic"
    } else {
        id.as_str()
    };
    houserules_definitions::builtin(id)
}

/// One game's report; also one JSON line of `--json`.
#[derive(Debug, Serialize)]
struct GameReport<'a> {
    /// The file as given on the command line.
    file: &'a str,
    /// 1-based game number in the file (`null` when the file could not be
    /// opened or holds no game).
    game: Option<usize>,
    /// Half-moves played.
    plies: usize,
    /// FEN after the last played move (`null` when no position could be
    /// set up).
    final_fen: Option<String>,
    /// `checkmate`, `stalemate`, `insufficient-material`,
    /// `seventy-five-move-rule`, `fivefold-repetition` or `ongoing`
    /// (`null` when no position could be set up).
    status: Option<String>,
    /// The first error, if any.
    error: Option<ErrorReport>,
    /// Oddities of a game that replays: moves after the game ended, a
    /// result that contradicts the final position. They do not change
    /// the exit status.
    warnings: Vec<String>,
}

impl<'a> GameReport<'a> {
    /// A report on the file rather than on one of its games (it could not
    /// be opened, or holds no game): no game number, no position.
    fn of_file(file: &'a str, error: Option<ErrorReport>, warnings: Vec<String>) -> Self {
        GameReport {
            file,
            game: None,
            plies: 0,
            final_fen: None,
            status: None,
            error,
            warnings,
        }
    }
}

/// The first error of a game.
#[derive(Debug, Serialize)]
struct ErrorReport {
    /// `open`, `read`, `pgn-syntax`, `variant-not-supported`, `bad-fen`,
    /// `syntax`, `illegal`, `ambiguous` or `null-move`.
    kind: &'static str,
    /// 1-based ply of the bad move (`null` when the error is not a move's).
    ply: Option<usize>,
    /// The move as written (`null` when the error is not a move's).
    #[serde(rename = "move")]
    mv: Option<String>,
    /// What went wrong.
    message: String,
    /// Where in the file, when known.
    line: Option<u64>,
    /// Where in the line (1-based, in characters), when known.
    column: Option<u64>,
    /// Candidate moves (UCI) of an ambiguous move.
    #[serde(skip_serializing_if = "Option::is_none")]
    candidates: Option<Vec<String>>,
    /// The message already says where the problem is (replay messages do).
    #[serde(skip)]
    located: bool,
}

impl ErrorReport {
    fn from_replay(e: &ReplayError) -> ErrorReport {
        let candidates = match &e.kind {
            houserules_pgn::ReplayErrorKind::Ambiguous(c) => Some(c.clone()),
            _ => None,
        };
        ErrorReport {
            kind: e.kind.name(),
            ply: e.ply,
            mv: e.san.clone(),
            message: e.to_string(),
            line: e.pos.map(|p| p.line),
            column: e.pos.map(|p| p.column),
            candidates,
            located: true,
        }
    }

    fn from_pgn(e: &PgnError) -> ErrorReport {
        let (kind, column) = match e {
            PgnError::Syntax { pos, .. } => ("pgn-syntax", Some(pos.column)),
            PgnError::Io { .. } => ("read", None),
        };
        ErrorReport {
            kind,
            ply: None,
            mv: None,
            message: e.message(),
            line: Some(e.pos().line),
            column,
            candidates: None,
            located: false,
        }
    }
}

fn emit(out: &mut dyn Write, json: bool, r: &GameReport) -> std::io::Result<()> {
    if json {
        let line = serde_json::to_string(r).map_err(std::io::Error::other)?;
        return writeln!(out, "{line}");
    }
    if r.game.is_none() && r.error.is_none() {
        // A file without games: `FILE: no game found`.
        for w in &r.warnings {
            writeln!(out, "{}: {w}", r.file)?;
        }
        return Ok(());
    }
    write!(out, "{}", r.file)?;
    if let Some(game) = r.game {
        let unit = if r.plies == 1 { "ply" } else { "plies" };
        write!(out, ": game {game}: {} {unit}", r.plies)?;
        if let (Some(status), Some(fen)) = (&r.status, &r.final_fen) {
            write!(out, ", {status}, {fen}")?;
        }
    }
    match &r.error {
        None => writeln!(out)?,
        Some(e) => {
            let at = match (e.line, e.column) {
                (Some(l), Some(c)) => format!(" (line {l}:{c})"),
                (Some(l), None) => format!(" (line {l})"),
                _ => String::new(),
            };
            let at = if e.located { String::new() } else { at };
            writeln!(out, ": error: {}{at}", e.message)?;
        }
    }
    for w in &r.warnings {
        writeln!(
            out,
            "{}: game {}: warning: {w}",
            r.file,
            r.game.unwrap_or(0)
        )?;
    }
    Ok(())
}

/// Replays the games of one file; returns whether any had an error.
fn check_file(
    path: &Path,
    json: bool,
    resolver: &Resolver,
    out: &mut dyn Write,
) -> std::io::Result<Checked> {
    // `-` is standard input, the usual CLI convention.
    let stdin = path.as_os_str() == "-";
    let name = if stdin {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    let opened: std::io::Result<Box<dyn std::io::BufRead>> = if stdin {
        Ok(Box::new(std::io::stdin().lock()))
    } else if path.is_dir() {
        Err(std::io::Error::other("it is a directory"))
    } else {
        File::open(path).map(|f| Box::new(BufReader::new(f)) as Box<dyn std::io::BufRead>)
    };
    let file = match opened {
        Ok(f) => f,
        Err(e) => {
            let error = ErrorReport {
                kind: "open",
                ply: None,
                mv: None,
                message: format!("cannot open {name}: {e}"),
                line: None,
                column: None,
                candidates: None,
                located: false,
            };
            let r = GameReport::of_file(&name, Some(error), Vec::new());
            emit(out, json, &r)?;
            return Ok(Checked {
                game_errors: false,
                unreadable: true,
            });
        }
    };
    let mut checked = Checked::default();
    let mut reader = Reader::new(file);
    while let Some(item) = reader.read_game() {
        // The game just read is the last one started.
        let number = reader.games_started();
        let r = match item {
            Ok(game) => {
                let resolve = |tag: &str| resolver.resolve(tag);
                let rep = match &resolver.start {
                    Some(start) => replay_from(&game, &resolve, start),
                    None => replay_with(&game, &resolve),
                };
                let mut error = rep.error.as_ref().map(ErrorReport::from_replay);
                let final_fen = rep.game.as_ref().map(|g| {
                    let fen = resolver.fen_style.fen(g);
                    // The error's FEN is the final position's (replay stops
                    // there), written by the replay in X-FEN.
                    if let (Some(e), Some(x)) = (&mut error, rep.final_fen()) {
                        e.message = e.message.replace(&x, &fen);
                    }
                    fen
                });
                GameReport {
                    file: &name,
                    game: Some(number),
                    plies: rep.plies,
                    final_fen,
                    status: rep.status(),
                    error,
                    warnings: rep.warnings.iter().map(ToString::to_string).collect(),
                }
            }
            Err(e) => {
                checked.unreadable |= matches!(e, PgnError::Io { .. });
                GameReport {
                    file: &name,
                    game: Some(e.game()),
                    plies: 0,
                    final_fen: None,
                    status: None,
                    error: Some(ErrorReport::from_pgn(&e)),
                    warnings: Vec::new(),
                }
            }
        };
        checked.game_errors |= r.error.is_some();
        emit(out, json, &r)?;
    }
    if reader.games_started() == 0 {
        // An empty file (or one of blank lines) holds no game. Nothing
        // failed, so it is a warning, not an error: the exit status stays
        // 0, but the run does not end silently.
        let r = GameReport::of_file(&name, None, vec![NO_GAME.to_string()]);
        emit(out, json, &r)?;
    }
    Ok(checked)
}

/// The warning of a file that holds no game.
const NO_GAME: &str = "no game found";

/// Replays every game of every file and writes one report per game.
/// Returns `Ok(true)` when any game had an error.
///
/// Text output is one line per game: `FILE: game N: P plies, STATUS, FEN`,
/// followed by `: error: ...` when the game has one. With `json`, each line
/// is a JSON object with the keys `file`, `game` (1-based), `plies`,
/// `final_fen`, `status` and `error` (`null`, or an object with `kind`,
/// `ply`, `move`, `message`, `line`, `column`). A file that cannot be
/// opened gets one line with `game` `null` and an `open` error; the other
/// files are still checked. A file without any game gets one line
/// `FILE: no game found` (JSON: `game` and `error` `null`, the warning in
/// `warnings`), which is not an error.
///
/// # Errors
/// Only errors writing to `out`.
pub fn run(
    files: &[PathBuf],
    json: bool,
    resolver: &Resolver,
    out: &mut dyn Write,
) -> std::io::Result<Checked> {
    let mut all = Checked::default();
    for path in files {
        let c = check_file(path, json, resolver, out)?;
        all.game_errors |= c.game_errors;
        all.unreadable |= c.unreadable;
    }
    Ok(all)
}

/// What checking some files found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// A game had an error (exit status 1).
    pub game_errors: bool,
    /// A file could not be opened or read (exit status 2).
    pub unreadable: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory for this test process.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("houserules-pgn-cmd-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        dir
    }

    fn files(dir: &Path) -> Vec<PathBuf> {
        let good = dir.join("good.pgn");
        // Fool's mate (python-chess: checkmate,
        // rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3),
        // then a game with an illegal third move, a syntax error, and a
        // crazyhouse game.
        std::fs::write(
            &good,
            "[Event \"mate\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
             [Event \"illegal\"]\n\n1. e4 e5 2. Ke3 *\n\n\
             [Event \"broken\"]\n\n1. e4 {open\n\n[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n",
        )
        .expect("write good.pgn");
        vec![dir.join("missing.pgn"), good]
    }

    /// Regression (new-user trial): `[Variant "Berolina"]` was refused.
    /// A Berolina pawn moves one square diagonally forward without
    /// capturing (movement-grammar spec; Fairy-Stockfish's `berolina`), so
    /// `e2d3` is legal there and illegal in FIDE chess.
    #[test]
    fn variant_tags_naming_shipped_games_select_them() {
        let resolver = Resolver::new(None);
        for tag in ["Berolina", "berolina"] {
            let text = format!("[Variant \"{tag}\"]\n\n1. e2d3 *\n");
            let game = Reader::new(text.as_bytes()).next().unwrap().unwrap();
            let r = replay_with(&game, &|t| resolver.resolve(t));
            assert!(r.error.is_none(), "{tag}: {:?}", r.error);
            assert_eq!(r.plies, 1);
        }
        for tag in ["Los Alamos", "Capablanca", "Grand", "Gardner", "Knightmate"] {
            assert!(resolver.resolve(tag).is_some(), "{tag}");
        }
        assert!(resolver.resolve("Crazyhouse").is_none());
    }

    #[test]
    fn json_lines_have_exactly_the_documented_keys() {
        let dir = scratch("json");
        let mut out = Vec::new();
        let had_errors = run(&files(&dir), true, &Resolver::new(None), &mut out).expect("runs");
        // good.pgn has bad games; missing.pgn cannot be opened.
        assert_eq!(
            had_errors,
            Checked {
                game_errors: true,
                unreadable: true
            }
        );
        let text = String::from_utf8(out).expect("utf-8");
        let rows: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("json line"))
            .collect();
        assert_eq!(rows.len(), 5, "{text}");
        for row in &rows {
            let keys: Vec<&str> = row
                .as_object()
                .expect("object")
                .keys()
                .map(String::as_str)
                .collect();
            let mut keys = keys.clone();
            keys.sort_unstable();
            assert_eq!(
                keys,
                [
                    "error",
                    "file",
                    "final_fen",
                    "game",
                    "plies",
                    "status",
                    "warnings"
                ]
            );
        }
        // The missing file is reported and the next file still checked.
        assert!(rows[0]["game"].is_null());
        assert_eq!(rows[0]["error"]["kind"], "open");
        assert!(rows[0]["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("missing.pgn")));

        assert_eq!(rows[1]["game"], 1);
        assert_eq!(rows[1]["plies"], 4);
        assert_eq!(rows[1]["status"], "checkmate");
        assert_eq!(
            rows[1]["final_fen"],
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
        );
        assert!(rows[1]["error"].is_null());

        assert_eq!(rows[2]["game"], 2);
        assert_eq!(rows[2]["plies"], 2);
        assert_eq!(rows[2]["error"]["ply"], 3);
        assert_eq!(rows[2]["error"]["move"], "Ke3");
        assert_eq!(rows[2]["error"]["kind"], "illegal");
        assert!(rows[2]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("Ke3")));

        assert_eq!(rows[3]["game"], 3);
        assert_eq!(rows[3]["error"]["kind"], "pgn-syntax");
        assert_eq!(
            (
                rows[3]["error"]["line"].clone(),
                rows[3]["error"]["column"].clone()
            ),
            (11.into(), 7.into())
        );
        assert!(rows[3]["error"]["ply"].is_null() && rows[3]["final_fen"].is_null());

        assert_eq!(rows[4]["game"], 4);
        assert_eq!(
            rows[4]["error"]["message"],
            "variant not supported: Crazyhouse (line 14:1)"
        );
        assert_eq!(
            (
                rows[4]["error"]["line"].clone(),
                rows[4]["error"]["column"].clone()
            ),
            (14.into(), 1.into())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn text_has_one_line_per_game() {
        let dir = scratch("text");
        let mut out = Vec::new();
        let c = run(&files(&dir), false, &Resolver::new(None), &mut out).expect("runs");
        assert!(c.game_errors && c.unreadable);
        let text = String::from_utf8(out).expect("utf-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert!(
            lines[0].contains("missing.pgn") && lines[0].contains("cannot open"),
            "{}",
            lines[0]
        );
        assert!(lines[1].ends_with(": game 1: 4 plies, checkmate, rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"), "{}", lines[1]);
        assert!(
            lines[2].contains("game 2: 2 plies")
                && lines[2].contains("error: ply 3: `Ke3` is illegal"),
            "{}",
            lines[2]
        );
        assert!(
            lines[3].contains("game 3: 0 plies: error: comment")
                && lines[3].ends_with("(line 11:7)"),
            "{}",
            lines[3]
        );
        assert!(
            lines[4]
                .ends_with("game 4: 0 plies: error: variant not supported: Crazyhouse (line 14:1)"),
            "{}",
            lines[4]
        );

        // Only good games: no error.
        let only_good = dir.join("one.pgn");
        std::fs::write(&only_good, "1. e4 e5 *\n").expect("write");
        let mut out = Vec::new();
        let c = run(&[only_good], false, &Resolver::new(None), &mut out).expect("runs");
        assert_eq!(c, Checked::default());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
