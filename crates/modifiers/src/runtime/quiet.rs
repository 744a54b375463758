//! The quiet path: a move played when nothing listens to it.
//!
//! With no modifier attached, no marker on the board, no draft and no
//! dispatch in progress, the after-move dispatch (rulings A2) fires no
//! trigger: every stage finds no arm, no marker is entered, nothing
//! expires. What is left is the engine's move and the runtime's
//! bookkeeping, which this path does directly, without the ply's JSON
//! snapshots and the work queue (issue 12 § Session speed: a session with
//! no modifier plays a move at a small multiple of the engine's cost).
//!
//! The state it leaves must equal the dispatch's, field for field:
//! `tests/quiet_path.rs` plays random games of random preset rule sets
//! both ways and compares the snapshots after every move.

use super::*;

impl Runtime {
    /// Whether a move would fire nothing: the quiet path applies.
    pub(crate) fn is_quiet(&self) -> bool {
        !self.dispatch_always
            && self.st.modifiers.is_empty()
            && self.st.markers.is_empty()
            && !self.st.draft
            && !self.st.cursor.skip
            && self.st.cursor.items.is_empty()
            && self.st.cursor.queue.is_empty()
    }

    /// Plays the legal move `m` (recorded as `recorded`) as the dispatch
    /// would with nothing attached: the `move` log entry, the engine's
    /// move, the ply count, the captured piece's attributes dropped, the
    /// check state cleared (nothing listens to it) and the royal-loss
    /// result.
    pub(crate) fn quiet_submit(&mut self, m: Move, recorded: String) -> String {
        let mover = self.game.turn();
        let hp_log = self.hp_before();
        let blast = self.blast_before();
        let captured = if self.st.attrs.is_empty() && hp_log.is_empty() && blast.is_empty() {
            None
        } else {
            self.captured_id(m, mover)
        };
        let mover_id = self.position().piece_id(m.from);
        self.log("move", json!({"uci": recorded, "color": mover.name()}));
        self.st.cursor.cancelled = false;
        self.record_repetition();
        self.game.apply_unchecked(m);
        self.log_hp_changes(&hp_log, captured, (mover_id, m.to));
        self.log_explosion(&blast, captured, (m.from, m.to));
        self.st.ply_count += 1;
        self.st.skips_in_row = 0;
        if let Some(id) = captured {
            self.st.attrs.remove(&id);
        }
        self.st.checked.clear();
        self.st.check_pairs.clear();
        self.judge_royal_loss();
        recorded
    }

    /// The id of the piece `m` captures, before it is played (en passant:
    /// the pawn beside the destination).
    pub(crate) fn captured_id(&self, m: Move, mover: Color) -> Option<u16> {
        let pos = self.position();
        let sq = match m.kind {
            MoveKind::Castle => return None,
            MoveKind::EnPassant => {
                let g = self.geom;
                g.at(i32::from(g.file(m.to)), i32::from(g.rank(m.from)))?
            }
            _ => m.to,
        };
        pos.piece_at(sq)
            .filter(|p| p.color != mover)
            .map(|_| pos.piece_id(sq))
    }

    /// Sends every later move through the whole dispatch, as if something
    /// listened: the reference of the quiet path's differential test.
    #[doc(hidden)]
    pub fn dispatch_every_move(&mut self) {
        self.dispatch_always = true;
    }
}
