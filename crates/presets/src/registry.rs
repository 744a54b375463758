//! The preset registry: every preset's metadata (RULINGS P17).
//!
//! The registry order is the composition order: definition transforms and
//! hook effects of a rule set run in this order, whatever order the user
//! wrote the ids in (see [`crate::ruleset`]).

use serde::Serialize;

/// How a preset changes the base rules (spec "Mode").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Adds behaviour without removing any.
    Additive,
    /// Replaces base behaviour.
    Override,
    /// Both.
    Hybrid,
    /// Implemented through rule hooks (the v2 gallery and ThressGame rules).
    Hook,
}

/// A parameter a preset takes, with its allowed values and default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Param {
    /// The key (`scope`, `target`).
    pub key: &'static str,
    /// The allowed values.
    pub allowed: &'static [&'static str],
    /// The value used when the parameter is not given.
    pub default: &'static str,
}

/// The allowed values of a `scope` parameter.
pub const SCOPES: &[&str] = &["white", "black", "both"];
/// The allowed values of the extinction `target` parameter.
pub const TARGETS: &[&str] = &["pawn", "knight", "bishop", "rook", "queen", "king", "any"];

/// Metadata of one preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PresetInfo {
    /// The id (kebab-case, as in the spec).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Category.
    pub category: &'static str,
    /// Mode.
    pub mode: Mode,
    /// Presets that must also be active.
    pub requires: &'static [&'static str],
    /// Presets that may not be active with this one (the registry is
    /// symmetric: each pair is listed on both sides).
    pub incompatible_with: &'static [&'static str],
    /// Whether the preset takes a `scope` (`white`/`black`/`both`).
    pub scope_aware: bool,
    /// Parameters with defaults (`scope` included when scope-aware).
    pub params: &'static [Param],
    /// The starting layout the preset is meant for, if not `standard`.
    pub preferred_layout: Option<&'static str>,
    /// Whether the current engine can play it (see
    /// [`PresetInfo::needs`] otherwise).
    pub implemented: bool,
    /// What the engine lacks, for presets that are not implemented.
    pub needs: Option<&'static str>,
}

const fn scope(default: &'static str) -> Param {
    Param {
        key: "scope",
        allowed: SCOPES,
        default,
    }
}

const SCOPE_BOTH: &[Param] = &[scope("both")];
const SCOPE_WHITE: &[Param] = &[scope("white")];
const NO_PARAMS: &[Param] = &[];
const TARGET: &[Param] = &[Param {
    key: "target",
    allowed: TARGETS,
    default: "pawn",
}];

macro_rules! preset {
    ($id:literal, $name:literal, $cat:literal, $mode:ident, [$($req:literal),*], [$($inc:literal),*], $scope:literal, $params:expr, $layout:expr, $imp:literal, $needs:expr) => {
        PresetInfo {
            id: $id,
            name: $name,
            category: $cat,
            mode: Mode::$mode,
            requires: &[$($req),*],
            incompatible_with: &[$($inc),*],
            scope_aware: $scope,
            params: $params,
            preferred_layout: $layout,
            implemented: $imp,
            needs: $needs,
        }
    };
}

/// Every preset, in composition order.
pub const PRESETS: &[PresetInfo] = &[
    // --- layout-level royalty and objectives first ---
    preset!(
        "suicide-chess",
        "Suicide Chess",
        "Objectives",
        Hook,
        [],
        [
            "capture-all",
            "last-piece-standing",
            "capture-to-win",
            "extinction-chess",
            "first-promotion-wins",
            "knightmate-rules",
            "coregal",
            "dual-king",
            "weak-dual-king",
            "god-kings",
            "double-move",
            "monster-rules",
            "piece-hp",
            "explosive-rook"
        ],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "capture-all",
        "Capture All",
        "Objectives",
        Hook,
        [],
        [
            "suicide-chess",
            "last-piece-standing",
            "capture-to-win",
            "knightmate-rules",
            "coregal",
            "dual-king",
            "weak-dual-king",
            "god-kings"
        ],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "last-piece-standing",
        "Annihilation",
        "Win/Loss Condition",
        Override,
        [],
        [
            "capture-to-win",
            "suicide-chess",
            "capture-all",
            "knightmate-rules",
            "coregal",
            "dual-king",
            "weak-dual-king",
            "god-kings"
        ],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "knightmate-rules",
        "Knightmate",
        "King Variants",
        Hook,
        [],
        [
            "suicide-chess",
            "capture-all",
            "last-piece-standing",
            "coregal",
            "dual-king",
            "weak-dual-king",
            "god-kings"
        ],
        false,
        NO_PARAMS,
        Some("knightmate"),
        true,
        None
    ),
    preset!(
        "coregal",
        "Coregal",
        "King Variants",
        Hook,
        [],
        [
            "suicide-chess",
            "capture-all",
            "last-piece-standing",
            "knightmate-rules",
            "dual-king",
            "weak-dual-king",
            "god-kings",
            "trans-rights"
        ],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "dual-king",
        "Dual King",
        "King Variants",
        Hook,
        [],
        [
            "suicide-chess",
            "capture-all",
            "last-piece-standing",
            "knightmate-rules",
            "coregal",
            "weak-dual-king",
            "god-kings"
        ],
        false,
        NO_PARAMS,
        Some("dual-classic"),
        true,
        None
    ),
    preset!(
        "weak-dual-king",
        "Weak Dual King",
        "King Variants",
        Hook,
        [],
        [
            "suicide-chess",
            "capture-all",
            "last-piece-standing",
            "knightmate-rules",
            "coregal",
            "dual-king",
            "god-kings"
        ],
        false,
        NO_PARAMS,
        Some("dual-classic"),
        true,
        None
    ),
    preset!(
        "god-kings",
        "God Kings",
        "King Variants",
        Hook,
        [],
        [
            "suicide-chess",
            "capture-all",
            "last-piece-standing",
            "knightmate-rules",
            "coregal",
            "dual-king",
            "weak-dual-king",
            "trans-rights",
            "proletariat",
            "short-stop",
            "explosive-rook"
        ],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "capture-to-win",
        "First Blood",
        "Win/Loss Condition",
        Override,
        [],
        ["last-piece-standing", "suicide-chess", "capture-all"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "extinction-chess",
        "Extinction",
        "Objectives",
        Hook,
        [],
        ["suicide-chess"],
        false,
        TARGET,
        None,
        true,
        None
    ),
    preset!(
        "first-promotion-wins",
        "First to Promote Wins",
        "Objectives",
        Hook,
        [],
        ["suicide-chess"],
        false,
        NO_PARAMS,
        Some("pawns-only"),
        true,
        None
    ),
    // --- piece shapes ---
    preset!(
        "pawns-move-backward",
        "Backward-Marching Pawns",
        "Movement Modifier",
        Additive,
        [],
        ["double-pawn-sprint", "proletariat", "short-stop"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "double-pawn-sprint",
        "Perpetual Sprint",
        "Movement Modifier",
        Override,
        [],
        [
            "pawns-move-backward",
            "berolina-pawns",
            "berolina-pawns-2",
            "short-stop"
        ],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "pawn-diagonal-no-capture",
        "Slanting Pawns",
        "Movement Modifier",
        Additive,
        [],
        ["berolina-pawns", "berolina-pawns-2", "short-stop"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "berolina-pawns",
        "Berolina Pawns",
        "Movement Modifier",
        Hook,
        [],
        [
            "berolina-pawns-2",
            "pawn-diagonal-no-capture",
            "double-pawn-sprint",
            "short-stop"
        ],
        true,
        SCOPE_BOTH,
        None,
        true,
        None
    ),
    preset!(
        "berolina-pawns-2",
        "Berolina Pawns (Extended)",
        "Movement Modifier",
        Hook,
        [],
        [
            "berolina-pawns",
            "pawn-diagonal-no-capture",
            "double-pawn-sprint",
            "short-stop"
        ],
        true,
        SCOPE_BOTH,
        None,
        true,
        None
    ),
    preset!(
        "knights-leap-twice",
        "Double-Leap Knights",
        "Movement Modifier",
        Hybrid,
        [],
        ["short-stop", "proletariat"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "bishops-ignore-color",
        "Colour-Blind Bishops",
        "Movement Modifier",
        Additive,
        [],
        ["short-stop", "proletariat"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "proletariat",
        "Proletariat",
        "Movement Modifier",
        Hook,
        [],
        [
            "pawns-move-backward",
            "knights-leap-twice",
            "bishops-ignore-color",
            "god-kings",
            "short-stop",
            "trans-rights",
            "rook-warp",
            "wrap-board",
            "bouncing-pieces",
            "bouncing-pieces-2",
            "knight-immunity"
        ],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "short-stop",
        "Short Stop",
        "Movement Modifier",
        Hook,
        [],
        [
            "pawns-move-backward",
            "double-pawn-sprint",
            "pawn-diagonal-no-capture",
            "berolina-pawns",
            "berolina-pawns-2",
            "knights-leap-twice",
            "bishops-ignore-color",
            "proletariat",
            "god-kings",
            "trans-rights",
            "rook-warp",
            "wrap-board",
            "bouncing-pieces",
            "bouncing-pieces-2"
        ],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "trans-rights",
        "Trans Rights",
        "Movement Modifier",
        Hook,
        [],
        ["coregal", "god-kings", "proletariat", "short-stop"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "knight-immunity",
        "Bishop-Proof Knights",
        "Piece Ability",
        Override,
        [],
        ["proletariat"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "rook-warp",
        "Rook Warp",
        "Board Geometry",
        Hybrid,
        [],
        ["wrap-board", "proletariat", "short-stop"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "wrap-board",
        "Cylindrical Board",
        "Board Geometry",
        Override,
        [],
        [
            "rook-warp",
            "bouncing-pieces",
            "bouncing-pieces-2",
            "proletariat",
            "short-stop"
        ],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "bouncing-pieces",
        "Bouncing Pieces",
        "Board Geometry",
        Hook,
        [],
        [
            "wrap-board",
            "bouncing-pieces-2",
            "proletariat",
            "short-stop"
        ],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "bouncing-pieces-2",
        "Bouncing Pieces (Extended)",
        "Board Geometry",
        Hook,
        [],
        ["wrap-board", "bouncing-pieces", "proletariat", "short-stop"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    // --- effects after a move ---
    preset!(
        "queen-splits",
        "Queen Fission",
        "Piece Ability",
        Override,
        [],
        [],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "explosive-rook",
        "Detonating Rook",
        "Piece Ability",
        Override,
        [],
        ["piece-hp", "suicide-chess", "god-kings"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "early-promotion",
        "Early Promotion",
        "Piece Ability",
        Hook,
        [],
        [],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "piece-hp",
        "Hit Points",
        "Persistent State",
        Override,
        [],
        ["explosive-rook", "suicide-chess"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "king-heals",
        "Regenerating King",
        "Piece Ability",
        Hybrid,
        ["piece-hp"],
        [],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "poisoned-squares",
        "Poisoned Centre",
        "Persistent State",
        Additive,
        ["piece-hp"],
        [],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    // --- turn structure last ---
    preset!(
        "double-move",
        "Double Move",
        "Multi-move",
        Hook,
        [],
        ["monster-rules", "suicide-chess"],
        false,
        NO_PARAMS,
        None,
        true,
        None
    ),
    preset!(
        "monster-rules",
        "Monster",
        "Multi-move",
        Hook,
        [],
        ["double-move", "suicide-chess"],
        true,
        SCOPE_WHITE,
        Some("monster"),
        true,
        None
    ),
];

/// The preset with this id.
pub fn find(id: &str) -> Option<&'static PresetInfo> {
    PRESETS.iter().find(|p| p.id == id)
}

/// The reason two presets may not be combined (both orders give the same
/// text), or `None` when they compose.
pub fn incompatibility_reason(a: &str, b: &str) -> Option<&'static str> {
    let pa = find(a)?;
    let pb = find(b)?;
    if !pa.incompatible_with.contains(&b) && !pb.incompatible_with.contains(&a) {
        return None;
    }
    let pair = |x: &str, y: &str| (a == x && b == y) || (a == y && b == x);
    let royalty = [
        "suicide-chess",
        "capture-all",
        "last-piece-standing",
        "knightmate-rules",
        "coregal",
        "dual-king",
        "weak-dual-king",
        "god-kings",
    ];
    Some(if pair("pawns-move-backward", "double-pawn-sprint") {
        "a two-square move would be ambiguous with an unrestricted backward step (spec)"
    } else if pair("rook-warp", "wrap-board") {
        "wrap-board already makes every lateral move wrap, so a rook warp is ambiguous (spec)"
    } else if pair("capture-to-win", "last-piece-standing") {
        "they trigger on opposite conditions, first capture versus last piece (spec)"
    } else if pair("explosive-rook", "piece-hp") {
        "detonation removes pieces while hit points make captures non-lethal (spec)"
    } else if a.starts_with("bouncing") || b.starts_with("bouncing") {
        "they change the same rays' geometry in different ways (spec)"
    } else if royalty.contains(&a) && royalty.contains(&b) {
        "both decide which pieces are royal and how the game is won"
    } else if pair("double-move", "monster-rules") {
        "both set how many half-moves a turn has"
    } else if a == "suicide-chess" || b == "suicide-chess" {
        "suicide-chess is lichess Antichess exactly and takes no other objective, royalty or turn rule (RULINGS P15)"
    } else if a == "short-stop" || b == "short-stop" || a == "proletariat" || b == "proletariat" {
        "both replace the same pieces' movement, so the result would depend on order"
    } else if a == "trans-rights" || b == "trans-rights" {
        "both redefine the king's or the queen's movement or royalty"
    } else if a.starts_with("berolina") || b.starts_with("berolina") {
        "both redefine the pawn's movement"
    } else if a == "explosive-rook" || b == "explosive-rook" {
        "explosions remove kings, which the other rule makes immune or unneeded"
    } else {
        "the two rules contradict each other"
    })
}
