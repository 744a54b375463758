//! A creation-request modifier entry with options (issue 12): an inline
//! descriptor (or a library id) given a lifetime, a chooser and parameter
//! values, as a library id takes them in `ID:K=V;…`:
//!
//! ```json
//! {"descriptor": {…} | "ID", "lifetime"?: N | "instant" | "permanent",
//!  "chooser"?: "white" | "black", "params"?: {"NAME": VALUE, …}}
//! ```
//!
//! The options become the same overrides as `ID:K=V;…`, so they are
//! checked, and refused, by the same code (unknown parameter, bad value,
//! bad lifetime or chooser), with the entry's JSON path.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde_json::{Map, Value};

use crate::descriptor::Descriptor;

/// The keys of an entry with options.
const KEYS: &[&str] = &["descriptor", "lifetime", "chooser", "params"];

/// The schema of an entry with options (the reader is [`with_options`]).
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct WithOptions {
    /// An inline descriptor, or a library id (without `:K=V`).
    descriptor: DescriptorOrId,
    /// `instant`, `permanent` or a number of plies ≥ 1 (rulings G3).
    #[serde(default)]
    lifetime: Option<LifetimeOption>,
    /// `white` or `black`; the side to move when absent (rulings B1).
    #[serde(default)]
    chooser: Option<String>,
    /// Parameter values by name, of the declared types.
    #[serde(default)]
    params: Option<BTreeMap<String, Value>>,
}

#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum DescriptorOrId {
    Id(String),
    Inline(Box<Descriptor>),
}

#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum LifetimeOption {
    Plies(u32),
    Named(String),
}

/// Whether a modifier entry is one with options (it has `descriptor`).
pub fn has_options(o: &Map<String, Value>) -> bool {
    o.contains_key("descriptor")
}

/// The option value as the `K=V` text the overrides hold.
fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Reads an entry with options into its descriptor and overrides.
///
/// # Errors
/// A message naming the key at fault (`descriptor`, `lifetime`,
/// `chooser`, `params.NAME`), or the descriptor's findings.
pub fn with_options(
    o: &Map<String, Value>,
) -> Result<(Descriptor, BTreeMap<String, String>), String> {
    if let Some(k) = o.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!(
            "unknown key `{}` (an entry with options has {})",
            crate::echo_input(k),
            KEYS.join(", ")
        ));
    }
    let d = match o.get("descriptor") {
        Some(Value::String(id)) => {
            crate::library::get(id).map_err(|e| format!("descriptor: {e}"))?
        }
        Some(v @ Value::Object(_)) => crate::validate::validate_value(v).map_err(|f| {
            f.iter()
                .map(|f| {
                    format!(
                        "descriptor{}: {}",
                        f.path.trim_start_matches('$'),
                        f.message
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        })?,
        _ => return Err("`descriptor` is an inline descriptor or a library id".into()),
    };
    let mut over = BTreeMap::new();
    for k in ["lifetime", "chooser"] {
        if let Some(v) = o.get(k) {
            let t = text(v).ok_or_else(|| format!("`{k}` is a string or a number, not {v}"))?;
            over.insert(k.to_string(), t);
        }
    }
    match o.get("params") {
        None => {}
        Some(Value::Object(ps)) => {
            for (k, v) in ps {
                if k == "lifetime" || k == "chooser" {
                    return Err(format!(
                        "params.{k}: `{k}` is an option of the entry, not a parameter"
                    ));
                }
                let t = text(v).ok_or_else(|| {
                    format!(
                        "params.{}: a value is a string, number or boolean, not {v}",
                        crate::echo_input(k)
                    )
                })?;
                over.insert(k.clone(), t);
            }
        }
        Some(v) => return Err(format!("`params` is an object of values by name, not {v}")),
    }
    Ok((d, over))
}
