//! Backups and exports of a store, for `houserules backup` and
//! `houserules export` (issue 22), safe while a server plays on it.

use std::path::Path;
use std::str::FromStr;

use sqlx::Connection;

use crate::game::Outcome;
use crate::pgn_export::{write_pgn, PgnSource};
use crate::store::{SqlStore, Store};

/// What `houserules backup` says for a Postgres store: it has its own
/// tool, which makes a consistent copy of a live database.
pub const PG_DUMP_HINT: &str = "a Postgres store is backed up with pg_dump, which copies a live \
database consistently: pg_dump --format=custom --file=houserules.dump 'postgres://USER@HOST:PORT/DB' \
(restore: pg_restore --clean --dbname='postgres://USER@HOST:PORT/DB' houserules.dump); \
see docs/operations.md";

/// The file of a `sqlite:` URL, `None` for another kind of URL or an
/// in-memory database.
fn sqlite_file(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("sqlite:")?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let path = rest.split('?').next().unwrap_or("");
    (!path.is_empty() && path != ":memory:").then_some(path)
}

/// Why `file` is not a SQLite database to back up, if it is not: it
/// cannot be read, it is empty, or its first 16 bytes are not SQLite's
/// header "SQLite format 3\0" (sqlite.org/fileformat.html § 1.3).
fn not_sqlite(file: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::with_capacity(16);
    let read = std::fs::File::open(file).and_then(|f| f.take(16).read_to_end(&mut head));
    if let Err(e) = read {
        return Some(format!("cannot read {}: {e}", file.display()));
    }
    if head.is_empty() {
        return Some(format!(
            "{} is empty: no database to back up (houserules serve has not written to it)",
            file.display()
        ));
    }
    (head.as_slice() != b"SQLite format 3\0").then(|| {
        format!(
            "{} is not a SQLite database (it does not start with the SQLite header): \
             a backup copies the store file of `houserules serve --db sqlite:PATH`",
            file.display()
        )
    })
}

/// Copies the SQLite store at `db` (`sqlite:PATH`) to the new file `to`,
/// consistently while a server writes to it: SQLite's `VACUUM INTO`
/// writes a snapshot of one read transaction (sqlite.org/lang_vacuum.html
/// § VACUUM INTO), so every input committed before the backup began is in
/// the copy and none is half there. The copy is written beside `to` and
/// renamed into place, so `to` is never a partial file. Returns the
/// copy's size in bytes.
///
/// # Errors
/// `db` is not a SQLite file URL (a Postgres URL gets [`PG_DUMP_HINT`]),
/// the database cannot be read, `to` exists already, or the copy cannot
/// be written.
pub async fn backup_sqlite(db: &str, to: &Path) -> Result<u64, String> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        return Err(PG_DUMP_HINT.into());
    }
    let Some(file) = sqlite_file(db) else {
        return Err(format!(
            "--db {db}: a backup copies a SQLite file (sqlite:PATH); {PG_DUMP_HINT}"
        ));
    };
    if !Path::new(file).is_file() {
        return Err(format!("--db {db}: no such database file {file}"));
    }
    // A file that is not a SQLite database is named as such before SQLite
    // opens it (session-11 trial: its raw "(code: 26) file is not a
    // database").
    if let Some(why) = not_sqlite(Path::new(file)) {
        return Err(format!("--db {db}: {why}"));
    }
    if to.exists() {
        return Err(format!(
            "--to {}: the file exists; a backup never overwrites one (remove it or choose another name)",
            to.display()
        ));
    }
    let partial = to.with_extension(format!(
        "{}partial",
        to.extension()
            .map(|e| format!("{}.", e.to_string_lossy()))
            .unwrap_or_default()
    ));
    let _ = std::fs::remove_file(&partial);
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(&format!("sqlite:{file}"))
        .map_err(|e| format!("--db {db}: {e}"))?
        .read_only(true)
        .busy_timeout(std::time::Duration::from_secs(10));
    let mut conn = sqlx::SqliteConnection::connect_with(&options)
        .await
        .map_err(|e| format!("--db {db}: cannot open: {e}"))?;
    let target = partial.to_string_lossy().to_string();
    let copied = sqlx::query("VACUUM INTO ?")
        .bind(&target)
        .execute(&mut conn)
        .await;
    let _ = conn.close().await;
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&partial);
        return Err(format!("backup of {file} into {}: {e}", to.display()));
    }
    std::fs::rename(&partial, to)
        .map_err(|e| format!("--to {}: cannot put the copy in place: {e}", to.display()))?;
    std::fs::metadata(to)
        .map(|m| m.len())
        .map_err(|e| format!("--to {}: {e}", to.display()))
}

/// Writes every game of the store at `db` as PGN to `out`, oldest first,
/// finished and live ones (a live game's result is `*`), each with its
/// rule-set tags (as `GET /api/games/{id}/pgn` writes it). Reads only
/// (safe beside a running server). Returns how many games were written.
///
/// # Errors
/// The store cannot be opened or read, a stored request does not parse,
/// or `out` cannot be written.
pub async fn export_pgn(
    db: &str,
    schema: Option<&str>,
    out: &mut (dyn std::io::Write + Send),
) -> Result<usize, String> {
    if let Some(file) = sqlite_file(db) {
        if !Path::new(file).is_file() {
            return Err(format!("--db {db}: no such database file {file}"));
        }
    }
    let store = SqlStore::connect(db, schema)
        .await
        .map_err(|e| e.to_string())?;
    let mut games = store
        .list(None, i64::MAX)
        .await
        .map_err(|e| e.to_string())?;
    games.reverse();
    let mut n = 0;
    for g in games {
        let entries = store.entries(&g.id).await.map_err(|e| e.to_string())?;
        let (meta, request) =
            crate::split_request(&g.request).map_err(|e| format!("game {}: {e}", g.id))?;
        let outcome: Option<Outcome> = g
            .result
            .as_deref()
            .and_then(|t| serde_json::from_str(t).ok());
        let id = g.id.clone();
        let text = tokio::task::spawn_blocking(move || {
            write_pgn(&PgnSource {
                id: &id,
                request: &request,
                meta: &meta,
                created_ms: g.created_ms,
                entries: &entries,
                outcome: outcome.as_ref(),
            })
        })
        .await
        .map_err(|e| format!("game {}: {e}", g.id))?;
        out.write_all(text.as_bytes())
            .and_then(|()| {
                if text.ends_with("\n\n") {
                    Ok(())
                } else {
                    out.write_all(b"\n")
                }
            })
            .map_err(|e| format!("writing the PGN: {e}"))?;
        n += 1;
    }
    store.close().await;
    Ok(n)
}
