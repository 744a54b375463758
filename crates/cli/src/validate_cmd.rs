//! `houserules validate`: checks a YAML game file or a JSON modifier
//! descriptor.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use crate::error::{CliError, Outcome};

const EXAMPLES: &str = "\
Examples:
  houserules validate my-game.yaml
  houserules perft --game my-game.yaml --depth 3

Prints `ok: ID (NAME)` for a good file. For a bad one, its problems go
to stderr with their file, line:column, the source line and, for a misspelt
name, a suggestion: every unknown name and rule problem, while a structural
error (a wrong type, an unknown key) stops at the first.

A `.json` file is a modifier descriptor: every finding is printed with
its stable code and JSON path. A file named neither `.yaml`/`.yml` nor
`.json` is a descriptor when its text starts with `{` (a JSON object),
else a YAML game file.

With --json the report is one JSON object on stdout: {\"ok\": true, \"id\",
\"name\", \"findings\": []} or {\"ok\": false, \"findings\": [...]}; a YAML
file's findings are {\"code\", \"message\", \"file\", \"line\", \"column\",
\"help\"} (line and column 1-based), a descriptor's {\"code\", \"path\",
\"message\"}. A file that cannot be read is reported the same way, with one
finding of code \"file.unreadable\" (and exit status 2).

--board WxH also checks a descriptor's squares, files and ranks against a
board of that size (code descriptor.board-size), as a session on such a
game does when the modifier attaches.

A game file or a descriptor is at most 1 MiB.

Exit status: 0 when the file is valid, 1 when it has problems, 2 when it
cannot be read.";

/// Options of `houserules validate`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct ValidateArgs {
    /// The YAML game file or JSON modifier descriptor
    #[arg(value_name = "FILE.yaml|FILE.json")]
    file: PathBuf,
    /// Print the report as one JSON object on stdout
    #[arg(long)]
    json: bool,
    /// Descriptors: also check the squares, files and ranks against a
    /// board of this size (`6x6`, `5×5`; at most 16 a side and 128
    /// squares), as a session on such a game does
    /// (`descriptor.board-size`)
    #[arg(long, value_name = "WxH", value_parser = parse_board)]
    board: Option<houserules_modifiers::runtime::Geom>,
}

/// `WxH` (or `W×H`): a board of W files and H ranks.
fn parse_board(s: &str) -> Result<houserules_modifiers::runtime::Geom, String> {
    let bad = || {
        format!("`{s}` is not a board size WxH with 1–16 files and ranks, at most 128 squares (e.g. 6x6)")
    };
    let (w, h) = s.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let (w, h): (u8, u8) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
    if !(1..=16).contains(&w) || !(1..=16).contains(&h) || u16::from(w) * u16::from(h) > 128 {
        return Err(bad());
    }
    Ok(houserules_modifiers::runtime::Geom { w, h })
}

/// The code of the finding of a file that cannot be read (`--json`).
pub const UNREADABLE: &str = "file.unreadable";

/// A file that cannot be read: `error: cannot read FILE: WHY` on stderr,
/// or with `--json` the report `{"ok": false, "findings": [F]}` on stdout,
/// F in the shape of the file's other findings with the code
/// [`UNREADABLE`]: a game file's `{code, message, file, line, column,
/// help}` (line and column of the first byte that is not UTF-8, else
/// null), a descriptor's `{code, path: "$", message}`. Exit status 2
/// either way.
///
/// # Errors
/// [`CliError::Input`] without `--json`; [`CliError::Output`] when the
/// report cannot be written.
pub fn unreadable(
    shown: &str,
    e: &std::io::Error,
    as_json: bool,
    descriptor: bool,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let message = format!("cannot read {shown}: {e}");
    if !as_json {
        return Err(CliError::input(message));
    }
    let finding = if descriptor {
        json!({"code": UNREADABLE, "path": "$", "message": message})
    } else {
        let at = e
            .get_ref()
            .and_then(|i| i.downcast_ref::<houserules_definitions::diag::InvalidUtf8>());
        json!({
            "code": UNREADABLE,
            "message": message,
            "file": shown,
            "line": at.map(|a| a.line),
            "column": at.map(|a| a.column),
            "help": null,
        })
    };
    writeln!(out, "{}", json!({"ok": false, "findings": [finding]}))?;
    Ok(Outcome::Unreadable)
}

/// Runs `houserules validate`.
///
/// # Errors
/// [`CliError::Input`] for a file that cannot be read (without `--json`);
/// [`CliError::Output`] when the output cannot be written.
pub fn run(args: &ValidateArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let path = &args.file;
    let shown = path.display().to_string();
    let ext = path.extension().map(|e| e.to_ascii_lowercase());
    if ext.as_ref().is_some_and(|e| e == "json") {
        return crate::modifiers_cmd::validate(path, args.json, args.board, out);
    }
    // Game files may be at most 1 MiB (the loader's budget); read no more.
    let text = match crate::error::read_text_limited(path, 1 << 20) {
        Ok(text) => text,
        Err(e) => return unreadable(&shown, &e, args.json, false, out),
    };
    // A file named neither .yaml/.yml nor .json is sniffed: a JSON object
    // (`{` first) is a modifier descriptor. Game files are YAML, which
    // seldom starts with a flow mapping; a .yaml name keeps them YAML.
    let yaml_named = ext.as_ref().is_some_and(|e| e == "yaml" || e == "yml");
    if !yaml_named
        && text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('{')
    {
        return crate::modifiers_cmd::validate_text(&shown, &text, args.json, args.board, out);
    }
    if args.board.is_some() {
        return Err(CliError::input(format!(
            "--board checks a modifier descriptor against a board size; {shown} is a game file, \
             whose board is its own"
        )));
    }
    // Loaded as a playable variant: mutations that run as rule hooks are
    // part of a valid game.
    let variant = match houserules_definitions::load_variant_str(&shown, &text) {
        Ok(v) => v,
        Err(diags) if args.json => {
            let findings: Vec<_> = diags
                .iter()
                .map(|d| {
                    let (line, column) = d.line_col();
                    json!({
                        "code": d.code().as_str(),
                        "message": d.message(),
                        "file": d.file(),
                        "line": line,
                        "column": column,
                        "help": d.help_text(),
                    })
                })
                .collect();
            writeln!(out, "{}", json!({"ok": false, "findings": findings}))?;
            return Ok(Outcome::Failed);
        }
        Err(diags) => {
            report!("{}", diags.render());
            let n = diags.len();
            reportln!("{shown}: {n} problem{}", if n == 1 { "" } else { "s" });
            return Ok(Outcome::Failed);
        }
    };
    let def = variant.definition();
    if args.json {
        let ok = json!({"ok": true, "id": def.id, "name": def.name, "findings": []});
        writeln!(out, "{ok}")?;
    } else {
        writeln!(out, "ok: {} ({})", def.id, def.name)?;
    }
    Ok(Outcome::Success)
}
