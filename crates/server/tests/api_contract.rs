//! The OpenAPI document is the contract (issue 23): the refusals
//! schemathesis found answered in plain text or undocumented, each a
//! regression test, and the document's own promises (nullability,
//! `additionalProperties`, links, media types). Duplicate JSON keys are
//! refused naming the key and its object (issue 21). The whole document is
//! fuzzed by `scripts/api-fuzz`. The answers do not depend on the store, so
//! these run on SQLite only.

mod common;

use std::net::SocketAddr;

use common::{create, get_json, http, http_full, start, Backend, Client};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Sends `head` (the request line and headers, without the blank line)
/// and the raw `body` bytes; returns (status, lower-cased head, body).
async fn raw(addr: SocketAddr, head: &str, body: &[u8]) -> (u16, String, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{head}\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    s.write_all(body).await.unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let status: u16 = text[9..12].parse().unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// The answer is JSON (its media type and its body).
fn json_body(head: &str, body: &str) -> Value {
    assert!(
        head.contains("content-type: application/json"),
        "not a JSON answer: {head}\n{body}"
    );
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// schemathesis ST105: a body that is not UTF-8 got axum's `text/plain`
/// 400; now the findings JSON, naming the first bad byte (hand count: the
/// 0xff after `{"a":` is byte 5).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_is_not_utf8_gets_the_json_refusal() {
    let s = start(Backend::Sqlite).await;
    for path in ["/api/games", "/api/modifiers", "/api/validate"] {
        let (status, head, body) = raw(
            s.addr,
            &format!("POST {path} HTTP/1.1\r\nContent-Type: application/json"),
            b"{\"a\":\xff}",
        )
        .await;
        assert_eq!(status, 400, "{path}: {body}");
        let v = json_body(&head, &body);
        assert_eq!(
            v["findings"][0]["code"], "request.bad-utf8",
            "{path}: {body}"
        );
        assert!(
            v["findings"][0]["message"]
                .as_str()
                .unwrap()
                .contains("byte 5"),
            "{path}: {body}"
        );
    }
}

/// schemathesis ST201: `POST /api/validate` with no body was answered 200
/// (a YAML finding); an empty or blank body is now refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn validate_refuses_an_empty_body() {
    let s = start(Backend::Sqlite).await;
    for body in ["", "  \n"] {
        let (status, head, text) = http_full(s.addr, "POST", "/api/validate", Some(body)).await;
        assert_eq!(status, 400, "{body:?}: {text}");
        let v = json_body(&head, &text);
        assert_eq!(v["findings"][0]["code"], "request.empty", "{text}");
    }
}

/// schemathesis ST103/ST105: a plain GET of the WebSocket route got axum's
/// plain-text 400; now the documented JSON error, after the game's 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_websocket_route_without_a_handshake_answers_json() {
    let s = start(Backend::Sqlite).await;
    let g = create(s.addr, json!({})).await;
    let (status, head, body) =
        http_full(s.addr, "GET", &format!("/api/games/{}/ws", g.id), None).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(json_body(&head, &body)["code"], "request.not-websocket");
    let (status, head, body) = http_full(s.addr, "GET", "/api/games/nosuch/ws", None).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(json_body(&head, &body)["code"], "game.not-found");
    // The handshake still works.
    let c = Client::connect(s.addr, &g.id, &g.white, 2).await;
    assert_eq!(c.welcome["seat"], "white");
}

/// A bad query string (here `status` twice) got axum's plain text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_query_answers_json() {
    let s = start(Backend::Sqlite).await;
    let (status, head, body) =
        http_full(s.addr, "GET", "/api/games?status=open&status=live", None).await;
    assert_eq!(status, 400, "{body}");
    let v = json_body(&head, &body);
    assert_eq!(v["code"], "query.invalid");
    assert!(v["message"].as_str().unwrap().contains("status"), "{body}");
}

/// Issue 21: a repeated key is refused, naming the key and the path of its
/// object (serde_json would keep the last value silently).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_keys_in_bodies_are_refused_naming_key_and_path() {
    let s = start(Backend::Sqlite).await;
    for (body, path, key) in [
        (r#"{"seed": 1, "seed": 2}"#, "$", "seed"),
        (
            r#"{"clock": {"initialSeconds": 60, "initialSeconds": 1}}"#,
            "$.clock",
            "initialSeconds",
        ),
        (
            r#"{"modifiers": [{"version": 1, "id": "a", "id": "b"}]}"#,
            "$.modifiers[0]",
            "id",
        ),
    ] {
        let (status, head, text) = http_full(s.addr, "POST", "/api/games", Some(body)).await;
        assert_eq!(status, 400, "{body}: {text}");
        let f = &json_body(&head, &text)["findings"][0];
        assert_eq!(f["code"], "request.duplicate-key", "{text}");
        assert_eq!(f["path"], path, "{text}");
        assert!(
            f["message"]
                .as_str()
                .unwrap()
                .contains(&format!("duplicate key `{key}`")),
            "{text}"
        );
    }
    let descriptor = r#"{"version": 1, "id": "twice", "name": "A", "name": "B", "passive": []}"#;
    for route in ["/api/modifiers", "/api/validate"] {
        let (status, head, text) = http_full(s.addr, "POST", route, Some(descriptor)).await;
        assert_eq!(status, 400, "{route}: {text}");
        let f = &json_body(&head, &text)["findings"][0];
        assert_eq!(f["code"], "request.duplicate-key", "{route}: {text}");
        assert_eq!(f["path"], "$", "{route}: {text}");
        assert!(f["message"].as_str().unwrap().contains("`name`"), "{text}");
    }
    // Nothing was created or saved.
    assert_eq!(get_json(s.addr, "/api/games").await, json!([]));
    let rules = get_json(s.addr, "/api/rules?saved=twice").await;
    assert!(
        !rules["modifiers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["id"] == "twice"),
        "the refused descriptor was saved"
    );
}

/// The document says what the server does: the lobby's `result` is
/// nullable (ST108: it was `object` while live games answer `null`); the
/// creation request lists its fields and refuses others (ST202); the
/// descriptor has required fields (ST202 on `{}`); `/metrics` is
/// OpenMetrics text (ST105); the created game links to the operations that
/// take its id and tokens (the stateful phase could not reach `join`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_states_what_the_server_does() {
    let s = start(Backend::Sqlite).await;
    let api = get_json(s.addr, "/api/openapi.json").await;
    let schemas = &api["components"]["schemas"];
    let result = &schemas["LobbyGame"]["properties"]["result"];
    assert!(
        result.to_string().contains("\"null\""),
        "LobbyGame.result must allow null: {result}"
    );
    // A live game's lobby line has `result: null`.
    create(s.addr, json!({})).await;
    assert_eq!(
        get_json(s.addr, "/api/games").await[0]["result"],
        Value::Null
    );

    let create_body = &api["paths"]["/api/games"]["post"]["requestBody"];
    assert_eq!(create_body["required"], true);
    let req = &schemas["CreateGameRequest"];
    assert_eq!(req["additionalProperties"], false, "{req}");
    for field in [
        "presets",
        "modifiers",
        "fen",
        "clock",
        "white",
        "black",
        "seat",
    ] {
        assert!(req["properties"][field].is_object(), "{field} undocumented");
    }
    // The server refuses what the document refuses: an unknown field.
    let (status, _) = http(s.addr, "POST", "/api/games", Some(r#"{"x": 1}"#)).await;
    assert_eq!(status, 400);

    let descriptor = &schemas["ModifierDescriptor"];
    let required: Vec<&str> = descriptor["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    // docs/modifiers.md: `version`, `id` and `name` are required.
    for f in ["version", "id", "name"] {
        assert!(required.contains(&f), "{f} not required: {required:?}");
    }
    let (status, _) = http(s.addr, "POST", "/api/modifiers", Some("{}")).await;
    assert_eq!(status, 400);

    let metrics = &api["paths"]["/metrics"]["get"]["responses"]["200"]["content"];
    assert!(
        metrics["application/openmetrics-text"].is_object(),
        "{metrics}"
    );
    let (_, head, _) = http_full(s.addr, "GET", "/metrics", None).await;
    assert!(
        head.contains("content-type: application/openmetrics-text"),
        "{head}"
    );

    let links = &api["paths"]["/api/games"]["post"]["responses"]["201"]["links"];
    let operation_ids: Vec<String> = api["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|p| p.as_object().unwrap().values())
        .filter_map(|op| op["operationId"].as_str().map(str::to_string))
        .collect();
    for (name, op) in [
        ("GetGame", "get_game"),
        ("JoinGame", "join_game"),
        ("WhiteSocket", "ws"),
    ] {
        assert_eq!(links[name]["operationId"], op, "{links}");
        assert!(operation_ids.iter().any(|o| o == op), "no operation {op}");
    }
    assert_eq!(
        links["WhiteSocket"]["parameters"]["query.token"],
        "$response.body#/seats/white/token"
    );
    // Issue 23: the rematch route joins the links — a seat's token asks
    // for it (`Authorization: Bearer TOKEN`, docs/protocol.md), and its
    // answer leads to the new game.
    assert_eq!(
        links["BlackRematch"]["parameters"]["header.Authorization"],
        "Bearer {$response.body#/seats/black/token}"
    );
    let rematch = &api["paths"]["/api/games/{id}/rematch"]["post"]["responses"];
    for status in ["200", "201"] {
        assert_eq!(
            rematch[status]["links"]["NewGame"]["parameters"]["path.id"],
            "$response.body#/id"
        );
    }
    // Every link of the document leads to an operation it has.
    for op in api["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|p| p.as_object().unwrap().values())
    {
        for response in op["responses"]
            .as_object()
            .into_iter()
            .flat_map(|r| r.values())
        {
            for (name, link) in response["links"].as_object().into_iter().flatten() {
                let target = link["operationId"].as_str().unwrap_or_default();
                assert!(
                    operation_ids.iter().any(|o| o == target),
                    "link {name} of {} leads to no operation: {link}",
                    op["operationId"]
                );
            }
        }
    }
    // Every `$ref` of the document resolves (the session's and the
    // descriptor's definitions were moved under components).
    let text = api.to_string();
    for part in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
        let name = &part[..part.find('"').unwrap()];
        assert!(schemas[name].is_object(), "dangling $ref to {name}");
    }
    assert!(!text.contains("#/$defs/"), "a $ref left to $defs");
}

/// The test client's check of server messages (tests/common) accepts what
/// the protocol describes and refuses what it does not (hand-written
/// messages, from docs/protocol.md's shapes).
#[test]
fn the_message_schema_check_can_fail() {
    common::server_message(r#"{"kind":"pong"}"#);
    common::server_message(r#"{"kind":"presence","white":true,"black":false,"spectators":0}"#);
    common::server_message(r#"{"kind":"error","code":"move.illegal","message":"no"}"#);
    for bad in [
        r#"{"kind":"pong2"}"#,
        r#"{"kind":"presence","white":1,"black":false,"spectators":0}"#,
        r#"{"kind":"error","code":"move.illegal"}"#,
        r#"{"kind":"state","seq":-1,"state":{}}"#,
    ] {
        assert!(
            std::panic::catch_unwind(|| common::server_message(bad)).is_err(),
            "{bad} passed the schema check"
        );
    }
}

/// The routes the router serves, read from its source (`http.rs`'s
/// `router`): each `.route("PATH", …)` with the methods its handler chain
/// names (`get(`, `post(`, `.get(`, …), in lower case.
fn routes_in_source(source: &str) -> Vec<(String, Vec<&'static str>)> {
    let body = &source[source.find("pub fn router(").expect("the router")..];
    let body = &body[..body.find(".fallback(").expect("the fallback")];
    let mut routes = Vec::new();
    for chunk in body.split(".route(").skip(1) {
        let path = chunk
            .split('"')
            .nth(1)
            .expect("a route's path is a literal")
            .to_string();
        let methods = ["get", "post", "put", "delete", "patch"]
            .into_iter()
            .filter(|m| {
                // `get(` as a call, not the end of a longer name.
                chunk.match_indices(&format!("{m}(")).any(|(i, _)| {
                    !chunk[..i]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            })
            .collect();
        routes.push((path, methods));
    }
    routes
}

/// Issue 23: a route the server serves but the document leaves out cannot
/// be fuzzed, and a client generated from the document cannot call it.
/// Every route of the router (but the document itself) and each of its
/// methods is in `GET /api/openapi.json`, and the document names no path
/// the router does not serve.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_is_in_the_document() {
    let routes = routes_in_source(include_str!("../src/http.rs"));
    assert!(routes.len() >= 12, "the router was not read: {routes:?}");
    let s = start(Backend::Sqlite).await;
    let api = get_json(s.addr, "/api/openapi.json").await;
    let paths = api["paths"].as_object().expect("paths");
    for (path, methods) in &routes {
        if path == "/api/openapi.json" {
            continue;
        }
        assert!(!methods.is_empty(), "no method read for {path}");
        for m in methods {
            assert!(
                paths.get(path).and_then(|p| p.get(*m)).is_some(),
                "{} {path} is served but not in the OpenAPI document",
                m.to_uppercase()
            );
        }
    }
    for path in paths.keys() {
        assert!(
            routes.iter().any(|(p, _)| p == path),
            "the document names {path}, which the router does not serve"
        );
    }
}

/// The reader above finds a route left out: a router with a route the
/// document lacks fails the check.
#[test]
fn the_route_reader_sees_every_route() {
    let source = r#"pub fn router(state: S) -> Router {
        Router::new()
            .route(
                "/api/games",
                post(create_game).route_layer(x).get(list_games),
            )
            .route("/api/games/{id}/rematch", post(rematch))
            .fallback(web_assets)
    }"#;
    let routes = routes_in_source(source);
    assert_eq!(
        routes,
        vec![
            ("/api/games".to_string(), vec!["get", "post"]),
            ("/api/games/{id}/rematch".to_string(), vec!["post"]),
        ]
    );
}

/// A new-user trial: `DELETE /api/games` and `POST /healthz` answered `405`
/// with an empty body and no media type; now the JSON error, with the
/// `Allow` header naming the methods the route takes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_method_a_route_does_not_take_answers_json() {
    let s = start(Backend::Sqlite).await;
    for (head, allowed) in [
        ("DELETE /api/games HTTP/1.1", ["GET", "POST"].as_slice()),
        ("POST /healthz HTTP/1.1", ["GET"].as_slice()),
    ] {
        let (status, head_text, body) = raw(s.addr, head, b"").await;
        assert_eq!(status, 405, "{head}: {head_text}\n{body}");
        let v = json_body(&head_text, &body);
        assert_eq!(v["code"], "request.method-not-allowed", "{v}");
        let allow = head_text
            .lines()
            .find_map(|l| l.strip_prefix("allow: "))
            .unwrap_or_else(|| panic!("no Allow header: {head_text}"))
            .to_ascii_uppercase();
        for m in allowed {
            assert!(allow.contains(m), "{head}: Allow {allow}");
        }
    }
}
