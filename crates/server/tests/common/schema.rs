//! The published JSON Schemas of the WebSocket protocol and a check of a
//! message against one of them (the `jsonschema` crate, as
//! [`super::server_message`] uses for every received message).

use serde_json::Value;

/// The errors of `v` against the schema `root`, each with its instance path.
pub fn validate(root: &Value, v: &Value) -> Vec<String> {
    let validator = jsonschema::validator_for(root).expect("the schema compiles");
    validator
        .iter_errors(v)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// The published schema of the server's messages (docs/protocol.md is
/// generated from it; tests/protocol_doc.rs keeps the two equal).
pub fn server_schema() -> Value {
    serde_json::to_value(schemars::schema_for!(
        houserules_server::protocol::ServerMessage
    ))
    .unwrap()
}

/// The published schema of the client's messages.
pub fn client_schema() -> Value {
    serde_json::to_value(schemars::schema_for!(
        houserules_server::protocol::ClientMessage
    ))
    .unwrap()
}

/// Panics unless `v` validates against `schema`.
pub fn assert_valid(schema: &Value, v: &Value) {
    let e = validate(schema, v);
    assert!(e.is_empty(), "{v}\nshould validate, but: {e:#?}");
}
