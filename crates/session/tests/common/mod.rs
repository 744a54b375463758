//! Helpers shared by the modifier session tests: a session from a FEN and
//! descriptors, playing one UCI move, and the random input of the seeded
//! playouts (`compiled_legality.rs`, `runtime_fuzz.rs`, `determinism.rs`).
//!
//! None of them computes an expected value: they only drive our runtime,
//! and every test states what it expects itself.

#![allow(dead_code)]

use houserules_modifiers::Mulberry32;
use houserules_session::{CreateRequest, Input, Session};
use serde_json::Value;

/// A session from `fen` with the `modifiers` (descriptors or library ids),
/// default seed. Panics with the error if it is refused.
pub fn session(fen: &str, modifiers: Vec<Value>) -> Session {
    Session::create(CreateRequest {
        fen: Some(fen.into()),
        modifiers,
        ..CreateRequest::default()
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Submits the UCI move `uci`; panics with the error if it is refused.
pub fn mv(s: &mut Session, uci: &str) {
    s.submit(Input::Move { mv: uci.into() })
        .unwrap_or_else(|e| panic!("{uci}: {e}"));
}

/// Whether a choice is pending and offers no option to pick.
pub fn choice_without_options(s: &Session) -> bool {
    s.pending_choice().is_some_and(|pc| {
        pc.prompt["options"]
            .as_array()
            .is_none_or(|opts| opts.is_empty())
    })
}

/// The next input of a random playout, drawn from the test's own stream
/// `pick`: a random option of the pending choice (for a choice asked of
/// both players, White answers first, then Black), else a random legal
/// move. `None` when no choice is pending and there is no legal move or
/// the game is over.
///
/// Panics if the pending choice offers no option: callers that accept
/// such a choice check [`choice_without_options`] first.
pub fn random_input(s: &Session, pick: &mut Mulberry32) -> Option<Input> {
    if let Some(pc) = s.pending_choice() {
        let opts = pc.prompt["options"].as_array().cloned().unwrap_or_default();
        assert!(
            !opts.is_empty(),
            "choice {} offers no option at {}",
            pc.choice_id,
            s.game().fen()
        );
        let choice = opts[pick.below(opts.len() as u32) as usize].clone();
        let player = (pc.for_player == "both").then(|| {
            if pc.collected.contains_key("white") {
                "black"
            } else {
                "white"
            }
            .to_string()
        });
        Some(Input::Choice {
            choice,
            player,
            auto: None,
        })
    } else {
        let moves = s.legal_moves_uci();
        if moves.is_empty() || s.is_over() {
            return None;
        }
        Some(Input::Move {
            mv: moves[pick.below(moves.len() as u32) as usize].clone(),
        })
    }
}

/// Perft through the session: every legal move played by `submit`.
pub fn perft(s: &Session, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    s.legal_moves_uci()
        .iter()
        .map(|m| {
            let mut c = s.clone();
            c.submit(Input::Move { mv: m.clone() })
                .expect("a legal move");
            perft(&c, depth - 1)
        })
        .sum()
}
