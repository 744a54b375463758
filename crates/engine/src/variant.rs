//! A compiled game definition, on the bitboard width its board needs.

use std::sync::{Arc, OnceLock};

use crate::hooks::RuleHooks;

use crate::definition::GameDefinition;
use crate::tables::{DefinitionError, Tables};

/// A game definition compiled for move generation: 8×8 and smaller on
/// `u64` bitboards, larger boards (up to 128 squares) on `u128`.
///
/// Cheap to clone (the tables are shared).
#[derive(Clone, Debug)]
pub struct Variant {
    pub(crate) def: Arc<GameDefinition>,
    pub(crate) tables: VariantTables,
    /// Chess960 castling (see [`Castling::chess960`](crate::definition::Castling::chess960)).
    pub(crate) chess960: bool,
}

#[derive(Clone, Debug)]
pub(crate) enum VariantTables {
    Small(Arc<Tables<u64>>),
    Large(Arc<Tables<u128>>),
}

impl Variant {
    /// Compiles `def`.
    ///
    /// # Errors
    /// [`DefinitionError`] when the board is too large or a shape is malformed.
    pub fn new(def: GameDefinition) -> Result<Variant, DefinitionError> {
        let n = def.width as usize * def.height as usize;
        let tables = if n <= 64 {
            VariantTables::Small(Arc::new(Tables::new(&def)?))
        } else {
            VariantTables::Large(Arc::new(Tables::new(&def)?))
        };
        Ok(Variant {
            chess960: def.castling.as_ref().is_some_and(|c| c.chess960),
            def: Arc::new(def),
            tables,
        })
    }

    /// `def` with rule-layer hooks (see [`crate::hooks`]); the hooks must
    /// serve both bitboard widths.
    ///
    /// # Errors
    /// As [`Variant::new`].
    pub fn with_hooks<H>(def: GameDefinition, hooks: H) -> Result<Variant, DefinitionError>
    where
        H: RuleHooks<u64> + RuleHooks<u128> + 'static,
    {
        let hooks = Arc::new(hooks);
        let n = def.width as usize * def.height as usize;
        let tables = if n <= 64 {
            let mut t = Tables::new(&def)?;
            t.set_hooks(hooks);
            VariantTables::Small(Arc::new(t))
        } else {
            let mut t = Tables::new(&def)?;
            t.set_hooks(hooks);
            VariantTables::Large(Arc::new(t))
        };
        Ok(Variant {
            chess960: def.castling.as_ref().is_some_and(|c| c.chess960),
            def: Arc::new(def),
            tables,
        })
    }

    /// `def` compiled with this variant's rule-layer hooks and Chess960
    /// mode: a variant whose pieces move differently but whose rules are
    /// otherwise the same (the modifier runtime's `set-board-topology`
    /// recompiles the game's shapes with [`crate::definition::Edge::WrapFiles`]).
    /// `def` should keep the piece kinds in the same order, since the hooks
    /// and any position being played read kinds by index.
    ///
    /// # Errors
    /// As [`Variant::new`].
    pub fn with_definition(&self, def: GameDefinition) -> Result<Variant, DefinitionError> {
        let n = def.width as usize * def.height as usize;
        let tables = if n <= 64 {
            let mut t = Tables::new(&def)?;
            if let VariantTables::Small(old) = &self.tables {
                if let Some(h) = &old.hooks {
                    t.set_hooks(h.clone());
                }
            }
            VariantTables::Small(Arc::new(t))
        } else {
            let mut t = Tables::new(&def)?;
            if let VariantTables::Large(old) = &self.tables {
                if let Some(h) = &old.hooks {
                    t.set_hooks(h.clone());
                }
            }
            VariantTables::Large(Arc::new(t))
        };
        Ok(Variant {
            chess960: self.chess960,
            def: Arc::new(def),
            tables,
        })
    }

    /// FIDE chess. Compiled once per process; clones share the tables.
    pub fn chess() -> Variant {
        static CHESS: OnceLock<Variant> = OnceLock::new();
        CHESS
            .get_or_init(|| {
                Variant::new(GameDefinition::fide()).expect("the FIDE definition compiles")
            })
            .clone()
    }

    /// Crazyhouse ([`GameDefinition::crazyhouse`]). Compiled once per
    /// process; clones share the tables.
    pub fn crazyhouse() -> Variant {
        static ZH: OnceLock<Variant> = OnceLock::new();
        ZH.get_or_init(|| {
            Variant::new(GameDefinition::crazyhouse()).expect("the crazyhouse definition compiles")
        })
        .clone()
    }

    /// FIDE chess with Chess960 castling (FIDE Laws, Guidelines II): the
    /// rules of [`Variant::chess`] from any of the 960 start positions, as
    /// a PGN `Variant "Chess960"` tag or a `chess960:N` layout asks.
    pub fn chess960() -> Variant {
        Variant::chess().with_chess960(true)
    }

    /// This variant with Chess960 castling on or off: whether castling
    /// rights name any rook of the first rank and UCI writes castling
    /// king-takes-rook (see
    /// [`Castling::chess960`](crate::definition::Castling::chess960); the
    /// default comes from the definition). Games without castling ignore
    /// it.
    pub fn with_chess960(mut self, on: bool) -> Variant {
        self.chess960 = on && self.def.castling.is_some();
        self
    }

    /// Whether castling is Chess960 castling (see [`Variant::with_chess960`]).
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Whether rule-layer hooks are installed.
    pub fn has_hooks(&self) -> bool {
        match &self.tables {
            VariantTables::Small(t) => t.hooks.is_some(),
            VariantTables::Large(t) => t.hooks.is_some(),
        }
    }

    /// The definition.
    pub fn definition(&self) -> &GameDefinition {
        &self.def
    }

    /// The u64 tables, when the board fits 64 squares.
    pub fn tables_u64(&self) -> Option<&Tables<u64>> {
        match &self.tables {
            VariantTables::Small(t) => Some(t),
            VariantTables::Large(_) => None,
        }
    }

    /// The u128 tables, when the board is larger than 64 squares.
    pub fn tables_u128(&self) -> Option<&Tables<u128>> {
        match &self.tables {
            VariantTables::Small(_) => None,
            VariantTables::Large(t) => Some(t),
        }
    }
}
