//! FEN and Shredder-FEN/X-FEN (RULINGS G2), in any game's piece letters.

use crate::bitboard::BitSet;
use crate::definition::GameDefinition;
use crate::position::Position;
use crate::tables::Tables;
use crate::types::{Color, Piece, PieceKind, Square};

/// Why a FEN could not be read. Each variant keeps the offending text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The string is empty.
    #[error("empty FEN")]
    Empty,
    /// The board field is malformed.
    #[error("FEN board field, rank {rank}: {reason}")]
    Board {
        /// The rank's number on the board (1 at White's side, the last
        /// `/`-separated part of the field): trial 20 read "rank 8 (from
        /// the top)" for a short last part as chess's rank 8.
        rank: usize,
        /// What is wrong.
        reason: String,
    },
    /// The board field has the wrong number of ranks.
    #[error("FEN board field has {found} rank{s}, expected {expected} (ranks are separated by `/`)", s = if *found == 1 { "" } else { "s" })]
    RankCount {
        /// Ranks found (`/`-separated parts).
        found: usize,
        /// The board's height.
        expected: u8,
    },
    /// A letter that is no piece of this game.
    #[error("FEN board field: `{}` is not a piece letter of this game", crate::echo::escape_controls(&.0.to_string()))]
    UnknownPiece(char),
    /// The side-to-move field is not `w` or `b`.
    #[error("FEN side to move `{}`: expected `w` or `b`", crate::echo::echo(.0))]
    Turn(String),
    /// The castling field is malformed.
    #[error("FEN castling field `{}`: expected `-`, KQkq letters or rook files (Shredder-FEN)", crate::echo::echo(.0))]
    Castling(String),
    /// Castling rights in a game without castling.
    #[error("FEN castling field `{}`: this game has no castling, so the field must be `-`", crate::echo::echo(.0))]
    NoCastling(String),
    /// The en passant field is malformed.
    #[error("FEN en passant field `{}`: expected `-` or a square", crate::echo::echo(.0))]
    EnPassant(String),
    /// A clock field is not a number, or too large a one.
    #[error("FEN {field} `{}`: {reason}", crate::echo::echo(.value))]
    Clock {
        /// `half-move clock` or `full-move number`.
        field: &'static str,
        /// The text.
        value: String,
        /// What is wrong: not a non-negative number, or above the largest
        /// count stored (`u32::MAX`).
        reason: String,
    },
    /// Extra fields after the six of FEN.
    #[error("FEN has unexpected extra text `{}`", crate::echo::echo(.0))]
    Extra(String),
    /// A side has no royal piece in a game that needs one.
    #[error("FEN position has no royal piece ({piece}) for {color}")]
    NoRoyal {
        /// The colour.
        color: Color,
        /// The royal piece type's id.
        piece: String,
    },
    /// A piece that promotes stands where it cannot: on a rank where its
    /// promotion is compulsory (it would have promoted), or on a square no
    /// move of its kind reaches (a pawn on its own first rank). python-chess
    /// (`Board.status()`, `STATUS_PAWNS_ON_BACKRANK`) and shakmaty refuse
    /// FIDE pawns on the first or last rank alike.
    #[error("FEN board field: {piece} `{letter}` on {square}: {reason}")]
    PieceRank {
        /// `white pawn`, `black pawn`, ….
        piece: String,
        /// Its FEN letter.
        letter: char,
        /// The square's name.
        square: String,
        /// Why it cannot stand there.
        reason: &'static str,
    },
    /// Royal pieces the position cannot have: more of a kind than the game
    /// allows a side (FIDE chess: one king each), together with any side
    /// that has none. Each fault is one phrase (`white has 2 kings (d1,
    /// e1), the rules allow 1`, `black has no king`).
    #[error("FEN position is not valid: {}", .0.join(", and "))]
    RoyalCount(Vec<String>),
    /// The side not to move is in check.
    #[error("FEN position is illegal: the side not to move ({0}) is in check")]
    OppositeCheck(Color),
    /// The rule layer refuses the position (see
    /// [`RuleHooks::check_setup`](crate::hooks::RuleHooks::check_setup)).
    #[error("FEN position is not valid under these rules: {0}")]
    Rules(String),
    /// The pocket (pieces in hand) is malformed, or names a piece that
    /// cannot be held.
    #[error("FEN pocket `{}`: expected piece letters of pieces that can be held in hand, like `[QNpp]`", crate::echo::echo(.0))]
    Pocket(String),
    /// The check counters of a three-check FEN are malformed.
    #[error("FEN check counters `{}`: expected the checks each side still needs, like `3+3` (or lichess's checks given, `+1+0`)", crate::echo::echo(.0))]
    Checks(String),
    /// Pockets, promoted markers and check counters belong to variants this
    /// build does not support.
    #[error("FEN uses `{}`, which belongs to a variant that is not supported", crate::echo::echo(.0))]
    Unsupported(String),
}

/// The name of `sq` on a board `width` files wide: `a1`, `h8`, `l10`.
pub fn square_name(sq: Square, width: u8) -> String {
    let mut s = String::with_capacity(3);
    push_square_name(&mut s, sq, width);
    s
}

/// Appends [`square_name`] to `out`, without `format!`: every legal move of
/// every update is written in UCI (issue 21: `fmt` was a visible share of a
/// server's CPU per move).
pub fn push_square_name(out: &mut String, sq: Square, width: u8) {
    let f = sq % width;
    let r = u32::from(sq / width) + 1;
    out.push((b'a' + f) as char);
    if r >= 100 {
        out.push(char::from(b'0' + (r / 100) as u8));
    }
    if r >= 10 {
        out.push(char::from(b'0' + (r / 10 % 10) as u8));
    }
    out.push(char::from(b'0' + (r % 10) as u8));
}

/// Parses a square name on a `width`×`height` board.
pub fn parse_square(s: &str, width: u8, height: u8) -> Option<Square> {
    let b = s.as_bytes();
    if b.len() < 2 || b.len() > 3 {
        return None;
    }
    let f = b[0].checked_sub(b'a')?;
    if f >= width || !b[1..].iter().all(|c| c.is_ascii_digit()) || b[1] == b'0' {
        return None;
    }
    let r: u32 = s[1..].parse().ok()?;
    if r == 0 || r > height as u32 {
        return None;
    }
    Some(((r - 1) * width as u32 + f as u32) as Square)
}

/// Reads a FEN (or X-FEN/Shredder-FEN) for `def`. Missing clock fields
/// default to `0 1`. Castling rights that name no rook are dropped (as
/// python-chess and shakmaty do in lenient mode). The en passant field is
/// kept only when an en passant capture is possible.
pub fn parse<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    fen: &str,
) -> Result<Position<B>, FenError> {
    parse_inner(def, t, fen, true)
}

/// As [`parse`], without the tests that each side has a royal piece and
/// that the side not to move is not in check: for setup formats that add
/// state FEN cannot carry (hit points under which an attacked royal may be
/// safe, a finished game whose royal was destroyed) and judge the position
/// with their own rules afterwards.
///
/// # Errors
/// As [`parse`], except [`FenError::NoRoyal`] and
/// [`FenError::OppositeCheck`].
pub fn parse_setup<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    fen: &str,
) -> Result<Position<B>, FenError> {
    parse_inner(def, t, fen, false)
}

fn parse_inner<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    fen: &str,
    full_checks: bool,
) -> Result<Position<B>, FenError> {
    let fen = fen.trim();
    let mut fields = fen.split_ascii_whitespace();
    let board = fields.next().ok_or(FenError::Empty)?;
    let mut pos = Position::<B>::empty();
    if t.drops.is_none() && (board.contains('[') || board.contains('~')) {
        return Err(FenError::Unsupported(board.into()));
    }
    // Pockets: `board[QRBNPqrbnp]` or a rank past the last (`board/QRq`).
    let (board, pocket) = match board.find('[') {
        Some(i) => {
            let rest = &board[i + 1..];
            let Some(inner) = rest.strip_suffix(']') else {
                return Err(FenError::Pocket(board.into()));
            };
            (&board[..i], Some(inner))
        }
        None if board.split('/').count() == t.height as usize + 1 && t.drops.is_some() => {
            let i = board.rfind('/').unwrap_or(0);
            (&board[..i], Some(&board[i + 1..]))
        }
        None => (board, None),
    };
    if let (Some(p), Some(d)) = (pocket, t.drops.as_deref()) {
        for c in p.chars() {
            let k = def
                .kind_of_symbol(c)
                .filter(|&k| d.hand & (1 << k) != 0)
                .ok_or_else(|| FenError::Pocket(p.into()))?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let n = pos.pocket_count(color, PieceKind(k as u8));
            if n == u8::MAX {
                return Err(FenError::Pocket(p.into()));
            }
            pos.set_pocket_count(color, PieceKind(k as u8), n + 1);
        }
    }
    let mut promoted = B::EMPTY;
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != t.height as usize {
        return Err(FenError::RankCount {
            found: ranks.len(),
            expected: t.height,
        });
    }
    for (i, row) in ranks.iter().enumerate() {
        let r = t.height as usize - 1 - i;
        let mut f = 0usize;
        let bytes = row.as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            let c = bytes[j] as char;
            if c.is_ascii_digit() {
                let mut n = 0usize;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    n = n * 10 + (bytes[j] - b'0') as usize;
                    j += 1;
                    if n > 16 {
                        break;
                    }
                }
                if n == 0 {
                    return Err(FenError::Board {
                        rank: r + 1,
                        reason: "empty-square count 0".into(),
                    });
                }
                f += n;
                if f > t.width as usize {
                    return Err(FenError::Board {
                        rank: r + 1,
                        reason: format!("more than {} files", t.width),
                    });
                }
                continue;
            }
            if !c.is_ascii_alphabetic() {
                // Name the whole character, not its first byte.
                let ch = row[j..].chars().next().unwrap_or(c);
                return Err(FenError::UnknownPiece(ch));
            }
            let kind = def.kind_of_symbol(c).ok_or(FenError::UnknownPiece(c))?;
            if f >= t.width as usize {
                return Err(FenError::Board {
                    rank: r + 1,
                    reason: format!("more than {} files", t.width),
                });
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            pos.add_new(
                (r * t.width as usize + f) as u8,
                Piece {
                    kind: PieceKind(kind as u8),
                    color,
                },
            );
            f += 1;
            j += 1;
            // `~` after a piece: it promoted (drop games).
            if j < bytes.len() && bytes[j] == b'~' {
                promoted |= B::bit((r * t.width as usize + f - 1) as u8);
                j += 1;
            }
        }
        if f != t.width as usize {
            return Err(FenError::Board {
                rank: r + 1,
                reason: format!("{} files, expected {}", f, t.width),
            });
        }
    }
    pos.set_promoted(promoted);
    let turn = match fields.next() {
        None | Some("w") | Some("W") => Color::White,
        Some("b") | Some("B") => Color::Black,
        Some(s) => return Err(FenError::Turn(s.into())),
    };
    pos.set_turn(turn);
    let castling = fields.next().unwrap_or("-");
    let rooks = parse_castling(t, &pos, castling)?;
    pos.set_castling(rooks);
    let ep = fields.next().unwrap_or("-");
    let (ep_sq, victim) = if ep == "-" {
        (None, 0)
    } else {
        let parse = |s: &str| {
            parse_square(s, t.width, t.height).ok_or_else(|| FenError::EnPassant(ep.into()))
        };
        // One square (the passed square) or two, as Fairy-Stockfish writes
        // for Berolina pawns (RULINGS P27). Of two squares, the occupied one
        // is the landing square, whichever order they come in (RULINGS P27
        // says passed then landing; Fairy-Stockfish writes landing first).
        let split = ep
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_alphabetic())
            .map(|(i, _)| i);
        match split {
            Some(i) => {
                let (a, b) = (parse(&ep[..i])?, parse(&ep[i..])?);
                if pos.occupied().has(a) && !pos.occupied().has(b) {
                    (Some(b), a)
                } else {
                    (Some(a), b)
                }
            }
            None => {
                let s = parse(ep)?;
                // The victim stands one step past the passed square, in the
                // direction of the side that just moved.
                let v = if turn == Color::White {
                    s as i32 - t.width as i32
                } else {
                    s as i32 + t.width as i32
                };
                if v < 0 || v >= t.squares as i32 {
                    return Err(FenError::EnPassant(ep.into()));
                }
                (Some(s), v as u8)
            }
        }
    };
    // Three-check: the checks each side still needs (`3+3`) after the en
    // passant field (python-chess), or those given (`+1+0`) after the
    // clocks (lichess).
    let mut rest: Vec<&str> = fields.collect();
    let mut given = [0u8; 2];
    if t.check_limit != 0 {
        let limit = t.check_limit;
        let pair = |s: &str| -> Option<(u8, u8)> {
            let (a, b) = s.split_once('+')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        };
        if rest.first().is_some_and(|f| f.contains('+')) {
            let f = rest.remove(0);
            let (w, b) = pair(f).ok_or_else(|| FenError::Checks(f.into()))?;
            given = [limit.saturating_sub(w), limit.saturating_sub(b)];
        } else if rest.len() >= 3 && rest[2].starts_with('+') {
            let f = rest.remove(2);
            let (w, b) = pair(&f[1..]).ok_or_else(|| FenError::Checks(f.into()))?;
            given = [w.min(limit), b.min(limit)];
        }
    }
    let mut fields = rest.into_iter();
    let halfmove = parse_clock(fields.next(), "half-move clock", 0)?;
    let fullmove = parse_clock(fields.next(), "full-move number", 1)?.max(1);
    pos.set_checks_given(Color::White, given[0]);
    pos.set_checks_given(Color::Black, given[1]);
    if let Some(extra) = fields.next() {
        if extra.starts_with('+') || extra.contains('+') {
            return Err(FenError::Unsupported(extra.into()));
        }
        return Err(FenError::Extra(extra.into()));
    }
    pos.halfmove = halfmove;
    pos.fullmove = fullmove;
    // First-move pieces on their initial squares count as unmoved (G5).
    let mut unmoved = B::EMPTY;
    let mut m = t.first_move_kinds;
    while m != 0 {
        let k = m.trailing_zeros() as usize;
        m &= m - 1;
        for c in Color::ALL {
            unmoved |= pos.by_kind[k] & pos.by_color[c.index()] & t.kinds[c.index()][k].initial;
        }
    }
    pos.set_unmoved(unmoved);
    if let Some(s) = ep_sq {
        // Keep the square only when the side to move has a piece that
        // captures en passant onto it; whether the capture is legal under
        // the rules in force (hooks included) is `Game`'s to judge.
        let us = turn.index();
        let them_piece = pos.piece_at(victim);
        // The victim must be an enemy piece that can multi-step (a pawn),
        // standing one step past the passed square in the direction it
        // moved (toward the side to move's first rank), and the square it
        // came from must be on the board and empty.
        let (sf, sr) = (t.file(s) as i32, t.rank(s) as i32);
        let (vf, vr) = (t.file(victim) as i32, t.rank(victim) as i32);
        let (mut df, dr) = (vf - sf, vr - sr);
        let wd = t.width as i32;
        if t.wrap_files && 2 * df.abs() > wd {
            // On a cylinder the victim may stand across the side edge.
            df -= df.signum() * wd;
        }
        let toward = if turn == Color::White { -1 } else { 1 };
        let (mut of, or) = (sf - df, sr - dr);
        if t.wrap_files {
            of = of.rem_euclid(wd);
        }
        let origin_empty = df.abs() <= 1
            && dr == toward
            && of >= 0
            && or >= 0
            && of < t.width as i32
            && or < t.height as i32
            && !pos.occupied().has((or * t.width as i32 + of) as u8);
        let ok = !pos.occupied().has(s)
            && origin_empty
            // A pawn-like piece, or one with a first-move step: under rules
            // that take the double step away (short-stop) the pawn that
            // made it stays capturable en passant (RULINGS P26).
            && them_piece.is_some_and(|p| {
                p.color != turn && (t.first_move_kinds | t.pawn_kinds) & (1 << p.kind.0) != 0
            })
            && {
                let mut hit = false;
                let mut mk = t.ep_kinds;
                while mk != 0 {
                    let k = mk.trailing_zeros() as usize;
                    mk &= mk - 1;
                    if (t.kinds[us][k].rev_leap_ep[s as usize] & pos.by_kind[k] & pos.by_color[us])
                        .any()
                    {
                        hit = true;
                    }
                }
                hit
            };
        if ok {
            pos.set_ep(B::bit(s), victim);
        }
    }
    // Rules without those setup tests judge the position in `check_setup`.
    let full_checks = full_checks && t.hooks.as_ref().is_none_or(|h| h.setup_needs_royals());
    for c in Color::ALL {
        if full_checks
            && t.royal_kinds != 0
            && pos.royals(t, c).is_empty()
            && !def.royal_optional[c.index()]
        {
            let k = t.royal_kinds.trailing_zeros() as usize;
            // Name every fault of the royal pieces at once (two white kings
            // and no black one).
            let mut faults = too_many_royals(def, t, &pos);
            if faults.is_empty() {
                return Err(FenError::NoRoyal {
                    color: c,
                    piece: def.pieces[k].id.clone(),
                });
            }
            for c in Color::ALL {
                if pos.royals(t, c).is_empty() && !def.royal_optional[c.index()] {
                    faults.push(format!("{c} has no {}", def.pieces[k].id.to_lowercase()));
                }
            }
            return Err(FenError::RoyalCount(faults));
        }
    }
    let them = turn.flip();
    let occ = pos.occupied();
    if full_checks
        && pos
            .royals(t, them)
            .iter()
            .any(|s| pos.is_attacked(t, s, occ, turn))
    {
        return Err(FenError::OppositeCheck(them));
    }
    if let Some(h) = &t.hooks {
        h.check_setup(t, &pos).map_err(FenError::Rules)?;
    }
    debug_assert_eq!(pos.hash, pos.compute_hash());
    Ok(pos)
}

/// Checks that no promoting piece stands where play cannot put it (see
/// [`FenError::PieceRank`]): on a square of its compulsory promotion zone,
/// or, for kinds that only leap, on a square of its own first rank that
/// none of its moves reaches and that is not one of its initial squares
/// (so a rule that lets pawns step back, RULINGS P21, keeps them legal
/// there). Rule hooks that move pieces by other means
/// ([`RuleHooks::relocates_pieces`](crate::hooks::RuleHooks::relocates_pieces))
/// turn the check off.
///
/// [`parse`] does not run it, as python-chess's `Board` reads such a FEN
/// and reports it only through `Board.status()`: rule layers (modifier
/// spawns and swaps, `piece-hp` pushes) create such positions and read
/// them back. Front ends run it on positions a user types
/// ([`Game::check_piece_ranks`](crate::Game::check_piece_ranks)).
///
/// # Errors
/// [`FenError::PieceRank`] naming the first such piece and its square.
pub fn check_piece_ranks<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    pos: &Position<B>,
) -> Result<(), FenError> {
    if t.hooks.as_ref().is_some_and(|h| h.relocates_pieces()) {
        return Ok(());
    }
    let mut kinds = t.promo_kinds;
    while kinds != 0 {
        let k = kinds.trailing_zeros() as usize;
        kinds &= kinds - 1;
        for c in Color::ALL {
            let ci = c.index();
            let ours = pos.by_kind[k] & pos.by_color[ci];
            if ours.is_empty() {
                continue;
            }
            let kt = &t.kinds[ci][k];
            let first_rank = crate::definition::relative_rank(0, c, t.height);
            let mut unreachable = B::EMPTY;
            if kt.rides.is_empty() {
                for f in 0..t.width {
                    unreachable |= B::bit(first_rank * t.width + f);
                }
                unreachable &= !kt.initial;
                for from in t.board.iter() {
                    let i = from as usize;
                    unreachable &=
                        !(kt.leap_any[i] | kt.leap_quiet[i] | kt.leap_capture[i] | kt.leap_ep[i]);
                }
            }
            let compulsory = t.promo_zone[ci] & !t.promo_optional[ci];
            let bad = ours & (compulsory | unreachable);
            if let Some(sq) = bad.iter().next() {
                let name = &def.pieces[k].id;
                let letter = def.pieces[k].symbol;
                let letter = if c == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter.to_ascii_lowercase()
                };
                return Err(FenError::PieceRank {
                    piece: format!("{c} {}", name.to_lowercase()),
                    letter,
                    square: square_name(sq, t.width),
                    reason: if compulsory.has(sq) {
                        "it must have promoted on reaching this rank"
                    } else {
                        "no move of this piece reaches its own first rank"
                    },
                });
            }
        }
    }
    Ok(())
}

/// Checks that no side has more royal pieces of a kind than the game
/// allows: as many as the game's start position gives the side (at least
/// one; FIDE chess: one king), any number of a kind pawns may promote to,
/// and any number when the rules say so
/// ([`RuleHooks::allows_extra_royals`](crate::hooks::RuleHooks::allows_extra_royals):
/// `dual-king`). python-chess's `Board.status()` reports such a board
/// (`STATUS_TOO_MANY_KINGS`) and shakmaty refuses it.
///
/// [`parse`] reads such positions (as python-chess's `Board` does); front
/// ends run this on positions a user types
/// ([`Game::check_royal_count`](crate::Game::check_royal_count)).
///
/// # Errors
/// [`FenError::RoyalCount`] naming each side's extra pieces and squares.
pub fn check_royal_count<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    pos: &Position<B>,
) -> Result<(), FenError> {
    let faults = too_many_royals(def, t, pos);
    if faults.is_empty() {
        Ok(())
    } else {
        Err(FenError::RoyalCount(faults))
    }
}

/// `white has 2 kings (d1, e1), the rules allow 1` for every side and
/// royal kind over its limit (see [`check_royal_count`]).
fn too_many_royals<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    pos: &Position<B>,
) -> Vec<String> {
    let mut faults = Vec::new();
    if t.hooks.as_ref().is_some_and(|h| h.allows_extra_royals()) {
        return faults;
    }
    let promoted: Vec<usize> = def
        .promotion
        .as_ref()
        .map(|p| p.choices.clone())
        .unwrap_or_default();
    let start_board = def.start_fen.split_ascii_whitespace().next().unwrap_or("");
    for c in Color::ALL {
        let mut kinds = t.royal_kinds;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            if promoted.contains(&k) {
                continue;
            }
            let pt = &def.pieces[k];
            let letter = if c == Color::White {
                pt.symbol.to_ascii_uppercase()
            } else {
                pt.symbol.to_ascii_lowercase()
            };
            let allowed = start_board
                .chars()
                .filter(|&ch| ch == letter)
                .count()
                .max(1);
            let ours = pos.by_kind[k] & pos.by_color[c.index()];
            if ours.count() as usize > allowed {
                let squares: Vec<String> = ours.iter().map(|s| square_name(s, t.width)).collect();
                let name = pt.id.to_lowercase();
                faults.push(format!(
                    "{c} has {} {name}s ({}), the rules allow {allowed}",
                    ours.count(),
                    squares.join(", ")
                ));
            }
        }
    }
    faults
}

fn parse_clock(s: Option<&str>, field: &'static str, default: u32) -> Result<u32, FenError> {
    match s {
        None => Ok(default),
        Some(v) => v.parse::<u32>().map_err(|e| FenError::Clock {
            field,
            value: v.into(),
            // All digits but no u32: the number is valid, only too large.
            reason: if *e.kind() == std::num::IntErrorKind::PosOverflow {
                format!("too large (at most {})", u32::MAX)
            } else {
                "expected a non-negative number".into()
            },
        }),
    }
}

/// Drops the castling rights standard castling does not allow (see
/// [`Castling::chess960`](crate::definition::Castling::chess960)): without
/// `chess960`, a right is kept only when its rook stands in a corner and
/// the side's one castling king on its setup file (the middle of the
/// king's destination files: e1 in chess), as python-chess's
/// `clean_castling_rights` and shakmaty's standard mode do. So `K` with the
/// rook on f1, or `Qq` with rooks on f1 and a8, keep only what a standard
/// game allows (`-`, `q`). With `chess960` nothing changes: the reader has
/// already given `K`/`Q` the outermost rook and file letters their rook.
pub fn clean_castling_rights<B: BitSet>(t: &Tables<B>, pos: &mut Position<B>, chess960: bool) {
    let Some((kk, _, kf, _)) = t.castling else {
        return;
    };
    if chess960 || pos.castling.is_empty() {
        return;
    }
    let home_file = (kf[0] + kf[1]) / 2;
    let mut keep = B::EMPTY;
    for color in Color::ALL {
        let back = t.back_rank[color.index()];
        let ours = pos.by_color[color.index()] & back;
        let king = pos.by_kind[kk as usize] & pos.by_color[color.index()];
        if !(king & back).iter().any(|k| t.file(k) == home_file) {
            continue;
        }
        for r in (pos.castling & ours).iter() {
            if t.file(r) == 0 || t.file(r) == t.width - 1 {
                keep |= B::bit(r);
            }
        }
    }
    let rights = pos.castling & keep;
    pos.set_castling(rights);
}

fn parse_castling<B: BitSet>(t: &Tables<B>, pos: &Position<B>, s: &str) -> Result<B, FenError> {
    let mut rooks = B::EMPTY;
    if s == "-" {
        return Ok(rooks);
    }
    let Some((kk, rk, _, _)) = t.castling else {
        return Err(FenError::NoCastling(s.into()));
    };
    for c in s.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = t.back_rank[color.index()];
        let ours = pos.by_color[color.index()] & back;
        let king = pos.by_kind[kk as usize] & ours;
        let rook_sqs = pos.by_kind[rk as usize] & ours;
        let lc = c.to_ascii_lowercase();
        let pick = if king.is_empty() || king.more_than_one() {
            None
        } else {
            let kf = t.file(king.lsb());
            match lc {
                'k' => rook_sqs.iter().filter(|&r| t.file(r) > kf).last(),
                'q' => rook_sqs.iter().find(|&r| t.file(r) < kf),
                'a'..='p' => {
                    let f = lc as u8 - b'a';
                    if f >= t.width {
                        return Err(FenError::Castling(s.into()));
                    }
                    rook_sqs.iter().find(|&r| t.file(r) == f && f != kf)
                }
                _ => return Err(FenError::Castling(s.into())),
            }
        };
        if !c.is_ascii_alphabetic() {
            return Err(FenError::Castling(s.into()));
        }
        if let Some(r) = pick {
            rooks |= B::bit(r);
        }
    }
    Ok(rooks)
}

/// Writes the FEN of `pos`. Castling is X-FEN (`KQkq` where the rook is
/// the outermost, a file letter otherwise); `shredder` writes file letters
/// always. The en passant square is written only when `legal_ep` holds it.
pub fn write<B: BitSet>(
    def: &GameDefinition,
    t: &Tables<B>,
    pos: &Position<B>,
    legal_ep: Option<Square>,
    shredder: bool,
) -> String {
    let mut s = String::with_capacity(90);
    for r in (0..t.height).rev() {
        let mut empty = 0;
        for f in 0..t.width {
            match pos.piece_at(r * t.width + f) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let sym = def.pieces[p.kind.index()].symbol;
                    s.push(if p.color == Color::White {
                        sym
                    } else {
                        sym.to_ascii_lowercase()
                    });
                    if pos.promoted.has(r * t.width + f) {
                        s.push('~');
                    }
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r > 0 {
            s.push('/');
        }
    }
    if t.drops.is_some() {
        s.push_str(&pocket_field(def, pos));
    }
    s.push(' ');
    s.push(pos.turn.fen_char());
    s.push(' ');
    s.push_str(&castling_field(t, pos, shredder));
    s.push(' ');
    match legal_ep {
        Some(e) => {
            push_square_name(&mut s, e, t.width);
            // A victim not straight past the passed square (Berolina pawns)
            // needs the landing square too (RULINGS P27: passed, landing).
            if t.file(pos.ep_victim) != t.file(e) {
                push_square_name(&mut s, pos.ep_victim, t.width);
            }
        }
        None => s.push('-'),
    }
    if t.check_limit != 0 {
        let left = |c: usize| t.check_limit.saturating_sub(pos.checks_given[c]);
        s.push_str(&format!(" {}+{}", left(0), left(1)));
    }
    s.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    s
}

/// The pockets as lichess and python-chess write them: `[`, White's pieces
/// in upper case, Black's in lower case, each side's from the last piece
/// type to the first (`QRBNP` in chess), `]`.
pub fn pocket_field<B: BitSet>(def: &GameDefinition, pos: &Position<B>) -> String {
    let mut s = String::from("[");
    for c in Color::ALL {
        for k in (0..def.pieces.len()).rev() {
            let n = pos.pocket_count(c, PieceKind(k as u8));
            let sym = def.pieces[k].symbol;
            let sym = if c == Color::White {
                sym.to_ascii_uppercase()
            } else {
                sym.to_ascii_lowercase()
            };
            for _ in 0..n {
                s.push(sym);
            }
        }
    }
    s.push(']');
    s
}

fn castling_field<B: BitSet>(t: &Tables<B>, pos: &Position<B>, shredder: bool) -> String {
    let mut out = String::new();
    let Some((kk, rk, _, _)) = t.castling else {
        return "-".into();
    };
    for color in Color::ALL {
        let back = t.back_rank[color.index()];
        let ours = pos.by_color[color.index()] & back;
        let rights = pos.castling & ours;
        let king = pos.by_kind[kk as usize] & ours;
        if rights.is_empty() || king.is_empty() {
            continue;
        }
        let kf = t.file(king.lsb());
        let rooks = pos.by_kind[rk as usize] & ours;
        let mut letters: Vec<char> = Vec::new();
        // King side first, then queen side (K before Q), as FEN writes them.
        let mut by_file: Vec<u8> = rights.iter().collect();
        by_file.sort_by_key(|&r| std::cmp::Reverse(t.file(r)));
        for r in by_file {
            let f = t.file(r);
            let outer_k = f > kf
                && rooks
                    .iter()
                    .filter(|&x| t.file(x) > kf)
                    .all(|x| t.file(x) <= f);
            let outer_q = f < kf
                && rooks
                    .iter()
                    .filter(|&x| t.file(x) < kf)
                    .all(|x| t.file(x) >= f);
            let ch = if shredder {
                (b'a' + f) as char
            } else if outer_k {
                'k'
            } else if outer_q {
                'q'
            } else {
                (b'a' + f) as char
            };
            letters.push(ch);
        }
        for ch in letters {
            out.push(if color == Color::White {
                ch.to_ascii_uppercase()
            } else {
                ch
            });
        }
    }
    if out.is_empty() {
        "-".into()
    } else {
        out
    }
}

/// Whether `fen`'s castling field is written in standard letters only
/// (`KQkq`, `-`) and each king holding a right stands on the file its king
/// starts on in `start_fen` (both read from the board field's home ranks;
/// a rank may hold multi-digit runs on wide boards). Such rights name the
/// corner rooks (issue 11 item 3); file letters (Shredder-FEN, `Ada`) or a
/// king off its home file are Chess960 data (issue 25 § 5). The command
/// line and the session's creation requests call
/// [`Game::detect_chess960`](crate::Game::detect_chess960) when this is false.
pub fn standard_castling_letters(fen: &str, start_fen: &str) -> bool {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some(castling) = fields.get(2) else {
        return true;
    };
    if castling.chars().any(|c| !"KQkq-".contains(c)) {
        return false;
    }
    // The file of `king` on the home rank (`last`: White's, the board's
    // last rank in FEN order) of a FEN's board field.
    fn king_file(fen: &str, king: char, last: bool) -> Option<usize> {
        let board = fen.split_whitespace().next()?;
        let board = board.split('[').next()?;
        let ranks: Vec<&str> = board.split('/').collect();
        let rank = if last { ranks.last()? } else { ranks.first()? };
        let mut file = 0;
        let mut run = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            file += run;
            run = 0;
            if c == king {
                return Some(file);
            }
            if c.is_ascii_alphabetic() {
                file += 1;
            }
        }
        None
    }
    let home = |king: char, last: bool, letters: &str| {
        !castling.chars().any(|c| letters.contains(c))
            || king_file(fen, king, last)
                .is_some_and(|f| king_file(start_fen, king, last) == Some(f))
    };
    home('K', true, "KQ") && home('k', false, "kq")
}

#[cfg(test)]
mod square_name_tests {
    use super::*;

    #[test]
    fn square_names_follow_rank_times_width_plus_file() {
        // Square = rank × width + file (RULINGS G1), files from `a`, ranks
        // from 1: on 8×8, a1 = 0, h1 = 7, e4 = 3 × 8 + 4 = 28, h8 = 63.
        assert_eq!(square_name(0, 8), "a1");
        assert_eq!(square_name(7, 8), "h1");
        assert_eq!(square_name(28, 8), "e4");
        assert_eq!(square_name(63, 8), "h8");
        // 10×10: j10 = 9 × 10 + 9 = 99; a10 = 90.
        assert_eq!(square_name(99, 10), "j10");
        assert_eq!(square_name(90, 10), "a10");
        // 12 wide: rank 21 = square 20 × 12 = 240 (a21).
        assert_eq!(square_name(240, 12), "a21");
        let mut s = String::from("x");
        push_square_name(&mut s, 28, 8);
        assert_eq!(s, "xe4");
        for sq in 0..=255u8 {
            assert_eq!(parse_square(&square_name(sq, 16), 16, 16), Some(sq));
        }
    }
}
