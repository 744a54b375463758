//! UCI move notation: `e2e4`, `e7e8q`; castling as king to destination
//! (`e1g1`) in standard chess and king-takes-rook (`e1h1`) in Chess960
//! (RULINGS G4).

use crate::bitboard::BitSet;
use crate::definition::GameDefinition;
use crate::fen::{parse_square, push_square_name, square_name};
use crate::position::Position;
use crate::san::castle_king_to;
use crate::tables::Tables;
use crate::types::{Move, MoveKind};

/// Whether `s` has the shape of an 8×8 UCI move: two squares `a1`…`h8`
/// and an optional promotion letter (`e2e4`, `e7e8q`; any case). Whether
/// the move is legal is for [`parse`] to say; front ends use this to tell a
/// UCI move from SAN.
pub fn is_uci_shaped(s: &str) -> bool {
    let b = s.as_bytes();
    (b.len() == 4 || (b.len() == 5 && b"qrbnkQRBNK".contains(&b[4])))
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
}

/// Why a UCI move could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    /// Not UCI notation.
    #[error("`{}` is not a UCI move (expected from-square, to-square and an optional promotion letter, like e7e8q)", crate::echo::echo(.0))]
    Syntax(String),
    /// Well-formed, but not a legal move.
    #[error("`{}` is not a legal move here", crate::echo::echo(.0))]
    Illegal(String),
    /// The null move.
    #[error("null move `{}` is not supported", crate::echo::echo(.0))]
    NullMove(String),
    /// A move to the promotion rank without the promotion letter (`g7h8`
    /// for `g7h8q`).
    #[error(
        "`{}` is missing the promotion piece: write {}",
        crate::echo::echo(uci),
        crate::san::or_list(choices)
    )]
    MissingPromotion {
        /// The text.
        uci: String,
        /// The legal moves it could mean, in UCI (`g7h8q`, `g7h8r`, …).
        choices: Vec<String>,
    },
}

/// Writes `m` in UCI. With `chess960` castling is king-takes-rook.
/// Without it, castling is king-to-destination unless another legal move
/// shares those squares (G4).
pub fn write<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    legal: &[Move],
    m: Move,
    chess960: bool,
) -> String {
    if let Some(k) = m.dropped() {
        // `N@f3`; pawns too (`P@e4`), as lichess and python-chess write them.
        return format!(
            "{}@{}",
            def.pieces[k.index()].symbol.to_ascii_uppercase(),
            square_name(m.to, t.width)
        );
    }
    let mut to = m.to;
    if m.kind == MoveKind::Castle && !chess960 {
        let kto = castle_king_to(t, m);
        let clash = legal
            .iter()
            .any(|o| o.kind != MoveKind::Castle && o.from == m.from && o.to == kto);
        if !clash && kto != m.from {
            to = kto;
        }
    }
    let mut s = String::with_capacity(6);
    push_square_name(&mut s, m.from, t.width);
    push_square_name(&mut s, to, t.width);
    if let Some(k) = m.promotion {
        s.push(def.pieces[k.index()].symbol.to_ascii_lowercase());
    }
    s
}

/// Reads a UCI move and finds it among `legal`. Castling is accepted both
/// as king-to-destination and as king-takes-rook.
///
/// # Errors
/// [`UciError`].
pub fn parse<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    _pos: &Position<B>,
    legal: &[Move],
    uci: &str,
) -> Result<Move, UciError> {
    if uci == "0000" {
        return Err(UciError::NullMove(uci.into()));
    }
    let syntax = || UciError::Syntax(uci.into());
    if let Some((piece, square)) = uci.split_once('@') {
        // A drop: `N@f3` (`P@e4` for a pawn; the letter in either case).
        let mut cs = piece.chars();
        let (Some(c), None) = (cs.next(), cs.next()) else {
            return Err(syntax());
        };
        let kind = def.kind_of_symbol(c).ok_or_else(syntax)?;
        let to = parse_square(square, t.width, t.height).ok_or_else(syntax)?;
        return legal
            .iter()
            .copied()
            .find(|m| m.dropped().map(|k| k.index()) == Some(kind) && m.to == to)
            .ok_or_else(|| UciError::Illegal(uci.into()));
    }
    if !uci.is_ascii() || uci.len() < 4 {
        return Err(syntax());
    }
    // Split into two squares and an optional letter; ranks may be 2 digits.
    let b = uci.as_bytes();
    let mut i = 1;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let from = parse_square(&uci[..i], t.width, t.height).ok_or_else(syntax)?;
    let mut j = i + 1;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    if j > b.len() || i >= b.len() {
        return Err(syntax());
    }
    let to = parse_square(&uci[i..j], t.width, t.height).ok_or_else(syntax)?;
    let promotion = match &uci[j..] {
        "" => None,
        p if p.len() == 1 => Some(
            def.kind_of_symbol(p.chars().next().unwrap_or(' '))
                .ok_or_else(syntax)?,
        ),
        _ => return Err(syntax()),
    };
    let found = legal.iter().copied().find(|m| {
        m.from == from
            && m.to == to
            && m.promotion.map(|k| k.index()) == promotion
            && !matches!(m.kind, MoveKind::Castle | MoveKind::Drop)
    });
    if let Some(m) = found {
        return Ok(m);
    }
    let castle = legal.iter().copied().find(|m| {
        m.kind == MoveKind::Castle
            && m.from == from
            && promotion.is_none()
            && (m.to == to || castle_king_to(t, *m) == to)
    });
    if let Some(m) = castle {
        return Ok(m);
    }
    let choices: Vec<String> = legal
        .iter()
        .filter(|m| {
            promotion.is_none()
                && m.from == from
                && m.to == to
                && m.promotion.is_some()
                && !m.is_drop()
        })
        .map(|&m| write(def, t, legal, m, false))
        .collect();
    if choices.is_empty() {
        Err(UciError::Illegal(uci.into()))
    } else {
        Err(UciError::MissingPromotion {
            uci: uci.into(),
            choices,
        })
    }
}
