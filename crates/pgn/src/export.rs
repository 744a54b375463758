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

/// The shipped games other than chess and Chess960 with the `Variant`
/// names other programs write for them: Fairy-Stockfish's variant names
/// (`pyffish.variants()`, which pychess-variants uses too) and the games'
/// own names. The first name is the one houserules writes. Colorbound
/// Clobberers has no Fairy-Stockfish name (its `clobber` is another game).
pub const GAME_NAMES: &[(&str, &[&str])] = &[
    ("capablanca", &["capablanca", "capablanca chess"]),
    (
        "gardner",
        &["gardner", "gardner minichess", "gardner chess"],
    ),
    (
        "los-alamos",
        &["losalamos", "los alamos", "los alamos chess"],
    ),
    ("berolina", &["berolina", "berolina chess"]),
    ("grand", &["grand", "grand chess"]),
    ("knightmate-classic", &["knightmate", "knightmate chess"]),
    ("clobberers", &["clobberers", "colorbound clobberers"]),
    // lichess's name first (its PGN `Variant` tag), then python-chess's
    // aliases.
    ("crazyhouse", &["Crazyhouse", "crazy house", "house", "zh"]),
    (
        "3check",
        &["Three-check", "three-check", "threecheck", "3check"],
    ),
    (
        "racingkings",
        &["Racing Kings", "racing-kings", "racing", "race"],
    ),
    (
        "kingofthehill",
        &["King of the Hill", "king-of-the-hill", "koth"],
    ),
    ("atomic", &["Atomic", "atom", "atomic chess"]),
    // A YAML game since session 18; lichess and python-chess write
    // `Horde` (trial 18: the id `horde` was written).
    ("horde", &["Horde", "horde chess"]),
];

/// The definition id of antichess as built (FIDE chess under the
/// `suicide-chess` preset: `houserules_presets::lichess`).
const ANTICHESS_ID: &str = "chess+suicide-chess";

/// The `Variant` and `HouseRules` tags of a game whose definition id is
/// `full` (`GAME` or `GAME+PRESETS`) played with the presets `rules`
/// (`--rules` syntax, empty for none). Antichess — the `antichess` game,
/// or FIDE chess under the `suicide-chess` preset alone, which is the same
/// rules — is `Variant "Antichess"` without `HouseRules`, as lichess and
/// python-chess write it (trial 18: no tag at all was written, so readers
/// refused `Kxb3` as illegal in chess).
pub fn variant_and_rules(
    full: &str,
    chess960: bool,
    rules: &str,
) -> (Option<String>, Option<String>) {
    let rules = rules.trim();
    if !chess960 && full == ANTICHESS_ID && (rules.is_empty() || rules == "suicide-chess") {
        return (Some("Antichess".into()), None);
    }
    let id = full.split('+').next().unwrap_or(full);
    (
        variant_name(id, chess960),
        Some(rules.to_string()).filter(|r| !r.is_empty()),
    )
}

/// The `Variant` tag value of the game with id `id` (a shipped game id
/// or a YAML game's own id): `None` for FIDE chess, `Chess960` for
/// Chess960 (by id or castling mode), the first name of [`GAME_NAMES`]
/// for the games listed there, else the id itself.
pub fn variant_name(id: &str, chess960: bool) -> Option<String> {
    if chess960 || id == "chess960" {
        return Some("Chess960".into());
    }
    if id == "chess" {
        return None;
    }
    Some(
        GAME_NAMES
            .iter()
            .find(|(i, _)| *i == id)
            .map_or_else(|| id.to_string(), |(_, names)| names[0].to_string()),
    )
}

/// The tag holding the seed of a game played under modifiers
/// ([`RuleTags::seed`]).
pub const SEED_TAG: &str = "Seed";

/// The rule set of a written game, as tag values (`None`: no tag).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleTags {
    /// `Variant`: the game ([`variant_name`]).
    pub variant: Option<String>,
    /// `HouseRules`: the presets in `--rules` syntax (`piece-hp,wrap-board`).
    pub house_rules: Option<String>,
    /// `Modifiers`: the library modifiers in `--modifiers` syntax
    /// (`ID[:K=V;…]`, joined by commas).
    pub modifiers: Option<String>,
    /// `Seed`: the seed of the modifiers' random stream (rulings F4), a
    /// u32 in decimal; written when it is not 0, the seed a replay
    /// assumes without the tag. Without it a game whose moves drew
    /// randomness replays to another position.
    pub seed: Option<u32>,
}

impl RuleTags {
    /// The tags of `game` (its variant and castling mode) under the presets
    /// `rules` (`--rules` syntax, empty for none).
    pub fn of_game(game: &Game, rules: &str) -> RuleTags {
        // A composed definition is named `GAME+PRESETS`: the Variant tag
        // names the game, the HouseRules tag the presets.
        let (variant, house_rules) =
            variant_and_rules(&game.variant().definition().id, game.is_chess960(), rules);
        RuleTags {
            variant,
            house_rules,
            modifiers: None,
            seed: None,
        }
    }
}

/// A game to write whose moves `sans` were played from `start_fen` under
/// the rule set `tags`, ending with `result`: the Seven Tag Roster (`?`
/// where unknown), `Variant`, `HouseRules`, `Modifiers` and `Seed` (not 0) when set, and
/// `SetUp "1"` with `FEN` (PGN standard 9.7) unless `own_start` says the
/// game began at its rules' own start position. Set other roster tags
/// (players, event) on the result with [`PgnGame::set_tag`].
pub fn rule_set_game(
    tags: &RuleTags,
    start_fen: &str,
    own_start: bool,
    sans: &[String],
    result: &str,
) -> PgnGame {
    let mut pgn = PgnGame::default();
    for (name, value) in ROSTER_DEFAULTS {
        pgn.set_tag(name, if name == "Result" { result } else { value });
    }
    let seed = tags.seed.filter(|s| *s != 0).map(|s| s.to_string());
    for (name, value) in [
        ("Variant", &tags.variant),
        ("HouseRules", &tags.house_rules),
        ("Modifiers", &tags.modifiers),
        (SEED_TAG, &seed),
    ] {
        if let Some(v) = value {
            pgn.set_tag(name, v.as_str());
        }
    }
    if !own_start {
        pgn.set_tag("SetUp", "1");
        pgn.set_tag("FEN", start_fen);
    }
    pgn.mainline.moves = sans.iter().map(crate::model::MoveNode::new).collect();
    pgn.result = Some(result.to_string());
    pgn
}

/// Sets the comments of `game`'s mainline: `before` the first move, and
/// `after`'s n-th list after the n-th move (extra lists are ignored).
pub fn set_comments(
    game: &mut PgnGame,
    before: Vec<String>,
    after: impl IntoIterator<Item = Vec<String>>,
) {
    game.mainline.comments = before;
    for (m, c) in game.mainline.moves.iter_mut().zip(after) {
        m.comments = c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_are_the_ones_other_programs_read() {
        // Fairy-Stockfish's names (pyffish.variants(), crates/cli/tests/
        // data/fsf_variants.txt): `knightmate`, `losalamos`, `capablanca`;
        // python-chess and lichess write `Chess960`; FIDE chess has no tag.
        assert_eq!(variant_name("chess", false), None);
        assert_eq!(variant_name("chess", true).as_deref(), Some("Chess960"));
        assert_eq!(variant_name("chess960", false).as_deref(), Some("Chess960"));
        assert_eq!(
            variant_name("knightmate-classic", false).as_deref(),
            Some("knightmate")
        );
        assert_eq!(
            variant_name("los-alamos", false).as_deref(),
            Some("losalamos")
        );
        assert_eq!(
            variant_name("capablanca", false).as_deref(),
            Some("capablanca")
        );
        // lichess's name (trial 18: `horde` was written).
        assert_eq!(variant_name("horde", false).as_deref(), Some("Horde"));
        // A game no other program knows (a YAML game) is named by its id.
        assert_eq!(variant_name("my-game", false).as_deref(), Some("my-game"));
    }

    /// Regression (trial 18): antichess (FIDE chess under the
    /// `suicide-chess` preset, as `houserules_presets::lichess` builds it)
    /// had no `Variant` tag, so python-chess and `pgn check` refused its
    /// king captures. lichess and python-chess (`chess.variant.
    /// AntichessBoard.uci_variant`/`aliases`: "Antichess") write
    /// `Variant "Antichess"`; no `HouseRules` beside it.
    #[test]
    fn antichess_is_named_as_lichess_names_it() {
        let (v, _) = houserules_presets::lichess::find("antichess")
            .unwrap()
            .build()
            .unwrap();
        let g = Game::from_fen(v, "startpos").unwrap();
        let tags = RuleTags::of_game(&g, "");
        assert_eq!(tags.variant.as_deref(), Some("Antichess"));
        assert_eq!(tags.house_rules, None);
        let tags = RuleTags::of_game(&g, "suicide-chess");
        assert_eq!(tags.variant.as_deref(), Some("Antichess"));
        assert_eq!(tags.house_rules, None);
        // Other presets on chess keep their HouseRules tag.
        assert_eq!(
            variant_and_rules("chess+piece-hp", false, "piece-hp"),
            (None, Some("piece-hp".into()))
        );
    }
}
