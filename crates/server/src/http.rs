//! The HTTP API (issue 13 § HTTP API) and its OpenAPI document.

use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, State, WebSocketUpgrade};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use houserules_session::Session;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::oneshot;
use utoipa::{OpenApi, ToSchema};

use crate::clock::ClockSpec;
use crate::game::{now_ms, Cmd, GameHandle};
use crate::input::{ApiQuery, Text};
use crate::protocol::Seat;
use crate::store::GameRow;
use crate::AppState;

/// The largest request body read (a creation request with inline
/// descriptors, a YAML game file): 1 MiB.
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// One problem in a request: a stable code, the JSON path, a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Finding {
    /// Stable code (`request.bad-json`, `request.invalid`,
    /// `request.bad-modifier`, `request.too-large`, …).
    pub code: String,
    /// JSON path of the offending value (`$.clock.initialSeconds`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// `400`: the findings of a refused request.
#[derive(Debug, Serialize, ToSchema)]
pub struct Refused {
    /// The problems found.
    pub findings: Vec<Finding>,
}

/// One seat of a created game.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatLink {
    /// The seat token (at least 128 random bits); keep it secret.
    pub token: String,
    /// The page of the game for this seat (served by the web app).
    pub url: String,
    /// The WebSocket of this seat.
    pub ws: String,
}

/// `201`: a created game.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Created {
    /// The game id.
    pub id: String,
    /// The seats given out (`white`, `black`); a seat left for
    /// `POST /api/games/{id}/join` is absent.
    pub seats: std::collections::BTreeMap<String, SeatLink>,
    /// The page for spectators.
    pub spectate_url: String,
    /// The WebSocket for spectators.
    pub spectate_ws: String,
}

/// `200` of a join: the seat taken.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Joined {
    /// `white` or `black`.
    pub seat: String,
    /// The seat's name: the joiner's `name`, or the one the creator gave
    /// it (kept); absent when unnamed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its token and links.
    #[serde(flatten)]
    pub link: SeatLink,
}

/// `201`/`200` of a rematch: the new game and this player's seat in it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Rematched {
    /// The new game's id.
    pub id: String,
    /// `white` or `black` (the other colour than in the finished game).
    pub seat: String,
    /// Its token and links.
    #[serde(flatten)]
    pub link: SeatLink,
}

/// The server-only fields of `POST /api/games` (with the session's
/// creation request: `game`, `fen`/`state`/`layout`, `presets`,
/// `modifiers`, `seed`, `draft`, `choiceTimeout`, `coinFlips`).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(dead_code)]
pub struct CreateGameExtras {
    /// The clock; absent for an untimed game.
    clock: Option<ClockSpec>,
    /// White's name, or `engine:N` (N a level from 1, weakest, to 8) to
    /// seat the engine there (issue 15): it plays that colour, its seat
    /// gets no token in the answer, and the game is live at once. Every
    /// rule set but draft mode (`request.engine-unsupported`); modifiers
    /// are played by the session search; a bad level or two engines:
    /// `request.bad-engine`.
    white: Option<String>,
    /// Black's name, or `engine:N` (as `white`).
    black: Option<String>,
    /// The creator's seat (`white` or `black`): only its token is given
    /// and the other seat is open for `join` (or the engine's). Absent:
    /// both tokens (the person's only, with an engine seat).
    seat: Option<String>,
}

/// A lobby line.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LobbyGame {
    /// Id.
    pub id: String,
    /// `open`, `live` or `finished`.
    pub status: String,
    /// The creation request.
    #[schema(value_type = Object)]
    pub request: Value,
    /// The result (`{result, reason}`) when finished, else `null`.
    #[schema(value_type = Option<Object>)]
    pub result: Value,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
    /// How many inputs the game's log holds (moves, choice answers, game
    /// events): 0 while nobody has acted in it.
    pub inputs: i64,
    /// A live game nobody is at: no connection and nothing running on
    /// this server (the game has left memory: no clock, choice timer or
    /// engine runs) and no input for the idle-unload time (`--idle-unload`,
    /// 120 s by default; creation counts as the first). A lobby leaves
    /// such games out of its live list (trial 18: it listed abandoned
    /// games). On a cluster node only the time is known, so a game counts
    /// as abandoned after 10 idle-unload times without an input. `false`
    /// for open and finished games.
    pub abandoned: bool,
}

/// An API error other than findings.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiError {
    /// Stable code.
    pub code: String,
    /// What went wrong.
    pub message: String,
}

pub(crate) fn error(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    (
        status,
        Json(json!({"code": code, "message": message.into()})),
    )
        .into_response()
}

fn refused(findings: Vec<Finding>) -> Response {
    (StatusCode::BAD_REQUEST, Json(Refused { findings })).into_response()
}

/// A finding from a message that starts with a JSON path (`$.x: …`).
fn finding(code: &str, message: &str) -> Finding {
    let (path, rest) = match message.split_once(": ") {
        Some((p, r)) if p.starts_with('$') => (p.to_string(), r.to_string()),
        _ => ("$".to_string(), message.to_string()),
    };
    Finding {
        code: code.into(),
        path,
        message: rest,
    }
}

/// The finding of a key repeated in a request body (`request.duplicate-key`
/// at the path of its object).
fn duplicate_finding(d: &crate::json::DuplicateKey) -> Finding {
    Finding {
        code: "request.duplicate-key".into(),
        path: d.path.clone(),
        message: format!(
            "duplicate key `{}` (a key may appear once in an object)",
            houserules_engine::echo::echo(&d.key)
        ),
    }
}

/// The `{id}` of a game route. A path whose id does not decode to UTF-8
/// text (`/api/games/%00%ff`) is refused with the JSON error of every
/// other refusal (`request.bad-path`) rather than axum's plain text
/// (session-6 web trial).
struct GameId(String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(GameId(id)),
            Err(_) => Err(error(
                StatusCode::BAD_REQUEST,
                "request.bad-path",
                "the game id in the path is not UTF-8 text once percent-decoded",
            )),
        }
    }
}

/// The fields `POST /api/games` accepts: the session's creation request
/// (its JSON schema's properties, so a field added there is accepted here)
/// and the server's own ([`CreateGameExtras`]).
pub fn create_fields() -> Vec<String> {
    let schema = schemars::schema_for!(houserules_session::CreateRequest);
    let mut out: Vec<String> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    out.extend(SERVER_FIELDS.iter().map(|f| f.to_string()));
    out
}

/// The server-only fields of `POST /api/games` ([`CreateGameExtras`]).
const SERVER_FIELDS: &[&str] = &["clock", "white", "black", "seat"];

#[derive(OpenApi)]
#[openapi(
    info(
        title = "houserules server",
        description = "Chess with house rules: games over HTTP and WebSocket (docs/protocol.md)."
    ),
    paths(
        create_game,
        get_game,
        get_pgn,
        get_record,
        list_games,
        join_game,
        name_seat,
        rematch_game,
        rules,
        save_modifier,
        validate,
        healthz,
        readyz,
        metrics,
        ws
    ),
    components(schemas(
        Finding,
        Refused,
        SeatLink,
        Created,
        Joined,
        JoinRequest,
        NameRequest,
        Named,
        Rematched,
        ModifierCreated,
        ModifierReplaced,
        CreateGameExtras,
        ClockSpec,
        LobbyGame,
        LobbyStatus,
        ApiError
    ))
)]
struct ApiDoc;

/// The OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The router: the API, and [`web_assets`] for everything else.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route(
            "/api/games",
            post(create_game)
                .route_layer(axum::middleware::from_fn_with_state(
                    Arc::clone(&state),
                    crate::limits::limit_creations,
                ))
                .get(list_games),
        )
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/pgn", get(get_pgn))
        .route("/api/games/{id}/record", get(get_record))
        .route("/api/games/{id}/join", post(join_game))
        .route("/api/games/{id}/name", post(name_seat))
        .route("/api/games/{id}/rematch", post(rematch_game))
        .route("/api/games/{id}/ws", get(ws))
        .route("/api/rules", get(rules))
        .route(
            "/api/modifiers",
            post(save_modifier).route_layer(axum::middleware::from_fn_with_state(
                Arc::clone(&state),
                crate::limits::limit_modifier_saves,
            )),
        )
        .route("/api/validate", post(validate))
        .route("/api/openapi.json", get(openapi_json))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .fallback(web_assets)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(
            MAX_BODY_BYTES,
        ))
        .layer(axum::middleware::map_response(too_large_as_findings))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            state.config.limits.request_timeout,
        ))
        .layer(axum::middleware::map_response(bare_errors_as_json))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&state),
            observe_request,
        ))
        .with_state(state)
}

/// Times every request into `houserules_http_request_duration_seconds`
/// by its declared route (never the path itself: game ids would make a
/// series each). A refusal by a limit (`408`, `413`) is logged with the
/// route, never with the query (which may hold a seat token).
async fn observe_request(
    State(app): State<Arc<AppState>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or_else(|| "other".to_string(), |p| p.as_str().to_string());
    let method = request.method().to_string();
    let start = std::time::Instant::now();
    let response = next.run(request).await;
    let status = response.status();
    app.metrics
        .http_latency
        .get_or_create(&crate::metrics::RouteLabels {
            route: route.clone(),
            method: method.clone(),
            status: status.as_u16(),
        })
        .observe(start.elapsed().as_secs_f64());
    if status == StatusCode::REQUEST_TIMEOUT {
        app.metrics.refused_because("request-timeout");
        tracing::warn!(%route, %method, reason = "request-timeout", limit_s = app.config.limits.request_timeout.as_secs(), "request refused: not answered in time");
    } else if status == StatusCode::PAYLOAD_TOO_LARGE {
        app.metrics.refused_because("too-large");
        tracing::warn!(%route, %method, reason = "too-large", limit = MAX_BODY_BYTES, "request refused: body too large");
    }
    response
}

/// A `413` from the body limits (tower-http's and axum's answer in plain
/// text) becomes the findings JSON of every other refused request, with
/// the code `request.too-large`.
async fn too_large_as_findings(response: Response) -> Response {
    if response.status() != StatusCode::PAYLOAD_TOO_LARGE {
        return response;
    }
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        Json(Refused {
            findings: vec![Finding {
                code: "request.too-large".into(),
                path: "$".into(),
                message: format!(
                    "the request body is larger than {} bytes (1 MiB), the most this server reads",
                    MAX_BODY_BYTES
                ),
            }],
        }),
    )
        .into_response()
}

/// The bare answers of the routing and timeout layers (axum's `405` for a
/// method a route does not take, tower-http's `408` for a request not
/// complete within `--request-timeout`: empty bodies, no media type) as
/// the JSON error every other refusal is (`request.method-not-allowed`,
/// with the `Allow` header kept; `request.timeout`). Found by a new-user
/// trial: `DELETE /api/games` answered an empty `405`.
async fn bare_errors_as_json(response: Response) -> Response {
    let status = response.status();
    if response.headers().contains_key(header::CONTENT_TYPE)
        || !(status == StatusCode::METHOD_NOT_ALLOWED || status == StatusCode::REQUEST_TIMEOUT)
    {
        return response;
    }
    let allow = response.headers().get(header::ALLOW).cloned();
    let mut answer = if status == StatusCode::METHOD_NOT_ALLOWED {
        let takes = allow
            .as_ref()
            .and_then(|a| a.to_str().ok())
            .map(|a| format!("; it takes {a}"))
            .unwrap_or_default();
        error(
            status,
            "request.method-not-allowed",
            format!("this route does not take this method{takes}"),
        )
    } else {
        error(
            status,
            "request.timeout",
            "the request was not complete within the server's request timeout (--request-timeout)",
        )
    };
    if let Some(a) = allow {
        answer.headers_mut().insert(header::ALLOW, a);
    }
    answer
}

/// Everything the API does not serve: `404` with a JSON error under
/// `/api/`, else the embedded web app (`assets.rs`).
pub async fn web_assets(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return error(
            StatusCode::NOT_FOUND,
            "not-found",
            format!("no API route {}", uri.path()),
        );
    }
    crate::assets::serve(&uri)
}

fn links(id: &str, token: Option<&str>) -> (String, String) {
    match token {
        Some(t) => (
            format!("/games/{id}?token={t}"),
            format!("/api/games/{id}/ws?token={t}"),
        ),
        None => (format!("/games/{id}"), format!("/api/games/{id}/ws")),
    }
}

/// Creates a game.
#[utoipa::path(post, path = "/api/games",
    responses((status = 201, body = Created, description = "The game, its seats' tokens and links (see the response's links)"), (status = 400, body = Refused, description = "The request is refused: not UTF-8 or JSON, a repeated key, an unknown field, a value of the wrong shape, a rule set that cannot be played, or a start position that is over already (`request.game-over`: checkmate, stalemate, insufficient material, naming which) (each finding says what and where)"), (status = 413, body = Refused, description = "The body is over 1 MiB (`request.too-large`)"), (status = 429, body = ApiError, description = "This address created the most games allowed a minute (`request.rate-limited`; `--creations-per-minute`); the `Retry-After` header gives the seconds to wait"), (status = 500, body = ApiError), (status = 503, body = ApiError, description = "The store failed (`server.store`)")))]
async fn create_game(State(app): State<Arc<AppState>>, Text(body): Text) -> Response {
    let v = match houserules_modifiers::validate::strict_json(&body) {
        Ok(Value::Object(o)) => o,
        Ok(_) => {
            return refused(vec![finding(
                "request.bad-json",
                "$: a JSON object is expected",
            )])
        }
        // A repeated key names its object's path (issue 21).
        Err(e) => match crate::json::duplicate_key(body.trim_start_matches('\u{feff}')) {
            Some(d) => return refused(vec![duplicate_finding(&d)]),
            None => return refused(vec![finding("request.bad-json", &format!("$: {e}"))]),
        },
    };
    let mut findings = Vec::new();
    // An unknown field is named with the full list of accepted ones (the
    // session's reader would list only its own, leaving out `clock`,
    // `seat`, `white` and `black`; session-6 web trial).
    let accepted = create_fields();
    for k in v.keys().filter(|k| !accepted.contains(*k)) {
        findings.push(Finding {
            code: "request.unknown-field".into(),
            path: format!("$.{}", houserules_engine::echo::echo(k)),
            message: format!(
                "unknown field `{}` (a game request may have {})",
                houserules_engine::echo::echo(k),
                accepted
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    if let Some(c) = v.get("clock").filter(|c| !c.is_null()) {
        match serde_json::from_value::<ClockSpec>(c.clone()) {
            Ok(spec) => {
                if let Err((path, message)) = spec.check() {
                    findings.push(Finding {
                        code: "request.bad-clock".into(),
                        path,
                        message,
                    });
                }
            }
            Err(e) => findings.push(Finding {
                code: "request.bad-clock".into(),
                path: "$.clock".into(),
                message: format!(
                    "{e} (shape: {{\"initialSeconds\": 300, \"incrementSeconds\": 2}})"
                ),
            }),
        }
    }
    // The engine's seat (issue 15): a player named `engine:N`.
    let mut engine_seat: Option<&str> = None;
    for k in ["white", "black"] {
        if let Some(n) = v.get(k).filter(|n| !n.is_null()) {
            if let Some(message) = name_problem(n.as_str()) {
                findings.push(Finding {
                    code: "request.bad-name".into(),
                    path: format!("$.{k}"),
                    message,
                });
            } else if let Some(level) = n.as_str().and_then(crate::engine::parse_name) {
                match level {
                    Err(message) => findings.push(Finding {
                        code: "request.bad-engine".into(),
                        path: format!("$.{k}"),
                        message,
                    }),
                    Ok(_) if engine_seat.is_some() => findings.push(Finding {
                        code: "request.bad-engine".into(),
                        path: format!("$.{k}"),
                        message: "both seats are the engine: it plays a person, so one of \
                                  `white` and `black` must not be `engine:N`"
                            .into(),
                    }),
                    Ok(_) => engine_seat = Some(k),
                }
            }
        }
    }
    let creator = match v.get("seat") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if engine_seat == Some(s.as_str()) => {
            findings.push(Finding {
                code: "request.bad-seat".into(),
                path: "$.seat".into(),
                message: format!("`seat` is \"{s}\", the engine's seat: take the other one"),
            });
            None
        }
        Some(Value::String(s)) if s == "white" || s == "black" => Some(s.clone()),
        Some(other) => {
            findings.push(Finding {
                code: "request.bad-seat".into(),
                path: "$.seat".into(),
                message: format!("`seat` is \"white\" or \"black\", not {other}"),
            });
            None
        }
    };
    if !findings.is_empty() {
        return refused(findings);
    }
    let mut v = v;
    crate::draw_seed_if_absent(&mut v);
    let rules_line = crate::pgn_export::rules_summary(&v);
    let text = Value::Object(v).to_string();
    let (_, request) = match crate::split_request(&text) {
        Ok(x) => x,
        Err(m) => return refused(vec![finding("request.malformed", &m)]),
    };
    let engine_check = engine_seat.is_some();
    // Where the start position came from, for a game over before it starts.
    let start_field = if request.fen.is_some() {
        "$.fen"
    } else if request.state.is_some() {
        "$.state"
    } else if request.layout.is_some() {
        "$.layout"
    } else if request.game.is_some() {
        "$.game"
    } else {
        "$"
    }
    .to_string();
    let typed_fen = request.fen.is_some();
    let created = tokio::task::spawn_blocking(move || {
        Session::create(request).map(|s| {
            // A typed position is held to what the command line holds it
            // to (trial 18: a white pawn on a1 was accepted and moved):
            // no piece where play cannot put it, no more royals than the
            // rules allow. Checked at creation only, so that a game
            // stored before still rebuilds.
            let typed = if typed_fen {
                let g = s.game();
                g.check_royal_count()
                    .and_then(|()| g.check_piece_ranks())
                    .err()
            } else {
                None
            };
            if let Some(e) = typed {
                Ok(Err(e.to_string()))
            } else if s.is_over() {
                Err(s.status())
            } else if engine_check {
                Ok(Ok(crate::engine::supports(&s).err()))
            } else {
                Ok(Ok(None))
            }
        })
    })
    .await;
    match created {
        Ok(Ok(Ok(Err(why)))) => {
            return refused(vec![Finding {
                code: "request.invalid".into(),
                path: "$.fen".into(),
                message: why,
            }])
        }
        Ok(Ok(Ok(Ok(None)))) => {}
        Ok(Ok(Ok(Ok(Some(why))))) => {
            return refused(vec![Finding {
                code: "request.engine-unsupported".into(),
                path: format!("$.{}", engine_seat.unwrap_or("black")),
                message: why,
            }])
        }
        // Regression (session-14 trial): a game over at its start (a FEN
        // of bare kings) was listed as `live` with no result and its state
        // listed legal moves. Nothing can be played in it: refused.
        Ok(Ok(Err(status))) => {
            return refused(vec![Finding {
                code: "request.game-over".into(),
                path: start_field,
                message: game_over_message(&status),
            }])
        }
        Ok(Err(r)) => return refused(vec![finding(r.code, &r.message)]),
        Err(e) => {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "server.rules",
                e.to_string(),
            )
        }
    }
    let id = crate::random_hex(6);
    let mut tokens = [Some(crate::random_token()), Some(crate::random_token())];
    // The engine's seat keeps a token that is never given out: the seat
    // is taken (no join), and no one can act for the engine.
    match (engine_seat, creator.as_deref()) {
        (Some(_), _) | (None, None) => {}
        (None, Some("white")) => tokens[1] = None,
        (None, Some(_)) => tokens[0] = None,
    }
    let open = engine_seat.is_none() && creator.is_some();
    let row = GameRow {
        id: id.clone(),
        request: text,
        white_token: tokens[0].clone(),
        black_token: tokens[1].clone(),
        status: if open { "open" } else { "live" }.into(),
        result: None,
        created_ms: now_ms(),
    };
    if let Err(e) = app.store.create_game(&row).await {
        return store_failed(&app, e);
    }
    app.metrics.games_created.inc();
    // On a cluster the line names the node that made the game (trial 19).
    let node = app.cluster().map(|c| c.node());
    tracing::info!(game = %id, rules = %rules_line, open, engine = ?engine_seat, node, "game created");
    let mut seats = std::collections::BTreeMap::new();
    for (name, t) in ["white", "black"].iter().zip(&tokens) {
        if let Some(t) = t.as_ref().filter(|_| engine_seat != Some(*name)) {
            let (url, ws) = links(&id, Some(t));
            seats.insert(
                name.to_string(),
                SeatLink {
                    token: t.clone(),
                    url,
                    ws,
                },
            );
        }
    }
    let (spectate_url, spectate_ws) = links(&id, None);
    // Start its task now, so that its timers run.
    if let Err(e) = app.game(&id).await {
        return error(StatusCode::INTERNAL_SERVER_ERROR, "server.rules", e);
    }
    (
        StatusCode::CREATED,
        Json(Created {
            id,
            seats,
            spectate_url,
            spectate_ws,
        }),
    )
        .into_response()
}

/// Why a start position is over already, from the session's status
/// (`{"status": "checkmate", "winner": "black"}`).
fn game_over_message(status: &Value) -> String {
    let name = status["status"].as_str().unwrap_or("over");
    let why = match name {
        "checkmate" => format!(
            "checkmate ({} wins)",
            status["winner"].as_str().unwrap_or("the other side")
        ),
        "stalemate" => "stalemate (a draw)".to_string(),
        "insufficient-material" => {
            "insufficient material: neither side can mate (a draw)".to_string()
        }
        "seventy-five-move-rule" => {
            "the 75-move rule: 75 moves each without a capture or pawn move (a draw)".to_string()
        }
        other => match status["winner"].as_str() {
            Some(w) => format!("`{other}` ({w} wins)"),
            None => format!("`{other}`"),
        },
    };
    format!("the game is over before it starts: {why}; give a position with a move to play")
}

async fn handle(app: &AppState, id: &str) -> Result<GameHandle, Response> {
    match app.game(id).await {
        Ok(Some(h)) => Ok(h),
        Ok(None) => Err(error(
            StatusCode::NOT_FOUND,
            "game.not-found",
            format!("no game {id}"),
        )),
        Err(e) => Err(error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server.rebuild",
            e,
        )),
    }
}

async fn ask<T>(
    h: &GameHandle,
    cmd: impl FnOnce(oneshot::Sender<T>) -> Cmd,
) -> Result<T, Response> {
    let (tx, rx) = oneshot::channel();
    let gone = || {
        error(
            StatusCode::SERVICE_UNAVAILABLE,
            "game.unavailable",
            "the game's task stopped",
        )
    };
    h.tx.send(cmd(tx)).await.map_err(|_| gone())?;
    rx.await.map_err(|_| gone())
}

/// The full state of a game.
#[utoipa::path(get, path = "/api/games/{id}", params(("id" = String, Path)),
    responses((status = 200, body = Object, description = "The full state of the game (the `GameState` schema: the session output plus the game-level fields), as the WebSocket's `welcome` and `state` carry it"), (status = 400, body = ApiError, description = "The id in the path is not UTF-8 text (`request.bad-path`)"), (status = 404, body = ApiError, description = "No such game (`game.not-found`)"), (status = 500, body = ApiError, description = "The stored game does not rebuild (`server.rebuild`)"), (status = 503, body = ApiError, description = "The game's task or the store is unavailable (`game.unavailable`, `server.store`)")))]
async fn get_game(State(app): State<Arc<AppState>>, GameId(id): GameId) -> Response {
    match app.read_view(&id).await {
        Ok(v) => Json(v).into_response(),
        Err(e) => read_failed(&app, &id, e),
    }
}

/// A failed read of a game ([`crate::archive`]) as an answer.
fn read_failed(app: &AppState, id: &str, e: crate::archive::ReadError) -> Response {
    match e {
        crate::archive::ReadError::NotFound => error(
            StatusCode::NOT_FOUND,
            "game.not-found",
            format!("no game {id}"),
        ),
        crate::archive::ReadError::Store(e) => store_failed(app, e),
        crate::archive::ReadError::Rebuild(e) => {
            error(StatusCode::INTERNAL_SERVER_ERROR, "server.rebuild", e)
        }
        crate::archive::ReadError::Unavailable(e) => {
            error(StatusCode::SERVICE_UNAVAILABLE, "game.unavailable", e)
        }
    }
}

/// The game as PGN.
#[utoipa::path(get, path = "/api/games/{id}/pgn", params(("id" = String, Path)),
    responses((status = 200, content_type = "application/x-chess-pgn", body = String), (status = 400, body = ApiError, description = "The id in the path is not UTF-8 text (`request.bad-path`)"), (status = 404, body = ApiError, description = "No such game (`game.not-found`)"), (status = 500, body = ApiError, description = "The stored game does not rebuild (`server.rebuild`)"), (status = 503, body = ApiError, description = "The game's task or the store is unavailable (`game.unavailable`, `server.store`)")))]
async fn get_pgn(State(app): State<Arc<AppState>>, GameId(id): GameId) -> Response {
    match app.read_pgn(&id).await {
        Ok(text) => ([(header::CONTENT_TYPE, "application/x-chess-pgn")], text).into_response(),
        Err(e) => read_failed(&app, &id, e),
    }
}

/// The creation request and every accepted input with its seq and time.
#[utoipa::path(get, path = "/api/games/{id}/record", params(("id" = String, Path)),
    responses((status = 200, body = Object, description = "{id, request, inputs: [{seq, atMs, input, clock}], result}"), (status = 400, body = ApiError, description = "The id in the path is not UTF-8 text (`request.bad-path`)"), (status = 404, body = ApiError, description = "No such game (`game.not-found`)"), (status = 500, body = ApiError, description = "The stored game does not rebuild (`server.rebuild`)"), (status = 503, body = ApiError, description = "The game's task or the store is unavailable (`game.unavailable`, `server.store`)")))]
async fn get_record(State(app): State<Arc<AppState>>, GameId(id): GameId) -> Response {
    match app.read_record(&id).await {
        Ok(v) => Json(v).into_response(),
        Err(e) => read_failed(&app, &id, e),
    }
}

/// A game's status in the lobby (the document's enum of `status`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum LobbyStatus {
    /// Waiting for a player to join.
    Open,
    /// Being played.
    Live,
    /// Over.
    Finished,
}

/// Lobby filter.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `open`, `live` or `finished`; all when absent.
    #[param(value_type = LobbyStatus, required = false)]
    status: Option<String>,
}

/// Games for a lobby (newest first, at most 100).
#[utoipa::path(get, path = "/api/games", params(ListQuery),
    responses((status = 200, body = Vec<LobbyGame>), (status = 400, body = ApiError, description = "A bad query (`query.bad-status`, `query.invalid`)"), (status = 503, body = ApiError, description = "The store failed (`server.store`)")))]
async fn list_games(
    State(app): State<Arc<AppState>>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Response {
    if let Some(s) = &q.status {
        if !["open", "live", "finished"].contains(&s.as_str()) {
            return error(
                StatusCode::BAD_REQUEST,
                "query.bad-status",
                format!("status is open, live or finished, not {s}"),
            );
        }
    }
    let rows = match app.store.list(q.status.as_deref(), 100).await {
        Ok(rows) => rows,
        Err(e) => return store_failed(&app, e),
    };
    let now = crate::game::now_ms();
    let idle = i64::try_from(app.config.timing.idle_unload.as_millis()).unwrap_or(i64::MAX);
    let clustered = app.cluster().is_some();
    let mut games = Vec::with_capacity(rows.len());
    for r in rows {
        let last = r.last_input_ms.unwrap_or(r.created_ms).max(r.created_ms);
        let quiet_for = now.saturating_sub(last);
        let abandoned = r.status == "live"
            && if clustered {
                quiet_for >= idle.saturating_mul(10)
            } else {
                quiet_for >= idle && app.registry().loaded(&r.id).await.is_none()
            };
        games.push((r, abandoned));
    }
    {
        let rows = games;
        Json(
            rows.into_iter()
                .map(|(r, abandoned)| LobbyGame {
                    abandoned,
                    id: r.id,
                    status: r.status,
                    request: serde_json::from_str(&r.request).unwrap_or(Value::Null),
                    result: r
                        .result
                        .and_then(|t| serde_json::from_str(&t).ok())
                        .unwrap_or(Value::Null),
                    created_ms: r.created_ms,
                    inputs: r.inputs,
                })
                .collect::<Vec<_>>(),
        )
        .into_response()
    }
}

/// The body of `POST /api/games/{id}/join` (may be empty).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(dead_code)]
pub struct JoinRequest {
    /// The joiner's name, for a seat the creator left unnamed (at most 100
    /// characters, not empty, no control or bidi character, not
    /// `engine:…`: else `request.bad-name`). Absent: unnamed ("Anonymous"
    /// on the page, `?` in the PGN) until `POST /api/games/{id}/name`.
    name: Option<String>,
}

/// The body of `POST /api/games/{id}/name`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(dead_code)]
pub struct NameRequest {
    /// The seat's name (as [`JoinRequest`]'s).
    name: String,
}

/// `200` of `POST /api/games/{id}/name`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Named {
    /// `white` or `black`.
    pub seat: String,
    /// The name now kept (trimmed).
    pub name: String,
}

/// Takes the free seat of an open game, named with the body's `name` when
/// the creator left it unnamed (issue 26).
#[utoipa::path(post, path = "/api/games/{id}/join", params(("id" = String, Path)),
    request_body(content = Option<JoinRequest>, description = "Optional: `{\"name\": \"Ann\"}` names the seat taken (an empty body takes it unnamed). Any media type is read as JSON."),
    responses((status = 200, body = Joined), (status = 400, body = Refused, description = "The body is not a JSON object with only `name`, or the name is refused (`request.bad-json`, `request.unknown-field`, `request.bad-name`: over 100 characters, empty, a control or bidi character, `engine:…`) as `Refused`; the id in the path is not UTF-8 text (`request.bad-path`) as `ApiError`"), (status = 409, body = ApiError, description = "No seat is free (`game.no-free-seat`)"), (status = 404, body = ApiError, description = "No such game (`game.not-found`)"), (status = 413, body = Refused, description = "The body is over 1 MiB (`request.too-large`)"), (status = 500, body = ApiError, description = "The stored game does not rebuild (`server.rebuild`)"), (status = 503, body = ApiError, description = "The game's task or the store is unavailable (`game.unavailable`, `server.store`)")))]
async fn join_game(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    Text(body): Text,
) -> Response {
    let name = match name_body(&body, false) {
        Ok(n) => n,
        Err(r) => return r,
    };
    let h = match handle(&app, &id).await {
        Ok(h) => h,
        Err(r) => return r,
    };
    match ask(&h, |reply| Cmd::Join { name, reply }).await {
        Ok(Ok((seat, token, name))) => {
            let (url, ws) = links(&id, Some(&token));
            let seat = if seat == Seat::White {
                "white"
            } else {
                "black"
            };
            Json(Joined {
                seat: seat.into(),
                name,
                link: SeatLink { token, url, ws },
            })
            .into_response()
        }
        Ok(Err(m)) => error(StatusCode::CONFLICT, "game.no-free-seat", m),
        Err(r) => r,
    }
}

/// Names the seat of the bearer's token, once, while it has no name
/// (issue 26: an invited friend had no way to give one).
#[utoipa::path(post, path = "/api/games/{id}/name",
    params(("id" = String, Path), ("Authorization" = String, Header, description = "`Bearer TOKEN`, the token of the seat to name")),
    request_body(content = NameRequest, description = "`{\"name\": \"Ann\"}`. Any media type is read as JSON."),
    responses((status = 200, body = Named, description = "The seat is named: the state's `players` and the PGN say so"), (status = 400, body = Refused, description = "The body is not a JSON object with only `name`, or the name is refused (`request.bad-json`, `request.unknown-field`, `request.bad-name`: missing, over 100 characters, empty, a control or bidi character, `engine:…`) as `Refused`; the id in the path is not UTF-8 text (`request.bad-path`) as `ApiError`"), (status = 401, body = ApiError, description = "No `Authorization: Bearer TOKEN` header (`request.no-token`)"), (status = 403, body = ApiError, description = "The token opens no seat of this game (`seat.bad-token`)"), (status = 409, body = ApiError, description = "The seat has a name already (`name.already-set`): a seat is named once"), (status = 404, body = ApiError, description = "No such game (`game.not-found`)"), (status = 413, body = Refused, description = "The body is over 1 MiB (`request.too-large`)"), (status = 500, body = ApiError, description = "The stored game does not rebuild (`server.rebuild`)"), (status = 503, body = ApiError, description = "The game's task or the store is unavailable (`game.unavailable`, `server.store`)")))]
async fn name_seat(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: axum::http::HeaderMap,
    Text(body): Text,
) -> Response {
    let Some(token) = bearer(&headers) else {
        let mut r = error(
            StatusCode::UNAUTHORIZED,
            "request.no-token",
            "a seat is named with its token: `Authorization: Bearer TOKEN`",
        );
        r.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            axum::http::HeaderValue::from_static("Bearer"),
        );
        return r;
    };
    let name = match name_body(&body, true) {
        Ok(Some(n)) => n,
        Ok(None) => {
            return refused(vec![finding(
                "request.bad-name",
                "$.name: the body names the seat",
            )])
        }
        Err(r) => return r,
    };
    let h = match handle(&app, &id).await {
        Ok(h) => h,
        Err(r) => return r,
    };
    let kept = name.clone();
    match ask(&h, |reply| Cmd::Name { token, name, reply }).await {
        Ok(Ok(seat)) => Json(Named {
            seat: if seat == Seat::White {
                "white"
            } else {
                "black"
            }
            .into(),
            name: kept,
        })
        .into_response(),
        Ok(Err(e)) => error(
            StatusCode::from_u16(e.status).unwrap_or(StatusCode::CONFLICT),
            &e.code,
            e.message,
        ),
        Err(r) => r,
    }
}

/// The seat token of `Authorization: Bearer TOKEN`, if the header is there
/// and reads so.
fn bearer(headers: &axum::http::HeaderMap) -> Option<String> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
        .filter(|t| !t.is_empty())
}

/// Asks for a rematch of a finished game, or accepts the opponent's
/// (issue 26; `crate::game::rematch`): the first player's request creates
/// the new game (same rules and clock, colours swapped, the same opponent:
/// an engine accepts at once) and answers `201` with this player's seat in
/// it; the opponent, offered it on the page (the state's `rematch`),
/// accepts with the same route and its own token (`200`, its seat) or
/// declines with the WebSocket message `decline-rematch`. Asked again
/// after the agreement, it answers the seat again (`200`).
#[utoipa::path(post, path = "/api/games/{id}/rematch",
    params(("id" = String, Path), ("Authorization" = String, Header, description = "`Bearer TOKEN`, the seat token of a player of the finished game")),
    responses((status = 201, body = Rematched, description = "The new game was made: this player's seat in it"), (status = 200, body = Rematched, description = "The opponent's offer is accepted (or was): this player's seat in the new game"), (status = 401, body = ApiError, description = "No `Authorization: Bearer TOKEN` header (`request.no-token`)"), (status = 403, body = ApiError, description = "The token opens no seat of this game (`seat.bad-token`)"), (status = 409, body = ApiError, description = "The game is not over (`game.not-finished`), your offer stands (`rematch.already-offered`), the offer was declined (`rematch.declined`)"), (status = 400, body = ApiError, description = "The id in the path is not UTF-8 text (`request.bad-path`)"), (status = 404, body = ApiError, description = "No such game (`game.not-found`)"), (status = 500, body = ApiError, description = "The stored game does not rebuild (`server.rebuild`)"), (status = 503, body = ApiError, description = "The game's task or the store is unavailable (`game.unavailable`, `server.store`)")))]
async fn rematch_game(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: axum::http::HeaderMap,
) -> Response {
    let Some(token) = bearer(&headers) else {
        let mut r = error(
            StatusCode::UNAUTHORIZED,
            "request.no-token",
            "a rematch is asked for with a seat's token: `Authorization: Bearer TOKEN`",
        );
        r.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            axum::http::HeaderValue::from_static("Bearer"),
        );
        return r;
    };
    let h = match handle(&app, &id).await {
        Ok(h) => h,
        Err(r) => return r,
    };
    match ask(&h, |reply| Cmd::Rematch { token, reply }).await {
        Ok(Ok(seat)) => {
            // Its task now, so that an engine's first move and the clocks
            // run without waiting for a page.
            if let Err(e) = app.game(&seat.game).await {
                return error(StatusCode::INTERNAL_SERVER_ERROR, "server.rebuild", e);
            }
            let (url, ws) = links(&seat.game, Some(&seat.token));
            let status = if seat.created {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            let body = Rematched {
                id: seat.game,
                seat: if seat.seat == Seat::White {
                    "white"
                } else {
                    "black"
                }
                .into(),
                link: SeatLink {
                    token: seat.token,
                    url,
                    ws,
                },
            };
            (status, Json(body)).into_response()
        }
        Ok(Err(e)) => error(
            StatusCode::from_u16(e.status).unwrap_or(StatusCode::CONFLICT),
            &e.code,
            e.message,
        ),
        Err(r) => r,
    }
}

/// Which saved rules `GET /api/rules` lists.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RulesQuery {
    /// Ids of saved rules to list, joined by commas (at most
    /// [`MAX_SAVED_ASKED`]); unknown ids are left out. Without it no saved
    /// rule is listed: a browser asks for the rules it saved (it holds
    /// their owner tokens) and the ones it was given a link to, not every
    /// visitor's (session-14 trial: every saved rule was in every lobby).
    #[param(required = false)]
    saved: Option<String>,
}

/// The most saved-rule ids one `GET /api/rules?saved=…` lists.
pub const MAX_SAVED_ASKED: usize = 200;

/// Games (layouts), presets with descriptions and incompatibilities, the
/// library modifiers, and the saved rules asked for by id.
#[utoipa::path(get, path = "/api/rules", params(RulesQuery), responses((status = 200, body = Object, description = "{games, presets, layouts, modifiers}: `modifiers` lists the built-in library, then the saved rules named in `saved` that exist (`saved: true`, with their descriptor)"), (status = 400, body = ApiError, description = "A bad query (`query.invalid`; `query.too-many-saved`: more than 200 ids)"), (status = 503, body = ApiError, description = "The store failed (`server.store`)")))]
async fn rules(State(app): State<Arc<AppState>>, ApiQuery(q): ApiQuery<RulesQuery>) -> Response {
    let asked: Vec<&str> = q
        .saved
        .as_deref()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if asked.len() > MAX_SAVED_ASKED {
        return error(
            StatusCode::BAD_REQUEST,
            "query.too-many-saved",
            format!(
                "saved names {} ids; at most {MAX_SAVED_ASKED} are listed at once",
                asked.len()
            ),
        );
    }
    use houserules_presets::Layout;
    let layouts: Vec<Value> = [
        ("standard", Some(Layout::Standard)),
        ("chess960", None),
        ("dual-classic", Some(Layout::DualClassic)),
        ("knightmate", Some(Layout::Knightmate)),
        ("monster", Some(Layout::Monster)),
        ("pawns-only", Some(Layout::PawnsOnly)),
    ]
    .into_iter()
    .map(|(id, l)| json!({"id": id, "fen": l.map(|l| l.fen())}))
    .collect();
    // The registry's fields plus `description` (what the preset does), for
    // the lobby's list.
    let presets: Vec<Value> = houserules_presets::PRESETS
        .iter()
        .map(|p| {
            let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.insert("description".into(), p.description().into());
                // Why each incompatible pair cannot be combined, by the other
                // preset's id (the lobby's conflict text; session-6 web trial).
                let reasons: serde_json::Map<String, Value> = houserules_presets::PRESETS
                    .iter()
                    .filter_map(|q| {
                        houserules_presets::registry::incompatibility_reason(p.id, q.id)
                            .map(|r| (q.id.to_string(), Value::from(r)))
                    })
                    .collect();
                m.insert("incompatibleReasons".into(), Value::Object(reasons));
            }
            v
        })
        .collect();
    // The library's entries plus the descriptor's `description`, for the
    // lobby's list (the entry itself carries only id, name and file).
    let mut modifiers: Vec<Value> = houserules_modifiers::library::list()
        .iter()
        .map(|m| {
            let mut v = serde_json::to_value(m).unwrap_or(Value::Null);
            let text: Value = serde_json::from_str(m.text).unwrap_or(Value::Null);
            if let (Value::Object(o), Some(d)) = (&mut v, text["description"].as_str()) {
                o.insert("description".into(), d.into());
            }
            v
        })
        .collect();
    // The rules saved with POST /api/modifiers that were asked for, after
    // the built-in library.
    let saved = if asked.is_empty() {
        Ok(Vec::new())
    } else {
        app.store.saved_modifiers().await.map(|all| {
            all.into_iter()
                .filter(|(id, _)| asked.contains(&id.as_str()))
                .collect::<Vec<_>>()
        })
    };
    match saved {
        Ok(saved) => modifiers.extend(saved.into_iter().map(|(id, text)| {
            let descriptor: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            json!({"id": id, "name": descriptor["name"].as_str().unwrap_or(&id), "saved": true, "descriptor": descriptor})
        })),
        Err(e) => return store_failed(&app, e),
    }
    Json(json!({
        "games": shipped_games(),
        "presets": presets,
        "layouts": layouts,
        "modifiers": modifiers,
    }))
    .into_response()
}

/// The shipped games for the lobby (issue 13: `GET /api/rules` lists the
/// games): id, name, board `width` × `height` in squares, and `modifiers`,
/// whether modifiers can be attached: true for every game since the
/// session runs them on every board the engine holds (issue 12; the field
/// stays for clients that read it).
fn shipped_games() -> Vec<Value> {
    // The YAML games, then lichess's variants built on FIDE chess
    // (`houserules_presets::lichess`; its YAML ones are listed already).
    let lichess = houserules_presets::lichess::LICHESS_GAMES
        .iter()
        .filter(|g| !g.is_yaml())
        .filter_map(|g| {
            let (v, _) = g.build().ok()?;
            // Named as lichess names them (antichess is built from the
            // `suicide-chess` preset on FIDE chess's definition).
            let mut d = v.definition().clone();
            d.id = g.id.into();
            d.name = g.pgn.into();
            Some(d)
        });
    houserules_definitions::builtin_ids()
        .into_iter()
        .filter_map(houserules_definitions::builtin)
        .chain(lichess)
        .map(|d| {
            let description = format!("{}×{} board", d.width, d.height);
            json!({
                "id": d.id,
                "name": d.name,
                "width": d.width,
                "height": d.height,
                "modifiers": true,
                "description": description,
            })
        })
        .collect()
}

/// `201` of `POST /api/modifiers`: a rule saved under a new id.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModifierCreated {
    /// The rule's id.
    pub id: String,
    /// The owner token (192 random bits, hex), given this once: saving
    /// this id again needs it as `Authorization: Bearer TOKEN`. The
    /// server keeps only its SHA-256.
    pub owner_token: String,
}

/// `200` of `POST /api/modifiers`: the owner saved its rule again.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ModifierReplaced {
    /// The rule's id.
    pub id: String,
}

/// The SHA-256 of an owner token, hex: what the store keeps.
fn token_hash(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Saves a modifier descriptor to the library (listed by GET /api/rules
/// with `saved: true` and the descriptor, which a creation request may
/// then carry inline). Issue 13 does not name this route; the web app's
/// editor uses it.
///
/// A saved rule is owned (session-14 trial: anyone could overwrite anyone's
/// rule under its id): the first save of an id answers `201` with an owner
/// token, given once; saving that id again needs `Authorization: Bearer
/// TOKEN` (`200`), else `403 modifier.not-owner` and the rule is kept as it
/// was. A rule saved before rules had owners is claimed by its next save.
/// Saves are rate-limited per address (`--modifier-saves-per-minute`).
#[utoipa::path(post, path = "/api/modifiers",
    security((), ("owner_token" = [])),
    responses((status = 201, body = ModifierCreated, description = "Saved under a new id: the owner token, given this once"), (status = 200, body = ModifierReplaced, description = "The owner (its token in `Authorization`) saved its rule again"), (status = 400, body = Object, description = "{ok: false, findings}: the descriptor is refused (or `{findings}` for a body that is not UTF-8)"), (status = 403, body = ApiError, description = "The id is saved already and the request has no `Authorization: Bearer TOKEN` or not its owner's (`modifier.not-owner`): the rule is kept as it was"), (status = 409, body = Object, description = "{ok: false, findings}: the id is a library modifier's (`modifier.id-taken`)"), (status = 413, body = Refused, description = "The body is over 1 MiB (`request.too-large`)"), (status = 429, body = ApiError, description = "This address saved the most rules allowed a minute (`request.rate-limited`; `--modifier-saves-per-minute`); the `Retry-After` header gives the seconds to wait"), (status = 500, body = ApiError), (status = 503, body = ApiError, description = "The store failed (`server.store`)")))]
async fn save_modifier(
    State(app): State<Arc<AppState>>,
    headers: axum::http::HeaderMap,
    Text(body): Text,
) -> Response {
    if let Some(d) = crate::json::duplicate_key(body.trim_start_matches('\u{feff}')) {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"ok": false, "findings": [duplicate_finding(&d)]})),
        )
            .into_response();
    }
    let checked = tokio::task::spawn_blocking(move || {
        houserules_modifiers::validate::validate(&body).map(|d| (d.id.to_string(), body))
    })
    .await;
    match checked {
        // A library id would make two modifiers of one name in the lobby,
        // and games with the saved one would read as the library's (web
        // trial, session 7).
        Ok(Ok((id, _))) if houserules_modifiers::library::entry(&id).is_some() => (
            StatusCode::CONFLICT,
            Json(json!({"ok": false, "findings": [{
                "code": "modifier.id-taken",
                "path": "$.id",
                "message": format!(
                    "`{id}` is the id of a library modifier; give the descriptor an id of its own"
                ),
            }]})),
        )
            .into_response(),
        Ok(Ok((id, text))) => {
            let token = crate::random_token();
            let owner = crate::store::ModifierOwner {
                new_hash: token_hash(&token),
                given_hash: bearer(&headers).map(|t| token_hash(&t)),
            };
            match app.store.save_modifier(&id, &text, &owner, now_ms()).await {
                Ok(crate::store::Saved::Created) => {
                    tracing::info!(modifier = %id, "modifier saved");
                    (
                        StatusCode::CREATED,
                        Json(ModifierCreated {
                            id,
                            owner_token: token,
                        }),
                    )
                        .into_response()
                }
                Ok(crate::store::Saved::Replaced) => {
                    tracing::info!(modifier = %id, "modifier saved again by its owner");
                    Json(ModifierReplaced { id }).into_response()
                }
                Ok(crate::store::Saved::NotOwner) => {
                    let why = if owner.given_hash.is_some() {
                        "the token in `Authorization` is not the owner token of"
                    } else {
                        "there is no `Authorization: Bearer TOKEN` (the owner token its first save gave) for"
                    };
                    error(
                        StatusCode::FORBIDDEN,
                        "modifier.not-owner",
                        format!(
                            "`{}` is saved already and {why} it: only its owner saves it again; \
                             give your rule another id",
                            houserules_engine::echo::echo(&id)
                        ),
                    )
                }
                Err(e) => store_failed(&app, e),
            }
        }
        Ok(Err(findings)) => (
            StatusCode::BAD_REQUEST,
            Json(json!({"ok": false, "findings": findings})),
        )
            .into_response(),
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("checking the descriptor failed: {e}"),
        ),
    }
}

fn store_failed(app: &AppState, e: crate::store::StoreError) -> Response {
    app.metrics.store_errors.inc();
    tracing::error!(error = %e, "store error");
    error(
        StatusCode::SERVICE_UNAVAILABLE,
        "server.store",
        e.to_string(),
    )
}

/// Checks a modifier descriptor (JSON) or a YAML game file.
#[utoipa::path(post, path = "/api/validate",
    responses((status = 200, body = Object, description = "{ok, kind, findings: [{code, path?, message, line?, column?}]}, and for a valid game `preview: {fen, legalMoves}` (its start position and legal moves in UCI)"), (status = 400, body = Refused, description = "An empty body (`request.empty`), one that is not UTF-8 (`request.bad-utf8`), or a repeated JSON key (`request.duplicate-key`)"), (status = 413, body = Refused, description = "The body is over 1 MiB (`request.too-large`)"), (status = 500, body = ApiError)))]
async fn validate(Text(body): Text) -> Response {
    // An empty body is no descriptor nor game to check (it was answered
    // 200 with a YAML finding; issue 23).
    if body.trim().is_empty() {
        return crate::input::body_refused(
            StatusCode::BAD_REQUEST,
            "request.empty",
            "the body is empty: send a modifier descriptor (JSON) or a YAML game file".into(),
        );
    }
    if let Some(d) = crate::json::duplicate_key(body.trim_start_matches('\u{feff}')) {
        return refused(vec![duplicate_finding(&d)]);
    }
    let report = tokio::task::spawn_blocking(move || {
        let trimmed = body.trim_start_matches('\u{feff}').trim_start();
        if trimmed.starts_with('{') {
            match houserules_modifiers::validate::validate(&body) {
                Ok(d) => json!({"ok": true, "kind": "descriptor", "id": d.id, "findings": []}),
                Err(f) => json!({"ok": false, "kind": "descriptor", "findings": f}),
            }
        } else {
            match houserules_definitions::load_variant_str("game.yaml", &body) {
                Ok(v) => {
                    let id = v.definition().id.clone();
                    // The web app's YAML editor draws this start position and
                    // its legal moves (UCI) on a preview board.
                    let preview = houserules_engine::Game::from_fen(v, "startpos")
                        .map(|g| {
                            let moves: Vec<String> =
                                g.legal_moves().into_iter().map(|m| g.uci(m)).collect();
                            json!({"fen": g.fen(), "legalMoves": moves})
                        })
                        .unwrap_or(Value::Null);
                    json!({"ok": true, "kind": "game", "id": id, "findings": [], "preview": preview})
                }
                Err(diags) => {
                    let findings: Vec<Value> = diags
                        .iter()
                        .map(|d| {
                            let (line, column) = d.line_col();
                            // `help`: the diagnostic's hint ("did you mean
                            // `width`?"), shown by the YAML editor.
                            json!({"code": d.code().as_str(), "message": d.message(), "line": line, "column": column, "help": d.help_text()})
                        })
                        .collect();
                    json!({"ok": false, "kind": "game", "findings": findings})
                }
            }
        }
    })
    .await;
    match report {
        Ok(v) => Json(v).into_response(),
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server.validate",
            e.to_string(),
        ),
    }
}

/// Liveness: the process answers (`200 ok`). A load balancer restarts
/// a process that fails it; it says nothing of the store (see `/readyz`).
#[utoipa::path(get, path = "/healthz", responses((status = 200, content_type = "text/plain", body = String, description = "`ok`")))]
async fn healthz() -> &'static str {
    "ok\n"
}

/// Readiness: `200 ready` when the store answers (reachable and
/// migrated), the server is not stopping and, on a cluster node, NATS is
/// connected; else `503` with the JSON
/// error `server.not-ready` saying what. A load balancer sends traffic
/// only to a ready server (docs/operations.md).
#[utoipa::path(get, path = "/readyz", responses((status = 200, content_type = "text/plain", body = String, description = "`ready`"), (status = 503, body = ApiError, description = "The store does not answer, the server is stopping, or a cluster node has lost NATS (`server.not-ready`)")))]
async fn readyz(State(app): State<Arc<AppState>>) -> Response {
    match app.ready().await {
        Ok(()) => "ready\n".into_response(),
        Err(why) => {
            tracing::warn!(reason = %why, "not ready");
            error(StatusCode::SERVICE_UNAVAILABLE, "server.not-ready", why)
        }
    }
}

/// Prometheus metrics.
#[utoipa::path(get, path = "/metrics", responses((status = 200, content_type = "application/openmetrics-text", body = String, description = "The OpenMetrics text exposition (version 1.0.0)")))]
async fn metrics(State(app): State<Arc<AppState>>) -> Response {
    app.metrics
        .tcp_connections
        .set(app.connections.count() as i64);
    if let Some(c) = app.cluster() {
        c.observe(&app.metrics.cluster).await;
    }
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        app.metrics.encode(),
    )
        .into_response()
}

async fn openapi_json() -> Response {
    match serde_json::to_string_pretty(&crate::apidoc::document()) {
        Ok(t) => ([(header::CONTENT_TYPE, "application/json")], t).into_response(),
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server.openapi",
            e.to_string(),
        ),
    }
}

/// Token query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WsQuery {
    /// A seat token; absent for a spectator.
    token: Option<String>,
}

/// The game's WebSocket (docs/protocol.md).
#[utoipa::path(get, path = "/api/games/{id}/ws", params(("id" = String, Path), WsQuery),
    responses((status = 101, description = "Switching to the WebSocket protocol"), (status = 400, body = ApiError, description = "Not a WebSocket handshake (`request.not-websocket`), a bad query (`query.invalid`) or a bad id (`request.bad-path`)"), (status = 403, body = ApiError, description = "The token opens no seat (`seat.bad-token`)"), (status = 404, body = ApiError, description = "No such game (`game.not-found`)"), (status = 500, body = ApiError), (status = 503, body = ApiError)))]
async fn ws(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    ApiQuery(q): ApiQuery<WsQuery>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let h = match handle(&app, &id).await {
        Ok(h) => h,
        Err(r) => return r,
    };
    // A request without the WebSocket handshake headers gets the API's
    // JSON error (axum answers plain text), after the game's 404.
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                "request.not-websocket",
                format!("this route opens a WebSocket: {}", e.body_text()),
            )
        }
    };
    let seat = match q.token {
        None => Seat::Spectator,
        Some(token) => match ask(&h, |reply| Cmd::SeatOf { token, reply }).await {
            Ok(Some(s)) => s,
            Ok(None) => {
                return error(
                    StatusCode::FORBIDDEN,
                    "seat.bad-token",
                    "the token opens no seat of this game",
                )
            }
            Err(r) => return r,
        },
    };
    let rate = match app.config.rate_per_second {
        0 => 20,
        n => n,
    };
    let limits = &app.config.limits;
    let settings = crate::ws::WsSettings {
        rate,
        queue: limits.ws_queue,
        idle: limits.ws_idle_timeout,
        write_timeout: limits.ws_write_timeout,
        shutdown: app.shutdown.subscribe(),
        metrics: Arc::clone(&app.metrics),
    };
    let span = tracing::info_span!("ws", game = %id, seat = ?seat, node = tracing::field::Empty);
    if let Some(c) = app.cluster() {
        span.record("node", c.node());
    }
    // Frames up to 1 MiB are read so that a message over the protocol's
    // 64 KiB gets an error reply rather than a dropped connection.
    // A read buffer of 8 KiB rather than tungstenite's 128 KiB, allocated
    // per connection up front: client messages are small (a move is under
    // 100 bytes), a larger one is read in several chunks, and 20,000
    // sockets would hold 2.5 GiB of buffers (docs/load.md). Every message
    // is written at once (the writer flushes each).
    upgrade
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_message_size(MAX_BODY_BYTES)
        .max_frame_size(MAX_BODY_BYTES)
        .on_upgrade(move |socket| {
            tracing::Instrument::instrument(crate::ws::run(socket, h, seat, settings), span)
        })
}

/// What is wrong with a player's name, if anything: not a string, over
/// 100 characters, or holding a control or bidi character (trial 20: an
/// escape went unchanged into the PGN's tag, and a right-to-left override
/// reversed the lobby's line around it). The same words at creation and
/// when a seat is named later.
fn name_problem(name: Option<&str>) -> Option<String> {
    let Some(n) = name.filter(|s| s.chars().count() <= 100) else {
        return Some("a player's name is a string of at most 100 characters".into());
    };
    name_control(n).map(|(i, c)| {
        format!(
            "a player's name has no control characters: U+{:04X} at character {}",
            c as u32,
            i + 1
        )
    })
}

/// A name given after creation (`join`, `name`): as at creation, and not
/// empty and not `engine:…` (that names the computer's seat: a person
/// named so would be taken for it at the next load). Trimmed.
fn seat_name(v: Option<&Value>) -> Result<Option<String>, Finding> {
    let bad = |message: String| Finding {
        code: "request.bad-name".into(),
        path: "$.name".into(),
        message,
    };
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    if let Some(m) = name_problem(v.as_str()) {
        return Err(bad(m));
    }
    let n = v.as_str().unwrap_or_default().trim();
    if n.is_empty() {
        return Err(bad(
            "a player's name is not empty: leave `name` out to stay unnamed".into(),
        ));
    }
    if crate::engine::parse_name(n).is_some() {
        return Err(bad(format!(
            "`{}` names the computer's seat (`engine:N`): a person's name does not start with `engine:`",
            houserules_engine::echo::echo(n)
        )));
    }
    Ok(Some(n.to_string()))
}

/// The body of `join` and `name`: empty (for `join`), or a JSON object
/// whose only field is `name`.
// The refusal is the response itself, made once on a cold path (a boxed
// one would be unboxed at once by every caller).
#[allow(clippy::result_large_err)]
fn name_body(body: &str, required: bool) -> Result<Option<String>, Response> {
    let body = body.trim_start_matches('\u{feff}');
    if body.trim().is_empty() {
        if required {
            return Err(refused(vec![finding(
                "request.bad-name",
                "$.name: the body names the seat: {\"name\": \"Ann\"}",
            )]));
        }
        return Ok(None);
    }
    let v = match houserules_modifiers::validate::strict_json(body) {
        Ok(Value::Object(o)) => o,
        Ok(_) => {
            return Err(refused(vec![finding(
                "request.bad-json",
                "$: a JSON object is expected: {\"name\": \"Ann\"}",
            )]))
        }
        Err(e) => match crate::json::duplicate_key(body) {
            Some(d) => return Err(refused(vec![duplicate_finding(&d)])),
            None => {
                return Err(refused(vec![finding(
                    "request.bad-json",
                    &format!("$: {e}"),
                )]))
            }
        },
    };
    let mut findings: Vec<Finding> = v
        .keys()
        .filter(|k| *k != "name")
        .map(|k| Finding {
            code: "request.unknown-field".into(),
            path: format!("$.{}", houserules_engine::echo::echo(k)),
            message: format!(
                "unknown field `{}` (the body may have `name`)",
                houserules_engine::echo::echo(k)
            ),
        })
        .collect();
    let name = match seat_name(v.get("name")) {
        Ok(n) => n,
        Err(f) => {
            findings.push(f);
            None
        }
    };
    if name.is_none() && required && findings.is_empty() {
        findings.push(Finding {
            code: "request.bad-name".into(),
            path: "$.name".into(),
            message: "the body names the seat: {\"name\": \"Ann\"}".into(),
        });
    }
    if findings.is_empty() {
        Ok(name)
    } else {
        Err(refused(findings))
    }
}

/// The first control character of a player's name and its index (in
/// characters): C0 and C1 controls, and the explicit bidirectional
/// controls (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which would
/// reorder the text around the name wherever it is shown.
fn name_control(name: &str) -> Option<(usize, char)> {
    name.chars().enumerate().find(|(_, c)| {
        c.is_control()
            || matches!(*c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stored form of an owner token is its SHA-256 in hex: FIPS
    /// 180-2's test vector, SHA-256("abc").
    #[test]
    fn owner_tokens_are_stored_as_sha256() {
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
