//! `houserules validate`: checks a YAML game file.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use houserules_engine::Variant;

use crate::error::{CliError, Outcome};

const EXAMPLES: &str = "\
Examples:
  houserules validate my-game.yaml
  houserules perft --game my-game.yaml --depth 3

Prints `ok: ID (NAME)` for a good file. For a bad one, every problem goes
to stderr with its file, line:column, the source line and, for a misspelt
name, a suggestion.

Exit status: 0 when the file is a valid game, 1 when it has problems, 2
when it cannot be read (or is a JSON modifier descriptor, which cannot be
validated yet).";

/// Options of `houserules validate`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct ValidateArgs {
    /// The YAML game file
    #[arg(value_name = "FILE.yaml")]
    file: PathBuf,
}

/// Runs `houserules validate`.
///
/// # Errors
/// [`CliError::Input`] for a file that cannot be read or a `.json` file;
/// [`CliError::Output`] when the output cannot be written.
pub fn run(args: &ValidateArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let path = &args.file;
    let shown = path.display().to_string();
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        return Err(CliError::input(format!(
            "{shown}: JSON modifier descriptors cannot be validated yet (they come in a later \
             issue); `validate` checks YAML game files"
        )));
    }
    // Game files may be at most 1 MiB (the loader's budget); read no more.
    let text = crate::error::read_text_limited(path, 1 << 20)
        .map_err(|e| CliError::input(format!("cannot read {shown}: {e}")))?;
    let def = match houserules_definitions::load_str(&shown, &text) {
        Ok(def) => def,
        Err(diags) => {
            eprint!("{}", diags.render());
            let n = diags.len();
            eprintln!("{shown}: {n} problem{}", if n == 1 { "" } else { "s" });
            return Ok(Outcome::Failed);
        }
    };
    let (id, name) = (def.id.clone(), def.name.clone());
    if let Err(e) = Variant::new(def) {
        eprintln!("{shown}: the engine refused the game `{id}`: {e}");
        return Ok(Outcome::Failed);
    }
    writeln!(out, "ok: {id} ({name})")?;
    Ok(Outcome::Success)
}
