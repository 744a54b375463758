//! The shipped game definitions, embedded in the binary.

use houserules_engine::GameDefinition;

/// Every shipped definition: `(id, YAML text)`.
pub const BUILTIN_SOURCES: &[(&str, &str)] = &[
    ("chess", include_str!("../games/chess.yaml")),
    ("chess960", include_str!("../games/chess960.yaml")),
    ("capablanca", include_str!("../games/capablanca.yaml")),
    ("gardner", include_str!("../games/gardner.yaml")),
    ("los-alamos", include_str!("../games/los-alamos.yaml")),
    ("berolina", include_str!("../games/berolina.yaml")),
    ("grand", include_str!("../games/grand.yaml")),
    (
        "knightmate-classic",
        include_str!("../games/knightmate-classic.yaml"),
    ),
    ("clobberers", include_str!("../games/clobberers.yaml")),
    ("crazyhouse", include_str!("../games/crazyhouse.yaml")),
    ("3check", include_str!("../games/3check.yaml")),
    ("horde", include_str!("../games/horde.yaml")),
];

/// Shipped definitions that need engine features not built yet: their
/// YAML is complete, but loading them reports "not supported by the
/// engine yet".
const PENDING: &[&str] = &[];

/// Ids of the shipped definitions that the engine can play, in a fixed
/// order (`chess` first).
pub fn builtin_ids() -> Vec<&'static str> {
    BUILTIN_SOURCES
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| !PENDING.contains(id))
        .collect()
}

/// Ids of shipped definitions waiting for engine features (see
/// `docs/game-format.md`, "Not supported by the engine yet").
pub fn pending_builtin_ids() -> Vec<&'static str> {
    PENDING.to_vec()
}

/// The YAML text of a shipped definition.
pub fn builtin_source(id: &str) -> Option<&'static str> {
    BUILTIN_SOURCES
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, s)| *s)
}

/// The shipped definition `id`, compiled; `None` for an unknown id or one
/// that the engine cannot play yet ([`pending_builtin_ids`]).
pub fn builtin(id: &str) -> Option<GameDefinition> {
    let src = builtin_source(id)?;
    crate::load_str(&format!("{id}.yaml"), src).ok()
}
