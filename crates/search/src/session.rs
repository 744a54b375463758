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
//!   searcher's seed before anything is played ([`Session::reseed`]), and
//!   every action is played on a copy reseeded from the searcher's seed,
//!   the position's hash, the action and the sample's number, so two games
//!   that differ only in their seed get the same answer, and a node's
//!   value depends on its state alone, never on the path that reached it
//!   (what the transposition table needs).
//! - **Transposition table**: decision nodes are stored under
//!   [`Session::search_key`] (the position and the rule-layer state:
//!   modifiers, markers, attributes, variables, pending choices, counters
//!   and the ply count; not the random stream): their best action is
//!   searched first on the next visit, and a stored value of the same or
//!   a greater depth cuts the search off. Chance nodes and quiescence are
//!   not stored; a decision node's value is stored only when its subtree
//!   was searched to the end (never after the budget ran out).
//!
//! Leaves are valued by the engine's evaluation ([`EvalTables`]: piece
//! values from mobility, advancement, centralisation) of the session's
//! position, after a short capture-only quiescence; finished games by
//! their result (mate scores shortest first). Repetition and the 50-move
//! rule count as draws, as in the main search.

use crate::eval::{EvalTables, Objective};
use crate::node::{self, color_named, mix, options, seat_answers_coin, Budget};
use crate::search::{Level, Limits, Score, MATE, MATE_BOUND};
use houserules_engine::{Color, Game, Move};
use houserules_session::{Input, Session};
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

const INF: i32 = 32_000;
/// Captures searched beyond the horizon.
const QUIESCENCE_PLIES: u32 = 3;
/// Entries of the transposition table (16 bytes each: 1 MiB), allocated
/// per search.
const TT_ENTRIES: usize = 1 << 16;

/// How a stored value bounds the node's value (White's point of view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    /// The value is at least this.
    Lower,
    /// The value is at most this.
    Upper,
}

/// One slot of the session search's transposition table.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// [`Session::search_key`]; 0 marks an empty slot.
    key: u64,
    /// White's point of view, mate distances relative to the node.
    value: i32,
    /// Decision plies searched below the node.
    depth: i16,
    bound: Bound,
    /// Index of the best action in the node's action list, plus one (0:
    /// none).
    best: u16,
}

/// `actions` of a reseeded copy of `session` less the moves `session`
/// itself does not allow (all of `session`'s moves when none is left). Legality that sees a move's effects draws the
/// game's own random outcomes (docs/modifiers.md § Legality that sees a
/// move's effects), so a root reseeded from the searcher's seed may allow a
/// move the game refuses (regression: the test
/// `plays_only_accepted_actions_under_random_rule_sets_with_choices`
/// failed now and then with `all_on_red` + `second_chance`).
pub(crate) fn only_legal_in(session: &Session, mut actions: Vec<Action>) -> Vec<Action> {
    let legal = session.legal_moves_uci();
    actions.retain(|a| match a {
        Action::Move(m) => legal.contains(m),
        Action::Choice { .. } => true,
    });
    // The copy allowed none of the game's moves: the game's own list.
    if actions.is_empty() {
        actions = legal.into_iter().map(Action::Move).collect();
    }
    actions
}

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
    tt: bool,
}

impl Default for SessionSearcher {
    fn default() -> Self {
        SessionSearcher::new()
    }
}

/// One search: evaluation tables and the sampling stream.
struct Run<'a> {
    eval: EvalTables,
    n_kinds: usize,
    samples: u32,
    /// The searcher's seed: sampled outcomes are drawn from it.
    seed: u64,
    /// The transposition table, when on.
    tt: Option<Vec<Entry>>,
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
            tt: true,
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

    /// Turns the transposition table on (the default) or off. At a fixed
    /// depth both give the same action and score (tested); the switch is
    /// there to measure what the table saves.
    pub fn set_transposition_table(&mut self, on: bool) {
        self.tt = on;
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
        let (eval, n_kinds) = node::eval_tables(&root, self.objective);
        let mut run = Run {
            eval,
            n_kinds,
            samples: self.samples,
            seed: self.seed,
            tt: self.tt.then(|| vec![Entry::default(); TT_ENTRIES]),
            budget: Budget::new(stop, budget.map(|b| start + b), limits.nodes),
        };
        let mut result = SessionResult {
            action: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        };
        let actions = match run.decider(&root) {
            Decider::Player(c) if c == seat => only_legal_in(session, run.actions(&root)),
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

    fn actions(&self, s: &Session) -> Vec<Action> {
        node::actions(&self.eval, s)
    }

    fn victim_value(&self, game: &Game, m: Move) -> i32 {
        node::victim_value(&self.eval, game, m)
    }

    /// The seed of the copy on which `a` (written `text`) is played from
    /// `s` for sample `i`: a function of the searcher's seed, the
    /// position and the action, so that the outcomes drawn below a node
    /// (and so its value) depend on the node's state and never on the
    /// path to it or on the game's own stream.
    fn sample_seed(&self, s: &Session, text: &str, i: u32) -> u32 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for b in text.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        mix(self.seed ^ mix(s.game().hash() ^ mix(h ^ u64::from(i)))) as u32
    }

    /// `a` played on a copy of `s` reseeded for sample `i`; `None` when
    /// the session refuses it.
    fn play(&self, s: &Session, a: &Action, i: u32) -> Option<Session> {
        let mut c = s.clone();
        c.reseed(self.sample_seed(s, &action_text(a), i));
        c.submit(a.input()).ok()?;
        Some(c)
    }

    fn tt_probe(&self, key: u64) -> Option<Entry> {
        let tt = self.tt.as_ref()?;
        let e = tt[key as usize & (tt.len() - 1)];
        (e.key == key && key != 0).then_some(e)
    }

    fn tt_store(&mut self, key: u64, value: i32, depth: i32, bound: Bound, best: usize, ply: i32) {
        if let Some(tt) = self.tt.as_mut() {
            let n = tt.len();
            // Mate distances are stored from the node, not from the root.
            let value = if value >= MATE_BOUND {
                value + ply
            } else if value <= -MATE_BOUND {
                value - ply
            } else {
                value
            };
            tt[key as usize & (n - 1)] = Entry {
                key,
                value,
                depth: depth.clamp(0, i32::from(i16::MAX)) as i16,
                bound,
                best: u16::try_from(best + 1).unwrap_or(0),
            };
        }
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
        // The actions are the session's own, so a refusal means the game
        // ended in a way the search did not see (it is then never chosen).
        let child = self.play(s, a, 0)?;
        // The copy's stream was fresh: a draw made means a chance node.
        if child.runtime().state().rng.stream == 0 || self.samples == 1 {
            return Some(self.value(&child, depth, alpha, beta, ply));
        }
        // A chance node: the mean over sampled outcomes, the first being
        // the one just played.
        let mut total = i64::from(self.value(&child, depth, -INF, INF, ply));
        for i in 1..self.samples {
            let Some(c) = self.play(s, a, i) else {
                continue;
            };
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
                let key = self.tt.as_ref().map(|_| s.search_key());
                let entry = key.and_then(|k| self.tt_probe(k));
                if let Some(e) = entry {
                    if i32::from(e.depth) >= depth {
                        let v = if e.value >= MATE_BOUND {
                            e.value - ply
                        } else if e.value <= -MATE_BOUND {
                            e.value + ply
                        } else {
                            e.value
                        };
                        let cut = match e.bound {
                            Bound::Exact => true,
                            Bound::Lower => v >= beta,
                            Bound::Upper => v <= alpha,
                        };
                        if cut {
                            return v;
                        }
                    }
                }
                let actions = self.actions(s);
                if actions.is_empty() {
                    return self.terminal_now(s, ply);
                }
                // `order[i]` is the index in `actions` of the i-th searched.
                let mut order: Vec<usize> = (0..actions.len()).collect();
                if let Some(e) = entry {
                    // The stored best action first.
                    let i = usize::from(e.best);
                    if (2..=actions.len()).contains(&i) {
                        order.remove(i - 1);
                        order.insert(0, i - 1);
                    }
                }
                let (alpha0, beta0) = (alpha, beta);
                // A choice is a decision ply of its own, but costs no depth
                // so that the move that raised it is seen to its end.
                let next = if choosing { depth } else { depth - 1 };
                let mut best: Option<(i32, usize)> = None;
                for &i in &order {
                    let a = &actions[i];
                    let Some(v) = self.action_value(s, a, next, alpha, beta, ply + 1) else {
                        continue;
                    };
                    let better =
                        best.is_none_or(|(b, _)| if p == Color::White { v > b } else { v < b });
                    if better {
                        best = Some((v, i));
                    }
                    if p == Color::White {
                        alpha = alpha.max(v);
                    } else {
                        beta = beta.min(v);
                    }
                    if alpha >= beta || self.budget.stopped {
                        break;
                    }
                }
                let Some((v, i)) = best else {
                    return self.terminal_now(s, ply);
                };
                if let (Some(key), false) = (key, self.budget.stopped) {
                    // Fail-soft: a value at or below the window's floor
                    // bounds the node from above, one at or above its
                    // ceiling from below, for either side to move.
                    let bound = if v <= alpha0 {
                        Bound::Upper
                    } else if v >= beta0 {
                        Bound::Lower
                    } else {
                        Bound::Exact
                    };
                    self.tt_store(key, v, depth, bound, i, ply);
                }
                v
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
            let Some(c) = self.play(s, &a, 0) else {
                continue;
            };
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
            c.reseed(self.sample_seed(s, &u, 0));
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
        node::static_value(&self.eval, self.n_kinds, s)
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

/// The text an action's sampling seed is derived from: the move in UCI,
/// or the option's JSON and the answering seat.
fn action_text(a: &Action) -> String {
    match a {
        Action::Move(uci) => uci.clone(),
        Action::Choice { value, player } => format!("{value}|{}", player.as_deref().unwrap_or("")),
    }
}
