//! Diagnostics: what is wrong with a game file, where, and what to do.
//!
//! Every problem found while loading a file becomes one [`Diagnostic`]
//! with a stable code, the file name, a byte span (turned into
//! `line:column`), a label for the snippet and, where a name was
//! misspelt, a suggestion. They implement [`miette::Diagnostic`], so a
//! front end with miette's `fancy` feature renders them graphically;
//! [`Diagnostic::render`] gives a plain rendering with the source snippet.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// A source file: its name and text, shared by the diagnostics about it.
#[derive(Clone, Debug)]
pub struct Source {
    name: Arc<str>,
    text: Arc<str>,
}

/// Text that is not UTF-8: where its first invalid byte is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidUtf8 {
    /// 0-based byte offset of the first invalid byte.
    pub offset: usize,
    /// Its 1-based line.
    pub line: usize,
    /// Its 1-based column, in characters (the valid ones before it, plus
    /// one).
    pub column: usize,
}

impl fmt::Display for InvalidUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not UTF-8 text: invalid byte at offset {} (line {}, column {})",
            self.offset, self.line, self.column
        )
    }
}

impl std::error::Error for InvalidUtf8 {}

/// `bytes` as a string, or the place of the first byte that is not UTF-8
/// (front ends read files as bytes and decode them here, so that every
/// file-reading error has a position).
///
/// # Errors
/// [`InvalidUtf8`] with the byte offset, line and column.
pub fn decode_utf8(bytes: Vec<u8>) -> Result<String, InvalidUtf8> {
    String::from_utf8(bytes).map_err(|e| InvalidUtf8::of(&e))
}

impl InvalidUtf8 {
    /// The place of the error of [`String::from_utf8`].
    pub fn of(e: &std::string::FromUtf8Error) -> InvalidUtf8 {
        let offset = e.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&e.as_bytes()[..offset]).unwrap_or_default();
        let (line, column) = Source::new("", valid).line_col(offset);
        InvalidUtf8 {
            offset,
            line,
            column,
        }
    }
}

impl Source {
    /// A source named `name` (shown in diagnostics) with `text`.
    pub fn new(name: &str, text: &str) -> Source {
        Source {
            name: Arc::from(name),
            text: Arc::from(text),
        }
    }

    /// The file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = clamp_to_char(&self.text, offset);
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }

    /// The byte offset of 1-based `line` and character `column`; the end of
    /// the text when they lie past it.
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let mut off = 0;
        for (i, l) in self.text.split_inclusive('\n').enumerate() {
            if i + 1 == line {
                let col = column.saturating_sub(1);
                let within = l.char_indices().nth(col).map_or(l.len(), |(b, _)| b);
                return off + within;
            }
            off += l.len();
        }
        self.text.len()
    }
}

/// The largest char boundary not after `offset`.
pub(crate) fn clamp_to_char(text: &str, offset: usize) -> usize {
    let mut o = offset.min(text.len());
    while o > 0 && !text.is_char_boundary(o) {
        o -= 1;
    }
    o
}

/// Kinds of problem, each with a stable code (`houserules::<code>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// The file is not YAML, or the YAML breaks the format's shape.
    Syntax,
    /// A key the format does not know.
    UnknownKey,
    /// A required key is missing.
    MissingKey,
    /// A value of the wrong type.
    WrongType,
    /// A value outside what the format allows (a name not in a list, a
    /// number out of range).
    InvalidValue,
    /// Two pieces (or players, or properties) share an id or symbol.
    Duplicate,
    /// A name that refers to nothing (a piece id, a direction).
    UnknownName,
    /// A movement vector that cannot fit on any board of the game's size.
    VectorOffBoard,
    /// A condition or mutation that does not parse.
    ConditionSyntax,
    /// A condition names an accessor or property that does not exist.
    UnknownAccessor,
    /// A condition is ill-typed (`self.has_moved == 3`).
    ConditionType,
    /// The start position does not fit the board or the pieces.
    Setup,
    /// A rule needs a royal piece type and there is none.
    NoRoyal,
    /// The input is larger than the budget allows, or its aliases expand
    /// too far (alias bomb).
    Budget,
    /// Valid in the format, but the engine cannot play it yet.
    EngineUnsupported,
    /// The definition is inconsistent in some other way.
    Invalid,
}

impl Code {
    /// The code's text, such as `houserules::unknown-key`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "houserules::syntax",
            Code::UnknownKey => "houserules::unknown-key",
            Code::MissingKey => "houserules::missing-key",
            Code::WrongType => "houserules::wrong-type",
            Code::InvalidValue => "houserules::invalid-value",
            Code::Duplicate => "houserules::duplicate",
            Code::UnknownName => "houserules::unknown-name",
            Code::VectorOffBoard => "houserules::vector-off-board",
            Code::ConditionSyntax => "houserules::condition-syntax",
            Code::UnknownAccessor => "houserules::unknown-accessor",
            Code::ConditionType => "houserules::condition-type",
            Code::Setup => "houserules::setup",
            Code::NoRoyal => "houserules::no-royal",
            Code::Budget => "houserules::budget",
            Code::EngineUnsupported => "houserules::engine-unsupported",
            Code::Invalid => "houserules::invalid",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem in a game file.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    code: Code,
    message: String,
    label: String,
    help: Option<String>,
    span: Range<usize>,
    source: Source,
}

impl Diagnostic {
    /// A diagnostic about `span` (byte range) of `source`.
    pub(crate) fn new(
        source: &Source,
        code: Code,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let start = clamp_to_char(source.text(), span.start);
        let end = clamp_to_char(source.text(), span.end.max(start));
        Diagnostic {
            code,
            message: message.into(),
            label: String::new(),
            help: None,
            span: start..end,
            source: source.clone(),
        }
    }

    /// Sets the label shown under the snippet.
    pub(crate) fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    /// Sets the help text.
    pub(crate) fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds help text when `help` is `Some`.
    pub(crate) fn maybe_help(mut self, help: Option<String>) -> Diagnostic {
        if help.is_some() {
            self.help = help;
        }
        self
    }

    /// The kind of problem.
    pub fn code(&self) -> Code {
        self.code
    }

    /// What is wrong, in one sentence.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The help text (often a suggestion: "did you mean `Orthogonal`?").
    pub fn help_text(&self) -> Option<&str> {
        self.help.as_deref()
    }

    /// The file name.
    pub fn file(&self) -> &str {
        self.source.name()
    }

    /// The byte range in the file.
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// 1-based line and column of the start of the span.
    pub fn line_col(&self) -> (usize, usize) {
        self.source.line_col(self.span.start)
    }

    /// A plain-text rendering: `file:line:col: error[code]: message`, the
    /// source line with the span underlined, and the help.
    pub fn render(&self) -> String {
        let (line, col) = self.line_col();
        let mut out = format!(
            "{}:{}:{}: error[{}]: {}\n",
            self.file(),
            line,
            col,
            self.code,
            self.message
        );
        let text = self.source.text();
        let start = self.span.start.min(text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line_text = &text[line_start..line_end];
        let gutter = line.to_string();
        let pad = " ".repeat(gutter.len());
        // A long line (a whole file on one line) is cut to a window of
        // EXCERPT_CHARS characters around the caret, `...` marking each cut.
        let (from, to) = excerpt_window(line_text, start - line_start);
        let (cut_before, cut_after) = (from > 0, to < line_text.len());
        out.push_str(&format!(
            "{pad} |\n{gutter} | {}{}{}\n",
            if cut_before { ELLIPSIS } else { "" },
            // Control characters (ESC, BEL, backspace) are shown escaped,
            // so that a source line cannot drive the terminal.
            houserules_engine::echo::escape_controls(&line_text[from..to]),
            if cut_after { ELLIPSIS } else { "" }
        ));
        let mut lead = if cut_before {
            " ".repeat(ELLIPSIS.len())
        } else {
            String::new()
        };
        for c in text[line_start + from..start].chars() {
            if c == '\t' {
                lead.push('\t');
            } else {
                let w = houserules_engine::echo::shown_width(c);
                lead.extend(std::iter::repeat_n(' ', w));
            }
        }
        let end = self.span.end.min(line_start + to).max(start);
        let width = text[start..end]
            .chars()
            .map(houserules_engine::echo::shown_width)
            .sum::<usize>()
            .max(1);
        out.push_str(&format!("{pad} | {lead}{}", "^".repeat(width)));
        if !self.label.is_empty() {
            out.push(' ');
            out.push_str(&self.label);
        }
        out.push('\n');
        if let Some(h) = &self.help {
            out.push_str(&format!("{pad} = help: {h}\n"));
        }
        out
    }
}

/// The most characters of a source line an excerpt shows (lines of
/// ordinary files fit whole).
const EXCERPT_CHARS: usize = 120;

/// How many characters a cut excerpt shows before the caret (the rest is
/// for the span after it).
const EXCERPT_BEFORE: usize = 40;

/// The mark of a cut in an excerpt.
const ELLIPSIS: &str = "...";

/// The byte range of `line` that an excerpt shows: all of it when it has at
/// most [`EXCERPT_CHARS`] characters, else that many characters from
/// [`EXCERPT_BEFORE`] before the caret (byte `caret`), or as near as the
/// line's ends allow.
fn excerpt_window(line: &str, caret: usize) -> (usize, usize) {
    let bounds: Vec<usize> = line
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(line.len()))
        .collect();
    let chars = bounds.len() - 1;
    if chars <= EXCERPT_CHARS {
        return (0, line.len());
    }
    let at = bounds.partition_point(|&b| b < caret);
    let first = at.saturating_sub(EXCERPT_BEFORE).min(chars - EXCERPT_CHARS);
    (bounds[first], bounds[first + EXCERPT_CHARS])
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (line, col) = self.line_col();
        write!(f, "{}:{}:{}: {}", self.file(), line, col, self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code.as_str()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display + 'a>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let label = if self.label.is_empty() {
            None
        } else {
            Some(self.label.clone())
        };
        let span = miette::SourceSpan::from(self.span.start..self.span.end);
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_primary_with_span(label, span),
        )))
    }
}

impl miette::SourceCode for Source {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner =
            self.text
                .as_ref()
                .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// The problems found in one file (never empty when returned as an error).
#[derive(Clone, Debug)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub(crate) fn new(items: Vec<Diagnostic>) -> Diagnostics {
        Diagnostics { items }
    }

    /// The diagnostics, in file order of discovery.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The diagnostics as a slice.
    pub fn as_slice(&self) -> &[Diagnostic] {
        &self.items
    }

    /// Plain renderings of every diagnostic, one after another.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for d in &self.items {
            s.push_str(&d.render());
        }
        s
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.items.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl miette::Diagnostic for Diagnostics {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.items
            .first()
            .and_then(<Diagnostic as miette::Diagnostic>::code)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.items
            .first()
            .and_then(<Diagnostic as miette::Diagnostic>::help)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.items
            .first()
            .and_then(<Diagnostic as miette::Diagnostic>::source_code)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.items
            .first()
            .and_then(<Diagnostic as miette::Diagnostic>::labels)
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        Some(Box::new(
            self.items
                .iter()
                .skip(1)
                .map(|d| d as &dyn miette::Diagnostic),
        ))
    }
}

/// The candidate closest to `name` by edit distance (case-insensitive),
/// when it is close enough to be a plausible misspelling.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_ascii_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = strsim::damerau_levenshtein(&lower, &c.to_ascii_lowercase());
        let limit = (c.chars().count().max(name.chars().count()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// `did you mean `x`?` for [`suggest`], else a list of what is allowed
/// (when short enough).
pub(crate) fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
) -> Option<String> {
    if let Some(s) = suggest(name, candidates.clone()) {
        return Some(format!("did you mean `{s}`?"));
    }
    let all: Vec<&str> = candidates.into_iter().collect();
    if all.is_empty() {
        None
    } else if all.len() <= 16 {
        Some(format!(
            "expected one of: {}",
            all.iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `é` (two bytes) and a line end, then `ab` and the byte 0xFF, which
    /// UTF-8 never uses: offset 2 + 1 + 2 = 5, line 2, column 3 (the
    /// column counts characters, not bytes).
    #[test]
    fn decode_utf8_names_the_first_invalid_byte() {
        let bad = decode_utf8(b"\xc3\xa9\nab\xffc".to_vec()).expect_err("not UTF-8");
        assert_eq!(
            bad,
            InvalidUtf8 {
                offset: 5,
                line: 2,
                column: 3
            }
        );
        assert_eq!(decode_utf8("é\nabc".into()).as_deref(), Ok("é\nabc"));
    }
}
