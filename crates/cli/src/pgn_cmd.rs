//! `houserules pgn check`: replays every game of PGN files and reports each
//! game on one line (text or JSON); `houserules pgn format`: writes every
//! game back in export format.

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use houserules_engine::{Game, Variant};
use houserules_pgn::replay::rules_for_variant;
use houserules_pgn::{
    claim_name, export_moves, export_tags, write_game, PgnError, PgnGame, Reader, ReplayError,
    Replayer, Streamed, Tag,
};
use serde::Serialize;

use crate::error::CliError;
use crate::pgn_session::{SessionReplay, MODIFIERS_TAG};
use crate::position::VariantArgs;

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

/// The tag holding the preset house rules of a game, in `--rules` syntax
/// (`piece-hp,wrap-board`).
pub const HOUSE_RULES_TAG: &str = "HouseRules";

/// The shipped games other than chess and Chess960 with the `Variant`
/// names other programs write for them (the PGN crate's table, which the
/// server writes with too).
pub use houserules_pgn::export::GAME_NAMES;

/// A tag value compared loosely: lower case, letters and digits only.
fn loose(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// What a `Variant` tag names.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Named {
    /// No tag (or an empty one).
    Absent,
    /// FIDE chess (`Standard`, …) or Chess960 (`Chess960`,
    /// `fischerandom`, …): the pgn crate's own handling; the id.
    Chess(&'static str),
    /// Antichess and its other names: the `suicide-chess` preset.
    Antichess,
    /// A shipped game by id.
    Game(&'static str),
    /// A name houserules does not know.
    Unknown,
}

fn named(tag: &str) -> Named {
    let t = tag.trim();
    if t.is_empty() {
        return Named::Absent;
    }
    let lower = t.to_ascii_lowercase();
    if ANTICHESS_TAGS.contains(&lower.as_str()) {
        return Named::Antichess;
    }
    match rules_for_variant(Some(t)) {
        Ok(houserules_pgn::Rules::Chess960) => return Named::Chess("chess960"),
        Ok(_) => return Named::Chess("chess"),
        Err(_) => {}
    }
    let key = loose(t);
    for (id, names) in GAME_NAMES {
        if loose(id) == key || names.iter().any(|n| loose(n) == key) {
            return Named::Game(id);
        }
    }
    Named::Unknown
}

/// The shipped game id a `Variant` tag names (`chess` and `chess960`
/// included; absent: `chess`; `antichess` for Antichess), or `None` for
/// names houserules does not know (for the modifier session, which takes a game
/// id).
pub fn shipped_game_of(tag: &str) -> Option<&'static str> {
    match named(tag) {
        Named::Absent => Some("chess"),
        Named::Chess(id) | Named::Game(id) => Some(id),
        // The session builds the `antichess` game (a modifier game on
        // antichess is written with `Variant "Antichess"`).
        Named::Antichess => Some("antichess"),
        Named::Unknown => None,
    }
}

/// How one game is being replayed: by the engine under the rules of its
/// tags, or through the modifier session ([`SessionReplay`]).
enum Replaying {
    // Boxed: both are kilobytes (one box per game).
    Engine(Box<(Replayer, Setup)>),
    Session(Box<SessionReplay>),
}

impl Replaying {
    fn push(&mut self, san: &str, pos: houserules_pgn::TextPos) {
        match self {
            Replaying::Engine(r) => {
                r.0.push(san, Some(pos));
            }
            Replaying::Session(s) => s.push(san, Some(pos)),
        }
    }

    /// A mainline comment: the modifier session reads its `[%hr …]`
    /// commands; the engine's replay has none to read.
    fn comment(&mut self, text: &str, pos: houserules_pgn::TextPos) {
        if let Replaying::Session(s) = self {
            s.comment(text, Some(pos));
        }
    }
}

/// The game chosen on the command line (`--game`, `--rules`, `--layout`).
struct Choice {
    variant: Variant,
    /// Its start position (a layout's), with Chess960 notation when a
    /// `chess960:N` layout was chosen.
    start: Option<Game>,
    /// `game capablanca`, `rules piece-hp`, … for messages.
    label: String,
    /// The game's id (`chess` for presets on FIDE chess).
    id: String,
    /// The `--rules` text, for the `HouseRules` tag.
    rules: Option<String>,
}

/// Chooses the rules of each game from its tags (see
/// [`houserules_pgn::VariantResolver`]):
///
/// - A `HouseRules` tag (presets in `--rules` syntax): FIDE chess with
///   those presets, from their preferred layout without a `FEN` tag.
/// - A `Variant` tag naming Antichess / Suicide / Giveaway: the
///   `suicide-chess` preset.
/// - A `Variant` tag naming a known game (chess, Chess960, or a shipped
///   game by its id, its name or its Fairy-Stockfish name): that game.
/// - Otherwise the game chosen on the command line, when one was (also
///   for a `Variant` tag naming no known game, with a warning); else FIDE
///   chess, and an unknown `Variant` is `variant not supported`.
///
/// Where the tags name another game than the command line, the tags win
/// and the game gets a warning; presets (`--rules`, `--layout`) apply to
/// games whose tags name chess or Chess960.
///
/// With a start position (`--state`), the games of the state's rules that
/// have no `FEN` tag start from it rather than from a start position.
pub struct Resolver {
    choice: Option<Choice>,
    state: Option<Game>,
    antichess: OnceLock<Option<Variant>>,
    /// How the reports write FENs (`--fen-style`).
    pub fen_style: crate::position::FenStyle,
    /// The command line's rule options, for games replayed under
    /// modifiers (`--modifiers` or a `Modifiers` tag).
    args: VariantArgs,
}

/// The rules of one game.
#[derive(Default)]
pub struct Setup {
    /// The variant to play (`None`: the pgn crate's FIDE / Chess960
    /// handling of the `Variant` tag).
    variant: Option<Variant>,
    /// The start position of games without a `FEN` tag.
    start: Option<Game>,
    /// Where the tags and the command line disagree.
    warnings: Vec<String>,
    /// A `HouseRules` tag that cannot be used.
    error: Option<String>,
    /// The tags `pgn format` adds so that the file replays under the same
    /// rules: (`Variant`, `HouseRules`).
    variant_tag: Option<String>,
    house_rules_tag: Option<String>,
}

impl Resolver {
    /// A resolver whose standard games use `base` (FIDE chess when `None`).
    pub fn new(base: Option<Variant>) -> Resolver {
        Resolver {
            choice: base.map(|variant| Choice {
                id: variant.definition().id.clone(),
                label: format!("game {}", variant.definition().id),
                variant,
                start: None,
                rules: None,
            }),
            state: None,
            antichess: OnceLock::new(),
            fen_style: crate::position::FenStyle::Xfen,
            args: VariantArgs::default(),
        }
    }

    /// A resolver whose standard games use `start`'s rules and, without a
    /// `FEN` tag, start from `start` itself (a `--state` position, with
    /// the state FEN cannot carry).
    pub fn with_start(start: Game) -> Resolver {
        let mut r = Resolver::new(Some(start.variant().clone()));
        if let Some(c) = r.choice.as_mut() {
            c.id = "chess".into();
            c.label = "the --state rules".into();
        }
        r.state = Some(start);
        r
    }

    /// The resolver of the command line: `--state FILE`, else `--game`,
    /// `--rules`, `--layout` when given, else none.
    ///
    /// # Errors
    /// Those of [`crate::position::load_state`] and [`VariantArgs::choose`].
    pub fn from_args(state: Option<&Path>, args: &VariantArgs) -> Result<Resolver, CliError> {
        if let Some(path) = state {
            return Ok(Resolver::with_start(crate::position::load_state(path)?.1));
        }
        if !args.is_given() {
            let mut r = Resolver::new(None);
            r.args = args.clone();
            return Ok(r);
        }
        let chosen = args.choose()?;
        let presets = args.rules.is_some() || args.layout.is_some();
        let start = Game::from_fen(chosen.variant.clone(), &chosen.start_fen).ok();
        Ok(Resolver {
            choice: Some(Choice {
                id: if presets {
                    "chess".into()
                } else {
                    chosen.variant.definition().id.clone()
                },
                label: chosen.label,
                variant: chosen.variant,
                start,
                rules: args.rules.clone().filter(|r| !r.trim().is_empty()),
            }),
            state: None,
            fen_style: crate::position::FenStyle::Xfen,
            antichess: OnceLock::new(),
            args: args.clone(),
        })
    }

    fn antichess(&self) -> Option<Variant> {
        self.antichess
            .get_or_init(|| {
                houserules_presets::build_from_str("suicide-chess", Some("standard"))
                    .ok()
                    .map(|(v, _)| v)
            })
            .clone()
    }

    /// The variant for a `Variant` tag value (`""` when absent), as
    /// [`Resolver::setup`] chooses it for a game with only that tag.
    #[cfg(test)]
    pub fn resolve(&self, tag: &str) -> Option<Variant> {
        let tags = [Tag {
            name: "Variant".into(),
            value: tag.into(),
            pos: None,
        }];
        self.setup(&tags).variant
    }

    /// How a game with these tags is replayed: through the modifier
    /// session when its `Modifiers` tag or `--modifiers` names modifiers,
    /// else by the engine under [`Resolver::setup`].
    fn replaying(&self, tags: &[Tag], strict: bool) -> Replaying {
        match SessionReplay::for_game(tags, &self.args) {
            Some(s) => Replaying::Session(Box::new(s)),
            None => {
                let setup = self.setup(tags);
                Replaying::Engine(Box::new((setup.replayer(tags, strict), setup)))
            }
        }
    }

    /// The rules of a game with these tags.
    pub fn setup(&self, tags: &[Tag]) -> Setup {
        let tag = |name: &str| tags.iter().find(|t| t.name == name).map(|t| t.value.trim());
        let mut s = Setup::default();
        let choice = self.choice.as_ref();
        if let Some(house) = tag(HOUSE_RULES_TAG).filter(|h| !h.is_empty()) {
            // The presets apply to the game the Variant tag names (a file
            // we write names it); a Variant houserules does not know is
            // an error, with or without presets.
            let vtag = tag("Variant").unwrap_or("");
            let built = match named(vtag) {
                Named::Absent | Named::Chess(_) => houserules_presets::build_from_str(house, None),
                Named::Game(id) => match crate::position::load_game(id) {
                    Ok(base) => houserules_presets::RuleSet::parse(house).and_then(|rs| {
                        houserules_presets::build_on(base.definition(), base.has_hooks(), &rs, None)
                    }),
                    Err(e) => {
                        s.error = Some(format!("Variant tag `{id}`: {e}"));
                        return s;
                    }
                },
                Named::Antichess | Named::Unknown => {
                    s.error = Some(format!(
                        "the Variant tag `{}` names no game houserules can combine with the \
                         HouseRules tag `{}`",
                        houserules_engine::echo::echo(vtag),
                        houserules_engine::echo::echo(house)
                    ));
                    return s;
                }
            };
            match built {
                Ok((variant, start_fen)) => {
                    s.start = Game::from_fen(variant.clone(), &start_fen).ok();
                    s.variant = Some(variant);
                    if let Some(c) = choice {
                        if c.rules.as_deref().map(str::trim) != Some(house) {
                            s.warnings.push(format!(
                                "the HouseRules tag `{house}` is used, not the command line's {}",
                                c.label
                            ));
                        }
                    }
                }
                Err(e) => s.error = Some(format!("HouseRules tag `{house}`: {e}")),
            }
            return s;
        }
        let vtag = tag("Variant").unwrap_or("");
        let disagree = |s: &mut Setup, what: &str| {
            if let Some(c) = choice {
                s.warnings.push(format!(
                    "the Variant tag names {what}: replayed as {what}, not as the command line's {}",
                    c.label
                ));
            }
        };
        let apply_choice = |s: &mut Setup| {
            if let Some(c) = choice {
                s.variant = Some(c.variant.clone());
                s.start = self.state.clone().or_else(|| c.start.clone());
                s.house_rules_tag = c.rules.clone();
                if c.rules.is_none() && c.id != "chess" {
                    s.variant_tag = Some(written_name(&c.id));
                }
            }
        };
        match named(vtag) {
            Named::Absent => apply_choice(&mut s),
            Named::Chess(id) => match choice {
                Some(c) if c.id == "chess" || c.id == id => apply_choice(&mut s),
                Some(_) => disagree(&mut s, id),
                None => {}
            },
            Named::Antichess => {
                s.variant = self.antichess();
                if choice.is_some_and(|c| c.rules.as_deref() != Some("suicide-chess")) {
                    disagree(&mut s, "antichess");
                }
            }
            // The command line's game when it has the tag's id: a YAML
            // game that kept a shipped game's id (a copy of `gardner.yaml`
            // with changed rules) replays on the file, as it was played.
            Named::Game(id) if choice.is_some_and(|c| c.id == id) => apply_choice(&mut s),
            Named::Game(id) => {
                s.variant = crate::position::load_game(id).ok();
                if choice.is_some() {
                    disagree(&mut s, id);
                }
            }
            Named::Unknown => {
                if let Some(c) = choice {
                    apply_choice(&mut s);
                    // A YAML game's record names it by its own id (as
                    // `play --pgn` writes it): replayed on it silently.
                    if c.id == vtag {
                        return s;
                    }
                    s.variant_tag = None;
                    s.warnings.push(format!(
                        "the Variant tag `{}` names no game houserules knows: replayed as the command line's {}",
                        houserules_engine::echo::echo(vtag),
                        c.label
                    ));
                }
            }
        }
        s
    }
}

/// The `Variant` tag `pgn format` writes for a game chosen by id: the
/// name other programs use (see [`GAME_NAMES`]), `Chess960`, or the id.
pub(crate) fn written_name(id: &str) -> String {
    houserules_pgn::export::variant_name(id, false).unwrap_or_else(|| id.to_string())
}

impl Setup {
    /// A replayer of a game with `tags` under these rules.
    fn replayer(&self, tags: &[Tag], strict: bool) -> Replayer {
        let v = self.variant.clone();
        Replayer::new(tags, &|_| v.clone(), self.start.as_ref()).strict(strict)
    }
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
    /// The draw claim (`threefold-repetition` or `fifty-move-rule`, FIDE
    /// 9.2 and 9.3) that justifies a written `1/2-1/2` on a final position
    /// that did not end by itself (`null` otherwise).
    claim: Option<&'static str>,
    /// The move announced with the claim (SAN) when the claim is made by
    /// announcing a move that the game does not play (FIDE 9.2.1, 9.3.1);
    /// `null` when the final position itself justifies it.
    claim_move: Option<String>,
    /// The first error, if any.
    error: Option<ErrorReport>,
    /// Oddities of a game that replays: moves after the game ended, a
    /// result that contradicts the final position, tags that disagree
    /// with the command line, and with --strict lenient SAN. They do not
    /// change the exit status.
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
            claim: None,
            claim_move: None,
            error,
            warnings,
        }
    }
}

/// The first error of a game.
#[derive(Debug, Serialize)]
struct ErrorReport {
    /// `open`, `read`, `not-text`, `pgn-syntax`, `house-rules`,
    /// `modifiers` (the modifier session cannot be built),
    /// `variant-not-supported`, `bad-fen`, `syntax`, `illegal`,
    /// `ambiguous` or `null-move`.
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
    /// An error about the rule-set tag `tag` (kind `kind`): placed on the
    /// tag's line when the game has it, no ply.
    fn of_tag(kind: &'static str, message: String, tags: &[Tag], tag: &str) -> ErrorReport {
        ErrorReport {
            kind,
            ply: None,
            mv: None,
            message,
            line: tags
                .iter()
                .find(|t| t.name == tag)
                .and_then(|t| t.pos)
                .map(|p| p.line),
            column: None,
            candidates: None,
            located: false,
        }
    }

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
            PgnError::NotText => ("not-text", None),
        };
        if matches!(e, PgnError::NotText) {
            return ErrorReport {
                kind,
                ply: None,
                mv: None,
                message: e.message(),
                line: None,
                column: None,
                candidates: None,
                located: false,
            };
        }
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
        if let Some(claim) = r.claim {
            write!(out, ", draw by claim: {claim}")?;
            if let Some(m) = &r.claim_move {
                write!(out, " (announcing {m})")?;
            }
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

/// Opens `path` (`-` is standard input) for reading: the reader and the
/// name to report, or the report of a file that cannot be opened.
fn open(path: &Path) -> (String, Result<Box<dyn std::io::BufRead>, ErrorReport>) {
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
    let opened = opened.map_err(|e| ErrorReport {
        kind: "open",
        ply: None,
        mv: None,
        message: format!("cannot open {name}: {e}"),
        line: None,
        column: None,
        candidates: None,
        located: false,
    });
    (name, opened)
}

/// The report of one game checked by streaming: `replayer` got its
/// mainline moves; `item` is what the reader made of the game.
fn game_report<'a>(
    name: &'a str,
    number: usize,
    item: Result<PgnGame, PgnError>,
    replayer: Option<Replaying>,
    resolver: &Resolver,
    strict: bool,
) -> GameReport<'a> {
    let (tags, result, syntax) = match item {
        Ok(game) => (game.tags, game.result, None),
        Err(e) => (Vec::new(), None, Some(e)),
    };
    let replaying = match replayer {
        Some(r) => Some(r),
        None if syntax.is_none() => Some(resolver.replaying(&tags, strict)),
        None => None,
    };
    let (replayer, setup) = match replaying {
        Some(Replaying::Engine(r)) => *r,
        Some(Replaying::Session(sr)) => {
            let mut sr = *sr;
            sr.end();
            return session_report(name, number, sr, syntax, &tags, resolver);
        }
        None => {
            // A syntax error before any move: no position was set up.
            let e = syntax.unwrap_or(PgnError::NotText);
            return GameReport {
                file: name,
                game: Some(if matches!(e, PgnError::NotText) {
                    1
                } else {
                    e.game()
                }),
                plies: 0,
                final_fen: None,
                status: None,
                claim: None,
                claim_move: None,
                error: Some(ErrorReport::from_pgn(&e)),
                warnings: Vec::new(),
            };
        }
    };
    let rep = replayer.finish(&tags, result.as_deref());
    let mut warnings = setup.warnings;
    let mut error = rep.error.as_ref().map(ErrorReport::from_replay);
    if let Some(msg) = setup.error {
        error = Some(ErrorReport::of_tag(
            "house-rules",
            msg,
            &tags,
            HOUSE_RULES_TAG,
        ));
    }
    if let Some(e) = &syntax {
        // The replay error, if any, came first in the text.
        match error {
            Some(_) => warnings.push(format!("also: {e}")),
            None => error = Some(ErrorReport::from_pgn(e)),
        }
    }
    warnings.extend(rep.warnings.iter().map(ToString::to_string));
    let final_fen = rep.game.as_ref().map(|g| {
        let fen = resolver.fen_style.fen(g);
        // The error's FEN is the final position's (replay stops there),
        // written by the replay in X-FEN.
        if let (Some(e), Some(x)) = (&mut error, rep.final_fen()) {
            e.message = e.message.replace(&x, &fen);
        }
        fen
    });
    GameReport {
        file: name,
        game: Some(number),
        plies: rep.plies,
        final_fen,
        status: rep.status(),
        claim: rep.claim.map(claim_name),
        claim_move: rep.claim_move.clone(),
        error,
        warnings,
    }
}

/// The report of a game replayed through the modifier session.
fn session_report<'a>(
    name: &'a str,
    number: usize,
    sr: SessionReplay,
    syntax: Option<PgnError>,
    tags: &[Tag],
    resolver: &Resolver,
) -> GameReport<'a> {
    let mut warnings = sr.warnings;
    let mut error = None;
    let (final_fen, status) = match &sr.session {
        Ok(s) => (
            Some(resolver.fen_style.fen(s.game())),
            s.status()["status"].as_str().map(str::to_string),
        ),
        Err(e) => {
            error = Some(ErrorReport::of_tag(
                "modifiers",
                format!("Modifiers: {e}"),
                tags,
                MODIFIERS_TAG,
            ));
            (None, None)
        }
    };
    if let Some((ply, san, message, pos)) = sr.error {
        error = Some(ErrorReport {
            kind: "illegal",
            ply: Some(ply),
            mv: Some(san),
            message,
            line: pos.map(|p| p.line),
            column: pos.map(|p| p.column),
            candidates: None,
            located: false,
        });
    }
    if let Some(e) = &syntax {
        match error {
            Some(_) => warnings.push(format!("also: {e}")),
            None => error = Some(ErrorReport::from_pgn(e)),
        }
    }
    GameReport {
        file: name,
        game: Some(number),
        plies: sr.plies,
        final_fen,
        status,
        claim: None,
        claim_move: None,
        error,
        warnings,
    }
}

/// Replays the games of one file, each streamed (memory bounded by one
/// hash per ply, whatever the game's length).
fn check_file(
    path: &Path,
    opts: CheckOptions,
    resolver: &Resolver,
    out: &mut dyn Write,
) -> std::io::Result<Checked> {
    let (name, opened) = open(path);
    let file = match opened {
        Ok(f) => f,
        Err(error) => {
            let r = GameReport::of_file(&name, Some(error), Vec::new());
            emit(out, opts.json, &r)?;
            return Ok(Checked {
                game_errors: false,
                unreadable: true,
            });
        }
    };
    let mut checked = Checked::default();
    let mut reader = Reader::new(file);
    loop {
        let mut replayer: Option<Replaying> = None;
        let Some(item) = reader.read_game_streaming_with_comments(&mut |tags, item, pos| {
            match item {
                Streamed::Move(san) => replayer
                    .get_or_insert_with(|| resolver.replaying(tags, opts.strict))
                    .push(san, pos),
                // A comment before the first move may answer a choice of
                // the start; other comments need no replay of their own.
                Streamed::Comment(text) if text.contains("[%hr") => replayer
                    .get_or_insert_with(|| resolver.replaying(tags, opts.strict))
                    .comment(text, pos),
                Streamed::Comment(_) => {}
            }
        }) else {
            break;
        };
        if let Err(PgnError::NotText) = item {
            checked.unreadable = true;
            let r = GameReport::of_file(
                &name,
                Some(ErrorReport::from_pgn(&PgnError::NotText)),
                Vec::new(),
            );
            emit(out, opts.json, &r)?;
            return Ok(checked);
        }
        checked.unreadable |= matches!(item, Err(PgnError::Io { .. }));
        // The game just read is the last one started.
        let number = reader.games_started();
        let r = game_report(&name, number, item, replayer, resolver, opts.strict);
        checked.game_errors |= r.error.is_some();
        emit(out, opts.json, &r)?;
    }
    if reader.games_started() == 0 {
        // An empty file (or one of blank lines) holds no game. Nothing
        // failed, so it is a warning, not an error: the exit status stays
        // 0, but the run does not end silently.
        let r = GameReport::of_file(&name, None, vec![NO_GAME.to_string()]);
        emit(out, opts.json, &r)?;
    }
    Ok(checked)
}

/// The options of `pgn check`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// One JSON object per line instead of text.
    pub json: bool,
    /// Warn about SAN only the lenient reader accepts.
    pub strict: bool,
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
    opts: CheckOptions,
    resolver: &Resolver,
    out: &mut dyn Write,
) -> std::io::Result<Checked> {
    let mut all = Checked::default();
    for path in files {
        let c = check_file(path, opts, resolver, out)?;
        all.game_errors |= c.game_errors;
        all.unreadable |= c.unreadable;
    }
    Ok(all)
}

/// Writes every game of `files` to `out` in export format
/// ([`houserules_pgn::export_tags`], [`houserules_pgn::export_moves`]):
/// the Seven Tag Roster first, SAN as the engine writes it, comments, NAGs
/// and variations kept, and the tags that make the file replay under the
/// same rules (`Variant`, `HouseRules`, `FEN`/`SetUp` for a layout's
/// start). Problems go to `err`, one line each (`FILE: game N: error:
/// …`): a game that cannot be read is not written; a game whose moves do
/// not replay is written with the bad move and the rest of its line as
/// they were.
///
/// # Errors
/// Only errors writing to `out` or `err`.
pub fn format(
    files: &[PathBuf],
    resolver: &Resolver,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<Checked> {
    let mut all = Checked::default();
    for path in files {
        let (name, opened) = open(path);
        let file = match opened {
            Ok(f) => f,
            Err(e) => {
                writeln!(err, "{name}: error: {}", e.message)?;
                all.unreadable = true;
                continue;
            }
        };
        let mut reader = Reader::new(file);
        while let Some(item) = reader.read_game() {
            let number = reader.games_started();
            let mut game = match item {
                Ok(g) => g,
                Err(e) => {
                    match e {
                        PgnError::NotText => writeln!(err, "{name}: error: {e}")?,
                        _ => writeln!(
                            err,
                            "{name}: game {}: error: {} (line {}); the game is not written",
                            e.game(),
                            e.message(),
                            e.pos()
                        )?,
                    }
                    all.unreadable |= !matches!(e, PgnError::Syntax { .. });
                    all.game_errors |= matches!(e, PgnError::Syntax { .. });
                    continue;
                }
            };
            let setup = resolver.setup(&game.tags);
            for w in &setup.warnings {
                writeln!(err, "{name}: game {number}: warning: {w}")?;
            }
            let mut errors: Vec<String> = Vec::new();
            if let Some(e) = &setup.error {
                errors.push(e.clone());
            } else {
                let rp = setup.replayer(&game.tags, false);
                match rp.game() {
                    Some(start) => {
                        let start = start.clone();
                        let problems = export_moves(&mut game, &start);
                        if let Some(e) = problems.mainline {
                            errors.push(format!("{e} (written as it was from there on)"));
                        }
                        for e in problems.variations {
                            writeln!(
                                err,
                                "{name}: game {number}: warning: variation: {e} (written as it was from there on)"
                            )?;
                        }
                        add_rules_tags(&mut game, &setup, &start);
                    }
                    None => {
                        let e = rp.finish(&game.tags, None).error;
                        errors.push(e.map_or_else(
                            || "cannot set up the game".into(),
                            |e: ReplayError| e.to_string(),
                        ));
                    }
                }
            }
            for e in &errors {
                writeln!(err, "{name}: game {number}: error: {e}")?;
            }
            all.game_errors |= !errors.is_empty();
            export_tags(&mut game);
            write_game(out, &game)?;
        }
    }
    Ok(all)
}

/// Adds the tags that make `game` replay under the rules it was read
/// with: `Variant` and `HouseRules` for a game the command line chose, and
/// `FEN` for a start position other than the rules' own (a layout).
fn add_rules_tags(game: &mut PgnGame, setup: &Setup, start: &Game) {
    if game.tag("Variant").is_none() {
        if let Some(v) = &setup.variant_tag {
            game.set_tag("Variant", v.clone());
        }
    }
    if game.tag(HOUSE_RULES_TAG).is_none() {
        if let Some(h) = &setup.house_rules_tag {
            game.set_tag(HOUSE_RULES_TAG, h.clone());
        }
    }
    if game.tag("FEN").is_none() && setup.start.is_some() {
        let own = Game::from_fen(start.variant().clone(), "startpos").map(|g| g.fen());
        let fen = start.fen();
        if own.as_deref() != Ok(fen.as_str()) || start.is_chess960() {
            game.set_tag("FEN", fen);
            if start.is_chess960() && game.tag("Variant").is_none() {
                game.set_tag("Variant", "Chess960");
            }
        }
    }
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
    use houserules_pgn::replay_with;

    const JSON: CheckOptions = CheckOptions {
        json: true,
        strict: false,
    };
    const TEXT: CheckOptions = CheckOptions {
        json: false,
        strict: false,
    };

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
        // then a game with an illegal third move, a syntax error, and an
        // shogi game (shogi is not shipped).
        std::fs::write(
            &good,
            "[Event \"mate\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
             [Event \"illegal\"]\n\n1. e4 e5 2. Ke3 *\n\n\
             [Event \"broken\"]\n\n1. e4 {open\n\n[Event \"zh\"]\n[Variant \"Shogi\"]\n\n1. e4 *\n",
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
        assert!(resolver.resolve("Shogi").is_none());
    }

    /// Issue 11, wrong answer 6 (names from Fairy-Stockfish, pyffish
    /// 0.0.90 `variants()` and `start_fen()`, committed in
    /// tests/data/fsf_variants.txt by make_fsf_variants.py): the name
    /// Fairy-Stockfish (and pychess-variants, which uses its names) gives
    /// each shipped game selects that game, whose start position is
    /// Fairy-Stockfish's. Colorbound Clobberers has no Fairy-Stockfish
    /// name; its own id and name select it.
    #[test]
    fn fairy_stockfish_names_select_the_nine_shipped_games() {
        let text = include_str!("../tests/data/fsf_variants.txt");
        let fsf: std::collections::HashMap<&str, &str> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t'))
            .collect();
        let resolver = Resolver::new(None);
        let nine = [
            ("chess", "chess"),
            ("chess960", "fischerandom"),
            ("capablanca", "capablanca"),
            ("gardner", "gardner"),
            ("los-alamos", "losalamos"),
            ("berolina", "berolina"),
            ("grand", "grand"),
            ("knightmate-classic", "knightmate"),
        ];
        for (id, name) in nine {
            let start = fsf
                .get(name)
                .unwrap_or_else(|| panic!("{name} is not a Fairy-Stockfish variant"));
            let def = houserules_definitions::builtin(id).expect("shipped");
            assert_eq!(
                def.start_fen, *start,
                "{id}: Fairy-Stockfish's {name} starts elsewhere"
            );
            let expect = match id {
                "chess" => Named::Chess("chess"),
                "chess960" => Named::Chess("chess960"),
                _ => Named::Game(GAME_NAMES.iter().find(|(i, _)| *i == id).expect("listed").0),
            };
            for spelling in [
                name.to_string(),
                name.to_ascii_uppercase(),
                format!(" {name} "),
            ] {
                assert_eq!(named(&spelling), expect, "{spelling}");
            }
            if !matches!(expect, Named::Chess(_)) {
                let v = resolver.resolve(name).expect("resolves");
                assert_eq!(v.definition().id, id);
            }
        }
        assert!(!fsf.contains_key("clobberers"));
        for tag in ["clobberers", "Colorbound Clobberers"] {
            assert_eq!(named(tag), Named::Game("clobberers"), "{tag}");
        }
        // pychess-variants writes the name capitalised; the games' own
        // names and ids work too.
        for (tag, id) in [
            ("Capablanca", "capablanca"),
            ("Los Alamos chess", "los-alamos"),
            ("los-alamos", "los-alamos"),
            ("Gardner minichess", "gardner"),
            ("Knightmate", "knightmate-classic"),
            ("knightmate-classic", "knightmate-classic"),
        ] {
            assert_eq!(named(tag), Named::Game(id), "{tag}");
        }
        assert_eq!(named("Shogi"), Named::Unknown);
    }

    /// Issue 11, wrong answer 6: `--game ID` applies to the games whose
    /// tag names no other known game (no tag, or an unknown name, with a
    /// warning); a tag naming another game wins, with a warning.
    #[test]
    fn game_option_applies_where_the_tags_name_no_other_game() {
        let args = VariantArgs {
            game: Some("los-alamos".into()),
            ..VariantArgs::default()
        };
        let resolver = Resolver::from_args(None, &args).expect("chosen");
        let tags = |v: Option<&str>| -> Vec<Tag> {
            v.map(|v| Tag {
                name: "Variant".into(),
                value: v.into(),
                pos: None,
            })
            .into_iter()
            .collect()
        };
        let id = |s: &Setup| s.variant.as_ref().map(|v| v.definition().id.clone());
        let none = resolver.setup(&tags(None));
        assert_eq!(id(&none).as_deref(), Some("los-alamos"));
        assert!(none.warnings.is_empty());
        let same = resolver.setup(&tags(Some("losalamos")));
        assert_eq!(id(&same).as_deref(), Some("los-alamos"));
        assert!(same.warnings.is_empty());
        let other = resolver.setup(&tags(Some("Berolina")));
        assert_eq!(id(&other).as_deref(), Some("berolina"));
        assert_eq!(other.warnings.len(), 1, "{:?}", other.warnings);
        assert!(other.warnings[0].contains("berolina") && other.warnings[0].contains("los-alamos"));
        let unknown = resolver.setup(&tags(Some("Superchess")));
        assert_eq!(id(&unknown).as_deref(), Some("los-alamos"));
        assert!(
            unknown.warnings[0].contains("`Superchess` names no game"),
            "{:?}",
            unknown.warnings
        );
        // Standard names chess, another game than los-alamos: chess wins
        // (the pgn crate's own handling), with a warning.
        let standard = resolver.setup(&tags(Some("Standard")));
        assert!(standard.variant.is_none());
        assert_eq!(standard.warnings.len(), 1);
        // Without a choice on the command line there is nothing to warn.
        assert!(Resolver::new(None)
            .setup(&tags(Some("Berolina")))
            .warnings
            .is_empty());
    }

    /// The `HouseRules` tag replays a game under its presets. Under
    /// `suicide-chess` capturing is compulsory (spec, preset catalogue):
    /// after 1. e3 b5 the bishop on f1 can take b5, so 2. Nf3 is illegal
    /// and 2. Bxb5 replays (derived by hand: f1-e2-d3-c4-b5 is empty
    /// once the e-pawn has moved).
    #[test]
    fn house_rules_tag_replays_under_its_presets() {
        let mut text = String::from("[HouseRules \"suicide-chess\"]\n\n1. e3 b5 2. Nf3 *\n");
        let game = Reader::new(text.as_bytes()).next().unwrap().unwrap();
        let setup = Resolver::new(None).setup(&game.tags);
        assert!(setup.error.is_none());
        let mut rp = setup.replayer(&game.tags, false);
        for m in game.mainline_sans() {
            rp.push(m, None);
        }
        let r = rp.finish(&game.tags, game.result.as_deref());
        assert_eq!(r.plies, 2, "{:?}", r.error);
        assert_eq!(r.error.map(|e| e.kind.name()), Some("illegal"));
        text = text.replace("2. Nf3", "2. Bxb5");
        let game = Reader::new(text.as_bytes()).next().unwrap().unwrap();
        let r =
            houserules_pgn::replay_with(&game, &|_| Resolver::new(None).setup(&game.tags).variant);
        assert!(r.error.is_none(), "{:?}", r.error);
        // A bad HouseRules tag is an error naming the tag.
        let tags = [Tag {
            name: HOUSE_RULES_TAG.into(),
            value: "no-such-rule".into(),
            pos: None,
        }];
        let s = Resolver::new(None).setup(&tags);
        assert!(
            s.error
                .as_deref()
                .is_some_and(|e| e.starts_with("HouseRules tag `no-such-rule`")),
            "{:?}",
            s.error
        );
    }

    #[test]
    fn json_lines_have_exactly_the_documented_keys() {
        let dir = scratch("json");
        let mut out = Vec::new();
        let had_errors = run(&files(&dir), JSON, &Resolver::new(None), &mut out).expect("runs");
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
                    "claim",
                    "claim_move",
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
        // Issue 11, wrong answer 8: the syntax error comes after `e4`,
        // which was replayed (FEN from python-chess 1.11.2).
        assert!(rows[3]["error"]["ply"].is_null());
        assert_eq!(rows[3]["plies"], 1);
        assert_eq!(
            rows[3]["final_fen"],
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );

        assert_eq!(rows[4]["game"], 4);
        assert_eq!(
            rows[4]["error"]["message"],
            "variant not supported: Shogi (line 14:1)"
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
        let c = run(&files(&dir), TEXT, &Resolver::new(None), &mut out).expect("runs");
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
            lines[3].contains("game 3: 1 ply, ongoing, rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1: error: comment")
                && lines[3].ends_with("(line 11:7)"),
            "{}",
            lines[3]
        );
        assert!(
            lines[4].ends_with("game 4: 0 plies: error: variant not supported: Shogi (line 14:1)"),
            "{}",
            lines[4]
        );

        // Only good games: no error.
        let only_good = dir.join("one.pgn");
        std::fs::write(&only_good, "1. e4 e5 *\n").expect("write");
        let mut out = Vec::new();
        let c = run(&[only_good], TEXT, &Resolver::new(None), &mut out).expect("runs");
        assert_eq!(c, Checked::default());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
