//! Running trigger effects: the imperative primitives, suspension at a
//! choice and resumption (modifier-dsl-decisions § Player Choice;
//! modifier-rulings B3, C1, C5, C6, D3, E1, F2, F3).

use std::collections::BTreeMap;

use houserules_engine::{Color, Piece};
use serde_json::{json, Value};

use super::board::{bit, edit_board};
use super::eval::{items, truthy, Cx};
use super::{
    codes, kind_by_name, parse_color, Arm, Marker, MarkerLifetime, Node, PathStep, PendingChoice,
    PieceInfo, Session, Step, Work, MAX_CASCADE,
};
use crate::descriptor::{MarkerKind, PrimitiveKind as K, TriggerKind};

/// A board rewrite by a primitive (rulings C6), on either bitboard width.
#[derive(Clone, Copy)]
enum Rewrite {
    /// Two pieces change squares (`swap-pieces`).
    Swap(u8, u8),
    /// The piece leaves the board (`remove-piece`, a kill).
    Remove(u8),
    /// The piece moves to an empty square (`step-piece`, pushes,
    /// `move-piece`).
    Relocate(u8, u8),
}

/// Kill attempts per input: a bound on chains of cancelled kills whose
/// attempt hooks kill again (each level may try every piece).
const MAX_KILL_ATTEMPTS: u32 = 4096;

/// How a body ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Ran to its end.
    Done,
    /// A choice frame was pushed; the arm stops here.
    Suspend,
}

/// A running arm: its identity and its bindings.
pub(crate) struct ArmRun {
    pub arm: Arm,
    pub binds: BTreeMap<String, Value>,
}

fn body_of(params: &BTreeMap<String, Value>, key: &str) -> Vec<Node> {
    params
        .get(key)
        .and_then(|v| <Vec<Node> as serde::Deserialize>::deserialize(v).ok())
        .unwrap_or_default()
}

/// A count or distance read at run time (a literal or a resolved
/// reference): a whole number clamped to 1..=`max`; a value that is not a
/// number, or below 1, counts 1 (the validator checks literals; a
/// reference is only known here, rulings A9: never a runtime error).
fn whole_count(v: &Value, max: u64) -> u64 {
    let n = v
        .as_u64()
        .or_else(|| v.as_f64().filter(|x| *x >= 1.0).map(|x| x as u64))
        .unwrap_or(1);
    n.clamp(1, max)
}

fn with_step(prefix: &[PathStep], index: usize, branch: &str) -> Vec<PathStep> {
    let mut p = prefix.to_vec();
    p.push(PathStep {
        index,
        branch: branch.to_string(),
    });
    p
}

impl Session {
    fn cx<'a>(&self, run: &'a ArmRun) -> Cx<'a> {
        Cx::new(
            Some(run.arm.instance),
            &run.arm.event,
            &run.arm.subject,
            &run.binds,
        )
    }

    fn effects(&self, arm: &Arm) -> Option<Vec<Node>> {
        let inst = self.st.modifiers.iter().find(|m| m.id == arm.instance)?;
        let d = self.st.descriptors.get(&inst.descriptor)?;
        Some(d.triggers.get(arm.trigger)?.effects.clone())
    }

    fn trigger_kind(&self, arm: &Arm) -> Option<TriggerKind> {
        let inst = self.st.modifiers.iter().find(|m| m.id == arm.instance)?;
        Some(
            self.st
                .descriptors
                .get(&inst.descriptor)?
                .triggers
                .get(arm.trigger)?
                .kind,
        )
    }

    /// Runs an arm from its start (the cascade limit applies, E1); the
    /// log entries it writes are named after its rule.
    pub(crate) fn run_arm(&mut self, arm: Arm) {
        self.running.push(arm.instance);
        self.run_arm_named(arm);
        self.running.pop();
    }

    fn run_arm_named(&mut self, arm: Arm) {
        if arm.generation > MAX_CASCADE {
            let id = self
                .st
                .modifiers
                .iter()
                .find(|m| m.id == arm.instance)
                .map(|m| m.descriptor.clone());
            self.log(
                "error",
                json!({"code": codes::CASCADE_DEPTH_EXCEEDED, "modifier": id}),
            );
            return;
        }
        let Some(effects) = self.effects(&arm) else {
            return;
        };
        // A subject removed before its stage does not fire (rulings A9),
        // except on-captured and a kill attempt.
        if let Some(id) = arm.subject.get("id").and_then(Value::as_u64) {
            let kind = self.trigger_kind(&arm);
            if !matches!(
                kind,
                Some(
                    TriggerKind::OnCaptured
                        | TriggerKind::OnKillAttempt
                        | TriggerKind::OnCaptureAttempt
                )
            ) && self.find_piece(id as u16).is_none()
            {
                return;
            }
        }
        // An arm run from the dispatch (not inline inside a kill, whose
        // attempt hooks belong to the killing arm's frame) opens an Hp frame.
        let outer = self.kill_depth == 0;
        if outer {
            self.st.cursor.hp_frame = self.hp_aura_bonus();
        }
        let generation = arm.generation;
        let mut run = ArmRun {
            arm,
            binds: BTreeMap::new(),
        };
        if self.run_body(&mut run, &effects, 0, &[]) == Flow::Done && outer {
            self.close_hp_frame(generation);
        }
    }

    /// The end of an arm's frame: on-damaged for the pieces whose `Hp`
    /// bonus from auras its primitives lowered, queued with the next
    /// generation, as `add-to-attribute` queues it for stored `Hp`
    /// (rulings C8, E1). A bonus lost and regained inside the frame is no
    /// damage: the arm is atomic (modifier-dsl-decisions § Trigger
    /// Reentrance) and auras are derived facts, read at its ends.
    fn close_hp_frame(&mut self, generation: u8) {
        let before = std::mem::take(&mut self.st.cursor.hp_frame);
        self.queue_aura_damage(&before, generation.saturating_add(1));
    }

    /// Resumes a suspended arm after its choice was bound (rulings B3):
    /// the choice's `then`, then its following siblings at every level.
    pub(crate) fn resume_arm(
        &mut self,
        arm: &Arm,
        binds: BTreeMap<String, Value>,
        path: &[PathStep],
    ) {
        let Some(effects) = self.effects(arm) else {
            return;
        };
        let mut run = ArmRun {
            arm: arm.clone(),
            binds,
        };
        self.running.push(arm.instance);
        // The frame opened when the arm started is still in the cursor.
        if self.resume_body(&mut run, &effects, path, &[]) == Flow::Done {
            self.close_hp_frame(arm.generation);
        }
        self.running.pop();
    }

    fn resume_body(
        &mut self,
        run: &mut ArmRun,
        body: &[Node],
        path: &[PathStep],
        prefix: &[PathStep],
    ) -> Flow {
        let Some(step) = path.first() else {
            return Flow::Done;
        };
        let Some(node) = body.get(step.index) else {
            return Flow::Done;
        };
        if path.len() == 1 {
            let then = body_of(&node.params, "then");
            let bound = node
                .params
                .get("bind")
                .and_then(Value::as_str)
                .and_then(|b| run.binds.get(b))
                .cloned();
            if !bound.is_none_or(|v| v.is_null())
                && self.run_body(run, &then, 0, &with_step(prefix, step.index, "then"))
                    == Flow::Suspend
            {
                return Flow::Suspend;
            }
        } else {
            let sub = body_of(&node.params, &step.branch);
            if self.resume_body(
                run,
                &sub,
                &path[1..],
                &with_step(prefix, step.index, &step.branch),
            ) == Flow::Suspend
            {
                return Flow::Suspend;
            }
        }
        self.run_body(run, body, step.index + 1, prefix)
    }

    pub(crate) fn run_body(
        &mut self,
        run: &mut ArmRun,
        body: &[Node],
        start: usize,
        prefix: &[PathStep],
    ) -> Flow {
        for (i, node) in body.iter().enumerate().skip(start) {
            if self.run_node(run, node, i, prefix) == Flow::Suspend {
                return Flow::Suspend;
            }
        }
        Flow::Done
    }

    /// Pieces a state primitive acts on: its own `target`, else the
    /// trigger's `target`, else the subject (target redirection).
    fn targets(&self, run: &ArmRun, own: Option<&Value>) -> Vec<PieceInfo> {
        let trig = self
            .st
            .modifiers
            .iter()
            .find(|m| m.id == run.arm.instance)
            .and_then(|m| self.st.descriptors.get(&m.descriptor))
            .and_then(|d| d.triggers.get(run.arm.trigger))
            .and_then(|t| t.params.get("target").cloned());
        let t = own.cloned().or(trig);
        let cx = self.cx(run);
        match t {
            None => self.pieces_param(&cx, &json!("$self")),
            Some(Value::String(s)) => match s.as_str() {
                "self" => self.pieces_param(&cx, &json!("$self")),
                "attacker" => self.pieces_param(&cx, &json!("$event.attacker")),
                "defender" => self.pieces_param(&cx, &json!("$event.defender")),
                other => self.pieces_param(&cx, &json!(other)),
            },
            Some(Value::Object(o)) if o.contains_key("squares") => {
                self.pieces_param(&cx, &o["squares"])
            }
            Some(Value::Object(o)) if o.contains_key("relation") => {
                let me = run
                    .arm
                    .subject
                    .get("color")
                    .and_then(Value::as_str)
                    .and_then(parse_color);
                let ally = o.get("relation").and_then(Value::as_str) == Some("ally");
                let f = o.get("filter").cloned().unwrap_or(json!({}));
                self.pieces_param(&cx, &f)
                    .into_iter()
                    .filter(|p| me.is_some_and(|c| (p.piece.color == c) == ally))
                    .collect()
            }
            Some(f) => self.pieces_param(&cx, &f),
        }
    }

    #[allow(clippy::too_many_lines)]
    fn run_node(
        &mut self,
        run: &mut ArmRun,
        node: &Node,
        index: usize,
        prefix: &[PathStep],
    ) -> Flow {
        let p = &node.params;
        match node.kind {
            K::SeedAttribute | K::SetPieceAttr | K::AddToAttribute => {
                let attr = p
                    .get("attr")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let targets = self.targets(run, p.get("target"));
                let cx = self.cx(run);
                let value = if node.kind == K::AddToAttribute {
                    self.val(&cx, p.get("delta").unwrap_or(&Value::Null))
                } else {
                    self.eval(&cx, p.get("value").unwrap_or(&Value::Null))
                };
                for t in targets {
                    if node.kind != K::AddToAttribute && (attr == "PieceType" || attr == "Color") {
                        let (ty, co) = if attr == "PieceType" {
                            (value.as_str(), None)
                        } else {
                            (None, value.as_str().and_then(parse_color))
                        };
                        self.convert(&t, ty, co);
                        continue;
                    }
                    if attr == "Hp" && self.hp_preset() {
                        self.write_preset_hp(run, &t, node.kind == K::AddToAttribute, &value);
                        continue;
                    }
                    let entry = self.st.attrs.entry(t.id).or_default();
                    let old = entry.get(&attr).and_then(Value::as_f64);
                    let new = if node.kind == K::AddToAttribute {
                        let d = value.as_f64().unwrap_or(0.0);
                        let x = old.unwrap_or(0.0) + d;
                        if x.fract() == 0.0 && x.abs() < 9.0e15 {
                            json!(x as i64)
                        } else {
                            json!(x)
                        }
                    } else {
                        value.clone()
                    };
                    let newf = new.as_f64();
                    entry.insert(attr.clone(), new.clone());
                    // A rule's write of hit points is logged as the presets'
                    // are (trial 18: it was not).
                    if attr == "Hp" && newf != old {
                        self.log_hp_write(&t, old.map_or(json!(0), |o| json!(o)), &new);
                    }
                    // on-damaged is queued whenever Hp goes down (rulings C8);
                    // an absent value is 0, as in the effective attribute.
                    if attr == "Hp" && newf.is_some_and(|b| b < old.unwrap_or(0.0)) {
                        self.enqueue_damaged(run, &t);
                    }
                }
            }
            K::SetCaptureFlag => {
                // The flag is the targets' `CaptureFlag` attribute (see
                // runtime::aura): not 0 disarms, 0 re-arms.
                let targets = self.targets(run, p.get("target"));
                let cx = self.cx(run);
                let v = self.val(&cx, p.get("flag").unwrap_or(&Value::Null));
                for t in targets {
                    self.st
                        .attrs
                        .entry(t.id)
                        .or_default()
                        .insert(super::aura::CAPTURE_FLAG.into(), v.clone());
                }
            }
            K::SetVar | K::AddToVar => {
                let cx = self.cx(run);
                let name = p
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let game = p.get("scope").and_then(Value::as_str) == Some("game");
                let v = if node.kind == K::SetVar {
                    self.eval(&cx, p.get("value").unwrap_or(&Value::Null))
                } else {
                    let d = self
                        .val(&cx, p.get("delta").unwrap_or(&Value::Null))
                        .as_f64()
                        .unwrap_or(0.0);
                    let old = self
                        .resolve_ref(&cx, &format!("$var.{name}"))
                        .as_f64()
                        .unwrap_or(0.0);
                    let x = old + d;
                    if x.fract() == 0.0 && x.abs() < 9.0e15 {
                        json!(x as i64)
                    } else {
                        json!(x)
                    }
                };
                if game {
                    self.st.vars.insert(name, v);
                } else if let Some(m) = self
                    .st
                    .modifiers
                    .iter_mut()
                    .find(|m| m.id == run.arm.instance)
                {
                    m.vars.insert(name, v);
                }
            }
            K::AddAura => {
                // One aura per emitter: `source`, else the trigger's
                // targets; it lasts while the emitter stands (runtime::aura).
                let emitters = match p.get("source") {
                    Some(src) => {
                        let cx = self.cx(run);
                        self.pieces_param(&cx, src)
                    }
                    None => self.targets(run, None),
                };
                let cx = self.cx(run);
                let mut aura: BTreeMap<String, Value> = p
                    .iter()
                    .filter(|(k, _)| k.as_str() != "source")
                    .map(|(k, v)| {
                        (
                            k.clone(),
                            if k == "filter" {
                                v.clone()
                            } else {
                                self.val(&cx, v)
                            },
                        )
                    })
                    .collect();
                let mut added = Vec::new();
                for e in emitters {
                    aura.insert("emitter".into(), json!(e.id));
                    added.push(json!(aura));
                }
                if let Some(m) = self
                    .st
                    .modifiers
                    .iter_mut()
                    .find(|m| m.id == run.arm.instance)
                {
                    m.auras.extend(added);
                }
            }
            K::SpawnMarker => {
                let cx = self.cx(run);
                let kind = self.val(&cx, p.get("kind").unwrap_or(&Value::Null));
                let Some(kind) = kind.as_str().and_then(MarkerKind::parse) else {
                    return Flow::Done;
                };
                let squares = self.squares(&cx, p.get("at").unwrap_or(&Value::Null));
                let lifetime = match p
                    .get("lifetime")
                    .and_then(|l| l.get("kind"))
                    .and_then(Value::as_str)
                {
                    Some("one-shot") => MarkerLifetime::OneShot,
                    Some("moves") => {
                        // `plies` may be a reference (`"$param.n"`).
                        let plies = p["lifetime"].get("plies").map(|n| self.val(&cx, n));
                        MarkerLifetime::Moves {
                            expires_at_move: self.st.ply_count
                                + whole_count(&plies.unwrap_or(json!(1)), 10_000) as u32,
                        }
                    }
                    _ => MarkerLifetime::Permanent,
                };
                let owner = p
                    .get("owner")
                    .map(|o| self.players(&cx, o))
                    .filter(|v| v.len() == 1)
                    .map(|v| v[0]);
                let links: Vec<u32> = p
                    .get("links")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .flat_map(|x| items(self.val(&cx, x)))
                            .filter_map(|v| v.get("marker").and_then(Value::as_u64))
                            .map(|x| x as u32)
                            .collect()
                    })
                    .unwrap_or_default();
                for sq in squares {
                    if self.st.markers.len() >= super::MAX_MARKERS {
                        self.log("marker-limit", json!({"limit": super::MAX_MARKERS}));
                        break;
                    }
                    let id = self.next_entity();
                    self.st.markers.push(Marker {
                        id,
                        kind,
                        square: sq,
                        lifetime,
                        owner,
                        links: links.clone(),
                        source: run.arm.instance,
                    });
                    // Markers are public (the state lists them): the log
                    // says where each came from (trial 18: `spawn-marker`
                    // wrote no entry).
                    self.log(
                        "marker-placed",
                        json!({"marker": id, "kind": kind, "square": self.geom.name(sq)}),
                    );
                }
            }
            K::RemoveMarker => {
                let cx = self.cx(run);
                let gone: Vec<(u32, MarkerKind, u8)> = self
                    .markers_matching(&cx, p.get("markers").unwrap_or(&Value::Null))
                    .iter()
                    .map(|m| (m.id, m.kind, m.square))
                    .collect();
                self.st
                    .markers
                    .retain(|m| !gone.iter().any(|g| g.0 == m.id));
                // Trial 18: a mine used up vanished with no log entry.
                for (id, kind, sq) in gone {
                    self.log(
                        "marker-removed",
                        json!({"marker": id, "kind": kind, "square": self.geom.name(sq)}),
                    );
                }
            }
            K::MoveMarker => {
                let cx = self.cx(run);
                let ids: Vec<u32> = self
                    .markers_matching(&cx, p.get("markers").unwrap_or(&Value::Null))
                    .iter()
                    .map(|m| m.id)
                    .collect();
                if let Some(&to) = self
                    .squares(&cx, p.get("to").unwrap_or(&Value::Null))
                    .first()
                {
                    for m in self.st.markers.iter_mut().filter(|m| ids.contains(&m.id)) {
                        m.square = to;
                    }
                }
            }
            K::SpawnPiece => {
                let cx = self.cx(run);
                let ty = self.val(&cx, p.get("type").unwrap_or(&Value::Null));
                let colors = self.players(&cx, p.get("color").unwrap_or(&Value::Null));
                let squares = self.squares(&cx, p.get("at").unwrap_or(&Value::Null));
                let def = self.game.variant().definition().clone();
                if let (Some(kind), [color]) = (
                    ty.as_str().and_then(|t| kind_by_name(&def, t)),
                    colors.as_slice(),
                ) {
                    for sq in squares {
                        if self.hard_blocked(sq) {
                            continue;
                        }
                        let piece = Piece {
                            kind,
                            color: *color,
                        };
                        let added = edit_board!(self.game, |pos, t| {
                            let ok = pos.add_piece(t, sq, piece);
                            if ok {
                                pos.clear_en_passant();
                                pos.reset_halfmove_clock();
                            }
                            ok
                        });
                        if added {
                            let pos = self.position();
                            let info = PieceInfo {
                                id: pos.piece_id(sq),
                                sq,
                                piece,
                            };
                            self.log(
                                "spawn",
                                json!({"square": self.geom.name(sq), "type": ty, "color": color.name()}),
                            );
                            self.auto_queen(&info);
                            self.enqueue_entry(run, info.id, sq);
                        }
                    }
                }
            }
            K::Kill | K::RemovePiece => {
                let cx = self.cx(run);
                let victims = self.pieces_param(&cx, p.get("pieces").unwrap_or(&Value::Null));
                for v in victims {
                    if node.kind == K::Kill {
                        self.kill(&v);
                    } else {
                        self.remove(&v);
                    }
                }
            }
            K::SwapPieces => {
                let cx = self.cx(run);
                let a = self
                    .pieces_param(&cx, p.get("a").unwrap_or(&Value::Null))
                    .first()
                    .copied();
                let b = self
                    .pieces_param(&cx, p.get("b").unwrap_or(&Value::Null))
                    .first()
                    .copied();
                if let (Some(a), Some(b)) = (a, b) {
                    if a.id != b.id {
                        self.rewrite(Rewrite::Swap(a.sq, b.sq));
                        self.log(
                            "swapped",
                            json!({"a": self.geom.name(a.sq), "b": self.geom.name(b.sq), "ids": [a.id, b.id]}),
                        );
                        for (id, sq) in [(a.id, b.sq), (b.id, a.sq)] {
                            if let Some(info) = self.find_piece(id) {
                                self.auto_queen(&info);
                            }
                            self.enqueue_entry(run, id, sq);
                        }
                    }
                }
            }
            K::StepPiece => self.step_pieces(run, p),
            K::MovePiece => self.move_piece(run, p),
            K::ConvertPiece => {
                let cx = self.cx(run);
                let targets = self.pieces_param(&cx, p.get("pieces").unwrap_or(&Value::Null));
                let ty = p.get("type").map(|t| self.val(&cx, t));
                let co = p
                    .get("color")
                    .map(|c| self.players(&cx, c))
                    .filter(|v| v.len() == 1)
                    .map(|v| v[0]);
                if p.contains_key("color") && co.is_none() && ty.is_none() {
                    return Flow::Done;
                }
                for t in targets {
                    self.convert(&t, ty.as_ref().and_then(Value::as_str), co);
                }
            }
            K::CancelCapture => {
                self.st.cursor.cancelled = true;
                self.st.cursor.cancelled_by = Some(run.arm.instance);
            }
            K::CancelKill => self.kill_cancelled = true,
            K::SkipTurn => {
                self.st.cursor.skip = true;
                self.st.cursor.skip_by = Some(run.arm.instance);
            }
            K::DetachModifier => {
                let inst = run.arm.instance;
                if self
                    .st
                    .modifiers
                    .iter()
                    .any(|m| m.id == inst && !m.expiring)
                {
                    if let Some(m) = self.st.modifiers.iter_mut().find(|m| m.id == inst) {
                        m.expiring = true;
                    }
                    let g = run.arm.generation + 1;
                    let mut arms = Vec::new();
                    if let Some(d) = self
                        .st
                        .modifiers
                        .iter()
                        .find(|m| m.id == inst)
                        .and_then(|m| self.st.descriptors.get(&m.descriptor))
                    {
                        for (ti, t) in d.triggers.iter().enumerate() {
                            if t.kind == TriggerKind::OnRuleExpire {
                                arms.push(Arm {
                                    instance: inst,
                                    trigger: ti,
                                    event: BTreeMap::new(),
                                    subject: Value::Null,
                                    generation: g,
                                });
                            }
                        }
                    }
                    for a in arms {
                        self.st.cursor.queue.push_back(Work::Arm(a));
                    }
                    self.st.cursor.queue.push_back(Work::Step(Step::Detach {
                        instance: inst,
                        generation: g,
                    }));
                }
            }
            K::RequestChoice => return self.request_choice(run, node, index, prefix),
            K::FlipCoin => {
                let cx = self.cx(run);
                let count = p.get("count").map_or(1, |c| {
                    whole_count(&self.val(&cx, c), crate::validate::MAX_COUNT)
                }) as u32;
                let bind = p
                    .get("bind")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                if self.st.coin_flips == super::CoinFlips::Manual {
                    let who = self.players(&cx, p.get("forPlayer").unwrap_or(&Value::Null));
                    let who = who.first().copied().unwrap_or(self.game.turn());
                    return self.push_frame(
                        run,
                        node,
                        index,
                        prefix,
                        "coin-flip",
                        vec![json!("heads"), json!("tails")],
                        who.name(),
                        &bind,
                        count,
                    );
                }
                let mut coins = Vec::new();
                for _ in 0..count {
                    coins.push(json!(if self.st.rng.next_u32() < 0x8000_0000 {
                        "heads"
                    } else {
                        "tails"
                    }));
                }
                let v = if count == 1 {
                    coins[0].clone()
                } else {
                    Value::Array(coins)
                };
                self.log("coin", json!({"bind": bind, "value": v}));
                run.binds.insert(bind, v);
                let then = body_of(p, "then");
                return self.run_body(run, &then, 0, &with_step(prefix, index, "then"));
            }
            K::ForEach => {
                let cx = self.cx(run);
                let over = p.get("over").unwrap_or(&Value::Null);
                let items = self.source(&cx, over);
                // `{"values": […]}` keeps its written order unless an
                // `order` is given (docs/modifiers.md § Orders).
                let items = match p.get("order") {
                    None if super::eval::is_values_source(over) => items,
                    order => self.order(&cx, items, order),
                };
                let bind = p
                    .get("bind")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let body = body_of(p, "do");
                for it in items {
                    run.binds.insert(bind.clone(), it);
                    if self.run_body(run, &body, 0, &with_step(prefix, index, "do"))
                        == Flow::Suspend
                    {
                        return Flow::Suspend;
                    }
                }
            }
            K::RandomPick => {
                let cx = self.cx(run);
                let from = p.get("from").unwrap_or(&Value::Null);
                // Pieces: the candidates in ascending square order (the
                // default order of their snapshots), and snapshots only of
                // the picked ones (issue 25: legality probes pick often).
                let mut cands = match super::eval::pieces_filter(from) {
                    Some(x) => Err(self.source_pieces(&cx, x)),
                    None if super::eval::is_values_source(from) => Ok(self.source(&cx, from)),
                    None => {
                        let c = self.source(&cx, from);
                        Ok(self.order(&cx, c, None))
                    }
                };
                let count = p.get("count").map_or(1, |c| {
                    whole_count(&self.val(&cx, c), crate::validate::MAX_COUNT)
                }) as usize;
                let bind = p
                    .get("bind")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let empty = match &cands {
                    Ok(c) => c.is_empty(),
                    Err(c) => c.is_empty(),
                };
                if empty {
                    run.binds.insert(bind, Value::Null);
                    let els = body_of(p, "else");
                    return self.run_body(run, &els, 0, &with_step(prefix, index, "else"));
                }
                let mut picked = Vec::new();
                match &mut cands {
                    Ok(c) => {
                        for _ in 0..count.min(c.len()) {
                            let i = self.st.rng.below(c.len() as u32) as usize;
                            picked.push(c.remove(i));
                        }
                    }
                    Err(c) => {
                        for _ in 0..count.min(c.len()) {
                            let i = self.st.rng.below(c.len() as u32) as usize;
                            let info = c.remove(i);
                            picked.push(self.snap(&info));
                        }
                    }
                }
                let v = if count == 1 {
                    picked[0].clone()
                } else {
                    Value::Array(picked)
                };
                self.log("random-pick", json!({"bind": bind, "value": v}));
                run.binds.insert(bind, v);
                let then = body_of(p, "then");
                return self.run_body(run, &then, 0, &with_step(prefix, index, "then"));
            }
            K::WithProbability => {
                let cx = self.cx(run);
                let prob = self
                    .val(&cx, p.get("p").unwrap_or(&Value::Null))
                    .as_f64()
                    .unwrap_or(0.0);
                // The draw happens before any nested primitive (F3).
                let hit = self.st.rng.chance(prob);
                self.log("chance", json!({"p": prob, "hit": hit}));
                let key = if hit { "then" } else { "else" };
                let b = body_of(p, key);
                return self.run_body(run, &b, 0, &with_step(prefix, index, key));
            }
            K::Conditional => {
                let cx = self.cx(run);
                let c = truthy(&self.eval(&cx, p.get("if").unwrap_or(&Value::Null)));
                let key = if c { "then" } else { "else" };
                let b = body_of(p, key);
                return self.run_body(run, &b, 0, &with_step(prefix, index, key));
            }
            // Passive primitives never reach trigger effects (validator).
            K::AddMoves
            | K::ReplaceMoves
            | K::SetBoardTopology
            | K::ForbidMove
            | K::Protect
            | K::MustMoveIfAble
            | K::KeepFarthest => {}
        }
        Flow::Done
    }

    #[allow(clippy::too_many_arguments)]
    fn push_frame(
        &mut self,
        run: &ArmRun,
        node: &Node,
        index: usize,
        prefix: &[PathStep],
        kind: &str,
        options: Vec<Value>,
        for_player: &str,
        bind: &str,
        count: u32,
    ) -> Flow {
        let id = self.next_entity();
        let descriptor_id = self
            .st
            .modifiers
            .iter()
            .find(|m| m.id == run.arm.instance)
            .map(|m| m.descriptor.clone())
            .unwrap_or_default();
        let timeout = match self.st.choice_timeout {
            super::ChoiceTimeout::TimeoutWithDefault { seconds } => Some(seconds),
            super::ChoiceTimeout::NoTimeout => None,
        };
        let mut prompt = json!({"kind": kind, "options": options, "forPlayer": for_player});
        if let Some(f) = node.params.get("filter") {
            prompt["filter"] = f.clone();
        }
        if let Some(t) = timeout {
            prompt["timeout"] = json!(t);
        }
        self.st.pending.push(PendingChoice {
            choice_id: format!("c{id}"),
            descriptor_id,
            modifier_instance_id: run.arm.instance,
            trigger_path: with_step(prefix, index, ""),
            primitive_index: index,
            bindings: run.binds.clone(),
            kind: kind.to_string(),
            prompt,
            for_player: for_player.to_string(),
            timeout,
            arm: run.arm.clone(),
            bind: bind.to_string(),
            collected: BTreeMap::new(),
            count,
        });
        Flow::Suspend
    }

    /// request-choice: canonical options (B4); no option binds null, skips
    /// `then` and does not suspend.
    fn request_choice(
        &mut self,
        run: &mut ArmRun,
        node: &Node,
        index: usize,
        prefix: &[PathStep],
    ) -> Flow {
        let p = &node.params;
        let cx = self.cx(run);
        let kind = p
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let bind = p
            .get("bind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let filter = p.get("filter");
        let pos = self.position();
        let g = self.geom;
        let options: Vec<Value> = match kind.as_str() {
            "piece" => super::pieces_of(pos)
                .iter()
                .filter(|q| {
                    let v = self.view(pos, q);
                    !v.royal && filter.is_none_or(|f| self.piece_ok(&cx, f, &v))
                })
                .map(|q| json!(g.name(q.sq)))
                .collect(),
            "square" => (0..g.squares())
                .filter(|&s| filter.is_none_or(|f| self.square_ok(&cx, f, s)))
                .map(|s| json!(g.name(s)))
                .collect(),
            "column" => (0..g.w)
                .filter(|&f| {
                    filter.is_none_or(|flt| (0..g.h).any(|r| self.square_ok(&cx, flt, r * g.w + f)))
                })
                .map(|f| json!(((b'a' + f) as char).to_string()))
                .collect(),
            "row" => (0..g.h)
                .filter(|&r| {
                    filter.is_none_or(|flt| (0..g.w).any(|f| self.square_ok(&cx, flt, r * g.w + f)))
                })
                .map(|r| json!((r + 1).to_string()))
                .collect(),
            "coin-flip" => vec![json!("heads"), json!("tails")],
            "rps" => vec![json!("rock"), json!("paper"), json!("scissors")],
            _ => Vec::new(),
        };
        if options.is_empty() {
            run.binds.insert(bind, Value::Null);
            return Flow::Done;
        }
        let fp = p.get("forPlayer").cloned().unwrap_or(Value::Null);
        let who = if fp == json!("both") {
            "both".to_string()
        } else {
            self.players(&cx, &fp)
                .first()
                .copied()
                .unwrap_or(self.game.turn())
                .name()
                .to_string()
        };
        self.push_frame(run, node, index, prefix, &kind, options, &who, &bind, 1)
    }

    // ------------------------------------------------------------- board

    /// A board rewrite by a primitive (rulings C6): en passant cleared and
    /// the half-move clock reset.
    fn rewrite(&mut self, op: Rewrite) {
        edit_board!(self.game, |pos, _t| {
            match op {
                Rewrite::Swap(a, b) => pos.swap_pieces(a, b),
                Rewrite::Remove(sq) => pos.remove_piece(sq).is_some(),
                Rewrite::Relocate(from, to) => pos.relocate_piece(from, to),
            };
            pos.clear_en_passant();
            pos.reset_halfmove_clock();
        });
        self.drop_lost_castling();
    }

    /// Changes type and/or colour in place, keeping id and attributes;
    /// a pawn left on its far rank becomes a queen (C5).
    fn convert(&mut self, t: &PieceInfo, ty: Option<&str>, color: Option<Color>) {
        let def = self.game.variant().definition().clone();
        let Some(cur) = self.find_piece(t.id) else {
            return;
        };
        let kind = match ty {
            Some(name) => match kind_by_name(&def, name) {
                Some(k) => k,
                None => return,
            },
            None => cur.piece.kind,
        };
        let piece = Piece {
            kind,
            color: color.unwrap_or(cur.piece.color),
        };
        if piece == cur.piece {
            return;
        }
        edit_board!(self.game, |pos, tb| {
            pos.convert_piece(tb, cur.sq, piece);
            pos.clear_en_passant();
            pos.reset_halfmove_clock();
        });
        self.drop_lost_castling();
        self.log("convert", json!({"square": self.geom.name(cur.sq), "type": super::kind_name(&def, kind), "color": piece.color.name()}));
        // Stay-As-Pawn style type changes are not promoted again (C5);
        // colour changes are.
        if ty.is_none() {
            if let Some(now) = self.find_piece(t.id) {
                self.auto_queen(&now);
            }
        }
    }

    /// A pawn on its far rank after a step, swap, spawn or colour change
    /// becomes a queen of its colour at once, firing nothing (C5).
    pub(super) fn auto_queen(&mut self, p: &PieceInfo) {
        let def = self.game.variant().definition().clone();
        if super::kind_name(&def, p.piece.kind) != "pawn" {
            return;
        }
        let far = if p.piece.color == Color::White {
            self.geom.h - 1
        } else {
            0
        };
        if self.geom.rank(p.sq) != far {
            return;
        }
        if let Some(q) = kind_by_name(&def, "queen") {
            edit_board!(self.game, |pos, tb| {
                pos.convert_piece(
                    tb,
                    p.sq,
                    Piece {
                        kind: q,
                        color: p.piece.color,
                    },
                )
            });
        }
    }

    fn protected_against_kill(&self, p: &PieceInfo) -> bool {
        let ev = BTreeMap::new();
        let b = BTreeMap::new();
        let pos = self.position();
        let v = self.view(pos, p);
        self.st.modifiers.iter().any(|m| {
            let Some(d) = self.st.descriptors.get(&m.descriptor) else {
                return false;
            };
            let cx = Cx::new(Some(m.id), &ev, &Value::Null, &b);
            d.passive.iter().any(|n| {
                n.kind == K::Protect
                    && n.params
                        .get("against")
                        .and_then(Value::as_array)
                        .is_some_and(|a| a.iter().any(|x| x == "kill"))
                    && n.params
                        .get("when")
                        .is_none_or(|w| truthy(&self.eval(&cx, w)))
                    && n.params
                        .get("pieces")
                        .is_some_and(|f| self.piece_ok(&cx, f, &v))
            })
        })
    }

    /// A mutator kill (rulings C1): royals and protected pieces are
    /// skipped, on-kill-attempt runs (and may cancel), then the piece is
    /// removed. No capture trigger fires.
    pub(crate) fn kill(&mut self, p: &PieceInfo) {
        let Some(cur) = self.find_piece(p.id) else {
            return;
        };
        let pos = self.position();
        if self.view(pos, &cur).royal || self.protected_against_kill(&cur) {
            return;
        }
        self.kill_attempts += 1;
        if self.kill_depth >= MAX_CASCADE || self.kill_attempts > MAX_KILL_ATTEMPTS {
            self.log(
                "error",
                json!({"code": codes::CASCADE_DEPTH_EXCEEDED, "in": "on-kill-attempt"}),
            );
            return;
        }
        let snap = self.snap(&cur);
        let mut ev = BTreeMap::new();
        ev.insert("piece".to_string(), snap.clone());
        let mut arms = Vec::new();
        for m in &self.st.modifiers {
            let Some(d) = self.st.descriptors.get(&m.descriptor) else {
                continue;
            };
            for (ti, t) in d.triggers.iter().enumerate() {
                if t.kind == TriggerKind::OnKillAttempt {
                    arms.push((m.id, ti, t.params.get("subject").cloned()));
                }
            }
        }
        let saved = self.kill_cancelled;
        self.kill_cancelled = false;
        self.kill_depth += 1;
        for (inst, ti, subject) in arms {
            if subject.is_some_and(|f| !self.snap_matches(inst, &f, &snap, &ev)) {
                continue;
            }
            // Inline, not deferred: the attempt decides the kill. Choices
            // cannot appear here (validator), so it never suspends.
            let arm = Arm {
                instance: inst,
                trigger: ti,
                event: ev.clone(),
                subject: snap.clone(),
                generation: 1,
            };
            self.run_arm(arm);
        }
        self.kill_depth -= 1;
        let cancelled = self.kill_cancelled;
        self.kill_cancelled = saved;
        if cancelled {
            // The piece is named (trial 18: a mine's kill Parry saved read
            // "the capture on h5 was prevented", naming nothing).
            let def = self.game.variant().definition();
            self.log(
                "kill-cancelled",
                json!({
                    "square": self.geom.name(cur.sq),
                    "id": cur.id,
                    "type": super::kind_name(def, cur.piece.kind),
                    "color": cur.piece.color.name(),
                }),
            );
            return;
        }
        self.remove(&cur);
    }

    /// Removes a piece with no exemption (remove-piece).
    fn remove(&mut self, p: &PieceInfo) {
        let Some(cur) = self.find_piece(p.id) else {
            return;
        };
        let def = self.game.variant().definition();
        // The piece is named (issue 26 item 6: "the piece on e4 was
        // removed" after a mine said neither what nor by which rule).
        let detail = json!({
            "square": self.geom.name(cur.sq),
            "id": cur.id,
            "type": super::kind_name(def, cur.piece.kind),
            "color": cur.piece.color.name(),
        });
        self.rewrite(Rewrite::Remove(cur.sq));
        self.st.attrs.remove(&cur.id);
        self.log("removed", detail);
    }

    fn step_pieces(&mut self, run: &mut ArmRun, p: &BTreeMap<String, Value>) {
        let cx = self.cx(run);
        let snaps: Vec<Value> = self
            .pieces_param(&cx, p.get("pieces").unwrap_or(&Value::Null))
            .iter()
            .map(|x| self.snap(x))
            .collect();
        let snaps = self.order(&cx, snaps, p.get("order"));
        let dir = p
            .get("direction")
            .map(|d| self.val(&cx, d))
            .and_then(|d| d.as_str().map(str::to_string))
            .unwrap_or_default();
        // A reference stands for a count here too (`"$param.n"`).
        let dist = p.get("distance").map_or(json!(1), |d| self.val(&cx, d));
        let n = if dist.as_str() == Some("until-blocked") {
            16
        } else {
            whole_count(&dist, 16)
        };
        let on_occupied = p.get("onOccupied").map(|v| self.val(&cx, v));
        let kill_on = on_occupied == Some(json!("kill"));
        let push_on = on_occupied == Some(json!("push"));
        let royal_stops = p.get("intoRoyal").is_some() || !push_on;
        let over_blocks = p.get("ignoreHardBlocks") == Some(&json!(true));
        // `ifBlocked: "ignore"` (issue 25 item 4): hard blocks are
        // ordinary squares to the step and to the pushed line; it may end
        // on one.
        let ignore_blocks = p.get("ifBlocked").map(|v| self.val(&cx, v)) == Some(json!("ignore"));
        let enter = p.get("enterMarkers") != Some(&json!(false));
        for s in snaps {
            let Some(id) = s.get("id").and_then(Value::as_u64).map(|x| x as u16) else {
                continue;
            };
            let Some(me) = self.find_piece(id) else {
                continue;
            };
            let fwd: i32 = if me.piece.color == Color::White {
                1
            } else {
                -1
            };
            let (dx, dy) = match dir.as_str() {
                "forward" => (0, fwd),
                "backward" => (0, -fwd),
                "north" => (0, 1),
                "south" => (0, -1),
                "east" => (1, 0),
                "west" => (-1, 0),
                "north-east" => (1, 1),
                "north-west" => (-1, 1),
                "south-east" => (1, -1),
                "south-west" => (-1, -1),
                _ => continue,
            };
            let mut at = me.sq;
            // The last square reached that is not hard-blocked: a piece
            // stepping over blocks never ends on one.
            let mut rest_at = me.sq;
            let mut pushed: Vec<(u16, u8)> = Vec::new();
            for _ in 0..n {
                let Some(next) = self.geom.offset(at, dx, dy) else {
                    break;
                };
                if self.hard_blocked(next) && !over_blocks && !ignore_blocks {
                    break;
                }
                let pos = self.position();
                if let Some(occ) = pos.piece_at(next) {
                    let info = PieceInfo {
                        id: pos.piece_id(next),
                        sq: next,
                        piece: occ,
                    };
                    if push_on {
                        match self.push_line(next, dx, dy, royal_stops, ignore_blocks) {
                            Some(moved) => pushed.extend(moved),
                            None => break,
                        }
                    } else {
                        if !kill_on || self.view(pos, &info).royal {
                            break;
                        }
                        self.kill(&info);
                        if self.position().piece_at(next).is_some() {
                            break;
                        }
                    }
                }
                self.rewrite(Rewrite::Relocate(at, next));
                at = next;
                if ignore_blocks || !self.hard_blocked(at) {
                    rest_at = at;
                }
            }
            if at != rest_at && self.position().piece_at(rest_at).is_none() {
                self.rewrite(Rewrite::Relocate(at, rest_at));
                at = rest_at;
            }
            for (pid, sq) in pushed {
                if let Some(now) = self.find_piece(pid) {
                    self.auto_queen(&now);
                    if enter && now.sq == sq {
                        self.enqueue_entry(run, pid, sq);
                    }
                }
            }
            if at != me.sq {
                self.log(
                    "stepped",
                    json!({"from": self.geom.name(me.sq), "to": self.geom.name(at), "id": id}),
                );
                if let Some(now) = self.find_piece(id) {
                    self.auto_queen(&now);
                }
                if enter {
                    self.enqueue_entry(run, id, at);
                }
            }
        }
    }

    /// Pushes the line of pieces that starts on `from` one square along
    /// (`dx`, `dy`): the farthest first, into the first empty square beyond
    /// the line, which must be on the board and not hard-blocked (unless
    /// `ignore_blocks`); a line holding a royal piece does not move when
    /// `royal_stops`. Returns the pieces moved with their new squares, or
    /// None when nothing moved.
    pub(super) fn push_line(
        &mut self,
        from: u8,
        dx: i32,
        dy: i32,
        royal_stops: bool,
        ignore_blocks: bool,
    ) -> Option<Vec<(u16, u8)>> {
        let mut line = vec![from];
        let end = loop {
            let last = *line.last()?;
            let next = self.geom.offset(last, dx, dy)?;
            if self.hard_blocked(next) && !ignore_blocks {
                return None;
            }
            if self.position().piece_at(next).is_none() {
                break next;
            }
            line.push(next);
        };
        let pos = self.position();
        if royal_stops
            && line.iter().any(|&sq| {
                self.royal_mask(pos, pos.piece_at(sq).map_or(Color::White, |p| p.color)) & bit(sq)
                    != 0
            })
        {
            return None;
        }
        let mut moved = Vec::new();
        let mut to = end;
        for &sq in line.iter().rev() {
            let id = self.position().piece_id(sq);
            self.rewrite(Rewrite::Relocate(sq, to));
            moved.push((id, to));
            to = sq;
        }
        Some(moved)
    }

    /// move-piece: the first piece named moves to the first square of `to`
    /// when it is empty and not hard-blocked, keeping its id and
    /// attributes (a relocation, not a capture or a spawn). Otherwise,
    /// with `ifBlocked: "nearest-free"`, it goes to the nearest empty
    /// square that is not hard-blocked (Manhattan distance from `to`; ties
    /// to the square nearer its origin, then the lower index, as the
    /// catalog's mutator relocations, thressgame-catalog § Global
    /// conventions); with `ifBlocked: "ignore"` a hard block does not
    /// count (the piece lands on a blocked square that holds no piece; a
    /// piece on the square still keeps it in place: a relocation never
    /// captures); by default it stays. The landing enters markers
    /// (cause `effect`) unless `enterMarkers: false`; a pawn on its far
    /// rank becomes a queen (C5).
    fn move_piece(&mut self, run: &mut ArmRun, p: &BTreeMap<String, Value>) {
        let cx = self.cx(run);
        let Some(me) = self
            .pieces_param(&cx, p.get("piece").unwrap_or(&Value::Null))
            .first()
            .copied()
        else {
            return;
        };
        let Some(&target) = self
            .squares(&cx, p.get("to").unwrap_or(&Value::Null))
            .first()
        else {
            return;
        };
        let if_blocked = p.get("ifBlocked").map(|v| self.val(&cx, v));
        let nearest = if_blocked == Some(json!("nearest-free"));
        let ignore_blocks = if_blocked == Some(json!("ignore"));
        let enter = p.get("enterMarkers") != Some(&json!(false));
        let pos = self.position();
        let free = |s: u8| {
            (s == me.sq || pos.piece_at(s).is_none()) && (ignore_blocks || !self.hard_blocked(s))
        };
        let dest = if free(target) {
            Some(target)
        } else if nearest {
            let g = self.geom;
            let manhattan = |a: u8, b: u8| {
                (i32::from(g.file(a)) - i32::from(g.file(b))).abs()
                    + (i32::from(g.rank(a)) - i32::from(g.rank(b))).abs()
            };
            (0..g.squares())
                .filter(|&s| free(s))
                // The piece's own square loses a tie: it is to be moved,
                // and staying is the choice only when nothing is as near
                // (issue 25: a tie with its own square left it in place).
                .min_by_key(|&s| (manhattan(s, target), s == me.sq, manhattan(s, me.sq), s))
        } else {
            None
        };
        let Some(dest) = dest.filter(|&d| d != me.sq) else {
            return;
        };
        self.rewrite(Rewrite::Relocate(me.sq, dest));
        self.log(
            "moved",
            json!({"from": self.geom.name(me.sq), "to": self.geom.name(dest), "id": me.id}),
        );
        if let Some(now) = self.find_piece(me.id) {
            self.auto_queen(&now);
        }
        if enter {
            self.enqueue_entry(run, me.id, dest);
        }
    }

    /// A landing made by a primitive: its marker entry is deferred
    /// (rulings A1, D3).
    fn enqueue_entry(&mut self, run: &ArmRun, piece: u16, square: u8) {
        if self.st.markers.iter().any(|m| m.square == square) {
            self.st.cursor.queue.push_back(Work::Entry {
                piece,
                square,
                cause: "effect".into(),
                generation: run.arm.generation + 1,
                after: (0, 0),
                before: 0,
            });
        }
    }

    /// A write of `Hp` under the `piece-hp` preset, whose hit points are
    /// the `Hp` fact (presets-and-triggers § `piece-hp`): the new value
    /// (`value` added when `add`, else set; whole hit points, at most 255)
    /// is stored in the position. At 0 or below the piece is killed as by
    /// `kill` (royal and protected pieces are spared and keep their hit
    /// points, rulings C1), as the preset retracts a piece at 0; a piece
    /// left standing with fewer hit points gets `on-damaged` (rulings C8).
    fn write_preset_hp(&mut self, run: &ArmRun, t: &PieceInfo, add: bool, value: &Value) {
        let Some(cur) = self.find_piece(t.id) else {
            return;
        };
        let pos = self.position();
        let Some(old) = Self::preset_hp(pos, cur.sq) else {
            return;
        };
        let Some(v) = value.as_f64() else {
            return;
        };
        let new = if add { f64::from(old) + v } else { v }.floor();
        if new < 1.0 {
            self.kill(&cur);
            return;
        }
        let hp = new.min(255.0) as u8;
        edit_board!(self.game, |p, _t| {
            houserules_presets::rules::set_hit_points(p, cur.sq, hp);
        });
        if hp < old {
            self.enqueue_damaged(run, &cur);
        }
    }

    /// An `hp` entry for a rule's write of a piece's `Hp` attribute:
    /// `was` and `hp` as written (whole numbers as integers).
    fn log_hp_write(&mut self, t: &PieceInfo, was: Value, hp: &Value) {
        let Some(cur) = self.find_piece(t.id) else {
            return;
        };
        let whole = |v: &Value| match v.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => json!(x as i64),
            _ => v.clone(),
        };
        let def = self.game.variant().definition();
        self.log(
            "hp",
            json!({
                "id": cur.id,
                "square": self.geom.name(cur.sq),
                "type": super::kind_name(def, cur.piece.kind),
                "color": cur.piece.color.name(),
                "hp": whole(hp),
                "was": whole(&was),
            }),
        );
    }

    fn enqueue_damaged(&mut self, run: &ArmRun, t: &PieceInfo) {
        // The same event as for a lost aura bonus (stage 2's payload).
        let arms = self.damaged_arms(std::slice::from_ref(t), run.arm.generation + 1);
        self.st.cursor.queue.extend(arms.into_iter().map(Work::Arm));
    }
}
