//! Auras, effective attributes and capture flags.
//!
//! An aura (`add-aura {radius, targetAttr, delta, filter?, source?}`,
//! modifier-rulings § 2.2; presets-and-triggers.md § Dispatch order,
//! stage 1) adds `delta` to the attribute `targetAttr` of every piece
//! within `radius` king steps (Chebyshev distance, the emitter's own square
//! included) of an emitter, while the emitter stands. `filter` narrows the
//! pieces it reaches; it is read with `$self` bound to the emitter, so
//! `{"color": "$self.color"}` means its allies. Emitters:
//!
//! - passive `add-aura`: the pieces named by `source` (required there:
//!   a modifier is game-scoped, not attached to a piece);
//! - `add-aura` in a trigger: `source` if given, else the trigger's targets
//!   (its `target`, else `$self`), as for the other state primitives; the
//!   aura lasts while that piece stands and the modifier is attached.
//!
//! The **effective** value of an attribute is the stored value (0 when
//! absent) plus the deltas of the auras that cover the piece. Auras are
//! derived, never stored on the pieces, so they follow the emitters at
//! once. Everything that reads attributes reads effective values: the
//! `.attr.<Name>` references, the output's `attrs`, `on-damaged` when an
//! aura's `Hp` bonus is lost (by the move at stage 2, by a trigger's
//! primitives or a detach through the deferred queue: rulings C8, see
//! `Session::queue_aura_damage`) and the capture flag.
//!
//! The **capture flag** (`set-capture-flag {flag, target?}`) is the
//! attribute `CaptureFlag`: a piece whose effective flag is not 0 is
//! disarmed, it cannot capture and gives no check; setting it back to 0
//! re-arms it (presets-and-triggers.md's "re-arm" example).
//!
//! Legality reads capture flags, so inside an aura's `source` and `filter`
//! `legal-move-count` reads 0 (no recursion into legality).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::board::{bit, Board, Mask};
use super::eval::Cx;
use super::{pieces_of, PieceInfo, Session};
use crate::descriptor::PrimitiveKind;

/// The attribute of the capture flag.
pub const CAPTURE_FLAG: &str = "CaptureFlag";

/// An aura standing on a position.
#[derive(Debug, Clone)]
pub(crate) struct ActiveAura {
    inst: u32,
    emitter: PieceInfo,
    radius: u8,
    attr: String,
    delta: f64,
    filter: Option<Value>,
}

/// A number as JSON: an integer when it is one.
pub(crate) fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

impl Session {
    /// Whether any aura can exist (a passive `add-aura` or one added by a
    /// trigger); false costs one pass over the attached modifiers.
    pub(crate) fn has_auras(&self) -> bool {
        self.st.modifiers.iter().any(|m| {
            !m.auras.is_empty()
                || self
                    .st
                    .descriptors
                    .get(&m.descriptor)
                    .is_some_and(|d| d.passive.iter().any(|n| n.kind == PrimitiveKind::AddAura))
        })
    }

    /// Whether some aura may add to `attr` (its `targetAttr` is `attr` or
    /// a reference), so that hot paths skip auras that cannot matter.
    fn auras_may_touch(&self, attr: &str) -> bool {
        self.granted_auras_may_touch(attr) || self.passive_auras_may_touch(attr)
    }

    /// [`Self::auras_may_touch`] for the auras triggers added to attached
    /// instances (no descriptor lookups: cheap enough per position).
    pub(crate) fn granted_auras_may_touch(&self, attr: &str) -> bool {
        self.st
            .modifiers
            .iter()
            .any(|m| m.auras.iter().any(|a| aura_hits(a.get("targetAttr"), attr)))
    }

    /// [`Self::auras_may_touch`] for the passive `add-aura` nodes of the
    /// attached descriptors: fixed while the same instances are attached.
    pub(crate) fn passive_auras_may_touch(&self, attr: &str) -> bool {
        self.st.modifiers.iter().any(|m| {
            self.st.descriptors.get(&m.descriptor).is_some_and(|d| {
                d.passive.iter().any(|n| {
                    n.kind == PrimitiveKind::AddAura && aura_hits(n.params.get("targetAttr"), attr)
                })
            })
        })
    }

    /// Whether some piece has a capture flag stored (set, not yet re-armed).
    pub(crate) fn capture_flag_stored(&self) -> bool {
        self.st
            .attrs
            .values()
            .any(|a| a.get(CAPTURE_FLAG).is_some_and(super::eval::truthy))
    }

    /// The auras standing on `pos`, in attach order, passive ones first.
    pub(crate) fn auras_on(&self, pos: Board<'_>) -> Vec<ActiveAura> {
        let mut out = Vec::new();
        if !self.has_auras() {
            return out;
        }
        let all = pieces_of(pos);
        let ev = BTreeMap::new();
        let b = BTreeMap::new();
        for m in &self.st.modifiers {
            let Some(d) = self.st.descriptors.get(&m.descriptor) else {
                continue;
            };
            // Depth 1: `legal-move-count` reads 0 here, since legality
            // itself reads auras (capture flags).
            let cx = Cx {
                pos: Some(pos),
                depth: 1,
                ..Cx::new(Some(m.id), &ev, &Value::Null, &b)
            };
            for n in d
                .passive
                .iter()
                .filter(|n| n.kind == PrimitiveKind::AddAura)
            {
                let p = &n.params;
                let get = |k: &str| self.val(&cx, p.get(k).unwrap_or(&Value::Null));
                let (Some(radius), Some(attr), Some(delta)) = (
                    get("radius").as_u64(),
                    get("targetAttr").as_str().map(String::from),
                    get("delta").as_f64(),
                ) else {
                    continue;
                };
                for e in self.pieces_param(&cx, p.get("source").unwrap_or(&Value::Null)) {
                    out.push(ActiveAura {
                        inst: m.id,
                        emitter: e,
                        radius: radius.min(8) as u8,
                        attr: attr.clone(),
                        delta,
                        filter: p.get("filter").cloned(),
                    });
                }
            }
            for a in &m.auras {
                let id = a.get("emitter").and_then(Value::as_u64).unwrap_or(0);
                let Some(e) = all.iter().find(|p| u64::from(p.id) == id) else {
                    continue;
                };
                let (Some(radius), Some(attr), Some(delta)) = (
                    a.get("radius").and_then(Value::as_u64),
                    a.get("targetAttr").and_then(Value::as_str),
                    a.get("delta").and_then(Value::as_f64),
                ) else {
                    continue;
                };
                out.push(ActiveAura {
                    inst: m.id,
                    emitter: *e,
                    radius: radius.min(8) as u8,
                    attr: attr.to_string(),
                    delta,
                    filter: a.get("filter").cloned(),
                });
            }
        }
        out
    }

    /// Whether an aura reaches a piece on `pos`.
    fn covers(&self, pos: Board<'_>, a: &ActiveAura, p: &PieceInfo) -> bool {
        let g = self.geom;
        let df = (i32::from(g.file(a.emitter.sq)) - i32::from(g.file(p.sq))).abs();
        let dr = (i32::from(g.rank(a.emitter.sq)) - i32::from(g.rank(p.sq))).abs();
        if df.max(dr) > i32::from(a.radius) {
            return false;
        }
        let Some(f) = &a.filter else { return true };
        let ev = BTreeMap::new();
        let b = BTreeMap::new();
        let me = self.snap(&a.emitter);
        let cx = Cx {
            pos: Some(pos),
            depth: 1,
            ..Cx::new(Some(a.inst), &ev, &me, &b)
        };
        self.piece_ok(&cx, f, &self.view(pos, p))
    }

    /// The sum of the deltas of `auras` that reach `p` for `attr`.
    fn bonus(&self, pos: Board<'_>, auras: &[ActiveAura], p: &PieceInfo, attr: &str) -> f64 {
        auras
            .iter()
            .filter(|a| a.attr == attr && self.covers(pos, a, p))
            .map(|a| a.delta)
            .sum()
    }

    /// The stored attributes of `p` on `pos`, with `Hp` read from the
    /// `piece-hp` preset when it is active.
    pub(crate) fn stored_attrs(&self, pos: Board<'_>, p: &PieceInfo) -> BTreeMap<String, Value> {
        let mut out = self.st.attrs.get(&p.id).cloned().unwrap_or_default();
        if self.hp_preset() {
            if let Some(h) = Self::preset_hp(pos, p.sq) {
                out.insert("Hp".into(), json!(h));
            }
        }
        out
    }

    /// The stored attributes of `p` on the game's position
    /// (`stored_attrs`), on a board of any size.
    pub fn base_attrs(&self, p: &PieceInfo) -> BTreeMap<String, Value> {
        self.stored_attrs(self.position(), p)
    }

    /// Effective attributes of `p` given the auras on `pos`: the stored
    /// ones, plus every attribute an aura reaching it adds to (from 0 when
    /// absent; a stored value that is not a number is left as it is).
    fn effective_with(
        &self,
        pos: Board<'_>,
        auras: &[ActiveAura],
        p: &PieceInfo,
    ) -> BTreeMap<String, Value> {
        let mut out = self.stored_attrs(pos, p);
        let mut bonus: BTreeMap<&str, f64> = BTreeMap::new();
        for a in auras.iter().filter(|a| self.covers(pos, a, p)) {
            *bonus.entry(a.attr.as_str()).or_insert(0.0) += a.delta;
        }
        for (k, d) in bonus {
            match out.get(k) {
                None | Some(Value::Null) => {
                    out.insert(k.to_string(), number(d));
                }
                Some(Value::Number(n)) => {
                    let x = n.as_f64().unwrap_or(0.0) + d;
                    out.insert(k.to_string(), number(x));
                }
                Some(_) => {}
            }
        }
        out
    }

    /// Effective attributes of every piece on the game's position, keyed by
    /// id (one aura computation for all).
    pub fn all_effective_attrs(&self) -> BTreeMap<u16, BTreeMap<String, Value>> {
        let pos = self.position();
        let auras = self.auras_on(pos);
        pieces_of(pos)
            .iter()
            .map(|p| (p.id, self.effective_with(pos, &auras, p)))
            .collect()
    }

    /// One effective attribute of the piece with id `id` on `pos`, or null.
    pub(crate) fn effective_attr_on(&self, pos: Board<'_>, id: u16, attr: &str) -> Value {
        let Some(p) = pieces_of(pos).into_iter().find(|p| p.id == id) else {
            return Value::Null;
        };
        let base = self
            .stored_attrs(pos, &p)
            .get(attr)
            .cloned()
            .unwrap_or(Value::Null);
        if !self.has_auras() {
            return base;
        }
        let auras = self.auras_on(pos);
        let reaching: Vec<f64> = auras
            .iter()
            .filter(|a| a.attr == attr && self.covers(pos, a, &p))
            .map(|a| a.delta)
            .collect();
        if reaching.is_empty() {
            return base;
        }
        let d: f64 = reaching.iter().sum();
        match base {
            Value::Null => number(d),
            Value::Number(n) => number(n.as_f64().unwrap_or(0.0) + d),
            other => other,
        }
    }

    /// Whether the `piece-hp` preset is active. Its hit points are then
    /// the pieces' `Hp` fact (presets-and-triggers § `piece-hp`: the single
    /// source of truth for hit points): modifiers read and write them as
    /// `Hp`, and a drop fires `on-damaged` (rulings C8).
    pub(crate) fn hp_preset(&self) -> bool {
        self.hp_preset
    }

    /// The `piece-hp` hit points of the piece on `sq` of `pos`, when the
    /// preset is active (`hp_preset`, given by the caller).
    pub(crate) fn preset_hp(pos: Board<'_>, sq: u8) -> Option<u8> {
        pos.hit_points(sq)
    }

    /// The `piece-hp` hit points of every piece on the game's position, by
    /// id; empty when the preset is not active.
    pub(crate) fn preset_hp_all(&self) -> Vec<(u16, u8)> {
        if !self.hp_preset() {
            return Vec::new();
        }
        let pos = self.position();
        pieces_of(pos)
            .iter()
            .filter_map(|p| Self::preset_hp(pos, p.sq).map(|h| (p.id, h)))
            .collect()
    }

    /// The pieces still standing whose `piece-hp` hit points are below
    /// those in `before` (an earlier [`Self::preset_hp_all`]).
    pub(crate) fn preset_hp_losses(&self, before: &[(u16, u8)]) -> Vec<u16> {
        if before.is_empty() {
            return Vec::new();
        }
        let pos = self.position();
        pieces_of(pos)
            .iter()
            .filter(|p| {
                let was = before.iter().find(|(i, _)| *i == p.id).map(|x| x.1);
                matches!((was, Self::preset_hp(pos, p.sq)), (Some(a), Some(b)) if b < a)
            })
            .map(|p| p.id)
            .collect()
    }

    /// `Hp` bonus from auras per piece id on the game's position (for
    /// stage 2); empty when no aura touches `Hp`.
    pub(crate) fn hp_aura_bonus(&self) -> Vec<(u16, f64)> {
        if !self.auras_may_touch("Hp") {
            return Vec::new();
        }
        let pos = self.position();
        let auras = self.auras_on(pos);
        if auras.iter().all(|a| a.attr != "Hp") {
            return Vec::new();
        }
        pieces_of(pos)
            .iter()
            .map(|p| (p.id, self.bonus(pos, &auras, p, "Hp")))
            .filter(|&(_, b)| b != 0.0)
            .collect()
    }

    /// The standing pieces whose `Hp` bonus from auras is now below the
    /// one in `before` (an earlier [`Self::hp_aura_bonus`]), by ascending
    /// square (rulings A10). Nothing is computed when `before` is empty: a
    /// piece with no bonus cannot lose one.
    pub(crate) fn hp_aura_losses(&self, before: &[(u16, f64)]) -> Vec<PieceInfo> {
        if before.is_empty() {
            return Vec::new();
        }
        let now = self.hp_aura_bonus();
        let mut hurt: Vec<PieceInfo> = before
            .iter()
            .filter(|(id, b)| {
                let n = now.iter().find(|(i, _)| i == id).map_or(0.0, |x| x.1);
                n < *b
            })
            .filter_map(|(id, _)| self.find_piece(*id))
            .collect();
        hurt.sort_by_key(|p| p.sq);
        hurt
    }

    /// Squares of the pieces on `pos` whose effective capture flag is set
    /// (not 0, not false, not null): they cannot capture and give no check.
    /// 0 at once when no flag is stored and no aura exists.
    pub(crate) fn capture_disarmed(&self, pos: Board<'_>) -> Mask {
        let stored = self.capture_flag_stored();
        let touched = self.auras_may_touch(CAPTURE_FLAG);
        if !stored && !touched {
            return 0;
        }
        let auras = if touched {
            self.auras_on(pos)
        } else {
            Vec::new()
        };
        let mut mask = 0 as Mask;
        for p in pieces_of(pos) {
            let base = self
                .st
                .attrs
                .get(&p.id)
                .and_then(|a| a.get(CAPTURE_FLAG))
                .cloned()
                .unwrap_or(Value::Null);
            let d = self.bonus(pos, &auras, &p, CAPTURE_FLAG);
            let set = match &base {
                Value::Number(n) => n.as_f64().unwrap_or(0.0) + d != 0.0,
                Value::Null => d != 0.0,
                other => super::eval::truthy(other),
            };
            if set {
                mask |= bit(p.sq);
            }
        }
        mask
    }
}

/// Whether an aura's `targetAttr` (a name or a `$` reference) may name `attr`.
fn aura_hits(v: Option<&Value>, attr: &str) -> bool {
    v.and_then(Value::as_str)
        .is_some_and(|t| t == attr || t.starts_with('$'))
}
