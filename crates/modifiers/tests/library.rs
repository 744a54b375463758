//! Every shipped descriptor validates, and the library lists the locked
//! parity rules and templates.

use std::collections::BTreeSet;

use houserules_modifiers::library::{self, EntryKind};

const PARITY: [&str; 8] = [
    "minefield",
    "mr_freeze",
    "parry",
    "all_on_red",
    "religious_conversion",
    "ice_physics",
    "kamikaze",
    "mind_control",
];
const TEMPLATES: [&str; 6] = [
    "simple-mine",
    "vampire-on-capture",
    "frozen-column",
    "coin-flip-restriction",
    "religious-bishop",
    "no-mans-land",
];

#[test]
fn every_entry_validates_and_matches_its_listing() {
    for e in library::list() {
        let d = library::get(e.id).unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(d.id, e.id, "file {} declares another id", e.file);
        assert_eq!(d.name, e.name, "name of {}", e.id);
        assert!(!d.description.is_empty(), "{} has no description", e.id);
    }
}

#[test]
fn locked_lists_are_shipped() {
    let parity: Vec<&str> = library::list()
        .iter()
        .filter(|e| e.kind == EntryKind::Parity)
        .map(|e| e.id)
        .collect();
    assert_eq!(parity, PARITY);
    let templates: Vec<&str> = library::list()
        .iter()
        .filter(|e| e.kind == EntryKind::Template)
        .map(|e| e.id)
        .collect();
    assert_eq!(templates, TEMPLATES);
}

#[test]
fn ids_are_unique() {
    let ids: BTreeSet<&str> = library::list().iter().map(|e| e.id).collect();
    assert_eq!(ids.len(), library::list().len());
}

#[test]
fn parity_rules_name_their_catalog_rule() {
    for e in library::list()
        .iter()
        .filter(|e| e.kind == EntryKind::Parity)
    {
        let rule = e.catalog.expect("parity rules implement a catalog rule");
        assert_eq!(rule.id, e.id);
    }
    let numbers: Vec<u32> = PARITY
        .iter()
        .map(|id| {
            library::entry(id)
                .and_then(|e| e.catalog)
                .map(|c| c.number)
                .unwrap_or(0)
        })
        .collect();
    // Catalog numbers from thressgame-catalog.md § Per-rule catalog.
    assert_eq!(numbers, [12, 57, 44, 50, 53, 30, 38, 9]);
}

#[test]
fn templates_are_never_draft_cards() {
    // Rulings G2: the deck is the library entries with a `draft` block;
    // templates have none.
    for e in library::list() {
        let d = library::get(e.id).expect("valid");
        assert_eq!(d.draft.is_some(), e.kind != EntryKind::Template, "{}", e.id);
    }
}

#[test]
fn unknown_id_is_an_error() {
    assert!(matches!(
        library::get("no_such_rule"),
        Err(library::LoadError::UnknownId(_))
    ));
}

#[test]
fn draft_data_matches_the_catalog() {
    use houserules_modifiers::descriptor::DraftDuration;
    // Weights and durations from thressgame-catalog.md § Per-rule catalog.
    let expected: [(&str, u32, DraftDuration); 12] = [
        (
            "march_of_the_pawnguins",
            10,
            DraftDuration::Named("instant".into()),
        ),
        (
            "bottomless_pit",
            5,
            DraftDuration::Named("persistent".into()),
        ),
        ("hobbit_slaughter", 6, DraftDuration::Range([2, 4])),
        ("two_kids_in_a_trenchcoat", 6, DraftDuration::Plies(1)),
        ("minefield", 7, DraftDuration::Named("persistent".into())),
        ("mr_freeze", 6, DraftDuration::Range([3, 9])),
        ("parry", 5, DraftDuration::Range([3, 9])),
        ("all_on_red", 5, DraftDuration::Range([3, 9])),
        ("religious_conversion", 6, DraftDuration::Range([3, 9])),
        ("ice_physics", 6, DraftDuration::Range([3, 9])),
        ("kamikaze", 5, DraftDuration::Range([3, 9])),
        ("mind_control", 5, DraftDuration::Plies(1)),
    ];
    for (id, weight, duration) in expected {
        let d = library::get(id).expect("valid").draft.expect("draft data");
        assert_eq!(d.weight, weight, "{id}");
        assert_eq!(d.duration, duration, "{id}");
    }
}

#[test]
fn catalog_entries_name_their_rule() {
    for e in library::list()
        .iter()
        .filter(|e| e.kind == EntryKind::Catalog)
    {
        assert_eq!(e.catalog.expect("catalog rule").id, e.id);
    }
}
