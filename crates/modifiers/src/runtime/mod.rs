//! The modifier runtime: a game session that runs descriptors inside a real
//! engine game (issue 5; modifier-dsl-decisions.md; modifier-rulings.md;
//! RULINGS M1–M4).
//!
//! A [`Session`] wraps an engine [`Game`] (with the preset hooks of its
//! rule set) and a JSON-serialisable [`State`]: the attached modifier
//! instances, markers, per-piece attributes keyed by the engine's stable
//! piece ids, variables, the seeded Mulberry32 stream, the ply counter, the
//! stack of pending choices and the dispatch cursor. Every collection that
//! affects state is a `Vec` or a `BTreeMap`, so iteration order is fixed.
//!
//! Inputs are moves (UCI) and choices. A move runs, in order
//! (modifier-rulings A2): legality in dry mode, `on-capture-attempt`, the
//! move itself with `PlyCount + 1` and the stage-0 marker entries, the
//! numbered stages 1–10, 10a (`on-rule-expire`), 10b (`on-marker-expire`),
//! 11 (`on-turn-end`), the detaching of expired modifiers, 12
//! (`on-turn-start`), and the end-of-game evaluation. Secondary triggers go
//! through a deferred queue drained after each arm, with a cascade limit of
//! 8 generations (`runtime.cascade-depth-exceeded`, rulings E1).
//!
//! A `request-choice` (or a manual `flip-coin`) pushes a [`PendingChoice`]
//! frame and returns; [`Session::submit_choice`] resumes the arm exactly
//! where it stopped (rulings B3), then the dispatch continues from its
//! cursor.

mod aura;
mod compiled;
mod draft;
mod entry;
mod eval;
mod exec;
mod legal;
mod output;
mod shapes;

use std::collections::{BTreeMap, VecDeque};

use houserules_engine::{Color, Game, Move, MoveKind, Piece, PieceKind, Position, Tables};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::descriptor::{Descriptor, MarkerKind, Node, TriggerKind};
use crate::rng::Mulberry32;

pub use legal::is_fully_immobilising;
pub use output::{
    input_schema_json, output_schema_json, request_schema_json, ActiveModifier, ColorName,
    InputLine, InputReport, MarkerOut, PieceOut, SessionOutput,
};
pub use shapes::{shape_ok, DIRECTIONS};

/// Cascade limit: arms of a generation above this are not run (rulings E1).
pub const MAX_CASCADE: u8 = 8;
/// Markers on the board at most: a spawn beyond it does nothing and is
/// logged (`marker-limit`). The spec sets no limit; without one, rules that
/// respawn markers on expiry can double them every ply.
pub const MAX_MARKERS: usize = 256;
/// Skips in a row without a ply that end the game in a draw (rulings A5).
pub const MAX_SKIPS: u32 = 64;

/// Runtime error and refusal codes.
pub mod codes {
    /// An arm of generation 9 or more was not run (data-dependent; logged).
    pub const CASCADE_DEPTH_EXCEEDED: &str = "runtime.cascade-depth-exceeded";
    /// A move was sent while a choice is pending (rulings B2).
    pub const CHOICE_PENDING: &str = "choice-pending";
    /// A choice was sent while none is pending.
    pub const NO_PENDING_CHOICE: &str = "no-pending-choice";
    /// The choice value is not one of the options.
    pub const BAD_CHOICE: &str = "bad-choice";
    /// The move is not legal under the active rules.
    pub const ILLEGAL_MOVE: &str = "illegal-move";
    /// The game is over.
    pub const GAME_OVER: &str = "game-over";
    /// The creation request is invalid.
    pub const BAD_REQUEST: &str = "request.invalid";
    /// The seed is not a u32 (rulings F4).
    pub const BAD_SEED: &str = "request.bad-seed";
    /// A modifier id is unknown, invalid or already active (rulings G3).
    pub const BAD_MODIFIER: &str = "request.bad-modifier";
    /// A modifier parameter is given twice in one `ID:K=V;…` entry.
    pub const DUPLICATE_PARAMETER: &str = "request.duplicate-parameter";
    /// The board is not 8×8 (the runtime's squares are 8×8, rulings E3).
    pub const UNSUPPORTED_BOARD: &str = "request.unsupported-board";
}

/// A refused input or request: a stable code and a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct Refusal {
    /// The stable code (see [`codes`]).
    pub code: &'static str,
    /// What was wrong.
    pub message: String,
}

fn refuse(code: &'static str, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

/// How choices behave when a player does not answer (modifier-dsl-decisions
/// § Choice Timeout). The engine has no clock: the server applies a
/// timeout as an explicit input (`Session::timeout_choice`).
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

/// A creation request (issue 5 § Game session API).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateRequest {
    /// Start position (in the letters of the variant). It replaces the
    /// layout's start position; the rules of `presets` and `layout` apply
    /// to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// A full position state (`docs/state-format.md`, format
    /// `houserules-state/1`): board, side to move, castling, en passant,
    /// clocks, piece ids and hit points, preset state, and the rule set.
    /// It carries the position and the presets, so it excludes `fen`,
    /// `layout` and `presets` (refused together).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<houserules_presets::state::StateDoc>,
    /// A layout id (presets crate: `standard`, `chess960:N`,
    /// `chess960:random:SEED`, `dual-classic`, `knightmate`, `monster`,
    /// `pawns-only`). It gives the start position and, for `chess960:…`,
    /// Chess960 castling, written king-takes-rook in UCI. With `fen`, the
    /// FEN replaces the start position and the layout's rules still apply
    /// (a Chess960 FEN with `chess960:N` castles as Chess960); the layout
    /// is still checked against the presets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<String>,
    /// Presets, `ID[:K=V]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub presets: Vec<String>,
    /// Modifiers: a library id (`ID[:K=V;…]`, with the reserved keys
    /// `lifetime` and `chooser`, rulings G3) or an inline descriptor.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<output::ModifierEntry>")]
    pub modifiers: Vec<Value>,
    /// The seed, a u32 (0 when absent, rulings F4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<u32>")]
    pub seed: Option<Value>,
    /// Draft mode (RULINGS M4): a card draft before every third ply.
    #[serde(default)]
    pub draft: bool,
    /// Choice timeout policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice_timeout: Option<ChoiceTimeout>,
    /// Coin flips drawn (`auto`) or asked (`manual`), rulings B6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coin_flips: Option<CoinFlips>,
}

impl CreateRequest {
    /// Reads a creation request from JSON text: a byte order mark is
    /// skipped, a repeated key is refused, and an error names the JSON
    /// path of the offending value (`$.state.pieces[0].hp: invalid type…`).
    ///
    /// # Errors
    /// A message with the line and column of a syntax error, or the path of
    /// a value of the wrong shape.
    pub fn parse(text: &str) -> Result<CreateRequest, String> {
        let v = crate::validate::strict_json(text).map_err(|e| e.to_string())?;
        if !v.is_object() {
            return Err(
                "a JSON object is expected, such as {\"modifiers\": [\"mr_freeze\"]}".into(),
            );
        }
        // A state that is not an object would otherwise be reported with
        // serde's Rust type name ("expected struct StateDoc").
        if let Some(st) = v.get("state").filter(|st| !st.is_object() && !st.is_null()) {
            let hint = if st.is_string() {
                " (a file name is not read here: put the state JSON itself)"
            } else {
                ""
            };
            return Err(format!(
                "$.state: a state object (docs/state-format.md, as `houserules state` writes it) is expected, not {}{hint}",
                crate::validate::type_name(st)
            ));
        }
        serde_path_to_error::deserialize(v).map_err(|e| {
            let path = e.path().to_string();
            let at = if path == "." {
                "$".to_string()
            } else {
                format!("$.{path}")
            };
            format!("{at}: {}", e.into_inner())
        })
    }
}

/// An input: a move or a choice (one JSON object per line in scripts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Input {
    /// `{"move": "e2e4"}`.
    Move {
        /// UCI.
        #[serde(rename = "move")]
        mv: String,
    },
    /// `{"choice": VALUE, "player"?: colour, "auto"?: reason}`.
    Choice {
        /// The value: a square name, file letter, rank digit, heads/tails,
        /// rock/paper/scissors.
        choice: Value,
        /// Which player answers (needed for `rps` frames with both).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// Set by the server for timeouts (`"timeout"`), rulings B7.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        auto: Option<String>,
    },
}

impl Input {
    /// Reads one input from JSON text, strictly: an object with either
    /// `move` (a UCI string) or `choice` (a string, with optional `player`,
    /// `white` or `black`, and `auto`, only `"timeout"`), and no other key
    /// (docs/session-input.schema.json).
    ///
    /// # Errors
    /// A message naming the offending key or value.
    pub fn parse(text: &str) -> Result<Input, String> {
        let v = crate::validate::strict_json(text).map_err(|e| e.to_string())?;
        let Value::Object(o) = v else {
            return Err(
                "an input is a JSON object: {\"move\": \"e2e4\"} or {\"choice\": VALUE}".into(),
            );
        };
        let allowed: &[&str] = match (o.contains_key("move"), o.contains_key("choice")) {
            (true, true) => return Err("an input has `move` or `choice`, not both".into()),
            (false, false) => {
                return Err("an input needs `move` (UCI, e.g. \"e2e4\") or `choice`".into())
            }
            (true, false) => &["move"],
            (false, true) => &["choice", "player", "auto"],
        };
        if let Some(k) = o.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(format!(
                "unknown key `{k}` (this input may have {})",
                allowed
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(m) = o.get("move") {
            return match m {
                Value::String(s) => Ok(Input::Move { mv: s.clone() }),
                _ => Err("`move` is a UCI string such as \"e2e4\"".into()),
            };
        }
        let player = match o.get("player") {
            None => None,
            Some(Value::String(p)) if p == "white" || p == "black" => Some(p.clone()),
            Some(p) => return Err(format!("`player` is \"white\" or \"black\", not {p}")),
        };
        let auto = match o.get("auto") {
            None => None,
            Some(Value::String(a)) if a == "timeout" => Some(a.clone()),
            Some(a) => return Err(format!("`auto` can only be \"timeout\", not {a}")),
        };
        if !o["choice"].is_string() {
            return Err(format!(
                "`choice` is a string (a square, file letter, rank digit, heads/tails, rock/paper/scissors or card id), not {}",
                o["choice"]
            ));
        }
        Ok(Input::Choice {
            choice: o["choice"].clone(),
            player,
            auto,
        })
    }
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
    /// `move`, `skip`, `choice`, `attach`, `detach`, `error`, …
    pub event: String,
    /// Details.
    pub detail: Value,
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
    pub descriptors: BTreeMap<String, Descriptor>,
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
    pub checked: Vec<u16>,
    /// `(attacker id, royal id)` pairs giving check then.
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

/// A game session with attached modifiers.
#[derive(Debug, Clone)]
pub struct Session {
    game: Game,
    request: CreateRequest,
    st: State,
    inputs: Vec<Input>,
    /// Transient: a `cancel-kill` ran in the current kill attempt.
    kill_cancelled: bool,
    /// Transient: nesting of kill attempts.
    kill_depth: u8,
    /// Transient: kill attempts during the current input.
    kill_attempts: u32,
    /// Transient: the compiled restrictions of the last legality call.
    plan_cache: compiled::PlanCache,
    /// The request's rules include `piece-hp` (`aura::uses_piece_hp`).
    hp_preset: bool,
}

/// A piece on the board, as the runtime sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PieceInfo {
    pub id: u16,
    pub sq: u8,
    pub piece: Piece,
}

pub(crate) fn sq_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

pub(crate) fn parse_sq(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
        Some((b[1] - b'1') * 8 + (b[0] - b'a'))
    } else {
        None
    }
}

pub(crate) fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// The descriptor name of a piece kind: its FIDE role in lower case, else
/// its id in lower case.
pub(crate) fn kind_name(def: &houserules_engine::GameDefinition, k: PieceKind) -> String {
    use houserules_engine::definition::Role;
    match def.pieces.get(k.index()) {
        Some(p) => match p.role {
            Some(Role::Pawn) => "pawn".into(),
            Some(Role::Knight) => "knight".into(),
            Some(Role::Bishop) => "bishop".into(),
            Some(Role::Rook) => "rook".into(),
            Some(Role::Queen) => "queen".into(),
            Some(Role::King) => "king".into(),
            None => p.id.to_ascii_lowercase(),
        },
        None => String::new(),
    }
}

pub(crate) fn kind_by_name(
    def: &houserules_engine::GameDefinition,
    name: &str,
) -> Option<PieceKind> {
    (0..def.pieces.len())
        .map(|i| PieceKind(i as u8))
        .find(|&k| kind_name(def, k) == name)
}

/// The game a request's `presets` and `layout` choose (both copies of the
/// building, [`Session::create`] and [`Session::restore`], go through it).
struct PresetGame {
    variant: houserules_engine::Variant,
    /// The layout's start FEN (used when the request has no `fen`).
    start: String,
    /// The layout is Chess960: castling is written king-takes-rook in UCI
    /// even when king and rooks stand on the standard squares.
    chess960: bool,
}

impl PresetGame {
    /// Parses the rule set and layout and builds the variant.
    ///
    /// # Errors
    /// A message starting with the request field's JSON path (`$.presets: …`,
    /// `$.layout: …`).
    fn build(presets: &str, layout: Option<&str>) -> Result<PresetGame, String> {
        let rules =
            houserules_presets::RuleSet::parse(presets).map_err(|e| format!("$.presets: {e}"))?;
        let layout = layout
            .map(houserules_presets::Layout::parse)
            .transpose()
            .map_err(|e| format!("$.layout: {e}"))?;
        let chess960 = matches!(layout, Some(houserules_presets::Layout::Chess960(_)));
        let (variant, start) =
            houserules_presets::build(&rules, layout).map_err(|e| format!("$.presets: {e}"))?;
        Ok(PresetGame {
            variant,
            start,
            chess960,
        })
    }

    /// The game at `fen` (the layout's start position when `None`) under
    /// these rules: a given FEN replaces the layout's start position, and
    /// the layout's rules (its castling notation) still apply to it.
    fn game(self, fen: Option<&str>) -> Result<Game, houserules_engine::GameError> {
        let mut game = Game::from_fen(self.variant, fen.unwrap_or(&self.start))?;
        if self.chess960 {
            game.set_chess960(true);
        }
        Ok(game)
    }
}

impl Session {
    /// Creates a session from a creation request: builds the variant from
    /// the presets and layout, sets the position, attaches the modifiers in
    /// list order (each finishing its on-rule-activated, choices included,
    /// before the next; rulings G3), with the side to move as chooser
    /// unless overridden.
    ///
    /// # Errors
    /// A [`Refusal`] naming the bad field (`request.*` codes).
    pub fn create(request: CreateRequest) -> Result<Session, Refusal> {
        let seed = match &request.seed {
            None => 0,
            Some(v) => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    refuse(
                        codes::BAD_SEED,
                        format!("seed {v} is not an integer from 0 to 4294967295"),
                    )
                })?,
        };

        let game = match &request.state {
            Some(doc) => {
                if request.fen.is_some() || request.layout.is_some() || !request.presets.is_empty()
                {
                    return Err(refuse(
                        codes::BAD_REQUEST,
                        "$.state carries the position and the presets: leave out fen, layout \
                         and presets",
                    ));
                }
                let (_, game) = doc
                    .to_game()
                    .map_err(|e| refuse(codes::BAD_REQUEST, format!("$.state: {e}")))?;
                game
            }
            None => {
                let built =
                    PresetGame::build(&request.presets.join(","), request.layout.as_deref())
                        .map_err(|e| refuse(codes::BAD_REQUEST, e))?;
                built
                    .game(request.fen.as_deref())
                    .map_err(|e| refuse(codes::BAD_REQUEST, format!("$.fen: {e}")))?
            }
        };
        let def = game.variant().definition();
        if def.width != 8 || def.height != 8 {
            return Err(refuse(
                codes::UNSUPPORTED_BOARD,
                "the modifier runtime plays 8×8 boards only",
            ));
        }
        let st = State {
            rng: Mulberry32::new(seed),
            ply_count: 0,
            next_entity: 1,
            coin_flips: request.coin_flips.unwrap_or_default(),
            choice_timeout: request.choice_timeout.clone().unwrap_or_default(),
            descriptors: BTreeMap::new(),
            modifiers: Vec::new(),
            markers: Vec::new(),
            attrs: BTreeMap::new(),
            vars: BTreeMap::new(),
            pending: Vec::new(),
            cursor: Cursor::default(),
            checked: Vec::new(),
            check_pairs: Vec::new(),
            skips_in_row: 0,
            result: None,
            draft: request.draft,
            castle_kings: Vec::new(),
            drafted: Vec::new(),
            log: Vec::new(),
        };
        let mut s = Session {
            game,
            request: request.clone(),
            st,
            inputs: Vec::new(),
            kill_cancelled: false,
            kill_depth: 0,
            kill_attempts: 0,
            plan_cache: compiled::PlanCache::default(),
            hp_preset: aura::uses_piece_hp(&request),
        };
        let mut attach = Vec::new();
        for (i, m) in request.modifiers.iter().enumerate() {
            let (desc, over) = resolve_modifier(m).map_err(|(code, e)| {
                refuse(
                    code.unwrap_or(codes::BAD_MODIFIER),
                    format!("$.modifiers[{i}]: {e}"),
                )
            })?;
            if attach
                .iter()
                .any(|(d, _): &(Descriptor, _)| d.id == desc.id)
            {
                return Err(refuse(
                    codes::BAD_MODIFIER,
                    format!("$.modifiers[{i}]: `{}` is already active", desc.id),
                ));
            }
            attach.push((desc, over));
        }
        s.st.castle_kings = s.castling_kings();
        let (checked, pairs) = s.check_state();
        s.st.checked = checked;
        s.st.check_pairs = pairs;
        let turn = s.game.turn();
        for (i, (desc, over)) in attach.into_iter().enumerate() {
            // Refusals name the entry's JSON path, as resolving it does.
            let at = |m: String| refuse(codes::BAD_MODIFIER, format!("$.modifiers[{i}]: {m}"));
            let chooser = match over.get("chooser").map(String::as_str) {
                None => turn,
                Some(c) => parse_color(c).ok_or_else(|| {
                    at(format!(
                        "`{}`: chooser `{c}` is not white or black",
                        desc.id
                    ))
                })?,
            };
            let lifetime = match over.get("lifetime").map(String::as_str) {
                Some("instant") => Lifetime::OneShot,
                Some("permanent") => Lifetime::Permanent,
                Some(n) => {
                    let n: u32 = n.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                        at(format!(
                            "`{}`: lifetime `{n}` is not instant, permanent or a number ≥ 1",
                            desc.id
                        ))
                    })?;
                    Lifetime::Moves { expires_at_move: n }
                }
                None => match desc.draft.as_ref().map(|d| &d.duration) {
                    Some(crate::descriptor::DraftDuration::Named(n)) if n == "instant" => {
                        Lifetime::OneShot
                    }
                    _ => Lifetime::Permanent,
                },
            };
            let mut params = BTreeMap::new();
            for p in &desc.parameters {
                params.insert(p.name.clone(), p.default.clone());
            }
            for (k, v) in &over {
                if k == "chooser" || k == "lifetime" {
                    continue;
                }
                let Some(p) = desc.parameters.iter().find(|p| &p.name == k) else {
                    return Err(at(format!("`{}` has no parameter `{k}`", desc.id)));
                };
                let val = parse_param_value(p.ty, v).ok_or_else(|| {
                    at(format!(
                        "`{}`: `{v}` is not a valid value for `{k}`",
                        desc.id
                    ))
                })?;
                params.insert(k.clone(), val);
            }
            s.attach(desc, chooser, lifetime, params);
            s.drive();
        }
        Ok(s)
    }

    /// Rebuilds a session from its creation request and inputs (a game is
    /// fully reproducible from these, RULINGS M3). Refused inputs are
    /// skipped, as they were when first sent.
    ///
    /// # Errors
    /// As [`Session::create`].
    pub fn replay(request: CreateRequest, inputs: &[Input]) -> Result<Session, Refusal> {
        let mut s = Session::create(request)?;
        for i in inputs {
            let _ = s.submit(i.clone());
        }
        Ok(s)
    }

    /// Restores a session from [`Session::snapshot`] JSON: the position
    /// (with its piece ids) and the whole runtime state, so that a pending
    /// choice resumes exactly where it stopped.
    ///
    /// The repetition history (threefold, fivefold) is not in the FEN: the
    /// session is rebuilt by replaying the snapshot's request and inputs
    /// (RULINGS M3), and the replay is used when it reproduces the
    /// snapshot exactly. Otherwise (a snapshot from another build of the
    /// library, for example) the position and state are read as they are
    /// and the history restarts at the restored position.
    ///
    /// # Errors
    /// A [`Refusal`] when the snapshot is malformed.
    pub fn restore(snapshot: &Value) -> Result<Session, Refusal> {
        let bad = |m: String| refuse(codes::BAD_REQUEST, m);
        let request: CreateRequest =
            serde_json::from_value(snapshot.get("request").cloned().unwrap_or(Value::Null))
                .map_err(|e| bad(format!("request: {e}")))?;
        let st: State =
            serde_json::from_value(snapshot.get("state").cloned().unwrap_or(Value::Null))
                .map_err(|e| bad(format!("state: {e}")))?;
        let inputs: Vec<Input> =
            serde_json::from_value(snapshot.get("inputs").cloned().unwrap_or(json!([])))
                .map_err(|e| bad(format!("inputs: {e}")))?;
        if let Ok(again) = Session::replay(request.clone(), &inputs) {
            if again.inputs == inputs && &again.snapshot() == snapshot {
                return Ok(again);
            }
        }
        let fen = snapshot
            .get("fen")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("missing fen".into()))?;
        let ids: Vec<(u8, u16)> =
            serde_json::from_value(snapshot.get("ids").cloned().unwrap_or(json!([])))
                .map_err(|e| bad(format!("ids: {e}")))?;
        let next_id = snapshot
            .get("nextPieceId")
            .and_then(Value::as_u64)
            .unwrap_or(1) as u16;
        let presets = match &request.state {
            Some(doc) => doc.rules.clone(),
            None => request.presets.join(","),
        };
        let mut game = PresetGame::build(&presets, request.layout.as_deref())
            .map_err(bad)?
            .game(Some(fen))
            .map_err(|e| bad(format!("$.fen: {e}")))?;
        game.edit_small(|p, _| {
            for &(sq, id) in &ids {
                p.set_piece_id(sq, id);
            }
            p.set_next_piece_id(next_id);
        });
        Ok(Session {
            game,
            hp_preset: aura::uses_piece_hp(&request),
            request,
            st,
            inputs,
            kill_cancelled: false,
            kill_depth: 0,
            kill_attempts: 0,
            plan_cache: compiled::PlanCache::default(),
        })
    }

    /// A snapshot for [`Session::restore`]: request, inputs, FEN, piece
    /// ids and state.
    pub fn snapshot(&self) -> Value {
        let ids: Vec<(u8, u16)> = self.pieces().iter().map(|p| (p.sq, p.id)).collect();
        let next = self.game.small().map_or(1, |(p, _)| p.next_piece_id());
        json!({
            "request": self.request,
            "inputs": self.inputs,
            "fen": self.game.fen(),
            "ids": ids,
            "nextPieceId": next,
            "state": self.st,
        })
    }

    /// The engine game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The runtime state.
    pub fn state(&self) -> &State {
        &self.st
    }

    /// The inputs accepted so far.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// The pending choice on top of the stack, if any.
    pub fn pending_choice(&self) -> Option<&PendingChoice> {
        self.st.pending.last()
    }

    /// Submits an input.
    ///
    /// # Errors
    /// A [`Refusal`]; the session is then unchanged.
    pub fn submit(&mut self, input: Input) -> Result<(), Refusal> {
        self.kill_attempts = 0;
        match &input {
            Input::Move { mv } => self.submit_move(mv),
            Input::Choice {
                choice,
                player,
                auto,
            } => self.submit_choice_as(choice, player.as_deref(), auto.as_deref()),
        }
    }

    /// Legal moves in UCI: `[]` while a choice is pending or the game is
    /// over (rulings B2). Dry mode: nothing is fired, drawn or changed.
    pub fn legal_moves_uci(&self) -> Vec<String> {
        let legal = self.legal_moves();
        legal.iter().map(|m| self.write_uci(*m, &legal)).collect()
    }

    /// UCI of a legal move. Castling is written king-takes-rook when its
    /// usual form would name another legal move (a king that also slides,
    /// RULINGS G1 note on UCI castling).
    fn write_uci(&self, m: Move, legal: &[Move]) -> String {
        let usual = self.game.uci(m);
        if m.kind == MoveKind::Castle
            && legal
                .iter()
                .any(|l| l.kind != MoveKind::Castle && self.game.uci(*l) == usual)
        {
            return format!("{}{}", sq_name(m.from), sq_name(m.to));
        }
        usual
    }

    /// Legal moves under the active rules (dry mode).
    pub fn legal_moves(&self) -> Vec<Move> {
        if !self.st.pending.is_empty() || self.st.result.is_some() {
            return Vec::new();
        }
        self.rule_legal_moves()
    }

    /// [`Session::legal_moves`] by the descriptor interpreter alone,
    /// without the compiled restrictions: the oracle of the differential
    /// tests (tests/compiled_legality.rs). Not for other uses.
    #[doc(hidden)]
    pub fn legal_moves_interpreted(&self) -> Vec<Move> {
        if !self.st.pending.is_empty() || self.st.result.is_some() {
            return Vec::new();
        }
        self.interpreted_legal_moves(0)
    }

    /// Whether the active restrictions compile on the current position
    /// (else legality runs the interpreter), for the differential tests.
    #[doc(hidden)]
    pub fn legality_compiles(&self) -> bool {
        self.legality_plan(0, |_| ()).is_some()
    }

    /// The status name: `awaiting-choice`, `ongoing`, `checkmate`,
    /// `stalemate`, a draw, or a rule's result.
    pub fn status(&self) -> Value {
        if !self.st.pending.is_empty() {
            return json!({"status": "awaiting-choice"});
        }
        if let Some(r) = &self.st.result {
            return r.clone();
        }
        // A result the presets decide (capture-to-win, suicide-chess,
        // extinction-chess, first-promotion-wins, …) comes before the
        // standard checks, as in the engine: such a game has no legal
        // moves left, and reading that as mate or stalemate would name
        // the wrong result.
        let status = self.game.status();
        if let houserules_engine::Status::Variant { winner, reason } = &status {
            return json!({"status": reason, "winner": winner.map(|c| c.name())});
        }
        let legal = self.rule_legal_moves();
        let turn = self.game.turn();
        if legal.is_empty() {
            if self.in_check(turn) {
                return json!({"status": "checkmate", "winner": turn.flip().name()});
            }
            return json!({"status": "stalemate"});
        }
        match status {
            houserules_engine::Status::Checkmate { .. }
            | houserules_engine::Status::Stalemate
            | houserules_engine::Status::Ongoing => {
                json!({"status": "ongoing"})
            }
            other => json!({"status": other.name()}),
        }
    }

    /// Whether the side to move is in check under the active rules
    /// (rule-aware attacks, modifier-rulings C3).
    pub fn is_check(&self) -> bool {
        self.in_check(self.game.turn())
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.st.pending.is_empty() && self.status()["status"] != "ongoing"
    }

    /// A hash of the whole state (position and runtime state), for
    /// determinism checks.
    pub fn state_hash(&self) -> u64 {
        let text = serde_json::to_string(&self.snapshot()).unwrap_or_default();
        // FNV-1a: stable across runs and platforms.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }

    // ---------------------------------------------------------------- board

    pub(crate) fn pos(&self) -> (&Position<u64>, &Tables<u64>) {
        self.game
            .small()
            .expect("8×8 boards only (checked at creation)")
    }

    pub(crate) fn pieces(&self) -> Vec<PieceInfo> {
        let (p, _) = self.pos();
        pieces_of(p)
    }

    pub(crate) fn find_piece(&self, id: u16) -> Option<PieceInfo> {
        if id == 0 {
            return None;
        }
        self.pieces().into_iter().find(|p| p.id == id)
    }

    pub(crate) fn snap(&self, p: &PieceInfo) -> Value {
        let def = self.game.variant().definition();
        json!({
            "id": p.id,
            "type": kind_name(def, p.piece.kind),
            "color": p.piece.color.name(),
            "square": sq_name(p.sq),
        })
    }

    /// The king of each colour that has castling rights: the `king` on
    /// its back rank (rulings C6).
    fn castling_kings(&self) -> Vec<(String, u16, u8)> {
        let (pos, _) = self.pos();
        let def = self.game.variant().definition();
        let mut out = Vec::new();
        for c in Color::ALL {
            let rank: u64 = if c == Color::White { 0xFF } else { 0xFF << 56 };
            if pos.castling_rooks() & rank == 0 {
                continue;
            }
            if let Some(k) = pieces_of(pos).into_iter().find(|p| {
                p.piece.color == c
                    && rank & (1u64 << p.sq) != 0
                    && kind_name(def, p.piece.kind) == "king"
            }) {
                out.push((c.name().to_string(), k.id, k.sq));
            }
        }
        out
    }

    /// After a board rewrite by a primitive (rulings C6): a colour whose
    /// castling king no longer stands on its start square under its id, as
    /// a king, loses its castling rights for good. (A rook that leaves its
    /// square, or is replaced, loses its right in the engine.)
    pub(crate) fn drop_lost_castling(&mut self) {
        if self.st.castle_kings.is_empty() {
            return;
        }
        let (pos, _) = self.pos();
        let def = self.game.variant().definition();
        let mut lost = 0u64;
        let mut kept = Vec::new();
        for (color, id, sq) in &self.st.castle_kings {
            let c = parse_color(color).unwrap_or(Color::White);
            let stands = pos.piece_id(*sq) == *id
                && pos
                    .piece_at(*sq)
                    .is_some_and(|p| p.color == c && kind_name(def, p.kind) == "king");
            if stands {
                kept.push((color.clone(), *id, *sq));
            } else {
                lost |= if c == Color::White { 0xFF } else { 0xFF << 56 };
            }
        }
        let rooks = pos.castling_rooks();
        self.st.castle_kings = kept;
        if rooks & lost != 0 {
            self.game.edit_small(|p, _| p.remove_castling_rights(lost));
        }
    }

    pub(crate) fn next_entity(&mut self) -> u32 {
        let id = self.st.next_entity;
        self.st.next_entity += 1;
        id
    }

    pub(crate) fn log(&mut self, event: &str, detail: Value) {
        self.st.log.push(LogEntry {
            event: event.into(),
            detail,
        });
    }

    fn descriptor_of(&self, inst: u32) -> Option<&Descriptor> {
        let i = self.st.modifiers.iter().find(|m| m.id == inst)?;
        self.st.descriptors.get(&i.descriptor)
    }

    // -------------------------------------------------------------- attach

    /// Attaches a descriptor (rulings G3: an id never active twice) and
    /// queues its on-rule-activated. Call [`Session::drive`] to run it.
    fn attach(
        &mut self,
        desc: Descriptor,
        chooser: Color,
        lifetime: Lifetime,
        params: BTreeMap<String, Value>,
    ) {
        let id = self.next_entity();
        let lifetime = match lifetime {
            Lifetime::Moves { expires_at_move } => Lifetime::Moves {
                expires_at_move: self.st.ply_count + expires_at_move,
            },
            l => l,
        };
        self.log(
            "attach",
            json!({"id": desc.id, "instance": id, "chooser": chooser.name()}),
        );
        self.st.modifiers.push(Instance {
            id,
            descriptor: desc.id.clone(),
            chooser,
            lifetime,
            attached_at: self.st.ply_count,
            params,
            vars: BTreeMap::new(),
            auras: Vec::new(),
            expiring: false,
        });
        self.st.descriptors.insert(desc.id.clone(), desc);
        let c = &mut self.st.cursor;
        c.items
            .push_back(Work::Step(Step::Activate { instance: id }));
        c.items
            .push_back(Work::Step(Step::EndInstant { instance: id }));
        c.items.push_back(Work::Step(Step::Post));
    }

    // --------------------------------------------------------------- moves

    /// Why a UCI-shaped move that matches no legal move is refused, when it
    /// can be told cheaply from the board (rulings E3: squares are 8×8,
    /// a1 = 0): no piece on the origin, the other side's piece, a missing
    /// promotion letter (with the choices), else a rule forbids it.
    fn refusal_reason(&self, uci: &str, legal: &[Move]) -> String {
        let b = uci.as_bytes();
        let square = |f: u8, r: u8| {
            ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r))
                .then(|| (r - b'1') * 8 + (f - b'a'))
        };
        let (Some(from), Some(to)) = (
            b.get(..2).and_then(|s| square(s[0], s[1])),
            b.get(2..4).and_then(|s| square(s[0], s[1])),
        ) else {
            return ": forbidden by the active rules".into();
        };
        // The first four bytes are ASCII, so these are character bounds.
        let origin = &uci[..2];
        let (pos, _) = self.pos();
        let mover = pos.turn();
        let side = |c: Color| match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        match pos.piece_at(from) {
            None => format!(": there is no piece on {origin}"),
            Some(p) if p.color != mover => format!(
                ": the piece on {origin} is {}'s, and it is {}'s move",
                side(p.color),
                side(mover)
            ),
            Some(_) => {
                let promotions: Vec<String> = legal
                    .iter()
                    .filter(|l| l.from == from && l.to == to && l.promotion.is_some())
                    .map(|l| format!("`{}`", self.write_uci(*l, legal)))
                    .collect();
                if b.len() == 4 && !promotions.is_empty() {
                    format!(
                        ": a promotion piece letter is needed ({})",
                        promotions.join(", ")
                    )
                } else if self
                    .game
                    .legal_moves()
                    .iter()
                    .any(|m| self.game.uci(*m) == uci)
                {
                    // Legal in the game and its presets: a modifier says no.
                    ": forbidden by an attached modifier".into()
                } else {
                    ": not a legal move in this position".into()
                }
            }
        }
    }

    fn submit_move(&mut self, uci: &str) -> Result<(), Refusal> {
        if !self.st.pending.is_empty() {
            return Err(refuse(
                codes::CHOICE_PENDING,
                "a choice is pending; answer it first",
            ));
        }
        if self.is_over() {
            return Err(refuse(codes::GAME_OVER, "the game is over"));
        }
        let legal = self.rule_legal_moves();
        let m = legal
            .iter()
            .copied()
            .find(|l| self.write_uci(*l, &legal) == uci)
            .or_else(|| {
                self.game.parse_uci(uci).ok().and_then(|m| {
                    legal.iter().copied().find(|l| *l == m).or_else(|| {
                        legal.iter().copied().find(|l| {
                            l.from == m.from && l.to == m.to && l.promotion == m.promotion
                        })
                    })
                })
            });
        let Some(m) = m else {
            // A SAN move (`Nf3`) is the likeliest mistake: say what is read.
            let hint = if !houserules_engine::uci::is_uci_shaped(uci) {
                " (moves are written in UCI, such as `e2e4` or `e7e8q`)".to_string()
            } else {
                self.refusal_reason(uci, &legal)
            };
            return Err(refuse(
                codes::ILLEGAL_MOVE,
                format!(
                    "`{}` is not legal under the active rules{hint}",
                    houserules_engine::echo::echo(uci)
                ),
            ));
        };
        self.inputs.push(Input::Move {
            mv: uci.to_string(),
        });
        let (pos, _) = self.pos();
        let mover = pos.turn();
        let me = PieceInfo {
            id: pos.piece_id(m.from),
            sq: m.from,
            piece: pos.piece_at(m.from).expect("legal move has a mover"),
        };
        let (captured, en_passant) = match m.kind {
            MoveKind::EnPassant => {
                let victim = pieces_of(pos).into_iter().find(|p| {
                    p.piece.color != mover && p.sq % 8 == m.to % 8 && (p.sq / 8 == m.from / 8)
                });
                (victim.map_or(Value::Null, |v| self.snap(&v)), true)
            }
            MoveKind::Castle => (Value::Null, false),
            _ => match pos.piece_at(m.to) {
                Some(p) if p.color != mover => (
                    self.snap(&PieceInfo {
                        id: pos.piece_id(m.to),
                        sq: m.to,
                        piece: p,
                    }),
                    false,
                ),
                _ => (Value::Null, false),
            },
        };
        let ply = Ply {
            uci: uci.to_string(),
            mv: m,
            mover,
            piece_before: self.snap(&me),
            captured: captured.clone(),
            en_passant,
            rook: None,
            hp_aura_lost: Vec::new(),
        };
        self.log("move", json!({"uci": uci, "color": mover.name()}));
        let c = &mut self.st.cursor;
        c.ply = Some(ply);
        c.cancelled = false;
        if !captured.is_null() {
            let arms = self.capture_attempt_arms();
            self.st.cursor.items.extend(arms.into_iter().map(Work::Arm));
        }
        self.st.cursor.items.push_back(Work::Step(Step::ApplyMove));
        self.st.cursor.items.push_back(Work::Step(Step::Post));
        self.drive();
        Ok(())
    }

    /// Applies the pending ply's move on the board: `PlyCount + 1`, the
    /// stage-0 marker entries and the numbered stages (rulings A1, A2).
    fn apply_move_step(&mut self) {
        let Some(ply) = self.st.cursor.ply.clone() else {
            return;
        };
        if self.st.cursor.cancelled {
            self.log("capture-cancelled", json!({"uci": ply.uci}));
            self.do_skip();
            return;
        }
        let (pos, _) = self.pos();
        let mover_id = pos.piece_id(ply.mv.from);
        let rook = if ply.mv.kind == MoveKind::Castle {
            Some(pos.piece_id(ply.mv.to))
        } else {
            None
        };
        // Hp bonuses around the move alone: losses caused by arms before
        // it (on-capture-attempt) or after it (marker entries) are queued by
        // their own frames (rulings C8).
        let hp_before = self.hp_aura_bonus();
        // Under `piece-hp`, the move's own damage (a capture that leaves
        // the target standing) lowers its `Hp` fact: stage 2 too.
        let preset_before = self.preset_hp_all();
        // The captured piece's attributes go with it (after its snapshot).
        self.game.apply_unchecked(ply.mv);
        self.st.ply_count += 1;
        self.st.skips_in_row = 0;
        if let Some(cid) = ply.captured.get("id").and_then(Value::as_u64) {
            self.st.attrs.remove(&(cid as u16));
        }
        let mut lost: Vec<u16> = self
            .hp_aura_losses(&hp_before)
            .iter()
            .map(|p| p.id)
            .collect();
        // A piece that loses stored hit points and an aura bonus in the
        // same move gets one on-damaged per cause, as inside an arm.
        lost.extend(self.preset_hp_losses(&preset_before));
        let mut entries = Vec::new();
        if let Some(p) = self.find_piece(mover_id) {
            entries.push(p);
        }
        let mut rook_info = None;
        if let Some(rid) = rook {
            if let Some(r) = self.find_piece(rid) {
                rook_info = Some((rid, ply.mv.to, r.sq));
                entries.push(r);
            }
        }
        if let Some(p) = self.st.cursor.ply.as_mut() {
            p.rook = rook_info;
            p.hp_aura_lost = lost;
        }
        let c = &mut self.st.cursor;
        for p in entries.iter().rev() {
            c.items.push_front(Work::Entry {
                piece: p.id,
                square: p.sq,
                cause: "move".into(),
                generation: 1,
                after: (0, 0),
                before: 0,
            });
        }
        let mut steps: Vec<Work> = Vec::new();
        for s in [1u16, 2, 3, 4, 5, 6, 7, 8, 9, 10, 101, 102, 11] {
            steps.push(Work::Step(Step::Stage { stage: s }));
        }
        steps.push(Work::Step(Step::DetachExpired));
        steps.push(Work::Step(Step::Stage { stage: 12 }));
        // Insert after the entries, before the trailing Post.
        let at = entries.len();
        for (i, w) in steps.into_iter().enumerate() {
            c.items.insert(at + i, w);
        }
    }

    /// A skip (rulings A5): the other side moves; no ply, no lifetime; a
    /// fresh stage-12 dispatch for the new side.
    fn do_skip(&mut self) {
        let skipped = self.game.turn();
        self.game.edit_small(|p, _| p.skip_turn());
        self.st.skips_in_row += 1;
        self.log("skip", json!({"color": skipped.name()}));
        self.st.cursor.ply = None;
        if self.st.skips_in_row >= MAX_SKIPS {
            self.st.result = Some(json!({"status": "draw", "reason": "skip-loop"}));
            self.st.cursor.items.clear();
            self.st.cursor.queue.clear();
            return;
        }
        let c = &mut self.st.cursor;
        c.items.push_front(Work::Step(Step::Stage { stage: 12 }));
    }

    // ------------------------------------------------------------- choices

    /// Answers the pending choice on top of the stack.
    ///
    /// # Errors
    /// A [`Refusal`] (no pending choice, wrong player, not an option); the
    /// session is then unchanged.
    pub fn submit_choice(&mut self, value: &Value) -> Result<(), Refusal> {
        self.submit_choice_as(value, None, None)
    }

    /// Answers the top choice with its first option (the timeout default,
    /// rulings B4/B7), recorded as an input with `"auto": "timeout"`.
    ///
    /// # Errors
    /// [`codes::NO_PENDING_CHOICE`].
    pub fn timeout_choice(&mut self) -> Result<(), Refusal> {
        let Some(top) = self.st.pending.last() else {
            return Err(refuse(codes::NO_PENDING_CHOICE, "no choice is pending"));
        };
        if top.kind == "rps" && top.for_player == "both" {
            for c in ["white", "black"] {
                if self
                    .st
                    .pending
                    .last()
                    .is_some_and(|t| !t.collected.contains_key(c))
                {
                    self.submit_choice_as(&json!("rock"), Some(c), Some("timeout"))?;
                }
            }
            return Ok(());
        }
        let first = top.prompt["options"].get(0).cloned().unwrap_or(Value::Null);
        self.submit_choice_as(&first, None, Some("timeout"))
    }

    fn submit_choice_as(
        &mut self,
        value: &Value,
        player: Option<&str>,
        auto: Option<&str>,
    ) -> Result<(), Refusal> {
        let Some(top) = self.st.pending.last().cloned() else {
            return Err(refuse(codes::NO_PENDING_CHOICE, "no choice is pending"));
        };
        let options = top.prompt["options"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if auto.is_some() {
            // A timeout answer is the default (rulings B4/B7: the first
            // option; rock for rps), and only under a timeout policy: a
            // replayed input cannot claim a timeout that could not happen.
            if self.st.choice_timeout == ChoiceTimeout::NoTimeout {
                return Err(refuse(
                    codes::BAD_CHOICE,
                    "\"auto\": \"timeout\" needs a choice timeout, but the game has \
                     \"choiceTimeout\": {\"mode\": \"no-timeout\"}",
                ));
            }
            let default = if top.kind == "rps" {
                json!("rock")
            } else {
                options.first().cloned().unwrap_or(Value::Null)
            };
            if *value != default {
                return Err(refuse(
                    codes::BAD_CHOICE,
                    format!(
                        "a timeout takes the default {default}, not {}",
                        crate::echo_input(&value.to_string())
                    ),
                ));
            }
        }
        if !options.contains(value) {
            return Err(refuse(
                codes::BAD_CHOICE,
                format!(
                    "{} is not one of the options {}",
                    crate::echo_input(&value.to_string()),
                    Value::Array(options)
                ),
            ));
        }
        let mut frame = top;
        if frame.for_player == "both" {
            let Some(p) = player.filter(|p| *p == "white" || *p == "black") else {
                return Err(refuse(
                    codes::BAD_CHOICE,
                    "an rps answer for both players needs \"player\": \"white\" or \"black\"",
                ));
            };
            if frame.collected.contains_key(p) {
                return Err(refuse(
                    codes::BAD_CHOICE,
                    format!("{p} has already answered"),
                ));
            }
            frame.collected.insert(p.to_string(), value.clone());
        } else {
            if let Some(p) = player {
                if p != frame.for_player {
                    return Err(refuse(
                        codes::BAD_CHOICE,
                        format!("this choice is for {}, not {p}", frame.for_player),
                    ));
                }
            }
            let n = frame.collected.len();
            frame.collected.insert(format!("{n:03}"), value.clone());
        }
        self.inputs.push(Input::Choice {
            choice: value.clone(),
            player: player.map(str::to_string),
            auto: auto.map(str::to_string),
        });
        let complete = if frame.for_player == "both" {
            frame.collected.len() == 2
        } else {
            frame.collected.len() as u32 >= frame.count.max(1)
        };
        // An rps answer for both players stays secret until the other one
        // is in (rulings B5); the second answer's entry reveals both.
        let shown = if frame.for_player == "both" && !complete {
            Value::String("hidden".into())
        } else {
            value.clone()
        };
        // `auto: timeout` would give the hidden throw away (the default).
        let shown_auto = if frame.for_player == "both" && !complete {
            None
        } else {
            auto
        };
        let mut entry = json!({"choiceId": frame.choice_id, "value": shown, "player": player, "auto": shown_auto});
        if frame.for_player == "both" && complete {
            entry["answers"] = Value::Object(frame.collected.clone().into_iter().collect());
        }
        self.log("choice", entry);
        self.st.pending.pop();
        if !complete {
            self.st.pending.push(frame);
            return Ok(());
        }
        if frame.kind == "card" {
            if let Some(id) = value.as_str() {
                self.pick_card(&frame, id);
            }
            self.drive();
            return Ok(());
        }
        let bound = if frame.for_player == "both" {
            Value::Object(frame.collected.clone().into_iter().collect())
        } else if frame.count > 1 {
            Value::Array(frame.collected.values().cloned().collect())
        } else {
            value.clone()
        };
        let bound = self.choice_value(&frame.kind, &bound);
        let mut bindings = frame.bindings.clone();
        bindings.insert(frame.bind.clone(), bound);
        self.resume_arm(&frame.arm, bindings, &frame.trigger_path);
        self.drive();
        Ok(())
    }

    /// Turns an answer into the bound value: a piece prompt binds the
    /// piece snapshot, others the answer itself.
    fn choice_value(&self, kind: &str, v: &Value) -> Value {
        if kind == "piece" {
            if let Some(sq) = v.as_str().and_then(parse_sq) {
                let (p, _) = self.pos();
                if let Some(pc) = p.piece_at(sq) {
                    return self.snap(&PieceInfo {
                        id: p.piece_id(sq),
                        sq,
                        piece: pc,
                    });
                }
            }
            return Value::Null;
        }
        v.clone()
    }

    // ------------------------------------------------------------ dispatch

    /// Runs the dispatch until it ends or a choice suspends it.
    pub(crate) fn drive(&mut self) {
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

    fn step(&mut self, s: Step) {
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

    fn detach_now(&mut self, instance: u32) {
        if let Some(i) = self.st.modifiers.iter().position(|m| m.id == instance) {
            let m = self.st.modifiers.remove(i);
            self.log("detach", json!({"id": m.descriptor, "instance": m.id}));
        }
    }

    /// End of an input (rulings A2 step 5): a requested skip, else the
    /// royal-loss check; the check state is stored for the next edges.
    fn post(&mut self) {
        if self.st.cursor.skip {
            self.st.cursor.skip = false;
            self.st.cursor.items.push_front(Work::Step(Step::Post));
            self.do_skip();
            return;
        }
        self.st.cursor.ply = None;
        // An aura added by a trigger ends with its emitter (ids are never
        // reused, so this is only tidying).
        if self.st.modifiers.iter().any(|m| !m.auras.is_empty()) {
            let (pos, _) = self.pos();
            let ids: Vec<u64> = pieces_of(pos).iter().map(|p| u64::from(p.id)).collect();
            for m in &mut self.st.modifiers {
                m.auras.retain(|a| {
                    a.get("emitter")
                        .and_then(Value::as_u64)
                        .is_some_and(|e| ids.contains(&e))
                });
            }
        }
        let (checked, pairs) = self.check_state();
        self.st.checked = checked;
        self.st.check_pairs = pairs;
        if self.st.result.is_none() {
            let (p, t) = self.pos();
            let has = |c: Color| self.royals(p, t, c) != 0;
            let (w, b) = (has(Color::White), has(Color::Black));
            if (!w || !b) && self.definition_has_royals() {
                self.st.result = Some(match (w, b) {
                    (false, false) => json!({"status": "draw", "reason": "royal-loss"}),
                    (true, false) => json!({"status": "royal-loss", "winner": "white"}),
                    _ => json!({"status": "royal-loss", "winner": "black"}),
                });
            }
        }
        if self.st.cursor.items.is_empty() && self.st.cursor.queue.is_empty() {
            self.maybe_draft();
        }
    }

    fn definition_has_royals(&self) -> bool {
        self.game
            .variant()
            .definition()
            .pieces
            .iter()
            .any(|p| p.royal)
    }

    /// A piece entered `square`: handle its markers in priority order
    /// (ascending id within a kind), stopping once the piece left.
    fn entry(
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
        event.insert("marker".into(), marker_value(&marker));
        event.insert("cause".into(), json!(cause));
        event.insert("to".into(), json!(sq_name(square)));
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
    fn stage(&mut self, stage: u16) {
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
            5 if ply.mv.promotion.is_some() && mover_now.is_some() => {
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
                    e.insert("from".into(), json!(sq_name(from)));
                    e.insert("to".into(), json!(sq_name(p.sq)));
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
                    self.log("marker-expired", json!({"marker": m.id, "kind": m.kind}));
                    let mut e = ev.clone();
                    e.insert("marker".into(), marker_value(m));
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
    fn ply_event(&self, ply: &Ply) -> BTreeMap<String, Value> {
        let mut ev = BTreeMap::new();
        ev.insert("from".to_string(), json!(sq_name(ply.mv.from)));
        let to_sq = match ply.rook {
            Some(_) => self
                .find_piece(ply.piece_before["id"].as_u64().unwrap_or(0) as u16)
                .map_or(ply.mv.to, |p| p.sq),
            None => ply.mv.to,
        };
        ev.insert("to".to_string(), json!(sq_name(to_sq)));
        ev.insert("enPassant".to_string(), json!(ply.en_passant));
        ev
    }

    /// on-damaged arms of generation `generation` for pieces whose aura
    /// `Hp` bonus went down, in the order given. The event is stage 2's:
    /// the ply's `from`, `to`, `enPassant` while a move is dispatched, and
    /// `piece`, the damaged piece (also `$self`).
    fn damaged_arms(&mut self, hurt: &[PieceInfo], generation: u8) -> Vec<Arm> {
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

    fn push_front_arms(&mut self, arms: Vec<Arm>) {
        for a in arms.into_iter().rev() {
            self.st.cursor.items.push_front(Work::Arm(a));
        }
    }

    fn turn_arms(&mut self, kind: TriggerKind, color: Color) -> Vec<Arm> {
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
    fn arms_for(
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
    fn subject_arms(
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
                        let sq = s.get("square").and_then(Value::as_str).and_then(parse_sq);
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

    fn capture_attempt_arms(&mut self) -> Vec<Arm> {
        let Some(ply) = self.st.cursor.ply.clone() else {
            return Vec::new();
        };
        let mut ev = BTreeMap::new();
        ev.insert("from".to_string(), json!(sq_name(ply.mv.from)));
        ev.insert("to".to_string(), json!(sq_name(ply.mv.to)));
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
    fn check_edge_arms(&mut self, stage: u16, ply: &Ply, ev: &BTreeMap<String, Value>) -> Vec<Arm> {
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

/// Serde helper: a zero generation is left out.
fn is_zero(g: &u8) -> bool {
    *g == 0
}

pub(crate) fn pieces_of(p: &Position<u64>) -> Vec<PieceInfo> {
    let occ = p.occupied();
    let mut v = Vec::new();
    for sq in 0..64u8 {
        if occ & (1u64 << sq) != 0 {
            if let Some(piece) = p.piece_at(sq) {
                v.push(PieceInfo {
                    id: p.piece_id(sq),
                    sq,
                    piece,
                });
            }
        }
    }
    v
}

pub(crate) fn marker_value(m: &Marker) -> Value {
    json!({"marker": m.id, "kind": m.kind, "square": sq_name(m.square), "owner": m.owner.map(|c| c.name()), "source": m.source})
}

/// Reads a creation-request modifier entry: a library id with
/// `:K=V;…` overrides, or an inline descriptor. A key given twice is
/// refused (the last one would otherwise win silently).
#[allow(clippy::type_complexity)]
fn resolve_modifier(
    v: &Value,
) -> Result<(Descriptor, BTreeMap<String, String>), (Option<&'static str>, String)> {
    match v {
        Value::String(s) => {
            let (id, rest) = s.split_once(':').unwrap_or((s.as_str(), ""));
            let d = crate::library::get(id).map_err(|e| (None, e.to_string()))?;
            // As `--rules 'ID:'` is refused: a `:` promises parameters.
            if s.contains(':') && rest.is_empty() {
                return Err((
                    None,
                    format!(
                        "`{}` has an empty parameter list: write `{id}`, or `{id}:KEY=VALUE;…`",
                        crate::echo_input(s)
                    ),
                ));
            }
            let mut over = BTreeMap::new();
            for kv in rest.split(';').filter(|x| !x.is_empty()) {
                let (k, val) = kv.split_once('=').ok_or_else(|| {
                    (
                        None,
                        format!("`{}` is not KEY=VALUE", crate::echo_input(kv)),
                    )
                })?;
                if over.insert(k.to_string(), val.to_string()).is_some() {
                    return Err((
                        Some(codes::DUPLICATE_PARAMETER),
                        format!(
                            "parameter `{}` is given twice in `{}`",
                            crate::echo_input(k),
                            crate::echo_input(s)
                        ),
                    ));
                }
            }
            Ok((d, over))
        }
        Value::Object(o) if entry::has_options(o) => entry::with_options(o).map_err(|e| (None, e)),
        Value::Object(_) => crate::validate::validate_value(v)
            .map(|d| (d, BTreeMap::new()))
            .map_err(|f| {
                (
                    None,
                    f.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; "),
                )
            }),
        _ => Err((
            None,
            "a modifier is a library id or an inline descriptor".into(),
        )),
    }
}

fn parse_param_value(ty: crate::descriptor::ParamType, v: &str) -> Option<Value> {
    use crate::descriptor::ParamType as T;
    match ty {
        T::Integer => v.parse::<i64>().ok().map(Value::from),
        T::Number => v
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number),
        T::Boolean => v.parse::<bool>().ok().map(Value::from),
        T::String => Some(json!(v)),
        T::Square => parse_sq(v).map(|_| json!(v)),
        T::File => (v.len() == 1 && ("a"..="h").contains(&v)).then(|| json!(v)),
        T::PieceType => ["pawn", "knight", "bishop", "rook", "queen", "king"]
            .contains(&v)
            .then(|| json!(v)),
        T::Color => parse_color(v).map(|_| json!(v)),
        T::MarkerKind => MarkerKind::parse(v).map(|_| json!(v)),
    }
}
