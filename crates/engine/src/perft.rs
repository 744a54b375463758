//! Perft: counts the leaf nodes of the legal-move tree, the standard
//! correctness test of a move generator.

use crate::bitboard::BitSet;
use crate::position::Position;
use crate::tables::Tables;
use crate::types::Move;

impl<B: BitSet> Position<B> {
    /// Leaf count at `depth`. With `bulk`, the last ply is counted without
    /// playing its moves. Allocates one move buffer per ply, not per node.
    pub fn perft(&self, t: &Tables<B>, depth: u32, bulk: bool) -> u64 {
        let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        self.perft_with(t, depth, bulk, &mut bufs)
    }

    fn perft_with(&self, t: &Tables<B>, depth: u32, bulk: bool, bufs: &mut [Vec<Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        if bulk && depth == 1 {
            return self.count_legal(t);
        }
        let (mine, rest) = bufs.split_first_mut().expect("one buffer per ply");
        mine.clear();
        self.legal_moves_into(t, mine);
        // Hooks whose profile declares no move effects play moves as the
        // engine does (see HookProfile::effects).
        let hooks = t.hooks.as_deref().filter(|_| t.hook_profile.effects);
        if depth == 1 && hooks.is_none() {
            // Last ply without bulk counting: every move is still played,
            // without a call that would only return 1.
            let mut next = *self;
            for &m in mine.iter() {
                next.play_unchecked(t, m);
                std::hint::black_box(&next);
                next.restore_from(t, self, m);
            }
            return mine.len() as u64;
        }
        if bulk && depth == 2 {
            // Children counted in place (no call that would only count).
            let mut n = 0;
            match hooks {
                None => {
                    let mut next = *self;
                    for &m in mine.iter() {
                        next.play_unchecked(t, m);
                        n += next.count_legal(t);
                        next.restore_from(t, self, m);
                    }
                }
                Some(h) => {
                    for &m in mine.iter() {
                        let mut next = *self;
                        next.play_with_hooks(t, h, m);
                        n += next.count_legal(t);
                    }
                }
            }
            return n;
        }
        let mut n = 0;
        match hooks {
            Some(h) => {
                for &m in mine.iter() {
                    let mut next = *self;
                    next.play_with_hooks(t, h, m);
                    n += next.perft_with(t, depth - 1, bulk, rest);
                }
            }
            None => {
                let mut next = *self;
                for &m in mine.iter() {
                    next.play_unchecked(t, m);
                    n += next.perft_with(t, depth - 1, bulk, rest);
                    next.restore_from(t, self, m);
                }
            }
        }
        n
    }
}
