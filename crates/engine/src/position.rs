//! The position: board, side to move, castling rights, en passant, clocks,
//! piece identities and the Zobrist hash.

use crate::bitboard::BitSet;
use crate::tables::{Tables, MAX_KINDS};
use crate::types::{Color, Move, MoveKind, Piece, PieceKind, Square};
use crate::zobrist;

/// A position of some game on bitboards of type `B`. Plain data, cheap to
/// copy (copy-make); the rules live in the [`Tables`] passed alongside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<B: BitSet> {
    pub(crate) by_color: [B; 2],
    pub(crate) by_kind: [B; MAX_KINDS],
    pub(crate) mailbox: B::Bytes,
    /// Stable piece identities: the id of the piece on each square (0: none).
    pub(crate) ids: B::Ids,
    /// Per-piece attribute byte of the piece on each square (0 on empty
    /// squares and by default; its meaning belongs to the rule layer, e.g.
    /// hit points). Moved with the piece only when the tables say the
    /// variant uses attributes ([`Tables::uses_piece_attributes`]).
    pub(crate) attrs: B::Bytes,
    /// Pieces of kinds with first-move shapes that have not moved yet.
    pub(crate) unmoved: B,
    pub(crate) turn: Color,
    /// Squares of the rooks that keep a castling right.
    pub(crate) castling: B,
    /// Squares passed over by the last multi-step that an enemy piece
    /// attacks en passant (empty when none).
    pub(crate) ep: B,
    /// The square of the piece an en passant capture removes.
    pub(crate) ep_victim: u8,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    pub(crate) next_id: u16,
    /// Per-game state slots for rule layers (e.g. the half-move within a
    /// multi-move turn, a locked result); part of the hash.
    pub(crate) rule_state: [u16; RULE_SLOTS],
    /// Pieces in hand, `[color][kind]` (drop games; all 0 elsewhere).
    pub(crate) pockets: [[u8; MAX_KINDS]; 2],
    /// Squares of pieces that reached their type by promotion (drop games:
    /// captured, they go to the hand demoted; FEN writes `~` after them).
    pub(crate) promoted: B,
    /// Checks each side has given (three-check; 0 elsewhere).
    pub(crate) checks_given: [u8; 2],
}

/// Number of per-game state slots a position carries for rule layers.
pub const RULE_SLOTS: usize = 4;

impl<B: BitSet> Position<B> {
    /// An empty board, White to move, move 1.
    pub fn empty() -> Position<B> {
        Position {
            by_color: [B::EMPTY; 2],
            by_kind: [B::EMPTY; MAX_KINDS],
            mailbox: B::ZERO_BYTES,
            ids: B::ZERO_IDS,
            attrs: B::ZERO_BYTES,
            unmoved: B::EMPTY,
            turn: Color::White,
            castling: B::EMPTY,
            ep: B::EMPTY,
            ep_victim: 0,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            next_id: 1,
            rule_state: [0; RULE_SLOTS],
            pockets: [[0; MAX_KINDS]; 2],
            promoted: B::EMPTY,
            checks_given: [0; 2],
        }
    }

    /// Checks `color` has given (games with a check limit, three-check).
    pub fn checks_given(&self, color: Color) -> u8 {
        self.checks_given[color.index()]
    }

    /// Sets the checks `color` has given, keeping the hash up to date.
    pub fn set_checks_given(&mut self, color: Color, n: u8) {
        let c = color.index();
        self.hash ^= zobrist::checks(c, self.checks_given[c]) ^ zobrist::checks(c, n);
        self.checks_given[c] = n;
    }

    /// Whether a side has given the checks that win (`t`'s check limit).
    #[inline]
    pub(crate) fn check_limit_reached(&self, t: &Tables<B>) -> bool {
        t.check_limit != 0 && self.checks_given.iter().any(|&n| n >= t.check_limit)
    }

    /// Whether a rule of the game has ended it although moves may remain
    /// (a side has given its checks, or a side has no pieces left under
    /// [`crate::definition::EndRules::no_pieces`]): there are then no
    /// legal moves. Asked only when [`Tables::stops`] is set.
    #[inline(never)]
    pub(crate) fn play_stopped(&self, t: &Tables<B>) -> bool {
        self.check_limit_reached(t) || (t.no_pieces && self.by_color.iter().any(|c| c.is_empty()))
    }

    /// How many pieces of `kind` `color` holds in hand (drop games).
    pub fn pocket_count(&self, color: Color, kind: PieceKind) -> u8 {
        self.pockets[color.index()][kind.index() % MAX_KINDS]
    }

    /// Sets how many pieces of `kind` `color` holds in hand, keeping the
    /// hash up to date (setup, rule layers).
    pub fn set_pocket_count(&mut self, color: Color, kind: PieceKind, count: u8) {
        let (c, k) = (color.index(), kind.index() % MAX_KINDS);
        self.hash ^= zobrist::pocket(c, k, self.pockets[c][k]) ^ zobrist::pocket(c, k, count);
        self.pockets[c][k] = count;
    }

    /// Whether either side holds a piece in hand.
    pub fn has_pieces_in_hand(&self) -> bool {
        self.pockets.iter().flatten().any(|&n| n > 0)
    }

    /// Squares of promoted pieces (drop games; see [`Self::set_promoted`]).
    pub fn promoted(&self) -> B {
        self.promoted
    }

    /// Marks the pieces on `squares` as promoted and every other piece as
    /// not, keeping the hash up to date (setup; FEN's `~`). Empty squares
    /// are ignored.
    pub fn set_promoted(&mut self, squares: B) {
        let squares = squares & self.occupied();
        for s in (self.promoted ^ squares).iter() {
            self.hash ^= zobrist::PROMOTED[s as usize & 127];
        }
        self.promoted = squares;
    }

    /// Adds one piece of `kind` to `color`'s hand.
    #[inline]
    fn pocket_add(&mut self, color: Color, kind: usize) {
        let (c, k) = (color.index(), kind % MAX_KINDS);
        let n = self.pockets[c][k];
        let m = n.saturating_add(1);
        self.hash ^= zobrist::pocket(c, k, n) ^ zobrist::pocket(c, k, m);
        self.pockets[c][k] = m;
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.mailbox[sq as usize])
    }
    /// The stable id of the piece on `sq` (0 when empty).
    pub fn piece_id(&self, sq: Square) -> u16 {
        self.ids[sq as usize]
    }
    /// The attribute byte of the piece on `sq` (0 when empty or at its
    /// default). Rule layers give it a meaning (the presets store hit
    /// points); it moves with the piece, is cleared when the piece is
    /// captured or removed, and is part of the hash. Moves carry it only
    /// in variants whose hooks ask for attributes
    /// ([`Tables::uses_piece_attributes`]); elsewhere it is not used.
    pub fn piece_attribute(&self, sq: Square) -> u8 {
        if (sq as usize) < B::CAPACITY {
            self.attrs[sq as usize]
        } else {
            0
        }
    }

    /// Sets the attribute byte of the piece on `sq`, keeping the hash up to
    /// date. Returns `false` (and does nothing) when `sq` is empty, so that
    /// empty squares always hold 0. Value 0 hashes to nothing: a position
    /// whose attributes are all 0 has the hash it has without attributes.
    pub fn set_piece_attribute(&mut self, sq: Square, value: u8) -> bool {
        if (sq as usize) >= B::CAPACITY || !self.occupied().has(sq) {
            return false;
        }
        self.set_attr(sq, value);
        true
    }

    #[inline]
    fn set_attr(&mut self, sq: u8, value: u8) {
        let old = self.attrs[sq as usize];
        if old != value {
            self.hash ^= zobrist::attr(sq, old) ^ zobrist::attr(sq, value);
            self.attrs[sq as usize] = value;
        }
    }

    /// Moves the attribute bytes for `m` (before the board changes): the
    /// mover's byte goes to its destination, captured pieces lose theirs.
    /// Called only for variants that use attributes.
    #[cold]
    #[inline(never)]
    fn move_attrs(&mut self, t: &Tables<B>, m: Move, victim: u8) {
        let a = self.attrs[m.from as usize];
        self.set_attr(m.from, 0);
        match m.kind {
            MoveKind::Castle => {
                let Some((_, _, kf, rf)) = t.castling else {
                    return;
                };
                let side = usize::from(t.file(m.to) > t.file(m.from));
                let rank_base = t.rank(m.from) * t.width;
                let r = self.attrs[m.to as usize];
                self.set_attr(m.to, 0);
                self.set_attr(rank_base + kf[side], a);
                self.set_attr(rank_base + rf[side], r);
            }
            MoveKind::EnPassant => {
                self.set_attr(victim, 0);
                self.set_attr(m.to, a);
            }
            MoveKind::Normal | MoveKind::DoubleStep => {
                self.set_attr(m.to, a);
            }
            MoveKind::Drop => {}
        }
    }

    /// Squares of pieces that have not moved yet (kinds with first-move
    /// shapes: pawns' double step).
    pub fn unmoved_squares(&self) -> B {
        self.unmoved
    }

    /// Sets which pieces count as unmoved (setup, e.g. from the JSON state
    /// format; RULINGS G5). Squares that hold no piece are ignored.
    pub fn set_unmoved_squares(&mut self, unmoved: B) {
        self.set_unmoved(unmoved & self.occupied());
    }

    /// Gives the piece on `sq` the stable id `id` (setup). Returns `false`
    /// when `sq` is empty or `id` is 0. Fresh ids handed out later start
    /// above every id set this way.
    pub fn set_piece_id(&mut self, sq: Square, id: u16) -> bool {
        if id == 0 || (sq as usize) >= B::CAPACITY || !self.occupied().has(sq) {
            return false;
        }
        self.ids[sq as usize] = id;
        if id >= self.next_id {
            self.next_id = id.wrapping_add(1).max(1);
        }
        true
    }

    /// The square of the piece an en passant capture would remove, when an
    /// en passant square is open.
    pub fn ep_victim(&self) -> Option<Square> {
        if self.ep.any() {
            Some(self.ep_victim)
        } else {
            None
        }
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }
    /// Squares of `color`'s pieces.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> B {
        self.by_color[color.index()]
    }
    /// Squares of pieces of `kind`, both colours.
    #[inline(always)]
    pub fn by_kind(&self, kind: PieceKind) -> B {
        self.by_kind[kind.index()]
    }
    /// Side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// Half-move clock (FIDE Laws 9.3).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    /// Full-move number.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// Zobrist hash of board, side to move, castling rights, en passant
    /// square, unmoved first-move pieces, rule-state slots and piece
    /// attributes (the last two hash to nothing while 0).
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// A rule-layer state slot (`slot < RULE_SLOTS`; 0 by default).
    pub fn rule_state(&self, slot: usize) -> u16 {
        self.rule_state[slot % RULE_SLOTS]
    }

    /// Sets a rule-layer state slot, keeping the hash up to date.
    pub fn set_rule_state(&mut self, slot: usize, value: u16) {
        let slot = slot % RULE_SLOTS;
        self.hash ^= zobrist::rule_state(slot, self.rule_state[slot]);
        self.rule_state[slot] = value;
        self.hash ^= zobrist::rule_state(slot, value);
    }

    /// Squares of rooks with castling rights.
    pub fn castling_rooks(&self) -> B {
        self.castling
    }

    /// Drops the castling rights of the rooks on `squares`, keeping the
    /// hash up to date (rule layers: a king that was displaced or removed
    /// by a rule rather than by its own move).
    pub fn remove_castling_rights(&mut self, squares: B) {
        if (self.castling & squares).any() {
            self.set_castling(self.castling & !squares);
        }
    }
    /// En passant squares (squares passed over by the last multi-step, when
    /// a capture there is possible).
    pub fn ep_squares(&self) -> B {
        self.ep
    }

    #[inline(always)]
    pub(crate) fn pieces_of(&self, kinds: u32, color: Color) -> B {
        let mut b = B::EMPTY;
        let mut m = kinds;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            b |= self.by_kind[k];
        }
        b & self.by_color[color.index()]
    }

    /// Places a piece (square must be empty). Updates the hash.
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: u8, p: Piece, id: u16) {
        let b = B::bit(sq);
        self.by_color[p.color.index()] |= b;
        self.by_kind[p.kind.index()] |= b;
        self.mailbox[sq as usize] = p.code();
        self.ids[sq as usize] = id;
        self.hash ^= zobrist::piece(p.kind.0, p.color as u8, sq);
    }

    /// Removes the piece on `sq` and returns it with its id.
    #[inline(always)]
    pub(crate) fn take(&mut self, sq: u8) -> Option<(Piece, u16)> {
        let p = Piece::from_code(self.mailbox[sq as usize])?;
        let b = B::bit(sq);
        self.by_color[p.color.index()] ^= b;
        self.by_kind[p.kind.index()] ^= b;
        self.mailbox[sq as usize] = 0;
        let id = self.ids[sq as usize];
        self.ids[sq as usize] = 0;
        self.hash ^= zobrist::piece(p.kind.0, p.color as u8, sq);
        if self.unmoved.has(sq) {
            self.unmoved ^= b;
            self.hash ^= zobrist::UNMOVED[sq as usize];
        }
        if self.castling.has(sq) {
            self.castling ^= b;
            self.hash ^= zobrist::CASTLING[sq as usize];
        }
        Some((p, id))
    }

    /// Adds a piece with a fresh id (setup).
    pub(crate) fn add_new(&mut self, sq: u8, p: Piece) {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        self.put(sq, p, id);
    }

    pub(crate) fn set_ep(&mut self, ep: B, victim: u8) {
        for s in self.ep.iter() {
            self.hash ^= zobrist::EN_PASSANT[s as usize];
        }
        self.ep = ep;
        self.ep_victim = victim;
        for s in ep.iter() {
            self.hash ^= zobrist::EN_PASSANT[s as usize];
        }
    }

    pub(crate) fn set_castling(&mut self, rooks: B) {
        for s in (self.castling ^ rooks).iter() {
            self.hash ^= zobrist::CASTLING[s as usize];
        }
        self.castling = rooks;
    }

    pub(crate) fn set_unmoved(&mut self, unmoved: B) {
        for s in (self.unmoved ^ unmoved).iter() {
            self.hash ^= zobrist::UNMOVED[s as usize];
        }
        self.unmoved = unmoved;
    }

    pub(crate) fn set_turn(&mut self, turn: Color) {
        if turn != self.turn {
            self.hash ^= zobrist::BLACK_TO_MOVE;
            self.turn = turn;
        }
    }

    /// Recomputes the hash from scratch (used after setup and in tests).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in self.occupied().iter() {
            let p = self.piece_at(sq).expect("occupied");
            h ^= zobrist::piece(p.kind.0, p.color as u8, sq);
        }
        for s in self.castling.iter() {
            h ^= zobrist::CASTLING[s as usize];
        }
        for s in self.ep.iter() {
            h ^= zobrist::EN_PASSANT[s as usize];
        }
        for s in self.unmoved.iter() {
            h ^= zobrist::UNMOVED[s as usize];
        }
        if self.turn == Color::Black {
            h ^= zobrist::BLACK_TO_MOVE;
        }
        for (slot, &v) in self.rule_state.iter().enumerate() {
            h ^= zobrist::rule_state(slot, v);
        }
        for sq in self.occupied().iter() {
            h ^= zobrist::attr(sq, self.attrs[sq as usize]);
        }
        for (c, hand) in self.pockets.iter().enumerate() {
            for (k, &n) in hand.iter().enumerate() {
                h ^= zobrist::pocket(c, k, n);
            }
        }
        for s in self.promoted.iter() {
            h ^= zobrist::PROMOTED[s as usize & 127];
        }
        for (c, &n) in self.checks_given.iter().enumerate() {
            h ^= zobrist::checks(c, n);
        }
        h
    }

    /// Removes the piece on `sq` (rule layers: explosions, fission, …).
    /// Castling rights and unmoved state of the square go with it.
    pub fn remove_piece(&mut self, sq: Square) -> Option<Piece> {
        let (p, _) = self.take(sq)?;
        self.set_attr(sq, 0);
        Some(p)
    }

    /// Puts `piece` with the stable id `id` and attribute byte `attr` on
    /// the empty square `sq` (rule layers: a piece that a move displaced
    /// rather than captured, e.g. a defender pushed aside under hit
    /// points). Returns `false` (and does nothing) when the square is
    /// occupied or off the board, the kind is unknown or `id` is 0.
    pub fn place_piece(
        &mut self,
        t: &Tables<B>,
        sq: Square,
        piece: Piece,
        id: u16,
        attr: u8,
    ) -> bool {
        if id == 0
            || sq as usize >= t.squares
            || self.occupied().has(sq)
            || piece.kind.index() >= t.n_kinds
        {
            return false;
        }
        self.put(sq, piece, id);
        self.set_attr(sq, attr);
        if id >= self.next_id {
            self.next_id = id.wrapping_add(1).max(1);
        }
        true
    }

    /// Puts a new piece with a fresh id on an empty square (rule layers).
    /// Returns `false` (and does nothing) when the square is occupied or
    /// off the board.
    pub fn add_piece(&mut self, t: &Tables<B>, sq: Square, piece: Piece) -> bool {
        if sq as usize >= t.squares || self.occupied().has(sq) || piece.kind.index() >= t.n_kinds {
            return false;
        }
        self.add_new(sq, piece);
        true
    }

    /// Moves the piece on `from` to the empty square `to`, keeping its id.
    /// Returns `false` when `from` is empty or `to` is occupied.
    pub fn relocate_piece(&mut self, from: Square, to: Square) -> bool {
        if self.occupied().has(to) {
            return false;
        }
        let a = self.piece_attribute(from);
        match self.take(from) {
            Some((p, id)) => {
                self.put(to, p, id);
                self.set_attr(from, 0);
                self.set_attr(to, a);
                true
            }
            None => false,
        }
    }

    /// Changes the piece on `sq` in place (type and/or colour), keeping its
    /// stable id (rule layers: conversions). The square loses its castling
    /// right and unmoved state. Returns `false` when `sq` is empty or the
    /// kind is not in the game.
    pub fn convert_piece(&mut self, t: &Tables<B>, sq: Square, piece: Piece) -> bool {
        if piece.kind.index() >= t.n_kinds {
            return false;
        }
        match self.take(sq) {
            Some((_, id)) => {
                self.put(sq, piece, id);
                true
            }
            None => false,
        }
    }

    /// Swaps the pieces on `a` and `b`, each keeping its stable id and its
    /// attribute byte (rule layers: swaps; hit points travel with their
    /// pieces, issue 25 § 5). Returns `false` when either square is empty.
    pub fn swap_pieces(&mut self, a: Square, b: Square) -> bool {
        if a == b || self.piece_at(a).is_none() || self.piece_at(b).is_none() {
            return false;
        }
        let (xa, xb) = (self.piece_attribute(a), self.piece_attribute(b));
        let (pa, ia) = self.take(a).expect("checked");
        let (pb, ib) = self.take(b).expect("checked");
        self.put(b, pa, ia);
        self.put(a, pb, ib);
        self.set_attr(a, xb);
        self.set_attr(b, xa);
        true
    }

    /// The id the next new piece will get.
    pub fn next_piece_id(&self) -> u16 {
        self.next_id
    }

    /// Sets the id the next new piece will get (restoring a saved game).
    pub fn set_next_piece_id(&mut self, id: u16) {
        self.next_id = id.max(1);
    }

    /// Clears the en passant squares (rule layers: board rewrites,
    /// modifier-rulings C6).
    pub fn clear_en_passant(&mut self) {
        self.set_ep(B::EMPTY, 0);
    }

    /// Sets the half-move clock to 0 (rule layers: board rewrites, C6).
    pub fn reset_halfmove_clock(&mut self) {
        self.halfmove = 0;
    }

    /// A skipped turn (modifier-rulings A5): the other side moves, en
    /// passant is cleared, and the full-move number goes up when Black was
    /// the side skipped. The half-move clock is unchanged.
    pub fn skip_turn(&mut self) {
        self.clear_en_passant();
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.set_turn(self.turn.flip());
    }

    /// Hands the move to `color` (rule layers: multi-move turns).
    pub fn set_side_to_move(&mut self, color: Color) {
        self.set_turn(color);
    }

    /// Royal pieces of `color`.
    #[inline(always)]
    pub fn royals(&self, t: &Tables<B>, color: Color) -> B {
        self.pieces_of(t.royal_kinds, color)
    }

    /// Pieces of `by` that attack `sq` when the board holds `occ`.
    #[inline]
    pub fn attackers_to(&self, t: &Tables<B>, sq: u8, occ: B, by: Color) -> B {
        let c = by.index();
        let theirs = self.by_color[c] & occ;
        let mut att = B::EMPTY;
        let mut m = t.leap_attackers[c];
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            att |= t.kinds[c][k].rev_leap_attacks[sq as usize] & self.by_kind[k];
        }
        if let Some(mg) = t.magic {
            let o = occ.to_u64();
            let rl = self.pieces_of(t.rook_like[c], by);
            if rl.any() {
                att |= B::from_u64(mg.rook(sq, o)) & rl;
            }
            let bl = self.pieces_of(t.bishop_like[c], by);
            if bl.any() {
                att |= B::from_u64(mg.bishop(sq, o)) & bl;
            }
        }
        for ar in &t.attack_rays[c] {
            let p = self.pieces_of(ar.kinds, by);
            if p.any() {
                att |= if ar.path {
                    t.paths[ar.ray as usize].attackers(sq, occ, p)
                } else {
                    t.rays[ar.ray as usize].attacks(sq, occ) & p
                };
            }
        }
        att & theirs
    }

    /// Whether `sq` is attacked by `by` over `occ` (early exit; pieces of
    /// `by` not in `occ` do not attack).
    #[inline]
    pub fn is_attacked(&self, t: &Tables<B>, sq: u8, occ: B, by: Color) -> bool {
        let c = by.index();
        let theirs = self.by_color[c] & occ;
        if self.leap_attacked(t, sq, theirs, c) {
            return true;
        }
        if let Some(mg) = t.magic {
            let o = occ.to_u64();
            let rl = self.pieces_of(t.rook_like[c], by) & theirs;
            if rl.any() && (B::from_u64(mg.rook(sq, o)) & rl).any() {
                return true;
            }
            let bl = self.pieces_of(t.bishop_like[c], by) & theirs;
            if bl.any() && (B::from_u64(mg.bishop(sq, o)) & bl).any() {
                return true;
            }
        }
        for ar in &t.attack_rays[c] {
            let p = self.pieces_of(ar.kinds, by) & theirs;
            if p.any() {
                let hit = if ar.path {
                    t.paths[ar.ray as usize].attackers(sq, occ, p)
                } else {
                    t.rays[ar.ray as usize].attacks(sq, occ) & p
                };
                if hit.any() {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a leap of one of `theirs` (pieces of colour index `c`)
    /// reaches `sq`.
    #[inline(always)]
    pub(crate) fn leap_attacked(&self, t: &Tables<B>, sq: u8, theirs: B, c: usize) -> bool {
        let mut m = t.leap_attackers[c];
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            if (t.hot[c][k & 15].rev_leap_attacks[sq as usize & 127] & self.by_kind[k] & theirs)
                .any()
            {
                return true;
            }
        }
        false
    }

    /// Whether any royal piece of the side to move is attacked.
    pub fn is_check(&self, t: &Tables<B>) -> bool {
        let occ = self.occupied();
        self.royals(t, self.turn)
            .iter()
            .any(|s| self.is_attacked(t, s, occ, self.turn.flip()))
    }

    /// Plays `m`, assumed legal (or at least pseudo-legal), by the side to
    /// move. Updates clocks, castling rights, en passant and the hash.
    #[inline]
    pub fn play_unchecked(&mut self, t: &Tables<B>, m: Move) {
        if !t.special_play && matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep) {
            self.play_simple(t, m);
        } else {
            // Drop games branch inside `play_special`, so that this
            // function (inlined wherever a move is played) stays as it was
            // without drops.
            self.play_special(t, m);
        }
    }

    /// [`Self::play_unchecked`] for a move of one piece (a capture on its
    /// destination, a promotion or a double step included) in a variant
    /// without piece attributes: the most common move, with every board
    /// update done once (both squares' unmoved and castling bits together,
    /// the hash kept in a register) and no bounds checks (squares are
    /// masked to the board type's capacity). Equivalent to
    /// [`Self::play_special`] on these moves (tested in `tests/perft.rs`
    /// through every perft suite, which plays them all).
    #[inline(always)]
    fn play_simple(&mut self, t: &Tables<B>, m: Move) {
        let cap_mask = B::CAPACITY - 1;
        let (from, to) = (m.from as usize & cap_mask, m.to as usize & cap_mask);
        let code = self.mailbox[from];
        if code == 0 {
            return;
        }
        let us = self.turn;
        let them = us.flip();
        // Mailbox code: kind * 2 + colour + 1 (see `Piece::code`).
        let pc = (code - 1) as usize & 31;
        let kind = pc >> 1;
        let landed = match m.promotion {
            Some(k) => (k.0 as usize * 2 + us as usize) & 31,
            None => pc,
        };
        let (fb, tb) = (B::bit(from as u8), B::bit(to as u8));
        let mut h =
            self.hash ^ zobrist::PIECE[(pc << 7) | from] ^ zobrist::PIECE[(landed << 7) | to];
        self.by_color[pc & 1] ^= fb;
        self.by_color[landed & 1] ^= tb;
        self.by_kind[kind & 15] ^= fb;
        self.by_kind[(landed >> 1) & 15] ^= tb;
        let victim = self.mailbox[to];
        self.mailbox[from] = 0;
        self.mailbox[to] = landed as u8 + 1;
        let id = self.ids[from];
        self.ids[from] = 0;
        self.ids[to] = id;
        let mut reset = t.pawn_kinds & (1 << kind) != 0;
        if victim != 0 {
            let vc = (victim - 1) as usize & 31;
            self.by_color[vc & 1] ^= tb;
            self.by_kind[(vc >> 1) & 15] ^= tb;
            h ^= zobrist::PIECE[(vc << 7) | to];
            reset = true;
        }
        // Both squares lose their unmoved state and castling rights (the
        // mover leaves one, a captured piece the other).
        let touched = fb | tb;
        let um = self.unmoved & touched;
        if um.any() {
            for s in um.iter() {
                h ^= zobrist::UNMOVED[s as usize & 127];
            }
            self.unmoved ^= um;
        }
        let mut lost = self.castling & touched;
        // A castling king that moves loses both rights (FIDE 3.8.2.1).
        if let Some((king, _, _, _)) = t.castling {
            if kind == king as usize {
                lost |= self.castling & t.back_rank[us.index()];
            }
        }
        if lost.any() {
            for s in lost.iter() {
                h ^= zobrist::CASTLING[s as usize & 127];
            }
            self.castling ^= lost;
        }
        if self.ep.any() {
            for s in self.ep.iter() {
                h ^= zobrist::EN_PASSANT[s as usize & 127];
            }
            self.ep = B::EMPTY;
            self.ep_victim = 0;
        }
        self.hash = h ^ zobrist::BLACK_TO_MOVE;
        self.turn = them;
        self.halfmove = if reset {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        if m.kind == MoveKind::DoubleStep {
            self.open_en_passant(t, m, them);
        }
    }

    /// Makes `self`, a copy of `parent` on which `m` was then played with
    /// [`Self::play_unchecked`], equal to `parent` again, copying back
    /// only what that move changed when it took the simple path (the
    /// colour sets, the sets of the kinds involved, two squares' mailbox
    /// and ids, the small state), else everything. Perft uses it to play
    /// every move of a node on one copy instead of copying a whole
    /// position per move.
    #[inline(always)]
    pub(crate) fn restore_from(&mut self, t: &Tables<B>, parent: &Position<B>, m: Move) {
        if t.special_play || !matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep) {
            *self = *parent;
            return;
        }
        let cap_mask = B::CAPACITY - 1;
        let (from, to) = (m.from as usize & cap_mask, m.to as usize & cap_mask);
        // Kinds of the mover, of what landed and of a captured piece (a
        // set restored needlessly is restored to what it was anyway).
        let kind_of = |code: u8| (code.wrapping_sub(1) as usize >> 1) & 15;
        self.by_kind[kind_of(parent.mailbox[from])] = parent.by_kind[kind_of(parent.mailbox[from])];
        self.by_kind[kind_of(parent.mailbox[to])] = parent.by_kind[kind_of(parent.mailbox[to])];
        self.by_kind[kind_of(self.mailbox[to])] = parent.by_kind[kind_of(self.mailbox[to])];
        self.by_color = parent.by_color;
        self.mailbox[from] = parent.mailbox[from];
        self.mailbox[to] = parent.mailbox[to];
        self.ids[from] = parent.ids[from];
        self.ids[to] = parent.ids[to];
        self.unmoved = parent.unmoved;
        self.turn = parent.turn;
        self.castling = parent.castling;
        self.ep = parent.ep;
        self.ep_victim = parent.ep_victim;
        self.halfmove = parent.halfmove;
        self.fullmove = parent.fullmove;
        self.hash = parent.hash;
        debug_assert!(self == parent, "restore_from missed a change of {m:?}");
    }

    /// [`Self::play_unchecked`] in a game with drops: a drop takes a piece
    /// from the mover's hand; a capture puts the captured piece in the
    /// mover's hand with the mover's colour (demoted when it had promoted,
    /// not at all when its kind cannot be held); promoted marks move with
    /// their pieces. python-chess's `CrazyhouseBoard.push`: a drop counts
    /// toward the half-move clock like a quiet move, pawn drops included.
    #[inline(never)]
    fn play_pocket(&mut self, t: &Tables<B>, m: Move) {
        let Some(d) = t.drops.as_deref() else {
            return self.play_board(t, m);
        };
        let us = self.turn;
        if m.kind == MoveKind::Drop {
            let Some(k) = m.promotion else { return };
            let (c, ki) = (us.index(), k.index() % MAX_KINDS);
            let n = self.pockets[c][ki];
            if n == 0 || self.occupied().has(m.to) {
                return;
            }
            self.hash ^= zobrist::pocket(c, ki, n) ^ zobrist::pocket(c, ki, n - 1);
            self.pockets[c][ki] = n - 1;
            self.add_new(m.to, Piece { kind: k, color: us });
            // A piece dropped on one of its initial squares has its first
            // move (a pawn dropped on its second rank may double-step, as
            // in python-chess and Fairy-Stockfish).
            if t.first_move_kinds & (1 << (ki & 31)) != 0 && t.kinds[c][ki].initial.has(m.to) {
                self.set_unmoved(self.unmoved | B::bit(m.to));
            }
            if t.piece_attrs {
                self.set_attr(m.to, 0);
            }
            if self.ep.any() {
                self.set_ep(B::EMPTY, 0);
            }
            self.halfmove = self.halfmove.saturating_add(1);
            if us == Color::Black {
                self.fullmove = self.fullmove.saturating_add(1);
            }
            self.set_turn(us.flip());
            return;
        }
        let victim_sq = match m.kind {
            MoveKind::EnPassant => Some(self.ep_victim),
            MoveKind::Castle => None,
            _ => Some(m.to),
        };
        let victim = victim_sq.and_then(|s| {
            self.piece_at(s)
                .filter(|p| p.color != us)
                .map(|p| (p, self.promoted.has(s)))
        });
        let mover_promoted = self.promoted.has(m.from);
        let mut marks = self.promoted & !B::bit(m.from);
        if let Some(s) = victim_sq {
            marks &= !B::bit(s);
        }
        if mover_promoted || (m.promotion.is_some() && m.kind != MoveKind::Castle) {
            marks |= B::bit(m.to);
        }
        // Clear the marks before the board changes (they name squares).
        for s in (self.promoted & !marks).iter() {
            self.hash ^= zobrist::PROMOTED[s as usize & 127];
        }
        self.promoted &= marks;
        self.play_board(t, m);
        for s in (marks & !self.promoted).iter() {
            self.hash ^= zobrist::PROMOTED[s as usize & 127];
        }
        self.promoted = marks;
        if let Some((p, was_promoted)) = victim {
            let k = if was_promoted {
                d.demote_to as usize
            } else {
                p.kind.index()
            };
            if d.hand & (1 << k) != 0 {
                self.pocket_add(us, k);
            }
        }
    }

    /// [`Self::play_unchecked`] for castling, en passant, every move of a
    /// variant with piece attributes, and every move of a drop game
    /// ([`Self::play_pocket`]).
    #[inline(never)]
    fn play_special(&mut self, t: &Tables<B>, m: Move) {
        let us = self.turn;
        if t.drops.is_some() {
            self.play_pocket(t, m);
        } else {
            self.play_board(t, m);
        }
        // Three-check: a move that leaves the opponent in check counts
        // (python-chess's `ThreeCheckBoard.push`).
        if t.check_limit != 0 && self.is_check(t) {
            let n = self.checks_given[us.index()].saturating_add(1);
            self.set_checks_given(us, n);
        }
    }

    /// The board side of [`Self::play_special`]: the move itself, without
    /// pockets.
    #[inline(always)]
    fn play_board(&mut self, t: &Tables<B>, m: Move) {
        let us = self.turn;
        let them = us.flip();
        let (piece, id) = match self.take(m.from) {
            Some(x) => x,
            None => return,
        };
        let mut reset = t.pawn_kinds & (1 << piece.kind.0) != 0;
        let victim = self.ep_victim;
        if t.piece_attrs {
            self.move_attrs(t, m, victim);
        }
        if self.ep.any() {
            self.set_ep(B::EMPTY, 0);
        }
        match m.kind {
            MoveKind::Castle => {
                let (_, _, kf, rf) = t.castling.expect("castling move without castling rules");
                let side = usize::from(t.file(m.to) > t.file(m.from));
                let rank_base = t.rank(m.from) * t.width;
                let rook = self.take(m.to);
                self.put(rank_base + kf[side], piece, id);
                if let Some((rp, rid)) = rook {
                    self.put(rank_base + rf[side], rp, rid);
                }
            }
            // Drops are played by `play_pocket`; without drop rules a drop
            // puts nothing on the board.
            MoveKind::Drop => {}
            MoveKind::EnPassant => {
                self.take(victim);
                reset = true;
                self.put(m.to, piece, id);
            }
            MoveKind::Normal | MoveKind::DoubleStep => {
                if self.take(m.to).is_some() {
                    reset = true;
                }
                let landed = match m.promotion {
                    Some(k) => Piece { kind: k, color: us },
                    None => piece,
                };
                self.put(m.to, landed, id);
                if m.kind == MoveKind::DoubleStep {
                    self.open_en_passant(t, m, them);
                }
            }
        }
        // A castling king that moves loses both rights (FIDE 3.8.2.1).
        if let Some((king, _, _, _)) = t.castling {
            if piece.kind.0 == king {
                let lost = self.castling & t.back_rank[us.index()];
                if lost.any() {
                    self.set_castling(self.castling & !lost);
                }
            }
        }
        self.halfmove = if reset {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.set_turn(them);
    }

    /// After a multi-step, records the passed squares as en passant squares
    /// when some enemy piece attacks one of them en passant. Kept out of
    /// line: inlined into `play_unchecked` it costs the common move more
    /// than the call saves (callgrind, Kiwipete perft 3).
    #[inline(never)]
    fn open_en_passant(&mut self, t: &Tables<B>, m: Move, them: Color) {
        if t.ep_kinds == 0 {
            return;
        }
        // On rank, file and diagonal lines the magic `between` table holds
        // the passed squares; other lines are walked.
        let passed = match t.magic {
            Some(mg) if mg.ray(m.from, m.to) != 0 => B::from_u64(mg.between(m.from, m.to)),
            _ => passed_squares(t, m.from, m.to),
        };
        if passed.is_empty() {
            return;
        }
        let c = them.index();
        let mut hit = false;
        let mut mk = t.ep_kinds;
        while mk != 0 && !hit {
            let k = mk.trailing_zeros() as usize;
            mk &= mk - 1;
            let mine = self.by_kind[k] & self.by_color[c];
            if mine.is_empty() {
                continue;
            }
            for s in passed.iter() {
                if (t.kinds[c][k].rev_leap_ep[s as usize] & mine).any() {
                    hit = true;
                    break;
                }
            }
        }
        if hit {
            self.set_ep(passed, m.to);
        }
    }
}

/// Squares strictly between `from` and `to` on a straight line (rank, file,
/// diagonal, or any multiple of a primitive vector).
pub(crate) fn passed_squares<B: BitSet>(t: &Tables<B>, from: u8, to: u8) -> B {
    let (ff, fr) = (t.file(from) as i32, t.rank(from) as i32);
    let (tf, tr) = (t.file(to) as i32, t.rank(to) as i32);
    let (mut dx, dy) = (tf - ff, tr - fr);
    if t.wrap_files && 2 * dx.abs() > t.width as i32 {
        // On a cylinder the short way round is the move (a Berolina double
        // step across the side edge: a2-h3-g4 passes h3).
        dx -= dx.signum() * t.width as i32;
    }
    let g = gcd(dx.abs(), dy.abs());
    if g <= 1 {
        return B::EMPTY;
    }
    let (sx, sy) = (dx / g, dy / g);
    let mut b = B::EMPTY;
    for i in 1..g {
        let f = (ff + sx * i).rem_euclid(t.width as i32);
        b |= B::bit(((fr + sy * i) * t.width as i32 + f) as u8);
    }
    b
}

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
