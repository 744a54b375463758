//! Passive restrictions compiled to bitboards, so that dry-mode move
//! generation costs bit operations per move rather than an interpretation
//! of the descriptors (issue 5 § Benchmark; docs/performance.md
//! § Modifiers).
//!
//! The rules are those of `legal.rs` (modifier-rulings A10, C2, C3, C4),
//! which stays the reference: every filter of a restriction reads the
//! position and the session state, never the move, so its verdict on every
//! square (or on every piece, by colour and kind) is decided once for the
//! position and the move is then judged by masks. A [`Plan`] keeps piece
//! conditions as kinds per colour and square masks, placed on each board
//! by bit operations; it is cached on the session while what it read
//! besides the board is unchanged (see `Key`). Restriction shapes that
//! cannot be decided this way make [`Session::legality_plan`] return
//! `None`, and the interpreter runs instead:
//!
//! - move-shape mechanics (`add-moves`, `replace-moves`, wrapping files)
//!   and hard blocks (`blocked` markers), which change the move list and
//!   the attack rays;
//! - a restriction that changes who gives check (a fully immobilising
//!   `forbid-move`, `protect … against capture`) whose filter reads the
//!   board (`empty`, `sameFileAs`, pieces named by reference, or an
//!   expression with `count`), since check is judged on the position after
//!   each move;
//! - a definition with more than 64 piece kinds;
//! - a board other than 8×8 (the masks and line tables are 8×8's).
//!
//! Like the interpreter, nothing here fires a trigger, draws a random
//! number or touches markers or pending choices (dry mode).
//!
//! The parts: `masks` (filters decided as piece and move masks), `filters`
//! (descriptor parameters compiled to masks), this file (the plan, its
//! cache key and its building) and `generate` (legal moves from a plan).

mod filters;
mod generate;
mod masks;

use houserules_engine::definition::Role;
use houserules_engine::{
    Color, GameDefinition, Move, MoveKind, PieceKind, Position, Tables, TargetBatch,
};
use serde_json::Value;

use super::aura;
use super::board::Board;
use super::eval::{square_of, truthy, Cx};
use super::legal::immobilising;
use super::Session;
use crate::descriptor::{MarkerKind, PrimitiveKind};

use masks::*;

/// A fully immobilising `forbid-move` that disarms pieces of the side not
/// to move (rulings C3).
#[derive(Clone, Copy, Debug)]
struct Disarm {
    pieces: PieceMask,
}

/// What the compiled restrictions were read from, besides the board: a
/// cached plan serves while these are unchanged.
#[derive(Debug, PartialEq)]
struct Key {
    /// Attached instances, in attach order.
    insts: Vec<u32>,
    /// The game's side to move (`turn`, and the side the plan is for).
    turn: Color,
    /// The mover of the ply in dispatch (`mover`).
    mover: Option<Color>,
    /// `(id, square, kind, source)` of the markers, when a filter reads
    /// markers.
    markers: Option<Vec<(u32, u8, MarkerKind, u32)>>,
}

/// The active restrictions compiled for the side to move, board aside
/// (piece conditions are placed on each board by colour, kind and square).
#[derive(Debug)]
pub(crate) struct Plan {
    key: Key,
    /// Valid for other boards and later calls (no reference to variables,
    /// events or bindings, no `when`/`where`, nothing read from the board).
    cacheable: bool,
    /// `forbid-move` filters with piece conditions or beyond squares
    /// (phase 2, placed on each position).
    forbid: Vec<StaticMove>,
    /// Origins that `forbid-move` filters of squares alone freeze.
    forbid_from: u64,
    /// Destinations that `forbid-move` filters of squares alone forbid.
    forbid_to: u64,
    /// Pieces protected against capture (phase 2, the other side's).
    protect_targets: Vec<PieceMask>,
    /// Fully immobilising `forbid-move`s of the other side (rule-aware
    /// attacks).
    disarm: Vec<Disarm>,
    /// `protect … against capture` that may cover the side to move's
    /// royals (rule-aware check).
    protect_own: Vec<PieceMask>,
    /// Every royal kind of the side to move is protected on every square,
    /// so no move leaves it in check (rulings C4; no hooks).
    royals_safe: bool,
    /// `keep-farthest` choices (phase 4).
    keep_farthest: Vec<PieceMask>,
    /// `must-move-if-able` filters, in attach order (phase 5).
    must_move: Vec<StaticMove>,
    /// Some passive rule is attached.
    any: bool,
    /// A passive aura of an attached descriptor may set capture flags: the
    /// interpreter judges (the masks do not model disarmed pieces).
    capture_auras: bool,
}

/// The cached [`Plan`] of a session (shared by clones, rebuilt when its
/// key no longer matches). A `RefCell`, not a lock: the cache is read on
/// every legality call, where a lock's atomic operations cost about as much
/// as the filtering itself; a session is used from one thread at a time
/// (it stays `Send`).
#[derive(Debug, Default)]
pub(crate) struct PlanCache(std::cell::RefCell<Option<std::sync::Arc<Plan>>>);

impl Clone for PlanCache {
    fn clone(&self) -> PlanCache {
        PlanCache(std::cell::RefCell::new(self.get()))
    }
}

impl PlanCache {
    fn get(&self) -> Option<std::sync::Arc<Plan>> {
        self.0.try_borrow().ok().and_then(|g| g.clone())
    }

    fn set(&self, p: std::sync::Arc<Plan>) {
        if let Ok(mut g) = self.0.try_borrow_mut() {
            *g = Some(p);
        }
    }
}

/// Whether restriction parameters read something a cached plan cannot
/// follow: a reference other than `$param`, a board-reading or expression
/// key.
fn volatile(v: &Value) -> bool {
    match v {
        Value::String(s) => s.starts_with('$') && !s.starts_with("$param."),
        Value::Array(a) => a.iter().any(volatile),
        Value::Object(o) => o.iter().any(|(k, v)| {
            matches!(k.as_str(), "when" | "where" | "empty" | "sameFileAs") || volatile(v)
        }),
        _ => false,
    }
}

/// Whether parameters read markers.
fn reads_markers(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.iter().any(reads_markers),
        Value::Object(o) => o.iter().any(|(k, v)| {
            matches!(k.as_str(), "hasMarker" | "onMarker" | "hardBlocked") || reads_markers(v)
        }),
        _ => false,
    }
}

impl Session {
    /// The key of a plan built now; `markers` when a filter reads them.
    fn plan_key(&self, markers: bool) -> Key {
        Key {
            insts: self.st.modifiers.iter().map(|m| m.id).collect(),
            turn: self.game.turn(),
            mover: self.st.cursor.ply.as_ref().map(|p| p.mover),
            markers: markers.then(|| {
                self.st
                    .markers
                    .iter()
                    .map(|m| (m.id, m.square, m.kind, m.source))
                    .collect()
            }),
        }
    }

    /// Whether a plan with this key still describes the session.
    fn key_holds(&self, k: &Key) -> bool {
        k.turn == self.game.turn()
            && k.mover == self.st.cursor.ply.as_ref().map(|p| p.mover)
            && k.insts.len() == self.st.modifiers.len()
            && k.insts
                .iter()
                .zip(&self.st.modifiers)
                .all(|(a, m)| *a == m.id)
            && k.markers.as_ref().is_none_or(|ms| {
                ms.len() == self.st.markers.len()
                    && ms
                        .iter()
                        .zip(&self.st.markers)
                        .all(|(a, m)| *a == (m.id, m.square, m.kind, m.source))
            })
    }

    /// The plan of the active restrictions for the current position: the
    /// cached one while its key holds, else a new one (cached when it may
    /// be); `None` when the interpreter must run (see the module
    /// documentation).
    pub(crate) fn legality_plan<R>(&self, depth: u8, f: impl FnOnce(&Plan) -> R) -> Option<R> {
        // The masks and line tables are those of the 8×8 board; other
        // boards run the interpreter.
        if !self.geom.is_chess() || self.blocked_mask() != 0 {
            return None;
        }
        // Capture flags and auras on them change who may capture and who
        // gives check (set-capture-flag); the plan's masks do not model
        // them, so the interpreter judges such positions. Checked cheaply
        // per call; the passive auras of the attached descriptors are read
        // once per plan (`capture_auras`).
        if self.capture_flag_stored() || self.granted_auras_may_touch(aura::CAPTURE_FLAG) {
            return None;
        }
        // The cached plan is used in place (no reference count touched);
        // a nested call meanwhile sees the cache busy and builds its own.
        if let Ok(g) = self.plan_cache.0.try_borrow() {
            if let Some(p) = g.as_ref().filter(|p| self.key_holds(&p.key)) {
                return (!p.capture_auras).then(|| f(p));
            }
        }
        let p = self.build_plan(depth)?;
        if p.capture_auras {
            return None;
        }
        let r = f(&p);
        if p.cacheable {
            self.plan_cache.set(std::sync::Arc::new(p));
        }
        Some(r)
    }

    /// Compiles the active restrictions for the side to move of the
    /// current position.
    fn build_plan(&self, depth: u8) -> Option<Plan> {
        // Legality that sees a move's effects plays moves on copies
        // (`effects.rs`): the interpreter's self-check filter does it.
        // Declined here, where a plan is built once per attached set, so
        // that the cached plans of other rule sets cost nothing more.
        if self.effect_scope().is_some() {
            return None;
        }
        let (pos, _) = self.pos();
        let def = self.game.variant().definition();
        if def.pieces.len() > 64 {
            return None;
        }
        let hooks = self.pos().1.hooks();
        let us = pos.turn();
        let ev = std::collections::BTreeMap::new();
        let b = std::collections::BTreeMap::new();
        let mut cacheable = true;
        let mut markers = false;
        let mut p = Plan {
            key: self.plan_key(false),
            cacheable: true,
            forbid: Vec::new(),
            forbid_from: 0,
            forbid_to: 0,
            protect_targets: Vec::new(),
            disarm: Vec::new(),
            protect_own: Vec::new(),
            royals_safe: false,
            keep_farthest: Vec::new(),
            must_move: Vec::new(),
            any: false,
            capture_auras: self.passive_auras_may_touch(aura::CAPTURE_FLAG),
        };
        for m in &self.st.modifiers {
            let Some(d) = self.st.descriptors.get(&m.descriptor) else {
                continue;
            };
            if m.params.values().any(volatile) {
                cacheable = false;
            }
            let cx = Cx {
                inst: Some(m.id),
                event: &ev,
                subject: &Value::Null,
                binds: &b,
                pos: Some(Board::Small(pos, self.pos().1)),
                depth,
                it: &Value::Null,
            };
            for n in &d.passive {
                p.any = true;
                let params = &n.params;
                let rel = matches!(
                    n.kind,
                    PrimitiveKind::ForbidMove
                        | PrimitiveKind::Protect
                        | PrimitiveKind::KeepFarthest
                        | PrimitiveKind::MustMoveIfAble
                );
                if rel && params.values().any(volatile) {
                    cacheable = false;
                }
                if rel && params.values().any(reads_markers) {
                    markers = true;
                }
                match n.kind {
                    PrimitiveKind::AddMoves | PrimitiveKind::ReplaceMoves => return None,
                    PrimitiveKind::SetBoardTopology
                        if params.get("wrapFiles").and_then(Value::as_bool) == Some(true) =>
                    {
                        return None
                    }
                    // `givesCheck` plays each move: the interpreter's.
                    PrimitiveKind::ForbidMove | PrimitiveKind::MustMoveIfAble
                        if params.contains_key("givesCheck") =>
                    {
                        return None
                    }
                    PrimitiveKind::ForbidMove => {
                        let (sm, dynamic) = self.move_mask(&cx, params, pos);
                        cacheable &= !dynamic;
                        // Square-only filters are the same on every
                        // position: merged once here.
                        // (A closed gate forbids nothing.)
                        if sm.piece.is_some() || sm.target.is_some() {
                            p.forbid.push(sm);
                        } else if sm.mask.only_from() {
                            p.forbid_from |= sm.mask.from;
                        } else if sm.mask.only_to() {
                            p.forbid_to |= sm.mask.to;
                        } else if sm.mask.gate {
                            p.forbid.push(sm);
                        }
                        if !immobilising(params.keys()) {
                            continue;
                        }
                        // Judged on the positions after each move, so the
                        // board must not be read.
                        let when = params.get("when");
                        if when.is_some_and(reads_board) || dynamic {
                            return None;
                        }
                        if when.is_some_and(|w| !truthy(&self.eval(&cx, w))) {
                            continue;
                        }
                        if let Some(s) = params.get("side") {
                            if !self.players(&cx, s).contains(&us.flip()) {
                                continue;
                            }
                        }
                        let mut pieces = sm.piece.unwrap_or(PieceMask::all(def.pieces.len()));
                        pieces.squares &= sm.mask.from;
                        p.disarm.push(Disarm { pieces });
                    }
                    PrimitiveKind::Protect => {
                        let against = params
                            .get("against")
                            .and_then(Value::as_array)
                            .is_some_and(|a| a.iter().any(|x| x == "capture"));
                        if !against {
                            continue;
                        }
                        let when = params.get("when");
                        if when.is_some_and(reads_board) {
                            return None;
                        }
                        if when.is_some_and(|w| !truthy(&self.eval(&cx, w))) {
                            continue;
                        }
                        let Some(f) = params.get("pieces") else {
                            continue;
                        };
                        let pm = self.piece_mask(&cx, f, pos);
                        cacheable &= !pm.dynamic;
                        p.protect_targets.push(pm);
                        if pm.kinds[ci(us)] != 0 && pm.royal & 2 != 0 && pm.squares != 0 {
                            if pm.dynamic {
                                return None;
                            }
                            p.protect_own.push(pm);
                        }
                    }
                    PrimitiveKind::KeepFarthest => {
                        if let Some(f) = params.get("pieces") {
                            let pm = self.piece_mask(&cx, f, pos);
                            cacheable &= !pm.dynamic;
                            p.keep_farthest.push(pm);
                        }
                    }
                    PrimitiveKind::MustMoveIfAble => {
                        let (sm, dynamic) = self.move_mask(&cx, params, pos);
                        cacheable &= !dynamic;
                        p.must_move.push(sm);
                    }
                    _ => {}
                }
            }
        }
        p.royals_safe = hooks.is_none()
            && def.pieces.iter().enumerate().all(|(k, piece)| {
                !piece.royal
                    || p.protect_own.iter().any(|pm| {
                        pm.royal & 2 != 0 && pm.squares == !0 && pm.kinds[ci(us)] & (1u64 << k) != 0
                    })
            });
        p.key = self.plan_key(markers);
        p.cacheable = cacheable;
        Some(p)
    }
}
