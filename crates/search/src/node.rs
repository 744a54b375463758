//! What both session searchers ([`crate::SessionSearcher`] and
//! [`crate::MctsSearcher`]) read at a node: the evaluation of a session's
//! position, the actions of the player deciding there (captures first),
//! the options of a pending prompt and the mixing function that derives
//! their own random streams. One copy, so that the two searchers compared
//! by self-play value positions and order actions the same way.

use crate::eval::{EvalTables, Objective};
use crate::session::Action;
use houserules_engine::{Color, Game, Move};
use houserules_session::Session;
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Where a session search stops: the caller's `stop` flag, a deadline, a
/// node limit. Both searchers count one node per [`Budget::tick`]; the
/// flag and the clock are read every 64 nodes.
pub(crate) struct Budget<'a> {
    stop: &'a AtomicBool,
    pub deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// Nodes counted so far.
    pub nodes: u64,
    /// Set once the search must stop; it stays set.
    pub stopped: bool,
}

impl<'a> Budget<'a> {
    /// A budget with no node counted yet.
    pub fn new(stop: &'a AtomicBool, deadline: Option<Instant>, node_limit: Option<u64>) -> Self {
        Budget {
            stop,
            deadline,
            node_limit,
            nodes: 0,
            stopped: false,
        }
    }

    /// Counts one node; whether the search must stop.
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.stopped {
            return true;
        }
        if self.nodes.is_multiple_of(64)
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        self.stopped
    }
}

/// The evaluation tables of the game `s` plays under `objective`, and its
/// number of piece kinds.
pub(crate) fn eval_tables(s: &Session, objective: Objective) -> (EvalTables, usize) {
    let game = s.game();
    let def = game.variant().definition();
    let royal: Vec<bool> = def.pieces.iter().map(|p| p.royal).collect();
    let pawn_like: Vec<bool> = def.pieces.iter().map(|p| p.pawn_like).collect();
    let eval = if let Some(t) = game.variant().tables_u64() {
        EvalTables::new(t, royal.len(), &royal, &pawn_like, objective)
    } else if let Some(t) = game.variant().tables_u128() {
        EvalTables::new(t, royal.len(), &royal, &pawn_like, objective)
    } else {
        unreachable!("a variant has tables of one width")
    };
    (eval, royal.len())
}

/// The evaluation of the session's position (mobility included), from
/// White's point of view, in centipawns.
pub(crate) fn static_value(eval: &EvalTables, n_kinds: usize, s: &Session) -> i32 {
    let game = s.game();
    let variant = game.variant();
    let v = if let (Some(t), Some(p)) = (variant.tables_u64(), game.position::<u64>()) {
        eval.evaluate_in(t, p, n_kinds)
    } else if let (Some(t), Some(p)) = (variant.tables_u128(), game.position::<u128>()) {
        eval.evaluate_in(t, p, n_kinds)
    } else {
        0
    };
    if game.turn() == Color::White {
        v
    } else {
        -v
    }
}

/// The value of the piece `m` captures (plus 1, so that any capture sorts
/// before a quiet move), 0 for a quiet move.
pub(crate) fn victim_value(eval: &EvalTables, game: &Game, m: Move) -> i32 {
    game.piece_at(m.to)
        .filter(|p| p.color != game.turn())
        .map_or(0, |p| eval.value(p.kind) + 1)
}

/// The actions of the player deciding at `s`: its legal moves (captures
/// first, most valuable victim first) or the options of its pending
/// choice.
pub(crate) fn actions(eval: &EvalTables, s: &Session) -> Vec<Action> {
    if s.pending_choice().is_some() {
        return options(s)
            .into_iter()
            .map(|value| Action::Choice {
                value,
                player: None,
            })
            .collect();
    }
    let game = s.game();
    let legal = s.legal_moves();
    let uci = s.legal_moves_uci();
    let mut keyed: Vec<(i32, Action)> = legal
        .iter()
        .zip(uci)
        .map(|(m, u)| (-victim_value(eval, game, *m), Action::Move(u)))
        .collect();
    keyed.sort_by_key(|(k, _)| *k);
    keyed.into_iter().map(|(_, a)| a).collect()
}

pub(crate) fn color_named(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// The options of the pending prompt.
pub(crate) fn options(s: &Session) -> Vec<Value> {
    s.pending_choice()
        .and_then(|c| c.prompt["options"].as_array().cloned())
        .unwrap_or_default()
}

/// Whether `seat` is the one to answer a pending coin-flip prompt.
pub(crate) fn seat_answers_coin(s: &Session, seat: Color) -> bool {
    s.pending_choice()
        .is_some_and(|c| color_named(&c.for_player).is_none_or(|p| p == seat))
}

/// SplitMix64's finaliser.
pub(crate) fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
