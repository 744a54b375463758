//! The search: iterative deepening, PVS, quiescence, transposition table.

use crate::eval::{EvalTables, Objective};
use houserules_engine::hooks::{ListRule, Royalty, RuleHooks};
use houserules_engine::{BitSet, Color, Game, Move, MoveKind, PieceKind, Position, Tables};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Deepest ply the search reaches (iterations, extensions and quiescence).
const MAX_PLY: usize = 128;
/// The score of a mate at the root; a mate in `n` plies scores `MATE - n`.
pub(crate) const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = 32_000;
/// Late-move reductions start at this depth...
const LMR_DEPTH: i32 = 3;
/// ...from this move on (0-based, in search order).
const LMR_MOVES: usize = 3;

/// The reduction of the `i`-th move (0-based) at `depth`: about
/// `ln(depth) × ln(i) / 2`, one ply less at PV nodes, at least 1, and
/// never down to the horizon (the reduced search keeps a ply).
fn lmr(depth: i32, i: usize, pv_node: bool) -> i32 {
    let r = 0.5 + (depth as f64).ln() * (i as f64).ln() / 2.0;
    let r = r as i32 - pv_node as i32;
    r.clamp(1, (depth - 2).max(1))
}

/// What a search may spend.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes (checked every 1024 nodes, so it may run over by that much).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Clock of White.
    pub wtime: Option<Duration>,
    /// Clock of Black.
    pub btime: Option<Duration>,
    /// Increment of White.
    pub winc: Option<Duration>,
    /// Increment of Black.
    pub binc: Option<Duration>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until the stop flag (depth and nodes still apply).
    pub infinite: bool,
    /// Only these root moves are searched (UCI `searchmoves`); empty: all.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Only a depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// The time this move may take, if any (the clock of `turn`: a
    /// thirtieth of the remaining time (or of the time to the next
    /// control) plus most of the increment, never more than half the clock).
    pub(crate) fn budget(&self, turn: Color) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        let clock = match turn {
            Color::White => self.wtime.map(|t| (t, self.winc.unwrap_or_default())),
            Color::Black => self.btime.map(|t| (t, self.binc.unwrap_or_default())),
        };
        let from_clock = clock.map(|(t, inc)| {
            let parts = self.movestogo.map_or(30, |n| n.clamp(1, 30) + 1);
            let b = t / parts + inc * 3 / 4;
            b.min(t / 2).max(Duration::from_millis(1))
        });
        match (self.movetime, from_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated), as UCI writes it.
    Mate(i32),
}

impl Score {
    /// A score on the search's internal scale, as UCI writes it.
    pub(crate) fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

/// What one finished iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// The score of the best move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`None` when the game is over).
    pub best: Option<Move>,
    /// Its score.
    pub score: Score,
    /// Last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Playing strength 1 (weakest) to 8 (full strength): a depth cap, a time
/// cap, and at levels 1–3 a seeded random margin added to every root
/// move's score (so weak levels vary, yet the same seed plays the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

impl Level {
    /// Level `n`, clamped to 1..=8.
    pub fn new(n: u8) -> Level {
        Level(n.clamp(1, 8))
    }
    /// The level's number.
    pub fn get(self) -> u8 {
        self.0
    }
    pub(crate) fn max_depth(self) -> u32 {
        [1, 2, 3, 4, 5, 7, 10, MAX_PLY as u32 - 8][self.0 as usize - 1]
    }
    /// The time a move of `turn` may take within `limits` and the
    /// level's own cap (none with `infinite`).
    pub(crate) fn budget(self, limits: &Limits, turn: Color) -> Option<Duration> {
        match (limits.budget(turn), self.max_time()) {
            (Some(a), Some(b)) if !limits.infinite => Some(a.min(b)),
            (a, b) if !limits.infinite => a.or(b),
            _ => None,
        }
    }
    pub(crate) fn max_time(self) -> Option<Duration> {
        [50, 100, 200, 400, 800, 1500, 3000, 0]
            .get(self.0 as usize - 1)
            .filter(|&&ms| ms > 0)
            .map(|&ms| Duration::from_millis(ms))
    }
    /// The level's estimated rating on the scale of Stockfish's
    /// `UCI_Elo` (CCRL 40/4), from matches against Debian's Stockfish 15.1
    /// with `UCI_LimitStrength` (see `docs/engine.md` for the games,
    /// their margins and the commands that reproduce them).
    pub fn elo(self) -> u32 {
        LEVEL_ELO[self.0 as usize - 1]
    }
    /// The level whose estimated rating is nearest to `elo` (ties go to
    /// the weaker level), for UCI's `UCI_LimitStrength`/`UCI_Elo`.
    pub fn from_elo(elo: u32) -> Level {
        let mut best = 1;
        for (i, &e) in LEVEL_ELO.iter().enumerate() {
            if e.abs_diff(elo) < LEVEL_ELO[best - 1].abs_diff(elo) {
                best = i + 1;
            }
        }
        Level(best as u8)
    }
    /// Half-width in centipawns of the random margin at the root.
    fn noise(self) -> i32 {
        [150, 80, 30, 0, 0, 0, 0, 0][self.0 as usize - 1]
    }
}

/// Estimated ratings of levels 1 to 8 (see [`Level::elo`]). Measured at
/// 2 s + 0.05 s against Stockfish 15.1 with `UCI_LimitStrength`: level 8
/// (1688 from +338 against 1350, 1631 from −169 against 1800), level 4
/// (1675 against 1350, 1215 from −436 against level 8: the mean), level
/// 2 (970 from −382 against 1350); levels 1, 3, 5–7 are interpolated or
/// extrapolated. Games, margins and commands: `docs/engine.md`.
pub const LEVEL_ELO: [u32; 8] = [800, 1000, 1200, 1450, 1500, 1550, 1600, 1650];

impl Default for Level {
    fn default() -> Level {
        Level(8)
    }
}

/// Whether null-move pruning is sound enough under these rules: it
/// assumes that passing is never better than the best move (no
/// zugzwang) and that a pass is a legal-looking position. So it is off
/// when the objective gives material away (zugzwang is the rule there),
/// with compulsory capture (a pass would dodge a forced capture), with
/// hooks that judge royalty themselves, play effects (multi-move turns,
/// explosions) or may end the game by their own rule. The search further
/// skips it in check and when the side to move has only pawn-like and
/// royal pieces (the zugzwang endgames of chess).
pub fn null_move_safe<B: BitSet>(t: &Tables<B>, objective: Objective) -> bool {
    if objective != Objective::Material {
        return false;
    }
    match t.hooks() {
        None => true,
        Some(h) => {
            let p = h.profile();
            p.list_rule == ListRule::Keep
                && p.royalty == Royalty::Engine
                && !p.effects
                && !p.game_over
                && !p.piece_moves
                && !p.extra_moves
                && !p.filter_move
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct TtEntry {
    key: u64,
    mv: Option<Move>,
    score: i32,
    depth: i16,
    bound: Bound,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    None,
    Exact,
    Lower,
    Upper,
}

/// An engine: its transposition table, history and settings survive
/// between searches (cleared by [`Searcher::new_game`]).
#[derive(Debug)]
pub struct Searcher {
    tt: Vec<TtEntry>,
    level: Level,
    seed: u64,
    objective: Objective,
    hit_points: Option<Vec<u8>>,
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        let mut s = Searcher {
            tt: Vec::new(),
            level: Level::default(),
            seed: 0,
            objective: Objective::default(),
            hit_points: None,
        };
        s.set_hash(hash_mb);
        s
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, hash_mb: usize) {
        let entry = std::mem::size_of::<TtEntry>();
        let n = (hash_mb.clamp(1, 4096) << 20) / entry;
        let n = n.next_power_of_two() / 2; // a power of two not above the size
        self.tt = vec![TtEntry::default(); n.max(1024)];
    }

    /// Sets the strength.
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// Sets the seed of the low levels' randomness.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Sets the rule set's objective (see [`Objective::from_rules`]).
    pub fn set_objective(&mut self, objective: Objective) {
        self.objective = objective;
    }

    /// Scales material by hit points (see [`EvalTables::with_hit_points`]):
    /// `start` gives the start hit points per piece kind of a rule set
    /// that keeps hit points in the pieces' attribute bytes (`piece-hp`),
    /// `None` for none.
    pub fn set_hit_points(&mut self, start: Option<Vec<u8>>) {
        self.hit_points = start;
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = TtEntry::default());
    }

    /// Searches the current position of `game` within `limits` (and the
    /// level's caps) until done or `stop` is set; `on_info` hears about
    /// every completed iteration.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        // Hashes of the positions before this one since the last
        // irreversible move, for repetitions.
        // (The game's own keys: undoing move by move would rebuild each
        // position, issue 21.)
        let mut history = Vec::with_capacity(game.halfmove_clock() as usize + MAX_PLY + 2);
        {
            let keys = game.history_keys();
            let before = &keys[..keys.len() - 1];
            let n = (game.halfmove_clock() as usize).min(before.len());
            history.extend_from_slice(&before[before.len() - n..]);
        }
        let def = game.variant().definition();
        let royal: Vec<bool> = def.pieces.iter().map(|p| p.royal).collect();
        let pawn_like: Vec<bool> = def.pieces.iter().map(|p| p.pawn_like).collect();
        let draw_halfmoves = def.end.claim_halfmoves.or(def.end.auto_halfmoves);
        let v = game.variant();
        if let (Some(p), Some(t)) = (game.position::<u64>(), v.tables_u64()) {
            let mut ctx = Ctx::new(t, &royal, &pawn_like, self.objective, draw_halfmoves);
            ctx.eval = ctx.eval.with_hit_points(self.hit_points.clone());
            self.run(p, ctx, history, limits, stop, on_info)
        } else if let (Some(p), Some(t)) = (game.position::<u128>(), v.tables_u128()) {
            let mut ctx = Ctx::new(t, &royal, &pawn_like, self.objective, draw_halfmoves);
            ctx.eval = ctx.eval.with_hit_points(self.hit_points.clone());
            self.run(p, ctx, history, limits, stop, on_info)
        } else {
            unreachable!("a game's position and tables have one width")
        }
    }

    fn run<B: BitSet>(
        &mut self,
        root: &Position<B>,
        ctx: Ctx<'_, B>,
        history: Vec<u64>,
        limits: &Limits,
        stop: &AtomicBool,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let budget = self.level.budget(limits, root.turn());
        let max_depth = limits
            .depth
            .unwrap_or(u32::MAX)
            .min(self.level.max_depth())
            .clamp(1, MAX_PLY as u32 - 8);
        let mut w = Worker {
            ctx,
            tt: &mut self.tt,
            stop,

            deadline: budget.map(|b| start + b),
            node_limit: limits.nodes,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            moves: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(128)).collect(),
            scores: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(128)).collect(),
            killers: [[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 128 * 128],
            path: history,
            noise: self.level.noise(),
            seed: self.seed,
            root_only: limits.searchmoves.clone(),
            iteration: 1,
        };
        let mut root_moves = Vec::with_capacity(128);
        root.legal_moves_into(w.ctx.t, &mut root_moves);
        // The game's end is judged on every legal move; the choice only
        // among `searchmoves` (all when none of them is legal).
        let mut choices = root_moves.clone();
        if !w.root_only.is_empty() {
            choices.retain(|m| w.root_only.contains(m));
            if choices.is_empty() {
                w.root_only.clear();
                choices = root_moves.clone();
            }
        }
        let mut result = SearchResult {
            best: choices.first().copied(),
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: choices.first().copied().into_iter().collect(),
        };
        if root_moves.is_empty() || w.ctx.terminal(root, &root_moves, 0).is_some() {
            result.best = None;
            result.pv.clear();
            return result;
        }
        for depth in 1..=max_depth {
            w.seldepth = 0;
            let (score, best) = w.root(root, depth as i32);
            if w.stopped && best.is_none() {
                // No root move finished: the iteration has no score (it
                // would be -INF, which UCI wrote as `mate 1000`, trial 20)
                // and no move of its own; the answer is what came before.
                break;
            }
            if w.stopped && depth > 1 {
                // An unfinished iteration keeps its best move only when it
                // searched the previous best first and found something.
                if let Some(b) = best {
                    if Some(b) == result.best || w.noise == 0 {
                        result.best = Some(b);
                    }
                }
                break;
            }
            result.best = best.or(result.best);
            result.score = Score::from_internal(score);
            result.depth = depth;
            result.pv = w.pv(root, result.best, depth as usize);
            on_info(&SearchInfo {
                depth,
                seldepth: w.seldepth,
                score: result.score,
                nodes: w.nodes,
                elapsed: start.elapsed(),
                pv: result.pv.clone(),
            });
            if w.stopped {
                break;
            }
            if score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth {
                break; // a forced mate found within the full-width horizon
            }
            if let Some(d) = w.deadline {
                // Do not start an iteration that cannot finish.
                if !limits.infinite && start.elapsed() * 2 > d - start {
                    break;
                }
            }
        }
        result.nodes = w.nodes;
        if limits.infinite {
            // UCI: with `go infinite` the answer waits for `stop`.
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        result
    }
}

/// The rules and tables one search works with.
struct Ctx<'a, B: BitSet> {
    t: &'a Tables<B>,
    hooks: Option<&'a dyn RuleHooks<B>>,
    n_kinds: usize,
    eval: EvalTables,
    null_ok: bool,
    pawn_like_mask: u32,
    royal_mask: u32,
    draw_halfmoves: Option<u32>,
}

impl<'a, B: BitSet> Ctx<'a, B> {
    fn new(
        t: &'a Tables<B>,
        royal: &[bool],
        pawn_like: &[bool],
        objective: Objective,
        draw_halfmoves: Option<u32>,
    ) -> Ctx<'a, B> {
        let n_kinds = royal.len();
        let mask = |v: &[bool]| {
            v.iter()
                .enumerate()
                .filter(|(_, &b)| b)
                .fold(0u32, |m, (i, _)| m | 1 << i)
        };
        Ctx {
            t,
            hooks: t.hooks(),
            n_kinds,
            eval: EvalTables::new(t, n_kinds, royal, pawn_like, objective),
            null_ok: null_move_safe(t, objective),
            pawn_like_mask: mask(pawn_like),
            royal_mask: mask(royal),
            draw_halfmoves,
        }
    }

    #[inline]
    fn play(&self, p: &Position<B>, m: Move) -> Position<B> {
        let mut next = *p;
        match self.hooks {
            Some(h) => next.play_with_hooks(self.t, h, m),
            None => next.play_unchecked(self.t, m),
        }
        next
    }

    /// The score of a finished game for the side to move, `None` when it
    /// goes on (the order of `Game::status`: the hooks' result, then
    /// checkmate and stalemate).
    fn terminal(&self, p: &Position<B>, legal: &[Move], ply: usize) -> Option<i32> {
        if let Some(h) = self.hooks {
            if let Some(r) = h.game_result(self.t, p, legal) {
                return Some(match r.winner {
                    None => 0,
                    Some(c) if c == p.turn() => MATE - ply as i32,
                    Some(_) => -(MATE - ply as i32),
                });
            }
        }
        if legal.is_empty() {
            return Some(if p.in_check_hooked(self.t) {
                -(MATE - ply as i32)
            } else {
                0
            });
        }
        None
    }

    fn is_capture(&self, p: &Position<B>, m: Move) -> bool {
        m.kind == MoveKind::EnPassant
            || (m.kind != MoveKind::Castle && p.by_color(p.turn().flip()).has(m.to))
    }

    /// Whether the side to move has a piece other than pawn-like and royal
    /// ones (the null-move zugzwang guard).
    fn has_pieces(&self, p: &Position<B>) -> bool {
        let us = p.by_color(p.turn());
        (0..self.n_kinds).any(|k| {
            (self.pawn_like_mask | self.royal_mask) & (1 << k) == 0
                && (p.by_kind(PieceKind(k as u8)) & us).any()
        })
    }
}

struct Worker<'a, 'c, B: BitSet> {
    ctx: Ctx<'c, B>,
    tt: &'a mut [TtEntry],
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    /// Move and ordering-score buffers per ply (reused: no allocation per node).
    moves: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    /// Hashes of the positions on the way here (game history first).
    path: Vec<u64>,
    noise: i32,
    seed: u64,
    /// The root moves to choose among (UCI `searchmoves`); empty: all.
    root_only: Vec<Move>,
    /// The depth of the iteration running: check extensions stop at twice
    /// it, in plies.
    iteration: i32,
}

fn mix(mut x: u64) -> u64 {
    // splitmix64 finaliser.
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The kind `m` promotes to: `None` for a drop, which carries the kind
/// it drops in `promotion` (trial 20: drops counted as promotions, so
/// the quiescence search played every drop from the hand and never
/// ended in crazyhouse, and drops were ordered and spared from
/// reductions as promotions are).
fn promotes(m: Move) -> Option<PieceKind> {
    if m.is_drop() {
        None
    } else {
        m.promotion
    }
}

fn move_code(m: Move) -> u64 {
    m.from as u64 | (m.to as u64) << 8 | (m.promotion.map_or(255, |k| k.0) as u64) << 16
}

impl<B: BitSet> Worker<'_, '_, B> {
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.node_limit.is_some_and(|n| self.nodes >= n)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn tt_index(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    fn tt_store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let i = self.tt_index(key);
        let e = &mut self.tt[i];
        if e.key == key && e.depth as i32 > depth && bound != Bound::Exact {
            return;
        }
        // Mate scores are stored relative to the node, not the root.
        let score = if score >= MATE_BOUND {
            score + ply as i32
        } else if score <= -MATE_BOUND {
            score - ply as i32
        } else {
            score
        };
        let mv = mv.or(if e.key == key { e.mv } else { None });
        *e = TtEntry {
            key,
            mv,
            score,
            depth: depth as i16,
            bound,
        };
    }

    fn tt_probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        let e = self.tt[self.tt_index(key)];
        (e.key == key && e.bound != Bound::None).then(|| {
            let mut e = e;
            if e.score >= MATE_BOUND {
                e.score -= ply as i32;
            } else if e.score <= -MATE_BOUND {
                e.score += ply as i32;
            }
            e
        })
    }

    fn is_draw(&self, p: &Position<B>) -> bool {
        if self
            .ctx
            .draw_halfmoves
            .is_some_and(|n| p.halfmove_clock() >= n)
        {
            return true;
        }
        let key = p.hash();
        let window = p.halfmove_clock() as usize;
        self.path.iter().rev().take(window).any(|&k| k == key)
    }

    /// Orders `moves[ply]` by writing `scores[ply]`.
    fn score_moves(&mut self, p: &Position<B>, ply: usize, hash_move: Option<Move>) {
        let moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        let side = p.turn().index();
        for &m in &moves {
            let s = if Some(m) == hash_move {
                1 << 30
            } else if self.ctx.is_capture(p, m) {
                let victim = p
                    .piece_at(m.to)
                    .map_or(crate::eval::PAWN_VALUE, |v| self.ctx.eval.value(v.kind));
                let attacker = p
                    .piece_at(m.from)
                    .map_or(0, |a| self.ctx.eval.value(a.kind));
                (1 << 28) + victim * 16 - attacker / 16
            } else if let Some(k) = promotes(m) {
                (1 << 27) + self.ctx.eval.value(k)
            } else if self.killers[ply][0] == Some(m) {
                (1 << 26) + 1
            } else if self.killers[ply][1] == Some(m) {
                1 << 26
            } else {
                self.history[self.hist_index(side, m)]
            };
            scores.push(s);
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
    }

    fn hist_index(&self, side: usize, m: Move) -> usize {
        (side * 128 + (m.from as usize & 127)) * 128 + (m.to as usize & 127)
    }

    /// Takes the best-scored remaining move at or after `i` to `i`.
    fn pick(&mut self, ply: usize, i: usize) -> Move {
        let scores = &mut self.scores[ply];
        let mut best = i;
        for j in i + 1..scores.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        scores.swap(i, best);
        self.moves[ply].swap(i, best);
        self.moves[ply][i]
    }

    /// The root: every move searched, the best returned. With a level's
    /// noise, each move gets a full window and a seeded random margin.
    fn root(&mut self, p: &Position<B>, depth: i32) -> (i32, Option<Move>) {
        self.iteration = depth;
        let mut moves = std::mem::take(&mut self.moves[0]);
        moves.clear();
        p.legal_moves_into(self.ctx.t, &mut moves);
        if !self.root_only.is_empty() {
            moves.retain(|m| self.root_only.contains(m));
        }
        self.moves[0] = moves;
        let hash_move = self.tt_probe(p.hash(), 0).and_then(|e| e.mv);
        self.score_moves(p, 0, hash_move);
        let mut alpha = -INF;
        let beta = INF;
        let mut best = None;
        let mut best_raw = -INF;
        self.path.push(p.hash());
        let n = self.moves[0].len();
        for i in 0..n {
            let m = self.pick(0, i);
            let child = self.ctx.play(p, m);
            let same_side = child.turn() == p.turn();
            let raw = if self.noise > 0 || i == 0 {
                self.child_score(&child, same_side, depth - 1, -INF, INF, 1)
            } else {
                let s = self.child_score(&child, same_side, depth - 1, alpha, alpha + 1, 1);
                if s > alpha && !self.stopped {
                    self.child_score(&child, same_side, depth - 1, alpha, beta, 1)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            let s = if self.noise > 0 && raw.abs() < MATE_BOUND {
                let r = mix(self.seed ^ mix(p.hash() ^ move_code(m)));
                raw + (r % (2 * self.noise as u64 + 1)) as i32 - self.noise
            } else {
                raw
            };
            if s > alpha {
                alpha = s;
                best_raw = raw;
                best = Some(m);
            }
        }
        self.path.pop();
        if let Some(b) = best {
            if !self.stopped {
                self.tt_store(p.hash(), Some(b), best_raw, depth, Bound::Exact, 0);
            }
        }
        (best_raw, best)
    }

    /// The score of `child` for the side that moved into it: negated when
    /// the turn passed, as is when the mover moves again (multi-move turns).
    fn child_score(
        &mut self,
        child: &Position<B>,
        same_side: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if same_side {
            self.pvs(child, depth, alpha, beta, ply, true)
        } else {
            -self.pvs(child, depth, -beta, -alpha, ply, true)
        }
    }

    fn pvs(
        &mut self,
        p: &Position<B>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        can_null: bool,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.check_stop() {
            return 0;
        }
        if self.is_draw(p) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.ctx.eval.evaluate_in(self.ctx.t, p, self.ctx.n_kinds);
        }
        if let Some(s) = self.generate(p, ply) {
            return s;
        }
        let in_check = p.in_check_hooked(self.ctx.t);
        // A check extends the line by a ply, up to twice the iteration's
        // depth (as Stockfish bounds its extensions): under drops a side
        // can give check after check from its hand.
        let depth = if in_check && (ply as i32) < 2 * self.iteration {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.quiesce(p, alpha, beta, ply);
        }
        let key = p.hash();
        let pv_node = beta - alpha > 1;
        let entry = self.tt_probe(key, ply);
        if let Some(e) = entry {
            if !pv_node && e.depth as i32 >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }
        // Null move (see `null_move_safe`).
        if self.ctx.null_ok
            && can_null
            && !pv_node
            && !in_check
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && self.ctx.has_pieces(p)
            && self.ctx.eval.evaluate_in(self.ctx.t, p, self.ctx.n_kinds) >= beta
        {
            let mut np = *p;
            np.skip_turn();
            self.path.push(key);
            let r = 2 + depth / 4;
            let s = -self.pvs(&np, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return if s >= MATE_BOUND { beta } else { s };
            }
        }
        self.score_moves(p, ply, entry.and_then(|e| e.mv));
        let n = self.moves[ply].len();
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        self.path.push(key);
        for i in 0..n {
            let m = self.pick(ply, i);
            let child = self.ctx.play(p, m);
            let same = child.turn() == p.turn();
            let s = if i == 0 {
                self.child_score(&child, same, depth - 1, alpha, beta, ply + 1)
            } else {
                // Late-move reduction: a quiet late move is first searched
                // shallower, and again at full depth if it beats alpha.
                let r = if depth >= LMR_DEPTH
                    && i >= LMR_MOVES
                    && !in_check
                    && !same
                    && !self.ctx.is_capture(p, m)
                    && promotes(m).is_none()
                    && !self.killers[ply].contains(&Some(m))
                    && !child.in_check_hooked(self.ctx.t)
                {
                    lmr(depth, i, pv_node)
                } else {
                    0
                };
                let mut s = -INF;
                if r > 0 {
                    s = self.child_score(&child, same, depth - 1 - r, alpha, alpha + 1, ply + 1);
                }
                if (r == 0 || s > alpha) && !self.stopped {
                    s = self.child_score(&child, same, depth - 1, alpha, alpha + 1, ply + 1);
                }
                if s > alpha && s < beta && !self.stopped {
                    self.child_score(&child, same, depth - 1, alpha, beta, ply + 1)
                } else {
                    s
                }
            };
            if self.stopped {
                self.path.pop();
                return 0;
            }
            if s > best {
                best = s;
                best_move = Some(m);
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        if !self.ctx.is_capture(p, m) && promotes(m).is_none() {
                            if self.killers[ply][0] != Some(m) {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = Some(m);
                            }
                            let h = self.hist_index(p.turn().index(), m);
                            self.history[h] = (self.history[h] + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt_store(key, best_move, best, depth, bound, ply);
        best
    }

    /// Captures (and every move when in check) until the position is quiet.
    /// Fills `self.moves[ply]` with the legal moves of `p` (the ply's own
    /// buffer, reused: no allocation per node) and returns the score of a
    /// terminal position (mate, stalemate, a rule's end), if it is one.
    #[inline]
    fn generate(&mut self, p: &Position<B>, ply: usize) -> Option<i32> {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        p.legal_moves_into(self.ctx.t, &mut moves);
        let terminal = self.ctx.terminal(p, &moves, ply);
        self.moves[ply] = moves;
        terminal
    }

    fn quiesce(&mut self, p: &Position<B>, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.check_stop() {
            return 0;
        }
        if let Some(s) = self.generate(p, ply) {
            return s;
        }
        let in_check = p.in_check_hooked(self.ctx.t);
        let stand = self.ctx.eval.evaluate_in(self.ctx.t, p, self.ctx.n_kinds);
        if ply >= MAX_PLY - 1 {
            return stand;
        }
        let mut best = -INF;
        if !in_check {
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
            // Keep only captures and promotions.
            let mut moves = std::mem::take(&mut self.moves[ply]);
            moves.retain(|&m| self.ctx.is_capture(p, m) || promotes(m).is_some());
            self.moves[ply] = moves;
        }
        self.score_moves(p, ply, None);
        let n = self.moves[ply].len();
        let mut quiet_evasions = 0;
        for i in 0..n {
            let m = self.pick(ply, i);
            if in_check && !self.ctx.is_capture(p, m) && promotes(m).is_none() {
                // In check, two quiet evasions are searched once one
                // evasion has shown the side is not mated, as Stockfish's
                // quiescence search does: under drops every piece in hand
                // on every square between checker and king is an evasion.
                if best > -MATE_BOUND && quiet_evasions >= 2 {
                    continue;
                }
                quiet_evasions += 1;
            }
            let child = self.ctx.play(p, m);
            let s = if child.turn() == p.turn() {
                self.quiesce(&child, alpha, beta, ply + 1)
            } else {
                -self.quiesce(&child, -beta, -alpha, ply + 1)
            };
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The principal variation: `first`, then the hash moves while legal.
    fn pv(&self, root: &Position<B>, first: Option<Move>, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut p = *root;
        let mut legal = Vec::new();
        let mut next = first;
        let mut seen = Vec::new();
        while let Some(m) = next {
            legal.clear();
            p.legal_moves_into(self.ctx.t, &mut legal);
            if !legal.contains(&m) || pv.len() >= max.max(1) || seen.contains(&p.hash()) {
                break;
            }
            seen.push(p.hash());
            pv.push(m);
            p = self.ctx.play(&p, m);
            next = self.tt_probe(p.hash(), 0).and_then(|e| e.mv);
        }
        pv
    }
}
