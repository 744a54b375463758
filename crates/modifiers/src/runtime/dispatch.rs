//! The dispatch of an input (RULINGS M2; modifier-rulings A1–A5): the
//! work loop, the numbered stages of a ply and the arms each stage fires.

use std::collections::BTreeMap;

use houserules_engine::Color;
use serde_json::{json, Value};

use super::board::Board;
use super::eval;
use super::{
    marker_value, pieces_of, Arm, Lifetime, Marker, MarkerLifetime, PieceInfo, Ply, Session, Step,
    Work,
};
use crate::descriptor::TriggerKind;

impl Session {
    /// Runs the dispatch until it ends or a choice suspends it.
    pub fn drive(&mut self) {
        loop {
            if !self.st.pending.is_empty()
                || self.st.result.is_some() && self.st.cursor.items.is_empty()
            {
                return;
            }
            let w = if let Some(w) = self.st.cursor.queue.pop_front() {
                (w, true)
            } else if let Some(w) = self.st.cursor.items.pop_front() {
                (w, false)
            } else {
                return;
            };
            match w {
                (Work::Arm(arm), _) => self.run_arm(arm),
                (
                    Work::Entry {
                        piece,
                        square,
                        cause,
                        generation,
                        after,
                        before,
                    },
                    from_queue,
                ) => {
                    self.entry(
                        piece,
                        square,
                        &cause,
                        generation,
                        (after, before),
                        from_queue,
                    );
                }
                (Work::Step(s), _) => self.step(s),
            }
        }
    }

    pub(crate) fn step(&mut self, s: Step) {
        match s {
            Step::Activate { instance } => {
                let arms = self.arms_for(
                    TriggerKind::OnRuleActivated,
                    Some(instance),
                    &BTreeMap::new(),
                    &[],
                );
                for a in arms.into_iter().rev() {
                    self.st.cursor.items.push_front(Work::Arm(a));
                }
            }
            Step::EndInstant { instance } => {
                let inst = self.st.modifiers.iter().find(|m| m.id == instance);
                if inst.is_some_and(|m| m.lifetime == Lifetime::OneShot) {
                    let arms = self.arms_for(
                        TriggerKind::OnRuleExpire,
                        Some(instance),
                        &BTreeMap::new(),
                        &[],
                    );
                    self.st.cursor.items.push_front(Work::Step(Step::Detach {
                        instance,
                        generation: 1,
                    }));
                    for a in arms.into_iter().rev() {
                        self.st.cursor.items.push_front(Work::Arm(a));
                    }
                }
            }
            Step::Detach {
                instance,
                generation,
            } => {
                // A detach that takes an Hp aura away damages (rulings C8).
                let before = self.hp_aura_bonus();
                self.detach_now(instance);
                self.queue_aura_damage(&before, generation.max(1));
            }
            Step::ApplyMove => self.apply_move_step(),
            Step::Stage { stage } => self.stage(stage),
            Step::DetachExpired => {
                let ids: Vec<u32> = self
                    .st
                    .modifiers
                    .iter()
                    .filter(|m| m.expiring)
                    .map(|m| m.id)
                    .collect();
                // One frame for all the expiries: a piece that loses the
                // bonus of two auras is damaged once.
                let before = if ids.is_empty() {
                    Vec::new()
                } else {
                    self.hp_aura_bonus()
                };
                for id in ids {
                    self.detach_now(id);
                }
                self.queue_aura_damage(&before, 1);
            }
            Step::Post => self.post(),
        }
    }

    pub(crate) fn detach_now(&mut self, instance: u32) {
        if let Some(i) = self.st.modifiers.iter().position(|m| m.id == instance) {
            let rule = self.instance_rule(instance);
            let m = self.st.modifiers.remove(i);
            self.log_as(
                "detach",
                json!({"id": m.descriptor, "instance": m.id}),
                rule,
            );
            self.sync_topology();
        }
    }

    /// End of an input (rulings A2 step 5): a requested skip, else the
    /// royal-loss check; the check state is stored for the next edges.
    pub(crate) fn post(&mut self) {
        if self.st.cursor.skip {
            self.st.cursor.skip = false;
            let by = self.st.cursor.skip_by.take();
            self.st.cursor.items.push_front(Work::Step(Step::Post));
            self.do_skip(by);
            return;
        }
        self.st.cursor.ply = None;
        // An aura added by a trigger ends with its emitter (ids are never
        // reused, so this is only tidying).
        if self.st.modifiers.iter().any(|m| !m.auras.is_empty()) {
            let pos = self.position();
            let ids: Vec<u64> = pieces_of(pos).iter().map(|p| u64::from(p.id)).collect();
            for m in &mut self.st.modifiers {
                m.auras.retain(|a| {
                    a.get("emitter")
                        .and_then(Value::as_u64)
                        .is_some_and(|e| ids.contains(&e))
                });
            }
        }
        // The check state is read by the next ply's check edges (stages 8
        // and 9): computed only while a trigger can listen to them, an
        // attached one or one a draft may attach.
        if self.st.draft
            || self.listens(TriggerKind::OnCheckReceived)
            || self.listens(TriggerKind::OnCheckDelivered)
        {
            let (checked, pairs) = self.check_state();
            self.st.checked = checked;
            self.st.check_pairs = pairs;
        } else {
            self.st.checked.clear();
            self.st.check_pairs.clear();
        }
        self.judge_royal_loss();
        if self.st.cursor.items.is_empty() && self.st.cursor.queue.is_empty() {
            self.maybe_draft();
        }
    }

    /// A side without a royal loses (both: a draw), in a game that has
    /// royals and no result yet: the royal-loss result of an input's end.
    /// Not in a game whose rules play on without royals (the hooks'
    /// `setup_needs_royals` is off: atomic's exploded king is the hooks'
    /// own result), nor for a side the definition lets have none
    /// (`royal_optional`: horde's White never has a king).
    pub(crate) fn judge_royal_loss(&mut self) {
        if self.st.result.is_some() {
            return;
        }
        let p = self.position();
        let needs_royals = match p {
            Board::Small(_, t) => t.hooks().is_none_or(|h| h.setup_needs_royals()),
            Board::Large(_, t) => t.hooks().is_none_or(|h| h.setup_needs_royals()),
        };
        if !needs_royals {
            return;
        }
        // A side the game lets play without a royal (horde's White,
        // `royal_optional`) never loses this way.
        let optional = self.game.variant().definition().royal_optional;
        let has = |c: Color| p.royals(c) != 0 || optional[c.index()];
        let (w, b) = (has(Color::White), has(Color::Black));
        if (!w || !b) && self.definition_has_royals() {
            self.st.result = Some(match (w, b) {
                (false, false) => json!({"status": "draw", "reason": "royal-loss"}),
                (true, false) => json!({"status": "royal-loss", "winner": "white"}),
                _ => json!({"status": "royal-loss", "winner": "black"}),
            });
        }
    }

    pub(crate) fn definition_has_royals(&self) -> bool {
        self.game
            .variant()
            .definition()
            .pieces
            .iter()
            .any(|p| p.royal)
    }

    /// A piece entered `square`: handle its markers in priority order
    /// (ascending id within a kind), stopping once the piece left.
    pub(crate) fn entry(
        &mut self,
        piece: u16,
        square: u8,
        cause: &str,
        generation: u8,
        (after, before): ((u8, u32), u32),
        from_queue: bool,
    ) {
        let before = if before == 0 {
            self.st.next_entity
        } else {
            before
        };
        let Some(p) = self.find_piece(piece) else {
            return;
        };
        if p.sq != square {
            return;
        }
        let next = self
            .st
            .markers
            .iter()
            .filter(|m| m.square == square && m.id < before && (m.kind.priority(), m.id) > after)
            .min_by_key(|m| (m.kind.priority(), m.id))
            .cloned();
        let Some(marker) = next else { return };
        if marker.lifetime == MarkerLifetime::OneShot {
            self.st.markers.retain(|m| m.id != marker.id);
        }
        let snap = self.snap(&p);
        let mut event = BTreeMap::new();
        event.insert("piece".into(), snap.clone());
        event.insert("marker".into(), marker_value(self.geom, &marker));
        event.insert("cause".into(), json!(cause));
        event.insert("to".into(), json!(self.geom.name(square)));
        let mut arms = Vec::new();
        let modifiers: Vec<u32> = self.st.modifiers.iter().map(|m| m.id).collect();
        for inst in modifiers {
            let Some(desc) = self.descriptor_of(inst) else {
                continue;
            };
            for (ti, t) in desc.triggers.iter().enumerate() {
                if t.kind != TriggerKind::OnPieceEnteredMarker {
                    continue;
                }
                if t.params.get("kind").and_then(Value::as_str) != Some(marker.kind.as_str()) {
                    continue;
                }
                let own = t.params.get("own").and_then(Value::as_bool).unwrap_or(true);
                if own && marker.source != inst {
                    continue;
                }
                if let Some(c) = t.params.get("cause").and_then(Value::as_str) {
                    if c != cause {
                        continue;
                    }
                }
                if let Some(f) = t.params.get("subject") {
                    if !self.piece_matches_in(inst, f, &p, &event, &snap) {
                        continue;
                    }
                }
                arms.push(Arm {
                    instance: inst,
                    trigger: ti,
                    event: event.clone(),
                    subject: snap.clone(),
                    generation,
                });
            }
        }
        // A landing that fires a rule is said (issue 26 item 6: a treasure
        // chest or a mine was entered without a word), named after the
        // marker's own rule when it listens, else the first that does.
        if let Some(first) = arms.first().map(|a| a.instance) {
            let by = if arms.iter().any(|a| a.instance == marker.source) {
                marker.source
            } else {
                first
            };
            let def = self.game.variant().definition();
            let detail = json!({
                "square": self.geom.name(square),
                "kind": marker.kind.as_str(),
                "marker": marker.id,
                "id": p.id,
                "type": super::kind_name(def, p.piece.kind),
                "color": p.piece.color.name(),
                "cause": cause,
            });
            let rule = self.instance_rule(by);
            self.log_as("entered-marker", detail, rule);
        }
        // A one-shot marker is used up by the landing (trial 18: a mine
        // vanished with no entry).
        if marker.lifetime == MarkerLifetime::OneShot {
            let rule = self.instance_rule(marker.source);
            self.log_as(
                "marker-removed",
                json!({"marker": marker.id, "kind": marker.kind.as_str(), "square": self.geom.name(square), "used": true}),
                rule,
            );
        }
        let cont = Work::Entry {
            piece,
            square,
            cause: cause.to_string(),
            generation,
            after: (marker.kind.priority(), marker.id),
            before,
        };
        let dq = if from_queue {
            &mut self.st.cursor.queue
        } else {
            &mut self.st.cursor.items
        };
        dq.push_front(cont);
        for a in arms.into_iter().rev() {
            dq.push_front(Work::Arm(a));
        }
    }

    /// Computes the arms of a numbered stage and puts them first.
    pub(crate) fn stage(&mut self, stage: u16) {
        // The trigger kind each stage fires; 10a and 10b also expire
        // modifiers and markers, so they always run.
        let kind = match stage {
            2 => Some(TriggerKind::OnDamaged),
            3 => Some(TriggerKind::OnCapture),
            4 => Some(TriggerKind::OnCaptured),
            5 => Some(TriggerKind::OnPromotion),
            6 => Some(TriggerKind::OnMove),
            7 => Some(TriggerKind::OnMovedOntoSquare),
            8 => Some(TriggerKind::OnCheckReceived),
            9 => Some(TriggerKind::OnCheckDelivered),
            10 => Some(TriggerKind::Conditional),
            11 => Some(TriggerKind::OnTurnEnd),
            12 => Some(TriggerKind::OnTurnStart),
            101 | 102 => None,
            _ => return,
        };
        if kind.is_some_and(|k| !self.listens(k)) {
            return;
        }
        if stage == 101 && !self.st.modifiers.iter().any(|m| matches!(m.lifetime, Lifetime::Moves { expires_at_move } if expires_at_move <= self.st.ply_count) && !m.expiring) {
            return;
        }
        if stage == 102 && !self.st.markers.iter().any(|m| matches!(m.lifetime, MarkerLifetime::Moves { expires_at_move } if expires_at_move <= self.st.ply_count)) {
            return;
        }
        let Some(ply) = self.st.cursor.ply.clone() else {
            // Stage 12 after a skip: no ply.
            if stage == 12 {
                let turn = self.game.turn();
                let arms = self.turn_arms(TriggerKind::OnTurnStart, turn);
                self.push_front_arms(arms);
            }
            return;
        };
        let mut ev = self.ply_event(&ply);
        let mover_id = ply.piece_before["id"].as_u64().unwrap_or(0) as u16;
        let mover_now = self.find_piece(mover_id);
        let mover_snap = mover_now.map_or(ply.piece_before.clone(), |p| self.snap(&p));
        let arms = match stage {
            3 | 4 if !ply.captured.is_null() => {
                ev.insert("attacker".into(), mover_snap.clone());
                ev.insert("defender".into(), ply.captured.clone());
                if stage == 3 {
                    if mover_now.is_none() {
                        Vec::new()
                    } else {
                        self.subject_arms(
                            TriggerKind::OnCapture,
                            &ev,
                            std::slice::from_ref(&mover_snap),
                        )
                    }
                } else {
                    self.subject_arms(
                        TriggerKind::OnCaptured,
                        &ev,
                        std::slice::from_ref(&ply.captured),
                    )
                }
            }
            5 if ply.mv.promotion.is_some() && !ply.mv.is_drop() && mover_now.is_some() => {
                ev.insert("piece".into(), mover_snap.clone());
                ev.insert("promotedTo".into(), mover_snap["type"].clone());
                self.subject_arms(
                    TriggerKind::OnPromotion,
                    &ev,
                    std::slice::from_ref(&mover_snap),
                )
            }
            6 | 7 => {
                let mut moved = Vec::new();
                if let Some(p) = mover_now {
                    moved.push((p, ply.mv.from));
                }
                if let Some((rid, rfrom, _)) = ply.rook {
                    if let Some(r) = self.find_piece(rid) {
                        moved.push((r, rfrom));
                    }
                }
                moved.sort_by_key(|(p, _)| p.sq);
                let kind = if stage == 6 {
                    TriggerKind::OnMove
                } else {
                    TriggerKind::OnMovedOntoSquare
                };
                let mut arms = Vec::new();
                for (p, from) in moved {
                    let mut e = ev.clone();
                    let s = self.snap(&p);
                    e.insert("piece".into(), s.clone());
                    e.insert("from".into(), json!(self.geom.name(from)));
                    e.insert("to".into(), json!(self.geom.name(p.sq)));
                    arms.extend(self.subject_arms(kind, &e, &[s]));
                }
                arms
            }
            2 if !ply.hp_aura_lost.is_empty() => {
                // Damage done by the move itself (rulings C8): an aura's Hp
                // bonus lost because its emitter moved or was taken.
                let mut hurt: Vec<PieceInfo> = ply
                    .hp_aura_lost
                    .iter()
                    .filter_map(|id| self.find_piece(*id))
                    .collect();
                hurt.sort_by_key(|p| p.sq);
                self.damaged_arms(&hurt, 1)
            }
            8 | 9 => self.check_edge_arms(stage, &ply, &ev),
            10 => self.arms_for(TriggerKind::Conditional, None, &ev, &[]),
            101 => {
                let now = self.st.ply_count;
                let mut arms = Vec::new();
                let ids: Vec<u32> = self
                    .st
                    .modifiers
                    .iter()
                    .filter(|m| matches!(m.lifetime, Lifetime::Moves { expires_at_move } if expires_at_move <= now) && !m.expiring)
                    .map(|m| m.id)
                    .collect();
                for id in ids {
                    if let Some(m) = self.st.modifiers.iter_mut().find(|m| m.id == id) {
                        m.expiring = true;
                    }
                    arms.extend(self.arms_for(TriggerKind::OnRuleExpire, Some(id), &ev, &[]));
                }
                arms
            }
            102 => {
                let now = self.st.ply_count;
                let expired: Vec<Marker> = self
                    .st
                    .markers
                    .iter()
                    .filter(|m| matches!(m.lifetime, MarkerLifetime::Moves { expires_at_move } if expires_at_move <= now))
                    .cloned()
                    .collect();
                self.st
                    .markers
                    .retain(|m| !expired.iter().any(|e| e.id == m.id));
                let mut arms = Vec::new();
                for m in &expired {
                    let rule = self.instance_rule(m.source);
                    self.log_as(
                        "marker-expired",
                        json!({"marker": m.id, "kind": m.kind, "square": self.geom.name(m.square)}),
                        rule,
                    );
                    let mut e = ev.clone();
                    e.insert("marker".into(), marker_value(self.geom, m));
                    let modifiers: Vec<u32> = self.st.modifiers.iter().map(|i| i.id).collect();
                    for inst in modifiers {
                        let Some(desc) = self.descriptor_of(inst) else {
                            continue;
                        };
                        for (ti, t) in desc.triggers.iter().enumerate() {
                            if t.kind != TriggerKind::OnMarkerExpire
                                || t.params.get("kind").and_then(Value::as_str)
                                    != Some(m.kind.as_str())
                            {
                                continue;
                            }
                            let own = t.params.get("own").and_then(Value::as_bool).unwrap_or(true);
                            if own && m.source != inst {
                                continue;
                            }
                            arms.push(Arm {
                                instance: inst,
                                trigger: ti,
                                event: e.clone(),
                                subject: Value::Null,
                                generation: 1,
                            });
                        }
                    }
                }
                arms
            }
            11 => self.turn_arms(TriggerKind::OnTurnEnd, ply.mover),
            12 => self.turn_arms(TriggerKind::OnTurnStart, self.game.turn()),
            _ => Vec::new(),
        };
        self.push_front_arms(arms);
    }

    /// The event of a ply's stages: `from`, `to` (where the mover stands
    /// after castling) and `enPassant`.
    pub(crate) fn ply_event(&self, ply: &Ply) -> BTreeMap<String, Value> {
        let mut ev = BTreeMap::new();
        ev.insert("from".to_string(), json!(self.geom.name(ply.mv.from)));
        let to_sq = match ply.rook {
            Some(_) => self
                .find_piece(ply.piece_before["id"].as_u64().unwrap_or(0) as u16)
                .map_or(ply.mv.to, |p| p.sq),
            None => ply.mv.to,
        };
        ev.insert("to".to_string(), json!(self.geom.name(to_sq)));
        ev.insert("enPassant".to_string(), json!(ply.en_passant));
        ev
    }

    /// on-damaged arms of generation `generation` for pieces whose aura
    /// `Hp` bonus went down, in the order given. The event is stage 2's:
    /// the ply's `from`, `to`, `enPassant` while a move is dispatched, and
    /// `piece`, the damaged piece (also `$self`).
    pub(crate) fn damaged_arms(&mut self, hurt: &[PieceInfo], generation: u8) -> Vec<Arm> {
        let base = self
            .st
            .cursor
            .ply
            .clone()
            .map(|p| self.ply_event(&p))
            .unwrap_or_default();
        let mut arms = Vec::new();
        for p in hurt {
            let s = self.snap(p);
            let mut e = base.clone();
            e.insert("piece".into(), s.clone());
            arms.extend(self.subject_arms(TriggerKind::OnDamaged, &e, &[s]));
        }
        for a in &mut arms {
            a.generation = generation;
        }
        arms
    }

    /// Queues, in the deferred queue, on-damaged with generation
    /// `generation` for every standing piece whose `Hp` bonus from auras
    /// is below `before` (rulings C8: on-damaged whenever Hp goes down).
    /// `before` is empty, and nothing is computed, when no aura touched
    /// `Hp` then.
    pub(crate) fn queue_aura_damage(&mut self, before: &[(u16, f64)], generation: u8) {
        let hurt = self.hp_aura_losses(before);
        if hurt.is_empty() {
            return;
        }
        let arms = self.damaged_arms(&hurt, generation);
        self.st.cursor.queue.extend(arms.into_iter().map(Work::Arm));
    }

    pub(crate) fn push_front_arms(&mut self, arms: Vec<Arm>) {
        for a in arms.into_iter().rev() {
            self.st.cursor.items.push_front(Work::Arm(a));
        }
    }

    pub(crate) fn turn_arms(&mut self, kind: TriggerKind, color: Color) -> Vec<Arm> {
        let mut ev = BTreeMap::new();
        ev.insert("color".to_string(), json!(color.name()));
        let mut arms = Vec::new();
        let modifiers: Vec<u32> = self
            .st
            .modifiers
            .iter()
            .filter(|m| !(kind == TriggerKind::OnTurnStart && m.expiring))
            .map(|m| m.id)
            .collect();
        for inst in modifiers {
            let Some(desc) = self.descriptor_of(inst).cloned() else {
                continue;
            };
            for (ti, t) in desc.triggers.iter().enumerate() {
                if t.kind != kind {
                    continue;
                }
                let colors = match t.params.get("color") {
                    None => vec![Color::White, Color::Black],
                    Some(c) => self.players_for(inst, c),
                };
                if colors.contains(&color) {
                    arms.push(Arm {
                        instance: inst,
                        trigger: ti,
                        event: ev.clone(),
                        subject: Value::Null,
                        generation: 1,
                    });
                }
            }
        }
        arms
    }

    /// Arms of `kind` with no subject, for one instance or all; the
    /// top-level `conditional` tests its `if` now (rulings A11).
    pub(crate) fn arms_for(
        &mut self,
        kind: TriggerKind,
        only: Option<u32>,
        ev: &BTreeMap<String, Value>,
        _s: &[Value],
    ) -> Vec<Arm> {
        let mut arms = Vec::new();
        let modifiers: Vec<u32> = self
            .st
            .modifiers
            .iter()
            .map(|m| m.id)
            .filter(|id| only.is_none_or(|o| o == *id))
            .collect();
        for inst in modifiers {
            let Some(desc) = self.descriptor_of(inst).cloned() else {
                continue;
            };
            for (ti, t) in desc.triggers.iter().enumerate() {
                if t.kind != kind {
                    continue;
                }
                if kind == TriggerKind::Conditional {
                    let cond = t.params.get("if").cloned().unwrap_or(Value::Null);
                    let v = self.eval_in(inst, &cond, ev, &Value::Null);
                    if !eval::truthy(&v) {
                        continue;
                    }
                }
                arms.push(Arm {
                    instance: inst,
                    trigger: ti,
                    event: ev.clone(),
                    subject: Value::Null,
                    generation: 1,
                });
            }
        }
        arms
    }

    /// Arms of a subject trigger: modifiers in attach order, triggers in
    /// descriptor order, subjects by ascending square (rulings A10).
    pub(crate) fn subject_arms(
        &mut self,
        kind: TriggerKind,
        ev: &BTreeMap<String, Value>,
        subjects: &[Value],
    ) -> Vec<Arm> {
        let mut arms = Vec::new();
        let modifiers: Vec<u32> = self.st.modifiers.iter().map(|m| m.id).collect();
        for inst in modifiers {
            let Some(desc) = self.descriptor_of(inst).cloned() else {
                continue;
            };
            for (ti, t) in desc.triggers.iter().enumerate() {
                if t.kind != kind {
                    continue;
                }
                for s in subjects {
                    if let Some(f) = t.params.get("subject") {
                        if !self.snap_matches(inst, f, s, ev) {
                            continue;
                        }
                    }
                    if kind == TriggerKind::OnMovedOntoSquare {
                        let f = t.params.get("filter").cloned().unwrap_or(Value::Null);
                        let sq = s
                            .get("square")
                            .and_then(Value::as_str)
                            .and_then(|n| self.geom.parse(n));
                        if !sq.is_some_and(|sq| self.square_matches_in(inst, &f, sq, ev, s)) {
                            continue;
                        }
                    }
                    arms.push(Arm {
                        instance: inst,
                        trigger: ti,
                        event: ev.clone(),
                        subject: s.clone(),
                        generation: 1,
                    });
                }
            }
        }
        arms
    }

    pub(crate) fn capture_attempt_arms(&mut self) -> Vec<Arm> {
        if !self.listens(TriggerKind::OnCaptureAttempt) {
            return Vec::new();
        }
        let Some(ply) = self.st.cursor.ply.clone() else {
            return Vec::new();
        };
        let mut ev = BTreeMap::new();
        ev.insert("from".to_string(), json!(self.geom.name(ply.mv.from)));
        ev.insert("to".to_string(), json!(self.geom.name(ply.mv.to)));
        ev.insert("attacker".to_string(), ply.piece_before.clone());
        ev.insert("defender".to_string(), ply.captured.clone());
        ev.insert("enPassant".to_string(), json!(ply.en_passant));
        let mut arms = Vec::new();
        let modifiers: Vec<u32> = self.st.modifiers.iter().map(|m| m.id).collect();
        for inst in modifiers {
            let Some(desc) = self.descriptor_of(inst).cloned() else {
                continue;
            };
            for (ti, t) in desc.triggers.iter().enumerate() {
                if t.kind != TriggerKind::OnCaptureAttempt {
                    continue;
                }
                if let Some(f) = t.params.get("filter") {
                    if let Some(ep) = f.get("enPassant").and_then(Value::as_bool) {
                        if ep != ply.en_passant {
                            continue;
                        }
                    }
                    if let Some(a) = f.get("attacker") {
                        if !self.snap_matches(inst, a, &ply.piece_before, &ev) {
                            continue;
                        }
                    }
                    if let Some(d) = f.get("defender") {
                        if !self.snap_matches(inst, d, &ply.captured, &ev) {
                            continue;
                        }
                    }
                }
                if let Some(f) = t.params.get("subject") {
                    if !self.snap_matches(inst, f, &ply.piece_before, &ev) {
                        continue;
                    }
                }
                arms.push(Arm {
                    instance: inst,
                    trigger: ti,
                    event: ev.clone(),
                    subject: ply.piece_before.clone(),
                    generation: 1,
                });
            }
        }
        arms
    }

    /// Stage 8 (on-check-received) and 9 (on-check-delivered): edges
    /// against the check state stored at the end of the previous dispatch
    /// (rulings C8); a new check by a piece that did not move is
    /// attributed to the mover (discovered check).
    pub(crate) fn check_edge_arms(
        &mut self,
        stage: u16,
        ply: &Ply,
        ev: &BTreeMap<String, Value>,
    ) -> Vec<Arm> {
        let (checked, pairs) = self.check_state();
        let mover_id = ply.piece_before["id"].as_u64().unwrap_or(0) as u16;
        let rook_id = ply.rook.map(|r| r.0);
        let mut subjects: Vec<PieceInfo> = Vec::new();
        if stage == 8 {
            for id in checked {
                if !self.st.checked.contains(&id) {
                    if let Some(p) = self.find_piece(id) {
                        subjects.push(p);
                    }
                }
            }
        } else {
            for (a, r) in pairs {
                if self.st.check_pairs.contains(&(a, r)) {
                    continue;
                }
                let credited = if a == mover_id || Some(a) == rook_id {
                    a
                } else {
                    mover_id
                };
                if let Some(p) = self.find_piece(credited) {
                    if !subjects.contains(&p) {
                        subjects.push(p);
                    }
                }
            }
        }
        subjects.sort_by_key(|p| p.sq);
        let kind = if stage == 8 {
            TriggerKind::OnCheckReceived
        } else {
            TriggerKind::OnCheckDelivered
        };
        let snaps: Vec<Value> = subjects.iter().map(|p| self.snap(p)).collect();
        let mut arms = Vec::new();
        for s in snaps {
            let mut e = ev.clone();
            e.insert("piece".into(), s.clone());
            arms.extend(self.subject_arms(kind, &e, &[s]));
        }
        arms
    }
}
