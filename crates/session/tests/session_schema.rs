//! The session shapes (creation request, input line, state output) have a
//! JSON Schema each, generated from the code and committed in `docs/`. To
//! refresh them after changing a shape:
//!
//! ```text
//! HOUSERULES_BLESS=1 cargo test -p houserules-modifiers --test session_schema
//! ```
//!
//! Real requests, inputs and outputs (the docs' examples, a scripted game
//! with markers, a pending choice and attributes) must validate against the
//! committed schemas, checked by the `jsonschema` crate.

use std::path::PathBuf;

use houserules_session::{
    input_schema_json, output_schema_json, request_schema_json, CreateRequest, Input, Session,
};
use serde_json::{json, Value};

fn docs(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs")
        .join(name)
}

fn check_committed(name: &str, fresh: &str) {
    let path = docs(name);
    if std::env::var_os("HOUSERULES_BLESS").is_some() {
        std::fs::write(&path, fresh).expect("write the schema");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale or missing; regenerate it with `HOUSERULES_BLESS=1 cargo test -p houserules-modifiers --test session_schema`",
        path.display()
    );
}

#[test]
fn committed_session_schemas_are_up_to_date() {
    check_committed("session-request.schema.json", &request_schema_json());
    check_committed("session-input.schema.json", &input_schema_json());
    check_committed("session-output.schema.json", &output_schema_json());
}

// ------------------------------------------------------------ the checker

fn schema(name: &str) -> Value {
    let text = std::fs::read_to_string(docs(name)).expect("committed schema");
    serde_json::from_str(&text).expect("schema is JSON")
}

/// The errors of `v` against `schema` (the `jsonschema` crate, as the
/// server's protocol tests use), each with its instance path.
fn validate(schema: &Value, v: &Value) -> Vec<String> {
    let validator = jsonschema::validator_for(schema).expect("the schema compiles");
    validator
        .iter_errors(v)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

fn assert_valid(schema: &Value, v: &Value) {
    let e = validate(schema, v);
    assert!(e.is_empty(), "{v}\nshould validate, but: {e:#?}");
}

fn assert_invalid(schema: &Value, v: &Value) {
    assert!(!validate(schema, v).is_empty(), "{v} should not validate");
}

// ------------------------------------------------------ requests and inputs

fn sample_requests() -> Vec<Value> {
    vec![
        // The CLI help's example (`houserules play --help`).
        json!({"modifiers": ["anti_camping"], "seed": 7}),
        // docs/modifiers.md § Runtime.
        json!({"fen": "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "modifiers": ["parry"], "seed": 42}),
        json!({
            "layout": "fide",
            "presets": ["king-heals"],
            "modifiers": ["frozen-column:file=e;lifetime=6", "minefield:chooser=black"],
            "seed": 4294967295u32,
            "draft": true,
            "choiceTimeout": {"mode": "timeout-with-default", "seconds": 60},
            "coinFlips": "manual"
        }),
        json!({"choiceTimeout": {"mode": "no-timeout"}}),
        json!({"modifiers": [{
            "version": 1, "id": "inline-rule", "name": "Inline",
            "triggers": [{"kind": "on-move", "effects": [
                {"kind": "add-to-attribute", "params": {"attr": "Hp", "delta": 1}}
            ]}]
        }]}),
        json!({}),
    ]
}

#[test]
fn real_requests_validate_and_are_accepted() {
    let sch = schema("session-request.schema.json");
    for r in sample_requests() {
        assert_valid(&sch, &r);
        let req: CreateRequest = serde_json::from_value(r.clone()).expect("serde reads it");
        // The layout id is the presets crate's; skip creating what needs it.
        if r.get("layout").is_none() {
            Session::create(req).unwrap_or_else(|e| panic!("{r}: {e}"));
        }
    }
}

#[test]
fn malformed_requests_do_not_validate() {
    let sch = schema("session-request.schema.json");
    for bad in [
        json!({"seeds": 1}),
        json!({"seed": -1}),
        json!({"seed": "7"}),
        json!({"draft": "yes"}),
        json!({"modifiers": ["Parry!"]}),
        json!({"modifiers": [{"version": 1, "id": "x", "name": "X", "extra": 1}]}),
        json!({"choiceTimeout": {"mode": "sometimes"}}),
        json!({"coinFlips": "maybe"}),
    ] {
        assert_invalid(&sch, &bad);
        let created = serde_json::from_value::<CreateRequest>(bad.clone())
            .map_err(|e| e.to_string())
            .and_then(|r| Session::create(r).map_err(|e| e.to_string()));
        assert!(created.is_err(), "{bad}: the session refuses it too");
    }
    // `houserules play` refuses a request that is not an object before
    // serde reads it (serde would read `[]` as a struct in sequence form).
    assert_invalid(&sch, &json!([]));
}

#[test]
fn the_input_schema_agrees_with_the_input_reader() {
    let sch = schema("session-input.schema.json");
    let lines = [
        r#"{"move": "e2e4"}"#,
        r#"{"move": "e7e8q"}"#,
        r#"{"choice": "d7"}"#,
        r#"{"choice": "e"}"#,
        r#"{"choice": "4"}"#,
        r#"{"choice": "heads"}"#,
        r#"{"choice": "rock", "player": "white"}"#,
        r#"{"choice": "scissors", "player": "black", "auto": "timeout"}"#,
        r#"{"choice": "mr_freeze"}"#,
        r#"{"move": 5}"#,
        r#"{"choice": 5}"#,
        r#"{"choice": ["d7"]}"#,
        r#"{"move": "e2e4", "choice": "d7"}"#,
        r#"{"choice": "d7", "player": "red"}"#,
        r#"{"choice": "d7", "auto": "late"}"#,
        r#"{"mvoe": "e2e4"}"#,
        r#"{}"#,
        r#"["e2e4"]"#,
    ];
    for l in lines {
        let v: Value = serde_json::from_str(l).expect("JSON");
        let by_schema = validate(&sch, &v).is_empty();
        let by_reader = Input::parse(l).is_ok();
        assert_eq!(
            by_schema, by_reader,
            "{l}: schema {by_schema}, reader {by_reader}"
        );
    }
    // SAN is a move too: the schema and the reader take it, the session
    // plays it (1. Nf3 from the start: the knight from g1 to f3, recorded
    // in UCI), and refuses SAN naming no legal move with the reason.
    let l = r#"{"move": "Nf3"}"#;
    assert!(validate(&sch, &serde_json::from_str(l).unwrap()).is_empty());
    let mut s = Session::create(CreateRequest::default()).unwrap();
    s.submit(Input::parse(l).unwrap()).unwrap();
    assert_eq!(s.inputs(), [Input::Move { mv: "g1f3".into() }]);
    // 1... Nf3?? for Black: no black knight reaches f3.
    let e = s
        .submit(Input::parse(r#"{"move": "Nf3"}"#).unwrap())
        .unwrap_err();
    assert!(e.message.contains("`Nf3` is not legal"), "{e}");
}

// ----------------------------------------------------------------- outputs

fn create(r: Value) -> Session {
    Session::create(serde_json::from_value(r).expect("request")).expect("session")
}

fn submit(s: &mut Session, line: &str) {
    s.submit(Input::parse(line).expect("input"))
        .unwrap_or_else(|e| panic!("{line}: {e}"));
}

#[test]
fn real_outputs_validate() {
    let sch = schema("session-output.schema.json");
    let mut outs: Vec<Value> = Vec::new();
    // A pending rps choice for both players (parry).
    let mut s = create(json!({"fen": "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "modifiers": ["parry"]}));
    submit(&mut s, r#"{"move": "e4d5"}"#);
    outs.push(s.to_json());
    submit(&mut s, r#"{"choice": "rock", "player": "white"}"#);
    outs.push(s.to_json());
    // Markers with lifetimes and owners (minefield), then a move.
    let mut s = create(json!({"modifiers": ["minefield"], "seed": 3}));
    outs.push(s.to_json());
    submit(&mut s, r#"{"move": "e2e4"}"#);
    outs.push(s.to_json());
    // Attributes (vampire-on-capture gives the capturer Hp).
    let mut s = create(json!({
        "fen": "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
        "modifiers": ["vampire-on-capture:amount=2"]
    }));
    submit(&mut s, r#"{"move": "e4d5"}"#);
    let j = s.to_json();
    assert!(
        j["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["attrs"]["Hp"] == json!(2)),
        "the sample carries an attribute"
    );
    outs.push(j);
    // A draft card prompt, and a finished game (fool's mate).
    let mut s = create(json!({"draft": true, "seed": 1}));
    for m in ["f2f3", "e7e5"] {
        submit(&mut s, &format!(r#"{{"move": "{m}"}}"#));
    }
    outs.push(s.to_json());
    let mut s = create(json!({}));
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        submit(&mut s, &format!(r#"{{"move": "{m}"}}"#));
    }
    let j = s.to_json();
    assert_eq!(j["status"]["status"], "checkmate");
    outs.push(j);
    // What `houserules play` prints: the same, with the input reports.
    let mut o = s.output();
    o.inputs = Some(vec![
        houserules_session::InputReport {
            line: 1,
            ok: true,
            code: None,
            reason: None,
        },
        houserules_session::InputReport {
            line: 2,
            ok: false,
            code: Some("game-over".into()),
            reason: Some("the game is over".into()),
        },
    ]);
    outs.push(serde_json::to_value(o).unwrap());
    for o in &outs {
        assert_valid(&sch, o);
    }
    // The output names every field the issue requires.
    for k in [
        "fen",
        "sideToMove",
        "status",
        "legalMoves",
        "pendingChoice",
        "markers",
        "activeModifiers",
        "pieces",
        "log",
    ] {
        assert!(
            sch["required"].as_array().unwrap().contains(&json!(k)),
            "`{k}` is required by the output schema"
        );
    }
    // A tampered output does not validate.
    let mut bad = outs[0].clone();
    bad["sideToMove"] = json!("red");
    assert_invalid(&sch, &bad);
    let mut bad = outs[0].clone();
    bad.as_object_mut().unwrap().remove("legalMoves");
    assert_invalid(&sch, &bad);
}
