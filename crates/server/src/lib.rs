//! The houserules game server (issue 13): HTTP and WebSocket (protocol v1
//! and v2) over axum, games kept in SQLite (default) or Postgres.
//!
//! The rules stay in the pure crates: each game hosts a
//! `houserules_session::Session` in its own task
//! ([`game`]), whose rules work runs on the blocking pool. A seat may be
//! played by the engine (`houserules-search`, [`engine`]).

mod apidoc;
pub mod archive;
mod assets;
pub mod backup;
pub mod clock;
pub mod cluster;
pub mod engine;
pub mod game;
pub mod http;
mod input;
pub mod json;
pub mod limits;
pub mod listen;
pub mod metrics;
pub mod pgn_export;
pub mod protocol;
pub mod registry;
pub mod store;
mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use subtle::ConstantTimeEq;

use crate::game::{Game, GameHandle, GameInit, Meta, Timing};
use crate::protocol::Seat;
use crate::registry::Registry as Games;
use crate::store::Store;

pub use crate::metrics::Metrics;

/// A random seat token: 192 bits from the operating system, hex (never
/// derived from the game id).
pub fn random_token() -> String {
    random_hex(24)
}

fn random_hex(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    // getrandom fails only on a system without an entropy source; a
    // server must not hand out guessable tokens, so it stops then.
    #[allow(clippy::expect_used)]
    getrandom::fill(&mut b).expect("the operating system's random source");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Whether a creation request's rules draw from the game's random stream:
/// modifiers (mines, coin flips, random picks) or draft mode (the cards).
/// Presets and layouts never read the seed (a random Chess960 layout has
/// its own, `chess960:random:SEED`).
fn draws_random(request: &serde_json::Map<String, serde_json::Value>) -> bool {
    let modifiers = request
        .get("modifiers")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|m| !m.is_empty());
    let draft = request.get("draft") == Some(&serde_json::Value::Bool(true));
    modifiers || draft
}

/// A seed from the operating system's random source, a u32 (the session's
/// seed range, rulings F4).
fn random_seed() -> u32 {
    let mut b = [0u8; 4];
    // As `random_hex`: without an entropy source the server stops.
    #[allow(clippy::expect_used)]
    getrandom::fill(&mut b).expect("the operating system's random source");
    u32::from_le_bytes(b)
}

/// `POST /api/games` without a `seed` (or with `null`): a fresh random seed
/// is written into the request, which is stored as it then reads, so that
/// a rebuild after a restart and `GET /api/games/{id}/record` replay the
/// same draws. Before, every such game used seed 0, and two `minefield`
/// games had their mines on the same squares (session-14 trial). Only a
/// request whose rules draw random numbers ([`draws_random`]) gets one: for
/// any other the seed changes nothing, and its request is stored as sent.
pub(crate) fn draw_seed_if_absent(request: &mut serde_json::Map<String, serde_json::Value>) {
    if draws_random(request) && request.get("seed").is_none_or(serde_json::Value::is_null) {
        request.insert("seed".into(), random_seed().into());
    }
}

/// A rematch's request gets a fresh seed (whatever the finished game's
/// was, drawn or given): a rematch replaying the same mines and draws
/// would be the same game again (session-14 trial).
pub(crate) fn draw_fresh_seed(request: &mut serde_json::Map<String, serde_json::Value>) {
    if draws_random(request) {
        request.insert("seed".into(), random_seed().into());
    }
}

/// The seat a token opens, compared in constant time.
pub fn seat_of(tokens: &[Option<String>; 2], token: &str) -> Option<Seat> {
    let eq = |t: &Option<String>| {
        t.as_ref()
            .is_some_and(|t| bool::from(t.as_bytes().ct_eq(token.as_bytes())))
    };
    // Both are compared, whatever the first gives.
    let (w, b) = (eq(&tokens[0]), eq(&tokens[1]));
    if w {
        Some(Seat::White)
    } else if b {
        Some(Seat::Black)
    } else {
        None
    }
}

/// Server settings.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Durations (choice-timeout unit, claim-victory absence).
    pub timing: Timing,
    /// Messages per second a connection may send (burst: twice that);
    /// 0 means 20.
    pub rate_per_second: u32,
    /// Connection, request and work limits (issue 21, item 4).
    pub limits: limits::Limits,
    /// A cluster node's settings (issue 24): `None` for a single server.
    pub cluster: Option<cluster::ClusterConfig>,
}

/// The server's shared state.
pub struct AppState {
    store: Arc<dyn Store>,
    /// The games in memory: one slot per game id, locked while the game
    /// loads (see [`AppState::game`] and [`registry`]).
    games: Arc<Games>,
    metrics: Arc<Metrics>,
    config: Config,
    /// The connections held (the caps of [`limits::Limits`]).
    connections: Arc<limits::Connections>,
    /// Game creations per address.
    creations: limits::CreationLimiter,
    /// Modifier saves per address (`POST /api/modifiers`).
    modifier_saves: limits::CreationLimiter,
    /// Set once the server stops: every WebSocket closes with code 1012
    /// (service restart), and clients reconnect.
    shutdown: tokio::sync::watch::Sender<bool>,
    /// This node's part in a cluster (issue 24), set once at start.
    cluster: std::sync::OnceLock<Arc<cluster::Cluster>>,
    /// While [`AppState::rebuild_all`] runs: when the previous server was
    /// last known to run ([`Store::last_alive`]), for the clocks of the
    /// games it rebuilds ([`game::GameInit::stopped_ms`]).
    restart_stop: std::sync::Mutex<Option<i64>>,
}

/// How often a single server records that it runs ([`AppState::spawn_alive`]):
/// a crash gives back at most this much of the side to move's thinking time.
pub const ALIVE_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// The game's parts of a stored creation request.
pub fn split_request(text: &str) -> Result<(Meta, houserules_session::CreateRequest), String> {
    let mut v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("$: not JSON: {e}"))?;
    let mut meta = serde_json::Map::new();
    if let serde_json::Value::Object(o) = &mut v {
        for k in ["clock", "white", "black", "seat"] {
            if let Some(x) = o.remove(k) {
                meta.insert(k.into(), x);
            }
        }
    }
    meta.remove("seat");
    let meta: Meta =
        serde_json::from_value(serde_json::Value::Object(meta)).map_err(|e| format!("$: {e}"))?;
    let request = houserules_session::CreateRequest::parse(&v.to_string())?;
    Ok((meta, request))
}

impl AppState {
    /// A new state over a store.
    pub fn new(store: Arc<dyn Store>, config: Config) -> Arc<AppState> {
        Arc::new(AppState {
            store,
            games: Arc::new(Games::default()),
            metrics: Arc::new(if config.cluster.is_some() {
                Metrics::clustered(config.limits.engine_searches)
            } else {
                Metrics::new(config.limits.engine_searches)
            }),
            config,
            connections: Arc::new(limits::Connections::default()),
            creations: limits::CreationLimiter::default(),
            modifier_saves: limits::CreationLimiter::default(),
            shutdown: tokio::sync::watch::Sender::new(false),
            cluster: std::sync::OnceLock::new(),
            restart_stop: std::sync::Mutex::new(None),
        })
    }

    /// This node's part in a cluster, if it is one's node.
    pub fn cluster(&self) -> Option<&Arc<cluster::Cluster>> {
        self.cluster.get()
    }

    /// The metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The connections held, in total and per address (the caps'
    /// counters).
    pub fn connections(&self) -> &limits::Connections {
        &self.connections
    }

    /// The registry of the games in memory.
    pub fn registry(&self) -> &Games {
        &self.games
    }

    /// The game's task, loading (rebuilding) it from the store if needed;
    /// `Ok(None)` for an unknown id.
    ///
    /// The registry lock is held only to find or add the game's slot, never
    /// across a store read or a rebuild: a game that takes long to load
    /// holds up only the requests for that game (which wait on its slot, so
    /// that it is loaded once), and every other game stays served. The
    /// handle is cloned under the slot's lock, which is what keeps a game
    /// from unloading under a request ([`registry`]).
    ///
    /// On a cluster node, the owner decides ([`cluster::Cluster::game`]):
    /// a game another node runs gets a handle that forwards to it.
    ///
    /// # Errors
    /// The store fails or the stored game does not rebuild.
    pub async fn game(&self, id: &str) -> Result<Option<GameHandle>, String> {
        if let Some(c) = self.cluster.get() {
            return Arc::clone(c).game(self, id).await;
        }
        self.local_game(id).await
    }

    /// [`AppState::game`] on this node, whoever else may run it.
    pub(crate) async fn local_game(&self, id: &str) -> Result<Option<GameHandle>, String> {
        let slot = self.games.slot(id).await;
        let mut handle = slot.lock().await;
        if let Some(h) = handle.as_ref().filter(|h| !h.tx.is_closed()) {
            return Ok(Some(h.clone()));
        }
        let loaded = self.load(id).await;
        if let Ok(Some(h)) = &loaded {
            *handle = Some(h.clone());
        } else {
            *handle = None;
            drop(handle);
            // No game (an unknown id, or one that does not rebuild): its
            // slot goes, so that probing ids does not grow the registry.
            self.games.forget(id, &slot).await;
        }
        loaded
    }

    /// Reads a game from the store and rebuilds it (no lock held).
    async fn load(&self, id: &str) -> Result<Option<GameHandle>, String> {
        let Some(row) = self.store.game(id).await.map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        let entries = self.store.entries(id).await.map_err(|e| e.to_string())?;
        let (meta, request) = split_request(&row.request)?;
        // Read before the await: the lock is not held across it.
        let stopped_ms = *self.restart_stop.lock().unwrap_or_else(|p| p.into_inner());
        let handle = Game::start(
            GameInit {
                id: row.id.clone(),
                request_text: row.request,
                meta,
                request,
                tokens: [row.white_token, row.black_token],
                entries,
                created_ms: row.created_ms,
                stopped_ms,
            },
            Arc::clone(&self.store),
            Arc::clone(&self.metrics),
            self.config.timing.clone(),
            Arc::clone(&self.games),
        )
        .await?;
        Ok(Some(handle))
    }

    /// Lets every loaded game go (at shutdown): the registry drops its
    /// handles, so each game task ends once it has handled the commands it
    /// holds (its commits included) and no connection or request holds it.
    /// Returns how many games were loaded.
    pub async fn close_games(&self) -> usize {
        let slots = self.games.drain().await;
        let mut n = 0;
        for slot in slots {
            if slot.lock().await.take().is_some() {
                n += 1;
            }
        }
        n
    }

    /// Whether the server can serve games (`GET /readyz`): the store
    /// answers a read of its games table (so it is reachable and
    /// migrated), the server is not stopping, and on a cluster node its
    /// NATS connection is up (without it, games owned elsewhere cannot be
    /// reached and its own games' relayed sockets hear nothing). `Err`
    /// says what is not ready.
    ///
    /// # Errors
    /// What is not ready.
    pub async fn ready(&self) -> Result<(), String> {
        if *self.shutdown.borrow() {
            return Err("the server is stopping".into());
        }
        if let Some(c) = self.cluster.get() {
            if c.draining() {
                return Err("the node is draining".into());
            }
            if !c.nats_connected() {
                return Err(format!("NATS is not connected ({})", c.nats_url()));
            }
        }
        match tokio::time::timeout(std::time::Duration::from_secs(2), self.store.list(None, 1))
            .await
        {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(format!("the store does not answer: {e}")),
            Err(_) => Err("the store did not answer within 2 s".into()),
        }
    }

    /// Rebuilds, at start-up, the unfinished games that need their task
    /// at once because something happens in them without a connection:
    /// a running clock (its flag), a choice that times out, an engine seat
    /// (it may be its turn). The others (untimed games between people,
    /// the usual bulk) are rebuilt on their first request. A game rebuilt
    /// here that turns out to need nothing (an engine game waiting for its
    /// player, say) unloads after [`Timing::idle_unload`]. Returns how many
    /// were rebuilt.
    ///
    /// # Errors
    /// The store fails; a game that does not rebuild is named.
    pub async fn rebuild_all(&self) -> Result<usize, String> {
        let games = self
            .store
            .unfinished_summaries()
            .await
            .map_err(|e| e.to_string())?;
        let stop = self.store.last_alive().await.map_err(|e| e.to_string())?;
        self.set_restart_stop(stop);
        let mut n = 0;
        for g in games.iter().filter(|g| archive::needs_task(g)) {
            if let Err(e) = self.game(&g.id).await {
                self.set_restart_stop(None);
                return Err(e);
            }
            n += 1;
        }
        self.set_restart_stop(None);
        Ok(n)
    }

    fn set_restart_stop(&self, v: Option<i64>) {
        *self.restart_stop.lock().unwrap_or_else(|p| p.into_inner()) = v;
    }

    /// Records every [`ALIVE_EVERY`] that the server runs
    /// ([`Store::mark_alive`]), until the returned task is aborted: the
    /// next start charges the side to move up to the last record (issue 26
    /// item 7). A failed write is logged and tried again at the next tick.
    pub fn spawn_alive(&self) -> tokio::task::JoinHandle<()> {
        let store = Arc::clone(&self.store);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(ALIVE_EVERY);
            loop {
                tick.tick().await;
                if let Err(e) = store.mark_alive(game::now_ms()).await {
                    tracing::warn!(error = %e, "cannot record that the server runs");
                }
            }
        })
    }

    /// [`Store::mark_alive`] now (at a clean stop).
    pub async fn mark_alive(&self) {
        if let Err(e) = self.store.mark_alive(game::now_ms()).await {
            tracing::warn!(error = %e, "cannot record when the server stopped");
        }
    }
}

/// Opens the store at `db` (`sqlite:PATH` or `postgres://…`), rebuilds the
/// unfinished games, binds `addr` and serves until the process ends. The
/// bound address is sent on `bound` once listening, with the number of
/// games rebuilt.
///
/// # Errors
/// The store cannot be opened, a game does not rebuild, or the address
/// cannot be bound.
pub async fn serve(
    addr: SocketAddr,
    db: &str,
    schema: Option<&str>,
    config: Config,
    bound: impl FnOnce(SocketAddr, usize),
) -> Result<(), String> {
    serve_until(addr, db, schema, config, bound, std::future::pending()).await
}

/// [`serve`] until `shutdown` completes, then stops as [`listen`] says:
/// no new connection, WebSockets closed with code 1012, in-flight requests
/// and commits finished, the store closed, within about 10 s.
///
/// # Errors
/// As [`serve`].
pub async fn serve_until(
    addr: SocketAddr,
    db: &str,
    schema: Option<&str>,
    config: Config,
    bound: impl FnOnce(SocketAddr, usize),
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), String> {
    let shown = listen::redact_db_url(db);
    if config.cluster.is_some()
        && !(db.starts_with("postgres://") || db.starts_with("postgresql://"))
    {
        return Err(format!(
            "--cluster needs a Postgres store (--db postgres://USER@HOST:PORT/DB), not {shown}: \
             the nodes of a cluster share one database, and a SQLite file belongs to one machine"
        ));
    }
    // The port first: on a port in use the server fails before it opens
    // the store or rebuilds a game (session-11 trial: it logged "recovered
    // the unfinished games", then failed to listen). Connections that come
    // while the games rebuild wait in the listen backlog.
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
            " (another process listens there: stop it, or choose another --addr)"
        } else {
            ""
        };
        tracing::error!(%addr, error = %e, "cannot listen");
        format!("cannot listen on {addr}: {e}{hint}")
    })?;
    let store = match store::SqlStore::connect(db, schema).await {
        Ok(s) => Arc::new(s),
        Err(e) => {
            tracing::error!(db = %shown, error = %e, "cannot open the store");
            return Err(e.to_string());
        }
    };
    let node = match config.cluster.clone() {
        Some(cc) => Some(cluster::Cluster::connect(cc, Arc::clone(&store)).await?),
        None => None,
    };
    let shared: Arc<dyn Store> = match &node {
        Some(c) => Arc::new(cluster::fenced::FencedStore::new(Arc::clone(&store), c)),
        None => Arc::clone(&store) as Arc<dyn Store>,
    };
    let state = AppState::new(shared, config);
    let rebuilt = match &node {
        Some(c) => c.start(&state).await,
        None => state.rebuild_all().await,
    };
    let n = match rebuilt {
        Ok(n) => n,
        Err(e) => {
            tracing::error!(error = %e, "a stored game does not rebuild");
            return Err(e);
        }
    };
    tracing::info!(games = n, "recovered the unfinished games");
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    tracing::info!(addr = %local, db = %shown, limits = ?state.config.limits, "serving");
    bound(local, n);
    // A cluster node takes no game once it starts stopping (drain).
    let draining = node.clone();
    let shutdown = async move {
        shutdown.await;
        if let Some(c) = draining {
            c.start_draining();
        }
    };
    // A single server records that it runs (a cluster's take-over rule is
    // docs/cluster.md's and does not read it).
    let alive = node.is_none().then(|| state.spawn_alive());
    listen::serve(listener, Arc::clone(&state), shutdown).await;
    if let Some(c) = &node {
        c.release_all().await;
    }
    if let Some(a) = alive {
        a.abort();
        state.mark_alive().await;
    }
    // The pool waits for the queries under way (the last commits).
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), store.close()).await;
    tracing::info!("stopped");
    Ok(())
}
