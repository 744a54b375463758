//! The shipped modifier library: descriptors stored as JSON files under
//! `crates/modifiers/library/`, embedded at build time and loaded by id.

use serde::Serialize;

use crate::descriptor::Descriptor;
use crate::validate::{validate, Finding};

/// Why an entry is in the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EntryKind {
    /// One of the 8 locked parity rules, reproducing a catalog rule.
    Parity,
    /// One of the 6 locked templates, a parameterised starting point.
    Template,
}

/// A catalog rule (thressgame-catalog.md, § Per-rule catalog).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CatalogRule {
    /// The catalog number.
    pub number: u32,
    /// The catalog id.
    pub id: &'static str,
}

/// One library entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// The descriptor id.
    pub id: &'static str,
    /// The descriptor's display name.
    pub name: &'static str,
    /// The file name under `crates/modifiers/library/`.
    pub file: &'static str,
    /// Parity rule or template.
    pub kind: EntryKind,
    /// The catalog rule it implements (parity) or is modelled on (template).
    pub catalog: Option<CatalogRule>,
    /// The descriptor JSON text.
    #[serde(skip)]
    pub text: &'static str,
}

macro_rules! entry {
    ($id:literal, $name:literal, $kind:ident, $cat:expr) => {
        Entry {
            id: $id,
            name: $name,
            file: concat!($id, ".json"),
            kind: EntryKind::$kind,
            catalog: $cat,
            text: include_str!(concat!("../library/", $id, ".json")),
        }
    };
}

const fn rule(number: u32, id: &'static str) -> Option<CatalogRule> {
    Some(CatalogRule { number, id })
}

static ENTRIES: &[Entry] = &[
    entry!("minefield", "Minefield", Parity, rule(12, "minefield")),
    entry!("mr_freeze", "Mr. Freeze", Parity, rule(57, "mr_freeze")),
    entry!("parry", "Parry", Parity, rule(44, "parry")),
    entry!("all_on_red", "All on Red", Parity, rule(50, "all_on_red")),
    entry!(
        "religious_conversion",
        "Religious Conversion",
        Parity,
        rule(53, "religious_conversion")
    ),
    entry!(
        "ice_physics",
        "Ice Physics",
        Parity,
        rule(30, "ice_physics")
    ),
    entry!("kamikaze", "Kamikaze", Parity, rule(38, "kamikaze")),
    entry!(
        "mind_control",
        "Mind Control",
        Parity,
        rule(9, "mind_control")
    ),
    entry!(
        "simple-mine",
        "Simple Mine",
        Template,
        rule(12, "minefield")
    ),
    entry!("vampire-on-capture", "Vampire on Capture", Template, None),
    entry!(
        "frozen-column",
        "Frozen Column",
        Template,
        rule(57, "mr_freeze")
    ),
    entry!(
        "coin-flip-restriction",
        "Coin-Flip Restriction",
        Template,
        rule(50, "all_on_red")
    ),
    entry!(
        "religious-bishop",
        "Religious Bishop",
        Template,
        rule(53, "religious_conversion")
    ),
    entry!(
        "no-mans-land",
        "No Man's Land",
        Template,
        rule(59, "no_mans_land")
    ),
];

/// Every library entry, parity rules first, in a fixed order.
pub fn list() -> &'static [Entry] {
    ENTRIES
}

/// The entry with this id.
pub fn entry(id: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| e.id == id)
}

/// Errors from loading a library descriptor.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// No entry has this id.
    #[error("no modifier `{0}` in the library")]
    UnknownId(String),
    /// The shipped file does not validate (a build defect, caught by tests).
    #[error("library modifier `{id}` is invalid: {}", findings.first().map(ToString::to_string).unwrap_or_default())]
    Invalid {
        /// The id.
        id: String,
        /// What the validator found.
        findings: Vec<Finding>,
    },
}

/// Loads and validates the descriptor with this id.
pub fn get(id: &str) -> Result<Descriptor, LoadError> {
    let e = entry(id).ok_or_else(|| LoadError::UnknownId(id.to_string()))?;
    validate(e.text).map_err(|findings| LoadError::Invalid {
        id: id.to_string(),
        findings,
    })
}
