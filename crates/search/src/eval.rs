//! Evaluation with no per-game tuning: piece values from each kind's
//! mobility on an empty board of the game's size (the way Fairy-Stockfish
//! estimates fairy pieces), plus advancement of pawn-like pieces,
//! centralisation of the others and their mobility in the position,
//! signed by the rule set's objective, and scaled by hit points where the
//! rule set keeps them.

use houserules_engine::{BitSet, Color, Move, Piece, PieceKind, Position, Tables};
use std::sync::OnceLock;

/// What the side to move is trying to do, as far as the evaluation cares.
/// Terminal scores come from the rules themselves (checkmate, stalemate,
/// and the hooks' game result); this only decides the sign of material.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Objective {
    /// More material is better (FIDE chess, extinction, capture-the-king,
    /// last-piece-standing, capture-to-win: their goals are scored as
    /// terminal results by the rule hooks).
    #[default]
    Material,
    /// Losing material is the goal (suicide chess, capture-all where a
    /// side that loses every piece wins): material counts against.
    GiveAway,
}

impl Objective {
    /// The objective of a preset rule list given by its ids (the
    /// `--rules` syntax, `ID[:params][,ID...]`): `suicide-chess` and
    /// `capture-all` give material away; everything else keeps it.
    pub fn from_rules(rules: &str) -> Objective {
        let give_away = rules
            .split(',')
            .map(|r| r.split(':').next().unwrap_or("").trim())
            .any(|id| id == "suicide-chess" || id == "capture-all");
        if give_away {
            Objective::GiveAway
        } else {
            Objective::Material
        }
    }
}

/// Value of a pawn-like piece, the unit of the scale.
pub const PAWN_VALUE: i32 = 100;

/// Per-game evaluation tables, computed once per search.
#[derive(Clone, Debug)]
pub struct EvalTables {
    /// Material value per kind (0 for royal kinds).
    pub values: Vec<i32>,
    /// `[color][kind * squares + sq]`: value plus positional bonus.
    psq: [Vec<i32>; 2],
    squares: usize,
    objective: Objective,
    /// Start hit points per kind when the rule set keeps hit points in
    /// each piece's attribute byte (see [`EvalTables::with_hit_points`]).
    hp_start: Option<Vec<u8>>,
    /// The mobility term, `None` when it is off.
    mobility: Option<Mobility>,
}

/// Centipawns a piece gains when it reaches as many squares as on an
/// empty board (its mean `m`): a piece of kind `k` reaching `n` safe
/// squares scores `MOBILITY_CP × (n / m − 1/2)`, so each square is worth
/// `MOBILITY_CP / m`. With 50 this is about 9.5 cp a square for a knight,
/// 5.7 for a bishop, 3.6 for a rook and 2.2 for a queen on 8×8: close to
/// the ratios of Stockfish's middlegame mobility tables (about 10, 6, 3
/// and 2 per square), derived here from movement alone.
const MOBILITY_CP: i32 = 50;
/// The most a reachable square is worth (a piece with a mean of one or
/// two moves would otherwise gain 25–50 cp a square).
const MOBILITY_MAX_PER_SQUARE: i32 = 12;

/// The mobility term: per kind, the worth of a reachable square in 1/256
/// cp, for the kinds that are neither royal nor pawn-like.
#[derive(Clone, Debug)]
struct Mobility {
    /// `[kind]`: cp × 256 per reachable square (0: no term).
    weight: Vec<i32>,
    /// Kinds with a term (bit mask).
    kinds: u32,
    /// Pawn-like kinds (bit mask): the squares they attack are unsafe for
    /// the other side's pieces and not counted.
    pawns: u32,
}

/// Whether the mobility term is on: yes unless the environment variable
/// `HOUSERULES_EVAL_MOBILITY` is `0` when the first evaluation tables are
/// built (read once per process). The switch exists so that the old
/// evaluation can play the new one in `houserules match` (each engine a
/// `houserules uci` process) with the same binary; it is not a setting
/// for players.
pub(crate) fn mobility_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("HOUSERULES_EVAL_MOBILITY").map_or(true, |v| v.trim() != "0"))
}

/// The value of a non-pawn piece from its average number of moves on an
/// empty board: `80 + 35 × mobility`. On 8×8 this gives knight 264,
/// bishop 386, rook 570, queen 876 (mobility 5.25, 8.75, 14, 22.75).
fn value_from_mobility(mobility: f64) -> i32 {
    (80.0 + 35.0 * mobility).round() as i32
}

impl EvalTables {
    /// Tables for the game of `t` under `objective`.
    pub fn new<B: BitSet>(
        t: &Tables<B>,
        n_kinds: usize,
        royal: &[bool],
        pawn_like: &[bool],
        objective: Objective,
    ) -> EvalTables {
        let w = t.width() as i32;
        let h = t.height() as i32;
        let squares = (w * h) as usize;
        let mut values = vec![0; n_kinds];
        let mut weight = vec![0; n_kinds];
        let mut buf: Vec<Move> = Vec::with_capacity(256);
        for k in 0..n_kinds {
            if royal[k] {
                continue;
            }
            if pawn_like[k] {
                values[k] = PAWN_VALUE;
                continue;
            }
            let mut total = 0usize;
            let mut n = 0usize;
            for sq in 0..squares {
                let mut p: Position<B> = Position::empty();
                let piece = Piece {
                    kind: PieceKind(k as u8),
                    color: Color::White,
                };
                if !p.add_piece(t, sq as u8, piece) {
                    continue;
                }
                buf.clear();
                p.pseudo_legal_moves_hooked(t, None, &mut buf);
                total += buf.len();
                n += 1;
            }
            let mob = if n == 0 { 0.0 } else { total as f64 / n as f64 };
            values[k] = value_from_mobility(mob);
            if mob > 0.0 {
                let w = (f64::from(MOBILITY_CP) / mob).min(f64::from(MOBILITY_MAX_PER_SQUARE));
                weight[k] = (w * 256.0).round() as i32;
            }
        }
        let mask = |f: &dyn Fn(usize) -> bool| {
            (0..n_kinds.min(32))
                .filter(|&k| f(k))
                .fold(0u32, |m, k| m | 1 << k)
        };
        let mobility = (mobility_enabled() && objective == Objective::Material).then(|| Mobility {
            kinds: mask(&|k| weight[k] > 0),
            pawns: mask(&|k| pawn_like[k] && !royal[k]),
            weight,
        });
        let mut psq = [vec![0; n_kinds * squares], vec![0; n_kinds * squares]];
        // Centre distance in half-files so even boards have a centre of four.
        let cx2 = w - 1;
        let cy2 = h - 1;
        for k in 0..n_kinds {
            for sq in 0..squares as i32 {
                let f = sq % w;
                let r = sq / w;
                let dist = ((2 * f - cx2).abs() + (2 * r - cy2).abs()) / 2;
                let max = (cx2 + cy2) / 2;
                for (ci, table) in psq.iter_mut().enumerate() {
                    let advanced = if ci == 0 { r } else { h - 1 - r };
                    let bonus = if royal[k] {
                        0
                    } else if pawn_like[k] {
                        // Advancement: a pawn-like piece nearer promotion is worth more.
                        advanced * advanced * 60 / ((h - 1).max(1) * (h - 1).max(1))
                    } else {
                        // Centralisation.
                        (max - dist) * 4
                    };
                    table[k * squares + sq as usize] = values[k] + bonus;
                }
            }
        }
        EvalTables {
            values,
            psq,
            squares,
            objective,
            hp_start: None,
            mobility,
        }
    }

    /// Scales material by hit points: `start[k]` is the hit points a piece
    /// of kind `k` starts with, and the rule set keeps each piece's hit
    /// points in its attribute byte, 0 meaning the start value (the
    /// encoding of the `piece-hp` preset, RULINGS P6). A piece with `hp`
    /// hit points is worth `value × hp / start`: it takes `hp` captures to
    /// remove, so a wounded piece is worth less and a healed one more.
    /// Royal kinds have no material value and stay at 0. `None` (the
    /// default) turns the term off, at no cost per node.
    pub fn with_hit_points(mut self, start: Option<Vec<u8>>) -> EvalTables {
        self.hp_start = start;
        self
    }

    /// Whether the mobility term is on: off when the objective gives
    /// material away (having few moves is no weakness there) and when the
    /// environment variable `HOUSERULES_EVAL_MOBILITY` is `0` (see
    /// `mobility_enabled`).
    pub fn has_mobility(&self) -> bool {
        self.mobility.is_some()
    }

    /// Static evaluation from the point of view of the side to move, for
    /// `p` in the game of `t` (whose `n_kinds` kinds these tables were
    /// built for): every term, mobility included.
    pub fn evaluate_in<B: BitSet>(&self, t: &Tables<B>, p: &Position<B>, n_kinds: usize) -> i32 {
        self.eval(Some(t), p, n_kinds)
    }

    /// Static evaluation from the point of view of the side to move
    /// without the mobility term, which needs the game's tables (see
    /// [`EvalTables::evaluate_in`]): material, advancement,
    /// centralisation and hit points.
    pub fn evaluate<B: BitSet>(&self, p: &Position<B>, n_kinds: usize) -> i32 {
        self.eval(None, p, n_kinds)
    }

    fn eval<B: BitSet>(&self, t: Option<&Tables<B>>, p: &Position<B>, n_kinds: usize) -> i32 {
        let mut score = [0i32; 2];
        for (ci, c) in [Color::White, Color::Black].into_iter().enumerate() {
            let ours = p.by_color(c);
            for k in 0..n_kinds {
                let base = k * self.squares;
                for sq in (p.by_kind(PieceKind(k as u8)) & ours).iter() {
                    score[ci] += self.psq[ci][base + sq as usize];
                }
            }
        }
        if let Some(start) = &self.hp_start {
            for (ci, c) in [Color::White, Color::Black].into_iter().enumerate() {
                for sq in p.by_color(c).iter() {
                    let hp = p.piece_attribute(sq);
                    if hp == 0 {
                        continue; // the start value: no change
                    }
                    if let Some(piece) = p.piece_at(sq) {
                        let k = piece.kind.index();
                        let s = i32::from(start.get(k).copied().unwrap_or(1).max(1));
                        let v = self.values.get(k).copied().unwrap_or(0);
                        score[ci] += v * (i32::from(hp) - s) / s;
                    }
                }
            }
        }
        if let (Some(m), Some(t)) = (&self.mobility, t) {
            self.add_mobility(m, t, p, &mut score);
        }
        let white = match self.objective {
            Objective::Material => score[0] - score[1],
            Objective::GiveAway => score[1] - score[0],
        };
        if p.turn() == Color::White {
            white
        } else {
            -white
        }
    }

    /// Adds each side's mobility: per piece of a kind with a term, the
    /// squares its ordinary shapes reach (empty, or holding an enemy
    /// piece) that no enemy pawn-like piece attacks, set-wise
    /// ([`Position::shape_reach`], one popcount a piece).
    fn add_mobility<B: BitSet>(
        &self,
        m: &Mobility,
        t: &Tables<B>,
        p: &Position<B>,
        score: &mut [i32; 2],
    ) {
        let occ = p.occupied();
        let colors = [Color::White, Color::Black];
        let mut pawn_attacks = [B::EMPTY; 2];
        for (ci, c) in colors.into_iter().enumerate() {
            let ours = p.by_color(c);
            let mut kinds = m.pawns;
            while kinds != 0 {
                let k = PieceKind(kinds.trailing_zeros() as u8);
                kinds &= kinds - 1;
                for sq in (p.by_kind(k) & ours).iter() {
                    pawn_attacks[ci] |= t.leap_attacks(c, k, sq);
                }
            }
        }
        for (ci, c) in colors.into_iter().enumerate() {
            let ours = p.by_color(c);
            let theirs = p.by_color(c.flip());
            let unsafe_sq = pawn_attacks[1 - ci];
            let mut kinds = m.kinds;
            while kinds != 0 {
                let k = kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                let kind = PieceKind(k as u8);
                let w = m.weight[k];
                for sq in (p.by_kind(kind) & ours).iter() {
                    let reach = p.shape_reach(t, kind, c, sq, occ, theirs) & !unsafe_sq;
                    // n × cp/square − MOBILITY_CP / 2, in 1/256 cp.
                    score[ci] += (reach.count() as i32 * w - (MOBILITY_CP << 7)) >> 8;
                }
            }
        }
    }

    /// The material value of the piece of kind `k`.
    pub fn value(&self, k: PieceKind) -> i32 {
        self.values.get(k.index()).copied().unwrap_or(0)
    }
}
