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
    /// Another rule of the catalog (issue 5 § Library: one descriptor for
    /// every other catalog rule).
    Catalog,
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
    entry!(
        "march_of_the_pawnguins",
        "March of the Pawnguins",
        Catalog,
        rule(2, "march_of_the_pawnguins")
    ),
    entry!(
        "the_rumbling",
        "The Rumbling",
        Catalog,
        rule(3, "the_rumbling")
    ),
    entry!(
        "they_deserved_it",
        "They Deserved It",
        Catalog,
        rule(4, "they_deserved_it")
    ),
    entry!(
        "born_again_christian",
        "Born Again Christian",
        Catalog,
        rule(5, "born_again_christian")
    ),
    entry!(
        "dub_thee_knight",
        "Dub Thee Knight",
        Catalog,
        rule(6, "dub_thee_knight")
    ),
    entry!(
        "back_that_shit_up",
        "Back That Shit Up",
        Catalog,
        rule(7, "back_that_shit_up")
    ),
    entry!(
        "drafted_for_battle",
        "Drafted for Battle",
        Catalog,
        rule(10, "drafted_for_battle")
    ),
    entry!("hot_drop", "Hot Drop", Catalog, rule(11, "hot_drop")),
    entry!(
        "risk_it_rook",
        "Risk It Rook",
        Catalog,
        rule(13, "risk_it_rook")
    ),
    entry!(
        "two_kids_in_a_trenchcoat",
        "Two Kids in a Trenchcoat",
        Catalog,
        rule(14, "two_kids_in_a_trenchcoat")
    ),
    entry!("chaaaarge", "Chaaaarge!", Catalog, rule(15, "chaaaarge")),
    entry!(
        "the_enemy_is_routed",
        "The Enemy is Routed",
        Catalog,
        rule(16, "the_enemy_is_routed")
    ),
    entry!(
        "nuclear_fallout",
        "Nuclear Fallout",
        Catalog,
        rule(17, "nuclear_fallout")
    ),
    entry!(
        "get_up_in_their_face",
        "Get Up in Their Face",
        Catalog,
        rule(18, "get_up_in_their_face")
    ),
    entry!(
        "a_light_breeze",
        "A Light Breeze",
        Catalog,
        rule(19, "a_light_breeze")
    ),
    entry!(
        "anti_camping",
        "Anti-Camping",
        Catalog,
        rule(20, "anti_camping")
    ),
    entry!(
        "bottomless_pit",
        "Bottomless Pit",
        Catalog,
        rule(21, "bottomless_pit")
    ),
    entry!(
        "moving_up_the_corporate_ladder",
        "Moving Up the Corporate Ladder",
        Catalog,
        rule(22, "moving_up_the_corporate_ladder")
    ),
    entry!(
        "proletariat",
        "Proletariat",
        Catalog,
        rule(25, "proletariat")
    ),
    entry!("short_stop", "Short Stop", Catalog, rule(26, "short_stop")),
    entry!(
        "pawns_with_viagra",
        "Pawns with Viagra",
        Catalog,
        rule(27, "pawns_with_viagra")
    ),
    entry!(
        "trains_rights",
        "Trains Rights",
        Catalog,
        rule(28, "trains_rights")
    ),
    entry!("estrogen", "Estrogen", Catalog, rule(29, "estrogen")),
    entry!(
        "pacman_style",
        "Pacman Style",
        Catalog,
        rule(31, "pacman_style")
    ),
    entry!("god_kings", "God Kings", Catalog, rule(32, "god_kings")),
    entry!(
        "early_promotion",
        "Early Promotion",
        Catalog,
        rule(33, "early_promotion")
    ),
    entry!(
        "knee_surgery",
        "Knee Surgery",
        Catalog,
        rule(34, "knee_surgery")
    ),
    entry!(
        "down_with_the_ship",
        "Down with the Ship",
        Catalog,
        rule(36, "down_with_the_ship")
    ),
    entry!(
        "second_chance",
        "Second Chance",
        Catalog,
        rule(37, "second_chance")
    ),
    entry!(
        "hobbit_slaughter",
        "Hobbit Slaughter",
        Catalog,
        rule(40, "hobbit_slaughter")
    ),
    entry!(
        "critical_strike",
        "Critical Strike",
        Catalog,
        rule(42, "critical_strike")
    ),
    entry!(
        "invulnerability_potion",
        "Invulnerability Potion",
        Catalog,
        rule(43, "invulnerability_potion")
    ),
    entry!(
        "severe_constipation",
        "Severe Constipation",
        Catalog,
        rule(45, "severe_constipation")
    ),
    entry!(
        "bloodthirsty",
        "Bloodthirsty",
        Catalog,
        rule(47, "bloodthirsty")
    ),
    entry!("ice_age", "Ice Age", Catalog, rule(48, "ice_age")),
    entry!("no_cowards", "No Cowards", Catalog, rule(49, "no_cowards")),
    entry!(
        "blood_sacrifice",
        "Blood Sacrifice",
        Catalog,
        rule(51, "blood_sacrifice")
    ),
    entry!(
        "portal_storm",
        "Portal Storm",
        Catalog,
        rule(52, "portal_storm")
    ),
    entry!(
        "living_bomb",
        "Living Bomb",
        Catalog,
        rule(54, "living_bomb")
    ),
    entry!("mitosis", "Mitosis", Catalog, rule(55, "mitosis")),
    entry!(
        "treasure_chest",
        "Treasure Chest",
        Catalog,
        rule(56, "treasure_chest")
    ),
    entry!(
        "no_mans_land",
        "No Man's Land",
        Catalog,
        rule(59, "no_mans_land")
    ),
    entry!("cash_grab", "Cash Grab", Catalog, rule(60, "cash_grab")),
    entry!(
        "summoning_ritual",
        "Summoning Ritual",
        Catalog,
        rule(62, "summoning_ritual")
    ),
    entry!(
        "call_down_lightning",
        "Call Down Lightning",
        Catalog,
        rule(63, "call_down_lightning")
    ),
    entry!(
        "get_the_fuck_off",
        "Get the Fuck Off",
        Catalog,
        rule(64, "get_the_fuck_off")
    ),
    entry!(
        "gigachad_aura",
        "Gigachad Aura",
        Catalog,
        rule(65, "gigachad_aura")
    ),
];

/// Every library entry, parity rules first, then templates, then the
/// other catalog rules by catalog number.
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
    #[error("no modifier `{}` in the library", crate::echo_input(.0))]
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
