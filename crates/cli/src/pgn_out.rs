//! `--pgn FILE` of `state` and `play`: the game played, written as PGN
//! with the houserules PGN writer.
//!
//! Tags: the Seven Tag Roster (`?` where unknown, the result from the
//! final position), then the rule set: `Variant` names the game (absent
//! for FIDE chess, `Chess960` for a Chess960 game, else the game's
//! Fairy-Stockfish name where it has one, its id otherwise: the PGN crate's
//! `variant_name`), `HouseRules` holds the presets in
//! `--rules` syntax, `Modifiers` the modifiers in `--modifiers` syntax
//! (library ids with parameters); `SetUp "1"` and `FEN` when the game did
//! not start from its own start position.

use std::path::Path;

use houserules_engine::{Color, Status};
use houserules_pgn::PgnGame;

use crate::error::CliError;

/// The rule set of a written game and its tags: the PGN crate's, which
/// the server's `GET /api/games/{id}/pgn` writes too.
pub use houserules_pgn::export::RuleTags;

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
pub use houserules_pgn::export::rule_set_game as build;

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
