//! What each preset needs of the game it is played on, and which piece
//! kinds of a game the presets mean by "pawn", "knight", …, "king".
//!
//! Presets are written in terms of the FIDE pieces (RULINGS P17: "the
//! pawn", "the king"). On another game ([`crate::build_on`]) each FIDE name
//! is the game's piece kind with that [`Role`] (`role:` in the game file),
//! with two fallbacks for games whose pieces carry no roles:
//! - the pawn is the first piece kind that promotes (Berolina's and the
//!   Clobberers' pawns promote but declare no role);
//! - the king is the kind that castles, else the first royal kind
//!   (Knightmate's royal `King` moves as a knight and has no role).
//!
//! A preset applies to a game when every one of its [`Need`]s is met
//! ([`missing`]); otherwise building refuses it with
//! [`PresetError::NotApplicable`](crate::PresetError::NotApplicable), naming
//! the preset, the game and the need. The board-geometry presets work on
//! every board size the engine supports (1–16 files and ranks, at most 128
//! squares), and `piece-hp`, `king-heals`, `poisoned-squares`, `double-move`
//! and `monster-rules` on every game with a king (docs/presets.md).

use houserules_engine::definition::Role;
use houserules_engine::{GameDefinition, PieceKind};

use crate::registry::{PresetInfo, PRESETS};

/// The FIDE roles in the presets' kind order (pawn 0 … king 5).
pub const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// The game's piece kind for each FIDE role (index as [`ROLES`]), `None`
/// where the game has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kinds(pub [Option<PieceKind>; 6]);

impl Default for Kinds {
    /// FIDE chess: kind `i` is role `i`.
    fn default() -> Kinds {
        Kinds([0, 1, 2, 3, 4, 5].map(|k| Some(PieceKind(k))))
    }
}

impl Kinds {
    /// The kinds of `def` (see the module documentation for the fallbacks).
    pub fn of(def: &GameDefinition) -> Kinds {
        let by_role = |r: Role| {
            def.pieces
                .iter()
                .position(|p| p.role == Some(r))
                .map(|i| PieceKind(i as u8))
        };
        let mut k = Kinds(ROLES.map(by_role));
        if k.0[0].is_none() {
            k.0[0] = def
                .promotion
                .as_ref()
                .and_then(|p| p.pieces.first())
                .map(|&i| PieceKind(i as u8));
        }
        if k.0[5].is_none() {
            k.0[5] = def
                .castling
                .as_ref()
                .map(|c| c.king)
                .or_else(|| def.pieces.iter().position(|p| p.royal))
                .map(|i| PieceKind(i as u8));
        }
        k
    }

    /// The kind with FIDE role index `role` (0 pawn … 5 king).
    pub fn get(&self, role: u8) -> Option<PieceKind> {
        self.0.get(role as usize).copied().flatten()
    }

    /// Whether `kind` is the kind of FIDE role `role`.
    pub fn is(&self, kind: PieceKind, role: u8) -> bool {
        self.get(role) == Some(kind)
    }
}

/// Something a preset needs of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// A piece kind with this role (`role:` in the game file).
    Role(Role),
    /// At least one of these roles.
    AnyRole(&'static [Role]),
    /// Pieces that move as pawns: a kind with the pawn role, or one that
    /// promotes.
    Pawns,
    /// Promotion, compulsory on the last rank only (where a move that
    /// reaches the last rank promotes and no other rank offers it).
    LastRankPromotion,
    /// A king: a kind with the king role, the kind that castles, or a
    /// royal kind.
    King,
    /// No rule hooks of the game's own (movement mutations or property
    /// conditions in the game file): one game takes one set of hooks.
    NoGameHooks,
}

impl Need {
    /// What is needed, for messages (`a piece kind with role Knight`).
    pub fn describe(&self) -> String {
        match self {
            Need::Role(r) => format!("a piece kind with role {r:?} (`role: {r:?}` in the game file)"),
            Need::AnyRole(rs) => format!(
                "a piece kind with one of the roles {} (`role:` in the game file)",
                rs.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>().join(", ")
            ),
            Need::Pawns => "pieces that move as pawns (a kind with role Pawn, or one that promotes)".into(),
            Need::LastRankPromotion => "promotion on the last rank only (no optional promotion ranks)".into(),
            Need::King => "a king (a kind with role King, the kind that castles, or a royal kind)".into(),
            Need::NoGameHooks => "a game without rule hooks of its own (its movement mutations or property conditions run as hooks, and a game takes one set of hooks)".into(),
        }
    }
}

const KNIGHT: Need = Need::Role(Role::Knight);
const BISHOP: Need = Need::Role(Role::Bishop);
const ROOK: Need = Need::Role(Role::Rook);
const QUEEN: Need = Need::Role(Role::Queen);

/// The needs of preset `id` (beside [`Need::NoGameHooks`], which every
/// preset has); `extinction-chess` also needs its `target` kind (see
/// [`missing`]).
pub fn needs(id: &str) -> &'static [Need] {
    match id {
        "knightmate-rules" => &[KNIGHT, Need::King],
        "coregal" | "trans-rights" => &[QUEEN, Need::King],
        "dual-king" | "weak-dual-king" | "god-kings" | "king-heals" => &[Need::King],
        "first-promotion-wins"
        | "pawns-move-backward"
        | "pawn-diagonal-no-capture"
        | "berolina-pawns"
        | "berolina-pawns-2" => &[Need::Pawns],
        "double-pawn-sprint" => &[Need::Pawns, Need::LastRankPromotion],
        "early-promotion" => &[Need::Pawns, QUEEN],
        "knights-leap-twice" => &[KNIGHT],
        "bishops-ignore-color" => &[BISHOP],
        "knight-immunity" => &[KNIGHT, BISHOP],
        "rook-warp" | "explosive-rook" => &[ROOK],
        "bouncing-pieces" | "bouncing-pieces-2" => &[Need::AnyRole(&[Role::Bishop, Role::Queen])],
        "queen-splits" => &[QUEEN, ROOK, BISHOP],
        _ => &[],
    }
}

/// Whether `def` meets `need` (`hooks`: the game has rule hooks of its
/// own).
pub fn met(need: Need, def: &GameDefinition, hooks: bool) -> bool {
    let kinds = Kinds::of(def);
    let has = |r: Role| def.pieces.iter().any(|p| p.role == Some(r));
    match need {
        Need::Role(r) => has(r),
        Need::AnyRole(rs) => rs.iter().any(|&r| has(r)),
        Need::Pawns => kinds.get(0).is_some(),
        Need::King => kinds.get(5).is_some(),
        Need::LastRankPromotion => def.promotion.as_ref().is_some_and(|p| {
            p.optional_ranks.is_empty() && p.ranks == [def.height.saturating_sub(1)]
        }),
        Need::NoGameHooks => !hooks,
    }
}

/// The first need of the active preset `id` (with its parameters `param`)
/// that `def` does not meet, if any.
pub fn missing(
    id: &str,
    param: impl Fn(&str) -> Option<String>,
    def: &GameDefinition,
    hooks: bool,
) -> Option<Need> {
    if hooks {
        return Some(Need::NoGameHooks);
    }
    if let Some(n) = needs(id).iter().copied().find(|&n| !met(n, def, hooks)) {
        return Some(n);
    }
    if id == "extinction-chess" {
        let target = param("target").unwrap_or_else(|| "pawn".into());
        let role = crate::registry::TARGETS
            .iter()
            .position(|t| *t == target)
            .and_then(|i| ROLES.get(i).copied());
        if let Some(r) = role {
            let need = if r == Role::Pawn {
                Need::Pawns
            } else if r == Role::King {
                Need::King
            } else {
                Need::Role(r)
            };
            if !met(need, def, hooks) {
                return Some(need);
            }
        }
    }
    None
}

/// The presets that apply to `def` with their default parameters, in
/// registry order (`hooks`: the game has rule hooks of its own).
pub fn applicable(def: &GameDefinition, hooks: bool) -> Vec<&'static PresetInfo> {
    PRESETS
        .iter()
        .filter(|p| {
            let param = |k: &str| {
                p.params
                    .iter()
                    .find(|x| x.key == k)
                    .map(|x| x.default.to_string())
            };
            missing(p.id, param, def, hooks).is_none()
        })
        .collect()
}
