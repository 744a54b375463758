//! `--play MOVES`: a move list played from the chosen position before a
//! command works on it, as UCI's `position … moves …` does.

use houserules_engine::echo::echo;
use houserules_engine::uci::is_uci_shaped;
use houserules_engine::{Game, Status};

use crate::error::CliError;

/// The moves of a `--play` list: UCI or SAN tokens separated by commas or
/// white space, with move numbers (`1.`, `12...`, the `2.` of `2.Nf3`) and
/// `e.p.` skipped.
pub fn tokens(list: &str) -> impl Iterator<Item = &str> {
    list.split(|c: char| c == ',' || c.is_whitespace())
        .map(strip_move_number)
        .filter(|s| !s.is_empty() && *s != "e.p.")
}

/// Plays the moves of `list` (see [`tokens`]) on `game`, each in UCI or
/// SAN, and returns them in SAN as written before each was played (for
/// PGN). The repetition history grows with them, so claims and automatic
/// draws count the played positions.
///
/// # Errors
/// [`CliError::Input`] for the first move that cannot be played: its
/// number in the list, its text, the position (FEN) and why (the game is
/// over, or the engine's refusal: illegal, ambiguous, unreadable). The
/// moves before it stay played.
pub fn play(game: &mut Game, list: &str) -> Result<Vec<String>, CliError> {
    let mut sans = Vec::new();
    for (i, mv) in tokens(list).enumerate() {
        let fen = game.fen();
        let refused = |why: String| {
            CliError::input(format!(
                "--play: move {} `{}` cannot be played in `{fen}`: {why}",
                i + 1,
                echo(mv)
            ))
        };
        // A decided game takes no more moves; say so rather than calling
        // the move illegal.
        let status = game.status();
        if !matches!(status, Status::Ongoing) {
            return Err(refused(format!("the game is over ({})", status.name())));
        }
        let parsed = if is_uci_shaped(mv) {
            game.parse_uci(mv).map_err(|e| e.to_string())
        } else {
            game.parse_san(mv).map_err(|e| e.to_string())
        };
        let m = parsed.map_err(refused)?;
        let san = game.san(m);
        game.apply(m).map_err(|e| refused(e.to_string()))?;
        sans.push(san);
    }
    Ok(sans)
}

/// Plays the moves of `list` (see [`tokens`]) in a modifier session, each
/// in UCI or SAN, with the whole after-move dispatch. A move that leaves a
/// choice pending ends the list: the next move would be refused anyway.
///
/// # Errors
/// [`CliError::Input`] for the first move the session refuses: its number
/// in the list, its text, the position (FEN) and the session's reason.
pub fn play_session(session: &mut houserules_session::Session, list: &str) -> Result<(), CliError> {
    for (i, mv) in tokens(list).enumerate() {
        let fen = session.game().fen();
        session
            .submit(houserules_session::Input::Move { mv: mv.to_string() })
            .map_err(|e| {
                CliError::input(format!(
                    "--play: move {} `{}` cannot be played in `{fen}`: {e}",
                    i + 1,
                    echo(mv)
                ))
            })?;
    }
    Ok(())
}

/// A token of a pasted move list without its move number: `1.` and `12...`
/// become empty, `2.Nf3` becomes `Nf3` (PGN export format writes no space
/// there, and readers accept both).
fn strip_move_number(s: &str) -> &str {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &s[digits..];
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    if digits > 0 && dots > 0 {
        &rest[dots..]
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_skip_move_numbers_and_separators() {
        let t: Vec<&str> = tokens("1. e4 e5,2.Nf3  Nc6\t3... Bb5 e.p.").collect();
        assert_eq!(t, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    }
}
