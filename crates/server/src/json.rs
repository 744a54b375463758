//! Strict JSON reading shared by the HTTP API and the WebSocket reader:
//! an object with a repeated key is refused, naming the key and the JSON
//! path of its object (issue 21), rather than letting the last value win
//! silently as `serde_json::Value` does.

use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// A key given twice in one JSON object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The JSON path of the object holding it (`$`, `$.clock`,
    /// `$.modifiers[0]`).
    pub path: String,
    /// The key, as written (unescaped JSON string).
    pub key: String,
}

impl fmt::Display for DuplicateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: duplicate key `{}` (a key may appear once in an object)",
            self.path,
            houserules_engine::echo::echo(&self.key)
        )
    }
}

/// The first repeated key in `text`, in document order; `None` when every
/// object's keys are distinct. Meant for text already read as JSON: a
/// syntax error stops the walk without a finding (the parser reports it).
pub fn duplicate_key(text: &str) -> Option<DuplicateKey> {
    let mut found = None;
    let mut de = serde_json::Deserializer::from_str(text);
    // The walk's own error only stops it; what it found is in `found`.
    let _ = Walk {
        path: "$".into(),
        found: &mut found,
    }
    .deserialize(&mut de);
    found
}

/// The path of member `key` of the object at `path`: `$.a` for a plain
/// name, else the bracket form with the key as a JSON string (`$["a b"]`).
fn member_path(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key.len() <= 64
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !key.starts_with(|c: char| c.is_ascii_digit() || c == '-');
    if plain {
        format!("{path}.{key}")
    } else {
        format!(
            "{path}[{}]",
            serde_json::Value::from(houserules_engine::echo::echo(key))
        )
    }
}

/// One value of the walk, at `path`.
struct Walk<'a> {
    path: String,
    found: &'a mut Option<DuplicateKey>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        loop {
            let item = Walk {
                path: format!("{}[{i}]", self.path),
                found: &mut *self.found,
            };
            if seq.next_element_seed(item)?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(k) = map.next_key::<String>()? {
            if seen.contains(&k) {
                *self.found = Some(DuplicateKey {
                    path: self.path,
                    key: k,
                });
                return Err(serde::de::Error::custom("duplicate key"));
            }
            let value = Walk {
                path: member_path(&self.path, &k),
                found: &mut *self.found,
            };
            map.next_value_seed(value)?;
            seen.insert(k);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_key_and_its_object() {
        // Hand-derived: the second `a` of the object at `$.x[1]`.
        let d = duplicate_key(r#"{"x": [1, {"b": 2, "a": 1, "a": 3}]}"#).unwrap();
        assert_eq!(d.path, "$.x[1]");
        assert_eq!(d.key, "a");
        let d = duplicate_key(r#"{"kind": "ping", "kind": "ping"}"#).unwrap();
        assert_eq!((d.path.as_str(), d.key.as_str()), ("$", "kind"));
        // A key that is not a plain name is written in brackets.
        let d = duplicate_key(r#"{"a b": {"k": 1, "k": 2}}"#).unwrap();
        assert_eq!(d.path, r#"$["a b"]"#);
    }

    #[test]
    fn distinct_keys_and_non_json_find_nothing() {
        assert_eq!(
            duplicate_key(r#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#),
            None
        );
        assert_eq!(duplicate_key("{\"a\": 1,"), None);
        assert_eq!(duplicate_key("not json"), None);
    }
}
