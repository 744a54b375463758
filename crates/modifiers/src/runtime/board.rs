//! The position as the descriptor interpreter reads it, on any board the
//! engine holds: [`Board`] wraps the engine's `Position<u64>` (boards of at
//! most 64 squares) or `Position<u128>` (up to 128: Capablanca 10×8, Grand
//! 10×10, 12×10, 16×8) with their tables, and answers with [`Mask`]s, the
//! interpreter's square sets (`u128`, square `rank × width + file`,
//! RULINGS G1). The compiled 8×8 legality (`compiled/`) keeps its own `u64`
//! masks and reads `Position<u64>` directly.

use houserules_engine::hooks::ListRule;
use houserules_engine::{BitSet, Color, Move, Piece, Position, Tables};

/// A set of squares of the interpreter: bit `sq` for square `sq`, on any
/// board of up to 128 squares.
pub(crate) type Mask = u128;

/// The mask holding only `sq`.
#[inline(always)]
pub(crate) fn bit(sq: u8) -> Mask {
    1u128 << sq
}

/// A position and its tables, of either bitboard width (Copy: two
/// references).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Board<'a> {
    /// A board of at most 64 squares.
    Small(&'a Position<u64>, &'a Tables<u64>),
    /// A board of 65 to 128 squares.
    Large(&'a Position<u128>, &'a Tables<u128>),
}

/// Runs `$body` on the typed position `$p` and tables `$t` of a [`Board`]
/// (the body is compiled once per width).
macro_rules! on_board {
    ($b:expr, |$p:ident, $t:ident| $body:expr) => {
        match $b {
            Board::Small($p, $t) => $body,
            Board::Large($p, $t) => $body,
        }
    };
}

/// An owned position of either width: a hypothetical position after a
/// move (the self-check filter).
// Built once per candidate move of the self-check filter and dropped at
// once: boxing the large variant would add an allocation per move.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub(crate) enum Owned {
    Small(Position<u64>),
    Large(Position<u128>),
}

impl Owned {
    /// The position with the tables of `like` (the board it was played
    /// from).
    pub(crate) fn board<'b>(&'b self, like: Board<'b>) -> Board<'b> {
        match (self, like) {
            (Owned::Small(p), Board::Small(_, t)) => Board::Small(p, t),
            (Owned::Large(p), Board::Large(_, t)) => Board::Large(p, t),
            _ => unreachable!("a played position keeps its width"),
        }
    }
}

/// The royal squares of `color` as the rule hooks judge them.
fn royals_of<B: BitSet>(p: &Position<B>, t: &Tables<B>, color: Color) -> B {
    match t.hooks() {
        Some(h) => h.royal_squares(t, p, color),
        None => p.royals(t, color),
    }
}

impl<'a> Board<'a> {
    /// The piece on `sq`.
    #[inline]
    pub(crate) fn piece_at(self, sq: u8) -> Option<Piece> {
        on_board!(self, |p, _t| p.piece_at(sq))
    }

    /// The stable id of the piece on `sq` (0 when empty).
    #[inline]
    pub(crate) fn piece_id(self, sq: u8) -> u16 {
        on_board!(self, |p, _t| p.piece_id(sq))
    }

    /// The side to move.
    #[inline]
    pub(crate) fn turn(self) -> Color {
        on_board!(self, |p, _t| p.turn())
    }

    /// The occupied squares.
    #[inline]
    pub(crate) fn occupied(self) -> Mask {
        on_board!(self, |p, _t| p.occupied().to_u128())
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub(crate) fn by_color(self, color: Color) -> Mask {
        on_board!(self, |p, _t| p.by_color(color).to_u128())
    }

    /// The squares of the rooks that may still castle.
    pub(crate) fn castling_rooks(self) -> Mask {
        on_board!(self, |p, _t| p.castling_rooks().to_u128())
    }

    /// The royal squares of `color` as the rule hooks judge them.
    pub(crate) fn royals(self, color: Color) -> Mask {
        on_board!(self, |p, t| royals_of(p, t, color).to_u128())
    }

    /// The squares of `by`'s pieces attacking `sq` through `occ` (the
    /// engine's attacks, hooks not included).
    pub(crate) fn attackers_to(self, sq: u8, occ: Mask, by: Color) -> Mask {
        on_board!(self, |p, t| p
            .attackers_to(t, sq, BitSet::from_u128(occ), by)
            .to_u128())
    }

    /// Whether the rule set filters moves that leave a royal attacked
    /// (the rule hooks' `self_check_filter`; true without hooks).
    pub(crate) fn self_check_filter(self) -> bool {
        on_board!(self, |_p, t| t
            .hooks()
            .is_none_or(|h| h.self_check_filter()))
    }

    /// The pseudo-legal moves of the side to move, the presets' hooks
    /// included, appended to `out`.
    pub(crate) fn pseudo_legal_moves(self, out: &mut Vec<Move>) {
        on_board!(self, |p, t| p.pseudo_legal_moves_hooked(t, t.hooks(), out))
    }

    /// Whether the rule hooks have decided the game on this position (a
    /// variant result: the engine then lists no legal moves).
    pub(crate) fn hooks_game_over(self) -> bool {
        on_board!(self, |p, t| t
            .hooks()
            .is_some_and(|h| h.profile().game_over && h.game_over(t, p)))
    }

    /// Whether the rule hooks filter the legal-move list as a whole
    /// (compulsory capture, RULINGS P15; P20's en passant), which must
    /// then see the moves legal before the modifiers' restrictions.
    pub(crate) fn hooks_filter_list(self) -> bool {
        on_board!(self, |_p, t| t
            .hooks()
            .is_some_and(|h| h.profile().list_rule != ListRule::Keep))
    }

    /// Applies the rule hooks' list-wide filter
    /// ([`RuleHooks::filter_moves`](houserules_engine::hooks::RuleHooks::filter_moves))
    /// to `moves`, the legal moves of the side to move, as the engine's
    /// legality does.
    pub(crate) fn hooks_filter_moves(self, moves: &mut Vec<Move>) {
        on_board!(self, |p, t| if let Some(h) = t.hooks() {
            h.filter_moves(t, p, moves)
        })
    }

    /// The position after `m` (hooks included), for hypotheses.
    pub(crate) fn played(self, m: Move) -> Owned {
        match self {
            Board::Small(p, t) => {
                let mut after = *p;
                match t.hooks() {
                    Some(h) => after.play_with_hooks(t, h, m),
                    None => after.play_unchecked(t, m),
                }
                Owned::Small(after)
            }
            Board::Large(p, t) => {
                let mut after = *p;
                match t.hooks() {
                    Some(h) => after.play_with_hooks(t, h, m),
                    None => after.play_unchecked(t, m),
                }
                Owned::Large(after)
            }
        }
    }

    /// The `piece-hp` hit points of the piece on `sq` (the preset's
    /// stored attribute, or its kind's start value).
    pub(crate) fn hit_points(self, sq: u8) -> Option<u8> {
        on_board!(self, |p, _t| houserules_presets::rules::hit_points(p, sq))
    }
}

/// Edits the game's position in place whatever its width: `$body` runs on
/// `$p: &mut Position<B>` and `$t: &Tables<B>` (compiled once per width;
/// square sets given to the engine go through `BitSet::from_u128`).
macro_rules! edit_board {
    ($game:expr, |$p:ident, $t:ident| $body:expr) => {
        if $game.is_large() {
            $game
                .edit::<u128, _>(|$p, $t| $body)
                .expect("a large game holds a u128 position")
        } else {
            $game
                .edit::<u64, _>(|$p, $t| $body)
                .expect("a small game holds a u64 position")
        }
    };
}

pub(crate) use edit_board;
