//! The WebSocket protocol (issue 13 § WebSocket; modifier-dsl-decisions
//! § Player Choice for v2): the messages as Rust types, each with a JSON
//! Schema (`docs/protocol.md` is generated from them), and the reader of
//! client messages.
//!
//! v1 kinds stay byte-identical under v2: v2 only adds `request-choice`
//! (server) and `submit-choice` (client). v3 (issue 21) keeps every v2
//! kind but sends each accepted input as an [`Update`] (what that input
//! changed) instead of a `state` with the whole game, a change without an
//! input as a [`GameInfo`] (`patch`), and adds the client's `resync`.

use std::collections::BTreeMap;

use houserules_session::{ActiveModifier, ColorName, LogEntry, MarkerOut, PendingChoice, PieceOut};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The largest client message read, in bytes (issue 13 § Security): a
/// larger one is answered with an `error` of code `message.too-large`.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// The protocol versions the server speaks.
pub const VERSIONS: [u8; 3] = [1, 2, 3];

/// A message from a client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum ClientMessage {
    /// The first message: the version spoken and, on a reconnect, the last
    /// `seq` the client has (the server then skips the `state` messages up
    /// to it; `welcome` always carries the full state).
    Hello {
        /// 1, 2 or 3.
        protocol_version: u8,
        /// The last `seq` seen.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_seq: Option<u64>,
    },
    /// A move in UCI or SAN, for the state whose `plyCount` is `ply` (0 for
    /// the first move). A move for a ply already played is answered with
    /// the current state and changes nothing.
    Move {
        /// UCI (`e2e4`, `e7e8q`) or SAN (`e4`, `Nf3`, `O-O`).
        #[serde(rename = "move")]
        mv: String,
        /// The `plyCount` of the state the move is played from.
        ply: u32,
    },
    /// (v2) The answer to a `request-choice`.
    SubmitChoice {
        /// The `choiceId` of the request.
        choice_id: String,
        /// A square, file letter, rank digit, `heads`/`tails`,
        /// `rock`/`paper`/`scissors` or card id.
        value: Value,
    },
    /// Resigns the game.
    Resign,
    /// Offers a draw (it stands until the opponent answers or a move is
    /// played).
    OfferDraw,
    /// Accepts the opponent's standing draw offer.
    AcceptDraw,
    /// Declines the opponent's standing draw offer.
    DeclineDraw,
    /// Claims a draw by threefold repetition or the fifty-move rule (the
    /// variant's claim rules), on one's own turn: for the position on the
    /// board (FIDE 9.2.2, 9.3.2), or, with `move` and `ply`, for the
    /// position that move makes (FIDE 9.2.1, 9.3.1). The announced move is
    /// played whether or not the claim holds (FIDE 9.5.2: after an
    /// incorrect claim the announced move must be made); a correct claim
    /// then draws the game, an incorrect one gets a `warning`.
    ClaimDraw {
        /// The announced move, UCI or SAN (with `ply`).
        #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
        mv: Option<String>,
        /// The `plyCount` of the state the move is played from (with
        /// `move`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ply: Option<u32>,
    },
    /// Claims the win when the opponent has been disconnected for the
    /// absence period (`claimVictoryAfterMs` in the state).
    ClaimVictory,
    /// Answered with `pong`.
    Ping,
    /// (v3) The client saw a gap in the `seq` of the updates (or wants to
    /// be sure it has everything): the server answers with the `update`s
    /// after `lastSeq`, in order, when it still keeps them all, else with
    /// one `state` holding the full state. Nothing is sent when `lastSeq`
    /// is the current seq.
    Resync {
        /// The last `seq` the client has applied.
        last_seq: u64,
    },
    /// Asks the opponent to take back one's own last move (refused with
    /// `takeback.*` when it drew randomness or a choice, when it was the
    /// opponent's, or when there is none). An engine opponent declines.
    OfferTakeback,
    /// Accepts the opponent's takeback request: the move is taken back and
    /// every connection gets the full `state` (v3 too).
    AcceptTakeback,
    /// Declines the opponent's takeback request.
    DeclineTakeback,
    /// Declines the opponent's rematch offer (accepting is
    /// `POST /api/games/{id}/rematch` with one's seat token, which answers
    /// with the new game's seat).
    DeclineRematch,
}

/// A seat: a colour or a spectator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// The white player.
    White,
    /// The black player.
    Black,
    /// A watcher (no token).
    Spectator,
}

/// A message from the server.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum ServerMessage {
    /// The answer to `hello`.
    Welcome {
        /// The version the server will speak (the client's).
        protocol_version: u8,
        /// Who this connection acts for.
        seat: Seat,
        /// The seq of `state`.
        seq: u64,
        /// The full game state (see `GET /api/games/{id}`).
        #[schemars(with = "GameState")]
        state: Value,
    },
    /// A change: the full state after input `seq`.
    State {
        /// The number of inputs accepted so far.
        seq: u64,
        /// The full game state.
        #[schemars(with = "GameState")]
        state: Value,
    },
    /// (v2) A choice this player must answer.
    RequestChoice {
        /// The id to answer with.
        choice_id: String,
        /// `{kind, options, filter?, forPlayer, timeout?}` (the spec's
        /// prompt).
        prompt: Value,
    },
    /// A refused message: only the sender gets it, and the game is
    /// unchanged.
    Error {
        /// A stable code (`move.illegal`, `move.not-your-turn`, …).
        code: String,
        /// What was wrong.
        message: String,
        /// The refused message's `kind`, when it could be read.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        r#ref: Option<String>,
    },
    /// Something the client should know but did not cause an error (the
    /// v1 fallback for a choice).
    Warning {
        /// A stable code (`choice.v1-fallback`).
        code: String,
        /// What happened.
        message: String,
    },
    /// The game ended.
    GameOver {
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: String,
        /// Why (`checkmate`, `resignation`, `timeout`, `agreement`, …).
        reason: String,
    },
    /// Who is connected; sent to everyone on every (re)connect and
    /// disconnect.
    Presence {
        /// White has a connection.
        white: bool,
        /// Black has a connection.
        black: bool,
        /// Spectators connected.
        spectators: u32,
    },
    /// The answer to `ping`.
    Pong,
    /// (v3) What one accepted input changed, instead of `state`: its size
    /// depends on the board and the rule set, never on the game's length.
    Update(Box<Update>),
    /// (v3) A change that is not an input and has no new `seq` (a seat
    /// taken, a game paused or resumed while a chooser is away, the
    /// engine starting to think): the game-level fields as they are now.
    Patch(GameInfo),
}

/// A colour pair of flags (`presence`, `seats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BothSides {
    /// White's.
    pub white: bool,
    /// Black's.
    pub black: bool,
}

/// One side's clock in a state or update.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SideClock {
    /// The time left, in milliseconds (never negative).
    pub remaining_ms: i64,
}

/// The clocks, as in the full state's `clock`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClockView {
    /// White's clock.
    pub white: SideClock,
    /// Black's clock.
    pub black: SideClock,
    /// The side whose clock runs, or null (before the first move, paused,
    /// over).
    #[schemars(required, schema_with = "nullable::<ColorName>")]
    pub running: Option<ColorName>,
    /// The server's time when the message was built (ms since the Unix
    /// epoch), to correct the running clock for the message's age.
    pub server_time_ms: i64,
}

/// The engine's seat, as in the full state's `engine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct EngineView {
    /// The engine's colour.
    pub color: ColorName,
    /// Its level, 1 to 8.
    pub level: u8,
    /// Whether it is the engine's turn (it searches).
    pub thinking: bool,
}

/// How a game ended (the full state's `result`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ResultView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why (`checkmate`, `resignation`, `timeout`, …).
    pub reason: String,
}

/// (v3) The game-level fields of the full state that can change without
/// a rules input: sent in every `update`, and alone as `patch`. Each field
/// means what it means in the full state (docs/protocol.md § The state).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    /// The number of inputs accepted so far (a `patch` does not change it).
    pub seq: u64,
    /// The clocks, or null for an untimed game.
    #[schemars(required, schema_with = "nullable::<ClockView>")]
    pub clock: Option<ClockView>,
    /// Which seats have a connection.
    pub presence: BothSides,
    /// The side whose draw offer stands, or null.
    #[schemars(required, schema_with = "nullable::<ColorName>")]
    pub draw_offer: Option<ColorName>,
    /// The result, or null while the game goes on.
    #[schemars(required, schema_with = "nullable::<ResultView>")]
    pub result: Option<ResultView>,
    /// The game waits for a chooser who is away (`no-timeout` mode).
    pub paused: bool,
    /// Which seats have a token (an open challenge has one free seat).
    pub seats: BothSides,
    /// The engine's seat, or null in a game of two persons.
    #[schemars(required, schema_with = "nullable::<EngineView>")]
    pub engine: Option<EngineView>,
    /// The rematch offered after the end, or null.
    #[schemars(required, schema_with = "nullable::<RematchView>")]
    pub rematch: Option<RematchView>,
    /// The side whose takeback request stands, or null.
    #[schemars(required, schema_with = "nullable::<ColorName>")]
    pub takeback_offer: Option<ColorName>,
    /// Milliseconds left, as of this message, before the pending choice
    /// times out and its default is taken; null when no choice timer runs
    /// (no choice pending, `no-timeout` mode, or a chooser not yet at the
    /// board). A page counts down from it: after a restart the timer
    /// starts again in full (trial 18: pages kept the old countdown).
    #[schemars(required, schema_with = "nullable::<u64>")]
    pub choice_left_ms: Option<u64>,
    /// The players' names, null where none was given. In every message
    /// with the game's fields, since a seat can be named after creation
    /// (`POST /api/games/{id}/name`, issue 26).
    pub players: Players,
    /// The last move while a choice it raised still waits (a capture
    /// waiting for its Parry throw): its UCI and SAN, the SAN without a
    /// check sign (the sign is the position's once the choice is decided).
    /// A page that loads meanwhile has it from no PGN: the movetext of an
    /// unfinished game ends before an undecided move. Else null.
    #[schemars(required, schema_with = "nullable::<MovePlayed>")]
    pub pending_move: Option<MovePlayed>,
}

/// The full state of a game, as `GET /api/games/{id}`, `welcome` and
/// `state` carry it (docs/protocol.md § The state): the session's output
/// with the server's log, the game-level fields of [`GameInfo`], and the
/// fields below. Schema only: the game builds the state as JSON, its keys
/// in sorted order, so that protocol versions 1 and 2 stay byte-identical;
/// the test suite validates every state it receives against this shape.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
// A key the schema does not name fails the suite's message checks.
#[schemars(deny_unknown_fields)]
pub struct GameState {
    /// The session's output (its `log` is the server's: every entry since
    /// the game began).
    #[serde(flatten)]
    pub output: houserules_session::SessionOutput,
    /// The game-level fields.
    #[serde(flatten)]
    pub info: GameInfo,
    /// The game's id.
    pub id: String,
    /// Whether the side to move is in check under the rules in force.
    pub in_check: bool,
    /// The draw the side to move may claim now (`threefold-repetition`,
    /// `fifty-move-rule`), or null.
    #[schemars(required, schema_with = "nullable::<String>")]
    pub draw_claim: Option<String>,
    /// How long (ms) a seat must be gone before its opponent may claim the
    /// win.
    pub claim_victory_after_ms: u64,
}

/// The players' names in the full state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Players {
    /// White's name, or null.
    #[schemars(required, schema_with = "nullable::<String>")]
    pub white: Option<String>,
    /// Black's name, or null.
    #[schemars(required, schema_with = "nullable::<String>")]
    pub black: Option<String>,
}

/// A rematch of a finished game (`POST /api/games/{id}/rematch`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RematchView {
    /// The new game's id (colours swapped, same rules and clock).
    pub game: String,
    /// The side of the finished game that asked.
    pub offered_by: ColorName,
    /// `offered`, `accepted` or `declined`.
    pub status: String,
}

/// (v3) A move played: the move in UCI (as recorded) and in SAN (among the
/// moves the active rules allowed before it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MovePlayed {
    /// UCI, as stored in the record (`e2e4`, `e7e8q`).
    pub uci: String,
    /// SAN (`e4`, `Nf3`, `O-O`, `exd8=Q#`).
    pub san: String,
}

/// (v3) The pieces an input changed (`null` in an update when none did).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct PiecesChange {
    /// The ids of the pieces that left the board.
    pub removed: Vec<u16>,
    /// The pieces that are new, moved, or whose type or attributes
    /// changed, as the full state lists them (by ascending square).
    pub changed: Vec<PieceOut>,
}

/// (v3) What one accepted input changed. Apply it to the state of
/// `seq - 1`: a client whose last `seq` is not `seq - 1` missed something
/// and sends `resync`. Every field is bounded by the board and the rule
/// set: the log entries are those of this input only.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Update {
    /// The game-level fields after the input (`seq` included).
    #[serde(flatten)]
    pub info: GameInfo,
    /// The input as the record stores it: `{"move": UCI}`, a choice
    /// `{"choice", "player"?, "auto"?}`, or a game event such as
    /// `{"event": "resign", "player": "white"}`.
    pub input: Value,
    /// The move, when the input was one.
    #[serde(rename = "move")]
    #[schemars(required, schema_with = "nullable::<MovePlayed>")]
    pub mv: Option<MovePlayed>,
    /// The full state's `plyCount`.
    pub ply_count: u32,
    /// The full state's `fen`.
    pub fen: String,
    /// The full state's `sideToMove`.
    pub side_to_move: ColorName,
    /// The full state's `inCheck`: whether the side to move is in check
    /// under the rules in force (the game's and the modifiers' attacks,
    /// not standard chess's).
    pub in_check: bool,
    /// The full state's `drawClaim`: the draw the side to move may claim
    /// now without announcing a move (`threefold-repetition`,
    /// `fifty-move-rule`), or null.
    #[schemars(required, schema_with = "nullable::<String>")]
    pub draw_claim: Option<String>,
    /// The full state's `status` (`{status, winner?, reason?}`).
    pub status: Value,
    /// The full state's `legalMoves` (UCI) for the side to move.
    pub legal_moves: Vec<String>,
    /// The full state's `pendingChoice`.
    #[schemars(required, schema_with = "nullable::<PendingChoice>")]
    pub pending_choice: Option<PendingChoice>,
    /// The rule log entries this input added (append them to the log).
    pub events: Vec<LogEntry>,
    /// The pieces that changed, or null when none did.
    #[schemars(required, schema_with = "nullable::<PiecesChange>")]
    pub pieces: Option<PiecesChange>,
    /// The whole marker list when it changed (absent when not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markers: Option<Vec<MarkerOut>>,
    /// The whole list of attached modifiers when it changed (absent when
    /// not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_modifiers: Option<Vec<ActiveModifier>>,
    /// The game-scoped variables when they changed (absent when not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vars: Option<BTreeMap<String, Value>>,
    /// The full state's `rngStream`.
    pub rng_stream: u32,
}

/// [`ServerMessage::Update`] as sent, its fields borrowed from the game's
/// state rather than copied into an [`Update`] (issue 21: the copy of the
/// legal moves, FEN, status and choice was a visible share of a move's
/// CPU). Serialises to the same text as `ServerMessage::Update` of the same
/// fields (test `update_ref_writes_what_update_writes`); [`Update`] stays
/// the documented shape.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename = "update", rename_all = "camelCase")]
pub struct UpdateRef<'a> {
    /// [`Update::info`].
    #[serde(flatten)]
    pub info: GameInfo,
    /// [`Update::input`].
    pub input: Value,
    /// [`Update::mv`].
    #[serde(rename = "move")]
    pub mv: Option<MovePlayed>,
    /// [`Update::ply_count`].
    pub ply_count: u32,
    /// [`Update::fen`].
    pub fen: &'a str,
    /// [`Update::side_to_move`].
    pub side_to_move: ColorName,
    /// [`Update::in_check`].
    pub in_check: bool,
    /// [`Update::draw_claim`].
    pub draw_claim: Option<&'a str>,
    /// [`Update::status`].
    pub status: &'a Value,
    /// [`Update::legal_moves`].
    pub legal_moves: &'a [String],
    /// [`Update::pending_choice`].
    pub pending_choice: Option<&'a PendingChoice>,
    /// [`Update::events`].
    pub events: Vec<LogEntry>,
    /// [`Update::pieces`].
    pub pieces: Option<PiecesChange>,
    /// [`Update::markers`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markers: Option<&'a [MarkerOut]>,
    /// [`Update::active_modifiers`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_modifiers: Option<&'a [ActiveModifier]>,
    /// [`Update::vars`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vars: Option<&'a BTreeMap<String, Value>>,
    /// [`Update::rng_stream`].
    pub rng_stream: u32,
}

impl UpdateRef<'_> {
    /// The JSON text sent ([`ServerMessage::to_text`]).
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(r#"{{"kind":"error","code":"server.encode","message":"{e}"}}"#)
        })
    }
}

impl ClientMessage {
    /// The message's `kind`, as the client wrote it (the metrics' label).
    pub fn kind(&self) -> &'static str {
        match self {
            ClientMessage::Hello { .. } => "hello",
            ClientMessage::Move { .. } => "move",
            ClientMessage::SubmitChoice { .. } => "submit-choice",
            ClientMessage::Resign => "resign",
            ClientMessage::OfferDraw => "offer-draw",
            ClientMessage::AcceptDraw => "accept-draw",
            ClientMessage::DeclineDraw => "decline-draw",
            ClientMessage::ClaimDraw { .. } => "claim-draw",
            ClientMessage::ClaimVictory => "claim-victory",
            ClientMessage::Ping => "ping",
            ClientMessage::Resync { .. } => "resync",
            ClientMessage::OfferTakeback => "offer-takeback",
            ClientMessage::AcceptTakeback => "accept-takeback",
            ClientMessage::DeclineTakeback => "decline-takeback",
            ClientMessage::DeclineRematch => "decline-rematch",
        }
    }
}

impl ServerMessage {
    /// An error message.
    pub fn error(code: &str, message: impl Into<String>, r#ref: Option<&str>) -> ServerMessage {
        ServerMessage::Error {
            code: code.into(),
            message: message.into(),
            r#ref: r#ref.map(str::to_string),
        }
    }

    /// The JSON text sent.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(r#"{{"kind":"error","code":"server.encode","message":"{e}"}}"#)
        })
    }
}

/// Why a client message was refused by the reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// `message.too-large`, `message.malformed`, `message.unknown-kind` or
    /// `message.bad-version`.
    pub code: &'static str,
    /// What and where.
    pub message: String,
    /// The message's `kind`, if it had one.
    pub kind: Option<String>,
}

/// Reads one client message (text frame). Never panics; any text gives a
/// message or a [`ReadError`] naming what is wrong.
///
/// # Errors
/// Over [`MAX_MESSAGE_BYTES`], not JSON, a key repeated in an object, not
/// an object with a known `kind`,
/// a field of the wrong type or an unknown field, or a `hello` with an
/// unsupported version.
pub fn read_client_message(text: &str) -> Result<ClientMessage, ReadError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(ReadError {
            code: "message.too-large",
            message: format!(
                "the message has {} bytes; at most {MAX_MESSAGE_BYTES} are read",
                text.len()
            ),
            kind: None,
        });
    }
    let value: Value = serde_json::from_str(text).map_err(|e| ReadError {
        code: "message.malformed",
        message: format!("not JSON: {e}"),
        kind: None,
    })?;
    let kind = value
        .get("kind")
        .and_then(Value::as_str)
        .map(str::to_string);
    // A repeated key would be read as its last value (`{"kind": "move",
    // …, "move": "e2e4", "move": "h2h4"}` plays h2h4): refused, naming it
    // (issue 21).
    if let Some(d) = crate::json::duplicate_key(text) {
        return Err(ReadError {
            code: "message.malformed",
            message: d.to_string(),
            kind,
        });
    }
    let Some(k) = &kind else {
        return Err(ReadError {
            code: "message.malformed",
            message:
                "a message is a JSON object with a string `kind`, such as {\"kind\": \"ping\"}"
                    .into(),
            kind: None,
        });
    };
    const KINDS: [&str; 15] = [
        "offer-takeback",
        "accept-takeback",
        "decline-takeback",
        "decline-rematch",
        "hello",
        "move",
        "submit-choice",
        "resign",
        "offer-draw",
        "accept-draw",
        "decline-draw",
        "claim-draw",
        "claim-victory",
        "ping",
        "resync",
    ];
    /// The kinds that carry nothing but `kind`.
    const FIELDLESS: [&str; 10] = [
        "offer-takeback",
        "accept-takeback",
        "decline-takeback",
        "decline-rematch",
        "resign",
        "offer-draw",
        "accept-draw",
        "decline-draw",
        "claim-victory",
        "ping",
    ];
    if !KINDS.contains(&k.as_str()) {
        return Err(ReadError {
            code: "message.unknown-kind",
            message: format!("unknown kind `{k}` (known: {})", KINDS.join(", ")),
            kind,
        });
    }
    // serde's internally tagged unit variants ignore other fields, so
    // `{"kind": "resign", "x": 1}` would be read as `resign`: the kinds
    // without fields are checked here, as `deny_unknown_fields` checks the
    // others.
    if FIELDLESS.contains(&k.as_str()) {
        if let Some(extra) = value
            .as_object()
            .and_then(|o| o.keys().find(|key| key.as_str() != "kind"))
        {
            return Err(ReadError {
                code: "message.malformed",
                message: format!(
                    "`{k}`: unknown field `{}`: `{k}` has no fields besides `kind`",
                    houserules_engine::echo::echo(extra)
                ),
                kind,
            });
        }
    }
    let msg: ClientMessage = serde_json::from_value(value).map_err(|e| ReadError {
        code: "message.malformed",
        message: format!("`{k}`: {e}"),
        kind: kind.clone(),
    })?;
    if let ClientMessage::ClaimDraw { mv, ply } = &msg {
        if mv.is_some() != ply.is_some() {
            return Err(ReadError {
                code: "message.malformed",
                message: "`claim-draw`: `move` and `ply` go together (the move announced and \
                          the plyCount it is played from), or neither is given"
                    .into(),
                kind,
            });
        }
    }
    if let ClientMessage::Hello {
        protocol_version, ..
    } = &msg
    {
        if !VERSIONS.contains(protocol_version) {
            return Err(ReadError {
                code: "message.bad-version",
                message: format!("protocolVersion {protocol_version} is not spoken; use 1, 2 or 3"),
                kind,
            });
        }
    }
    Ok(msg)
}

/// `T` or null, for fields that are always present (schemars leaves the
/// null out of a `required` `Option`).
fn nullable<T: JsonSchema>(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let inner = g.subschema_for::<T>();
    schemars::json_schema!({"anyOf": [inner, {"type": "null"}]})
}

/// The generated part of `docs/protocol.md`: the JSON Schema of the client
/// and server messages, from these types (a test keeps the file in step).
pub fn schemas_markdown() -> String {
    let pretty = |s: schemars::Schema| serde_json::to_string_pretty(&s).unwrap_or_default();
    format!(
        "### Client messages\n\n```json\n{}\n```\n\n### Server messages\n\n```json\n{}\n```\n",
        pretty(schemars::schema_for!(ClientMessage)),
        pretty(schemars::schema_for!(ServerMessage)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_session::{CreateRequest, Input, Session};

    /// The metrics' label of a client message is its `kind` as written
    /// (docs/protocol.md § Client messages), now read from the parsed
    /// message instead of a second parse of the text.
    #[test]
    fn a_client_message_names_its_kind() {
        let texts = [
            (r#"{"kind":"hello","protocolVersion":3}"#, "hello"),
            (r#"{"kind":"move","move":"e2e4","ply":0}"#, "move"),
            (
                r#"{"kind":"submit-choice","choiceId":"c1","value":"rock"}"#,
                "submit-choice",
            ),
            (r#"{"kind":"resign"}"#, "resign"),
            (r#"{"kind":"offer-draw"}"#, "offer-draw"),
            (r#"{"kind":"accept-draw"}"#, "accept-draw"),
            (r#"{"kind":"decline-draw"}"#, "decline-draw"),
            (r#"{"kind":"claim-draw"}"#, "claim-draw"),
            (r#"{"kind":"claim-victory"}"#, "claim-victory"),
            (r#"{"kind":"ping"}"#, "ping"),
            (r#"{"kind":"resync","lastSeq":4}"#, "resync"),
            (r#"{"kind":"offer-takeback"}"#, "offer-takeback"),
            (r#"{"kind":"accept-takeback"}"#, "accept-takeback"),
            (r#"{"kind":"decline-takeback"}"#, "decline-takeback"),
            (r#"{"kind":"decline-rematch"}"#, "decline-rematch"),
        ];
        for (text, kind) in texts {
            let m: ClientMessage = serde_json::from_str(text).unwrap();
            assert_eq!(m.kind(), kind, "{text}");
        }
    }

    /// The borrowed update the game sends and the documented [`Update`]
    /// write the same text for the same fields, with and without the
    /// optional lists (a client reads one shape).
    #[test]
    fn update_ref_writes_what_update_writes() {
        let mut s = Session::create(CreateRequest::parse("{}").unwrap()).unwrap();
        let from = s.log_len();
        s.submit(Input::Move { mv: "e2e4".into() }).unwrap();
        let out = s.output_since(from);
        assert!(!out.log.is_empty(), "the move is logged");
        let info = GameInfo {
            seq: 1,
            clock: Some(ClockView {
                white: SideClock {
                    remaining_ms: 60_000,
                },
                black: SideClock {
                    remaining_ms: 59_000,
                },
                running: Some(ColorName::Black),
                server_time_ms: 1_700_000_000_000,
            }),
            presence: BothSides {
                white: true,
                black: false,
            },
            draw_offer: None,
            result: None,
            paused: false,
            choice_left_ms: Some(12_345),
            seats: BothSides {
                white: true,
                black: true,
            },
            engine: Some(EngineView {
                color: ColorName::Black,
                level: 3,
                thinking: true,
            }),
            rematch: None,
            takeback_offer: Some(ColorName::White),
            players: Players {
                white: Some("Ann".into()),
                black: None,
            },
            pending_move: None,
        };
        let mv = MovePlayed {
            uci: "e2e4".into(),
            san: "e4".into(),
        };
        let input = serde_json::json!({"move": "e2e4"});
        for with_lists in [false, true] {
            let owned = ServerMessage::Update(Box::new(Update {
                info: info.clone(),
                input: input.clone(),
                mv: Some(mv.clone()),
                ply_count: out.ply_count,
                fen: out.fen.clone(),
                side_to_move: out.side_to_move,
                in_check: false,
                draw_claim: Some("fifty-move-rule".into()),
                status: out.status.clone(),
                legal_moves: out.legal_moves.clone(),
                pending_choice: out.pending_choice.clone(),
                events: out.log.clone(),
                pieces: None,
                markers: with_lists.then(|| out.markers.clone()),
                active_modifiers: with_lists.then(|| out.active_modifiers.clone()),
                vars: with_lists.then(|| out.vars.clone()),
                rng_stream: out.rng_stream,
            }))
            .to_text();
            let borrowed = UpdateRef {
                info: info.clone(),
                input: input.clone(),
                mv: Some(mv.clone()),
                ply_count: out.ply_count,
                fen: &out.fen,
                side_to_move: out.side_to_move,
                in_check: false,
                draw_claim: Some("fifty-move-rule"),
                status: &out.status,
                legal_moves: &out.legal_moves,
                pending_choice: out.pending_choice.as_ref(),
                events: out.log.clone(),
                pieces: None,
                markers: with_lists.then_some(out.markers.as_slice()),
                active_modifiers: with_lists.then_some(out.active_modifiers.as_slice()),
                vars: with_lists.then_some(&out.vars),
                rng_stream: out.rng_stream,
            }
            .to_text();
            assert_eq!(borrowed, owned);
            assert!(owned.starts_with(r#"{"kind":"update","seq":1,"#), "{owned}");
            assert_eq!(owned.contains(r#""markers":"#), with_lists);
        }
    }
}
