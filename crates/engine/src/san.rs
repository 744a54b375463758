//! Standard Algebraic Notation (FIDE Laws, Appendix C), written exactly and
//! read leniently like python-chess: `0-0`, missing or extra
//! disambiguation where unambiguous, `e8=Q` and `e8Q`, `x` or `-` or
//! nothing between squares, trailing `+`, `#`, `!`, `?`.

use crate::bitboard::BitSet;
use crate::definition::GameDefinition;
use crate::fen::{parse_square, square_name};
use crate::position::Position;
use crate::tables::Tables;
use crate::types::{Move, MoveKind};

/// Why a SAN move could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// Not SAN at all.
    #[error("`{0}` is not a SAN move")]
    Syntax(String),
    /// Well-formed, but no legal move matches.
    #[error("`{0}` is not a legal move here")]
    Illegal(String),
    /// Several legal moves match.
    #[error("`{san}` is ambiguous: it matches {}", candidates.join(", "))]
    Ambiguous {
        /// The text.
        san: String,
        /// The matching moves in UCI.
        candidates: Vec<String>,
    },
    /// The null move `--`/`Z0`.
    #[error("null move `{0}` is not supported")]
    NullMove(String),
    /// A pawn move to the promotion rank written without the piece it
    /// promotes to (`gxh8` for `gxh8=Q`).
    #[error("`{san}` is missing the promotion piece: write {}", or_list(choices))]
    MissingPromotion {
        /// The text.
        san: String,
        /// The legal moves it could mean, in SAN (`gxh8=Q`, `gxh8=R`, …).
        choices: Vec<String>,
    },
}

/// `a, b or c`.
pub(crate) fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The destination square a castling move's king lands on.
pub(crate) fn castle_king_to<B: BitSet>(t: &Tables<B>, m: Move) -> u8 {
    match t.castling {
        Some((_, _, kf, _)) => {
            let side = usize::from(t.file(m.to) > t.file(m.from));
            t.rank(m.from) * t.width + kf[side]
        }
        None => m.to,
    }
}

/// Writes `m` (legal in `pos`) in SAN, with `+` or `#`.
pub fn write<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    pos: &Position<B>,
    legal: &[Move],
    m: Move,
) -> String {
    let mut s = write_bare(def, t, pos, legal, m);
    let mut after = *pos;
    match &t.hooks {
        Some(h) => after.play_with_hooks(t, h.as_ref(), m),
        None => after.play_unchecked(t, m),
    }
    // The hooks decide what check is (added attacks, hit points).
    let check = after.in_check_hooked(t);
    // A side left without pieces under `EndRules::no_pieces` with a
    // winner (horde's capture of the last piece): `#`, as python-chess
    // marks a move after which `is_variant_loss` or `is_variant_win`
    // holds.
    if t.no_pieces_wins && after.by_color.iter().filter(|c| c.is_empty()).count() == 1 {
        s.push('#');
        return s;
    }
    if check || t.hooks.is_some() {
        let mut replies = Vec::new();
        after.legal_moves_into(t, &mut replies);
        // A move that wins by a rule of the variant (antichess: the
        // opponent is left without pieces or moves) is marked `#` too, as
        // python-chess marks moves after which `is_variant_win` or
        // `is_variant_loss` holds.
        let variant_win = t.hooks.as_ref().is_some_and(|h| {
            h.game_result(t, &after, &replies)
                .is_some_and(|r| r.winner.is_some())
        });
        if (check && replies.is_empty()) || variant_win {
            s.push('#');
        } else if check {
            s.push('+');
        }
    }
    s
}

/// SAN without the check suffix.
pub fn write_bare<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    pos: &Position<B>,
    legal: &[Move],
    m: Move,
) -> String {
    if let Some(k) = m.dropped() {
        // `N@f3`, `P@e4` (python-chess writes the pawn's letter too).
        return format!(
            "{}@{}",
            def.pieces[k.index()].symbol.to_ascii_uppercase(),
            square_name(m.to, t.width)
        );
    }
    if m.kind == MoveKind::Castle {
        return if t.file(m.to) > t.file(m.from) {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let Some(p) = pos.piece_at(m.from) else {
        return "--".into();
    };
    let pt = &def.pieces[p.kind.index()];
    let capture = m.kind == MoveKind::EnPassant || pos.by_color(p.color.flip()).has(m.to);
    let mut s = String::with_capacity(8);
    // Moves of the same kind to the same square from elsewhere.
    let others: Vec<u8> = legal
        .iter()
        .filter(|o| {
            o.to == m.to
                && o.from != m.from
                && o.kind != MoveKind::Castle
                && pos.piece_at(o.from).map(|q| q.kind) == Some(p.kind)
        })
        .map(|o| o.from)
        .collect();
    if pt.pawn_like {
        // A pawn's file is written for captures (FIDE) and for any move that
        // leaves its file or shares its destination (Berolina-style pawns).
        if capture || t.file(m.from) != t.file(m.to) || !others.is_empty() {
            s.push((b'a' + t.file(m.from)) as char);
            if others.iter().any(|&o| t.file(o) == t.file(m.from)) {
                s.push_str(&(t.rank(m.from) as u32 + 1).to_string());
            }
        }
    } else {
        s.push(pt.symbol);
        // Disambiguation: file if it suffices, else rank, else both.
        if !others.is_empty() {
            let same_file = others.iter().any(|&o| t.file(o) == t.file(m.from));
            let same_rank = others.iter().any(|&o| t.rank(o) == t.rank(m.from));
            if !same_file {
                s.push((b'a' + t.file(m.from)) as char);
            } else if !same_rank {
                s.push_str(&(t.rank(m.from) as u32 + 1).to_string());
            } else {
                s.push_str(&square_name(m.from, t.width));
            }
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&square_name(m.to, t.width));
    if let Some(k) = m.promotion {
        s.push('=');
        s.push(def.pieces[k.index()].symbol);
    }
    s
}

/// Reads a SAN move in `pos`, given its legal moves.
///
/// # Errors
/// [`SanError`] for text that is not SAN, names no legal move, or is
/// ambiguous.
pub fn parse<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    pos: &Position<B>,
    legal: &[Move],
    san: &str,
) -> Result<Move, SanError> {
    let text = san.trim_end_matches(['+', '#', '!', '?']);
    if text.is_empty() {
        return Err(SanError::Syntax(san.into()));
    }
    if text == "--" || text == "Z0" || text == "0000" || text == "@@@@" {
        return Err(SanError::NullMove(san.into()));
    }
    let castle = match text {
        "O-O" | "0-0" | "o-o" => Some(true),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(false),
        _ => None,
    };
    if let Some(king_side) = castle {
        let found: Vec<&Move> = legal
            .iter()
            .filter(|m| m.kind == MoveKind::Castle && (t.file(m.to) > t.file(m.from)) == king_side)
            .collect();
        return match found.as_slice() {
            [m] => Ok(**m),
            [] => Err(SanError::Illegal(san.into())),
            _ => Err(SanError::Ambiguous {
                san: san.into(),
                candidates: found.iter().map(|m| format!("{m:?}")).collect(),
            }),
        };
    }
    if let Some((piece, square)) = text.split_once('@') {
        // A drop: `N@f3`; `@e4` and `P@e4` for a pawn (python-chess).
        let kind = match piece {
            "" => def.pieces.iter().position(|p| p.pawn_like),
            p if p.len() == 1 && p.as_bytes()[0].is_ascii_uppercase() => {
                def.kind_of_symbol(p.as_bytes()[0] as char)
            }
            _ => None,
        }
        .ok_or_else(|| SanError::Syntax(san.into()))?;
        let to =
            parse_square(square, t.width, t.height).ok_or_else(|| SanError::Syntax(san.into()))?;
        return legal
            .iter()
            .copied()
            .find(|m| m.dropped().map(|k| k.index()) == Some(kind) && m.to == to)
            .ok_or_else(|| SanError::Illegal(san.into()));
    }
    let b = text.as_bytes();
    if !b.is_ascii() {
        return Err(SanError::Syntax(san.into()));
    }
    let mut i = 0;
    // Piece letter (upper case, not a file letter used as such).
    let mut kind: Option<usize> = None;
    if b[0].is_ascii_uppercase() {
        let k = def
            .kind_of_symbol(b[0] as char)
            .ok_or_else(|| SanError::Syntax(san.into()))?;
        kind = Some(k);
        i = 1;
    }
    // Promotion suffix: `=Q`, `Q`, `=q`, `(Q)`, `/Q`.
    let mut end = b.len();
    let mut promotion: Option<usize> = None;
    if end > i + 2 && b[end - 1].is_ascii_alphabetic() && !(b[end - 1] as char).is_ascii_digit() {
        let c = b[end - 1] as char;
        let prev = b[end - 2];
        if prev == b'=' || prev == b'/' || prev.is_ascii_digit() {
            if let Some(k) = def.kind_of_symbol(c) {
                promotion = Some(k);
                end -= if prev == b'=' || prev == b'/' { 2 } else { 1 };
            } else {
                return Err(SanError::Syntax(san.into()));
            }
        }
    } else if end > i + 3 && b[end - 1] == b')' && b[end - 3] == b'(' {
        let k = def
            .kind_of_symbol(b[end - 2] as char)
            .ok_or_else(|| SanError::Syntax(san.into()))?;
        promotion = Some(k);
        end -= 3;
    }
    let body = &text[i..end];
    // Destination: the last square name in the body.
    let bb = body.as_bytes();
    let mut j = bb.len();
    while j > 0 && bb[j - 1].is_ascii_digit() {
        j -= 1;
    }
    if j == 0 || j == bb.len() || !bb[j - 1].is_ascii_lowercase() {
        return Err(SanError::Syntax(san.into()));
    }
    let to = parse_square(&body[j - 1..], t.width, t.height)
        .ok_or_else(|| SanError::Syntax(san.into()))?;
    let mut hint = &body[..j - 1];
    if let Some(h) = hint.strip_suffix(['x', '-', ':']) {
        hint = h;
    }
    let (mut hf, mut hr) = (None, None);
    let hb = hint.as_bytes();
    let mut k = 0;
    if k < hb.len() && hb[k].is_ascii_lowercase() {
        let f = hb[k] - b'a';
        if f >= t.width {
            return Err(SanError::Syntax(san.into()));
        }
        hf = Some(f);
        k += 1;
    }
    if k < hb.len() {
        let r: u32 = hint[k..]
            .parse()
            .map_err(|_| SanError::Syntax(san.into()))?;
        if r == 0 || r > t.height as u32 {
            return Err(SanError::Syntax(san.into()));
        }
        hr = Some((r - 1) as u8);
    }
    // Fully specified squares without a piece letter (`g1f3`, `e1g1`)
    // name any piece's move, castling included, as python-chess allows.
    if kind.is_none() {
        if let (Some(f), Some(r)) = (hf, hr) {
            let from = r * t.width + f;
            let same_squares = |m: &Move| {
                !m.is_drop()
                    && m.from == from
                    && (m.to == to || (m.kind == MoveKind::Castle && castle_king_to(t, *m) == to))
            };
            let found = legal
                .iter()
                .copied()
                .find(|m| same_squares(m) && m.promotion.map(|k| k.index()) == promotion);
            return found.ok_or_else(|| {
                missing_promotion(def, t, pos, legal, san, promotion, same_squares)
            });
        }
    }
    // Whether `m` is a move the text names, its promotion piece aside.
    let named = |m: &Move| {
        if m.kind == MoveKind::Castle || m.to != to {
            return false;
        }
        let Some(p) = pos.piece_at(m.from) else {
            return false;
        };
        let pk = p.kind.index();
        let kind_ok = match kind {
            Some(k) => k == pk,
            // A pawn move without its file is a push, never a capture
            // (python-chess: `d5` does not mean `exd5`).
            // Quiet pawn moves off the file (Berolina) may omit it too.
            None => {
                let capture =
                    m.kind == MoveKind::EnPassant || pos.by_color(p.color.flip()).has(m.to);
                def.pieces[pk].pawn_like
                    && (hf.is_some() || t.file(m.from) == t.file(to) || !capture)
            }
        };
        kind_ok && hf.is_none_or(|f| t.file(m.from) == f) && hr.is_none_or(|r| t.rank(m.from) == r)
    };
    let matches: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| named(m) && m.promotion.map(|k| k.index()) == promotion)
        .collect();
    match matches.as_slice() {
        [m] => Ok(*m),
        [] => Err(missing_promotion(def, t, pos, legal, san, promotion, named)),
        _ => Err(SanError::Ambiguous {
            san: san.into(),
            candidates: matches
                .iter()
                .map(|m| {
                    format!(
                        "{}{}",
                        square_name(m.from, t.width),
                        square_name(m.to, t.width)
                    )
                })
                .collect(),
        }),
    }
}

/// The error for a SAN that names no legal move: [`SanError::MissingPromotion`]
/// when it names only promotions but gives no piece (`gxh8`, `g7h8`),
/// [`SanError::Illegal`] otherwise.
fn missing_promotion<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    pos: &Position<B>,
    legal: &[Move],
    san: &str,
    promotion: Option<usize>,
    named: impl Fn(&Move) -> bool,
) -> SanError {
    let choices: Vec<String> = legal
        .iter()
        .filter(|m| promotion.is_none() && m.promotion.is_some() && named(m))
        .map(|&m| write_bare(def, t, pos, legal, m))
        .collect();
    if choices.is_empty() {
        SanError::Illegal(san.into())
    } else {
        SanError::MissingPromotion {
            san: san.into(),
            choices,
        }
    }
}
