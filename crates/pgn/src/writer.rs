//! The PGN writer: export-style tags and movetext wrapped at 80 columns.

use std::io;

use crate::model::{Line, PgnGame, Tag};

/// The Seven Tag Roster, in the order PGN writes it.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The widest line the writer produces (a single word longer than this,
/// such as a long URL in a comment, stays on a line of its own).
pub const LINE_WIDTH: usize = 80;

/// Writes `game` as PGN text: the tags (the Seven Tag Roster first, in
/// its order, then the others as they were), a blank line, the movetext
/// with move numbers, comments, NAGs (as `$n`) and variations, the result,
/// and a blank line after the game.
///
/// Only the tags the game has are written. The termination marker is the
/// game's result, or `*` when it has none, so that every written game
/// reads back as one game. A `}` inside a comment (which PGN cannot hold)
/// is written as a `;` comment; a line break inside a tag value as a space.
/// A NUL character is written as U+FFFD: readers (ours and `file`-style
/// checks) take a NUL near the start of a file for binary data, so a
/// written game must never hold one.
pub fn write_pgn(game: &PgnGame) -> String {
    let mut out = String::new();
    for tag in ordered_tags(&game.tags) {
        out.push('[');
        out.push_str(&tag.name);
        out.push_str(" \"");
        for c in tag.value.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' | '\r' => out.push(' '),
                c => out.push(c),
            }
        }
        out.push_str("\"]\n");
    }
    if !game.tags.is_empty() {
        out.push('\n');
    }
    let (black_first, fullmove) = start_of(game);
    let mut words = Vec::new();
    line_words(
        &game.mainline,
        usize::from(black_first),
        fullmove,
        &mut words,
    );
    words.push(Word::plain(game.result.as_deref().unwrap_or("*")));
    wrap(&words, &mut out);
    out.push_str("\n\n");
    if out.contains('\0') {
        // Regression (fuzz target pgn_format): a NUL in a comment of a
        // game after the first 4 KiB of its file was read, written near
        // the start of the output, and the output was refused as binary.
        out = out.replace('\0', "\u{fffd}");
    }
    out
}

/// Writes `game` as PGN (see [`write_pgn`]) to `out`.
///
/// # Errors
/// Those of `out`.
pub fn write_game<W: io::Write + ?Sized>(out: &mut W, game: &PgnGame) -> io::Result<()> {
    out.write_all(write_pgn(game).as_bytes())
}

/// The tags in export order: the Seven Tag Roster first (the first tag of
/// each name), then every other tag in its original order.
pub fn ordered_tags(tags: &[Tag]) -> Vec<&Tag> {
    let mut used = vec![false; tags.len()];
    let mut out = Vec::with_capacity(tags.len());
    for name in SEVEN_TAG_ROSTER {
        if let Some(i) = tags.iter().position(|t| t.name == name) {
            used[i] = true;
            out.push(&tags[i]);
        }
    }
    for (i, t) in tags.iter().enumerate() {
        if !used[i] {
            out.push(t);
        }
    }
    out
}

/// Whether Black moves first and the first full-move number, from the
/// `FEN` tag (White and 1 without one, or when it cannot be read).
fn start_of(game: &PgnGame) -> (bool, u64) {
    let Some(fen) = game.tag("FEN") else {
        return (false, 1);
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let black = fields.get(1).is_some_and(|s| s.eq_ignore_ascii_case("b"));
    let fullmove = fields
        .get(5)
        .and_then(|s| s.parse::<u64>().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(1);
    (black, fullmove)
}

/// One unit of movetext for [`wrap`].
struct Word {
    text: String,
    /// A `;` comment: it runs to the end of its line.
    line_comment: bool,
}

impl Word {
    fn plain(text: impl Into<String>) -> Word {
        Word {
            text: text.into(),
            line_comment: false,
        }
    }
}

/// Comment words: `{first`, ..., `last}`, or `{}` when empty. A comment
/// holding `}` cannot be a brace comment: it becomes one `;` word, which
/// [`wrap`] ends the line after.
fn comment_words(text: &str, words: &mut Vec<Word>) {
    if text.contains('}') {
        let one_line: Vec<&str> = text.split_whitespace().collect();
        words.push(Word {
            text: format!(";{}", one_line.join(" ")),
            line_comment: true,
        });
        return;
    }
    let parts: Vec<&str> = text.split_whitespace().collect();
    match parts.as_slice() {
        [] => words.push(Word::plain("{}")),
        [only] => words.push(Word::plain(format!("{{{only}}}"))),
        [first, middle @ .., last] => {
            words.push(Word::plain(format!("{{{first}")));
            words.extend(middle.iter().map(|w| Word::plain(*w)));
            words.push(Word::plain(format!("{last}}}")));
        }
    }
}

/// The words of `line`, whose first move is at `ply` (0 = White's first
/// move of full-move `fullmove`).
fn line_words(line: &Line, ply: usize, fullmove: u64, words: &mut Vec<Word>) {
    for c in &line.comments {
        comment_words(c, words);
    }
    for n in &line.nags {
        words.push(Word::plain(format!("${n}")));
    }
    let mut need_number = true;
    for (i, m) in line.moves.iter().enumerate() {
        let p = ply + i;
        let number = fullmove.saturating_add((p / 2) as u64);
        if p.is_multiple_of(2) {
            words.push(Word::plain(format!("{number}. {}", m.san)));
        } else if need_number {
            words.push(Word::plain(format!("{number}... {}", m.san)));
        } else {
            words.push(Word::plain(m.san.clone()));
        }
        for n in &m.nags {
            words.push(Word::plain(format!("${n}")));
        }
        for c in &m.comments {
            comment_words(c, words);
        }
        for v in &m.variations {
            let start = words.len();
            line_words(v, p, fullmove, words);
            if words.len() == start {
                words.push(Word::plain("()"));
            } else {
                words[start].text.insert(0, '(');
                match words.last_mut() {
                    Some(last) if !last.line_comment => last.text.push(')'),
                    _ => words.push(Word::plain(")")),
                }
            }
        }
        need_number = !m.comments.is_empty() || !m.variations.is_empty();
    }
}

/// Joins `words` with spaces, breaking lines before [`LINE_WIDTH`]. A word
/// that starts with `[Event` (inside a comment) is never put at the start
/// of a line, where a reader could take it for the next game. A `;`
/// comment ends its line, and is indented by one space when it starts one
/// (a `;` in column 1 before the moves is skipped by readers, python-chess
/// included).
fn wrap(words: &[Word], out: &mut String) {
    let mut col = 0;
    let mut force_break = false;
    for w in words {
        let indent = if w.line_comment && !w.text.starts_with('(') {
            " "
        } else {
            ""
        };
        let len = w.text.chars().count();
        if col == 0 {
            out.push_str(indent);
            out.push_str(&w.text);
            col = indent.len() + len;
        } else if force_break || (col + 1 + len > LINE_WIDTH && !w.text.starts_with("[Event")) {
            out.push('\n');
            out.push_str(indent);
            out.push_str(&w.text);
            col = indent.len() + len;
        } else {
            out.push(' ');
            out.push_str(&w.text);
            col += 1 + len;
        }
        force_break = w.line_comment;
    }
}
