//! The typed JSON descriptor (`version: 1`).
//!
//! A descriptor has a passive part (restrictions, auras, move shapes) and a
//! list of triggers whose `effects` hold imperative primitives. Primitive
//! parameters are kept as JSON values: their per-kind shape is checked by
//! [`mod@crate::validate`], which is the only supported way to build a
//! [`Descriptor`] from text.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The only descriptor format version this crate understands.
pub const FORMAT_VERSION: u64 = 1;

macro_rules! kind_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
        pub enum $name {
            $($(#[$vm])* #[serde(rename = $s)] $var,)*
        }
        impl $name {
            /// Every kind, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$var,)*];
            /// The kind's name as written in descriptors.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $s,)* }
            }
            /// Parses a kind name as written in descriptors.
            pub fn parse(s: &str) -> Option<Self> {
                match s { $($s => Some($name::$var),)* _ => None }
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

kind_enum! {
    /// The kind of a top-level trigger.
    TriggerKind {
        /// Start of a turn of the matching colour (stage 12).
        OnTurnStart = "on-turn-start",
        /// End of a turn of the matching colour (stage 11).
        OnTurnEnd = "on-turn-end",
        /// The attacker of the ply's capture (stage 3).
        OnCapture = "on-capture",
        /// The piece captured by the ply's move (stage 4).
        OnCaptured = "on-captured",
        /// A piece whose HP went down (stage 2).
        OnDamaged = "on-damaged",
        /// A piece moved by the ply's move (stage 6).
        OnMove = "on-move",
        /// A pawn promoted by the ply's move (stage 5).
        OnPromotion = "on-promotion",
        /// A royal newly in check (stage 8, edge-triggered).
        OnCheckReceived = "on-check-received",
        /// A piece newly giving check (stage 9, edge-triggered).
        OnCheckDelivered = "on-check-delivered",
        /// A moved piece ending on a filtered square (stage 7).
        OnMovedOntoSquare = "on-moved-onto-square",
        /// A stage-10 test of a condition after every ply.
        Conditional = "conditional",
        /// The modifier attaches.
        OnRuleActivated = "on-rule-activated",
        /// The modifier's lifetime ends or it is detached (stage 10a).
        OnRuleExpire = "on-rule-expire",
        /// A piece enters a square holding a marker (stage 0 or deferred).
        OnPieceEnteredMarker = "on-piece-entered-marker",
        /// A marker's `moves` lifetime runs out (stage 10b).
        OnMarkerExpire = "on-marker-expire",
        /// Before a capture is applied (the only home of `cancel-capture`).
        OnCaptureAttempt = "on-capture-attempt",
        /// Inside a mutator kill (the only home of `cancel-kill`).
        OnKillAttempt = "on-kill-attempt",
    }
}

kind_enum! {
    /// The kind of a primitive node.
    PrimitiveKind {
        /// Writes an attribute to a value.
        SeedAttribute = "seed-attribute",
        /// Sets a piece attribute.
        SetPieceAttr = "set-piece-attr",
        /// Adds a delta to a numeric attribute.
        AddToAttribute = "add-to-attribute",
        /// Sets the capture flag.
        SetCaptureFlag = "set-capture-flag",
        /// Sets a modifier or game variable.
        SetVar = "set-var",
        /// Adds to a numeric variable.
        AddToVar = "add-to-var",
        /// Projects an attribute bonus around a piece.
        AddAura = "add-aura",
        /// Gives pieces extra move shapes.
        AddMoves = "add-moves",
        /// Replaces pieces' move shapes.
        ReplaceMoves = "replace-moves",
        /// Changes the board topology (wrapping files).
        SetBoardTopology = "set-board-topology",
        /// Spawns a marker.
        SpawnMarker = "spawn-marker",
        /// Removes markers.
        RemoveMarker = "remove-marker",
        /// Moves markers to a square.
        MoveMarker = "move-marker",
        /// Spawns a piece.
        SpawnPiece = "spawn-piece",
        /// A mutator kill.
        Kill = "kill",
        /// Removes pieces with no exemption.
        RemovePiece = "remove-piece",
        /// Swaps two pieces.
        SwapPieces = "swap-pieces",
        /// Steps pieces in a direction.
        StepPiece = "step-piece",
        /// Moves a piece to a named square, keeping its id and attributes.
        MovePiece = "move-piece",
        /// Changes pieces' type or colour.
        ConvertPiece = "convert-piece",
        /// Cancels the capture being attempted.
        CancelCapture = "cancel-capture",
        /// Cancels the kill being attempted.
        CancelKill = "cancel-kill",
        /// Skips the turn of the side to move.
        SkipTurn = "skip-turn",
        /// Detaches this modifier instance.
        DetachModifier = "detach-modifier",
        /// Suspends and asks a player to choose.
        RequestChoice = "request-choice",
        /// Flips coins (a draw, or a choice in manual mode).
        FlipCoin = "flip-coin",
        /// Runs a body for each item of a snapshot.
        ForEach = "for-each",
        /// Picks items at random (draws).
        RandomPick = "random-pick",
        /// Runs a body with a probability (draws).
        WithProbability = "with-probability",
        /// If/else.
        Conditional = "conditional",
        /// Forbids player moves matching a move filter.
        ForbidMove = "forbid-move",
        /// Protects pieces against capture and/or kill.
        Protect = "protect",
        /// Only matching moves stay legal when any exists.
        MustMoveIfAble = "must-move-if-able",
        /// Keeps only the farthest legal square of each slider direction.
        KeepFarthest = "keep-farthest",
    }
}

/// The palette category of a primitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Attribute and variable writes (imperative).
    State,
    /// Passive mechanics (auras, move shapes, topology).
    Mechanic,
    /// Board-mutating and control-of-play primitives.
    Imperative,
    /// Control flow (loops, draws, conditionals).
    Iteration,
    /// Passive restrictions on player moves.
    Restriction,
}

impl PrimitiveKind {
    /// The palette category of this primitive.
    pub fn category(self) -> Category {
        use PrimitiveKind::*;
        match self {
            SeedAttribute | SetPieceAttr | AddToAttribute | SetCaptureFlag | SetVar | AddToVar => {
                Category::State
            }
            AddAura | AddMoves | ReplaceMoves | SetBoardTopology => Category::Mechanic,
            ForEach | RandomPick | WithProbability | Conditional => Category::Iteration,
            ForbidMove | Protect | MustMoveIfAble | KeepFarthest => Category::Restriction,
            _ => Category::Imperative,
        }
    }

    /// True if the primitive may appear in the passive part.
    pub fn is_passive(self) -> bool {
        matches!(self.category(), Category::Mechanic | Category::Restriction)
    }

    /// True if the primitive may appear inside trigger effects. `add-aura`
    /// is both passive and allowed in triggers; the other mechanics and the
    /// restrictions are passive only.
    pub fn allowed_in_triggers(self) -> bool {
        !self.is_passive() || self == PrimitiveKind::AddAura
    }

    /// True if the primitive asks a player (or may, for `flip-coin`).
    pub fn is_choice(self) -> bool {
        matches!(self, PrimitiveKind::RequestChoice | PrimitiveKind::FlipCoin)
    }
}

kind_enum! {
    /// The marker kinds, in collision priority order.
    MarkerKind {
        /// Priority 1.
        PortalEnd = "portal-end",
        /// Priority 2.
        FrozenSquare = "frozen-square",
        /// Priority 3.
        Mine = "mine",
        /// Priority 4.
        Pit = "pit",
        /// Priority 5.
        DeathSquare = "death-square",
        /// Priority 6.
        Tornado = "tornado",
        /// Priority 7.
        Treasure = "treasure",
        /// Priority 8. Blocks moves and placements by itself.
        Blocked = "blocked",
        /// Priority 9 (modifier-rulings D1): a protective mark.
        Ward = "ward",
    }
}

impl MarkerKind {
    /// The fixed collision priority (lowest fires first).
    pub fn priority(self) -> u8 {
        match self {
            MarkerKind::PortalEnd => 1,
            MarkerKind::FrozenSquare => 2,
            MarkerKind::Mine => 3,
            MarkerKind::Pit => 4,
            MarkerKind::DeathSquare => 5,
            MarkerKind::Tornado => 6,
            MarkerKind::Treasure => 7,
            MarkerKind::Blocked => 8,
            MarkerKind::Ward => 9,
        }
    }
}

/// A primitive node: `{"kind": …, "params": {…}}`. Bodies (`then`, `else`,
/// `do`) are arrays of nodes inside `params`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Node {
    /// The primitive kind.
    pub kind: PrimitiveKind,
    /// The kind's parameters (see docs/modifiers.md for each kind).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, Value>,
}

/// A top-level trigger: `{"kind": …, "params": {…}, "effects": [nodes]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trigger {
    /// The trigger kind.
    pub kind: TriggerKind,
    /// The trigger's parameters (`subject`, `target` and kind-specific ones).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, Value>,
    /// The primitives run when the trigger fires, in order.
    pub effects: Vec<Node>,
}

/// The type of a declared parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ParamType {
    /// An integer.
    Integer,
    /// A number.
    Number,
    /// A boolean.
    Boolean,
    /// A string.
    String,
    /// A square name such as `"e4"`.
    Square,
    /// A file letter `a`…`h`.
    File,
    /// A piece type.
    PieceType,
    /// A colour (`white` or `black`).
    Color,
    /// A marker kind.
    MarkerKind,
}

/// A declared, overridable parameter, read as `$param.<name>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Parameter {
    /// The name (`[a-z][a-z0-9_]*`).
    pub name: String,
    /// The value type.
    #[serde(rename = "type")]
    pub ty: ParamType,
    /// The default value, of the declared type.
    pub default: Value,
    /// What the parameter does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// How long a drafted card lasts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DraftDuration {
    /// `"instant"` or `"persistent"`.
    Named(String),
    /// A fixed number of plies.
    Plies(u32),
    /// A range of plies `[min, max]`.
    Range([u32; 2]),
}

/// Draft metadata; only descriptors that carry it are dealt as cards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Draft {
    /// The card weight (≥ 1).
    pub weight: u32,
    /// The card duration.
    pub duration: DraftDuration,
}

/// The board a descriptor's fixed squares, files and ranks are written
/// for (issue 12): a rule whose names only mean what they say on one board
/// (ice_age's edge files a and h, summoning_ritual's corners) declares it,
/// and attaching it to a game on another board is refused with
/// `descriptor.board-size`. Descriptors without it are taken to fit any
/// board that has the squares they name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardSize {
    /// Files, 1–16.
    pub width: u8,
    /// Ranks, 1–16 (width × height at most 128).
    pub height: u8,
}

/// A custom rule modifier descriptor (format version 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Descriptor {
    /// The format version; must be 1.
    pub version: u64,
    /// The id (`[a-z0-9][a-z0-9_-]*`, at most 64 characters).
    pub id: String,
    /// The display name.
    pub name: String,
    /// What the rule does.
    #[serde(default)]
    pub description: String,
    /// Declared parameters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<Parameter>,
    /// Passive primitives: restrictions, auras, move shapes, topology.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passive: Vec<Node>,
    /// Triggers holding imperative primitives.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<Trigger>,
    /// Draft card metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft: Option<Draft>,
    /// The only board the descriptor is meant for, when its fixed names
    /// mean something else on other boards ([`BoardSize`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardSize>,
}

/// The JSON Schema of the descriptor format, pretty-printed with a final
/// newline.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Descriptor);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
