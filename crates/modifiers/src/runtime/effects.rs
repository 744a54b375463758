//! Legality that sees a move's effects (issue 25 item 3).
//!
//! Dry-mode legality (modifier-rulings A10) judges a move on the board the
//! engine's move leaves. Under a rule set whose triggers change the board
//! when a move is played (an explosion that removes the capturer and its
//! neighbours, a kill, a push, a relocation, a spawn, a conversion), that
//! board is not the one the opponent will face. For such rule sets a move
//! is judged after the move *and its rule effects*:
//!
//! - it is illegal when the effects remove one of the mover's royal
//!   pieces (an atomic king that captures explodes itself);
//! - otherwise it is legal when the effects remove the opponent's last
//!   royal piece (the move wins at once, even from check);
//! - otherwise it is legal when no royal piece of the mover is attacked,
//!   under the rule-aware attacks of the runtime after the effects
//!   (modifier-rulings C3: disarmed pieces attack nothing, protected royals
//!   are never in check).
//!
//! The move is played on a copy of the runtime with the whole after-move
//! dispatch (the triggers of every stage, to the next side's turn start),
//! as [`Runtime::san_among`] does for the check marks. Two consequences,
//! the project's decisions where the issue is silent:
//!
//! - the copy draws from the game's own random stream, so a move is judged
//!   by the outcome it will have (as the SAN suffix already is);
//! - a move whose dispatch stops on a player's choice cannot be foreseen:
//!   it is judged as before, on the board after the move alone.
//!
//! Only moves that can fire a trigger with such an effect are played on a
//! copy (captures for `on-capture`, promotions for `on-promotion`, every
//! move for `on-move` or `on-turn-end`, …); the others keep the board-only
//! self-check test. A rule set with no such trigger takes the compiled
//! legality as before (`compiled/mod.rs` declines only rule sets with
//! effects), so FIDE chess and passive modifier sets pay nothing.

use houserules_engine::{Move, MoveKind};
use serde_json::Value;

use super::board::Board;
use super::Runtime;
use crate::descriptor::{Node, PrimitiveKind, TriggerKind};

/// Which moves can fire a trigger whose effects change the board: the
/// moves legality must play with their effects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct EffectScope {
    /// Every move (`on-move`, `on-turn-end`, `on-turn-start`,
    /// `conditional`, lifetimes, check edges, `on-damaged`, …).
    every_move: bool,
    /// Captures, en passant included (`on-capture`, `on-captured`,
    /// `on-capture-attempt`).
    captures: bool,
    /// Promotions (`on-promotion`).
    promotions: bool,
    /// Moves that land on a marker, and castling (its rook lands too)
    /// (`on-piece-entered-marker`).
    markers: bool,
    /// Push moves (`mode: push` shapes, `shapes.rs`): the push itself
    /// changes the board, so such a move is always judged after it.
    pushes: bool,
}

impl EffectScope {
    fn any(self) -> bool {
        self.every_move || self.captures || self.promotions || self.markers || self.pushes
    }
}

/// Whether a primitive of `kind` changes the board by itself: removes,
/// adds, moves or converts a piece (an attribute write that converts or,
/// under `piece-hp`, kills counts too; `attr` is its `attr` parameter).
fn primitive_changes_board(kind: PrimitiveKind, attr: Option<&Value>) -> bool {
    use PrimitiveKind as K;
    match kind {
        K::Kill
        | K::RemovePiece
        | K::SpawnPiece
        | K::SwapPieces
        | K::StepPiece
        | K::MovePiece
        | K::ConvertPiece => true,
        // `PieceType` and `Color` act as convert-piece, `Hp` at 0 kills;
        // an attribute named by a reference may be either.
        K::SeedAttribute | K::SetPieceAttr | K::AddToAttribute => match attr {
            Some(Value::String(a)) => {
                matches!(a.as_str(), "PieceType" | "Color" | "Hp") || a.starts_with('$')
            }
            _ => true,
        },
        _ => false,
    }
}

/// Whether a trigger effect changes the board, itself or in the bodies
/// (`then`, `else`, `do`) held in its parameters.
fn changes_board(n: &Node) -> bool {
    primitive_changes_board(n.kind, n.params.get("attr"))
        || n.params.values().any(nested_changes_board)
}

/// [`changes_board`] on a parameter value (read in place: this runs on
/// every legality call of the interpreter).
fn nested_changes_board(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.iter().any(nested_changes_board),
        Value::Object(o) => match o
            .get("kind")
            .and_then(Value::as_str)
            .and_then(PrimitiveKind::parse)
        {
            Some(kind) => {
                let params = o.get("params");
                primitive_changes_board(kind, params.and_then(|p| p.get("attr")))
                    || params.is_some_and(nested_changes_board)
            }
            None => o.values().any(nested_changes_board),
        },
        _ => false,
    }
}

impl Runtime {
    /// The moves whose effects legality must see under the attached
    /// modifiers, or `None` when no trigger that a move fires can change
    /// the board (the usual case: legality as before). Inside a probe
    /// (a copy playing a candidate move) always `None`.
    pub(crate) fn effect_scope(&self) -> Option<EffectScope> {
        if self.probing {
            return None;
        }
        let mut scope = EffectScope {
            pushes: self.has_push_shapes(),
            ..EffectScope::default()
        };
        for m in &self.st.modifiers {
            let Some(d) = self.st.descriptors.get(&m.descriptor) else {
                continue;
            };
            for t in &d.triggers {
                if !t.effects.iter().any(changes_board) {
                    continue;
                }
                use TriggerKind as T;
                match t.kind {
                    T::OnCapture | T::OnCaptured | T::OnCaptureAttempt => scope.captures = true,
                    T::OnPromotion => scope.promotions = true,
                    T::OnPieceEnteredMarker => scope.markers = true,
                    // Attaching is not a move; a kill attempt happens only
                    // inside another trigger's kill, a board effect that
                    // trigger's own kind already covers.
                    T::OnRuleActivated | T::OnKillAttempt => {}
                    T::OnTurnStart
                    | T::OnTurnEnd
                    | T::OnDamaged
                    | T::OnMove
                    | T::OnCheckReceived
                    | T::OnCheckDelivered
                    | T::OnMovedOntoSquare
                    | T::Conditional
                    | T::OnRuleExpire
                    | T::OnMarkerExpire => scope.every_move = true,
                }
            }
        }
        scope.any().then_some(scope)
    }

    /// Whether `m` (on the current position, the side to move's) can fire
    /// a trigger of `scope`.
    fn may_have_effects(&self, scope: EffectScope, pos: Board<'_>, m: Move) -> bool {
        if scope.every_move {
            return true;
        }
        let capture = match m.kind {
            _ if scope.pushes && self.is_push(pos, m, 0) => false,
            MoveKind::EnPassant => true,
            MoveKind::Castle | MoveKind::Drop => false,
            _ => pos.piece_at(m.to).is_some_and(|p| p.color != pos.turn()),
        };
        (scope.pushes && self.is_push(pos, m, 0))
            || (scope.captures && capture)
            || (scope.promotions && m.promotion.is_some() && !m.is_drop())
            || (scope.markers
                && (m.kind == MoveKind::Castle || self.st.markers.iter().any(|k| k.square == m.to)))
    }

    /// The self-check judgement of `m` with its effects (module docs):
    /// `None` when `m` cannot fire a trigger of `scope`, or when its
    /// dispatch stops on a choice; the caller then judges the board after
    /// the move alone.
    pub(crate) fn judge_with_effects(&self, scope: EffectScope, m: Move) -> Option<bool> {
        let pos = self.position();
        if !self.may_have_effects(scope, pos, m) {
            return None;
        }
        let us = pos.turn();
        let ours_before = pos.royals(us).count_ones();
        let theirs_before = pos.royals(us.flip()).count_ones();
        let mut probe = self.probe_copy();
        probe.begin_input();
        let uci = self.game.uci(m);
        probe.dispatch_move(m, &uci);
        if !probe.st.pending.is_empty() {
            return None;
        }
        Some(probe.judged_after(us, (ours_before, theirs_before)))
    }

    /// A copy of the runtime for a probe (`probing` set): the state
    /// without its log, which nothing a probe judges reads (session 18:
    /// the log grows with the game and was copied for every probed move).
    pub(crate) fn probe_copy(&self) -> Runtime {
        Runtime {
            game: self.game.clone(),
            st: self.st.clone_without_log(),
            kill_cancelled: self.kill_cancelled,
            kill_depth: self.kill_depth,
            kill_attempts: self.kill_attempts,
            plan_cache: self.plan_cache.clone(),
            hp_preset: self.hp_preset,
            dispatch_always: self.dispatch_always,
            geom: self.geom,
            base_variant: self.base_variant.clone(),
            probing: true,
            rep_keys: self.rep_keys.clone(),
            ply_start_key: self.ply_start_key,
            running: self.running.clone(),
        }
    }

    /// The self-check judgement on a runtime where `us`'s move was played
    /// (`before`: the royals of each side before it), as the module docs
    /// say.
    fn judged_after(
        &self,
        us: houserules_engine::Color,
        (ours_before, theirs_before): (u32, u32),
    ) -> bool {
        let after = self.position();
        let ours = after.royals(us);
        if ours.count_ones() < ours_before {
            return false;
        }
        if theirs_before > 0 && after.royals(us.flip()) == 0 {
            return true;
        }
        self.attacked_royals(after, us, Some(us), 1).is_empty()
    }

    /// A push move judged on the board after the push and the move, without
    /// the triggers (its dispatch stopped on a choice): the royal tests of
    /// [`Runtime::judged_after`] on a copy where only the push and the
    /// engine's move were played.
    pub(crate) fn push_board_safe(&self, m: Move, _depth: u8) -> bool {
        let pos = self.position();
        let us = pos.turn();
        let before = (
            pos.royals(us).count_ones(),
            pos.royals(us.flip()).count_ones(),
        );
        let mut probe = self.probe_copy();
        let (dx, dy) = super::shapes::push_step(self.geom, m.from, m.to);
        probe.push_line(m.to, dx, dy, false, false);
        probe.game.apply_unchecked(m);
        probe.judged_after(us, before)
    }
}
