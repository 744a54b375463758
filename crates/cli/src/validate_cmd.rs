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

Prints `ok: ID (NAME)` for a good file. For a bad one, every problem goes
to stderr with its file, line:column, the source line and, for a misspelt
name, a suggestion.

A `.json` file is a modifier descriptor: every finding is printed with
its stable code and JSON path.

With --json the report is one JSON object on stdout: {\"ok\": true, \"id\",
\"name\", \"findings\": []} or {\"ok\": false, \"findings\": [...]}; a YAML
file's findings are {\"code\", \"message\", \"file\", \"line\", \"column\",
\"help\"} (line and column 1-based).

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
}

/// Runs `houserules validate`.
///
/// # Errors
/// [`CliError::Input`] for a file that cannot be read;
/// [`CliError::Output`] when the output cannot be written.
pub fn run(args: &ValidateArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let path = &args.file;
    let shown = path.display().to_string();
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        return crate::modifiers_cmd::validate(path, args.json, out);
    }
    // Game files may be at most 1 MiB (the loader's budget); read no more.
    let text = crate::error::read_text_limited(path, 1 << 20)
        .map_err(|e| CliError::input(format!("cannot read {shown}: {e}")))?;
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
