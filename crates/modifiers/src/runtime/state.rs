//! The runtime's JSON-serialisable state: attached instances, markers,
//! pending choices, the dispatch cursor and the log (modifier-rulings B3:
//! a suspended dispatch resumes from this state alone).

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use houserules_engine::{Color, Move};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::parse_color;
use crate::descriptor::{Descriptor, MarkerKind};
use crate::rng::Mulberry32;

/// How choices behave when a player does not answer (modifier-dsl-decisions
/// § Choice Timeout). The engine has no clock: the server applies a
/// timeout as an explicit input (`Session::timeout_choice` in `houserules-session`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "mode", rename_all = "kebab-case")]
pub enum ChoiceTimeout {
    /// The first option is taken after `seconds`.
    TimeoutWithDefault {
        /// Seconds before the default is taken.
        seconds: u32,
    },
    /// No timeout.
    NoTimeout,
}

impl Default for ChoiceTimeout {
    fn default() -> Self {
        ChoiceTimeout::TimeoutWithDefault { seconds: 60 }
    }
}

/// Whether coin flips are drawn or asked (rulings B6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CoinFlips {
    /// Drawn from the seeded stream (heads iff the draw < 2³¹).
    #[default]
    Auto,
    /// Each coin is a `coin-flip` prompt for the flipping player.
    Manual,
}

/// A modifier lifetime (issue 5: permanent, N plies, one-shot).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Lifetime {
    /// Until detached.
    Permanent,
    /// Expires in the dispatch where `PlyCount` reaches `expires_at_move`
    /// (rulings A3).
    Moves {
        /// Absolute ply count of expiry.
        #[serde(rename = "expiresAtMove")]
        expires_at_move: u32,
    },
    /// Instant: activates, fires on-rule-expire and detaches (rulings G3).
    OneShot,
}

/// An attached modifier instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Instance {
    /// Entity id (unique in the session).
    pub id: u32,
    /// The descriptor id (key of [`State::descriptors`]).
    pub descriptor: String,
    /// The chooser, fixed at attach (rulings B1).
    #[serde(with = "color_serde")]
    pub chooser: Color,
    /// The lifetime.
    pub lifetime: Lifetime,
    /// `PlyCount` when it attached.
    pub attached_at: u32,
    /// Parameter values (defaults with overrides).
    pub params: BTreeMap<String, Value>,
    /// Modifier-scoped variables (`set-var`).
    pub vars: BTreeMap<String, Value>,
    /// Auras added by `add-aura` inside triggers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auras: Vec<Value>,
    /// Set at 10a when its lifetime ran out; detached before stage 12.
    #[serde(default)]
    pub expiring: bool,
}

/// A marker entity (modifier-dsl-decisions § Square State; rulings D1–D4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Marker {
    /// Entity id.
    pub id: u32,
    /// Kind.
    pub kind: MarkerKind,
    /// Square index (a1 = 0).
    pub square: u8,
    /// Lifetime: `permanent`, `one-shot`, or `moves` with an absolute
    /// `expiresAtMove`.
    pub lifetime: MarkerLifetime,
    /// Owner colour.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "opt_color_serde"
    )]
    pub owner: Option<Color>,
    /// Linked marker ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<u32>,
    /// The modifier instance that spawned it (`MarkerSource`, rulings D2).
    pub source: u32,
}

/// A marker lifetime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum MarkerLifetime {
    /// Never expires.
    Permanent,
    /// Expires (10b) when `PlyCount` reaches this value.
    Moves {
        /// Absolute ply count.
        #[serde(rename = "expiresAtMove")]
        expires_at_move: u32,
    },
    /// Removed when a piece enters it, before its hooks run (rulings D3).
    OneShot,
}

/// One step of a path into a trigger's effects: the node index in a body
/// and, for all but the last step, the body key (`then`/`else`) entered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PathStep {
    /// Index in the body.
    pub index: usize,
    /// The body key below that node (empty on the last step).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub branch: String,
}

/// One trigger firing: the unit of atomic execution ("one arm = one
/// atomic frame").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Arm {
    /// The modifier instance.
    pub instance: u32,
    /// Index of the trigger in the descriptor.
    pub trigger: usize,
    /// The event payload (`$event`), piece snapshots included (rulings A9).
    pub event: BTreeMap<String, Value>,
    /// The subject snapshot (`$self`), or null.
    pub subject: Value,
    /// Causal generation (1 = fired directly by the input).
    pub generation: u8,
}

/// A suspended request-choice (modifier-dsl-decisions § Player Choice,
/// extended by rulings B3 with the instance, event and subject).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingChoice {
    /// `c<entity id>`.
    pub choice_id: String,
    /// The descriptor id.
    pub descriptor_id: String,
    /// The instance that asked.
    pub modifier_instance_id: u32,
    /// Path from the trigger's effects to the choice node.
    pub trigger_path: Vec<PathStep>,
    /// Index of the choice node in its body.
    pub primitive_index: usize,
    /// Bindings in scope.
    pub bindings: BTreeMap<String, Value>,
    /// `piece`, `square`, `column`, `row`, `coin-flip` or `rps`.
    pub kind: String,
    /// The prompt: `{kind, options, filter?, forPlayer, timeout?}`.
    pub prompt: Value,
    /// `white`, `black` or `both` (rps).
    pub for_player: String,
    /// The timeout in seconds, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u32>,
    /// The arm being run (trigger, event, subject, generation).
    pub arm: Arm,
    /// The bind name.
    pub bind: String,
    /// Answers collected so far: colour slots for rps, coins for a manual
    /// multi-coin flip. In the session output the answers of an rps frame
    /// for both players read `"hidden"`: they stay secret until both are
    /// in (rulings B5).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub collected: BTreeMap<String, Value>,
    /// Coins still to ask (manual flip-coin).
    #[serde(default)]
    pub count: u32,
}

impl PendingChoice {
    /// The frame as the session output shows it: the answers already given
    /// to an rps prompt for both players are `"hidden"` until the other
    /// player's arrives (rulings B5), so that output forwarded to a player
    /// does not reveal the opponent's throw.
    pub fn public(&self) -> PendingChoice {
        let mut p = self.clone();
        if p.for_player == "both" {
            for v in p.collected.values_mut() {
                *v = Value::String("hidden".into());
            }
        }
        p
    }
}

/// A unit of pending dispatch work (part of the serialisable cursor).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "work", rename_all = "kebab-case")]
pub enum Work {
    /// Run one arm.
    Arm(Arm),
    /// A piece entered a square: handle its markers in priority order,
    /// those after `(after_priority, after_id)` (rulings D3).
    Entry {
        /// Piece id.
        piece: u16,
        /// Square.
        square: u8,
        /// `move` or `effect`.
        cause: String,
        /// Generation of the arms it fires.
        generation: u8,
        /// Markers up to this (priority, id) are done.
        after: (u8, u32),
        /// Only markers with an id below this take part: those on the
        /// square when the piece entered (0: not fixed yet). A hook that
        /// spawns a marker under the piece does not make it enter again,
        /// which would otherwise loop for ever (found by runtime_fuzz).
        #[serde(default)]
        before: u32,
    },
    /// A dispatch step.
    Step(Step),
}

/// Dispatch steps (RULINGS M2; rulings A1, A2, A4, A5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Step {
    /// Arms of on-rule-activated for an instance.
    Activate {
        /// Instance id.
        instance: u32,
    },
    /// After activation: an instant (one-shot) modifier expires at once.
    EndInstant {
        /// Instance id.
        instance: u32,
    },
    /// Detaches an instance.
    Detach {
        /// Instance id.
        instance: u32,
        /// Generation of the on-damaged arms the detach queues when it
        /// takes an `Hp` aura away (0 reads as 1: fired by the input).
        #[serde(default, skip_serializing_if = "is_zero")]
        generation: u8,
    },
    /// Applies the pending move unless a capture was cancelled.
    ApplyMove,
    /// A numbered stage: 0–12, with 101 = 10a and 102 = 10b.
    Stage {
        /// The stage number.
        stage: u16,
    },
    /// Detach the instances that expired at 10a (before stage 12).
    DetachExpired,
    /// End of the input: skip if requested, else evaluate the game end.
    Post,
}

/// The ply being dispatched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ply {
    /// UCI of the move.
    pub uci: String,
    /// The move.
    #[serde(with = "move_serde")]
    pub mv: Move,
    /// Colour of the mover.
    #[serde(with = "color_serde")]
    pub mover: Color,
    /// Mover snapshot before the move.
    pub piece_before: Value,
    /// The captured piece (snapshot before the move), or null.
    pub captured: Value,
    /// Whether the capture is en passant.
    pub en_passant: bool,
    /// The castling rook: `[id, from, to]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rook: Option<(u16, u8, u8)>,
    /// Ids of the pieces whose `Hp` bonus from auras the move itself
    /// lowered (compared just before and just after it is applied; stage 2
    /// fires on-damaged for those still standing, rulings C8).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hp_aura_lost: Vec<u16>,
    /// The instances whose `on-capture-attempt` arms the capture fired,
    /// in order (a capture they let stand is logged as `capture-stands`,
    /// named after the first: issue 26 item 6, "a parry that lets the
    /// capture stand says only the answers").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contested_by: Vec<u32>,
}

mod color_serde {
    use houserules_engine::Color;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let s = String::deserialize(d)?;
        super::parse_color(&s).ok_or_else(|| serde::de::Error::custom("a colour is white or black"))
    }
}

mod opt_color_serde {
    use houserules_engine::Color;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some(c) => s.serialize_str(c.name()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        let s = Option::<String>::deserialize(d)?;
        Ok(s.and_then(|s| super::parse_color(&s)))
    }
}

mod move_serde {
    use houserules_engine::{Move, MoveKind, PieceKind};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct M {
        from: u8,
        to: u8,
        promotion: Option<u8>,
        kind: u8,
    }

    pub fn serialize<S: Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
        let kind = match m.kind {
            MoveKind::Normal => 0,
            MoveKind::EnPassant => 1,
            MoveKind::DoubleStep => 2,
            MoveKind::Castle => 3,
            MoveKind::Drop => 4,
        };
        M {
            from: m.from,
            to: m.to,
            promotion: m.promotion.map(|k| k.0),
            kind,
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let m = M::deserialize(d)?;
        Ok(Move {
            from: m.from,
            to: m.to,
            promotion: m.promotion.map(PieceKind),
            kind: match m.kind {
                1 => MoveKind::EnPassant,
                2 => MoveKind::DoubleStep,
                3 => MoveKind::Castle,
                4 => MoveKind::Drop,
                _ => MoveKind::Normal,
            },
        })
    }
}

/// The dispatch cursor (rulings B3): the remaining steps and arms of the
/// current input and the deferred queue.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cursor {
    /// Remaining work of the current input, in order.
    pub items: VecDeque<Work>,
    /// The deferred trigger queue, drained after each arm.
    pub queue: VecDeque<Work>,
    /// The ply being dispatched, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<Ply>,
    /// A capture-attempt hook cancelled the capture.
    #[serde(default)]
    pub cancelled: bool,
    /// A skip-turn was requested.
    #[serde(default)]
    pub skip: bool,
    /// The instance whose `cancel-capture` cancelled the capture (its
    /// rule names the log's `capture-cancelled` entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancelled_by: Option<u32>,
    /// The instance whose `skip-turn` requested the skip (its rule names
    /// the log's `skip` entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_by: Option<u32>,
    /// `Hp` bonus from auras per piece id when the running arm started
    /// (empty when no aura touches `Hp`): the arm is one atomic frame, so
    /// a bonus lost by its primitives is compared when it ends, across a
    /// suspension too (rulings C8; modifier-dsl-decisions § Trigger
    /// Reentrance).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hp_frame: Vec<(u16, f64)>,
}

/// One log entry: what an input (or a step of it) did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LogEntry {
    /// `move`, `skip`, `choice`, `attach`, `detach`, `error`, `removed`,
    /// `entered-marker`, `hp`, `pushed`, `capture-stands`, … (the list is
    /// in docs/protocol.md § The rule log).
    pub event: String,
    /// Details.
    pub detail: Value,
    /// The rule that wrote the entry: the modifier whose trigger or choice
    /// it comes from, or the preset whose hook did it (hit points, pushes);
    /// absent for the game's own events (a move, a draft offer) and for a
    /// turn passed by no rule. With several modifiers in play a reader
    /// cannot tell from the order alone which one wrote an entry (issue 26
    /// item 6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<LogRule>,
}

/// The rule a [`LogEntry`] belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LogRule {
    /// `modifier` or `preset`.
    pub kind: LogRuleKind,
    /// The modifier's descriptor id or the preset's id.
    pub id: String,
    /// Its display name (the descriptor's `name`, the preset's name).
    pub name: String,
}

/// Whether a [`LogRule`] is a modifier or a preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LogRuleKind {
    /// A modifier (a descriptor attached to the game).
    Modifier,
    /// A preset of the game's rule set.
    Preset,
}

/// The JSON-serialisable session state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct State {
    /// The random stream (`RngSeed`, `RngStream`).
    pub rng: Mulberry32,
    /// Plies applied since creation (rulings A3).
    pub ply_count: u32,
    /// Next entity id (instances, markers, choices).
    pub next_entity: u32,
    /// Coin flip mode.
    pub coin_flips: CoinFlips,
    /// Choice timeout policy.
    pub choice_timeout: ChoiceTimeout,
    /// Descriptors of the attached (and once attached) modifiers, by id.
    /// Shared, so that cloning a session does not copy them.
    pub descriptors: BTreeMap<String, Arc<Descriptor>>,
    /// Attached instances, in attach order.
    pub modifiers: Vec<Instance>,
    /// Markers, by ascending id.
    pub markers: Vec<Marker>,
    /// Per-piece named attributes, keyed by the engine's stable piece id.
    pub attrs: BTreeMap<u16, BTreeMap<String, Value>>,
    /// Game-scoped variables.
    pub vars: BTreeMap<String, Value>,
    /// The pending-choice stack (top last).
    pub pending: Vec<PendingChoice>,
    /// Where the dispatch stands.
    pub cursor: Cursor,
    /// Royal ids in check at the end of the previous dispatch (rulings C8).
    /// Kept only while a check trigger can fire (one is attached, or a
    /// draft may attach one); empty otherwise.
    pub checked: Vec<u16>,
    /// `(attacker id, royal id)` pairs giving check then (kept as
    /// `checked` is).
    pub check_pairs: Vec<(u16, u16)>,
    /// Skips in a row without a ply.
    pub skips_in_row: u32,
    /// A result decided by the runtime (royal loss, skip loop), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// Draft mode on (RULINGS M4).
    #[serde(default)]
    pub draft: bool,
    /// Kings that castling rights hang on: `(colour, id, start square)`
    /// (rulings C6: a right whose king left its start square under its id
    /// is lost for good).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub castle_kings: Vec<(String, u16, u8)>,
    /// Ply counts at which a draft was offered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drafted: Vec<u32>,
    /// What happened.
    pub log: Vec<LogEntry>,
}

impl State {
    /// A copy without the log: what a probe needs (legality that sees a
    /// move's effects and SAN suffixes play a move on a copy and read the
    /// board, never the log, which only grows with the game).
    pub(crate) fn clone_without_log(&self) -> State {
        State {
            rng: self.rng,
            ply_count: self.ply_count,
            next_entity: self.next_entity,
            coin_flips: self.coin_flips,
            choice_timeout: self.choice_timeout.clone(),
            descriptors: self.descriptors.clone(),
            modifiers: self.modifiers.clone(),
            markers: self.markers.clone(),
            attrs: self.attrs.clone(),
            vars: self.vars.clone(),
            pending: self.pending.clone(),
            cursor: self.cursor.clone(),
            checked: self.checked.clone(),
            check_pairs: self.check_pairs.clone(),
            skips_in_row: self.skips_in_row,
            result: self.result.clone(),
            draft: self.draft,
            castle_kings: self.castle_kings.clone(),
            drafted: self.drafted.clone(),
            log: Vec::new(),
        }
    }
}

/// Serde helper: a zero generation is left out.
fn is_zero(g: &u8) -> bool {
    *g == 0
}
