//! From a parsed game file to the engine's [`GameDefinition`]: validation
//! with diagnostics, then compilation of every condition, trigger and
//! action into the engine's form.
//!
//! Conditions are compiled by evaluating them over every combination of
//! the atoms they may read (the state of the destination square, whether
//! the path is clear, whether the piece has moved, …). The truth table must
//! factor into the engine's parameters (a move/capture mode, a ride flag, a
//! first-move flag); a condition that does not, or that reads anything
//! else, gets a "not supported by the engine yet" diagnostic.

use std::collections::BTreeSet;
use std::ops::Range;

use houserules_engine::definition::{
    expand, Castling, Direction, DropRule, Drops, Edge, EnPassantRole, EndRules, GameDefinition,
    PieceType, Promotion, Reach, Role, Shape, ShapeMode, Symmetry, Vector,
};
use houserules_engine::{Color, Game, Variant};

use crate::cond::ast::{ExprKind, Mutation, Who};
use crate::cond::check::{
    self, Atom, CondError, Ctx, Env, Holder, PieceInfo, Prop, Scope, TargetTest, Ty, Typed, Val,
};
use crate::cond::parse::{parse_call, parse_condition, parse_mutation};
use crate::diag::{did_you_mean, Code, Diagnostic, Source};
use crate::effects::{Effect, Op};
use crate::model::{
    direction_names, DirItem, DirectionSpec, EdgeSpec, Facing, GameFile, Loc, MoveType,
    MovementSpec, Outcome, PieceSpec, PropValue, RangeSpec, RoleSpec, Sp, SymmetrySpec,
};
use crate::props::{ByteSet, Layout};

/// Events a trigger may name.
const EVENTS: [&str; 6] = [
    "AfterMove",
    "BeforeMove",
    "OnCapture",
    "OnCaptured",
    "TurnStart",
    "TurnEnd",
];
/// Actions a trigger may call.
const TRIGGER_ACTIONS: [&str; 1] = ["Promote"];
/// The most rows the truth table of one movement condition may have.
const MAX_TABLE_ROWS: usize = 250_000;
/// Built-in piece properties.
const BUILTIN_PROPS: [&str; 6] = ["has_moved", "owner", "x", "y", "rank", "type"];

struct C<'a> {
    src: &'a Source,
    diags: Vec<Diagnostic>,
    /// Movement mutations and property guards that run as rule hooks.
    effects: Vec<Effect>,
    /// Whether the hooks keep properties in the attribute bytes.
    uses_attrs: bool,
}

/// A compiled movement entry: its shape, the property bytes of the mover
/// it needs, the enemy bytes per type it may capture, its hook mutations
/// and where those (or the guarding condition) are written.
type CompiledEntry = (
    Shape,
    Option<ByteSet>,
    Option<Vec<ByteSet>>,
    Vec<Op>,
    Range<usize>,
);

/// An en passant entry waiting for its capture shape.
struct PendingEp {
    piece: usize,
    /// The player whose pieces have it (`only`).
    only: Option<Color>,
    vectors: Vec<Vector>,
    /// The property the condition reads on the captured piece.
    prop: Option<(String, Range<usize>)>,
    span: Range<usize>,
}

/// A `set self.P = true` mutation on a double step.
struct PendingMarker {
    prop: String,
    span: Range<usize>,
}

struct PromoOut {
    ranks: Vec<u8>,
    choices: Vec<usize>,
    span: Range<usize>,
    /// The player may decline (`optional: true`).
    optional: bool,
    /// Only to piece types the side has lost (`only_captured: true`).
    only_captured: bool,
}

/// Parses one mutation, or reports its syntax error at its place.
fn parsed_mutation(c: &mut C<'_>, mu: &Sp<String>) -> Option<Mutation> {
    match parse_mutation(&mu.value) {
        Ok(p) => Some(p),
        Err(pe) => {
            let span = c.inner_span(&mu.loc, &mu.value, pe.offset..pe.offset + 1);
            let d = c
                .diag(
                    Code::ConditionSyntax,
                    span,
                    format!("mutation: {}", pe.message),
                )
                .label("here");
            c.push(d);
            None
        }
    }
}

impl C<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn diag(&self, code: Code, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.src, code, span, message)
    }

    /// Reports a name that names nothing at `span`: `message`, a short
    /// `label`, and a suggestion for `name` among the `known` names.
    fn unknown<'a>(
        &mut self,
        span: Range<usize>,
        message: String,
        label: &str,
        name: &str,
        known: impl IntoIterator<Item = &'a str> + Clone,
    ) {
        let d = self
            .diag(Code::UnknownName, span, message)
            .label(label)
            .maybe_help(did_you_mean(name, known));
        self.push(d);
    }

    /// The byte range of a located value.
    fn span(&self, loc: &Loc) -> Range<usize> {
        let text = self.src.text();
        let start = match loc.offset {
            Some(o) => crate::diag::clamp_to_char(text, o),
            None if loc.line > 0 => self.src.offset_of(loc.line, loc.column),
            None => 0,
        };
        let len = match loc.len {
            Some(l) if l > 1 || (l == 1 && !text[start..].starts_with(['[', '{'])) => l,
            _ if text[start..].starts_with(['[', '{']) => {
                // A flow collection: underline it up to its closing bracket.
                let mut depth = 0usize;
                let mut end = text.len() - start;
                for (i, ch) in text[start..].char_indices() {
                    match ch {
                        '[' | '{' => depth += 1,
                        ']' | '}' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                end = i + 1;
                                break;
                            }
                        }
                        '\n' => {
                            end = i;
                            break;
                        }
                        _ => {}
                    }
                }
                end
            }
            _ => {
                // A collection: underline the rest of its first line.
                let rest = &text[start..];
                let line = rest.find('\n').map_or(rest, |i| &rest[..i]);
                line.trim_end().len()
            }
        };
        start..(start + len).min(text.len())
    }

    /// The file range of `inner` (a range of the scalar's value `text`),
    /// found by aligning the value with the source text; the whole scalar
    /// when they cannot be aligned (escapes).
    fn inner_span(&self, loc: &Loc, text: &str, inner: Range<usize>) -> Range<usize> {
        let outer = self.span(loc);
        let src = self.src.text();
        let mut map: Vec<Option<usize>> = vec![None; text.len() + 1];
        let mut j = outer.start;
        for (i, c) in text.char_indices() {
            if c.is_whitespace() {
                continue;
            }
            loop {
                let Some(sc) = src.get(j..).and_then(|r| r.chars().next()) else {
                    return outer;
                };
                if sc == c {
                    map[i] = Some(j);
                    j += sc.len_utf8();
                    break;
                }
                if sc.is_whitespace() || sc == '\'' || sc == '"' {
                    j += sc.len_utf8();
                    continue;
                }
                return outer;
            }
        }
        if inner.start >= text.trim_end().len() {
            // Past the last character: point just after it.
            if let Some((i, o)) = (0..text.len())
                .rev()
                .find_map(|i| map.get(i).copied().flatten().map(|o| (i, o)))
            {
                let clen = text[i..].chars().next().map_or(1, |c| c.len_utf8());
                return o + clen..o + clen;
            }
        }
        let start =
            (inner.start..inner.end.min(text.len())).find_map(|i| map.get(i).copied().flatten());
        let last = (inner.start..inner.end.min(text.len()))
            .rev()
            .find_map(|i| map.get(i).copied().flatten().map(|o| (i, o)));
        match (start, last) {
            (Some(s), Some((i, o))) => {
                let clen = text[i..].chars().next().map_or(1, |c| c.len_utf8());
                s..(o + clen).max(s)
            }
            _ => outer,
        }
    }

    fn cond_diag(&self, loc: &Loc, text: &str, e: CondError) -> Diagnostic {
        let span = self.inner_span(loc, text, e.span.clone());
        let label = match e.code {
            Code::UnknownAccessor => "unknown",
            Code::ConditionType => "type error",
            _ => "here",
        };
        self.diag(e.code, span, e.message)
            .label(label)
            .maybe_help(e.help)
    }

    fn unsupported(&self, loc: &Loc, text: &str, inner: Range<usize>, what: &str) -> Diagnostic {
        let span = self.inner_span(loc, text, inner.clone());
        let snippet = text.get(inner).unwrap_or("").trim().replace('\n', " ");
        self.diag(
            Code::EngineUnsupported,
            span,
            format!("{what}: `{snippet}` is not supported by the engine yet"),
        )
        .label("not supported by the engine yet")
    }
}

/// Parses and type-checks a condition; pushes a diagnostic and returns
/// `None` on failure.
fn checked(c: &mut C<'_>, ctx: &Ctx<'_>, s: &Sp<String>) -> Option<Typed> {
    let e = match parse_condition(&s.value) {
        Ok(e) => e,
        Err(pe) => {
            let span = c.inner_span(&s.loc, &s.value, pe.offset..pe.offset + 1);
            let d = c
                .diag(
                    Code::ConditionSyntax,
                    span,
                    format!("condition: {}", pe.message),
                )
                .label("here");
            c.push(d);
            return None;
        }
    };
    match ctx.check_condition(&e) {
        Ok(t) => Some(t),
        Err(ce) => {
            let d = c.cond_diag(&s.loc, &s.value, ce);
            c.push(d);
            None
        }
    }
}

fn is_ident(s: &str) -> bool {
    let mut ch = s.chars();
    ch.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && ch.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Compiles a parsed file.
pub(crate) fn compile(
    file: &GameFile,
    src: &Source,
) -> Result<(GameDefinition, Vec<Effect>, bool), Vec<Diagnostic>> {
    let mut c = C {
        src,
        diags: Vec::new(),
        effects: Vec::new(),
        uses_attrs: false,
    };
    let def = compile_inner(&mut c, file);
    match def {
        Some(d) if c.diags.is_empty() => Ok((d, c.effects, c.uses_attrs)),
        _ => {
            if c.diags.is_empty() {
                c.diags.push(Diagnostic::new(
                    src,
                    Code::Invalid,
                    0..0,
                    "the definition is invalid",
                ));
            }
            Err(c.diags)
        }
    }
}

fn compile_inner(c: &mut C<'_>, f: &GameFile) -> Option<GameDefinition> {
    // Id and name.
    let id = f.id.value.clone();
    if id.is_empty()
        || !id
            .chars()
            .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-')
    {
        let d = c
            .diag(
                Code::InvalidValue,
                c.span(&f.id.loc),
                format!("game id `{id}` must be lower-case letters, digits and `-`"),
            )
            .label("invalid id");
        c.push(d);
    }
    let name = f
        .name
        .as_ref()
        .map_or_else(|| id.clone(), |n| n.value.clone());

    // Board.
    let (w, h) = (f.board.value.width.value, f.board.value.height.value);
    let mut board_ok = true;
    for (v, what) in [
        (&f.board.value.width, "width"),
        (&f.board.value.height, "height"),
    ] {
        if !(1..=16).contains(&v.value) {
            let d = c
                .diag(
                    Code::InvalidValue,
                    c.span(&v.loc),
                    format!(
                        "board {what} {} is out of range: each side is 1 to 16 squares",
                        v.value
                    ),
                )
                .label("out of range");
            c.push(d);
            board_ok = false;
        }
    }
    if board_ok && w * h > 128 {
        let d = c
            .diag(
                Code::InvalidValue,
                c.span(&f.board.loc),
                format!(
                    "a {w}x{h} board has {} squares; at most 128 are supported",
                    w * h
                ),
            )
            .label("too large");
        c.push(d);
        board_ok = false;
    }
    if !board_ok {
        return None;
    }
    let (w, h) = (w as u8, h as u8);

    // Players.
    let players: Vec<String> = match &f.players {
        None => vec!["White".into(), "Black".into()],
        Some(ps) => {
            let mut names: Vec<String> = Vec::new();
            for p in &ps.value {
                if !is_ident(&p.value.id.value) {
                    let d = c
                        .diag(
                            Code::InvalidValue,
                            c.span(&p.value.id.loc),
                            format!(
                                "player id `{}` must be a name (letters, digits, `_`)",
                                p.value.id.value
                            ),
                        )
                        .label("invalid id");
                    c.push(d);
                } else if names.contains(&p.value.id.value) {
                    let d = c
                        .diag(
                            Code::Duplicate,
                            c.span(&p.value.id.loc),
                            format!("duplicate player id `{}`", p.value.id.value),
                        )
                        .label("already used");
                    c.push(d);
                }
                names.push(p.value.id.value.clone());
            }
            if ps.value.len() < 2 {
                let d = c
                    .diag(
                        Code::InvalidValue,
                        c.span(&ps.loc),
                        format!(
                            "a game needs at least two players, found {}",
                            ps.value.len()
                        ),
                    )
                    .label("too few players");
                c.push(d);
            } else if ps.value.len() > 2 {
                let d = c
                    .diag(Code::EngineUnsupported, c.span(&ps.value[2].loc), format!("{} players: play with more than two players is not supported by the engine yet", ps.value.len()))
                    .label("not supported by the engine yet");
                c.push(d);
            } else {
                for (p, want) in ps.value.iter().zip([Facing::North, Facing::South]) {
                    if p.value.facing.value != want {
                        let d = c
                            .diag(
                                Code::EngineUnsupported,
                                c.span(&p.value.facing.loc),
                                format!(
                                    "player `{}` facing {:?}: the engine supports only the first player facing North and the second facing South yet",
                                    p.value.id.value, p.value.facing.value
                                ),
                            )
                            .label("not supported by the engine yet");
                        c.push(d);
                    }
                }
            }
            names
        }
    };

    // Pieces: ids, symbols, properties.
    let pieces = &f.pieces.value;
    if pieces.is_empty() {
        let d = c
            .diag(
                Code::InvalidValue,
                c.span(&f.pieces.loc),
                "a game needs at least one piece type",
            )
            .label("no pieces");
        c.push(d);
        return None;
    }
    if pieces.len() > houserules_engine::tables::MAX_KINDS {
        let d = c
            .diag(
                Code::InvalidValue,
                c.span(&pieces[houserules_engine::tables::MAX_KINDS].loc),
                format!(
                    "{} piece types; at most {} are supported",
                    pieces.len(),
                    houserules_engine::tables::MAX_KINDS
                ),
            )
            .label("one too many");
        c.push(d);
        return None;
    }
    let mut symbols: Vec<char> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let pid = &p.value.id;
        if !is_ident(&pid.value) {
            let d = c
                .diag(Code::InvalidValue, c.span(&pid.loc), format!("piece id `{}` must be a name (letters, digits and `_`, not starting with a digit)", pid.value))
                .label("invalid id");
            c.push(d);
        } else if let Some(j) = pieces[..i]
            .iter()
            .position(|q| q.value.id.value == pid.value)
        {
            let (line, _) = c.src.line_col(c.span(&pieces[j].value.id.loc).start);
            let d = c
                .diag(
                    Code::Duplicate,
                    c.span(&pid.loc),
                    format!("duplicate piece id `{}`", pid.value),
                )
                .label(format!("first declared on line {line}"));
            c.push(d);
        } else if players.contains(&pid.value)
            || ["self", "target", "true", "false", "not", "and", "or"].contains(&pid.value.as_str())
        {
            let d = c
                .diag(
                    Code::InvalidValue,
                    c.span(&pid.loc),
                    format!(
                        "piece id `{}` is already a name in conditions (a player or a keyword)",
                        pid.value
                    ),
                )
                .label("reserved");
            c.push(d);
        }
        let sym = &p.value.symbol;
        let mut chars = sym.value.chars();
        let ch = match (chars.next(), chars.next()) {
            (Some(ch), None) if ch.is_ascii_alphabetic() => ch.to_ascii_uppercase(),
            _ => {
                let d = c
                    .diag(
                        Code::InvalidValue,
                        c.span(&sym.loc),
                        format!("symbol `{}` must be one ASCII letter", sym.value),
                    )
                    .label("not one letter");
                c.push(d);
                symbols.push('?');
                continue;
            }
        };
        if let Some(j) = symbols.iter().position(|&s| s == ch) {
            let d = c
                .diag(
                    Code::Duplicate,
                    c.span(&sym.loc),
                    format!("pieces `{}` and `{}` share the symbol `{ch}` (symbols are compared ignoring case)", pieces[j].value.id.value, pid.value),
                )
                .label("duplicate symbol");
            c.push(d);
        }
        symbols.push(ch);
    }
    let ids: Vec<String> = pieces.iter().map(|p| p.value.id.value.clone()).collect();
    let markers_read = marker_props(f);
    let mut infos: Vec<PieceInfo> = Vec::new();
    let mut layouts: Vec<Layout> = Vec::new();
    for p in pieces {
        let mut props = Vec::new();
        let mut layout = Layout::default();
        if let Some(ps) = &p.value.properties {
            let mut need = 0u32;
            for (name, v) in &ps.value {
                let span = c.span(&v.loc);
                if !is_ident(name) {
                    let d = c
                        .diag(
                            Code::InvalidValue,
                            span,
                            format!("property name `{name}` must be a name"),
                        )
                        .label("invalid name");
                    c.push(d);
                    continue;
                }
                if name == "has_moved" {
                    if v.value != PropValue::Bool(false) {
                        let d = c
                            .diag(
                                Code::InvalidValue,
                                span,
                                "`has_moved` is kept by the engine; its default must be `false`",
                            )
                            .label("must be false");
                        c.push(d);
                    }
                    continue;
                }
                if BUILTIN_PROPS.contains(&name.as_str()) {
                    let d = c
                        .diag(Code::InvalidValue, span, format!("`{name}` is a built-in property of every piece and cannot be declared"))
                        .label("built in");
                    c.push(d);
                    continue;
                }
                // (type, smallest number, number of values, default index)
                let out_of_range = |c: &mut C<'_>, msg: String| {
                    let d = c
                        .diag(Code::InvalidValue, span.clone(), msg)
                        .label("out of range")
                        .help("a plain number property holds 0 to 255; for another range write `{ default: D, min: A, max: B }` (at most 256 values)");
                    c.push(d);
                };
                let (ty, min, count, default) = match &v.value {
                    PropValue::Bool(b) => (Ty::Bool, 0, 2, u16::from(*b)),
                    PropValue::Int(n) => {
                        if !(0..=255).contains(n) {
                            out_of_range(
                                c,
                                format!("property `{name}`: default {n} is out of range 0 to 255"),
                            );
                            continue;
                        }
                        (Ty::Int, 0, 256, *n as u16)
                    }
                    PropValue::Range(r) => {
                        let min = r.min.unwrap_or(0);
                        if r.max < min || r.max.saturating_sub(min) > 255 {
                            out_of_range(c, format!("property `{name}`: the range {min} to {} must hold 1 to 256 values", r.max));
                            continue;
                        }
                        if !(min..=r.max).contains(&r.default) {
                            out_of_range(
                                c,
                                format!(
                                    "property `{name}`: default {} is out of its range {min} to {}",
                                    r.default, r.max
                                ),
                            );
                            continue;
                        }
                        (
                            Ty::Int,
                            min,
                            (r.max - min + 1) as u16,
                            (r.default - min) as u16,
                        )
                    }
                    PropValue::Text(t) if ids.contains(t) => (
                        Ty::Piece,
                        0,
                        ids.len() as u16,
                        ids.iter().position(|i| i == t).unwrap_or(0) as u16,
                    ),
                    PropValue::Text(t) if players.contains(t) => (
                        Ty::Color,
                        0,
                        players.len() as u16,
                        players.iter().position(|i| i == t).unwrap_or(0) as u16,
                    ),
                    PropValue::Text(t) => {
                        let d = c
                            .diag(Code::WrongType, span, format!("property `{name}`: default `{t}` is not true/false, a number, a piece id or a player"))
                            .label("unknown value")
                            .maybe_help(did_you_mean(t, ids.iter().chain(players.iter()).map(|s| s.as_str())));
                        c.push(d);
                        continue;
                    }
                };
                props.push((name.clone(), ty));
                // The en passant marker is compiled into the engine's en
                // passant; it takes no bits.
                if !markers_read.contains(name) {
                    need = layout.push(name, ty, min, count, default);
                }
            }
            if need > 8 {
                let d = c
                    .diag(
                        Code::InvalidValue,
                        c.span(&ps.loc),
                        format!(
                            "the properties of `{}` need {need} bits, but a piece keeps 8 (a true/false takes 1, a plain number 8, a number with a range of N values enough bits for N)",
                            p.value.id.value
                        ),
                    )
                    .label("too many bits")
                    .help("give number properties a smaller range: `{ default: D, min: A, max: B }`");
                c.push(d);
            }
        }
        layouts.push(layout);
        infos.push(PieceInfo {
            id: p.value.id.value.clone(),
            props,
        });
    }
    if !c.diags.is_empty() {
        return None;
    }

    // Royal piece types.
    let mut royal = vec![false; pieces.len()];
    if let Some(r) = &f.royal {
        for name in &r.value {
            match ids.iter().position(|i| *i == name.value) {
                Some(k) => royal[k] = true,
                None => {
                    c.unknown(
                        c.span(&name.loc),
                        format!("unknown piece `{}` in `royal`", name.value),
                        "no such piece",
                        &name.value,
                        ids.iter().map(|s| s.as_str()),
                    );
                }
            }
        }
    }

    // Players that may have no royal piece.
    let mut royal_optional = [false; 2];
    if let Some(r) = &f.royal_optional {
        for name in &r.value {
            match players.iter().position(|p| *p == name.value) {
                Some(i) => royal_optional[i.min(1)] = true,
                None => {
                    c.unknown(
                        c.span(&name.loc),
                        format!("unknown player `{}` in `royal_optional`", name.value),
                        "no such player",
                        &name.value,
                        players.iter().map(|s| s.as_str()),
                    );
                }
            }
        }
    }

    // Movement, triggers, actions.
    let mut shapes: Vec<Vec<Shape>> = Vec::new();
    // Per compiled shape: (piece, index in its list, property guard,
    // mutations run as hooks, where they are written).
    #[allow(clippy::type_complexity)]
    let mut entries: Vec<(
        usize,
        usize,
        Option<ByteSet>,
        Option<Vec<ByteSet>>,
        Vec<Op>,
        Range<usize>,
    )> = Vec::new();
    let mut eps: Vec<PendingEp> = Vec::new();
    let mut markers: Vec<PendingMarker> = Vec::new();
    let mut promos: Vec<(usize, PromoOut)> = Vec::new();
    let mut castling: Option<(Castling, Range<usize>)> = None;
    let setup_board = setup_board_field(&f.setup.value);
    for (pi, p) in pieces.iter().enumerate() {
        let mut list = Vec::new();
        for m in &p.value.movement {
            if let Some((s, guard, dest_guard, ops, span)) = movement(
                c,
                pi,
                royal[pi],
                m,
                &infos,
                &layouts,
                &markers_read,
                &players,
                w,
                h,
                &mut eps,
                &mut markers,
            ) {
                entries.push((pi, list.len(), guard, dest_guard, ops, span));
                list.push(s);
            }
        }
        shapes.push(list);
        for t in &p.value.triggers {
            if let Some(po) = trigger(c, pi, t, &infos, &players, &ids, w, h) {
                promos.push((pi, po));
            }
        }
        for a in &p.value.actions {
            if let Some(cs) = action(c, pi, p, a, &infos, &players, &ids, w, setup_board) {
                if let Some((_, prev)) = &castling {
                    let (line, _) = c.src.line_col(prev.start);
                    let d = c
                        .diag(Code::EngineUnsupported, c.span(&a.loc), format!("a second castling action (the first is on line {line}) is not supported by the engine yet"))
                        .label("not supported by the engine yet");
                    c.push(d);
                } else {
                    castling = Some((cs, c.span(&a.loc)));
                }
            }
        }
    }

    if !c.diags.is_empty() {
        return None;
    }
    // En passant: attach to capture shapes, match with markers.
    for ep in &eps {
        let target = shapes[ep.piece].iter_mut().find(|s| {
            s.mode == ShapeMode::CaptureOnly
                && s.reach == Reach::Leap
                && s.only == ep.only
                && same_set(&s.vectors, &ep.vectors)
        });
        match target {
            Some(s) => s.en_passant = EnPassantRole::Captures,
            None => {
                let d = c
                    .diag(
                        Code::EngineUnsupported,
                        ep.span.clone(),
                        "an EnPassant entry along vectors that the piece does not also capture along (with a Capture entry of range 1) is not supported by the engine yet",
                    )
                    .label("not supported by the engine yet");
                c.push(d);
            }
        }
        if let Some((prop, span)) = &ep.prop {
            if !markers.iter().any(|m| m.prop == *prop) {
                let d = c
                    .diag(
                        Code::Invalid,
                        span.clone(),
                        format!("no movement sets `{prop}`, so this en passant can never happen"),
                    )
                    .label("never set")
                    .help(format!(
                        "mark the double step with `mutations: [ set self.{prop} = true ]`"
                    ));
                c.push(d);
            }
        }
    }
    for m in &markers {
        if !eps
            .iter()
            .any(|e| e.prop.as_ref().is_some_and(|(p, _)| *p == m.prop))
        {
            let d = c
                .diag(
                    Code::EngineUnsupported,
                    m.span.clone(),
                    format!("setting `{}`: properties are supported only as the en passant marker that an EnPassant entry reads (`$engine.board.adjacent_enemy.{}`); anything else is not supported by the engine yet", m.prop, m.prop),
                )
                .label("not supported by the engine yet");
            c.push(d);
        }
    }

    // Promotion: one rule for every promoting type; compulsory ranks from
    // plain triggers, optional ranks from `optional: true` ones.
    let mut only_captured = false;
    let promotion = match promos.first() {
        None => None,
        Some((_, first)) => {
            let mut ranks: Vec<u8> = Vec::new();
            let mut optional_ranks: Vec<u8> = Vec::new();
            let mut pieces_out: Vec<usize> = Vec::new();
            for (pi, p) in &promos {
                if p.choices != first.choices || p.only_captured != first.only_captured {
                    let d = c
                        .diag(Code::EngineUnsupported, p.span.clone(), "promotion rules whose choices (or only_captured) differ between triggers are not supported by the engine yet")
                        .label("not supported by the engine yet");
                    c.push(d);
                }
                let dest = if p.optional {
                    &mut optional_ranks
                } else {
                    &mut ranks
                };
                for &r in &p.ranks {
                    if !dest.contains(&r) {
                        dest.push(r);
                    }
                }
                if !pieces_out.contains(pi) {
                    pieces_out.push(*pi);
                }
            }
            // Every promoting type must promote on the same ranks.
            for pi in &pieces_out {
                let mine: BTreeSet<(bool, u8)> = promos
                    .iter()
                    .filter(|(q, _)| q == pi)
                    .flat_map(|(_, p)| p.ranks.iter().map(move |&r| (p.optional, r)))
                    .collect();
                let all: BTreeSet<(bool, u8)> = ranks
                    .iter()
                    .map(|&r| (false, r))
                    .chain(optional_ranks.iter().map(|&r| (true, r)))
                    .collect();
                if mine != all {
                    let span = promos
                        .iter()
                        .find(|(q, _)| q == pi)
                        .map(|(_, p)| p.span.clone())
                        .unwrap_or(first.span.clone());
                    let d = c
                        .diag(Code::EngineUnsupported, span, "promotion rules that differ between piece types are not supported by the engine yet")
                        .label("not supported by the engine yet");
                    c.push(d);
                }
            }
            optional_ranks.retain(|r| !ranks.contains(r));
            ranks.sort_unstable();
            optional_ranks.sort_unstable();
            only_captured = first.only_captured;
            Some(Promotion {
                pieces: pieces_out,
                ranks,
                choices: first.choices.clone(),
                optional_ranks,
                limits: Vec::new(),
            })
        }
    };

    // End conditions.
    let mut end = EndRules::fide();
    let mut checkmate = (true, None::<Range<usize>>);
    if let Some(e) = &f.end {
        let e = &e.value;
        if let Some(cm) = &e.checkmate {
            checkmate = (cm.value, Some(c.span(&cm.loc)));
            if !cm.value && royal.iter().any(|&r| r) {
                let d = c
                    .diag(Code::EngineUnsupported, c.span(&cm.loc), "royal pieces without checkmate ending the game are not supported by the engine yet")
                    .label("not supported by the engine yet");
                c.push(d);
            }
        }
        if let Some(s) = &e.stalemate {
            if s.value != Outcome::Draw {
                let d = c
                    .diag(
                        Code::EngineUnsupported,
                        c.span(&s.loc),
                        format!(
                            "stalemate as a {:?} is not supported by the engine yet (only Draw)",
                            s.value
                        ),
                    )
                    .label("not supported by the engine yet");
                c.push(d);
            }
        }
        if let Some(im) = &e.insufficient_material {
            end.insufficient_material = im.value;
        }
        if let Some(np) = &e.no_pieces {
            end.no_pieces = Some(match np.value {
                Outcome::Win => houserules_engine::definition::Outcome::Win,
                Outcome::Loss => houserules_engine::definition::Outcome::Loss,
                Outcome::Draw => houserules_engine::definition::Outcome::Draw,
            });
        }
        if let Some(n) = &e.checks {
            match u8::try_from(n.value) {
                Ok(v) if v >= 1 => end.check_limit = Some(v),
                _ => {
                    let d = c
                        .diag(
                            Code::InvalidValue,
                            c.span(&n.loc),
                            format!("end.checks must be 1 to 255, found {}", n.value),
                        )
                        .label("out of range");
                    c.push(d);
                }
            }
        }
        let mut count = |rule: &Option<Sp<crate::model::CountRule>>,
                         claim: &mut Option<u32>,
                         auto: &mut Option<u32>,
                         what: &str| {
            if let Some(r) = rule {
                *claim = None;
                *auto = None;
                for (v, slot, which) in [
                    (&r.value.claim, &mut *claim, "claim"),
                    (&r.value.auto, &mut *auto, "auto"),
                ] {
                    if let Some(v) = v {
                        match u32::try_from(v.value) {
                            Ok(n) if n >= 1 => *slot = Some(n),
                            _ => {
                                let d = c
                                    .diag(
                                        Code::InvalidValue,
                                        c.span(&v.loc),
                                        format!(
                                            "{what} `{which}` must be a positive number, found {}",
                                            v.value
                                        ),
                                    )
                                    .label("out of range");
                                c.push(d);
                            }
                        }
                    }
                }
            }
        };
        count(
            &e.move_rule,
            &mut end.claim_halfmoves,
            &mut end.auto_halfmoves,
            "move_rule",
        );
        count(
            &e.repetition,
            &mut end.claim_repetitions,
            &mut end.auto_repetitions,
            "repetition",
        );
    }
    if checkmate.0 && !royal.iter().any(|&r| r) {
        let span = match (&f.royal, &checkmate.1) {
            (Some(r), _) => c.span(&r.loc),
            (None, Some(s)) => s.clone(),
            (None, None) => c.span(&f.pieces.loc),
        };
        let d = c
            .diag(
                Code::NoRoyal,
                span,
                "checkmate is an end condition, but no piece type is royal",
            )
            .label("no royal piece type")
            .help(
                "name the royal piece types (`royal: [King]`), or set `end: { checkmate: false }`",
            );
        c.push(d);
    }

    // Setup.
    let board_cells = check_setup(c, &f.setup, &symbols, w, h)?;
    if !c.diags.is_empty() {
        return None;
    }
    // `only_captured`: a side may promote to a type only while it has
    // fewer of it than the setup gave the first player.
    let mut promotion = promotion;
    if let (true, Some(p)) = (only_captured, promotion.as_mut()) {
        p.limits = p
            .choices
            .iter()
            .map(|&k| {
                let n = board_cells
                    .iter()
                    .filter(|&&(_, _, sym)| sym == symbols[k])
                    .count();
                (k, n.min(u8::MAX as usize) as u8)
            })
            .collect();
    }

    // Rule hooks: every entry of a piece type whose moves the hook filters
    // (a property guard, or a jump that needs a free landing square: the
    // hook must know which entries produce a move), and the entries with
    // mutations that run after the move.
    let guarded: Vec<usize> = entries
        .iter()
        .filter(|e| {
            e.2.is_some() || e.3.is_some() || e.4.iter().any(|o| matches!(o, Op::MoveSelfPast(_)))
        })
        .map(|e| e.0)
        .collect();
    for (pi, idx, _, _, _, span) in &entries {
        // The hook tells entries apart by their straight paths.
        if guarded.contains(pi) && shapes[*pi][*idx].edge != Edge::Stop {
            let d = c
                .diag(Code::EngineUnsupported, span.clone(), format!("`{}` has entries the rule hook must tell apart (property tests or jumps) and an entry with an `edge` other than Stop: not supported by the engine yet", infos[*pi].id))
                .label("not supported by the engine yet");
            c.push(d);
            return None;
        }
    }
    for (pi, idx, guard, dest_guard, ops, span) in entries {
        if guarded.contains(&pi) || !ops.is_empty() {
            c.effects.push(Effect {
                piece: pi,
                shape: shapes[pi][idx].clone(),
                guard,
                dest_guard,
                ops,
                span,
            });
        }
    }
    c.uses_attrs = c
        .effects
        .iter()
        .any(|e| e.guard.is_some() || e.dest_guard.is_some())
        || c.effects
            .iter()
            .any(|e| e.ops.iter().any(|o| matches!(o, Op::Set(_))));

    let mut types = Vec::new();
    for (pi, p) in pieces.iter().enumerate() {
        let mut ranks = BTreeSet::new();
        for &(rank, _file, sym) in &board_cells {
            if sym.to_ascii_uppercase() == symbols[pi] {
                let rel = if sym.is_ascii_uppercase() {
                    rank
                } else {
                    h - 1 - rank
                };
                ranks.insert(rel);
            }
        }
        let role = p.value.role.as_ref().map(|r| match r.value {
            RoleSpec::Pawn => Role::Pawn,
            RoleSpec::Knight => Role::Knight,
            RoleSpec::Bishop => Role::Bishop,
            RoleSpec::Rook => Role::Rook,
            RoleSpec::Queen => Role::Queen,
            RoleSpec::King => Role::King,
        });
        types.push(PieceType {
            id: p.value.id.value.clone(),
            symbol: symbols[pi],
            royal: royal[pi],
            pawn_like: role == Some(Role::Pawn) || promos.iter().any(|(k, _)| *k == pi),
            role,
            shapes: std::mem::take(&mut shapes[pi]),
            initial_ranks: ranks.into_iter().collect(),
        });
    }
    let drops = compile_drops(c, f, &ids, &royal, promotion.as_ref(), h)?;
    let def = GameDefinition {
        id,
        name,
        width: w,
        height: h,
        pieces: types,
        promotion,
        castling: castling.map(|(cs, _)| cs),
        end,
        start_fen: f.setup.value.trim().to_string(),
        drops,
        royal_optional,
    };
    let variant = match Variant::new(def.clone()) {
        Ok(v) => v,
        Err(e) => {
            let d = c
                .diag(
                    Code::Invalid,
                    c.span(&f.pieces.loc),
                    format!("the engine refuses the definition: {e}"),
                )
                .label("here");
            c.push(d);
            return None;
        }
    };
    if let Err(e) = Game::from_fen(variant, &def.start_fen) {
        let d = c
            .diag(Code::Setup, c.span(&f.setup.loc), format!("setup: {e}"))
            .label("invalid start position");
        c.push(d);
        return None;
    }
    Some(def)
}

/// The properties that EnPassant entries read on the captured piece
/// (`$engine.board.adjacent_enemy.<marker>`): the en passant markers, which
/// compile into the engine's en passant rather than into attribute bits.
/// Conditions that do not parse are skipped here and reported later.
/// The `drops` section: each piece type named once, not royal, ranks on
/// the board. `Err(())` (as `None` from the caller) after a diagnostic.
fn compile_drops(
    c: &mut C<'_>,
    f: &GameFile,
    ids: &[String],
    royal: &[bool],
    promotion: Option<&Promotion>,
    height: u8,
) -> Option<Option<Drops>> {
    let Some(spec) = &f.drops else {
        return Some(None);
    };
    let spec = &spec.value;
    let before = c.diags.len();
    let find = |c: &mut C<'_>, name: &Sp<String>, what: &str| -> Option<usize> {
        let k = ids.iter().position(|i| *i == name.value);
        if k.is_none() {
            c.unknown(
                c.span(&name.loc),
                format!("unknown piece `{}` in `{what}`", name.value),
                "no such piece",
                &name.value,
                ids.iter().map(|s| s.as_str()),
            );
        }
        k
    };
    let demote_to = match &spec.demote_to {
        Some(n) => find(c, n, "drops.demote_to"),
        None => Some(
            promotion
                .and_then(|p| p.pieces.first().copied())
                .unwrap_or(0),
        ),
    };
    let mut pieces: Vec<DropRule> = Vec::new();
    for p in &spec.pieces.value {
        let p = &p.value;
        let Some(k) = find(c, &p.piece, "drops.pieces") else {
            continue;
        };
        if royal[k] {
            let d = c
                .diag(
                    Code::Invalid,
                    c.span(&p.piece.loc),
                    format!(
                        "`{}` is royal: a royal piece cannot be held in hand",
                        p.piece.value
                    ),
                )
                .label("royal piece");
            c.push(d);
            continue;
        }
        if pieces.iter().any(|r| r.piece == k) {
            let d = c
                .diag(
                    Code::Duplicate,
                    c.span(&p.piece.loc),
                    format!("`{}` is listed twice in `drops.pieces`", p.piece.value),
                )
                .label("listed before");
            c.push(d);
            continue;
        }
        let mut ranks = Vec::new();
        if let Some(rs) = &p.ranks {
            for r in &rs.value {
                match u8::try_from(r.value) {
                    Ok(n) if n >= 1 && n <= height => ranks.push(n - 1),
                    _ => {
                        let d = c
                            .diag(
                                Code::InvalidValue,
                                c.span(&r.loc),
                                format!(
                                    "drop rank {} is off the board: ranks are 1 to {height}, counted from the owner's side",
                                    r.value
                                ),
                            )
                            .label("off the board");
                        c.push(d);
                    }
                }
            }
        }
        pieces.push(DropRule {
            piece: k,
            ranks,
            no_doubled: p.no_doubled.as_ref().is_some_and(|b| b.value),
            may_mate: p.may_mate.as_ref().is_none_or(|b| b.value),
        });
    }
    if c.diags.len() > before {
        return None;
    }
    Some(Some(Drops {
        pieces,
        demote_to: demote_to?,
    }))
}

fn marker_props(f: &GameFile) -> BTreeSet<String> {
    fn walk(e: &crate::cond::ast::Expr, out: &mut BTreeSet<String>) {
        match &e.kind {
            ExprKind::Path {
                dollar: true,
                segments,
            } => {
                if let [a, b, c, d] = segments.as_slice() {
                    if a.name == "engine" && b.name == "board" && c.name == "adjacent_enemy" {
                        out.insert(d.name.clone());
                    }
                }
            }
            ExprKind::Not(a) | ExprKind::Neg(a) => walk(a, out),
            ExprKind::Binary(_, a, b) | ExprKind::Cmp(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for p in &f.pieces.value {
        for m in &p.value.movement {
            if m.value.kind.value != MoveType::EnPassant {
                continue;
            }
            if let Some(Ok(e)) = m
                .value
                .condition
                .as_ref()
                .map(|c| parse_condition(&c.value))
            {
                walk(&e, &mut out);
            }
        }
    }
    out
}

fn same_set(a: &[Vector], b: &[Vector]) -> bool {
    a.len() == b.len() && a.iter().all(|v| b.contains(v))
}

/// The board field of a FEN-like setup, without a pocket (`[…]`, games
/// with drops; the engine's FEN reader checks it).
fn setup_board_field(s: &str) -> &str {
    let b = s.split_ascii_whitespace().next().unwrap_or("");
    b.split_once('[').map_or(b, |(board, _)| board)
}

/// Checks the board field of the setup against the board and the symbols;
/// returns the cells `(rank, file, letter)` on success.
fn check_setup(
    c: &mut C<'_>,
    setup: &Sp<String>,
    symbols: &[char],
    w: u8,
    h: u8,
) -> Option<Vec<(u8, u8, char)>> {
    let text = &setup.value;
    let lead = text.len() - text.trim_start().len();
    let board = setup_board_field(text);
    if board.is_empty() {
        let d = c.diag(Code::Setup, c.span(&setup.loc), "setup is empty: expected a FEN such as `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`").label("empty");
        c.push(d);
        return None;
    }
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != h as usize {
        let d = c
            .diag(
                Code::Setup,
                c.inner_span(&setup.loc, text, lead..lead + board.len()),
                format!("setup has {} ranks, but the board has {h}", ranks.len()),
            )
            .label("wrong number of ranks");
        c.push(d);
        return None;
    }
    let mut cells = Vec::new();
    let mut pos = lead;
    for (i, row) in ranks.iter().enumerate() {
        let rank = h - 1 - i as u8;
        let mut file = 0usize;
        let b = row.as_bytes();
        let mut j = 0;
        while j < b.len() {
            let ch = b[j] as char;
            if ch.is_ascii_digit() {
                let st = j;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                let n: usize = row[st..j].parse().unwrap_or(usize::MAX);
                if n == 0 {
                    let d = c
                        .diag(
                            Code::Setup,
                            c.inner_span(&setup.loc, text, pos + st..pos + j),
                            "setup: an empty-square count cannot be 0",
                        )
                        .label("zero");
                    c.push(d);
                    return None;
                }
                file = file.saturating_add(n);
                continue;
            }
            let Some(k) = (if ch.is_ascii_alphabetic() {
                symbols.iter().position(|&s| s == ch.to_ascii_uppercase())
            } else {
                None
            }) else {
                let list: Vec<String> = symbols.iter().map(|s| s.to_string()).collect();
                let cl = text[pos + j..].chars().next().map_or(1, |x| x.len_utf8());
                let d = c
                    .diag(Code::Setup, c.inner_span(&setup.loc, text, pos + j..pos + j + cl), format!("setup: `{}` is not the symbol of any piece", &text[pos + j..pos + j + cl]))
                    .label("unknown piece letter")
                    .help(format!("the symbols are {} (upper case for the first player, lower case for the second)", list.join(", ")));
                c.push(d);
                return None;
            };
            let _ = k;
            if file < w as usize {
                cells.push((rank, file as u8, ch));
            }
            file += 1;
            j += 1;
        }
        if file != w as usize {
            let d = c
                .diag(
                    Code::Setup,
                    c.inner_span(&setup.loc, text, pos..pos + row.len().max(1)),
                    format!("setup rank {} (counted from the top) has {file} files, but the board has {w}", i + 1),
                )
                .label("does not fit the board");
            c.push(d);
            return None;
        }
        pos += row.len() + 1;
    }
    Some(cells)
}

/// The environment of a movement condition at one combination of states.
struct MoveEnv<'a> {
    /// The moving piece's attribute byte and its type's layout.
    raw: u8,
    layout: &'a Layout,
    /// Every type's layout, and the piece types' declared properties.
    layouts: &'a [Layout],
    infos: &'a [PieceInfo],
    /// The type and attribute byte of the piece on the destination (when
    /// `target` is not 0).
    dest_kind: usize,
    dest_raw: u8,
    target: usize,
    path: bool,
    moved: bool,
    adj: bool,
    allow_adj: bool,
    own: usize,
    /// The moving piece's rank seen from its owner's side (0-based), when
    /// the condition reads `self.rank`.
    rank: Option<u8>,
    w: u8,
    h: u8,
}

impl Env for MoveEnv<'_> {
    fn atom(&self, a: &Atom) -> Option<Val> {
        Some(match a {
            Atom::Prop(Holder::Own, Prop::Declared(n)) => self.layout.get(self.raw, n)?,
            // An empty destination, or a piece type without the property,
            // reads as false, 0, no piece type or the first player.
            Atom::Prop(Holder::Dest, Prop::Type) => Val::Piece(if self.target == 0 {
                usize::MAX
            } else {
                self.dest_kind
            }),
            Atom::Prop(Holder::Dest, Prop::Declared(n)) => {
                let held = (self.target != 0)
                    .then(|| self.layouts.get(self.dest_kind)?.get(self.dest_raw, n))
                    .flatten();
                match held {
                    Some(v) => v,
                    None => {
                        let ty = self
                            .infos
                            .iter()
                            .flat_map(|p| p.props.iter())
                            .find(|(m, _)| m == n)
                            .map_or(Ty::Bool, |(_, t)| *t);
                        match ty {
                            Ty::Bool => Val::Bool(false),
                            Ty::Int => Val::Int(0),
                            Ty::Piece => Val::Piece(usize::MAX),
                            Ty::Color | Ty::Entity => Val::Color(0),
                        }
                    }
                }
            }
            Atom::Target(t) => Val::Bool(match t {
                TargetTest::IsEmpty => self.target == 0,
                TargetTest::HasEnemy => self.target == 1,
                TargetTest::HasFriend => self.target == 2,
                TargetTest::HasPiece => self.target != 0,
            }),
            Atom::PathClear => Val::Bool(self.path),
            Atom::Prop(Holder::Own, Prop::HasMoved) => Val::Bool(self.moved),
            Atom::Prop(Holder::Own, Prop::Type) => Val::Piece(self.own),
            Atom::Prop(Holder::Own, Prop::Rank) => Val::Int(i64::from(self.rank?) + 1),
            Atom::Prop(Holder::AdjacentEnemy, Prop::Declared(_)) if self.allow_adj => {
                Val::Bool(self.adj)
            }
            Atom::Width => Val::Int(self.w as i64),
            Atom::Height => Val::Int(self.h as i64),
            _ => return None,
        })
    }
}

/// The sets of values of each variable for which a truth table holds, when
/// the table is their product.
fn factor<const N: usize>(table: &[([usize; N], bool)]) -> Option<[Vec<usize>; N]> {
    // Membership by value (the values are small indices), so that large
    // tables (property bytes of every piece type) stay linear.
    let size = |k: usize| table.iter().map(|(v, _)| v[k] + 1).max().unwrap_or(0);
    let mut member: [Vec<bool>; N] = std::array::from_fn(|k| vec![false; size(k)]);
    for (vars, t) in table {
        if *t {
            for k in 0..N {
                member[k][vars[k]] = true;
            }
        }
    }
    for (vars, t) in table {
        let inside = (0..N).all(|k| member[k][vars[k]]);
        if inside != *t {
            return None;
        }
    }
    Some(std::array::from_fn(|k| {
        member[k]
            .iter()
            .enumerate()
            .filter_map(|(i, &m)| m.then_some(i))
            .collect()
    }))
}

#[allow(clippy::too_many_arguments)]
fn movement(
    c: &mut C<'_>,
    pi: usize,
    royal: bool,
    m: &Sp<MovementSpec>,
    infos: &[PieceInfo],
    layouts: &[Layout],
    markers_read: &BTreeSet<String>,
    players: &[String],
    w: u8,
    h: u8,
    eps: &mut Vec<PendingEp>,
    markers: &mut Vec<PendingMarker>,
) -> Option<CompiledEntry> {
    let spec = &m.value;
    let kind = spec.kind.value;
    let before = c.diags.len();
    let layout = &layouts[pi];

    // Direction.
    let dir_span = c.span(&spec.direction.loc);
    let mut named: Vec<Vector> = Vec::new();
    let mut literal: Vec<Vector> = Vec::new();
    let resolve_name = |c: &mut C<'_>, n: &str, span: Range<usize>, named: &mut Vec<Vector>| {
        let d = match n {
            "Orthogonal" => Direction::Orthogonal,
            "Diagonal" => Direction::Diagonal,
            "Omnidirectional" => Direction::Omnidirectional,
            "Forward" => Direction::Forward,
            "Backward" => Direction::Backward,
            "Sideways" => Direction::Sideways,
            "ForwardDiagonal" => Direction::ForwardDiagonal,
            "BackwardDiagonal" => Direction::BackwardDiagonal,
            _ => {
                c.unknown(
                    span,
                    format!("unknown direction `{n}`"),
                    "not a direction",
                    n,
                    direction_names().iter().copied(),
                );
                return;
            }
        };
        named.extend_from_slice(d.vectors());
    };
    let vec_of = |c: &mut C<'_>, v: &[i64], span: Range<usize>| -> Option<Vector> {
        if v.len() != 2 {
            let d = c
                .diag(
                    Code::WrongType,
                    span,
                    format!("a vector has two numbers, [x, y]; found {}", v.len()),
                )
                .label("not [x, y]");
            c.push(d);
            return None;
        }
        let (x, y) = (v[0], v[1]);
        // `unsigned_abs`: |i64::MIN| does not fit an i64.
        if x.unsigned_abs() >= u64::from(w) || y.unsigned_abs() >= u64::from(h) {
            let d = c
                .diag(
                    Code::VectorOffBoard,
                    span,
                    format!("vector [{x}, {y}] cannot fit on the {w}x{h} board"),
                )
                .label("off the board")
                .help(format!(
                    "on a {w}x{h} board |x| is at most {} and |y| at most {}",
                    w - 1,
                    h - 1
                ));
            c.push(d);
            return None;
        }
        if x == 0 && y == 0 {
            let d = c
                .diag(Code::InvalidValue, span, "vector [0, 0] does not move")
                .label("null vector");
            c.push(d);
            return None;
        }
        Some((x as i8, y as i8))
    };
    match &spec.direction.value {
        DirectionSpec::Name(n) => resolve_name(c, n, dir_span.clone(), &mut named),
        DirectionSpec::Seq(items) => {
            let ints: Vec<i64> = items
                .iter()
                .filter_map(|i| {
                    if let DirItem::Int(n) = i.value {
                        Some(n)
                    } else {
                        None
                    }
                })
                .collect();
            if !ints.is_empty() {
                if ints.len() != items.len() {
                    let d = c
                        .diag(Code::WrongType, dir_span.clone(), "a direction list mixes numbers with names: write each vector as [x, y]")
                        .label("mixed list");
                    c.push(d);
                } else if let Some(v) = vec_of(c, &ints, dir_span.clone()) {
                    literal.push(v);
                }
            } else {
                if items.is_empty() {
                    let d = c
                        .diag(Code::InvalidValue, dir_span.clone(), "empty direction list")
                        .label("empty");
                    c.push(d);
                }
                for it in items {
                    let span = c.span(&it.loc);
                    match &it.value {
                        DirItem::Name(n) => resolve_name(c, n, span, &mut named),
                        DirItem::Vector(v) => {
                            if let Some(v) = vec_of(c, v, span) {
                                literal.push(v);
                            }
                        }
                        DirItem::Int(_) => {}
                    }
                }
            }
        }
    }
    let sym = match spec.symmetry.as_ref().map(|s| s.value) {
        None | Some(SymmetrySpec::None) => Symmetry::None,
        Some(SymmetrySpec::Full) => Symmetry::Full,
        Some(SymmetrySpec::LeftRight) => Symmetry::LeftRight,
        Some(SymmetrySpec::ForwardBackward) => Symmetry::ForwardBackward,
    };
    let mut vectors: Vec<Vector> = Vec::new();
    for v in named
        .into_iter()
        .chain(literal.iter().flat_map(|&v| expand(v, sym)))
    {
        if !vectors.contains(&v) {
            vectors.push(v);
        }
    }

    // Range.
    let default_unlimited = kind == MoveType::Slide;
    let range: Option<u8> = match &spec.range {
        None => {
            if default_unlimited {
                None
            } else {
                Some(1)
            }
        }
        Some(r) => match &r.value {
            RangeSpec::Num(n) if (1..=15).contains(n) => Some(*n as u8),
            RangeSpec::Num(n) => {
                let d = c
                    .diag(
                        Code::InvalidValue,
                        c.span(&r.loc),
                        format!("range {n} is out of range: 1 to 15, or Unlimited"),
                    )
                    .label("out of range");
                c.push(d);
                Some(1)
            }
            RangeSpec::Word(wd) if wd == "Unlimited" => None,
            RangeSpec::Word(wd) => {
                let d = c
                    .diag(
                        Code::InvalidValue,
                        c.span(&r.loc),
                        format!("range `{wd}` must be a number or `Unlimited`"),
                    )
                    .label("invalid range")
                    .maybe_help(did_you_mean(wd, ["Unlimited"]));
                c.push(d);
                Some(1)
            }
        },
    };
    let range_span = spec
        .range
        .as_ref()
        .map_or(c.span(&spec.kind.loc), |r| c.span(&r.loc));
    match (kind, range) {
        (MoveType::Step, None) => {
            let d = c
                .diag(
                    Code::InvalidValue,
                    range_span.clone(),
                    "a Step moves exactly `range` squares; use Slide for Unlimited",
                )
                .label("Unlimited step");
            c.push(d);
        }
        (MoveType::Leap, r) if r != Some(1) => {
            let d = c
                .diag(Code::InvalidValue, range_span.clone(), "a Leap jumps once by each vector and has no range; a Slide with a vector repeats it (a rider)")
                .label("range on a Leap");
            c.push(d);
        }
        (MoveType::EnPassant, r) if r != Some(1) => {
            let d = c
                .diag(
                    Code::EngineUnsupported,
                    range_span.clone(),
                    "en passant with a range other than 1 is not supported by the engine yet",
                )
                .label("not supported by the engine yet");
            c.push(d);
        }
        _ => {}
    }
    if let (MoveType::Step, Some(n)) = (kind, range) {
        for &(x, y) in &vectors {
            let (sx, sy) = (x as i64 * n as i64, y as i64 * n as i64);
            if sx.abs() >= w as i64 || sy.abs() >= h as i64 {
                let d = c
                    .diag(Code::VectorOffBoard, range_span.clone(), format!("{n} {} of [{x}, {y}] {} [{sx}, {sy}], which cannot fit on the {w}x{h} board", if n == 1 { "step" } else { "steps" }, if n == 1 { "makes" } else { "make" }))
                    .label("off the board");
                c.push(d);
                break;
            }
        }
    }
    // Board topology and the player the shape belongs to.
    let edge = match spec.edge.as_ref().map(|e| (e.value, c.span(&e.loc))) {
        None | Some((EdgeSpec::Stop, _)) => Edge::Stop,
        Some((EdgeSpec::WrapFiles, _)) => Edge::WrapFiles,
        Some((EdgeSpec::Warp, _)) => Edge::Warp,
        Some((EdgeSpec::Bounce { max, ends }, span)) => {
            if !(1..=15).contains(&max) {
                let d = c
                    .diag(
                        Code::InvalidValue,
                        span,
                        format!(
                            "`Bounce` with `max: {max}`: the most reflections per ray is 1 to 15"
                        ),
                    )
                    .label("out of range");
                c.push(d);
            }
            Edge::Bounce {
                ends,
                max: max.clamp(1, 15) as u8,
            }
        }
    };
    let only = match &spec.only {
        None => None,
        Some(o) => match players.iter().position(|p| *p == o.value) {
            Some(0) => Some(Color::White),
            Some(_) => Some(Color::Black),
            None => {
                c.unknown(
                    c.span(&o.loc),
                    format!("unknown player `{}` in `only`", o.value),
                    "no such player",
                    &o.value,
                    players.iter().map(|s| s.as_str()),
                );
                None
            }
        },
    };
    if let (Some(e), MoveType::EnPassant) = (&spec.edge, kind) {
        let d = c
            .diag(Code::Invalid, c.span(&e.loc), "an EnPassant entry takes its `edge` from the Capture entry it joins; write `edge` there")
            .label("edge on en passant");
        c.push(d);
    }
    if c.diags.len() > before {
        return None;
    }

    // Condition.
    let ctx = Ctx {
        scope: Scope::Movement,
        pieces: infos,
        own: pi,
        target: None,
        players,
    };
    let typed = match &spec.condition {
        Some(s) => Some((checked(c, &ctx, s)?, s)),
        None => None,
    };
    let is_ep = kind == MoveType::EnPassant;
    let mut guard: Option<ByteSet> = None;
    let mut dest_guard: Option<Vec<ByteSet>> = None;
    let mut adj_prop: Option<(String, Range<usize>)> = None;
    // The ranks (0-based, from the owner's side) the entry is limited to
    // by `self.rank`; empty: every rank.
    let mut from_ranks: Vec<u8> = Vec::new();
    // Sets of allowed target states (0 empty, 1 enemy, 2 friend), path
    // states, moved states, adjacency states.
    let (targets, paths, moved, adjs) = match &typed {
        None => {
            let t = match kind {
                MoveType::Capture => vec![1],
                MoveType::EnPassant => vec![0],
                _ => vec![0, 1],
            };
            (t, vec![0, 1], vec![0, 1], vec![1])
        }
        Some((t, s)) => {
            for (a, span) in check::atoms(t) {
                if let Atom::Prop(Holder::AdjacentEnemy, Prop::Declared(p)) = a {
                    adj_prop = Some((p.clone(), c.inner_span(&s.loc, &s.value, span)));
                }
            }
            // The moving piece's attribute bytes matter only when the
            // condition reads a declared property.
            let reads_props = check::atoms(t).iter().any(|(a, _)| {
                matches!(a, Atom::Prop(Holder::Own, Prop::Declared(n)) if layout.field(n).is_some())
            });
            let raws = if reads_props { layout.raws() } else { vec![0] };
            // The moving piece's rank (from its owner's side) only when
            // the condition reads `self.rank`: the entry is then limited
            // to the ranks where it holds, however the piece got there.
            let reads_rank = check::atoms(t)
                .iter()
                .any(|(a, _)| matches!(a, Atom::Prop(Holder::Own, Prop::Rank)));
            let ranks: Vec<Option<u8>> = if reads_rank {
                (0..h).map(Some).collect()
            } else {
                vec![None]
            };
            // The destination: empty, or an enemy or friendly piece; by
            // type and property byte when the condition reads them.
            let dest_atoms: Vec<&Prop> = check::atoms(t)
                .into_iter()
                .filter_map(|(a, _)| match a {
                    Atom::Prop(Holder::Dest, p) => Some(p),
                    _ => None,
                })
                .collect();
            let dest_bytes = dest_atoms.iter().any(|p| matches!(p, Prop::Declared(_)));
            let mut dests: Vec<(usize, usize, u8)> = vec![(0, 0, 0)];
            for state in [1, 2] {
                if dest_atoms.is_empty() {
                    dests.push((state, 0, 0));
                    continue;
                }
                for (k, l) in layouts.iter().enumerate() {
                    let rs = if dest_bytes { l.raws() } else { vec![0] };
                    dests.extend(rs.into_iter().map(|r| (state, k, r)));
                }
            }
            // A budget on the load-time table (each row is evaluated and
            // kept), so that a small file cannot ask for gigabytes.
            let rows = dests.len() * raws.len() * 8 * ranks.len();
            if rows > MAX_TABLE_ROWS {
                let d = c
                    .diag(Code::EngineUnsupported, c.span(&s.loc), format!("this condition reads too many property combinations of the moving piece and the target to compile ({rows} rows; at most {MAX_TABLE_ROWS}): give the number properties smaller ranges"))
                    .label("too many combinations");
                c.push(d);
                return None;
            }
            let mut table: Vec<([usize; 6], bool)> = Vec::new();
            for (ki, &rank) in ranks.iter().enumerate() {
                for (ri, &raw) in raws.iter().enumerate() {
                    for (tg, &(state, dest_kind, dest_raw)) in dests.iter().enumerate() {
                        for p in 0..2 {
                            for mv in 0..2 {
                                for a in 0..2 {
                                    let env = MoveEnv {
                                        raw,
                                        layout,
                                        layouts,
                                        infos,
                                        dest_kind,
                                        dest_raw,
                                        target: state,
                                        path: p == 1,
                                        moved: mv == 1,
                                        adj: a == 1,
                                        allow_adj: is_ep,
                                        own: pi,
                                        rank,
                                        w,
                                        h,
                                    };
                                    match check::eval(t, &env) {
                                        Ok(Val::Bool(b)) => table.push(([tg, p, mv, a, ri, ki], b)),
                                        Ok(_) => return None,
                                        Err(u) => {
                                            let d = c.unsupported(
                                                &s.loc,
                                                &s.value,
                                                u.span,
                                                "in a movement condition",
                                            );
                                            c.push(d);
                                            return None;
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if table.iter().all(|(_, b)| !b) {
                let d = c
                    .diag(
                        Code::Invalid,
                        c.span(&s.loc),
                        "this condition is never true",
                    )
                    .label("never true");
                c.push(d);
                return None;
            }
            let Some([t, p, mv, a, r, k]) = factor(&table) else {
                let d = c
                    .diag(Code::EngineUnsupported, c.span(&s.loc), "this combination of conditions is not supported by the engine yet: it needs a test of `$target`, optionally `and $path.is_clear`, `and self.has_moved == false`, a test of `self.rank` and tests of the piece's properties, joined by `and`")
                    .label("not supported by the engine yet");
                c.push(d);
                return None;
            };
            if k.len() < ranks.len() {
                from_ranks = k.iter().map(|&i| i as u8).collect();
            }
            if r.len() < raws.len() {
                let mut set: ByteSet = [0; 4];
                for &i in &r {
                    let raw = raws[i];
                    set[usize::from(raw >> 6)] |= 1u64 << (raw & 63);
                }
                guard = Some(set);
            }
            // Enemy targets allowed, per type and property byte.
            let enemies = dests.iter().filter(|d| d.0 == 1).count();
            let allowed: Vec<usize> = t.iter().copied().filter(|&i| dests[i].0 == 1).collect();
            if !dest_atoms.is_empty() && !allowed.is_empty() && allowed.len() < enemies {
                let mut sets: Vec<ByteSet> = vec![[0; 4]; layouts.len()];
                for &i in &allowed {
                    let (_, k, raw) = dests[i];
                    if dest_bytes {
                        sets[k][usize::from(raw >> 6)] |= 1u64 << (raw & 63);
                    } else {
                        sets[k] = [u64::MAX; 4];
                    }
                }
                dest_guard = Some(sets);
            }
            let mut states: Vec<usize> = t.iter().map(|&i| dests[i].0).collect();
            states.sort_unstable();
            states.dedup();
            (states, p, mv, a)
        }
    };
    let cond_span = spec
        .condition
        .as_ref()
        .map_or(c.span(&spec.kind.loc), |s| c.span(&s.loc));
    if targets.contains(&2) {
        let d = c
            .diag(
                Code::EngineUnsupported,
                cond_span.clone(),
                "moving onto a friendly piece is not supported by the engine yet",
            )
            .label("not supported by the engine yet");
        c.push(d);
        return None;
    }
    let mode = match targets.as_slice() {
        [0] => ShapeMode::MoveOnly,
        [1] => ShapeMode::CaptureOnly,
        _ => ShapeMode::MoveOrCapture,
    };
    if paths == [0] {
        let d = c
            .diag(
                Code::EngineUnsupported,
                cond_span.clone(),
                "a move that needs a blocked path is not supported by the engine yet",
            )
            .label("not supported by the engine yet");
        c.push(d);
        return None;
    }
    let ride = paths == [1];
    if moved == [1] {
        let d = c
            .diag(
                Code::EngineUnsupported,
                cond_span.clone(),
                "a move only for pieces that have moved is not supported by the engine yet",
            )
            .label("not supported by the engine yet");
        c.push(d);
        return None;
    }
    let first_move_only = moved == [0];
    if is_ep {
        if guard.is_some() || dest_guard.is_some() {
            let d = c
                .diag(Code::EngineUnsupported, cond_span.clone(), "an EnPassant entry that tests the pieces' properties is not supported by the engine yet; test them on the Capture entry it joins")
                .label("not supported by the engine yet");
            c.push(d);
            return None;
        }
        if mode != ShapeMode::MoveOnly {
            let d = c
                .diag(Code::Invalid, cond_span.clone(), "an EnPassant entry lands on an empty square: its condition must require `$target.is_empty`")
                .label("target not empty");
            c.push(d);
            return None;
        }
        if adjs != [1] || (typed.is_some() && adj_prop.is_none()) {
            let d = c
                .diag(Code::EngineUnsupported, cond_span.clone(), "en passant that does not require `$engine.board.adjacent_enemy.<marker> == true` is not supported by the engine yet")
                .label("not supported by the engine yet");
            c.push(d);
            return None;
        }
        if first_move_only || ride || !from_ranks.is_empty() {
            let d = c
                .diag(Code::EngineUnsupported, cond_span.clone(), "en passant limited to unmoved pieces, to some ranks or to a clear path is not supported by the engine yet")
                .label("not supported by the engine yet");
            c.push(d);
            return None;
        }
    } else if kind == MoveType::Capture && mode != ShapeMode::CaptureOnly {
        let d = c
            .diag(Code::Invalid, cond_span.clone(), "a Capture only captures: its condition must require `$target.has_enemy` (use Step, Slide or Leap to move to empty squares)")
            .label("allows an empty target");
        c.push(d);
        return None;
    }

    // Mutations.
    let mut ops: Vec<Op> = Vec::new();
    let mut op_span: Option<Range<usize>> = None;
    let mut destroys_adjacent = false;
    let mut marker: Option<PendingMarker> = None;
    for mu in &spec.mutations {
        let parsed = parsed_mutation(c, mu)?;
        let past = matches!(parsed, Mutation::MovePast { .. });
        match parsed {
            Mutation::Set { target, value } => {
                let t = match ctx.check(&target) {
                    Ok(t) => t,
                    Err(e) => {
                        let d = c.cond_diag(&mu.loc, &mu.value, e);
                        c.push(d);
                        return None;
                    }
                };
                let v = match ctx.check(&value) {
                    Ok(v) => v,
                    Err(e) => {
                        let d = c.cond_diag(&mu.loc, &mu.value, e);
                        c.push(d);
                        return None;
                    }
                };
                if t.ty != v.ty {
                    let d = c
                        .diag(
                            Code::ConditionType,
                            c.inner_span(&mu.loc, &mu.value, value.span.clone()),
                            "the value's type does not match the property's",
                        )
                        .label("type error");
                    c.push(d);
                    return None;
                }
                let span = c.inner_span(&mu.loc, &mu.value, target.span.start..value.span.end);
                match (&t.kind, &v.kind) {
                    (
                        check::TKind::Atom(Atom::Prop(Holder::Own, Prop::HasMoved)),
                        check::TKind::Const(Val::Bool(true)),
                    ) => {}
                    (
                        check::TKind::Atom(Atom::Prop(Holder::Own, Prop::Declared(p))),
                        check::TKind::Const(Val::Bool(true)),
                    ) if markers_read.contains(p)
                        && (first_move_only || !from_ranks.is_empty())
                        && ride
                        && matches!(range, Some(n) if n >= 2)
                        && kind == MoveType::Step =>
                    {
                        marker = Some(PendingMarker {
                            prop: p.clone(),
                            span,
                        });
                    }
                    (check::TKind::Atom(Atom::Prop(Holder::Own, Prop::Declared(p))), _)
                        if markers_read.contains(p) =>
                    {
                        let d = c
                            .diag(Code::EngineUnsupported, span, format!("`{p}` is the en passant marker (an EnPassant entry reads it): it can only be set to true, on a first-move Step of range 2 or more with `$path.is_clear` (the en passant double step)"))
                            .label("not supported by the engine yet");
                        c.push(d);
                        return None;
                    }
                    (check::TKind::Atom(Atom::Prop(Holder::Own, Prop::Declared(p))), vk)
                        if layout.field(p).is_some() =>
                    {
                        // A constant out of a number property's range is a
                        // mistake; computed values are clamped into it.
                        if let (check::TKind::Const(Val::Int(n)), Some(f)) = (vk, layout.field(p)) {
                            let max = f.max();
                            if !(f.min..=max).contains(n) {
                                let d = c
                                    .diag(
                                        Code::InvalidValue,
                                        c.inner_span(&mu.loc, &mu.value, value.span.clone()),
                                        format!(
                                            "{n} is out of the range of `{p}`, {} to {max}",
                                            f.min
                                        ),
                                    )
                                    .label("out of range");
                                c.push(d);
                                return None;
                            }
                        }
                        // Compiled into a table from the piece's attribute
                        // byte to its new byte.
                        let mut table = [0u8; 256];
                        for (raw, slot) in table.iter_mut().enumerate() {
                            let raw = raw as u8;
                            *slot = raw;
                            if !layout.valid(raw) {
                                continue;
                            }
                            let env = SetEnv {
                                raw,
                                layout,
                                own: pi,
                                w,
                                h,
                            };
                            match check::eval(&v, &env) {
                                Ok(val) => *slot = layout.set(raw, p, val),
                                Err(u) => {
                                    let d = c.unsupported(
                                        &mu.loc,
                                        &mu.value,
                                        u.span,
                                        "in a `set` value",
                                    );
                                    c.push(d);
                                    return None;
                                }
                            }
                        }
                        ops.push(Op::Set(Box::new(table)));
                        op_span.get_or_insert_with(|| c.span(&mu.loc));
                    }
                    _ => {
                        let d = c
                            .diag(Code::EngineUnsupported, span, "this `set` is not supported by the engine yet: a mutation sets a declared property of `self` (or the en passant marker on the double step)")
                            .label("not supported by the engine yet");
                        c.push(d);
                        return None;
                    }
                }
            }
            Mutation::Destroy { target } => {
                let ok = matches!(&target.kind, ExprKind::Path { dollar: true, segments } if segments.len() == 3
                    && segments[0].name == "engine" && segments[1].name == "board" && segments[2].name == "adjacent_enemy"
                    && segments.iter().all(|s| s.args.is_none()));
                let own = matches!(&target.kind, ExprKind::Path { dollar: false, segments } if segments.len() == 1
                    && segments[0].name == "self" && segments[0].args.is_none());
                if ok && is_ep {
                    destroys_adjacent = true;
                } else if own && !is_ep && royal {
                    // A royal piece that can vanish by its own move leaves
                    // its side without the piece checkmate is about.
                    let span = c.inner_span(&mu.loc, &mu.value, 0..target.span.end);
                    let d = c
                        .diag(Code::Invalid, span, format!("`destroy self` on the royal piece `{}`: a royal piece cannot remove itself, since checkmate is about it", infos[pi].id))
                        .label("royal piece destroys itself")
                        .help("take the piece out of `royal`, or drop this mutation");
                    c.push(d);
                    return None;
                } else if own && !is_ep {
                    ops.push(Op::DestroySelf);
                    op_span.get_or_insert_with(|| c.span(&mu.loc));
                } else {
                    let span = c.inner_span(&mu.loc, &mu.value, target.span.clone());
                    let d = c
                        .diag(Code::EngineUnsupported, span, "this `destroy` is not supported by the engine yet: only `destroy self` (any entry but EnPassant) and `destroy $engine.board.adjacent_enemy` (in an EnPassant entry)")
                        .label("not supported by the engine yet");
                    c.push(d);
                    return None;
                }
            }
            Mutation::MoveToward {
                mover,
                steps,
                steps_span,
                other,
                ..
            }
            | Mutation::MovePast {
                mover,
                steps,
                steps_span,
                other,
                ..
            } if !is_ep && mover != other => {
                // The pieces end on the line of the move: the shape must
                // travel along lines (rides, or single steps).
                let lines = vectors
                    .iter()
                    .all(|&(x, y)| x == 0 || y == 0 || x.abs() == y.abs());
                let short = kind == MoveType::Slide
                    || kind == MoveType::Capture
                    || vectors.iter().all(|&(x, y)| x.abs().max(y.abs()) == 1)
                        && matches!(range, None | Some(1));
                let span = c.inner_span(&mu.loc, &mu.value, steps_span.clone());
                if !(lines && short) || steps > u8::MAX as i64 {
                    let d = c
                        .diag(Code::EngineUnsupported, span, "`move` in a movement entry needs a shape along straight lines (a Slide, a ranged Capture, or single steps); other shapes are not supported by the engine yet")
                        .label("not supported by the engine yet");
                    c.push(d);
                    return None;
                }
                let n = steps as u8;
                let op = match (mover, past) {
                    (Who::Own, false) => Op::MoveSelfToward(n),
                    (Who::Own, true) => Op::MoveSelfPast(n),
                    (Who::Target, false) => Op::MoveTargetToward(n),
                    (Who::Target, true) => Op::MoveTargetPast(n),
                };
                if !matches!(op, Op::MoveSelfToward(_)) && mode != ShapeMode::CaptureOnly {
                    let d = c
                        .diag(Code::Invalid, span, "this `move` is about the piece on the target square: the entry must only capture (its condition requires `$target.has_enemy`)")
                        .label("no target piece on a quiet move");
                    c.push(d);
                    return None;
                }
                if matches!(op, Op::MoveSelfPast(0)) {
                    let d = c
                        .diag(Code::InvalidValue, span, "`move self 0 steps past target final_position` would land on the target: write at least 1 (or leave the capture as it is)")
                        .label("zero steps");
                    c.push(d);
                    return None;
                }
                ops.push(op);
                op_span.get_or_insert_with(|| c.span(&mu.loc));
            }
            Mutation::MoveToward { mover_span, .. }
            | Mutation::MovePast { mover_span, .. }
            | Mutation::MoveToFile { mover_span, .. } => {
                let span = c.inner_span(&mu.loc, &mu.value, 0..mover_span.end);
                let d = c
                    .diag(Code::Invalid, span, "in a movement entry a `move` names `self` and `target` once each (`move self N steps toward target`, `move self N steps past target final_position`, `move target N steps toward self`, `move target N steps past self final_position`); `move … to file` describes castling and belongs under `actions`")
                    .label("not a movement mutation");
                c.push(d);
                return None;
            }
        }
    }
    if is_ep {
        if !destroys_adjacent {
            let d = c
                .diag(Code::Invalid, c.span(&spec.kind.loc), "an EnPassant entry must remove the captured piece: add `mutations: [ destroy $engine.board.adjacent_enemy ]`")
                .label("captures nothing");
            c.push(d);
            return None;
        }
        eps.push(PendingEp {
            piece: pi,
            only,
            vectors,
            prop: adj_prop,
            span: c.span(&m.loc),
        });
        return None;
    }

    let reach = match kind {
        MoveType::Step => match range {
            Some(1) | None => Reach::Leap,
            Some(n) if ride => Reach::Ride {
                min: n,
                max: Some(n),
            },
            Some(n) => {
                vectors = vectors
                    .iter()
                    .map(|&(x, y)| (x * n as i8, y * n as i8))
                    .collect();
                Reach::Leap
            }
        },
        MoveType::Slide => Reach::Ride { min: 1, max: range },
        MoveType::Leap => {
            if ride {
                let d = c
                    .diag(Code::EngineUnsupported, cond_span, "a Leap that needs a clear path (a lame leaper) is not supported by the engine yet")
                    .label("not supported by the engine yet");
                c.push(d);
                return None;
            }
            Reach::Leap
        }
        MoveType::Capture => match range {
            Some(1) => Reach::Leap,
            max => Reach::Ride { min: 1, max },
        },
        MoveType::EnPassant => Reach::Leap,
    };
    let creates = marker.is_some();
    if !from_ranks.is_empty() {
        // The engine compiles a single step or leap limited by ranks per
        // square; a ride so limited is generated like a first-move shape,
        // which attacks nothing: it must be move-only. Mutations and
        // property tests (run by the after-move hook, which tells a
        // shape's moves by their vectors) stay off such entries.
        let single = match reach {
            Reach::Leap => true,
            Reach::Ride { min, max } => min <= 1 && max == Some(1),
        };
        if !single && mode != ShapeMode::MoveOnly {
            let d = c
                .diag(Code::EngineUnsupported, cond_span.clone(), "a ride limited by `self.rank` that may capture is not supported by the engine yet (a ride so limited must require `$target.is_empty`)")
                .label("not supported by the engine yet");
            c.push(d);
            return None;
        }
        if !ops.is_empty() || guard.is_some() || dest_guard.is_some() {
            let d = c
                .diag(Code::EngineUnsupported, op_span.clone().unwrap_or(cond_span.clone()), "mutations and property tests on an entry limited by `self.rank` are not supported by the engine yet (the en passant marker of a double step is)")
                .label("not supported by the engine yet");
            c.push(d);
            return None;
        }
    }
    if let Some(mk) = marker {
        markers.push(mk);
    }
    let shape = Shape {
        vectors,
        reach,
        mode,
        first_move_only,
        en_passant: if creates {
            EnPassantRole::Creates
        } else {
            EnPassantRole::None
        },
        edge,
        only,
        from_ranks,
    };
    if edge != Edge::Stop
        && reach == Reach::Leap
        && matches!(edge, Edge::Warp | Edge::Bounce { .. })
    {
        let span = spec
            .edge
            .as_ref()
            .map_or(cond_span.clone(), |e| c.span(&e.loc));
        let d = c
            .diag(Code::Invalid, span, "`Warp` and `Bounce` act on rides (a Slide, a ranged Capture, a Step with `$path.is_clear`); this shape jumps, so it would have no effect")
            .label("no effect on a jump");
        c.push(d);
        return None;
    }
    let guarded = guard.is_some() || dest_guard.is_some();
    if let Some(span) = op_span
        .clone()
        .or_else(|| guarded.then(|| cond_span.clone()))
    {
        if edge != Edge::Stop {
            let d = c
                .diag(Code::EngineUnsupported, span, "mutations and property tests on a shape with an `edge` other than Stop are not supported by the engine yet")
                .label("not supported by the engine yet");
            c.push(d);
            return None;
        }
    }
    if let Some(span) = &op_span {
        let moves_or_destroys = ops.iter().any(|o| !matches!(o, Op::Set(_)));
        if (first_move_only || creates) && moves_or_destroys {
            let d = c
                .diag(Code::EngineUnsupported, span.clone(), "`destroy self` and `move` on a first-move or en passant double step are not supported by the engine yet")
                .label("not supported by the engine yet");
            c.push(d);
            return None;
        }
    }
    let span = op_span.unwrap_or(cond_span);
    Some((shape, guard, dest_guard, ops, span))
}

/// The environment of a `set` value: the moving piece's properties.
struct SetEnv<'a> {
    raw: u8,
    layout: &'a Layout,
    own: usize,
    w: u8,
    h: u8,
}

impl Env for SetEnv<'_> {
    fn atom(&self, a: &Atom) -> Option<Val> {
        Some(match a {
            Atom::Prop(Holder::Own, Prop::Declared(n)) => self.layout.get(self.raw, n)?,
            Atom::Prop(Holder::Own, Prop::Type) => Val::Piece(self.own),
            Atom::Width => Val::Int(self.w as i64),
            Atom::Height => Val::Int(self.h as i64),
            _ => return None,
        })
    }
}

/// The environment of a trigger condition.
struct TriggerEnv {
    owner: usize,
    y: u8,
    own: usize,
    w: u8,
    h: u8,
}

impl Env for TriggerEnv {
    fn atom(&self, a: &Atom) -> Option<Val> {
        Some(match a {
            Atom::Prop(Holder::Own, Prop::Y) => Val::Int(self.y as i64),
            Atom::Prop(Holder::Own, Prop::Rank) => Val::Int(if self.owner == 0 {
                self.y as i64 + 1
            } else {
                (self.h - self.y) as i64
            }),
            Atom::Prop(Holder::Own, Prop::Owner) => Val::Color(self.owner),
            Atom::Prop(Holder::Own, Prop::Type) => Val::Piece(self.own),
            Atom::FinalRank(arg) => match check::eval(arg, self).ok()? {
                Val::Color(0) => Val::Int(self.h as i64 - 1),
                Val::Color(_) => Val::Int(0),
                _ => return None,
            },
            Atom::Width => Val::Int(self.w as i64),
            Atom::Height => Val::Int(self.h as i64),
            _ => return None,
        })
    }
}

#[allow(clippy::too_many_arguments)]
fn trigger(
    c: &mut C<'_>,
    pi: usize,
    t: &Sp<crate::model::TriggerSpec>,
    infos: &[PieceInfo],
    players: &[String],
    ids: &[String],
    w: u8,
    h: u8,
) -> Option<PromoOut> {
    let spec = &t.value;
    let ev = &spec.event;
    if !EVENTS.contains(&ev.value.as_str()) {
        c.unknown(
            c.span(&ev.loc),
            format!("unknown event `{}`", ev.value),
            "not an event",
            &ev.value,
            EVENTS,
        );
        return None;
    }
    if ev.value != "AfterMove" {
        let d = c
            .diag(Code::EngineUnsupported, c.span(&ev.loc), format!("triggers on `{}` are not supported by the engine yet (only AfterMove promotion)", ev.value))
            .label("not supported by the engine yet");
        c.push(d);
        return None;
    }
    let ((name, name_span), args) = match parse_call(&spec.action.value) {
        Ok(x) => x,
        Err(pe) => {
            let span = c.inner_span(
                &spec.action.loc,
                &spec.action.value,
                pe.offset..pe.offset + 1,
            );
            let d = c
                .diag(
                    Code::ConditionSyntax,
                    span,
                    format!("action: {}", pe.message),
                )
                .label("here")
                .help("write the action as a call, such as `Promote(Queen, Rook, Bishop, Knight)`");
            c.push(d);
            return None;
        }
    };
    if name != "Promote" {
        c.unknown(
            c.inner_span(&spec.action.loc, &spec.action.value, name_span),
            format!("unknown trigger action `{name}`"),
            "not an action",
            &name,
            TRIGGER_ACTIONS,
        );
        return None;
    }
    if args.is_empty() {
        let d = c
            .diag(
                Code::InvalidValue,
                c.span(&spec.action.loc),
                "`Promote` needs at least one piece type",
            )
            .label("no choices");
        c.push(d);
        return None;
    }
    let mut choices = Vec::new();
    for (a, r) in &args {
        match ids.iter().position(|i| i == a) {
            Some(k) if !choices.contains(&k) => choices.push(k),
            Some(_) => {}
            None => {
                c.unknown(
                    c.inner_span(&spec.action.loc, &spec.action.value, r.clone()),
                    format!("unknown piece `{a}` in `Promote`"),
                    "no such piece",
                    a,
                    ids.iter().map(|s| s.as_str()),
                );
            }
        }
    }
    let before = c.diags.len();
    let optional = spec.optional.as_ref().is_some_and(|o| o.value);
    let only_captured = spec.only_captured.as_ref().is_some_and(|o| o.value);
    let Some(cond) = &spec.condition else {
        let d = c
            .diag(Code::InvalidValue, c.span(&t.loc), "a promotion trigger needs a condition that says where (such as `self.y == $board.final_rank(self.owner)`)")
            .label("no condition");
        c.push(d);
        return None;
    };
    let ctx = Ctx {
        scope: Scope::Trigger,
        pieces: infos,
        own: pi,
        target: None,
        players,
    };
    let typed = checked(c, &ctx, cond)?;
    let mut zones = [BTreeSet::new(), BTreeSet::new()];
    for (owner, zone) in zones.iter_mut().enumerate() {
        for y in 0..h {
            let env = TriggerEnv {
                owner,
                y,
                own: pi,
                w,
                h,
            };
            match check::eval(&typed, &env) {
                Ok(Val::Bool(true)) => {
                    zone.insert(if owner == 0 { y } else { h - 1 - y });
                }
                Ok(_) => {}
                Err(u) => {
                    let d =
                        c.unsupported(&cond.loc, &cond.value, u.span, "in a promotion condition");
                    c.push(d);
                    return None;
                }
            }
        }
    }
    if zones[0] != zones[1] {
        let d = c
            .diag(Code::EngineUnsupported, c.span(&cond.loc), "promotion zones that are not mirror images for the two players are not supported by the engine yet")
            .label("not supported by the engine yet");
        c.push(d);
        return None;
    }
    if zones[0].is_empty() {
        let d = c
            .diag(
                Code::Invalid,
                c.span(&cond.loc),
                "this promotion condition is never true on this board",
            )
            .label("never true");
        c.push(d);
        return None;
    }
    if c.diags.len() > before {
        return None;
    }
    Some(PromoOut {
        ranks: zones[0].iter().copied().collect(),
        choices,
        span: c.span(&t.loc),
        optional,
        only_captured,
    })
}

/// The environment of castling conditions.
struct CastleEnv {
    vars: [bool; 6],
    own: usize,
    target: usize,
}

impl Env for CastleEnv {
    fn atom(&self, a: &Atom) -> Option<Val> {
        let [self_moved, in_check, target_moved, same_owner, clear, safe] = self.vars;
        Some(match a {
            Atom::Prop(Holder::Own, Prop::HasMoved) => Val::Bool(self_moved),
            Atom::Prop(Holder::Own, Prop::Owner) => Val::Color(0),
            Atom::Prop(Holder::Own, Prop::Type) => Val::Piece(self.own),
            Atom::Prop(Holder::Target, Prop::HasMoved) => Val::Bool(target_moved),
            Atom::Prop(Holder::Target, Prop::Owner) => Val::Color(if same_owner { 0 } else { 1 }),
            Atom::Prop(Holder::Target, Prop::Type) => Val::Piece(self.target),
            Atom::InCheck(arg) => match check::eval(arg, self).ok()? {
                Val::Color(0) => Val::Bool(in_check),
                _ => return None,
            },
            Atom::PathClearBetween => Val::Bool(clear),
            Atom::PathSafe => Val::Bool(safe),
            _ => return None,
        })
    }
}

#[allow(clippy::too_many_arguments)]
fn action(
    c: &mut C<'_>,
    pi: usize,
    piece: &Sp<PieceSpec>,
    a: &Sp<crate::model::ActionSpec>,
    infos: &[PieceInfo],
    players: &[String],
    ids: &[String],
    w: u8,
    setup_board: &str,
) -> Option<Castling> {
    let spec = &a.value;
    let aspan = c.span(&a.loc);
    if spec.targets.len() != 1 || spec.mutations.len() != 2 {
        let d = c
            .diag(Code::EngineUnsupported, aspan, format!("action `{}`: only castling (one target, two `move` mutations) is supported by the engine yet", spec.id.value))
            .label("not supported by the engine yet");
        c.push(d);
        return None;
    }
    let tgt = &spec.targets[0].value;
    let Some(ti) = ids.iter().position(|i| *i == tgt.entity.value) else {
        c.unknown(
            c.span(&tgt.entity.loc),
            format!("unknown piece `{}` as a target", tgt.entity.value),
            "no such piece",
            &tgt.entity.value,
            ids.iter().map(|s| s.as_str()),
        );
        return None;
    };
    let actx = Ctx {
        scope: Scope::Action,
        pieces: infos,
        own: pi,
        target: None,
        players,
    };
    let tctx = Ctx {
        scope: Scope::Target,
        pieces: infos,
        own: pi,
        target: Some(ti),
        players,
    };
    let acond = match &spec.condition {
        Some(s) => Some((checked(c, &actx, s)?, s)),
        None => None,
    };
    let tcond = match &tgt.condition {
        Some(s) => Some((checked(c, &tctx, s)?, s)),
        None => None,
    };
    let mut same = true;
    for bits in 0..64u32 {
        let vars: [bool; 6] = std::array::from_fn(|k| bits & (1 << k) != 0);
        let env = CastleEnv {
            vars,
            own: pi,
            target: ti,
        };
        let mut value = true;
        for (t, s) in [&acond, &tcond].into_iter().flatten() {
            match check::eval(t, &env) {
                Ok(Val::Bool(b)) => value &= b,
                Ok(_) => return None,
                Err(u) => {
                    let d = c.unsupported(&s.loc, &s.value, u.span, "in a castling condition");
                    c.push(d);
                    return None;
                }
            }
        }
        let [self_moved, in_check, target_moved, same_owner, clear, safe] = vars;
        let fide = !self_moved && !in_check && !target_moved && same_owner && clear && safe;
        if value != fide {
            same = false;
        }
    }
    if !same {
        let span = acond
            .as_ref()
            .or(tcond.as_ref())
            .map_or(aspan.clone(), |(_, s)| c.span(&s.loc));
        let d = c
            .diag(
                Code::EngineUnsupported,
                span,
                "castling under other conditions than FIDE's is not supported by the engine yet: the engine needs `self.has_moved == false and $engine.state.is_in_check(self.owner) == false` and, for the target, `target.has_moved == false and target.owner == self.owner and $path.is_clear(self, target) and $engine.state.is_path_safe(self, target) == true`",
            )
            .label("not supported by the engine yet");
        c.push(d);
        return None;
    }
    // The mutations: the king's and the rook's.
    let mut king_files: Option<[u8; 2]> = None;
    // `move self to file c|g` is Chess960 castling (docs/game-format.md):
    // the king may start on any file.
    let mut chess960 = false;
    let mut rook: Option<(Mutation, Sp<String>)> = None;
    // The file of the first player's piece of this type on its first rank;
    // when the first player has none there (horde's White has no king),
    // the second player's on its own first rank.
    let king_file = || -> Option<u8> {
        let sym = piece.value.symbol.value.chars().next()?;
        let rank = |rank: &str, sym: char| -> Option<Option<u8>> {
            let mut f = 0u32;
            let mut found = None;
            let mut digits = String::new();
            for ch in rank.chars().chain(std::iter::once(' ')) {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                    continue;
                }
                if !digits.is_empty() {
                    f += digits.parse::<u32>().ok()?;
                    digits.clear();
                }
                if ch == sym {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(f as u8);
                }
                if ch != ' ' {
                    f += 1;
                }
            }
            Some(found)
        };
        match rank(
            setup_board.split('/').next_back()?,
            sym.to_ascii_uppercase(),
        )? {
            Some(f) => Some(f),
            None => rank(setup_board.split('/').next()?, sym.to_ascii_lowercase())?,
        }
    };
    for mu in &spec.mutations {
        let parsed = parsed_mutation(c, mu)?;
        match &parsed {
            Mutation::MoveToward {
                mover: Who::Own,
                steps,
                steps_span,
                other: Who::Target,
                ..
            } => {
                let Some(kf) = king_file() else {
                    let d = c
                        .diag(Code::Setup, c.span(&mu.loc), format!("`move self {steps} steps toward target` needs exactly one `{}` on the first player's first rank in the setup (or, when the first player has none, on the second player's)", piece.value.id.value))
                        .label("king's file unknown");
                    c.push(d);
                    return None;
                };
                // Checked: `steps` is any i64 the user wrote.
                let q = i64::from(kf).checked_sub(*steps).unwrap_or(-1);
                let k = i64::from(kf).checked_add(*steps).unwrap_or(i64::MAX);
                if *steps < 1 || q < 0 || k >= i64::from(w) {
                    let d = c
                        .diag(
                            Code::InvalidValue,
                            c.inner_span(&mu.loc, &mu.value, steps_span.clone()),
                            format!(
                                "{steps} {} from the {} file {} the board",
                                if *steps == 1 { "step" } else { "steps" },
                                (b'a' + kf) as char,
                                if *steps == 1 { "leaves" } else { "leave" }
                            ),
                        )
                        .label("off the board");
                    c.push(d);
                    return None;
                }
                king_files = Some([q as u8, k as u8]);
            }
            Mutation::MoveToFile {
                mover: Who::Own,
                files,
                span,
                ..
            } => {
                if files.iter().any(|&f| f >= w) {
                    let d = c
                        .diag(
                            Code::InvalidValue,
                            c.inner_span(&mu.loc, &mu.value, span.clone()),
                            "file beyond the board",
                        )
                        .label("off the board");
                    c.push(d);
                    return None;
                }
                king_files = Some(*files);
                chess960 = true;
            }
            Mutation::MovePast {
                mover: Who::Target,
                other: Who::Own,
                ..
            }
            | Mutation::MoveToFile {
                mover: Who::Target, ..
            } => {
                rook = Some((parsed.clone(), mu.clone()));
            }
            _ => {
                let d = c
                    .diag(Code::EngineUnsupported, c.span(&mu.loc), "castling mutations are `move self N steps toward target` or `move self to file Q|K`, and `move target N step past self final_position` or `move target to file Q|K`; this one is not supported by the engine yet")
                    .label("not supported by the engine yet");
                c.push(d);
                return None;
            }
        }
    }
    let (Some(kf), Some((rm, rmu))) = (king_files, rook) else {
        let d = c
            .diag(
                Code::EngineUnsupported,
                aspan,
                "castling needs one mutation moving `self` and one moving `target`",
            )
            .label("not supported by the engine yet");
        c.push(d);
        return None;
    };
    let rook_files = match rm {
        Mutation::MovePast {
            steps, steps_span, ..
        } => {
            // Checked: `steps` is any i64 the user wrote.
            let q = i64::from(kf[0]).checked_add(steps).unwrap_or(i64::MAX);
            let k = i64::from(kf[1]).checked_sub(steps).unwrap_or(-1);
            if steps < 1 || q >= i64::from(w) || k < 0 {
                let d = c
                    .diag(
                        Code::InvalidValue,
                        c.inner_span(&rmu.loc, &rmu.value, steps_span),
                        "the rook's destination leaves the board",
                    )
                    .label("off the board");
                c.push(d);
                return None;
            }
            [q as u8, k as u8]
        }
        Mutation::MoveToFile { files, span, .. } => {
            if files.iter().any(|&f| f >= w) {
                let d = c
                    .diag(
                        Code::InvalidValue,
                        c.inner_span(&rmu.loc, &rmu.value, span),
                        "file beyond the board",
                    )
                    .label("off the board");
                c.push(d);
                return None;
            }
            files
        }
        _ => return None,
    };
    Some(Castling {
        king: pi,
        rook: ti,
        king_files: kf,
        rook_files,
        chess960,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_recognises_products() {
        let mut t = Vec::new();
        for a in 0..3 {
            for b in 0..2 {
                t.push(([a, b], a != 2 && b == 1));
            }
        }
        assert_eq!(factor(&t), Some([vec![0, 1], vec![1]]));
        let t2: Vec<([usize; 2], bool)> = vec![
            ([0, 0], true),
            ([0, 1], false),
            ([1, 0], false),
            ([1, 1], true),
        ];
        assert_eq!(factor(&t2), None);
    }
}
