//! Registry, rule-set parsing and layouts.

use houserules_presets::registry::{find, incompatibility_reason, PRESETS};
use houserules_presets::{build, Layout, PresetError, RuleSet};

#[test]
fn registry_has_all_34_presets_with_unique_ids() {
    assert_eq!(PRESETS.len(), 34);
    for (i, p) in PRESETS.iter().enumerate() {
        assert!(PRESETS[i + 1..].iter().all(|q| q.id != p.id), "{}", p.id);
        assert_eq!(p.scope_aware, p.params.iter().any(|x| x.key == "scope"));
        assert_eq!(p.implemented, p.needs.is_none(), "{}", p.id);
    }
}

#[test]
fn incompatibility_is_symmetric_and_names_known_presets() {
    for p in PRESETS {
        for q in p.incompatible_with {
            let other = find(q).unwrap_or_else(|| panic!("{} names unknown {q}", p.id));
            assert!(
                other.incompatible_with.contains(&p.id),
                "{} lists {q} but not the reverse",
                p.id
            );
            assert_eq!(
                incompatibility_reason(p.id, q),
                incompatibility_reason(q, p.id)
            );
        }
        for r in p.requires {
            assert!(find(r).is_some());
        }
    }
}

#[test]
fn parse_fills_defaults_and_orders_by_registry() {
    let a = RuleSet::parse("extinction-chess,berolina-pawns").unwrap();
    let b = RuleSet::parse("berolina-pawns:scope=both , extinction-chess:target=pawn").unwrap();
    assert_eq!(a, b);
    assert_eq!(
        a.get("extinction-chess").unwrap().param("target"),
        Some("pawn")
    );
    assert_eq!(
        a.to_cli(),
        "extinction-chess:target=pawn,berolina-pawns:scope=both"
    );
    assert_eq!(
        RuleSet::parse("monster-rules")
            .unwrap()
            .get("monster-rules")
            .unwrap()
            .param("scope"),
        Some("white")
    );
}

#[test]
fn parse_errors_are_specific() {
    match RuleSet::parse("suicide-chees") {
        Err(PresetError::UnknownPreset { suggestion, .. }) => {
            assert_eq!(suggestion.as_deref(), Some("suicide-chess"))
        }
        e => panic!("{e:?}"),
    }
    assert!(matches!(
        RuleSet::parse("coregal:scope=white"),
        Err(PresetError::UnknownParameter { .. })
    ));
    assert!(matches!(
        RuleSet::parse("extinction-chess:target=dragon"),
        Err(PresetError::BadValue { .. })
    ));
    assert!(matches!(
        RuleSet::parse("extinction-chess:target"),
        Err(PresetError::MalformedParameter { .. })
    ));
    assert!(matches!(
        RuleSet::parse("king-heals"),
        Err(PresetError::MissingRequirement { .. })
    ));
    assert!(matches!(
        RuleSet::parse("coregal,coregal"),
        Err(PresetError::Duplicate { .. })
    ));
    assert!(matches!(
        RuleSet::parse("coregal,,dual-king"),
        Err(PresetError::EmptyId { .. })
    ));
    let e = RuleSet::parse("capture-to-win,last-piece-standing").unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("capture-to-win") && text.contains("last-piece-standing"),
        "{text}"
    );
    assert!(RuleSet::parse("").unwrap().is_empty());
}

/// Regression (new-user trial): `extinction-chess:` was accepted as if
/// the colon were not there. A colon announces `KEY=VALUE` parameters
/// (the CLI form `ID[:KEY=VALUE[;KEY=VALUE...]]`), so an empty list after
/// it is refused, naming the preset; `extinction-chess` alone is the way
/// to ask for the defaults.
#[test]
fn empty_parameter_list_after_the_colon_is_refused() {
    for input in [
        "extinction-chess:",
        "extinction-chess: ",
        "extinction-chess:;",
        "coregal,extinction-chess:",
    ] {
        match RuleSet::parse(input) {
            Err(e @ PresetError::EmptyParameters { .. }) => {
                let text = e.to_string();
                assert!(
                    text.contains("`extinction-chess`") && text.contains("empty"),
                    "{input}: {text}"
                );
            }
            other => panic!("{input}: {other:?}"),
        }
    }
    assert!(RuleSet::parse("extinction-chess").is_ok());
}

/// Every preset of the spec (the 29 of presets-and-triggers.md and the
/// five ThressGame ones, issue 4) is implemented and builds, alone with
/// what it requires, from its preferred layout.
#[test]
fn every_preset_is_implemented_and_builds() {
    assert_eq!(PRESETS.len(), 34);
    for p in PRESETS {
        assert!(p.implemented, "{} is not implemented", p.id);
        let ids: Vec<&str> = std::iter::once(p.id)
            .chain(p.requires.iter().copied())
            .collect();
        let rs = RuleSet::parse(&ids.join(",")).unwrap();
        if let Err(e) = build(&rs, None) {
            panic!("{}: {e}", p.id);
        }
    }
}

#[test]
fn layouts_chess960_numbering_and_fixed_layouts() {
    // Scharnagl numbering: 518 is the standard array; 0 is BBQNNRKR.
    assert_eq!(
        Layout::Chess960(518).fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    assert!(Layout::Chess960(0).fen().starts_with("bbqnnrkr/"));
    assert_eq!(
        Layout::parse("chess960:random:7").unwrap(),
        Layout::chess960_random(7)
    );
    assert!(Layout::parse("chess960:960").is_err());
    assert!(Layout::parse("nope").is_err());
    for id in [
        "standard",
        "dual-classic",
        "knightmate",
        "monster",
        "pawns-only",
        "chess960:12",
    ] {
        let l = Layout::parse(id).unwrap();
        assert_eq!(l.id(), id);
        build(&RuleSet::empty(), Some(l)).unwrap();
    }
    assert_eq!(
        build(&RuleSet::parse("knightmate-rules").unwrap(), None)
            .unwrap()
            .1,
        "rnbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBNR w KQkq - 0 1"
    );
}

#[test]
fn chess960_known_indices() {
    // chessprogramming.org "Chess960 Numbering Scheme": 0 BBQNNRKR,
    // 518 RNBQKBNR, 959 RKRNNQBB.
    use houserules_presets::layout::chess960_back_rank;
    let s = |n| chess960_back_rank(n).iter().collect::<String>();
    assert_eq!(s(0), "BBQNNRKR");
    assert_eq!(s(518), "RNBQKBNR");
    assert_eq!(s(959), "RKRNNQBB");
}

/// An unknown preset id is echoed cut and escaped (re-trial: a 5,000-byte
/// id with a BEL was printed whole and raw).
#[test]
fn unknown_preset_ids_are_echoed_cut_and_escaped() {
    let id = format!("x\u{7}{}", "k".repeat(5000));
    let m = houserules_presets::RuleSet::parse(&id)
        .unwrap_err()
        .to_string();
    assert!(!m.contains('\u{7}'), "raw BEL in {m:?}");
    assert!(m.len() < 400, "{} bytes", m.len());
}
