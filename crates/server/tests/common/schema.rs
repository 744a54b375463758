//! A small checker of the JSON Schema keywords the generated protocol
//! schemas use (`$ref` to `#/$defs/…`, `type`, `properties`, `required`,
//! `additionalProperties`, `items`, `enum`, `const`, `minimum`, `maximum`,
//! `anyOf`, `oneOf`, `allOf`), as in the session crate's schema test (no
//! JSON Schema crate is available offline). A keyword it does not know
//! fails the check, so that a schema it cannot judge never passes.

use serde_json::Value;

const KNOWN: &[&str] = &[
    "$schema",
    "$ref",
    "$defs",
    "title",
    "description",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "minimum",
    "maximum",
    "format",
    "anyOf",
    "oneOf",
    "allOf",
    "default",
    "examples",
];

fn errors(root: &Value, schema: &Value, v: &Value, path: &str, out: &mut Vec<String>) {
    let Some(s) = schema.as_object() else {
        if schema == &Value::Bool(false) {
            out.push(format!("{path}: not allowed"));
        }
        return;
    };
    for k in s.keys() {
        if !KNOWN.contains(&k.as_str()) {
            out.push(format!(
                "{path}: the checker does not know the keyword `{k}`"
            ));
        }
    }
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local $ref");
        errors(root, &root["$defs"][name], v, path, out);
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(x) => vec![x.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let ok = types.iter().any(|t| match *t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            "integer" => v.is_i64() || v.is_u64(),
            "number" => v.is_number(),
            _ => false,
        });
        if !ok {
            out.push(format!("{path}: {v} is not of type {t}"));
            return;
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            out.push(format!("{path}: {v} is not {c}"));
        }
    }
    if let Some(Value::Array(e)) = s.get("enum") {
        if !e.contains(v) {
            out.push(format!("{path}: {v} is not one of {e:?}"));
        }
    }
    if let Some(n) = v.as_f64() {
        if s.get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n < m)
        {
            out.push(format!("{path}: {n} is below the minimum"));
        }
        if s.get("maximum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n > m)
        {
            out.push(format!("{path}: {n} is above the maximum"));
        }
    }
    if let Some(o) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(req)) = s.get("required") {
            for r in req.iter().filter_map(Value::as_str) {
                if !o.contains_key(r) {
                    out.push(format!("{path}: missing `{r}`"));
                }
            }
        }
        for (k, x) in o {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => errors(root, ps, x, &format!("{path}.{k}"), out),
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => out.push(format!("{path}: unknown key `{k}`")),
                    Some(ap @ Value::Object(_)) => {
                        errors(root, ap, x, &format!("{path}.{k}"), out);
                    }
                    _ => {}
                },
            }
        }
    }
    if let (Some(a), Some(items)) = (v.as_array(), s.get("items")) {
        for (i, x) in a.iter().enumerate() {
            errors(root, items, x, &format!("{path}[{i}]"), out);
        }
    }
    if let Some(Value::Array(all)) = s.get("allOf") {
        for alt in all {
            errors(root, alt, v, path, out);
        }
    }
    for (key, exactly_one) in [("anyOf", false), ("oneOf", true)] {
        if let Some(Value::Array(alts)) = s.get(key) {
            let passing = alts
                .iter()
                .filter(|alt| {
                    let mut e = Vec::new();
                    errors(root, alt, v, path, &mut e);
                    e.is_empty()
                })
                .count();
            if passing == 0 || (exactly_one && passing > 1) {
                out.push(format!("{path}: {passing} alternatives of {key} match {v}"));
            }
        }
    }
}

/// The errors of `v` against the schema `root`.
pub fn validate(root: &Value, v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    errors(root, root, v, "$", &mut out);
    out
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
