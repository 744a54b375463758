//! Undo from checkpoints (issue 21: a ply no longer keeps a full
//! position; [`Game::undo`] rebuilds the position before the move from the
//! last kept position and the moves since). Each test keeps its own copy of
//! every position as the game passes it — the reference the undo must give
//! back exactly, every field of the position (pieces, ids, attributes,
//! castling, en passant, clocks, hash, rule slots) — and checks the
//! repetition keys against the hashes seen.

mod common;

use common::WhiteForever;
use houserules_engine::{Color, Game, GameDefinition, GameError, Position, Variant};

/// A seeded xorshift, for random playouts that are the same every run.
struct Rng(u64);
impl Rng {
    fn pick(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn pos(g: &Game) -> Position<u64> {
    *g.position::<u64>().expect("an 8x8 game")
}

/// Plays up to `plies` random legal moves, returning the positions before
/// each move played (the reference for undo).
fn play_random(g: &mut Game, plies: usize, rng: &mut Rng) -> Vec<Position<u64>> {
    let mut seen = Vec::new();
    for _ in 0..plies {
        let legal = g.legal_moves();
        if legal.is_empty() {
            break;
        }
        seen.push(pos(g));
        g.apply(legal[rng.pick(legal.len())]).unwrap();
    }
    seen
}

/// Undoes every move in `seen` (last first), checking each position and
/// the repetition keys against the positions seen.
fn undo_all(g: &mut Game, seen: &[Position<u64>], what: &str) {
    for (i, before) in seen.iter().enumerate().rev() {
        g.undo()
            .unwrap_or_else(|e| panic!("{what}: undo to ply {i}: {e}"));
        assert_eq!(&pos(g), before, "{what}: position after undo to ply {i}");
        assert_eq!(
            g.history_keys().last(),
            Some(&before.hash()),
            "{what}: key at ply {i}"
        );
    }
}

#[test]
fn undo_replays_from_checkpoints_to_the_exact_position() {
    // Several games of up to 200 plies: undo crosses many checkpoints and
    // lands on every offset from one (the checkpoints are 16 plies apart).
    for seed in 1..=6u64 {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ seed);
        let mut g = Game::chess();
        let seen = play_random(&mut g, 200, &mut rng);
        assert!(seen.len() > 40, "seed {seed}: the game is long enough");
        let keys: Vec<u64> = seen.iter().map(|p| p.hash()).collect();
        assert_eq!(
            &g.history_keys()[..keys.len()],
            &keys[..],
            "seed {seed}: keys"
        );
        let current = pos(&g);
        // A takeback in the middle, then on again: the history stays exact.
        let mut h = g.clone();
        for _ in 0..23 {
            h.undo().unwrap();
        }
        assert_eq!(pos(&h), seen[seen.len() - 23]);
        let mut again = seen[..seen.len() - 23].to_vec();
        again.extend(play_random(&mut h, 30, &mut rng));
        undo_all(&mut h, &again, &format!("seed {seed}, after a takeback"));
        assert_eq!(pos(&g), current);
        undo_all(&mut g, &seen, &format!("seed {seed}"));
        assert!(matches!(g.undo(), Err(GameError::NothingToUndo)));
        assert_eq!(g.fen(), Game::chess().fen());
    }
}

#[test]
fn undo_replays_each_move_under_the_rules_it_was_played_under() {
    // 21 FIDE plies, then 25 under rules where White keeps the move, then
    // FIDE again: the undo of a move of each part must replay it under its
    // own rules (replayed under FIDE, a White move would pass the turn).
    let fide = Variant::chess();
    let forever = Variant::with_hooks(GameDefinition::fide(), WhiteForever).unwrap();
    let mut rng = Rng(77);
    let mut g = Game::chess();
    let mut seen = play_random(&mut g, 21, &mut rng);
    g.set_variant(forever).unwrap();
    let before = g.turn();
    seen.extend(play_random(&mut g, 25, &mut rng));
    if before == Color::White {
        assert_eq!(g.turn(), Color::White, "the turn stayed with White");
    }
    g.set_variant(fide).unwrap();
    seen.extend(play_random(&mut g, 20, &mut rng));
    assert_eq!(seen.len(), 66, "every part was played in full");
    undo_all(&mut g, &seen, "three rule sets");
}

#[test]
fn undo_stops_at_a_board_rewrite_and_replays_from_it() {
    let mut rng = Rng(5);
    let mut g = Game::chess();
    play_random(&mut g, 37, &mut rng);
    // A rewrite (modifier-rulings C6) starts a new history.
    // Remove the first piece that is not a king (FIDE kind order P N B R
    // Q K).
    g.edit_small(|p, _t| {
        let sq = (0..64)
            .find(|&s| p.piece_at(s).is_some_and(|pc| pc.kind.0 != 5))
            .unwrap();
        p.remove_piece(sq);
    })
    .unwrap();
    let moves_before = g.moves().len();
    let seen = play_random(&mut g, 40, &mut rng);
    assert_eq!(g.moves().len(), moves_before + seen.len());
    assert_eq!(g.history_keys().len(), seen.len() + 1);
    undo_all(&mut g, &seen, "after a rewrite");
    assert!(matches!(g.undo(), Err(GameError::NothingToUndo)));
    assert_eq!(
        g.moves().len(),
        moves_before,
        "the moves before the rewrite stay"
    );
}
