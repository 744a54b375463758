//! `houserules backup` and `houserules export`: an operator's copies of a
//! store (docs/operations.md).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::error::{CliError, Outcome};

const BACKUP_EXAMPLES: &str = "\
Examples:
  houserules backup --db sqlite:/var/lib/houserules/games.db --to /backups/games-$(date -u +%F).db
  houserules serve --db sqlite:/backups/games-2026-12-05.db   # serve a copy

A consistent copy of a SQLite store, safe while the server plays on it
(SQLite's VACUUM INTO: a snapshot of one read transaction, so every move
acknowledged before the backup began is in it). The copy is a SQLite
database; restore by stopping the server and putting the copy in the
store's place. The target must not exist. A Postgres store is backed up
with pg_dump (docs/operations.md).";

/// Options of `houserules backup`.
#[derive(Debug, Args)]
#[command(after_help = BACKUP_EXAMPLES)]
pub struct BackupArgs {
    /// The store to copy: sqlite:PATH
    #[arg(
        long,
        value_name = "URL",
        env = "HOUSERULES_DB",
        hide_env_values = true
    )]
    db: String,
    /// The new file to write (never overwritten)
    #[arg(long, value_name = "FILE")]
    to: PathBuf,
}

const EXPORT_EXAMPLES: &str = "\
Examples:
  houserules export --db sqlite:/var/lib/houserules/games.db --pgn all-games.pgn
  houserules export --db postgres://postgres@127.0.0.1:5432/test --pgn -

Writes every game of the store, finished and live (result *), oldest
first, as PGN with its rule-set tags (Variant, HouseRules, Modifiers,
FEN/SetUp), as GET /api/games/{id}/pgn does. Reads only: safe beside a
running server.";

/// Options of `houserules export`.
#[derive(Debug, Args)]
#[command(after_help = EXPORT_EXAMPLES)]
pub struct ExportArgs {
    /// The store: sqlite:PATH or postgres://USER@HOST:PORT/DB
    #[arg(
        long,
        value_name = "URL",
        env = "HOUSERULES_DB",
        hide_env_values = true
    )]
    db: String,
    /// The PGN file to write (`-`: standard output)
    #[arg(long, value_name = "FILE")]
    pgn: PathBuf,
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::input(format!("cannot start the async runtime: {e}")))
}

/// Runs `backup`.
pub fn backup(args: &BackupArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let shown = houserules_server::listen::redact_db_url(&args.db);
    let bytes = runtime()?
        .block_on(houserules_server::backup::backup_sqlite(&args.db, &args.to))
        .map_err(|e| CliError::input(e.replace(&args.db, &shown)))?;
    writeln!(
        out,
        "backed up {shown} to {} ({bytes} bytes)",
        args.to.display()
    )?;
    Ok(Outcome::Success)
}

/// Runs `export`.
pub fn export(args: &ExportArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let shown = houserules_server::listen::redact_db_url(&args.db);
    let to_stdout = args.pgn.as_os_str() == "-";
    let rt = runtime()?;
    let written = if to_stdout {
        let mut buf: Vec<u8> = Vec::new();
        let n = rt.block_on(houserules_server::backup::export_pgn(
            &args.db, None, &mut buf,
        ));
        out.write_all(&buf)?;
        n
    } else {
        if let Some(dir) = args.pgn.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                return Err(CliError::input(format!(
                    "--pgn {}: the folder {} does not exist",
                    args.pgn.display(),
                    dir.display()
                )));
            }
        }
        // Written beside and renamed, so a failed export leaves no half file.
        let partial = args.pgn.with_extension("pgn.partial");
        let file = std::fs::File::create(&partial).map_err(|e| {
            CliError::input(format!("--pgn {}: cannot create: {e}", args.pgn.display()))
        })?;
        let mut w = std::io::BufWriter::new(file);
        let n = rt.block_on(houserules_server::backup::export_pgn(
            &args.db, None, &mut w,
        ));
        let flushed = w.flush();
        match (&n, flushed) {
            (Ok(_), Ok(())) => std::fs::rename(&partial, &args.pgn)
                .map_err(|e| CliError::input(format!("--pgn {}: {e}", args.pgn.display())))?,
            (_, r) => {
                let _ = std::fs::remove_file(&partial);
                r?;
            }
        }
        n
    };
    let n = written.map_err(|e| CliError::input(e.replace(&args.db, &shown)))?;
    if !to_stdout {
        writeln!(
            out,
            "exported {n} game{} from {shown} to {}",
            if n == 1 { "" } else { "s" },
            args.pgn.display()
        )?;
    }
    Ok(Outcome::Success)
}
