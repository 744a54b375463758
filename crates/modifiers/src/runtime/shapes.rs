//! Move shapes of `add-moves` and `replace-moves`, and the wrapping files
//! of `set-board-topology` (modifier-rulings 2.1 § Shapes and 2.2
//! § Mechanic; RULINGS P1, P4).
//!
//! A shape is `{"kind": step|slide|leap|capture, "direction": D,
//! "range"?: n|"unlimited", "symmetry"?: none|full|horizontal, "mode"?:
//! both|move-only|capture-only}` where D is a named direction
//! (`orthogonal`, `diagonal`, `omnidirectional`, `forward`, `backward`,
//! `forward-diagonal`, `backward-diagonal`, `sideways`), a vector `[x, y]`
//! (y toward the piece's far rank), or a list of those. Extra moves are
//! attacks too (P1). With wrapping files (P4) a line continues from the
//! other side edge and stops before it would return to its origin; ranks
//! never wrap; castling never wraps. The game's own pieces wrap through
//! recompiled tables (`Runtime::sync_topology`), exactly as under the
//! `wrap-board` preset; this module wraps only the modifiers' shapes.

use std::collections::BTreeMap;

use houserules_engine::{Color, Move, MoveKind, PieceKind};
use serde_json::Value;

use super::board::{bit, Board, Mask};
use super::eval::Cx;
use super::{kind_by_name, kind_name, pieces_of, Geom, PieceInfo, Session};
use crate::descriptor::PrimitiveKind;

/// Named directions accepted in shapes (lower case; `_` and `-` ignored).
pub const DIRECTIONS: &[&str] = &[
    "orthogonal",
    "diagonal",
    "omnidirectional",
    "forward",
    "backward",
    "forwarddiagonal",
    "backwarddiagonal",
    "sideways",
];

fn norm(s: &str) -> String {
    s.to_ascii_lowercase().replace(['-', '_'], "")
}

/// Whether a shape object is one the runtime can run (used by the
/// validator). The error names the shape's key at fault, if one, and what
/// is wrong.
pub fn shape_ok(v: &Value) -> Result<(), (Option<&'static str>, String)> {
    let Some(o) = v.as_object() else {
        return Err((None, "a shape is an object".into()));
    };
    for k in o.keys() {
        if !["kind", "direction", "range", "symmetry", "mode", "attacks"].contains(&k.as_str()) {
            return Err((None, format!("unknown shape key `{k}`")));
        }
    }
    match o.get("kind").and_then(Value::as_str).map(norm).as_deref() {
        Some("step" | "slide" | "leap" | "capture") => {}
        _ => {
            return Err((
                Some("kind"),
                "`kind` is step, slide, leap or capture".into(),
            ))
        }
    }
    let d = o
        .get("direction")
        .ok_or((None, "a shape needs `direction`".to_string()))?;
    if let Some(m) = direction_error(d) {
        return Err((Some("direction"), m));
    }
    if vectors(d, Color::White, false).is_empty() {
        return Err((Some("direction"), DIRECTION_FORMS.into()));
    }
    if let Some(r) = o.get("range") {
        let ok = r.as_str().is_some_and(|s| norm(s) == "unlimited")
            || r.as_u64().is_some_and(|n| (1..=16).contains(&n));
        if !ok {
            return Err((Some("range"), "`range` is 1–16 or \"unlimited\"".into()));
        }
    }
    if let Some(s) = o.get("symmetry") {
        if !matches!(
            s.as_str().map(norm).as_deref(),
            Some("none" | "full" | "horizontal")
        ) {
            return Err((
                Some("symmetry"),
                "`symmetry` is none, full or horizontal".into(),
            ));
        }
    }
    if o.get("attacks").is_some_and(|a| !a.is_boolean()) {
        return Err((Some("attacks"), "`attacks` is true or false".into()));
    }
    if let Some(m) = o.get("mode") {
        let mode = m.as_str().map(norm);
        if !matches!(
            mode.as_deref(),
            Some("both" | "moveonly" | "captureonly" | "push")
        ) {
            return Err((
                Some("mode"),
                "`mode` is both, move-only, capture-only or push".into(),
            ));
        }
        let kind = o.get("kind").and_then(Value::as_str).map(norm);
        if mode.as_deref() == Some("push") && !matches!(kind.as_deref(), Some("step" | "slide")) {
            return Err((
                Some("mode"),
                "`mode: push` needs `kind` step or slide (a push follows the move's line)".into(),
            ));
        }
    }
    Ok(())
}

const DIRECTION_FORMS: &str = "`direction` is a named direction, [x, y] or a list of them";

/// The largest |x| or |y| of a vector: boards are at most 16 squares a
/// side, so a longer one moves on no board (a vector longer than the
/// game's own board just finds no square there).
const MAX_COMPONENT: i64 = 15;

/// What is wrong with a direction, for the one vector or name at fault
/// (a list is checked item by item, so a bad vector is not dropped
/// silently).
fn direction_error(d: &Value) -> Option<String> {
    match d {
        Value::String(s) => (!DIRECTIONS.contains(&norm(s).as_str()))
            .then(|| format!("unknown direction `{s}`: {DIRECTION_FORMS}")),
        Value::Array(a) if a.len() == 2 && a.iter().all(Value::is_number) => {
            // Any JSON number, so that a huge one is reported out of range
            // rather than as the wrong kind of value.
            let xy: Vec<Option<i64>> = a.iter().map(Value::as_i64).collect();
            let range =
                format!("x and y are whole numbers from -{MAX_COMPONENT} to {MAX_COMPONENT}");
            match (xy[0], xy[1]) {
                (Some(0), Some(0)) => Some("vector [0, 0] does not move".into()),
                (Some(x), Some(y))
                    if x.unsigned_abs() <= MAX_COMPONENT as u64
                        && y.unsigned_abs() <= MAX_COMPONENT as u64 =>
                {
                    None
                }
                _ if a.iter().all(|n| n.is_i64() || n.is_u64()) => Some(format!(
                    "vector [{}, {}] is out of range: {range}",
                    a[0], a[1]
                )),
                _ => Some(format!("vector [{}, {}]: {range}", a[0], a[1])),
            }
        }
        Value::Array(a) if !a.is_empty() => a.iter().find_map(|x| match x {
            Value::Array(_) | Value::String(_) => direction_error(x),
            _ => Some(DIRECTION_FORMS.into()),
        }),
        _ => Some(DIRECTION_FORMS.into()),
    }
}

fn expand(x: i32, y: i32, sym: &str) -> Vec<(i32, i32)> {
    let mut v = vec![(x, y)];
    if sym == "full" {
        for (a, b) in [(x, y), (y, x)] {
            for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                v.push((a * sa, b * sb));
            }
        }
    } else if sym == "horizontal" {
        v.push((-x, y));
    }
    let mut out = Vec::new();
    for p in v {
        if p != (0, 0) && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The vectors of a direction for `color` (y flipped for Black).
fn vectors(d: &Value, color: Color, full: bool) -> Vec<(i32, i32)> {
    let f = if color == Color::White { 1 } else { -1 };
    let sym = if full { "full" } else { "none" };
    match d {
        Value::String(s) => match norm(s).as_str() {
            "orthogonal" => vec![(0, 1), (0, -1), (1, 0), (-1, 0)],
            "diagonal" => vec![(1, 1), (1, -1), (-1, 1), (-1, -1)],
            "omnidirectional" => vec![
                (0, 1),
                (0, -1),
                (1, 0),
                (-1, 0),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ],
            "forward" => vec![(0, f)],
            "backward" => vec![(0, -f)],
            "forwarddiagonal" => vec![(1, f), (-1, f)],
            "backwarddiagonal" => vec![(1, -f), (-1, -f)],
            "sideways" => vec![(1, 0), (-1, 0)],
            _ => Vec::new(),
        },
        Value::Array(a) if a.len() == 2 && a.iter().all(Value::is_i64) => {
            // Checked: `as i32` would wrap i64::MIN to 0 and make
            // [i64::MIN, 1] the vector [0, 1].
            let (Ok(x), Ok(y)) = (
                i32::try_from(a[0].as_i64().unwrap_or(i64::MAX)),
                i32::try_from(a[1].as_i64().unwrap_or(i64::MAX)),
            ) else {
                return Vec::new();
            };
            if i64::from(x.abs()) > MAX_COMPONENT || i64::from(y.abs()) > MAX_COMPONENT {
                return Vec::new();
            }
            expand(x, y * f, sym)
        }
        Value::Array(a) => {
            let mut out = Vec::new();
            for x in a {
                if x.is_array() || x.is_string() {
                    for v in vectors(x, color, full) {
                        if !out.contains(&v) {
                            out.push(v);
                        }
                    }
                } else {
                    return Vec::new();
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The direction a push move (`mode: push`) pushes along: the line from
/// `from` to `to` reduced to its smallest step (`[0, 2]` pushes one square
/// forward, `[2, 1]` along itself). Under wrapped files the shorter way
/// round is not guessed: a move across the edge reduces as written.
pub(crate) fn push_step(g: Geom, from: u8, to: u8) -> (i32, i32) {
    let dx = i32::from(g.file(to)) - i32::from(g.file(from));
    let dy = i32::from(g.rank(to)) - i32::from(g.rank(from));
    let (mut a, mut b) = (dx.abs(), dy.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let d = a.max(1);
    (dx / d, dy / d)
}

/// The squares of the line of pieces a push onto `to` moves one square
/// along `(dx, dy)` (`to` first), and the empty square beyond it; `None`
/// when that square is off the board or hard-blocked (`blocked`), so the
/// push, and the move, do not exist (as `step-piece`'s `onOccupied:
/// "push"`).
pub(crate) fn push_line_of(
    g: Geom,
    occ: Mask,
    blocked: Mask,
    to: u8,
    (dx, dy): (i32, i32),
) -> Option<(Vec<u8>, u8)> {
    let mut line = vec![to];
    loop {
        let last = *line.last()?;
        let next = g.offset(last, dx, dy)?;
        if blocked & bit(next) != 0 {
            return None;
        }
        if occ & bit(next) == 0 {
            return Some((line, next));
        }
        line.push(next);
    }
}

/// What a shape's move onto a square does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    Quiet,
    Capture,
    /// A push (`mode: push`) onto an own piece or a royal one.
    Push,
}

/// Quiet, capture and push targets of one shape from `from`. `royals`
/// holds both sides' royal pieces and `blocked` the hard-blocked squares
/// (a push needs an empty square beyond the line that is not one).
#[allow(clippy::too_many_arguments)]
fn walk(
    g: Geom,
    shape: &Value,
    pos: Board<'_>,
    from: u8,
    color: Color,
    occ: Mask,
    (royals, blocked): (Mask, Mask),
    wrap: bool,
    out: &mut Vec<(u8, Reach)>,
) {
    let kind = shape
        .get("kind")
        .and_then(Value::as_str)
        .map(norm)
        .unwrap_or_default();
    let sym = shape
        .get("symmetry")
        .and_then(Value::as_str)
        .map(norm)
        .unwrap_or_else(|| "none".into());
    let mode = shape
        .get("mode")
        .and_then(Value::as_str)
        .map(norm)
        .unwrap_or_else(|| {
            if kind == "capture" {
                "captureonly".into()
            } else {
                "both".into()
            }
        });
    let push = mode == "push";
    let (moves_ok, caps_ok) = (mode != "captureonly", mode != "moveonly" && !push);
    let range = match shape.get("range") {
        Some(Value::String(_)) => 16,
        Some(r) => r.as_u64().unwrap_or(1) as i32,
        None if kind == "slide" => 16,
        None => 1,
    };
    let mut vs = Vec::new();
    if let Some(d) = shape.get("direction") {
        for v in vectors(d, color, false) {
            for w in expand(v.0, v.1, &sym) {
                if !vs.contains(&w) {
                    vs.push(w);
                }
            }
        }
    }
    let own = pos.by_color(color);
    for (dx, dy) in vs {
        let (w, h) = (i32::from(g.w), i32::from(g.h));
        let (mut f, mut r) = (i32::from(g.file(from)), i32::from(g.rank(from)));
        let steps = if kind == "leap" { 1 } else { range };
        for i in 1..=steps {
            f += dx;
            r += dy;
            if !(0..h).contains(&r) {
                break;
            }
            if !(0..w).contains(&f) {
                if !wrap {
                    break;
                }
                f = f.rem_euclid(w);
            }
            let sq = (r * w + f) as u8;
            if sq == from {
                break;
            }
            let b1 = bit(sq);
            let last =
                kind == "leap" || kind == "step" && i == steps || kind == "capture" && range == 1;
            if occ & b1 != 0 {
                if own & b1 == 0
                    && pos.piece_at(sq).is_some()
                    && caps_ok
                    && (kind != "step" || i == steps)
                {
                    out.push((sq, Reach::Capture));
                }
                // A push lands on an own piece or a royal one (an enemy
                // that is neither blocks it), pushing the line ahead.
                if push
                    && pos.piece_at(sq).is_some()
                    && (own | royals) & b1 != 0
                    && (kind != "step" || i == steps)
                    && push_line_of(g, pos.occupied(), blocked, sq, push_step(g, from, sq))
                        .is_some()
                {
                    out.push((sq, Reach::Push));
                }
                break;
            }
            if moves_ok && (kind == "slide" || last) {
                out.push((sq, Reach::Quiet));
            }
            if kind == "leap" {
                break;
            }
        }
    }
}

/// An active move-shape rule: `(instance, replace?, params)`.
type ShapeRule = (u32, bool, BTreeMap<String, Value>);

impl Session {
    /// `(instance, replace?, params)` of the active move-shape mechanics,
    /// and whether files wrap.
    pub(crate) fn shape_rules(&self) -> (Vec<ShapeRule>, bool) {
        let mut out = Vec::new();
        let mut wrap = false;
        for m in &self.st.modifiers {
            let Some(d) = self.st.descriptors.get(&m.descriptor) else {
                continue;
            };
            for n in &d.passive {
                match n.kind {
                    PrimitiveKind::AddMoves => out.push((m.id, false, n.params.clone())),
                    PrimitiveKind::ReplaceMoves => out.push((m.id, true, n.params.clone())),
                    PrimitiveKind::SetBoardTopology => {
                        wrap |= n.params.get("wrapFiles").and_then(Value::as_bool) == Some(true)
                    }
                    _ => {}
                }
            }
        }
        (out, wrap)
    }

    /// For `color`'s pieces on `pos`: the squares whose normal moves are
    /// replaced, and the extra `(from, to, capture)` targets.
    pub(crate) fn shape_targets(
        &self,
        pos: Board<'_>,
        color: Color,
        depth: u8,
    ) -> (Mask, Vec<(u8, u8, bool)>) {
        self.shape_targets_of(pos, color, depth, false)
    }

    /// [`Session::shape_targets`]; with `attacking`, only the shapes that
    /// count as attacks (not `"attacks": false`), for check.
    pub(crate) fn shape_targets_of(
        &self,
        pos: Board<'_>,
        color: Color,
        depth: u8,
        attacking: bool,
    ) -> (Mask, Vec<(u8, u8, bool)>) {
        let (replaced, all) = self.shape_reaches(pos, color, depth, attacking);
        let mut out = Vec::new();
        for (from, to, reach) in all {
            let cap = reach == Reach::Capture;
            if !out.contains(&(from, to, cap)) {
                out.push((from, to, cap));
            }
        }
        (replaced, out)
    }

    /// Whether an active move shape has `mode: push`.
    pub(crate) fn has_push_shapes(&self) -> bool {
        self.st.modifiers.iter().any(|m| {
            self.st.descriptors.get(&m.descriptor).is_some_and(|d| {
                d.passive.iter().any(|n| {
                    matches!(
                        n.kind,
                        PrimitiveKind::AddMoves | PrimitiveKind::ReplaceMoves
                    ) && n
                        .params
                        .get("shapes")
                        .and_then(Value::as_array)
                        .is_some_and(|a| {
                            a.iter().any(|s| {
                                s.get("mode").and_then(Value::as_str).map(norm).as_deref()
                                    == Some("push")
                            })
                        })
                })
            })
        })
    }

    /// The push moves (`mode: push` onto an own piece or a royal one) of
    /// `color`'s pieces on `pos`: `(from, to)`.
    pub(crate) fn push_targets(&self, pos: Board<'_>, color: Color, depth: u8) -> Vec<(u8, u8)> {
        if !self.has_push_shapes() {
            return Vec::new();
        }
        let (_, all) = self.shape_reaches(pos, color, depth, false);
        all.into_iter()
            .filter(|r| r.2 == Reach::Push)
            .map(|(f, t, _)| (f, t))
            .collect()
    }

    /// Whether `m` is a push move of the side to move on `pos`: a move
    /// of a `mode: push` shape onto an own piece or a royal one. Its
    /// occupant, and the line of pieces beyond it, are pushed one square
    /// along [`push_step`] before the mover lands; it captures nothing.
    pub(crate) fn is_push(&self, pos: Board<'_>, m: Move, depth: u8) -> bool {
        m.kind == MoveKind::Normal
            && !m.is_drop()
            && pos.piece_at(m.to).is_some()
            && self
                .push_targets(pos, pos.turn(), depth)
                .contains(&(m.from, m.to))
    }

    /// Every shape reach of `color`'s pieces: the squares whose normal
    /// moves are replaced, and `(from, to, reach)`.
    fn shape_reaches(
        &self,
        pos: Board<'_>,
        color: Color,
        depth: u8,
        attacking: bool,
    ) -> (Mask, Vec<(u8, u8, Reach)>) {
        let (rules, wrap) = self.shape_rules();
        if rules.is_empty() {
            return (0, Vec::new());
        }
        let ev = BTreeMap::new();
        let b = BTreeMap::new();
        let blocked = self.blocked_mask();
        let occ = pos.occupied() | blocked;
        let royals = self.royal_mask(pos, Color::White) | self.royal_mask(pos, Color::Black);
        let mut replaced = 0 as Mask;
        let mut out = Vec::new();
        for p in pieces_of(pos).iter().filter(|p| p.piece.color == color) {
            let view = self.view(pos, p);
            let mut found = Vec::new();
            let mut rep = false;
            for (inst, replace, params) in &rules {
                let cx = Cx {
                    inst: Some(*inst),
                    event: &ev,
                    subject: &Value::Null,
                    binds: &b,
                    pos: Some(pos),
                    depth,
                    it: &Value::Null,
                };
                if !params
                    .get("pieces")
                    .is_some_and(|f| self.piece_ok(&cx, f, &view))
                {
                    continue;
                }
                rep |= *replace;
                for s in params
                    .get("shapes")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter(|s| !attacking || s.get("attacks") != Some(&Value::Bool(false)))
                {
                    walk(
                        self.geom,
                        s,
                        pos,
                        p.sq,
                        color,
                        occ,
                        (royals, blocked),
                        wrap,
                        &mut found,
                    );
                }
            }
            if rep {
                replaced |= bit(p.sq);
            }
            for (to, reach) in found {
                if !out.contains(&(p.sq, to, reach)) {
                    out.push((p.sq, to, reach));
                }
            }
        }
        (replaced, out)
    }

    /// Whether `m` exists only through a modifier's move shapes
    /// (`add-moves`, `replace-moves`, wrapped files), not through the
    /// game's own rules (its definition and presets): the move filter key
    /// `added` (issue 12). Castling is never added.
    pub(crate) fn is_added_move(&self, pos: Board<'_>, m: Move, depth: u8) -> bool {
        if m.kind == MoveKind::Castle {
            return false;
        }
        let (replaced, extra) = self.shape_targets(pos, pos.turn(), depth);
        if replaced & bit(m.from) != 0 {
            return true;
        }
        // Under wrapped files the game runs on recompiled tables
        // (`sync_topology`): its own moves are those of the tables it was
        // built with.
        let wrapped = self.base_variant.is_some();
        if !wrapped && !extra.iter().any(|&(f, t, _)| f == m.from && t == m.to) {
            return false;
        }
        let mut own = Vec::new();
        self.on_base_tables(pos).pseudo_legal_moves(&mut own);
        !own.iter()
            .any(|x| x.from == m.from && x.to == m.to && x.kind != MoveKind::Castle)
    }

    /// Applies the shape mechanics to the side to move's pseudo-legal
    /// moves: replaced pieces lose their own moves (castling kept), extra
    /// targets become moves (pawns reaching the far rank promote).
    pub(crate) fn apply_shapes(&self, pos: Board<'_>, moves: &mut Vec<Move>, depth: u8) {
        let us = pos.turn();
        let (replaced, extra) = self.shape_targets(pos, us, depth);
        if replaced == 0 && extra.is_empty() {
            return;
        }
        moves.retain(|m| m.kind == MoveKind::Castle || replaced & bit(m.from) == 0);
        let def = self.game.variant().definition();
        let promo: Vec<PieceKind> = ["queen", "rook", "bishop", "knight"]
            .iter()
            .filter_map(|n| kind_by_name(def, n))
            .collect();
        for (from, to, _) in extra {
            let Some(piece) = pos.piece_at(from) else {
                continue;
            };
            let info = PieceInfo {
                id: pos.piece_id(from),
                sq: from,
                piece,
            };
            let far = if us == Color::White {
                self.geom.h - 1
            } else {
                0
            };
            let is_pawn = kind_name(def, info.piece.kind) == "pawn";
            if is_pawn && self.geom.rank(to) == far {
                for k in &promo {
                    let m = Move {
                        from,
                        to,
                        promotion: Some(*k),
                        kind: MoveKind::Normal,
                    };
                    if !moves.contains(&m) {
                        moves.push(m);
                    }
                }
            } else {
                let m = Move::new(from, to);
                if !moves
                    .iter()
                    .any(|x| x.from == from && x.to == to && x.kind != MoveKind::Castle)
                {
                    moves.push(m);
                }
            }
        }
    }
}
