//! `--pgn FILE` of `state` and `play`: the game played, written as PGN
//! with the houserules PGN writer.
//!
//! Tags: the Seven Tag Roster (`?` where unknown, the result from the
//! final position), then the rule set: `Variant` names the game (absent
//! for FIDE chess, `Chess960` for a Chess960 game, else the game's id, as
//! `houserules games` lists it), `HouseRules` holds the presets in
//! `--rules` syntax, `Modifiers` the modifiers in `--modifiers` syntax
//! (library ids with parameters); `SetUp "1"` and `FEN` when the game did
//! not start from its own start position.

use std::path::Path;

use houserules_engine::{Color, Game, Status};
use houserules_pgn::{MoveNode, PgnGame};

use crate::error::CliError;

/// The rule set of a written game, as tag values (`None`: no tag).
#[derive(Clone, Debug, Default)]
pub struct RuleTags {
    /// `Variant`.
    pub variant: Option<String>,
    /// `HouseRules`: presets in `--rules` syntax.
    pub house_rules: Option<String>,
    /// `Modifiers`: modifiers in `--modifiers` syntax.
    pub modifiers: Option<String>,
}

impl RuleTags {
    /// The tags of `game` (its variant) under the presets `rules`
    /// (`--rules` syntax, empty for none).
    pub fn of_game(game: &Game, rules: &str) -> RuleTags {
        // A composed definition is named `GAME+PRESETS`: the Variant tag
        // names the game, the HouseRules tag the presets.
        let full = &game.variant().definition().id;
        let id = full.split('+').next().unwrap_or(full);
        let variant = if game.is_chess960() {
            Some("Chess960".to_string())
        } else if id != "chess" {
            Some(id.to_string())
        } else {
            None
        };
        RuleTags {
            variant,
            house_rules: Some(rules.to_string()).filter(|r| !r.is_empty()),
            modifiers: None,
        }
    }
}

/// The PGN result of a final position: `1-0`, `0-1`, `1/2-1/2` when the
/// game is over, `*` while it goes on.
pub fn result_of(status: &Status) -> &'static str {
    let winner = match status {
        Status::Ongoing => return "*",
        Status::Checkmate { winner } => Some(*winner),
        Status::Variant { winner, .. } => *winner,
        Status::Stalemate
        | Status::InsufficientMaterial
        | Status::SeventyFiveMoveRule
        | Status::FivefoldRepetition => None,
    };
    match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// The game whose moves `sans` were played from `start_fen`, ending with
/// `result`; `own_start` says whether `start_fen` is the game's own start
/// position (no `SetUp`/`FEN` tags then).
pub fn build(
    tags: &RuleTags,
    start_fen: &str,
    own_start: bool,
    sans: &[String],
    result: &str,
) -> PgnGame {
    let mut pgn = PgnGame::default();
    for (name, value) in [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
        ("Result", result),
    ] {
        pgn.set_tag(name, value);
    }
    for (name, value) in [
        ("Variant", &tags.variant),
        ("HouseRules", &tags.house_rules),
        ("Modifiers", &tags.modifiers),
    ] {
        if let Some(v) = value {
            pgn.set_tag(name, v.as_str());
        }
    }
    if !own_start {
        pgn.set_tag("SetUp", "1");
        pgn.set_tag("FEN", start_fen);
    }
    pgn.mainline.moves = sans.iter().map(MoveNode::new).collect();
    pgn.result = Some(result.to_string());
    pgn
}

/// Writes `pgn` to `path`.
///
/// # Errors
/// [`CliError::Input`] naming the file when it cannot be written.
pub fn write(path: &Path, pgn: &PgnGame) -> Result<(), CliError> {
    std::fs::write(path, houserules_pgn::write_pgn(pgn))
        .map_err(|e| CliError::input(format!("--pgn {}: cannot write: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_up_game_has_fen_and_set_up_tags_after_the_roster() {
        let tags = RuleTags {
            house_rules: Some("piece-hp".into()),
            ..RuleTags::default()
        };
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let pgn = build(&tags, fen, false, &["e4".into(), "Kd7".into()], "*");
        // PGN standard 8.1.1 (Seven Tag Roster order) and 9.7 (SetUp, FEN).
        assert_eq!(
            houserules_pgn::write_pgn(&pgn),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[HouseRules \"piece-hp\"]\n\
             [SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n\n"
        );
    }
}
