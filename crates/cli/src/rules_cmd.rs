//! `houserules rules`: the preset house rules and starting layouts.

use std::io::Write;

use clap::Args;
use houserules_presets::registry::PresetInfo;
use houserules_presets::{Layout, PRESETS};
use serde::Serialize;

use crate::error::{CliError, Outcome};

const EXAMPLES: &str = "\
Examples:
  houserules rules
  houserules rules --json
  houserules rules --game capablanca
  houserules perft --rules berolina-pawns:scope=both,knight-immunity --depth 3
  houserules perft --rules dual-king --layout dual-classic --depth 3

Text output is one block per preset (id, name, category, mode, what it
does, then its parameters, requirements, incompatibilities, preferred
layout and, when it cannot be played yet, why), then the layouts. JSON
output is one object: {\"presets\": [...], \"layouts\": [...]}; each preset
has the keys id, name, category, mode, requires, incompatible_with,
scope_aware, params (key, allowed, default), preferred_layout, implemented,
needs and description. docs/presets.md describes every preset.

With --game, only the presets that apply to that game are listed, then
those that do not with what the game lacks (JSON: `game`, and
`not_applicable`: [{\"id\", \"needs\"}]); the layouts, and each
preset's preferred layout, are listed for FIDE chess only (another game
starts from its own setup).";

/// Options of `houserules rules`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct RulesArgs {
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,

    /// List the presets that apply to this game (a shipped id or a YAML
    /// file)
    #[arg(long, value_name = "ID|FILE.yaml")]
    game: Option<String>,
}

/// A preset that does not apply to the game, and why.
#[derive(Serialize)]
struct NotApplicable {
    id: &'static str,
    needs: String,
}

/// A starting layout, for the listing.
#[derive(Serialize)]
struct LayoutInfo {
    /// The id.
    id: &'static str,
    /// How to write it on the command line.
    usage: &'static str,
    /// What it is.
    description: &'static str,
    /// Its start FEN (`null` for Chess960, which needs an index).
    fen: Option<String>,
}

/// A preset in the listing: its registry entry and what it does.
#[derive(Serialize)]
struct PresetEntry {
    #[serde(flatten)]
    info: &'static PresetInfo,
    description: &'static str,
}

impl PresetEntry {
    fn of(info: &'static PresetInfo) -> PresetEntry {
        PresetEntry {
            info,
            description: info.description(),
        }
    }
}

/// The whole listing.
#[derive(Serialize)]
struct Listing {
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    presets: Vec<PresetEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    not_applicable: Option<Vec<NotApplicable>>,
    layouts: Vec<LayoutInfo>,
}

/// The listing, for one game with `--game`.
fn listing(game: Option<&str>) -> Result<Listing, CliError> {
    let Some(arg) = game else {
        return Ok(Listing {
            game: None,
            presets: PRESETS.iter().map(PresetEntry::of).collect(),
            not_applicable: None,
            layouts: layouts(),
        });
    };
    let v = crate::position::load_game(arg)?;
    let (def, hooks) = (v.definition(), v.has_hooks());
    let mut presets = Vec::new();
    let mut not = Vec::new();
    for p in PRESETS {
        let param = |k: &str| {
            p.params
                .iter()
                .find(|x| x.key == k)
                .map(|x| x.default.to_string())
        };
        match houserules_presets::needs::missing(p.id, param, def, hooks) {
            None => presets.push(PresetEntry::of(p)),
            Some(n) => not.push(NotApplicable {
                id: p.id,
                needs: n.describe(),
            }),
        }
    }
    let fide = houserules_presets::rules::is_fide(def);
    Ok(Listing {
        game: Some(def.id.clone()),
        presets,
        not_applicable: Some(not),
        layouts: if fide { layouts() } else { Vec::new() },
    })
}

fn layouts() -> Vec<LayoutInfo> {
    let fen = |l: Layout| Some(l.fen());
    vec![
        LayoutInfo {
            id: "standard",
            usage: "standard",
            description: "the FIDE start position",
            fen: fen(Layout::Standard),
        },
        LayoutInfo {
            id: "chess960",
            usage: "chess960:N (0-959, Scharnagl numbering; 518 is the standard array) or chess960:random:SEED",
            description: "a Chess960 start position, played with Chess960 castling (UCI king-takes-rook); FENs are printed in X-FEN (`--fen-style shredder`: file letters)",
            fen: None,
        },
        LayoutInfo {
            id: "dual-classic",
            usage: "dual-classic",
            description: "queens replaced by a second king, no castling",
            fen: fen(Layout::DualClassic),
        },
        LayoutInfo {
            id: "knightmate",
            usage: "knightmate",
            description: "queens replaced by a knight",
            fen: fen(Layout::Knightmate),
        },
        LayoutInfo {
            id: "monster",
            usage: "monster",
            description: "White king and four pawns against the full black army",
            fen: fen(Layout::Monster),
        },
        LayoutInfo {
            id: "pawns-only",
            usage: "pawns-only",
            description: "kings and pawns only",
            fen: fen(Layout::PawnsOnly),
        },
    ]
}

/// The serde name of a preset's mode (`additive`, `hook`, ...).
fn mode_name(p: &PresetInfo) -> String {
    serde_json::to_value(p.mode)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Runs `houserules rules`.
///
/// # Errors
/// [`CliError`] when the output cannot be written.
pub fn run(args: &RulesArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let listing = listing(args.game.as_deref())?;
    // With --game on FIDE chess the layouts are listed (`layouts` is empty
    // for every other game).
    let fide = !listing.layouts.is_empty();
    if args.json {
        let json = serde_json::to_string(&listing).expect("the registry serialises");
        writeln!(out, "{json}")?;
        return Ok(Outcome::Success);
    }
    match &listing.game {
        Some(g) => writeln!(
            out,
            "Presets that apply to game {g} ({} of {}):",
            listing.presets.len(),
            PRESETS.len()
        )?,
        None => writeln!(out, "Presets ({}):", PRESETS.len())?,
    }
    for p in listing.presets.iter().map(|e| e.info) {
        writeln!(
            out,
            "\n{}  {} ({}, {})",
            p.id,
            p.name,
            p.category,
            mode_name(p)
        )?;
        writeln!(out, "  {}", p.description())?;
        if !p.params.is_empty() {
            let params: Vec<String> = p
                .params
                .iter()
                .map(|k| format!("{}={} ({})", k.key, k.default, k.allowed.join("|")))
                .collect();
            writeln!(out, "  parameters: {}", params.join(", "))?;
        }
        if !p.requires.is_empty() {
            writeln!(out, "  requires: {}", p.requires.join(", "))?;
        }
        if !p.incompatible_with.is_empty() {
            writeln!(
                out,
                "  incompatible with: {}",
                p.incompatible_with.join(", ")
            )?;
        }
        // Layouts are FIDE start positions: another game starts from its
        // own setup, so its listing names none.
        if let (Some(l), false) = (p.preferred_layout, listing.game.is_some() && !fide) {
            writeln!(out, "  layout: {l}")?;
        }
        if !p.implemented {
            let why = p.needs.unwrap_or("engine support");
            writeln!(out, "  not implemented: needs {why}")?;
        }
    }
    if let (Some(g), Some(not)) = (&listing.game, &listing.not_applicable) {
        if !not.is_empty() {
            writeln!(out, "\nNot applicable to game {g}:")?;
            for n in not {
                writeln!(out, "  {}: needs {}", n.id, n.needs)?;
            }
        }
    }
    let l = listing.layouts;
    if l.is_empty() {
        return Ok(Outcome::Success);
    }
    writeln!(out, "\nLayouts (--layout):")?;
    let w = l.iter().map(|x| x.id.len()).max().unwrap_or(0);
    for x in &l {
        if x.usage == x.id {
            writeln!(out, "  {:<w$}  {}", x.id, x.description)?;
        } else {
            writeln!(out, "  {:<w$}  {}; write {}", x.id, x.description, x.usage)?;
        }
    }
    Ok(Outcome::Success)
}
