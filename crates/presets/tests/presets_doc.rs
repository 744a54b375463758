//! docs/presets.md is generated from the registry (parameters,
//! requirements, incompatibilities, layouts) and the descriptions, so it
//! cannot drift from the code: this test fails when the committed file is
//! stale. Regenerate it with
//! `HOUSERULES_BLESS=1 cargo test -p houserules-presets --test presets_doc`.

use houserules_presets::registry::PresetInfo;
use houserules_presets::PRESETS;

const INTRO: &str = "\
# Presets

A **preset** is a named house rule built into the engine: it changes the
game's definition (pieces, royalty, promotion, castling, board edges) and
adds rule hooks (extra moves, compulsory captures, hit points, end rules).
Presets are chosen with `--rules ID[:KEY=VALUE[;KEY=VALUE...]][,ID...]` on
`perft`, `moves`, `state` and `pgn check`, and with `\"presets\"` in a
session's creation request ([modifiers.md](modifiers.md)). `houserules rules` lists
them (`--json` for a machine-readable listing, with each preset's
`description`). Several presets compose in the registry's order below,
whatever order they are written in; a preset listed under *requires* must
be given too, and one listed under *incompatible with* must not.

**Games.** A preset applies to every game whose pieces meet its needs:
`--game ID|FILE.yaml` with `--rules` plays the presets on that game, the
FIDE pieces a preset names being the game's kinds of the same `role:`
(`crates/presets/src/needs.rs`), and `houserules rules --game ID` lists
the presets that apply to a game and, for the others, what the game lacks.
On FIDE chess a game starts from a layout (`--layout`: `standard`,
`chess960:N`, `dual-classic`, `knightmate`, `monster`, `pawns-only`) or a
FEN; on any other game from its own setup or a FEN, and `--layout` is
refused (the layouts are FIDE start positions). A start position must also
hold what the preset needs (for example a knight under
`knightmate-rules`); the *games* line of each preset says what its code
checks. The *dead positions* line says which draw by insufficient material
the preset keeps: FIDE's (FIDE 9.6) only where no sequence of legal moves
can still win under the preset's rules (`crates/presets/src/dead.rs`); with
several presets the strictest applies. The 75-move rule and fivefold
repetition stay under every preset.
Custom modifiers ([modifiers.md](modifiers.md)) are the other way to write a
house rule.

This file is generated from the registry and the descriptions
(`crates/presets/src/descriptions.rs`) by `tests/presets_doc.rs`.
";

/// What the code checks of a game for this preset (`needs::needs`,
/// `rules::compose_on`, `PresetHooks::check_setup`).
fn games(p: &PresetInfo) -> String {
    let needs = houserules_presets::needs::needs(p.id);
    let base = if needs.is_empty() {
        "every game".to_string()
    } else {
        format!(
            "every game with {}",
            needs
                .iter()
                .map(|n| n.describe())
                .collect::<Vec<_>>()
                .join(" and ")
        )
    };
    let need = match p.id {
        "knightmate-rules" => "; a start position where at least one side has a knight",
        "weak-dual-king" => "; a start position where at least one side has a king",
        "capture-all" | "last-piece-standing" => "; a start position with at least one piece",
        "extinction-chess" => {
            "; a piece kind for its target (pieces that move as pawns for `pawn`, a king for `king`, the role for the others, nothing more for `any`); a start position where at least one side still has its target type"
        }
        "king-heals" | "poisoned-squares" => " (with `piece-hp`)",
        _ => "",
    };
    match p.preferred_layout {
        Some(l) => format!(
            "{base}{need}; on FIDE chess starts from the `{l}` layout unless `--layout` or `--fen` gives another"
        ),
        None => format!("{base}{need}"),
    }
}

/// The dead-position rule and why (`dead::dead_rule_why`, default
/// parameters, 8×8).
fn dead(p: &PresetInfo) -> String {
    let param = |k: &str| {
        p.params
            .iter()
            .find(|x| x.key == k)
            .map(|x| x.default.to_string())
    };
    let (rule, why) = houserules_presets::dead::dead_rule_why(p.id, param, 8);
    format!("{}: {why}", rule.describe())
}

fn example(p: &PresetInfo) -> String {
    let mut ids = vec![p.id.to_string()];
    ids.extend(p.requires.iter().map(|r| r.to_string()));
    if let Some(param) = p.params.first() {
        let other = param
            .allowed
            .iter()
            .find(|v| **v != param.default)
            .unwrap_or(&param.default);
        ids[0] = format!("{}:{}={}", p.id, param.key, other);
    }
    format!("houserules perft --rules {} --depth 3", ids.join(","))
}

fn list(items: &[&str]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items
            .iter()
            .map(|i| format!("`{i}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn render() -> String {
    let mut out = String::from(INTRO);
    out.push_str("\n## Summary\n\n| id | name | category | what it does |\n|---|---|---|---|\n");
    for p in PRESETS {
        out.push_str(&format!(
            "| [`{}`](#{}) | {} | {} | {} |\n",
            p.id,
            p.id,
            p.name,
            p.category,
            p.description()
        ));
    }
    out.push_str("\n## Each preset\n");
    for p in PRESETS {
        let mode = serde_json::to_value(p.mode).expect("mode serialises");
        let params = if p.params.is_empty() {
            "none".to_string()
        } else {
            p.params
                .iter()
                .map(|k| {
                    format!(
                        "`{}` = {} (default `{}`)",
                        k.key,
                        k.allowed
                            .iter()
                            .map(|a| format!("`{a}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        k.default
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        out.push_str(&format!(
            "\n### {id}\n\n**{name}** ({cat}, {mode}). {desc}\n\n\
             - parameters: {params}\n\
             - requires: {req}\n\
             - incompatible with: {inc}\n\
             - games: {games}\n\
             - dead positions: {dead}\n\
             - example: `{ex}`\n",
            id = p.id,
            name = p.name,
            cat = p.category,
            mode = mode.as_str().unwrap_or(""),
            desc = p.description(),
            req = list(p.requires),
            inc = list(p.incompatible_with),
            games = games(p),
            dead = dead(p),
            ex = example(p),
        ));
        if !p.implemented {
            out.push_str(&format!(
                "- not playable yet: needs {}\n",
                p.needs.unwrap_or("engine support")
            ));
        }
    }
    out
}

#[test]
fn every_preset_has_a_description() {
    for p in PRESETS {
        assert!(!p.description().is_empty(), "{} has no description", p.id);
        assert!(p.description().ends_with('.'), "{}", p.id);
    }
    assert_eq!(houserules_presets::descriptions::description("no-such"), "");
}

#[test]
fn every_example_command_parses() {
    for p in PRESETS {
        let ex = example(p);
        let rules = ex
            .split_whitespace()
            .skip_while(|w| *w != "--rules")
            .nth(1)
            .expect("--rules");
        houserules_presets::build_from_str(rules, None)
            .unwrap_or_else(|e| panic!("{}: `{ex}`: {e}", p.id));
    }
}

#[test]
fn presets_md_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/presets.md");
    let text = render();
    if std::env::var_os("HOUSERULES_BLESS").is_some() {
        std::fs::write(path, &text).expect("write docs/presets.md");
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == text,
        "docs/presets.md is stale or missing; regenerate it with `HOUSERULES_BLESS=1 cargo test -p houserules-presets --test presets_doc`"
    );
}
