//! The committed JSON Schema (`docs/game-format.schema.json`) is the one
//! the code generates. To refresh it after changing the format:
//!
//! ```text
//! HOUSERULES_BLESS=1 cargo test -p houserules-definitions --test schema
//! ```

use std::path::PathBuf;

#[test]
fn committed_schema_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/game-format.schema.json");
    let fresh = houserules_definitions::schema_json();
    if std::env::var_os("HOUSERULES_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write the schema");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale or missing; regenerate it with `HOUSERULES_BLESS=1 cargo test -p houserules-definitions --test schema`",
        path.display()
    );
}

#[test]
fn schema_describes_the_format() {
    let v: serde_json::Value =
        serde_json::from_str(&houserules_definitions::schema_json()).expect("JSON");
    let props = v["properties"].as_object().expect("properties");
    for key in [
        "id",
        "name",
        "board",
        "players",
        "setup",
        "pieces",
        "royal",
        "end",
        "templates",
    ] {
        assert!(props.contains_key(key), "schema lacks `{key}`");
    }
    let required: Vec<&str> = v["required"]
        .as_array()
        .expect("required")
        .iter()
        .filter_map(|x| x.as_str())
        .collect();
    for key in ["id", "board", "setup", "pieces"] {
        assert!(required.contains(&key), "`{key}` is required");
    }
    assert_eq!(v["additionalProperties"], serde_json::Value::Bool(false));
    let defs = v["$defs"].as_object().expect("$defs");
    for d in [
        "DirectionName",
        "Vector",
        "MovementSpec",
        "PieceSpec",
        "MoveType",
    ] {
        assert!(defs.contains_key(d), "schema lacks $defs/{d}");
    }
    let names: Vec<&str> = defs["DirectionName"]["enum"]
        .as_array()
        .expect("enum")
        .iter()
        .filter_map(|x| x.as_str())
        .collect();
    assert_eq!(names, houserules_definitions::model::direction_names());
}
