//! Persistence: one [`Store`] trait, and [`SqlStore`], which implements it
//! on SQLite (a file in WAL mode, the default) and on Postgres with the
//! same SQL text (`$N` placeholders, TEXT and BIGINT columns only).
//!
//! A game is its creation request plus an append-only log of accepted
//! inputs, `PRIMARY KEY (game_id, seq)`: the server commits an input
//! before it acknowledges or broadcasts it, and rebuilds a game by
//! replaying its log (the engine is deterministic).
//!
//! Writes go through one writer task ([`writer`]): a single connection
//! that commits the writes queued meanwhile in one transaction (group
//! commit), each caller answered after that commit. Reads use their own
//! pool (SQLite's WAL lets them run beside the writer).
//!
//! Durability: SQLite runs with `journal_mode=WAL` and `synchronous=NORMAL`:
//! a committed transaction survives the server process being killed
//! (SIGKILL), which is what the crash test checks; a power loss may lose
//! the last transactions (SQLite's documented trade-off for WAL + NORMAL).
//! Postgres commits with its own settings (`synchronous_commit` on by
//! default).

use std::borrow::Cow;
use std::str::FromStr;

use async_trait::async_trait;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, Executor, Row};
use tokio::sync::{mpsc, oneshot};

mod writer;
use writer::Job;

/// A store failure: the operation and the database's message.
#[derive(Debug, thiserror::Error)]
#[error("store: {op}: {message}")]
pub struct StoreError {
    /// What was being done (`append input 3 of game X`).
    pub op: String,
    /// The database driver's message.
    pub message: String,
}

/// The mark in the message of an append refused by its fencing check
/// ([`Fence`]): the node no longer owns the game.
pub const FENCED: &str = "fenced: this node no longer owns the game";

impl StoreError {
    /// Whether the write was refused because the node's lease of the game
    /// was taken over (a stale fencing epoch; issue 24).
    pub fn is_fenced(&self) -> bool {
        self.message.contains(FENCED)
    }
}

/// The ownership an append of a clustered node is made under (issue 24):
/// the append commits only if, in its own transaction, the game's row of
/// `game_owner` still names `node` with `epoch` (Kleppmann's fencing token:
/// a node whose lease was taken over, after a pause or a partition, cannot
/// write).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    /// The node's id and incarnation as stored in `game_owner.node_id`.
    pub node: String,
    /// The epoch the node took the game with.
    pub epoch: i64,
}

fn err(op: impl Into<String>) -> impl FnOnce(sqlx::Error) -> StoreError {
    let op = op.into();
    move |e| StoreError {
        op,
        message: e.to_string(),
    }
}

/// A seat colour as stored (`white`, `black`).
pub type SeatName = &'static str;

/// Who saves a modifier ([`Store::save_modifier`]): hashes only (SHA-256
/// of the owner token, hex), never the token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModifierOwner {
    /// The hash of the token the saver gets if this save makes it the
    /// owner (a new id).
    pub new_hash: String,
    /// The hash of the token the saver sent (`Authorization: Bearer`), if
    /// it sent one.
    pub given_hash: Option<String>,
}

/// What [`Store::save_modifier`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    /// The id was new (or had no owner): saved, owned by `new_hash`.
    Created,
    /// The owner saved the id again: replaced.
    Replaced,
    /// The id is someone else's (no token, or not its owner's): nothing
    /// written.
    NotOwner,
}

/// A game's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// The game id.
    pub id: String,
    /// The creation request as sent (JSON text).
    pub request: String,
    /// White's seat token; `None` while the seat is free.
    pub white_token: Option<String>,
    /// Black's seat token; `None` while the seat is free.
    pub black_token: Option<String>,
    /// `open` (a seat is free), `live` or `finished`.
    pub status: String,
    /// The result as JSON text (`{"result": "1-0", "reason": …}`) once
    /// finished.
    pub result: Option<String>,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
}

/// One accepted input of a game's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its position in the log, from 1 (seq 0 is the creation).
    pub seq: i64,
    /// The input as JSON text: a session input (`{"move": "e2e4"}`,
    /// `{"choice": …}`) or a game event (`{"event": "resign", …}`).
    pub body: String,
    /// When it was accepted, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// White's remaining clock time after it, in milliseconds (timed games).
    pub white_ms: Option<i64>,
    /// Black's remaining clock time after it, in milliseconds.
    pub black_ms: Option<i64>,
}

/// A lobby line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The game id.
    pub id: String,
    /// `open`, `live` or `finished`.
    pub status: String,
    /// The creation request (JSON text).
    pub request: String,
    /// The result JSON text, if finished.
    pub result: Option<String>,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
    /// How many inputs the game's log holds (moves, choice answers, game
    /// events): 0 while nobody has acted, so a lobby can leave such games out.
    pub inputs: i64,
    /// When the last input was stored (ms since the epoch), if any.
    pub last_input_ms: Option<i64>,
}

/// Where games are kept. Every method is async and never blocks the
/// runtime (sqlx runs SQLite on its own worker threads).
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Inserts a new game (seq 0, no input).
    async fn create_game(&self, game: &GameRow) -> Result<(), StoreError>;
    /// Appends one input; with `finished`, in the same transaction marks
    /// the game finished with that result JSON. Fails (and stores nothing)
    /// if `entry.seq` is already taken.
    async fn append(
        &self,
        game_id: &str,
        entry: &Entry,
        finished: Option<&str>,
    ) -> Result<(), StoreError>;
    /// Gives a free seat its token and sets the game's status; `false`
    /// when the seat was already taken.
    async fn take_seat(
        &self,
        game_id: &str,
        seat: SeatName,
        token: &str,
        status: &str,
    ) -> Result<bool, StoreError>;
    /// Replaces a game's creation request (JSON text): a seat named after
    /// creation (issue 26: an invited friend, a player who joined) keeps
    /// its name in the request, where the lobby, the PGN, a rebuild and a
    /// rematch read the names given at creation.
    async fn set_request(&self, game_id: &str, request: &str) -> Result<(), StoreError>;
    /// A game's row.
    async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError>;
    /// A game's log in `seq` order.
    async fn entries(&self, id: &str) -> Result<Vec<Entry>, StoreError>;
    /// Games by status (all when `None`), newest first, at most `limit`.
    async fn list(&self, status: Option<&str>, limit: i64) -> Result<Vec<Summary>, StoreError>;
    /// The ids of the games not finished.
    async fn unfinished(&self) -> Result<Vec<String>, StoreError>;
    /// The games not finished, as lobby lines (oldest first): what start-up
    /// needs to choose the games it rebuilds at once. The default reads
    /// each game of [`Store::unfinished`] and its log.
    async fn unfinished_summaries(&self) -> Result<Vec<Summary>, StoreError> {
        let mut out = Vec::new();
        for id in self.unfinished().await? {
            if let Some(g) = self.game(&id).await? {
                let entries = self.entries(&id).await?;
                out.push(Summary {
                    inputs: entries.len() as i64,
                    last_input_ms: entries.last().map(|e| e.at_ms),
                    id: g.id,
                    status: g.status,
                    request: g.request,
                    result: g.result,
                    created_ms: g.created_ms,
                });
            }
        }
        Ok(out)
    }
    /// Keeps a finished game's final state (the `GET /api/games/{id}`
    /// answer as of its end, JSON text), so that reads of a finished game
    /// need no session. The default keeps nothing (reads then rebuild the
    /// game).
    async fn set_final_state(&self, _game_id: &str, _state: &str) -> Result<(), StoreError> {
        Ok(())
    }
    /// A finished game's final state, if it was kept (the default: none).
    async fn final_state(&self, _game_id: &str) -> Result<Option<String>, StoreError> {
        Ok(None)
    }
    /// Keeps `state` as the game's final state unless one is kept already
    /// (a game finished before it was loaded has it): what a finished game
    /// does as it leaves memory. The default reads, then writes.
    async fn keep_final_state(&self, game_id: &str, state: &str) -> Result<(), StoreError> {
        if self.final_state(game_id).await?.is_none() {
            self.set_final_state(game_id, state).await?;
        }
        Ok(())
    }
    /// Records that the server runs at `at_ms` (ms since the Unix epoch):
    /// a single server writes it every few seconds and when it stops, so
    /// that the next start knows when the last one stopped (issue 26 item
    /// 7: a restart charges the side to move the time it thought before
    /// the stop, not the outage). The default keeps nothing.
    async fn mark_alive(&self, _at_ms: i64) -> Result<(), StoreError> {
        Ok(())
    }
    /// The last [`Store::mark_alive`] time, if any (the default: none).
    async fn last_alive(&self) -> Result<Option<i64>, StoreError> {
        Ok(None)
    }
    /// The cluster node this store writes for, as `<id>-<incarnation>`
    /// (issue 24), so that a game's log span can name it (issue 22);
    /// `None` on a single server (the default).
    fn node(&self) -> Option<String> {
        None
    }
    /// Saves a modifier descriptor (JSON text) under `id` for its owner:
    /// a new id (or one saved before rules had owners) is saved with
    /// `owner.new_hash` as its owner ([`Saved::Created`]); an id saved
    /// already is replaced only when `owner.given_hash` is its owner's
    /// ([`Saved::Replaced`]), else left as it is ([`Saved::NotOwner`]).
    /// Each step is one conditional statement, so two first saves of one
    /// id (two nodes of a cluster included) make one owner.
    async fn save_modifier(
        &self,
        id: &str,
        descriptor: &str,
        owner: &ModifierOwner,
        at_ms: i64,
    ) -> Result<Saved, StoreError>;
    /// The saved modifiers as (id, descriptor JSON text), by id.
    async fn saved_modifiers(&self) -> Result<Vec<(String, String)>, StoreError>;
}

/// The SQL store, on SQLite or Postgres (sqlx's `Any` driver: one SQL text
/// for both).
#[derive(Debug, Clone)]
pub struct SqlStore {
    /// The reads' pool.
    pool: AnyPool,
    /// One connection of its own for a cluster node's lease renewals,
    /// opened on first use (a single server never opens it).
    leases: AnyPool,
    /// The writer task's queue ([`writer`]).
    writes: mpsc::UnboundedSender<Job>,
    /// A SQLite file's checkpoints' own connection ([`checkpoints`]);
    /// `None` on Postgres and for an in-memory database.
    checkpoints: Option<AnyPool>,
}

/// How often a SQLite file's WAL is checkpointed beside the writer
/// ([`checkpoints`]): more often than SQLite's own automatic checkpoint
/// comes (every 1,000 pages, about every 0.6 s at 1,000 moves a second),
/// so that it finds little left to do.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Copies a SQLite file's WAL into the database every [`CHECKPOINT_EVERY`]
/// on a connection of its own, until `pool` is closed.
///
/// Why: SQLite runs its automatic checkpoint inside the commit that passes
/// 1,000 pages of WAL, on the committing connection, the writer's. It
/// wrote every page back and waited for two `fsync`s (about 40 ms here,
/// far more with other disk traffic), and every move queued behind it
/// waited too: the ack p99 on SQLite was 13–50 ms idle and 0.2–0.9 s at
/// load 4–11, against 4 ms on Postgres (issue 21, session 22, `strace` of
/// the writer's thread). A `PASSIVE` checkpoint here never takes the write
/// lock: commits go on while it copies and syncs (SQLite's WAL
/// documentation, § Checkpointing). It cannot alone let the WAL start
/// again from its beginning, since commits keep coming while it runs, so
/// the writer keeps SQLite's automatic checkpoint (without it the WAL
/// grew by 8 MB a second at 1,000 moves a second); that one now finds
/// the pages already copied and synced but the last quarter second's, and
/// restarts the WAL. A failed checkpoint is logged and tried again.
fn checkpoints(pool: AnyPool) {
    tokio::spawn(async move {
        let mut failures = 0u32;
        loop {
            tokio::time::sleep(CHECKPOINT_EVERY).await;
            if pool.is_closed() {
                return;
            }
            match pool.execute("PRAGMA wal_checkpoint(PASSIVE)").await {
                Ok(_) => failures = 0,
                Err(_) if pool.is_closed() => return,
                Err(e) => {
                    failures += 1;
                    // One line per minute of failures, not one a second.
                    if failures % 240 == 1 {
                        tracing::warn!(error = %e, failures, "SQLite checkpoint failed; the WAL grows until one succeeds");
                    }
                }
            }
        }
    });
}

/// A write's outcome from the writer task.
async fn written<T>(
    writes: &mpsc::UnboundedSender<Job>,
    op: impl FnOnce() -> String,
    job: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Job,
) -> Result<T, StoreError> {
    let (tx, rx) = oneshot::channel();
    let stopped = |op: String| StoreError {
        op,
        message: "the store's writer has stopped".into(),
    };
    if writes.send(job(tx)).is_err() {
        return Err(stopped(op()));
    }
    rx.await.unwrap_or_else(|_| Err(stopped(op())))
}

fn migrator() -> Migrator {
    Migrator {
        migrations: Cow::Owned(vec![
            Migration::new(
                1,
                Cow::Borrowed("games"),
                MigrationType::Simple,
                Cow::Borrowed(include_str!("../../migrations/0001_games.sql")),
                false,
            ),
            Migration::new(
                2,
                Cow::Borrowed("modifiers"),
                MigrationType::Simple,
                Cow::Borrowed(include_str!("../../migrations/0002_modifiers.sql")),
                false,
            ),
            Migration::new(
                3,
                Cow::Borrowed("final state"),
                MigrationType::Simple,
                Cow::Borrowed(include_str!("../../migrations/0003_final_state.sql")),
                false,
            ),
            Migration::new(
                4,
                Cow::Borrowed("cluster"),
                MigrationType::Simple,
                Cow::Borrowed(include_str!("../../migrations/0004_cluster.sql")),
                false,
            ),
            Migration::new(
                5,
                Cow::Borrowed("alive"),
                MigrationType::Simple,
                Cow::Borrowed(include_str!("../../migrations/0005_alive.sql")),
                false,
            ),
            Migration::new(
                6,
                Cow::Borrowed("modifier owners"),
                MigrationType::Simple,
                Cow::Borrowed(include_str!("../../migrations/0006_modifier_owners.sql")),
                false,
            ),
            Migration::new(
                7,
                Cow::Borrowed("node lease"),
                MigrationType::Simple,
                Cow::Borrowed(include_str!("../../migrations/0007_node_lease.sql")),
                false,
            ),
        ]),
        ..Migrator::DEFAULT
    }
}

impl SqlStore {
    /// Opens (creating if needed) the database at `url` and runs the
    /// migrations: `sqlite:PATH` (WAL mode) or `postgres://…`. With
    /// `schema` (Postgres only), the tables live in that schema, created
    /// if missing: the tests give each run its own.
    ///
    /// # Errors
    /// The database cannot be opened, or a migration fails.
    pub async fn connect(url: &str, schema: Option<&str>) -> Result<SqlStore, StoreError> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let url = if sqlite && !url.contains('?') {
            format!("{url}?mode=rwc")
        } else {
            url.to_string()
        };
        if sqlite {
            check_sqlite_file(&url)?;
        }
        let options = AnyConnectOptions::from_str(&url).map_err(err(format!("open {url}")))?;
        if !sqlite {
            probe_postgres(&url, &options).await?;
        }
        let schema = schema.map(str::to_string);
        if let (false, Some(s)) = (sqlite, &schema) {
            let pool = AnyPoolOptions::new()
                .max_connections(1)
                .connect_with(options.clone())
                .await
                .map_err(err("connect"))?;
            pool.execute(format!("CREATE SCHEMA IF NOT EXISTS \"{s}\"").as_str())
                .await
                .map_err(err("create schema"))?;
            pool.close().await;
        }
        let memory = sqlite && sqlite_path(&url).is_none();
        let options_for_checkpoints = options.clone();
        // The writer's one connection (group commit, [`writer`]): SQLite has
        // one write lock, and one writer never waits on it.
        let write_pool = AnyPoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            // A database that cannot be opened is reported in seconds, not
            // after sqlx's 30 s default of retrying.
            .acquire_timeout(std::time::Duration::from_secs(10))
            // The writer keeps its connection for good.
            .idle_timeout(None)
            .max_lifetime(None)
            .after_connect({
                let schema = schema.clone();
                move |conn, _| setup(conn, sqlite, schema.clone())
            })
            .connect_with(options.clone())
            .await
            .map_err(err("connect"))?;
        migrator().run(&write_pool).await.map_err(|e| StoreError {
            op: "migrate".into(),
            message: e.to_string(),
        })?;
        // The lease renewals' own connection: behind the reads' pool they
        // waited seconds while a cluster's nodes took 10,000 new games and
        // 20,000 sockets, past their leases (issue 24, session 17).
        let leases = AnyPoolOptions::new()
            .max_connections(1)
            .min_connections(0)
            .acquire_timeout(std::time::Duration::from_secs(10))
            .after_connect({
                let schema = schema.clone();
                move |conn, _| setup(conn, sqlite, schema.clone())
            })
            .connect_lazy_with(options.clone());
        let (pool, target) = if memory {
            // An in-memory SQLite database is one connection's own: reads
            // share the writer's.
            (write_pool.clone(), writer::Target::Pool(write_pool))
        } else {
            // The writer keeps a connection of its own (no pool around it,
            // [`writer::Target::Own`]); the migrations' pool goes.
            write_pool.close().await;
            let conn = writer::open(&options, sqlite, schema.clone())
                .await
                .map_err(err("connect"))?;
            let target = writer::Target::Own {
                conn: Some(conn),
                options: options.clone(),
                sqlite,
                schema: schema.clone(),
            };
            let pool = AnyPoolOptions::new()
                // Reads run beside the writer (SQLite's WAL: readers do
                // not wait on it).
                .max_connections(if sqlite { 4 } else { 8 })
                // A SQLite connection is a file handle of this process: no
                // ping before each read (a trip to its worker thread; sqlx
                // pings it again as it goes back to the pool), which made
                // every read three trips and, under churn, queued the
                // reads past the timeout below (issue 21, session 19).
                .test_before_acquire(!sqlite)
                .acquire_timeout(std::time::Duration::from_secs(10))
                .after_connect(move |conn, _| setup(conn, sqlite, schema.clone()))
                .connect_with(options)
                .await
                .map_err(err("connect"))?;
            (pool, target)
        };
        let writes = writer::spawn(target);
        let checkpoints = (sqlite && !memory).then(|| {
            let pool = AnyPoolOptions::new()
                .max_connections(1)
                .min_connections(0)
                .test_before_acquire(false)
                .acquire_timeout(std::time::Duration::from_secs(10))
                .after_connect(move |conn, _| setup(conn, true, None))
                .connect_lazy_with(options_for_checkpoints);
            checkpoints(pool.clone());
            pool
        });
        Ok(SqlStore {
            pool,
            leases,
            writes,
            checkpoints,
        })
    }

    /// [`Store::append`] under a [`Fence`]: refused (an error whose
    /// [`StoreError::is_fenced`] holds, nothing stored) when the game's
    /// owner row no longer names `fence`'s node and epoch. Postgres only
    /// (the check locks the row `FOR SHARE`, so a take-over waits for the
    /// append's commit, and an append after a take-over sees its epoch).
    ///
    /// # Errors
    /// The store fails, the seq is taken, or the fence is stale.
    pub async fn append_fenced(
        &self,
        game_id: &str,
        e: &Entry,
        finished: Option<&str>,
        fence: Fence,
    ) -> Result<(), StoreError> {
        written(
            &self.writes,
            || format!("append input {} of game {game_id}", e.seq),
            |reply| Job::Append {
                game_id: game_id.into(),
                entry: e.clone(),
                finished: finished.map(str::to_string),
                fence: Some(fence),
                reply,
            },
        )
        .await
    }

    /// The reads' pool (the cluster's lease queries use it too).
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The pool of one connection the cluster's lease renewals use
    /// (`cluster::renew_leases`), apart from the reads so that they never
    /// queue behind them.
    pub fn lease_pool(&self) -> &AnyPool {
        &self.leases
    }

    /// Closes the pools (waits for connections to return).
    pub async fn close(&self) {
        self.pool.close().await;
        self.leases.close().await;
        if let Some(c) = &self.checkpoints {
            c.close().await;
        }
    }
}

/// Sets up a new connection: SQLite's journal, durability, lock wait and
/// foreign keys; Postgres's schema.
fn setup(
    conn: &mut sqlx::AnyConnection,
    sqlite: bool,
    schema: Option<String>,
) -> futures_util::future::BoxFuture<'_, Result<(), sqlx::Error>> {
    Box::pin(async move {
        if sqlite {
            conn.execute("PRAGMA journal_mode=WAL").await?;
            conn.execute("PRAGMA synchronous=NORMAL").await?;
            conn.execute("PRAGMA busy_timeout=5000").await?;
            conn.execute("PRAGMA foreign_keys=ON").await?;
        } else if let Some(s) = schema {
            conn.execute(format!("SET search_path TO \"{s}\"").as_str())
                .await?;
        }
        Ok(())
    })
}

/// The `HOST:PORT` of a Postgres URL (`postgres://USER:PASSWORD@HOST:PORT/DB`),
/// never its user or password; the port is 5432 when the URL has none.
pub fn postgres_host_port(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let has_port = match host.rfind(':') {
        // `[::1]` has colons of its own: a port comes after `]`.
        Some(i) => !host[i..].contains(']'),
        None => false,
    };
    match (host.is_empty(), has_port) {
        (true, _) => "localhost:5432".to_string(),
        (false, true) => host.to_string(),
        (false, false) => format!("{host}:5432"),
    }
}

/// One connection to Postgres before the pools are built, to say why it
/// cannot be reached: a pool that cannot connect reports only "pool timed
/// out while waiting for an open connection" after its acquire timeout
/// (session-11 trial), while one connection reports the cause (connection
/// refused, an unknown host, a failed password, a missing database). The
/// error names `HOST:PORT` and the cause, never the URL's password.
async fn probe_postgres(url: &str, options: &AnyConnectOptions) -> Result<(), StoreError> {
    use sqlx::ConnectOptions;
    let at = postgres_host_port(url);
    let fail = |message: String| StoreError {
        op: format!("connect to Postgres at {at}"),
        message,
    };
    match tokio::time::timeout(std::time::Duration::from_secs(10), options.connect()).await {
        Ok(Ok(conn)) => {
            let _ = sqlx::Connection::close(conn).await;
            Ok(())
        }
        Ok(Err(e)) => Err(fail(e.to_string())),
        Err(_) => Err(fail(
            "no answer within 10 s (a firewall dropping the packets, or the wrong host)".into(),
        )),
    }
}

/// The file of a `sqlite:` URL (`sqlite:PATH`, `sqlite://PATH`, options
/// after `?`); `None` for an in-memory database.
fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    let rest = url.strip_prefix("sqlite:")?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let path = rest.split('?').next().unwrap_or("");
    (!path.is_empty() && path != ":memory:").then(|| std::path::PathBuf::from(path))
}

/// Checks a SQLite file before sqlx opens it, so that the usual mistakes
/// get a message naming the path at once: its folder is missing, or the
/// file exists and is not a SQLite database (its first 16 bytes are not
/// the header "SQLite format 3\0", sqlite.org/fileformat.html § 1.3). An
/// empty or missing file is fine: SQLite creates the database.
fn check_sqlite_file(url: &str) -> Result<(), StoreError> {
    use std::io::Read;
    let Some(path) = sqlite_path(url) else {
        return Ok(());
    };
    let fail = |message: String| StoreError {
        op: format!("open {}", path.display()),
        message,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return Err(fail(format!(
                "the folder {} does not exist (create it, or choose another path)",
                dir.display()
            )));
        }
    }
    if path.is_dir() {
        return Err(fail("this is a folder, not a file".into()));
    }
    let mut file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(fail(format!("cannot read the file: {e}"))),
    };
    let mut head = Vec::with_capacity(16);
    if let Err(e) = file.by_ref().take(16).read_to_end(&mut head) {
        return Err(fail(format!("cannot read the file: {e}")));
    }
    if head.is_empty() || head.as_slice() == b"SQLite format 3\0" {
        return Ok(());
    }
    Err(fail(
        "the file is not a SQLite database (it does not start with the SQLite header); \
         give a new file name or an existing houserules database"
            .into(),
    ))
}

fn game_row(r: &sqlx::any::AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: r.try_get("id")?,
        request: r.try_get("request")?,
        white_token: r.try_get("white_token")?,
        black_token: r.try_get("black_token")?,
        status: r.try_get("status")?,
        result: r.try_get("result")?,
        created_ms: r.try_get("created_ms")?,
    })
}

fn summary(r: &sqlx::any::AnyRow) -> Result<Summary, sqlx::Error> {
    Ok(Summary {
        id: r.try_get("id")?,
        status: r.try_get("status")?,
        request: r.try_get("request")?,
        result: r.try_get("result")?,
        created_ms: r.try_get("created_ms")?,
        inputs: r.try_get("inputs")?,
        last_input_ms: r.try_get("last_input_ms")?,
    })
}

#[async_trait]
impl Store for SqlStore {
    async fn save_modifier(
        &self,
        id: &str,
        descriptor: &str,
        owner: &ModifierOwner,
        at_ms: i64,
    ) -> Result<Saved, StoreError> {
        written(
            &self.writes,
            || format!("save modifier {id}"),
            |reply| Job::SaveModifier {
                id: id.into(),
                descriptor: descriptor.into(),
                owner: owner.clone(),
                at_ms,
                reply,
            },
        )
        .await
    }

    async fn saved_modifiers(&self) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT id, descriptor FROM modifiers ORDER BY id")
            .fetch_all(&self.pool)
            .await
            .map_err(err("read the modifier library"))?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("descriptor")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("read the modifier library"))
    }

    async fn create_game(&self, g: &GameRow) -> Result<(), StoreError> {
        written(
            &self.writes,
            || format!("create game {}", g.id),
            |reply| Job::Create {
                row: g.clone(),
                reply,
            },
        )
        .await
    }

    async fn append(
        &self,
        game_id: &str,
        e: &Entry,
        finished: Option<&str>,
    ) -> Result<(), StoreError> {
        written(
            &self.writes,
            || format!("append input {} of game {game_id}", e.seq),
            |reply| Job::Append {
                game_id: game_id.into(),
                entry: e.clone(),
                finished: finished.map(str::to_string),
                fence: None,
                reply,
            },
        )
        .await
    }

    async fn take_seat(
        &self,
        game_id: &str,
        seat: SeatName,
        token: &str,
        status: &str,
    ) -> Result<bool, StoreError> {
        // The column name comes from a closed set, never from a client.
        let column = if seat == "white" {
            "white_token"
        } else {
            "black_token"
        };
        written(
            &self.writes,
            || format!("take seat {seat} of game {game_id}"),
            |reply| Job::TakeSeat {
                game_id: game_id.into(),
                column,
                token: token.into(),
                status: status.into(),
                reply,
            },
        )
        .await
    }

    async fn set_request(&self, game_id: &str, request: &str) -> Result<(), StoreError> {
        written(
            &self.writes,
            || format!("name a seat of game {game_id}"),
            |reply| Job::SetRequest {
                game_id: game_id.into(),
                request: request.into(),
                reply,
            },
        )
        .await
    }

    async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, request, white_token, black_token, status, result, created_ms \
             FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(err(format!("read game {id}")))?;
        row.as_ref()
            .map(game_row)
            .transpose()
            .map_err(err(format!("read game {id}")))
    }

    async fn entries(&self, id: &str) -> Result<Vec<Entry>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, body, at_ms, white_ms, black_ms FROM inputs \
             WHERE game_id = $1 ORDER BY seq",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await
        .map_err(err(format!("read the log of game {id}")))?;
        rows.iter()
            .map(|r| {
                Ok(Entry {
                    seq: r.try_get("seq")?,
                    body: r.try_get("body")?,
                    at_ms: r.try_get("at_ms")?,
                    white_ms: r.try_get("white_ms")?,
                    black_ms: r.try_get("black_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err(format!("read the log of game {id}")))
    }

    async fn list(&self, status: Option<&str>, limit: i64) -> Result<Vec<Summary>, StoreError> {
        let q = match status {
            Some(s) => sqlx::query(
                "SELECT id, status, request, result, created_ms, \
                 (SELECT COUNT(*) FROM inputs WHERE inputs.game_id = games.id) AS inputs, \
                 (SELECT MAX(at_ms) FROM inputs WHERE inputs.game_id = games.id) AS last_input_ms \
                 FROM games WHERE status = $1 ORDER BY created_ms DESC, id LIMIT $2",
            )
            .bind(s.to_string())
            .bind(limit),
            None => sqlx::query(
                "SELECT id, status, request, result, created_ms, \
                 (SELECT COUNT(*) FROM inputs WHERE inputs.game_id = games.id) AS inputs, \
                 (SELECT MAX(at_ms) FROM inputs WHERE inputs.game_id = games.id) AS last_input_ms \
                 FROM games ORDER BY created_ms DESC, id LIMIT $1",
            )
            .bind(limit),
        };
        let rows = q.fetch_all(&self.pool).await.map_err(err("list games"))?;
        rows.iter()
            .map(summary)
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("list games"))
    }

    async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE status <> 'finished' ORDER BY id")
            .fetch_all(&self.pool)
            .await
            .map_err(err("list unfinished games"))?;
        rows.iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("list unfinished games"))
    }

    async fn unfinished_summaries(&self) -> Result<Vec<Summary>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, status, request, result, created_ms, \
             (SELECT COUNT(*) FROM inputs WHERE inputs.game_id = games.id) AS inputs, \
                 (SELECT MAX(at_ms) FROM inputs WHERE inputs.game_id = games.id) AS last_input_ms \
             FROM games WHERE status <> 'finished' ORDER BY created_ms, id",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(err("list unfinished games"))?;
        rows.iter()
            .map(summary)
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("list unfinished games"))
    }

    async fn set_final_state(&self, game_id: &str, state: &str) -> Result<(), StoreError> {
        written(
            &self.writes,
            || format!("store the final state of game {game_id}"),
            |reply| Job::FinalState {
                game_id: game_id.into(),
                state: state.into(),
                reply,
            },
        )
        .await
    }

    /// One conditional write through the writer, no read: under churn
    /// (hundreds of games finished a second) the read of each finishing
    /// game queued on the reads' pool past its timeout (issue 21, session
    /// 19).
    async fn keep_final_state(&self, game_id: &str, state: &str) -> Result<(), StoreError> {
        written(
            &self.writes,
            || format!("store the final state of game {game_id}"),
            |reply| Job::KeepFinalState {
                game_id: game_id.into(),
                state: state.into(),
                reply,
            },
        )
        .await
    }

    async fn mark_alive(&self, at_ms: i64) -> Result<(), StoreError> {
        written(
            &self.writes,
            || "record that the server runs".to_string(),
            |reply| Job::Alive { at_ms, reply },
        )
        .await
    }

    async fn last_alive(&self) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT alive_ms FROM node_alive WHERE node_id = ''")
            .fetch_optional(&self.pool)
            .await
            .map_err(err("read when the server last ran".to_string()))?;
        match row {
            None => Ok(None),
            Some(r) => r
                .try_get::<i64, _>("alive_ms")
                .map(Some)
                .map_err(err("read when the server last ran".to_string())),
        }
    }

    async fn final_state(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT final_state FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(err(format!("read the final state of game {game_id}")))?;
        match row {
            None => Ok(None),
            Some(r) => r
                .try_get::<Option<String>, _>("final_state")
                .map_err(err(format!("read the final state of game {game_id}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::postgres_host_port;

    /// The host and port an unreachable Postgres is named by: never the
    /// user or password; 5432 (Postgres's default port) when none is given.
    #[test]
    fn postgres_host_port_leaves_out_the_user_and_password() {
        assert_eq!(
            postgres_host_port("postgres://ann:s3cret@db.example:6543/games"),
            "db.example:6543"
        );
        assert_eq!(
            postgres_host_port("postgresql://ann@10.0.0.2/games?sslmode=require"),
            "10.0.0.2:5432"
        );
        assert_eq!(postgres_host_port("postgres://[::1]:5433/x"), "[::1]:5433");
        assert_eq!(postgres_host_port("postgres://[::1]/x"), "[::1]:5432");
        assert_eq!(postgres_host_port("postgres:///x"), "localhost:5432");
    }
}
