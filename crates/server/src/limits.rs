//! The server's limits in one place (issue 21, item 4): how long a client
//! may take to send a request's header, how long a WebSocket may stay
//! silent or refuse to read, how many connections the server holds in
//! total and per address, how fast one address may create games, and how
//! many engine searches run at once.
//!
//! Why: without them 20,000 idle sockets (the open-file limit) locked
//! every new client out, a client that never read kept its socket and its
//! queue, sixteen engine games took a canary game's p99 from 6 to 141 ms,
//! and creation could fill the disk. Each limit answers with a status and
//! a code a client can act on, and is logged with the limit hit.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use prometheus_client::metrics::gauge::Gauge;
use serde_json::json;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::AppState;

/// The limits' settings (every one a `houserules serve` option).
#[derive(Debug, Clone)]
pub struct Limits {
    /// How long a client may take to send a request's header, counted
    /// from the connection's opening and again from the end of each
    /// answer on a kept-alive connection (so it is also the idle timeout
    /// of an HTTP connection between requests): 10 s.
    pub header_read_timeout: Duration,
    /// How long a request may take to be answered (body read included)
    /// before it is answered `408`: 30 s. A WebSocket, once upgraded, is
    /// not a request any more and is bounded by the two below.
    pub request_timeout: Duration,
    /// How long a WebSocket may go without sending a frame (pongs count)
    /// before it is closed (code 1001); the server pings at a third of it,
    /// so a live client (a browser answers pings itself) is never idle:
    /// 60 s.
    pub ws_idle_timeout: Duration,
    /// How long writing one message to a WebSocket may take before the
    /// client counts as not reading and is dropped (close code 1008):
    /// 10 s.
    pub ws_write_timeout: Duration,
    /// Messages queued for one WebSocket; a client whose queue is full is
    /// not reading and is dropped (close code 1008), its seat shown as
    /// gone: 256.
    pub ws_queue: usize,
    /// Connections (HTTP and WebSocket) held at once; one more is answered
    /// `503` and closed: 10,000 (keep it under the open-file limit, which
    /// the store and the listener need some of).
    pub max_connections: usize,
    /// Connections held at once from one IP address; one more is answered
    /// `429` and closed; 0 for no cap (behind a reverse proxy every
    /// client has the proxy's address): 256.
    pub max_connections_per_ip: usize,
    /// Games one IP address may create per minute (bursts of as many);
    /// one more is answered `429` with `Retry-After`; 0 for no limit: 30.
    pub creations_per_minute: u32,
    /// Modifiers one IP address may save per minute (`POST
    /// /api/modifiers`, bursts of as many); one more is answered `429` with
    /// `Retry-After`; 0 for no limit: 10.
    pub modifier_saves_per_minute: u32,
    /// Engine searches that run at once; more wait in a queue (first come
    /// first served) so that players' moves keep the other cores: half
    /// the cores, at least 1.
    pub engine_searches: usize,
    /// The reverse proxies whose `X-Forwarded-For` is believed
    /// ([`client_ip`]): from them the per-address limits apply to the
    /// client's address (and the proxy's own connections are not capped
    /// per address); from anyone else the header is ignored. None by
    /// default.
    pub trusted_proxies: Vec<Cidr>,
}

/// A network of trusted proxies (`--trusted-proxies`): a CIDR block
/// (`10.0.0.0/8`, `fd00::/8`) or one address (`127.0.0.1`, `::1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr(pub ipnet::IpNet);

impl std::str::FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Cidr, String> {
        let t = s.trim();
        if let Ok(ip) = t.parse::<IpAddr>() {
            return Ok(Cidr(ipnet::IpNet::from(ip.to_canonical())));
        }
        t.parse::<ipnet::IpNet>()
            .map(|n| Cidr(n.trunc()))
            .map_err(|_| {
                format!("`{s}` is neither an IP address nor a CIDR block (10.0.0.0/8, fd00::/8)")
            })
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Whether `ip` is in one of `nets`.
fn trusted(nets: &[Cidr], ip: IpAddr) -> bool {
    let ip = ip.to_canonical();
    nets.iter().any(|n| n.0.contains(&ip))
}

/// Whether a connection from `peer` comes through a trusted proxy.
pub fn is_trusted_proxy(nets: &[Cidr], peer: IpAddr) -> bool {
    trusted(nets, peer)
}

/// One `X-Forwarded-For` entry: an address, bracketed or not, with or
/// without a port (`203.0.113.7`, `203.0.113.7:5000`, `2001:db8::1`,
/// `[2001:db8::1]:5000`).
fn forwarded_entry(e: &str) -> Option<IpAddr> {
    let e = e.trim();
    if let Ok(ip) = e.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    if let Ok(sa) = e.parse::<SocketAddr>() {
        return Some(sa.ip().to_canonical());
    }
    e.strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .and_then(|r| r.parse::<IpAddr>().ok())
        .map(|ip| ip.to_canonical())
}

/// The client's address of a request that came from `peer`: `peer`
/// itself unless `peer` is a trusted proxy; then the `X-Forwarded-For`
/// entries (every such header, in order) are read from the right, each
/// proxy appending the address it got the request from, and the first
/// one that is not a trusted proxy is the client (the entries left of it
/// were written by the client or by proxies nobody vouches for, so a
/// client cannot choose its address by sending the header itself). When
/// every entry is a trusted proxy the leftmost is taken; an entry that is
/// not an address stops the walk at the last trusted hop, and a header
/// that is not text, or none at all, leaves `peer`.
pub fn client_ip(nets: &[Cidr], peer: IpAddr, headers: &axum::http::HeaderMap) -> IpAddr {
    let peer = peer.to_canonical();
    if !trusted(nets, peer) {
        return peer;
    }
    let mut entries = Vec::new();
    for v in headers.get_all("x-forwarded-for") {
        let Ok(v) = v.to_str() else { return peer };
        entries.extend(v.split(','));
    }
    let mut client = peer;
    for e in entries.iter().rev() {
        let Some(ip) = forwarded_entry(e) else { break };
        client = ip;
        if !trusted(nets, ip) {
            break;
        }
    }
    client
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_read_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            ws_idle_timeout: Duration::from_secs(60),
            ws_write_timeout: Duration::from_secs(10),
            ws_queue: 256,
            max_connections: 10_000,
            max_connections_per_ip: 256,
            creations_per_minute: 30,
            modifier_saves_per_minute: 10,
            engine_searches: default_engine_searches(),
            trusted_proxies: Vec::new(),
        }
    }
}

/// Half the cores the process may use, at least 1.
pub fn default_engine_searches() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}

/// Why a connection or a request was refused (the `reason` label of
/// `houserules_refused_total` and of the log line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// [`Limits::max_connections`].
    Connections,
    /// [`Limits::max_connections_per_ip`].
    ConnectionsPerIp,
    /// [`Limits::creations_per_minute`].
    Creations,
    /// [`Limits::modifier_saves_per_minute`].
    ModifierSaves,
}

impl Refusal {
    /// The label and the error code's last part.
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::Connections => "connection-limit",
            Refusal::ConnectionsPerIp => "address-connection-limit",
            Refusal::Creations => "rate-limited",
            Refusal::ModifierSaves => "modifier-save-rate-limited",
        }
    }
}

/// Counts the connections held, in total and per address.
#[derive(Debug, Default)]
pub struct Connections {
    total: AtomicUsize,
    per_ip: Mutex<HashMap<IpAddr, usize>>,
}

/// One admitted connection; dropping it gives its place back.
#[derive(Debug)]
pub struct ConnectionSlot {
    owner: Arc<Connections>,
    ip: IpAddr,
    /// Whether it counts in the total (a TCP connection) or only for its
    /// address (a client behind a trusted proxy: [`Connections::admit_client`]).
    total: bool,
}

impl Connections {
    /// Admits a connection from `ip`, or says which cap it hits (`max`
    /// in total, `per_ip` per address, 0 meaning none).
    ///
    /// # Errors
    /// The cap hit.
    pub fn admit(
        self: &Arc<Self>,
        ip: IpAddr,
        max: usize,
        per_ip: usize,
    ) -> Result<ConnectionSlot, Refusal> {
        let mut map = self.per_ip.lock().unwrap_or_else(|p| p.into_inner());
        if self.total.load(Ordering::Relaxed) >= max {
            return Err(Refusal::Connections);
        }
        let n = map.entry(ip).or_insert(0);
        if per_ip > 0 && *n >= per_ip {
            return Err(Refusal::ConnectionsPerIp);
        }
        *n += 1;
        self.total.fetch_add(1, Ordering::Relaxed);
        Ok(ConnectionSlot {
            owner: Arc::clone(self),
            ip,
            total: true,
        })
    }

    /// Admits a client at `ip` whose connection came through a trusted
    /// proxy (the TCP connection, the proxy's, is counted in the total
    /// already): held while its request runs, or for a WebSocket's life.
    /// Counted with the direct connections of the same address.
    ///
    /// # Errors
    /// [`Refusal::ConnectionsPerIp`]: the address holds `per_ip` already
    /// (0: no cap).
    pub fn admit_client(
        self: &Arc<Self>,
        ip: IpAddr,
        per_ip: usize,
    ) -> Result<ConnectionSlot, Refusal> {
        let mut map = self.per_ip.lock().unwrap_or_else(|p| p.into_inner());
        let n = map.entry(ip).or_insert(0);
        if per_ip > 0 && *n >= per_ip {
            if *n == 0 {
                map.remove(&ip);
            }
            return Err(Refusal::ConnectionsPerIp);
        }
        *n += 1;
        Ok(ConnectionSlot {
            owner: Arc::clone(self),
            ip,
            total: false,
        })
    }

    /// Connections held.
    pub fn count(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }

    /// Connections held by `ip` (direct ones and clients behind a trusted
    /// proxy), as the per-address cap counts them.
    pub fn held_by(&self, ip: IpAddr) -> usize {
        let map = self.per_ip.lock().unwrap_or_else(|p| p.into_inner());
        map.get(&ip).copied().unwrap_or(0)
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut map = self.owner.per_ip.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = map.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
        if self.total {
            self.owner.total.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// The answer written to a refused connection before it is closed: a
/// whole HTTP/1.1 response (a browser or a load balancer shows it), with
/// the JSON error of every other refusal.
pub fn refused_connection(why: Refusal, limits: &Limits) -> Vec<u8> {
    let (status, message) = match why {
        Refusal::Connections => (
            "503 Service Unavailable",
            format!(
                "the server holds its most connections ({}); try again shortly",
                limits.max_connections
            ),
        ),
        _ => (
            "429 Too Many Requests",
            format!(
                "this address holds its most connections ({}); close some and try again",
                limits.max_connections_per_ip
            ),
        ),
    };
    let body = json!({"code": format!("server.{}", why.as_str()), "message": message}).to_string();
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// [`refused_connection`] as an answer to a request (a client behind a
/// trusted proxy over its address's cap).
pub fn refused_request(why: Refusal, limits: &Limits) -> Response {
    let text = refused_connection(why, limits);
    let body = String::from_utf8_lossy(&text)
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    let status = match why {
        Refusal::Connections => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::TOO_MANY_REQUESTS,
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::RETRY_AFTER, "5"),
        ],
        body,
    )
        .into_response()
}

/// Token buckets per address for game creation: `per_minute` tokens a
/// minute, at most `per_minute` saved.
#[derive(Debug, Default)]
pub struct CreationLimiter {
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl CreationLimiter {
    /// Takes a token for `ip`; `Err(seconds)` until the next one when
    /// there is none.
    ///
    /// # Errors
    /// No token: the whole seconds to wait.
    pub fn take(&self, ip: IpAddr, per_minute: u32) -> Result<(), u64> {
        if per_minute == 0 {
            return Ok(());
        }
        let cap = f64::from(per_minute);
        let rate = cap / 60.0;
        let now = Instant::now();
        let mut map = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        // Full buckets carry nothing: dropped so that many addresses do
        // not grow the map for good.
        if map.len() > 10_000 {
            map.retain(|_, (t, at)| *t + now.duration_since(*at).as_secs_f64() * rate < cap);
        }
        let (tokens, at) = map.entry(ip).or_insert((cap, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * rate).min(cap);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / rate).ceil().max(1.0) as u64)
        }
    }
}

/// Middleware of `POST /api/games`: one creation token of the client's
/// address, else `429` (`request.rate-limited`) with `Retry-After`. A
/// request without a peer address (a router served without
/// `ConnectInfo`, as in some tests) is not limited.
pub async fn limit_creations(
    State(app): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let per_minute = app.config.limits.creations_per_minute;
    rate_limited(
        &app.creations,
        &app,
        Refusal::Creations,
        per_minute,
        request,
        next,
    )
    .await
}

/// Middleware of `POST /api/modifiers`: as [`limit_creations`], with
/// [`Limits::modifier_saves_per_minute`] (session-14 trial: saves were
/// not limited at all).
pub async fn limit_modifier_saves(
    State(app): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let per_minute = app.config.limits.modifier_saves_per_minute;
    rate_limited(
        &app.modifier_saves,
        &app,
        Refusal::ModifierSaves,
        per_minute,
        request,
        next,
    )
    .await
}

/// One token of `limiter` for the client's address, else `429`
/// (`request.rate-limited`) with `Retry-After`, logged and counted under
/// `why`.
async fn rate_limited(
    limiter: &CreationLimiter,
    app: &AppState,
    why: Refusal,
    per_minute: u32,
    request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if let Some(ip) = peer {
        if let Err(wait) = limiter.take(ip, per_minute) {
            app.metrics.refused(why);
            let (what, done) = match why {
                // Requests are counted, refused ones too (a flood of bad
                // requests costs their reading): the message says so
                // (trial 19: "created 30 games" after 30 refused ones).
                Refusal::ModifierSaves => (
                    "modifier save",
                    format!("sent {per_minute} modifier saves (refused ones count too)"),
                ),
                _ => (
                    "game creation",
                    format!("sent {per_minute} game creations (refused ones count too)"),
                ),
            };
            tracing::warn!(
                peer = %ip,
                limit = per_minute,
                reason = why.as_str(),
                "{what} refused: over the per-address rate"
            );
            return (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, wait.to_string())],
                Json(json!({
                    "code": "request.rate-limited",
                    "message": format!(
                        "this address {done} in the last minute, the most allowed; try again in {wait} s"
                    ),
                })),
            )
                .into_response();
        }
    }
    next.run(request).await
}

/// The engine search limiter: at most [`Limits::engine_searches`] run at
/// once, the others wait their turn (a fair semaphore: first come, first
/// served). Players' moves never wait on it: they run on the blocking
/// pool beside the searches, which keeps cores for them.
#[derive(Debug, Clone)]
pub struct EngineSearches {
    semaphore: Arc<Semaphore>,
    /// Searches running (`houserules_engine_searches_running`).
    pub running: Gauge,
    /// Searches waiting for a turn (`houserules_engine_searches_queued`).
    pub queued: Gauge,
}

impl Default for EngineSearches {
    fn default() -> Self {
        EngineSearches::new(default_engine_searches())
    }
}

/// A turn to search; dropping it lets the next one run.
#[derive(Debug)]
pub struct SearchTurn {
    _permit: OwnedSemaphorePermit,
    running: Gauge,
}

impl Drop for SearchTurn {
    fn drop(&mut self) {
        self.running.dec();
    }
}

impl EngineSearches {
    /// A limiter of `n` searches at once (at least 1).
    pub fn new(n: usize) -> EngineSearches {
        EngineSearches {
            semaphore: Arc::new(Semaphore::new(n.max(1))),
            running: Gauge::default(),
            queued: Gauge::default(),
        }
    }

    /// Waits for a turn (counted as queued meanwhile).
    pub async fn turn(&self) -> SearchTurn {
        self.queued.inc();
        let permit = Arc::clone(&self.semaphore).acquire_owned().await;
        self.queued.dec();
        self.running.inc();
        // The semaphore is never closed, so acquiring cannot fail.
        #[allow(clippy::expect_used)]
        let permit = permit.expect("the search semaphore is never closed");
        SearchTurn {
            _permit: permit,
            running: self.running.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connection_caps() {
        let c = Arc::new(Connections::default());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let s1 = c.admit(a, 3, 2).unwrap();
        let _s2 = c.admit(a, 3, 2).unwrap();
        assert_eq!(c.admit(a, 3, 2).unwrap_err(), Refusal::ConnectionsPerIp);
        let _s3 = c.admit(b, 3, 2).unwrap();
        assert_eq!(c.admit(b, 3, 2).unwrap_err(), Refusal::Connections);
        drop(s1);
        assert_eq!(c.count(), 2);
        let _s4 = c.admit(a, 3, 2).unwrap();
        // 0: no cap per address.
        let c = Arc::new(Connections::default());
        let held: Vec<_> = (0..5).map(|_| c.admit(a, 10, 0).unwrap()).collect();
        assert_eq!(held.len(), 5);
    }

    /// A client behind a trusted proxy counts for its own address, with
    /// the direct connections of that address, and not in the total.
    #[test]
    fn clients_behind_a_proxy_have_their_own_cap() {
        let c = Arc::new(Connections::default());
        let a: IpAddr = "203.0.113.7".parse().unwrap();
        let direct = c.admit(a, 10, 2).unwrap();
        let through = c.admit_client(a, 2).unwrap();
        assert_eq!(c.admit_client(a, 2).unwrap_err(), Refusal::ConnectionsPerIp);
        assert_eq!(c.count(), 1, "only the TCP connection is in the total");
        drop(direct);
        let again = c.admit_client(a, 2).unwrap();
        drop((through, again));
        assert_eq!(c.count(), 0);
        assert!(c.per_ip.lock().unwrap().is_empty());
    }

    fn xff(values: &[&str]) -> axum::http::HeaderMap {
        let mut h = axum::http::HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    /// The client's address: the header is read only from a trusted
    /// proxy, from the right, up to the first address that is not a
    /// trusted proxy (RFC 7239 § 5.2's X-Forwarded-For counterpart, as
    /// nginx's `real_ip_recursive on` reads it).
    #[test]
    fn the_client_address_comes_only_through_trusted_proxies() {
        let nets: Vec<Cidr> = ["127.0.0.1", "10.0.0.0/8", "fd00::/8"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let proxy = ip("10.1.2.3");
        // An untrusted peer: its header is ignored, whatever it says.
        let spoof = xff(&["198.51.100.1"]);
        assert_eq!(
            client_ip(&nets, ip("203.0.113.9"), &spoof),
            ip("203.0.113.9")
        );
        // A trusted proxy: the address it appended.
        assert_eq!(
            client_ip(&nets, proxy, &xff(&["203.0.113.7"])),
            ip("203.0.113.7")
        );
        // A client that sent its own header through the proxy: the proxy
        // appended the real address, which is the rightmost untrusted.
        let forged = xff(&["198.51.100.1, 203.0.113.7"]);
        assert_eq!(client_ip(&nets, proxy, &forged), ip("203.0.113.7"));
        // Two proxies (10.9.9.9 in front of this one), headers split.
        let chain = xff(&["198.51.100.1", "203.0.113.7, 10.9.9.9"]);
        assert_eq!(client_ip(&nets, proxy, &chain), ip("203.0.113.7"));
        // Ports, brackets, IPv6, IPv4-mapped addresses.
        assert_eq!(
            client_ip(&nets, proxy, &xff(&["203.0.113.7:5123"])),
            ip("203.0.113.7")
        );
        assert_eq!(
            client_ip(&nets, ip("fd00::1"), &xff(&["[2001:db8::7]:443"])),
            ip("2001:db8::7")
        );
        assert_eq!(
            client_ip(&nets, ip("::ffff:127.0.0.1"), &xff(&["::ffff:203.0.113.7"])),
            ip("203.0.113.7")
        );
        // No header, or one that is not an address: the proxy itself;
        // garbage left of a good entry stops the walk there.
        assert_eq!(client_ip(&nets, proxy, &xff(&[])), proxy);
        assert_eq!(client_ip(&nets, proxy, &xff(&["unknown"])), proxy);
        assert_eq!(
            client_ip(&nets, proxy, &xff(&["junk, 10.9.9.9"])),
            ip("10.9.9.9")
        );
        // Only trusted hops: the leftmost.
        assert_eq!(
            client_ip(&nets, proxy, &xff(&["10.7.7.7, 10.9.9.9"])),
            ip("10.7.7.7")
        );
        // No trusted proxies at all: never read.
        assert_eq!(
            client_ip(&[], ip("127.0.0.1"), &xff(&["203.0.113.7"])),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn trusted_proxy_networks_are_read() {
        let c: Cidr = "10.1.2.3/8".parse().unwrap();
        assert_eq!(c.to_string(), "10.0.0.0/8");
        assert_eq!("::1".parse::<Cidr>().unwrap().to_string(), "::1/128");
        let e = "10.0.0.0/33".parse::<Cidr>().unwrap_err();
        assert!(e.contains("`10.0.0.0/33`"), "{e}");
        assert!("proxy.local".parse::<Cidr>().is_err());
    }

    #[test]
    fn creation_buckets() {
        let l = CreationLimiter::default();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        // 2 a minute: a burst of 2, then one every 30 s.
        assert!(l.take(a, 2).is_ok());
        assert!(l.take(a, 2).is_ok());
        let wait = l.take(a, 2).unwrap_err();
        assert!((29..=30).contains(&wait), "{wait}");
        assert!(l.take("10.0.0.2".parse().unwrap(), 2).is_ok());
        assert!(l.take(a, 0).is_ok());
    }
}
