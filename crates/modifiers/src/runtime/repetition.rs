//! Repetition under the rules in force (issue 25 item 4): a position
//! repeats only when the board (the engine's Zobrist hash: pieces, side
//! to move, castling, en passant, rule-layer slots, attribute bytes such
//! as `piece-hp`'s hit points) *and* the rule state are the same.
//!
//! The rule state is what decides how the game goes on from here:
//! - the attached modifiers (descriptor, chooser, parameters, their
//!   variables and auras, whether expiring) and, for a timed one, the
//!   plies it has left (not the ply it expires at: that never repeats);
//! - the markers (kind, square, owner, the plies a timed one has left,
//!   links and spawning modifier, by position in their lists rather than
//!   by entity id, which only grows);
//! - the per-piece attributes (hit points, counters), by the square of
//!   their piece, so that two knights that traded places count as the
//!   same position;
//! - the game variables (counters);
//! - the check state the check triggers compare with (by square), the
//!   skips in a row, a pending choice, a runtime result, and in draft
//!   mode where the ply count stands in the three-ply draft cycle.
//!
//! Left out: the random stream (it only moves on, and it is the future,
//! not the position), entity ids, the ply count itself and the log.
//!
//! The history is kept as the engine keeps its own ([`Game`]'s keys): a
//! key per move played, taken when the move is submitted (before any of
//! its triggers run), and counted back over the game's own window — the
//! moves since the last irreversible one (the half-move clock; every
//! earlier position in games with drops) and since the last board rewrite
//! (modifier-rulings C6: a rewrite starts a new repetition history). It is
//! not saved in the state: a restored session is rebuilt by replaying its
//! inputs, which rebuilds it, as the engine's history is.
//!
//! [`Game`]: houserules_engine::Game

use serde::Serialize;
use serde_json::Value;

use super::*;

/// An instance as the repetition key sees it.
#[derive(Serialize)]
struct InstanceKey<'a> {
    descriptor: &'a str,
    chooser: &'static str,
    /// `None` permanent, `Some(n)` plies left, `Some(u32::MAX)` one-shot.
    left: Option<u32>,
    params: &'a BTreeMap<String, Value>,
    vars: &'a BTreeMap<String, Value>,
    auras: &'a [Value],
    expiring: bool,
}

/// A marker as the repetition key sees it.
#[derive(Serialize)]
struct MarkerKey {
    kind: crate::descriptor::MarkerKind,
    square: u8,
    /// `None` permanent, `Some(n)` plies left, `Some(u32::MAX)` one-shot.
    left: Option<u32>,
    owner: Option<&'static str>,
    /// Positions of the linked markers in the marker list.
    links: Vec<Option<usize>>,
    /// Position of the spawning instance in the modifier list.
    source: Option<usize>,
}

/// The rule state a repetition compares (see the module documentation).
#[derive(Serialize)]
struct RuleKey<'a> {
    modifiers: Vec<InstanceKey<'a>>,
    markers: Vec<MarkerKey>,
    attrs: Vec<(u8, &'a BTreeMap<String, Value>)>,
    vars: &'a BTreeMap<String, Value>,
    checked: Vec<Option<u8>>,
    check_pairs: Vec<(Option<u8>, Option<u8>)>,
    skips_in_row: u32,
    pending: usize,
    result: &'a Option<Value>,
    draft_cycle: Option<u32>,
}

impl Runtime {
    /// The repetition key of the current position: the board's Zobrist
    /// hash combined with a hash of the rule state (module
    /// documentation). With no rule state at all (nothing attached, no
    /// marker, attribute or variable) it is the board's hash alone, as in
    /// a game without modifiers.
    pub fn repetition_key(&self) -> u64 {
        let rule = self.rule_state_hash();
        if rule == 0 {
            return self.game.hash();
        }
        // SplitMix64's finaliser, so that the FNV part and the Zobrist
        // hash do not cancel.
        let mut x = rule;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
        self.game.hash() ^ x
    }

    /// FNV-1a over the rule state's JSON form; 0 when there is none.
    fn rule_state_hash(&self) -> u64 {
        let st = &self.st;
        if st.modifiers.is_empty()
            && st.markers.is_empty()
            && st.attrs.is_empty()
            && st.vars.is_empty()
            && st.checked.is_empty()
            && st.check_pairs.is_empty()
            && st.pending.is_empty()
            && st.result.is_none()
            && st.skips_in_row == 0
            && !st.draft
        {
            return 0;
        }
        let now = st.ply_count;
        let square_of = |id: u16| self.find_piece(id).map(|p| p.sq);
        let instance_at = |id: u32| st.modifiers.iter().position(|m| m.id == id);
        let view = RuleKey {
            modifiers: st
                .modifiers
                .iter()
                .map(|m| InstanceKey {
                    descriptor: &m.descriptor,
                    chooser: m.chooser.name(),
                    left: match m.lifetime {
                        Lifetime::Permanent => None,
                        Lifetime::Moves { expires_at_move } => {
                            Some(expires_at_move.saturating_sub(now))
                        }
                        Lifetime::OneShot => Some(u32::MAX),
                    },
                    params: &m.params,
                    vars: &m.vars,
                    auras: &m.auras,
                    expiring: m.expiring,
                })
                .collect(),
            markers: st
                .markers
                .iter()
                .map(|m| MarkerKey {
                    kind: m.kind,
                    square: m.square,
                    left: match m.lifetime {
                        MarkerLifetime::Permanent => None,
                        MarkerLifetime::Moves { expires_at_move } => {
                            Some(expires_at_move.saturating_sub(now))
                        }
                        MarkerLifetime::OneShot => Some(u32::MAX),
                    },
                    owner: m.owner.map(Color::name),
                    links: m
                        .links
                        .iter()
                        .map(|l| st.markers.iter().position(|o| o.id == *l))
                        .collect(),
                    source: instance_at(m.source),
                })
                .collect(),
            attrs: {
                let mut a: Vec<(u8, &BTreeMap<String, Value>)> = st
                    .attrs
                    .iter()
                    .filter(|(_, v)| !v.is_empty())
                    .filter_map(|(id, v)| square_of(*id).map(|sq| (sq, v)))
                    .collect();
                a.sort_by_key(|(sq, _)| *sq);
                a
            },
            vars: &st.vars,
            checked: st.checked.iter().map(|id| square_of(*id)).collect(),
            check_pairs: st
                .check_pairs
                .iter()
                .map(|(a, r)| (square_of(*a), square_of(*r)))
                .collect(),
            skips_in_row: st.skips_in_row,
            pending: st.pending.len(),
            result: &st.result,
            draft_cycle: st.draft.then_some(now % 3),
        };
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        // Writing into a hasher cannot fail; a value serde cannot write
        // (none in this state) would only weaken the key.
        let _ = serde_json::to_writer(&mut h, &view);
        // Never 0, which stands for "no rule state".
        h.0 | 1
    }

    /// How many times the current position has occurred under the rules
    /// in force (this one included): the board and the rule state
    /// ([`Runtime::repetition_key`]), counted over the moves played since
    /// the last irreversible move and the last board rewrite (module
    /// documentation).
    pub fn repetitions(&self) -> usize {
        let cur = self.repetition_key();
        // The game's history since its last rewrite: its keys are one per
        // position, the current one last, and ours one per move played.
        let since_rewrite = self.game.history_keys().len().saturating_sub(1);
        let window = if self.game.has_drops() {
            since_rewrite
        } else {
            since_rewrite.min(self.game.halfmove_clock() as usize)
        };
        1 + self
            .rep_keys
            .iter()
            .rev()
            .take(window)
            .filter(|&&k| k == cur)
            .count()
    }

    /// Records the key of the position a move starts from: called once
    /// per move played, just before the engine plays it (the key itself
    /// taken when the move was submitted, before its triggers ran).
    pub(crate) fn record_repetition(&mut self) {
        let key = self
            .ply_start_key
            .take()
            .unwrap_or_else(|| self.repetition_key());
        self.rep_keys.push(key);
    }

    /// Whether the game's automatic repetition draw (fivefold in FIDE
    /// chess) holds under the rules in force.
    pub(crate) fn auto_repetition(&self) -> bool {
        self.game
            .variant()
            .definition()
            .end
            .auto_repetitions
            .is_some_and(|n| self.repetitions() >= n as usize)
    }

    /// The draws the side to move may claim now under the rules in force,
    /// without announcing a move (threefold repetition first), as
    /// [`Game::claimable_draws`] gives them but with repetition counted
    /// by [`Runtime::repetitions`]. None while a choice is pending (the
    /// move that asked it is not over) or once the runtime decided a
    /// result.
    ///
    /// [`Game::claimable_draws`]: houserules_engine::Game::claimable_draws
    pub fn claimable_draws(&self) -> Vec<houserules_engine::Claim> {
        use houserules_engine::Claim;
        if !self.st.pending.is_empty() || self.st.result.is_some() {
            return Vec::new();
        }
        let end = &self.game.variant().definition().end;
        let mut claims = Vec::new();
        if end
            .claim_repetitions
            .is_some_and(|n| self.repetitions() >= n as usize)
        {
            claims.push(Claim::ThreefoldRepetition);
        }
        if end
            .claim_halfmoves
            .is_some_and(|n| self.game.halfmove_clock() >= n)
            && !self.rule_legal_moves().is_empty()
        {
            claims.push(Claim::FiftyMoveRule);
        }
        claims
    }

    /// The first of [`Runtime::claimable_draws`], if any.
    pub fn claimable_draw(&self) -> Option<houserules_engine::Claim> {
        self.claimable_draws().first().copied()
    }

    /// The draws the side to move may claim by announcing `m` (FIDE
    /// 9.2.1, 9.3.1): [`Runtime::claimable_draws`] of the position the
    /// move makes, its triggers included (played on a copy; the game is
    /// unchanged).
    ///
    /// # Errors
    /// The [`Refusal`] [`Runtime::submit_move`] gives when `m` is not a
    /// move the rules allow now.
    pub fn claimable_draw_after(&self, m: Move) -> Result<Vec<houserules_engine::Claim>, Refusal> {
        let legal = self.rule_legal_moves();
        let uci = self.write_uci(m, &legal, &self.game.legal_moves());
        let mut after = self.clone();
        after.submit_move(&uci)?;
        Ok(after.claimable_draws())
    }
}

/// FNV-1a over the bytes written.
pub(crate) struct Fnv(pub(crate) u64);

impl std::io::Write for Fnv {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
