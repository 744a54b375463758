//! The houserules game server (issue 13): HTTP and WebSocket (protocol v1
//! and v2) over axum, games kept in SQLite (default) or Postgres.
//!
//! The rules stay in the pure crates: each game hosts a
//! `houserules_session::Session` in its own task
//! ([`game`]), whose rules work runs on the blocking pool. A seat may be
//! played by the engine (`houserules-search`, [`engine`]).

mod apidoc;
mod assets;
pub mod clock;
pub mod engine;
pub mod game;
pub mod http;
mod input;
pub mod json;
pub mod protocol;
pub mod store;
mod ws;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use subtle::ConstantTimeEq;
use tokio::sync::Mutex;

use crate::game::{Game, GameHandle, GameInit, Meta, Timing};
use crate::protocol::Seat;
use crate::store::Store;

/// The server's metrics (Prometheus text at `GET /metrics`).
pub struct Metrics {
    /// Games in memory (live, or finished and looked at).
    pub games_loaded: Gauge,
    /// WebSocket connections open.
    pub connections: Gauge,
    /// Moves accepted (its rate is moves per second).
    pub moves: Counter,
    /// Seconds from reading a client message to having answered it.
    pub ack_latency: Histogram,
    /// Store operations that failed.
    pub store_errors: Counter,
    registry: Registry,
}

impl Metrics {
    fn new() -> Metrics {
        let games_loaded = Gauge::default();
        let connections = Gauge::default();
        let moves = Counter::default();
        let ack_latency = Histogram::new([
            0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0,
        ]);
        let store_errors = Counter::default();
        let mut registry = Registry::with_prefix("houserules");
        registry.register("games_loaded", "Games in memory", games_loaded.clone());
        registry.register(
            "connections",
            "WebSocket connections open",
            connections.clone(),
        );
        registry.register("moves", "Moves accepted", moves.clone());
        registry.register(
            "ack_latency_seconds",
            "From reading a client message to having answered it",
            ack_latency.clone(),
        );
        registry.register(
            "store_errors",
            "Store operations that failed",
            store_errors.clone(),
        );
        Metrics {
            games_loaded,
            connections,
            moves,
            ack_latency,
            store_errors,
            registry,
        }
    }

    /// The Prometheus text exposition.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

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
}

/// A game's place in the registry: its task once loaded.
type Slot = Arc<Mutex<Option<GameHandle>>>;

/// The server's shared state.
pub struct AppState {
    store: Arc<dyn Store>,
    /// The games in memory: one slot per game id, locked while the game
    /// loads (see [`AppState::game`]).
    games: Mutex<HashMap<String, Slot>>,
    metrics: Arc<Metrics>,
    config: Config,
}

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
            games: Mutex::new(HashMap::new()),
            metrics: Arc::new(Metrics::new()),
            config,
        })
    }

    /// The metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The game's task, loading (rebuilding) it from the store if needed;
    /// `Ok(None)` for an unknown id.
    ///
    /// The registry lock is held only to find or add the game's slot, never
    /// across a store read or a rebuild: a game that takes long to load
    /// holds up only the requests for that game (which wait on its slot, so
    /// that it is loaded once), and every other game stays served.
    ///
    /// # Errors
    /// The store fails or the stored game does not rebuild.
    pub async fn game(&self, id: &str) -> Result<Option<GameHandle>, String> {
        let slot = {
            let mut games = self.games.lock().await;
            Arc::clone(games.entry(id.to_string()).or_default())
        };
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
            let mut games = self.games.lock().await;
            // Only when no other request holds the slot (the map's and
            // ours are its only references; none can be taken meanwhile,
            // the registry being locked).
            if games
                .get(id)
                .is_some_and(|s| Arc::ptr_eq(s, &slot) && Arc::strong_count(&slot) == 2)
            {
                games.remove(id);
            }
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
        let handle = Game::start(
            GameInit {
                id: row.id.clone(),
                request_text: row.request,
                meta,
                request,
                tokens: [row.white_token, row.black_token],
                entries,
                created_ms: row.created_ms,
            },
            Arc::clone(&self.store),
            Arc::clone(&self.metrics),
            self.config.timing.clone(),
        )
        .await?;
        Ok(Some(handle))
    }

    /// Rebuilds every unfinished game from its log (at start, so that
    /// their clocks and timers run).
    ///
    /// # Errors
    /// The store fails; a game that does not rebuild is named.
    pub async fn rebuild_all(&self) -> Result<usize, String> {
        let ids = self.store.unfinished().await.map_err(|e| e.to_string())?;
        for id in &ids {
            self.game(id).await?;
        }
        Ok(ids.len())
    }
}

/// Opens the store at `db` (`sqlite:PATH` or `postgres://…`), rebuilds the
/// unfinished games, binds `addr` and serves until the process ends. The
/// bound address is sent on `bound` once listening.
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
    let store = store::SqlStore::connect(db, schema)
        .await
        .map_err(|e| e.to_string())?;
    let state = AppState::new(Arc::new(store), config);
    let n = state.rebuild_all().await?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    bound(local, n);
    axum::serve(listener, http::router(state))
        .await
        .map_err(|e| e.to_string())
}
