//! Monte-Carlo tree search of modifier sessions (issue 15: the fallback
//! for rule sets whose evaluation misleads), and the per-rule-set choice
//! between it and the alpha-beta [`crate::SessionSearcher`].
//!
//! [`MctsSearcher`] answers the same question as
//! [`crate::SessionSearcher::search`] (same [`Action`], same
//! [`SessionResult`], same limits) by open-loop UCT:
//!
//! - **One iteration** starts from a copy of the root reseeded from the
//!   searcher's own stream (a new seed per iteration, so the game's seed
//!   is never read and every visit of a move that draws randomness samples
//!   a fresh outcome), walks the tree by UCT, adds one child, runs a short
//!   playout and backs the result up.
//! - **Decision nodes**: the player to act (the side to move, or the
//!   player a piece, square, column or row prompt is for) picks the child
//!   maximising `Q + c·sqrt(ln N / n)`, `Q` being the mean result from
//!   *that player's* point of view. The tree is open-loop (a node is the
//!   sequence of actions, not a state), so the actions available at a node
//!   may change from visit to visit (a blast removed a piece, a coin came
//!   up tails); only the available children compete, and `N` is the sum of
//!   their visits.
//! - **Chance prompts** (coin flips, rock-paper-scissors) are answered by a
//!   uniform draw from the searcher's stream wherever they appear below the
//!   root: the uniform mix is rock-paper-scissors' equilibrium, and a coin
//!   call does not change the coin.
//! - **Playouts** of [`MctsSearcher::set_playout_plies`] plies (2 by
//!   default), lightly guided: three times in four the capture of the most
//!   valuable victim when there is one, else a uniformly random move;
//!   then cut by the evaluation ([`EvalTables`]), turned into White's
//!   winning chance `1 / (1 + 10^(−cp/400))` (the Elo curve, a pawn being
//!   worth about 100 points). Finished games score exactly: 1, ½ or 0.
//! - **The answer** is the most visited root child (ties: the better mean).
//!
//! A node is one move or answer played through a session, as in
//! [`crate::SessionSearcher`], so node limits compare the two searches at
//! equal work. Deterministic for a fixed seed and node limit.

use crate::eval::{EvalTables, Objective};
use crate::node::{self, color_named, mix, options, seat_answers_coin, Budget};
use crate::search::{Level, Limits, Score};
use crate::session::{Action, SessionResult, SessionSearcher};
use houserules_engine::{Color, Game, Move};
use houserules_session::Session;
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The exploration constant of UCT on results in [0, 1].
const EXPLORATION: f64 = 0.7;
/// Nodes per level-capped depth when a search has neither a node limit,
/// nor a time budget, nor `infinite` (only a depth): it must stop.
const NODES_PER_DEPTH: u64 = 5_000;

/// Which session search plays a rule set with modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionEngine {
    /// Expectimax alpha-beta ([`crate::SessionSearcher`]).
    AlphaBeta,
    /// Monte-Carlo tree search ([`MctsSearcher`]).
    Mcts,
}

impl SessionEngine {
    /// Parses `alphabeta` or `mcts`; `None` otherwise.
    pub fn parse(s: &str) -> Option<SessionEngine> {
        match s {
            "alphabeta" | "ab" => Some(SessionEngine::AlphaBeta),
            "mcts" => Some(SessionEngine::Mcts),
            _ => None,
        }
    }

    /// `alphabeta` or `mcts`.
    pub fn name(self) -> &'static str {
        match self {
            SessionEngine::AlphaBeta => "alphabeta",
            SessionEngine::Mcts => "mcts",
        }
    }
}

/// The session search to use for `session`'s rule set.
///
/// Chosen by self-play at equal node budgets (docs/engine.md, "MCTS or
/// alpha-beta: the choice per rule set"): [`SessionEngine::Mcts`] when an
/// attached modifier can skip a turn (a `skip-turn` effect, as
/// `all_on_red`'s coin at every turn start: the opponent then moves twice),
/// where MCTS outscored the alpha-beta session search; alpha-beta for
/// every other rule set (MCTS lost clearly under heavy chance, `kamikaze`,
/// and a plain restriction, `ice_age`).
pub fn session_engine_for(session: &Session) -> SessionEngine {
    let state = session.state();
    let skips = state.modifiers.iter().any(|m| {
        state
            .descriptors
            .get(&m.descriptor)
            .is_some_and(|d| serde_json::to_value(&**d).is_ok_and(|v| has_effect(&v, "skip-turn")))
    });
    if skips {
        SessionEngine::Mcts
    } else {
        SessionEngine::AlphaBeta
    }
}

/// Whether a descriptor's JSON has an effect of `kind` anywhere (inside
/// conditionals, loops and random picks too).
fn has_effect(v: &Value, kind: &str) -> bool {
    match v {
        Value::Object(o) => {
            o.get("kind").and_then(Value::as_str) == Some(kind)
                || o.values().any(|x| has_effect(x, kind))
        }
        Value::Array(a) => a.iter().any(|x| has_effect(x, kind)),
        _ => false,
    }
}

/// Either session search behind one interface, for the callers that pick
/// one per rule set ([`session_engine_for`]) or by an explicit override.
#[derive(Clone, Debug)]
pub enum SessionPlayer {
    /// The alpha-beta session search.
    AlphaBeta(SessionSearcher),
    /// The Monte-Carlo session search.
    Mcts(MctsSearcher),
}

impl SessionPlayer {
    /// A searcher of kind `engine` with its defaults (level 8, seed 0).
    pub fn new(engine: SessionEngine) -> SessionPlayer {
        match engine {
            SessionEngine::AlphaBeta => SessionPlayer::AlphaBeta(SessionSearcher::new()),
            SessionEngine::Mcts => SessionPlayer::Mcts(MctsSearcher::new()),
        }
    }

    /// Which search this is.
    pub fn engine(&self) -> SessionEngine {
        match self {
            SessionPlayer::AlphaBeta(_) => SessionEngine::AlphaBeta,
            SessionPlayer::Mcts(_) => SessionEngine::Mcts,
        }
    }

    /// Sets the strength ([`SessionSearcher::set_level`],
    /// [`MctsSearcher::set_level`]).
    pub fn set_level(&mut self, level: Level) {
        match self {
            SessionPlayer::AlphaBeta(e) => e.set_level(level),
            SessionPlayer::Mcts(e) => e.set_level(level),
        }
    }

    /// Sets the searcher's own seed.
    pub fn set_seed(&mut self, seed: u64) {
        match self {
            SessionPlayer::AlphaBeta(e) => e.set_seed(seed),
            SessionPlayer::Mcts(e) => e.set_seed(seed),
        }
    }

    /// Sets the rule set's objective.
    pub fn set_objective(&mut self, objective: Objective) {
        match self {
            SessionPlayer::AlphaBeta(e) => e.set_objective(objective),
            SessionPlayer::Mcts(e) => e.set_objective(objective),
        }
    }

    /// Decides for `seat` in `session` ([`SessionSearcher::search`],
    /// [`MctsSearcher::search`]).
    pub fn search(
        &mut self,
        session: &Session,
        seat: Color,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> SessionResult {
        match self {
            SessionPlayer::AlphaBeta(e) => e.search(session, seat, limits, stop),
            SessionPlayer::Mcts(e) => e.search(session, seat, limits, stop),
        }
    }
}

/// Monte-Carlo tree search of a modifier session (see the module docs).
#[derive(Clone, Debug)]
pub struct MctsSearcher {
    level: Level,
    seed: u64,
    objective: Objective,
    playout_plies: u32,
}

impl Default for MctsSearcher {
    fn default() -> Self {
        MctsSearcher::new()
    }
}

/// One edge of the tree: an action and what its visits gave.
#[derive(Debug)]
struct Edge {
    action: Action,
    visits: u32,
    /// Sum of White's results over the visits, each in [0, 1].
    white: f64,
    child: usize,
}

/// A tree node: the edges tried below it.
#[derive(Debug, Default)]
struct Node {
    edges: Vec<Edge>,
}

/// One search: evaluation tables, the searcher's stream and the tree.
struct Run<'a> {
    eval: EvalTables,
    n_kinds: usize,
    rng: u64,
    playout_plies: u32,
    budget: Budget<'a>,
    nodes: Vec<Node>,
    max_depth: u32,
}

/// Who acts at a state.
enum Decider {
    /// A move or a piece/square/column/row choice by this player.
    Player(Color),
    /// A rock-paper-scissors prompt still waiting for these players.
    Rps(Vec<Color>),
    /// A coin-flip prompt.
    Coin,
    /// The game is over.
    Over,
}

impl MctsSearcher {
    /// Level 8, seed 0, playouts of 2 plies.
    pub fn new() -> MctsSearcher {
        MctsSearcher {
            level: Level::default(),
            seed: 0,
            objective: Objective::Material,
            playout_plies: 2,
        }
    }

    /// Sets the strength: the level's time cap applies (its depth cap
    /// only sizes a search limited by depth alone).
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// Sets the searcher's own seed: every random outcome it samples, and
    /// every playout move, comes from it.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Sets the rule set's objective (see [`Objective::from_rules`]).
    pub fn set_objective(&mut self, objective: Objective) {
        self.objective = objective;
    }

    /// Sets the playout length in plies before the evaluation cuts it
    /// (0: the evaluation of the new leaf itself).
    pub fn set_playout_plies(&mut self, plies: u32) {
        self.playout_plies = plies;
    }

    /// Decides for `seat` in `session` within `limits` (nodes, movetime,
    /// clocks; a depth alone allows 5,000 nodes per ply of
    /// it) and the level's time cap, until done or `stop` is set. `action`
    /// is `None` when the game is over or `seat` has nothing to decide
    /// now. `score` is the best child's mean result turned back into
    /// centipawns by the logistic; `depth` the deepest tree ply reached.
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
        let deadline = self.level.budget(limits, seat).map(|b| start + b);
        let node_limit = match limits.nodes {
            Some(n) => Some(n),
            None if deadline.is_none() && !limits.infinite => {
                let d = limits
                    .depth
                    .unwrap_or(u32::MAX)
                    .min(self.level.max_depth())
                    .clamp(1, 8);
                Some(NODES_PER_DEPTH * u64::from(d))
            }
            None => None,
        };
        let (eval, n_kinds) = node::eval_tables(&root, self.objective);
        let mut run = Run {
            eval,
            n_kinds,
            rng: self.seed ^ 0x6d63_7473,
            playout_plies: self.playout_plies,
            budget: Budget::new(stop, deadline, node_limit),
            nodes: vec![Node::default()],
            max_depth: 0,
        };
        let mut result = SessionResult {
            action: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        };
        let actions = match decider(&root) {
            Decider::Player(c) if c == seat => {
                crate::session::only_legal_in(session, run.actions(&root))
            }
            Decider::Rps(players) if players.contains(&seat) => {
                // The uniform mix, from the searcher's own stream.
                let throws = ["rock", "paper", "scissors"];
                let i = (run.next() % 3) as usize;
                result.action = Some(Action::Choice {
                    value: Value::from(throws[i]),
                    player: Some(seat.name().to_string()),
                });
                return result;
            }
            Decider::Coin if seat_answers_coin(&root, seat) => {
                let options = options(&root);
                if !options.is_empty() {
                    let i = (run.next() % options.len() as u64) as usize;
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
        if actions.len() > 1 {
            // The stop flag is read before the first iteration too, so a
            // search told to stop answers at once.
            while !run.budget.stopped && !stop.load(Ordering::Relaxed) {
                run.iterate(&root);
            }
        }
        let sign = |w: f64| if seat == Color::White { w } else { 1.0 - w };
        let best = run.nodes[0].edges.iter().max_by(|a, b| {
            a.visits.cmp(&b.visits).then(
                sign(a.white / f64::from(a.visits.max(1)))
                    .total_cmp(&sign(b.white / f64::from(b.visits.max(1)))),
            )
        });
        if let Some(e) = best {
            result.action = Some(e.action.clone());
            let p = sign(e.white / f64::from(e.visits.max(1)));
            result.score = Score::Cp(centipawns(p));
        }
        result.depth = run.max_depth;
        result.nodes = run.budget.nodes;
        result
    }
}

/// White's winning chance for an evaluation of `cp` centipawns (White's
/// point of view): the Elo curve with 400 points per factor 10.
fn win_chance(cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0))
}

/// The inverse of [`win_chance`], clamped to ±10,000 centipawns.
fn centipawns(p: f64) -> i32 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    (-400.0 * (1.0 / p - 1.0).log10()).clamp(-10_000.0, 10_000.0) as i32
}

/// Who acts at `s` (as the alpha-beta session search reads it).
fn decider(s: &Session) -> Decider {
    if let Some(c) = s.pending_choice() {
        return match c.kind.as_str() {
            "rps" => Decider::Rps(
                [Color::White, Color::Black]
                    .into_iter()
                    .filter(|p| {
                        (c.for_player == "both" || color_named(&c.for_player) == Some(*p))
                            && !c.collected.contains_key(p.name())
                    })
                    .collect(),
            ),
            "coin-flip" => Decider::Coin,
            _ => Decider::Player(color_named(&c.for_player).unwrap_or(s.game().turn())),
        };
    }
    if s.runtime().state().result.is_some() {
        return Decider::Over;
    }
    Decider::Player(s.game().turn())
}

impl Run<'_> {
    /// The next number of the searcher's stream (SplitMix64).
    fn next(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(1);
        mix(self.rng)
    }

    /// A uniform draw from the searcher's stream below `n` (> 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Plays `a` at `s` (one node); false when the session refuses it.
    fn play(&mut self, s: &mut Session, a: &Action) -> bool {
        self.budget.tick();
        s.submit(a.input()).is_ok()
    }

    /// Answers the chance prompts pending at `s` (coin flips,
    /// rock-paper-scissors throws) by uniform draws; returns who decides
    /// next.
    fn resolve_chance(&mut self, s: &mut Session) -> Decider {
        // A prompt answered leaves at most a few more (a throw per player,
        // a replay after a tie); the bound only guards against a loop.
        for _ in 0..16 {
            let (player, opts) = match decider(s) {
                Decider::Coin => (None, options(s)),
                Decider::Rps(waiting) => match waiting.first() {
                    Some(p) => (Some(p.name().to_string()), options(s)),
                    None => return Decider::Over,
                },
                d => return d,
            };
            if opts.is_empty() {
                return Decider::Over;
            }
            let value = opts[self.below(opts.len())].clone();
            if !self.play(s, &Action::Choice { value, player }) {
                return Decider::Over;
            }
        }
        Decider::Over
    }

    fn actions(&self, s: &Session) -> Vec<Action> {
        node::actions(&self.eval, s)
    }

    fn victim_value(&self, game: &Game, m: Move) -> i32 {
        node::victim_value(&self.eval, game, m)
    }

    /// One iteration: selection, expansion, playout, backup.
    fn iterate(&mut self, root: &Session) {
        let mut s = root.clone();
        let seed = self.next() as u32;
        s.reseed(seed);
        let mut node = 0usize;
        let mut path: Vec<(usize, usize)> = Vec::new();
        let white = loop {
            if let Some(v) = self.terminal(&s) {
                break v;
            }
            let player = match self.resolve_chance(&mut s) {
                Decider::Player(p) => p,
                _ => break self.terminal(&s).unwrap_or_else(|| self.terminal_now(&s)),
            };
            if let Some(v) = self.terminal(&s) {
                break v;
            }
            if self.budget.stopped && !path.is_empty() {
                break self.leaf_value(&s);
            }
            let actions = self.actions(&s);
            if actions.is_empty() {
                break self.terminal_now(&s);
            }
            // The first available action without an edge is expanded (in
            // the order of `actions`: captures of the most valuable first).
            let edges = &self.nodes[node].edges;
            let fresh = actions
                .iter()
                .find(|a| !edges.iter().any(|e| &e.action == *a))
                .cloned();
            if let Some(a) = fresh {
                let child = self.nodes.len();
                self.nodes.push(Node::default());
                self.nodes[node].edges.push(Edge {
                    action: a.clone(),
                    visits: 0,
                    white: 0.0,
                    child,
                });
                path.push((node, self.nodes[node].edges.len() - 1));
                self.max_depth = self.max_depth.max(path.len() as u32);
                if !self.play(&mut s, &a) {
                    break 0.5;
                }
                break self.playout(s);
            }
            let i = self.select(node, &actions, player);
            path.push((node, i));
            self.max_depth = self.max_depth.max(path.len() as u32);
            let a = self.nodes[node].edges[i].action.clone();
            node = self.nodes[node].edges[i].child;
            if !self.play(&mut s, &a) {
                break 0.5;
            }
        };
        for (n, e) in path {
            let edge = &mut self.nodes[n].edges[e];
            edge.visits += 1;
            edge.white += white;
        }
    }

    /// The UCT choice of `player` among the edges of `node` whose action
    /// is available now.
    fn select(&self, node: usize, actions: &[Action], player: Color) -> usize {
        let edges = &self.nodes[node].edges;
        let available: Vec<usize> = (0..edges.len())
            .filter(|&i| actions.contains(&edges[i].action))
            .collect();
        let total: u32 = available.iter().map(|&i| edges[i].visits).sum();
        let ln = f64::from(total.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, available[0]);
        for &i in &available {
            let e = &edges[i];
            let n = f64::from(e.visits.max(1));
            let mean = e.white / n;
            let q = if player == Color::White {
                mean
            } else {
                1.0 - mean
            };
            let u = q + EXPLORATION * (ln / n).sqrt();
            if u > best.0 {
                best = (u, i);
            }
        }
        best.1
    }

    /// A short playout from `s`, cut by the evaluation: White's result.
    fn playout(&mut self, mut s: Session) -> f64 {
        for _ in 0..self.playout_plies {
            if let Some(v) = self.terminal(&s) {
                return v;
            }
            match self.resolve_chance(&mut s) {
                Decider::Player(_) => {}
                _ => return self.terminal(&s).unwrap_or_else(|| self.terminal_now(&s)),
            }
            if let Some(v) = self.terminal(&s) {
                return v;
            }
            if self.budget.stopped {
                break;
            }
            let a = if s.pending_choice().is_some() {
                let opts = options(&s);
                if opts.is_empty() {
                    break;
                }
                Action::Choice {
                    value: opts[self.below(opts.len())].clone(),
                    player: None,
                }
            } else {
                let uci = s.legal_moves_uci();
                if uci.is_empty() {
                    return self.terminal_now(&s);
                }
                let game = s.game();
                let best_capture = s
                    .legal_moves()
                    .iter()
                    .zip(&uci)
                    .map(|(m, u)| (self.victim_value(game, *m), u))
                    .filter(|(v, _)| *v > 0)
                    .max_by_key(|(v, _)| *v)
                    .map(|(_, u)| u.clone());
                let greedy = !self.next().is_multiple_of(4);
                match best_capture {
                    Some(u) if greedy => Action::Move(u),
                    _ => Action::Move(uci[self.below(uci.len())].clone()),
                }
            };
            if !self.play(&mut s, &a) {
                break;
            }
        }
        self.leaf_value(&s)
    }

    /// White's result at `s`: exact when finished, else the evaluation's
    /// winning chance.
    fn leaf_value(&self, s: &Session) -> f64 {
        if let Some(v) = self.terminal(s) {
            return v;
        }
        if s.pending_choice().is_none() && s.legal_moves().is_empty() {
            return self.terminal_now(s);
        }
        win_chance(self.static_value(s))
    }

    /// The evaluation of the position, White's point of view.
    fn static_value(&self, s: &Session) -> i32 {
        node::static_value(&self.eval, self.n_kinds, s)
    }

    /// A finished game's result for White (1, ½ or 0), found without
    /// listing moves: a modifier's result, a repetition, the 50-move rule
    /// or insufficient material (draws, as in the alpha-beta search).
    fn terminal(&self, s: &Session) -> Option<f64> {
        if s.runtime().state().result.is_some() {
            return Some(result_value(&s.status()));
        }
        if s.pending_choice().is_some() {
            return None;
        }
        let g = s.game();
        if g.repetitions() >= 3 || g.halfmove_clock() >= 100 || g.is_insufficient_material() {
            return Some(0.5);
        }
        None
    }

    /// The result of a state with no action: the session's status (mate,
    /// stalemate or a rule's end).
    fn terminal_now(&self, s: &Session) -> f64 {
        result_value(&s.status())
    }
}

fn result_value(status: &Value) -> f64 {
    match status.get("winner").and_then(Value::as_str) {
        Some("white") => 1.0,
        Some("black") => 0.0,
        _ => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::{centipawns, win_chance};

    #[test]
    fn the_logistic_and_its_inverse() {
        // 1/(1+10^(-cp/400)): 0 cp is an even game, +400 cp ten to one.
        assert!((win_chance(0) - 0.5).abs() < 1e-12);
        assert!((win_chance(400) - 10.0 / 11.0).abs() < 1e-12);
        assert!((win_chance(-400) - 1.0 / 11.0).abs() < 1e-12);
        for cp in [-900, -100, 0, 37, 250, 1200] {
            assert!((centipawns(win_chance(cp)) - cp).abs() <= 1, "{cp}");
        }
    }
}
