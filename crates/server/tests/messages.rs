//! The server's messages found wanting by the session-6 web trial, each a
//! regression test: every refusal names the field it is about, lists what
//! is accepted, and comes as the JSON error shape. The messages do not
//! depend on the store, so these run on SQLite only.

mod common;

use common::{http, http_full, start, Backend};
use serde_json::Value;

/// The first finding of a refused `POST /api/games`.
async fn refusal(addr: std::net::SocketAddr, body: &str) -> Value {
    let (status, text) = http(addr, "POST", "/api/games", Some(body)).await;
    assert_eq!(status, 400, "{body}: {text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    v["findings"][0].clone()
}

/// The unknown-field message listed only the session's fields, leaving out
/// the server's own `clock`, `white`, `black` and `seat`. The accepted
/// fields are the session's creation request (`crates/session/src/request.rs`
/// `CreateRequest`: `fen`, `state`, `layout`, `game`, `presets`,
/// `modifiers`, `seed`, `draft`, `choiceTimeout`, `coinFlips`) and the
/// server's (`docs/protocol.md`: `clock`, `white`, `black`, `seat`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_field_lists_exactly_the_accepted_fields() {
    let s = start(Backend::Sqlite).await;
    let f = refusal(s.addr, r#"{"colour": "white"}"#).await;
    assert_eq!(f["code"], "request.unknown-field", "{f}");
    assert_eq!(f["path"], "$.colour", "{f}");
    let m = f["message"].as_str().unwrap();
    let (named, list) = m.split_once(" (").unwrap();
    assert_eq!(named, "unknown field `colour`");
    let mut listed: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
    listed.sort_unstable();
    let mut accepted = vec![
        "fen",
        "state",
        "layout",
        "game",
        "presets",
        "modifiers",
        "seed",
        "draft",
        "choiceTimeout",
        "coinFlips",
        "clock",
        "white",
        "black",
        "seat",
    ];
    accepted.sort_unstable();
    assert_eq!(listed, accepted, "{m}");
    // Each listed server field is accepted (no unknown-field refusal).
    for body in [
        r#"{"clock": {"initialSeconds": 60, "incrementSeconds": 0}}"#,
        r#"{"white": "Ann", "black": "Bob"}"#,
        r#"{"seat": "white"}"#,
    ] {
        let (status, text) = http(s.addr, "POST", "/api/games", Some(body)).await;
        assert_eq!(status, 201, "{body}: {text}");
    }
}

/// A bad layout was placed at `$.presets`, a bad seed at `$`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn layout_and_seed_errors_name_their_field() {
    let s = start(Backend::Sqlite).await;
    for body in [
        // no index (presets crate: `chess960:N` or `chess960:random:SEED`)
        r#"{"layout": "chess960"}"#,
        r#"{"layout": "chess960:960"}"#,
        // the layouts are FIDE start positions; Gardner starts from its own
        r#"{"game": "gardner", "layout": "knightmate"}"#,
    ] {
        let f = refusal(s.addr, body).await;
        assert_eq!(f["path"], "$.layout", "{body}: {f}");
    }
    // The seed is a u32 (rulings F4).
    for body in [
        r#"{"seed": 4294967296}"#,
        r#"{"seed": -1}"#,
        r#"{"seed": "x"}"#,
    ] {
        let f = refusal(s.addr, body).await;
        assert_eq!(f["path"], "$.seed", "{body}: {f}");
    }
    // An unknown preset stays at `$.presets`.
    let f = refusal(s.addr, r#"{"presets": ["no-such-rule"]}"#).await;
    assert_eq!(f["path"], "$.presets", "{f}");
}

/// `GET /api/games/%00%ff` answered axum's plain text; now the JSON error
/// of every other refusal, on every game route.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undecodable_game_id_is_a_json_error() {
    let s = start(Backend::Sqlite).await;
    for (method, path) in [
        ("GET", "/api/games/%00%ff"),
        ("GET", "/api/games/%ff/pgn"),
        ("GET", "/api/games/%ff/record"),
        ("POST", "/api/games/%ff/join"),
        ("GET", "/api/games/%ff/ws"),
    ] {
        let (status, head, body) = http_full(s.addr, method, path, None).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert!(
            head.contains("content-type: application/json"),
            "{path}: {head}"
        );
        let v: Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
        assert_eq!(v["code"], "request.bad-path", "{path}: {body}");
        assert!(v["message"].as_str().is_some_and(|m| m.contains("UTF-8")));
    }
}

/// The lobby's conflict text dropped the reason: `GET /api/rules` carries
/// it per incompatible pair (`incompatibleReasons`, by the other preset's
/// id). The pair and its reason are the spec's (presets registry,
/// `incompatibility_reason`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_give_the_reason_of_each_incompatibility() {
    let s = start(Backend::Sqlite).await;
    let rules = common::get_json(s.addr, "/api/rules").await;
    let preset = |id: &str| {
        rules["presets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .cloned()
            .unwrap()
    };
    let why = "a two-square move would be ambiguous with an unrestricted backward step (spec)";
    assert_eq!(
        preset("pawns-move-backward")["incompatibleReasons"]["double-pawn-sprint"],
        why
    );
    assert_eq!(
        preset("double-pawn-sprint")["incompatibleReasons"]["pawns-move-backward"],
        why
    );
    // Every listed incompatibility has its reason.
    for p in rules["presets"].as_array().unwrap() {
        for other in p["incompatible_with"].as_array().unwrap() {
            let o = other.as_str().unwrap();
            assert!(
                p["incompatibleReasons"][o]
                    .as_str()
                    .is_some_and(|r| !r.is_empty()),
                "{} × {o}",
                p["id"]
            );
        }
    }
}

/// The YAML editor showed no "did you mean" hints: `POST /api/validate`
/// now carries each diagnostic's `help`. Gardner as shipped with `width`
/// misspelt `widht`: the game format's board keys are `width` and
/// `height` (docs/game-format.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn validate_carries_the_hint() {
    let s = start(Backend::Sqlite).await;
    let gardner = include_str!("../../definitions/games/gardner.yaml");
    assert!(gardner.contains("  width: 5\n"));
    let (status, body) = http(
        s.addr,
        "POST",
        "/api/validate",
        Some(&gardner.replace("  width: 5\n", "  widht: 5\n")),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let f = &v["findings"][0];
    assert!(
        f["help"].as_str().is_some_and(|h| h.contains("`width`")),
        "{body}"
    );
    // A valid game has no findings, so no hints.
    let (_, body) = http(s.addr, "POST", "/api/validate", Some(gardner)).await;
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["ok"], true, "{body}");
}
