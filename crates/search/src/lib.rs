//! # houserules-search
//!
//! An engine opponent for any game the rules engine builds (FIDE chess,
//! the shipped YAML games, preset rule sets): iterative-deepening
//! principal variation search with a transposition table keyed by the
//! position hash (rule-layer state slots included, as the engine hashes
//! them), quiescence on captures, move ordering (hash move, MVV-LVA,
//! killers, history), check extension and null-move pruning where the
//! rules make it safe (see [`null_move_safe`]).
//!
//! Pure: no I/O, no threads. The caller passes an [`AtomicBool`](std::sync::atomic::AtomicBool) stop
//! flag, polled every 1024 nodes.
//!
//! ```
//! use houserules_engine::Game;
//! use houserules_search::{Limits, Searcher};
//! use std::sync::atomic::AtomicBool;
//! let mut game = Game::chess();
//! for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"] {
//!     game.apply_san(san).unwrap();
//! }
//! let mut s = Searcher::new(1);
//! let r = s.search(&game, &Limits::depth(3), &AtomicBool::new(false), |_| {});
//! assert_eq!(game.san(r.best.unwrap()), "Qxf7#");
//! ```

mod eval;
mod mcts;
mod node;
mod search;
mod session;

pub use eval::{EvalTables, Objective, PAWN_VALUE};
pub use mcts::{session_engine_for, MctsSearcher, SessionEngine, SessionPlayer};
pub use search::{
    null_move_safe, Level, Limits, Score, SearchInfo, SearchResult, Searcher, LEVEL_ELO,
};
pub use session::{Action, SessionResult, SessionSearcher};
