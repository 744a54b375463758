//! The store suite, on SQLite and on Postgres.

mod common;

use common::{fresh_db, open, Backend};
use houserules_server::store::{Entry, GameRow, Store};

fn row(id: &str, status: &str, created: i64) -> GameRow {
    GameRow {
        id: id.into(),
        request: r#"{"presets":[]}"#.into(),
        white_token: Some("w".repeat(48)),
        black_token: None,
        status: status.into(),
        result: None,
        created_ms: created,
    }
}

fn entry(seq: i64, body: &str) -> Entry {
    Entry {
        seq,
        body: body.into(),
        at_ms: 1_000 + seq,
        white_ms: Some(60_000 - seq),
        black_ms: None,
    }
}

async fn log_is_append_only_and_ordered(b: Backend) {
    let s = open(&fresh_db(b)).await;
    s.create_game(&row("g1", "live", 1)).await.unwrap();
    s.append("g1", &entry(1, r#"{"move":"e2e4"}"#), None)
        .await
        .unwrap();
    s.append("g1", &entry(2, r#"{"move":"e7e5"}"#), None)
        .await
        .unwrap();
    // The same seq twice is refused and changes nothing (PRIMARY KEY).
    let dup = s.append("g1", &entry(2, r#"{"move":"d7d5"}"#), None).await;
    assert!(dup.is_err());
    assert!(dup
        .unwrap_err()
        .to_string()
        .contains("append input 2 of game g1"));
    let log = s.entries("g1").await.unwrap();
    assert_eq!(
        log,
        vec![
            entry(1, r#"{"move":"e2e4"}"#),
            entry(2, r#"{"move":"e7e5"}"#)
        ]
    );
    // An input for an unknown game is refused (foreign key).
    assert!(s.append("nope", &entry(1, "{}"), None).await.is_err());
    assert!(s.entries("nope").await.unwrap().is_empty());
}

async fn finishing_is_in_the_same_transaction(b: Backend) {
    let s = open(&fresh_db(b)).await;
    s.create_game(&row("g1", "live", 1)).await.unwrap();
    s.create_game(&row("g2", "open", 2)).await.unwrap();
    assert_eq!(
        s.unfinished().await.unwrap(),
        vec!["g1".to_string(), "g2".to_string()]
    );
    let result = r#"{"result":"0-1","reason":"resignation"}"#;
    s.append(
        "g1",
        &entry(1, r#"{"event":"resign","player":"white"}"#),
        Some(result),
    )
    .await
    .unwrap();
    let g = s.game("g1").await.unwrap().unwrap();
    assert_eq!(g.status, "finished");
    assert_eq!(g.result.as_deref(), Some(result));
    assert_eq!(s.unfinished().await.unwrap(), vec!["g2".to_string()]);
    // A failed append (taken seq) does not finish the game either.
    let again = s.append("g2", &entry(1, "{}"), None).await;
    assert!(again.is_ok());
    assert!(s.append("g2", &entry(1, "{}"), Some(result)).await.is_err());
    assert_eq!(s.game("g2").await.unwrap().unwrap().status, "open");
}

async fn seats_and_lobby(b: Backend) {
    let s = open(&fresh_db(b)).await;
    s.create_game(&row("a", "open", 10)).await.unwrap();
    s.create_game(&row("b", "live", 20)).await.unwrap();
    // White is taken in `row`; black is free once.
    assert!(!s.take_seat("a", "white", "x", "live").await.unwrap());
    assert!(s.take_seat("a", "black", "t", "live").await.unwrap());
    assert!(!s.take_seat("a", "black", "u", "live").await.unwrap());
    let g = s.game("a").await.unwrap().unwrap();
    assert_eq!(g.black_token.as_deref(), Some("t"));
    assert_eq!(g.status, "live");
    // Newest first.
    let all: Vec<String> = s
        .list(None, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(all, vec!["b", "a"]);
    assert!(s.list(Some("open"), 10).await.unwrap().is_empty());
    assert_eq!(s.list(Some("live"), 1).await.unwrap().len(), 1);
    // The lobby's live list leaves out games nobody acted in: each line counts
    // its inputs (two appended to "b", none to "a").
    s.append("b", &entry(1, r#"{"move":"e2e4"}"#), None)
        .await
        .unwrap();
    s.append("b", &entry(2, r#"{"move":"e7e5"}"#), None)
        .await
        .unwrap();
    let counts: Vec<(String, i64)> = s
        .list(Some("live"), 10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| (g.id, g.inputs))
        .collect();
    assert_eq!(counts, vec![("b".to_string(), 2), ("a".to_string(), 0)]);
    assert_eq!(s.game("zzz").await.unwrap(), None);
}

async fn migrations_run_once(b: Backend) {
    let db = fresh_db(b);
    let s = open(&db).await;
    s.create_game(&row("g", "live", 1)).await.unwrap();
    s.close().await;
    // Opening again keeps the data and does not re-run the migration.
    let s = open(&db).await;
    assert!(s.game("g").await.unwrap().is_some());
}

/// `sqlite:FILE` where FILE is not a SQLite database, or lies in a folder
/// that does not exist, is refused at once with a message naming the path
/// (it used to wait for sqlx's 30 s pool timeout and say "pool timed out").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_sqlite_path_fails_fast_naming_it() {
    use houserules_server::store::SqlStore;
    use std::time::Duration;
    let dir = std::env::temp_dir().join(format!("houserules-badpath-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = dir.join("notes.txt");
    std::fs::write(&text, "these are not the bytes of a database\n").unwrap();
    let missing = dir.join("no-such-folder").join("games.db");
    for (path, says) in [
        (text.clone(), "not a SQLite database"),
        (missing.clone(), "does not exist"),
    ] {
        let url = format!("sqlite:{}", path.display());
        let opened = tokio::time::timeout(Duration::from_secs(10), SqlStore::connect(&url, None))
            .await
            .unwrap_or_else(|_| panic!("{url}: no answer within 10 s"));
        let e = opened.expect_err(&url).to_string();
        assert!(e.contains(&path.display().to_string()), "{url}: {e}");
        assert!(e.contains(says), "{url}: {e}");
    }
    // The text file is left as it was.
    assert_eq!(
        std::fs::read_to_string(&text).unwrap(),
        "these are not the bytes of a database\n"
    );
    // An empty file is a new database.
    let empty = dir.join("empty.db");
    std::fs::write(&empty, "").unwrap();
    let s = SqlStore::connect(&format!("sqlite:{}", empty.display()), None)
        .await
        .unwrap();
    assert!(s.game("x").await.unwrap().is_none());
}

/// A store on a new SQLite file `games.db` in a folder of its own (named
/// after `name`), holding the live game `g`; the folder, to remove after.
async fn sqlite_file_with_a_game(
    name: &str,
) -> (houserules_server::store::SqlStore, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("houserules-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite:{}", dir.join("games.db").display());
    let s = houserules_server::store::SqlStore::connect(&url, None)
        .await
        .unwrap();
    s.create_game(&row("g", "live", 1)).await.unwrap();
    (s, dir)
}

/// A SQLite file's WAL is checkpointed beside the writer (issue 21,
/// session 22): SQLite's automatic checkpoint ran inside one of the
/// writer's commits every 1,000 pages and held every move behind it for
/// about 40 ms. A task now checkpoints every quarter second on its own
/// connection, so that the writer's own checkpoint finds little to do.
/// What shows it: a reader that ignores the
/// WAL (`immutable=1`: the database file alone, sqlite.org/uri.html) finds
/// the acknowledged inputs within a few seconds. 100 small inputs are far
/// below SQLite's 1,000-page threshold, so without that task they would
/// stay in the WAL and this reader would find none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_wal_is_checkpointed_beside_the_writer_regression_issue21() {
    use sqlx::Connection;
    use std::time::{Duration, Instant};
    let (s, dir) = sqlite_file_with_a_game("ckpt").await;
    let path = dir.join("games.db");
    for seq in 1..=100 {
        s.append("g", &entry(seq, r#"{"move":"e2e4"}"#), None)
            .await
            .unwrap();
    }
    let file_alone = format!("sqlite:{}?immutable=1&mode=ro", path.display());
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut in_file = 0i64;
    while Instant::now() < deadline {
        let mut c = sqlx::SqliteConnection::connect(&file_alone).await.unwrap();
        // Before the first checkpoint the file may not have the table yet.
        in_file = sqlx::query_scalar("SELECT count(*) FROM inputs WHERE game_id = 'g'")
            .fetch_one(&mut c)
            .await
            .unwrap_or(0);
        c.close().await.unwrap();
        if in_file == 100 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(in_file, 100, "the database file alone holds the inputs");
    s.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The WAL starts again from its beginning (session 22): with the
/// writer's automatic checkpoint off and only the side task's `PASSIVE`
/// checkpoints, commits kept coming while they ran, the WAL was never
/// wholly copied, never restarted, and grew by 8 MB a second under load.
/// Each commit appends at least one 4,096-byte page (SQLite's default page
/// size) to the WAL, so 5,000 commits that never restart it leave a file
/// of at least 20 MB; one that restarts after about 1,000 pages (SQLite's
/// automatic checkpoint) stays near 4 MB, plus what comes during a
/// checkpoint.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_wal_restarts_under_steady_writes() {
    let (s, dir) = sqlite_file_with_a_game("walsize").await;
    for seq in 1..=5_000 {
        s.append("g", &entry(seq, r#"{"move":"e2e4"}"#), None)
            .await
            .unwrap();
    }
    let wal = std::fs::metadata(dir.join("games.db-wal")).unwrap().len();
    assert!(
        wal < 12 << 20,
        "the WAL holds {wal} bytes after 5,000 commits"
    );
    s.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Group commit (issue 21 § 2): many games append at once through the one
/// writer; each game's inputs are stored in its order, every append that
/// was acknowledged is committed (a second store over the same database,
/// another connection, reads it at once), and a bad append in the middle of
/// a batch fails alone.
async fn group_commit_keeps_order_and_acks_committed(b: Backend) {
    use std::sync::Arc;
    let db = fresh_db(b);
    let s = Arc::new(open(&db).await);
    let reader = Arc::new(open(&db).await);
    const GAMES: usize = 24;
    const PLIES: i64 = 15;
    for g in 0..GAMES {
        s.create_game(&row(&format!("g{g}"), "live", g as i64))
            .await
            .unwrap();
    }
    let mut tasks = Vec::new();
    for g in 0..GAMES {
        let (s, reader) = (Arc::clone(&s), Arc::clone(&reader));
        tasks.push(tokio::spawn(async move {
            let id = format!("g{g}");
            for seq in 1..=PLIES {
                let body = format!(r#"{{"move":"m{g}-{seq}"}}"#);
                s.append(&id, &entry(seq, &body), None).await.unwrap();
                // Acknowledged, so committed: another connection sees it.
                let log = reader.entries(&id).await.unwrap();
                assert_eq!(log.len() as i64, seq, "game {id} after seq {seq}");
                if g % 5 == 0 && seq == 7 {
                    // A taken seq: refused, and nothing else is.
                    let dup = s.append(&id, &entry(seq, "{}"), None).await;
                    assert!(dup
                        .unwrap_err()
                        .to_string()
                        .contains(&format!("append input 7 of game {id}")));
                }
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    for g in 0..GAMES {
        let id = format!("g{g}");
        let log = reader.entries(&id).await.unwrap();
        let want: Vec<_> = (1..=PLIES)
            .map(|seq| entry(seq, &format!(r#"{{"move":"m{g}-{seq}"}}"#)))
            .collect();
        assert_eq!(log, want, "game {id}");
    }
}

/// A finished game's final state is kept and read back; a game still going
/// has none; start-up's list of unfinished games counts their inputs.
async fn final_state_and_unfinished_summaries(b: Backend) {
    let s = open(&fresh_db(b)).await;
    s.create_game(&row("a", "live", 1)).await.unwrap();
    s.create_game(&row("b", "live", 2)).await.unwrap();
    s.append("b", &entry(1, r#"{"move":"e2e4"}"#), None)
        .await
        .unwrap();
    assert_eq!(s.final_state("a").await.unwrap(), None);
    assert_eq!(s.final_state("nope").await.unwrap(), None);
    s.append(
        "a",
        &entry(1, r#"{"event":"resign","player":"white"}"#),
        Some(r#"{"result":"0-1","reason":"resignation"}"#),
    )
    .await
    .unwrap();
    s.set_final_state("a", r#"{"plyCount":0}"#).await.unwrap();
    assert_eq!(
        s.final_state("a").await.unwrap().as_deref(),
        Some(r#"{"plyCount":0}"#)
    );
    let open_games: Vec<(String, i64)> = s
        .unfinished_summaries()
        .await
        .unwrap()
        .into_iter()
        .map(|g| (g.id, g.inputs))
        .collect();
    assert_eq!(open_games, vec![("b".to_string(), 1)]);
}

/// A finishing game keeps its final state with one conditional write
/// (`Store::keep_final_state`, no read first: session 19's churn runs
/// queued those reads past the pool's timeout): the first state kept stays,
/// a later one does not replace it, a game with none gets it; a plain
/// `set_final_state` (a rematch's new view) still replaces it.
async fn keep_final_state_keeps_the_first(b: Backend) {
    let s = open(&fresh_db(b)).await;
    s.create_game(&row("a", "finished", 1)).await.unwrap();
    s.create_game(&row("b", "finished", 2)).await.unwrap();
    s.keep_final_state("a", r#"{"n":1}"#).await.unwrap();
    s.keep_final_state("a", r#"{"n":2}"#).await.unwrap();
    assert_eq!(
        s.final_state("a").await.unwrap().as_deref(),
        Some(r#"{"n":1}"#)
    );
    assert_eq!(s.final_state("b").await.unwrap(), None);
    s.keep_final_state("b", r#"{"n":3}"#).await.unwrap();
    assert_eq!(
        s.final_state("b").await.unwrap().as_deref(),
        Some(r#"{"n":3}"#)
    );
    s.set_final_state("a", r#"{"n":4}"#).await.unwrap();
    assert_eq!(
        s.final_state("a").await.unwrap().as_deref(),
        Some(r#"{"n":4}"#)
    );
    // A game that is not stored: nothing written, no error.
    s.keep_final_state("nope", "{}").await.unwrap();
    assert_eq!(s.final_state("nope").await.unwrap(), None);
}

on_both!(
    keep_final_state_keeps_the_first,
    log_is_append_only_and_ordered,
    finishing_is_in_the_same_transaction,
    seats_and_lobby,
    migrations_run_once,
    group_commit_keeps_order_and_acks_committed,
    final_state_and_unfinished_summaries,
);
