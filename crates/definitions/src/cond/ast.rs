//! The syntax tree of conditions and mutations.

use std::ops::Range;

/// A parsed expression with its byte range in the condition text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Byte range in the condition text.
    pub span: Range<usize>,
}

/// Expression forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// `true` / `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A name or an accessor: `Queen`, `self.has_moved`,
    /// `$board.final_rank(self.owner)`.
    Path {
        /// Written with a leading `$`.
        dollar: bool,
        /// The dot-separated parts.
        segments: Vec<Segment>,
    },
    /// `not e`.
    Not(Box<Expr>),
    /// `-e`.
    Neg(Box<Expr>),
    /// `a and b`, `a or b`, `a + b`, `a - b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a == b` and the other comparisons.
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
}

/// One part of a path, with its arguments when it is a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The name.
    pub name: String,
    /// Byte range of the name and its arguments.
    pub span: Range<usize>,
    /// Arguments, when written as a call.
    pub args: Option<Vec<Expr>>,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// Logical and.
    And,
    /// Logical or.
    Or,
    /// Addition.
    Add,
    /// Subtraction.
    Sub,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// `self` or `target` in a mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// The piece that owns the movement or action.
    Own,
    /// The action's target.
    Target,
}

/// A parsed mutation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// `set PATH = EXPR`.
    Set {
        /// The property.
        target: Expr,
        /// The new value.
        value: Expr,
    },
    /// `destroy PATH`.
    Destroy {
        /// What is destroyed.
        target: Expr,
    },
    /// `move WHO N steps toward WHO`.
    MoveToward {
        /// Who moves.
        mover: Who,
        /// Where `mover` is written.
        mover_span: Range<usize>,
        /// How far.
        steps: i64,
        /// Where the number is written.
        steps_span: Range<usize>,
        /// Toward whom.
        other: Who,
        /// Where `other` is written.
        other_span: Range<usize>,
    },
    /// `move WHO N steps past WHO final_position`.
    MovePast {
        /// Who moves.
        mover: Who,
        /// Where `mover` is written.
        mover_span: Range<usize>,
        /// How far past.
        steps: i64,
        /// Where the number is written.
        steps_span: Range<usize>,
        /// Past whose final square.
        other: Who,
        /// Where `other` is written.
        other_span: Range<usize>,
    },
    /// `move WHO to file Q|K`: to file `Q` when the action goes toward the
    /// first file (queen side), `K` toward the last (king side).
    MoveToFile {
        /// Who moves.
        mover: Who,
        /// Where `mover` is written.
        mover_span: Range<usize>,
        /// `[queen side, king side]` files, 0-based.
        files: [u8; 2],
        /// Where the files are written.
        span: Range<usize>,
    },
}
