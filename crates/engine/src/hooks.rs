//! Extension seams for rule layers (presets, modifiers).
//!
//! A [`Variant`](crate::Variant) may carry one [`RuleHooks`] object. Without
//! one, move generation takes the fast path and pays nothing for the seams
//! (one `is_none` test per generation call). With one, every position goes
//! through the general path: pseudo-legal moves, the per-piece override,
//! extra moves, the legal-move filter, and the self-check filter judged on
//! the hooks' royal set after playing each move with the before/after
//! effects and the turn-advance rule.
//!
//! The names follow the hook shapes of the preset specification:
//! royal-piece set, self-check filter on/off, legal-move filter, extra
//! moves, per-piece move override, turn-advance (multi-move turns),
//! before/after-move effects, game-result check.

use crate::bitboard::BitSet;
use crate::position::Position;
use crate::tables::Tables;
use crate::types::{Color, Move};

/// How a game ended by a rule hook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// A short machine-readable reason (`capture-to-win`, …).
    pub reason: String,
}

/// Rule-layer hooks. Every method has a default that keeps FIDE behaviour.
pub trait RuleHooks<B: BitSet>: Send + Sync + std::fmt::Debug {
    /// The royal pieces of `color`: leaving one attacked is illegal when
    /// the self-check filter is on. Default: pieces of royal types.
    fn royal_squares(&self, t: &Tables<B>, pos: &Position<B>, color: Color) -> B {
        pos.royals(t, color)
    }
    /// Whether `sq` is attacked by `by`'s pieces over occupancy `occ`,
    /// counting the attacks the rules add (RULINGS P1: attack detection
    /// follows every movement change). Used by the self-check filter and
    /// [`Game::is_check`](crate::Game::is_check). Default: the engine's
    /// attacks from the compiled shapes.
    fn is_attacked(&self, t: &Tables<B>, pos: &Position<B>, sq: u8, occ: B, by: Color) -> bool {
        pos.is_attacked(t, sq, occ, by)
    }
    /// Whether `color` is in check: one of its royal pieces is attacked
    /// in a way the rules count as check. Used by
    /// [`Game::is_check`](crate::Game::is_check), the SAN `+`/`#` suffixes
    /// and checkmate. Default: a royal piece of `color` is attacked
    /// ([`RuleHooks::royal_squares`], [`RuleHooks::is_attacked`]). Rules
    /// where an attacked royal may survive a hit narrow it (RULINGS P6).
    fn in_check(&self, t: &Tables<B>, pos: &Position<B>, color: Color) -> bool {
        let occ = pos.occupied();
        self.royal_squares(t, pos, color)
            .iter()
            .any(|s| self.is_attacked(t, pos, s, occ, color.flip()))
    }
    /// The squares of `by`'s pieces that attack `sq` over `occ`, with the
    /// rules' added attacks (as [`RuleHooks::is_attacked`]); used by
    /// [`Game::attackers`](crate::Game::attackers). Default: the engine's.
    fn attackers(&self, t: &Tables<B>, pos: &Position<B>, sq: u8, occ: B, by: Color) -> B {
        pos.attackers_to(t, sq, occ, by)
    }

    /// Whether the rules keep per-piece attribute bytes
    /// ([`Position::piece_attribute`]): then every move carries the
    /// mover's byte to its destination and clears captured pieces' bytes.
    /// Read once when the hooks are installed. Default: no.
    fn uses_piece_attributes(&self) -> bool {
        false
    }
    /// Whether the rules move pieces other than by their own moves (pushes,
    /// spawns), so that a piece may stand where its moves never lead (a
    /// pawn on a first or last rank): then
    /// [`fen::check_piece_ranks`](crate::fen::check_piece_ranks) accepts
    /// every placement. Default: no.
    fn relocates_pieces(&self) -> bool {
        false
    }
    /// Checks a position read from FEN (or set up otherwise) against the
    /// rules, after the engine's own checks: `Err` with a short reason
    /// refuses it (e.g. neither side has the piece the rules need).
    /// Default: every position is accepted.
    fn check_setup(&self, _t: &Tables<B>, _pos: &Position<B>) -> Result<(), String> {
        Ok(())
    }
    /// Whether moves that leave a royal piece attacked are illegal.
    fn self_check_filter(&self) -> bool {
        true
    }
    /// Replaces the pseudo-legal moves of the piece on `from`: return
    /// `true` after pushing its moves to `out`, or `false` to keep its
    /// shapes.
    fn piece_moves(
        &self,
        _t: &Tables<B>,
        _pos: &Position<B>,
        _from: u8,
        _out: &mut Vec<Move>,
    ) -> bool {
        false
    }
    /// Adds pseudo-legal moves of the side to move.
    fn extra_moves(&self, _t: &Tables<B>, _pos: &Position<B>, _out: &mut Vec<Move>) {}
    /// Keeps (`true`) or drops a pseudo-legal move before the self-check
    /// filter.
    fn filter_move(&self, _t: &Tables<B>, _pos: &Position<B>, _m: Move) -> bool {
        true
    }
    /// Filters the whole list of legal moves at once, after the per-move
    /// filter and the self-check filter (for rules such as compulsory
    /// capture that look at all moves together).
    fn filter_moves(&self, _t: &Tables<B>, _pos: &Position<B>, _moves: &mut Vec<Move>) {}
    /// Runs before the move is played on `pos`.
    fn before_move(&self, _t: &Tables<B>, _pos: &mut Position<B>, _m: Move) {}
    /// Runs after the move was played; `before` is the position it was
    /// played from.
    fn after_move(&self, _t: &Tables<B>, _before: &Position<B>, _pos: &mut Position<B>, _m: Move) {}
    /// Whether the turn passes to the opponent after `m` (false: the same
    /// side moves again, as in multi-move turns).
    fn turn_passes(
        &self,
        _t: &Tables<B>,
        _before: &Position<B>,
        _after: &Position<B>,
        _m: Move,
    ) -> bool {
        true
    }
    /// A result decided by the rules before the standard checks
    /// (checkmate, stalemate, draws). `legal` is the side to move's legal
    /// moves.
    fn game_result(
        &self,
        _t: &Tables<B>,
        _pos: &Position<B>,
        _legal: &[Move],
    ) -> Option<HookResult> {
        None
    }
}

impl<B: BitSet> Position<B> {
    /// Plays `m` with the hooks' effects and turn-advance rule.
    pub fn play_with_hooks(&mut self, t: &Tables<B>, hooks: &dyn RuleHooks<B>, m: Move) {
        let before = *self;
        hooks.before_move(t, self, m);
        self.play_unchecked(t, m);
        hooks.after_move(t, &before, self, m);
        if !hooks.turn_passes(t, &before, self, m) && self.turn != before.turn {
            self.set_turn(before.turn);
            self.fullmove = before.fullmove;
        }
    }

    /// Whether the side to move is in check, judged by the table's hooks
    /// ([`RuleHooks::in_check`]) when there are any, else by
    /// [`Position::is_check`].
    pub fn in_check_hooked(&self, t: &Tables<B>) -> bool {
        match &t.hooks {
            Some(h) => h.in_check(t, self, self.turn),
            None => self.is_check(t),
        }
    }

    /// Pseudo-legal moves of the side to move under `hooks` (the general
    /// path without the self-check filter), for rule layers that judge
    /// check themselves (the modifier runtime, modifier-rulings C3).
    pub fn pseudo_legal_moves_hooked(
        &self,
        t: &Tables<B>,
        hooks: Option<&dyn RuleHooks<B>>,
        out: &mut Vec<Move>,
    ) {
        let safe = hooks.is_none_or(|h| h.self_check_filter());
        {
            let mut sink = crate::movegen::Collect {
                out,
                choices: self.promotion_choices(t),
            };
            self.gen_pseudo(t, &mut sink, safe);
        }
        let Some(hooks) = hooks else {
            return;
        };
        let our = self.by_color(self.turn);
        let mut overridden = B::EMPTY;
        let mut extra = Vec::new();
        for sq in our.iter() {
            if hooks.piece_moves(t, self, sq, &mut extra) {
                overridden |= B::bit(sq);
            }
        }
        out.retain(|m| !overridden.has(m.from));
        out.extend(extra);
        hooks.extra_moves(t, self, out);
        out.retain(|m| hooks.filter_move(t, self, *m));
    }

    /// Legal moves under `hooks` (the general path).
    pub fn legal_moves_hooked(&self, t: &Tables<B>, hooks: &dyn RuleHooks<B>, out: &mut Vec<Move>) {
        let mut pseudo = Vec::with_capacity(64);
        {
            let mut sink = crate::movegen::Collect {
                out: &mut pseudo,
                choices: self.promotion_choices(t),
            };
            self.gen_pseudo(t, &mut sink, hooks.self_check_filter());
        }
        let our = self.by_color(self.turn);
        let mut overridden = B::EMPTY;
        let mut extra = Vec::new();
        for sq in our.iter() {
            if hooks.piece_moves(t, self, sq, &mut extra) {
                overridden |= B::bit(sq);
            }
        }
        pseudo.retain(|m| !overridden.has(m.from));
        pseudo.extend(extra);
        hooks.extra_moves(t, self, &mut pseudo);
        let us = self.turn;
        for m in pseudo {
            if !hooks.filter_move(t, self, m) {
                continue;
            }
            if hooks.self_check_filter() {
                let mut after = *self;
                after.play_with_hooks(t, hooks, m);
                let occ = after.occupied();
                let royals = hooks.royal_squares(t, &after, us);
                if royals
                    .iter()
                    .any(|s| hooks.is_attacked(t, &after, s, occ, us.flip()))
                {
                    continue;
                }
            }
            if !out.contains(&m) {
                out.push(m);
            }
        }
        hooks.filter_moves(t, self, out);
    }
}
