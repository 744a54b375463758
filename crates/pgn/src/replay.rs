//! Replaying a game's mainline on the houserules engine.

use std::fmt;

use houserules_engine::san::SanError;
use houserules_engine::{Color, Game, Status, Variant};

use crate::model::{PgnGame, TextPos};
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
    /// could be set up (unsupported variant or bad FEN tag).
    pub game: Option<Game>,
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
    /// termination marker) is not how the final position ended.
    ResultMismatch {
        /// The result as written.
        written: String,
        /// The result the final position gives.
        expected: String,
        /// The final status name (`checkmate`, `stalemate`, …).
        status: String,
    },
    /// The `Result` tag and the movetext's termination marker differ.
    ResultTagDiffers {
        /// The `Result` tag.
        tag: String,
        /// The marker at the end of the movetext.
        movetext: String,
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
                "result {written} contradicts the final position ({status}: {expected})"
            ),
            ReplayWarning::ResultTagDiffers { tag, movetext } => write!(
                f,
                "the Result tag says {tag} but the movetext ends with {movetext}"
            ),
        }
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
fn result_warnings(game: &PgnGame, final_status: &Status) -> Vec<ReplayWarning> {
    let mut out = Vec::new();
    let tag = game.tag("Result").map(str::trim);
    let movetext = game.result.as_deref();
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

    /// The status name of the final position (`checkmate`, `stalemate`,
    /// `insufficient-material`, `seventy-five-move-rule`,
    /// `fivefold-repetition` or `ongoing`).
    pub fn status(&self) -> Option<String> {
        self.game.as_ref().map(|g| g.status().name().to_string())
    }
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
    let setup_error = |kind, tag: &str| ReplayError {
        ply: None,
        san: None,
        pos: game.tags.iter().find(|t| t.name == tag).and_then(|t| t.pos),
        kind,
        fen: None,
    };
    let tag = game.tag("Variant").map_or("", str::trim);
    let (variant, rules) = match resolve(tag) {
        Some(v) => (v, Rules::Resolved),
        None => {
            let rules = rules_for_variant(game.tag("Variant"))
                .map_err(|v| setup_error(ReplayErrorKind::VariantNotSupported(v), "Variant"))?;
            (Variant::chess(), rules)
        }
    };
    let chess960 = rules == Rules::Chess960
        || (rules == Rules::Resolved && rules_for_variant(Some(tag)) == Ok(Rules::Chess960));
    let mut g = match game.tag("FEN") {
        Some(fen) => Game::from_fen(variant, fen)
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
fn play_null(g: &Game) -> Option<Game> {
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

/// Plays one move written `text` (SAN; UCI when SAN fails and the text is
/// shaped like UCI; a null move).
fn play(g: &mut Game, text: &str) -> Result<(), ReplayErrorKind> {
    if is_null_move(text) {
        *g = play_null(g).ok_or(ReplayErrorKind::NullMove)?;
        return Ok(());
    }
    let san_err = match g.parse_san(text) {
        Ok(m) => {
            return g.apply(m).map_err(|_| ReplayErrorKind::Illegal);
        }
        Err(e) => e,
    };
    let bare = text.trim_end_matches(['+', '#']);
    if matches!(san_err, SanError::Syntax(_) | SanError::Illegal(_))
        && houserules_engine::uci::is_uci_shaped(bare)
    {
        let uci = bare.to_ascii_lowercase();
        if let Ok(m) = g.parse_uci(&uci) {
            return g.apply(m).map_err(|_| ReplayErrorKind::Illegal);
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
    match start_position_with(game, resolve) {
        Ok((g, rules)) => replay_moves(game, g, rules),
        Err(e) => Replay {
            rules: None,
            plies: 0,
            game: None,
            error: Some(e),
            warnings: Vec::new(),
        },
    }
}

/// [`replay_with`], where a game without a `FEN` tag whose `Variant` tag is
/// absent, standard or Chess960 starts from `start` (a position with state
/// FEN cannot carry, such as hit points) instead of a start position;
/// every other game is set up by [`start_position_with`].
pub fn replay_from(game: &PgnGame, resolve: VariantResolver<'_>, start: &Game) -> Replay {
    let rules = rules_for_variant(game.tag("Variant"));
    match rules {
        Ok(r) if game.tag("FEN").is_none() => {
            let mut g = start.clone();
            if r == Rules::Chess960 {
                g.set_chess960(true);
            }
            replay_moves(game, g, Rules::Resolved)
        }
        _ => replay_with(game, resolve),
    }
}

/// Plays the main line of `game` from `g`.
fn replay_moves(game: &PgnGame, mut g: Game, rules: Rules) -> Replay {
    let n = game.mainline.moves.len();
    let mut warnings = Vec::new();
    let mut ended = false;
    for (i, m) in game.mainline.moves.iter().enumerate() {
        if i > 0 && i < n && !ended {
            // Checkmate and stalemate leave no legal move, so only the
            // automatic draws and rule results can be played past.
            let status = g.status();
            if status.is_over() {
                ended = true;
                warnings.push(ReplayWarning::MovesAfterEnd {
                    ply: i,
                    status: status.name().to_string(),
                });
            }
        }
        if let Err(kind) = play(&mut g, &m.san) {
            let error = ReplayError {
                ply: Some(i + 1),
                san: Some(m.san.clone()),
                pos: (m.pos.line > 0).then_some(m.pos),
                kind,
                fen: Some(g.fen()),
            };
            return Replay {
                rules: Some(rules),
                plies: i,
                game: Some(g),
                error: Some(error),
                warnings,
            };
        }
    }
    warnings.extend(result_warnings(game, &g.status()));
    Replay {
        rules: Some(rules),
        plies: n,
        game: Some(g),
        error: None,
        warnings,
    }
}
