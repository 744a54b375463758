//! Many nodes on one Postgres database and one NATS server (issue 24):
//! one owner per live game, any node serves any game, failover, drain.
//!
//! - **Ownership** ([`Cluster::acquire`]): a row of `game_owner` per game a
//!   node has taken: the node (its id and a random incarnation) and a
//!   fencing epoch raised by every take-over; and a lease per node
//!   (`node_lease`: 3 s by the database's clock) renewed every second, one
//!   row whatever the number of games the node owns. A node takes a game
//!   when it loads it, if the game is its own, released, or its owner's
//!   lease expired. Each append of the owner checks the row in its own
//!   transaction ([`crate::store::Fence`]): a node whose game was taken
//!   over (it was paused, or partitioned) cannot write; its write is
//!   refused, it drops the game and its sockets are told to reconnect
//!   ([`fenced`]).
//! - **Routing** ([`route`]): the owner subscribes to the game's command
//!   subject; a node with a socket or a request for a game it does not own
//!   forwards the game's commands there (NATS request/reply) and relays
//!   the owner's messages, numbered per connection, to its socket; a gap
//!   in the numbers asks the owner to resync. The game's task gets the same
//!   commands whoever sent them (a local socket, another node, a timer).
//! - **Failover**: every node sweeps each second for games whose lease
//!   expired (their node died) and takes them, so clocks, choice timers
//!   and engine seats go on with no traffic. Nodes publish a heartbeat each
//!   half second; connections whose node went silent are let go.
//! - **Drain**: when the server stops it takes no new game; its games end
//!   between inputs, their leases are released at once (the survivors'
//!   sweeps take them), and every socket is told to reconnect (1012).
//!
//! NATS subjects (`hr` by default, [`ClusterConfig::prefix`]):
//! `hr.g.<game>.cmd` (requests to the owner), `hr.g.<game>.moved` (a new
//! owner took the game: relays reconnect their sockets),
//! `hr.c.<node>.<key>` (the owner's messages for one relayed connection),
//! `hr.node.<node>` (heartbeats).

pub mod fenced;
pub mod route;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::mpsc;

use crate::game::{Cmd, GameHandle};
use crate::store::{SqlStore, Store as _};
use crate::AppState;

/// The Postgres expression of "now" in milliseconds since the Unix epoch,
/// by the database's clock (all leases are read and written by one clock).
const NOW_MS: &str = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT";

/// How long a node may be silent on NATS before its relayed connections
/// are let go and relays to it reconnect their sockets.
const SILENT: Duration = Duration::from_secs(3);

/// Games a sweep takes at most.
const SWEEP_BATCH: i64 = 50;

/// A node's cluster settings (`houserules serve --cluster URL
/// [--node-id ID]`).
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// The NATS server, `nats://HOST:PORT`.
    pub nats: String,
    /// The node's name in logs and in `game_owner` (a random incarnation
    /// is added, so that a restarted node with the same name never passes
    /// for its earlier self); by default the host name and process id.
    pub node_id: Option<String>,
    /// The first token of every NATS subject (`hr`): clusters that share
    /// a NATS server use different ones (the tests do).
    pub prefix: String,
    /// How long a lease lasts without renewal (3 s).
    pub lease: Duration,
    /// How often leases are renewed and orphaned games swept (1 s).
    pub tick: Duration,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            nats: "nats://127.0.0.1:4222".into(),
            node_id: None,
            prefix: "hr".into(),
            lease: Duration::from_secs(3),
            tick: Duration::from_secs(1),
        }
    }
}

/// A game this node owns and serves on NATS.
struct Serving {
    epoch: i64,
    task: tokio::task::AbortHandle,
    /// The game's task (replaced when the game is loaded again).
    game: Arc<Mutex<mpsc::WeakSender<Cmd>>>,
}

/// A connection of another node held by one of this node's games.
struct RemoteConn {
    node: String,
    conn: u64,
    game: mpsc::WeakSender<Cmd>,
    /// When its hello came.
    since: Instant,
}

/// Where a game's commands go.
pub(crate) enum Route {
    /// This node runs its task.
    Local(GameHandle),
    /// Another node owns it (its node id, as in `game_owner`).
    Remote(String),
}

/// This node's part in the cluster.
pub struct Cluster {
    /// `<id>-<incarnation>` (the incarnation: 8 random hex digits).
    node: String,
    nats: async_nats::Client,
    sql: Arc<SqlStore>,
    config: ClusterConfig,
    /// The epoch of each game this node took (the appends' fences).
    epochs: Mutex<HashMap<String, i64>>,
    /// The games whose command subject this node serves.
    serving: tokio::sync::Mutex<HashMap<String, Serving>>,
    /// Other nodes' connections to this node's games, by relay key.
    remote: Mutex<HashMap<String, RemoteConn>>,
    /// When each other node was last heard.
    seen: Mutex<HashMap<String, Instant>>,
    started: Instant,
    draining: AtomicBool,
    /// Set when the drain released the games: no renewal, no heartbeat.
    stopped: AtomicBool,
    /// Games whose append was fenced, to let go.
    evictions: mpsc::UnboundedSender<String>,
    evicted: Mutex<Option<mpsc::UnboundedReceiver<String>>>,
    app: OnceLock<Weak<AppState>>,
}

/// Whether a game id can be a NATS subject token (the server's ids are
/// hex; anything else is served locally, where it is not found).
fn routable(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Cluster {
    /// Connects to NATS and names this node.
    ///
    /// # Errors
    /// NATS does not answer.
    pub async fn connect(
        config: ClusterConfig,
        sql: Arc<SqlStore>,
    ) -> Result<Arc<Cluster>, String> {
        let name = config.node_id.clone().unwrap_or_else(|| {
            let host = std::fs::read_to_string("/etc/hostname")
                .map(|h| h.trim().to_string())
                .unwrap_or_else(|_| "node".into());
            format!("{host}-{}", std::process::id())
        });
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(format!(
                "--node-id {name:?}: use letters, digits, '-' and '_' only (it names NATS subjects)"
            ));
        }
        let node = format!("{name}-{}", crate::random_hex(4));
        let nats = async_nats::ConnectOptions::new()
            .name(&node)
            .connection_timeout(Duration::from_secs(3))
            .request_timeout(Some(Duration::from_secs(2)))
            .connect(config.nats.as_str())
            .await
            .map_err(|e| format!("--cluster {}: cannot reach NATS: {e}", config.nats))?;
        let (tx, rx) = mpsc::unbounded_channel();
        Ok(Arc::new(Cluster {
            node,
            nats,
            sql,
            config,
            epochs: Mutex::default(),
            serving: tokio::sync::Mutex::default(),
            remote: Mutex::default(),
            seen: Mutex::default(),
            started: Instant::now(),
            draining: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            evictions: tx,
            evicted: Mutex::new(Some(rx)),
            app: OnceLock::new(),
        }))
    }

    /// This node's id and incarnation (as stored in `game_owner`).
    pub fn node(&self) -> &str {
        &self.node
    }

    fn subject(&self, rest: &str) -> String {
        format!("{}.{rest}", self.config.prefix)
    }

    fn app(&self) -> Option<Arc<AppState>> {
        self.app.get().and_then(Weak::upgrade)
    }

    /// Counts on this node's cluster metrics (nothing once the server
    /// is gone).
    pub(crate) fn count(&self, f: impl FnOnce(&crate::metrics::ClusterMetrics)) {
        if let Some(app) = self.app() {
            f(&app.metrics().cluster);
        }
    }

    /// The NATS server's address, as configured, a password in it
    /// hidden.
    pub fn nats_url(&self) -> String {
        crate::listen::redact_db_url(&self.config.nats)
    }

    /// Whether the NATS connection is up (`/readyz` on a cluster node).
    pub fn nats_connected(&self) -> bool {
        self.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// Sets the gauges read when scraped: games owned, other nodes'
    /// connections held, peers heard, NATS up.
    pub async fn observe(&self, m: &crate::metrics::ClusterMetrics) {
        m.games_owned.set(self.serving.lock().await.len() as i64);
        m.relayed("owner").set(lock(&self.remote).len() as i64);
        let peers = lock(&self.seen)
            .iter()
            .filter(|(n, t)| **n != self.node && t.elapsed() < SILENT)
            .count();
        m.peers.set(peers as i64);
        m.nats_connected.set(i64::from(self.nats_connected()));
    }

    /// Whether this node is stopping (it takes no game then).
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    /// Records `epoch` as this node's fence for `id`, unless a later epoch
    /// of this node is there already: two takes of one game on this node
    /// at once (a sweep and a socket's hello) raise the epoch twice, and
    /// the one that ends last must not leave the older epoch behind, whose
    /// appends would all be fenced (the store holds the later one).
    fn hold_epoch(&self, id: &str, epoch: i64) {
        let mut epochs = lock(&self.epochs);
        let e = epochs.entry(id.to_string()).or_insert(epoch);
        *e = (*e).max(epoch);
    }

    /// The fence of this node's appends to `game` (`None`: not its game).
    pub(crate) fn fence(&self, game: &str) -> Option<crate::store::Fence> {
        let epoch = *lock(&self.epochs).get(game)?;
        Some(crate::store::Fence {
            node: self.node.clone(),
            epoch,
        })
    }

    /// An append of `game` was fenced: the game is let go (in the
    /// background: the game's task is the one waiting on the append).
    pub(crate) fn fenced(&self, game: &str) {
        let _ = self.evictions.send(game.to_string());
    }

    /// Whether `node` was heard from within [`SILENT`], counting `since`
    /// (when it last answered otherwise: a hello, a relayed message) and
    /// this node's start as heard: after NATS comes back, the heartbeats
    /// may come a moment after the first answers. This node is always
    /// alive.
    pub(crate) fn alive(&self, node: &str, since: Instant) -> bool {
        if node == self.node {
            return true;
        }
        let heard = lock(&self.seen)
            .get(node)
            .map_or(since, |t| (*t).max(since))
            .max(self.started);
        heard.elapsed() < SILENT
    }

    /// Runs `work` each `period` in a task of its own, the first time one
    /// period after the start (which does the work itself), until the
    /// node stops or is dropped; a late run delays the next, never doubles it.
    fn every<F, Fut>(self: &Arc<Self>, period: Duration, work: F)
    where
        F: Fn(Arc<Self>) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = ()> + Send,
    {
        let me = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(period);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let Some(c) = me.upgrade() else { break };
                if c.stopped.load(Ordering::Relaxed) {
                    break;
                }
                work(c).await;
            }
        });
    }

    /// Starts the node's background work on `app` (heartbeats, renewals,
    /// sweeps, evictions), then takes the unfinished games that need a task
    /// and have no live owner (the cluster's start, or games whose node
    /// died before they got an owner row). Returns how many it took.
    ///
    /// # Errors
    /// NATS or the store fails.
    pub async fn start(self: &Arc<Self>, app: &Arc<AppState>) -> Result<usize, String> {
        let _ = self.app.set(Arc::downgrade(app));
        let _ = app.cluster.set(Arc::clone(self));
        let mut beats = self
            .nats
            .subscribe(self.subject("node.*"))
            .await
            .map_err(|e| format!("NATS: {e}"))?;
        let me = Arc::downgrade(self);
        let every = self.config.tick / 2;
        tokio::spawn(async move {
            while let Some(m) = beats.next().await {
                let Some(c) = me.upgrade() else { break };
                if let Some(node) = m.subject.rsplit('.').next() {
                    tracing::trace!(from = %node, node = %c.node, "heartbeat heard");
                    let now = Instant::now();
                    let last = lock(&c.seen).insert(node.to_string(), now);
                    // Beats come every `every`: a gap of k of them means
                    // k - 1 did not come (rounded, for the jitter).
                    let missed = last
                        .filter(|_| node != c.node)
                        .map(|t| missed_beats(now - t, every))
                        .unwrap_or(0);
                    if missed > 0 {
                        c.count(|m| {
                            m.heartbeats_missed.inc_by(missed);
                        });
                    }
                }
            }
            tracing::debug!("no longer hearing heartbeats (the subscription ended)");
        });
        if let Some(mut rx) = lock(&self.evicted).take() {
            let me = Arc::downgrade(self);
            tokio::spawn(async move {
                while let Some(id) = rx.recv().await {
                    let Some(c) = me.upgrade() else { break };
                    c.evict(&id).await;
                }
            });
        }
        // Heartbeats and lease ticks run apart: a tick waits on Postgres
        // (up to the pool's 10 s while it is down), and a node whose store
        // is away is still alive on NATS; its peers must not let go of its
        // relayed sockets for that (tests/cluster.rs,
        // a_postgres_restart_loses_nothing).
        let me = Arc::downgrade(self);
        let tick = self.config.tick;
        tokio::spawn(async move {
            let mut beat = tokio::time::interval(tick / 2);
            beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                beat.tick().await;
                let Some(c) = me.upgrade() else { break };
                if c.stopped.load(Ordering::Relaxed) {
                    break;
                }
                // None while NATS is away: its client would queue the beat
                // and send it on reconnecting, late, where it would pass
                // for a beat on time and hide the outage from the peers
                // (`…_heartbeats_missed_total`, `…_peers`).
                if !c.nats_connected() {
                    tracing::trace!(node = %c.node, "no heartbeat: NATS is not connected");
                    continue;
                }
                // Bounded: the client's queue may be full.
                let _ = tokio::time::timeout(
                    Duration::from_millis(100),
                    c.nats
                        .publish(c.subject(&format!("node.{}", c.node)), "".into()),
                )
                .await;
            }
        });
        // Renewals run in a loop of their own too: nothing else a tick does
        // (letting go of ended games, sweeping orphaned games and loading
        // them, waiting for the map of served games while games are
        // created) may hold one back. Under load a sweep that loaded 50
        // games took seconds, the node's own leases ran out meanwhile, and
        // the other nodes' sweeps took those in turn (issue 24, session 17).
        // The node's lease row exists before it takes a game: a game owned
        // by a node without a valid lease is free for the others.
        renew_lease(self.sql.lease_pool(), &self.node, self.config.lease)
            .await
            .map_err(|e| e.to_string())?;
        self.every(tick, |c| async move { c.renew().await });
        self.every(tick, |c| async move { c.tick().await });
        tokio::time::timeout(Duration::from_secs(5), self.nats.flush())
            .await
            .map_err(|_| "NATS: no answer within 5 s".to_string())?
            .map_err(|e| format!("NATS: {e}"))?;
        let games = self
            .sql
            .unfinished_summaries()
            .await
            .map_err(|e| e.to_string())?;
        let mut taken = 0;
        for g in games.iter().filter(|g| crate::archive::needs_task(g)) {
            if self.take(app, &g.id, "taken").await? {
                taken += 1;
            }
        }
        tracing::info!(node = %self.node, games = taken, "joined the cluster");
        Ok(taken)
    }

    /// Renews this node's lease (one row, [`renew_lease`]). When the lease
    /// had run out before this renewal (the node was paused, or cut off),
    /// other nodes may have taken some of its games meanwhile: the games it
    /// runs whose owner row no longer names it with its epoch are let go at
    /// once, before any write of them is tried (which would be refused).
    /// The letting go is the eviction task's, so that nothing but the
    /// statement holds back the next renewal.
    async fn renew(&self) {
        let t = Instant::now();
        match renew_lease(self.sql.lease_pool(), &self.node, self.config.lease).await {
            Ok(false) => {}
            Ok(true) => {
                tracing::warn!(node = %self.node, "this node's lease had run out: checking its games");
                self.check_owned().await;
            }
            Err(e) => tracing::warn!(error = %e, "renewing the lease failed"),
        }
        let took = t.elapsed();
        if took > self.config.tick {
            tracing::warn!(
                took_ms = took.as_millis() as u64,
                lease_ms = self.config.lease.as_millis() as u64,
                "renewing the lease took longer than a tick"
            );
        } else {
            tracing::trace!(took_ms = took.as_millis() as u64, "lease renewed");
        }
    }

    /// Lets go of the games this node runs whose owner row no longer names
    /// it with the epoch it holds (taken over while its lease had run out).
    async fn check_owned(&self) {
        let held: Vec<(String, i64)> = lock(&self.epochs)
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        if held.is_empty() {
            return;
        }
        let rows: Vec<(String, i64)> =
            match sqlx::query_as("SELECT game_id, epoch FROM game_owner WHERE node_id = $1")
                .bind(self.node.as_str())
                .fetch_all(self.sql.lease_pool())
                .await
            {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!(error = %e, "reading this node's games failed");
                    return;
                }
            };
        let mine: HashMap<String, i64> = rows.into_iter().collect();
        for (id, epoch) in held {
            if mine.get(&id) != Some(&epoch) && lock(&self.epochs).get(&id) == Some(&epoch) {
                self.fenced(&id);
            }
        }
    }

    /// One tick: let go of the games whose task ended, of the connections
    /// whose node went silent, and sweep (the renewals run apart,
    /// [`Cluster::renew`]).
    async fn tick(self: &Arc<Self>) {
        // Games whose task ended (unloaded when idle, or finished): released
        // for good (no owner needed until a request loads them again).
        let ended: Vec<(String, i64)> = {
            let mut serving = self.serving.lock().await;
            let gone: Vec<String> = serving
                .iter()
                .filter(|(_, s)| lock(&s.game).upgrade().is_none())
                .map(|(k, _)| k.clone())
                .collect();
            gone.into_iter()
                .filter_map(|k| {
                    let s = serving.remove(&k)?;
                    s.task.abort();
                    Some((k, s.epoch))
                })
                .collect()
        };
        for (id, epoch) in ended {
            self.forget_epoch(&id, epoch);
            self.release(&id, epoch, true).await;
            self.count(|m| m.lease("released"));
        }
        // Connections of silent nodes.
        let dead: Vec<RemoteConn> = {
            let mut remote = lock(&self.remote);
            let keys: Vec<String> = remote
                .iter()
                .filter(|(_, r)| !self.alive(&r.node, r.since))
                .map(|(k, _)| k.clone())
                .collect();
            keys.into_iter().filter_map(|k| remote.remove(&k)).collect()
        };
        for r in dead {
            if let Some(tx) = r.game.upgrade() {
                let _ = tx.send(Cmd::Gone { conn: r.conn }).await;
            }
        }
        if self.draining() {
            return;
        }
        let Some(app) = self.app() else { return };
        // Games whose node has no valid lease (it died, or drained and
        // left its games under a name no node renews).
        let sweep = format!(
            "SELECT o.game_id FROM game_owner o JOIN games g ON g.id = o.game_id \
             LEFT JOIN node_lease l ON l.node_id = o.node_id \
             WHERE o.node_id <> '' AND o.node_id <> $1 \
             AND (l.node_id IS NULL OR l.lease_until_ms < {NOW_MS}) \
             AND g.status <> 'finished' ORDER BY o.game_id LIMIT $2"
        );
        let orphans: Vec<String> = match sqlx::query_scalar(&sweep)
            .bind(self.node.as_str())
            .bind(SWEEP_BATCH)
            .fetch_all(self.sql.pool())
            .await
        {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!(error = %e, "the sweep failed");
                return;
            }
        };
        for id in orphans {
            match self.take(&app, &id, "swept").await {
                Ok(true) => {
                    tracing::info!(game = %id, node = %self.node, "took over an orphaned game");
                }
                Ok(false) => {}
                Err(e) => tracing::warn!(game = %id, error = %e, "taking over failed"),
            }
        }
    }

    fn forget_epoch(&self, id: &str, epoch: i64) {
        let mut epochs = lock(&self.epochs);
        if epochs.get(id) == Some(&epoch) {
            epochs.remove(id);
        }
    }

    /// Takes `id` if its lease is free or expired, and loads it; whether
    /// this node now owns it.
    async fn take(
        self: &Arc<Self>,
        app: &AppState,
        id: &str,
        reason: &str,
    ) -> Result<bool, String> {
        if app.registry().loaded(id).await.is_some() {
            return Ok(false);
        }
        let Some(epoch) = self.acquire(id).await? else {
            return Ok(false);
        };
        Ok(self.own(app, id, epoch, reason).await?.is_some())
    }

    /// Takes `id` for this node, raising its epoch, when it is this
    /// node's, released, or its owner's lease expired: the new epoch;
    /// `None` when another node with a valid lease holds it.
    ///
    /// # Errors
    /// The store fails.
    pub async fn acquire(&self, id: &str) -> Result<Option<i64>, String> {
        let sql = format!(
            "INSERT INTO game_owner (game_id, node_id, epoch, lease_until_ms) \
             VALUES ($1, $2, 1, 0) \
             ON CONFLICT (game_id) DO UPDATE SET node_id = excluded.node_id, \
             epoch = game_owner.epoch + 1 \
             WHERE game_owner.node_id = excluded.node_id OR game_owner.node_id = '' \
             OR NOT EXISTS (SELECT 1 FROM node_lease l WHERE l.node_id = game_owner.node_id \
             AND l.lease_until_ms >= {NOW_MS}) \
             RETURNING epoch"
        );
        sqlx::query_scalar(&sql)
            .bind(id)
            .bind(self.node.as_str())
            .fetch_optional(self.sql.pool())
            .await
            .map_err(|e| format!("store: take game {id}: {e}"))
    }

    /// The owner of `id` as stored, read without a lock: `Some(node)` when
    /// another node with a valid lease holds it; `None` when this node may
    /// try to take it (no owner row, released, this node's, or its owner's
    /// lease expired). A read first spares the common case (the owner is
    /// alive elsewhere) [`Cluster::acquire`]'s upsert, which locks the row
    /// even when it changes nothing, and so waited for (and held back) the
    /// owner's appends, whose fence check locks the row too.
    ///
    /// # Errors
    /// The store fails.
    async fn live_owner(&self, id: &str) -> Result<Option<String>, String> {
        let sql = format!(
            "SELECT o.node_id FROM game_owner o JOIN node_lease l ON l.node_id = o.node_id \
             WHERE o.game_id = $1 AND o.node_id <> $2 AND l.lease_until_ms >= {NOW_MS}"
        );
        sqlx::query_scalar(&sql)
            .bind(id)
            .bind(self.node.as_str())
            .fetch_optional(self.sql.pool())
            .await
            .map_err(|e| format!("store: read the owner of game {id}: {e}"))
    }

    /// Releases this node's lease of `id` taken with `epoch`: for good
    /// (`forever`: node '', no owner is needed until a request loads it) or
    /// for a survivor's sweep to take at once (a drain: the lease expired,
    /// under a node name this node's renewals do not match).
    async fn release(&self, id: &str, epoch: i64, forever: bool) {
        let to = if forever {
            String::new()
        } else {
            format!("{}~drained", self.node)
        };
        let sql = "UPDATE game_owner SET node_id = $4, lease_until_ms = 0 \
                   WHERE game_id = $1 AND node_id = $2 AND epoch = $3";
        if let Err(e) = sqlx::query(sql)
            .bind(id)
            .bind(self.node.as_str())
            .bind(epoch)
            .bind(to)
            .execute(self.sql.pool())
            .await
        {
            tracing::warn!(game = %id, error = %e, "releasing the lease failed");
        }
    }

    /// Loads `id` on this node under `epoch` and serves its command
    /// subject; `reason` is the ownership change counted
    /// (`taken` or `swept`).
    async fn own(
        self: &Arc<Self>,
        app: &AppState,
        id: &str,
        epoch: i64,
        reason: &str,
    ) -> Result<Option<GameHandle>, String> {
        self.hold_epoch(id, epoch);
        let h = match app.local_game(id).await {
            Ok(Some(h)) => h,
            other => {
                self.forget_epoch(id, epoch);
                self.release(id, epoch, true).await;
                return other;
            }
        };
        // The game's command subject is subscribed to with the map of
        // served games unlocked: a NATS round trip under that lock held
        // every other game's creation, and the ticks, behind it (issue 24,
        // session 17). A subscription made in vain (another request served
        // the game meanwhile) ends when dropped.
        let mut sub = None;
        loop {
            let mut serving = self.serving.lock().await;
            if let Some(s) = serving.get_mut(id) {
                s.epoch = s.epoch.max(epoch);
                *lock(&s.game) = h.tx.downgrade();
                break;
            }
            if let Some(sub) = sub.take() {
                let game = Arc::new(Mutex::new(h.tx.downgrade()));
                let task = tokio::spawn(route::serve_game(
                    Arc::downgrade(self),
                    id.to_string(),
                    Arc::clone(&game),
                    sub,
                ));
                serving.insert(
                    id.to_string(),
                    Serving {
                        epoch,
                        task: task.abort_handle(),
                        game,
                    },
                );
                break;
            }
            drop(serving);
            let s = self
                .nats
                .subscribe(self.subject(&format!("g.{id}.cmd")))
                .await
                .map_err(|e| format!("NATS: {e}"))?;
            // The subscription reaches the server before others are told
            // (bounded: NATS may be away; requests retry).
            let _ = tokio::time::timeout(Duration::from_secs(1), self.nats.flush()).await;
            sub = Some(s);
        }
        app.metrics().cluster.lease(reason);
        // A take-over is worth a line (trial 19: one caused by a
        // reconnecting client logged nothing); the sweep logs its own.
        if epoch > 1 && reason != "swept" {
            tracing::info!(game = %id, node = %self.node, epoch, reason, "took over a game");
        }
        self.publish_moved(id, epoch).await;
        Ok(Some(h))
    }

    async fn publish_moved(&self, id: &str, epoch: i64) {
        let body = serde_json::json!({"node": self.node, "epoch": epoch}).to_string();
        let subject = self.subject(&format!("g.{id}.moved"));
        let _ = tokio::time::timeout(
            Duration::from_millis(100),
            self.nats.publish(subject, body.into()),
        )
        .await;
    }

    /// Lets `id` go: another node took it over (this node's append was
    /// fenced). Its task ends between inputs and its sockets reconnect.
    async fn evict(&self, id: &str) {
        tracing::warn!(game = %id, node = %self.node, "the game was taken over by another node: letting it go");
        let held = lock(&self.epochs).remove(id).is_some();
        let served = self.serving.lock().await.remove(id);
        if held || served.is_some() {
            self.count(|m| m.lease("lost"));
        }
        if let Some(s) = served {
            s.task.abort();
        }
        if let Some(app) = self.app() {
            if let Some(h) = app.registry().take(id).await {
                let _ = h.tx.send(Cmd::Stop).await;
            }
        }
    }

    /// Where `id`'s commands go now: this node when it runs the game or
    /// can take it, else its owner.
    ///
    /// # Errors
    /// The store fails, or the game does not rebuild.
    pub(crate) async fn resolve(self: &Arc<Self>, id: &str) -> Result<Option<Route>, String> {
        let Some(app) = self.app() else {
            return Err("the node is stopping".into());
        };
        if let Some(h) = app.registry().loaded(id).await {
            return Ok(Some(Route::Local(h)));
        }
        if let Some(owner) = self.live_owner(id).await? {
            return Ok(Some(Route::Remote(owner)));
        }
        if !self.draining() {
            if let Some(epoch) = self.acquire(id).await? {
                return Ok(self.own(&app, id, epoch, "taken").await?.map(Route::Local));
            }
        }
        let owner: Option<String> =
            sqlx::query_scalar("SELECT node_id FROM game_owner WHERE game_id = $1")
                .bind(id)
                .fetch_optional(self.sql.pool())
                .await
                .map_err(|e| format!("store: read the owner of game {id}: {e}"))?;
        Ok(owner.map(Route::Remote))
    }

    /// [`AppState::game`] on a cluster node: the game's task when this
    /// node runs it or takes it; a handle that forwards to its owner when
    /// another node holds it; a finished game is loaded here (it takes no
    /// input).
    ///
    /// # Errors
    /// The store fails, or the game does not rebuild.
    pub(crate) async fn game(
        self: &Arc<Self>,
        app: &AppState,
        id: &str,
    ) -> Result<Option<GameHandle>, String> {
        if let Some(h) = app.registry().loaded(id).await {
            return Ok(Some(h));
        }
        if !routable(id) {
            return app.local_game(id).await;
        }
        let Some(row) = self.sql.game(id).await.map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        if row.status == "finished" {
            return app.local_game(id).await;
        }
        if !self.draining() && self.live_owner(id).await?.is_none() {
            if let Some(epoch) = self.acquire(id).await? {
                return self.own(app, id, epoch, "taken").await;
            }
        }
        Ok(Some(route::proxy(Arc::clone(self), id.to_string())))
    }

    /// The drain's last step, once the games' tasks have ended: their
    /// leases are released for the survivors' sweeps, and relays are told.
    pub async fn release_all(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        let all: Vec<(String, Serving)> = self.serving.lock().await.drain().collect();
        for (id, s) in &all {
            s.task.abort();
            self.release(id, s.epoch, false).await;
            self.count(|m| m.lease("drained"));
            self.publish_moved(id, s.epoch).await;
        }
        lock(&self.epochs).clear();
        // The node's lease ends now: whatever game still names it is the
        // survivors' at their next sweep.
        let end = "UPDATE node_lease SET lease_until_ms = 0 WHERE node_id = $1";
        if let Err(e) = sqlx::query(end)
            .bind(self.node.as_str())
            .execute(self.sql.lease_pool())
            .await
        {
            tracing::warn!(error = %e, "ending the node's lease failed");
        }
        let _ = tokio::time::timeout(Duration::from_secs(1), self.nats.flush()).await;
        tracing::info!(games = all.len(), node = %self.node, "released the games to the cluster");
    }

    /// Starts the drain: no game is taken from now on.
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::Relaxed);
    }

    /// How many games this node serves.
    pub async fn owned(&self) -> usize {
        self.serving.lock().await.len()
    }
}

/// Renews the lease of `node` for `lease` from now (by the database's
/// clock): one row of `node_lease`, inserted the first time. Whether the
/// lease had run out before (or had been removed): then other nodes may
/// have taken the node's games meanwhile.
///
/// One row per node, not one per game: renewing each game's row (as until
/// session 17) updated 10,000 rows a second at 10,000 games, and locked
/// each `FOR NO KEY UPDATE`, the lock the store's writer waits for when it
/// checks an append's fence (`store/writer.rs`, `check_fences`, `FOR
/// SHARE`): the owner's appends waited for every renewal of its node.
///
/// # Errors
/// The store fails.
pub async fn renew_lease(
    pool: &sqlx::AnyPool,
    node: &str,
    lease: Duration,
) -> Result<bool, String> {
    let renew = format!(
        "WITH old AS (SELECT lease_until_ms FROM node_lease WHERE node_id = $2) \
         INSERT INTO node_lease (node_id, lease_until_ms) VALUES ($2, {NOW_MS} + $1) \
         ON CONFLICT (node_id) DO UPDATE SET lease_until_ms = excluded.lease_until_ms \
         RETURNING COALESCE((SELECT lease_until_ms FROM old), 0) < {NOW_MS}"
    );
    sqlx::query_scalar::<_, bool>(&renew)
        .bind(lease.as_millis() as i64)
        .bind(node)
        .fetch_one(pool)
        .await
        .map_err(|e| format!("store: renew the lease of {node}: {e}"))
}

/// How many heartbeats sent every `every` did not come in a `gap` between
/// two that did (rounded: a beat a little late is not a missed one).
fn missed_beats(gap: Duration, every: Duration) -> u64 {
    let beats = (gap.as_secs_f64() / every.as_secs_f64().max(1e-3)).round();
    (beats as u64).saturating_sub(1)
}

/// Locks a std mutex, through poisoning (the maps stay usable).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::missed_beats;
    use std::time::Duration;

    /// Beats every 500 ms: on time (or a little late or early) none
    /// missed; 1 s between two beats is one missed, 3.1 s is five (the
    /// beats at 0.5, 1.0, …, 2.5 s; 3.0 s was late, not missed).
    #[test]
    fn missed_heartbeats_are_counted_from_the_gap() {
        let every = Duration::from_millis(500);
        let ms = Duration::from_millis;
        assert_eq!(missed_beats(ms(500), every), 0);
        assert_eq!(missed_beats(ms(700), every), 0);
        assert_eq!(missed_beats(ms(300), every), 0);
        assert_eq!(missed_beats(ms(10), every), 0);
        assert_eq!(missed_beats(ms(1000), every), 1);
        assert_eq!(missed_beats(ms(3100), every), 5);
    }
}
