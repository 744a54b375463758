//! The server's metrics, in the Prometheus text format at `GET /metrics`
//! (every name starts with `houserules_`; docs/operations.md lists them
//! and `docs/grafana-dashboard.json` draws them).

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use crate::limits::{EngineSearches, Refusal};

/// Latency buckets in seconds, from half a millisecond to 10 s (a store
/// under a slow disk, a request waiting on a loaded game).
const LATENCY_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

fn latency() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

/// Labels of an HTTP request: the route as declared (`/api/games/{id}`,
/// never the game id itself, so that the series stay few), the method and
/// the status code.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    /// The matched route, or `other` (the web app's files, 404s).
    pub route: String,
    /// `GET`, `POST`, ….
    pub method: String,
    /// The answer's status code.
    pub status: u16,
}

/// Labels of a WebSocket message: its `kind` (`move`, `state`, …;
/// `invalid` for a client message that was not read).
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct KindLabels {
    /// The message's kind.
    pub kind: String,
}

/// Labels of a refusal: the limit hit ([`Refusal::as_str`]).
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReasonLabels {
    /// `connection-limit`, `address-connection-limit`, `rate-limited`,
    /// `ws-not-reading`, `ws-idle`, `ws-too-big`.
    pub reason: String,
}

/// The server's metrics. Each field is registered under the name in its
/// doc (the `_total` suffix of counters is added by the encoder).
pub struct Metrics {
    /// `houserules_games_loaded`: games in memory (live, or finished and
    /// looked at).
    pub games_loaded: Gauge,
    /// `houserules_games_live`: games in memory that are not finished.
    pub games_live: Gauge,
    /// `houserules_games_unloaded_total`: games taken out of memory
    /// (idle, or at shutdown).
    pub games_unloaded: Counter,
    /// `houserules_games_created_total`.
    pub games_created: Counter,
    /// `houserules_games_finished_total`.
    pub games_finished: Counter,
    /// `houserules_connections`: WebSocket connections open (said hello).
    pub connections: Gauge,
    /// `houserules_tcp_connections`: TCP connections held (HTTP and
    /// WebSocket; set when scraped).
    pub tcp_connections: Gauge,
    /// `houserules_refused_total{reason}`: connections and requests
    /// refused by a limit, and WebSockets dropped by one.
    pub refused: Family<ReasonLabels, Counter>,
    /// `houserules_moves_total`: moves accepted (its rate is moves per
    /// second).
    pub moves: Counter,
    /// `houserules_ack_latency_seconds`: from reading a client message to
    /// having answered it.
    pub ack_latency: Histogram,
    /// `houserules_http_request_duration_seconds{route,method,status}`.
    pub http_latency: Family<RouteLabels, Histogram>,
    /// `houserules_ws_messages_in_total{kind}`: client messages read.
    pub ws_in: Family<KindLabels, Counter>,
    /// `houserules_ws_messages_out_total{kind}`: server messages written.
    pub ws_out: Family<KindLabels, Counter>,
    /// `houserules_store_append_seconds`: one input's commit to the store.
    pub store_append: Histogram,
    /// `houserules_store_errors_total`: store operations that failed.
    pub store_errors: Counter,
    /// The cluster's series (`houserules_cluster_…`), declared only on a
    /// cluster node ([`Metrics::clustered`]).
    pub cluster: ClusterMetrics,
    /// The engine search limiter; its gauges are
    /// `houserules_engine_searches_running` and `…_queued`. Kept here
    /// because every game task holds the metrics.
    pub engine_searches: EngineSearches,
    registry: Registry,
}

/// Why a node's ownership of a game changed
/// (`houserules_cluster_leases_total{reason}`).
pub const LEASE_REASONS: [&str; 5] = ["taken", "swept", "lost", "released", "drained"];

/// Labels of a relayed connection's side: `relay` (a socket of this node
/// whose game runs on another) or `owner` (another node's socket held by a
/// game of this node).
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RoleLabels {
    /// `relay` or `owner`.
    pub role: String,
}

/// A cluster node's metrics (issue 24; issue 22 asks for them). Declared
/// only on a cluster node, so a single server's exposition has none of
/// them; every labelled family has its labels from the start (at 0), so
/// that `rate()` finds them before the first event.
pub struct ClusterMetrics {
    /// `houserules_cluster_forward_seconds`: a command forwarded to the
    /// game's owner on another node, from the request over NATS to its
    /// answer (the owner answers once the game's task took it).
    pub forward: Histogram,
    /// `houserules_cluster_relay_seconds`: a message of the owner for a
    /// socket on another node, from its publish on the owner to its
    /// arrival at the relay (by the two nodes' wall clocks: on different
    /// machines their offset is part of it).
    pub relay: Histogram,
    /// `houserules_cluster_leases_total{reason}`: ownership changes of
    /// this node: `taken` (a request or the start loaded a game),
    /// `swept` (an orphaned game taken by the sweep), `lost` (taken over
    /// by another node: a fenced append or a renewal that did not return
    /// it), `released` (its task ended: idle or finished), `drained`
    /// (handed over by a drain).
    pub leases: Family<ReasonLabels, Counter>,
    /// `houserules_cluster_games_owned`: games this node owns (set when
    /// scraped).
    pub games_owned: Gauge,
    /// `houserules_cluster_relayed_connections{role}`: connections relayed
    /// over NATS ([`RoleLabels`]).
    pub relayed: Family<RoleLabels, Gauge>,
    /// `houserules_cluster_heartbeats_missed_total`: heartbeats of other
    /// nodes that did not come (counted when the next one arrives, from the
    /// gap; a node that never comes back shows in `…_peers` instead).
    pub heartbeats_missed: Counter,
    /// `houserules_cluster_peers`: other nodes heard within the silence
    /// limit (3 s; set when scraped).
    pub peers: Gauge,
    /// `houserules_cluster_nats_connected`: 1 while the NATS connection is
    /// up (set when scraped; `/readyz` fails while it is 0).
    pub nats_connected: Gauge,
    /// `houserules_cluster_fenced_appends_total`: appends refused by the
    /// fence (this node's lease of the game had passed).
    pub fenced_appends: Counter,
}

impl ClusterMetrics {
    fn new() -> ClusterMetrics {
        let m = ClusterMetrics {
            forward: latency(),
            relay: latency(),
            leases: Family::default(),
            games_owned: Gauge::default(),
            relayed: Family::default(),
            heartbeats_missed: Counter::default(),
            peers: Gauge::default(),
            nats_connected: Gauge::default(),
            fenced_appends: Counter::default(),
        };
        for r in LEASE_REASONS {
            let _ = m.leases.get_or_create(&ReasonLabels { reason: r.into() });
        }
        for role in ["relay", "owner"] {
            let _ = m.relayed.get_or_create(&RoleLabels { role: role.into() });
        }
        m
    }

    /// Counts an ownership change; `reason` is one of [`LEASE_REASONS`].
    pub fn lease(&self, reason: &str) {
        self.leases
            .get_or_create(&ReasonLabels {
                reason: reason.into(),
            })
            .inc();
    }

    /// The gauge of one side of the relayed connections.
    pub fn relayed(&self, role: &str) -> Gauge {
        self.relayed
            .get_or_create(&RoleLabels { role: role.into() })
            .clone()
    }

    fn register(&self, r: &mut Registry) {
        let r = r.sub_registry_with_prefix("cluster");
        r.register(
            "forward_seconds",
            "A command forwarded to the game's owner on another node, until its answer",
            self.forward.clone(),
        );
        r.register(
            "relay_seconds",
            "An owner's message for a socket on another node, from publish to arrival",
            self.relay.clone(),
        );
        r.register(
            "leases",
            "Ownership changes of this node, by reason",
            self.leases.clone(),
        );
        r.register(
            "games_owned",
            "Games this node owns",
            self.games_owned.clone(),
        );
        r.register(
            "relayed_connections",
            "Connections relayed over NATS, by role",
            self.relayed.clone(),
        );
        r.register(
            "heartbeats_missed",
            "Heartbeats of other nodes that did not come",
            self.heartbeats_missed.clone(),
        );
        r.register(
            "peers",
            "Other nodes heard within the silence limit",
            self.peers.clone(),
        );
        r.register(
            "nats_connected",
            "1 while the NATS connection is up",
            self.nats_connected.clone(),
        );
        r.register(
            "fenced_appends",
            "Appends refused by the fence (the lease had passed)",
            self.fenced_appends.clone(),
        );
    }
}

impl Metrics {
    /// The metrics of a cluster node: [`Metrics::new`] and the cluster's
    /// series.
    pub fn clustered(searches: usize) -> Metrics {
        let mut m = Metrics::new(searches);
        m.cluster.register(&mut m.registry);
        m
    }

    /// New metrics, with an engine search limiter of `searches` at once.
    pub fn new(searches: usize) -> Metrics {
        let m = Metrics {
            games_loaded: Gauge::default(),
            games_live: Gauge::default(),
            games_unloaded: Counter::default(),
            games_created: Counter::default(),
            games_finished: Counter::default(),
            connections: Gauge::default(),
            tcp_connections: Gauge::default(),
            refused: Family::default(),
            moves: Counter::default(),
            ack_latency: latency(),
            http_latency: Family::new_with_constructor(latency),
            ws_in: Family::default(),
            ws_out: Family::default(),
            store_append: latency(),
            store_errors: Counter::default(),
            cluster: ClusterMetrics::new(),
            engine_searches: EngineSearches::new(searches),
            registry: Registry::with_prefix("houserules"),
        };
        let mut r = Registry::with_prefix("houserules");
        r.register("games_loaded", "Games in memory", m.games_loaded.clone());
        r.register(
            "games_live",
            "Games in memory not finished",
            m.games_live.clone(),
        );
        r.register(
            "games_unloaded",
            "Games taken out of memory",
            m.games_unloaded.clone(),
        );
        r.register("games_created", "Games created", m.games_created.clone());
        r.register("games_finished", "Games finished", m.games_finished.clone());
        r.register(
            "connections",
            "WebSocket connections open",
            m.connections.clone(),
        );
        r.register(
            "tcp_connections",
            "TCP connections held (HTTP and WebSocket)",
            m.tcp_connections.clone(),
        );
        r.register(
            "refused",
            "Connections and requests refused, and WebSockets dropped, by a limit",
            m.refused.clone(),
        );
        r.register("moves", "Moves accepted", m.moves.clone());
        r.register(
            "ack_latency_seconds",
            "From reading a client message to having answered it",
            m.ack_latency.clone(),
        );
        r.register(
            "http_request_duration_seconds",
            "HTTP requests by route, method and status",
            m.http_latency.clone(),
        );
        r.register(
            "ws_messages_in",
            "WebSocket messages read, by kind",
            m.ws_in.clone(),
        );
        r.register(
            "ws_messages_out",
            "WebSocket messages written, by kind",
            m.ws_out.clone(),
        );
        r.register(
            "store_append_seconds",
            "One input committed to the store",
            m.store_append.clone(),
        );
        r.register(
            "store_errors",
            "Store operations that failed",
            m.store_errors.clone(),
        );
        r.register(
            "engine_searches_running",
            "Engine searches running",
            m.engine_searches.running.clone(),
        );
        r.register(
            "engine_searches_queued",
            "Engine searches waiting for a turn",
            m.engine_searches.queued.clone(),
        );
        Metrics { registry: r, ..m }
    }

    /// Counts a refusal by a limit.
    pub fn refused(&self, why: Refusal) {
        self.refused_because(why.as_str());
    }

    /// Counts a refusal or a drop by its reason label.
    pub fn refused_because(&self, reason: &str) {
        self.refused
            .get_or_create(&ReasonLabels {
                reason: reason.to_string(),
            })
            .inc();
    }

    /// The Prometheus text exposition.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new(crate::limits::default_engine_searches())
    }
}
