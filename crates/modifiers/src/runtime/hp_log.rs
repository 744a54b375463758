//! The log entries of the `piece-hp` presets (issue 26 item 6: hit-point
//! damage and pushes were not in the log, so a capture that left its
//! target standing elsewhere read as nothing at all).
//!
//! The presets' hooks run inside the engine's move (crates/presets
//! `rules.rs`: the capture's damage and push, then at the mover's turn end
//! poison and healing), so the runtime compares the board's hit points
//! around the move, by piece id, and writes what changed:
//! - `hp` `{id, square, type, color, hp, was}` for a piece still standing
//!   whose hit points changed: named after `piece-hp` for the capture's
//!   target, `poisoned-squares` for another loss (poison is the only
//!   other hook that takes hit points), `king-heals` for a gain;
//! - `pushed` `{id, from, to, type, color}` for a target that survived
//!   the capture and came back beside its square (`piece-hp`);
//! - `pushed-off` `{id, square, type, color}` for a target that survived
//!   the damage with no empty square around it (it stays removed);
//! - `removed` `{id, square, type, color, hp: 0}` for another piece that
//!   left the board during the move with hit points (poison at 1 point),
//!   named after `poisoned-squares`.
//!
//! The dispatch and the quiet path write the same entries
//! (`tests/quiet_path.rs` compares their states).

use serde_json::json;

use super::*;

/// A piece's id, square, kind and colour, and hit points, before a move.
pub(crate) type HpBefore = Vec<(u16, u8, Piece, u8)>;

impl Runtime {
    /// Every piece's hit points before a move, when `piece-hp` is in the
    /// rule set (empty otherwise: nothing to compare).
    pub(crate) fn hp_before(&self) -> HpBefore {
        if !self.hp_preset() {
            return Vec::new();
        }
        let pos = self.position();
        pieces_of(pos)
            .iter()
            .filter_map(|p| Self::preset_hp(pos, p.sq).map(|h| (p.id, p.sq, p.piece, h)))
            .collect()
    }

    /// Logs what the presets' hooks did to hit points in the move just
    /// played (`before` from [`Self::hp_before`]); `target`: the id of the
    /// piece the move captured (the hooks' capture target), if any;
    /// `mover` and `to`: the moving piece's id and destination (a queen
    /// that splits under `queen-splits` leaves the board as new pieces on
    /// `to`: not a poisoning).
    pub(crate) fn log_hp_changes(
        &mut self,
        before: &HpBefore,
        target: Option<u16>,
        (mover, to): (u16, u8),
    ) {
        if before.is_empty() {
            return;
        }
        let def = self.game.variant().definition();
        let pos = self.position();
        let mut entries = Vec::new();
        for &(id, sq, piece, was) in before {
            let ty = kind_name(def, piece.kind);
            let color = piece.color.name();
            let now = self.find_piece(id);
            let is_target = Some(id) == target;
            match now {
                Some(p) => {
                    let hp = Self::preset_hp(pos, p.sq).unwrap_or(0);
                    if hp != was {
                        let rule = if is_target {
                            "piece-hp"
                        } else if hp < was {
                            "poisoned-squares"
                        } else {
                            "king-heals"
                        };
                        entries.push((
                            "hp",
                            json!({"id": id, "square": self.geom.name(p.sq), "type": ty, "color": color, "hp": hp, "was": was}),
                            rule,
                        ));
                    }
                    if is_target && p.sq != sq {
                        entries.push((
                            "pushed",
                            json!({"id": id, "from": self.geom.name(sq), "to": self.geom.name(p.sq), "type": ty, "color": color}),
                            "piece-hp",
                        ));
                    }
                }
                // A target that survived the damage but is gone: no empty
                // square beside it.
                None if is_target && was > 1 => entries.push((
                    "pushed-off",
                    json!({"id": id, "square": self.geom.name(sq), "type": ty, "color": color, "hp": was - 1}),
                    "piece-hp",
                )),
                // A target with 1 point: captured, as the move list says.
                None if is_target => {}
                None if id != mover || pos.piece_at(to).is_none() => entries.push((
                    "removed",
                    json!({"id": id, "square": self.geom.name(sq), "type": ty, "color": color, "hp": 0}),
                    "poisoned-squares",
                )),
                None => {}
            }
        }
        for (event, detail, rule) in entries {
            self.log_as(event, detail, Some(Self::preset_rule(rule)));
        }
    }
}

/// The pieces before a move of atomic chess (lichess's atomic, built on
/// FIDE chess): id, square, kind and colour; empty in other games.
pub(crate) type BlastBefore = Vec<(u16, u8, Piece)>;

impl Runtime {
    /// Every piece before a move, when the game is atomic (its captures
    /// explode the pieces around them in the engine's hooks, which write
    /// no log entry: trial 20 found none for an explosion).
    pub(crate) fn blast_before(&self) -> BlastBefore {
        if self.game.variant().definition().id != "atomic" {
            return Vec::new();
        }
        pieces_of(self.position())
            .iter()
            .map(|p| (p.id, p.sq, p.piece))
            .collect()
    }

    /// Logs `exploded` `{square, removed: [{id, square, type, color}]}`
    /// after an atomic capture on `to`: the pieces the explosion took
    /// besides the captured one (`captured`, which the move list shows),
    /// the capturing piece included (at `to`, where it blew up: it came
    /// from `from`); named after the game's rules
    /// (`{kind: preset, id: atomic, name: Atomic}`). Nothing when no
    /// other piece left the board.
    pub(crate) fn log_explosion(
        &mut self,
        before: &BlastBefore,
        captured: Option<u16>,
        (from, to): (u8, u8),
    ) {
        if before.is_empty() || captured.is_none() {
            return;
        }
        let def = self.game.variant().definition();
        let removed: Vec<serde_json::Value> = before
            .iter()
            .filter(|(id, _, _)| Some(*id) != captured && self.find_piece(*id).is_none())
            .map(|&(id, sq, piece)| {
                let sq = if sq == from { to } else { sq };
                json!({"id": id, "square": self.geom.name(sq), "type": kind_name(def, piece.kind), "color": piece.color.name()})
            })
            .collect();
        if removed.is_empty() {
            return;
        }
        let detail = json!({"square": self.geom.name(to), "removed": removed});
        self.log_as(
            "exploded",
            detail,
            Some(LogRule {
                kind: LogRuleKind::Preset,
                id: "atomic".into(),
                name: "Atomic".into(),
            }),
        );
    }
}
