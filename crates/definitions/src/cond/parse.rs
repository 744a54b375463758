//! Parser of the condition language and of mutations (winnow).
//!
//! ```text
//! expr     := or
//! or       := and ("or" and)*
//! and      := cmp ("and" cmp)*
//! cmp      := sum (("==" | "!=" | "<=" | ">=" | "<" | ">") sum)?
//! sum      := unary (("+" | "-") unary)*
//! unary    := "not" unary | "-" unary | primary
//! primary  := "(" expr ")" | number | "true" | "false" | path
//! path     := "$"? ident ("." ident args?)*  |  ident args
//! args     := "(" (expr ("," expr)*)? ")"
//! ```
//!
//! Mutations:
//!
//! ```text
//! set PATH = EXPR
//! destroy PATH
//! move WHO N step(s) toward WHO
//! move WHO N step(s) past WHO final_position
//! move WHO to file F|F
//! ```

use std::ops::Range;

use winnow::ascii::{digit1, multispace0};
use winnow::combinator::{alt, cut_err, delimited, opt, preceded, repeat, separated, terminated};
use winnow::error::{ContextError, ErrMode, StrContext, StrContextValue};
use winnow::prelude::*;
use winnow::stream::{Location, Stream};
use winnow::token::{one_of, take_while};
use winnow::LocatingSlice;

use super::ast::{BinOp, CmpOp, Expr, ExprKind, Mutation, Segment, Who};

type In<'a> = LocatingSlice<&'a str>;

/// Longest condition or mutation text accepted.
pub const MAX_LEN: usize = 4096;
/// Deepest nesting of parentheses accepted.
pub const MAX_DEPTH: usize = 48;

/// A parse failure: where (byte offset in the text) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset of the problem in the text.
    pub offset: usize,
    /// What went wrong.
    pub message: String,
}

fn precheck(text: &str) -> Result<(), ParseError> {
    if text.len() > MAX_LEN {
        return Err(ParseError {
            offset: 0,
            message: format!("is longer than {MAX_LEN} bytes"),
        });
    }
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(ParseError {
                        offset: i,
                        message: format!("nests parentheses deeper than {MAX_DEPTH}"),
                    });
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn to_error(text: &str, e: winnow::error::ParseError<In<'_>, ContextError>) -> ParseError {
    let offset = e.offset().min(text.len());
    let ctx = e.inner();
    let mut expected: Vec<String> = Vec::new();
    let mut label = None;
    for c in ctx.context() {
        match c {
            StrContext::Expected(StrContextValue::Description(d)) => {
                expected.push((*d).to_string())
            }
            StrContext::Expected(StrContextValue::StringLiteral(s)) => {
                expected.push(format!("`{s}`"))
            }
            StrContext::Expected(StrContextValue::CharLiteral(c)) => {
                expected.push(format!("`{c}`"))
            }
            StrContext::Label(l) => label = Some(*l),
            _ => {}
        }
    }
    let rest = &text[offset..];
    let found = if rest.trim().is_empty() {
        "the end".to_string()
    } else {
        let tok: String = rest
            .trim_start()
            .chars()
            .take_while(|c| !c.is_whitespace())
            .take(20)
            .collect();
        format!("`{tok}`")
    };
    let message = match (expected.is_empty(), label) {
        (false, _) => format!("expected {}, found {found}", expected.join(" or ")),
        (true, Some(l)) => format!("invalid {l} at {found}"),
        (true, None) => format!("unexpected {found}"),
    };
    let offset = offset + (rest.len() - rest.trim_start().len());
    ParseError {
        offset: offset.min(text.len()),
        message,
    }
}

/// Parses a condition.
///
/// # Errors
/// [`ParseError`] with the offset of the first problem.
pub fn parse_condition(text: &str) -> Result<Expr, ParseError> {
    precheck(text)?;
    let input = LocatingSlice::new(text);
    terminated(expr, ws)
        .parse(input)
        .map_err(|e| to_error(text, e))
}

/// Parses a mutation.
///
/// # Errors
/// [`ParseError`] with the offset of the first problem.
pub fn parse_mutation(text: &str) -> Result<Mutation, ParseError> {
    precheck(text)?;
    let input = LocatingSlice::new(text);
    terminated(mutation, ws)
        .parse(input)
        .map_err(|e| to_error(text, e))
}

/// A name with its byte range.
pub type Named = (String, Range<usize>);

/// Parses a function-call action such as `Promote(Queen, Rook)`: the name
/// and the arguments with their byte ranges.
///
/// # Errors
/// [`ParseError`].
pub fn parse_call(text: &str) -> Result<(Named, Vec<Named>), ParseError> {
    precheck(text)?;
    let input = LocatingSlice::new(text);
    let args = delimited::<_, _, Vec<Named>, _, _, _, _, _>(
        (ws, '('),
        separated(
            0..,
            preceded(ws, cut_err(ident_span.context(expected("a name")))),
            (ws, ','),
        ),
        (
            ws,
            cut_err(')'.context(StrContext::Expected(StrContextValue::CharLiteral(')')))),
        ),
    );
    terminated(
        (
            preceded(ws, ident_span.context(expected("an action name"))),
            args,
        ),
        ws,
    )
    .parse(input)
    .map_err(|e| to_error(text, e))
}

fn expected(d: &'static str) -> StrContext {
    StrContext::Expected(StrContextValue::Description(d))
}

fn ws(i: &mut In<'_>) -> ModalResult<()> {
    multispace0.void().parse_next(i)
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn ident<'a>(i: &mut In<'a>) -> ModalResult<&'a str> {
    (one_of(is_ident_start), take_while(0.., is_ident_char))
        .take()
        .parse_next(i)
}

fn ident_span(i: &mut In<'_>) -> ModalResult<(String, Range<usize>)> {
    ident
        .with_span()
        .map(|(s, r)| (s.to_string(), r))
        .parse_next(i)
}

/// A keyword: the word, not followed by an identifier character.
fn keyword<'a>(kw: &'static str) -> impl Parser<In<'a>, (), ErrMode<ContextError>> {
    move |i: &mut In<'a>| {
        let start = i.checkpoint();
        let w = ident.parse_next(i)?;
        if w == kw {
            Ok(())
        } else {
            i.reset(&start);
            Err(ErrMode::Backtrack(ContextError::new()))
        }
    }
}

fn expr(i: &mut In<'_>) -> ModalResult<Expr> {
    or_expr(i)
}

fn fold_binary(first: Expr, rest: Vec<(BinOp, Expr)>) -> Expr {
    rest.into_iter().fold(first, |l, (op, r)| {
        let span = l.span.start..r.span.end;
        Expr {
            kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
            span,
        }
    })
}

fn or_expr(i: &mut In<'_>) -> ModalResult<Expr> {
    let first = and_expr(i)?;
    let rest: Vec<(BinOp, Expr)> = repeat(
        0..,
        preceded(
            (ws, keyword("or")),
            cut_err(and_expr.context(expected("a condition after `or`"))),
        )
        .map(|e| (BinOp::Or, e)),
    )
    .parse_next(i)?;
    Ok(fold_binary(first, rest))
}

fn and_expr(i: &mut In<'_>) -> ModalResult<Expr> {
    let first = cmp_expr(i)?;
    let rest: Vec<(BinOp, Expr)> = repeat(
        0..,
        preceded(
            (ws, keyword("and")),
            cut_err(cmp_expr.context(expected("a condition after `and`"))),
        )
        .map(|e| (BinOp::And, e)),
    )
    .parse_next(i)?;
    Ok(fold_binary(first, rest))
}

fn cmp_op(i: &mut In<'_>) -> ModalResult<CmpOp> {
    preceded(
        ws,
        alt((
            "==".value(CmpOp::Eq),
            "!=".value(CmpOp::Ne),
            "<=".value(CmpOp::Le),
            ">=".value(CmpOp::Ge),
            "<".value(CmpOp::Lt),
            ">".value(CmpOp::Gt),
        )),
    )
    .parse_next(i)
}

fn cmp_expr(i: &mut In<'_>) -> ModalResult<Expr> {
    let l = sum_expr(i)?;
    let Some(op) = opt(cmp_op).parse_next(i)? else {
        return Ok(l);
    };
    let r = cut_err(sum_expr.context(expected("a value to compare with"))).parse_next(i)?;
    let span = l.span.start..r.span.end;
    Ok(Expr {
        kind: ExprKind::Cmp(op, Box::new(l), Box::new(r)),
        span,
    })
}

fn sum_expr(i: &mut In<'_>) -> ModalResult<Expr> {
    let first = unary(i)?;
    let rest: Vec<(BinOp, Expr)> = repeat(
        0..,
        (
            preceded(ws, alt(('+'.value(BinOp::Add), '-'.value(BinOp::Sub)))),
            cut_err(unary.context(expected("a number"))),
        ),
    )
    .parse_next(i)?;
    Ok(fold_binary(first, rest))
}

fn unary(i: &mut In<'_>) -> ModalResult<Expr> {
    ws(i)?;
    let start = i.current_token_start();
    if opt(keyword("not")).parse_next(i)?.is_some() {
        let e = cut_err(unary.context(expected("a condition after `not`"))).parse_next(i)?;
        let span = start..e.span.end;
        return Ok(Expr {
            kind: ExprKind::Not(Box::new(e)),
            span,
        });
    }
    if opt('-').parse_next(i)?.is_some() {
        let e = cut_err(unary.context(expected("a number after `-`"))).parse_next(i)?;
        let span = start..e.span.end;
        return Ok(Expr {
            kind: ExprKind::Neg(Box::new(e)),
            span,
        });
    }
    primary(i)
}

fn number(i: &mut In<'_>) -> ModalResult<Expr> {
    digit1
        .with_span()
        .try_map(|(d, span): (&str, Range<usize>)| {
            d.parse::<i64>().map(|n| Expr {
                kind: ExprKind::Int(n),
                span,
            })
        })
        .parse_next(i)
}

fn args(i: &mut In<'_>) -> ModalResult<Vec<Expr>> {
    delimited(
        '(',
        separated(0.., expr, (ws, ',')),
        (
            ws,
            cut_err(')'.context(StrContext::Expected(StrContextValue::CharLiteral(')')))),
        ),
    )
    .parse_next(i)
}

fn segment(i: &mut In<'_>) -> ModalResult<Segment> {
    let (name, span) = ident_span(i)?;
    let call = opt(args.with_span()).parse_next(i)?;
    let (args, end) = match call {
        Some((a, r)) => (Some(a), r.end),
        None => (None, span.end),
    };
    Ok(Segment {
        name,
        span: span.start..end,
        args,
    })
}

fn path(i: &mut In<'_>) -> ModalResult<Expr> {
    let start = i.current_token_start();
    let dollar = opt('$').parse_next(i)?.is_some();
    let first = if dollar {
        cut_err(segment.context(expected("an accessor name after `$`"))).parse_next(i)?
    } else {
        segment(i)?
    };
    let rest: Vec<Segment> = repeat(
        0..,
        preceded(
            '.',
            cut_err(segment.context(expected("an accessor name after `.`"))),
        ),
    )
    .parse_next(i)?;
    let mut segs = vec![first];
    segs.extend(rest);
    let end = segs.last().map_or(start, |s| s.span.end);
    if !dollar && segs.len() == 1 && segs[0].args.is_none() {
        match segs[0].name.as_str() {
            "true" => {
                return Ok(Expr {
                    kind: ExprKind::Bool(true),
                    span: start..end,
                })
            }
            "false" => {
                return Ok(Expr {
                    kind: ExprKind::Bool(false),
                    span: start..end,
                })
            }
            _ => {}
        }
    }
    Ok(Expr {
        kind: ExprKind::Path {
            dollar,
            segments: segs,
        },
        span: start..end,
    })
}

fn primary(i: &mut In<'_>) -> ModalResult<Expr> {
    ws(i)?;
    alt((
        delimited(
            '(',
            expr,
            (
                ws,
                cut_err(')'.context(StrContext::Expected(StrContextValue::CharLiteral(')')))),
            ),
        ),
        number,
        path,
    ))
    .context(expected(
        "a value (a number, `true`, `false`, a name or an accessor such as `self.has_moved`)",
    ))
    .parse_next(i)
}

fn who(i: &mut In<'_>) -> ModalResult<(Who, Range<usize>)> {
    preceded(
        ws,
        alt((
            keyword("self").value(Who::Own),
            keyword("target").value(Who::Target),
        ))
        .with_span(),
    )
    .context(expected("`self` or `target`"))
    .parse_next(i)
}

fn small_number(i: &mut In<'_>) -> ModalResult<(i64, Range<usize>)> {
    preceded(ws, digit1.with_span())
        .try_map(|(d, r): (&str, Range<usize>)| d.parse::<i64>().map(|n| (n, r)))
        .context(expected("a number of steps"))
        .parse_next(i)
}

fn file_letter(i: &mut In<'_>) -> ModalResult<(u8, Range<usize>)> {
    preceded(ws, one_of('a'..='p').with_span())
        .map(|(c, r): (char, Range<usize>)| (c as u8 - b'a', r))
        .context(expected("a file letter"))
        .parse_next(i)
}

fn mutation(i: &mut In<'_>) -> ModalResult<Mutation> {
    ws(i)?;
    let before = i.checkpoint();
    let (verb, _) = ident_span
        .context(expected("`set`, `destroy` or `move`"))
        .parse_next(i)?;
    match verb.as_str() {
        "set" => {
            let target = cut_err(
                preceded(ws, path)
                    .context(expected("a property such as `self.en_passant_vulnerable`")),
            )
            .parse_next(i)?;
            cut_err(
                preceded(ws, "=")
                    .context(StrContext::Expected(StrContextValue::StringLiteral("="))),
            )
            .parse_next(i)?;
            let value = cut_err(expr.context(expected("a value"))).parse_next(i)?;
            Ok(Mutation::Set { target, value })
        }
        "destroy" => {
            let target =
                cut_err(preceded(ws, path).context(expected("what to destroy"))).parse_next(i)?;
            Ok(Mutation::Destroy { target })
        }
        "move" => {
            let (mover, mover_span) = cut_err(who).parse_next(i)?;
            let to = opt(preceded(ws, keyword("to"))).parse_next(i)?;
            if to.is_some() {
                cut_err(
                    preceded(ws, keyword("file"))
                        .context(StrContext::Expected(StrContextValue::StringLiteral("file"))),
                )
                .parse_next(i)?;
                let (a, ra) = cut_err(file_letter).parse_next(i)?;
                cut_err(
                    preceded(ws, '|')
                        .context(StrContext::Expected(StrContextValue::CharLiteral('|'))),
                )
                .parse_next(i)?;
                let (b, rb) = cut_err(file_letter).parse_next(i)?;
                return Ok(Mutation::MoveToFile {
                    mover,
                    mover_span,
                    files: [a, b],
                    span: ra.start..rb.end,
                });
            }
            let (n, nspan) = cut_err(small_number).parse_next(i)?;
            cut_err(
                preceded(ws, alt((keyword("steps"), keyword("step")))).context(expected("`steps`")),
            )
            .parse_next(i)?;
            let how = cut_err(
                preceded(
                    ws,
                    alt((keyword("toward").value(true), keyword("past").value(false))),
                )
                .context(expected("`toward` or `past`")),
            )
            .parse_next(i)?;
            let (other, other_span) = cut_err(who).parse_next(i)?;
            if how {
                Ok(Mutation::MoveToward {
                    mover,
                    mover_span,
                    steps: n,
                    steps_span: nspan,
                    other,
                    other_span,
                })
            } else {
                cut_err(
                    preceded(ws, keyword("final_position")).context(expected("`final_position`")),
                )
                .parse_next(i)?;
                Ok(Mutation::MovePast {
                    mover,
                    mover_span,
                    steps: n,
                    steps_span: nspan,
                    other,
                    other_span,
                })
            }
        }
        _ => {
            i.reset(&before);
            cut_err(winnow::combinator::fail.context(expected("`set`, `destroy` or `move`")))
                .parse_next(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_spec_conditions() {
        for c in [
            "$target.is_empty or $target.has_enemy",
            "$target.is_empty and $path.is_clear and self.has_moved == false",
            "$target.is_empty and $engine.board.adjacent_enemy.en_passant_vulnerable == true",
            "self.y == $board.final_rank(self.owner)",
            "self.has_moved == false and $engine.state.is_in_check(self.owner) == false",
            "target.has_moved == false and\ntarget.owner == self.owner and\n$path.is_clear(self, target) and\n$engine.state.is_path_safe(self, target) == true\n",
            "not (self.rank >= 8) or -1 < 2 - 3",
        ] {
            parse_condition(c).unwrap_or_else(|e| panic!("{c}: {e:?}"));
        }
    }

    #[test]
    fn precedence_and_spans() {
        let e = parse_condition("a or b and c").unwrap();
        match e.kind {
            ExprKind::Binary(BinOp::Or, _, r) => {
                assert!(matches!(r.kind, ExprKind::Binary(BinOp::And, _, _)))
            }
            k => panic!("{k:?}"),
        }
        let e = parse_condition("  self.x == 3").unwrap();
        assert_eq!(e.span, 2..13);
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = parse_condition("$target.is_empty and").unwrap_err();
        assert_eq!(e.offset, 20);
        assert!(e.message.contains("after `and`"), "{}", e.message);
        let e = parse_condition("self.x == ").unwrap_err();
        assert!(e.message.contains("compare"), "{}", e.message);
        let e = parse_condition("(a").unwrap_err();
        assert!(e.message.contains("`)`"), "{}", e.message);
        assert!(parse_condition(&"(".repeat(100)).is_err());
        assert!(parse_condition("a b").is_err());
    }

    #[test]
    fn mutations() {
        assert!(matches!(
            parse_mutation("set self.en_passant_vulnerable = true"),
            Ok(Mutation::Set { .. })
        ));
        assert!(matches!(
            parse_mutation("destroy $engine.board.adjacent_enemy"),
            Ok(Mutation::Destroy { .. })
        ));
        assert!(matches!(
            parse_mutation("move self 2 steps toward target"),
            Ok(Mutation::MoveToward {
                mover: Who::Own,
                steps: 2,
                other: Who::Target,
                ..
            })
        ));
        assert!(matches!(
            parse_mutation("move target 1 step past self final_position"),
            Ok(Mutation::MovePast {
                mover: Who::Target,
                steps: 1,
                other: Who::Own,
                ..
            })
        ));
        assert!(matches!(
            parse_mutation("move self to file c|g"),
            Ok(Mutation::MoveToFile { files: [2, 6], .. })
        ));
        assert!(parse_mutation("jump self").is_err());
        assert!(parse_mutation("move self 2 hops toward target").is_err());
    }

    #[test]
    fn calls() {
        let ((n, _), a) = parse_call("Promote(Queen, Rook, Bishop, Knight)").unwrap();
        assert_eq!(n, "Promote");
        assert_eq!(
            a.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(),
            ["Queen", "Rook", "Bishop", "Knight"]
        );
        assert_eq!(a[1].1, 15..19);
        assert!(parse_call("Promote(Queen,").is_err());
        assert!(parse_call("Promote").is_err());
    }
}
