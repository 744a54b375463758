//! Random input never makes the validator panic, and whatever it accepts
//! round-trips through the typed descriptor.

use houserules_modifiers::{validate, validate_value, PrimitiveKind, TriggerKind};
use proptest::prelude::*;
use serde_json::{json, Value};

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-2.0f64..2.0).prop_map(|x| json!(x)),
        "[a-z$.\\-]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "$self",
            "$event.piece",
            "$bind.x",
            "$var.tails",
            "$param.sq",
            "e4",
            "i9",
            "mine",
            "both",
            "rps",
            "piece",
            "chooser",
            "tails",
        ])
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "kind",
                    "params",
                    "effects",
                    "then",
                    "else",
                    "do",
                    "bind",
                    "pieces",
                    "at",
                    "p",
                    "lifetime",
                    "filter",
                    "if",
                    "over",
                    "from",
                    "squares",
                    "file",
                    "color",
                    "type",
                    "eq",
                    "count",
                    "forPlayer",
                    "x",
                ]),
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

fn node_kind() -> impl Strategy<Value = String> {
    prop::sample::select(PrimitiveKind::ALL.to_vec()).prop_map(|k| k.as_str().to_string())
}

/// Descriptor-shaped values with real kinds and random parameters.
fn descriptor_like() -> impl Strategy<Value = Value> {
    let node = (node_kind(), any_json())
        .prop_map(|(k, p)| json!({"kind": k, "params": p}))
        .boxed();
    let trigger = (
        prop::sample::select(TriggerKind::ALL.to_vec()),
        prop::collection::vec(node.clone(), 0..4),
    )
        .prop_map(|(k, e)| json!({"kind": k.as_str(), "effects": e}));
    (
        prop::collection::vec(node, 0..3),
        prop::collection::vec(trigger, 0..4),
    )
        .prop_map(
            |(p, t)| json!({"version": 1, "id": "f", "name": "F", "passive": p, "triggers": t}),
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = validate(&text);
    }

    #[test]
    fn random_json_never_panics(v in any_json()) {
        let _ = validate_value(&v);
        let _ = validate(&v.to_string());
    }

    #[test]
    fn descriptor_like_values_never_panic(v in descriptor_like()) {
        match validate_value(&v) {
            Ok(d) => {
                // Accepted descriptors serialise and validate again.
                let text = serde_json::to_string(&d).expect("serialise");
                prop_assert!(validate(&text).is_ok());
            }
            Err(findings) => {
                prop_assert!(!findings.is_empty());
                for f in findings {
                    prop_assert!(f.path.starts_with('$'));
                }
            }
        }
    }
}

/// Every JSON pointer inside a value.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(x, p, out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(x, p, out);
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Library descriptors with one value replaced by random JSON: the
    /// validator never panics, and every finding has a path.
    #[test]
    fn mutated_library_descriptors_never_panic(
        which in 0usize..14,
        pick in any::<prop::sample::Index>(),
        replacement in any_json(),
    ) {
        let entries = houserules_modifiers::library::list();
        let entry = &entries[which % entries.len()];
        let mut v: Value = serde_json::from_str(entry.text).expect("library JSON");
        let mut ps = Vec::new();
        pointers(&v, String::new(), &mut ps);
        if !ps.is_empty() {
            let p = &ps[pick.index(ps.len())];
            if let Some(slot) = v.pointer_mut(p) {
                *slot = replacement;
            }
        }
        match validate_value(&v) {
            Ok(d) => prop_assert_eq!(d.id.as_str(), v["id"].as_str().unwrap_or_default()),
            Err(findings) => {
                for f in findings {
                    prop_assert!(f.path.starts_with('$'), "{}", f);
                    prop_assert!(!f.message.is_empty());
                }
            }
        }
    }
}
