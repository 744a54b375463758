//! Game definitions: the data that describes a chess-like game.
//!
//! A [`GameDefinition`] holds the board size, the piece types with their
//! movement shapes (the vocabulary of the movement grammar: step, slide and
//! leap with symmetry expansion, capture-only and move-only shapes, named
//! direction masks, range), royalty, promotion, castling, en passant, the
//! start position and the end conditions. FIDE chess is one such value
//! ([`GameDefinition::fide`]); the YAML front end produces the same form.
//! [`crate::Variant::new`] compiles it into move-generation tables.

use crate::types::Color;

/// A direction vector `(dx, dy)` in squares, seen from White: `dy > 0` is
/// forward for White. Black's vectors are mirrored in `dy`.
pub type Vector = (i8, i8);

/// Named direction sets of the movement grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// The four rank and file directions.
    Orthogonal,
    /// The four diagonals.
    Diagonal,
    /// All eight.
    Omnidirectional,
    /// Straight ahead, relative to the owner.
    Forward,
    /// Straight back, relative to the owner.
    Backward,
    /// Left and right along the rank.
    Sideways,
    /// The two forward diagonals, relative to the owner.
    ForwardDiagonal,
    /// The two backward diagonals, relative to the owner.
    BackwardDiagonal,
}

impl Direction {
    /// The unit vectors of the set, seen from White.
    pub fn vectors(self) -> &'static [Vector] {
        match self {
            Direction::Orthogonal => &[(0, 1), (0, -1), (1, 0), (-1, 0)],
            Direction::Diagonal => &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
            Direction::Omnidirectional => &[
                (0, 1),
                (0, -1),
                (1, 0),
                (-1, 0),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ],
            Direction::Forward => &[(0, 1)],
            Direction::Backward => &[(0, -1)],
            Direction::Sideways => &[(1, 0), (-1, 0)],
            Direction::ForwardDiagonal => &[(1, 1), (-1, 1)],
            Direction::BackwardDiagonal => &[(1, -1), (-1, -1)],
        }
    }
}

/// How a single literal vector is expanded (movement grammar, "Symmetry").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// The vector as written.
    None,
    /// All rotations and reflections (the knight's `[2, 1]` gives 8 leaps).
    Full,
    /// Mirror left/right only: `(x, y)` and `(-x, y)`.
    LeftRight,
    /// Mirror forward/backward only: `(x, y)` and `(x, -y)`.
    ForwardBackward,
}

/// Expands `v` by `sym`, without duplicates, in a fixed order.
pub fn expand(v: Vector, sym: Symmetry) -> Vec<Vector> {
    let (x, y) = v;
    let all: Vec<Vector> = match sym {
        Symmetry::None => vec![(x, y)],
        Symmetry::LeftRight => vec![(x, y), (-x, y)],
        Symmetry::ForwardBackward => vec![(x, y), (x, -y)],
        Symmetry::Full => vec![
            (x, y),
            (y, x),
            (-x, y),
            (-y, x),
            (x, -y),
            (y, -x),
            (-x, -y),
            (-y, -x),
        ],
    };
    let mut out = Vec::new();
    for d in all {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// Whether a shape moves, captures, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeMode {
    /// Onto an empty square or an enemy piece.
    MoveOrCapture,
    /// Onto an empty square only (a pawn's push).
    MoveOnly,
    /// Onto an enemy piece only (a pawn's diagonal).
    CaptureOnly,
}

impl ShapeMode {
    /// Whether the shape can capture (and so attacks).
    pub fn captures(self) -> bool {
        !matches!(self, ShapeMode::MoveOnly)
    }
    /// Whether the shape can move to an empty square.
    pub fn moves(self) -> bool {
        !matches!(self, ShapeMode::CaptureOnly)
    }
}

/// How far a shape travels along each of its vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Jump straight to `vector` (grammar `Leap`), ignoring what is between.
    Leap,
    /// Travel `min..=max` steps of `vector` (`max = None`: unlimited), every
    /// square before the destination empty (grammar `Step` with a range is
    /// `min = max = range`, `Slide` is `min = 1`).
    Ride {
        /// The fewest steps.
        min: u8,
        /// The most steps, or `None` for unlimited.
        max: Option<u8>,
    },
}

/// What a shape does with en passant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnPassantRole {
    /// Nothing.
    None,
    /// Taking this shape leaves the squares passed over open to en passant.
    Creates,
    /// This capture shape may also capture en passant.
    Captures,
}

/// What a ride or leap does at the board edge: the board topology a shape
/// sees. Standard chess stops at the edge; the board-geometry presets
/// (presets-and-triggers.md, RULINGS P3, P4, P23) continue across it.
///
/// Leaps honour only [`Edge::WrapFiles`] (a leap has no path to warp or
/// bounce along). Rides that leave the straight line inside the board are
/// compiled into per-square square sequences ([`crate::tables`]), which
/// move generation and attack detection (RULINGS P1) walk alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Edge {
    /// The edge ends the shape (standard chess).
    #[default]
    Stop,
    /// The first and last files are adjacent (a vertical cylinder): a leap
    /// or a ride step that leaves the board sideways re-enters on the
    /// opposite file, same rank; ranks do not wrap. A ride stops before it
    /// would return to its origin (`wrap-board`, RULINGS P4).
    WrapFiles,
    /// A ride that has covered at least one square and reaches the edge
    /// unobstructed continues once from the opposite edge in the same
    /// direction (both coordinates wrap), and stops before reaching its
    /// origin. A piece standing on the edge does not warp in that direction
    /// (`rook-warp`, RULINGS P3).
    Warp,
    /// A ride reflects on the edge square itself: the component of the
    /// vector that would leave the board is negated. Side edges always
    /// reflect; the first and last ranks too when `ends`. A corner negates
    /// both components and counts as two reflections. At most `max`
    /// reflections per ray; a ray that would need more, or that would
    /// re-enter its origin, stops. A ray pointing off the board from its
    /// origin is empty (its reflection is a prefix of the other diagonal
    /// from the same square, so nothing is lost). (`bouncing-pieces`,
    /// `bouncing-pieces-2`, RULINGS P23.)
    Bounce {
        /// Whether the first and last ranks reflect too.
        ends: bool,
        /// The most reflections per ray.
        max: u8,
    },
}

/// One way a piece travels: a movement-grammar entry after symmetry
/// expansion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The vectors, seen from White.
    pub vectors: Vec<Vector>,
    /// Leap or ride.
    pub reach: Reach,
    /// Move, capture or both.
    pub mode: ShapeMode,
    /// Only from the piece's initial squares (`self.has_moved == false`;
    /// for a position read from FEN, a piece on its initial rank counts as
    /// unmoved, RULINGS G5).
    pub first_move_only: bool,
    /// The shape's role in en passant.
    pub en_passant: EnPassantRole,
    /// What the shape does at the board edge (board topology).
    pub edge: Edge,
    /// Only pieces of this colour have the shape (`None`: both). Used for a
    /// preset's single-colour `scope` (RULINGS P17, P27).
    pub only: Option<Color>,
    /// Only from these ranks (0-based, seen from the owner's side: 0 is
    /// its first rank), however the piece got there; empty: from every
    /// rank. The YAML `self.rank` in a movement condition (horde's pawns
    /// double-step from their first and second ranks, python-chess's
    /// `HordeBoard`). Single steps and leaps are compiled per square (no
    /// cost); a ride with ranks is generated like a first-move shape, so
    /// it must be move-only (it attacks nothing).
    pub from_ranks: Vec<u8>,
}

impl Shape {
    /// A leap along each vector.
    pub fn leap(vectors: Vec<Vector>, mode: ShapeMode) -> Shape {
        Shape {
            vectors,
            reach: Reach::Leap,
            mode,
            first_move_only: false,
            en_passant: EnPassantRole::None,
            edge: Edge::Stop,
            only: None,
            from_ranks: Vec::new(),
        }
    }
    /// The shape with edge behaviour `edge`.
    pub fn with_edge(mut self, edge: Edge) -> Shape {
        self.edge = edge;
        self
    }
    /// The shape restricted to pieces of `color`.
    pub fn only_for(mut self, color: Color) -> Shape {
        self.only = Some(color);
        self
    }
    /// A ride of `1..=max` steps (`None`: unlimited).
    pub fn slide(vectors: Vec<Vector>, max: Option<u8>, mode: ShapeMode) -> Shape {
        Shape {
            vectors,
            reach: Reach::Ride { min: 1, max },
            mode,
            first_move_only: false,
            en_passant: EnPassantRole::None,
            edge: Edge::Stop,
            only: None,
            from_ranks: Vec::new(),
        }
    }
}

/// Traditional roles, used only by rules that the FIDE Laws state in terms
/// of piece names (dead position by insufficient material, SAN letters for
/// FIDE chess). Other games leave this `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

/// A piece type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceType {
    /// Canonical id, such as `Knight`.
    pub id: String,
    /// The upper-case letter used for White in FEN and SAN (`N`); Black's is
    /// its lower case.
    pub symbol: char,
    /// Capturing the last royal piece is impossible: leaving it attacked is
    /// illegal, and attacking it with no legal reply is checkmate.
    pub royal: bool,
    /// Moves like a pawn for SAN (no letter) and the half-move clock.
    pub pawn_like: bool,
    /// Traditional role, if any.
    pub role: Option<Role>,
    /// Its movement shapes.
    pub shapes: Vec<Shape>,
    /// Ranks (0-based, seen from White; mirrored for Black) on which a piece
    /// of this type counts as unmoved when a position is read from FEN.
    pub initial_ranks: Vec<u8>,
}

/// Promotion rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Promotion {
    /// Indices of the piece types that promote.
    pub pieces: Vec<usize>,
    /// Ranks (0-based, seen from White; mirrored for Black) where promotion
    /// is compulsory.
    pub ranks: Vec<u8>,
    /// Indices of the piece types one may promote to, in SAN/UCI order.
    pub choices: Vec<usize>,
    /// Ranks (seen from White) where promotion is allowed but not
    /// compulsory: the plain move exists beside the promotions (Grand
    /// chess, ranks 8 and 9).
    pub optional_ranks: Vec<u8>,
    /// Per-type limits `(type index, n)`: a side may promote to that type
    /// only while it has fewer than `n` of them on the board (Grand chess:
    /// promotion only to a captured piece; Fairy-Stockfish's
    /// `promotionLimit`). A move to a compulsory rank with no choice left
    /// does not exist.
    pub limits: Vec<(usize, u8)>,
}

/// Castling rules (FIDE Laws 3.8.2; Chess960 placement allowed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Castling {
    /// Index of the piece type that castles (the king).
    pub king: usize,
    /// Index of the piece type it castles with (the rook).
    pub rook: usize,
    /// Destination files (0-based) of the king: `[queen side, king side]`.
    pub king_files: [u8; 2],
    /// Destination files of the rook: `[queen side, king side]`.
    pub rook_files: [u8; 2],
    /// Chess960 castling (FIDE Laws, Guidelines II): the king may castle
    /// from any file with any rook of its first rank, so a castling right
    /// names any such rook (X-FEN/Shredder-FEN letters) and UCI writes
    /// castling king-takes-rook (`e1h1`). Without it (standard castling),
    /// a right needs the king on its setup file (the middle of
    /// `king_files`) and the rook in a corner, as python-chess's
    /// `clean_castling_rights` and shakmaty's standard mode require, and
    /// UCI writes the king's destination (`e1g1`). A
    /// [`Variant`](crate::Variant) may override it
    /// ([`Variant::with_chess960`](crate::Variant::with_chess960)).
    pub chess960: bool,
}

/// Drop rules of one piece type (crazyhouse, shogi): where a piece of this
/// type may be put from the hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DropRule {
    /// Index of the piece type.
    pub piece: usize,
    /// Ranks (0-based, seen from White; mirrored for Black) on which the
    /// piece may be dropped; empty means every rank. Crazyhouse pawns:
    /// `1..=6` (not on the first or last rank).
    pub ranks: Vec<u8>,
    /// Not onto a file that already holds a piece of this type of the
    /// dropping side (shogi's nifu; Fairy-Stockfish's `dropNoDoubled`).
    pub no_doubled: bool,
    /// Whether a drop of this piece may give checkmate (shogi: a pawn drop
    /// may not; Fairy-Stockfish's `shogiPawnDropMateIllegal`).
    pub may_mate: bool,
}

/// Drops and pockets (pieces in hand): a captured piece goes to the
/// capturer's hand with the capturer's colour, and a move may put a piece
/// from the hand on an empty square instead of moving one
/// (crazyhouse; Fairy-Stockfish's `pieceDrops` and `capturesToHand`).
/// A piece that promoted returns to the hand as the type it promoted from
/// ([`Drops::demote_to`]); the position tracks which pieces promoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drops {
    /// The piece types that may be held and dropped, each with its rules.
    /// A captured piece of another type (a royal) does not go to the hand.
    pub pieces: Vec<DropRule>,
    /// The type a captured promoted piece becomes in the hand (the pawn in
    /// crazyhouse).
    pub demote_to: usize,
}

/// Automatic and claimable draws and the stalemate outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndRules {
    /// FIDE dead position by insufficient material (needs [`Role`]s).
    pub insufficient_material: bool,
    /// Half-moves without capture or pawn move after which a draw can be
    /// claimed (100 for the 50-move rule), if any.
    pub claim_halfmoves: Option<u32>,
    /// Half-moves after which the game is drawn automatically (150).
    pub auto_halfmoves: Option<u32>,
    /// Occurrences of a position that allow a claim (3).
    pub claim_repetitions: Option<u32>,
    /// Occurrences that end the game automatically (5).
    pub auto_repetitions: Option<u32>,
    /// Checks that win (three-check: 3): a side that has given this many
    /// checks wins at once. Positions count the checks each side still
    /// needs (FEN `3+3` after the en passant field, as python-chess and
    /// lichess write it; lichess's `+0+0` after the clocks is read too),
    /// and they are part of the position for repetition.
    pub check_limit: Option<u8>,
    /// What a side with no pieces left gets (horde: [`Outcome::Loss`],
    /// python-chess's `HordeBoard`; Fairy-Stockfish's `extinctionValue`
    /// with `extinctionPieceTypes = *`): the game is then over (no legal
    /// moves). The side to move is judged first; an empty board is a
    /// draw. `None`: no such rule.
    pub no_pieces: Option<Outcome>,
}

/// An outcome for the side a rule concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side wins.
    Win,
    /// The side loses.
    Loss,
    /// A draw.
    Draw,
}

impl EndRules {
    /// The FIDE Laws (articles 9.2, 9.3, 9.6, 5.2.2).
    pub fn fide() -> EndRules {
        EndRules {
            insufficient_material: true,
            claim_halfmoves: Some(100),
            auto_halfmoves: Some(150),
            claim_repetitions: Some(3),
            auto_repetitions: Some(5),
            check_limit: None,
            no_pieces: None,
        }
    }
}

/// A whole game: board, pieces, rules and start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameDefinition {
    /// Stable id (`chess`, `capablanca`, …).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Number of files (1..=16).
    pub width: u8,
    /// Number of ranks (1..=16); `width * height <= 128`.
    pub height: u8,
    /// Piece types; a [`crate::PieceKind`] indexes this list.
    pub pieces: Vec<PieceType>,
    /// Promotion, if any.
    pub promotion: Option<Promotion>,
    /// Castling, if any.
    pub castling: Option<Castling>,
    /// Draw rules.
    pub end: EndRules,
    /// The start position as FEN in this game's letters.
    pub start_fen: String,
    /// Drops and pockets, if any (crazyhouse).
    pub drops: Option<Drops>,
    /// Per colour (`[White, Black]`): whether that side may have no royal
    /// piece. A position without one is then accepted, and the side is
    /// never in check (every pseudo-legal move is legal for it): horde's
    /// White, which has 36 pawns and no king (python-chess's
    /// `HordeBoard.status` drops `STATUS_NO_WHITE_KING` only).
    pub royal_optional: [bool; 2],
}

impl GameDefinition {
    /// FIDE chess with crazyhouse drops (lichess's crazyhouse, as
    /// python-chess's `CrazyhouseBoard` and Fairy-Stockfish's `crazyhouse`
    /// play it): captured pieces go to the capturer's hand, a promoted
    /// piece returns as a pawn, any piece in hand may be dropped on an
    /// empty square (pawns not on the first or last rank), drops may give
    /// check and mate; no 50-move rule.
    pub fn crazyhouse() -> GameDefinition {
        let mut d = GameDefinition::fide();
        d.id = "crazyhouse".into();
        d.name = "Crazyhouse".into();
        d.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1".into();
        d.end.claim_halfmoves = None;
        d.end.auto_halfmoves = None;
        let rule = |piece: usize, ranks: Vec<u8>| DropRule {
            piece,
            ranks,
            no_doubled: false,
            may_mate: true,
        };
        d.drops = Some(Drops {
            pieces: vec![
                rule(0, (1..=6).collect()),
                rule(1, vec![]),
                rule(2, vec![]),
                rule(3, vec![]),
                rule(4, vec![]),
            ],
            demote_to: 0,
        });
        d
    }

    /// Index of the piece type whose symbol is `c` (either case).
    pub fn kind_of_symbol(&self, c: char) -> Option<usize> {
        let u = c.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.symbol == u)
    }

    /// FIDE chess (FIDE Laws of Chess, articles 3 and 5, 9).
    ///
    /// Piece order: pawn, knight, bishop, rook, queen, king.
    pub fn fide() -> GameDefinition {
        use ShapeMode::*;
        let pawn = PieceType {
            id: "Pawn".into(),
            symbol: 'P',
            royal: false,
            pawn_like: true,
            role: Some(Role::Pawn),
            shapes: vec![
                Shape::leap(vec![(0, 1)], MoveOnly),
                Shape {
                    vectors: vec![(0, 1)],
                    reach: Reach::Ride {
                        min: 2,
                        max: Some(2),
                    },
                    mode: MoveOnly,
                    first_move_only: true,
                    en_passant: EnPassantRole::Creates,
                    edge: Edge::Stop,
                    only: None,
                    from_ranks: Vec::new(),
                },
                Shape {
                    vectors: vec![(1, 1), (-1, 1)],
                    reach: Reach::Leap,
                    mode: CaptureOnly,
                    first_move_only: false,
                    en_passant: EnPassantRole::Captures,
                    edge: Edge::Stop,
                    only: None,
                    from_ranks: Vec::new(),
                },
            ],
            initial_ranks: vec![1],
        };
        let simple = |id: &str, symbol: char, role: Role, shapes: Vec<Shape>| PieceType {
            id: id.into(),
            symbol,
            royal: role == Role::King,
            pawn_like: false,
            role: Some(role),
            shapes,
            initial_ranks: vec![0],
        };
        let knight = simple(
            "Knight",
            'N',
            Role::Knight,
            vec![Shape::leap(expand((2, 1), Symmetry::Full), MoveOrCapture)],
        );
        let bishop = simple(
            "Bishop",
            'B',
            Role::Bishop,
            vec![Shape::slide(
                Direction::Diagonal.vectors().to_vec(),
                None,
                MoveOrCapture,
            )],
        );
        let rook = simple(
            "Rook",
            'R',
            Role::Rook,
            vec![Shape::slide(
                Direction::Orthogonal.vectors().to_vec(),
                None,
                MoveOrCapture,
            )],
        );
        let queen = simple(
            "Queen",
            'Q',
            Role::Queen,
            vec![Shape::slide(
                Direction::Omnidirectional.vectors().to_vec(),
                None,
                MoveOrCapture,
            )],
        );
        let king = simple(
            "King",
            'K',
            Role::King,
            vec![Shape::leap(
                Direction::Omnidirectional.vectors().to_vec(),
                MoveOrCapture,
            )],
        );
        GameDefinition {
            id: "chess".into(),
            name: "Chess".into(),
            width: 8,
            height: 8,
            pieces: vec![pawn, knight, bishop, rook, queen, king],
            promotion: Some(Promotion {
                pieces: vec![0],
                ranks: vec![7],
                choices: vec![4, 3, 2, 1],
                optional_ranks: vec![],
                limits: vec![],
            }),
            castling: Some(Castling {
                king: 5,
                rook: 3,
                king_files: [2, 6],
                rook_files: [3, 5],
                chess960: false,
            }),
            end: EndRules::fide(),
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            drops: None,
            royal_optional: [false; 2],
        }
    }
}

/// Mirrors a White-relative rank for `color` on a board of `height` ranks.
pub(crate) fn relative_rank(rank: u8, color: Color, height: u8) -> u8 {
    match color {
        Color::White => rank,
        Color::Black => height - 1 - rank,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_symmetry_gives_the_eight_leaps_of_the_grammar() {
        // movement-grammar.md, "Symmetry": [2,1] with Full gives 8 offsets.
        let mut v = expand((2, 1), Symmetry::Full);
        v.sort();
        let mut want = vec![
            (2, 1),
            (1, 2),
            (-2, 1),
            (-1, 2),
            (2, -1),
            (1, -2),
            (-2, -1),
            (-1, -2),
        ];
        want.sort();
        assert_eq!(v, want);
        assert_eq!(expand((1, 1), Symmetry::Full).len(), 4);
    }
}
