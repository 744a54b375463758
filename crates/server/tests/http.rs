//! The HTTP API on SQLite and on Postgres.

mod common;

use common::{create, fast, fresh_db, get_json, http, http_full, start, start_on, Backend, Client};
use serde_json::{json, Value};

async fn create_answers_seats_and_refuses_bad_requests(b: Backend) {
    let s = start(b).await;
    let (status, body) = http(
        s.addr,
        "POST",
        "/api/games",
        Some(r#"{"presets": ["knight-immunity"], "white": "Ann"}"#),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let id = v["id"].as_str().unwrap();
    let w = v["seats"]["white"]["token"].as_str().unwrap();
    // 192 bits in hex, and not derived from the id.
    assert_eq!(w.len(), 48);
    assert!(!w.contains(id));
    assert_eq!(
        v["seats"]["white"]["ws"],
        format!("/api/games/{id}/ws?token={w}")
    );
    assert_eq!(v["spectateWs"], format!("/api/games/{id}/ws"));

    // Each refusal: 400 with findings (code, path, message), and no game.
    let cases = [
        (r#"{"presets": ["no-such-rule"]}"#, "$.presets"),
        (
            r#"{"clock": {"initialSeconds": 0}}"#,
            "$.clock.initialSeconds",
        ),
        (
            r#"{"clock": {"initialSeconds": 60, "incrementSeconds": -1}}"#,
            "$.clock.incrementSeconds",
        ),
        (r#"{"clock": {"minutes": 5}}"#, "$.clock"),
        (r#"{"seat": "red"}"#, "$.seat"),
        (r#"{"fen": "not a fen"}"#, "$.fen"),
        (r#"{"modifiers": ["no_such_modifier"]}"#, "$"),
        (r#"{"presets": [], "presets": []}"#, "$"),
        ("[1, 2]", "$"),
        ("{", "$"),
    ];
    for (body, path) in cases {
        let (status, text) = http(s.addr, "POST", "/api/games", Some(body)).await;
        assert_eq!(status, 400, "{body}: {text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        let f = &v["findings"][0];
        assert!(
            f["code"].as_str().is_some_and(|c| !c.is_empty()),
            "{body}: {text}"
        );
        assert!(
            f["path"].as_str().unwrap().starts_with(path),
            "{body}: {text}"
        );
        assert!(!f["message"].as_str().unwrap().is_empty());
    }
    let all = get_json(s.addr, "/api/games").await;
    assert_eq!(all.as_array().unwrap().len(), 1, "no half-created game");
    let (status, _) = http(s.addr, "GET", "/api/games/nope", None).await;
    assert_eq!(status, 404);
}

async fn open_game_and_join(b: Backend) {
    let s = start(b).await;
    let (status, body) = http(s.addr, "POST", "/api/games", Some(r#"{"seat": "black"}"#)).await;
    assert_eq!(status, 201);
    let v: Value = serde_json::from_str(&body).unwrap();
    let id = v["id"].as_str().unwrap();
    assert!(v["seats"]["white"].is_null());
    let open = get_json(s.addr, "/api/games?status=open").await;
    assert_eq!(open[0]["id"], id);
    let (status, body) = http(s.addr, "POST", &format!("/api/games/{id}/join"), None).await;
    assert_eq!(status, 200, "{body}");
    let j: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(j["seat"], "white");
    let (status, _) = http(s.addr, "POST", &format!("/api/games/{id}/join"), None).await;
    assert_eq!(status, 409);
    assert!(get_json(s.addr, "/api/games?status=open")
        .await
        .as_array()
        .unwrap()
        .is_empty());
    assert_eq!(
        get_json(s.addr, "/api/games?status=live").await[0]["id"],
        id
    );
    let (status, _) = http(s.addr, "GET", "/api/games?status=bogus", None).await;
    assert_eq!(status, 400);
    // The joined token opens the white seat.
    let c = Client::connect(s.addr, id, j["token"].as_str().unwrap(), 1).await;
    assert_eq!(c.welcome["seat"], "white");
    // A wrong token opens nothing.
    let url = format!("ws://{}/api/games/{id}/ws?token={}", s.addr, "0".repeat(48));
    assert!(tokio_tungstenite::connect_async(url).await.is_err());
}

async fn service_endpoints(b: Backend) {
    let s = start(b).await;
    assert_eq!(
        http(s.addr, "GET", "/healthz", None).await,
        (200, "ok\n".to_string())
    );
    let rules = get_json(s.addr, "/api/rules").await;
    assert!(rules["presets"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["id"] == "knight-immunity"
            && p["description"]
                == houserules_presets::descriptions::description("knight-immunity")));
    assert!(rules["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["id"] == "parry" && m["description"].is_string()));
    assert!(rules["layouts"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["id"] == "chess960"));
    let (status, body) = http(
        s.addr,
        "POST",
        "/api/validate",
        Some(r#"{"version": 1, "id": "x"}"#),
    )
    .await;
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["ok"], false);
    assert!(v["findings"][0]["path"].is_string());
    let (_, body) = http(s.addr, "POST", "/api/validate", Some("id: x\nboard: [8\n")).await;
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (v["ok"].as_bool(), v["kind"].as_str()),
        (Some(false), Some("game"))
    );
    // A valid game comes with a preview for the web app's YAML editor: its
    // start position and legal moves. Gardner minichess (5×5): the start
    // FEN of crates/definitions/games/gardner.yaml; White's moves by hand:
    // five single pawn pushes (no double step on 5×5) and Nb1-a3, Nb1-c3.
    let gardner = include_str!("../../definitions/games/gardner.yaml");
    let (_, body) = http(s.addr, "POST", "/api/validate", Some(gardner)).await;
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["ok"], true, "{body}");
    assert_eq!(v["preview"]["fen"], "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1");
    let mut moves: Vec<&str> = v["preview"]["legalMoves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    moves.sort_unstable();
    assert_eq!(
        moves,
        ["a2a3", "b1a3", "b1c3", "b2b3", "c2c3", "d2d3", "e2e3"]
    );
    let api = get_json(s.addr, "/api/openapi.json").await;
    for p in [
        "/api/games",
        "/api/games/{id}",
        "/api/games/{id}/ws",
        "/api/rules",
        "/metrics",
    ] {
        assert!(
            api["paths"][p].is_object(),
            "{p} missing from the OpenAPI document"
        );
    }
    let g = create(s.addr, json!({})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 1).await;
    w.mv("e2e4", 0).await;
    w.expect("state").await;
    let (status, m) = http(s.addr, "GET", "/metrics", None).await;
    assert_eq!(status, 200);
    assert!(m.contains("houserules_moves_total 1"), "{m}");
    assert!(m.contains("houserules_connections 1"), "{m}");
    assert!(m.contains("houserules_ack_latency_seconds_count 1"), "{m}");
    let (status, _) = http(s.addr, "GET", "/api/nothing", None).await;
    assert_eq!(status, 404);
    let big = format!("{{\"white\": \"{}\"}}", "x".repeat(2 << 20));
    let (status, _) = http(s.addr, "POST", "/api/games", Some(&big)).await;
    assert_eq!(status, 413);
}

/// POST /api/modifiers keeps a descriptor (checked) in the store; GET
/// /api/rules lists it with `saved: true`, and a restarted server still
/// has it.
async fn modifier_library(b: Backend) {
    let db = fresh_db(b);
    let s = start_on(db.clone(), fast()).await;
    // crates/modifiers/library/parry.json under another id: a valid
    // descriptor by construction.
    let mut d: Value =
        serde_json::from_str(include_str!("../../modifiers/library/parry.json")).unwrap();
    d["id"] = json!("my-parry");
    let (status, body) = http(s.addr, "POST", "/api/modifiers", Some(&d.to_string())).await;
    assert_eq!((status, body.as_str()), (201, r#"{"id":"my-parry"}"#));
    let (status, body) = http(
        s.addr,
        "POST",
        "/api/modifiers",
        Some(r#"{"version": 1, "id": "x"}"#),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert!(v["findings"][0]["path"].is_string(), "{body}");
    drop(s);
    let again = start_on(db, fast()).await;
    let rules = get_json(again.addr, "/api/rules").await;
    let saved: Vec<&Value> = rules["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["saved"] == true)
        .collect();
    assert_eq!(saved.len(), 1, "only the valid descriptor is kept");
    assert_eq!(saved[0]["id"], "my-parry");
    assert_eq!(saved[0]["descriptor"], d);
}

/// The embedded web app (issue 14): files with their types, page routes
/// answered with `index.html`, missing files and API paths `404`.
async fn web_app(b: Backend) {
    let s = start(b).await;
    let (status, head, index) = http_full(s.addr, "GET", "/", None).await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(head.contains("cache-control: no-cache"), "{head}");
    // web/index.html's mount point, kept by the build.
    assert!(index.contains(r#"<div id="app"></div>"#), "{index}");
    for page in ["/games/abc123", "/games/abc123?token=x", "/editor", "/yaml"] {
        let (status, _, body) = http_full(s.addr, "GET", page, None).await;
        assert_eq!((status, body == index), (200, true), "{page}");
    }
    // The bundle index.html loads: `src="/assets/index-HASH.js"`.
    let js = index
        .split('"')
        .find(|p| p.starts_with("/assets/") && p.ends_with(".js"))
        .expect("index.html loads a bundle from /assets/");
    let (status, head, _) = http_full(s.addr, "GET", js, None).await;
    assert_eq!(status, 200, "{js}");
    assert!(head.contains("content-type: text/javascript"), "{head}");
    assert!(head.contains("immutable"), "{head}");
    assert_eq!(http(s.addr, "GET", "/assets/missing.js", None).await.0, 404);
    let (status, head, _) = http_full(s.addr, "GET", "/api/missing", None).await;
    assert_eq!(status, 404);
    assert!(head.contains("application/json"), "{head}");
}

/// A restarted server rebuilds every unfinished game from its log with a
/// byte-identical state (the clocks aside, which read the time).
async fn rebuild_is_identical(b: Backend) {
    let s = start(b).await;
    let g = create(
        s.addr,
        json!({"modifiers": ["parry"], "fen": "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"}),
    )
    .await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 2).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 2).await;
    w.mv("e1e2", 0).await;
    w.expect("state").await;
    bl.mv("e8e7", 1).await;
    bl.expect("state").await;
    w.mv("e4d5", 2).await;
    let ask = w.expect("request-choice").await;
    w.send(json!({"kind": "submit-choice", "choiceId": ask["choiceId"], "value": "scissors"}))
        .await;
    w.state_where(|s| !s["pendingChoice"]["collected"].is_null())
        .await;
    let before = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    let again = start_on(s.db.clone(), fast()).await;
    let after = get_json(again.addr, &format!("/api/games/{}", g.id)).await;
    let strip = |mut v: Value| {
        for k in ["presence", "clock"] {
            v.as_object_mut().unwrap().remove(k);
        }
        serde_json::to_string(&v).unwrap()
    };
    assert_eq!(strip(before), strip(after));
}

on_both!(
    create_answers_seats_and_refuses_bad_requests,
    open_game_and_join,
    service_endpoints,
    web_app,
    modifier_library,
    rebuild_is_identical,
);
