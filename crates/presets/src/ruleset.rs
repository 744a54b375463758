//! Parsing and validating a rule set: the CLI form
//! `ID[:KEY=VALUE[;KEY=VALUE...]][,ID...]`.
//!
//! A [`RuleSet`] is validated on construction: every id is known, every
//! parameter is known and has an allowed value (defaults fill the rest),
//! requirements are present and no incompatible pair meets. Its presets
//! are kept in registry order (the composition order), so `a,b` and `b,a`
//! give the same rules.

use std::collections::BTreeMap;

use crate::error::PresetError;
use crate::registry::{self, PresetInfo, PRESETS};

/// One active preset with its parameters (defaults filled in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivePreset {
    /// Its metadata.
    pub info: &'static PresetInfo,
    /// Every parameter of the preset with its value.
    pub params: BTreeMap<String, String>,
}

impl ActivePreset {
    /// The value of parameter `key` (always set for the preset's own keys).
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params.get(key).map(String::as_str)
    }
}

/// A validated set of presets, in composition (registry) order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSet {
    presets: Vec<ActivePreset>,
}

impl RuleSet {
    /// No presets: FIDE chess.
    pub fn empty() -> RuleSet {
        RuleSet::default()
    }

    /// Parses and validates the CLI form. An empty or blank string is the
    /// empty rule set.
    ///
    /// # Errors
    /// Every [`PresetError`] of parsing and composition.
    pub fn parse(input: &str) -> Result<RuleSet, PresetError> {
        let mut list: Vec<(String, Vec<(String, String)>)> = Vec::new();
        if input.trim().is_empty() {
            return Ok(RuleSet::empty());
        }
        for (i, entry) in input.split(',').enumerate() {
            let entry = entry.trim();
            if entry.is_empty() {
                return Err(PresetError::EmptyId {
                    position: i + 1,
                    input: input.to_string(),
                });
            }
            let (id, rest) = match entry.split_once(':') {
                Some((id, rest)) => (id.trim(), Some(rest)),
                None => (entry, None),
            };
            let mut params = Vec::new();
            if let Some(rest) = rest {
                // `id:` (or `id:;`) promises parameters and gives none: a
                // forgotten KEY=VALUE rather than a wish for the defaults.
                if rest.split(';').all(|p| p.trim().is_empty()) {
                    return Err(PresetError::EmptyParameters {
                        preset: id.to_string(),
                    });
                }
                for p in rest.split(';') {
                    let p = p.trim();
                    if p.is_empty() {
                        continue;
                    }
                    let Some((k, v)) = p.split_once('=') else {
                        return Err(PresetError::MalformedParameter {
                            preset: id.to_string(),
                            text: p.to_string(),
                        });
                    };
                    params.push((k.trim().to_string(), v.trim().to_string()));
                }
            }
            list.push((id.to_string(), params));
        }
        let refs: Vec<(&str, Vec<(&str, &str)>)> = list
            .iter()
            .map(|(id, ps)| {
                (
                    id.as_str(),
                    ps.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect(),
                )
            })
            .collect();
        RuleSet::from_parts(&refs)
    }

    /// Builds a rule set from ids and `(key, value)` parameters.
    ///
    /// # Errors
    /// As [`RuleSet::parse`].
    pub fn from_parts(parts: &[(&str, Vec<(&str, &str)>)]) -> Result<RuleSet, PresetError> {
        let mut given: Vec<ActivePreset> = Vec::new();
        for (id, params) in parts {
            let Some(info) = registry::find(id) else {
                return Err(PresetError::UnknownPreset {
                    id: id.to_string(),
                    suggestion: suggest(id),
                });
            };
            if given.iter().any(|g| g.info.id == info.id) {
                return Err(PresetError::Duplicate { id: id.to_string() });
            }
            let mut values = BTreeMap::new();
            for (k, v) in params {
                let Some(spec) = info.params.iter().find(|p| p.key == *k) else {
                    let known = if info.params.is_empty() {
                        "none".to_string()
                    } else {
                        info.params
                            .iter()
                            .map(|p| p.key)
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    return Err(PresetError::UnknownParameter {
                        preset: info.id.to_string(),
                        key: k.to_string(),
                        known,
                    });
                };
                let v = v.to_ascii_lowercase();
                if !spec.allowed.contains(&v.as_str()) {
                    return Err(PresetError::BadValue {
                        preset: info.id.to_string(),
                        key: k.to_string(),
                        value: v,
                        allowed: spec.allowed.join(", "),
                    });
                }
                if values.insert(k.to_string(), v).is_some() {
                    return Err(PresetError::DuplicateParameter {
                        preset: info.id.to_string(),
                        key: k.to_string(),
                    });
                }
            }
            for p in info.params {
                values
                    .entry(p.key.to_string())
                    .or_insert_with(|| p.default.to_string());
            }
            given.push(ActivePreset {
                info,
                params: values,
            });
        }
        // Incompatibility first, in the order given, naming both.
        for (i, a) in given.iter().enumerate() {
            for b in &given[i + 1..] {
                if let Some(reason) = registry::incompatibility_reason(a.info.id, b.info.id) {
                    return Err(PresetError::Incompatible {
                        a: a.info.id.to_string(),
                        b: b.info.id.to_string(),
                        reason: reason.to_string(),
                    });
                }
            }
        }
        for a in &given {
            for r in a.info.requires {
                if !given.iter().any(|g| g.info.id == *r) {
                    return Err(PresetError::MissingRequirement {
                        preset: a.info.id.to_string(),
                        required: r.to_string(),
                    });
                }
            }
        }
        given.sort_by_key(|g| PRESETS.iter().position(|p| p.id == g.info.id));
        Ok(RuleSet { presets: given })
    }

    /// The active presets in composition order.
    pub fn presets(&self) -> &[ActivePreset] {
        &self.presets
    }

    /// The active preset with this id.
    pub fn get(&self, id: &str) -> Option<&ActivePreset> {
        self.presets.iter().find(|p| p.info.id == id)
    }

    /// Whether the preset is active.
    pub fn has(&self, id: &str) -> bool {
        self.get(id).is_some()
    }

    /// Whether the rule set is empty (FIDE chess).
    pub fn is_empty(&self) -> bool {
        self.presets.is_empty()
    }

    /// The layout the first preset (in composition order) that names one
    /// prefers, or `standard`.
    pub fn preferred_layout(&self) -> &'static str {
        self.presets
            .iter()
            .find_map(|p| p.info.preferred_layout)
            .unwrap_or("standard")
    }

    /// The canonical CLI form (composition order, every parameter written).
    pub fn to_cli(&self) -> String {
        self.presets
            .iter()
            .map(|p| {
                if p.params.is_empty() {
                    p.info.id.to_string()
                } else {
                    let ps: Vec<String> =
                        p.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    format!("{}:{}", p.info.id, ps.join(";"))
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    }
}

impl std::str::FromStr for RuleSet {
    type Err = PresetError;
    fn from_str(s: &str) -> Result<RuleSet, PresetError> {
        RuleSet::parse(s)
    }
}

/// The known id nearest to `id` (edit distance at most a third of its
/// length, or a prefix/substring match).
pub fn suggest(id: &str) -> Option<String> {
    let id = id.to_ascii_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for p in PRESETS {
        let d = if p.id.contains(id.as_str()) && id.len() >= 3 {
            0
        } else {
            levenshtein(&id, p.id)
        };
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, p.id));
        }
    }
    best.filter(|(d, _)| *d <= (id.len() / 3).max(2))
        .map(|(_, s)| s.to_string())
}

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
