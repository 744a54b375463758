//! The streaming PGN reader: one game at a time from any [`BufRead`].
//!
//! Memory is bounded by one game: lines are read one by one (each at most
//! [`Reader::max_line_bytes`] long) and a game's stored text is capped by
//! [`Reader::max_game_bytes`].
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`; a UTF-8 byte order mark is
//! skipped at the start of the input and before each game; invalid UTF-8
//! is replaced by U+FFFD.
//!
//! How games are told apart (compatible with python-chess on well-formed
//! files):
//! - blank lines, and `%` escape lines and `;` comment lines (both with
//!   the mark in column 1) before a game or among its tags are skipped; a
//!   game starts at its first other line;
//! - the tag section is the run of lines starting with `[`; one blank line
//!   inside it is allowed; after a blank line, a tag whose name the game
//!   already has, or any tag after two or more blank lines, starts a new
//!   game;
//! - the movetext ends at a blank line (outside a comment), at a line
//!   starting with `[` (outside a comment), or at the end of the input;
//! - a comment left open ends, with an error, at a line starting with
//!   `[Event ` so that the next game is still read.
//!
//! A malformed game gives a [`PgnError::Syntax`] with its line and column;
//! the reader then skips to the end of that game (by the rules above) and
//! reads the next one.

use std::io::{self, BufRead};

use crate::error::PgnError;
use crate::model::{Line, MoveNode, PgnGame, Tag, TextPos};

/// Default cap on one line of input, in bytes.
pub const DEFAULT_MAX_LINE_BYTES: usize = 8 << 20;
/// Default cap on the text of one game, in bytes.
pub const DEFAULT_MAX_GAME_BYTES: usize = 64 << 20;
/// The deepest nesting of variations the reader accepts.
pub const MAX_VARIATION_DEPTH: usize = 128;
/// Default budget of one game's tags, in bytes: each tag counts its name,
/// its value and [`TAG_OVERHEAD`] bytes.
pub const DEFAULT_MAX_TAG_BYTES: usize = 1 << 20;
/// What one tag costs in [`Reader::max_tag_bytes`] besides its text (its
/// share of the memory a stored tag takes).
pub const TAG_OVERHEAD: usize = 64;
/// Default budget of the movetext [`Reader::read_game`] stores for one game
/// (moves, comments, NAGs and variations), in bytes of memory.
pub const DEFAULT_MAX_STORED_BYTES: usize = 32 << 20;

/// The message of input that is not text (a compressed or binary file).
pub const NOT_TEXT: &str = "not a PGN text file (compressed? use zcat)";

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The game termination markers.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Reads PGN games one at a time.
///
/// ```
/// use houserules_pgn::Reader;
/// let text = "[Event \"x\"]\n\n1. e4 e5 {open game} 2. Nf3 (2. f4) 1-0\n";
/// let games: Vec<_> = Reader::new(text.as_bytes()).collect();
/// let game = games[0].as_ref().unwrap();
/// assert_eq!(game.tag("Event"), Some("x"));
/// assert_eq!(game.mainline_sans().collect::<Vec<_>>(), ["e4", "e5", "Nf3"]);
/// assert_eq!(game.result.as_deref(), Some("1-0"));
/// ```
pub struct Reader<R> {
    src: LineSource<R>,
    pending: Option<RawLine>,
    games: usize,
    done: bool,
    limits: Limits,
}

/// The budgets of one game (see the [`Reader`] setters).
#[derive(Clone, Copy)]
struct Limits {
    line_bytes: usize,
    game_bytes: usize,
    tag_bytes: usize,
    stored_bytes: usize,
}

/// Where the mainline moves of a streamed game go
/// ([`Reader::read_game_streaming`]): called with the game's tags (all of
/// them: tags come before the movetext), the move as written and its place.
pub type MoveSink<'a> = &'a mut dyn FnMut(&[Tag], &str, TextPos);

/// What [`Reader::read_game_streaming_with_comments`] passes on of a
/// game's mainline, in text order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Streamed<'a> {
    /// A move as written.
    Move(&'a str),
    /// A comment (`{…}` or `;…`), with whitespace runs collapsed to one
    /// space, as [`crate::MoveNode::comments`] keeps it.
    Comment(&'a str),
}

/// Where the mainline of a streamed game goes
/// ([`Reader::read_game_streaming_with_comments`]): called with the
/// game's tags, the move or comment and its place.
pub type EventSink<'a> = &'a mut dyn FnMut(&[Tag], Streamed<'_>, TextPos);

impl<R: BufRead> Reader<R> {
    /// A reader over `inner` with the default limits.
    pub fn new(inner: R) -> Reader<R> {
        Reader {
            src: LineSource {
                inner,
                line_no: 0,
                buf: Vec::new(),
                max_line: DEFAULT_MAX_LINE_BYTES,
                max_skip: DEFAULT_MAX_GAME_BYTES,
                after_cr: false,
                checked_start: false,
            },
            pending: None,
            games: 0,
            done: false,
            limits: Limits {
                game_bytes: DEFAULT_MAX_GAME_BYTES,
                tag_bytes: DEFAULT_MAX_TAG_BYTES,
                stored_bytes: DEFAULT_MAX_STORED_BYTES,
                line_bytes: DEFAULT_MAX_LINE_BYTES,
            },
        }
    }

    /// Sets the longest line accepted, in bytes (line ending excluded). A
    /// longer line is skipped without being stored and spoils its game.
    pub fn max_line_bytes(mut self, n: usize) -> Reader<R> {
        self.src.max_line = n.max(1);
        self.limits.line_bytes = n.max(1);
        self
    }

    /// Sets the most text one game may have, in bytes. A longer game gives
    /// an error and the rest of it is skipped without being stored; a
    /// single line longer than this ends the stream with a read error (an
    /// endless line such as `/dev/zero` gives).
    pub fn max_game_bytes(mut self, n: usize) -> Reader<R> {
        self.limits.game_bytes = n;
        self.src.max_skip = n;
        self
    }

    /// Sets the budget of one game's tags, in bytes (each tag counts its
    /// name, value and [`TAG_OVERHEAD`]). A game over it gives an error at
    /// the first tag past the budget and the rest of it is skipped without
    /// being stored.
    pub fn max_tag_bytes(mut self, n: usize) -> Reader<R> {
        self.limits.tag_bytes = n;
        self
    }

    /// Sets the budget of the movetext [`Reader::read_game`] stores for one
    /// game (moves, comments, NAGs, variations), in bytes of memory. A game
    /// over it gives an error at the token past the budget. Streaming
    /// ([`Reader::read_game_streaming`]) stores no movetext.
    pub fn max_stored_bytes(mut self, n: usize) -> Reader<R> {
        self.limits.stored_bytes = n;
        self
    }

    /// How many games have been started so far (good or bad). Right after
    /// [`Reader::read_game`] returns a game or a syntax error, this is that
    /// game's 1-based number.
    pub fn games_started(&self) -> usize {
        self.games
    }

    /// Reads the next game: `None` at the end of the input, else the game or
    /// the error that spoiled it.
    pub fn read_game(&mut self) -> Option<Result<PgnGame, PgnError>> {
        self.read(None)
    }

    /// Reads the next game without storing its movetext: each mainline
    /// move goes to `sink` as it is read (with the game's tags), and
    /// variations, comments and NAGs are checked for syntax but dropped.
    /// The game returned has its tags and result and an empty mainline;
    /// memory stays bounded by the tag budget, whatever the game's length.
    ///
    /// On a syntax error, the moves before it have gone to `sink` (so a
    /// caller replaying them knows the position where the error is).
    pub fn read_game_streaming(&mut self, sink: MoveSink<'_>) -> Option<Result<PgnGame, PgnError>> {
        self.read(Some(&mut |tags, item, pos| {
            if let Streamed::Move(m) = item {
                sink(tags, m, pos);
            }
        }))
    }

    /// [`Reader::read_game_streaming`] that also passes on the mainline's
    /// comments (houserules' `[%hr …]` commands are read from them, issue
    /// 26), each when its closing `}` (or the end of its `;` line) is read.
    pub fn read_game_streaming_with_comments(
        &mut self,
        sink: EventSink<'_>,
    ) -> Option<Result<PgnGame, PgnError>> {
        self.read(Some(sink))
    }

    fn read(&mut self, mut sink: Option<EventSink<'_>>) -> Option<Result<PgnGame, PgnError>> {
        if self.done {
            return None;
        }
        let mut builder: Option<Builder> = None;
        loop {
            let mut line = match self.pending.take() {
                Some(l) => l,
                None => match self.src.next_line() {
                    Ok(Some(l)) => l,
                    Ok(None) => {
                        self.done = true;
                        return builder.map(Builder::finish);
                    }
                    Err(source) => {
                        self.done = true;
                        if source.kind() == io::ErrorKind::InvalidData
                            && source.to_string() == NOT_TEXT
                        {
                            return Some(Err(PgnError::NotText));
                        }
                        let game = if builder.is_some() {
                            self.games
                        } else {
                            self.games + 1
                        };
                        return Some(Err(PgnError::Io {
                            game,
                            line: self.src.line_no + 1,
                            source,
                        }));
                    }
                },
            };
            match builder.as_mut() {
                None => {
                    // A byte order mark before a game is skipped, as
                    // python-chess does (it turns up in the middle of
                    // concatenated files).
                    if let Some(rest) = line.text.strip_prefix('\u{feff}') {
                        line.text = rest.to_string();
                    }
                    if !line.too_long {
                        let t = line.text.trim();
                        if t.is_empty() || line.text.starts_with('%') || line.text.starts_with(';')
                        {
                            continue;
                        }
                    }
                    self.games += 1;
                    let mut b = Builder::new(
                        self.games,
                        TextPos {
                            line: line.no,
                            column: 1,
                        },
                        self.limits,
                        sink.is_some(),
                    );
                    match b.feed(&line, &mut sink) {
                        Feed::More => builder = Some(b),
                        // The first line of a game cannot belong to the next
                        // one; ending here keeps the reader moving forward.
                        Feed::End | Feed::EndBefore => return Some(b.finish()),
                    }
                }
                Some(b) => match b.feed(&line, &mut sink) {
                    Feed::More => {}
                    Feed::End => return builder.map(Builder::finish),
                    Feed::EndBefore => {
                        self.pending = Some(line);
                        return builder.map(Builder::finish);
                    }
                },
            }
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_game()
    }
}

/// How many bytes of an over-long line are kept (to see how it starts).
const TOO_LONG_PREFIX: usize = 64;

/// One line of input, decoded (invalid UTF-8 replaced), without its line
/// ending; of an over-long line, only its first [`TOO_LONG_PREFIX`] bytes.
struct RawLine {
    no: u64,
    text: String,
    too_long: bool,
}

struct LineSource<R> {
    inner: R,
    line_no: u64,
    buf: Vec<u8>,
    max_line: usize,
    /// The most bytes of one over-long line skipped before the stream is
    /// given up (the game size cap).
    max_skip: usize,
    /// The last line ended with `\r`: a `\n` right after it is part of
    /// that line ending.
    after_cr: bool,
    /// The start of the input was checked for binary data.
    checked_start: bool,
}

/// Whether `head`, the first bytes of an input, are not text: the magic
/// number of a compressed file (gzip, bzip2, xz, zstd, zip) or a NUL byte.
fn looks_binary(head: &[u8]) -> bool {
    const MAGIC: [&[u8]; 5] = [
        b"\x1f\x8b",
        b"BZh91AY&SY",
        b"\xfd7zXZ\x00",
        b"\x28\xb5\x2f\xfd",
        b"PK\x03\x04",
    ];
    MAGIC.iter().any(|m| head.starts_with(m)) || head.iter().take(4096).any(|&b| b == 0)
}

impl<R: BufRead> LineSource<R> {
    /// The next line; `\n`, `\r\n` and a lone `\r` all end a line (as in
    /// Python's universal newlines).
    fn next_line(&mut self) -> io::Result<Option<RawLine>> {
        self.buf.clear();
        let mut too_long = false;
        let mut skipped = 0usize;
        let mut any = false;
        loop {
            let avail = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                break;
            }
            if !self.checked_start {
                self.checked_start = true;
                // Compressed or binary data would read as one garbage game
                // per stray line break: refuse it up front.
                if looks_binary(avail) {
                    return Err(io::Error::new(io::ErrorKind::InvalidData, NOT_TEXT));
                }
            }
            if self.after_cr {
                // The `\n` of a `\r\n` whose `\r` ended the previous line.
                self.after_cr = false;
                if avail[0] == b'\n' {
                    self.inner.consume(1);
                    continue;
                }
            }
            any = true;
            let (take, end) = match avail.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    self.after_cr = avail[i] == b'\r';
                    (i, Some(i + 1))
                }
                None => (avail.len(), None),
            };
            if too_long {
                skipped = skipped.saturating_add(take);
                if skipped > self.max_skip {
                    // An endless line (`/dev/zero`, a binary file) would
                    // keep the reader busy forever: stop the stream.
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "a line longer than {} bytes (not PGN text?); reading stopped",
                            self.max_skip
                        ),
                    ));
                }
            } else {
                if self.buf.len() + take > self.max_line {
                    too_long = true;
                    // Keep a short prefix: how the line starts (`[`, a
                    // comment) still tells which part of a game it is in.
                    let keep = TOO_LONG_PREFIX.saturating_sub(self.buf.len()).min(take);
                    self.buf.extend_from_slice(&avail[..keep]);
                    self.buf.truncate(TOO_LONG_PREFIX);
                } else {
                    self.buf.extend_from_slice(&avail[..take]);
                }
            }
            self.inner.consume(end.unwrap_or(take));
            if end.is_some() {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line_no += 1;
        let mut bytes = &self.buf[..];
        if self.line_no == 1 && bytes.starts_with(BOM) {
            bytes = &bytes[BOM.len()..];
        }
        // PGN Standard 2.1: the character set is ISO 8859-1. A line that
        // is not UTF-8 is read as Latin-1 (every byte one character), so
        // old files keep `Müller` rather than U+FFFD replacement marks
        // (regression: session-6 trial).
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t.to_owned(),
            Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
        };
        Ok(Some(RawLine {
            no: self.line_no,
            text,
            too_long,
        }))
    }
}

/// What the reader does after a line was fed to the game being built.
enum Feed {
    /// The game goes on.
    More,
    /// The game ended with this line (a blank line).
    End,
    /// The game ended before this line; the line starts the next game.
    EndBefore,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Tags,
    Movetext,
}

/// A cursor over one line that counts columns in characters.
#[derive(Clone)]
struct Scan<'a> {
    s: &'a str,
    i: usize,
    col: u64,
}

impl<'a> Scan<'a> {
    /// A cursor at byte `i` of `s` (a character boundary).
    fn at(s: &'a str, i: usize) -> Scan<'a> {
        let i = i.min(s.len());
        let col = s.get(..i).map_or(0, |p| p.chars().count()) as u64 + 1;
        Scan { s, i, col }
    }
    fn peek(&self) -> Option<char> {
        self.s.get(self.i..).and_then(|r| r.chars().next())
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += c.len_utf8();
        self.col += 1;
        Some(c)
    }
    fn rest(&self) -> &'a str {
        self.s.get(self.i..).unwrap_or("")
    }
    fn skip_while(&mut self, f: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&f) {
            self.bump();
        }
    }
    /// Moves forward by `n` bytes of the rest (a character boundary).
    fn advance_bytes(&mut self, n: usize) {
        let end = (self.i + n).min(self.s.len());
        while self.i < end {
            if self.bump().is_none() {
                break;
            }
        }
    }
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';' | '$' | ',' | '[' | ']')
}

fn is_tag_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '#' | '=' | ':' | '-')
}

/// The NAG of a glyph written as symbols (`!`, `?!`, `+-`, ...).
pub fn glyph_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        "□" => 7,
        "=" => 10,
        "∞" => 13,
        "+/=" | "⩲" => 14,
        "=/+" | "⩱" => 15,
        "+/-" | "±" => 16,
        "-/+" | "∓" => 17,
        "+-" => 18,
        "-+" => 19,
        _ => return None,
    })
}

/// Whether `s` has the shape of a move token (SAN, UCI, a drop or a null
/// move; not digits alone, which would read back as a move number);
/// whether it is legal is for the replay to say.
fn looks_like_move(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    s.len() <= 16
        && !s.bytes().all(|b| b.is_ascii_digit())
        && (first.is_ascii_alphanumeric() || first == '@' || first == '-')
        && s.chars().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '=' | '+' | '#' | '-' | ':' | '@' | '/')
        })
}

/// A bad token as shown in an error message: at most 40 characters
/// (then `…`), control characters escaped, so that a megabyte of garbage
/// or binary input gives a readable one-line message.
fn excerpt(tok: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = tok
        .chars()
        .take(MAX)
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if tok.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

/// Collapses runs of whitespace to one space and trims the ends.
fn normalise_comment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// Reads the tag pairs of one line. Errors carry a 1-based column.
fn parse_tag_line(no: u64, text: &str) -> Result<Vec<Tag>, (u64, String)> {
    let mut sc = Scan::at(text, 0);
    let mut out = Vec::new();
    loop {
        sc.skip_while(char::is_whitespace);
        match sc.peek() {
            None | Some(';') => break,
            Some('[') => {}
            Some(c) => {
                return Err((
                    sc.col,
                    format!(
                        "unexpected `{}` after a tag pair (expected `[` or the end of the line)",
                        c.escape_default()
                    ),
                ))
            }
        }
        let open_pos = TextPos {
            line: no,
            column: sc.col,
        };
        sc.bump();
        sc.skip_while(char::is_whitespace);
        let name_start = sc.i;
        sc.skip_while(is_tag_name_char);
        let name = &text[name_start..sc.i];
        if name.is_empty() {
            return Err((
                sc.col,
                "expected a tag name (letters, digits, `_+#=:-`) after `[`".into(),
            ));
        }
        sc.skip_while(char::is_whitespace);
        if sc.peek() != Some('"') {
            return Err((
                sc.col,
                format!("expected `\"` to open the value of tag {name}"),
            ));
        }
        let open = sc.col;
        sc.bump();
        let mut value = String::new();
        loop {
            match sc.bump() {
                None => {
                    return Err((
                        open,
                        format!("the value of tag {name} is not closed (missing `\"]`)"),
                    ))
                }
                Some('\\') => match sc.peek() {
                    Some(c @ ('"' | '\\')) => {
                        sc.bump();
                        value.push(c);
                    }
                    _ => value.push('\\'),
                },
                Some('"') => {
                    // A quote closes the value only when `]` follows;
                    // otherwise it is a literal (unescaped) quote.
                    let save = sc.clone();
                    sc.skip_while(char::is_whitespace);
                    if sc.peek() == Some(']') {
                        sc.bump();
                        break;
                    }
                    sc = save;
                    value.push('"');
                }
                Some(c) => value.push(c),
            }
        }
        out.push(Tag {
            name: name.to_string(),
            value,
            pos: Some(open_pos),
        });
    }
    Ok(out)
}

/// An open line of the game being read: the mainline or a variation.
struct Open {
    /// Its content (empty while streaming).
    line: Line,
    /// Where its `(` is (the game's start for the mainline).
    pos: TextPos,
    /// Whether a move was read in it (a `(` needs one to replace).
    moved: bool,
}

impl Open {
    fn new(pos: TextPos) -> Open {
        Open {
            line: Line::default(),
            pos,
            moved: false,
        }
    }
}

/// The game being read.
struct Builder {
    game_no: usize,
    start: TextPos,
    phase: Phase,
    blank_run: usize,
    tags: Vec<Tag>,
    /// The open lines: `[0]` is the mainline, then each open variation.
    stack: Vec<Open>,
    /// An open `{` comment: where it starts and its text so far.
    comment: Option<(TextPos, String)>,
    result: Option<String>,
    error: Option<(TextPos, String)>,
    bytes: usize,
    tag_bytes: usize,
    stored_bytes: usize,
    limits: Limits,
    /// Mainline moves go to a sink and nothing of the movetext is stored.
    streaming: bool,
}

impl Builder {
    fn new(game_no: usize, start: TextPos, limits: Limits, streaming: bool) -> Builder {
        Builder {
            game_no,
            start,
            phase: Phase::Tags,
            blank_run: 0,
            tags: Vec::new(),
            stack: vec![Open::new(start)],
            comment: None,
            result: None,
            error: None,
            bytes: 0,
            tag_bytes: 0,
            stored_bytes: 0,
            limits,
            streaming,
        }
    }

    /// Whether the text of an open comment is kept: when the movetext is
    /// kept, or when streaming the mainline (its comments go to the sink).
    fn collecting_comment(&self) -> bool {
        self.keeping() || (self.streaming && self.storing() && self.stack.len() <= 1)
    }

    fn storing(&self) -> bool {
        self.error.is_none()
    }

    /// Whether movetext is kept (not streaming, no error yet).
    fn keeping(&self) -> bool {
        self.storing() && !self.streaming
    }

    /// Records the first error; the rest of the game is skipped.
    fn fail(&mut self, pos: TextPos, message: impl Into<String>) {
        if self.error.is_none() {
            self.error = Some((pos, message.into()));
            // Free what was stored: the game is lost anyway.
            self.stack = vec![Open::new(self.start)];
            if let Some((_, text)) = self.comment.as_mut() {
                *text = String::new();
            }
        }
    }

    /// Counts `cost` bytes of stored movetext; past the budget the game
    /// fails at `pos`. Returns whether the game is still stored.
    fn store(&mut self, pos: TextPos, cost: usize) -> bool {
        if !self.keeping() {
            return false;
        }
        self.stored_bytes = self.stored_bytes.saturating_add(cost);
        if self.stored_bytes > self.limits.stored_bytes {
            self.fail(
                pos,
                format!(
                    "the game's moves, comments and variations take more than the reader's \
                     budget of {} bytes; the rest of the game is skipped",
                    self.limits.stored_bytes
                ),
            );
            return false;
        }
        true
    }

    fn finish(mut self) -> Result<PgnGame, PgnError> {
        if let Some((pos, _)) = self.comment.take() {
            self.fail(pos, "comment `{` is not closed (missing `}`)");
        }
        if self.stack.len() > 1 {
            let pos = self.stack.last().map_or(self.start, |o| o.pos);
            self.fail(pos, "variation `(` is not closed (missing `)`)");
        }
        if let Some((pos, message)) = self.error {
            return Err(PgnError::Syntax {
                game: self.game_no,
                pos,
                message,
            });
        }
        let mainline = self
            .stack
            .into_iter()
            .next()
            .map(|o| o.line)
            .unwrap_or_default();
        Ok(PgnGame {
            tags: self.tags,
            mainline,
            result: self.result,
            start: self.start,
        })
    }

    fn feed(&mut self, line: &RawLine, sink: &mut Option<EventSink<'_>>) -> Feed {
        self.bytes = self.bytes.saturating_add(line.text.len() + 1);
        if self.bytes > self.limits.game_bytes {
            self.fail(
                TextPos {
                    line: line.no,
                    column: 1,
                },
                format!("the game is longer than {} bytes", self.limits.game_bytes),
            );
        }
        if line.too_long {
            self.fail(
                TextPos {
                    line: line.no,
                    column: 1,
                },
                format!(
                    "line too long (over the reader's limit of {} bytes)",
                    self.limits.line_bytes
                ),
            );
            // A tag line stays in the tag section, so that the tags after
            // it still belong to this game.
            if self.comment.is_none() && !(self.phase == Phase::Tags && line.text.starts_with('['))
            {
                self.phase = Phase::Movetext;
            }
            return Feed::More;
        }
        let text = line.text.as_str();
        let mut start = 0;
        if let Some((pos, mut body)) = self.comment.take() {
            if text.starts_with("[Event ") {
                self.fail(
                    pos,
                    "comment `{` is not closed before the next game's [Event tag",
                );
                return Feed::EndBefore;
            }
            match text.find('}') {
                None => {
                    if self.collecting_comment() {
                        body.push('\n');
                        body.push_str(text);
                    }
                    self.comment = Some((pos, body));
                    return Feed::More;
                }
                Some(i) => {
                    if self.collecting_comment() {
                        body.push('\n');
                        body.push_str(&text[..i]);
                    }
                    self.add_comment(pos, &body, sink);
                    start = i + 1;
                }
            }
        } else {
            if text.starts_with('%') {
                return Feed::More;
            }
            let trimmed = text.trim();
            if trimmed.is_empty() {
                if self.phase == Phase::Tags {
                    self.blank_run += 1;
                    return Feed::More;
                }
                return Feed::End;
            }
            if trimmed.starts_with('[') {
                if self.phase == Phase::Movetext {
                    return Feed::EndBefore;
                }
                return self.tag_line(line.no, text);
            }
            if self.phase == Phase::Tags && text.starts_with(';') {
                return Feed::More;
            }
            self.phase = Phase::Movetext;
        }
        self.movetext(line.no, text, start, sink);
        Feed::More
    }

    fn tag_line(&mut self, no: u64, text: &str) -> Feed {
        let parsed = parse_tag_line(no, text);
        if self.blank_run > 0 {
            let repeated = match &parsed {
                Ok(tags) => tags
                    .iter()
                    .any(|t| self.tags.iter().any(|o| o.name == t.name)),
                Err(_) => false,
            };
            if self.blank_run >= 2 || repeated {
                return Feed::EndBefore;
            }
        }
        self.blank_run = 0;
        match parsed {
            Ok(tags) => {
                for tag in tags {
                    if !self.storing() {
                        break;
                    }
                    self.tag_bytes = self
                        .tag_bytes
                        .saturating_add(tag.name.len() + tag.value.len() + TAG_OVERHEAD);
                    if self.tag_bytes > self.limits.tag_bytes {
                        let pos = tag.pos.unwrap_or(TextPos {
                            line: no,
                            column: 1,
                        });
                        let msg = format!(
                            "the tags take more than the reader's budget of {} bytes (at tag {}); \
                             the rest of the game is skipped",
                            self.limits.tag_bytes,
                            excerpt(&tag.name)
                        );
                        self.tags = Vec::new();
                        self.fail(pos, msg);
                        break;
                    }
                    self.tags.push(tag);
                }
            }
            Err((column, message)) => self.fail(TextPos { line: no, column }, message),
        }
        Feed::More
    }

    fn movetext(&mut self, no: u64, text: &str, start: usize, sink: &mut Option<EventSink<'_>>) {
        let mut sc = Scan::at(text, start);
        loop {
            sc.skip_while(|c| c.is_whitespace() || c == ',');
            let pos = TextPos {
                line: no,
                column: sc.col,
            };
            let Some(c) = sc.peek() else { break };
            match c {
                '{' => {
                    sc.bump();
                    let rest = sc.rest();
                    match rest.find('}') {
                        Some(j) => {
                            self.add_comment(pos, &rest[..j], sink);
                            sc.advance_bytes(j + 1);
                        }
                        None => {
                            let body = if self.collecting_comment() {
                                rest.to_string()
                            } else {
                                String::new()
                            };
                            self.comment = Some((pos, body));
                            return;
                        }
                    }
                }
                '}' => {
                    sc.bump();
                    self.fail(pos, "`}` without an opening `{`");
                }
                ';' => {
                    sc.bump();
                    self.add_comment(pos, sc.rest(), sink);
                    return;
                }
                '(' => {
                    sc.bump();
                    self.open_variation(pos);
                }
                ')' => {
                    sc.bump();
                    self.close_variation(pos);
                }
                '$' => {
                    sc.bump();
                    let digits_start = sc.i;
                    sc.skip_while(|c| c.is_ascii_digit());
                    let digits = &text[digits_start..sc.i];
                    if digits.is_empty() {
                        self.fail(pos, "`$` must be followed by a number (a NAG such as $1)");
                    } else {
                        match digits.parse::<u8>() {
                            Ok(n) => self.add_nag(n),
                            Err(_) => {
                                self.fail(pos, format!("NAG ${digits} is out of range (0 to 255)"))
                            }
                        }
                    }
                }
                '[' | ']' => {
                    sc.bump();
                    self.fail(
                        pos,
                        format!(
                            "unexpected `{}` in movetext (tags belong before the moves)",
                            c.escape_default()
                        ),
                    );
                }
                _ => {
                    let s = sc.i;
                    sc.skip_while(|c| !is_delimiter(c));
                    let tok = &text[s..sc.i];
                    self.symbol(pos, tok, sink);
                }
            }
        }
    }

    /// A token that is a move number, a move, a glyph or a result.
    fn symbol(&mut self, pos: TextPos, tok: &str, sink: &mut Option<EventSink<'_>>) {
        if RESULTS.contains(&tok) {
            self.add_result(pos, tok);
            return;
        }
        let digits = tok.bytes().take_while(u8::is_ascii_digit).count();
        if digits == tok.len() {
            return; // A move number without a dot.
        }
        let mut rest = tok;
        if digits > 0 && tok.as_bytes()[digits] == b'.' {
            rest = &tok[digits..];
        }
        let rest = rest.trim_start_matches('.');
        if rest.bytes().all(|b| b.is_ascii_digit()) {
            return; // `12.`, `12...`, `...` or `1.2`: move numbers only.
        }
        if RESULTS.contains(&rest) {
            self.add_result(pos, rest);
            return;
        }
        if let Some(n) = glyph_nag(rest) {
            self.add_nag(n);
            return;
        }
        if rest == "e.p." {
            return;
        }
        let body_len = rest.trim_end_matches(['!', '?']).len();
        let (mv, suffix) = rest.split_at(body_len);
        let nag = if suffix.is_empty() {
            None
        } else if let Some(n) = glyph_nag(suffix) {
            Some(n)
        } else {
            self.fail(
                pos,
                format!(
                    "unknown annotation `{}` after `{}`",
                    excerpt(suffix),
                    excerpt(mv)
                ),
            );
            return;
        };
        if !looks_like_move(mv) || RESULTS.contains(&mv) {
            self.fail(
                pos,
                format!(
                    "`{}` is not a move, move number, annotation or result",
                    excerpt(tok)
                ),
            );
            return;
        }
        // The prefix (digits and dots) is ASCII: bytes are columns.
        let mpos = TextPos {
            line: pos.line,
            column: pos.column + (tok.len() - rest.len()) as u64,
        };
        self.add_move(mpos, mv, nag, sink);
    }

    fn current(&mut self) -> &mut Open {
        // The stack always holds the mainline.
        if self.stack.is_empty() {
            self.stack.push(Open::new(self.start));
        }
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    fn add_move(
        &mut self,
        pos: TextPos,
        san: &str,
        nag: Option<u8>,
        sink: &mut Option<EventSink<'_>>,
    ) {
        if !self.storing() {
            return;
        }
        if self.stack.len() == 1 {
            if let Some(r) = &self.result {
                let msg = format!("move `{san}` after the result {r}");
                self.fail(pos, msg);
                return;
            }
        }
        self.current().moved = true;
        if self.streaming {
            if self.stack.len() == 1 {
                if let Some(f) = sink.as_mut() {
                    f(&self.tags, Streamed::Move(san), pos);
                }
            }
            return;
        }
        if !self.store(pos, std::mem::size_of::<MoveNode>() + san.len()) {
            return;
        }
        let node = MoveNode {
            san: san.to_string(),
            pos,
            nags: nag.into_iter().collect(),
            ..MoveNode::default()
        };
        self.current().line.moves.push(node);
    }

    fn add_nag(&mut self, n: u8) {
        if !self.keeping() {
            return;
        }
        let line = &mut self.current().line;
        match line.moves.last_mut() {
            Some(m) => m.nags.push(n),
            None => line.nags.push(n),
        }
    }

    fn add_comment(&mut self, pos: TextPos, body: &str, sink: &mut Option<EventSink<'_>>) {
        if self.streaming {
            if self.storing() && self.stack.len() <= 1 {
                if let Some(f) = sink.as_mut() {
                    f(&self.tags, Streamed::Comment(&normalise_comment(body)), pos);
                }
            }
            return;
        }
        if !self.keeping() {
            return;
        }
        let text = normalise_comment(body);
        if !self.store(pos, std::mem::size_of::<String>() + text.len()) {
            return;
        }
        let line = &mut self.current().line;
        match line.moves.last_mut() {
            Some(m) => m.comments.push(text),
            None => line.comments.push(text),
        }
    }

    fn open_variation(&mut self, pos: TextPos) {
        if !self.storing() {
            return;
        }
        if self.stack.len() > MAX_VARIATION_DEPTH {
            self.fail(
                pos,
                format!("variations nested deeper than {MAX_VARIATION_DEPTH}"),
            );
            return;
        }
        if !self.current().moved {
            self.fail(pos, "variation `(` before any move it could replace");
            return;
        }
        if !self.streaming && !self.store(pos, std::mem::size_of::<Line>()) {
            return;
        }
        self.stack.push(Open::new(pos));
    }

    fn close_variation(&mut self, pos: TextPos) {
        if !self.storing() {
            return;
        }
        if self.stack.len() <= 1 {
            self.fail(pos, "`)` without an opening `(`");
            return;
        }
        if let Some(open) = self.stack.pop() {
            if self.streaming {
                return;
            }
            match self.current().line.moves.last_mut() {
                Some(m) => m.variations.push(open.line),
                None => self.fail(pos, "variation `(` before any move it could replace"),
            }
        }
    }

    fn add_result(&mut self, pos: TextPos, tok: &str) {
        if !self.storing() || self.stack.len() > 1 {
            // A result inside a variation is ignored.
            return;
        }
        if let Some(r) = &self.result {
            let msg = format!(
                "second result `{}` (the game already ended with {r})",
                excerpt(tok)
            );
            self.fail(pos, msg);
            return;
        }
        self.result = Some(tok.to_string());
    }
}
