//! Reading descriptors at run time: references, players, filters, sources,
//! orders and expressions (modifier-rulings Part 2, § 2.1).
//!
//! The evaluator is total: a value of the wrong shape (which the validator
//! cannot rule out, since references are dynamically typed) reads as null,
//! an empty set or false, never as an error (rulings A9).

use std::collections::BTreeMap;

use houserules_engine::Color;
use serde_json::{json, Value};

use super::board::{bit, Board, Mask};
use super::{kind_name, parse_color, Geom, Marker, PieceInfo, Session};
use crate::descriptor::MarkerKind;

/// What an expression can see.
#[derive(Clone, Copy)]
pub(crate) struct Cx<'a> {
    /// The modifier instance (for `$param`, `$var`, `chooser`, `own`).
    pub inst: Option<u32>,
    /// `$event`.
    pub event: &'a BTreeMap<String, Value>,
    /// `$self`.
    pub subject: &'a Value,
    /// `$bind`.
    pub binds: &'a BTreeMap<String, Value>,
    /// A hypothetical position (legality), else the game's.
    pub pos: Option<Board<'a>>,
    /// Nesting of `legal-move-count` (guards recursion through `when`).
    pub depth: u8,
    /// `$it`: the candidate a `where` filter is testing (a piece snapshot,
    /// a square name or a marker), null outside `where`.
    pub it: &'a Value,
}

impl<'a> Cx<'a> {
    /// A context on the game's own position, outside `legal-move-count`.
    pub fn new(
        inst: Option<u32>,
        event: &'a BTreeMap<String, Value>,
        subject: &'a Value,
        binds: &'a BTreeMap<String, Value>,
    ) -> Cx<'a> {
        Cx {
            inst,
            event,
            subject,
            binds,
            pos: None,
            depth: 0,
            it: &Value::Null,
        }
    }
}

/// JSON truthiness: null, false, 0, "" and [] are false.
pub(crate) fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(_) => true,
    }
}

/// A value read as a number: a number, a boolean (0/1), or a string of
/// decimal digits such as a `.rank` ("4" is 4). Anything else is not a
/// number (a comparison with it is false, arithmetic on it is null).
pub(crate) fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        Value::String(s)
            if !s.is_empty() && s.len() <= 15 && s.bytes().all(|b| b.is_ascii_digit()) =>
        {
            s.parse().ok()
        }
        Value::Array(a) if a.len() == 1 => num(&a[0]),
        _ => None,
    }
}

/// A number as JSON: whole numbers as integers.
fn number_value(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        json!(x as i64)
    } else {
        serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

/// A reference segment `name` or `name[i]` (i may be negative: from the
/// end).
pub(crate) fn split_index(seg: &str) -> (&str, Option<i64>) {
    match seg.strip_suffix(']').and_then(|x| x.split_once('[')) {
        Some((name, i)) => match i.parse::<i64>() {
            Ok(i) => (name, Some(i)),
            Err(_) => (seg, None),
        },
        None => (seg, None),
    }
}

/// Item `i` of a list (negative: from the end); a value that is not a
/// list is its own item 0. Out of range is null.
fn index_into(v: Value, i: i64) -> Value {
    let mut a = match v {
        Value::Array(a) => a,
        Value::Null => return Value::Null,
        x => vec![x],
    };
    let len = a.len() as i64;
    let at = if i < 0 { len + i } else { i };
    if (0..len).contains(&at) {
        a.swap_remove(at as usize)
    } else {
        Value::Null
    }
}

/// Equality with numbers compared as numbers and a single-item list equal
/// to its item.
pub(crate) fn loose_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => number_eq(x, y),
        // A number against a value that reads as one (a `.rank` such as
        // "4", a boolean as 0 or 1) is compared as `lt`/`le` compare it
        // (issue 25 item 4: a numeric `eq`). Two strings stay strings.
        (Value::Number(_), _) | (_, Value::Number(_)) if !a.is_array() && !b.is_array() => {
            matches!((num(a), num(b)), (Some(x), Some(y)) if x == y)
        }
        (Value::Array(x), y) if x.len() == 1 && !y.is_array() => loose_eq(&x[0], y),
        (x, Value::Array(y)) if y.len() == 1 && !x.is_array() => loose_eq(x, &y[0]),
        (Value::Object(x), Value::String(_)) if x.contains_key("id") => x.get("square") == Some(b),
        _ => a == b,
    }
}

/// Numeric equality: 1 equals 1.0; integers are compared exactly (two
/// integers above 2⁵³ that one `f64` would round together stay apart).
fn number_eq(x: &serde_json::Number, y: &serde_json::Number) -> bool {
    if let (Some(a), Some(b)) = (x.as_i64(), y.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (x.as_u64(), y.as_u64()) {
        return a == b;
    }
    if x.is_f64() || y.is_f64() {
        return matches!((x.as_f64(), y.as_f64()), (Some(a), Some(b)) if a == b);
    }
    // A negative integer against one above i64::MAX.
    false
}

fn rps_index(v: &Value) -> Option<u8> {
    match v.as_str()? {
        "rock" => Some(0),
        "paper" => Some(1),
        "scissors" => Some(2),
        _ => None,
    }
}

fn rps_beats(a: &Value, b: &Value) -> bool {
    matches!((rps_index(a), rps_index(b)), (Some(x), Some(y)) if (x + 3 - y) % 3 == 1)
}

/// Items of a value: a list's items, null → none, anything else → itself.
pub(crate) fn items(v: Value) -> Vec<Value> {
    match v {
        Value::Array(a) => a,
        Value::Null => Vec::new(),
        x => vec![x],
    }
}

/// The square a value names on the board `g`: a square name or index, a
/// piece or marker.
/// The filter of a `{"pieces": FILTER}` source, if `src` is one.
pub(crate) fn pieces_filter(src: &Value) -> Option<&Value> {
    match src {
        Value::Object(o) if o.len() == 1 => o.get("pieces"),
        _ => None,
    }
}

pub(crate) fn square_of(g: Geom, v: &Value) -> Option<u8> {
    match v {
        Value::String(s) => g.parse(s),
        Value::Number(n) => n
            .as_u64()
            .filter(|&i| i < u64::from(g.squares()))
            .map(|i| i as u8),
        Value::Object(o) => o.get("square").and_then(|s| square_of(g, s)),
        Value::Array(a) if a.len() == 1 => square_of(g, &a[0]),
        _ => None,
    }
}

/// The file a value names on the board `g`: a letter, an index from 0,
/// or the file of a square, piece or marker.
pub(crate) fn file_of(g: Geom, v: &Value) -> Option<u8> {
    match v {
        Value::String(s) if s.len() == 1 && !s.as_bytes()[0].is_ascii_digit() => g.parse_file(s),
        Value::Number(n) => n.as_u64().filter(|&i| i < u64::from(g.w)).map(|i| i as u8),
        other => square_of(g, other).map(|s| g.file(s)),
    }
}

/// The rank a value names on the board `g`: its number as text (`"1"`,
/// `"10"`), an index from 0, or the rank of a square, piece or marker.
pub(crate) fn rank_of(g: Geom, v: &Value) -> Option<u8> {
    match v {
        Value::String(s) if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) => {
            g.parse_rank(s)
        }
        Value::Number(n) => n.as_u64().filter(|&i| i < u64::from(g.h)).map(|i| i as u8),
        other => square_of(g, other).map(|s| g.rank(s)),
    }
}

/// `.square .file .rank .type .color .id` of a value.
fn field(g: Geom, v: &Value, f: &str) -> Value {
    if let Value::Array(a) = v {
        return if a.len() == 1 {
            field(g, &a[0], f)
        } else {
            Value::Array(a.iter().map(|x| field(g, x, f)).collect())
        };
    }
    match f {
        "square" => square_of(g, v).map_or(Value::Null, |s| json!(g.name(s))),
        "file" => file_of(g, v).map_or(Value::Null, |x| json!(((b'a' + x) as char).to_string())),
        "rank" => rank_of(g, v).map_or(Value::Null, |x| json!((x + 1).to_string())),
        // Files and ranks as numbers from 1 (a = 1, rank 1 = 1).
        "fileNumber" => file_of(g, v).map_or(Value::Null, |x| json!(x + 1)),
        "rankNumber" => rank_of(g, v).map_or(Value::Null, |x| json!(x + 1)),
        "type" | "color" | "id" => v
            .get(f)
            .cloned()
            .or_else(|| {
                if f == "id" {
                    v.get("marker").cloned()
                } else {
                    None
                }
            })
            .unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

/// Whether a source is `{"values": […]}`, whose items keep their written
/// order by default.
pub(crate) fn is_values_source(src: &Value) -> bool {
    matches!(src, Value::Object(o) if o.len() == 1 && o.contains_key("values"))
}

/// Whether an item names a square for the default order: a piece or
/// marker (an object with a square) or a square name. Numbers are not
/// read as square indices there, so a list of numbers keeps its order.
fn square_like(g: Geom, v: &Value) -> bool {
    match v {
        Value::Object(o) => o.get("square").is_some_and(|s| square_of(g, s).is_some()),
        Value::String(s) => g.parse(s).is_some(),
        _ => false,
    }
}

/// A piece as filters see it: on the board, or a snapshot of one that is
/// gone.
#[derive(Debug, Clone)]
pub(crate) struct View {
    pub id: u16,
    pub sq: u8,
    pub color: Color,
    pub ty: String,
    pub royal: bool,
}

impl Session {
    pub(crate) fn board<'a>(&'a self, cx: &Cx<'a>) -> Board<'a> {
        cx.pos.unwrap_or_else(|| self.position())
    }

    fn inst(&self, id: Option<u32>) -> Option<&super::Instance> {
        self.st.modifiers.iter().find(|m| Some(m.id) == id)
    }

    pub(crate) fn resolve_ref(&self, cx: &Cx, s: &str) -> Value {
        let mut parts: Vec<&str> = s.trim_start_matches('$').split('.').collect();
        // `$bind.x[0]`: an item of a list (also on `$event`, `$var`,
        // `$param`, `$self` and `$it`).
        let mut index = None;
        let at = usize::from(
            !parts
                .first()
                .is_some_and(|b| split_index(b).0 == "self" || split_index(b).0 == "it"),
        );
        if let Some(seg) = parts.get(at).copied() {
            let (name, i) = split_index(seg);
            parts[at] = name;
            index = i;
        }
        let (base, rest): (Value, &[&str]) = match parts.as_slice() {
            ["self", rest @ ..] => (cx.subject.clone(), rest),
            ["it", rest @ ..] => (cx.it.clone(), rest),
            ["event", f, rest @ ..] => (cx.event.get(*f).cloned().unwrap_or(Value::Null), rest),
            ["bind", n, rest @ ..] => (cx.binds.get(*n).cloned().unwrap_or(Value::Null), rest),
            ["var", n, rest @ ..] => {
                let v = self
                    .inst(cx.inst)
                    .and_then(|i| i.vars.get(*n).cloned())
                    .or_else(|| self.st.vars.get(*n).cloned())
                    .unwrap_or(Value::Null);
                (v, rest)
            }
            ["param", n, rest @ ..] => (
                self.inst(cx.inst)
                    .and_then(|i| i.params.get(*n).cloned())
                    .unwrap_or(Value::Null),
                rest,
            ),
            _ => (Value::Null, &[]),
        };
        let base = match index {
            Some(i) => index_into(base, i),
            None => base,
        };
        if let ["attr", name] = rest {
            // A piece's effective attribute (runtime::aura).
            let one = match &base {
                Value::Array(a) if a.len() == 1 => &a[0],
                b => b,
            };
            return match one.get("id").and_then(Value::as_u64) {
                Some(id) if one.get("marker").is_none() => {
                    self.effective_attr_on(self.board(cx), id as u16, name)
                }
                _ => Value::Null,
            };
        }
        match rest.first() {
            Some(f) => field(self.geom, &base, f),
            None => base,
        }
    }

    /// A parameter value: a reference is resolved, anything else is a
    /// literal.
    pub(crate) fn val(&self, cx: &Cx, v: &Value) -> Value {
        match v {
            Value::String(s) if s.starts_with('$') => self.resolve_ref(cx, s),
            x => x.clone(),
        }
    }

    /// The colours a player value names (rulings B1).
    pub(crate) fn players(&self, cx: &Cx, v: &Value) -> Vec<Color> {
        let inst = self.inst(cx.inst);
        let chooser = inst.map_or(self.game.turn(), |i| i.chooser);
        let mover = self.st.cursor.ply.as_ref().map_or_else(
            || {
                if cx.event.contains_key("color") {
                    self.game.turn().flip()
                } else {
                    chooser
                }
            },
            |p| p.mover,
        );
        match v {
            Value::Object(o) if o.contains_key("opponent-of") => {
                let inner = self.players(cx, &o["opponent-of"]);
                if inner.len() == 1 {
                    vec![inner[0].flip()]
                } else {
                    Vec::new()
                }
            }
            Value::String(s) if s.starts_with('$') => self.players(cx, &self.resolve_ref(cx, s)),
            Value::String(s) => match s.as_str() {
                "white" => vec![Color::White],
                "black" => vec![Color::Black],
                "chooser" => vec![chooser],
                "opponent" => vec![chooser.flip()],
                "turn" => vec![self.game.turn()],
                "mover" => vec![mover],
                "both" => vec![Color::White, Color::Black],
                _ => Vec::new(),
            },
            Value::Object(o) => o
                .get("color")
                .and_then(Value::as_str)
                .and_then(parse_color)
                .into_iter()
                .collect(),
            Value::Array(a) if a.len() == 1 => self.players(cx, &a[0]),
            _ => Vec::new(),
        }
    }

    pub(crate) fn players_for(&self, inst: u32, v: &Value) -> Vec<Color> {
        let e = BTreeMap::new();
        let b = BTreeMap::new();
        let cx = Cx::new(Some(inst), &e, &Value::Null, &b);
        self.players(&cx, v)
    }

    /// Squares named by a square parameter (names, indices, lists,
    /// references to squares, pieces or markers).
    pub(crate) fn squares(&self, cx: &Cx, v: &Value) -> Vec<u8> {
        let v = self.val(cx, v);
        let mut out = Vec::new();
        for x in items(v) {
            let x = self.val(cx, &x);
            if let Some(s) = square_of(self.geom, &x) {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }

    fn files(&self, cx: &Cx, v: &Value) -> Vec<u8> {
        items(self.val(cx, v))
            .iter()
            .filter_map(|x| file_of(self.geom, &self.val(cx, x)))
            .collect()
    }

    fn ranks(&self, cx: &Cx, v: &Value) -> Vec<u8> {
        items(self.val(cx, v))
            .iter()
            .filter_map(|x| rank_of(self.geom, &self.val(cx, x)))
            .collect()
    }

    /// The royal squares of `color` on `pos` as the rule hooks judge them.
    pub(crate) fn royal_mask(&self, pos: Board<'_>, color: Color) -> Mask {
        pos.royals(color)
    }

    pub(crate) fn view(&self, pos: Board<'_>, p: &PieceInfo) -> View {
        let def = self.game.variant().definition();
        View {
            id: p.id,
            sq: p.sq,
            color: p.piece.color,
            ty: kind_name(def, p.piece.kind),
            royal: self.royal_mask(pos, p.piece.color) & bit(p.sq) != 0,
        }
    }

    /// A view of a snapshot (of a piece that may be gone).
    pub(crate) fn view_of_snap(&self, pos: Board<'_>, s: &Value) -> Option<View> {
        let sq = square_of(self.geom, s)?;
        let id = s.get("id").and_then(Value::as_u64).unwrap_or(0) as u16;
        let color = s
            .get("color")
            .and_then(Value::as_str)
            .and_then(parse_color)?;
        let ty = s
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let def = self.game.variant().definition();
        let royal = if pos.piece_id(sq) == id && id != 0 {
            self.royal_mask(pos, color) & bit(sq) != 0
        } else {
            super::kind_by_name(def, &ty).is_some_and(|k| def.pieces[k.index()].royal)
        };
        Some(View {
            id,
            sq,
            color,
            ty,
            royal,
        })
    }

    fn types(&self, cx: &Cx, v: &Value) -> Vec<String> {
        items(self.val(cx, v))
            .iter()
            .filter_map(|x| self.val(cx, x).as_str().map(str::to_string))
            .collect()
    }

    /// Whether a piece matches a piece filter.
    pub(crate) fn piece_ok(&self, cx: &Cx, f: &Value, p: &View) -> bool {
        let Some(o) = f.as_object() else {
            // A reference used as a filter: the piece is one of those named.
            if f.is_string() {
                return self.pieces_param(cx, f).iter().any(|q| q.id == p.id);
            }
            return false;
        };
        for (k, x) in o {
            let ok = match k.as_str() {
                "color" => self.players(cx, x).contains(&p.color),
                "type" => self.types(cx, x).contains(&p.ty),
                "notType" => !self.types(cx, x).contains(&p.ty),
                "royal" => x.as_bool() == Some(p.royal),
                "on" => self.square_ok(cx, x, p.sq),
                "onMarker" => self.has_marker(cx, x, p.sq),
                "adjacentTo" => self.adjacent(cx, x, p.sq),
                "sameFileAs" => self
                    .pieces_param(cx, x)
                    .iter()
                    .any(|q| self.geom.file(q.sq) == self.geom.file(p.sq)),
                "exclude" => {
                    let ex = self.squares(cx, x);
                    !ex.contains(&p.sq)
                }
                "where" => {
                    let it = json!({"id": p.id, "type": p.ty, "color": p.color.name(), "square": self.geom.name(p.sq)});
                    truthy(&self.eval(&Cx { it: &it, ..*cx }, x))
                }
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    fn has_marker(&self, cx: &Cx, spec: &Value, sq: u8) -> bool {
        let kind = spec.get("kind").map(|k| self.val(cx, k));
        let kind = kind
            .as_ref()
            .and_then(Value::as_str)
            .and_then(MarkerKind::parse);
        let own = spec.get("own").and_then(Value::as_bool).unwrap_or(true);
        self.st
            .markers
            .iter()
            .any(|m| m.square == sq && Some(m.kind) == kind && (!own || Some(m.source) == cx.inst))
    }

    fn adjacent(&self, cx: &Cx, spec: &Value, sq: u8) -> bool {
        let Some(of) = spec.get("of") else {
            return false;
        };
        let ring = spec
            .get("ring")
            .map(|r| self.val(cx, r))
            .and_then(|r| r.as_u64())
            .unwrap_or(8);
        let centres = self.squares(cx, of);
        centres.iter().any(|&c| {
            let g = self.geom;
            let df = (i32::from(g.file(c)) - i32::from(g.file(sq))).abs();
            let dr = (i32::from(g.rank(c)) - i32::from(g.rank(sq))).abs();
            if ring == 4 {
                df + dr == 1
            } else {
                df.max(dr) == 1
            }
        })
    }

    /// Whether a square matches a square filter.
    pub(crate) fn square_ok(&self, cx: &Cx, f: &Value, sq: u8) -> bool {
        let Some(o) = f.as_object() else {
            return self.squares(cx, f).contains(&sq);
        };
        let pos = self.board(cx);
        for (k, x) in o {
            let ok = match k.as_str() {
                "kind" => true,
                "squares" => self.squares(cx, x).contains(&sq),
                "file" => self.files(cx, x).contains(&self.geom.file(sq)),
                "rank" => self.ranks(cx, x).contains(&self.geom.rank(sq)),
                "relRank" => {
                    let n = x
                        .get("n")
                        .map(|n| self.val(cx, n))
                        .and_then(|n| n.as_i64())
                        .unwrap_or(0);
                    let of = x
                        .get("of")
                        .map_or_else(|| vec![Color::White], |v| self.players(cx, v));
                    of.iter().any(|c| {
                        // Counted from the colour's own side of this
                        // board: 1 its back rank, -1 the far rank.
                        let h = i64::from(self.geom.h);
                        let rel = if *c == Color::White {
                            i64::from(self.geom.rank(sq)) + 1
                        } else {
                            h - i64::from(self.geom.rank(sq))
                        };
                        if n > 0 {
                            rel == n
                        } else {
                            rel == h + 1 + n
                        }
                    })
                }
                "empty" => x.as_bool() == Some(pos.piece_at(sq).is_none()),
                "hardBlocked" => x.as_bool() == Some(self.hard_blocked(sq)),
                "hasMarker" => self.has_marker(cx, x, sq),
                "adjacentTo" => self.adjacent(cx, x, sq),
                "exclude" => !self.squares(cx, x).contains(&sq),
                "where" => {
                    let it = json!(self.geom.name(sq));
                    truthy(&self.eval(&Cx { it: &it, ..*cx }, x))
                }
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Blocked markers are hard blocks whatever their source (rulings D2).
    pub(crate) fn hard_blocked(&self, sq: u8) -> bool {
        self.st
            .markers
            .iter()
            .any(|m| m.square == sq && m.kind == MarkerKind::Blocked)
    }

    pub(crate) fn blocked_mask(&self) -> Mask {
        self.st
            .markers
            .iter()
            .filter(|m| m.kind == MarkerKind::Blocked)
            .fold(0, |b, m| b | bit(m.square))
    }

    /// Markers matching a marker filter (own by default).
    pub(crate) fn markers_matching(&self, cx: &Cx, f: &Value) -> Vec<Marker> {
        if let Value::String(s) = f {
            if s.starts_with('$') {
                let ids: Vec<u64> = items(self.resolve_ref(cx, s))
                    .iter()
                    .filter_map(|v| v.get("marker").and_then(Value::as_u64))
                    .collect();
                return self
                    .st
                    .markers
                    .iter()
                    .filter(|m| ids.contains(&u64::from(m.id)))
                    .cloned()
                    .collect();
            }
        }
        let Some(o) = f.as_object() else {
            return Vec::new();
        };
        let own = o.get("own").and_then(Value::as_bool).unwrap_or(true);
        let kind = o.get("kind").map(|k| self.val(cx, k));
        let kind = kind
            .as_ref()
            .and_then(Value::as_str)
            .and_then(MarkerKind::parse);
        self.st
            .markers
            .iter()
            .filter(|m| !own || Some(m.source) == cx.inst)
            .filter(|m| o.get("kind").is_none() || Some(m.kind) == kind)
            .filter(|m| o.get("at").is_none_or(|a| self.square_ok(cx, a, m.square)))
            .filter(|m| {
                o.get("where").is_none_or(|w| {
                    let it = super::marker_value(self.geom, m);
                    truthy(&self.eval(&Cx { it: &it, ..*cx }, w))
                })
            })
            .cloned()
            .collect()
    }

    /// Pieces on the board named by a pieces parameter: a filter, or a
    /// reference to pieces (by id), squares or markers (their occupant).
    pub(crate) fn pieces_param(&self, cx: &Cx, v: &Value) -> Vec<PieceInfo> {
        let pos = self.board(cx);
        let all = super::pieces_of(pos);
        match v {
            Value::Object(_) => all
                .into_iter()
                .filter(|p| self.piece_ok(cx, v, &self.view(pos, p)))
                .collect(),
            _ => {
                let mut out: Vec<PieceInfo> = Vec::new();
                for x in items(self.val(cx, v)) {
                    let found = match x.get("id").and_then(Value::as_u64) {
                        Some(id) if x.get("marker").is_none() => {
                            all.iter().find(|p| u64::from(p.id) == id).copied()
                        }
                        _ => square_of(self.geom, &x)
                            .and_then(|s| all.iter().find(|p| p.sq == s).copied()),
                    };
                    if let Some(p) = found {
                        if !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
                out
            }
        }
    }

    /// The items of a source, in canonical order (rulings B4).
    pub(crate) fn source(&self, cx: &Cx, src: &Value) -> Vec<Value> {
        match src {
            Value::Object(o) if o.len() == 1 => {
                let (k, x) = o.iter().next().expect("one key");
                match k.as_str() {
                    "pieces" => self
                        .source_pieces(cx, x)
                        .iter()
                        .map(|p| self.snap(p))
                        .collect(),
                    "squares" => (0..self.geom.squares())
                        .filter(|&s| self.square_ok(cx, x, s))
                        .map(|s| json!(self.geom.name(s)))
                        .collect(),
                    "markers" => self
                        .markers_matching(cx, x)
                        .iter()
                        .map(|m| super::marker_value(self.geom, m))
                        .collect(),
                    "values" => x
                        .as_array()
                        .cloned()
                        .unwrap_or_default()
                        .iter()
                        .map(|v| self.val(cx, v))
                        .collect(),
                    _ => Vec::new(),
                }
            }
            other => items(self.val(cx, other)),
        }
    }

    /// The pieces of a `{"pieces": FILTER}` source (`x` is the filter), in
    /// ascending square order, without their snapshots: the order
    /// [`Runtime::order`] gives their snapshots by default, so a caller that
    /// needs only some of them (a count, a random pick) snapshots only
    /// those (issue 25: the probes of effect-aware legality).
    pub(crate) fn source_pieces(&self, cx: &Cx, x: &Value) -> Vec<super::PieceInfo> {
        let pos = self.board(cx);
        let mut v = super::pieces_of(pos);
        v.retain(|p| self.piece_ok(cx, x, &self.view(pos, p)));
        v
    }

    /// Sorts items by an order (rulings 2.1 § Order); stable.
    pub(crate) fn order(&self, cx: &Cx, mut v: Vec<Value>, order: Option<&Value>) -> Vec<Value> {
        let g = self.geom;
        let key_sq = |x: &Value| square_of(g, x).unwrap_or(0);
        let color = |x: &Value| {
            x.get("color")
                .and_then(Value::as_str)
                .and_then(parse_color)
                .unwrap_or(Color::White)
        };
        let rel = |x: &Value| {
            let s = key_sq(x);
            if color(x) == Color::White {
                g.rank(s)
            } else {
                g.h - 1 - g.rank(s)
            }
        };
        let inner = |v: &mut Vec<Value>, o: &str| {
            v.sort_by_key(key_sq);
            match o {
                "advanced-first" => v.sort_by_key(|x| std::cmp::Reverse(rel(x))),
                "rearmost-first" => v.sort_by_key(rel),
                _ => {}
            }
        };
        match order {
            // The default: ascending square when every item names one
            // (pieces, squares, markers), else the items' own order.
            None if v.iter().all(|x| square_like(g, x)) => inner(&mut v, "square-asc"),
            None => {}
            Some(Value::String(s)) => inner(&mut v, s),
            Some(Value::Object(o)) => {
                inner(
                    &mut v,
                    o.get("then")
                        .and_then(Value::as_str)
                        .unwrap_or("square-asc"),
                );
                if let Some(f) = o.get("files") {
                    let files = self.files(cx, f);
                    v.sort_by_key(|x| {
                        files
                            .iter()
                            .position(|&ff| ff == g.file(key_sq(x)))
                            .unwrap_or(usize::MAX)
                    });
                }
                if let Some(Value::Array(cs)) = o.get("colors") {
                    let cols: Vec<Color> = cs.iter().flat_map(|c| self.players(cx, c)).collect();
                    v.sort_by_key(|x| {
                        cols.iter()
                            .position(|c| *c == color(x))
                            .unwrap_or(usize::MAX)
                    });
                }
            }
            _ => inner(&mut v, "square-asc"),
        }
        v
    }

    /// Evaluates an expression (rulings 2.1 § Expressions).
    pub(crate) fn eval(&self, cx: &Cx, e: &Value) -> Value {
        let Value::Object(o) = e else {
            return self.val(cx, e);
        };
        let Some((op, arg)) = o.iter().next().filter(|_| o.len() == 1) else {
            return Value::Null;
        };
        let two = |cx: &Cx| -> (Value, Value) {
            match arg.as_array() {
                Some(a) if a.len() == 2 => (self.eval(cx, &a[0]), self.eval(cx, &a[1])),
                _ => (Value::Null, Value::Null),
            }
        };
        match op.as_str() {
            "eq" => {
                let (a, b) = two(cx);
                json!(loose_eq(&a, &b))
            }
            "ne" => {
                let (a, b) = two(cx);
                json!(!loose_eq(&a, &b))
            }
            "lt" | "le" | "gt" | "ge" => {
                let (a, b) = two(cx);
                let r = match (num(&a), num(&b)) {
                    (Some(x), Some(y)) => match op.as_str() {
                        "lt" => x < y,
                        "le" => x <= y,
                        "gt" => x > y,
                        _ => x >= y,
                    },
                    _ => false,
                };
                json!(r)
            }
            "rps-beats" => {
                let (a, b) = two(cx);
                json!(rps_beats(&a, &b))
            }
            // Arithmetic: null when an operand is not a number.
            "add" => {
                let xs: Option<Vec<f64>> = arg
                    .as_array()
                    .map(|a| a.iter().map(|x| num(&self.eval(cx, x))).collect())
                    .unwrap_or(None);
                xs.map_or(Value::Null, |xs| number_value(xs.iter().sum()))
            }
            "sub" => {
                let (a, b) = two(cx);
                match (num(&a), num(&b)) {
                    (Some(x), Some(y)) => number_value(x - y),
                    _ => Value::Null,
                }
            }
            "abs" => num(&self.eval(cx, arg)).map_or(Value::Null, |x| number_value(x.abs())),
            "and" => json!(arg
                .as_array()
                .is_some_and(|a| a.iter().all(|x| truthy(&self.eval(cx, x))))),
            "or" => json!(arg
                .as_array()
                .is_some_and(|a| a.iter().any(|x| truthy(&self.eval(cx, x))))),
            "not" => json!(!truthy(&self.eval(cx, arg))),
            "count" => match pieces_filter(arg) {
                Some(x) => json!(self.source_pieces(cx, x).len()),
                None => json!(self.source(cx, arg).len()),
            },
            "legal-move-count" => {
                if cx.depth > 0 {
                    return json!(0);
                }
                let inner = Cx {
                    depth: cx.depth + 1,
                    pos: None,
                    ..*cx
                };
                let pos = self.position();
                let n = self
                    .rule_legal_moves_depth(1)
                    .iter()
                    .filter(|m| self.move_matches(&inner, arg, pos, **m))
                    .count();
                json!(n)
            }
            "in-check" => json!(self.players(cx, arg).iter().any(|c| self.in_check(*c))),
            "opponent-of" => {
                let p = self.players(cx, arg);
                if p.len() == 1 {
                    json!(p[0].flip().name())
                } else {
                    Value::Null
                }
            }
            "rps-winner" => {
                let v = self.val(cx, arg);
                let (w, b) = (
                    v.get("white").cloned().unwrap_or(Value::Null),
                    v.get("black").cloned().unwrap_or(Value::Null),
                );
                if rps_beats(&w, &b) {
                    json!("white")
                } else if rps_beats(&b, &w) {
                    json!("black")
                } else {
                    json!("tie")
                }
            }
            _ => Value::Null,
        }
    }

    // ------------------------------------------------- helpers for triggers

    pub(crate) fn eval_in(
        &self,
        inst: u32,
        e: &Value,
        ev: &BTreeMap<String, Value>,
        subject: &Value,
    ) -> Value {
        let b = BTreeMap::new();
        let cx = Cx::new(Some(inst), ev, subject, &b);
        self.eval(&cx, e)
    }

    pub(crate) fn piece_matches_in(
        &self,
        inst: u32,
        f: &Value,
        p: &PieceInfo,
        ev: &BTreeMap<String, Value>,
        subject: &Value,
    ) -> bool {
        let b = BTreeMap::new();
        let cx = Cx::new(Some(inst), ev, subject, &b);
        let pos = self.position();
        self.piece_ok(&cx, f, &self.view(pos, p))
    }

    pub(crate) fn snap_matches(
        &self,
        inst: u32,
        f: &Value,
        snap: &Value,
        ev: &BTreeMap<String, Value>,
    ) -> bool {
        let b = BTreeMap::new();
        let cx = Cx::new(Some(inst), ev, snap, &b);
        let pos = self.position();
        self.view_of_snap(pos, snap)
            .is_some_and(|v| self.piece_ok(&cx, f, &v))
    }

    pub(crate) fn square_matches_in(
        &self,
        inst: u32,
        f: &Value,
        sq: u8,
        ev: &BTreeMap<String, Value>,
        subject: &Value,
    ) -> bool {
        let b = BTreeMap::new();
        let cx = Cx::new(Some(inst), ev, subject, &b);
        self.square_ok(&cx, f, sq)
    }
}
