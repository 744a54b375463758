//! Legal moves under the passive restrictions, in dry mode (nothing is
//! fired, drawn or changed), and rule-aware check (modifier-rulings A10,
//! C2, C3, C4, D2).
//!
//! Phases (A10): generate (engine, presets' hooks included); forbid-move,
//! protect, hard blocks and "no move captures a royal" (C2); the
//! self-check filter with rule-aware attacks; keep-farthest;
//! must-move-if-able in attach order.

use std::collections::BTreeMap;

use houserules_engine::{Color, Move, MoveKind};
use serde_json::Value;

use super::board::{bit, Board, Mask};
use super::eval::{truthy, Cx};
use super::{pieces_of, Geom, Session};
use crate::descriptor::PrimitiveKind;

/// Whether a forbid-move filter makes the pieces it names fully immobile:
/// its conditions are only on the side, the piece, its square or a state
/// expression, never on the destination (rulings C3).
pub fn is_fully_immobilising(filter: &serde_json::Map<String, Value>) -> bool {
    immobilising(filter.keys())
}

/// [`is_fully_immobilising`] on the keys of a filter.
pub(crate) fn immobilising<'a>(mut keys: impl Iterator<Item = &'a String>) -> bool {
    keys.all(|k| matches!(k.as_str(), "side" | "piece" | "from" | "when"))
}

struct Restriction<'a> {
    inst: u32,
    kind: PrimitiveKind,
    params: &'a BTreeMap<String, Value>,
}

impl Session {
    fn restrictions(&self) -> Vec<Restriction<'_>> {
        let mut out = Vec::new();
        for m in &self.st.modifiers {
            let Some(d) = self.st.descriptors.get(&m.descriptor) else {
                continue;
            };
            for n in &d.passive {
                out.push(Restriction {
                    inst: m.id,
                    kind: n.kind,
                    params: &n.params,
                });
            }
        }
        out
    }

    fn params_value(p: &BTreeMap<String, Value>) -> Value {
        Value::Object(p.clone().into_iter().collect())
    }

    /// Legal moves of the side to move under the active rules.
    pub(crate) fn rule_legal_moves(&self) -> Vec<Move> {
        self.rule_legal_moves_depth(0)
    }

    /// Legal moves at `legal-move-count` nesting `depth`: the compiled
    /// restrictions when they compile, else the interpreter.
    pub(crate) fn rule_legal_moves_depth(&self, depth: u8) -> Vec<Move> {
        self.legality_plan(depth, |p| self.legal_from_plan(p))
            .unwrap_or_else(|| self.interpreted_legal_moves(depth))
    }

    /// Legal moves by interpreting the descriptors move by move: the
    /// reference the compiled restrictions are tested against.
    pub(crate) fn interpreted_legal_moves(&self, depth: u8) -> Vec<Move> {
        let pos = self.position();
        let rs = self.restrictions();
        let blocked = self.blocked_mask();
        let us = pos.turn();
        let ev = BTreeMap::new();
        let b = BTreeMap::new();
        let cx_for = |inst: u32| Cx {
            inst: Some(inst),
            event: &ev,
            subject: &Value::Null,
            binds: &b,
            pos: None,
            depth,
            it: &Value::Null,
        };
        // C2 keeps royals from being captured, but a rule set without the
        // self-check filter (weak-dual-king, RULINGS P16, which overrides
        // the modifier rulings) lets a side lose a king by capture.
        let enemy_royals = if pos.self_check_filter() {
            self.royal_mask(pos, us.flip())
        } else {
            0
        };
        // Pieces whose capture flag is set cannot capture (runtime::aura).
        let flagged = self.capture_disarmed(pos);
        // Push moves (`mode: push`) land on own pieces and royals: they
        // capture nothing, and are judged after the push (`effects.rs`).
        let pushes = self.push_targets(pos, us, depth);
        // Triggers that change the board when a move is played: the
        // self-check filter sees their effects (`effects.rs`).
        let effects = self.effect_scope();
        let needs_own = !rs.is_empty() || blocked != 0 || flagged != 0 || effects.is_some();
        // Phase 1 is the engine's legality with the game's hooks: a game
        // its rules have decided has no moves, and a list-wide rule
        // (compulsory capture, RULINGS P15; P20's en passant) is judged on
        // the moves legal before the restrictions (`list_rule`).
        if pos.hooks_game_over() {
            return Vec::new();
        }
        let list_rule = needs_own && pos.hooks_filter_list();
        let mut moves = if needs_own {
            let mut v = Vec::new();
            pos.pseudo_legal_moves(&mut v);
            self.apply_shapes(pos, &mut v, depth);
            v
        } else {
            self.game.legal_moves()
        };
        // Phase 2: restrictions on single moves, hard blocks, royal captures.
        let keeps = |m: &Move| {
            if m.kind != MoveKind::Castle
                && enemy_royals & bit(m.to) != 0
                && !pushes.contains(&(m.from, m.to))
            {
                return false;
            }
            if blocked != 0 && Self::hits_block(self.geom, *m, blocked) {
                return false;
            }
            let push = pushes.contains(&(m.from, m.to));
            if flagged & bit(m.from) != 0 && !push && self.captured_view(pos, *m).is_some() {
                return false;
            }
            for r in &rs {
                let cx = cx_for(r.inst);
                match r.kind {
                    PrimitiveKind::ForbidMove
                        if self.move_matches(&cx, &Self::params_value(r.params), pos, *m) =>
                    {
                        return false;
                    }
                    PrimitiveKind::Protect
                        if !push
                            && Self::against(r.params, "capture")
                            && self.when_ok(&cx, r.params) =>
                    {
                        if let Some(v) = self.captured_view(pos, *m) {
                            if r.params
                                .get("pieces")
                                .is_some_and(|f| self.piece_ok(&cx, f, &v))
                            {
                                return false;
                            }
                        }
                    }
                    _ => {}
                }
            }
            true
        };
        // Phases 2 and 3 filter single moves (they commute); a list rule
        // needs the moves before phase 2, so it runs after.
        if !list_rule {
            moves.retain(keeps);
        }
        // Phase 3: self-check with rule-aware attacks.
        if needs_own && pos.self_check_filter() {
            moves.retain(|m| {
                if let Some(ok) = effects.and_then(|e| self.judge_with_effects(e, *m)) {
                    return ok;
                }
                if pushes.contains(&(m.from, m.to)) {
                    // A push whose dispatch stops on a choice: the board
                    // after the push and the move alone.
                    return self.push_board_safe(*m, depth);
                }
                let after = pos.played(*m);
                self.attacked_royals(after.board(pos), us, Some(us), depth)
                    .is_empty()
            });
        }
        let mut dedup = Vec::with_capacity(moves.len());
        for m in moves {
            if !dedup.contains(&m) {
                dedup.push(m);
            }
        }
        let mut moves = dedup;
        if list_rule {
            pos.hooks_filter_moves(&mut moves);
            moves.retain(keeps);
        }
        // Phase 4: keep-farthest.
        for r in rs.iter().filter(|r| r.kind == PrimitiveKind::KeepFarthest) {
            let cx = cx_for(r.inst);
            let Some(f) = r.params.get("pieces") else {
                continue;
            };
            let chosen: Vec<u8> = pieces_of(pos)
                .iter()
                .filter(|p| p.piece.color == us && self.piece_ok(&cx, f, &self.view(pos, p)))
                .map(|p| p.sq)
                .collect();
            let mut best: BTreeMap<(u8, i32, i32), i32> = BTreeMap::new();
            for m in &moves {
                if let Some((dx, dy, n)) = Self::line(self.geom, *m) {
                    if chosen.contains(&m.from) && m.kind != MoveKind::Castle {
                        let e = best.entry((m.from, dx, dy)).or_insert(0);
                        *e = (*e).max(n);
                    }
                }
            }
            moves.retain(|m| match Self::line(self.geom, *m) {
                Some((dx, dy, n)) if chosen.contains(&m.from) && m.kind != MoveKind::Castle => {
                    best.get(&(m.from, dx, dy)) == Some(&n)
                }
                _ => true,
            });
        }
        // Phase 5: must-move-if-able, in attach order.
        for r in rs
            .iter()
            .filter(|r| r.kind == PrimitiveKind::MustMoveIfAble)
        {
            let cx = cx_for(r.inst);
            let f = Self::params_value(r.params);
            if moves.iter().any(|m| self.move_matches(&cx, &f, pos, *m)) {
                moves.retain(|m| self.move_matches(&cx, &f, pos, *m));
            }
        }
        moves
    }

    fn against(p: &BTreeMap<String, Value>, what: &str) -> bool {
        p.get("against")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|x| x == what))
    }

    fn when_ok(&self, cx: &Cx, p: &BTreeMap<String, Value>) -> bool {
        p.get("when").is_none_or(|w| truthy(&self.eval(cx, w)))
    }

    /// The unit direction and length of a move along a line, if any.
    fn line(g: Geom, m: Move) -> Option<(i32, i32, i32)> {
        let dx = i32::from(g.file(m.to)) - i32::from(g.file(m.from));
        let dy = i32::from(g.rank(m.to)) - i32::from(g.rank(m.from));
        let n = dx.abs().max(dy.abs());
        if n == 0 || !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
            return None;
        }
        Some((dx / n, dy / n, n))
    }

    /// A move that ends on or slides through a hard block (rulings D2).
    /// Castling is judged on the squares between king and rook.
    fn hits_block(g: Geom, m: Move, blocked: Mask) -> bool {
        if m.kind == MoveKind::Castle {
            let (a, b) = (m.from.min(m.to), m.from.max(m.to));
            return (a + 1..b).any(|s| blocked & bit(s) != 0);
        }
        if blocked & bit(m.to) != 0 {
            return true;
        }
        if let Some((dx, dy, n)) = Self::line(g, m) {
            for i in 1..n {
                let s = i32::from(m.from) + (dy * i32::from(g.w) + dx) * i;
                if blocked & bit(s as u8) != 0 {
                    return true;
                }
            }
        }
        false
    }

    fn captured_view(&self, pos: Board<'_>, m: Move) -> Option<super::eval::View> {
        let us = pos.turn();
        let sq = match m.kind {
            MoveKind::Castle => return None,
            MoveKind::EnPassant => {
                pieces_of(pos)
                    .into_iter()
                    .find(|p| {
                        let g = self.geom;
                        p.piece.color != us
                            && g.file(p.sq) == g.file(m.to)
                            && g.rank(p.sq) == g.rank(m.from)
                    })?
                    .sq
            }
            _ => m.to,
        };
        let p = pieces_of(pos)
            .into_iter()
            .find(|p| p.sq == sq && p.piece.color != us)?;
        Some(self.view(pos, &p))
    }

    /// Whether a move matches a move filter (rulings 2.1 § MoveFilter).
    pub(crate) fn move_matches(&self, cx: &Cx, f: &Value, pos: Board<'_>, m: Move) -> bool {
        let Some(o) = f.as_object() else { return false };
        let us = pos.turn();
        let cxp = Cx {
            pos: Some(pos),
            ..*cx
        };
        let mover = pieces_of(pos).into_iter().find(|p| p.sq == m.from);
        for (k, x) in o {
            let ok = match k.as_str() {
                "side" => self.players(&cxp, x).contains(&us),
                "piece" => mover.is_some_and(|p| self.piece_ok(&cxp, x, &self.view(pos, &p))),
                "from" => self.square_ok(&cxp, x, m.from),
                "to" => self.square_ok(&cxp, x, m.to),
                "capture" => x.as_bool() == Some(self.captured_view(pos, m).is_some()),
                "target" => self
                    .captured_view(pos, m)
                    .is_some_and(|v| self.piece_ok(&cxp, x, &v)),
                "castling" => x.as_bool() == Some(m.kind == MoveKind::Castle),
                "progress" => {
                    let dy = i32::from(self.geom.rank(m.to)) - i32::from(self.geom.rank(m.from));
                    let dy = if us == Color::White { dy } else { -dy };
                    let p = if m.kind == MoveKind::Castle || dy == 0 {
                        "sideways"
                    } else if dy > 0 {
                        "forward"
                    } else {
                        "backward"
                    };
                    x.as_array().is_some_and(|a| a.iter().any(|v| v == p))
                }
                "crossesFile" => {
                    let files: Vec<u8> = super::eval::items(self.val(&cxp, x))
                        .iter()
                        .filter_map(|v| match self.val(&cxp, v) {
                            Value::String(s) if s.len() == 1 => {
                                Some(s.as_bytes()[0].wrapping_sub(b'a'))
                            }
                            Value::Number(n) => n.as_u64().map(|n| n as u8),
                            _ => None,
                        })
                        .collect();
                    let (ff, ft) = (self.geom.file(m.from), self.geom.file(m.to));
                    let (a, b) = (ff.min(ft), ff.max(ft));
                    files
                        .iter()
                        .any(|&f| (a < f && f < b) || (f == ft && f != ff))
                }
                "when" => truthy(&self.eval(&cxp, x)),
                "added" => x.as_bool() == Some(self.is_added_move(pos, m, cx.depth)),
                "givesCheck" => x.as_bool() == Some(self.gives_check(pos, m, cx.depth)),
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Squares of `side`'s pieces that a fully immobilising forbid-move
    /// disarms on `pos` (rulings C3). `turn` is the side to move the
    /// restrictions are judged for.
    fn disarmed(&self, pos: Board<'_>, side: Color, depth: u8) -> Mask {
        let ev = BTreeMap::new();
        let b = BTreeMap::new();
        let mut mask = 0 as Mask;
        for r in self.restrictions() {
            if r.kind != PrimitiveKind::ForbidMove {
                continue;
            }
            let f = Self::params_value(r.params);
            let Some(o) = f.as_object() else { continue };
            if !is_fully_immobilising(o) {
                continue;
            }
            let cx = Cx {
                inst: Some(r.inst),
                event: &ev,
                subject: &Value::Null,
                binds: &b,
                pos: Some(pos),
                depth,
                it: &Value::Null,
            };
            if let Some(s) = o.get("side") {
                if !self.players(&cx, s).contains(&side) {
                    continue;
                }
            }
            if let Some(w) = o.get("when") {
                if !truthy(&self.eval(&cx, w)) {
                    continue;
                }
            }
            for p in pieces_of(pos).iter().filter(|p| p.piece.color == side) {
                let pv = self.view(pos, p);
                if o.get("piece").is_some_and(|x| !self.piece_ok(&cx, x, &pv)) {
                    continue;
                }
                if o.get("from").is_some_and(|x| !self.square_ok(&cx, x, p.sq)) {
                    continue;
                }
                mask |= bit(p.sq);
            }
        }
        mask
    }

    /// Whether a royal is covered by `protect … against capture`.
    fn royal_protected(&self, pos: Board<'_>, sq: u8, depth: u8) -> bool {
        let ev = BTreeMap::new();
        let b = BTreeMap::new();
        let Some(p) = pieces_of(pos).into_iter().find(|p| p.sq == sq) else {
            return false;
        };
        self.restrictions().iter().any(|r| {
            let cx = Cx {
                inst: Some(r.inst),
                event: &ev,
                subject: &Value::Null,
                binds: &b,
                pos: Some(pos),
                depth,
                it: &Value::Null,
            };
            r.kind == PrimitiveKind::Protect
                && Self::against(r.params, "capture")
                && self.when_ok(&cx, r.params)
                && r.params
                    .get("pieces")
                    .is_some_and(|f| self.piece_ok(&cx, f, &self.view(pos, &p)))
        })
    }

    /// `(royal square, attacker squares)` of `color`'s royals under
    /// rule-aware attacks on `pos`: disarmed pieces attack nothing,
    /// protected royals are never in check, hard blocks stop rays.
    pub(crate) fn attacked_royals(
        &self,
        pos: Board<'_>,
        color: Color,
        _turn: Option<Color>,
        depth: u8,
    ) -> Vec<(u8, Mask)> {
        let them = color.flip();
        let occ = pos.occupied() | self.blocked_mask();
        // Capture-flagged pieces give no check either (runtime::aura).
        let disarmed = self.disarmed(pos, them, depth) | self.capture_disarmed(pos);
        let (replaced, extra) = self.shape_targets_of(pos, them, depth, true);
        let mut out = Vec::new();
        let royals = pos.royals(color);
        for sq in 0..self.geom.squares() {
            if royals & bit(sq) == 0 {
                continue;
            }
            let mut att = pos.attackers_to(sq, occ, them) & !replaced;
            for &(from, to, cap) in &extra {
                if to == sq && cap {
                    att |= bit(from);
                }
            }
            let att = att & !disarmed;
            if att != 0 && !self.royal_protected(pos, sq, depth) {
                out.push((sq, att));
            }
        }
        out
    }

    /// Whether `m`, played on `pos` (the engine's move with the game's
    /// hooks, without the modifiers' triggers), leaves a royal piece of
    /// the side not moving attacked under rule-aware attacks: the
    /// `givesCheck` move filter key (issue 25 item 4; racing kings' "no
    /// move may give check").
    pub(crate) fn gives_check(&self, pos: Board<'_>, m: Move, depth: u8) -> bool {
        let them = pos.turn().flip();
        let after = pos.played(m);
        !self
            .attacked_royals(after.board(pos), them, Some(them), depth)
            .is_empty()
    }

    /// Rule-aware check of `color` in the current position.
    pub(crate) fn in_check(&self, color: Color) -> bool {
        let pos = self.position();
        !self.attacked_royals(pos, color, None, 1).is_empty()
    }

    /// Royal ids in check and `(attacker, royal)` id pairs, both colours.
    pub(crate) fn check_state(&self) -> (Vec<u16>, Vec<(u16, u16)>) {
        let pos = self.position();
        let mut checked = Vec::new();
        let mut pairs = Vec::new();
        for c in Color::ALL {
            for (sq, att) in self.attacked_royals(pos, c, None, 1) {
                let rid = pos.piece_id(sq);
                checked.push(rid);
                for a in 0..self.geom.squares() {
                    if att & bit(a) != 0 {
                        pairs.push((pos.piece_id(a), rid));
                    }
                }
            }
        }
        checked.sort_unstable();
        pairs.sort_unstable();
        (checked, pairs)
    }
}
