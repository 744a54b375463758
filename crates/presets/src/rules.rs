//! Playing a rule set: the definition transforms and the rule hooks.
//!
//! # Composition order
//! 1. The layout gives the start position (the first preset in registry
//!    order that names a preferred layout chooses it when none is given).
//! 2. Definition transforms run in registry order ([`crate::registry::PRESETS`]):
//!    royalty and objectives, then piece shapes, then castling removal.
//!    Board geometry comes last: `wrap-board`, `rook-warp` and
//!    `bouncing-pieces(-2)` set the [`Edge`] of the shapes the other presets
//!    left (every shape, the rook's rides, the bishop's and queen's
//!    diagonal rides), so the engine compiles moves and attacks along the
//!    same paths (RULINGS P1; docs/board-topology.md).
//! 3. A single-colour `scope` (Berolina) marks shapes with
//!    [`Shape::only`]: one colour's pawns get the Berolina shapes, the
//!    other's keep FIDE's.
//! 4. One [`PresetHooks`] object carries every hook; inside each hook the
//!    rules apply in registry order: after a move, the `piece-hp` capture
//!    resolution (damage, push) comes first, then fission and detonation
//!    (by the piece that moved), then early promotion, then the locked
//!    results (capture-to-win, first-promotion-wins), then the multi-move
//!    turn phase, and last, when the mover's turn ends, poison and then
//!    healing (RULINGS P7).
//!
//! # Hit points (RULINGS P6, P7, P13)
//! Under `piece-hp` each piece's hit points live in its engine attribute
//! byte (see [`hit_points`]): they move with the piece, are hashed and
//! restored by undo. Decisions where the spec is silent:
//! - The pushed defender's square is chosen on the board after the move,
//!   where the square the attacker left is empty (as P12 rules for
//!   fission); it keeps its id and loses its castling right and unmoved
//!   state (it has moved). A pushed pawn never promotes by being pushed.
//! - A king that is hit (pushed or killed) costs its side its castling
//!   rights; so does losing the king in any other way (capture under
//!   capture-all, explosion, poison), so that the hash matches the FEN.
//! - A promoted piece keeps the pawn's hit points (also under
//!   early-promotion); the halves of a queen that splits keep the queen's.
//! - A royal with 2 HP or more may also castle out of or through attacked
//!   squares (P6: it may stand attacked).
//! - "After the move" in P6 includes the turn-end effects: a move that ends
//!   the turn with a 1-HP royal attacked is illegal, and a move whose
//!   poison kills the mover's last royal is legal and loses (as P8 rules
//!   for explosions).
//! - Poison applies to the board's centre ([`centre_squares`]: d4, d5,
//!   e4, e5 on 8×8, c3 on 5×5).
//!
//! # State in the position
//! Rule-state slot [`SLOT_PHASE`] holds the half-move within a multi-move
//! turn (0 or 1); slot [`SLOT_RESULT`] holds a locked result
//! (`reason << 2 | winner`, winner 1 = White, 2 = Black). Both are hashed
//! and restored by undo (they live in the position).
//!
//! # Terminal positions
//! When a rule has decided the game, the position has no legal moves (as in
//! Fairy-Stockfish, whose perft counts the tsv rows come from), and
//! [`houserules_engine::Game::status`] reports the result through
//! `game_result`, as `Status::Variant` with a reason that says why the game
//! ended: `checkmate`, `stalemate`, `no-legal-moves` (suicide-chess and
//! last-piece-standing, where the side without moves wins or loses),
//! `no-pieces-left` (suicide-chess), `all-pieces-captured` (capture-all,
//! last-piece-standing), `no-knights-left` (knightmate-rules),
//! `no-kings-left` (weak-dual-king), `royal-destroyed` (explosive-rook,
//! piece-hp), `<kind>s-extinct` such as `pawns-extinct`
//! (extinction-chess), `first-capture` (capture-to-win), `first-promotion`
//! (first-promotion-wins) and `insufficient-material` (the rule set's
//! dead-position rule, [`crate::dead`]: lichess's under suicide-chess,
//! bare kings under capture-to-win).
//!
//! A start position where both sides already lack what the rules need
//! (knights under knightmate-rules, kings under weak-dual-king, the target
//! under extinction-chess, any piece under capture-all and
//! last-piece-standing) is refused when read (`FenError::Rules`): it cannot
//! arise in play, and scoring it would pick a loser arbitrarily.

use houserules_engine::definition::{
    Direction, Edge, EnPassantRole, Reach, Role, Shape, ShapeMode,
};
use houserules_engine::hooks::{HookProfile, HookResult, ListRule, Royalty, RuleHooks};
use houserules_engine::{
    BitSet, Color, GameDefinition, Move, MoveKind, Piece, PieceKind, Position, Tables, Variant,
};

use crate::dead::{self, DeadRule};
use crate::error::PresetError;
use crate::layout::Layout;
use crate::needs::{self, Kinds};
use crate::ruleset::RuleSet;

/// Rule-state slot: the half-move within a multi-move turn.
pub const SLOT_PHASE: usize = 0;
/// Rule-state slot: a locked result.
pub const SLOT_RESULT: usize = 1;

const PAWN: u8 = 0;
const KNIGHT: u8 = 1;
const BISHOP: u8 = 2;
const ROOK: u8 = 3;
const QUEEN: u8 = 4;
const KING: u8 = 5;

/// Reasons stored in [`SLOT_RESULT`] (index = the stored code), as the
/// game status names them.
const LOCK_REASONS: [&str; 2] = ["first-capture", "first-promotion"];

/// Plural names of the six FIDE kinds, for status reasons and messages.
const KIND_NAMES: [&str; 6] = ["pawns", "knights", "bishops", "rooks", "queens", "kings"];

/// Why the rules decided a game ([`PresetHooks::verdict`]).
#[derive(Clone, Copy, Debug)]
enum Why {
    /// A locked result (its code in [`SLOT_RESULT`]).
    Lock(u16),
    AllCaptured,
    NoKnights,
    NoKings,
    RoyalDestroyed,
    /// The kind (kind index) that is gone.
    Extinct(u8),
}

/// The extinction target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// One piece kind (FIDE kind index).
    Kind(u8),
    /// Every piece kind of the game.
    Any,
}

/// The hooks of a rule set (see the module documentation for the order).
#[derive(Clone, Debug)]
pub struct PresetHooks {
    suicide: bool,
    capture_all: bool,
    last_piece: bool,
    knightmate: bool,
    weak_dual: bool,
    god_kings: bool,
    capture_to_win: bool,
    extinction: Option<Target>,
    first_promo: bool,
    sprint: bool,
    diag_quiet: bool,
    knights_twice: bool,
    knight_immunity: bool,
    no_castling: bool,
    queen_splits: bool,
    explosive: bool,
    early_promo: bool,
    doubles: [bool; 2],
    /// `wrap-board`: adjacency for fission and detonation wraps too.
    wrap: bool,
    piece_hp: bool,
    king_heals: bool,
    poison: bool,
    /// The definition keeps castling (castling rights can exist).
    castles: bool,
    /// `dual-king`: two royal kings a side (a typed position may have them).
    dual_king: bool,
    /// The game's kinds for the FIDE roles the presets name.
    k: Kinds,
    /// The king's destination files when castling `[queen side, king
    /// side]` (FIDE: c and g).
    castle_files: [u8; 2],
    /// The rook's destination files when castling (FIDE: d and f).
    rook_files: [u8; 2],
    /// The poisoned squares of `poisoned-squares` on this board.
    poisoned: Vec<u8>,
    /// What a double-step sprint onto the last rank promotes to.
    promos: Vec<PieceKind>,
    /// lichess Antichess's insufficient-material draw applies
    /// ([`DeadRule::Antichess`]).
    antichess_dead: bool,
    /// Only kings left is a draw ([`DeadRule::BareKings`]).
    bare_kings_dead: bool,
    /// How many piece kinds the game has (`extinction-chess:target=any`
    /// counts every one of them).
    n_kinds: u8,
    /// Plural names of the game's kinds for status reasons (`pawns`,
    /// `archbishops`), by kind index.
    kind_names: Vec<String>,
}

/// Hit points of a king at the start (RULINGS P6).
pub const KING_START_HP: u8 = 1;
/// Hit points of every other piece at the start (RULINGS P6).
pub const PIECE_START_HP: u8 = 2;
/// The most hit points `king-heals` gives a king (RULINGS P7).
pub const KING_MAX_HP: u8 = 3;
/// The poisoned squares of `poisoned-squares` on 8×8: d4, e4, d5, e5
/// (RULINGS G1 numbering).
pub const POISONED: [u8; 4] = [27, 28, 35, 36];
/// Clockwise from N (RULINGS G1): the order in which a defender looks for
/// a square to be pushed to (P6) and fission looks for the bishop's square.
const CLOCKWISE: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The hit points a piece of `kind` starts with under `piece-hp`: a king 1,
/// every other piece 2 (RULINGS P6).
pub fn start_hp(kind: PieceKind) -> u8 {
    if kind.0 == KING {
        KING_START_HP
    } else {
        PIECE_START_HP
    }
}

/// The hit points of the piece on `sq` (`None` when empty). The position
/// stores them in the piece's attribute byte, 0 meaning the piece's start
/// value ([`start_hp`]), so that a position read from plain FEN has the
/// defaults (RULINGS G5) and hashes as it does without hit points.
pub fn hit_points<B: BitSet>(pos: &Position<B>, sq: u8) -> Option<u8> {
    let p = pos.piece_at(sq)?;
    Some(match pos.piece_attribute(sq) {
        0 => start_hp(p.kind),
        hp => hp,
    })
}

/// Sets the hit points of the piece on `sq` (`hp` ≥ 1), storing the start
/// value as 0 so that equal positions hash alike. Returns `false` when the
/// square is empty.
pub fn set_hit_points<B: BitSet>(pos: &mut Position<B>, sq: u8, hp: u8) -> bool {
    let Some(p) = pos.piece_at(sq) else {
        return false;
    };
    pos.set_piece_attribute(sq, hp_byte(p.kind, hp))
}

fn hp_byte(kind: PieceKind, hp: u8) -> u8 {
    if hp == start_hp(kind) {
        0
    } else {
        hp
    }
}

impl Default for PresetHooks {
    /// No rules, FIDE chess's kinds and castling squares.
    fn default() -> PresetHooks {
        PresetHooks {
            suicide: false,
            capture_all: false,
            last_piece: false,
            knightmate: false,
            weak_dual: false,
            god_kings: false,
            capture_to_win: false,
            extinction: None,
            first_promo: false,
            sprint: false,
            diag_quiet: false,
            knights_twice: false,
            knight_immunity: false,
            no_castling: false,
            queen_splits: false,
            explosive: false,
            early_promo: false,
            doubles: [false; 2],
            wrap: false,
            piece_hp: false,
            king_heals: false,
            poison: false,
            castles: false,
            dual_king: false,
            k: Kinds::default(),
            castle_files: [2, 6],
            rook_files: [3, 5],
            poisoned: POISONED.to_vec(),
            promos: [QUEEN, ROOK, BISHOP, KNIGHT].map(PieceKind).to_vec(),
            antichess_dead: false,
            bare_kings_dead: false,
            n_kinds: 6,
            kind_names: KIND_NAMES.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// The squares of the board's centre: the middle two files (one on a
/// board of odd width) times the middle two ranks (one when odd). On 8×8,
/// d4, e4, d5, e5 ([`POISONED`]); on 5×5, c3; on 10×8, e4, f4, e5, f5.
pub fn centre_squares(width: u8, height: u8) -> Vec<u8> {
    let mid = |n: u8| {
        if n.is_multiple_of(2) {
            vec![n / 2 - 1, n / 2]
        } else {
            vec![n / 2]
        }
    };
    let mut out = Vec::new();
    for r in mid(height) {
        for f in mid(width) {
            out.push(r * width + f);
        }
    }
    out
}

impl PresetHooks {
    /// The pieces of FIDE role `role` (empty when the game has no such
    /// kind).
    fn set<B: BitSet>(&self, pos: &Position<B>, role: u8) -> B {
        self.k.get(role).map_or(B::EMPTY, |k| pos.by_kind(k))
    }

    /// The start hit points of `kind`: the king's 1, every other kind's 2.
    fn start_hp(&self, kind: PieceKind) -> u8 {
        if self.k.is(kind, KING) {
            KING_START_HP
        } else {
            PIECE_START_HP
        }
    }

    /// [`hit_points`] with this game's king.
    fn hp<B: BitSet>(&self, pos: &Position<B>, sq: u8) -> Option<u8> {
        let p = pos.piece_at(sq)?;
        Some(match pos.piece_attribute(sq) {
            0 => self.start_hp(p.kind),
            hp => hp,
        })
    }

    /// [`set_hit_points`] with this game's king.
    fn set_hp<B: BitSet>(&self, pos: &mut Position<B>, sq: u8, hp: u8) -> bool {
        let Some(p) = pos.piece_at(sq) else {
            return false;
        };
        pos.set_piece_attribute(sq, self.hp_byte(p.kind, hp))
    }

    fn hp_byte(&self, kind: PieceKind, hp: u8) -> u8 {
        if hp == self.start_hp(kind) {
            0
        } else {
            hp
        }
    }

    fn no_royalty(&self) -> bool {
        self.suicide || self.capture_all || self.last_piece || self.god_kings
    }
    fn extended_attacks(&self) -> bool {
        self.knights_twice || self.knight_immunity
    }
    /// Legality judged here rather than by the engine's filter.
    fn own_filter(&self) -> bool {
        self.weak_dual || ((self.extended_attacks() || self.piece_hp) && !self.no_royalty())
    }

    /// Whether `color` has a second half-move under the multi-move rules.
    pub(crate) fn doubles_for(&self, color: Color) -> bool {
        self.doubles[color.index()]
    }

    /// Whether `color`'s royals are exposed as the legality rules forbid
    /// after a move of `color` (attacked; under piece-hp on the last hit
    /// point; under weak-dual-king all of them). Used to refuse set-up
    /// positions where the side not to move is so exposed.
    pub(crate) fn royal_exposed<B: BitSet>(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        color: Color,
    ) -> bool {
        if self.no_royalty() {
            return false;
        }
        let occ = pos.occupied();
        let royals = RuleHooks::<B>::royal_squares(self, t, pos, color);
        let by = color.flip();
        if self.weak_dual {
            royals.any() && royals.iter().all(|s| self.threatened(t, pos, s, occ, by))
        } else {
            royals.iter().any(|s| self.threatened(t, pos, s, occ, by))
        }
    }

    /// Whether the royal on `sq` could be killed by `by`: attacked, and
    /// under `piece-hp` down to its last hit point (RULINGS P6).
    fn threatened<B: BitSet>(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        sq: u8,
        occ: B,
        by: Color,
    ) -> bool {
        (!self.piece_hp || self.hp(pos, sq).unwrap_or(1) <= 1) && self.attacked(t, pos, sq, occ, by)
    }

    /// `piece-hp` capture resolution (spec "Hit Points", RULINGS P6): the
    /// engine has already removed the victim; one that survives the damage
    /// comes back, keeping its id, on the first empty square around its
    /// own square clockwise from N, judged on the board after the move (so
    /// the square the attacker left counts as empty), or stays removed when
    /// there is none.
    fn resolve_damage<B: BitSet>(
        &self,
        t: &Tables<B>,
        before: &Position<B>,
        pos: &mut Position<B>,
        m: Move,
    ) {
        let vsq = if m.kind == MoveKind::EnPassant {
            match before.ep_victim() {
                Some(v) => v,
                None => return,
            }
        } else {
            m.to
        };
        let (Some(victim), Some(hp)) = (before.piece_at(vsq), self.hp(before, vsq)) else {
            return;
        };
        if self.k.is(victim.kind, KING) {
            // A king that is hit has been moved or removed by the capture,
            // not by castling rules: its side loses its castling rights.
            pos.remove_castling_rights(pos.by_color(victim.color));
        }
        if hp <= 1 {
            return;
        }
        let w = t.width() as i32;
        let (vf, vr) = (vsq as i32 % w, vsq as i32 / w);
        for (dx, dy) in CLOCKWISE {
            // On the wrap-board cylinder the push wraps too (adjacency
            // follows the topology, as for fission and detonation).
            let Some(s) = self.offset(t, vf, vr, dx, dy) else {
                continue;
            };
            if pos.piece_at(s).is_none() {
                pos.place_piece(
                    t,
                    s,
                    victim,
                    before.piece_id(vsq),
                    self.hp_byte(victim.kind, hp - 1),
                );
                return;
            }
        }
    }

    /// Damage outside captures (poison): one hit point; at 0 the piece is
    /// removed.
    fn damage<B: BitSet>(&self, pos: &mut Position<B>, sq: u8) {
        match self.hp(pos, sq) {
            Some(hp) if hp > 1 => {
                self.set_hp(pos, sq, hp - 1);
            }
            Some(_) => {
                pos.remove_piece(sq);
            }
            None => {}
        }
    }

    /// End of `mover`'s turn: poison first, then healing (RULINGS P7, P13).
    fn turn_end<B: BitSet>(&self, t: &Tables<B>, pos: &mut Position<B>, mover: Color) {
        if self.poison {
            for &s in &self.poisoned {
                if pos.by_color(mover).has(s) {
                    self.damage(pos, s);
                }
            }
        }
        if self.king_heals {
            let occ = pos.occupied();
            for k in (self.set(pos, KING) & pos.by_color(mover)).iter() {
                if self.attacked(t, pos, k, occ, mover.flip()) {
                    continue;
                }
                let hp = self.hp(pos, k).unwrap_or(KING_START_HP);
                if hp < KING_MAX_HP {
                    self.set_hp(pos, k, hp + 1);
                }
            }
        }
    }
    fn multi_move(&self) -> bool {
        self.doubles[0] || self.doubles[1]
    }

    /// The square `(dx, dy)` from file `f`, rank `r`, if on the board; on
    /// the `wrap-board` cylinder the files wrap (RULINGS P4), so fission
    /// and detonation see a and h as adjacent like every move does.
    fn offset<B: BitSet>(&self, t: &Tables<B>, f: i32, r: i32, dx: i32, dy: i32) -> Option<u8> {
        let (w, h) = (t.width() as i32, t.height() as i32);
        let (mut x, y) = (f + dx, r + dy);
        if self.wrap {
            x = x.rem_euclid(w);
        }
        (x >= 0 && y >= 0 && x < w && y < h).then_some((y * w + x) as u8)
    }

    /// Whether `sq` is attacked by `by` over `occ`, with the attacks the
    /// presets add (double-leaping knights, bishop rays through knights).
    fn attacked<B: BitSet>(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        sq: u8,
        occ: B,
        by: Color,
    ) -> bool {
        pos.is_attacked(t, sq, occ, by) || self.added_attackers(t, pos, sq, occ, by, true).any()
    }

    /// The pieces of `by` that attack `sq` only through the presets' added
    /// attacks; with `first`, stops at the first one found.
    fn added_attackers<B: BitSet>(
        &self,
        t: &Tables<B>,
        pos: &Position<B>,
        sq: u8,
        occ: B,
        by: Color,
        first: bool,
    ) -> B {
        let mut found = B::EMPTY;
        let theirs = pos.by_color(by) & occ;
        if self.knights_twice {
            // Double leaps over an empty intermediate square, from the
            // compiled knight leaps (so they follow the board topology).
            let kn = self.k.get(KNIGHT).unwrap_or(PieceKind(KNIGHT));
            for n in (self.set(pos, KNIGHT) & theirs).iter() {
                let leaps = t.leaps(by, kn, n) & !occ;
                if sq != n && leaps.iter().any(|m| t.leaps(by, kn, m).has(sq)) {
                    found |= B::bit(n);
                    if first {
                        return found;
                    }
                }
            }
        }
        if self.knight_immunity {
            // Bishop rays pass through the defender's knights (P11): the
            // engine's rays over a board without them (any topology).
            let shields = self.set(pos, KNIGHT) & pos.by_color(by.flip());
            let bishops = self.set(pos, BISHOP) & theirs;
            if bishops.any() {
                found |= pos.attackers_to(t, sq, occ & !shields, by) & bishops;
            }
        }
        found
    }

    /// A result the rules have decided from the board alone (or a locked
    /// one), whatever the legal moves.
    fn decided<B: BitSet>(&self, t: &Tables<B>, pos: &Position<B>) -> Option<HookResult> {
        let (winner, why) = self.verdict(t, pos)?;
        let reason = match why {
            Why::Lock(code) => LOCK_REASONS
                .get(code as usize)
                .copied()
                .unwrap_or("locked-result")
                .to_string(),
            Why::AllCaptured => "all-pieces-captured".into(),
            Why::NoKnights => "no-knights-left".into(),
            Why::NoKings => "no-kings-left".into(),
            Why::RoyalDestroyed => "royal-destroyed".into(),
            Why::Extinct(k) => format!("{}-extinct", self.kind_name(k)),
        };
        Some(HookResult { winner, reason })
    }

    /// [`Self::decided`] without building the reason (no allocation: the
    /// move generator asks it at every node).
    fn verdict<B: BitSet>(&self, t: &Tables<B>, pos: &Position<B>) -> Option<(Option<Color>, Why)> {
        let lock = pos.rule_state(SLOT_RESULT);
        if lock != 0 {
            let winner = match lock & 3 {
                1 => Some(Color::White),
                2 => Some(Color::Black),
                _ => None,
            };
            return Some((winner, Why::Lock(lock >> 2)));
        }
        let to_move = pos.turn();
        let mover = to_move.flip();
        // A side that lost something it needs: the mover is judged first
        // (a move that ruins both sides loses for the mover, as P8 says).
        let lost_all = |c: Color, kinds: B| (pos.by_color(c) & kinds).is_empty();
        let order = [mover, to_move];
        // Status reasons say why the game ended, not which rule ended it.
        if self.capture_all || self.last_piece {
            for c in order {
                if pos.by_color(c).is_empty() {
                    return Some((Some(c.flip()), Why::AllCaptured));
                }
            }
        }
        if self.knightmate {
            for c in order {
                if lost_all(c, self.set(pos, KNIGHT)) {
                    return Some((Some(c.flip()), Why::NoKnights));
                }
            }
        }
        if self.weak_dual {
            for c in order {
                if lost_all(c, self.set(pos, KING)) {
                    return Some((Some(c.flip()), Why::NoKings));
                }
            }
        }
        if self.royals_can_vanish() {
            // Royals can disappear: blown up (P8), pushed off with nowhere
            // to go, or killed by poison (P6, P13).
            for c in order {
                if pos.royals(t, c).is_empty() {
                    return Some((Some(c.flip()), Why::RoyalDestroyed));
                }
            }
        }
        if let Some(target) = self.extinction {
            for c in order {
                if let Some(k) = self.extinct_kind(pos, c, target) {
                    return Some((Some(c.flip()), Why::Extinct(k)));
                }
            }
        }
        None
    }

    /// Whether engine royals can leave the board (so that a side without
    /// them has lost).
    fn royals_can_vanish(&self) -> bool {
        (self.explosive || self.piece_hp)
            && !self.no_royalty()
            && !self.knightmate
            && !self.weak_dual
    }

    /// Whether the after-move effects may change pieces or hit points
    /// (what the self-check filter reads): a capture under piece-hp, a
    /// split, an explosion, early promotion, poison, healing.
    fn board_effects(&self) -> bool {
        self.piece_hp
            || self.queen_splits
            || self.explosive
            || self.poison
            || self.early_promo
            || self.king_heals
    }

    /// Whether [`Self::verdict`] can ever decide.
    fn can_decide(&self) -> bool {
        self.capture_all
            || self.last_piece
            || self.knightmate
            || self.weak_dual
            || self.royals_can_vanish()
            || self.extinction.is_some()
            || self.capture_to_win
            || self.first_promo
    }

    /// What these hooks use, for the engine to pick its path (see
    /// [`HookProfile`]; docs/performance.md, "Hook profiles").
    fn hook_profile(&self) -> HookProfile {
        let extra_moves =
            (self.knightmate && !self.no_castling) || self.knights_twice || self.sprint;
        let filter_move = self.no_castling
            || self.god_kings
            || self.knight_immunity
            || self.multi_move()
            || self.own_filter();
        let list_rule = if self.diag_quiet {
            ListRule::Custom
        } else if self.suicide {
            ListRule::CompulsoryCapture
        } else {
            ListRule::Keep
        };
        // Effects that change the board after a move may change whether
        // the mover's royals are attacked (an explosion or poison removes
        // a blocker, a push or a split adds pieces).
        let board_effects = self.board_effects();
        let royalty = if self.no_royalty() {
            Royalty::None
        } else if self.own_filter()
            || self.knightmate
            || self.weak_dual
            || self.extended_attacks()
            || board_effects
        {
            Royalty::Custom
        } else {
            Royalty::Engine
        };
        // A king that can leave the board takes its side's castling rights
        // with it (after_move).
        let kings_vanish = self.castles
            && (self.no_royalty()
                || self.knightmate
                || self.weak_dual
                || self.explosive
                || self.piece_hp
                || self.poison);
        let effects = board_effects
            || self.early_promo
            || self.capture_to_win
            || self.first_promo
            || self.multi_move()
            || self.king_heals
            || kings_vanish;
        HookProfile {
            piece_moves: false,
            extra_moves,
            filter_move,
            list_rule,
            royalty,
            effects,
            board_effects: self.board_effects(),
            engine_attacks: !self.extended_attacks(),
            game_over: self.can_decide(),
            own_moves: false,
        }
    }

    /// The first kind (kind index) of `target` that `c` has no piece of,
    /// if any.
    fn extinct_kind<B: BitSet>(&self, pos: &Position<B>, c: Color, target: Target) -> Option<u8> {
        let gone = |k: PieceKind| (pos.by_color(c) & pos.by_kind(k)).is_empty();
        match target {
            Target::Kind(role) => self.k.get(role).filter(|&k| gone(k)).map(|k| k.0),
            // Every kind of the game, with a FIDE role or not (Capablanca's
            // archbishop and chancellor too, as Fairy-Stockfish's
            // extinctionPieceTypes over all the variant's pieces).
            Target::Any => (0..self.n_kinds).find(|&k| gone(PieceKind(k))),
        }
    }

    /// The plural name of kind `k` for status reasons and messages.
    fn kind_name(&self, k: u8) -> &str {
        self.kind_names
            .get(k as usize)
            .map_or("pieces", |s| s.as_str())
    }

    fn lock<B: BitSet>(pos: &mut Position<B>, reason: usize, winner: Color) {
        if pos.rule_state(SLOT_RESULT) == 0 {
            let w = if winner == Color::White { 1 } else { 2 };
            pos.set_rule_state(SLOT_RESULT, ((reason as u16) << 2) | w);
        }
    }

    fn castle_moves<B: BitSet>(&self, t: &Tables<B>, pos: &Position<B>, out: &mut Vec<Move>) {
        // Castling without attack tests, for a non-royal king (P18), on the
        // FIDE castling files.
        let us = pos.turn();
        let w = t.width();
        let back = if us == Color::White {
            0
        } else {
            t.height() - 1
        };
        let in_back = |s: u8| s / w == back;
        let mut kings = (self.set(pos, KING) & pos.by_color(us))
            .iter()
            .filter(|&s| in_back(s));
        let (Some(k), None) = (kings.next(), kings.next()) else {
            return;
        };
        let occ = pos.occupied();
        for r in (pos.castling_rooks() & pos.by_color(us)).iter() {
            if !in_back(r) || pos.piece_at(r).is_none_or(|p| !self.k.is(p.kind, ROOK)) {
                continue;
            }
            let king_side = r % w > k % w;
            let i = usize::from(king_side);
            let (kf, rf) = (self.castle_files[i], self.rook_files[i]);
            let (kd, rd) = (back * w + kf, back * w + rf);
            let span = |a: u8, b: u8| {
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                lo..=hi
            };
            let blocked = span(k, kd)
                .chain(span(r, rd))
                .any(|s| s != k && s != r && occ.has(s));
            if !blocked {
                out.push(Move {
                    from: k,
                    to: r,
                    promotion: None,
                    kind: MoveKind::Castle,
                });
            }
        }
    }

    fn is_capture<B: BitSet>(pos: &Position<B>, m: Move) -> bool {
        m.kind == MoveKind::EnPassant
            || (m.kind != MoveKind::Castle && pos.by_color(pos.turn().flip()).has(m.to))
    }
}

impl<B: BitSet> RuleHooks<B> for PresetHooks {
    fn profile(&self) -> HookProfile {
        self.hook_profile()
    }
    fn game_over(&self, t: &Tables<B>, pos: &Position<B>) -> bool {
        self.verdict(t, pos).is_some()
    }
    fn is_attacked(&self, t: &Tables<B>, pos: &Position<B>, sq: u8, occ: B, by: Color) -> bool {
        self.attacked(t, pos, sq, occ, by)
    }
    fn attackers(&self, t: &Tables<B>, pos: &Position<B>, sq: u8, occ: B, by: Color) -> B {
        pos.attackers_to(t, sq, occ, by) | self.added_attackers(t, pos, sq, occ, by, false)
    }
    /// Check is a royal that could be killed (RULINGS P6): under
    /// `piece-hp` an attacked royal with 2 HP or more is not in check (it
    /// may stand attacked and cannot be mated); otherwise any attacked
    /// royal, as the engine's default.
    fn in_check(&self, t: &Tables<B>, pos: &Position<B>, color: Color) -> bool {
        let occ = pos.occupied();
        RuleHooks::<B>::royal_squares(self, t, pos, color)
            .iter()
            .any(|s| self.threatened(t, pos, s, occ, color.flip()))
    }
    fn royal_squares(&self, t: &Tables<B>, pos: &Position<B>, color: Color) -> B {
        if self.no_royalty() {
            return B::EMPTY;
        }
        if self.knightmate {
            let n = self.set(pos, KNIGHT) & pos.by_color(color);
            return if n.count() == 1 { n } else { B::EMPTY };
        }
        if self.weak_dual {
            return self.set(pos, KING) & pos.by_color(color);
        }
        pos.royals(t, color)
    }

    fn self_check_filter(&self) -> bool {
        !(self.no_royalty() || self.own_filter())
    }

    fn uses_piece_attributes(&self) -> bool {
        self.piece_hp
    }

    /// Under `dual-king` a side may have two royal kings (its layout
    /// `dual-classic` starts with them).
    fn allows_extra_royals(&self) -> bool {
        self.dual_king
    }

    /// A `piece-hp` push may put a pawn on either back rank (P6; a pushed
    /// pawn does not promote).
    fn relocates_pieces(&self) -> bool {
        self.piece_hp
    }

    fn check_setup(&self, _t: &Tables<B>, pos: &Position<B>) -> Result<(), String> {
        // A position where both sides already lack what the rules need
        // would be scored as a loss for whichever side is judged first; it
        // cannot arise in play, so it is refused as a start.
        let both = |lost: &dyn Fn(Color) -> bool| lost(Color::White) && lost(Color::Black);
        let lacks = |k: u8| move |c: Color| (pos.by_color(c) & self.set(pos, k)).is_empty();
        if (self.capture_all || self.last_piece) && pos.occupied().is_empty() {
            return Err("neither side has a piece".into());
        }
        if self.knightmate && both(&lacks(KNIGHT)) {
            return Err("neither side has a knight; under knightmate-rules a side without knights has lost (RULINGS P16)".into());
        }
        if self.weak_dual && both(&lacks(KING)) {
            return Err("neither side has a king; under weak-dual-king a side without kings has lost (RULINGS P16)".into());
        }
        if let Some(target) = self.extinction {
            let w = self.extinct_kind(pos, Color::White, target);
            let b = self.extinct_kind(pos, Color::Black, target);
            if let (Some(w), Some(b)) = (w, b) {
                return Err(format!(
                    "White has no {} and Black has no {}; under extinction-chess a side whose target type is gone has lost (RULINGS P19)",
                    self.kind_name(w),
                    self.kind_name(b)
                ));
            }
        }
        Ok(())
    }

    fn extra_moves(&self, t: &Tables<B>, pos: &Position<B>, out: &mut Vec<Move>) {
        let us = pos.turn();
        let w = t.width() as i32;
        let h = t.height() as i32;
        let occ = pos.occupied();
        let ours = pos.by_color(us);
        if self.knightmate && !self.no_castling {
            self.castle_moves(t, pos, out);
        }
        if self.knights_twice {
            let kn = self.k.get(KNIGHT).unwrap_or(PieceKind(KNIGHT));
            for n in (self.set(pos, KNIGHT) & ours).iter() {
                for m in (t.leaps(us, kn, n) & !occ).iter() {
                    for x in (t.leaps(us, kn, m) & !ours).iter() {
                        let m = Move::new(n, x);
                        if x != n && !out.contains(&m) {
                            out.push(m);
                        }
                    }
                }
            }
        }
        if self.sprint {
            // Two squares straight ahead from any rank (RULINGS P22: a sprint
            // onto the last rank promotes).
            let dir = if us == Color::White { 1 } else { -1 };
            let last = if us == Color::White { h - 1 } else { 0 };
            let promos = &self.promos;
            for p in (self.set(pos, PAWN) & ours).iter() {
                let (f, r) = (p as i32 % w, p as i32 / w);
                let (r1, r2) = (r + dir, r + 2 * dir);
                if r2 < 0 || r2 >= h {
                    continue;
                }
                let (s1, s2) = ((r1 * w + f) as u8, (r2 * w + f) as u8);
                if occ.has(s1) || occ.has(s2) {
                    continue;
                }
                if r2 == last {
                    for k in promos {
                        out.push(Move {
                            from: p,
                            to: s2,
                            promotion: Some(*k),
                            kind: MoveKind::DoubleStep,
                        });
                    }
                } else {
                    let m = Move {
                        from: p,
                        to: s2,
                        promotion: None,
                        kind: MoveKind::DoubleStep,
                    };
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
    }

    fn filter_move(&self, t: &Tables<B>, pos: &Position<B>, m: Move) -> bool {
        if self.no_castling && m.kind == MoveKind::Castle {
            return false;
        }
        if self.god_kings
            && m.kind != MoveKind::Castle
            && pos.piece_at(m.to).is_some_and(|p| self.k.is(p.kind, KING))
        {
            return false;
        }
        if self.knight_immunity
            && m.kind != MoveKind::Castle
            && pos
                .piece_at(m.from)
                .is_some_and(|p| self.k.is(p.kind, BISHOP))
            && pos
                .piece_at(m.to)
                .is_some_and(|p| self.k.is(p.kind, KNIGHT) && p.color != pos.turn())
        {
            return false;
        }
        if self.multi_move() && m.kind == MoveKind::EnPassant && pos.rule_state(SLOT_PHASE) == 1 {
            // The en passant square was opened by our own first half-move.
            return false;
        }
        if self.own_filter() {
            let us = pos.turn();
            if m.kind == MoveKind::Castle && !self.weak_dual && !self.knightmate {
                // The king may not castle out of, through or into attack.
                let w = t.width();
                let k = m.from;
                let back = k / w;
                let kd = back * w + self.castle_files[usize::from(m.to % w > k % w)];
                let occ = pos.occupied() & !B::bit(k) & !B::bit(m.to);
                let (lo, hi) = if k < kd { (k, kd) } else { (kd, k) };
                // Under piece-hp a king with 2 HP or more may stand attacked
                // (P6), so only a king on its last hit point is held back.
                let mortal = !self.piece_hp || self.hp(pos, k).unwrap_or(1) <= 1;
                if mortal && (lo..=hi).any(|s| self.attacked(t, pos, s, occ, us.flip())) {
                    return false;
                }
            }
            if self.weak_dual
                && !self.extended_attacks()
                && !self.piece_hp
                && !self.board_effects()
                && matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
            {
                // Legal when a king that does not move stays unattacked:
                // not attacked now, and the move opens no line to it.
                let occ = pos.occupied();
                let them = us.flip();
                let kings = self.set(pos, KING) & pos.by_color(us);
                if kings.iter().any(|k| {
                    k != m.from
                        && !pos.is_attacked(t, k, occ, them)
                        && !pos.may_uncover(t, k, m.from, them)
                }) {
                    return true;
                }
            }
            let mut after = *pos;
            if self.board_effects() {
                after.play_with_hooks(t, self, m);
            } else {
                // The other effects (locks, turn phase, castling rights)
                // do not change which royals are threatened.
                after.play_unchecked(t, m);
            }
            let occ = after.occupied();
            let royals = RuleHooks::<B>::royal_squares(self, t, &after, us);
            if self.weak_dual {
                if royals.any()
                    && royals
                        .iter()
                        .all(|s| self.threatened(t, &after, s, occ, us.flip()))
                {
                    return false;
                }
            } else if royals
                .iter()
                .any(|s| self.threatened(t, &after, s, occ, us.flip()))
            {
                return false;
            }
        }
        true
    }

    fn filter_moves(&self, t: &Tables<B>, pos: &Position<B>, moves: &mut Vec<Move>) {
        if self.verdict(t, pos).is_some() {
            moves.clear();
            return;
        }
        if self.suicide && moves.iter().any(|&m| PresetHooks::is_capture(pos, m)) {
            moves.retain(|&m| PresetHooks::is_capture(pos, m));
        }
        if self.diag_quiet && moves.iter().any(|m| m.kind == MoveKind::EnPassant) {
            // RULINGS P20: on the en passant square the diagonal step is the
            // en passant capture only.
            let eps: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.kind == MoveKind::EnPassant)
                .collect();
            moves.retain(|m| {
                m.kind != MoveKind::Normal
                    || !eps
                        .iter()
                        .any(|e| e.from == m.from && e.to == m.to && e.promotion == m.promotion)
            });
        }
    }

    fn after_move(&self, t: &Tables<B>, before: &Position<B>, pos: &mut Position<B>, m: Move) {
        let mover = before.turn();
        let Some(piece) = before.piece_at(m.from) else {
            return;
        };
        let capture = PresetHooks::is_capture(before, m);
        let w = t.width() as i32;
        let h = t.height() as i32;
        let (tf, tr) = (m.to as i32 % w, m.to as i32 / w);
        let landed = m.promotion.unwrap_or(piece.kind);
        if self.piece_hp && capture {
            self.resolve_damage(t, before, pos, m);
        }
        if self.queen_splits && capture && self.k.is(landed, QUEEN) {
            // Under piece-hp both halves keep the queen's hit points.
            let hp = self.hp(pos, m.to);
            pos.remove_piece(m.to);
            pos.add_piece(
                t,
                m.to,
                Piece {
                    kind: self.k.get(ROOK).unwrap_or(PieceKind(ROOK)),
                    color: mover,
                },
            );
            let mut halves = vec![m.to];
            for (dx, dy) in CLOCKWISE {
                let Some(s) = self.offset(t, tf, tr, dx, dy) else {
                    continue;
                };
                if pos.piece_at(s).is_none() {
                    pos.add_piece(
                        t,
                        s,
                        Piece {
                            kind: self.k.get(BISHOP).unwrap_or(PieceKind(BISHOP)),
                            color: mover,
                        },
                    );
                    halves.push(s);
                    break;
                }
            }
            if let (true, Some(hp)) = (self.piece_hp, hp) {
                for s in halves {
                    self.set_hp(pos, s, hp);
                }
            }
        }
        if self.explosive && capture && self.k.is(piece.kind, ROOK) && m.promotion.is_none() {
            for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                for d in 1..=2 {
                    if let Some(s) = self.offset(t, tf, tr, dx * d, dy * d) {
                        pos.remove_piece(s);
                    }
                }
            }
        }
        let mut promoted = m.promotion.is_some();
        if self.early_promo && self.k.is(piece.kind, PAWN) && m.promotion.is_none() {
            let rel = if mover == Color::White {
                tr
            } else {
                h - 1 - tr
            };
            if rel == h - 3 && pos.piece_at(m.to).is_some_and(|p| self.k.is(p.kind, PAWN)) {
                // A promoted piece keeps the pawn's hit points, as in a
                // normal promotion (the piece keeps its attribute byte).
                let attr = pos.piece_attribute(m.to);
                let id = pos.piece_id(m.to);
                pos.remove_piece(m.to);
                pos.place_piece(
                    t,
                    m.to,
                    Piece {
                        kind: self.k.get(QUEEN).unwrap_or(PieceKind(QUEEN)),
                        color: mover,
                    },
                    id,
                    attr,
                );
                promoted = true;
            }
        }
        if self.capture_to_win && capture {
            PresetHooks::lock(pos, 0, mover);
        }
        if self.first_promo && promoted {
            PresetHooks::lock(pos, 1, mover);
        }
        if self.multi_move() {
            let phase = before.rule_state(SLOT_PHASE);
            let mut next = 0;
            if self.doubles[mover.index()] && phase == 0 {
                let them = mover.flip();
                let occ = pos.occupied();
                let check = RuleHooks::<B>::royal_squares(self, t, pos, them)
                    .iter()
                    .any(|s| self.attacked(t, pos, s, occ, mover));
                if !check && self.verdict(t, pos).is_none() {
                    next = 1;
                }
            }
            if pos.rule_state(SLOT_PHASE) != next {
                pos.set_rule_state(SLOT_PHASE, next);
            }
        }
        if (self.poison || self.king_heals) && pos.rule_state(SLOT_PHASE) == 0 {
            self.turn_end(t, pos, mover);
        }
        // A side whose king is gone (captured, blown up, poisoned) keeps no
        // castling rights, so that the hash matches the position's FEN.
        if pos.castling_rooks().any() {
            for c in [Color::White, Color::Black] {
                if (self.set(pos, KING) & pos.by_color(c)).is_empty() {
                    pos.remove_castling_rights(pos.by_color(c));
                }
            }
        }
    }

    fn turn_passes(&self, _t: &Tables<B>, _b: &Position<B>, after: &Position<B>, _m: Move) -> bool {
        after.rule_state(SLOT_PHASE) == 0
    }

    fn game_result(&self, t: &Tables<B>, pos: &Position<B>, legal: &[Move]) -> Option<HookResult> {
        if let Some(r) = self.decided(t, pos) {
            return Some(r);
        }
        let us = pos.turn();
        let res = |winner: Option<Color>, reason: &str| {
            Some(HookResult {
                winner,
                reason: reason.into(),
            })
        };
        if self.suicide {
            if legal.is_empty() {
                // Antichess: a side with no pieces, or stalemated, wins.
                let why = if pos.by_color(us).is_empty() {
                    "no-pieces-left"
                } else {
                    "no-legal-moves"
                };
                return res(Some(us), why);
            }
            if self.antichess_dead
                && antichess_insufficient(self, t, pos, Color::White)
                && antichess_insufficient(self, t, pos, Color::Black)
            {
                return res(None, "insufficient-material");
            }
            return None;
        }
        if self.bare_kings_dead && (pos.occupied() & !self.set(pos, KING)).is_empty() {
            // capture-to-win: royal kings never stand next to each other
            // and god kings cannot be captured, so no capture can happen.
            return res(None, "insufficient-material");
        }
        if !legal.is_empty() {
            return None;
        }
        if self.last_piece {
            return res(Some(us.flip()), "no-legal-moves");
        }
        if self.capture_to_win {
            return res(None, "stalemate");
        }
        let occ = pos.occupied();
        let royals = RuleHooks::<B>::royal_squares(self, t, pos, us);
        if self.weak_dual {
            if royals.any()
                && royals
                    .iter()
                    .all(|s| self.threatened(t, pos, s, occ, us.flip()))
            {
                return res(Some(us.flip()), "checkmate");
            }
            return res(None, "stalemate");
        }
        if (self.extended_attacks() || self.piece_hp)
            && royals
                .iter()
                .any(|s| self.threatened(t, pos, s, occ, us.flip()))
        {
            return res(Some(us.flip()), "checkmate");
        }
        if self.piece_hp {
            // An attacked royal with hit points to spare is not mated (P6).
            return res(None, "stalemate");
        }
        None
    }
}

/// shakmaty's (lichess's) Antichess rule for `color` lacking material.
fn antichess_insufficient<B: BitSet>(
    h: &PresetHooks,
    t: &Tables<B>,
    pos: &Position<B>,
    color: Color,
) -> bool {
    let ours = pos.by_color(color);
    let theirs = pos.by_color(color.flip());
    if ours.is_empty() {
        return false;
    }
    if theirs.is_empty() {
        return true;
    }
    let occ = pos.occupied();
    let w = t.width();
    let light = |s: u8| (s % w + s / w) % 2 == 1;
    if occ == h.set(pos, BISHOP) {
        let we_light = ours.iter().any(light);
        let we_dark = ours.iter().any(|s| !light(s));
        let they_all_dark = !theirs.iter().any(light);
        let they_all_light = theirs.iter().all(light);
        return (we_light && they_all_dark) || (we_dark && they_all_light);
    }
    if occ == h.set(pos, KNIGHT) {
        let (wh, bl) = (pos.by_color(Color::White), pos.by_color(Color::Black));
        if wh.count() == 1 && bl.count() == 1 {
            let wl = light(wh.lsb());
            let bd = !light(bl.lsb());
            let c = color == Color::Black;
            // turn == color ^ white_knight_light ^ black_knight_dark
            return (pos.turn() == Color::Black) == (c ^ wl ^ bd);
        }
        return false;
    }
    false
}

/// `short-stop`'s leaps: a leap within one square stays; a longer leap
/// along a line (an alfil's, a dabbaba's) becomes the one-square step in
/// its direction; an oblique leap (a knight's) becomes the four orthogonal
/// steps, as the knight's does, so that a compound piece's knight part
/// (Capablanca's archbishop and chancellor) is cut down as the knight is.
fn short_leaps(vectors: &[(i8, i8)]) -> Vec<(i8, i8)> {
    let mut out: Vec<(i8, i8)> = Vec::new();
    for &(x, y) in vectors {
        let steps: Vec<(i8, i8)> = if x.abs() <= 1 && y.abs() <= 1 {
            vec![(x, y)]
        } else if x == 0 || y == 0 || x.abs() == y.abs() {
            vec![(x.signum(), y.signum())]
        } else {
            Direction::Orthogonal.vectors().to_vec()
        };
        for v in steps {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// No piece of `def` is royal (the rules decide the game otherwise).
fn unroyal(def: &mut GameDefinition) {
    for p in &mut def.pieces {
        p.royal = false;
    }
}

/// `shapes` with every ride's diagonal vectors split into a shape of their
/// own that has `edge` (the other vectors keep theirs).
fn split_diagonal_rides(shapes: Vec<Shape>, edge: Edge) -> Vec<Shape> {
    let mut out = Vec::new();
    for s in shapes {
        if !matches!(s.reach, Reach::Ride { .. }) {
            out.push(s);
            continue;
        }
        let (diag, other): (Vec<_>, Vec<_>) =
            s.vectors.iter().partition(|(x, y)| x.abs() == y.abs());
        if !diag.is_empty() {
            out.push(Shape {
                vectors: diag,
                edge,
                ..s.clone()
            });
        }
        if !other.is_empty() {
            out.push(Shape {
                vectors: other,
                ..s
            });
        }
    }
    out
}

/// The definition and hooks for `rules`.
///
/// # Errors
/// [`PresetError::NotImplemented`] for presets the engine cannot play yet.
pub fn compose(rules: &RuleSet) -> Result<(GameDefinition, PresetHooks), PresetError> {
    compose_on(&GameDefinition::fide(), false, rules)
}

/// The definition and hooks for `rules` played on the game `base`
/// (`base_hooks`: the game has rule hooks of its own, which no preset
/// combines with). The presets' FIDE pieces are the game's kinds of the
/// same role ([`Kinds::of`]).
///
/// # Errors
/// [`PresetError::NotApplicable`] naming the first preset whose needs the
/// game does not meet ([`crate::needs`]), and
/// [`PresetError::NotImplemented`].
pub fn compose_on(
    base: &GameDefinition,
    base_hooks: bool,
    rules: &RuleSet,
) -> Result<(GameDefinition, PresetHooks), PresetError> {
    let mut def = base.clone();
    let kinds = Kinds::of(base);
    for p in rules.presets() {
        let param = |k: &str| p.param(k).map(str::to_string);
        if let Some(need) = needs::missing(p.info.id, param, base, base_hooks) {
            return Err(PresetError::NotApplicable {
                preset: p.info.id.to_string(),
                game: base.id.clone(),
                need: need.describe(),
            });
        }
    }
    // Every kind a need guarantees is present below; `kind(role)` of one
    // the rules do not need is never asked.
    let kind = |role: u8| kinds.get(role).map_or(usize::MAX, |k| k.index());
    let mut h = PresetHooks {
        k: kinds,
        poisoned: centre_squares(base.width, base.height),
        n_kinds: base.pieces.len() as u8,
        kind_names: (0..base.pieces.len())
            .map(
                |i| match (0..6u8).find(|&r| kinds.is(PieceKind(i as u8), r)) {
                    Some(r) => KIND_NAMES[r as usize].to_string(),
                    None => format!("{}s", base.pieces[i].id.to_lowercase()),
                },
            )
            .collect(),
        ..PresetHooks::default()
    };
    if let Some(c) = &base.castling {
        h.castle_files = c.king_files;
        h.rook_files = c.rook_files;
    }
    if let Some(pr) = &base.promotion {
        h.promos = pr.choices.iter().map(|&i| PieceKind(i as u8)).collect();
    }
    let mut warp = false;
    let mut bounce: Option<Edge> = None;
    for p in rules.presets() {
        let id = p.info.id;
        if !p.info.implemented {
            return Err(PresetError::NotImplemented {
                preset: id.to_string(),
                needs: p.info.needs.unwrap_or("an engine change").to_string(),
            });
        }
        let mut no_pawn = Vec::new();
        let pawn = match def.pieces.get_mut(kind(PAWN)) {
            Some(p) => &mut p.shapes,
            None => &mut no_pawn,
        };
        match id {
            "suicide-chess" => {
                h.suicide = true;
                unroyal(&mut def);
                def.castling = None;
                if let Some(pr) = &mut def.promotion {
                    // Antichess: Q, R, B, N, K (the game's choices, then
                    // its king).
                    if let Some(k) = kinds.get(KING).map(|k| k.index()) {
                        if !pr.choices.contains(&k) {
                            pr.choices.push(k);
                        }
                    }
                }
            }
            "capture-all" | "last-piece-standing" => {
                if id == "capture-all" {
                    h.capture_all = true;
                } else {
                    h.last_piece = true;
                }
                unroyal(&mut def);
            }
            "knightmate-rules" => {
                h.knightmate = true;
                unroyal(&mut def);
            }
            "coregal" => def.pieces[kind(QUEEN)].royal = true,
            "dual-king" => h.dual_king = true,
            "weak-dual-king" => {
                h.weak_dual = true;
                unroyal(&mut def);
            }
            "god-kings" => {
                h.god_kings = true;
                unroyal(&mut def);
                let king = &mut def.pieces[kind(KING)];
                let mut v = Vec::new();
                for dx in -2i8..=2 {
                    for dy in -2i8..=2 {
                        if dx.abs().max(dy.abs()) == 2 {
                            v.push((dx, dy));
                        }
                    }
                }
                king.shapes.push(Shape::leap(v, ShapeMode::MoveOrCapture));
            }
            "capture-to-win" => h.capture_to_win = true,
            "extinction-chess" => {
                h.extinction = Some(match p.param("target").unwrap_or("pawn") {
                    "pawn" => Target::Kind(PAWN),
                    "knight" => Target::Kind(KNIGHT),
                    "bishop" => Target::Kind(BISHOP),
                    "rook" => Target::Kind(ROOK),
                    "queen" => Target::Kind(QUEEN),
                    "king" => Target::Kind(KING),
                    _ => Target::Any,
                })
            }
            "first-promotion-wins" => h.first_promo = true,
            "pawns-move-backward" => {
                pawn.push(Shape::leap(vec![(0, -1)], ShapeMode::MoveOnly));
            }
            "double-pawn-sprint" => {
                h.sprint = true;
                // The sprint can be taken en passant on every game: where
                // the pawn has no en passant capture (Gardner, Los Alamos:
                // no double step), its captures take en passant too.
                if !pawn.iter().any(|s| s.en_passant == EnPassantRole::Captures) {
                    for s in pawn.iter_mut() {
                        if s.mode == ShapeMode::CaptureOnly && !s.first_move_only {
                            s.en_passant = EnPassantRole::Captures;
                        }
                    }
                }
            }
            "pawn-diagonal-no-capture" => {
                h.diag_quiet = true;
                pawn.push(Shape::leap(vec![(1, 1), (-1, 1)], ShapeMode::MoveOnly));
            }
            "berolina-pawns" | "berolina-pawns-2" => {
                let mut berolina = vec![
                    Shape::leap(vec![(1, 1), (-1, 1)], ShapeMode::MoveOnly),
                    Shape {
                        vectors: vec![(1, 1), (-1, 1)],
                        reach: Reach::Ride {
                            min: 2,
                            max: Some(2),
                        },
                        mode: ShapeMode::MoveOnly,
                        first_move_only: true,
                        en_passant: EnPassantRole::Creates,
                        edge: Edge::Stop,
                        only: None,
                        from_ranks: Vec::new(),
                    },
                    Shape {
                        en_passant: EnPassantRole::Captures,
                        ..Shape::leap(vec![(0, 1)], ShapeMode::CaptureOnly)
                    },
                ];
                if id == "berolina-pawns-2" {
                    berolina.push(Shape::leap(vec![(1, 0), (-1, 0)], ShapeMode::CaptureOnly));
                }
                // Scope (spec: "Scope chooses which side(s) use the rule"):
                // one colour gets the Berolina shapes, the other keeps the
                // FIDE pawn; a FIDE pawn takes a Berolina double step en
                // passant with its diagonal capture (RULINGS P27).
                *pawn = match p.param("scope").unwrap_or("both") {
                    "white" | "black" => {
                        let side = if p.param("scope") == Some("white") {
                            Color::White
                        } else {
                            Color::Black
                        };
                        let fide = std::mem::take(pawn);
                        fide.into_iter()
                            .map(|s| s.only_for(side.flip()))
                            .chain(berolina.into_iter().map(|s| s.only_for(side)))
                            .collect()
                    }
                    _ => berolina,
                };
            }
            "knights-leap-twice" => h.knights_twice = true,
            "bishops-ignore-color" => def.pieces[kind(BISHOP)].shapes.push(Shape::leap(
                Direction::Orthogonal.vectors().to_vec(),
                ShapeMode::MoveOrCapture,
            )),
            "proletariat" => {
                h.no_castling = true;
                // Every piece but the pawns moves as a pawn.
                let pawns = kind(PAWN);
                for (i, pt) in def.pieces.iter_mut().enumerate() {
                    if i == pawns || pt.pawn_like {
                        continue;
                    }
                    pt.shapes = vec![
                        Shape::leap(vec![(0, 1)], ShapeMode::MoveOnly),
                        Shape::leap(vec![(1, 1), (-1, 1)], ShapeMode::CaptureOnly),
                    ];
                }
            }
            "short-stop" => {
                h.no_castling = true;
                for pt in &mut def.pieces {
                    let knight = pt.role == Some(Role::Knight);
                    let mut shapes = Vec::new();
                    for s in &pt.shapes {
                        if s.first_move_only {
                            continue;
                        }
                        let mut s = s.clone();
                        match s.reach {
                            Reach::Ride { min, .. } if min <= 1 => {
                                s.reach = Reach::Ride {
                                    min: 1,
                                    max: Some(1),
                                }
                            }
                            Reach::Ride { .. } => continue,
                            Reach::Leap => s.vectors = short_leaps(&s.vectors),
                        }
                        if !s.vectors.is_empty() {
                            shapes.push(s);
                        }
                    }
                    if knight {
                        shapes = vec![Shape::leap(
                            Direction::Orthogonal.vectors().to_vec(),
                            ShapeMode::MoveOrCapture,
                        )];
                    }
                    pt.shapes = shapes;
                }
            }
            "trans-rights" => {
                def.pieces[kind(KING)].shapes = vec![Shape::slide(
                    Direction::Omnidirectional.vectors().to_vec(),
                    None,
                    ShapeMode::MoveOrCapture,
                )];
                def.pieces[kind(QUEEN)].shapes = vec![Shape::leap(
                    Direction::Omnidirectional.vectors().to_vec(),
                    ShapeMode::MoveOrCapture,
                )];
            }
            "knight-immunity" => h.knight_immunity = true,
            // Board geometry: applied after every other shape change, below.
            "wrap-board" => h.wrap = true,
            "rook-warp" => warp = true,
            "bouncing-pieces" => {
                bounce = Some(Edge::Bounce {
                    ends: false,
                    max: 1,
                })
            }
            "bouncing-pieces-2" => bounce = Some(Edge::Bounce { ends: true, max: 2 }),
            "queen-splits" => h.queen_splits = true,
            "explosive-rook" => h.explosive = true,
            "early-promotion" => h.early_promo = true,
            "piece-hp" => h.piece_hp = true,
            "king-heals" => h.king_heals = true,
            "poisoned-squares" => h.poison = true,
            "double-move" => h.doubles = [true, true],
            "monster-rules" => {
                h.doubles = match p.param("scope").unwrap_or("white") {
                    "white" => [true, false],
                    "black" => [false, true],
                    _ => [true, true],
                }
            }
            other => {
                return Err(PresetError::NotImplemented {
                    preset: other.to_string(),
                    needs: "an implementation".into(),
                })
            }
        }
    }
    // The draw by insufficient material: FIDE's only where the rules
    // leave it true (crate::dead), else the rule set's own or none.
    let dead = rules.presets().iter().fold(DeadRule::Fide, |acc, p| {
        acc.and(dead::dead_rule(
            p.info.id,
            |k| p.param(k).map(str::to_string),
            base.width,
        ))
    });
    if dead != DeadRule::Fide {
        def.end.insufficient_material = false;
    }
    h.antichess_dead = dead == DeadRule::Antichess;
    h.bare_kings_dead = dead == DeadRule::BareKings && base.end.insufficient_material;
    h.castles = def.castling.is_some();
    // Topology is a property of the shapes ([`Edge`]), set last so that it
    // reaches the shapes every other preset gave the pieces.
    if h.wrap {
        // RULINGS P4: files wrap for every piece (castling is not a shape
        // and never wraps).
        for pt in &mut def.pieces {
            for s in &mut pt.shapes {
                s.edge = Edge::WrapFiles;
            }
        }
    }
    if warp {
        // RULINGS P3: rooks (promoted ones too) warp, queens do not.
        for s in &mut def.pieces[kind(ROOK)].shapes {
            if matches!(s.reach, Reach::Ride { .. }) {
                s.edge = Edge::Warp;
            }
        }
    }
    if let Some(edge) = bounce {
        // RULINGS P23: only the bishop's and the queen's diagonal rays.
        for k in [BISHOP, QUEEN] {
            let Some(pt) = def.pieces.get_mut(kind(k)) else {
                continue;
            };
            let shapes = &mut pt.shapes;
            *shapes = split_diagonal_rides(std::mem::take(shapes), edge);
        }
    }
    if !rules.is_empty() {
        def.id = format!("{}+{}", base.id, rules.to_cli());
        def.name = format!("{} with {}", base.name, rules.to_cli());
    }
    Ok((def, h))
}

/// Builds the variant for `rules` and the start FEN of `layout` (the rule
/// set's preferred layout when `None`). Castling rights the rules remove
/// are dropped from the FEN.
///
/// # Errors
/// [`PresetError::NotImplemented`], [`PresetError::BadLayout`] (a layout
/// the rules cannot start from) and [`PresetError::Definition`].
pub fn build(rules: &RuleSet, layout: Option<Layout>) -> Result<(Variant, String), PresetError> {
    build_on(&GameDefinition::fide(), false, rules, layout)
}

/// Whether `def` is FIDE chess (whatever its id, name and start position),
/// the game the layouts are start positions of.
pub fn is_fide(def: &GameDefinition) -> bool {
    let mut fide = GameDefinition::fide();
    fide.id.clone_from(&def.id);
    fide.name.clone_from(&def.name);
    fide.start_fen.clone_from(&def.start_fen);
    fide == *def
}

/// [`build`] on the game `base` (`base_hooks`: it has rule hooks of its
/// own, which no preset combines with). On FIDE chess ([`is_fide`]) the
/// layout is the rule set's preferred one when `None`; on any other game
/// the start position is the game's own and a layout is refused (the
/// layouts are FIDE start positions).
///
/// # Errors
/// As [`build`], and [`PresetError::NotApplicable`] ([`compose_on`]).
pub fn build_on(
    base: &GameDefinition,
    base_hooks: bool,
    rules: &RuleSet,
    layout: Option<Layout>,
) -> Result<(Variant, String), PresetError> {
    let fide = is_fide(base);
    let layout = match layout {
        Some(l) if !fide => {
            return Err(PresetError::BadLayout {
                id: l.id(),
                reason: format!(
                "layouts are start positions of FIDE chess; game `{}` starts from its own setup",
                base.id
            ),
            })
        }
        Some(l) => Some(l),
        None if fide => Some(Layout::parse(rules.preferred_layout())?),
        None => None,
    };
    let (mut def, hooks) = compose_on(base, base_hooks, rules)?;
    let mut fen = layout.map_or_else(|| base.start_fen.clone(), |l| l.fen());
    if def.castling.is_none() || hooks.no_castling {
        let mut f: Vec<String> = fen.split(' ').map(str::to_string).collect();
        if f.len() > 2 {
            f[2] = "-".into();
        }
        fen = f.join(" ");
    }
    def.start_fen = fen.clone();
    let variant = if rules.is_empty() {
        Variant::new(def)
    } else {
        Variant::with_hooks(def, hooks)
    }
    .map_err(|e| PresetError::Definition(e.to_string()))?;
    // A Chess960 layout is a Chess960 game: castling rights on any rook,
    // UCI castling king-takes-rook. A Chess960 game stays one.
    let c960 = variant.is_chess960() || matches!(layout, Some(Layout::Chess960(_)));
    let variant = variant.with_chess960(c960);
    // Refuse a layout the rules cannot read (e.g. no royal piece).
    houserules_engine::Game::from_fen(variant.clone(), &fen).map_err(|e| {
        PresetError::BadLayout {
            id: layout.map_or_else(|| format!("{} setup", base.id), |l| l.id()),
            reason: format!("its start position is not valid under these rules: {e}"),
        }
    })?;
    Ok((variant, fen))
}
