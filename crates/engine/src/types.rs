//! Colours, squares, piece kinds and moves: the small value types.

use core::fmt;

/// A side. White moves first; "forward" is toward the last rank for White
/// and toward the first rank for Black (RULINGS G1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    White = 0,
    /// The second player.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];
    /// The other side.
    #[inline(always)]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }
    /// `"white"` or `"black"`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
    /// The FEN letter: `w` or `b`.
    pub fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A square index `rank * width + file`, both zero-based (RULINGS G1).
///
/// A square does not know its board; [`square_name`](crate::fen::square_name) gives it a
/// name. On 8×8 `a1 = 0`, `h1 = 7`, `a8 = 56`, `h8 = 63`.
pub type Square = u8;

/// The index of a piece type inside its game definition (`0..pieces.len()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceKind(pub u8);

impl PieceKind {
    /// The index as `usize`.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece on the board: its kind and its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its type in the game definition.
    pub kind: PieceKind,
    /// Its owner.
    pub color: Color,
}

impl Piece {
    /// Mailbox encoding: `0` is empty, else `kind * 2 + color + 1`.
    #[inline(always)]
    pub(crate) fn code(self) -> u8 {
        self.kind.0 * 2 + self.color as u8 + 1
    }
    #[inline(always)]
    pub(crate) fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            None
        } else {
            let c = code - 1;
            Some(Piece {
                kind: PieceKind(c >> 1),
                color: if c & 1 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
            })
        }
    }
}

/// A move. Slim by design (pawn-rules-slice: "promotion field only when
/// promoting"): from, to and an optional promotion kind.
///
/// Castling is written king-takes-rook internally (`to` is the rook's
/// square, as in Chess960 UCI); [`crate::uci`] converts to `e1g1` for
/// standard chess. En passant is recognised structurally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the moving piece leaves.
    pub from: Square,
    /// The destination square (the rook's square for castling).
    pub to: Square,
    /// The piece kind a promotion produces, only when promoting.
    pub promotion: Option<PieceKind>,
    /// What kind of move this is.
    pub kind: MoveKind,
}

/// Special kinds of move that the board cannot tell from from/to alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move of one piece, capturing whatever stands on `to` (if enemy).
    Normal,
    /// A capture of the piece on the position's en passant victim square.
    EnPassant,
    /// A move that may give an en passant right (a first-move multi-step).
    DoubleStep,
    /// Castling: `to` is the rook's square.
    Castle,
    /// A piece put from the mover's hand (pocket) onto the empty square
    /// `to` (crazyhouse, shogi): `promotion` holds the dropped kind and
    /// `from` equals `to`. Only games with drop rules
    /// ([`GameDefinition::drops`](crate::GameDefinition::drops)) have them.
    Drop,
}

impl Move {
    /// A normal move without promotion.
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: None,
            kind: MoveKind::Normal,
        }
    }

    /// A drop of a piece of `kind` from the mover's hand onto `to`.
    pub fn drop(kind: PieceKind, to: Square) -> Move {
        Move {
            from: to,
            to,
            promotion: Some(kind),
            kind: MoveKind::Drop,
        }
    }

    /// Whether this is a drop ([`MoveKind::Drop`]).
    #[inline(always)]
    pub fn is_drop(self) -> bool {
        self.kind == MoveKind::Drop
    }

    /// The kind a drop puts on the board (`None` for other moves).
    #[inline(always)]
    pub fn dropped(self) -> Option<PieceKind> {
        if self.kind == MoveKind::Drop {
            self.promotion
        } else {
            None
        }
    }
}
