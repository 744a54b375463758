//! Which positions the presets treat as dead by insufficient material.
//!
//! FIDE's draw by insufficient material (FIDE 9.6; K v K, K+minor v K,
//! K+B v K+B with the bishops on one colour) ends a game only because no
//! sequence of legal moves can reach a checkmate. A preset that adds
//! another way to win, or changes what the kings, knights or bishops of
//! those positions can do, can make such a position alive (under
//! `capture-to-win` the king of K+N v K captures the knight and wins).
//! [`dead_rule`] says, per preset, which rule stays; [`crate::rules`]
//! applies it (the strictest over the rule set: [`DeadRule::None`] wins over
//! the others) and docs/presets.md prints [`DeadRule::describe`] with the
//! reason, so the code and the documentation come from this one table.
//!
//! The other automatic endings (the 75-move rule, fivefold repetition) do
//! not depend on the goal and stay under every preset; so does the game's
//! stalemate rule unless the preset says otherwise (suicide-chess,
//! last-piece-standing, capture-to-win: RULINGS P9, P10, P15).

/// The dead-position rule a preset keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadRule {
    /// FIDE's insufficient-material draw stays (when the game has it): the
    /// preset leaves checkmate the only way to win from those positions
    /// and no mate position exists in them.
    Fide,
    /// No draw by insufficient material: some FIDE dead positions can
    /// still be won, and no simple exact test replaces FIDE's. Such games
    /// end by the 75-move rule or fivefold repetition.
    None,
    /// lichess Antichess's insufficient-material draw (RULINGS P15).
    Antichess,
    /// Only kings left: no capture can ever happen, since royal kings never
    /// stand next to each other and god kings cannot be captured.
    BareKings,
}

impl DeadRule {
    /// What the rule is, for docs/presets.md.
    pub fn describe(self) -> &'static str {
        match self {
            DeadRule::Fide => "FIDE's draw by insufficient material, when the game has it",
            DeadRule::None => "no draw by insufficient material",
            DeadRule::Antichess => "lichess Antichess's draw by insufficient material",
            DeadRule::BareKings => {
                "a draw when only kings are left, when the game has a draw by insufficient material"
            }
        }
    }

    /// The stricter of two rules, for a rule set: [`DeadRule::None`] over
    /// every other, then the preset's own rule over FIDE's.
    pub fn and(self, other: DeadRule) -> DeadRule {
        match (self, other) {
            (DeadRule::None, _) | (_, DeadRule::None) => DeadRule::None,
            (DeadRule::Fide, r) | (r, DeadRule::Fide) => r,
            (a, b) if a == b => a,
            // Two different own rules never meet (suicide-chess and
            // capture-to-win are incompatible); refuse to guess.
            _ => DeadRule::None,
        }
    }
}

/// The dead-position rule of preset `id` with parameters `param`, on a
/// board `width` files wide, and why (for docs/presets.md).
pub fn dead_rule(id: &str, param: impl Fn(&str) -> Option<String>, width: u8) -> DeadRule {
    dead_rule_why(id, param, width).0
}

/// [`dead_rule`] with the reason.
pub fn dead_rule_why(
    id: &str,
    param: impl Fn(&str) -> Option<String>,
    width: u8,
) -> (DeadRule, &'static str) {
    use DeadRule::*;
    match id {
        "suicide-chess" => (Antichess, "the goal is to lose every piece (RULINGS P15)"),
        "capture-all" | "last-piece-standing" => (None, "kings are ordinary pieces that can capture each other, so K v K is not dead"),
        "knightmate-rules" => (None, "the king is an ordinary piece and the knights are royal, so FIDE's analysis does not hold"),
        "weak-dual-king" => (None, "a king may stand attacked while another is safe, so two kings can mate a lone king"),
        "capture-to-win" => (BareKings, "the first capture wins: the king of K+N v K captures the knight"),
        "extinction-chess" if param("target").as_deref() == Some("bishop") => (None, "with target bishop, K+B v K+B is alive: a king or a bishop can capture the other bishop"),
        "extinction-chess" => (Fide, "FIDE's dead positions hold no pawn, rook or queen, and a side short of its target kind has already lost; with target bishop there is no such draw (a king or a bishop can capture the other bishop)"),
        "first-promotion-wins" => (Fide, "FIDE's dead positions hold no pawn, so no promotion can happen"),
        "god-kings" => (Fide, "kings are never in check, so no game is won by mate; FIDE's dead positions stay dead"),
        "knights-leap-twice" | "bishops-ignore-color" | "proletariat" | "short-stop" | "trans-rights" => (None, "the kings, knights or bishops of FIDE's dead positions move otherwise, so mates FIDE rules out may exist"),
        "piece-hp" | "king-heals" | "poisoned-squares" => (None, "a pushed bishop changes square colour, a healed king may stand attacked and poison can kill a king, so FIDE's dead positions may be alive"),
        "wrap-board" if width % 2 == 1 => (None, "on a board of odd width a bishop changes square colour across the side edge"),
        "wrap-board" => (Fide, "on a board of even width a bishop keeps its square colour across the side edge, and the side edge gives no mating square FIDE's edges do not; on an odd width there is no such draw (a bishop changes colour across the edge)"),
        _ => (Fide, "checkmate stays the only way to win from FIDE's dead positions, whose pieces move as in FIDE chess (one-colour bishops stay on one colour)"),
    }
}
