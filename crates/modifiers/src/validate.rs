//! The descriptor validator: JSON text in, a typed [`Descriptor`] or a list
//! of [`Finding`]s (stable code, JSON path, message) out.
//!
//! The text is parsed into a [`serde_json::Value`] and checked structurally,
//! so every unknown field, kind or parameter is reported with its path
//! instead of being ignored. The checks follow modifier-dsl-decisions.md,
//! presets-and-triggers.md § Trigger Primitives and modifier-rulings.md;
//! docs/modifiers.md has the table of codes.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::descriptor::{Descriptor, MarkerKind, PrimitiveKind, TriggerKind, FORMAT_VERSION};

/// Maximum nesting of container primitives below a top-level trigger.
pub const MAX_NESTING_DEPTH: usize = 3;
/// Maximum number of nodes (primitives and triggers) per descriptor.
pub const MAX_PRIMITIVES: usize = 50;
/// Maximum number of choice primitives along one path.
pub const MAX_CHOICE_DEPTH: usize = 8;

/// The stable finding codes.
pub mod codes {
    /// The text is not valid JSON.
    pub const JSON_SYNTAX: &str = "descriptor.json.syntax";
    /// A value has the wrong JSON type (or the root is not an object).
    pub const FIELD_TYPE: &str = "descriptor.field.type";
    /// A field that the format does not define.
    pub const FIELD_UNKNOWN: &str = "descriptor.field.unknown";
    /// A required field is missing.
    pub const FIELD_MISSING: &str = "descriptor.field.missing";
    /// `version` is not 1.
    pub const VERSION_UNSUPPORTED: &str = "descriptor.version.unsupported";
    /// The descriptor id is malformed.
    pub const ID_INVALID: &str = "descriptor.id.invalid";
    /// Two declared parameters share a name.
    pub const PARAMETER_DUPLICATE: &str = "descriptor.parameters.duplicate";
    /// A declared parameter is malformed (bad name, type or default).
    pub const PARAMETER_INVALID: &str = "descriptor.parameters.invalid";
    /// Unknown trigger kind.
    pub const TRIGGER_UNKNOWN_KIND: &str = "descriptor.triggers.unknown-kind";
    /// Unknown primitive kind.
    pub const PRIMITIVE_UNKNOWN_KIND: &str = "descriptor.primitives.unknown-kind";
    /// An imperative (state, imperative or iteration) primitive in the passive part.
    pub const IMPERATIVE_IN_PASSIVE: &str = "descriptor.primitives.imperative-in-passive";
    /// A passive-only primitive inside trigger effects.
    pub const PASSIVE_IN_TRIGGER: &str = "descriptor.primitives.passive-in-trigger";
    /// A primitive outside the trigger it is restricted to.
    pub const WRONG_TRIGGER: &str = "descriptor.primitives.wrong-trigger";
    /// A choice inside `with-probability` or `random-pick`.
    pub const CHOICE_IN_DRAW: &str = "descriptor.primitives.choice-in-draw";
    /// A choice inside `for-each`.
    pub const CHOICE_IN_ITERATION: &str = "descriptor.primitives.choice-in-iteration";
    /// An unknown parameter of a trigger or primitive.
    pub const PARAM_UNKNOWN: &str = "descriptor.params.unknown";
    /// A required parameter is missing.
    pub const PARAM_MISSING: &str = "descriptor.params.missing";
    /// A parameter value is malformed.
    pub const PARAM_INVALID: &str = "descriptor.params.invalid";
    /// Container nesting deeper than 3.
    pub const NESTING_DEPTH_EXCEEDED: &str = "descriptor.nesting-depth-exceeded";
    /// More than 8 choices along one path.
    pub const CHOICE_DEPTH_EXCEEDED: &str = "descriptor.choice-depth-exceeded";
    /// More than 50 nodes.
    pub const PRIMITIVE_COUNT_EXCEEDED: &str = "descriptor.primitive-count-exceeded";
    /// A square that no board has (a name is a file `a`–`p` and a rank
    /// `1`–`16` on a board of at most 128 squares; an index is 0–127).
    pub const SQUARE_INVALID: &str = "descriptor.square.invalid";
    /// A square, file or rank that the game's board does not have (the
    /// descriptor is valid on some board; modifier-rulings E3, issue 12).
    pub const BOARD_SIZE: &str = "descriptor.board-size";
    /// A piece type that the game does not have (the descriptor is valid
    /// for some game: a piece type is any game's piece name in lower case;
    /// checked against the game when the descriptor is attached, issue 12).
    pub const PIECE_TYPE: &str = "descriptor.piece-type";
    /// A malformed piece, square, marker, move or source filter.
    pub const FILTER_INVALID: &str = "descriptor.filter.invalid";
    /// A marker kind outside the fixed list.
    pub const MARKER_UNKNOWN_KIND: &str = "descriptor.marker.unknown-kind";
    /// A malformed marker lifetime or draft duration.
    pub const LIFETIME_INVALID: &str = "descriptor.lifetime.invalid";
    /// A probability outside [0, 1].
    pub const PROBABILITY_OUT_OF_RANGE: &str = "descriptor.probability.out-of-range";
    /// A malformed expression.
    pub const EXPRESSION_INVALID: &str = "descriptor.expression.invalid";
    /// A malformed `$…` reference.
    pub const REFERENCE_INVALID: &str = "descriptor.reference.invalid";
    /// A `$bind`, `$var` or `$param` used but never set or declared.
    pub const UNBOUND: &str = "descriptor.bindings.unbound";
    /// A `bind` name defined twice in one trigger.
    pub const BINDING_DUPLICATE: &str = "descriptor.bindings.duplicate";
    /// A reference where only a written value is read (a structural
    /// parameter such as `lifetime`, `order` or a filter's booleans).
    pub const REFERENCE_NOT_ALLOWED: &str = "descriptor.reference.not-allowed";

    /// Every code, for documentation and tests.
    pub const ALL: &[&str] = &[
        JSON_SYNTAX,
        FIELD_TYPE,
        FIELD_UNKNOWN,
        FIELD_MISSING,
        VERSION_UNSUPPORTED,
        ID_INVALID,
        PARAMETER_DUPLICATE,
        PARAMETER_INVALID,
        TRIGGER_UNKNOWN_KIND,
        PRIMITIVE_UNKNOWN_KIND,
        IMPERATIVE_IN_PASSIVE,
        PASSIVE_IN_TRIGGER,
        WRONG_TRIGGER,
        CHOICE_IN_DRAW,
        CHOICE_IN_ITERATION,
        PARAM_UNKNOWN,
        PARAM_MISSING,
        PARAM_INVALID,
        NESTING_DEPTH_EXCEEDED,
        CHOICE_DEPTH_EXCEEDED,
        PRIMITIVE_COUNT_EXCEEDED,
        SQUARE_INVALID,
        BOARD_SIZE,
        PIECE_TYPE,
        FILTER_INVALID,
        MARKER_UNKNOWN_KIND,
        LIFETIME_INVALID,
        PROBABILITY_OUT_OF_RANGE,
        EXPRESSION_INVALID,
        REFERENCE_INVALID,
        UNBOUND,
        BINDING_DUPLICATE,
        REFERENCE_NOT_ALLOWED,
    ];
}

use codes::*;

/// One problem found in a descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The stable code (see [`codes`]).
    pub code: &'static str,
    /// The JSON path of the offending value, e.g. `$.triggers[2].effects[0].kind`.
    pub path: String,
    /// A human-readable explanation.
    pub message: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {}: {}", self.code, self.path, self.message)
    }
}

/// Validates descriptor JSON text.
pub fn validate(json_text: &str) -> Result<Descriptor, Vec<Finding>> {
    // A byte order mark is skipped and duplicate keys are refused
    // (nothing in a descriptor is ignored).
    let v = strict_json(json_text).map_err(|e| {
        vec![Finding {
            code: JSON_SYNTAX,
            path: "$".into(),
            // serde_json's message ends with "at line L column C".
            message: e.to_string(),
        }]
    })?;
    validate_value(&v)
}

/// Reads JSON text strictly, as every JSON input of the runtime is read
/// (descriptors, creation requests, input lines): a leading byte order mark
/// is skipped, and an object with a repeated key is refused rather than
/// letting the last value win silently.
///
/// # Errors
/// serde_json's error, whose message ends with "at line L column C".
pub fn strict_json(text: &str) -> Result<Value, serde_json::Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str::<NoDuplicateKeys>(text)?;
    serde_json::from_str::<Value>(text)
}

/// Walks JSON text and fails on the first object with a repeated key.
struct NoDuplicateKeys;

impl<'de> serde::Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NoDuplicateKeys)
    }
}

impl<'de> serde::de::Visitor<'de> for NoDuplicateKeys {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_unit<E>(self) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(self)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        let mut seen = BTreeSet::new();
        while let Some(k) = map.next_key::<String>()? {
            if !seen.insert(k.clone()) {
                return Err(serde::de::Error::custom(format!("duplicate key `{k}`")));
            }
            map.next_value::<NoDuplicateKeys>()?;
        }
        Ok(self)
    }
}

/// The squares, files and ranks a descriptor names that the board `g`
/// does not have ([`codes::BOARD_SIZE`] findings, each naming the value,
/// the board's size and the JSON path), its parameters' defaults
/// included. Empty when the descriptor fits.
/// The descriptor is taken as valid on some board ([`validate_value`]);
/// other findings are left to that check.
pub fn board_findings(v: &Value, g: crate::runtime::Geom) -> Vec<Finding> {
    let mut c = Checker {
        board: Some(g),
        ..Checker::default()
    };
    c.descriptor(v);
    c.out.retain(|f| f.code == BOARD_SIZE);
    c.out
}

/// What a game is, for [`attach_findings`]: its board and the names of its
/// piece types (lower case, as piece filters and the session's output name
/// them: `pawn` … `king` for pieces with a FIDE role, else the piece id,
/// `archbishop`, `bede`).
#[derive(Debug, Clone)]
pub struct GameFacts {
    /// The board.
    pub board: crate::runtime::Geom,
    /// The piece type names.
    pub types: Vec<String>,
}

/// The findings of attaching a descriptor that is valid on some board
/// ([`validate_value`]) to a game with parameter values `values` (the
/// declared defaults where a name is missing), modifier-rulings E3: a
/// square, file or rank the board lacks ([`codes::BOARD_SIZE`]), a piece
/// type the game lacks ([`codes::PIECE_TYPE`]), and a `$param` count,
/// distance or marker lifetime that is not a whole number in its range
/// ([`codes::PARAM_INVALID`]). The values are those of the parameters, so a
/// default the request replaces is not judged.
pub fn attach_findings(
    v: &Value,
    game: &GameFacts,
    values: &BTreeMap<String, Value>,
) -> Vec<Finding> {
    let mut c = Checker {
        board: Some(game.board),
        types: Some(game.types.clone()),
        values: Some(values.clone()),
        ..Checker::default()
    };
    c.descriptor(v);
    c.out
}

/// Validates an already parsed descriptor.
pub fn validate_value(v: &Value) -> Result<Descriptor, Vec<Finding>> {
    let mut c = Checker::default();
    c.descriptor(v);
    if !c.out.is_empty() {
        return Err(c.out);
    }
    serde_json::from_value::<Descriptor>(v.clone()).map_err(|e| {
        vec![Finding {
            code: FIELD_TYPE,
            path: "$".into(),
            message: e.to_string(),
        }]
    })
}

// ---------------------------------------------------------------------------

/// The largest `count` of `flip-coin` and `random-pick`: the squares of
/// the largest board the engine holds (128), so a pick can take every
/// square of any board.
pub const MAX_COUNT: u64 = 128;

const TOP_KEYS: &[&str] = &[
    "version",
    "id",
    "name",
    "description",
    "parameters",
    "passive",
    "triggers",
    "draft",
    "board",
];
/// The FIDE piece types, named in hints.
const PIECE_TYPES: &[&str] = &["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The largest `plies` of a marker lifetime `{"kind": "moves"}`.
pub const MAX_MARKER_PLIES: u64 = 10_000;

/// Whether `s` can name a piece type of some game: a game's piece id in
/// lower case (letters, digits and `_`, not starting with a digit; at most
/// 64), as the session's output writes it (`pawn` … `king` for pieces with
/// a FIDE role, else the id: `archbishop`, `chancellor`, `bede`). Without
/// a game any such name is accepted; attaching checks the game's own
/// types ([`attach_findings`], [`codes::PIECE_TYPE`]).
pub fn is_piece_type_name(s: &str) -> bool {
    is_ident(s) && !s.chars().any(|c| c.is_ascii_uppercase())
}
const PLAYERS: &[&str] = &[
    "white", "black", "chooser", "opponent", "turn", "mover", "both",
];
const PARAM_TYPES: &[&str] = &[
    "integer",
    "number",
    "boolean",
    "string",
    "square",
    "file",
    "piece-type",
    "color",
    "marker-kind",
];

fn key(path: &str, k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!("{path}.{k}")
    } else {
        format!("{path}[{}]", Value::String(k.to_string()))
    }
}

fn idx(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest candidate, if it is close enough to be a likely typo.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(2);
    let w = word.to_lowercase();
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    let close = candidates
        .iter()
        .map(|c| (levenshtein(&w, &c.to_lowercase()), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c);
    // Otherwise a candidate that the word contains, or that contains the
    // word ("landmine" → "mine"), the longest first.
    close.or_else(|| {
        candidates
            .iter()
            .filter(|c| c.len() >= 3 && w.len() >= 3)
            .filter(|c| w.contains(&c.to_lowercase()) || c.to_lowercase().contains(&w))
            .max_by_key(|c| (c.len(), std::cmp::Reverse(**c)))
            .copied()
    })
}

fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    match suggest(word, candidates) {
        Some(s) => format!("; did you mean `{s}`?"),
        None => String::new(),
    }
}

fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s.len() <= 64
}

/// A square name some board has (`e4`, `j10`, `p8`; files `a`–`p`, ranks
/// `1`–`16`, at most 128 squares): the game's board is checked when the
/// descriptor is attached ([`board_findings`]).
fn is_square_name(s: &str) -> bool {
    crate::runtime::Geom::name_on_some_board(s)
}

/// A file letter some board has (`a`–`p`).
fn is_file_name(s: &str) -> bool {
    s.len() == 1 && ("a"..="p").contains(&s)
}

/// A rank number some board has (`1`–`16`, no leading zero or sign).
fn is_rank_name(s: &str) -> bool {
    !s.starts_with(['0', '+']) && s.parse::<u8>().is_ok_and(|n| (1..=16).contains(&n))
}

fn is_ref(v: &Value) -> bool {
    matches!(v, Value::String(s) if s.starts_with('$'))
}

/// The JSON type name of a value, for messages ("a string", "an array").
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// What a parameter holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum P {
    Then,
    Draw,
    Iter,
    Expr,
    Attr,
    VarName,
    BindDef,
    Num,
    Int,
    PosInt,
    Bool,
    Prob,
    Square,
    File,
    Pieces,
    Markers,
    PieceFilter,
    SquareFilter,
    CaptureFilter,
    ChoiceFilter,
    Player,
    ForPlayer,
    MarkerKind,
    /// A trigger's `kind` (read when the trigger is matched, as written).
    TriggerMarkerKind,
    MarkerSpec,
    Lifetime,
    PieceType,
    PieceTypes,
    ChoiceKind,
    Source,
    Order,
    Direction,
    Distance,
    OnOccupied,
    IntoRoyal,
    IfBlocked,
    StepIfBlocked,
    Against,
    Shapes,
    Target,
    Links,
    Scope,
    Cause,
    Radius,
    Progress,
    Adjacent,
    RelRank,
    Rank,
    Exclude,
}

type Spec = &'static [(&'static str, P, bool)];

const MOVE_FILTER: Spec = &[
    ("side", P::Player, false),
    ("piece", P::PieceFilter, false),
    ("from", P::SquareFilter, false),
    ("to", P::SquareFilter, false),
    ("capture", P::Bool, false),
    ("target", P::PieceFilter, false),
    ("castling", P::Bool, false),
    ("progress", P::Progress, false),
    ("crossesFile", P::File, false),
    ("when", P::Expr, false),
    ("added", P::Bool, false),
    ("givesCheck", P::Bool, false),
];
const PIECE_FILTER: Spec = &[
    ("color", P::Player, false),
    ("type", P::PieceTypes, false),
    ("notType", P::PieceTypes, false),
    ("royal", P::Bool, false),
    ("on", P::SquareFilter, false),
    ("onMarker", P::MarkerSpec, false),
    ("adjacentTo", P::Adjacent, false),
    ("sameFileAs", P::Pieces, false),
    ("exclude", P::Exclude, false),
    ("where", P::Expr, false),
];
const SQUARE_FILTER: Spec = &[
    ("kind", P::Attr, false),
    ("squares", P::Square, false),
    ("file", P::File, false),
    ("rank", P::Rank, false),
    ("relRank", P::RelRank, false),
    ("empty", P::Bool, false),
    ("hardBlocked", P::Bool, false),
    ("hasMarker", P::MarkerSpec, false),
    ("adjacentTo", P::Adjacent, false),
    ("exclude", P::Exclude, false),
    ("where", P::Expr, false),
];
const MARKER_FILTER: Spec = &[
    ("kind", P::MarkerKind, false),
    ("own", P::Bool, false),
    ("at", P::SquareFilter, false),
    ("where", P::Expr, false),
];
const CAPTURE_FILTER: Spec = &[
    ("enPassant", P::Bool, false),
    ("attacker", P::PieceFilter, false),
    ("defender", P::PieceFilter, false),
];

fn primitive_spec(k: PrimitiveKind) -> Spec {
    use PrimitiveKind as K;
    match k {
        K::SeedAttribute | K::SetPieceAttr => &[
            ("target", P::Target, false),
            ("attr", P::Attr, true),
            ("value", P::Expr, true),
        ],
        K::AddToAttribute => &[
            ("target", P::Target, false),
            ("attr", P::Attr, true),
            ("delta", P::Num, true),
        ],
        K::SetCaptureFlag => &[("target", P::Target, false), ("flag", P::Int, true)],
        K::SetVar => &[
            ("name", P::VarName, true),
            ("value", P::Expr, true),
            ("scope", P::Scope, false),
        ],
        K::AddToVar => &[
            ("name", P::VarName, true),
            ("delta", P::Num, true),
            ("scope", P::Scope, false),
        ],
        K::AddAura => &[
            ("radius", P::Radius, true),
            ("targetAttr", P::Attr, true),
            ("delta", P::Num, true),
            ("filter", P::PieceFilter, false),
            ("source", P::Pieces, false),
        ],
        K::AddMoves | K::ReplaceMoves => {
            &[("pieces", P::Pieces, true), ("shapes", P::Shapes, true)]
        }
        K::SetBoardTopology => &[("wrapFiles", P::Bool, true)],
        K::SpawnMarker => &[
            ("kind", P::MarkerKind, true),
            ("at", P::Square, true),
            ("lifetime", P::Lifetime, true),
            ("owner", P::Player, false),
            ("links", P::Links, false),
        ],
        K::RemoveMarker => &[("markers", P::Markers, true)],
        K::MoveMarker => &[("markers", P::Markers, true), ("to", P::Square, true)],
        K::SpawnPiece => &[
            ("type", P::PieceType, true),
            ("color", P::Player, true),
            ("at", P::Square, true),
        ],
        K::Kill | K::RemovePiece | K::KeepFarthest => &[("pieces", P::Pieces, true)],
        K::SwapPieces => &[("a", P::Pieces, true), ("b", P::Pieces, true)],
        K::StepPiece => &[
            ("pieces", P::Pieces, true),
            ("order", P::Order, false),
            ("direction", P::Direction, true),
            ("distance", P::Distance, true),
            ("onOccupied", P::OnOccupied, false),
            ("intoRoyal", P::IntoRoyal, false),
            ("ifBlocked", P::StepIfBlocked, false),
            ("ignoreHardBlocks", P::Bool, false),
            ("enterMarkers", P::Bool, false),
        ],
        K::MovePiece => &[
            ("piece", P::Pieces, true),
            ("to", P::Square, true),
            ("ifBlocked", P::IfBlocked, false),
            ("enterMarkers", P::Bool, false),
        ],
        K::ConvertPiece => &[
            ("pieces", P::Pieces, true),
            ("type", P::PieceType, false),
            ("color", P::Player, false),
        ],
        K::CancelCapture | K::CancelKill | K::SkipTurn | K::DetachModifier => &[],
        K::RequestChoice => &[
            ("kind", P::ChoiceKind, true),
            ("forPlayer", P::ForPlayer, true),
            ("filter", P::ChoiceFilter, false),
            ("bind", P::BindDef, true),
            ("then", P::Then, false),
        ],
        K::FlipCoin => &[
            ("forPlayer", P::ForPlayer, true),
            ("count", P::PosInt, false),
            ("bind", P::BindDef, true),
            ("then", P::Then, false),
        ],
        K::ForEach => &[
            ("over", P::Source, true),
            ("order", P::Order, false),
            ("bind", P::BindDef, true),
            ("do", P::Iter, true),
        ],
        K::RandomPick => &[
            ("from", P::Source, true),
            ("count", P::PosInt, false),
            ("bind", P::BindDef, true),
            ("then", P::Draw, true),
            ("else", P::Draw, false),
        ],
        K::WithProbability => &[
            ("p", P::Prob, true),
            ("then", P::Draw, true),
            ("else", P::Draw, false),
        ],
        K::Conditional => &[
            ("if", P::Expr, true),
            ("then", P::Then, true),
            ("else", P::Then, false),
        ],
        K::ForbidMove | K::MustMoveIfAble => MOVE_FILTER,
        K::Protect => &[
            ("pieces", P::Pieces, true),
            ("against", P::Against, true),
            ("when", P::Expr, false),
        ],
    }
}

fn trigger_spec(k: TriggerKind) -> Spec {
    use TriggerKind as T;
    match k {
        // Triggers without a subject (modifier-rulings A8) take no `subject`.
        T::OnTurnStart | T::OnTurnEnd => {
            &[("color", P::Player, false), ("target", P::Target, false)]
        }
        T::OnRuleActivated | T::OnRuleExpire => &[("target", P::Target, false)],
        T::OnMovedOntoSquare => &[
            ("filter", P::SquareFilter, true),
            ("subject", P::PieceFilter, false),
            ("target", P::Target, false),
        ],
        T::Conditional => &[("if", P::Expr, true), ("target", P::Target, false)],
        T::OnPieceEnteredMarker => &[
            ("kind", P::TriggerMarkerKind, true),
            ("own", P::Bool, false),
            ("cause", P::Cause, false),
            ("subject", P::PieceFilter, false),
            ("target", P::Target, false),
        ],
        T::OnMarkerExpire => &[
            ("kind", P::TriggerMarkerKind, true),
            ("own", P::Bool, false),
            ("target", P::Target, false),
        ],
        T::OnCaptureAttempt => &[
            ("filter", P::CaptureFilter, false),
            ("subject", P::PieceFilter, false),
            ("target", P::Target, false),
        ],
        _ => &[
            ("subject", P::PieceFilter, false),
            ("target", P::Target, false),
        ],
    }
}

/// Where a node sits.
#[derive(Clone, Copy)]
struct Env {
    /// Inside a trigger's effects (even one whose kind is unknown).
    in_trigger: bool,
    /// The trigger's kind, when known.
    trigger: Option<TriggerKind>,
    depth: usize,
    choices: usize,
    in_draw: bool,
    in_iter: bool,
}

#[derive(Default)]
struct Checker {
    out: Vec<Finding>,
    nodes: usize,
    params: BTreeSet<String>,
    vars_set: BTreeSet<String>,
    var_uses: Vec<(String, String)>,
    /// How many `where` filters enclose the value being checked (`$it`).
    in_where: usize,
    /// The game's board, when checking a descriptor against one other
    /// than 8×8 ([`board_findings`]).
    board: Option<crate::runtime::Geom>,
    /// The game's piece type names, when checking against a game
    /// ([`attach_findings`]).
    types: Option<Vec<String>>,
    /// Parameter values given when attaching ([`attach_findings`]); the
    /// declared defaults stand for the others.
    values: Option<BTreeMap<String, Value>>,
    /// Each declared parameter's type and the value it has here (the given
    /// value, else its default), for `$param` references.
    param_values: BTreeMap<String, (String, Value)>,
}

impl Checker {
    /// The `board` field: `{width, height}` of a board the engine holds;
    /// checked against the game's board when there is one.
    fn board_size(&mut self, v: &Value, id: &str) {
        let dims = v.as_object().and_then(|o| {
            let n = |k: &str| o.get(k).and_then(Value::as_u64);
            let ok = o.keys().all(|k| k == "width" || k == "height");
            Some((n("width")?, n("height")?)).filter(|_| ok)
        });
        let Some((w, h)) = dims else {
            self.push(
                FIELD_TYPE,
                "$.board",
                "`board` is {\"width\": W, \"height\": H}: whole numbers of files and ranks",
            );
            return;
        };
        if !(1..=16).contains(&w) || !(1..=16).contains(&h) || w * h > 128 {
            self.push(
                BOARD_SIZE,
                "$.board",
                format!("{w}×{h} is not a board the engine holds (1 to 16 files and ranks, at most 128 squares)"),
            );
            return;
        }
        if let Some(g) = self.board {
            if (u64::from(g.w), u64::from(g.h)) != (w, h) {
                self.push(
                    BOARD_SIZE,
                    "$.board",
                    format!(
                        "`{}` is written for a {w}×{h} board (its `board` field: the squares it names mean that board's), not the game's {}×{} board",
                        crate::echo_input(id),
                        g.w,
                        g.h
                    ),
                );
            }
        }
    }

    /// A value the board `g` does not have.
    fn off_board(&mut self, g: crate::runtime::Geom, path: &str, what: String) {
        self.push(
            BOARD_SIZE,
            path,
            format!("{what} is not on the game's {}×{} board", g.w, g.h),
        );
    }

    fn push(&mut self, code: &'static str, path: impl Into<String>, message: impl Into<String>) {
        self.out.push(Finding {
            code,
            path: path.into(),
            message: message.into(),
        });
    }

    fn descriptor(&mut self, v: &Value) {
        let Some(obj) = v.as_object() else {
            self.push(
                FIELD_TYPE,
                "$",
                format!("a descriptor is a JSON object, not {}", type_name(v)),
            );
            return;
        };
        for k in obj.keys() {
            if !TOP_KEYS.contains(&k.as_str()) {
                let hint = did_you_mean(k, TOP_KEYS.iter().copied());
                self.push(
                    FIELD_UNKNOWN,
                    key("$", k),
                    format!("unknown field `{}`{hint}", crate::echo_input(k)),
                );
            }
        }
        match obj.get("version") {
            None => self.push(FIELD_MISSING, "$", "missing field `version`"),
            Some(x) if x.as_u64() == Some(FORMAT_VERSION) => {}
            Some(x) => self.push(
                VERSION_UNSUPPORTED,
                "$.version",
                format!("unsupported version {x}; this build reads version {FORMAT_VERSION}"),
            ),
        }
        match obj.get("id") {
            None => self.push(FIELD_MISSING, "$", "missing field `id`"),
            Some(Value::String(s)) => {
                let ok = !s.is_empty()
                    && s.len() <= 64
                    && s.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
                    && s.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-'
                    });
                if !ok {
                    self.push(ID_INVALID, "$.id", format!("`{s}` is not a valid id (lowercase letters, digits, `_` and `-`, at most 64)"));
                }
            }
            Some(x) => self.push(
                FIELD_TYPE,
                "$.id",
                format!("`id` must be a string, not {}", type_name(x)),
            ),
        }
        match obj.get("name") {
            None => self.push(FIELD_MISSING, "$", "missing field `name`"),
            Some(Value::String(s)) if !s.trim().is_empty() => {}
            Some(x) => self.push(
                FIELD_TYPE,
                "$.name",
                format!("`name` must be a non-empty string, not {}", type_name(x)),
            ),
        }
        if let Some(x) = obj.get("description") {
            if !x.is_string() {
                self.push(
                    FIELD_TYPE,
                    "$.description",
                    "`description` must be a string",
                );
            }
        }
        if let Some(x) = obj.get("parameters") {
            self.parameters(x);
        }
        if let Some(x) = obj.get("draft").filter(|x| !x.is_null()) {
            self.draft(x);
        }
        if let Some(x) = obj.get("board").filter(|x| !x.is_null()) {
            self.board_size(x, obj.get("id").and_then(Value::as_str).unwrap_or("?"));
        }
        if let Some(x) = obj.get("passive") {
            match x.as_array() {
                Some(items) => {
                    for (i, n) in items.iter().enumerate() {
                        let env = Env {
                            in_trigger: false,
                            trigger: None,
                            depth: 0,
                            choices: 0,
                            in_draw: false,
                            in_iter: false,
                        };
                        let mut bound = Vec::new();
                        self.node(n, &idx("$.passive", i), env, &mut bound);
                    }
                }
                None => self.push(
                    FIELD_TYPE,
                    "$.passive",
                    "`passive` must be an array of primitives",
                ),
            }
        }
        if let Some(x) = obj.get("triggers") {
            match x.as_array() {
                Some(items) => {
                    for (i, t) in items.iter().enumerate() {
                        self.trigger(t, &idx("$.triggers", i));
                    }
                }
                None => self.push(
                    FIELD_TYPE,
                    "$.triggers",
                    "`triggers` must be an array of triggers",
                ),
            }
        }
        let uses = std::mem::take(&mut self.var_uses);
        for (name, path) in uses {
            if !self.vars_set.contains(&name) {
                self.push(
                    UNBOUND,
                    path,
                    format!("`$var.{name}` is read but no `set-var` or `add-to-var` sets it"),
                );
            }
        }
        if self.nodes > MAX_PRIMITIVES {
            self.push(
                PRIMITIVE_COUNT_EXCEEDED,
                "$",
                format!(
                    "{} primitives and triggers; at most {MAX_PRIMITIVES} are allowed",
                    self.nodes
                ),
            );
        }
    }

    fn parameters(&mut self, v: &Value) {
        let Some(items) = v.as_array() else {
            self.push(FIELD_TYPE, "$.parameters", "`parameters` must be an array");
            return;
        };
        let mut seen = BTreeSet::new();
        for (i, p) in items.iter().enumerate() {
            let path = idx("$.parameters", i);
            let Some(o) = p.as_object() else {
                self.push(FIELD_TYPE, path, "a parameter is an object");
                continue;
            };
            for k in o.keys() {
                let keys = ["name", "type", "default", "description"];
                if !keys.contains(&k.as_str()) {
                    let hint = did_you_mean(k, keys);
                    self.push(
                        FIELD_UNKNOWN,
                        key(&path, k),
                        format!("unknown field `{}`{hint}", crate::echo_input(k)),
                    );
                }
            }
            let name = o.get("name").and_then(Value::as_str);
            match name {
                Some(n) if is_ident(n) => {
                    if !seen.insert(n.to_string()) {
                        self.push(
                            PARAMETER_DUPLICATE,
                            key(&path, "name"),
                            format!("parameter `{n}` is declared twice"),
                        );
                    }
                    self.params.insert(n.to_string());
                }
                Some(n) => self.push(
                    PARAMETER_INVALID,
                    key(&path, "name"),
                    format!("`{n}` is not a valid parameter name"),
                ),
                None => self.push(FIELD_MISSING, path.clone(), "missing field `name`"),
            }
            let ty = o.get("type").and_then(Value::as_str);
            match ty {
                Some(t) if PARAM_TYPES.contains(&t) => {}
                Some(t) => {
                    let hint = did_you_mean(t, PARAM_TYPES.iter().copied());
                    self.push(
                        PARAMETER_INVALID,
                        key(&path, "type"),
                        format!("unknown parameter type `{}`{hint}", crate::echo_input(t)),
                    );
                }
                None => self.push(
                    FIELD_MISSING,
                    path.clone(),
                    "missing field `type` (a string)",
                ),
            }
            if o.get("description").is_some_and(|d| !d.is_string()) {
                self.push(
                    FIELD_TYPE,
                    key(&path, "description"),
                    "`description` must be a string",
                );
            }
            match (ty, o.get("default")) {
                (_, None) => self.push(FIELD_MISSING, path.clone(), "missing field `default`"),
                (Some(t), Some(d)) if PARAM_TYPES.contains(&t) && !default_fits(t, d) => {
                    self.push(
                        PARAMETER_INVALID,
                        key(&path, "default"),
                        format!("default {d} is not a valid `{t}`"),
                    );
                }
                (Some(t), Some(d)) if PARAM_TYPES.contains(&t) => {
                    let Some(n) = name else { continue };
                    // The value the parameter has: the one given when
                    // attaching, else the default (modifier-rulings E3).
                    let given = self.values.as_ref().and_then(|v| v.get(n)).cloned();
                    let at = if given.is_some() {
                        path.clone()
                    } else {
                        key(&path, "default")
                    };
                    let value = given.unwrap_or_else(|| d.clone());
                    self.param_fits_game(n, t, &value, &at);
                    self.param_values
                        .insert(n.to_string(), (t.to_string(), value));
                }
                _ => {}
            }
        }
    }

    /// A parameter's value checked against the game's board and piece
    /// types, when there is a game ([`board_findings`],
    /// [`attach_findings`]).
    fn param_fits_game(&mut self, name: &str, ty: &str, v: &Value, path: &str) {
        let Some(s) = v.as_str() else { return };
        let what = |w: &str| format!("parameter `{name}` = {w} {s}");
        match (ty, self.board) {
            ("square", Some(g)) if g.parse(s).is_none() => self.off_board(g, path, what("square")),
            ("file", Some(g)) if g.parse_file(s).is_none() => self.off_board(g, path, what("file")),
            ("piece-type", _) => {
                self.piece_type_in_game(s, path, &format!("parameter `{name}` = "))
            }
            _ => {}
        }
    }

    /// A piece type name checked against the game's types, when there is
    /// a game ([`attach_findings`]). The six FIDE names are always
    /// accepted: a game without bishops (Los Alamos) simply has none, so a
    /// rule about bishops does nothing there, as before; any other name
    /// must be one of the game's.
    fn piece_type_in_game(&mut self, s: &str, path: &str, prefix: &str) {
        let Some(types) = &self.types else { return };
        if PIECE_TYPES.contains(&s) || types.iter().any(|t| t == s) {
            return;
        }
        let hint = did_you_mean(s, types.iter().map(String::as_str));
        let list = types.join(", ");
        self.push(
            PIECE_TYPE,
            path,
            format!(
                "{prefix}piece type `{}` is not one of the game's ({list}){hint}",
                crate::echo_input(s)
            ),
        );
    }

    /// A `$param.NAME` reference standing for a whole number from `lo` to
    /// `hi` (a count, a distance, a marker lifetime): the parameter's value
    /// ([`Checker::param_values`]) must be one. Other references are read
    /// at run time, clamped to the range (rulings A9).
    fn param_whole(&mut self, s: &str, path: &str, lo: u64, hi: u64, what: &str) {
        let Some(name) = s.strip_prefix("$param.") else {
            return;
        };
        let Some((_, v)) = self.param_values.get(name) else {
            return;
        };
        if v.as_u64().is_some_and(|n| (lo..=hi).contains(&n)) {
            return;
        }
        let too_large = v.as_u64().is_some_and(|n| n > hi);
        let msg = if too_large {
            format!("`{s}` = {v} is too large for {what} (at most {hi})")
        } else {
            format!("`{s}` = {v} is not {what}: a whole number from {lo} to {hi}")
        };
        self.push(PARAM_INVALID, path, msg);
    }

    fn draft(&mut self, v: &Value) {
        let Some(o) = v.as_object() else {
            self.push(FIELD_TYPE, "$.draft", "`draft` must be an object");
            return;
        };
        for k in o.keys() {
            if !["weight", "duration"].contains(&k.as_str()) {
                let hint = did_you_mean(k, ["weight", "duration"]);
                self.push(
                    FIELD_UNKNOWN,
                    key("$.draft", k),
                    format!("unknown field `{}`{hint}", crate::echo_input(k)),
                );
            }
        }
        match o.get("weight") {
            Some(w)
                if w.as_u64()
                    .is_some_and(|w| (1..=u64::from(u32::MAX)).contains(&w)) => {}
            Some(_) => self.push(
                PARAM_INVALID,
                "$.draft.weight",
                "`weight` must be an integer ≥ 1",
            ),
            None => self.push(FIELD_MISSING, "$.draft", "missing field `weight`"),
        }
        let small = |x: &Value| x.as_u64().filter(|n| (1..=u64::from(u32::MAX)).contains(n));
        let ok = match o.get("duration") {
            None => {
                self.push(FIELD_MISSING, "$.draft", "missing field `duration`");
                true
            }
            Some(Value::String(s)) => s == "instant" || s == "persistent",
            Some(Value::Array(a)) => {
                a.len() == 2 && matches!((small(&a[0]), small(&a[1])), (Some(x), Some(y)) if x <= y)
            }
            Some(x) => small(x).is_some(),
        };
        if !ok {
            self.push(
                LIFETIME_INVALID,
                "$.draft.duration",
                "`duration` is \"instant\", \"persistent\", a number of plies ≥ 1 or [min, max]",
            );
        }
    }

    fn trigger(&mut self, t: &Value, path: &str) {
        self.nodes += 1;
        let Some(o) = t.as_object() else {
            self.push(
                FIELD_TYPE,
                path,
                "a trigger is an object with `kind`, `params` and `effects`",
            );
            return;
        };
        for k in o.keys() {
            if !["kind", "params", "effects"].contains(&k.as_str()) {
                let hint = did_you_mean(k, ["kind", "params", "effects"]);
                self.push(
                    FIELD_UNKNOWN,
                    key(path, k),
                    format!("unknown field `{}`{hint}", crate::echo_input(k)),
                );
            }
        }
        let kind = match o.get("kind") {
            Some(Value::String(s)) => match TriggerKind::parse(s) {
                Some(k) => Some(k),
                None => {
                    let extra = if PrimitiveKind::parse(s).is_some() {
                        " (a primitive kind; primitives go inside a trigger's `effects`)"
                            .to_string()
                    } else {
                        did_you_mean(s, TriggerKind::ALL.iter().map(|k| k.as_str()))
                    };
                    self.push(
                        TRIGGER_UNKNOWN_KIND,
                        key(path, "kind"),
                        format!("unknown trigger kind `{}`{extra}", crate::echo_input(s)),
                    );
                    None
                }
            },
            Some(x) => {
                self.push(
                    FIELD_TYPE,
                    key(path, "kind"),
                    format!("`kind` must be a string, not {}", type_name(x)),
                );
                None
            }
            None => {
                self.push(FIELD_MISSING, path, "missing field `kind`");
                None
            }
        };
        let mut bound = Vec::new();
        let env = Env {
            in_trigger: true,
            trigger: kind,
            depth: 0,
            choices: 0,
            in_draw: false,
            in_iter: false,
        };
        if let Some(k) = kind {
            self.params(
                o.get("params"),
                path,
                trigger_spec(k),
                k.as_str(),
                env,
                &mut bound,
            );
        }
        match o.get("effects") {
            Some(Value::Array(items)) => {
                let ep = key(path, "effects");
                for (i, n) in items.iter().enumerate() {
                    self.node(n, &idx(&ep, i), env, &mut bound);
                }
            }
            Some(x) => self.push(
                FIELD_TYPE,
                key(path, "effects"),
                format!("`effects` must be an array, not {}", type_name(x)),
            ),
            None => self.push(FIELD_MISSING, path, "missing field `effects`"),
        }
    }

    fn node(&mut self, v: &Value, path: &str, env: Env, bound: &mut Vec<String>) {
        self.nodes += 1;
        let Some(o) = v.as_object() else {
            self.push(
                FIELD_TYPE,
                path,
                format!(
                    "a primitive is an object with `kind` and `params`, not {}",
                    type_name(v)
                ),
            );
            return;
        };
        for k in o.keys() {
            if !["kind", "params"].contains(&k.as_str()) {
                let hint = did_you_mean(k, ["kind", "params"]);
                self.push(
                    FIELD_UNKNOWN,
                    key(path, k),
                    format!("unknown field `{}`{hint}", crate::echo_input(k)),
                );
            }
        }
        let kp = key(path, "kind");
        let kind = match o.get("kind") {
            Some(Value::String(s)) => match PrimitiveKind::parse(s) {
                Some(k) => k,
                None => {
                    let extra = if TriggerKind::parse(s).is_some() {
                        " (a trigger kind; triggers belong at the top level of `triggers`)"
                            .to_string()
                    } else {
                        did_you_mean(s, PrimitiveKind::ALL.iter().map(|k| k.as_str()))
                    };
                    self.push(
                        PRIMITIVE_UNKNOWN_KIND,
                        kp,
                        format!("unknown primitive kind `{}`{extra}", crate::echo_input(s)),
                    );
                    return;
                }
            },
            Some(x) => {
                self.push(
                    FIELD_TYPE,
                    kp,
                    format!("`kind` must be a string, not {}", type_name(x)),
                );
                return;
            }
            None => {
                self.push(FIELD_MISSING, path, "missing field `kind`");
                return;
            }
        };
        let mut env = env;
        if !env.in_trigger && !kind.is_passive() {
            self.push(
                IMPERATIVE_IN_PASSIVE,
                kp.clone(),
                format!("`{kind}` changes the game and is allowed only inside a trigger's effects"),
            );
        } else if env.in_trigger && !kind.allowed_in_triggers() {
            self.push(
                PASSIVE_IN_TRIGGER,
                kp.clone(),
                format!("`{kind}` is passive and belongs in `passive`, not in trigger effects"),
            );
        }
        let home: Option<&[TriggerKind]> = match kind {
            PrimitiveKind::CancelCapture => Some(&[TriggerKind::OnCaptureAttempt]),
            PrimitiveKind::CancelKill => Some(&[TriggerKind::OnKillAttempt]),
            PrimitiveKind::SkipTurn => {
                Some(&[TriggerKind::OnTurnStart, TriggerKind::OnRuleActivated])
            }
            _ => None,
        };
        if let (Some(home), Some(t)) = (home, env.trigger) {
            if !home.contains(&t) {
                let names: Vec<&str> = home.iter().map(|k| k.as_str()).collect();
                self.push(
                    WRONG_TRIGGER,
                    kp.clone(),
                    format!(
                        "`{kind}` is allowed only in {}, not in `{t}`",
                        names.join(" or ")
                    ),
                );
            }
        }
        if kind.is_choice() && env.in_trigger {
            if env.in_draw {
                self.push(CHOICE_IN_DRAW, kp.clone(), format!("`{kind}` inside `with-probability` or `random-pick`: draws must not interleave with suspension"));
            }
            if env.in_iter {
                self.push(
                    CHOICE_IN_ITERATION,
                    kp.clone(),
                    format!("`{kind}` inside `for-each` is not allowed"),
                );
            }
            if env.trigger == Some(TriggerKind::OnKillAttempt) {
                self.push(
                    WRONG_TRIGGER,
                    kp.clone(),
                    format!("`{kind}` is not allowed in `on-kill-attempt`"),
                );
            }
            env.choices += 1;
            if env.choices == MAX_CHOICE_DEPTH + 1 {
                self.push(
                    CHOICE_DEPTH_EXCEEDED,
                    kp.clone(),
                    format!("more than {MAX_CHOICE_DEPTH} nested choices on one path"),
                );
            }
        }
        let params = o.get("params");
        let has_body = params
            .and_then(Value::as_object)
            .is_some_and(|p| ["then", "else", "do"].iter().any(|b| p.contains_key(*b)));
        if has_body {
            env.depth += 1;
            if env.depth == MAX_NESTING_DEPTH + 1 {
                self.push(
                    NESTING_DEPTH_EXCEEDED,
                    kp.clone(),
                    format!(
                        "containers nested more than {MAX_NESTING_DEPTH} deep below the trigger"
                    ),
                );
            }
        }
        if kind == PrimitiveKind::RequestChoice {
            let p = params.and_then(Value::as_object);
            let ck = p.and_then(|p| p.get("kind")).and_then(Value::as_str);
            let fp = p.and_then(|p| p.get("forPlayer")).and_then(Value::as_str);
            if fp == Some("both") && ck != Some("rps") {
                self.push(
                    PARAM_INVALID,
                    key(&key(path, "params"), "forPlayer"),
                    "`forPlayer: both` is allowed only for `rps` prompts",
                );
            }
            if matches!(ck, Some("coin-flip" | "rps"))
                && p.is_some_and(|p| p.contains_key("filter"))
            {
                self.push(
                    FILTER_INVALID,
                    key(&key(path, "params"), "filter"),
                    "coin-flip and rps prompts take no filter",
                );
            }
        }
        // A modifier is game-scoped, not attached to a piece: a passive
        // aura names the pieces it emanates from.
        if kind == PrimitiveKind::AddAura && !env.in_trigger {
            let p = params.and_then(Value::as_object);
            if p.is_some_and(|p| !p.contains_key("source")) {
                self.push(
                    PARAM_MISSING,
                    key(path, "params"),
                    "a passive `add-aura` needs `source` (the pieces it emanates from)",
                );
            }
        }
        if kind == PrimitiveKind::ConvertPiece {
            let p = params.and_then(Value::as_object);
            if p.is_some_and(|p| !p.contains_key("type") && !p.contains_key("color")) {
                self.push(
                    PARAM_MISSING,
                    key(path, "params"),
                    "`convert-piece` needs `type`, `color` or both",
                );
            }
        }
        self.params(
            params,
            path,
            primitive_spec(kind),
            kind.as_str(),
            env,
            bound,
        );
    }

    fn params(
        &mut self,
        params: Option<&Value>,
        path: &str,
        spec: Spec,
        what: &str,
        env: Env,
        bound: &mut Vec<String>,
    ) {
        let pp = key(path, "params");
        let empty = Map::new();
        let obj = match params {
            None => &empty,
            Some(Value::Object(o)) => o,
            Some(x) => {
                self.push(
                    FIELD_TYPE,
                    pp,
                    format!("`params` must be an object, not {}", type_name(x)),
                );
                return;
            }
        };
        for k in obj.keys() {
            if !spec.iter().any(|(n, _, _)| n == k) {
                let hint = did_you_mean(k, spec.iter().map(|(n, _, _)| *n));
                self.push(
                    PARAM_UNKNOWN,
                    key(&pp, k),
                    format!(
                        "unknown parameter `{}` for `{}`{hint}",
                        crate::echo_input(k),
                        crate::echo_input(what)
                    ),
                );
            }
        }
        for (name, p, required) in spec {
            match obj.get(*name) {
                Some(v) => {
                    let choice_kind = obj.get("kind").and_then(Value::as_str);
                    self.value(*p, v, &key(&pp, name), env, bound, choice_kind);
                }
                None if *required => self.push(
                    PARAM_MISSING,
                    pp.clone(),
                    format!("`{what}` needs parameter `{name}`"),
                ),
                None => {}
            }
        }
    }

    fn body(&mut self, v: &Value, path: &str, env: Env, bound: &mut Vec<String>) {
        match v.as_array() {
            Some(items) => {
                for (i, n) in items.iter().enumerate() {
                    self.node(n, &idx(path, i), env, bound);
                }
            }
            None => self.push(
                FIELD_TYPE,
                path,
                format!("a body is an array of primitives, not {}", type_name(v)),
            ),
        }
    }

    /// Checks a `$…` reference; returns false (after reporting) if it is bad.
    fn reference(&mut self, s: &str, path: &str, bound: &[String]) -> bool {
        let mut parts: Vec<&str> = s[1..].split('.').collect();
        // An item of a list: `$bind.x[0]`, `$bind.x[-1]` (the last).
        let at = usize::from(!parts.first().is_some_and(|b| {
            let b = index_split(b).0;
            b == "self" || b == "it"
        }));
        if let Some(seg) = parts.get(at).copied() {
            match index_split(seg) {
                (name, Some(Ok(_))) => parts[at] = name,
                (_, Some(Err(()))) => {
                    self.push(
                        REFERENCE_INVALID,
                        path,
                        format!("`{}`: an index is a whole number from -64 to 63 in brackets, as `$bind.x[0]`", crate::echo_input(s)),
                    );
                    return false;
                }
                (_, None) => {}
            }
        }
        if parts.first() == Some(&"it") && self.in_where == 0 {
            self.push(
                REFERENCE_INVALID,
                path,
                "`$it` (the candidate piece, square or marker) is read only inside a filter's `where`",
            );
            return false;
        }
        let fields = [
            "square",
            "file",
            "rank",
            "type",
            "color",
            "id",
            "fileNumber",
            "rankNumber",
        ];
        // `.attr.<Name>` reads a piece's effective attribute (auras
        // included).
        let tail_ok = |t: &[&str]| match t {
            ["attr", name] => is_ident(name),
            _ => t.len() <= 1 && t.iter().all(|f| fields.contains(f)),
        };
        let ok = match parts.as_slice() {
            ["self" | "it", rest @ ..] => tail_ok(rest),
            ["event", f, rest @ ..] => {
                [
                    "from",
                    "to",
                    "piece",
                    "attacker",
                    "defender",
                    "marker",
                    "cause",
                    "enPassant",
                    "promotedTo",
                ]
                .contains(f)
                    && tail_ok(rest)
            }
            ["bind", name, rest @ ..] if is_ident(name) && tail_ok(rest) => {
                if !bound.iter().any(|b| b == name) {
                    self.push(
                        UNBOUND,
                        path,
                        format!(
                            "`$bind.{name}` is used before any `bind: \"{name}\"` in this trigger"
                        ),
                    );
                    return false;
                }
                true
            }
            // Accessors on variables and parameters too (docs/modifiers.md
            // § References; the runtime reads them as on any value: a
            // square parameter's `.file`, a var holding a piece's `.type`).
            ["var", name, rest @ ..] if is_ident(name) && tail_ok(rest) => {
                self.var_uses.push((name.to_string(), path.to_string()));
                true
            }
            ["param", name, rest @ ..] if is_ident(name) && tail_ok(rest) => {
                if !self.params.contains(*name) {
                    self.push(
                        UNBOUND,
                        path,
                        format!("`$param.{name}` is not a declared parameter"),
                    );
                    return false;
                }
                true
            }
            _ => false,
        };
        if !ok {
            self.push(
                REFERENCE_INVALID,
                path,
                format!(
                    "`{s}` is not a valid reference ($self, $it, $event.…, $bind.…, $var.…, $param.…, optionally with an index [i], then .square .file .rank .fileNumber .rankNumber .type .color .id or .attr.<Name>)"
                ),
            );
        }
        ok
    }

    fn filter_obj(
        &mut self,
        v: &Value,
        path: &str,
        spec: Spec,
        what: &str,
        env: Env,
        bound: &mut Vec<String>,
    ) {
        let Some(o) = v.as_object() else {
            self.push(
                FILTER_INVALID,
                path,
                format!("a {what} is an object, not {}", type_name(v)),
            );
            return;
        };
        for k in o.keys() {
            if !spec.iter().any(|(n, _, _)| n == k) {
                let hint = did_you_mean(k, spec.iter().map(|(n, _, _)| *n));
                self.push(
                    FILTER_INVALID,
                    key(path, k),
                    format!("unknown {what} key `{}`{hint}", crate::echo_input(k)),
                );
            }
        }
        for (name, p, _) in spec {
            if let Some(x) = o.get(*name) {
                let w = usize::from(*name == "where");
                self.in_where += w;
                self.value(*p, x, &key(path, name), env, bound, None);
                self.in_where -= w;
            }
        }
    }

    #[allow(clippy::too_many_lines)]
    fn value(
        &mut self,
        p: P,
        v: &Value,
        path: &str,
        env: Env,
        bound: &mut Vec<String>,
        choice_kind: Option<&str>,
    ) {
        if is_ref(v)
            && !matches!(
                p,
                P::Then | P::Draw | P::Iter | P::BindDef | P::VarName | P::Attr
            )
        {
            if let Value::String(s) = v {
                if written_only(p) {
                    self.push(
                        REFERENCE_NOT_ALLOWED,
                        path,
                        format!(
                            "`{}` cannot stand here: this parameter is read as written (a reference may stand for a value: a number, count, distance, square, file, rank, player, piece type, marker kind, pieces, markers, a source or an expression operand)",
                            crate::echo_input(s)
                        ),
                    );
                } else if self.reference(s, path, bound) {
                    match p {
                        P::PosInt => self.param_whole(s, path, 1, MAX_COUNT, "a count"),
                        P::Distance => self.param_whole(s, path, 1, 16, "a distance"),
                        _ => {}
                    }
                }
            }
            return;
        }
        let one_of =
            |this: &mut Self, code: &'static str, allowed: &[&str], what: &str| match v.as_str() {
                Some(s) if allowed.contains(&s) => {}
                Some(s) => {
                    let hint = did_you_mean(s, allowed.iter().copied());
                    this.push(
                        code,
                        path,
                        format!(
                            "`{s}` is not a valid {what} (one of {}){hint}",
                            allowed.join(", ")
                        ),
                    );
                }
                None => this.push(
                    code,
                    path,
                    format!("a {what} is a string, not {}", type_name(v)),
                ),
            };
        match p {
            P::Then => self.body(v, path, env, bound),
            P::Draw => self.body(v, path, Env { in_draw: true, ..env }, bound),
            P::Iter => self.body(v, path, Env { in_iter: true, ..env }, bound),
            P::Expr => self.expr(v, path, env, bound),
            P::Attr => {
                if !matches!(v, Value::String(s) if !s.is_empty()) {
                    self.push(PARAM_INVALID, path, "expected a non-empty string");
                }
            }
            P::VarName | P::BindDef => match v.as_str() {
                Some(s) if is_ident(s) => {
                    if p == P::BindDef {
                        if bound.iter().any(|b| b == s) {
                            self.push(
                                BINDING_DUPLICATE,
                                path,
                                format!("`{s}` is already bound earlier in this trigger"),
                            );
                        }
                        bound.push(s.to_string());
                    } else {
                        self.vars_set.insert(s.to_string());
                    }
                }
                _ => self.push(PARAM_INVALID, path, format!("expected a name ([A-Za-z_][A-Za-z0-9_]*), not {v}")),
            },
            P::Num => {
                if !v.is_number() {
                    self.push(PARAM_INVALID, path, format!("expected a number, not {}", type_name(v)));
                }
            }
            P::Int => {
                if v.as_i64().is_none() {
                    self.push(PARAM_INVALID, path, format!("expected an integer, not {v}"));
                }
            }
            P::PosInt => {
                // A count (`flip-coin`, `random-pick`): at most the squares
                // of the largest board the engine holds.
                if !v.as_u64().is_some_and(|n| (1..=MAX_COUNT).contains(&n)) {
                    self.push(PARAM_INVALID, path, format!("expected an integer from 1 to {MAX_COUNT}, not {v}"));
                }
            }
            P::Radius => {
                if v.as_u64().is_none_or(|n| n > 8) {
                    self.push(PARAM_INVALID, path, format!("expected an integer from 0 to 8, not {v}"));
                }
            }
            P::Bool => {
                if !v.is_boolean() {
                    self.push(PARAM_INVALID, path, format!("expected true or false, not {v}"));
                }
            }
            P::Prob => match v.as_f64() {
                Some(x) if (0.0..=1.0).contains(&x) => {}
                Some(x) => self.push(PROBABILITY_OUT_OF_RANGE, path, format!("probability {x} is outside [0, 1]")),
                None => self.push(PARAM_INVALID, path, format!("a probability is a number, not {}", type_name(v))),
            },
            P::Square => match v {
                Value::Array(items) => {
                    for (i, x) in items.iter().enumerate() {
                        self.value(P::Square, x, &idx(path, i), env, bound, None);
                    }
                }
                Value::String(s) if is_square_name(s) => {
                    if let Some(g) = self.board.filter(|g| g.parse(s).is_none()) {
                        self.off_board(g, path, format!("square {s}"));
                    }
                }
                Value::Number(n) if n.as_u64().is_some_and(|i| i < 128) => {
                    if let Some(g) = self.board.filter(|g| n.as_u64().is_some_and(|i| i >= u64::from(g.squares()))) {
                        self.off_board(g, path, format!("square index {n}"));
                    }
                }
                _ => self.push(SQUARE_INVALID, path, format!("{v} is not a square of any board (a name like \"e4\" or \"j10\": a file a–p and a rank 1–16 on at most 128 squares, or an index 0–127)")),
            },
            P::File => match v {
                Value::Array(items) if !items.is_empty() => {
                    for (i, x) in items.iter().enumerate() {
                        self.value(P::File, x, &idx(path, i), env, bound, None);
                    }
                }
                Value::String(s) if is_file_name(s) => {
                    if let Some(g) = self.board.filter(|g| g.parse_file(s).is_none()) {
                        self.off_board(g, path, format!("file {s}"));
                    }
                }
                Value::Number(n) if n.as_u64().is_some_and(|i| i < 16) => {
                    if let Some(g) = self.board.filter(|g| n.as_u64().is_some_and(|i| i >= u64::from(g.w))) {
                        self.off_board(g, path, format!("file index {n}"));
                    }
                }
                _ => self.push(FILTER_INVALID, path, format!("{v} is not a file (\"a\"–\"p\" or 0–15)")),
            },
            P::Rank => match v {
                Value::Array(items) if !items.is_empty() => {
                    for (i, x) in items.iter().enumerate() {
                        self.value(P::Rank, x, &idx(path, i), env, bound, None);
                    }
                }
                Value::String(s) if is_rank_name(s) => {
                    if let Some(g) = self.board.filter(|g| g.parse_rank(s).is_none()) {
                        self.off_board(g, path, format!("rank {s}"));
                    }
                }
                Value::Number(n) if n.as_u64().is_some_and(|i| i < 16) => {
                    if let Some(g) = self.board.filter(|g| n.as_u64().is_some_and(|i| i >= u64::from(g.h))) {
                        self.off_board(g, path, format!("rank index {n}"));
                    }
                }
                _ => self.push(FILTER_INVALID, path, format!("{v} is not a rank (\"1\"–\"16\" or 0–15)")),
            },
            P::RelRank => {
                // `n` may be a reference (`"$param.n"`), read at run time.
                let n_ok = |n: &Value| is_ref(n) || n.as_i64().is_some_and(|n| n != 0 && (-16..=16).contains(&n));
                let ok = v.as_object().is_some_and(|o| {
                    o.keys().all(|k| k == "of" || k == "n") && o.get("n").is_some_and(n_ok)
                });
                if !ok {
                    self.push(FILTER_INVALID, path, "`relRank` is {\"of\": player, \"n\": ±1…±16 (at most the board's ranks) or a reference}");
                    return;
                }
                if let Some(of) = v.get("of") {
                    self.value(P::Player, of, &key(path, "of"), env, bound, None);
                }
                if let Some(Value::String(s)) = v.get("n") {
                    self.reference(s, &key(path, "n"), bound);
                }
                let n = v.get("n").and_then(Value::as_i64).unwrap_or(1);
                if let Some(g) = self.board.filter(|g| n.unsigned_abs() > u64::from(g.h)) {
                    self.off_board(g, path, format!("relative rank {n}"));
                }
            }
            P::Adjacent => {
                let Some(o) = v.as_object() else {
                    self.push(FILTER_INVALID, path, "`adjacentTo` is {\"of\": piece or square, \"ring\": 8 | 4}");
                    return;
                };
                for k in o.keys() {
                    if k != "of" && k != "ring" {
                        self.push(FILTER_INVALID, key(path, k), format!("unknown `adjacentTo` key `{}`", crate::echo_input(k)));
                    }
                }
                match o.get("of") {
                    Some(of) => self.value(P::Square, of, &key(path, "of"), env, bound, None),
                    None => self.push(FILTER_INVALID, path, "`adjacentTo` needs `of`"),
                }
                if let Some(r) = o.get("ring") {
                    if let Some(s) = r.as_str().filter(|s| s.starts_with('$')) {
                        self.reference(s, &key(path, "ring"), bound);
                    } else if !matches!(r.as_u64(), Some(4 | 8)) {
                        self.push(FILTER_INVALID, key(path, "ring"), "`ring` is 8 or 4");
                    }
                }
            }
            P::Exclude => match v {
                Value::Array(items) => {
                    for (i, x) in items.iter().enumerate() {
                        self.value(P::Square, x, &idx(path, i), env, bound, None);
                    }
                }
                _ => self.value(P::Square, v, path, env, bound, None),
            },
            P::Pieces | P::PieceFilter => self.filter_obj(v, path, PIECE_FILTER, "piece filter", env, bound),
            P::SquareFilter => {
                self.filter_obj(v, path, SQUARE_FILTER, "square filter", env, bound);
                if let Some(o) = v.as_object() {
                    match o.get("kind").and_then(Value::as_str) {
                        Some("squares") if !o.contains_key("squares") => {
                            self.push(FILTER_INVALID, path, "a `squares` filter needs `squares`")
                        }
                        Some("predicate") if !o.contains_key("file") && !o.contains_key("rank") => {
                            self.push(FILTER_INVALID, path, "a `predicate` filter needs `file`, `rank` or both")
                        }
                        Some("squares" | "predicate") | None => {}
                        Some(k) => self.push(FILTER_INVALID, key(path, "kind"), format!("unknown square filter kind `{}`", crate::echo_input(k))),
                    }
                }
            }
            P::Markers => self.filter_obj(v, path, MARKER_FILTER, "marker filter", env, bound),
            P::CaptureFilter => self.filter_obj(v, path, CAPTURE_FILTER, "capture filter", env, bound),
            P::ChoiceFilter => match choice_kind {
                Some("piece") => self.filter_obj(v, path, PIECE_FILTER, "piece filter", env, bound),
                _ => self.value(P::SquareFilter, v, path, env, bound, None),
            },
            P::Player | P::ForPlayer => match v {
                Value::Object(o) if o.len() == 1 && o.contains_key("opponent-of") => {
                    if let Some(x) = o.get("opponent-of") {
                        self.value(P::Player, x, &key(path, "opponent-of"), env, bound, None);
                    }
                }
                _ => one_of(self, PARAM_INVALID, PLAYERS, "player"),
            },
            P::MarkerKind | P::TriggerMarkerKind => match v.as_str() {
                Some(s) if MarkerKind::parse(s).is_some() => {}
                Some(s) => {
                    let hint = did_you_mean(s, MarkerKind::ALL.iter().map(|k| k.as_str()));
                    self.push(MARKER_UNKNOWN_KIND, path, format!("unknown marker kind `{}`{hint}", crate::echo_input(s)));
                }
                None => self.push(MARKER_UNKNOWN_KIND, path, format!("a marker kind is a string, not {}", type_name(v))),
            },
            P::MarkerSpec => {
                let Some(o) = v.as_object() else {
                    self.push(FILTER_INVALID, path, "expected {\"kind\": marker kind, \"own\"?: bool}");
                    return;
                };
                for k in o.keys() {
                    if k != "kind" && k != "own" {
                        self.push(FILTER_INVALID, key(path, k), format!("unknown key `{}`", crate::echo_input(k)));
                    }
                }
                match o.get("kind") {
                    Some(k) => self.value(P::MarkerKind, k, &key(path, "kind"), env, bound, None),
                    None => self.push(FILTER_INVALID, path, "needs a marker `kind`"),
                }
                if let Some(x) = o.get("own") {
                    self.value(P::Bool, x, &key(path, "own"), env, bound, None);
                }
            }
            P::Lifetime => {
                let ok = v.as_object().is_some_and(|o| match o.get("kind").and_then(Value::as_str) {
                    Some("permanent" | "one-shot") => o.len() == 1,
                    Some("moves") => {
                        o.len() == 2
                            && o.get("plies").is_some_and(|n| is_ref(n) || n.as_u64().is_some_and(|n| (1..=MAX_MARKER_PLIES).contains(&n)))
                    }
                    _ => false,
                });
                if !ok {
                    self.push(
                        LIFETIME_INVALID,
                        path,
                        format!("{v} is not a lifetime: {{\"kind\": \"permanent\"}}, {{\"kind\": \"one-shot\"}} or {{\"kind\": \"moves\", \"plies\": N ≥ 1 or a reference}}"),
                    );
                } else if let Some(Value::String(s)) = v.get("plies") {
                    let at = key(path, "plies");
                    if self.reference(s, &at, bound) {
                        self.param_whole(s, &at, 1, MAX_MARKER_PLIES, "a number of plies");
                    }
                }
            }
            P::PieceType | P::PieceTypes => match v {
                Value::Array(items) if p == P::PieceTypes && !items.is_empty() => {
                    for (i, x) in items.iter().enumerate() {
                        self.value(P::PieceType, x, &idx(path, i), env, bound, None);
                    }
                }
                Value::String(s) if is_piece_type_name(s) => self.piece_type_in_game(s, path, ""),
                _ => {
                    let code = if p == P::PieceType { PARAM_INVALID } else { FILTER_INVALID };
                    let lower = v.as_str().map(str::to_ascii_lowercase).filter(|l| is_piece_type_name(l));
                    let hint = lower.map(|l| format!(" (did you mean `{l}`?)")).unwrap_or_default();
                    self.push(
                        code,
                        path,
                        format!(
                            "{v} is not a piece type: a game's piece name in lower case ({}, or another piece of the game such as archbishop){hint}",
                            PIECE_TYPES.join(", ")
                        ),
                    );
                }
            },
            P::ChoiceKind => one_of(self, PARAM_INVALID, &["piece", "square", "column", "row", "coin-flip", "rps"], "choice kind"),
            P::Direction => one_of(
                self,
                PARAM_INVALID,
                &["forward", "backward", "north", "south", "east", "west", "north-east", "north-west", "south-east", "south-west"],
                "direction",
            ),
            P::Distance => {
                if v.as_str() != Some("until-blocked") && !v.as_u64().is_some_and(|n| (1..=16).contains(&n)) {
                    self.push(PARAM_INVALID, path, "a distance is 1–16 or \"until-blocked\"");
                }
            }
            P::OnOccupied => one_of(self, PARAM_INVALID, &["stop", "kill", "push"], "onOccupied value"),
            P::IfBlocked => one_of(self, PARAM_INVALID, &["stay", "nearest-free", "ignore"], "ifBlocked value"),
            P::StepIfBlocked => one_of(self, PARAM_INVALID, &["stop", "ignore"], "ifBlocked value"),
            P::IntoRoyal => one_of(self, PARAM_INVALID, &["stop"], "intoRoyal value"),
            P::Scope => one_of(self, PARAM_INVALID, &["modifier", "game"], "scope"),
            P::Cause => one_of(self, PARAM_INVALID, &["move", "effect"], "cause"),
            P::Against => match v.as_array() {
                Some(items) if !items.is_empty() => {
                    for (i, x) in items.iter().enumerate() {
                        if !matches!(x.as_str(), Some("capture" | "kill")) {
                            self.push(PARAM_INVALID, idx(path, i), format!("{x} is not `capture` or `kill`"));
                        }
                    }
                }
                _ => self.push(PARAM_INVALID, path, "`against` is a non-empty list of \"capture\" and \"kill\""),
            },
            P::Progress => match v.as_array() {
                Some(items) if !items.is_empty() => {
                    for (i, x) in items.iter().enumerate() {
                        if !matches!(x.as_str(), Some("forward" | "sideways" | "backward")) {
                            self.push(FILTER_INVALID, idx(path, i), format!("{x} is not forward, sideways or backward"));
                        }
                    }
                }
                _ => self.push(FILTER_INVALID, path, "`progress` is a non-empty list"),
            },
            P::Shapes => match v.as_array() {
                Some(items) if !items.is_empty() => {
                    for (i, x) in items.iter().enumerate() {
                        // The shapes the runtime runs (runtime::shapes).
                        if let Err((at, m)) = crate::runtime::shape_ok(x) {
                            let p = idx(path, i);
                            let p = at.map_or(p.clone(), |k| key(&p, k));
                            self.push(PARAM_INVALID, p, format!("bad shape: {m}"));
                        }
                    }
                }
                _ => self.push(PARAM_INVALID, path, "`shapes` is a non-empty list of shapes"),
            },
            P::Links => match v.as_array() {
                Some(items) => {
                    for (i, x) in items.iter().enumerate() {
                        match x.as_str() {
                            Some(s) if s.starts_with('$') => {
                                self.reference(s, &idx(path, i), bound);
                            }
                            _ => self.push(PARAM_INVALID, idx(path, i), "a link is a `$bind.…` reference to a marker"),
                        }
                    }
                }
                None => self.push(PARAM_INVALID, path, "`links` is a list of references"),
            },
            P::Target => match v {
                Value::String(s) if ["self", "attacker", "defender"].contains(&s.as_str()) => {}
                Value::Object(o) if o.contains_key("squares") && o.len() == 1 => {
                    if let Some(sq) = o.get("squares") {
                        self.value(P::Square, sq, &key(path, "squares"), env, bound, None);
                    }
                }
                Value::Object(o) if o.contains_key("relation") => {
                    if !matches!(o.get("relation").and_then(Value::as_str), Some("ally" | "enemy")) {
                        self.push(PARAM_INVALID, key(path, "relation"), "`relation` is \"ally\" or \"enemy\"");
                    }
                    for (k, x) in o {
                        match k.as_str() {
                            "relation" => {}
                            "filter" => self.filter_obj(x, &key(path, k), PIECE_FILTER, "piece filter", env, bound),
                            _ => self.push(PARAM_UNKNOWN, key(path, k), format!("unknown target key `{}`", crate::echo_input(k))),
                        }
                    }
                }
                Value::Object(_) => self.filter_obj(v, path, PIECE_FILTER, "piece filter", env, bound),
                _ => self.push(PARAM_INVALID, path, format!("{v} is not a target (self, attacker, defender, {{squares}}, {{relation}} or a piece filter)")),
            },
            P::Source => {
                let Some(o) = v.as_object().filter(|o| o.len() == 1) else {
                    self.push(FILTER_INVALID, path, "a source is a reference or one of {\"pieces\": …}, {\"squares\": …}, {\"markers\": …}, {\"values\": […]}");
                    return;
                };
                for (k, x) in o {
                    let kp = key(path, k);
                    match k.as_str() {
                        "pieces" => self.filter_obj(x, &kp, PIECE_FILTER, "piece filter", env, bound),
                        "squares" => self.value(P::SquareFilter, x, &kp, env, bound, None),
                        "markers" => self.filter_obj(x, &kp, MARKER_FILTER, "marker filter", env, bound),
                        "values" => {
                            if x.as_array().is_none_or(|a| a.is_empty()) {
                                self.push(FILTER_INVALID, kp, "`values` is a non-empty array");
                            }
                        }
                        _ => {
                            let hint = did_you_mean(k, ["pieces", "squares", "markers", "values"]);
                            self.push(FILTER_INVALID, kp, format!("unknown source `{}`{hint}", crate::echo_input(k)));
                        }
                    }
                }
            }
            P::Order => match v {
                Value::String(s) if ["square-asc", "advanced-first", "rearmost-first"].contains(&s.as_str()) => {}
                Value::Object(o) if !o.is_empty() => {
                    for (k, x) in o {
                        let kp = key(path, k);
                        match k.as_str() {
                            "files" => self.value(P::File, x, &kp, env, bound, None),
                            "colors" => match x.as_array() {
                                Some(a) if a.len() == 2 => {
                                    for (i, c) in a.iter().enumerate() {
                                        self.value(P::Player, c, &idx(&kp, i), env, bound, None);
                                    }
                                }
                                _ => self.push(PARAM_INVALID, kp, "`colors` lists two players"),
                            },
                            "then" => {
                                if !matches!(x.as_str(), Some("square-asc" | "advanced-first" | "rearmost-first")) {
                                    self.push(PARAM_INVALID, kp, "`then` is square-asc, advanced-first or rearmost-first");
                                }
                            }
                            _ => self.push(PARAM_INVALID, kp, format!("unknown order key `{}`", crate::echo_input(k))),
                        }
                    }
                }
                _ => self.push(PARAM_INVALID, path, "an order is square-asc, advanced-first, rearmost-first, {\"files\"}, or {\"colors\", \"then\"?}"),
            },
        }
    }

    fn expr(&mut self, v: &Value, path: &str, env: Env, bound: &mut Vec<String>) {
        const OPS: &[&str] = &[
            "eq",
            "ne",
            "lt",
            "le",
            "gt",
            "ge",
            "and",
            "or",
            "not",
            "count",
            "legal-move-count",
            "in-check",
            "rps-winner",
            "rps-beats",
            "opponent-of",
            "add",
            "sub",
            "abs",
        ];
        match v {
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
            Value::String(s) => {
                if s.starts_with('$') {
                    self.reference(s, path, bound);
                }
            }
            Value::Array(_) => self.push(
                EXPRESSION_INVALID,
                path,
                "an expression is a literal, a reference or a one-key object {op: operands}",
            ),
            Value::Object(o) => {
                if o.len() != 1 {
                    self.push(
                        EXPRESSION_INVALID,
                        path,
                        "an expression object has exactly one operator key",
                    );
                    return;
                }
                for (op, arg) in o {
                    let ap = key(path, op);
                    match op.as_str() {
                        "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "rps-beats" | "sub" => {
                            match arg.as_array() {
                                Some(a) if a.len() == 2 => {
                                    for (i, x) in a.iter().enumerate() {
                                        self.expr(x, &idx(&ap, i), env, bound);
                                        if ["lt", "le", "gt", "ge", "sub"].contains(&op.as_str()) {
                                            self.numeric_operand(x, &idx(&ap, i), op);
                                        }
                                    }
                                }
                                _ => self.push(
                                    EXPRESSION_INVALID,
                                    ap,
                                    format!("`{op}` takes two operands"),
                                ),
                            }
                        }
                        "and" | "or" => match arg.as_array() {
                            Some(a) if !a.is_empty() => {
                                for (i, x) in a.iter().enumerate() {
                                    self.expr(x, &idx(&ap, i), env, bound);
                                }
                            }
                            _ => self.push(
                                EXPRESSION_INVALID,
                                ap,
                                format!("`{op}` takes a non-empty list"),
                            ),
                        },
                        "add" => match arg.as_array() {
                            Some(a) if a.len() >= 2 => {
                                for (i, x) in a.iter().enumerate() {
                                    self.expr(x, &idx(&ap, i), env, bound);
                                    self.numeric_operand(x, &idx(&ap, i), op);
                                }
                            }
                            _ => self.push(
                                EXPRESSION_INVALID,
                                ap,
                                "`add` takes a list of two or more operands",
                            ),
                        },
                        "abs" => {
                            self.expr(arg, &ap, env, bound);
                            self.numeric_operand(arg, &ap, op);
                        }
                        "not" => self.expr(arg, &ap, env, bound),
                        "count" => self.value(P::Source, arg, &ap, env, bound, None),
                        "legal-move-count" => {
                            self.filter_obj(arg, &ap, MOVE_FILTER, "move filter", env, bound)
                        }
                        "in-check" | "opponent-of" => {
                            self.value(P::Player, arg, &ap, env, bound, None)
                        }
                        "rps-winner" => {
                            if !is_ref(arg) {
                                self.push(
                                    EXPRESSION_INVALID,
                                    ap,
                                    "`rps-winner` takes a `$bind.…` reference",
                                );
                            } else if let Some(s) = arg.as_str() {
                                self.reference(s, &ap, bound);
                            }
                        }
                        _ => {
                            let hint = did_you_mean(op, OPS.iter().copied());
                            self.push(
                                EXPRESSION_INVALID,
                                ap,
                                format!("unknown operator `{}`{hint}", crate::echo_input(op)),
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Parameters the runtime reads as written, never through a reference:
/// their shape decides what the primitive or filter is (modifier-rulings
/// § 2.1 lists references as values, not as structure).
fn written_only(p: P) -> bool {
    matches!(
        p,
        P::Bool
            | P::Scope
            | P::Cause
            | P::Against
            | P::Progress
            | P::Shapes
            | P::ChoiceKind
            | P::Lifetime
            | P::MarkerSpec
            | P::Order
            | P::Adjacent
            | P::RelRank
            | P::CaptureFilter
            | P::Links
            | P::TriggerMarkerKind
    )
}

/// A reference segment `name` or `name[i]`: the name and, when bracketed,
/// the index (an error when it is not a whole number from -64 to 63).
fn index_split(seg: &str) -> (&str, Option<Result<i64, ()>>) {
    match seg.strip_suffix(']').and_then(|x| x.split_once('[')) {
        Some((name, i)) => (
            name,
            Some(
                i.parse::<i64>()
                    .ok()
                    .filter(|i| (-64..64).contains(i))
                    .ok_or(()),
            ),
        ),
        None if seg.contains('[') || seg.contains(']') => (seg, Some(Err(()))),
        None => (seg, None),
    }
}

impl Checker {
    /// An operand of `lt le gt ge add sub abs` must be able to be a number:
    /// a string literal that is not one, and the text fields of a
    /// reference (`.square .file .type .color`, `$event.cause`), are
    /// refused rather than compared silently false.
    fn numeric_operand(&mut self, x: &Value, path: &str, op: &str) {
        let bad = match x {
            Value::String(s) if s.starts_with('$') => {
                let last = s.rsplit('.').next().unwrap_or("");
                ["square", "file", "type", "color"].contains(&last) || s == "$event.cause"
            }
            Value::String(s) => s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()),
            Value::Array(_) | Value::Null => true,
            // Only these operators yield numbers.
            Value::Object(o) => o
                .keys()
                .any(|k| !["count", "legal-move-count", "add", "sub", "abs"].contains(&k.as_str())),
            _ => false,
        };
        if bad {
            self.push(
                EXPRESSION_INVALID,
                path,
                format!("`{op}` works on numbers, and {x} is not one (read a file or rank as a number with `.fileNumber` or `.rankNumber`)"),
            );
        }
    }
}

fn default_fits(ty: &str, d: &Value) -> bool {
    match ty {
        "integer" => d.as_i64().is_some(),
        "number" => d.is_number(),
        "boolean" => d.is_boolean(),
        "string" => d.is_string(),
        "square" => d.as_str().is_some_and(is_square_name),
        "file" => d.as_str().is_some_and(is_file_name),
        "piece-type" => d.as_str().is_some_and(is_piece_type_name),
        "color" => matches!(d.as_str(), Some("white" | "black")),
        "marker-kind" => d.as_str().and_then(MarkerKind::parse).is_some(),
        _ => false,
    }
}
