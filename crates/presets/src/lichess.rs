//! lichess's variants as shipped games: their ids, aliases, PGN `Variant`
//! tags and `UCI_Variant` names, and the rules each is built from (a YAML
//! game of the definitions crate, or FIDE chess under presets).
//!
//! Each is checked against python-chess 1.11.2's `chess.variant` boards
//! (`tests/lichess_differential.rs`) and against the variant perft files
//! of scalachess (`houserules-engine`'s `tests/variant_perft.rs`).

use houserules_engine::Variant;

use crate::{build_from_str, PresetError};

/// A lichess variant shipped as a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LichessGame {
    /// Our id (`--game`), also python-chess's and Fairy-Stockfish's
    /// `UCI_Variant` name.
    pub id: &'static str,
    /// Other names accepted for `--game`, `UCI_Variant` and PGN tags.
    pub aliases: &'static [&'static str],
    /// The PGN `Variant` tag as lichess writes it.
    pub pgn: &'static str,
    /// How the rules are built.
    source: Source,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// A shipped YAML game of the definitions crate.
    Yaml(&'static str),
    /// FIDE chess under these presets (`--rules` syntax).
    Presets(&'static str),
}

/// The shipped lichess games, in lichess's order.
pub const LICHESS_GAMES: &[LichessGame] = &[
    LichessGame {
        id: "crazyhouse",
        aliases: &["crazy house", "house", "zh"],
        pgn: "Crazyhouse",
        source: Source::Yaml("crazyhouse"),
    },
    LichessGame {
        id: "antichess",
        aliases: &["giveaway", "suicide", "anti"],
        pgn: "Antichess",
        source: Source::Presets("suicide-chess"),
    },
];

/// The lichess game `name` names: its id, an alias or its PGN tag, case
/// and `-`/`_`/space ignored (`King of the Hill`, `king-of-the-hill`,
/// `kingofthehill`).
pub fn find(name: &str) -> Option<&'static LichessGame> {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let k = key(name);
    if k.is_empty() {
        return None;
    }
    LICHESS_GAMES
        .iter()
        .find(|g| key(g.id) == k || key(g.pgn) == k || g.aliases.iter().any(|a| key(a) == k))
}

impl LichessGame {
    /// The game's rules and start FEN.
    ///
    /// # Errors
    /// [`PresetError`] when the rules do not build (a bug: each is tested).
    pub fn build(&self) -> Result<(Variant, String), PresetError> {
        match self.source {
            Source::Yaml(id) => {
                let def = houserules_definitions::builtin(id).ok_or_else(|| {
                    PresetError::Definition(format!("the shipped game {id} does not load"))
                })?;
                let fen = def.start_fen.clone();
                let v = Variant::new(def).map_err(|e| PresetError::Definition(e.to_string()))?;
                Ok((v, fen))
            }
            Source::Presets(rules) => build_from_str(rules, None),
        }
    }

    /// Whether the game is a YAML game of the definitions crate (listed by
    /// `houserules_definitions::builtin_ids`); the others are presets on
    /// FIDE chess.
    pub fn is_yaml(&self) -> bool {
        matches!(self.source, Source::Yaml(_))
    }
}
