//! # houserules-engine
//!
//! The rules engine of houserules: one generic bitboard move generator that
//! plays FIDE chess exactly and, on the same code path, any game described
//! by a [`GameDefinition`] (board up to 128 squares, pieces built from
//! steps, rides and leaps, royalty, promotion, castling, en passant).
//!
//! Pure: no I/O, no async, no global state beyond constant tables.
//!
//! ```
//! use houserules_engine::{Game, Status};
//! let mut game = Game::chess();
//! for san in ["f3", "e5", "g4", "Qh4#"] {
//!     game.apply_san(san).unwrap();
//! }
//! assert_eq!(game.status(), Status::Checkmate { winner: houserules_engine::Color::Black });
//! ```

pub mod bitboard;
pub mod definition;
pub mod echo;
pub mod fen;
mod game;
pub mod hooks;
mod magic;
mod movegen;
mod orthodox;
mod perft;
pub mod position;
pub mod san;
pub mod suite;
pub mod tables;
mod types;
pub mod uci;
mod variant;
mod zobrist;

pub use bitboard::BitSet;
pub use definition::GameDefinition;
pub use game::{Claim, Game, GameError, Status};
pub use movegen::TargetBatch;
pub use position::{Position, RULE_SLOTS};
pub use tables::{DefinitionError, Tables};
pub use types::{Color, Move, MoveKind, Piece, PieceKind, Square};
pub use variant::Variant;
