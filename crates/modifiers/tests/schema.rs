//! The committed JSON Schema (`docs/modifier-descriptor.schema.json`) is the
//! one the code generates. To refresh it after changing the format:
//!
//! ```text
//! HOUSERULES_BLESS=1 cargo test -p houserules-modifiers --test schema
//! ```

use std::path::PathBuf;

use houserules_modifiers::{MarkerKind, PrimitiveKind, TriggerKind};

#[test]
fn committed_schema_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/modifier-descriptor.schema.json");
    let fresh = houserules_modifiers::schema_json();
    if std::env::var_os("HOUSERULES_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write the schema");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale or missing; regenerate it with `HOUSERULES_BLESS=1 cargo test -p houserules-modifiers --test schema`",
        path.display()
    );
}

fn enum_of(v: &serde_json::Value, def: &str) -> Vec<String> {
    let d = &v["$defs"][def];
    let mut out: Vec<String> = Vec::new();
    if let Some(e) = d["enum"].as_array() {
        out.extend(e.iter().filter_map(|x| x.as_str().map(String::from)));
    }
    if let Some(one) = d["oneOf"].as_array() {
        for alt in one {
            if let Some(s) = alt["const"].as_str() {
                out.push(s.to_string());
            }
            if let Some(e) = alt["enum"].as_array() {
                out.extend(e.iter().filter_map(|x| x.as_str().map(String::from)));
            }
        }
    }
    out
}

#[test]
fn schema_lists_every_kind() {
    let v: serde_json::Value =
        serde_json::from_str(&houserules_modifiers::schema_json()).expect("JSON");
    assert_eq!(v["additionalProperties"], serde_json::Value::Bool(false));
    let required: Vec<&str> = v["required"]
        .as_array()
        .expect("required")
        .iter()
        .filter_map(|x| x.as_str())
        .collect();
    assert_eq!(required, ["version", "id", "name"]);
    let t = enum_of(&v, "TriggerKind");
    assert_eq!(
        t,
        TriggerKind::ALL
            .iter()
            .map(|k| k.as_str())
            .collect::<Vec<_>>()
    );
    let p = enum_of(&v, "PrimitiveKind");
    assert_eq!(
        p,
        PrimitiveKind::ALL
            .iter()
            .map(|k| k.as_str())
            .collect::<Vec<_>>()
    );
    let _ = MarkerKind::ALL;
}

#[test]
fn kinds_named_by_the_specs_exist() {
    for t in [
        "on-turn-start",
        "on-turn-end",
        "on-capture",
        "on-captured",
        "on-damaged",
        "on-move",
        "on-promotion",
        "on-check-received",
        "on-check-delivered",
        "on-moved-onto-square",
        "conditional",
        "on-rule-activated",
        "on-rule-expire",
        "on-piece-entered-marker",
        "on-marker-expire",
    ] {
        assert!(TriggerKind::parse(t).is_some(), "{t}");
    }
    for p in [
        "add-to-attribute",
        "seed-attribute",
        "set-piece-attr",
        "set-capture-flag",
        "add-aura",
        "spawn-marker",
        "cancel-capture",
        "request-choice",
        "with-probability",
        "random-pick",
        "set-board-topology",
        "conditional",
    ] {
        assert!(PrimitiveKind::parse(p).is_some(), "{p}");
    }
    let priorities: Vec<(&str, u8)> = MarkerKind::ALL
        .iter()
        .map(|k| (k.as_str(), k.priority()))
        .collect();
    assert_eq!(
        priorities,
        [
            ("portal-end", 1),
            ("frozen-square", 2),
            ("mine", 3),
            ("pit", 4),
            ("death-square", 5),
            ("tornado", 6),
            ("treasure", 7),
            ("blocked", 8),
            ("ward", 9),
        ]
    );
}
