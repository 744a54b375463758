//! # houserules-pgn
//!
//! Portable Game Notation for houserules:
//!
//! - [`Reader`]: a streaming reader that yields one [`PgnGame`] at a time
//!   from any [`std::io::BufRead`], with memory bounded by one game. A
//!   malformed game gives a [`PgnError`] with its game number, line and
//!   column, and reading goes on with the next game.
//! - [`write_pgn`] / [`write_game`]: the writer (Seven Tag Roster first,
//!   move numbers, comments, NAGs, variations, lines of at most 80
//!   columns).
//! - [`replay()`]: plays a game's mainline on the houserules engine
//!   (`FEN`/`Variant` tags, SAN with a UCI fallback) and reports plies,
//!   final position, status and the first error; [`replay_with`] lets the
//!   caller choose the rules for a `Variant` tag (presets, definitions).
//!
//! ```
//! use houserules_pgn::{replay, write_pgn, Reader};
//! let text = "[Event \"Mate\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
//! let game = Reader::new(text.as_bytes()).next().unwrap().unwrap();
//! let r = replay(&game);
//! assert_eq!(r.plies, 4);
//! assert_eq!(r.status().as_deref(), Some("checkmate"));
//! assert!(write_pgn(&game).starts_with("[Event \"Mate\"]\n[Result \"0-1\"]\n\n1. f3 e5"));
//! ```

mod error;
pub mod export;
mod model;
mod reader;
pub mod replay;
mod writer;

pub use error::PgnError;
pub use export::{export_moves, export_tags, ExportProblems};
pub use model::{Line, MoveNode, PgnGame, Tag, TextPos};
pub use reader::{
    glyph_nag, EventSink, MoveSink, Reader, Streamed, DEFAULT_MAX_GAME_BYTES,
    DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_STORED_BYTES, DEFAULT_MAX_TAG_BYTES, MAX_VARIATION_DEPTH,
    NOT_TEXT, RESULTS, TAG_OVERHEAD,
};
pub use replay::{
    claim_name, replay, replay_from, replay_with, result_of, Replay, ReplayError, ReplayErrorKind,
    ReplayWarning, Replayer, Rules, VariantResolver,
};
pub use writer::{ordered_tags, write_game, write_pgn, LINE_WIDTH, SEVEN_TAG_ROSTER};
