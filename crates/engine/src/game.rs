//! [`Game`]: a position of a [`Variant`] with its history — the API that
//! consumers use (legal moves, apply, status, draws, notation).

use crate::bitboard::BitSet;
use crate::definition::{Outcome, Role};
use crate::fen::{self, FenError};
use crate::position::Position;
use crate::san::{self, SanError};
use crate::tables::Tables;
use crate::types::{Color, Move, MoveKind, Piece, Square};
use crate::uci::{self, UciError};
use crate::variant::{Variant, VariantTables};

/// Where a game stands (FIDE Laws 5 and 9; RULINGS G3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The side to move is checkmated; `winner` is the other side.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate by any series of legal moves (FIDE 5.2.2,
    /// 9.6: K v K, K+minor v K, K+B v K+B with bishops on one colour).
    InsufficientMaterial,
    /// 75 moves by each side without capture or pawn move (FIDE 9.6.2).
    SeventyFiveMoveRule,
    /// The same position five times (FIDE 9.6.1).
    FivefoldRepetition,
    /// Ended by a rule layer.
    Variant {
        /// The winner, or `None` for a draw.
        winner: Option<Color>,
        /// Why.
        reason: String,
    },
}

impl Status {
    /// The machine name used in JSON output: `checkmate`, `stalemate`,
    /// `insufficient-material`, `seventy-five-move-rule`,
    /// `fivefold-repetition`, `ongoing`, or a rule's reason.
    pub fn name(&self) -> &str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Checkmate { .. } => "checkmate",
            Status::Stalemate => "stalemate",
            Status::InsufficientMaterial => "insufficient-material",
            Status::SeventyFiveMoveRule => "seventy-five-move-rule",
            Status::FivefoldRepetition => "fivefold-repetition",
            Status::Variant { reason, .. } => reason,
        }
    }
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        *self != Status::Ongoing
    }
}

/// A draw a player may claim (FIDE 9.2, 9.3); the game goes on until
/// claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The current position has occurred at least three times.
    ThreefoldRepetition,
    /// 50 moves by each side without capture or pawn move.
    FiftyMoveRule,
}

impl Claim {
    /// The machine name used in JSON output: `threefold-repetition`,
    /// `fifty-move-rule`.
    pub fn name(self) -> &'static str {
        match self {
            Claim::ThreefoldRepetition => "threefold-repetition",
            Claim::FiftyMoveRule => "fifty-move-rule",
        }
    }
}

/// Errors of [`Game`] operations.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The FEN could not be read.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The SAN could not be read.
    #[error(transparent)]
    San(#[from] SanError),
    /// The UCI move could not be read.
    #[error(transparent)]
    Uci(#[from] UciError),
    /// The move is not legal in the position.
    #[error("illegal move {uci} in {fen}")]
    IllegalMove {
        /// The move in UCI.
        uci: String,
        /// The position.
        fen: String,
    },
    /// Undo with no move played.
    #[error("no move to undo")]
    NothingToUndo,
    /// [`Game::from_position`] got a position of the wrong bitboard width.
    #[error("the position's bitboard width does not match the variant's board size")]
    PositionWidth,
}

// Positions are plain data copied by value (copy-make); boxing the large
// variant would add an allocation per undo entry.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum AnyPos {
    Small(Position<u64>),
    Large(Position<u128>),
}

/// Runs `$body` with `$p` bound to the typed position and `$t` to its
/// tables.
macro_rules! with {
    ($self:expr, |$p:ident, $t:ident| $body:expr) => {
        match (&$self.pos, &$self.variant.tables) {
            (AnyPos::Small($p), VariantTables::Small($t)) => {
                let $t: &Tables<u64> = $t;
                $body
            }
            (AnyPos::Large($p), VariantTables::Large($t)) => {
                let $t: &Tables<u128> = $t;
                $body
            }
            _ => unreachable!("position and tables have the same width"),
        }
    };
}

macro_rules! with_mut {
    ($self:expr, |$p:ident, $t:ident| $body:expr) => {
        match (&mut $self.pos, &$self.variant.tables) {
            (AnyPos::Small($p), VariantTables::Small($t)) => {
                let $t: &Tables<u64> = $t;
                $body
            }
            (AnyPos::Large($p), VariantTables::Large($t)) => {
                let $t: &Tables<u128> = $t;
                $body
            }
            _ => unreachable!("position and tables have the same width"),
        }
    };
}

/// How many plies apart [`Game`] keeps a full position for undo: a ply
/// costs its move and its repetition key, plus a position
/// (`size_of::<AnyPos>()`, about a kilobyte) every `CHECKPOINT_EVERY`
/// plies; an undo replays at most `CHECKPOINT_EVERY - 1` moves (issue 21:
/// a full position per ply was 3.3 KB of a live game's memory a ply).
const CHECKPOINT_EVERY: usize = 16;

/// A full position kept for undo: the position before the undoable move
/// number `at` (0 = the start of the history), and the variant whose rules
/// play the moves from it (a [`Game::set_variant`] during the game starts
/// a checkpoint, so that an undo replays each move under the rules it was
/// played under).
#[derive(Clone, Debug)]
struct Checkpoint {
    at: usize,
    /// Boxed, so that the list's spare capacity costs a pointer, not a
    /// position.
    pos: Box<AnyPos>,
    variant: Variant,
}

/// A game in progress: the current position, the moves that led to it and
/// the positions seen since the last irreversible move (for repetitions).
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    pos: AnyPos,
    /// How many of the last `moves` can be undone (those since the start or
    /// the last [`Game::edit`]).
    undoable: usize,
    /// Positions for undo, by increasing `at`; the first is the start of
    /// the history (`at` 0). The position before any undoable move is its
    /// checkpoint's position with the moves since replayed
    /// ([`Game::undo`]).
    checkpoints: Vec<Checkpoint>,
    /// Repetition keys of every position since the start, the current last.
    keys: Vec<u64>,
    moves: Vec<Move>,
    chess960: bool,
    /// The start position as read, before standard castling dropped any
    /// right: [`Game::set_chess960`] judges the rights again from it.
    setup: AnyPos,
}

impl Game {
    /// FIDE chess from the start position.
    pub fn chess() -> Game {
        Game::new(Variant::chess())
    }

    /// `variant` from its start position.
    ///
    /// # Panics
    /// If the definition's own start FEN is invalid (definitions are
    /// validated when loaded).
    pub fn new(variant: Variant) -> Game {
        let fen = variant.definition().start_fen.clone();
        Game::from_fen(variant, &fen).expect("the definition's start position is valid")
    }

    /// `variant` from a FEN in its letters (`startpos` for its start).
    ///
    /// # Errors
    /// [`GameError::Fen`].
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Game, GameError> {
        let fen = if fen.trim() == "startpos" {
            variant.definition().start_fen.clone()
        } else {
            fen.to_string()
        };
        let pos = match &variant.tables {
            VariantTables::Small(t) => AnyPos::Small(fen::parse(&variant.def, t, &fen)?),
            VariantTables::Large(t) => AnyPos::Large(fen::parse(&variant.def, t, &fen)?),
        };
        Ok(Game::start(variant, pos))
    }

    /// A game whose history starts at `pos`: castling rights judged by the
    /// variant's castling mode, the en passant square normalised.
    fn start(variant: Variant, pos: AnyPos) -> Game {
        let chess960 = variant.is_chess960();
        let mut g = Game {
            variant,
            setup: pos.clone(),
            pos,
            undoable: 0,
            checkpoints: Vec::new(),
            keys: Vec::new(),
            moves: Vec::new(),
            chess960,
        };
        g.restart();
        g
    }

    /// Starts the history again from the position as read.
    fn restart(&mut self) {
        self.pos = self.setup.clone();
        let chess960 = self.chess960;
        with_mut!(self, |p, t| fen::clean_castling_rights(t, p, chess960));
        self.normalise_ep();
        self.moves.clear();
        self.keys.clear();
        self.keys.push(self.hash());
        self.reset_history();
    }

    /// Starts the undo history at the current position: nothing to undo,
    /// one checkpoint.
    fn reset_history(&mut self) {
        self.undoable = 0;
        self.checkpoints.clear();
        self.checkpoints.push(Checkpoint {
            at: 0,
            pos: Box::new(self.pos.clone()),
            variant: self.variant.clone(),
        });
    }

    /// `variant` from a position built by the caller (setup formats that
    /// carry more than FEN, such as the presets' JSON state format). The
    /// position's hash is recomputed; the history starts here.
    ///
    /// # Errors
    /// [`GameError::PositionWidth`] when the position's bitboard width is
    /// not the variant's (`u64` up to 64 squares, `u128` above).
    pub fn from_position<B: BitSet>(
        variant: Variant,
        mut pos: Position<B>,
    ) -> Result<Game, GameError> {
        pos.hash = pos.compute_hash();
        let any: Box<dyn std::any::Any> = Box::new(pos);
        let pos = match (&variant.tables, any.downcast::<Position<u64>>()) {
            (VariantTables::Small(_), Ok(p)) => AnyPos::Small(*p),
            (VariantTables::Large(_), Err(any)) => match any.downcast::<Position<u128>>() {
                Ok(p) => AnyPos::Large(*p),
                Err(_) => return Err(GameError::PositionWidth),
            },
            _ => return Err(GameError::PositionWidth),
        };
        Ok(Game::start(variant, pos))
    }

    /// The current position on bitboards of type `B`, or `None` when the
    /// variant uses the other width (`u64` up to 64 squares, `u128` above).
    pub fn position<B: BitSet>(&self) -> Option<&Position<B>> {
        let any: &dyn std::any::Any = match &self.pos {
            AnyPos::Small(p) => p,
            AnyPos::Large(p) => p,
        };
        any.downcast_ref::<Position<B>>()
    }

    /// Turns Chess960 castling on or off (see
    /// [`Variant::with_chess960`]; the game starts with its variant's
    /// mode): whether castling rights name any rook of the first rank and
    /// UCI writes castling king-takes-rook (`e1h1`) rather than the king's
    /// destination (`e1g1`). Before the first move the castling rights of
    /// the start position are judged again under the new mode (a PGN
    /// `Variant "Chess960"` tag read after the `FEN` tag); after it, only
    /// the notation changes.
    pub fn set_chess960(&mut self, on: bool) {
        let on = on && self.variant.def.castling.is_some();
        if on == self.chess960 {
            return;
        }
        self.chess960 = on;
        if self.moves.is_empty() && self.undoable == 0 {
            self.restart();
        }
    }

    /// Switches to Chess960 castling when the position as read has castling
    /// rights that standard castling would drop but Chess960 castling keeps
    /// (a king off its setup file, or a rook off its corner), and returns
    /// whether it did. This is how shakmaty's `CastlingMode::detect` reads
    /// a FEN whose game is not named: rights given in the input are data,
    /// and clearing them without a word loses them (issue 25 § 5). Only
    /// before the first move; a game already in Chess960 mode is left as is.
    pub fn detect_chess960(&mut self) -> bool {
        if self.chess960 || !self.moves.is_empty() || self.undoable != 0 {
            return false;
        }
        let standard = self.shredder_fen();
        self.set_chess960(true);
        if self.chess960 && self.shredder_fen() != standard {
            return true;
        }
        self.set_chess960(false);
        false
    }

    /// Whether castling is Chess960 castling (UCI king-takes-rook).
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Clears the en passant square when no legal en passant capture exists
    /// (G2), so that FEN and repetition keys agree with the FIDE notion of
    /// "the same position".
    fn normalise_ep(&mut self) {
        normalise_ep(&mut self.pos, &self.variant.tables);
    }

    /// Plays on under `variant` from the current position, keeping the
    /// history (positions are plain data; the rules live in the tables).
    /// `variant` must have the same board and piece kinds as the current
    /// one (a recompiled definition, [`Variant::with_definition`]). Before
    /// the first move, when the position is still the start position as
    /// read, the start is judged again under `variant` (castling rights and
    /// the en passant square that only the new rules may use).
    ///
    /// # Errors
    /// [`GameError::PositionWidth`] when the board sizes differ (the game
    /// is unchanged).
    pub fn set_variant(&mut self, variant: Variant) -> Result<(), GameError> {
        let d = &self.variant.def;
        if (d.width, d.height) != (variant.def.width, variant.def.height) {
            return Err(GameError::PositionWidth);
        }
        let pristine = self.moves.is_empty() && self.undoable == 0 && {
            let mut fresh = self.clone();
            fresh.restart();
            fresh.pos == self.pos
        };
        self.variant = variant;
        if pristine {
            self.restart();
        }
        // The moves played from here on get a checkpoint under `variant`
        // (`Game::play`); the ones before replay under their own rules.
        Ok(())
    }

    /// The variant being played.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// Legal moves of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        with!(self, |p, t| p.legal_moves_into(t, &mut v));
        v
    }

    /// Number of legal moves.
    pub fn count_legal_moves(&self) -> u64 {
        with!(self, |p, t| p.count_legal(t))
    }

    /// Perft: leaf nodes of the legal-move tree at `depth` (bulk counting
    /// of the last ply when `bulk`).
    pub fn perft(&self, depth: u32, bulk: bool) -> u64 {
        with!(self, |p, t| p.perft(t, depth, bulk))
    }

    /// Perft per legal move at the root: `(move, leaves below it)`, in
    /// generation order.
    pub fn divide(&self, depth: u32, bulk: bool) -> Vec<(Move, u64)> {
        let depth = depth.max(1);
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let n = with!(self, |p, t| {
                    let mut next = *p;
                    match &t.hooks {
                        Some(h) => next.play_with_hooks(t, h.as_ref(), m),
                        None => next.play_unchecked(t, m),
                    }
                    next.perft(t, depth - 1, bulk)
                });
                (m, n)
            })
            .collect()
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Plays `m`.
    ///
    /// # Errors
    /// [`GameError::IllegalMove`] when `m` is not legal; the game is
    /// unchanged.
    pub fn apply(&mut self, m: Move) -> Result<(), GameError> {
        let legal = self.legal_moves();
        // Accept a move that differs only in its kind tag (callers may build
        // moves from squares alone).
        let Some(&m) = legal.iter().find(|l| **l == m).or_else(|| {
            legal
                .iter()
                .find(|l| l.from == m.from && l.to == m.to && l.promotion == m.promotion)
        }) else {
            return Err(GameError::IllegalMove {
                uci: self.uci_unchecked(m),
                fen: self.fen(),
            });
        };
        self.play(m);
        Ok(())
    }

    /// Rule layers: the current position and the tables of a game on a
    /// board of at most 64 squares (`None` on larger boards).
    pub fn small(&self) -> Option<(&Position<u64>, &Tables<u64>)> {
        match (&self.pos, &self.variant.tables) {
            (AnyPos::Small(p), VariantTables::Small(t)) => Some((p, t)),
            _ => None,
        }
    }

    /// Rule layers: the current position and the tables of a game on a
    /// board of more than 64 squares (`None` on smaller boards).
    pub fn large(&self) -> Option<(&Position<u128>, &Tables<u128>)> {
        match (&self.pos, &self.variant.tables) {
            (AnyPos::Large(p), VariantTables::Large(t)) => Some((p, t)),
            _ => None,
        }
    }

    /// Whether the game's bitboards are `u128` (a board of more than 64
    /// squares) rather than `u64`.
    pub fn is_large(&self) -> bool {
        matches!(self.pos, AnyPos::Large(_))
    }

    /// Rule layers: edits the current position in place when its bitboards
    /// are `B` (`u64` up to 64 squares, `u128` above); `None`, with nothing
    /// changed, for the other width. The edit is a board rewrite
    /// (modifier-rulings C6): it cannot be undone and starts a new
    /// repetition history.
    pub fn edit<B: BitSet, R>(
        &mut self,
        f: impl FnOnce(&mut Position<B>, &Tables<B>) -> R,
    ) -> Option<R> {
        use std::any::Any;
        let (p, t): (&mut dyn Any, &dyn Any) = match (&mut self.pos, &self.variant.tables) {
            (AnyPos::Small(p), VariantTables::Small(t)) => (p, t.as_ref()),
            (AnyPos::Large(p), VariantTables::Large(t)) => (p, t.as_ref()),
            _ => unreachable!("position and tables have the same width"),
        };
        let r = f(
            p.downcast_mut::<Position<B>>()?,
            t.downcast_ref::<Tables<B>>()?,
        );
        self.keys.clear();
        self.keys.push(self.hash());
        self.setup = self.pos.clone();
        self.reset_history();
        Some(r)
    }

    /// Rule layers: [`Game::edit`] on a board of at most 64 squares.
    pub fn edit_small<R>(
        &mut self,
        f: impl FnOnce(&mut Position<u64>, &Tables<u64>) -> R,
    ) -> Option<R> {
        self.edit::<u64, R>(f)
    }

    /// Rule layers: plays `m`, which the caller has judged legal, without
    /// checking it against the engine's own legal moves (any board width).
    /// Returns `true` (kept for the callers written when only boards of at
    /// most 64 squares took it).
    pub fn apply_unchecked(&mut self, m: Move) -> bool {
        self.play(m);
        true
    }

    /// Plays `m` and records it: the move, the new key, and a checkpoint
    /// of the position before it every [`CHECKPOINT_EVERY`] undoable plies
    /// and wherever the rules differ from the last checkpoint's (after a
    /// [`Game::set_variant`]), so that undo replays each move under the
    /// tables it was played under.
    fn play(&mut self, m: Move) {
        let at = self.undoable;
        match self.checkpoints.last_mut() {
            Some(c) if c.at == at => {
                // The position before this move is already kept; it is
                // played under the rules in force now.
                if !same_tables(&c.variant.tables, &self.variant.tables) {
                    c.variant = self.variant.clone();
                }
            }
            Some(c)
                if !at.is_multiple_of(CHECKPOINT_EVERY)
                    && same_tables(&c.variant.tables, &self.variant.tables) => {}
            _ => self.checkpoints.push(Checkpoint {
                at,
                pos: Box::new(self.pos.clone()),
                variant: self.variant.clone(),
            }),
        }
        play(&mut self.pos, &self.variant.tables, m);
        self.undoable += 1;
        self.moves.push(m);
        self.keys.push(self.hash());
    }

    /// Plays a move given in SAN.
    ///
    /// # Errors
    /// [`GameError::San`].
    pub fn apply_san(&mut self, san: &str) -> Result<Move, GameError> {
        let m = self.parse_san(san)?;
        self.apply(m)?;
        Ok(m)
    }

    /// Plays a move given in UCI.
    ///
    /// # Errors
    /// [`GameError::Uci`].
    pub fn apply_uci(&mut self, uci: &str) -> Result<Move, GameError> {
        let m = self.parse_uci(uci)?;
        self.apply(m)?;
        Ok(m)
    }

    /// Takes back the last move.
    ///
    /// # Errors
    /// [`GameError::NothingToUndo`].
    ///
    /// The position before the move is rebuilt from the last checkpoint
    /// at or before it by replaying the moves since, each under the rules
    /// it was played under: play is a pure function of the position, the
    /// tables and the move (rule hooks hold no state), so the rebuilt
    /// position is the one the move was played from, hash included.
    pub fn undo(&mut self) -> Result<Move, GameError> {
        if self.undoable == 0 {
            return Err(GameError::NothingToUndo);
        }
        let at = self.undoable - 1;
        while self.checkpoints.last().is_some_and(|c| c.at > at) {
            self.checkpoints.pop();
        }
        let c = self
            .checkpoints
            .last()
            .expect("the history starts with a checkpoint at 0");
        let first = self.moves.len() - self.undoable;
        let mut pos = (*c.pos).clone();
        for &m in &self.moves[first + c.at..first + at] {
            play(&mut pos, &c.variant.tables, m);
        }
        // The variant stays the one in force (as when undo restored a
        // stored position): only the replay uses the old rules.
        self.pos = pos;
        self.undoable = at;
        self.keys.pop();
        Ok(self.moves.pop().expect("one move per undoable ply"))
    }

    /// The repetition keys (Zobrist hashes, [`Game::hash`]) of the
    /// positions since the start of the history (the start, or the last
    /// board rewrite by [`Game::edit`]), the current one last: what
    /// [`Game::undo`] repeated would show, without rebuilding positions.
    pub fn history_keys(&self) -> &[u64] {
        &self.keys
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Reads a SAN move in the current position.
    ///
    /// # Errors
    /// [`SanError`] (syntax, illegal, ambiguous).
    pub fn parse_san(&self, s: &str) -> Result<Move, SanError> {
        let legal = self.legal_moves();
        with!(self, |p, t| san::parse(&self.variant.def, t, p, &legal, s))
    }

    /// Writes a legal move in SAN with `+`/`#`.
    pub fn san(&self, m: Move) -> String {
        let legal = self.legal_moves();
        with!(self, |p, t| san::write(&self.variant.def, t, p, &legal, m))
    }

    /// Reads a UCI move in the current position.
    ///
    /// # Errors
    /// [`UciError`].
    pub fn parse_uci(&self, s: &str) -> Result<Move, UciError> {
        let legal = self.legal_moves();
        with!(self, |p, t| uci::parse(&self.variant.def, t, p, &legal, s))
    }

    /// Writes a move in UCI (castling per [`Game::is_chess960`]).
    pub fn uci(&self, m: Move) -> String {
        self.uci_among(m, &self.legal_moves())
    }

    /// [`Game::uci`] with the legal moves already listed: `legal` must be
    /// [`Game::legal_moves`] of this position (a caller writing many moves
    /// lists them once).
    pub fn uci_among(&self, m: Move, legal: &[Move]) -> String {
        with!(self, |_p, t| uci::write(
            &self.variant.def,
            t,
            legal,
            m,
            self.chess960
        ))
    }

    fn uci_unchecked(&self, m: Move) -> String {
        with!(self, |_p, t| uci::write(&self.variant.def, t, &[], m, true))
    }

    /// The FEN (X-FEN castling).
    pub fn fen(&self) -> String {
        self.fen_with(false)
    }

    /// The FEN with Shredder-FEN castling letters.
    pub fn shredder_fen(&self) -> String {
        self.fen_with(true)
    }

    fn fen_with(&self, shredder: bool) -> String {
        with!(self, |p, t| {
            let ep = if p.ep.is_empty() {
                None
            } else {
                Some(p.ep.lsb())
            };
            fen::write(&self.variant.def, t, p, ep, shredder)
        })
    }

    /// Side to move.
    pub fn turn(&self) -> Color {
        with!(self, |p, _t| p.turn)
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        with!(self, |p, _t| p.piece_at(sq))
    }

    /// The stable id of the piece on `sq` (0 when empty). A piece keeps its
    /// id when it moves or promotes.
    pub fn piece_id(&self, sq: Square) -> u16 {
        with!(self, |p, _t| p.piece_id(sq))
    }

    /// Zobrist hash of the position.
    pub fn hash(&self) -> u64 {
        with!(self, |p, _t| p.hash)
    }

    /// Half-move clock.
    pub fn halfmove_clock(&self) -> u32 {
        with!(self, |p, _t| p.halfmove)
    }

    /// Full-move number.
    pub fn fullmove_number(&self) -> u32 {
        with!(self, |p, _t| p.fullmove)
    }

    /// Whether the side to move is in check: a royal piece of it is
    /// attacked, as the rule hooks judge it
    /// ([`RuleHooks::in_check`](crate::hooks::RuleHooks::in_check); under
    /// `piece-hp` only a royal on its last hit point, RULINGS P6).
    pub fn is_check(&self) -> bool {
        with!(self, |p, t| p.in_check_hooked(t))
    }

    /// Checks that no promoting piece stands where play cannot put it (a
    /// FIDE pawn on its first or last rank), for positions a user gives;
    /// see [`fen::check_piece_ranks`](crate::fen::check_piece_ranks).
    ///
    /// # Errors
    /// [`FenError::PieceRank`](crate::fen::FenError::PieceRank).
    pub fn check_piece_ranks(&self) -> Result<(), crate::fen::FenError> {
        with!(self, |p, t| crate::fen::check_piece_ranks(
            &self.variant.def,
            t,
            p
        ))
    }

    /// Checks that no side has more royal pieces than the rules allow (two
    /// kings a side in FIDE chess), for positions a user gives; see
    /// [`fen::check_royal_count`](crate::fen::check_royal_count).
    ///
    /// # Errors
    /// [`FenError::RoyalCount`](crate::fen::FenError::RoyalCount).
    pub fn check_royal_count(&self) -> Result<(), crate::fen::FenError> {
        with!(self, |p, t| crate::fen::check_royal_count(
            &self.variant.def,
            t,
            p
        ))
    }

    /// Squares of `by`'s pieces that attack `sq`, with the attacks the
    /// rule hooks add ([`RuleHooks::attackers`](crate::hooks::RuleHooks::attackers)).
    pub fn attackers(&self, sq: Square, by: Color) -> Vec<Square> {
        with!(self, |p, t| match &t.hooks {
            Some(h) => h.attackers(t, p, sq, p.occupied(), by).iter().collect(),
            None => p.attackers_to(t, sq, p.occupied(), by).iter().collect(),
        })
    }

    /// How many times the current position has occurred (this one
    /// included).
    pub fn repetitions(&self) -> usize {
        let cur = self.hash();
        // In drop games a capture or a pawn move can be undone (the piece
        // comes back from the hand), so every earlier position counts, as
        // python-chess's `CrazyhouseBoard.is_irreversible` has it; the
        // hash holds the pockets and the promoted marks.
        let window = if self.has_drops() {
            usize::MAX
        } else {
            self.halfmove_clock() as usize + 1
        };
        self.keys
            .iter()
            .rev()
            .take(window)
            .filter(|&&k| k == cur)
            .count()
    }

    /// Whether the game has drops and pockets (crazyhouse).
    pub fn has_drops(&self) -> bool {
        self.variant.def.drops.is_some()
    }

    /// How many pieces of `kind` `color` holds in hand (0 in games
    /// without drops).
    pub fn pocket_count(&self, color: Color, kind: crate::PieceKind) -> u8 {
        with!(self, |p, _t| p.pocket_count(color, kind))
    }

    /// Whether the piece on `sq` reached its type by promotion (tracked in
    /// games with drops only).
    pub fn is_promoted(&self, sq: Square) -> bool {
        with!(self, |p, _t| p.promoted().has(sq))
    }

    /// The game's status. Checkmate is judged first, so a mate on the
    /// 75th move stands (FIDE 9.6.2).
    pub fn status(&self) -> Status {
        self.status_among(&self.legal_moves())
    }

    /// [`Game::status`] with the legal moves already listed: `legal` must
    /// be [`Game::legal_moves`] of this position.
    pub fn status_among(&self, legal: &[Move]) -> Status {
        if let Some(r) = with!(self, |p, t| t
            .hooks
            .as_ref()
            .and_then(|h| h.game_result(t, p, legal)))
        {
            return Status::Variant {
                winner: r.winner,
                reason: r.reason,
            };
        }
        if let Some(limit) = self.variant.def.end.check_limit {
            // python-chess's order: the side to move lost, won, or both
            // reached the limit (a draw).
            let given = |c: Color| with!(self, |p, _t| p.checks_given(c));
            let us = self.turn();
            let (mine, theirs) = (given(us) >= limit, given(us.flip()) >= limit);
            if mine || theirs {
                return Status::Variant {
                    winner: match (mine, theirs) {
                        (true, false) => Some(us),
                        (false, true) => Some(us.flip()),
                        _ => None,
                    },
                    reason: "check-limit".into(),
                };
            }
        }
        if let Some(outcome) = self.variant.def.end.no_pieces {
            // python-chess's `HordeBoard` order: the side to move without
            // pieces, then the opponent without pieces; both: a draw.
            let has = |c: Color| with!(self, |p, _t| p.by_color(c).any());
            let us = self.turn();
            let (mine, theirs) = (has(us), has(us.flip()));
            if !mine || !theirs {
                let bare = if mine { us.flip() } else { us };
                let winner = match (mine || theirs, outcome) {
                    (false, _) | (true, Outcome::Draw) => None,
                    (true, Outcome::Loss) => Some(bare.flip()),
                    (true, Outcome::Win) => Some(bare),
                };
                return Status::Variant {
                    winner,
                    reason: "no-pieces-left".into(),
                };
            }
        }
        let end = &self.variant.def.end;
        if legal.is_empty() && self.is_check() {
            return Status::Checkmate {
                winner: self.turn().flip(),
            };
        }
        if end.insufficient_material && self.is_insufficient_material() {
            return Status::InsufficientMaterial;
        }
        if legal.is_empty() {
            return Status::Stalemate;
        }
        if end
            .auto_halfmoves
            .is_some_and(|n| self.halfmove_clock() >= n)
        {
            return Status::SeventyFiveMoveRule;
        }
        if end
            .auto_repetitions
            .is_some_and(|n| self.repetitions() >= n as usize)
        {
            return Status::FivefoldRepetition;
        }
        Status::Ongoing
    }

    /// A draw the side to move may claim now, if any (threefold repetition
    /// first). These do not end the game by themselves (G3).
    pub fn claimable_draw(&self) -> Option<Claim> {
        self.claimable_draws().first().copied()
    }

    /// Every draw the side to move may claim in the current position
    /// (threefold repetition first), without announcing a move:
    ///
    /// - [`Claim::ThreefoldRepetition`]: the position has just appeared for
    ///   the third time (FIDE 9.2.2; "the same position" as in 9.2.3, with
    ///   the en passant square only when a capture is legal, RULINGS G2),
    ///   counted over the moves played in this game since its start.
    /// - [`Claim::FiftyMoveRule`]: the last 50 moves of each player were
    ///   made without a pawn move or a capture (FIDE 9.3.2; the variant's
    ///   `claim_halfmoves`, 100 half-moves in FIDE chess), and the game is
    ///   not over by checkmate or stalemate (a mate on that move stands).
    ///
    /// Empty when the variant has no such rule. A claim does not end the
    /// game (RULINGS G3).
    pub fn claimable_draws(&self) -> Vec<Claim> {
        let end = &self.variant.def.end;
        let mut claims = Vec::new();
        if end
            .claim_repetitions
            .is_some_and(|n| self.repetitions() >= n as usize)
        {
            claims.push(Claim::ThreefoldRepetition);
        }
        if end
            .claim_halfmoves
            .is_some_and(|n| self.halfmove_clock() >= n)
            && self.count_legal_moves() > 0
        {
            claims.push(Claim::FiftyMoveRule);
        }
        claims
    }

    /// The draws the side to move may claim by announcing the legal move
    /// `m` without playing it (threefold repetition first): FIDE 9.2.1 (the
    /// move would make the same position appear for at least the third
    /// time) and 9.3.1 (the move would complete 50 moves of each player
    /// without a pawn move or a capture). They are the
    /// [`claimable_draws`](Game::claimable_draws) of the position `m`
    /// would produce, so a move that mates or stalemates gives no 50-move
    /// claim. The game is unchanged.
    ///
    /// python-chess's `can_claim_threefold_repetition` and
    /// `can_claim_fifty_moves` answer "now, or after some legal move": the
    /// union of [`claimable_draws`](Game::claimable_draws) and this over
    /// every legal move.
    ///
    /// # Errors
    /// [`GameError::IllegalMove`] when `m` is not legal here.
    pub fn claimable_draw_after(&self, m: Move) -> Result<Vec<Claim>, GameError> {
        let mut next = self.clone();
        next.apply(m)?;
        Ok(next.claimable_draws())
    }

    /// Dead position by insufficient material (FIDE 9.6; the same rule as
    /// shakmaty and python-chess): both sides lack mating material.
    pub fn is_insufficient_material(&self) -> bool {
        with!(self, |p, t| {
            if let Some(dead) = t.hooks.as_ref().and_then(|h| h.insufficient_material(t, p)) {
                return dead;
            }
            if t.drops.is_some() {
                return drop_game_insufficient(t, p);
            }
            if t.check_limit != 0 {
                // Any piece but a king can give check (python-chess's
                // `ThreeCheckBoard`): only bare kings are dead.
                let kings = role_squares(t, p, Role::King);
                return (p.occupied() & !kings).is_empty();
            }
            if Color::ALL.iter().any(|&c| p.royals(t, c).count() > 1) {
                // FIDE's analysis assumes one king a side. With two royal
                // pieces a lone minor piece can mate one of them (e.g.
                // dual-king: two kings on a1 and a2 against a king and a
                // bishop), so only a board of king-role royals is dead:
                // a king can never attack an enemy royal king, since it
                // would stand next to it.
                let kings = role_squares(t, p, Role::King)
                    & (p.royals(t, Color::White) | p.royals(t, Color::Black));
                return (p.occupied() & !kings).is_empty();
            }
            insufficient(t, p, Color::White) && insufficient(t, p, Color::Black)
        })
    }
}

/// Plays `m` on `pos` under `tables` as [`Game`] does (with the rule hooks,
/// then the en passant square normalised): the one definition of a ply,
/// shared by play and by undo's replay.
fn play(pos: &mut AnyPos, tables: &VariantTables, m: Move) {
    match (&mut *pos, tables) {
        (AnyPos::Small(p), VariantTables::Small(t)) => match &t.hooks {
            Some(h) => p.play_with_hooks(t, h.as_ref(), m),
            None => p.play_unchecked(t, m),
        },
        (AnyPos::Large(p), VariantTables::Large(t)) => match &t.hooks {
            Some(h) => p.play_with_hooks(t, h.as_ref(), m),
            None => p.play_unchecked(t, m),
        },
        _ => unreachable!("position and tables have the same width"),
    }
    normalise_ep(pos, tables);
}

/// Whether two variants play moves by the same tables (rule hooks
/// included): compiled tables are shared, so the same rules are the same
/// allocation.
fn same_tables(a: &VariantTables, b: &VariantTables) -> bool {
    match (a, b) {
        (VariantTables::Small(a), VariantTables::Small(b)) => std::sync::Arc::ptr_eq(a, b),
        (VariantTables::Large(a), VariantTables::Large(b)) => std::sync::Arc::ptr_eq(a, b),
        _ => false,
    }
}

/// Clears the en passant square when no legal en passant capture exists
/// (G2), so that FEN and repetition keys agree with the FIDE notion of
/// "the same position".
fn normalise_ep(pos: &mut AnyPos, tables: &VariantTables) {
    fn go<B: BitSet>(p: &mut Position<B>, t: &Tables<B>) {
        if p.ep.is_empty() {
            return;
        }
        let mut v = Vec::new();
        p.legal_moves_into(t, &mut v);
        if !v.iter().any(|m| m.kind == MoveKind::EnPassant) {
            p.set_ep(BitSet::EMPTY, 0);
        }
    }
    match (pos, tables) {
        (AnyPos::Small(p), VariantTables::Small(t)) => go(p, t),
        (AnyPos::Large(p), VariantTables::Large(t)) => go(p, t),
        _ => unreachable!("position and tables have the same width"),
    }
}

/// Insufficient material in a drop game (python-chess's
/// `CrazyhouseBoard.has_insufficient_material`, the same for both sides):
/// at most three pieces on the board and in the hands together, none of
/// them promoted, and no pawn, rook or queen anywhere.
fn drop_game_insufficient<B: BitSet>(t: &Tables<B>, p: &Position<B>) -> bool {
    let in_hand: u32 = p.pockets.iter().flatten().map(|&n| u32::from(n)).sum();
    if p.occupied().count() + in_hand > 3 || p.promoted.any() {
        return false;
    }
    t.roles.iter().enumerate().all(|(k, role)| {
        let heavy = matches!(role, Some(Role::Pawn | Role::Rook | Role::Queen) | None);
        !heavy || (p.by_kind[k].is_empty() && p.pockets.iter().all(|h| h[k] == 0))
    })
}

/// The squares of the pieces whose kinds have role `r`.
fn role_squares<B: BitSet>(t: &Tables<B>, p: &Position<B>, r: Role) -> B {
    let mut b = B::EMPTY;
    for (k, role) in t.roles.iter().enumerate() {
        if *role == Some(r) {
            b |= p.by_kind[k];
        }
    }
    b
}

/// Whether `color` cannot possibly mate: no pawns, rooks or queens, and
/// (a lone knight with only a king and queens on the other side), or
/// (bishops, all on one colour, with no pawns or knights anywhere).
fn insufficient<B: BitSet>(t: &Tables<B>, p: &Position<B>, color: Color) -> bool {
    let role = |r: Role| role_squares(t, p, r);
    let ours = p.by_color(color);
    let theirs = p.by_color(color.flip());
    let known = role(Role::Pawn)
        | role(Role::Knight)
        | role(Role::Bishop)
        | role(Role::Rook)
        | role(Role::Queen)
        | role(Role::King);
    if (p.occupied() & !known).any() {
        return false;
    }
    if (ours & (role(Role::Pawn) | role(Role::Rook) | role(Role::Queen))).any() {
        return false;
    }
    if (ours & role(Role::Knight)).any() {
        return ours.count() <= 2 && (theirs & !role(Role::King) & !role(Role::Queen)).is_empty();
    }
    if (ours & role(Role::Bishop)).any() {
        let bishops = role(Role::Bishop);
        let same =
            (bishops & t.light_squares).is_empty() || (bishops & !t.light_squares).is_empty();
        return same && role(Role::Pawn).is_empty() && role(Role::Knight).is_empty();
    }
    true
}
