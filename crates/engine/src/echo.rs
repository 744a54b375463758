//! Showing user input in messages: the one helper every echo of input and
//! every source excerpt goes through, so that a megabyte of input gives a
//! one-line message and control bytes (ESC, BEL, backspace) cannot drive
//! the terminal.

/// The most characters of input an [`echo`] shows.
pub const ECHO_CHARS: usize = 80;

/// Appends `c` as shown in a message: a control character other than a
/// tab, or an invisible character that reorders or breaks a line (see
/// `escaped`), escaped the Rust way (`\u{1b}`, `\n`, `\u{202e}`), any
/// other as it is.
pub fn push_shown(out: &mut String, c: char) {
    if escaped(c) {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// Whether `c` is shown escaped: control characters but tab, and the
/// invisible characters that reorder or break a terminal line (bidi marks
/// and overrides, line and paragraph separators, zero-width characters,
/// the byte order mark), which could disguise a message.
fn escaped(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(
            c,
            '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        )
}

/// How many characters `c` takes once shown (see [`push_shown`]), to keep
/// a caret under its column.
pub fn shown_width(c: char) -> usize {
    if escaped(c) {
        c.escape_default().count()
    } else {
        1
    }
}

/// `s` with its control characters escaped (see [`push_shown`]), uncut.
pub fn escape_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_shown(&mut out, c);
    }
    out
}

/// Input as echoed in a message: its first [`ECHO_CHARS`] characters with
/// control characters escaped, then, when it is longer,
/// `… (N bytes)` with its whole length.
pub fn echo(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.char_indices();
    for (_, c) in chars.by_ref().take(ECHO_CHARS) {
        push_shown(&mut out, c);
    }
    if chars.next().is_some() {
        out.push_str(&format!("… ({} bytes)", s.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_input_is_shown_whole() {
        assert_eq!(echo("e2e4"), "e2e4");
        assert_eq!(echo(&"x".repeat(80)), "x".repeat(80));
    }

    /// 81 `x` (81 bytes) are cut after the 80th; the byte count is of the
    /// whole input.
    #[test]
    fn long_input_is_cut_with_its_length() {
        assert_eq!(
            echo(&"x".repeat(81)),
            format!("{}… (81 bytes)", "x".repeat(80))
        );
        // 100 `é` of 2 bytes each: 80 characters shown, 200 bytes in all.
        assert_eq!(
            echo(&"é".repeat(100)),
            format!("{}… (200 bytes)", "é".repeat(80))
        );
    }

    /// The right-to-left override U+202E, the line separator U+2028 and the
    /// zero-width space U+200B could disguise a message (re-trial).
    #[test]
    fn bidi_and_separator_characters_are_escaped() {
        assert_eq!(
            echo("e2\u{202e}x\u{2028}y\u{200b}"),
            "e2\\u{202e}x\\u{2028}y\\u{200b}"
        );
        assert_eq!(echo("é"), "é", "other non-ASCII characters stay");
    }

    /// ESC is U+001B, BEL U+0007, backspace U+0008; a tab stays.
    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(
            echo("a\u{1b}[2Jb\u{7}\u{8}\tc\n"),
            "a\\u{1b}[2Jb\\u{7}\\u{8}\tc\\n"
        );
        assert_eq!(shown_width('\u{1b}'), 6);
        assert_eq!(shown_width('é'), 1);
    }
}
