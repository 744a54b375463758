//! Evaluation with no per-game tuning: piece values from each kind's
//! mobility on an empty board of the game's size (the way Fairy-Stockfish
//! estimates fairy pieces), plus advancement of pawn-like pieces and
//! centralisation of the others, signed by the rule set's objective, and
//! scaled by hit points where the rule set keeps them.

use houserules_engine::{BitSet, Color, Move, Piece, PieceKind, Position, Tables};

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
        }
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

    /// Static evaluation from the point of view of the side to move.
    pub fn evaluate<B: BitSet>(&self, p: &Position<B>, n_kinds: usize) -> i32 {
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

    /// The material value of the piece of kind `k`.
    pub fn value(&self, k: PieceKind) -> i32 {
        self.values.get(k.index()).copied().unwrap_or(0)
    }
}
