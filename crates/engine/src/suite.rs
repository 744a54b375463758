//! Perft suite files: the `.perft` format (`id`, `epd`, `perft DEPTH NODES`
//! lines, as in scalachess and python-chess) and the `.epd` format
//! (`FEN ;D1 n ;D2 n …`, as in perftsuite.epd). Parsing only; running a
//! suite is the caller's business.

/// One position of a suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The `id` line, or `line N` for `.epd` files.
    pub id: String,
    /// The position.
    pub fen: String,
    /// `(depth, nodes)` pairs in file order.
    pub counts: Vec<(u32, u64)>,
    /// 1-based line of the position in the file.
    pub line: usize,
    /// 1-based line of each count, parallel to `counts`: its `perft` line
    /// in `.perft` files, the position's line in `.epd` files.
    pub count_lines: Vec<usize>,
}

/// A malformed suite line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}: `{text}`")]
pub struct SuiteError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
    /// The line.
    pub text: String,
}

/// Parses a suite in either format (detected per line: lines with `;D`
/// are EPD, `id`/`epd`/`perft` lines are the `.perft` format; `#` starts a
/// comment line).
///
/// # Errors
/// [`SuiteError`] naming the first malformed line.
pub fn parse(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut out: Vec<SuiteEntry> = Vec::new();
    let mut pending_id: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim().trim_start_matches('\u{feff}');
        let err = |reason: &str| SuiteError {
            line,
            reason: reason.into(),
            text: raw.into(),
        };
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if let Some(rest) = l.strip_prefix("id ") {
            pending_id = Some(rest.trim().to_string());
        } else if let Some(rest) = l.strip_prefix("epd ") {
            let id = pending_id.take().unwrap_or_else(|| format!("line {line}"));
            out.push(SuiteEntry {
                id,
                fen: rest.trim().to_string(),
                counts: Vec::new(),
                line,
                count_lines: Vec::new(),
            });
        } else if let Some(rest) = l.strip_prefix("perft ") {
            let entry = out
                .last_mut()
                .ok_or_else(|| err("`perft` line before any `epd` line"))?;
            let (d, n) = depth_and_nodes(rest, "`perft DEPTH NODES`").map_err(|r| err(&r))?;
            entry.counts.push((d, n));
            entry.count_lines.push(line);
        } else if l.contains(";D") || l.contains("; D") {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let mut counts = Vec::new();
            for p in parts {
                let p = p.trim();
                if p.is_empty() {
                    continue;
                }
                let p = p
                    .strip_prefix('D')
                    .ok_or_else(|| err("expected `;Dn nodes`"))?;
                let (d, n) = depth_and_nodes(p, "`;Dn nodes`").map_err(|r| err(&r))?;
                counts.push((d, n));
            }
            out.push(SuiteEntry {
                id: pending_id.take().unwrap_or_else(|| format!("line {line}")),
                fen,
                count_lines: vec![line; counts.len()],
                counts,
                line,
            });
        } else {
            return Err(err(
                "not a suite line (expected `id`, `epd`, `perft` or `FEN ;D1 n`)",
            ));
        }
    }
    Ok(out)
}

/// The depth and node count of `DEPTH NODES` (the text after `perft ` or
/// `;D`); `form` names the expected form in errors. A number too large
/// for its type is said to be so (with the maximum), and text after the
/// count is refused rather than ignored.
fn depth_and_nodes(text: &str, form: &str) -> Result<(u32, u64), String> {
    fn number<T: std::str::FromStr<Err = std::num::ParseIntError>>(
        x: Option<&str>,
        what: &str,
        max: u64,
        form: &str,
    ) -> Result<T, String> {
        let x = x.ok_or_else(|| format!("expected {form}"))?;
        x.parse().map_err(|e: std::num::ParseIntError| {
            if *e.kind() == std::num::IntErrorKind::PosOverflow {
                format!("{what} `{x}` is too large (at most {max})")
            } else {
                format!("expected {form}")
            }
        })
    }
    let mut it = text.split_ascii_whitespace();
    let d = number(it.next(), "depth", u64::from(u32::MAX), form)?;
    let n = number(it.next(), "node count", u64::MAX, form)?;
    if let Some(extra) = it.next() {
        return Err(format!("unexpected `{extra}` after {form}"));
    }
    Ok((d, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_formats() {
        let s = parse("# c\nid pos-2\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\nperft 2 9\n\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].id, "pos-2");
        assert_eq!(s[0].counts, vec![(1, 3), (2, 9)]);
        assert_eq!(s[1].counts, vec![(1, 15), (2, 66)]);
        assert_eq!(s[1].line, 7);
        // Each count knows its own line (the `perft` line in `.perft`).
        assert_eq!(s[0].count_lines, vec![4, 5]);
        assert_eq!(s[1].count_lines, vec![7, 7]);
        assert!(parse("perft 1 2").is_err());
        assert_eq!(parse("bogus").unwrap_err().line, 1);
    }

    /// Regression: a count above u64::MAX (18446744073709551615) got
    /// "expected `;Dn nodes`", as if it were not a number.
    #[test]
    fn too_large_count_is_said_to_be_too_large() {
        let e = parse("8/8/8/8/8/8/8/K6k w - - ;D1 99999999999999999999999").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.reason.contains("too large"), "{e}");
        assert!(e.reason.contains("18446744073709551615"), "{e}");
        let e = parse("epd 8/8/8/8/8/8/8/K6k w - -\nperft 1 99999999999999999999999").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(
            e.reason
                .contains("too large (at most 18446744073709551615)"),
            "{e}"
        );
        // The largest count itself is fine.
        let s = parse("8/8/8/8/8/8/8/K6k w - - ;D1 18446744073709551615").unwrap();
        assert_eq!(s[0].counts, vec![(1, u64::MAX)]);
    }

    /// Regression: `perft 1 3 extra` was read as `perft 1 3`, the rest
    /// ignored silently.
    #[test]
    fn trailing_text_after_a_count_is_refused() {
        let e = parse("epd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3 extra").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("`extra`"), "{e}");
        let e = parse("8/8/8/8/8/8/8/K6k w - - ;D1 3 extra ;D2 9").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.reason.contains("`extra`"), "{e}");
    }
}
