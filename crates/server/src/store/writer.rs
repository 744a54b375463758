//! The store's one writer: a task that owns the only connection that
//! writes, and commits the writes that queue up while it is busy in one
//! transaction (group commit).
//!
//! Why: SQLite has one write lock. With a pool of writers, concurrent
//! games' appends fought for it (busy-handler sleeps, issue 21), and every
//! append paid its own commit. One writer never waits on the lock, and a
//! batch of N appends from N games costs one commit (one `fsync` of the WAL
//! at most, on SQLite; one commit round-trip on Postgres). The appends of a
//! batch go in one multi-row `INSERT` (the same SQL text on both
//! databases), so a busy server makes a few statements per commit rather
//! than one per move.
//!
//! Every caller is answered only after the transaction that holds its
//! write has committed (or failed): an acknowledged input is a committed
//! one, as before. Order: a batch keeps the order the writes were queued
//! in, and a game's task waits for each append before it sends the next,
//! so a game's inputs are committed in `seq` order.
//!
//! A batch that fails (one write refused, say a `seq` already taken) is
//! rolled back and its writes run again one transaction each, so that one
//! bad write fails alone and the others are committed.

use sqlx::any::AnyConnectOptions;
use sqlx::AnyConnection;
use sqlx::{AnyPool, ConnectOptions, Connection};
use tokio::sync::{mpsc, oneshot};

use super::{err, Entry, Fence, GameRow, ModifierOwner, Saved, StoreError, FENCED};

/// Writes queued before the writer starts a transaction at most; a larger
/// queue is committed in several transactions.
const MAX_BATCH: usize = 256;

/// Rows of one multi-row `INSERT` at most (6 parameters a row: 384, under
/// SQLite's 999 of old versions and Postgres's 65,535).
const ROWS_PER_INSERT: usize = 64;

/// One write and who waits for its outcome.
pub(super) enum Job {
    /// [`super::Store::append`].
    Append {
        game_id: String,
        entry: Entry,
        finished: Option<String>,
        /// The ownership it is made under ([`super::SqlStore::append_fenced`]).
        fence: Option<Fence>,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    /// [`super::Store::create_game`].
    Create {
        row: GameRow,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    /// [`super::Store::take_seat`].
    TakeSeat {
        game_id: String,
        column: &'static str,
        token: String,
        status: String,
        reply: oneshot::Sender<Result<bool, StoreError>>,
    },
    /// [`super::Store::set_request`].
    SetRequest {
        game_id: String,
        request: String,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    /// [`super::Store::save_modifier`].
    SaveModifier {
        id: String,
        descriptor: String,
        owner: ModifierOwner,
        at_ms: i64,
        reply: oneshot::Sender<Result<Saved, StoreError>>,
    },
    /// [`super::Store::set_final_state`].
    FinalState {
        game_id: String,
        state: String,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    /// [`super::Store::keep_final_state`]: the final state unless one is
    /// kept.
    KeepFinalState {
        game_id: String,
        state: String,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
    /// [`super::Store::mark_alive`].
    Alive {
        at_ms: i64,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
}

/// What a write gave.
#[derive(Debug, Clone, Copy)]
enum Done {
    /// A write with no value.
    Written,
    /// A [`Job::TakeSeat`]: whether the seat was free.
    Seat(bool),
    /// A [`Job::SaveModifier`].
    Modifier(Saved),
}

impl Job {
    /// Answers the caller.
    fn answer(self, r: Result<Done, StoreError>) {
        match self {
            Job::TakeSeat { reply, .. } => {
                let _ = reply.send(r.map(|d| matches!(d, Done::Seat(true))));
            }
            Job::SaveModifier { reply, .. } => {
                let _ = reply.send(r.map(|d| match d {
                    Done::Modifier(s) => s,
                    // Never: a save answers with its outcome.
                    _ => Saved::NotOwner,
                }));
            }
            Job::Append { reply, .. }
            | Job::Create { reply, .. }
            | Job::SetRequest { reply, .. }
            | Job::FinalState { reply, .. }
            | Job::KeepFinalState { reply, .. }
            | Job::Alive { reply, .. } => {
                let _ = reply.send(r.map(|_| ()));
            }
        }
    }

    /// The operation's name in errors.
    fn op(&self) -> String {
        match self {
            Job::Append { game_id, entry, .. } => {
                format!("append input {} of game {game_id}", entry.seq)
            }
            Job::Create { row, .. } => format!("create game {}", row.id),
            Job::TakeSeat {
                game_id, column, ..
            } => format!(
                "take seat {} of game {game_id}",
                column.trim_end_matches("_token")
            ),
            Job::SetRequest { game_id, .. } => format!("name a seat of game {game_id}"),
            Job::SaveModifier { id, .. } => format!("save modifier {id}"),
            Job::FinalState { game_id, .. } | Job::KeepFinalState { game_id, .. } => {
                format!("store the final state of game {game_id}")
            }
            Job::Alive { .. } => "record that the server runs".to_string(),
        }
    }
}

/// How long the writer waits, once a batch has begun, for the writes of
/// other games before it commits, when writes arrive fast (see
/// [`Linger`]): by default not at all; `HOUSERULES_WRITE_LINGER_US` sets
/// it in microseconds. Why it exists: at 1,000 moves a second over 1,000
/// games a batch held about one append, and each batch costs the same
/// wake-ups (the writer, sqlx's SQLite thread and back, the game) and one
/// commit whatever it holds; waiting 2 ms put two or three appends in a
/// batch and cut the server's CPU per move on SQLite by about a sixth
/// (docs/load.md § Session 19). Why it is off: the wait is added to every
/// acknowledgement, and at 2,000 moves a second over 5,000 games it took
/// the ack p99 from 16–37 ms to 35–76 ms (1 ms: 59 ms), past the 20 ms
/// goal of issue 21. An input is answered only after its commit either
/// way.
const LINGER_DEFAULT: std::time::Duration = std::time::Duration::ZERO;

/// Writes a second at which the writer starts to wait, when a wait is set
/// ([`LINGER_DEFAULT`]): below it (one game played at a time, a test)
/// every write is committed as soon as it comes.
const LINGER_FROM_RATE: f64 = 300.0;

/// The writer's estimate of how fast writes come, to decide whether a
/// batch waits for more ([`LINGER_DEFAULT`]).
struct Linger {
    /// How long to wait, zero for never.
    wait: std::time::Duration,
    /// Writes a second, decayed over [`Linger::TAU`].
    rate: f64,
    /// When `rate` was last updated.
    at: std::time::Instant,
}

impl Linger {
    /// The estimate's time constant.
    const TAU: f64 = 0.1;

    fn new() -> Linger {
        let wait = std::env::var("HOUSERULES_WRITE_LINGER_US")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map_or(LINGER_DEFAULT, std::time::Duration::from_micros);
        Linger {
            wait,
            rate: 0.0,
            at: std::time::Instant::now(),
        }
    }

    /// `n` writes came now; whether the batch they begin should wait.
    fn arrived(&mut self, n: usize) -> bool {
        let now = std::time::Instant::now();
        let dt = now.duration_since(self.at).as_secs_f64();
        self.at = now;
        self.rate = self.rate * (-dt / Self::TAU).exp() + n as f64 / Self::TAU;
        !self.wait.is_zero() && self.rate >= LINGER_FROM_RATE
    }
}

/// How long the writer's own connection may sit idle before it is pinged
/// ahead of the next batch.
const IDLE_PING: std::time::Duration = std::time::Duration::from_secs(1);

/// Where the writer writes.
pub(super) enum Target {
    /// A pool it shares with the reads (an in-memory SQLite database is one
    /// connection's own): a connection is taken per batch.
    Pool(AnyPool),
    /// Its own connection, kept for good and opened again after it broke.
    /// Why not a pool of one: sqlx pings a pooled connection when it is
    /// taken and again (in a task of its own) when it is given back, two
    /// more trips to SQLite's worker thread per batch (issue 21: thread
    /// switches were half the server's CPU per move).
    Own {
        /// The connection, `None` after it broke.
        conn: Option<AnyConnection>,
        /// How to open it again.
        options: AnyConnectOptions,
        /// What to run on a new connection ([`super::setup`]).
        sqlite: bool,
        /// The Postgres schema, if any.
        schema: Option<String>,
    },
}

/// Starts the writer task on `target`; writes are sent to the returned
/// queue. The task ends when every sender is gone.
pub(super) fn spawn(target: Target) -> mpsc::UnboundedSender<Job> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(run(target, rx));
    tx
}

async fn run(mut target: Target, mut rx: mpsc::UnboundedReceiver<Job>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    let mut last_used = std::time::Instant::now();
    let mut linger = Linger::new();
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        if batch.len() < MAX_BATCH && linger.arrived(batch.len()) {
            // Writes come fast: the other games' writes of the next moments
            // join this batch. One timer, then what queued meanwhile.
            tokio::time::sleep(linger.wait).await;
            let before = batch.len();
            while batch.len() < MAX_BATCH {
                match rx.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            linger.arrived(batch.len() - before);
        }
        // A connection of its own that sat idle may have been closed under
        // it (a Postgres restart while another node owned the games: the
        // first write after it failed, cluster test
        // `a_postgres_restart_loses_nothing`). One ping after an idle
        // second, never under load, finds it before a batch is refused.
        if let Target::Own { conn, .. } = &mut target {
            if last_used.elapsed() >= IDLE_PING {
                if let Some(c) = conn.as_mut() {
                    if c.ping().await.is_err() {
                        *conn = None;
                    }
                }
            }
        }
        last_used = std::time::Instant::now();
        let mut pooled;
        let conn: &mut AnyConnection = match &mut target {
            Target::Pool(pool) => match pool.acquire().await {
                Ok(c) => {
                    pooled = c;
                    &mut pooled
                }
                Err(e) => {
                    fail_all(&mut batch, &e.to_string());
                    continue;
                }
            },
            Target::Own {
                conn,
                options,
                sqlite,
                schema,
            } => {
                if conn.is_none() {
                    match open(options, *sqlite, schema.clone()).await {
                        Ok(c) => *conn = Some(c),
                        Err(e) => {
                            fail_all(&mut batch, &e.to_string());
                            continue;
                        }
                    }
                }
                conn.as_mut().expect("opened above")
            }
        };
        let failed = match write(conn, &batch).await {
            Ok(done) => {
                for (job, d) in batch.drain(..).zip(done) {
                    job.answer(Ok(d));
                }
                false
            }
            Err(_) if batch.len() > 1 => {
                // One write failed the batch: each again on its own.
                for job in batch.drain(..) {
                    let r = write(conn, std::slice::from_ref(&job)).await;
                    job.answer(r.map(|d| d.first().copied().unwrap_or(Done::Written)));
                }
                true
            }
            Err(e) => {
                fail_all(&mut batch, &e.message);
                true
            }
        };
        // A failure may be a broken connection (the server restarted, the
        // file went away): a connection of its own that no longer answers
        // is opened again for the next batch.
        if failed && conn.ping().await.is_err() {
            if let Target::Own { conn, .. } = &mut target {
                *conn = None;
            }
        }
    }
    match target {
        Target::Pool(pool) => pool.close().await,
        Target::Own { conn, .. } => {
            if let Some(c) = conn {
                let _ = c.close().await;
            }
        }
    }
}

/// Answers every job of `batch` with `message`.
fn fail_all(batch: &mut Vec<Job>, message: &str) {
    for job in batch.drain(..) {
        let op = job.op();
        job.answer(Err(StoreError {
            op,
            message: message.to_string(),
        }));
    }
}

/// A new connection of the writer's own, set up.
pub(super) async fn open(
    options: &AnyConnectOptions,
    sqlite: bool,
    schema: Option<String>,
) -> Result<AnyConnection, sqlx::Error> {
    let mut conn = options.connect().await?;
    super::setup(&mut conn, sqlite, schema).await?;
    Ok(conn)
}

/// Runs `jobs` in one transaction; what each gave, in order. A batch of
/// plain appends (no fence, no game finished) that fits one `INSERT` is
/// that one statement with no `BEGIN` and `COMMIT` around it: a statement
/// is a transaction of its own on both databases, and this saves two trips
/// to the database per batch.
async fn write(conn: &mut AnyConnection, jobs: &[Job]) -> Result<Vec<Done>, StoreError> {
    let op = || {
        if jobs.len() == 1 {
            jobs[0].op()
        } else {
            format!("commit {} writes", jobs.len())
        }
    };
    let plain = jobs.len() <= ROWS_PER_INSERT
        && jobs.iter().all(|j| {
            matches!(
                j,
                Job::Append {
                    fence: None,
                    finished: None,
                    ..
                }
            )
        });
    if plain {
        append_rows(conn, jobs).await.map_err(err(op()))?;
        return Ok(vec![Done::Written; jobs.len()]);
    }
    let fenced_only = jobs.len() <= ROWS_PER_INSERT
        && jobs
            .iter()
            .all(|j| matches!(j, Job::Append { finished: None, .. }));
    if fenced_only {
        append_fenced_rows(conn, jobs).await.map_err(err(op()))?;
        return Ok(vec![Done::Written; jobs.len()]);
    }
    let mut tx = conn.begin().await.map_err(err(op()))?;
    check_fences(&mut tx, jobs).await.map_err(err(op()))?;
    let mut done = Vec::with_capacity(jobs.len());
    let mut i = 0;
    while i < jobs.len() {
        // A run of appends: one multi-row INSERT per chunk.
        let run = jobs[i..]
            .iter()
            .take(ROWS_PER_INSERT)
            .take_while(|j| matches!(j, Job::Append { .. }))
            .count();
        if run > 0 {
            append_rows(&mut tx, &jobs[i..i + run])
                .await
                .map_err(err(op()))?;
            done.extend(std::iter::repeat_n(Done::Written, run));
            i += run;
            continue;
        }
        done.push(one(&mut tx, &jobs[i]).await.map_err(err(op()))?);
        i += 1;
    }
    tx.commit().await.map_err(err(op()))?;
    Ok(done)
}

/// The fencing checks of a transaction's appends, first of all its
/// statements: each fenced append's owner row must still name its node and
/// epoch. `FOR SHARE` holds the rows until the commit, so a take-over (an
/// UPDATE of the row) waits for this commit and then loads a log that has
/// these inputs; an append checked after a take-over sees the new epoch and
/// is refused.
///
/// The rows are locked in one statement, in `game_id` order, as the
/// cluster's lease renewal locks them ([`crate::cluster`]): a transaction
/// that took its rows one by one in the batch's order (as before) could hold
/// one game's row while waiting for another's that the renewal had just
/// updated, the renewal waiting in turn for the first: a deadlock, which
/// Postgres broke after its `deadlock_timeout` (1 s) by failing the renewal
/// — under load each second, until the leases ran out while their games
/// were played (issue 24, session 17; tests/cluster.rs,
/// `renewals_and_fenced_appends_do_not_deadlock`).
async fn check_fences(conn: &mut AnyConnection, jobs: &[Job]) -> Result<(), sqlx::Error> {
    let mut fences: Vec<(&str, &Fence)> = jobs
        .iter()
        .filter_map(|j| match j {
            Job::Append {
                game_id,
                fence: Some(f),
                ..
            } => Some((game_id.as_str(), f)),
            _ => None,
        })
        .collect();
    if fences.is_empty() {
        return Ok(());
    }
    fences.sort_by(|a, b| a.0.cmp(b.0));
    let mut ids: Vec<&str> = fences.iter().map(|(g, _)| *g).collect();
    ids.dedup();
    let mut sql = String::from("SELECT game_id, node_id, epoch FROM game_owner WHERE game_id IN (");
    for k in 1..=ids.len() {
        if k > 1 {
            sql.push_str(", ");
        }
        sql.push_str(&format!("${k}"));
    }
    sql.push_str(") ORDER BY game_id FOR SHARE");
    let mut q = sqlx::query_as::<_, (String, String, i64)>(&sql);
    for id in &ids {
        q = q.bind(*id);
    }
    let rows = q.fetch_all(&mut *conn).await?;
    for (game_id, f) in fences {
        let row = rows.iter().find(|(g, _, _)| g == game_id);
        let epoch = row.filter(|(_, n, _)| *n == f.node).map(|(_, _, e)| *e);
        if epoch != Some(f.epoch) {
            return Err(sqlx::Error::Protocol(format!(
                "{FENCED} (game {game_id}: epoch {} taken, now {})",
                f.epoch,
                epoch.map_or("another node's".to_string(), |e| e.to_string())
            )));
        }
    }
    Ok(())
}

/// A batch of appends (all [`Job::Append`], some fenced, none finishing a
/// game) in one statement, its own transaction: the owner rows of the
/// fenced games locked `FOR SHARE` in `game_id` order (as
/// [`check_fences`]), and the inputs inserted only if every fence holds,
/// else none (an error naming the fence; the caller writes a failed batch
/// again one append at a time, each then refused or written on its own).
///
/// One round trip instead of four (`BEGIN`, the fence check, the
/// `INSERT`, `COMMIT`): under load the owner rows stayed locked while the
/// node's writer waited to be scheduled between them, and the ack of every
/// input of the batch waited for all four (issue 24, session 18: Postgres
/// spent most of its samples "idle in transaction", waiting for the
/// writer's next statement).
async fn append_fenced_rows(conn: &mut AnyConnection, appends: &[Job]) -> Result<(), sqlx::Error> {
    let mut fences: Vec<(&str, &str, i64)> = appends
        .iter()
        .filter_map(|j| match j {
            Job::Append {
                game_id,
                fence: Some(f),
                ..
            } => Some((game_id.as_str(), f.node.as_str(), f.epoch)),
            _ => None,
        })
        .collect();
    fences.sort_unstable();
    fences.dedup();
    let mut ids: Vec<&str> = fences.iter().map(|f| f.0).collect();
    ids.dedup();
    let mut k = 0;
    let mut next = || {
        k += 1;
        format!("${k}")
    };
    let mut sql = String::new();
    if !fences.is_empty() {
        sql.push_str(
            "WITH f AS (SELECT game_id, node_id, epoch FROM game_owner WHERE game_id IN (",
        );
        let list: Vec<String> = ids.iter().map(|_| next()).collect();
        sql.push_str(&list.join(", "));
        sql.push_str(") ORDER BY game_id FOR SHARE), v (game_id, node_id, epoch) AS (VALUES ");
        let list: Vec<String> = fences
            .iter()
            .map(|_| format!("({}::text, {}::text, {}::bigint)", next(), next(), next()))
            .collect();
        sql.push_str(&list.join(", "));
        sql.push_str(
            "), ok AS (SELECT count(*) AS n FROM f JOIN v ON f.game_id = v.game_id \
             AND f.node_id = v.node_id AND f.epoch = v.epoch) ",
        );
    }
    sql.push_str(
        "INSERT INTO inputs (game_id, seq, body, at_ms, white_ms, black_ms) \
         SELECT * FROM (VALUES ",
    );
    let rows: Vec<String> = appends
        .iter()
        .map(|_| {
            format!(
                "({}::text, {}::bigint, {}::text, {}::bigint, {}::bigint, {}::bigint)",
                next(),
                next(),
                next(),
                next(),
                next(),
                next()
            )
        })
        .collect();
    sql.push_str(&rows.join(", "));
    sql.push_str(") AS x (game_id, seq, body, at_ms, white_ms, black_ms)");
    if !fences.is_empty() {
        sql.push_str(&format!(" WHERE (SELECT n FROM ok) = {}", fences.len()));
    }
    let mut q = sqlx::query(&sql);
    for id in &ids {
        q = q.bind(*id);
    }
    for (game_id, node, epoch) in &fences {
        q = q.bind(*game_id).bind(*node).bind(*epoch);
    }
    q = bind_inputs(q, appends);
    let done = q.execute(&mut *conn).await?;
    if done.rows_affected() != appends.len() as u64 {
        let which = match fences.as_slice() {
            [(g, _, e)] => format!("game {g}: epoch {e} taken"),
            _ => format!("one of games {}", ids.join(", ")),
        };
        return Err(sqlx::Error::Protocol(format!(
            "{FENCED} ({which}; the owner row names another node or epoch now)"
        )));
    }
    Ok(())
}

/// Binds the six columns of each [`Job::Append`]'s input row, in order
/// (the fenced and the plain multi-row `INSERT` write the same rows).
fn bind_inputs<'q>(
    mut q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    appends: &'q [Job],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    for j in appends {
        if let Job::Append { game_id, entry, .. } = j {
            q = q
                .bind(game_id.as_str())
                .bind(entry.seq)
                .bind(entry.body.as_str())
                .bind(entry.at_ms)
                .bind(entry.white_ms)
                .bind(entry.black_ms);
        }
    }
    q
}

/// The inputs of `appends` (all [`Job::Append`]) in one `INSERT`, then the
/// games they finish marked finished (their fences were checked first,
/// [`check_fences`]).
async fn append_rows(conn: &mut AnyConnection, appends: &[Job]) -> Result<(), sqlx::Error> {
    let mut sql =
        String::from("INSERT INTO inputs (game_id, seq, body, at_ms, white_ms, black_ms) VALUES ");
    for k in 0..appends.len() {
        let b = k * 6;
        if k > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!(
            "(${}, ${}, ${}, ${}, ${}, ${})",
            b + 1,
            b + 2,
            b + 3,
            b + 4,
            b + 5,
            b + 6
        ));
    }
    let mut q = sqlx::query(&sql);
    q = bind_inputs(q, appends);
    q.execute(&mut *conn).await?;
    for j in appends {
        if let Job::Append {
            game_id,
            finished: Some(result),
            ..
        } = j
        {
            sqlx::query("UPDATE games SET status = 'finished', result = $1 WHERE id = $2")
                .bind(result.as_str())
                .bind(game_id.as_str())
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}

/// One write other than an append.
async fn one(conn: &mut AnyConnection, job: &Job) -> Result<Done, sqlx::Error> {
    match job {
        Job::Append { .. } => unreachable!("appends are written by append_rows"),
        Job::Create { row: g, .. } => {
            sqlx::query(
                "INSERT INTO games (id, request, white_token, black_token, status, result, created_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(g.id.as_str())
            .bind(g.request.as_str())
            .bind(g.white_token.as_deref())
            .bind(g.black_token.as_deref())
            .bind(g.status.as_str())
            .bind(g.result.as_deref())
            .bind(g.created_ms)
            .execute(conn)
            .await?;
            Ok(Done::Written)
        }
        Job::TakeSeat {
            game_id,
            column,
            token,
            status,
            ..
        } => {
            // The column name comes from a closed set, never from a client.
            let done = sqlx::query(&format!(
                "UPDATE games SET {column} = $1, status = $2 WHERE id = $3 AND {column} IS NULL"
            ))
            .bind(token.as_str())
            .bind(status.as_str())
            .bind(game_id.as_str())
            .execute(conn)
            .await?;
            Ok(Done::Seat(done.rows_affected() == 1))
        }
        Job::SetRequest {
            game_id, request, ..
        } => {
            sqlx::query("UPDATE games SET request = $1 WHERE id = $2")
                .bind(request.as_str())
                .bind(game_id.as_str())
                .execute(conn)
                .await?;
            Ok(Done::Written)
        }
        Job::SaveModifier {
            id,
            descriptor,
            owner,
            at_ms,
            ..
        } => Ok(Done::Modifier(
            save_modifier(conn, id, descriptor, owner, *at_ms).await?,
        )),
        Job::Alive { at_ms, .. } => {
            sqlx::query(
                "INSERT INTO node_alive (node_id, alive_ms) VALUES ('', $1) \
                 ON CONFLICT (node_id) DO UPDATE SET alive_ms = excluded.alive_ms",
            )
            .bind(*at_ms)
            .execute(conn)
            .await?;
            Ok(Done::Written)
        }
        Job::KeepFinalState { game_id, state, .. } => {
            sqlx::query("UPDATE games SET final_state = $1 WHERE id = $2 AND final_state IS NULL")
                .bind(state.as_str())
                .bind(game_id.as_str())
                .execute(conn)
                .await?;
            Ok(Done::Written)
        }
        Job::FinalState { game_id, state, .. } => {
            sqlx::query("UPDATE games SET final_state = $1 WHERE id = $2")
                .bind(state.as_str())
                .bind(game_id.as_str())
                .execute(conn)
                .await?;
            Ok(Done::Written)
        }
    }
}

/// [`super::Store::save_modifier`]: three conditional statements, each
/// atomic on its own, so that whatever runs between them (another node's
/// save of the same id) one first save wins and the other is refused.
async fn save_modifier(
    conn: &mut AnyConnection,
    id: &str,
    descriptor: &str,
    owner: &ModifierOwner,
    at_ms: i64,
) -> Result<Saved, sqlx::Error> {
    // The owner saves again.
    if let Some(given) = &owner.given_hash {
        let done = sqlx::query(
            "UPDATE modifiers SET descriptor = $1, saved_ms = $2 WHERE id = $3 AND owner_hash = $4",
        )
        .bind(descriptor)
        .bind(at_ms)
        .bind(id)
        .bind(given.as_str())
        .execute(&mut *conn)
        .await?;
        if done.rows_affected() == 1 {
            return Ok(Saved::Replaced);
        }
    }
    // A new id (both dialects have `ON CONFLICT … DO NOTHING`).
    let done = sqlx::query(
        "INSERT INTO modifiers (id, descriptor, saved_ms, owner_hash) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (id) DO NOTHING",
    )
    .bind(id)
    .bind(descriptor)
    .bind(at_ms)
    .bind(owner.new_hash.as_str())
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 1 {
        return Ok(Saved::Created);
    }
    // A rule saved before rules had owners: this save claims it.
    let done = sqlx::query(
        "UPDATE modifiers SET descriptor = $1, saved_ms = $2, owner_hash = $3 \
         WHERE id = $4 AND owner_hash IS NULL",
    )
    .bind(descriptor)
    .bind(at_ms)
    .bind(owner.new_hash.as_str())
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(if done.rows_affected() == 1 {
        Saved::Created
    } else {
        Saved::NotOwner
    })
}
