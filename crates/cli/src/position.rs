//! The options that choose a game and a position, shared by every
//! subcommand that works on one position. Later issues add `--game`,
//! `--rules` and `--layout` here.

use clap::Args;
use houserules_engine::{Game, Variant};

use crate::error::CliError;

/// Which position to work on.
#[derive(Clone, Debug, Default, Args)]
pub struct PositionArgs {
    /// The position in FEN (X-FEN or Shredder-FEN castling letters), or
    /// `startpos` for the start position [default: startpos]
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
}

impl PositionArgs {
    /// The game being played (FIDE chess until rule options exist).
    pub fn variant(&self) -> Variant {
        Variant::chess()
    }

    /// The game at the chosen position.
    ///
    /// # Errors
    /// [`CliError::Input`] naming the FEN and what is wrong with it.
    pub fn game(&self) -> Result<Game, CliError> {
        let fen = self.fen.as_deref().unwrap_or("startpos");
        Game::from_fen(self.variant(), fen)
            .map_err(|e| CliError::input(format!("invalid --fen `{fen}`: {e}")))
    }
}
