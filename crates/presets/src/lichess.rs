//! lichess's variants as shipped games: their ids, aliases, PGN `Variant`
//! tags and `UCI_Variant` names, and the rules each is built from (a YAML
//! game of the definitions crate, or FIDE chess under presets).
//!
//! Each is checked against python-chess 1.11.2's `chess.variant` boards
//! (`tests/lichess_differential.rs`) and against the variant perft files
//! of scalachess (`houserules-engine`'s `tests/variant_perft.rs`).

use houserules_engine::bitboard::BitSet;
use houserules_engine::definition::GameDefinition;
use houserules_engine::hooks::{HookProfile, HookResult, ListRule, Royalty, RuleHooks};
use houserules_engine::{Color, Move, MoveKind, Position, Tables, Variant};

use crate::{build_from_str, PresetError};

pub use crate::lichess_atomic::Atomic;

/// A lichess variant shipped as a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LichessGame {
    /// Our id (`--game`), also python-chess's and Fairy-Stockfish's
    /// `UCI_Variant` name.
    pub id: &'static str,
    /// Other names accepted for `--game`, `UCI_Variant` and PGN tags.
    pub aliases: &'static [&'static str],
    /// The PGN `Variant` tag as lichess writes it.
    pub pgn: &'static str,
    /// How the rules are built.
    source: Source,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// A shipped YAML game of the definitions crate.
    Yaml(&'static str),
    /// FIDE chess under these presets (`--rules` syntax).
    Presets(&'static str),
    /// FIDE chess with the King of the Hill rule ([`KingOfTheHill`]).
    KingOfTheHill,
    /// FIDE pieces racing their kings ([`RacingKings`]).
    RacingKings,
    /// FIDE chess whose captures explode ([`Atomic`]).
    Atomic,
}

/// The shipped lichess games, in lichess's order.
pub const LICHESS_GAMES: &[LichessGame] = &[
    LichessGame {
        id: "crazyhouse",
        aliases: &["crazy house", "house", "zh"],
        pgn: "Crazyhouse",
        source: Source::Yaml("crazyhouse"),
    },
    LichessGame {
        id: "3check",
        aliases: &["three-check", "threecheck", "three check"],
        pgn: "Three-check",
        source: Source::Yaml("3check"),
    },
    LichessGame {
        id: "antichess",
        aliases: &["giveaway", "suicide", "anti"],
        pgn: "Antichess",
        source: Source::Presets("suicide-chess"),
    },
    LichessGame {
        id: "kingofthehill",
        aliases: &["king-of-the-hill", "koth"],
        pgn: "King of the Hill",
        source: Source::KingOfTheHill,
    },
    LichessGame {
        id: "racingkings",
        aliases: &["racing-kings", "racing", "race"],
        pgn: "Racing Kings",
        source: Source::RacingKings,
    },
    LichessGame {
        id: "atomic",
        aliases: &["atom", "atomic chess"],
        pgn: "Atomic",
        source: Source::Atomic,
    },
    LichessGame {
        id: "horde",
        aliases: &["horde chess"],
        pgn: "Horde",
        source: Source::Yaml("horde"),
    },
];

/// The lichess game `name` names: its id, an alias or its PGN tag, case
/// and `-`/`_`/space ignored (`King of the Hill`, `king-of-the-hill`,
/// `kingofthehill`).
pub fn find(name: &str) -> Option<&'static LichessGame> {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let k = key(name);
    if k.is_empty() {
        return None;
    }
    LICHESS_GAMES
        .iter()
        .find(|g| key(g.id) == k || key(g.pgn) == k || g.aliases.iter().any(|a| key(a) == k))
}

impl LichessGame {
    /// The game's rules and start FEN.
    ///
    /// # Errors
    /// [`PresetError`] when the rules do not build (a bug: each is tested).
    pub fn build(&self) -> Result<(Variant, String), PresetError> {
        match self.source {
            Source::Yaml(id) => {
                let def = houserules_definitions::builtin(id).ok_or_else(|| {
                    PresetError::Definition(format!("the shipped game {id} does not load"))
                })?;
                let fen = def.start_fen.clone();
                let v = Variant::new(def).map_err(|e| PresetError::Definition(e.to_string()))?;
                Ok((v, fen))
            }
            Source::Presets(rules) => build_from_str(rules, None),
            Source::KingOfTheHill => {
                let mut def = GameDefinition::fide();
                def.id = "kingofthehill".into();
                def.name = "King of the Hill".into();
                // A king can always walk to the hill: no dead position
                // (python-chess's `has_insufficient_material` is false).
                def.end.insufficient_material = false;
                let fen = def.start_fen.clone();
                let v = Variant::with_hooks(def, KingOfTheHill)
                    .map_err(|e| PresetError::Definition(e.to_string()))?;
                Ok((v, fen))
            }
            Source::RacingKings => {
                let def = racing_kings_definition();
                let fen = def.start_fen.clone();
                let v = Variant::with_hooks(def, RacingKings)
                    .map_err(|e| PresetError::Definition(e.to_string()))?;
                Ok((v, fen))
            }
            Source::Atomic => {
                let mut def = GameDefinition::fide();
                def.id = "atomic".into();
                def.name = "Atomic".into();
                let fen = def.start_fen.clone();
                let v = Variant::with_hooks(def, Atomic)
                    .map_err(|e| PresetError::Definition(e.to_string()))?;
                Ok((v, fen))
            }
        }
    }

    /// Whether the game is a YAML game of the definitions crate (listed by
    /// `houserules_definitions::builtin_ids`); the others are presets on
    /// FIDE chess.
    pub fn is_yaml(&self) -> bool {
        matches!(self.source, Source::Yaml(_))
    }
}

/// FIDE pieces from Racing Kings' start, without castling or dead
/// positions.
fn racing_kings_definition() -> GameDefinition {
    let mut def = GameDefinition::fide();
    def.id = "racingkings".into();
    def.name = "Racing Kings".into();
    def.castling = None;
    def.end.insufficient_material = false;
    def.start_fen = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1".into();
    def
}

/// Racing Kings without its "no move may give check" rule: the FIDE
/// pieces from its start under [`RacingKingsGoal`] alone, and its start
/// FEN. With the custom modifier `forbid-move {"givesCheck": true}`
/// attached it plays Racing Kings (issue 25 item 4; tested against
/// python-chess in the modifiers crate's `tests/racing_kings_modifier.rs`).
///
/// # Errors
/// [`PresetError`] when the rules do not build (a bug: tested).
pub fn racing_kings_goal_only() -> Result<(Variant, String), PresetError> {
    let def = racing_kings_definition();
    let fen = def.start_fen.clone();
    let v = Variant::with_hooks(def, RacingKingsGoal)
        .map_err(|e| PresetError::Definition(e.to_string()))?;
    Ok((v, fen))
}

/// King of the Hill (lichess; python-chess's `KingOfTheHillBoard`): FIDE
/// chess, and a side whose king stands on one of the four centre squares
/// (d4, e4, d5, e5) wins at once (the game is over: no moves follow).
/// Moves are otherwise FIDE's, so the engine's own legal generator runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct KingOfTheHill;

impl KingOfTheHill {
    /// The centre squares on a `t` board (the middle two files and ranks).
    fn hill<B: BitSet>(t: &Tables<B>) -> B {
        let (w, h) = (t.width(), t.height());
        let mut b = B::EMPTY;
        for r in [(h - 1) / 2, h / 2] {
            for f in [(w - 1) / 2, w / 2] {
                b |= B::bit(r * w + f);
            }
        }
        b
    }
}

impl<B: BitSet> RuleHooks<B> for KingOfTheHill {
    fn profile(&self) -> HookProfile {
        HookProfile {
            piece_moves: false,
            extra_moves: false,
            filter_move: false,
            list_rule: ListRule::Keep,
            royalty: Royalty::Engine,
            effects: false,
            board_effects: false,
            engine_attacks: true,
            game_over: true,
            own_moves: false,
        }
    }

    /// A king on the hill ends the game: no legal moves after it (as
    /// python-chess's `generate_legal_moves` at a variant end).
    fn game_over(&self, t: &Tables<B>, pos: &Position<B>) -> bool {
        let hill = Self::hill(t);
        Color::ALL.iter().any(|&c| (pos.royals(t, c) & hill).any())
    }

    fn filter_moves(&self, t: &Tables<B>, pos: &Position<B>, moves: &mut Vec<Move>) {
        if RuleHooks::<B>::game_over(self, t, pos) {
            moves.clear();
        }
    }

    fn game_result(&self, t: &Tables<B>, pos: &Position<B>, _legal: &[Move]) -> Option<HookResult> {
        let hill = Self::hill(t);
        let us = pos.turn();
        // python-chess's order: the opponent on the hill (a loss for the
        // side to move) before the side to move on it.
        for winner in [us.flip(), us] {
            if (pos.royals(t, winner) & hill).any() {
                return Some(HookResult {
                    winner: Some(winner),
                    reason: "king-of-the-hill".into(),
                });
            }
        }
        None
    }
}

/// Racing Kings (lichess; python-chess's `RacingKingsBoard`): no move may
/// give check; a king on the last rank wins, except that when White's
/// king arrives first Black gets one more move to arrive too (a draw). The
/// game is over (no moves) once decided. No dead positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RacingKings;

impl RacingKings {
    fn goal<B: BitSet>(t: &Tables<B>) -> B {
        let (w, h) = (t.width(), t.height());
        let mut b = B::EMPTY;
        for f in 0..w {
            b |= B::bit((h - 1) * w + f);
        }
        b
    }

    /// python-chess's `is_variant_end`.
    fn over<B: BitSet>(t: &Tables<B>, pos: &Position<B>) -> bool {
        let goal = Self::goal(t);
        let (white, black) = (pos.royals(t, Color::White), pos.royals(t, Color::Black));
        if ((white | black) & goal).is_empty() {
            return false;
        }
        if pos.turn() == Color::White || (black & goal).any() || black.is_empty() {
            return true;
        }
        // White has arrived; Black to move arrives too unless every goal
        // square next to its king is attacked (python-chess's test, on the
        // board as it stands).
        let k = black.lsb();
        let occ = pos.occupied();
        let targets = t.leap_attacks(Color::Black, houserules_engine::PieceKind(5), k)
            & goal
            & !pos.by_color(Color::Black);
        targets
            .iter()
            .all(|s| pos.is_attacked(t, s, occ, Color::White))
    }
}

/// What the "gives check" test needs of a position, gathered once (FIDE
/// pieces, as [`racing_kings_definition`] builds them): the enemy king's
/// square, for each kind the squares from which a piece of ours of that
/// kind would attack it, and our pieces whose move may open a line onto
/// it.
struct CheckSquares<B> {
    /// For each FIDE kind, the squares from which our piece of that kind
    /// attacks the enemy king over the board as it stands: the attacks of
    /// an enemy piece of that kind from the king's square (FIDE pieces'
    /// attacks are symmetric under the colour flip; a pawn's are its
    /// captures, the other colour's pawn captures reversed).
    direct: [B; 6],
    /// Our pieces that stand first on a line from the enemy king with one
    /// of our riders behind them (`Position::may_uncover`): their moves are
    /// played to be judged.
    discoverers: B,
}

impl<B: BitSet> CheckSquares<B> {
    /// `None` when the enemy has no king or more than one (every move is
    /// then played to be judged).
    fn new(t: &Tables<B>, pos: &Position<B>) -> Option<CheckSquares<B>> {
        use crate::lichess_atomic::{PAWN, QUEEN};
        let us = pos.turn();
        let them = us.flip();
        let kings = pos.royals(t, them);
        if kings.count() != 1 {
            return None;
        }
        let ksq = kings.lsb();
        let occ = pos.occupied();
        let mut direct = [B::EMPTY; 6];
        for (k, d) in direct.iter_mut().enumerate() {
            let kind = houserules_engine::PieceKind(k as u8);
            *d = t.leap_attacks(them, kind, ksq);
            if kind != PAWN {
                // Rides up to and including the first piece (every FIDE
                // shape but the pawn's moves and captures alike).
                *d |= pos.shape_reach(t, kind, them, ksq, occ, occ);
            }
        }
        let lines = pos.shape_reach(t, QUEEN, them, ksq, occ, occ) & pos.by_color(us);
        let mut discoverers = B::EMPTY;
        for s in lines.iter() {
            if pos.may_uncover(t, ksq, s, us) {
                discoverers |= B::bit(s);
            }
        }
        Some(CheckSquares {
            direct,
            discoverers,
        })
    }

    /// Whether the legal move `m` gives check: by the moved piece from its
    /// destination, or (played) when it may open a line, promotes, or is
    /// not a plain move.
    #[inline(always)]
    fn gives_check(&self, t: &Tables<B>, pos: &Position<B>, m: Move) -> bool {
        let plain = matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
            && m.promotion.is_none()
            && !self.discoverers.has(m.from);
        match pos.piece_at(m.from) {
            Some(p) if plain && p.kind.index() < 6 => self.direct[p.kind.index()].has(m.to),
            _ => RacingKings::gives_check_by_play(t, pos, m),
        }
    }
}

impl RacingKings {
    /// Whether `m` gives check, by playing it.
    fn gives_check_by_play<B: BitSet>(t: &Tables<B>, pos: &Position<B>, m: Move) -> bool {
        let mut after = *pos;
        after.play_unchecked(t, m);
        after.is_check(t)
    }
}

impl<B: BitSet> RuleHooks<B> for RacingKings {
    fn profile(&self) -> HookProfile {
        HookProfile {
            piece_moves: false,
            extra_moves: false,
            filter_move: true,
            list_rule: ListRule::Keep,
            royalty: Royalty::Engine,
            effects: false,
            board_effects: false,
            engine_attacks: true,
            game_over: true,
            // The engine's legal moves without those that give check,
            // judged by check squares rather than by playing each move.
            own_moves: true,
        }
    }

    fn own_legal_moves(&self, t: &Tables<B>, pos: &Position<B>, out: &mut Vec<Move>) {
        if Self::over(t, pos) {
            return;
        }
        let start = out.len();
        pos.engine_legal_moves_into(t, out);
        let checks = CheckSquares::new(t, pos);
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            let check = match &checks {
                Some(c) => c.gives_check(t, pos, m),
                None => Self::gives_check_by_play(t, pos, m),
            };
            if !check {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
    }

    fn own_legal_count(&self, t: &Tables<B>, pos: &Position<B>) -> u64 {
        if Self::over(t, pos) {
            return 0;
        }
        let list = |pos: &Position<B>| {
            let mut v = Vec::new();
            RuleHooks::<B>::own_legal_moves(self, t, pos, &mut v);
            v.len() as u64
        };
        let Some(c) = CheckSquares::new(t, pos) else {
            return list(pos);
        };
        let mut promotions = 0u64;
        pos.for_each_promotion(t, |_| promotions += 1);
        let mut n = 0u64;
        let fast = pos.engine_legal_target_sets(t, |b| {
            let each = if b.promote { promotions } else { 1 };
            if b.delta == 0 && !b.promote && b.kind == MoveKind::Normal {
                if let Some(p) = pos.piece_at(b.from) {
                    if p.kind.index() < 6 && !c.discoverers.has(b.from) {
                        n += u64::from((b.targets & !c.direct[p.kind.index()]).count());
                        return;
                    }
                }
            }
            for to in b.targets.iter() {
                let from = if b.delta == 0 {
                    b.from
                } else {
                    (to as i32 - b.delta as i32) as u8
                };
                if b.promote {
                    pos.for_each_promotion(t, |k| {
                        let m = Move {
                            from,
                            to,
                            promotion: Some(k),
                            kind: b.kind,
                        };
                        n += u64::from(!c.gives_check(t, pos, m));
                    });
                } else {
                    let m = Move {
                        from,
                        to,
                        promotion: None,
                        kind: b.kind,
                    };
                    n += u64::from(!c.gives_check(t, pos, m)) * each;
                }
            }
        });
        if fast {
            n
        } else {
            list(pos)
        }
    }

    fn game_over(&self, t: &Tables<B>, pos: &Position<B>) -> bool {
        Self::over(t, pos)
    }

    /// A decided race has no moves.
    fn filter_moves(&self, t: &Tables<B>, pos: &Position<B>, moves: &mut Vec<Move>) {
        if Self::over(t, pos) {
            moves.clear();
        }
    }

    /// No move may give check.
    fn filter_move(&self, t: &Tables<B>, pos: &Position<B>, m: Move) -> bool {
        let mut after = *pos;
        after.play_unchecked(t, m);
        !after.is_check(t)
    }

    fn game_result(&self, t: &Tables<B>, pos: &Position<B>, _legal: &[Move]) -> Option<HookResult> {
        if !Self::over(t, pos) {
            return None;
        }
        let goal = Self::goal(t);
        let us = pos.turn();
        let arrived = |c: Color| (pos.royals(t, c) & goal).any();
        let winner = match (arrived(us), arrived(us.flip())) {
            (false, _) => Some(us.flip()),
            (true, false) => Some(us),
            (true, true) => None,
        };
        Some(HookResult {
            winner,
            reason: "racing-kings".into(),
        })
    }
}

/// Racing Kings' goal alone ([`RacingKings`] without its move filter): a
/// king on the last rank wins, Black's last chance, no moves once
/// decided. Moves that give check stay legal; the modifier language's
/// `forbid-move {"givesCheck": true}` removes them
/// ([`racing_kings_goal_only`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct RacingKingsGoal;

impl<B: BitSet> RuleHooks<B> for RacingKingsGoal {
    fn profile(&self) -> HookProfile {
        HookProfile {
            filter_move: false,
            own_moves: false,
            ..RuleHooks::<B>::profile(&RacingKings)
        }
    }

    fn game_over(&self, t: &Tables<B>, pos: &Position<B>) -> bool {
        RacingKings::over(t, pos)
    }

    fn filter_moves(&self, t: &Tables<B>, pos: &Position<B>, moves: &mut Vec<Move>) {
        RuleHooks::<B>::filter_moves(&RacingKings, t, pos, moves);
    }

    fn game_result(&self, t: &Tables<B>, pos: &Position<B>, legal: &[Move]) -> Option<HookResult> {
        RuleHooks::<B>::game_result(&RacingKings, t, pos, legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_finds_its_game() {
        for (name, id) in [
            ("zh", "crazyhouse"),
            ("Crazyhouse", "crazyhouse"),
            ("giveaway", "antichess"),
            ("King of the Hill", "kingofthehill"),
            ("king-of-the-hill", "kingofthehill"),
        ] {
            assert_eq!(find(name).map(|g| g.id), Some(id), "{name}");
        }
        assert!(find("").is_none() && find("chess").is_none());
    }

    #[test]
    fn the_hill_is_the_four_centre_squares() {
        let v = Variant::chess();
        let t = v.tables_u64().expect("8x8");
        // d4 = 27, e4 = 28, d5 = 35, e5 = 36.
        assert_eq!(
            KingOfTheHill::hill(t),
            (1u64 << 27) | (1 << 28) | (1 << 35) | (1 << 36)
        );
    }
}
