//! Type-checking of conditions against a definition, and evaluation of the
//! checked form over an environment (used at load time to compile a
//! condition into the engine's form by enumerating the values of the atoms
//! it reads).

use std::ops::Range;

use super::ast::{BinOp, CmpOp, Expr, ExprKind, Segment};
use crate::diag::{did_you_mean, Code};

/// Value types of the condition language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `true` / `false`.
    Bool,
    /// Whole numbers.
    Int,
    /// A player (colour).
    Color,
    /// A piece type.
    Piece,
    /// A piece itself (`self`, `target`), only as a call argument.
    Entity,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Bool => "true/false",
            Ty::Int => "a number",
            Ty::Color => "a player",
            Ty::Piece => "a piece type",
            Ty::Entity => "a piece",
        }
    }
}

/// Where a condition stands: which accessors it may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A movement entry's condition.
    Movement,
    /// A trigger's condition.
    Trigger,
    /// An action's own condition.
    Action,
    /// An action target's condition (`target.*` available).
    Target,
}

/// What the checker needs to know about one piece type.
#[derive(Clone, Debug)]
pub struct PieceInfo {
    /// Its id.
    pub id: String,
    /// Its declared properties and their types.
    pub props: Vec<(String, Ty)>,
}

/// The checker's view of the definition.
#[derive(Clone, Debug)]
pub struct Ctx<'a> {
    /// Where the condition stands.
    pub scope: Scope,
    /// All piece types.
    pub pieces: &'a [PieceInfo],
    /// The piece type that owns the condition.
    pub own: usize,
    /// The target's piece type (in [`Scope::Target`]).
    pub target: Option<usize>,
    /// Player ids, in turn order.
    pub players: &'a [String],
}

/// Whose property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    /// `self`.
    Own,
    /// `target` (an action's target).
    Target,
    /// `$engine.board.adjacent_enemy`.
    AdjacentEnemy,
    /// The piece on the destination square (`$target.<property>`).
    Dest,
}

/// Properties of a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prop {
    /// Whether it has moved (kept by the engine).
    HasMoved,
    /// Its owner.
    Owner,
    /// File, 0-based.
    X,
    /// Rank, 0-based from the first player's side.
    Y,
    /// Rank, 1-based, counted from its owner's side.
    Rank,
    /// Its piece type.
    Type,
    /// A declared property.
    Declared(String),
}

/// States of the destination square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetTest {
    /// `$target.is_empty`.
    IsEmpty,
    /// `$target.has_enemy`.
    HasEnemy,
    /// `$target.has_friend`.
    HasFriend,
    /// `$target.has_piece`.
    HasPiece,
}

/// Things a condition reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// A piece's property.
    Prop(Holder, Prop),
    /// The destination square.
    Target(TargetTest),
    /// `$path.is_clear`.
    PathClear,
    /// `$path.is_clear(self, target)`.
    PathClearBetween,
    /// `$engine.state.is_path_safe(self, target)`.
    PathSafe,
    /// `$engine.state.is_in_check(colour)`.
    InCheck(Box<Typed>),
    /// `$engine.state.turn`.
    Turn,
    /// `$board.width` / `$engine.board.width`.
    Width,
    /// `$board.height` / `$engine.board.height`.
    Height,
    /// `$board.final_rank(colour)`.
    FinalRank(Box<Typed>),
}

/// A checked expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Typed {
    /// The form.
    pub kind: TKind,
    /// Its type.
    pub ty: Ty,
    /// Byte range in the condition text.
    pub span: Range<usize>,
}

/// Checked expression forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TKind {
    /// A constant.
    Const(Val),
    /// An accessor.
    Atom(Atom),
    /// `self` or `target` as a call argument.
    Entity(Holder),
    /// `not`.
    Not(Box<Typed>),
    /// `-`.
    Neg(Box<Typed>),
    /// `and`, `or`, `+`, `-`.
    Binary(BinOp, Box<Typed>, Box<Typed>),
    /// Comparisons.
    Cmp(CmpOp, Box<Typed>, Box<Typed>),
}

/// Values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    /// A truth value.
    Bool(bool),
    /// A number.
    Int(i64),
    /// A player index.
    Color(usize),
    /// A piece type index.
    Piece(usize),
}

/// A problem in a condition: its span in the condition text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CondError {
    /// Byte range in the condition text.
    pub span: Range<usize>,
    /// The kind of problem.
    pub code: Code,
    /// What is wrong.
    pub message: String,
    /// A suggestion.
    pub help: Option<String>,
}

fn err(span: Range<usize>, code: Code, message: impl Into<String>) -> CondError {
    CondError {
        span,
        code,
        message: message.into(),
        help: None,
    }
}

const TARGET_TESTS: [&str; 4] = ["is_empty", "has_enemy", "has_friend", "has_piece"];
const BUILTIN: [&str; 6] = ["has_moved", "owner", "x", "y", "rank", "type"];

impl Ctx<'_> {
    fn roots(&self) -> Vec<&str> {
        let mut v = vec!["self"];
        if self.scope == Scope::Target {
            v.push("target");
        }
        v
    }

    fn dollar_roots(&self) -> Vec<&'static str> {
        let mut v = vec!["engine", "board"];
        if self.scope == Scope::Movement {
            v.push("target");
        }
        if matches!(self.scope, Scope::Movement | Scope::Target) {
            v.push("path");
        }
        v
    }

    fn piece_props(&self, holder: Holder) -> Vec<(String, Ty)> {
        let mut v: Vec<(String, Ty)> = vec![
            ("has_moved".into(), Ty::Bool),
            ("owner".into(), Ty::Color),
            ("x".into(), Ty::Int),
            ("y".into(), Ty::Int),
            ("rank".into(), Ty::Int),
            ("type".into(), Ty::Piece),
        ];
        let declared: Vec<(String, Ty)> = match holder {
            Holder::Own => self
                .pieces
                .get(self.own)
                .map(|p| p.props.clone())
                .unwrap_or_default(),
            Holder::Target => self
                .target
                .and_then(|t| self.pieces.get(t))
                .map(|p| p.props.clone())
                .unwrap_or_default(),
            Holder::AdjacentEnemy | Holder::Dest => self
                .pieces
                .iter()
                .flat_map(|p| p.props.iter().cloned())
                .collect(),
        };
        if holder == Holder::Dest {
            // Of the built-in properties the destination offers its type;
            // its owner is what `has_enemy` / `has_friend` tell.
            v.retain(|(n, _)| !BUILTIN.contains(&n.as_str()) || n == "type");
        }
        for (n, t) in declared {
            if !v.iter().any(|(m, _)| *m == n) {
                v.push((n, t));
            }
        }
        v
    }

    /// Checks `e` and requires it to be a truth value.
    ///
    /// # Errors
    /// The first problem found.
    pub fn check_condition(&self, e: &Expr) -> Result<Typed, CondError> {
        let t = self.check(e)?;
        if t.ty != Ty::Bool {
            return Err(err(
                e.span.clone(),
                Code::ConditionType,
                format!(
                    "a condition must be true or false, but this is {}",
                    t.ty.name()
                ),
            ));
        }
        Ok(t)
    }

    /// Checks `e`.
    ///
    /// # Errors
    /// The first problem found.
    pub fn check(&self, e: &Expr) -> Result<Typed, CondError> {
        let span = e.span.clone();
        let mk = |kind: TKind, ty: Ty| {
            Ok(Typed {
                kind,
                ty,
                span: span.clone(),
            })
        };
        match &e.kind {
            ExprKind::Bool(b) => mk(TKind::Const(Val::Bool(*b)), Ty::Bool),
            ExprKind::Int(n) => mk(TKind::Const(Val::Int(*n)), Ty::Int),
            ExprKind::Not(a) => {
                let a = self.expect(a, Ty::Bool, "`not` applies to true/false")?;
                mk(TKind::Not(Box::new(a)), Ty::Bool)
            }
            ExprKind::Neg(a) => {
                let a = self.expect(a, Ty::Int, "`-` applies to numbers")?;
                mk(TKind::Neg(Box::new(a)), Ty::Int)
            }
            ExprKind::Binary(op, a, b) => {
                let (ty, what) = match op {
                    BinOp::And => (Ty::Bool, "`and` joins true/false values"),
                    BinOp::Or => (Ty::Bool, "`or` joins true/false values"),
                    BinOp::Add => (Ty::Int, "`+` adds numbers"),
                    BinOp::Sub => (Ty::Int, "`-` subtracts numbers"),
                };
                let a = self.expect(a, ty, what)?;
                let b = self.expect(b, ty, what)?;
                mk(TKind::Binary(*op, Box::new(a), Box::new(b)), ty)
            }
            ExprKind::Cmp(op, a, b) => {
                let ta = self.check(a)?;
                let tb = self.check(b)?;
                if ta.ty == Ty::Entity || tb.ty == Ty::Entity {
                    let bad = if ta.ty == Ty::Entity { &ta } else { &tb };
                    return Err(err(
                        bad.span.clone(),
                        Code::ConditionType,
                        "a piece cannot be compared; compare one of its properties (such as `.owner`)",
                    ));
                }
                match op {
                    CmpOp::Eq | CmpOp::Ne => {
                        if ta.ty != tb.ty {
                            return Err(err(
                                span,
                                Code::ConditionType,
                                format!("cannot compare {} with {}", ta.ty.name(), tb.ty.name()),
                            ));
                        }
                    }
                    _ => {
                        for t in [&ta, &tb] {
                            if t.ty != Ty::Int {
                                return Err(err(
                                    t.span.clone(),
                                    Code::ConditionType,
                                    format!(
                                        "`<`, `<=`, `>` and `>=` compare numbers, but this is {}",
                                        t.ty.name()
                                    ),
                                ));
                            }
                        }
                    }
                }
                mk(TKind::Cmp(*op, Box::new(ta), Box::new(tb)), Ty::Bool)
            }
            ExprKind::Path { dollar, segments } => self.check_path(*dollar, segments, span),
        }
    }

    fn expect(&self, e: &Expr, ty: Ty, what: &str) -> Result<Typed, CondError> {
        let t = self.check(e)?;
        if t.ty != ty {
            return Err(err(
                e.span.clone(),
                Code::ConditionType,
                format!("{what}, but this is {}", t.ty.name()),
            ));
        }
        Ok(t)
    }

    fn no_args(&self, s: &Segment) -> Result<(), CondError> {
        if s.args.is_some() {
            return Err(err(
                s.span.clone(),
                Code::ConditionType,
                format!("`{}` takes no arguments", s.name),
            ));
        }
        Ok(())
    }

    fn args<'e>(&self, s: &'e Segment, n: usize, what: &str) -> Result<&'e [Expr], CondError> {
        match &s.args {
            Some(a) if a.len() == n => Ok(a),
            _ => Err(err(
                s.span.clone(),
                Code::ConditionType,
                format!("`{}` takes {what}", s.name),
            )),
        }
    }

    fn unknown(&self, s: &Segment, prefix: &str, options: &[&str]) -> CondError {
        let mut e = err(
            s.span.clone(),
            Code::UnknownAccessor,
            format!("unknown accessor `{prefix}.{}`", s.name),
        );
        e.help = did_you_mean(&s.name, options.iter().copied());
        e
    }

    fn end(&self, rest: &[Segment]) -> Result<(), CondError> {
        match rest.first() {
            None => Ok(()),
            Some(s) => Err(err(
                s.span.clone(),
                Code::UnknownAccessor,
                format!("`{}`: this value has no properties", s.name),
            )),
        }
    }

    fn check_path(
        &self,
        dollar: bool,
        segs: &[Segment],
        span: Range<usize>,
    ) -> Result<Typed, CondError> {
        let first = &segs[0];
        let rest = &segs[1..];
        let atom = |a: Atom, ty: Ty| {
            Ok(Typed {
                kind: TKind::Atom(a),
                ty,
                span: span.clone(),
            })
        };
        if !dollar {
            let holder = match first.name.as_str() {
                "self" => Some(Holder::Own),
                "target" if self.scope == Scope::Target => Some(Holder::Target),
                _ => None,
            };
            if let Some(h) = holder {
                self.no_args(first)?;
                return match rest.first() {
                    None => Ok(Typed {
                        kind: TKind::Entity(h),
                        ty: Ty::Entity,
                        span,
                    }),
                    Some(p) => {
                        let (prop, ty) = self.prop(h, p)?;
                        self.end(&rest[1..])?;
                        atom(Atom::Prop(h, prop), ty)
                    }
                };
            }
            // A bare name: a piece type or a player.
            if rest.is_empty() && first.args.is_none() {
                if let Some(i) = self.pieces.iter().position(|p| p.id == first.name) {
                    return Ok(Typed {
                        kind: TKind::Const(Val::Piece(i)),
                        ty: Ty::Piece,
                        span,
                    });
                }
                if let Some(i) = self.players.iter().position(|p| *p == first.name) {
                    return Ok(Typed {
                        kind: TKind::Const(Val::Color(i)),
                        ty: Ty::Color,
                        span,
                    });
                }
            }
            let mut names: Vec<&str> = self.roots();
            names.extend(self.pieces.iter().map(|p| p.id.as_str()));
            names.extend(self.players.iter().map(|p| p.as_str()));
            let mut e = err(
                first.span.clone(),
                Code::UnknownAccessor,
                format!("unknown name `{}`", first.name),
            );
            e.help = did_you_mean(&first.name, names.iter().copied());
            if first.name == "target" {
                e.message = "`target` is only available in an action target's condition".into();
                e.help = Some("in a movement condition the destination square is `$target`".into());
            }
            return Err(e);
        }
        let roots = self.dollar_roots();
        match first.name.as_str() {
            "target" if roots.contains(&"target") => {
                self.no_args(first)?;
                let Some(p) = rest.first() else {
                    return Err(err(
                        first.span.clone(),
                        Code::ConditionType,
                        "`$target` is a square: ask `$target.is_empty`, `$target.has_enemy`, `$target.has_friend` or `$target.has_piece`",
                    ));
                };
                self.no_args(p)?;
                let t = match p.name.as_str() {
                    "is_empty" => TargetTest::IsEmpty,
                    "has_enemy" => TargetTest::HasEnemy,
                    "has_friend" => TargetTest::HasFriend,
                    "has_piece" => TargetTest::HasPiece,
                    _ => {
                        let props = self.piece_props(Holder::Dest);
                        if props.iter().any(|(n, _)| *n == p.name) {
                            let (prop, ty) = self.prop(Holder::Dest, p)?;
                            self.end(&rest[1..])?;
                            return atom(Atom::Prop(Holder::Dest, prop), ty);
                        }
                        let mut opts: Vec<&str> = TARGET_TESTS.to_vec();
                        opts.extend(props.iter().map(|(n, _)| n.as_str()));
                        return Err(self.unknown(p, "$target", &opts));
                    }
                };
                self.end(&rest[1..])?;
                atom(Atom::Target(t), Ty::Bool)
            }
            "path" if roots.contains(&"path") => {
                self.no_args(first)?;
                let Some(p) = rest.first() else {
                    return Err(err(
                        first.span.clone(),
                        Code::ConditionType,
                        "`$path` is a set of squares: ask `$path.is_clear`",
                    ));
                };
                if p.name != "is_clear" {
                    return Err(self.unknown(p, "$path", &["is_clear"]));
                }
                self.end(&rest[1..])?;
                match (&p.args, self.scope) {
                    (None, Scope::Movement) => atom(Atom::PathClear, Ty::Bool),
                    (Some(_), Scope::Target) => {
                        self.entity_pair(p)?;
                        atom(Atom::PathClearBetween, Ty::Bool)
                    }
                    (Some(_), _) => Err(err(
                        p.span.clone(),
                        Code::ConditionType,
                        "in a movement condition `$path.is_clear` takes no arguments: the path is the move's",
                    )),
                    (None, _) => Err(err(
                        p.span.clone(),
                        Code::ConditionType,
                        "in an action target's condition write `$path.is_clear(self, target)`",
                    )),
                }
            }
            "engine" => {
                self.no_args(first)?;
                let Some(area) = rest.first() else {
                    return Err(err(
                        first.span.clone(),
                        Code::ConditionType,
                        "`$engine` needs `.state` or `.board`",
                    ));
                };
                self.no_args(area)?;
                let Some(item) = rest.get(1) else {
                    return Err(err(
                        area.span.clone(),
                        Code::ConditionType,
                        format!("`$engine.{}` needs an accessor", area.name),
                    ));
                };
                match area.name.as_str() {
                    "state" => {
                        self.end(&rest[2..])?;
                        match item.name.as_str() {
                            "is_in_check" => {
                                let a =
                                    self.args(item, 1, "one argument, a player (`self.owner`)")?;
                                let c =
                                    self.expect(&a[0], Ty::Color, "`is_in_check` takes a player")?;
                                atom(Atom::InCheck(Box::new(c)), Ty::Bool)
                            }
                            "is_path_safe" => {
                                if self.scope != Scope::Target {
                                    return Err(err(
                                        item.span.clone(),
                                        Code::ConditionType,
                                        "`is_path_safe(self, target)` is only available in an action target's condition",
                                    ));
                                }
                                self.entity_pair(item)?;
                                atom(Atom::PathSafe, Ty::Bool)
                            }
                            "turn" => {
                                self.no_args(item)?;
                                atom(Atom::Turn, Ty::Color)
                            }
                            _ => Err(self.unknown(
                                item,
                                "$engine.state",
                                &["is_in_check", "is_path_safe", "turn"],
                            )),
                        }
                    }
                    "board" => match item.name.as_str() {
                        "adjacent_enemy" if self.scope == Scope::Movement => {
                            self.no_args(item)?;
                            match rest.get(2) {
                                None => Ok(Typed {
                                    kind: TKind::Entity(Holder::AdjacentEnemy),
                                    ty: Ty::Entity,
                                    span,
                                }),
                                Some(p) => {
                                    let (prop, ty) = self.prop(Holder::AdjacentEnemy, p)?;
                                    self.end(&rest[3..])?;
                                    atom(Atom::Prop(Holder::AdjacentEnemy, prop), ty)
                                }
                            }
                        }
                        "width" => {
                            self.no_args(item)?;
                            self.end(&rest[2..])?;
                            atom(Atom::Width, Ty::Int)
                        }
                        "height" => {
                            self.no_args(item)?;
                            self.end(&rest[2..])?;
                            atom(Atom::Height, Ty::Int)
                        }
                        _ => {
                            let opts: &[&str] = if self.scope == Scope::Movement {
                                &["adjacent_enemy", "width", "height"]
                            } else {
                                &["width", "height"]
                            };
                            Err(self.unknown(item, "$engine.board", opts))
                        }
                    },
                    _ => Err(self.unknown(area, "$engine", &["state", "board"])),
                }
            }
            "board" => {
                self.no_args(first)?;
                let Some(item) = rest.first() else {
                    return Err(err(
                        first.span.clone(),
                        Code::ConditionType,
                        "`$board` needs an accessor such as `.final_rank(self.owner)`",
                    ));
                };
                self.end(&rest[1..])?;
                match item.name.as_str() {
                    "final_rank" => {
                        let a = self.args(item, 1, "one argument, a player (`self.owner`)")?;
                        let c = self.expect(&a[0], Ty::Color, "`final_rank` takes a player")?;
                        atom(Atom::FinalRank(Box::new(c)), Ty::Int)
                    }
                    "width" => {
                        self.no_args(item)?;
                        atom(Atom::Width, Ty::Int)
                    }
                    "height" => {
                        self.no_args(item)?;
                        atom(Atom::Height, Ty::Int)
                    }
                    _ => Err(self.unknown(item, "$board", &["final_rank", "width", "height"])),
                }
            }
            _ => {
                let opts: Vec<String> = roots.iter().map(|r| format!("${r}")).collect();
                let mut e = err(
                    first.span.clone(),
                    Code::UnknownAccessor,
                    format!("unknown accessor `${}`", first.name),
                );
                e.help = did_you_mean(&format!("${}", first.name), opts.iter().map(|s| s.as_str()));
                if matches!(first.name.as_str(), "target" | "path") {
                    e.message = format!("`${}` is not available here", first.name);
                    e.help = Some(format!("available here: {}", opts.join(", ")));
                }
                Err(e)
            }
        }
    }

    fn entity_pair(&self, s: &Segment) -> Result<(), CondError> {
        let a = self.args(s, 2, "two arguments, `self` and `target`")?;
        let ok = |e: &Expr, want: &str| matches!(&e.kind, ExprKind::Path { dollar: false, segments } if segments.len() == 1 && segments[0].name == want && segments[0].args.is_none());
        if !ok(&a[0], "self") || !ok(&a[1], "target") {
            return Err(err(
                s.span.clone(),
                Code::ConditionType,
                format!("`{}` takes `self, target`", s.name),
            ));
        }
        Ok(())
    }

    fn prop(&self, h: Holder, p: &Segment) -> Result<(Prop, Ty), CondError> {
        self.no_args(p)?;
        let props = self.piece_props(h);
        let Some((_, ty)) = props.iter().find(|(n, _)| *n == p.name) else {
            let who = match h {
                Holder::Own => "`self`",
                Holder::Target => "`target`",
                Holder::AdjacentEnemy => "`$engine.board.adjacent_enemy`",
                Holder::Dest => "`$target`",
            };
            let names: Vec<&str> = props.iter().map(|(n, _)| n.as_str()).collect();
            let mut e = err(
                p.span.clone(),
                Code::UnknownAccessor,
                format!("unknown property `{}` of {who}", p.name),
            );
            e.help = did_you_mean(&p.name, names.iter().copied());
            if e.help.as_deref().is_some_and(|h| h.starts_with("expected")) || e.help.is_none() {
                e.help = Some(format!(
                    "properties are {}; declare others under the piece's `properties`",
                    names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            return Err(e);
        };
        let prop = match p.name.as_str() {
            "has_moved" => Prop::HasMoved,
            "owner" => Prop::Owner,
            "x" => Prop::X,
            "y" => Prop::Y,
            "rank" => Prop::Rank,
            "type" => Prop::Type,
            n => Prop::Declared(n.to_string()),
        };
        Ok((prop, *ty))
    }
}

/// An atom the environment cannot give a value for: the engine cannot
/// express a condition that reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// Where the atom is in the condition text.
    pub span: Range<usize>,
}

/// Values of atoms during evaluation.
pub trait Env {
    /// The value of `a`, or `None` when this context cannot know it.
    fn atom(&self, a: &Atom) -> Option<Val>;
}

/// Evaluates `t` over `env`, without short-circuiting (so every atom the
/// condition reads must have a value).
///
/// # Errors
/// [`Unsupported`] at the first atom without a value.
pub fn eval(t: &Typed, env: &dyn Env) -> Result<Val, Unsupported> {
    let unsupported = || Unsupported {
        span: t.span.clone(),
    };
    match &t.kind {
        TKind::Const(v) => Ok(*v),
        TKind::Atom(a) => {
            // Arguments are evaluated first, so that an unsupported argument
            // is reported where it is.
            match a {
                Atom::InCheck(c) | Atom::FinalRank(c) => {
                    eval(c, env)?;
                }
                _ => {}
            }
            env.atom(a).ok_or_else(unsupported)
        }
        TKind::Entity(_) => Err(unsupported()),
        TKind::Not(a) => match eval(a, env)? {
            Val::Bool(b) => Ok(Val::Bool(!b)),
            _ => Err(unsupported()),
        },
        TKind::Neg(a) => match eval(a, env)? {
            Val::Int(n) => Ok(Val::Int(n.saturating_neg())),
            _ => Err(unsupported()),
        },
        TKind::Binary(op, a, b) => {
            let (x, y) = (eval(a, env)?, eval(b, env)?);
            match (op, x, y) {
                (BinOp::And, Val::Bool(p), Val::Bool(q)) => Ok(Val::Bool(p && q)),
                (BinOp::Or, Val::Bool(p), Val::Bool(q)) => Ok(Val::Bool(p || q)),
                (BinOp::Add, Val::Int(p), Val::Int(q)) => Ok(Val::Int(p.saturating_add(q))),
                (BinOp::Sub, Val::Int(p), Val::Int(q)) => Ok(Val::Int(p.saturating_sub(q))),
                _ => Err(unsupported()),
            }
        }
        TKind::Cmp(op, a, b) => {
            let (x, y) = (eval(a, env)?, eval(b, env)?);
            let r = match (op, x, y) {
                (CmpOp::Eq, x, y) => x == y,
                (CmpOp::Ne, x, y) => x != y,
                (CmpOp::Lt, Val::Int(p), Val::Int(q)) => p < q,
                (CmpOp::Le, Val::Int(p), Val::Int(q)) => p <= q,
                (CmpOp::Gt, Val::Int(p), Val::Int(q)) => p > q,
                (CmpOp::Ge, Val::Int(p), Val::Int(q)) => p >= q,
                _ => return Err(unsupported()),
            };
            Ok(Val::Bool(r))
        }
    }
}

/// Every atom in `t`, in order (arguments before their call).
pub fn atoms(t: &Typed) -> Vec<(&Atom, Range<usize>)> {
    let mut out = Vec::new();
    fn walk<'a>(t: &'a Typed, out: &mut Vec<(&'a Atom, Range<usize>)>) {
        match &t.kind {
            TKind::Const(_) | TKind::Entity(_) => {}
            TKind::Atom(a) => {
                if let Atom::InCheck(c) | Atom::FinalRank(c) = a {
                    walk(c, out);
                }
                out.push((a, t.span.clone()));
            }
            TKind::Not(a) | TKind::Neg(a) => walk(a, out),
            TKind::Binary(_, a, b) | TKind::Cmp(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
        }
    }
    walk(t, &mut out);
    out
}
