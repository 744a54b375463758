//! The versioned event stream of protocol 3 (issue 21): one `update` per
//! accepted input, built and serialised once for all its receivers, and a
//! short history of them for `resync` (as lila-ws keeps the last events
//! of a game for a client that missed some).
//!
//! Why a short history: a client that loses a frame or two (a brief
//! disconnect, a dropped queue) asks for what it missed and gets a few
//! small messages instead of the whole game; one that missed more gets
//! the full state, whose cost is then paid once, not per move.

use std::collections::VecDeque;
use std::sync::Arc;

use houserules_session::PieceOut;

use crate::protocol::PiecesChange;

/// How many of a game's latest updates are kept for `resync`: 16 messages
/// of about 1 KB each for FIDE chess (a few KB more with modifiers that
/// keep per-piece state), so that a loaded game's memory grows by tens of
/// KB at most. A gap older than this is answered with the full state.
pub const HISTORY_LEN: usize = 16;

/// The latest updates of one game, as serialised text, by `seq`.
#[derive(Debug, Default)]
pub struct History {
    kept: VecDeque<(u64, Arc<str>)>,
}

impl History {
    /// Keeps the update of `seq` (the next one after the last kept; a gap
    /// clears what was kept, so that the history is always contiguous).
    pub fn push(&mut self, seq: u64, text: Arc<str>) {
        if self.kept.back().is_some_and(|(s, _)| *s + 1 != seq) {
            self.kept.clear();
        }
        if self.kept.len() == HISTORY_LEN {
            self.kept.pop_front();
        }
        self.kept.push_back((seq, text));
    }

    /// The updates after `last_seq` up to `seq` (the game's current seq),
    /// in order, when all of them are kept; `None` when some are not (the
    /// client then gets the full state).
    pub fn since(&self, last_seq: u64, seq: u64) -> Option<Vec<Arc<str>>> {
        if last_seq > seq {
            return None;
        }
        let want = (seq - last_seq) as usize;
        let got: Vec<Arc<str>> = self
            .kept
            .iter()
            .filter(|(s, _)| *s > last_seq && *s <= seq)
            .map(|(_, t)| Arc::clone(t))
            .collect();
        (got.len() == want).then_some(got)
    }

    /// The update of `seq`, if kept.
    pub fn get(&self, seq: u64) -> Option<Arc<str>> {
        self.kept
            .iter()
            .rev()
            .find(|(s, _)| *s == seq)
            .map(|(_, t)| Arc::clone(t))
    }

    /// Forgets everything (the session was rebuilt from the store).
    pub fn clear(&mut self) {
        self.kept.clear();
    }
}

/// The pieces that differ between two piece lists, by stable piece id:
/// those gone from `new`, and those new or changed in any field (square,
/// type, colour, attributes). `None` when nothing changed. The cost is
/// O(n log n) in the pieces on the board, whatever the game's length.
pub fn pieces_change(old: &[PieceOut], new: &[PieceOut]) -> Option<PiecesChange> {
    let mut by_id: Vec<&PieceOut> = old.iter().collect();
    by_id.sort_unstable_by_key(|p| p.id);
    let changed: Vec<PieceOut> = new
        .iter()
        .filter(|p| match by_id.binary_search_by_key(&p.id, |q| q.id) {
            Ok(i) => by_id[i] != *p,
            Err(_) => true,
        })
        .cloned()
        .collect();
    let mut new_ids: Vec<u16> = new.iter().map(|p| p.id).collect();
    new_ids.sort_unstable();
    let removed: Vec<u16> = by_id
        .iter()
        .map(|p| p.id)
        .filter(|id| new_ids.binary_search(id).is_err())
        .collect();
    (!changed.is_empty() || !removed.is_empty()).then_some(PiecesChange { removed, changed })
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_session::ColorName;
    use std::collections::BTreeMap;

    fn piece(id: u16, square: &str, ty: &str) -> PieceOut {
        PieceOut {
            id,
            square: square.into(),
            ty: ty.into(),
            color: ColorName::White,
            attrs: BTreeMap::new(),
            base_attrs: BTreeMap::new(),
        }
    }

    #[test]
    fn history_answers_contiguous_gaps_only() {
        let mut h = History::default();
        for seq in 1..=20u64 {
            h.push(seq, Arc::from(format!("u{seq}")));
        }
        // 20 pushed, 16 kept: seqs 5..=20.
        let got = h.since(17, 20).unwrap();
        assert_eq!(
            got.iter().map(|t| &**t).collect::<Vec<_>>(),
            ["u18", "u19", "u20"]
        );
        assert_eq!(h.since(4, 20).unwrap().len(), 16);
        assert!(h.since(3, 20).is_none(), "seq 4 is no longer kept");
        assert_eq!(h.since(20, 20).unwrap().len(), 0);
        assert!(h.since(21, 20).is_none(), "a client ahead of the game");
        assert_eq!(h.get(20).as_deref(), Some("u20"));
        // A gap in the pushes restarts the history.
        h.push(22, Arc::from("u22"));
        assert!(h.since(20, 22).is_none());
        assert_eq!(h.since(21, 22).unwrap().len(), 1);
    }

    #[test]
    fn pieces_change_by_id() {
        // 1. e4 moves piece 12 from e2 to e4; exd5 then removes piece 20.
        let old = [
            piece(12, "e2", "pawn"),
            piece(20, "d5", "pawn"),
            piece(3, "d1", "queen"),
        ];
        let new = [piece(3, "d1", "queen"), piece(12, "d5", "pawn")];
        let c = pieces_change(&old, &new).unwrap();
        assert_eq!(c.removed, [20]);
        assert_eq!(c.changed, [piece(12, "d5", "pawn")]);
        assert!(pieces_change(&new, &new).is_none());
        // A promotion keeps the id and changes the type.
        let promoted = [piece(3, "d1", "queen"), piece(12, "d8", "queen")];
        let c = pieces_change(&new, &promoted).unwrap();
        assert!(c.removed.is_empty());
        assert_eq!(c.changed, [piece(12, "d8", "queen")]);
    }
}
