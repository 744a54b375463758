//! Replaying a game's mainline on the houserules engine.

use std::fmt;

use houserules_engine::san::SanError;
use houserules_engine::{Claim, Color, Game, Move, Status, Variant};

use crate::model::{PgnGame, Tag, TextPos};
use crate::reader::RESULTS;

/// The rules a game's `Variant` tag selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// FIDE chess.
    Chess,
    /// Chess960 (Fischer Random): chess rules, Chess960 castling.
    Chess960,
    /// A variant supplied by the caller's resolver (see [`replay_with`]).
    Resolved,
}

/// A caller-supplied choice of rules: given a game's `Variant` tag value
/// (trimmed; `""` when the tag is absent), the variant to replay it on, or
/// `None` for the built-in handling of [`rules_for_variant`]. This lets a
/// front end add variants (presets, game definitions) without this crate
/// depending on them.
pub type VariantResolver<'a> = &'a dyn Fn(&str) -> Option<Variant>;

/// Reads a `Variant` tag value: absent, `Standard`, `normal`, `chess` or
/// `From Position` mean chess; `Chess960`, `chess 960`, `fischerandom`,
/// `fischerrandom`, `fischer random` or `FRC` mean Chess960 (case and
/// surrounding spaces ignored).
///
/// # Errors
/// The value itself, for any other variant (Antichess, Crazyhouse, ...).
pub fn rules_for_variant(value: Option<&str>) -> Result<Rules, String> {
    let Some(v) = value else {
        return Ok(Rules::Chess);
    };
    match v.trim().to_ascii_lowercase().as_str() {
        "" | "standard" | "normal" | "chess" | "from position" => Ok(Rules::Chess),
        "chess960" | "chess 960" | "fischerandom" | "fischerrandom" | "fischer random" | "frc" => {
            Ok(Rules::Chess960)
        }
        _ => Err(v.to_string()),
    }
}

/// What went wrong while replaying.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayErrorKind {
    /// The `Variant` tag names rules this build cannot play.
    VariantNotSupported(String),
    /// The `FEN` tag could not be read.
    BadFen(String),
    /// The move text is not a move at all.
    Syntax,
    /// The move is well formed but no legal move matches it.
    Illegal,
    /// Several legal moves match the move; the candidates in UCI.
    Ambiguous(Vec<String>),
    /// A null move that cannot be played here (the side to move is in
    /// check).
    NullMove,
    /// A move to the promotion rank without its promotion piece (`gxh8`);
    /// the moves it could mean, in SAN (`gxh8=Q`, …).
    MissingPromotion(Vec<String>),
}

impl ReplayErrorKind {
    /// A short machine name: `variant-not-supported`, `bad-fen`, `syntax`,
    /// `illegal`, `ambiguous`, `null-move`, `missing-promotion`.
    pub fn name(&self) -> &'static str {
        match self {
            ReplayErrorKind::VariantNotSupported(_) => "variant-not-supported",
            ReplayErrorKind::BadFen(_) => "bad-fen",
            ReplayErrorKind::Syntax => "syntax",
            ReplayErrorKind::Illegal => "illegal",
            ReplayErrorKind::Ambiguous(_) => "ambiguous",
            ReplayErrorKind::NullMove => "null-move",
            ReplayErrorKind::MissingPromotion(_) => "missing-promotion",
        }
    }
}

/// The first problem met while replaying a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 1-based ply of the bad move (`None` for problems with the game's
    /// setup: variant or FEN).
    pub ply: Option<usize>,
    /// The move as written.
    pub san: Option<String>,
    /// Where the move is in the input; for a setup problem, where the
    /// `FEN` or `Variant` tag is.
    pub pos: Option<TextPos>,
    /// What kind of problem.
    pub kind: ReplayErrorKind,
    /// The FEN of the position the move was tried in.
    pub fen: Option<String>,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ReplayErrorKind::VariantNotSupported(v) => write!(f, "variant not supported: {v}")?,
            ReplayErrorKind::BadFen(why) => write!(f, "bad FEN tag: {why}")?,
            _ => {}
        }
        if matches!(
            self.kind,
            ReplayErrorKind::VariantNotSupported(_) | ReplayErrorKind::BadFen(_)
        ) {
            if let Some(pos) = self.pos {
                write!(f, " (line {pos})")?;
            }
            return Ok(());
        }
        let san = self.san.as_deref().unwrap_or("?");
        if let Some(ply) = self.ply {
            write!(f, "ply {ply}: ")?;
        }
        match &self.kind {
            ReplayErrorKind::Syntax => write!(f, "`{san}` is not a move (syntax)")?,
            ReplayErrorKind::Illegal => write!(f, "`{san}` is illegal")?,
            ReplayErrorKind::Ambiguous(c) => {
                write!(f, "`{san}` is ambiguous: it matches {}", c.join(", "))?
            }
            ReplayErrorKind::NullMove => write!(f, "null move `{san}` while in check")?,
            ReplayErrorKind::MissingPromotion(c) => {
                let list = SanError::MissingPromotion {
                    san: san.to_string(),
                    choices: c.clone(),
                };
                write!(f, "{list}")?
            }
            ReplayErrorKind::VariantNotSupported(_) | ReplayErrorKind::BadFen(_) => {}
        }
        if let Some(fen) = &self.fen {
            write!(f, " in {fen}")?;
        }
        if let Some(pos) = self.pos {
            write!(f, " (line {pos})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ReplayError {}

/// The result of replaying a game's mainline.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The rules used, when the variant is supported.
    pub rules: Option<Rules>,
    /// Half-moves played (up to the first error).
    pub plies: usize,
    /// The engine game after those plies, `None` when no start position
    /// could be set up (unsupported variant or bad FEN tag). Its move
    /// history is not kept (see [`Replayer`]).
    pub game: Option<Game>,
    /// How the game ended, first: the ply after which (0 = the start
    /// position) and the status then. A game that went on past an
    /// automatic draw keeps the first reason (a fivefold repetition, not
    /// the 75-move rule reached later). `None` while the game goes on.
    pub ended: Option<(usize, Status)>,
    /// The status of the final position itself (`None` when no position
    /// could be set up); differs from [`Replay::ended`] when moves
    /// followed an automatic end.
    pub final_status: Option<Status>,
    /// The draw claim (FIDE 9.2 threefold repetition, 9.3 fifty-move rule)
    /// that justifies a written `1/2-1/2` result on a final position that
    /// did not end by itself, if there is one.
    pub claim: Option<Claim>,
    /// The move announced with [`Replay::claim`] (SAN), when the claim is
    /// made by announcing a move that is not played (FIDE 9.2.1, 9.3.1)
    /// rather than on the final position itself; `None` otherwise.
    pub claim_move: Option<String>,
    /// The first error, if any.
    pub error: Option<ReplayError>,
    /// Oddities of a game that replays (moves after the game ended, a
    /// result that contradicts the board); python-chess accepts these
    /// games, so they are not errors.
    pub warnings: Vec<ReplayWarning>,
}

/// Something odd in a game that still replays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayWarning {
    /// The game had ended automatically after ply `ply` (fivefold
    /// repetition or the 75-move rule, FIDE 9.6; a dead position, FIDE
    /// 5.2.2; or a rule layer's result) and moves follow.
    MovesAfterEnd {
        /// The 1-based ply after which the game was over.
        ply: usize,
        /// The status name then (`fivefold-repetition`, …).
        status: String,
    },
    /// The result written (the `Result` tag, else the movetext's
    /// termination marker) is not how the game ended.
    ResultMismatch {
        /// The result as written.
        written: String,
        /// The result the game's end gives.
        expected: String,
        /// The status name of the end (`checkmate`, `stalemate`, …).
        status: String,
    },
    /// The `Result` tag and the movetext's termination marker differ.
    ResultTagDiffers {
        /// The `Result` tag.
        tag: String,
        /// The marker at the end of the movetext.
        movetext: String,
    },
    /// A move that only the lenient reader accepts (`0-0`, `e8Q`,
    /// superfluous or missing disambiguation, a wrong check mark, UCI),
    /// reported by [`Replayer::strict`].
    NotStrictSan {
        /// The 1-based ply.
        ply: usize,
        /// The move as written.
        written: String,
        /// The move in standard SAN.
        standard: String,
        /// What differs (`castling written with zeros`, …).
        why: &'static str,
        /// Where the move is in the input.
        pos: Option<TextPos>,
    },
}

impl fmt::Display for ReplayWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayWarning::MovesAfterEnd { ply, status } => {
                write!(
                    f,
                    "the game was over after ply {ply} ({status}) but moves follow"
                )
            }
            ReplayWarning::ResultMismatch {
                written,
                expected,
                status,
            } => write!(
                f,
                "result {written} contradicts how the game ended ({status}: {expected})"
            ),
            ReplayWarning::ResultTagDiffers { tag, movetext } => write!(
                f,
                "the Result tag says {tag} but the movetext ends with {movetext}"
            ),
            ReplayWarning::NotStrictSan {
                ply,
                written,
                standard,
                why,
                pos,
            } => {
                write!(
                    f,
                    "ply {ply}: `{written}` is not strict SAN ({why}); SAN is `{standard}`"
                )?;
                if let Some(p) = pos {
                    write!(f, " (line {p})")?;
                }
                Ok(())
            }
        }
    }
}

/// The name of a draw claim: `threefold-repetition` or `fifty-move-rule`.
pub fn claim_name(claim: Claim) -> &'static str {
    match claim {
        Claim::ThreefoldRepetition => "threefold-repetition",
        Claim::FiftyMoveRule => "fifty-move-rule",
    }
}

/// The result string (`1-0`, `0-1`, `1/2-1/2`) of a finished game, `None`
/// while it goes on.
pub fn result_of(status: &Status) -> Option<&'static str> {
    let winner = match status {
        Status::Ongoing => return None,
        Status::Checkmate { winner } => Some(*winner),
        Status::Variant { winner, .. } => *winner,
        Status::Stalemate
        | Status::InsufficientMaterial
        | Status::SeventyFiveMoveRule
        | Status::FivefoldRepetition => None,
    };
    Some(match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    })
}

/// The warnings about how the game's result is written.
fn result_warnings(
    tags: &[Tag],
    movetext: Option<&str>,
    final_status: &Status,
) -> Vec<ReplayWarning> {
    let mut out = Vec::new();
    let tag = tag_value(tags, "Result").map(str::trim);
    if let (Some(t), Some(m)) = (tag, movetext) {
        if t != m && RESULTS.contains(&t) {
            out.push(ReplayWarning::ResultTagDiffers {
                tag: t.to_string(),
                movetext: m.to_string(),
            });
        }
    }
    let written = tag.filter(|t| RESULTS.contains(t)).or(movetext);
    if let (Some(w), Some(expected)) = (written, result_of(final_status)) {
        // `*` (unknown) does not contradict anything.
        if w != "*" && w != expected {
            out.push(ReplayWarning::ResultMismatch {
                written: w.to_string(),
                expected: expected.to_string(),
                status: final_status.name().to_string(),
            });
        }
    }
    out
}

impl Replay {
    /// The FEN of the final position (X-FEN castling for Chess960).
    pub fn final_fen(&self) -> Option<String> {
        self.game.as_ref().map(Game::fen)
    }

    /// The status name of the game (`checkmate`, `stalemate`,
    /// `insufficient-material`, `seventy-five-move-rule`,
    /// `fivefold-repetition` or `ongoing`): how it first ended
    /// ([`Replay::ended`]), else `ongoing`; `None` when no position could
    /// be set up.
    pub fn status(&self) -> Option<String> {
        self.game.as_ref()?;
        Some(match &self.ended {
            Some((_, s)) => s.name().to_string(),
            None => Status::Ongoing.name().to_string(),
        })
    }
}

/// The value of the first tag called `name`.
fn tag_value<'a>(tags: &'a [Tag], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|t| t.name == name)
        .map(|t| t.value.as_str())
}

/// The engine game at the start of `game`: the `FEN` tag's position if
/// there is one (python-chess also reads it without `SetUp`), else the
/// start position; Chess960 when the `Variant` tag says so.
///
/// # Errors
/// [`ReplayErrorKind::VariantNotSupported`] or [`ReplayErrorKind::BadFen`].
pub fn start_position(game: &PgnGame) -> Result<(Game, Rules), ReplayError> {
    start_position_with(game, &|_| None)
}

/// [`start_position`], asking `resolve` first (see [`VariantResolver`]).
/// A resolved variant reads the `FEN` tag in its own letters and starts
/// from its own start position without one; a Chess960 spelling of the
/// tag still turns on Chess960 castling notation.
///
/// # Errors
/// [`ReplayErrorKind::VariantNotSupported`] or [`ReplayErrorKind::BadFen`].
pub fn start_position_with(
    game: &PgnGame,
    resolve: VariantResolver<'_>,
) -> Result<(Game, Rules), ReplayError> {
    start_from_tags(&game.tags, resolve)
}

/// [`start_position_with`] from a game's tags.
///
/// # Errors
/// [`ReplayErrorKind::VariantNotSupported`] or [`ReplayErrorKind::BadFen`].
pub fn start_from_tags(
    tags: &[Tag],
    resolve: VariantResolver<'_>,
) -> Result<(Game, Rules), ReplayError> {
    let setup_error = |kind, tag: &str| ReplayError {
        ply: None,
        san: None,
        pos: tags.iter().find(|t| t.name == tag).and_then(|t| t.pos),
        kind,
        fen: None,
    };
    let tag = tag_value(tags, "Variant").map_or("", str::trim);
    let (variant, rules) = match resolve(tag) {
        Some(v) => (v, Rules::Resolved),
        None => {
            let rules = rules_for_variant(tag_value(tags, "Variant"))
                .map_err(|v| setup_error(ReplayErrorKind::VariantNotSupported(v), "Variant"))?;
            (Variant::chess(), rules)
        }
    };
    let chess960 = rules == Rules::Chess960
        || (rules == Rules::Resolved && rules_for_variant(Some(tag)) == Ok(Rules::Chess960));
    let mut g = match tag_value(tags, "FEN") {
        // A FEN tag is a position a user gives: more kings than the rules
        // allow are refused, as `--fen` refuses them (python-chess:
        // STATUS_TOO_MANY_KINGS).
        Some(fen) => Game::from_fen(variant, fen)
            .and_then(|g| g.check_royal_count().map(|()| g).map_err(Into::into))
            .map_err(|e| setup_error(ReplayErrorKind::BadFen(format!("`{fen}`: {e}")), "FEN"))?,
        None => Game::from_fen(variant, "startpos").map_err(|e| {
            setup_error(
                ReplayErrorKind::BadFen(format!("start position: {e}")),
                "Variant",
            )
        })?,
    };
    if chess960 {
        g.set_chess960(true);
    }
    Ok((g, rules))
}

/// The null-move spellings: `--`, `Z0`, `0000`, `@@@@`.
pub fn is_null_move(s: &str) -> bool {
    matches!(
        s.trim_end_matches(['+', '#']),
        "--" | "Z0" | "0000" | "@@@@"
    )
}

/// Passes the turn (a null move): side to move flipped, en passant
/// cleared, half-move clock and (after Black) full-move number advanced,
/// as python-chess does. Repetition history before it is not kept.
/// `None` when the side to move is in check (a null move would leave its
/// king attacked) or the position's FEN cannot be rebuilt.
pub fn play_null(g: &Game) -> Option<Game> {
    if g.is_check() {
        return None;
    }
    let fen = g.fen();
    let f: Vec<&str> = fen.split_whitespace().collect();
    let [board, turn, castling, _ep, half, full] = f.as_slice() else {
        return None;
    };
    let black = *turn == "b";
    let half: u32 = half.parse().ok()?;
    let full: u32 = full.parse().ok()?;
    let next = format!(
        "{board} {} {castling} - {} {}",
        if black { "w" } else { "b" },
        half.saturating_add(1),
        if black { full.saturating_add(1) } else { full }
    );
    let mut out = Game::from_fen(g.variant().clone(), &next).ok()?;
    out.set_chess960(g.is_chess960());
    Some(out)
}

/// The move `text` names in `g` (`None` for a null move), read as the
/// replay reads it (SAN, then UCI).
pub(crate) fn parse_move_for_export(g: &Game, text: &str) -> Result<Option<Move>, ReplayErrorKind> {
    Ok(match parse_move(g, text)? {
        Parsed::Null => None,
        Parsed::San(m) | Parsed::Uci(m) => Some(m),
    })
}

/// [`play_null`] for the export.
pub(crate) fn null_move(g: &Game) -> Option<Game> {
    play_null(g)
}

/// How a move was read by [`parse_move`].
enum Parsed {
    /// A null move.
    Null,
    /// SAN (lenient).
    San(Move),
    /// UCI, after SAN failed.
    Uci(Move),
}

/// Reads one move written `text` (SAN; UCI when SAN fails and the text is
/// shaped like UCI; a null move).
fn parse_move(g: &Game, text: &str) -> Result<Parsed, ReplayErrorKind> {
    if is_null_move(text) {
        return Ok(Parsed::Null);
    }
    let san_err = match g.parse_san(text) {
        Ok(m) => return Ok(Parsed::San(m)),
        Err(e) => e,
    };
    let bare = text.trim_end_matches(['+', '#']);
    if matches!(san_err, SanError::Syntax(_) | SanError::Illegal(_))
        && houserules_engine::uci::is_uci_shaped(bare)
    {
        let uci = bare.to_ascii_lowercase();
        if let Ok(m) = g.parse_uci(&uci) {
            return Ok(Parsed::Uci(m));
        }
    }
    Err(match san_err {
        SanError::Syntax(_) => ReplayErrorKind::Syntax,
        SanError::Illegal(_) => ReplayErrorKind::Illegal,
        SanError::Ambiguous { candidates, .. } => ReplayErrorKind::Ambiguous(candidates),
        SanError::NullMove(_) => ReplayErrorKind::NullMove,
        SanError::MissingPromotion { choices, .. } => ReplayErrorKind::MissingPromotion(choices),
    })
}

/// Whether `move_text` names its from- and to-squares (`e2e4`, `e2-e4`,
/// `Ng1f3`, `e7e8q`): an optional piece letter, two squares (a file
/// letter and a rank number each, `-`/`x`/`:` between them allowed), an
/// optional promotion letter.
fn names_both_squares(move_text: &str) -> bool {
    let t: Vec<u8> = move_text
        .bytes()
        .filter(|b| !matches!(b, b'-' | b'x' | b':'))
        .collect();
    let mut i = usize::from(t.first().is_some_and(u8::is_ascii_uppercase));
    for _ in 0..2 {
        if !t.get(i).is_some_and(u8::is_ascii_lowercase) {
            return false;
        }
        i += 1;
        let digits = t[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        i += digits;
    }
    match &t[i..] {
        [] => true,
        [p] | [b'=', p] => p.is_ascii_alphabetic(),
        _ => false,
    }
}

/// Why `written` (read leniently as the move whose SAN is `standard`) is
/// not strict SAN, or `None` when it is.
pub fn strict_san_problem(written: &str, standard: &str) -> Option<&'static str> {
    let w = written.trim_end_matches(['!', '?']);
    if w == standard {
        return None;
    }
    let wb = w.trim_end_matches(['+', '#']);
    let sb = standard.trim_end_matches(['+', '#']);
    if wb == sb {
        return Some("wrong or missing check mark");
    }
    if sb.starts_with("O-O") {
        return Some(if wb.contains('0') {
            "castling written with zeros"
        } else {
            "castling not written O-O or O-O-O"
        });
    }
    // Regression (session-6 trial): `e2e4`, `Ng1f3` and `e7e8q+` were
    // reported as superfluous disambiguation or a promotion without `=`.
    if names_both_squares(wb) {
        return Some(if wb.starts_with(|c: char| c.is_ascii_uppercase()) {
            "long algebraic (from-square written)"
        } else {
            "UCI or long algebraic move, not SAN"
        });
    }
    if wb.starts_with('P') && sb.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some("pawn move written with `P`");
    }
    if sb.contains('=') && !wb.contains('=') {
        return Some("promotion without `=`");
    }
    let strip = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, 'x' | '-' | ':' | '='))
            .collect()
    };
    let (ws, ss) = (strip(wb), strip(sb));
    if ws == ss {
        return Some("capture mark `x` missing, misplaced or extra");
    }
    Some(match ws.len().cmp(&ss.len()) {
        std::cmp::Ordering::Greater => "superfluous disambiguation",
        std::cmp::Ordering::Less => "missing disambiguation",
        std::cmp::Ordering::Equal => "not in standard form",
    })
}

/// Replays the mainline of `game` on the engine, stopping at the first
/// move that cannot be played.
pub fn replay(game: &PgnGame) -> Replay {
    replay_with(game, &|_| None)
}

/// [`replay`], with the rules chosen by `resolve` first (see
/// [`VariantResolver`]): for example a front end maps `Antichess` to its
/// suicide-chess preset, or every standard game to a chosen definition.
///
/// ```
/// use houserules_engine::Variant;
/// use houserules_pgn::{replay::replay_with, Reader, Rules};
/// let text = "[Variant \"Plain\"]\n\n1. e4 e5 *\n";
/// let game = Reader::new(text.as_bytes()).next().unwrap().unwrap();
/// let plain = |tag: &str| (tag == "Plain").then(Variant::chess);
/// let r = replay_with(&game, &plain);
/// assert_eq!((r.plies, r.rules), (2, Some(Rules::Resolved)));
/// assert!(houserules_pgn::replay(&game).error.is_some());
/// ```
pub fn replay_with(game: &PgnGame, resolve: VariantResolver<'_>) -> Replay {
    Replayer::new(&game.tags, resolve, None).replay_game(game)
}

/// [`replay_with`], where a game without a `FEN` tag whose `Variant` tag is
/// absent, standard or Chess960 starts from `start` (a position with state
/// FEN cannot carry, such as hit points) instead of a start position;
/// every other game is set up by [`start_position_with`].
pub fn replay_from(game: &PgnGame, resolve: VariantResolver<'_>, start: &Game) -> Replay {
    Replayer::new(&game.tags, resolve, Some(start)).replay_game(game)
}

/// How many plies the engine game may keep in its own history before the
/// replayer starts it afresh from its position (memory per ply stays one
/// hash; see [`Replayer`]).
pub(crate) const HISTORY_PLIES: usize = 64;

/// Replays a mainline one move at a time, with memory bounded by one hash
/// per ply since the last capture or pawn move (for repetitions): the
/// engine game's own undo history is dropped every `HISTORY_PLIES` plies.
/// Used by [`replay`] and, with [`crate::Reader::read_game_streaming`], to
/// check games of any length.
///
/// ```
/// use houserules_pgn::{Reader, Replayer};
/// let text = "[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n";
/// let mut reader = Reader::new(text.as_bytes());
/// let mut replayer: Option<Replayer> = None;
/// let game = reader
///     .read_game_streaming(&mut |tags, san, pos| {
///         replayer
///             .get_or_insert_with(|| Replayer::new(tags, &|_| None, None))
///             .push(san, Some(pos));
///     })
///     .unwrap()
///     .unwrap();
/// let r = replayer.unwrap().finish(&game.tags, game.result.as_deref());
/// assert_eq!(r.plies, 8);
/// assert_eq!(r.claim, Some(houserules_engine::Claim::ThreefoldRepetition));
/// ```
pub struct Replayer {
    game: Option<Game>,
    rules: Option<Rules>,
    plies: usize,
    /// Repetition keys since the last irreversible move, the current last.
    keys: Vec<u64>,
    ended: Option<(usize, Status)>,
    error: Option<ReplayError>,
    warnings: Vec<ReplayWarning>,
    strict: bool,
}

impl Replayer {
    /// A replayer at the start position the tags give (see
    /// [`start_from_tags`]); with `start`, a game without a `FEN` tag whose
    /// `Variant` tag is absent, standard or Chess960 starts from `start`
    /// instead. A setup error is kept and reported by
    /// [`Replayer::finish`]; moves pushed after it are ignored.
    pub fn new(tags: &[Tag], resolve: VariantResolver<'_>, start: Option<&Game>) -> Replayer {
        let from_start = start.and_then(|s| {
            let r = rules_for_variant(tag_value(tags, "Variant")).ok()?;
            if tag_value(tags, "FEN").is_some() {
                return None;
            }
            let mut g = s.clone();
            if r == Rules::Chess960 {
                g.set_chess960(true);
            }
            Some((g, Rules::Resolved))
        });
        let setup = match from_start {
            Some(ok) => Ok(ok),
            None => start_from_tags(tags, resolve),
        };
        let mut r = Replayer {
            game: None,
            rules: None,
            plies: 0,
            keys: Vec::new(),
            ended: None,
            error: None,
            warnings: Vec::new(),
            strict: false,
        };
        match setup {
            Ok((g, rules)) => {
                r.keys.push(g.hash());
                r.game = Some(rebased(&g).unwrap_or(g));
                r.rules = Some(rules);
            }
            Err(e) => r.error = Some(e),
        }
        r
    }

    /// Also warns about moves that only the lenient reader accepts
    /// ([`ReplayWarning::NotStrictSan`]).
    pub fn strict(mut self, on: bool) -> Replayer {
        self.strict = on;
        self
    }

    /// Half-moves played so far.
    pub fn plies(&self) -> usize {
        self.plies
    }

    /// The current position (`None` when no position could be set up).
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Whether an error stopped the replay.
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// How many times the current position has occurred since the last
    /// irreversible move (this one included).
    fn repetitions(&self) -> usize {
        let Some(cur) = self.keys.last() else {
            return 0;
        };
        self.keys.iter().filter(|k| *k == cur).count()
    }

    /// The status of the current position, repetitions counted over the
    /// whole mainline.
    pub fn status(&self) -> Status {
        let Some(g) = &self.game else {
            return Status::Ongoing;
        };
        let st = g.status();
        let fivefold = g
            .variant()
            .definition()
            .end
            .auto_repetitions
            .is_some_and(|n| self.repetitions() >= n as usize);
        if st == Status::Ongoing && fivefold {
            return Status::FivefoldRepetition;
        }
        st
    }

    /// The draw the side to move may claim now (FIDE 9.2, 9.3; threefold
    /// repetition first), repetitions counted over the whole mainline.
    pub fn claimable_draw(&self) -> Option<Claim> {
        let g = self.game.as_ref()?;
        let threefold = g
            .variant()
            .definition()
            .end
            .claim_repetitions
            .is_some_and(|n| self.repetitions() >= n as usize);
        if threefold {
            return Some(Claim::ThreefoldRepetition);
        }
        g.claimable_draw().filter(|c| *c == Claim::FiftyMoveRule)
    }

    /// The draw the side to move may claim by announcing a legal move
    /// without playing it (FIDE 9.2.1: the move would make a position
    /// appear for the third time; 9.3.1: it would complete the variant's
    /// claim half-moves), with that move: threefold repetition first, then
    /// the fifty-move rule, the first move in generation order. As
    /// python-chess's `can_claim_threefold_repetition` and
    /// `can_claim_fifty_moves` count them; repetitions over the whole
    /// mainline.
    pub fn claimable_draw_by_move(&self) -> Option<(Claim, Move)> {
        let g = self.game.as_ref()?;
        let end = &g.variant().definition().end;
        let moves = g.legal_moves();
        let after = |m: Move| {
            let mut next = g.clone();
            next.apply(m).ok().map(|()| next)
        };
        if let Some(n) = end.claim_repetitions {
            for &m in &moves {
                let Some(next) = after(m) else { continue };
                // An irreversible move starts a new repetition history.
                let seen = if next.halfmove_clock() == 0 {
                    0
                } else {
                    self.keys.iter().filter(|k| **k == next.hash()).count()
                };
                if seen + 1 >= n as usize {
                    return Some((Claim::ThreefoldRepetition, m));
                }
            }
        }
        if let Some(n) = end.claim_halfmoves {
            for &m in &moves {
                let Some(next) = after(m) else { continue };
                // A move that mates or stalemates ends the game instead.
                if next.halfmove_clock() >= n && next.count_legal_moves() > 0 {
                    return Some((Claim::FiftyMoveRule, m));
                }
            }
        }
        None
    }

    /// Plays the next mainline move, written `san`, found at `pos`.
    /// Returns whether it was played (not after an error).
    pub fn push(&mut self, san: &str, pos: Option<TextPos>) -> bool {
        if self.error.is_some() {
            return false;
        }
        let Some(g) = self.game.as_ref() else {
            return false;
        };
        if self.plies > 0 && self.ended.is_none() {
            // Checkmate and stalemate leave no legal move, so only the
            // automatic draws and rule results can be played past.
            let status = self.status();
            if status.is_over() {
                self.warnings.push(ReplayWarning::MovesAfterEnd {
                    ply: self.plies,
                    status: status.name().to_string(),
                });
                self.ended = Some((self.plies, status));
            }
        }
        let ply = self.plies + 1;
        let fail = |g: &Game, kind| ReplayError {
            ply: Some(ply),
            san: Some(san.to_string()),
            pos: pos.filter(|p| p.line > 0),
            kind,
            fen: Some(g.fen()),
        };
        let (m, uci) = match parse_move(g, san) {
            Err(kind) => {
                self.error = Some(fail(g, kind));
                return false;
            }
            Ok(Parsed::Null) => match play_null(g) {
                Some(n) => {
                    self.played(n);
                    return true;
                }
                None => {
                    self.error = Some(fail(g, ReplayErrorKind::NullMove));
                    return false;
                }
            },
            Ok(Parsed::San(m)) => (m, false),
            Ok(Parsed::Uci(m)) => (m, true),
        };
        if self.strict {
            let standard = g.san(m);
            let why = if uci {
                Some("UCI, not SAN")
            } else {
                strict_san_problem(san, &standard)
            };
            if let Some(why) = why {
                self.warnings.push(ReplayWarning::NotStrictSan {
                    ply,
                    written: san.to_string(),
                    standard,
                    why,
                    pos: pos.filter(|p| p.line > 0),
                });
            }
        }
        let Some(mut next) = self.game.take() else {
            return false;
        };
        if next.apply(m).is_err() {
            // `apply` leaves the game unchanged on error.
            self.error = Some(fail(&next, ReplayErrorKind::Illegal));
            self.game = Some(next);
            return false;
        }
        if next.moves().len() >= HISTORY_PLIES {
            next = rebased(&next).unwrap_or(next);
        }
        self.played(next);
        true
    }

    /// Records `next`, the game after one more ply.
    fn played(&mut self, next: Game) {
        if next.halfmove_clock() == 0 {
            self.keys.clear();
        }
        self.keys.push(next.hash());
        self.game = Some(next);
        self.plies += 1;
    }

    /// Plays the mainline of `game` and finishes.
    fn replay_game(mut self, game: &PgnGame) -> Replay {
        for m in &game.mainline.moves {
            if !self.push(&m.san, Some(m.pos)) {
                break;
            }
        }
        self.finish(&game.tags, game.result.as_deref())
    }

    /// The report: how the game ended, the claim behind a written draw,
    /// the result warnings (`tags`' `Result` and the movetext's marker
    /// `movetext_result`).
    pub fn finish(mut self, tags: &[Tag], movetext_result: Option<&str>) -> Replay {
        let mut claim = None;
        let mut claim_move = None;
        let mut final_status = None;
        if self.game.is_some() {
            let st = self.status();
            let moves_after_end = self.ended.is_some();
            if self.ended.is_none() && st.is_over() {
                self.ended = Some((self.plies, st.clone()));
            }
            final_status = Some(st);
            // After moves past the end, the MovesAfterEnd warning already
            // says the written result is not how the game ended.
            if self.error.is_none() && !moves_after_end {
                let end = self
                    .ended
                    .as_ref()
                    .map_or(Status::Ongoing, |(_, s)| s.clone());
                self.warnings
                    .extend(result_warnings(tags, movetext_result, &end));
                let written = tag_value(tags, "Result")
                    .map(str::trim)
                    .filter(|t| RESULTS.contains(t))
                    .or(movetext_result);
                if written == Some("1/2-1/2") && self.ended.is_none() {
                    claim = self.claimable_draw();
                    if claim.is_none() {
                        if let Some((c, m)) = self.claimable_draw_by_move() {
                            claim = Some(c);
                            claim_move = self.game.as_ref().map(|g| g.san(m));
                        }
                    }
                }
            }
        }
        Replay {
            rules: self.rules,
            plies: self.plies,
            game: self.game,
            ended: self.ended,
            final_status,
            claim,
            claim_move,
            error: self.error,
            warnings: self.warnings,
        }
    }
}

/// The game started afresh from `g`'s position (same rules, same Chess960
/// notation), without its undo history.
pub(crate) fn rebased(g: &Game) -> Option<Game> {
    let v = g.variant().clone();
    let mut n = if let Some(p) = g.position::<u64>() {
        Game::from_position(v, *p).ok()?
    } else {
        Game::from_position(v, *g.position::<u128>()?).ok()?
    };
    n.set_chess960(g.is_chess960());
    Some(n)
}
