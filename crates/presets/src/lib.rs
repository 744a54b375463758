//! # houserules-presets
//!
//! The preset house rules of houserules: the registry of all 34 presets
//! with their metadata (RULINGS P17), parsing and validating a rule set in
//! the CLI form `ID[:KEY=VALUE[;KEY=VALUE...]][,ID...]`, the starting
//! layouts, and [`build`], which turns a rule set and a layout into an
//! engine [`Variant`](houserules_engine::Variant) (definition transforms
//! plus rule hooks) and its start FEN.
//!
//! ```
//! use houserules_presets::{build, RuleSet};
//! use houserules_engine::Game;
//! let rules = RuleSet::parse("suicide-chess").unwrap();
//! let (variant, fen) = build(&rules, None).unwrap();
//! let game = Game::from_fen(variant, &fen).unwrap();
//! assert_eq!(game.legal_moves().len(), 20);
//! ```

pub mod dead;
pub mod descriptions;
pub mod error;
pub mod layout;
pub mod lichess;
mod lichess_atomic;
pub mod needs;
pub mod registry;
pub mod rules;
pub mod ruleset;
pub mod state;

pub use error::PresetError;
pub use layout::Layout;
pub use registry::{PresetInfo, PRESETS};
pub use rules::{build, build_on, compose, compose_on, PresetHooks};
pub use ruleset::RuleSet;
pub use state::{StateDoc, StateError};

/// Parses `rules` (CLI form) and `layout` (a layout id, or `None` for the
/// preferred one) and builds the variant and start FEN.
///
/// # Errors
/// Every [`PresetError`].
pub fn build_from_str(
    rules: &str,
    layout: Option<&str>,
) -> Result<(houserules_engine::Variant, String), PresetError> {
    let rs = RuleSet::parse(rules)?;
    let l = layout.map(Layout::parse).transpose()?;
    build(&rs, l)
}
