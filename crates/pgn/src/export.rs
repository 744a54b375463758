//! Export format (PGN standard, section 3.2): a game rewritten so that
//! other programs read it back the same: the Seven Tag Roster complete,
//! `SetUp` with `FEN`, a termination marker that agrees with `Result`, and
//! every move (mainline and variations) in SAN as the engine writes it.

use houserules_engine::Game;

use crate::model::{Line, PgnGame, Tag};
use crate::reader::RESULTS;
use crate::replay::{ReplayError, ReplayErrorKind};

/// The Seven Tag Roster's values for unknown data (PGN standard 8.1.1),
/// as python-chess writes them.
pub const ROSTER_DEFAULTS: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// What [`export_moves`] could not rewrite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportProblems {
    /// The first mainline move that does not replay; it and the moves
    /// after it are kept as written.
    pub mainline: Option<ReplayError>,
    /// The first bad move of each variation that does not replay (kept as
    /// written from there on).
    pub variations: Vec<ReplayError>,
}

/// Completes the tags of export format: the Seven Tag Roster (missing
/// tags get their "unknown" values, `Result` the termination marker),
/// `SetUp "1"` just before a `FEN` tag that has none, and a termination marker (the `Result`
/// tag's, else `*`) when the movetext has none.
pub fn export_tags(game: &mut PgnGame) {
    let marker = game.result.clone().or_else(|| {
        game.tag("Result")
            .map(str::trim)
            .filter(|r| RESULTS.contains(r))
            .map(str::to_string)
    });
    for (name, default) in ROSTER_DEFAULTS {
        if game.tag(name).is_none() {
            let value = match (name, &marker) {
                ("Result", Some(m)) => m.clone(),
                _ => default.to_string(),
            };
            game.set_tag(name, value);
        }
    }
    // PGN Standard 9.7.1: `SetUp "1"` goes with a `FEN` tag; written just
    // before it, where python-chess's `Game.setup` puts it.
    if game.tag("SetUp").is_none() {
        if let Some(i) = game.tags.iter().position(|t| t.name == "FEN") {
            game.tags.insert(
                i,
                Tag {
                    name: "SetUp".to_string(),
                    value: "1".to_string(),
                    pos: None,
                },
            );
        }
    }
    if game.result.is_none() {
        game.result = Some(marker.unwrap_or_else(|| "*".to_string()));
    }
}

/// Rewrites every move of `game` in SAN as the engine writes it, from
/// `start` (the position the game starts at, under its rules): the
/// mainline, and each variation from the position before the move it
/// replaces. Moves that do not replay are kept as written, from the
/// first bad one of their line on.
pub fn export_moves(game: &mut PgnGame, start: &Game) -> ExportProblems {
    let mut problems = ExportProblems::default();
    problems.mainline = rewrite_line(&mut game.mainline, start.clone(), 0, &mut problems);
    problems
}

/// Rewrites `line` from `g`, whose first move is ply `ply0 + 1` of the
/// game; returns the line's first bad move.
fn rewrite_line(
    line: &mut Line,
    mut g: Game,
    ply0: usize,
    problems: &mut ExportProblems,
) -> Option<ReplayError> {
    for (i, node) in line.moves.iter_mut().enumerate() {
        for v in &mut node.variations {
            if let Some(e) = rewrite_line(v, g.clone(), ply0 + i, problems) {
                problems.variations.push(e);
            }
        }
        let fail = |g: &Game, kind| ReplayError {
            ply: Some(ply0 + i + 1),
            san: Some(node.san.clone()),
            pos: (node.pos.line > 0).then_some(node.pos),
            kind,
            fen: Some(g.fen()),
        };
        let m = match crate::replay::parse_move_for_export(&g, &node.san) {
            Ok(Some(m)) => m,
            // A null move stays as written (`--`): SAN has none.
            Ok(None) => match crate::replay::null_move(&g) {
                Some(next) => {
                    g = next;
                    continue;
                }
                None => return Some(fail(&g, ReplayErrorKind::NullMove)),
            },
            Err(kind) => return Some(fail(&g, kind)),
        };
        let san = g.san(m);
        if g.apply(m).is_err() {
            return Some(fail(&g, ReplayErrorKind::Illegal));
        }
        node.san = san;
        if g.moves().len() >= crate::replay::HISTORY_PLIES {
            g = crate::replay::rebased(&g).unwrap_or(g);
        }
    }
    None
}
