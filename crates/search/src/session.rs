//! Search of rule sets with modifiers: a [`Session`] whose moves may draw
//! randomness, raise choices or end the game by a modifier's rule.
//!
//! The engine-level [`crate::Searcher`] plays every game the rules engine
//! builds (presets included) at full speed; a modifier session is played
//! through the session itself, one copy per node, so this search is
//! shallower and built for the node kinds of issue 15:
//!
//! - **Decision nodes**: the side to move chooses a move, or the player a
//!   pending piece, square, column or row choice is for chooses an option
//!   (a decision ply for that player). Alpha-beta (minimax from White's
//!   point of view) over them.
//! - **Chance nodes**: a move whose play drew from the random stream
//!   (`with-probability`, `random-pick`, coin flips, kamikaze blasts…) is
//!   valued as the mean over [`SessionSearcher::samples`] outcomes, each
//!   drawn from the searcher's own stream; a coin-flip prompt is the mean
//!   over its options; a rock-paper-scissors prompt is the mean over the
//!   three throws (the uniform mix is its equilibrium). Children of a
//!   chance node are searched with a full window, so the mean is exact
//!   over the sampled outcomes.
//! - **The game's seed is never read**: the root copy is reseeded from the
//!   searcher's seed before anything is played ([`Session::reseed`]), so
//!   two games that differ only in their seed get the same answer.
//!
//! Leaves are valued by the engine's evaluation ([`EvalTables`]: piece
//! values from mobility, advancement, centralisation) of the session's
//! position, after a short capture-only quiescence; finished games by
//! their result (mate scores shortest first). Repetition and the 50-move
//! rule count as draws, as in the main search.

use crate::eval::{EvalTables, Objective};
use crate::search::{Level, Limits, Score, MATE};
use houserules_engine::{Color, Game, Move};
use houserules_session::{Input, Session};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

const INF: i32 = 32_000;
/// Captures searched beyond the horizon.
const QUIESCENCE_PLIES: u32 = 3;

/// What the engine does in a session: play a move or answer the pending
/// choice.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A move in UCI, as [`Session::legal_moves_uci`] writes it.
    Move(String),
    /// An answer to the pending choice: the option's value and, for a
    /// rock-paper-scissors prompt for both players, the answering seat
    /// (`"white"` or `"black"`), as [`Input::Choice`] takes them.
    Choice {
        /// The option, as listed in the prompt's `options`.
        value: Value,
        /// The answering player when the prompt is for both.
        player: Option<String>,
    },
}

impl Action {
    /// The session input that performs this action.
    pub fn input(&self) -> Input {
        match self {
            Action::Move(uci) => Input::Move { mv: uci.clone() },
            Action::Choice { value, player } => Input::Choice {
                choice: value.clone(),
                player: player.clone(),
                auto: None,
            },
        }
    }
}

/// The answer of a session search.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionResult {
    /// What to do; `None` when the game is over or `seat` has nothing to
    /// decide.
    pub action: Option<Action>,
    /// The expected score from `seat`'s point of view.
    pub score: Score,
    /// Last completed iteration (decision plies).
    pub depth: u32,
    /// Session copies played.
    pub nodes: u64,
}

/// An engine for modifier sessions (see the module docs).
#[derive(Clone, Debug)]
pub struct SessionSearcher {
    level: Level,
    seed: u64,
    samples: u32,
    objective: Objective,
}

impl Default for SessionSearcher {
    fn default() -> Self {
        SessionSearcher::new()
    }
}

/// Where the search stops.
struct Budget<'a> {
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    nodes: u64,
    stopped: bool,
}

impl Budget<'_> {
    fn tick(&mut self) -> bool {
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

/// One search: evaluation tables and the sampling stream.
struct Run<'a> {
    eval: EvalTables,
    n_kinds: usize,
    samples: u32,
    draws: u64,
    budget: Budget<'a>,
}

impl SessionSearcher {
    /// Level 8, seed 0, four samples per chance node.
    pub fn new() -> SessionSearcher {
        SessionSearcher {
            level: Level::default(),
            seed: 0,
            samples: 4,
            objective: Objective::Material,
        }
    }

    /// Sets the strength (depth and time caps of [`Level`]; the session
    /// search goes at most 4 decision plies deep, as every node plays a
    /// session copy).
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// Sets the searcher's own seed: the outcomes sampled at chance nodes,
    /// and the throw chosen at rock-paper-scissors, come from it.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Sets the number of outcomes sampled per chance node (at least 1).
    pub fn set_samples(&mut self, samples: u32) {
        self.samples = samples.max(1);
    }

    /// The number of outcomes sampled per chance node.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// Sets the rule set's objective (see [`Objective::from_rules`]).
    pub fn set_objective(&mut self, objective: Objective) {
        self.objective = objective;
    }

    /// Decides for `seat` in `session` within `limits` (depth, nodes,
    /// movetime, clocks) and the level's caps, until done or `stop` is set.
    /// `action` is `None` when the game is over or `seat` has nothing to
    /// decide now (the other side is to move or to choose).
    pub fn search(
        &mut self,
        session: &Session,
        seat: Color,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> SessionResult {
        let start = Instant::now();
        let mut root = session.clone();
        root.reseed(mix(self.seed) as u32);
        let budget = self.level.budget(limits, seat);
        let max_depth = limits
            .depth
            .unwrap_or(u32::MAX)
            .min(self.level.max_depth())
            .clamp(1, 4);
        let game = root.game();
        let def = game.variant().definition();
        let royal: Vec<bool> = def.pieces.iter().map(|p| p.royal).collect();
        let pawn_like: Vec<bool> = def.pieces.iter().map(|p| p.pawn_like).collect();
        let eval = if let Some(t) = game.variant().tables_u64() {
            EvalTables::new(t, royal.len(), &royal, &pawn_like, self.objective)
        } else if let Some(t) = game.variant().tables_u128() {
            EvalTables::new(t, royal.len(), &royal, &pawn_like, self.objective)
        } else {
            unreachable!("a variant has tables of one width")
        };
        let mut run = Run {
            eval,
            n_kinds: royal.len(),
            samples: self.samples,
            draws: self.seed,
            budget: Budget {
                stop,
                deadline: budget.map(|b| start + b),
                node_limit: limits.nodes,
                nodes: 0,
                stopped: false,
            },
        };
        let mut result = SessionResult {
            action: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        };
        let actions = match run.decider(&root) {
            Decider::Player(c) if c == seat => run.actions(&root),
            Decider::Rps(players) if players.contains(&seat) => {
                // The uniform mix, from the searcher's own stream.
                let throws = ["rock", "paper", "scissors"];
                let i = (mix(self.seed ^ 0x5eed) % 3) as usize;
                result.action = Some(Action::Choice {
                    value: Value::from(throws[i]),
                    player: Some(seat.name().to_string()),
                });
                return result;
            }
            Decider::Coin if seat_answers_coin(&root, seat) => {
                let options = options(&root);
                if !options.is_empty() {
                    let i = (mix(self.seed ^ 0xc011) % options.len() as u64) as usize;
                    result.action = Some(Action::Choice {
                        value: options[i].clone(),
                        player: None,
                    });
                }
                return result;
            }
            _ => return result,
        };
        if actions.is_empty() {
            return result;
        }
        result.action = Some(actions[0].clone());
        let sign = if seat == Color::White { 1 } else { -1 };
        let mut order = actions;
        for depth in 1..=max_depth {
            let mut best: Option<(i32, usize)> = None;
            let (mut alpha, mut beta) = (-INF, INF);
            let mut scored = Vec::with_capacity(order.len());
            for (i, a) in order.iter().enumerate() {
                let v = run.action_value(&root, a, depth as i32 - 1, alpha, beta, 1);
                if run.budget.stopped && depth > 1 {
                    break;
                }
                let Some(v) = v else { continue };
                scored.push((v * sign, i));
                if best.is_none_or(|(b, _)| v * sign > b) {
                    best = Some((v * sign, i));
                    if seat == Color::White {
                        alpha = alpha.max(v);
                    } else {
                        beta = beta.min(v);
                    }
                }
            }
            if run.budget.stopped && depth > 1 {
                // An unfinished iteration keeps its best move only when it
                // searched the previous best (first in order) and beat it.
                if let Some((s, i)) = best {
                    if i != 0 && scored.first().is_some_and(|&(f, _)| s > f) {
                        result.action = Some(order[i].clone());
                    }
                }
                break;
            }
            if let Some((s, i)) = best {
                result.action = Some(order[i].clone());
                result.score = Score::from_internal(s);
                result.depth = depth;
                // The best first in the next iteration.
                let b = order.remove(i);
                order.insert(0, b);
            }
            if run.budget.stopped || result.score_is_mate() {
                break;
            }
            if let Some(d) = run.budget.deadline {
                if !limits.infinite && start.elapsed() * 2 > d - start {
                    break;
                }
            }
        }
        result.nodes = run.budget.nodes;
        result
    }
}

impl SessionResult {
    fn score_is_mate(&self) -> bool {
        matches!(self.score, Score::Mate(_))
    }
}

/// Who decides at a node.
enum Decider {
    /// A move or a piece/square/column/row choice by this player.
    Player(Color),
    /// A rock-paper-scissors prompt still waiting for these players.
    Rps(Vec<Color>),
    /// A coin-flip prompt: chance over its options.
    Coin,
    /// The game is over.
    Over,
}

fn color_named(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// The options of the pending prompt.
fn options(s: &Session) -> Vec<Value> {
    s.pending_choice()
        .and_then(|c| c.prompt["options"].as_array().cloned())
        .unwrap_or_default()
}

/// Whether `seat` is the one to answer a pending coin-flip prompt.
fn seat_answers_coin(s: &Session, seat: Color) -> bool {
    s.pending_choice()
        .is_some_and(|c| color_named(&c.for_player).is_none_or(|p| p == seat))
}

impl Run<'_> {
    fn decider(&self, s: &Session) -> Decider {
        if let Some(c) = s.pending_choice() {
            return match c.kind.as_str() {
                "rps" => {
                    let waiting: Vec<Color> = [Color::White, Color::Black]
                        .into_iter()
                        .filter(|p| {
                            (c.for_player == "both" || color_named(&c.for_player) == Some(*p))
                                && !c.collected.contains_key(p.name())
                        })
                        .collect();
                    Decider::Rps(waiting)
                }
                "coin-flip" => Decider::Coin,
                _ => Decider::Player(color_named(&c.for_player).unwrap_or(s.game().turn())),
            };
        }
        if s.runtime().state().result.is_some() {
            return Decider::Over;
        }
        Decider::Player(s.game().turn())
    }

    /// The actions of the player deciding at `s`: its legal moves
    /// (captures first, most valuable victim first) or the options of
    /// its pending choice.
    fn actions(&self, s: &Session) -> Vec<Action> {
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
            .map(|(m, u)| (-self.victim_value(game, *m), Action::Move(u)))
            .collect();
        keyed.sort_by_key(|(k, _)| *k);
        keyed.into_iter().map(|(_, a)| a).collect()
    }

    fn victim_value(&self, game: &Game, m: Move) -> i32 {
        game.piece_at(m.to)
            .filter(|p| p.color != game.turn())
            .map_or(0, |p| self.eval.value(p.kind) + 1)
    }

    /// The next sampling seed.
    fn next_seed(&mut self) -> u32 {
        self.draws = self.draws.wrapping_add(1);
        mix(self.draws) as u32
    }

    /// The value (White's point of view) of playing `a` at `s`: a chance
    /// node when the play drew randomness, else the child's value; `None`
    /// when the session refuses `a`.
    fn action_value(
        &mut self,
        s: &Session,
        a: &Action,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> Option<i32> {
        let mut child = s.clone();
        let drawn = child.runtime().state().rng;
        // The actions are the session's own, so a refusal means the game
        // ended in a way the search did not see (it is then never chosen).
        child.submit(a.input()).ok()?;
        if child.runtime().state().rng.stream == drawn.stream || self.samples == 1 {
            return Some(self.value(&child, depth, alpha, beta, ply));
        }
        // A chance node: the mean over sampled outcomes, the first being
        // the one just played (already from the searcher's stream).
        let mut total = i64::from(self.value(&child, depth, -INF, INF, ply));
        for _ in 1..self.samples {
            let mut c = s.clone();
            c.reseed(self.next_seed());
            if c.submit(a.input()).is_err() {
                continue;
            }
            total += i64::from(self.value(&c, depth, -INF, INF, ply));
        }
        Some((total / i64::from(self.samples)) as i32)
    }

    /// The value of `s` from White's point of view.
    fn value(&mut self, s: &Session, depth: i32, mut alpha: i32, mut beta: i32, ply: i32) -> i32 {
        self.budget.tick();
        if let Some(v) = self.terminal(s, ply) {
            return v;
        }
        match self.decider(s) {
            Decider::Over => self.terminal(s, ply).unwrap_or(0),
            Decider::Coin => self.mean_over_options(s, None, depth, ply),
            Decider::Rps(waiting) => match waiting.first() {
                Some(p) => self.mean_over_options(s, Some(*p), depth, ply),
                None => self.static_value(s),
            },
            Decider::Player(p) => {
                let choosing = s.pending_choice().is_some();
                if depth <= 0 && !choosing {
                    return self.quiescence(s, alpha, beta, QUIESCENCE_PLIES, ply);
                }
                if self.budget.stopped {
                    return self.static_value(s);
                }
                let actions = self.actions(s);
                if actions.is_empty() {
                    return self.terminal_now(s, ply);
                }
                // A choice is a decision ply of its own, but costs no depth
                // so that the move that raised it is seen to its end.
                let next = if choosing { depth } else { depth - 1 };
                let mut best = None;
                for a in &actions {
                    let Some(v) = self.action_value(s, a, next, alpha, beta, ply + 1) else {
                        continue;
                    };
                    let best = best.get_or_insert(v);
                    if p == Color::White {
                        *best = (*best).max(v);
                        alpha = alpha.max(v);
                    } else {
                        *best = (*best).min(v);
                        beta = beta.min(v);
                    }
                    if alpha >= beta || self.budget.stopped {
                        break;
                    }
                }
                best.unwrap_or_else(|| self.terminal_now(s, ply))
            }
        }
    }

    /// The mean value over the options of the pending prompt (answered as
    /// `player` for a prompt to both).
    fn mean_over_options(
        &mut self,
        s: &Session,
        player: Option<Color>,
        depth: i32,
        ply: i32,
    ) -> i32 {
        let opts = options(s);
        if opts.is_empty() {
            return self.static_value(s);
        }
        let mut total = 0i64;
        let mut n = 0i64;
        for value in opts {
            let a = Action::Choice {
                value,
                player: player.map(|p| p.name().to_string()),
            };
            let mut c = s.clone();
            if c.submit(a.input()).is_err() {
                continue;
            }
            total += i64::from(self.value(&c, depth, -INF, INF, ply));
            n += 1;
        }
        if n == 0 {
            self.static_value(s)
        } else {
            (total / n) as i32
        }
    }

    /// Captures only, with stand-pat, on White's scale.
    fn quiescence(
        &mut self,
        s: &Session,
        mut alpha: i32,
        mut beta: i32,
        left: u32,
        ply: i32,
    ) -> i32 {
        // A position without moves is mate or stalemate (or a rule's end):
        // its status, not the material, is its value.
        let legal = s.legal_moves();
        if legal.is_empty() {
            return self.terminal_now(s, ply);
        }
        let stand = self.static_value(s);
        if left == 0 || self.budget.stopped {
            return stand;
        }
        let white = s.game().turn() == Color::White;
        if white {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let game = s.game();
        let uci = s.legal_moves_uci();
        let mut captures: Vec<(i32, String)> = legal
            .iter()
            .zip(uci)
            .filter_map(|(m, u)| {
                let v = self.victim_value(game, *m);
                (v > 0).then_some((-v, u))
            })
            .collect();
        captures.sort_by_key(|(k, _)| *k);
        let mut best = stand;
        for (_, u) in captures {
            self.budget.tick();
            let mut c = s.clone();
            if c.submit(Input::Move { mv: u }).is_err() {
                continue;
            }
            let v = match self.terminal(&c, ply + 1) {
                Some(t) => t,
                None if c.pending_choice().is_some() => self.static_value(&c),
                None => self.quiescence(&c, alpha, beta, left - 1, ply + 1),
            };
            if white {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta || self.budget.stopped {
                break;
            }
        }
        best
    }

    /// The evaluation of the position, White's point of view.
    fn static_value(&self, s: &Session) -> i32 {
        let game = s.game();
        let v = if let Some(p) = game.position::<u64>() {
            self.eval.evaluate(p, self.n_kinds)
        } else if let Some(p) = game.position::<u128>() {
            self.eval.evaluate(p, self.n_kinds)
        } else {
            0
        };
        if game.turn() == Color::White {
            v
        } else {
            -v
        }
    }

    /// A finished game's value (White's point of view), found without
    /// listing moves: a modifier's result, a repetition or the 50-move
    /// rule (counted as draws by the search, as in the main search).
    fn terminal(&self, s: &Session, ply: i32) -> Option<i32> {
        if s.runtime().state().result.is_some() {
            return Some(self.result_value(&s.status(), ply));
        }
        if s.pending_choice().is_some() {
            return None;
        }
        let g = s.game();
        if g.repetitions() >= 3 || g.halfmove_clock() >= 100 || g.is_insufficient_material() {
            return Some(0);
        }
        None
    }

    /// The value of a node with no action: the session's status.
    fn terminal_now(&self, s: &Session, ply: i32) -> i32 {
        self.result_value(&s.status(), ply)
    }

    fn result_value(&self, status: &Value, ply: i32) -> i32 {
        match status.get("winner").and_then(Value::as_str) {
            Some("white") => MATE - ply,
            Some("black") => -(MATE - ply),
            _ => 0,
        }
    }
}

/// SplitMix64's finaliser.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
