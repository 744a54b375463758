//! The session shapes the server accepts and returns, as Rust types with a
//! JSON Schema each (issue 5 § CLI: "fix them now and document them with a
//! JSON Schema"): the creation request ([`crate::CreateRequest`]), one
//! input line ([`InputLine`]) and the state output ([`SessionOutput`], what
//! `houserules play --json` prints). [`Session::to_json`] serialises a
//! [`SessionOutput`], so the published schema and the output cannot drift.
//!
//! The schemas are published as `docs/session-request.schema.json`,
//! `docs/session-input.schema.json` and `docs/session-output.schema.json`.

use std::collections::BTreeMap;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::{json, Value};

use houserules_modifiers::descriptor::{Descriptor, MarkerKind};
use houserules_modifiers::runtime::{kind_name, Lifetime, LogEntry, MarkerLifetime, PendingChoice};

use crate::Session;

/// A colour name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ColorName {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<houserules_engine::Color> for ColorName {
    fn from(c: houserules_engine::Color) -> Self {
        match c {
            houserules_engine::Color::White => ColorName::White,
            houserules_engine::Color::Black => ColorName::Black,
        }
    }
}

/// One entry of the request's `modifiers` (schema only): a library id with
/// optional `:KEY=VALUE;…` overrides (the reserved keys `lifetime` and
/// `chooser`, rulings G3), or an inline descriptor.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub(crate) enum ModifierEntry {
    /// `ID[:KEY=VALUE;…]`, e.g. `frozen-column:file=e;lifetime=6`.
    Id(#[schemars(regex(pattern = r"^[a-z0-9][a-z0-9_-]{0,63}(:.*)?$"))] String),
    /// A descriptor (docs/modifier-descriptor.schema.json).
    Inline(Box<Descriptor>),
    /// A descriptor or library id with options: `{"descriptor", "lifetime"?,
    /// "chooser"?, "params"?}` (runtime::entry).
    WithOptions(Box<houserules_modifiers::runtime::entry::WithOptions>),
}

/// The game status (schema of [`Session::status`]).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub(crate) struct StatusShape {
    /// `ongoing`, `awaiting-choice`, `checkmate`, `stalemate`, a draw name
    /// (`draw`, `threefold-repetition`, …), `royal-loss` or a variant's
    /// end reason.
    status: String,
    /// The winner; null for a draw decided by a variant rule.
    #[serde(default)]
    winner: Option<ColorName>,
    /// Why, for draws decided by the runtime (`skip-loop`, `royal-loss`).
    #[serde(default)]
    reason: Option<String>,
}

/// A marker in the output.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MarkerOut {
    /// Entity id.
    pub id: u32,
    /// Kind.
    pub kind: MarkerKind,
    /// Square name.
    pub square: String,
    /// Lifetime (`moves` carries the absolute `expiresAtMove`).
    pub lifetime: MarkerLifetime,
    /// Owner, or null.
    #[schemars(required, schema_with = "nullable::<ColorName>")]
    pub owner: Option<ColorName>,
    /// Linked marker ids.
    pub links: Vec<u32>,
    /// The modifier instance that spawned it.
    pub source: u32,
}

/// An attached modifier in the output.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ActiveModifier {
    /// Instance id.
    pub instance: u32,
    /// Descriptor id.
    pub id: String,
    /// The chooser (rulings B1).
    pub chooser: ColorName,
    /// Lifetime (`moves` carries the absolute `expiresAtMove`).
    pub lifetime: Lifetime,
    /// `PlyCount` when it attached.
    pub attached_at: u32,
    /// Modifier-scoped variables.
    pub vars: BTreeMap<String, Value>,
}

/// A piece in the output.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PieceOut {
    /// Stable piece id.
    pub id: u16,
    /// Square name.
    pub square: String,
    /// Type (`pawn` … `king`, or the variant's piece id in lower case).
    #[serde(rename = "type")]
    pub ty: String,
    /// Colour.
    pub color: ColorName,
    /// Effective attributes: the stored values plus the auras that cover
    /// the piece (see docs/modifiers.md § Auras).
    pub attrs: BTreeMap<String, Value>,
    /// Stored attributes, before auras.
    pub base_attrs: BTreeMap<String, Value>,
}

/// What one input line did (`houserules play` adds the list as `inputs`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InputReport {
    /// Line number in the inputs file (from 1).
    pub line: usize,
    /// Whether the input was accepted.
    pub ok: bool,
    /// The refusal code, when refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The refusal message, when refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The state of a session as clients see it (issue 5 § output).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionOutput {
    /// The position in FEN (in the letters of the variant).
    pub fen: String,
    /// The side to move.
    pub side_to_move: ColorName,
    /// The status.
    #[schemars(with = "StatusShape")]
    pub status: Value,
    /// Legal moves in UCI; empty while a choice is pending or the game is
    /// over.
    pub legal_moves: Vec<String>,
    /// The pending choice on top of the stack, or null.
    #[schemars(required, schema_with = "nullable::<PendingChoice>")]
    pub pending_choice: Option<PendingChoice>,
    /// Markers on the board, by ascending id.
    pub markers: Vec<MarkerOut>,
    /// Attached modifiers, in attach order.
    pub active_modifiers: Vec<ActiveModifier>,
    /// Pieces, by ascending square (a1 = 0).
    pub pieces: Vec<PieceOut>,
    /// The game seed.
    pub seed: u32,
    /// Draws taken from the seeded stream so far.
    pub rng_stream: u32,
    /// Plies applied since creation (rulings A3).
    pub ply_count: u32,
    /// Game-scoped variables.
    pub vars: BTreeMap<String, Value>,
    /// What happened, in order.
    pub log: Vec<LogEntry>,
    /// Per input line: set by `houserules play`, absent from the
    /// session's own output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<Vec<InputReport>>,
}

/// One input line (schema only; [`crate::Input::parse`] is the reader).
pub struct InputLine;

impl JsonSchema for InputLine {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "InputLine".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({
            "description": "One input: a move in UCI or SAN, or the answer to the pending choice on top of the stack.",
            "oneOf": [
                {
                    "type": "object",
                    "properties": {
                        "move": {
                            "description": "A move in UCI (`e2e4`, `e7e8q`; castling king-takes-rook where its usual form names another legal move) or in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`), read against the moves the active rules allow and recorded in UCI.",
                            "type": "string"
                        }
                    },
                    "required": ["move"],
                    "additionalProperties": false
                },
                {
                    "type": "object",
                    "properties": {
                        "choice": {
                            "description": "A square name (piece and square prompts), a file letter (column), a rank digit (row), heads/tails, rock/paper/scissors, or a card id (draft).",
                            "type": "string"
                        },
                        "player": {
                            "description": "Who answers; required for an rps prompt for both players.",
                            "enum": ["white", "black"]
                        },
                        "auto": {
                            "description": "Set by the server when the answer is the timeout default.",
                            "const": "timeout"
                        }
                    },
                    "required": ["choice"],
                    "additionalProperties": false
                }
            ]
        })
    }
}

/// `T` or null, for fields that are always present.
fn nullable<T: JsonSchema>(g: &mut SchemaGenerator) -> Schema {
    let inner = g.subschema_for::<T>();
    schemars::json_schema!({"anyOf": [inner, {"type": "null"}]})
}

fn pretty<T: JsonSchema>() -> String {
    let schema = schemars::schema_for!(T);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// The JSON Schema of the creation request, pretty-printed with a final
/// newline.
pub fn request_schema_json() -> String {
    pretty::<crate::CreateRequest>()
}

/// The JSON Schema of one input line.
pub fn input_schema_json() -> String {
    pretty::<InputLine>()
}

/// The JSON Schema of the state output ([`Session::to_json`], `houserules
/// play --json`).
pub fn output_schema_json() -> String {
    pretty::<SessionOutput>()
}

impl Session {
    /// The state as clients see it (issue 5 § output).
    pub fn output(&self) -> SessionOutput {
        self.output_since(0)
    }

    /// The number of entries in the session's log (what
    /// [`Session::output`] lists as `log`).
    pub fn log_len(&self) -> usize {
        self.rt.state().log.len()
    }

    /// [`Session::output`] with only the log entries from index `log_from`
    /// on (none when it is past the end): the game server sends the entries
    /// one input added, so that the cost of an output does not grow with
    /// the game's length.
    pub fn output_since(&self, log_from: usize) -> SessionOutput {
        let rt = &self.rt;
        let g = rt.geom();
        let def = rt.game().variant().definition();
        let mut effective = rt.all_effective_attrs();
        let pieces = rt
            .pieces()
            .iter()
            .map(|p| PieceOut {
                id: p.id,
                square: g.name(p.sq),
                ty: kind_name(def, p.piece.kind),
                color: p.piece.color.into(),
                attrs: effective.remove(&p.id).unwrap_or_default(),
                base_attrs: rt.base_attrs(p),
            })
            .collect();
        let markers = rt
            .state()
            .markers
            .iter()
            .map(|m| MarkerOut {
                id: m.id,
                kind: m.kind,
                square: g.name(m.square),
                lifetime: m.lifetime,
                owner: m.owner.map(Into::into),
                links: m.links.clone(),
                source: m.source,
            })
            .collect();
        let active_modifiers = rt
            .state()
            .modifiers
            .iter()
            .map(|i| ActiveModifier {
                instance: i.id,
                id: i.descriptor.clone(),
                chooser: i.chooser.into(),
                lifetime: i.lifetime,
                attached_at: i.attached_at,
                vars: i.vars.clone(),
            })
            .collect();
        let (status, legal_moves) = rt.status_and_legal_moves_uci();
        SessionOutput {
            fen: rt.game().fen(),
            side_to_move: rt.game().turn().into(),
            status,
            legal_moves,
            pending_choice: self.pending_choice().map(PendingChoice::public),
            markers,
            active_modifiers,
            pieces,
            seed: rt.state().rng.seed,
            rng_stream: rt.state().rng.stream,
            ply_count: rt.state().ply_count,
            vars: rt.state().vars.clone(),
            log: rt.state().log.get(log_from..).unwrap_or_default().to_vec(),
            inputs: None,
        }
    }

    /// The state as JSON for clients and the CLI: [`Session::output`]
    /// serialised (docs/session-output.schema.json).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.output()).unwrap_or_else(|e| json!({"error": e.to_string()}))
    }
}
