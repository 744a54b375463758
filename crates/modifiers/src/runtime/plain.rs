//! Plain games: a runtime on a board of more than 64 squares (Capablanca
//! 10×8, Grand 10×10). The runtime's square sets are 64-bit, so nothing
//! can be attached there (no modifier, no draft: `request.unsupported-board`)
//! and such a game plays the engine's rules, presets included, through
//! the engine's generic [`Game`](houserules_engine::Game) API and its
//! `Position<u128>`: legal moves, check, SAN, the move itself, pieces and
//! the royal-loss result. The 8×8 and other small-board paths never come
//! here (one `plain` flag tested where they branch).

use houserules_engine::{BitSet, Color, Game, Move, MoveKind, Position, Tables};
use serde_json::json;

use super::{codes, refuse, PieceInfo, Refusal, Runtime};

/// The refusal of `what` (modifiers, draft mode) on the board of `game`,
/// naming game, size and square count.
pub(super) fn unsupported_board(game: &Game, what: &str) -> Refusal {
    let def = game.variant().definition();
    refuse(
        codes::UNSUPPORTED_BOARD,
        format!(
            "game `{}` has a {}×{} board ({} squares): {what} cannot run on it, since the \
             modifier runtime plays boards of at most 64 squares; games of another size are \
             played without modifiers",
            def.id,
            def.width,
            def.height,
            u16::from(def.width) * u16::from(def.height)
        ),
    )
}

impl Runtime {
    /// Whether modifiers can be attached to this game.
    ///
    /// # Errors
    /// [`codes::UNSUPPORTED_BOARD`], naming game and size, on a board of
    /// more than 64 squares (a plain game: played without modifiers).
    pub fn accepts_modifiers(&self) -> Result<(), Refusal> {
        if self.plain {
            return Err(unsupported_board(&self.game, "modifiers"));
        }
        Ok(())
    }

    /// The position and tables of a game on more than 64 squares (`None`
    /// on smaller boards).
    pub(crate) fn large(&self) -> Option<(&Position<u128>, &Tables<u128>)> {
        Some((
            self.game.position::<u128>()?,
            self.game.variant().tables_u128()?,
        ))
    }

    /// The royal squares of `color` as the rule hooks judge them.
    fn plain_royals(pos: &Position<u128>, t: &Tables<u128>, color: Color) -> u128 {
        match t.hooks() {
            Some(h) => h.royal_squares(t, pos, color),
            None => pos.royals(t, color),
        }
    }

    /// Legal moves of a plain game: the engine's (hooks included), less
    /// the captures of royals (modifier-rulings C2), as on small boards
    /// without modifiers.
    pub(crate) fn plain_legal_moves(&self) -> Vec<Move> {
        self.plain_filtered(self.game.legal_moves())
    }

    /// `moves` (the engine's legal moves) less the captures of an attacked
    /// enemy royal, under rules that filter self-check (C2; a rule set
    /// without the filter lets a king be taken). As `engine_legal_filtered`
    /// does on boards of at most 64 squares.
    pub(crate) fn plain_filtered(&self, mut moves: Vec<Move>) -> Vec<Move> {
        let Some((pos, t)) = self.large() else {
            return moves;
        };
        let hooks = t.hooks();
        if !hooks.is_none_or(|h| h.self_check_filter()) {
            return moves;
        }
        let us = pos.turn();
        let occ = pos.occupied();
        let mut hit = 0u128;
        for sq in Self::plain_royals(pos, t, us.flip()).iter() {
            if hooks.is_some() || pos.is_attacked(t, sq, occ, us) {
                hit |= u128::bit(sq);
            }
        }
        if hit != 0 {
            moves.retain(|m| m.kind == MoveKind::Castle || !hit.has(m.to));
        }
        moves
    }

    /// Whether `color` is in check in a plain game: for the side to move,
    /// the engine's judgement (its hooks included); for the other side, a
    /// royal attacked by the side to move.
    pub(crate) fn plain_in_check(&self, color: Color) -> bool {
        if color == self.game.turn() {
            return self.game.is_check();
        }
        let Some((pos, t)) = self.large() else {
            return false;
        };
        Self::plain_royals(pos, t, color)
            .iter()
            .any(|sq| !self.game.attackers(sq, color.flip()).is_empty())
    }

    /// The pieces of a plain game, by ascending square.
    pub(crate) fn plain_pieces(&self) -> Vec<PieceInfo> {
        let Some((pos, _)) = self.large() else {
            return Vec::new();
        };
        pos.occupied()
            .iter()
            .filter_map(|sq| {
                pos.piece_at(sq).map(|piece| PieceInfo {
                    id: pos.piece_id(sq),
                    sq,
                    piece,
                })
            })
            .collect()
    }

    /// Plays `m`, a legal move of a plain game, recorded as `recorded`:
    /// the move, `PlyCount + 1`, and the end of the input as on a small
    /// board without modifiers (nothing fires; the royal-loss result).
    ///
    /// # Errors
    /// [`codes::ILLEGAL_MOVE`] if the engine refuses the move (it cannot:
    /// `m` came from its legal moves); the runtime is then unchanged.
    pub(crate) fn plain_submit(&mut self, m: Move, recorded: String) -> Result<String, Refusal> {
        let mover = self.game.turn();
        self.game
            .apply(m)
            .map_err(|e| refuse(codes::ILLEGAL_MOVE, format!("`{recorded}`: {e}")))?;
        self.log("move", json!({"uci": recorded, "color": mover.name()}));
        self.st.ply_count += 1;
        self.st.skips_in_row = 0;
        self.st.checked.clear();
        self.st.check_pairs.clear();
        // The royal-loss result of `post` (dispatch.rs), for rule sets
        // that let a royal be captured.
        if self.st.result.is_none() && self.definition_has_royals() {
            if let Some((pos, t)) = self.large() {
                let has = |c: Color| Self::plain_royals(pos, t, c) != 0;
                let (w, b) = (has(Color::White), has(Color::Black));
                if !w || !b {
                    self.st.result = Some(match (w, b) {
                        (false, false) => json!({"status": "draw", "reason": "royal-loss"}),
                        (true, false) => json!({"status": "royal-loss", "winner": "white"}),
                        _ => json!({"status": "royal-loss", "winner": "black"}),
                    });
                }
            }
        }
        Ok(recorded)
    }
}
