//! Legal moves from a compiled plan: the phases of the interpreter's
//! legality on move batches.

use super::*;
use houserules_engine::hooks::ListRule;

/// `(direction << 3) | distance` of a move along a line from `a` to `b`
/// (direction 0–7, distance 1–7), 0 when not on a line.
pub(super) const fn line_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let dx = (b % 8) as i32 - (a % 8) as i32;
            let dy = (b / 8) as i32 - (a / 8) as i32;
            let n = if dx.abs() > dy.abs() {
                dx.abs()
            } else {
                dy.abs()
            };
            if n != 0 && (dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
                let d = ((dx / n + 1) * 3 + (dy / n + 1)) as u8; // 0..8, 4 unused
                let d = if d > 4 { d - 1 } else { d };
                t[a][b] = (d << 3) | n as u8;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

pub(super) static LINES: [[u8; 64]; 64] = line_table();

impl Session {
    /// `interpreted_legal_moves`).
    pub(crate) fn legal_from_plan(&self, plan: &Plan) -> Vec<Move> {
        if !plan.any {
            return self.engine_legal_filtered(self.game.legal_moves());
        }
        self.legal_from_busy_plan(plan)
    }

    /// The rules' legal moves and the engine's ([`Game::legal_moves`]),
    /// listing them once when no passive rule applies (the rules' moves are
    /// then the engine's, less C2's royal captures).
    ///
    /// [`Game::legal_moves`]: houserules_engine::Game::legal_moves
    pub(crate) fn rule_and_engine_legal(&self) -> (Vec<Move>, Vec<Move>) {
        let both = self.legality_plan(0, |p| {
            if p.any {
                (self.legal_from_busy_plan(p), None)
            } else {
                let engine = self.game.legal_moves();
                (self.engine_legal_filtered(engine.clone()), Some(engine))
            }
        });
        match both {
            Some((rule, Some(engine))) => (rule, engine),
            Some((rule, None)) => (rule, self.game.legal_moves()),
            None => (self.interpreted_legal_moves(0), self.game.legal_moves()),
        }
    }

    /// No passive rule: the engine's own legality (`moves`), hooks
    /// included, less the captures of royals C2 forbids.
    pub(super) fn engine_legal_filtered(&self, mut moves: Vec<Move>) -> Vec<Move> {
        let (pos, t) = self.pos();
        let us = pos.turn();
        let them = us.flip();
        let hooks = t.hooks();
        let self_check = hooks.is_none_or(|h| h.self_check_filter());
        if self_check {
            // C2, for the royals we attack (castling lands on our rook).
            let occ = pos.occupied();
            let mut r = Board::Small(pos, t).royals(them) as u64;
            let mut hit = 0u64;
            while r != 0 {
                let sq = r.trailing_zeros() as u8;
                r &= r - 1;
                if hooks.is_some() || pos.is_attacked(t, sq, occ, us) {
                    hit |= 1u64 << sq;
                }
            }
            if hit != 0 {
                moves.retain(|m| m.kind == MoveKind::Castle || hit & (1u64 << m.to) == 0);
            }
        }
        moves
    }

    /// Legal moves under a plan with passive rules.
    pub(super) fn legal_from_busy_plan(&self, plan: &Plan) -> Vec<Move> {
        let (pos, t) = self.pos();
        let us = pos.turn();
        let them = us.flip();
        let hooks = t.hooks();
        // Phase 1 is the engine's legality with the game's hooks (A10):
        // a game its rules have decided has no moves, and a list-wide rule
        // (compulsory capture, RULINGS P15; P20's en passant) is judged on
        // the moves legal before the restrictions (`list_rule`).
        let list_rule = match hooks {
            Some(h) => {
                let prof = h.profile();
                if prof.game_over && h.game_over(t, pos) {
                    return Vec::new();
                }
                (prof.list_rule != ListRule::Keep).then_some(h)
            }
            None => None,
        };
        let self_check = hooks.is_none_or(|h| h.self_check_filter());
        let mut royals = [0u64; 2];
        royals[ci(us)] = Board::Small(pos, t).royals(us) as u64;
        royals[ci(them)] = Board::Small(pos, t).royals(them) as u64;
        // Attacks are FIDE's when nothing of theirs is disarmed (pieces
        // only leave the board by our move) and none of our royals may be
        // protected.
        let attacks_as_fide = hooks.is_none()
            && plan.protect_own.is_empty()
            && plan
                .disarm
                .iter()
                .all(|d| d.pieces.on(pos, them, royals[ci(them)]) == 0);
        let per_move_check = !attacks_as_fide && self_check && !plan.royals_safe;
        // Phase 2: single-move restrictions and royal captures (C2).
        let mut frozen_from = plan.forbid_from;
        // Protected enemy pieces: castling (onto our rook) and en passant
        // (onto an empty square) never meet them on the destination.
        let protected = plan
            .protect_targets
            .iter()
            .fold(0u64, |b, pm| b | pm.on(pos, them, royals[ci(them)]));
        let mut no_to = protected | plan.forbid_to;
        // C2: only enemy royals that we attack can be captured (castling
        // lands on our own rook).
        if self_check {
            let occ = pos.occupied();
            // Protected royals are off limits already.
            let mut r = royals[ci(them)] & !protected;
            while r != 0 {
                let sq = r.trailing_zeros() as u8;
                r &= r - 1;
                if hooks.is_some() || pos.is_attacked(t, sq, occ, us) {
                    no_to |= 1u64 << sq;
                }
            }
        }
        let mut general: Vec<MoveMask> = Vec::new();
        for f in &plan.forbid {
            let mm = f.on(pos, royals);
            if !mm.gate {
                continue;
            }
            if mm.only_from() {
                frozen_from |= mm.from;
            } else if mm.only_to() {
                no_to |= mm.to;
            } else {
                general.push(mm);
            }
        }
        let p2 = Phase2 {
            frozen_from,
            no_to,
            protected,
            general,
        };
        if hooks.is_none() && !per_move_check {
            if let Some(moves) = by_targets(plan, pos, t, royals, &p2, attacks_as_fide) {
                return moves;
            }
        }
        let mut moves = Vec::with_capacity(64);
        if attacks_as_fide {
            pos.legal_moves_into(t, &mut moves);
        } else {
            pos.pseudo_legal_moves_hooked(t, hooks, &mut moves);
        }
        let mut kf = plan
            .keep_farthest
            .iter()
            .map(|pm| pm.on(pos, us, royals[ci(us)]))
            .filter(|&c| c != 0);
        let first_kf = kf.next();
        let mut best = [0u32; 64];
        if per_move_check || hooks.is_some() {
            // Phase 2 and 3 filter single moves (they commute); a list
            // rule needs the moves before phase 2, so it runs after.
            if list_rule.is_none() {
                moves.retain(|m| p2.keeps(pos, *m));
            }
            // Phase 3: self-check under rule-aware attacks.
            if per_move_check {
                moves.retain(|m| {
                    let mut after = *pos;
                    match hooks {
                        Some(h) => after.play_with_hooks(t, h, *m),
                        None => after.play_unchecked(t, *m),
                    }
                    !self.plan_in_check(plan, &after, t, us)
                });
            }
            if hooks.is_some() {
                // Hooks may add a move twice.
                let mut seen = [0u64; 64];
                let mut out = Vec::with_capacity(moves.len());
                for m in moves {
                    if seen[m.from as usize] & (1u64 << m.to) == 0 || !out.contains(&m) {
                        seen[m.from as usize] |= 1u64 << m.to;
                        out.push(m);
                    }
                }
                moves = out;
            }
            if let Some(h) = list_rule {
                h.filter_moves(t, pos, &mut moves);
                moves.retain(|m| p2.keeps(pos, *m));
            }
            if let Some(chosen) = first_kf {
                for m in &moves {
                    note_farthest(&mut best, chosen, *m);
                }
            }
        } else if p2.frozen_from == 0 && p2.no_to == 0 && p2.general.is_empty() {
            // Nothing for phase 2 (then never an en passant victim either).
            if let Some(chosen) = first_kf {
                for m in &moves {
                    note_farthest(&mut best, chosen, *m);
                }
            }
        } else {
            // One pass: phase 2, and the farthest distances of the first
            // keep-farthest among the moves it keeps.
            let chosen = first_kf.unwrap_or(0);
            let mut w = 0;
            for r in 0..moves.len() {
                let m = moves[r];
                if p2.keeps(pos, m) {
                    note_farthest(&mut best, chosen, m);
                    moves[w] = m;
                    w += 1;
                }
            }
            moves.truncate(w);
        }
        // Phase 4: keep-farthest, per piece and direction.
        if let Some(chosen) = first_kf {
            moves.retain(|m| is_farthest(&best, chosen, *m));
        }
        for chosen in kf {
            best = [0u32; 64];
            for m in &moves {
                note_farthest(&mut best, chosen, *m);
            }
            moves.retain(|m| is_farthest(&best, chosen, *m));
        }
        // Phase 5: must-move-if-able, in attach order.
        for sm in &plan.must_move {
            let f = sm.on(pos, royals);
            if moves.iter().any(|m| f.matches(pos, *m)) {
                moves.retain(|m| f.matches(pos, *m));
            }
        }
        moves
    }

    /// Whether `color` has a royal in check on `after` under the plan's
    /// rule-aware attacks: disarmed pieces attack nothing, protected
    /// royals are never in check (rulings C3, C4).
    pub(super) fn plan_in_check(
        &self,
        plan: &Plan,
        after: &Position<u64>,
        t: &Tables<u64>,
        color: Color,
    ) -> bool {
        let them = color.flip();
        let royals = Board::Small(after, t).royals(color) as u64;
        if royals == 0 {
            return false;
        }
        let occ = after.occupied();
        let mut disarmed = 0u64;
        if !plan.disarm.is_empty() {
            let their_royals = Board::Small(after, t).royals(them) as u64;
            for d in &plan.disarm {
                disarmed |= d.pieces.on(after, them, their_royals);
            }
        }
        let mut rs = royals;
        while rs != 0 {
            let sq = rs.trailing_zeros() as u8;
            rs &= rs - 1;
            if after.attackers_to(t, sq, occ, them) & !disarmed == 0 {
                continue;
            }
            let protected = after.piece_at(sq).is_some_and(|p| {
                plan.protect_own
                    .iter()
                    .any(|pm| pm.royal_matches(color, p.kind, sq))
            });
            if !protected {
                return true;
            }
        }
        false
    }
}

/// The single-move restrictions of phase 2 on one position.
pub(super) struct Phase2 {
    /// Origins of pieces that may not move.
    pub(super) frozen_from: u64,
    /// Destinations no move may take (enemy royals, protected pieces,
    /// forbidden squares).
    pub(super) no_to: u64,
    /// Enemy pieces protected against capture (for en passant).
    pub(super) protected: u64,
    /// Other forbid-move filters.
    pub(super) general: Vec<MoveMask>,
}

impl Phase2 {
    /// The targets among `tg` (from `from`, of `kind`) that phase 2 keeps;
    /// the set form of [`Self::keeps`].
    #[inline(always)]
    pub(super) fn targets(&self, pos: &Position<u64>, them: u64, b: &Batch) -> u64 {
        let mut tg = from_in(b, !self.frozen_from) & !self.no_to;
        if b.kind == MoveKind::EnPassant {
            tg = single_ep(b, tg, self.protected);
        }
        for f in &self.general {
            if tg != 0 {
                tg &= !f.matching(pos, them, &Batch { targets: tg, ..*b });
            }
        }
        tg
    }

    #[inline(always)]
    pub(super) fn keeps(&self, pos: &Position<u64>, m: Move) -> bool {
        self.frozen_from & (1u64 << m.from) == 0
            && self.no_to & (1u64 << m.to) == 0
            && (m.kind != MoveKind::EnPassant
                || self.protected & (1u64 << ((m.from / 8) * 8 + m.to % 8)) == 0)
            && (self.general.is_empty() || !self.general.iter().any(|f| f.matches(pos, m)))
    }
}

/// `(origin, shift, distance)` of a keep-farthest candidate: a move of a
/// chosen piece along a line, castling aside. The farthest distance per
/// origin is kept in 4 bits per direction.
#[inline(always)]
pub(super) fn farthest_key(chosen: u64, m: Move) -> Option<(usize, u32, u32)> {
    if chosen & (1u64 << m.from) == 0 || m.kind == MoveKind::Castle {
        return None;
    }
    let l = LINES[m.from as usize][m.to as usize];
    (l != 0).then_some((m.from as usize, u32::from(l >> 3) * 4, u32::from(l & 7)))
}

#[inline(always)]
pub(super) fn note_farthest(best: &mut [u32; 64], chosen: u64, m: Move) {
    if let Some((i, sh, n)) = farthest_key(chosen, m) {
        if n > (best[i] >> sh) & 15 {
            best[i] = (best[i] & !(15 << sh)) | (n << sh);
        }
    }
}

#[inline(always)]
pub(super) fn is_farthest(best: &[u32; 64], chosen: u64, m: Move) -> bool {
    farthest_key(chosen, m).is_none_or(|(i, sh, n)| (best[i] >> sh) & 15 == n)
}

/// One batch of moves, as [`Position::move_target_sets`] gives them.
pub(super) type Batch = TargetBatch<u64>;

/// The origin of the move of `b` to `to`.
#[inline(always)]
pub(super) fn origin(b: &Batch, to: u8) -> u8 {
    if b.delta == 0 {
        b.from
    } else {
        (i32::from(to) - i32::from(b.delta)) as u8
    }
}

/// The targets of `b` whose move starts on a square of `mask`.
#[inline(always)]
pub(super) fn from_in(b: &Batch, mask: u64) -> u64 {
    if b.delta == 0 {
        b.targets & ((mask >> (b.from & 63)) & 1).wrapping_neg()
    } else if b.delta > 0 {
        b.targets & (mask << b.delta)
    } else {
        b.targets & (mask >> -b.delta)
    }
}

/// Pushes the moves of one batch: to each target, once per promotion
/// choice when the batch promotes.
#[inline(always)]
pub(super) fn push_targets(
    pos: &Position<u64>,
    t: &Tables<u64>,
    b: &Batch,
    push: &mut impl FnMut(Move),
) {
    let mut tg = b.targets;
    while tg != 0 {
        let to = tg.trailing_zeros() as u8;
        tg &= tg - 1;
        let from = origin(b, to);
        if b.promote {
            pos.for_each_promotion(t, |k| {
                push(Move {
                    from,
                    to,
                    promotion: Some(k),
                    kind: b.kind,
                })
            });
        } else {
            push(Move {
                from,
                to,
                promotion: None,
                kind: b.kind,
            });
        }
    }
}

/// The phases of `legal_from_plan` on target sets rather than on a move
/// list, when no hooks and no per-move check test apply: each restriction
/// is a set operation per batch (one piece, or one direction of the
/// pawn-pattern pieces), and only the moves kept are listed. `legal`: the
/// engine's legal moves (FIDE attacks), else its pseudo-legal ones. `None`
/// when the engine cannot give legal target sets.
pub(super) fn by_targets(
    plan: &Plan,
    pos: &Position<u64>,
    t: &Tables<u64>,
    royals: [u64; 2],
    p2: &Phase2,
    legal: bool,
) -> Option<Vec<Move>> {
    // On the stack: a position rarely gives more than 64 batches (one per
    // piece, one per pawn direction and kind, castling and en passant).
    let mut bs: smallvec::SmallVec<[Batch; 64]> = smallvec::SmallVec::new();
    // Pseudo-legal castling is judged for attacked squares only if it
    // survives the rules (`judge_castling`): most plans drop it first.
    let mut castles: smallvec::SmallVec<[usize; 4]> = smallvec::SmallVec::new();
    if legal {
        // Castling comes judged.
        if !pos.move_target_sets(t, true, true, |b| bs.push(b)) {
            return None;
        }
    } else {
        pos.move_target_sets(t, false, false, |b| {
            if b.kind == MoveKind::Castle {
                castles.push(bs.len());
            }
            bs.push(b);
        });
    }
    // Must-move filters that never match castling (it captures nothing)
    // leave its judgement to the end.
    let judge_late = !legal && plan.must_move.iter().all(StaticMove::never_castles);
    let us = pos.turn();
    let them = pos.by_color(us.flip());
    // Phase 2.
    if p2.frozen_from != 0 || p2.no_to != 0 || !p2.general.is_empty() {
        for b in bs.iter_mut() {
            b.targets = p2.targets(pos, them, b);
        }
    }
    // Phase 4: keep-farthest, per piece and direction, in attach order.
    for pm in &plan.keep_farthest {
        let chosen = pm.on(pos, us, royals[ci(us)]);
        if chosen != 0 {
            keep_farthest_by_union(&mut bs, chosen);
        }
    }
    if !legal && !judge_late {
        judge_castling(pos, t, &mut bs, &castles);
    }
    // Phase 5: must-move-if-able, in attach order.
    for sm in &plan.must_move {
        let f = sm.on(pos, royals);
        if bs.iter().any(|b| f.matching(pos, them, b) != 0) {
            for b in bs.iter_mut() {
                b.targets = f.matching(pos, them, b);
            }
        }
    }
    if judge_late {
        judge_castling(pos, t, &mut bs, &castles);
    }
    let mut moves = Vec::with_capacity(64);
    for b in &bs {
        push_targets(pos, t, b, &mut |m| moves.push(m));
    }
    Some(moves)
}

/// Drops the castling moves left in the batches `castles` of `bs` whose
/// king would be in check, cross or land on an attacked square (the
/// engine's test; castling is judged with rights and paths only when
/// listed for this module).
pub(super) fn judge_castling(
    pos: &Position<u64>,
    t: &Tables<u64>,
    bs: &mut [Batch],
    castles: &[usize],
) {
    for &i in castles {
        let b = &mut bs[i];
        let mut tg = b.targets;
        while tg != 0 {
            let to = tg.trailing_zeros() as u8;
            tg &= tg - 1;
            let m = Move {
                from: b.from,
                to,
                promotion: None,
                kind: MoveKind::Castle,
            };
            if !pos.castling_is_safe(t, m) {
                b.targets &= !(1u64 << to);
            }
        }
    }
}

/// Phase 4 for one keep-farthest rule: the targets of the `chosen` pieces
/// (castling aside) reduced to the farthest on each line, judged on the
/// union of each piece's moves (a piece may have several batches, and a
/// set-wise batch holds moves of several pieces).
pub(super) fn keep_farthest_by_union(bs: &mut [Batch], chosen: u64) {
    let mut union = [0u64; 64];
    for b in bs.iter().filter(|b| b.kind != MoveKind::Castle) {
        if b.delta == 0 {
            if chosen & (1u64 << b.from) != 0 {
                union[b.from as usize & 63] |= b.targets;
            }
        } else {
            let mut m = from_in(b, chosen);
            while m != 0 {
                let to = m.trailing_zeros() as u8;
                m &= m - 1;
                union[origin(b, to) as usize & 63] |= 1u64 << to;
            }
        }
    }
    for b in bs.iter_mut().filter(|b| b.kind != MoveKind::Castle) {
        if b.delta == 0 {
            if chosen & (1u64 << b.from) != 0 {
                b.targets &= farthest(b.from, union[b.from as usize & 63]);
            }
        } else {
            let mut m = from_in(b, chosen);
            while m != 0 {
                let to = m.trailing_zeros() as u8;
                m &= m - 1;
                let from = origin(b, to);
                b.targets &= farthest(from, union[from as usize & 63]) | !(1u64 << to);
            }
        }
    }
}

/// The targets `tg` of an en passant batch without those whose victim is
/// protected.
#[inline]
pub(super) fn single_ep(b: &Batch, mut tg: u64, protected: u64) -> u64 {
    let mut out = 0;
    while tg != 0 {
        let to = tg.trailing_zeros() as u8;
        tg &= tg - 1;
        let from = origin(b, to);
        if protected & (1u64 << ((from / 8) * 8 + to % 8)) == 0 {
            out |= 1u64 << to;
        }
    }
    out
}

/// The eight rays from each square (queen directions), and whether each
/// direction runs towards higher square indices.
pub(super) const fn ray_table() -> [[u64; 8]; 64] {
    let dirs = [
        (1i32, 0i32),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut t = [[0u64; 8]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = dirs[d];
            let (mut x, mut y) = ((s % 8) as i32 + dx, (s / 8) as i32 + dy);
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                t[s][d] |= 1u64 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

pub(super) static RAYS: [[u64; 8]; 64] = ray_table();
/// Directions of `RAYS` that run towards higher indices.
pub(super) const UP: [bool; 8] = [true, false, true, false, true, false, true, false];

/// Of the targets `tg` of the piece on `from`, those off the lines through
/// `from` and, on each ray, the farthest one (ice_physics' keep-farthest).
#[inline]
pub(super) fn farthest(from: u8, tg: u64) -> u64 {
    let rays = &RAYS[from as usize];
    let mut keep = tg;
    for d in 0..8 {
        let r = tg & rays[d];
        if r != 0 {
            let far = if UP[d] {
                1u64 << (63 - r.leading_zeros())
            } else {
                r & r.wrapping_neg()
            };
            keep &= !r | far;
        }
    }
    keep
}
