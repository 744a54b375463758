//! Draft mode (RULINGS M4; modifier-rulings G2, G3; thressgame-catalog.md
//! § How ThressGame runs a game): before every third ply the player to move
//! picks one of three weighted cards dealt from the library.
//!
//! Timing: at most once for each `PlyCount` value P with (P + 1) % 3 == 0,
//! after the dispatch and any skips, to whoever is then to move, only if the
//! game is not over and some card is eligible (has draft data, is not
//! active). Draws, in order: three cards weighted without replacement over
//! the eligible cards in ascending id order; each card's shown sub-range
//! (upstream `randomizeDuration`: a range of width ≤ 2 is kept, otherwise
//! newMin = min + rand(min(3, width)) and newMax = newMin + 1 +
//! rand(min(max, newMin + 4) − newMin)); on the pick, the length, uniform
//! in the range shown.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::{Arm, Lifetime, PathStep, PendingChoice, Session};
use crate::descriptor::DraftDuration;

impl Session {
    /// Offers a draft if one is due (called at the end of an input).
    pub(crate) fn maybe_draft(&mut self) {
        if !self.st.draft || self.st.result.is_some() || !self.st.pending.is_empty() {
            return;
        }
        let p = self.st.ply_count;
        if !(p + 1).is_multiple_of(3) || self.st.drafted.contains(&p) || self.is_over() {
            return;
        }
        self.st.drafted.push(p);
        let mut pool: Vec<(String, u32, DraftDuration)> = Vec::new();
        for e in crate::library::list() {
            if self.st.modifiers.iter().any(|m| m.descriptor == e.id) {
                continue;
            }
            if let Ok(d) = crate::library::get(e.id) {
                // A card must fit the game's board (modifier-rulings E3):
                // on another board than 8×8, a descriptor naming a square,
                // file or rank the board lacks is not offered.
                if !self.geom.is_chess() {
                    let v = serde_json::to_value(&d).unwrap_or(serde_json::Value::Null);
                    if !crate::validate::board_findings(&v, self.geom).is_empty() {
                        continue;
                    }
                }
                if let Some(dr) = d.draft {
                    pool.push((d.id, dr.weight, dr.duration));
                }
            }
        }
        pool.sort_by(|a, b| a.0.cmp(&b.0));
        if pool.is_empty() {
            return;
        }
        let mut cards = Vec::new();
        for _ in 0..3.min(pool.len()) {
            let total: u64 = pool.iter().map(|c| u64::from(c.1)).sum();
            let r = (u64::from(self.st.rng.next_u32()) * total) >> 32;
            let mut run = 0u64;
            let i = pool
                .iter()
                .position(|c| {
                    run += u64::from(c.1);
                    run > r
                })
                .unwrap_or(0);
            cards.push(pool.remove(i));
        }
        let mut shown = Vec::new();
        for (id, _, dur) in &cards {
            let d = match dur {
                DraftDuration::Range([min, max]) => {
                    let (min, max) = (*min, *max);
                    if max - min <= 2 {
                        json!([min, max])
                    } else {
                        let nmin = min + self.st.rng.below((max - min).min(3));
                        let span = max.min(nmin + 4) - nmin;
                        let nmax = nmin + 1 + self.st.rng.below(span.max(1));
                        json!([nmin, nmax.min(max)])
                    }
                }
                DraftDuration::Plies(n) => json!(n),
                DraftDuration::Named(s) => json!(s),
            };
            shown.push(json!({"id": id, "duration": d}));
        }
        let who = self.game.turn();
        let id = self.next_entity();
        let options: Vec<Value> = cards.iter().map(|c| json!(c.0)).collect();
        self.log(
            "draft",
            json!({"ply": p, "for": who.name(), "cards": shown}),
        );
        // The game's choice timeout, as every other prompt says it
        // (a draft's prompt had none, so the page counted down from the
        // game's setting instead: session-17 finding).
        let timeout = match self.st.choice_timeout {
            super::ChoiceTimeout::TimeoutWithDefault { seconds } => Some(seconds),
            super::ChoiceTimeout::NoTimeout => None,
        };
        let mut prompt =
            json!({"kind": "card", "options": options, "cards": shown, "forPlayer": who.name()});
        if let Some(t) = timeout {
            prompt["timeout"] = json!(t);
        }
        self.st.pending.push(PendingChoice {
            choice_id: format!("c{id}"),
            descriptor_id: String::new(),
            modifier_instance_id: 0,
            trigger_path: vec![PathStep {
                index: 0,
                branch: String::new(),
            }],
            primitive_index: 0,
            bindings: BTreeMap::new(),
            kind: "card".into(),
            prompt,
            for_player: who.name().into(),
            timeout,
            arm: Arm {
                instance: 0,
                trigger: 0,
                event: BTreeMap::new(),
                subject: Value::Null,
                generation: 1,
            },
            bind: "card".into(),
            collected: BTreeMap::new(),
            count: 1,
        });
    }

    /// Attaches the picked card for the drafting player, drawing its length
    /// from the range shown.
    pub(crate) fn pick_card(&mut self, frame: &PendingChoice, id: &str) {
        let Ok(desc) = crate::library::get(id) else {
            return;
        };
        let shown = frame.prompt["cards"]
            .as_array()
            .and_then(|a| a.iter().find(|c| c["id"] == id))
            .map(|c| c["duration"].clone())
            .unwrap_or(Value::Null);
        let lifetime = match &shown {
            Value::String(s) if s == "instant" => Lifetime::OneShot,
            Value::String(_) => Lifetime::Permanent,
            Value::Number(n) => Lifetime::Moves {
                expires_at_move: n.as_u64().unwrap_or(1) as u32,
            },
            Value::Array(a) => {
                let lo = a.first().and_then(Value::as_u64).unwrap_or(1) as u32;
                let hi = a.get(1).and_then(Value::as_u64).unwrap_or(u64::from(lo)) as u32;
                let n = lo + self.st.rng.below(hi.saturating_sub(lo) + 1);
                Lifetime::Moves { expires_at_move: n }
            }
            _ => Lifetime::Permanent,
        };
        let chooser = super::parse_color(&frame.for_player).unwrap_or(self.game.turn());
        let mut params = BTreeMap::new();
        for p in &desc.parameters {
            params.insert(p.name.clone(), p.default.clone());
        }
        // Draft mode is refused on the boards that refuse attaching
        // (Runtime::new), so this attaches.
        let _ = self.attach(desc, chooser, lifetime, params);
    }
}
