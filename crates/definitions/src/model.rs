//! The YAML game file format as Rust types: what serde reads and what
//! schemars describes in the JSON Schema. Every value that a diagnostic may
//! point at is wrapped in [`Sp`], which keeps its place in the file.
//!
//! The meaning of each field is documented in `docs/game-format.md`; the
//! doc comments here become the schema's descriptions.

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

/// Where a value stood in the file: byte offset and length when known,
/// else 1-based line and column (converted with the source text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Loc {
    /// Byte offset, when the parser reported one.
    pub offset: Option<usize>,
    /// Byte length, when the parser reported one.
    pub len: Option<usize>,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column in characters (0 when unknown).
    pub column: usize,
}

impl Loc {
    pub(crate) fn from_saphyr(l: &serde_saphyr::Location) -> Loc {
        let span = l.span();
        Loc {
            offset: span.byte_offset().map(|o| o as usize),
            len: span.byte_len().map(|o| o as usize),
            line: l.line() as usize,
            column: l.column() as usize,
        }
    }
}

/// A value with its location in the file.
#[derive(Clone, Debug)]
pub struct Sp<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub loc: Loc,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Sp<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = serde_saphyr::Spanned::<T>::deserialize(d)?;
        Ok(Sp {
            loc: Loc::from_saphyr(&s.referenced),
            value: s.value,
        })
    }
}

impl<T: JsonSchema> JsonSchema for Sp<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
    fn inline_schema() -> bool {
        T::inline_schema()
    }
}

/// A game: board, players, pieces, start position and end conditions.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "houserules game definition")]
pub struct GameFile {
    /// Stable id of the game (`chess`, `capablanca`): lower-case letters,
    /// digits and `-`.
    pub id: Sp<String>,
    /// Display name (defaults to the id).
    #[serde(default)]
    pub name: Option<Sp<String>>,
    /// Free text for people; ignored by the engine.
    #[serde(default)]
    pub description: Option<Sp<String>>,
    /// A place for YAML anchors (`&name`) to be reused with aliases
    /// (`*name`) below; its content is otherwise ignored.
    #[serde(default)]
    pub templates: Option<Templates>,
    /// The board.
    pub board: Sp<BoardSpec>,
    /// The players in turn order with the way each faces (default: White
    /// facing North, Black facing South).
    #[serde(default)]
    pub players: Option<Sp<Vec<Sp<PlayerSpec>>>>,
    /// The start position as FEN, in the pieces' symbols (upper case for
    /// the first player, lower case for the second).
    pub setup: Sp<String>,
    /// The piece types.
    pub pieces: Sp<Vec<Sp<PieceSpec>>>,
    /// Ids of the royal piece types: leaving one attacked is illegal, and
    /// it is the one checkmate is about.
    #[serde(default)]
    pub royal: Option<Sp<Vec<Sp<String>>>>,
    /// Ids of the players that may have no royal piece (horde's White): a
    /// setup without one is accepted, and such a player without one is
    /// never in check. Default: none (every player needs one).
    #[serde(default)]
    pub royal_optional: Option<Sp<Vec<Sp<String>>>>,
    /// How the game ends (default: the FIDE Laws).
    #[serde(default)]
    pub end: Option<Sp<EndSpec>>,
    /// Drops and pockets (pieces in hand), as in crazyhouse: captured
    /// pieces go to the capturer's hand and may be dropped later.
    #[serde(default)]
    pub drops: Option<Sp<DropsSpec>>,
}

/// Drops and pockets: which pieces may be held and where they may be
/// dropped.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DropsSpec {
    /// The piece type a captured promoted piece becomes in the hand
    /// (default: the first piece type that promotes; crazyhouse: Pawn).
    #[serde(default)]
    pub demote_to: Option<Sp<String>>,
    /// The piece types that may be held in hand, each with its drop rules.
    /// A captured piece of another type (a royal) is not kept.
    pub pieces: Sp<Vec<Sp<DropPieceSpec>>>,
}

/// The drop rules of one piece type.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DropPieceSpec {
    /// The piece type's id.
    pub piece: Sp<String>,
    /// Ranks (1-based, counted from the owner's side: 1 is the owner's
    /// first rank) on which it may be dropped (default: every rank).
    /// Crazyhouse pawns: `[2, 3, 4, 5, 6, 7]`.
    #[serde(default)]
    pub ranks: Option<Sp<Vec<Sp<i64>>>>,
    /// Not onto a file that already holds an own piece of this type
    /// (shogi's nifu; Fairy-Stockfish's `dropNoDoubled`; default false).
    #[serde(default)]
    pub no_doubled: Option<Sp<bool>>,
    /// Whether a drop of this piece may give checkmate (default true;
    /// shogi's pawn: false).
    #[serde(default)]
    pub may_mate: Option<Sp<bool>>,
}

/// Free-form YAML, kept only for its anchors.
#[derive(Debug, Default)]
pub struct Templates;

impl<'de> Deserialize<'de> for Templates {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        de::IgnoredAny::deserialize(d)?;
        Ok(Templates)
    }
}

impl JsonSchema for Templates {
    fn schema_name() -> Cow<'static, str> {
        "Templates".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "description": "Any YAML; a place to define anchors for reuse." })
    }
}

/// Board size.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// Files (1..=16).
    #[schemars(range(min = 1, max = 16))]
    pub width: Sp<i64>,
    /// Ranks (1..=16); width × height at most 128.
    #[schemars(range(min = 1, max = 16))]
    pub height: Sp<i64>,
}

/// A player.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    /// The player's name, usable in conditions as a colour (`White`).
    pub id: Sp<String>,
    /// The direction the player's pieces move forward in.
    pub facing: Sp<Facing>,
}

/// Board directions a player may face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum Facing {
    /// Toward the last rank.
    North,
    /// Toward the first rank.
    South,
    /// Toward the last file.
    East,
    /// Toward the first file.
    West,
}

/// FIDE piece roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum RoleSpec {
    /// The FIDE pawn.
    Pawn,
    /// The FIDE knight.
    Knight,
    /// The FIDE bishop.
    Bishop,
    /// The FIDE rook.
    Rook,
    /// The FIDE queen.
    Queen,
    /// The FIDE king.
    King,
}

/// A piece type.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    /// Canonical id (`Knight`), used in conditions, actions and promotion.
    pub id: Sp<String>,
    /// The letter in FEN and SAN (`N`); written upper case for the first
    /// player and lower case for the second.
    pub symbol: Sp<String>,
    /// Declares that this piece is the FIDE piece of that name, for rules
    /// the FIDE Laws state by piece name (dead position by insufficient
    /// material).
    #[serde(default)]
    pub role: Option<Sp<RoleSpec>>,
    /// Named properties with their default values. `has_moved` is kept by
    /// the engine; others are read and set by conditions and mutations.
    #[serde(default)]
    pub properties: Option<Sp<BTreeMap<String, Sp<PropValue>>>>,
    /// The ways the piece moves.
    #[serde(default)]
    pub movement: Vec<Sp<MovementSpec>>,
    /// Reactions to events (promotion).
    #[serde(default)]
    pub triggers: Vec<Sp<TriggerSpec>>,
    /// Moves that involve other pieces too (castling).
    #[serde(default)]
    pub actions: Vec<Sp<ActionSpec>>,
}

/// A property's default value: true/false, a whole number (0 to 255), a
/// number with its range, a piece id or a player id.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum PropValue {
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A name.
    Text(String),
    /// A number with its range, `{ default: 0, min: 0, max: 3 }`: a
    /// smaller range takes fewer of the 8 bits a piece keeps.
    Range(PropRange),
}

/// A number property with its range.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PropRange {
    /// The value of a piece that has not changed it.
    pub default: i64,
    /// The smallest value (default 0).
    #[serde(default)]
    pub min: Option<i64>,
    /// The largest value; at most 256 values in all.
    pub max: i64,
}

/// Movement types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum MoveType {
    /// Exactly `range` squares along each direction (default 1).
    Step,
    /// 1 to `range` squares (default Unlimited), stopping at the first
    /// occupied square.
    Slide,
    /// A jump by each vector, over whatever stands between.
    Leap,
    /// A shape that only captures (a pawn's diagonal).
    Capture,
    /// En passant: captures the enemy piece that has just passed over the
    /// destination square.
    EnPassant,
}

/// How a literal vector is expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum SymmetrySpec {
    /// The vector as written.
    None,
    /// Every rotation and reflection.
    Full,
    /// The vector and its mirror image left/right.
    LeftRight,
    /// The vector and its mirror image forward/backward.
    ForwardBackward,
}

/// One way a piece travels.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementSpec {
    /// The shape.
    #[serde(rename = "type")]
    pub kind: Sp<MoveType>,
    /// A named direction, a literal `[x, y]` vector, or a list of these.
    pub direction: Sp<DirectionSpec>,
    /// Expansion of literal vectors (default None).
    #[serde(default)]
    pub symmetry: Option<Sp<SymmetrySpec>>,
    /// Squares per move: a number or `Unlimited`.
    #[serde(default)]
    pub range: Option<Sp<RangeSpec>>,
    /// When the shape may be used, in the condition language.
    #[serde(default)]
    pub condition: Option<Sp<String>>,
    /// What else happens when this shape is taken.
    #[serde(default)]
    pub mutations: Vec<Sp<String>>,
    /// What the shape does at the edge of the board (default Stop).
    #[serde(default)]
    pub edge: Option<Sp<EdgeSpec>>,
    /// Only the pieces of this player (a player id) have the shape
    /// (default: every player's).
    #[serde(default)]
    pub only: Option<Sp<String>>,
}

/// Board topology of one shape: what a move does at the edge of the board
/// (`docs/board-topology.md`).
// Read by hand (`EdgeVisitor`) so that a wrong `edge` is reported in the
// words of the game format rather than serde's (`externally tagged enum`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum EdgeSpec {
    /// The edge ends the move (standard chess).
    Stop,
    /// The first and last files are adjacent: leaps and ride steps that
    /// leave the board sideways come back on the other side, same rank; a
    /// ride stops before returning to its start.
    WrapFiles,
    /// A ride that has covered at least one square and reaches the edge
    /// unobstructed continues once from the opposite edge.
    Warp,
    /// A ride reflects on the edge square.
    Bounce {
        /// The most reflections per ray (1 to 15; a corner counts two).
        max: i64,
        /// Whether the first and last ranks reflect too (default false:
        /// only the side edges).
        #[serde(default)]
        ends: bool,
    },
}

/// What `edge` may be, in the words of the game format (every edge error
/// says it).
const EDGE_FORMS: &str =
    "a board topology (Stop, WrapFiles, Warp or `Bounce: { max: N, ends: true/false }`)";

/// The names an `edge` may have.
const EDGE_NAMES: &[&str] = &["Stop", "WrapFiles", "Warp", "Bounce"];

/// The settings of `Bounce`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BounceArgs {
    max: i64,
    #[serde(default)]
    ends: bool,
}

/// Reads an `edge`: a name (`WrapFiles`) or the one-key mapping
/// `Bounce: { max: N, ends: B }`. Errors are serde's `invalid_type` and
/// `invalid_value` (so they keep their codes) with game-format words.
struct EdgeVisitor;

/// An edge written as something other than a name or a mapping.
fn edge_type<E: de::Error>(found: &str) -> E {
    E::invalid_type(de::Unexpected::Other(found), &EDGE_FORMS)
}

impl<'de> Visitor<'de> for EdgeVisitor {
    type Value = EdgeSpec;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(EDGE_FORMS)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<EdgeSpec, E> {
        match v {
            "Stop" => Ok(EdgeSpec::Stop),
            "WrapFiles" => Ok(EdgeSpec::WrapFiles),
            "Warp" => Ok(EdgeSpec::Warp),
            "Bounce" => Err(E::invalid_value(
                de::Unexpected::Other("`Bounce` without its settings"),
                &"`Bounce: { max: N }` (N from 1 to 15; with `ends: true` the first and last ranks reflect too)",
            )),
            other => Err(E::unknown_variant(other, EDGE_NAMES)),
        }
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<EdgeSpec, A::Error> {
        let Some(key) = map.next_key::<String>()? else {
            return Err(de::Error::invalid_value(
                de::Unexpected::Other("an empty mapping"),
                &EDGE_FORMS,
            ));
        };
        let edge = match key.as_str() {
            "Bounce" => {
                let b: BounceArgs = map.next_value()?;
                EdgeSpec::Bounce {
                    max: b.max,
                    ends: b.ends,
                }
            }
            "Stop" | "WrapFiles" | "Warp" => {
                let alone = format!("`edge: {key}` alone (it takes no settings)");
                let found = format!("`{key}` with settings");
                return Err(de::Error::invalid_value(
                    de::Unexpected::Other(&found),
                    &alone.as_str(),
                ));
            }
            other => return Err(de::Error::unknown_variant(other, EDGE_NAMES)),
        };
        if map.next_key::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_value(
                de::Unexpected::Other("a mapping with more than one key"),
                &EDGE_FORMS,
            ));
        }
        Ok(edge)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<EdgeSpec, A::Error> {
        Err(edge_type("a list"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<EdgeSpec, E> {
        Err(edge_type("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<EdgeSpec, E> {
        Err(edge_type("a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<EdgeSpec, E> {
        Err(edge_type("a number"))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<EdgeSpec, E> {
        Err(edge_type("true or false"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<EdgeSpec, E> {
        Err(edge_type("nothing"))
    }
}

impl<'de> Deserialize<'de> for EdgeSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(EdgeVisitor)
    }
}

/// A direction field: one item or a list.
#[derive(Clone, Debug)]
pub enum DirectionSpec {
    /// A single named direction.
    Name(String),
    /// A sequence: either a vector `[x, y]` (all numbers) or a list of
    /// names and vectors.
    Seq(Vec<Sp<DirItem>>),
}

/// An item of a direction sequence.
#[derive(Clone, Debug)]
pub enum DirItem {
    /// A number (part of a literal vector).
    Int(i64),
    /// A named direction.
    Name(String),
    /// A literal vector inside a list.
    Vector(Vec<i64>),
}

struct DirVisitor;

impl<'de> Visitor<'de> for DirVisitor {
    type Value = DirectionSpec;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a direction name, an [x, y] vector, or a list of them")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(DirectionSpec::Name(v.to_string()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Sp<DirItem>>()? {
            if items.len() >= 64 {
                return Err(de::Error::custom(
                    "a direction list may hold at most 64 items",
                ));
            }
            items.push(item);
        }
        Ok(DirectionSpec::Seq(items))
    }
}

impl<'de> Deserialize<'de> for DirectionSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DirVisitor)
    }
}

struct DirItemVisitor;

impl<'de> Visitor<'de> for DirItemVisitor {
    type Value = DirItem;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a direction name, a number, or an [x, y] vector")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(DirItem::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        // Beyond i64: refused (and reported as too large) rather than read
        // as i64::MAX, which the message would then show.
        i64::try_from(v)
            .map(DirItem::Int)
            .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(DirItem::Name(v.to_string()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut v = Vec::new();
        while let Some(n) = seq.next_element::<i64>()? {
            if v.len() >= 8 {
                return Err(de::Error::custom("a vector has two numbers, [x, y]"));
            }
            v.push(n);
        }
        Ok(DirItem::Vector(v))
    }
}

impl<'de> Deserialize<'de> for DirItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DirItemVisitor)
    }
}

const DIRECTION_NAMES: [&str; 8] = [
    "Orthogonal",
    "Diagonal",
    "Omnidirectional",
    "Forward",
    "Backward",
    "Sideways",
    "ForwardDiagonal",
    "BackwardDiagonal",
];

impl JsonSchema for DirectionSpec {
    fn schema_name() -> Cow<'static, str> {
        "Direction".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A named direction, a literal [x, y] vector, or a list of names and vectors.",
            "oneOf": [
                { "$ref": "#/$defs/DirectionName" },
                { "$ref": "#/$defs/Vector" },
                { "type": "array", "items": { "oneOf": [ { "$ref": "#/$defs/DirectionName" }, { "$ref": "#/$defs/Vector" } ] } }
            ]
        })
    }
    fn inline_schema() -> bool {
        false
    }
}

/// The names of the direction masks.
pub fn direction_names() -> &'static [&'static str] {
    &DIRECTION_NAMES
}

/// A range: a number of squares or `Unlimited`.
#[derive(Clone, Debug)]
pub enum RangeSpec {
    /// A number.
    Num(i64),
    /// A word (only `Unlimited` is valid).
    Word(String),
}

struct RangeVisitor;

impl Visitor<'_> for RangeVisitor {
    type Value = RangeSpec;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a number of squares or Unlimited")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(RangeSpec::Num(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        // As for directions: beyond i64 is too large, not i64::MAX.
        i64::try_from(v)
            .map(RangeSpec::Num)
            .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(RangeSpec::Word(v.to_string()))
    }
}

impl<'de> Deserialize<'de> for RangeSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RangeVisitor)
    }
}

impl JsonSchema for RangeSpec {
    fn schema_name() -> Cow<'static, str> {
        "Range".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Squares per move: a positive number, or Unlimited.",
            "oneOf": [ { "type": "integer", "minimum": 1, "maximum": 15 }, { "const": "Unlimited" } ]
        })
    }
}

/// A reaction to an event.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TriggerSpec {
    /// The event (`AfterMove`).
    pub event: Sp<String>,
    /// When the trigger fires.
    #[serde(default)]
    pub condition: Option<Sp<String>>,
    /// What it does, as a call: `Promote(Queen, Rook, Bishop, Knight)`.
    pub action: Sp<String>,
    /// For `Promote`: the player may also decline and keep the piece.
    #[serde(default)]
    pub optional: Option<Sp<bool>>,
    /// For `Promote`: only to a piece type of which the owner has fewer on
    /// the board than the setup gives it (one that has been captured).
    #[serde(default)]
    pub only_captured: Option<Sp<bool>>,
}

/// An entity-owned action (castling).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionSpec {
    /// The action's id (`Castle`).
    pub id: Sp<String>,
    /// When the piece may take the action.
    #[serde(default)]
    pub condition: Option<Sp<String>>,
    /// The other pieces the action involves.
    #[serde(default)]
    pub targets: Vec<Sp<TargetSpec>>,
    /// What happens, in imperative form (`move self 2 steps toward target`).
    #[serde(default)]
    pub mutations: Vec<Sp<String>>,
}

/// Another piece an action involves.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    /// The piece type's id.
    pub entity: Sp<String>,
    /// When that piece may be chosen (`target.*` is the piece).
    #[serde(default)]
    pub condition: Option<Sp<String>>,
}

/// Outcomes for the side concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum Outcome {
    /// A draw.
    Draw,
    /// The side wins.
    Win,
    /// The side loses.
    Loss,
}

/// End conditions.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndSpec {
    /// Whether checkmating a royal piece wins (default true; needs a royal
    /// piece type).
    #[serde(default)]
    pub checkmate: Option<Sp<bool>>,
    /// The outcome for the side to move when it has no legal move and is
    /// not in check (default Draw).
    #[serde(default)]
    pub stalemate: Option<Sp<Outcome>>,
    /// FIDE dead positions by insufficient material end the game as a draw
    /// (default true; applies to pieces with a `role`).
    #[serde(default)]
    pub insufficient_material: Option<Sp<bool>>,
    /// Half-moves without capture or pawn-like move: `claim` (100) and
    /// `auto` (150). Omitted fields are off.
    #[serde(default)]
    pub move_rule: Option<Sp<CountRule>>,
    /// Occurrences of one position: `claim` (3) and `auto` (5). Omitted
    /// fields are off.
    #[serde(default)]
    pub repetition: Option<Sp<CountRule>>,
    /// Checks that win (three-check: 3): a side that has given this many
    /// checks wins at once. Left out: no such rule.
    #[serde(default)]
    pub checks: Option<Sp<i64>>,
    /// The outcome for a side left with no pieces (horde: Loss): the game
    /// is over at once; the side to move is judged first, and an empty
    /// board is a draw. Left out: no such rule.
    #[serde(default)]
    pub no_pieces: Option<Sp<Outcome>>,
}

/// A count at which a draw may be claimed, and one at which the game ends.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountRule {
    /// A player may claim a draw from this count on.
    #[serde(default)]
    pub claim: Option<Sp<i64>>,
    /// The game is drawn automatically at this count.
    #[serde(default)]
    pub auto: Option<Sp<i64>>,
}

/// Definitions shared by the hand-written schemas above.
pub(crate) fn extra_defs() -> serde_json::Value {
    serde_json::json!({
        "DirectionName": {
            "description": "A named direction mask. Orthogonal, Diagonal and Omnidirectional are board-relative; the others are relative to the owner's facing.",
            "enum": DIRECTION_NAMES
        },
        "Vector": {
            "description": "A literal [x, y] vector: x toward the last file, y forward for the owner.",
            "type": "array",
            "items": { "type": "integer", "minimum": -15, "maximum": 15 },
            "minItems": 2,
            "maxItems": 2
        }
    })
}
