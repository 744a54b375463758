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
use crate::types::{Color, Move, MoveKind};

/// How a game ended by a rule hook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// A short machine-readable reason (`capture-to-win`, …).
    pub reason: String,
}

/// Whose royal pieces the self-check filter protects, and how (see
/// [`HookProfile::royalty`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Royalty {
    /// The engine's own: [`RuleHooks::self_check_filter`] is on,
    /// [`RuleHooks::royal_squares`] and [`RuleHooks::is_attacked`] are the
    /// defaults, and the move effects never change whether a royal of the
    /// mover is attacked after the move. The engine's legal generator
    /// (checkers and pins) then decides legality.
    Engine,
    /// No self-check filter ([`RuleHooks::self_check_filter`] is off):
    /// every pseudo-legal move is legal, castling included without attack
    /// tests.
    None,
    /// Anything else (own royal set, added attacks, effects that matter):
    /// every move is played and judged through the hooks.
    Custom,
}

/// The list-wide rule that [`RuleHooks::filter_moves`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListRule {
    /// None: `filter_moves` keeps the list (it may still clear it when
    /// [`RuleHooks::game_over`] says so).
    Keep,
    /// Compulsory capture (lichess Antichess, FIDE-style losing chess):
    /// when some legal move captures (en passant included, castling
    /// never), only captures are legal.
    CompulsoryCapture,
    /// Something else: the engine calls `filter_moves` on the whole list.
    Custom,
}

/// What a hooks object uses, declared once by [`RuleHooks::profile`] and
/// read when the hooks are installed, so that the engine picks the
/// cheapest correct move-generation path per variant (docs/performance.md,
/// "Hook profiles"). A flag that says `true` only allows the engine to
/// call the hook; one that says `false` promises the hook keeps its
/// default. [`HookProfile::GENERAL`] (the default) promises nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HookProfile {
    /// [`RuleHooks::piece_moves`] may replace a piece's moves.
    pub piece_moves: bool,
    /// [`RuleHooks::extra_moves`] may add moves.
    pub extra_moves: bool,
    /// [`RuleHooks::filter_move`] may drop moves.
    pub filter_move: bool,
    /// What [`RuleHooks::filter_moves`] does besides clearing the list
    /// when [`RuleHooks::game_over`] is true.
    pub list_rule: ListRule,
    /// The self-check filter and the royal set.
    pub royalty: Royalty,
    /// [`RuleHooks::before_move`], [`RuleHooks::after_move`] or
    /// [`RuleHooks::turn_passes`] may change the position beyond
    /// [`Position::play_unchecked`] (`false`: moves are played without
    /// them).
    pub effects: bool,
    /// Those effects may change pieces or their attributes, which the
    /// self-check filter reads (`false`: the general path judges a move
    /// on the board after [`Position::play_unchecked`]; the effects may
    /// still change rule state or castling rights).
    pub board_effects: bool,
    /// [`RuleHooks::is_attacked`] is the engine's
    /// [`Position::is_attacked`], and [`RuleHooks::royal_squares`] depends
    /// only on where the pieces of each kind stand (a move that does not
    /// promote keeps the royal set, the mover's square moved). With
    /// `board_effects` off, the general path then plays only the moves of
    /// royals and pinned pieces, castling, en passant and promotions to
    /// judge them (docs/performance.md, "Hook profiles").
    pub engine_attacks: bool,
    /// [`RuleHooks::game_over`] may be true (the position then has no
    /// legal moves).
    pub game_over: bool,
    /// The hooks list and count the legal moves themselves
    /// ([`RuleHooks::own_legal_moves`], [`RuleHooks::own_legal_count`]):
    /// [`Position::legal_moves_into`] and [`Position::count_legal`] call
    /// them instead of the engine's paths (rules whose legality the hooks
    /// can judge on bitboards without playing each move, such as atomic's
    /// explosions or racing kings' "no move gives check"). The other flags
    /// still describe the hooks for the engine's other callers
    /// ([`Position::legal_moves_hooked`] keeps judging through them), and
    /// both paths must give the same moves.
    pub own_moves: bool,
}

impl HookProfile {
    /// Promises nothing: every position takes the general path.
    pub const GENERAL: HookProfile = HookProfile {
        piece_moves: true,
        extra_moves: true,
        filter_move: true,
        list_rule: ListRule::Custom,
        royalty: Royalty::Custom,
        effects: true,
        board_effects: true,
        engine_attacks: false,
        game_over: true,
        own_moves: false,
    };

    /// Whether legal moves can be generated without the general path: no
    /// per-piece or per-move hook, and a royalty the engine knows.
    pub fn engine_generates(&self) -> bool {
        !self.piece_moves
            && !self.extra_moves
            && !self.filter_move
            && self.list_rule != ListRule::Custom
            && self.royalty != Royalty::Custom
    }
}

impl Default for HookProfile {
    fn default() -> HookProfile {
        HookProfile::GENERAL
    }
}

/// Rule-layer hooks. Every method has a default that keeps FIDE behaviour.
pub trait RuleHooks<B: BitSet>: Send + Sync + std::fmt::Debug {
    /// What these hooks use (see [`HookProfile`]); read once when the
    /// hooks are installed. Default: [`HookProfile::GENERAL`] (always
    /// correct, slowest).
    fn profile(&self) -> HookProfile {
        HookProfile::GENERAL
    }
    /// Whether the rules have decided the game in `pos` (a locked result,
    /// a side that lost what it needs): the position then has no legal
    /// moves. Called by the engine's paths that skip
    /// [`RuleHooks::filter_moves`] (when [`HookProfile::game_over`] says
    /// so); `filter_moves` must clear the list in the same positions.
    /// Default: never.
    fn game_over(&self, _t: &Tables<B>, _pos: &Position<B>) -> bool {
        false
    }
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
    /// Whether a side may have more royal pieces of a kind than the game's
    /// start position gives it (two kings a side under `dual-king`), so
    /// [`fen::check_royal_count`](crate::fen::check_royal_count) accepts
    /// them. Default: no.
    fn allows_extra_royals(&self) -> bool {
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
    /// The self-check filter's test on the general path: whether `after`,
    /// the position once `mover`'s move and its effects were played
    /// ([`Position::play_with_hooks`] when the profile has
    /// `board_effects`), leaves `mover` exposed, so that the move is
    /// illegal. Default: a royal piece of `mover`
    /// ([`RuleHooks::royal_squares`]) is attacked
    /// ([`RuleHooks::is_attacked`]). Rules whose effects may remove royal
    /// pieces decide here what that means (atomic: the mover's own king
    /// exploded is illegal, the enemy's exploded wins even from check).
    fn leaves_mover_exposed(&self, t: &Tables<B>, after: &Position<B>, mover: Color) -> bool {
        let occ = after.occupied();
        self.royal_squares(t, after, mover)
            .iter()
            .any(|s| self.is_attacked(t, after, s, occ, mover.flip()))
    }
    /// Whether castling is generated with the engine's attack tests (the
    /// king's square and path, with the king and rook lifted, by
    /// [`RuleHooks::is_attacked`]) when the self-check filter is on.
    /// Rules whose attack tests depend on where the rook stands (atomic:
    /// python-chess tests the path with the rook in place and the
    /// destination with the rook moved, and squares next to the enemy
    /// king never count) answer `false` and judge castling in
    /// [`RuleHooks::filter_move`]. Default: yes.
    fn castling_attack_tests(&self) -> bool {
        true
    }
    /// Whether a position read from FEN must have a royal piece on each
    /// side and the side not to move out of check (the engine's setup
    /// tests). Rules where a side may have no royal piece (horde) or a
    /// royal may stand attacked by a piece that cannot take it (atomic's
    /// connected kings) answer `false` and judge the position in
    /// [`RuleHooks::check_setup`]. Default: yes.
    fn setup_needs_royals(&self) -> bool {
        true
    }
    /// Dead position by insufficient material under these rules
    /// (`Some`), or `None` for the engine's own test (FIDE 9.6, as
    /// python-chess). Default: `None`.
    fn insufficient_material(&self, _t: &Tables<B>, _pos: &Position<B>) -> Option<bool> {
        None
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
    /// With [`HookProfile::own_moves`]: appends the legal moves of the side
    /// to move in `pos` to `out`, the same moves as
    /// [`Position::legal_moves_hooked`] gives under these hooks (order
    /// free). Called by [`Position::legal_moves_into`] in place of the
    /// engine's paths, after its stop test. Default: nothing, so a profile
    /// that sets `own_moves` must implement it.
    fn own_legal_moves(&self, _t: &Tables<B>, _pos: &Position<B>, _out: &mut Vec<Move>) {}
    /// With [`HookProfile::own_moves`]: the number of legal moves
    /// ([`RuleHooks::own_legal_moves`]' length), for bulk-counting perft
    /// through [`Position::count_legal`]. Default: lists them and counts.
    fn own_legal_count(&self, t: &Tables<B>, pos: &Position<B>) -> u64 {
        let mut v = Vec::new();
        self.own_legal_moves(t, pos, &mut v);
        v.len() as u64
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
        let start = out.len();
        let Some(hooks) = hooks else {
            let mut sink = crate::movegen::Collect {
                out,
                choices: self.promotion_choices(t),
            };
            self.gen_pseudo_fast(t, &mut sink, true);
            return;
        };
        self.gen_pseudo_under(t, hooks, out);
        self.replace_piece_moves(t, hooks, out, start);
        hooks.extra_moves(t, self, out);
        let mut w = start;
        for i in start..out.len() {
            if hooks.filter_move(t, self, out[i]) {
                out[w] = out[i];
                w += 1;
            }
        }
        out.truncate(w);
    }

    /// Pseudo-legal moves by the compiled shapes, appended to `out`, with
    /// castling judged by the hooks' attack test (RULINGS P1) when their
    /// self-check filter is on.
    fn gen_pseudo_under(&self, t: &Tables<B>, hooks: &dyn RuleHooks<B>, out: &mut Vec<Move>) {
        let mut sink = crate::movegen::Collect {
            out,
            choices: self.promotion_choices(t),
        };
        let them = self.turn.flip();
        let safe = hooks.self_check_filter() && hooks.castling_attack_tests();
        self.gen_pseudo_with(t, &mut sink, safe, |s: u8, o: B| {
            hooks.is_attacked(t, self, s, o, them)
        });
    }

    /// Applies the `piece_moves` hook to `out[start..]`: the moves of every
    /// piece whose moves the hook replaces are dropped and its moves added.
    fn replace_piece_moves(
        &self,
        t: &Tables<B>,
        hooks: &dyn RuleHooks<B>,
        out: &mut Vec<Move>,
        start: usize,
    ) {
        let mut overridden = B::EMPTY;
        let mut extra = Vec::new();
        for sq in self.by_color(self.turn).iter() {
            if hooks.piece_moves(t, self, sq, &mut extra) {
                overridden |= B::bit(sq);
            }
        }
        if overridden.any() {
            let mut w = start;
            for i in start..out.len() {
                if !overridden.has(out[i].from) {
                    out[w] = out[i];
                    w += 1;
                }
            }
            out.truncate(w);
        }
        out.extend(extra);
    }

    /// Legal moves under `hooks` (the general path), appended to `out`.
    /// Generates into `out` and filters in place: no allocation unless
    /// the hooks replace some piece's moves.
    pub fn legal_moves_hooked(&self, t: &Tables<B>, hooks: &dyn RuleHooks<B>, out: &mut Vec<Move>) {
        // The installed hooks' profile was read once; other hooks are asked.
        let installed = t
            .hooks
            .as_deref()
            .is_some_and(|h| std::ptr::addr_eq(h as *const dyn RuleHooks<B>, hooks));
        let profile = if installed {
            t.hook_profile
        } else {
            hooks.profile()
        };
        let start = out.len();
        self.gen_pseudo_under(t, hooks, out);
        if profile.piece_moves {
            self.replace_piece_moves(t, hooks, out, start);
        }
        // The engine's moves are distinct; only added moves may repeat one.
        let first_added = if profile.piece_moves {
            start
        } else {
            out.len()
        };
        if profile.extra_moves {
            hooks.extra_moves(t, self, out);
        }
        let us = self.turn;
        let self_check = hooks.self_check_filter();
        // Movers that may expose a royal, when pins tell (see
        // HookProfile::engine_attacks); `None`: every move is played.
        let exposed = if self_check && profile.engine_attacks && !profile.board_effects {
            self.exposed_movers_of(t, hooks.royal_squares(t, self, us))
        } else {
            None
        };
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            if profile.filter_move && !hooks.filter_move(t, self, m) {
                continue;
            }
            let known = exposed.is_some_and(|e| !e.has(m.from))
                && matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
                && m.promotion.is_none();
            if self_check && !known {
                let mut after = *self;
                if profile.board_effects {
                    after.play_with_hooks(t, hooks, m);
                } else {
                    after.play_unchecked(t, m);
                }
                if hooks.leaves_mover_exposed(t, &after, us) {
                    continue;
                }
            }
            if i < first_added || !out[..w].contains(&m) {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
        hooks.filter_moves(t, self, out);
    }
}
