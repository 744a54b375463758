//! Errors of the PGN reader.

use crate::model::TextPos;

/// Why a game could not be read.
///
/// A syntax error spoils one game only: the reader skips to the end of that
/// game and goes on with the next one. A read error ends the stream.
#[derive(Debug, thiserror::Error)]
pub enum PgnError {
    /// The text of a game is malformed.
    #[error("game {game}, line {pos}: {message}")]
    Syntax {
        /// 1-based number of the game in the stream.
        game: usize,
        /// Where the problem is.
        pos: TextPos,
        /// What is wrong.
        message: String,
    },
    /// The input is not text (a compressed or binary file); nothing is
    /// read from it.
    #[error("{}", crate::reader::NOT_TEXT)]
    NotText,
    /// The underlying reader failed; no further games are read.
    #[error("game {game}, line {line}: read error: {source}")]
    Io {
        /// 1-based number of the game being read when the error happened.
        game: usize,
        /// The 1-based line that could not be read.
        line: u64,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

impl PgnError {
    /// The 1-based number of the game the error belongs to.
    pub fn game(&self) -> usize {
        match self {
            PgnError::Syntax { game, .. } | PgnError::Io { game, .. } => *game,
            PgnError::NotText => 1,
        }
    }

    /// Where the error is in the text (line and column; column 1 for read
    /// errors).
    pub fn pos(&self) -> TextPos {
        match self {
            PgnError::Syntax { pos, .. } => *pos,
            PgnError::Io { line, .. } => TextPos {
                line: *line,
                column: 1,
            },
            PgnError::NotText => TextPos { line: 1, column: 1 },
        }
    }

    /// The description without the game and position prefix.
    pub fn message(&self) -> String {
        match self {
            PgnError::Syntax { message, .. } => message.clone(),
            PgnError::Io { source, .. } => format!("read error: {source}"),
            PgnError::NotText => crate::reader::NOT_TEXT.to_string(),
        }
    }
}
