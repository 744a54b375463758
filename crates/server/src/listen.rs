//! The accept loop: the server's own, over hyper, rather than
//! `axum::serve`, which sets no timer (so no header-read timeout: an idle
//! socket was held for good) and has no connection caps.
//!
//! Every connection is admitted against the caps of
//! [`crate::limits::Limits`] (a refused one gets a whole HTTP answer, `503`
//! or `429`, and is closed), served by hyper's HTTP/1.1 with a
//! header-read timeout (which also closes a kept-alive connection idle
//! between requests), and keeps its place until its socket closes, a
//! WebSocket's included. The peer address reaches the handlers as axum's
//! `ConnectInfo<SocketAddr>`.
//!
//! Behind a trusted proxy (`--trusted-proxies`), the proxy's own
//! connections are not capped per address; each request instead takes a
//! place for its client's address ([`crate::limits::client_ip`], from
//! `X-Forwarded-For`) while it runs, and a WebSocket for its whole life,
//! and `ConnectInfo` carries the client's address (port 0), so that the
//! creation rate applies to the client too. From any other peer the
//! header is ignored.
//!
//! Shutdown ([`serve`]'s `shutdown` future): stop accepting; every
//! WebSocket is closed with code 1012 (service restart: the web app
//! reconnects) and every HTTP connection finishes its request; then the
//! games are let go (each game task ends after the commands it holds,
//! its commits included), all within a deadline.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tracing::Instrument;

use crate::limits::ConnectionSlot;
use crate::AppState;

/// How long the server waits for its connections to close at shutdown.
pub const DRAIN: Duration = Duration::from_secs(5);
/// How long it then waits for the game tasks to finish their commits.
pub const GAMES_DRAIN: Duration = Duration::from_secs(3);

/// A socket that holds its place among the connections while it lives
/// (through an upgrade to a WebSocket too), and the place of the client
/// behind a trusted proxy whose WebSocket it became.
struct Counted {
    io: TcpStream,
    _slot: ConnectionSlot,
    _client: Arc<std::sync::Mutex<Option<ConnectionSlot>>>,
    /// hyper's own answer to a request it could not read, being written
    /// in its JSON form ([`json_for_bare_error`]): the bytes, how many are
    /// written, and the length of hyper's buffer to report once all are.
    replaced: Option<(Vec<u8>, usize, usize)>,
    /// Set once such an answer went out: the close reads what the client
    /// still sends, up to a deadline ([`LINGER`]), after sending FIN.
    linger: Option<Pin<Box<tokio::time::Sleep>>>,
    answered_error: bool,
}

/// The largest request head (request line and headers) read: a larger
/// one is answered `431` (`request.headers-too-large`). hyper's own bound
/// is its read buffer (about 400 KB, and a 500 KB header went through);
/// no client of the server needs more than a few KiB, and a request
/// target up to hyper's 64 KiB still fits (a longer one is `414`).
pub const MAX_HEADER_BYTES: usize = 128 * 1024;

/// How long a connection closed after hyper's error answer keeps reading
/// what the client still sends (RFC 9112 § 9.6): closing a socket with
/// unread bytes resets it, and a reset can discard the answer before the
/// client reads it (a header section over hyper's buffer is never read
/// whole).
const LINGER: Duration = Duration::from_secs(2);

impl Counted {
    fn new(
        io: TcpStream,
        slot: ConnectionSlot,
        client: Arc<std::sync::Mutex<Option<ConnectionSlot>>>,
    ) -> Counted {
        Counted {
            io,
            _slot: slot,
            _client: client,
            replaced: None,
            linger: None,
            answered_error: false,
        }
    }

    /// Writes the replacement answer, then reports hyper's buffer written.
    fn poll_replaced(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<usize>> {
        let Some((bytes, done, claimed)) = self.replaced.as_mut() else {
            return Poll::Ready(Ok(0));
        };
        while *done < bytes.len() {
            match Pin::new(&mut self.io).poll_write(cx, &bytes[*done..]) {
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => *done += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        let claimed = *claimed;
        self.replaced = None;
        self.answered_error = true;
        Poll::Ready(Ok(claimed))
    }

    /// After an error answer: FIN sent, the client's remaining bytes read
    /// and dropped until it closes or [`LINGER`] passes.
    fn poll_linger(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        if self.linger.is_none() {
            std::task::ready!(Pin::new(&mut self.io).poll_shutdown(cx))?;
            self.linger = Some(Box::pin(tokio::time::sleep(LINGER)));
        }
        let mut scratch = [0u8; 8192];
        // At most 64 reads a poll, so that a client that keeps sending
        // does not hold the runtime's thread until the deadline.
        for _ in 0..64 {
            if let Some(deadline) = self.linger.as_mut() {
                if deadline.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Ok(()));
                }
            }
            let mut buf = ReadBuf::new(&mut scratch);
            match Pin::new(&mut self.io).poll_read(cx, &mut buf) {
                Poll::Ready(Ok(())) if buf.filled().is_empty() => return Poll::Ready(Ok(())),
                Poll::Ready(Ok(())) => continue,
                Poll::Ready(Err(_)) => return Poll::Ready(Ok(())),
                Poll::Pending => return Poll::Pending,
            }
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// hyper answers a request it cannot read (a malformed request line or
/// header, a duplicate `Content-Length`, a target over 64 KiB, a header
/// section over its buffer) by itself, with an empty body, and closes the
/// connection; hyper has no hook for that answer. Every other error of
/// the server is a JSON `{code, message}` (docs/protocol.md), so such an
/// answer is recognised as it is written (a whole head, status 400, 414
/// or 431, `content-length: 0`: no route of the server answers so) and
/// written with the JSON body instead (trial 19). `None` for anything
/// else.
fn json_for_bare_error(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let rest = text.strip_prefix("HTTP/1.1 ")?;
    let (code, message) = match rest.get(..4)? {
        "400 " => (
            "request.bad-http",
            "the request could not be read as HTTP/1.1: a malformed request line or header, or a contradictory Content-Length or Transfer-Encoding",
        ),
        "414 " => (
            "request.uri-too-long",
            "the request's target (path and query) is too long",
        ),
        "431 " => (
            "request.headers-too-large",
            "the request's header section is too large",
        ),
        _ => return None,
    };
    let (status_line, headers) = text.strip_suffix("\r\n\r\n")?.split_once("\r\n")?;
    let mut kept = String::new();
    let mut empty = false;
    for line in headers.split("\r\n") {
        let (name, value) = line.split_once(':')?;
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => empty = value.trim() == "0",
            "connection" | "content-type" => {}
            _ => {
                kept.push_str(line);
                kept.push_str("\r\n");
            }
        }
    }
    if !empty {
        return None;
    }
    let body = serde_json::json!({"code": code, "message": message}).to_string();
    Some(
        format!(
            "{status_line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n{kept}\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        if self.replaced.is_none() {
            if let Some(json) = json_for_bare_error(buf) {
                self.replaced = Some((json, 0, buf.len()));
            }
        }
        if self.replaced.is_some() {
            return self.poll_replaced(cx);
        }
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        if self.answered_error {
            return self.poll_linger(cx);
        }
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        if self.replaced.is_none() {
            // hyper's answer is a head alone: the first slice with bytes.
            if let Some(first) = bufs.iter().find(|b| !b.is_empty()) {
                if let Some(json) = json_for_bare_error(first) {
                    self.replaced = Some((json, 0, first.len()));
                }
            }
        }
        if self.replaced.is_some() {
            return self.poll_replaced(cx);
        }
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// The routes a refused connection may still ask: liveness, readiness
/// and metrics, one request each (docs/operations.md).
const OPERATOR_ROUTES: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// How long a connection over a cap may take to show its request line
/// before it gets the refusal: a probe sends it at once, and a client
/// that sends nothing is answered after this.
const OPERATOR_PEEK: Duration = Duration::from_millis(500);

/// Whether the first bytes `tcp` sends (peeked, so still to be read) are
/// `GET` of an [`OPERATOR_ROUTES`] path, within [`OPERATOR_PEEK`].
async fn asks_operator_route(tcp: &TcpStream) -> bool {
    let mut buf = [0u8; 32];
    let deadline = tokio::time::Instant::now() + OPERATOR_PEEK;
    loop {
        let n = match tokio::time::timeout_at(deadline, tcp.peek(&mut buf)).await {
            Ok(Ok(n)) => n,
            _ => return false,
        };
        let seen = &buf[..n];
        // The request line's second space ends its target.
        let line_ends = seen.len() > 4 && seen[4..].contains(&b' ');
        if n == buf.len() || line_ends || n == 0 {
            return operator_request_line(seen);
        }
        // Part of the line: wait for more bytes (peek returns at once
        // while data is waiting, so sleep a little between tries).
        tokio::time::sleep(Duration::from_millis(5)).await;
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
    }
}

/// Whether `start`, the start of a request line, is `GET` of an operator
/// route (the path alone or with a query).
fn operator_request_line(start: &[u8]) -> bool {
    let Some(target) = start.strip_prefix(b"GET ") else {
        return false;
    };
    OPERATOR_ROUTES.iter().any(|r| {
        target
            .strip_prefix(r.as_bytes())
            .is_some_and(|rest| matches!(rest.first(), Some(b' ' | b'?')))
    })
}

/// Serves one operator-route request on a connection that is not counted
/// among the connections (it is over a cap, `why`); any other request on
/// it gets the cap's JSON refusal, and the connection then closes.
async fn serve_operator_route(
    tcp: TcpStream,
    peer: SocketAddr,
    router: axum::Router,
    why: crate::limits::Refusal,
    limits: crate::limits::Limits,
) {
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let router = router.clone();
        let refused = (request.method() != hyper::Method::GET
            || !OPERATOR_ROUTES.contains(&request.uri().path()))
        .then(|| crate::limits::refused_request(why, &limits));
        async move {
            if let Some(answer) = refused {
                return Ok::<_, std::convert::Infallible>(answer);
            }
            request.extensions_mut().insert(ConnectInfo(peer));
            tower::ServiceExt::oneshot(router, request).await
        }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(2))
        .max_header_size(MAX_HEADER_BYTES)
        .keep_alive(false)
        .serve_connection(TokioIo::new(tcp), service);
    let _ = tokio::time::timeout(Duration::from_secs(10), conn).await;
}

/// Serves `state` on `listener` until `shutdown` completes, then stops as
/// the module docs say. Returns once the connections and games are done
/// (or their deadlines passed).
pub async fn serve(
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send,
) {
    let router = crate::http::router(Arc::clone(&state));
    let limits = state.config.limits.clone();
    let mut stopping = state.shutdown.subscribe();
    tokio::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors (EMFILE) or a connection
                    // reset before it was accepted: wait a little rather
                    // than spin, and go on.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let proxied = crate::limits::is_trusted_proxy(&limits.trusted_proxies, peer.ip());
        let slot = match state.connections.admit(
            peer.ip(),
            limits.max_connections,
            // A proxy's connections carry many clients: they are capped
            // per client, request by request (below).
            if proxied {
                0
            } else {
                limits.max_connections_per_ip
            },
        ) {
            Ok(s) => s,
            Err(why) => {
                let limit = match why {
                    crate::limits::Refusal::Connections => limits.max_connections,
                    _ => limits.max_connections_per_ip,
                };
                let answer = crate::limits::refused_connection(why, &limits);
                let router = router.clone();
                let state = Arc::clone(&state);
                let caps = limits.clone();
                tokio::spawn(async move {
                    // A probe or a scrape must not fail because players
                    // fill the server (trial 19: `/healthz` answered 503,
                    // and a liveness check restarted a healthy full
                    // server): their requests are served outside the cap.
                    if asks_operator_route(&tcp).await {
                        serve_operator_route(tcp, peer, router, why, caps).await;
                        return;
                    }
                    state.metrics.refused(why);
                    tracing::warn!(%peer, reason = why.as_str(), limit, "connection refused");
                    // What the client sent is read (not answered) first: a
                    // socket closed with unread bytes is reset, and a reset
                    // can discard the answer before the client reads it.
                    let _ = tcp.try_read(&mut [0u8; 8192]);
                    let mut tcp = tcp;
                    let _ = tokio::time::timeout(Duration::from_secs(2), async {
                        let _ = tcp.write_all(&answer).await;
                        let _ = tcp.shutdown().await;
                    })
                    .await;
                });
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let router = router.clone();
        let mut stop = stopping.clone();
        let header_timeout = limits.header_read_timeout;
        let upgraded = Arc::new(std::sync::Mutex::new(None));
        let state = Arc::clone(&state);
        tokio::spawn(
            async move {
                let io = TokioIo::new(Counted::new(tcp, slot, Arc::clone(&upgraded)));
                let service =
                    hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                        let router = router.clone();
                        let state = Arc::clone(&state);
                        let upgraded = Arc::clone(&upgraded);
                        async move {
                            if !proxied {
                                request.extensions_mut().insert(ConnectInfo(peer));
                                return tower::ServiceExt::oneshot(router, request).await;
                            }
                            let limits = &state.config.limits;
                            let client = crate::limits::client_ip(
                                &limits.trusted_proxies,
                                peer.ip(),
                                request.headers(),
                            );
                            if client == peer.ip().to_canonical() {
                                // No client named: the proxy's own request.
                                request.extensions_mut().insert(ConnectInfo(peer));
                                return tower::ServiceExt::oneshot(router, request).await;
                            }
                            let place = match state
                                .connections
                                .admit_client(client, limits.max_connections_per_ip)
                            {
                                Ok(p) => p,
                                Err(why) => {
                                    state.metrics.refused(why);
                                    tracing::warn!(
                                        %peer,
                                        %client,
                                        reason = why.as_str(),
                                        limit = limits.max_connections_per_ip,
                                        "request refused: the client's address holds its most connections"
                                    );
                                    return Ok(crate::limits::refused_request(why, limits));
                                }
                            };
                            request
                                .extensions_mut()
                                .insert(ConnectInfo(SocketAddr::new(client, 0)));
                            let answer = tower::ServiceExt::oneshot(router, request).await;
                            // A WebSocket keeps its client's place while it
                            // lives (the upgraded socket holds it); a plain
                            // request gives it back now.
                            if answer
                                .as_ref()
                                .is_ok_and(|r| r.status() == hyper::StatusCode::SWITCHING_PROTOCOLS)
                            {
                                *upgraded.lock().unwrap_or_else(|p| p.into_inner()) = Some(place);
                            }
                            answer
                        }
                    });
                let conn = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(header_timeout)
                    .max_header_size(MAX_HEADER_BYTES)
                    .serve_connection(io, service)
                    .with_upgrades();
                tokio::pin!(conn);
                tokio::select! {
                    r = conn.as_mut() => {
                        if let Err(e) = r {
                            tracing::debug!(error = %e, "connection ended");
                        }
                    }
                    () = async { let _ = stop.wait_for(|s| *s).await; } => {
                        conn.as_mut().graceful_shutdown();
                        let _ = conn.await;
                    }
                }
            }
            .instrument(tracing::debug_span!("conn", %peer)),
        );
    }
    drop(listener);
    tracing::info!(
        connections = state.connections.count(),
        "stopping: no new connections; closing the open ones"
    );
    let _ = state.shutdown.send(true);
    let _ = stopping.borrow_and_update();
    let deadline = tokio::time::Instant::now() + DRAIN;
    while state.connections.count() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let left = state.connections.count();
    let games = state.close_games().await;
    let deadline = tokio::time::Instant::now() + GAMES_DRAIN;
    while state.metrics.games_loaded.get() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tracing::info!(
        connections_cut = left,
        games_let_go = games,
        games_still_running = state.metrics.games_loaded.get(),
        "stopped serving"
    );
}

/// The address to print for a store URL: a password in it is replaced
/// by `***` (`postgres://user:***@host/db`), so that start lines and logs
/// never show it.
pub fn redact_db_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let (user, host) = match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = match userinfo.split_once(':') {
                Some((u, _)) => format!("{u}:***@"),
                None => format!("{userinfo}@"),
            };
            (user, host)
        }
        None => (String::new(), authority),
    };
    // A password given as a query parameter (`?password=…`) too.
    let path = match path.split_once('?') {
        Some((p, q)) => {
            let q: Vec<String> = q
                .split('&')
                .map(|kv| match kv.split_once('=') {
                    Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                    _ => kv.to_string(),
                })
                .collect();
            format!("{p}?{}", q.join("&"))
        }
        None => path.to_string(),
    };
    format!("{scheme}://{user}{host}{path}")
}

#[cfg(test)]
mod tests {
    use super::{json_for_bare_error, redact_db_url};

    #[test]
    fn hypers_bare_error_answers_get_a_json_body() {
        // The head hyper 1.x writes for a request line it cannot parse
        // (role.rs `on_error`: status only, no body, its date header).
        let head = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: Mon, 07 Dec 2026 12:00:00 GMT\r\n\r\n";
        let out = String::from_utf8(json_for_bare_error(head).unwrap()).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(head.contains("connection: close"), "{head}");
        assert!(
            head.contains("date: Mon, 07 Dec 2026 12:00:00 GMT"),
            "{head}"
        );
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{head}"
        );
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["code"], "request.bad-http");
        let uri =
            json_for_bare_error(b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n\r\n").unwrap();
        assert!(String::from_utf8(uri)
            .unwrap()
            .contains("request.uri-too-long"));
        let big = json_for_bare_error(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n",
        )
        .unwrap();
        assert!(String::from_utf8(big)
            .unwrap()
            .contains("request.headers-too-large"));
        // The server's own answers are left alone: a body, another
        // status, or not a whole head.
        for other in [
            &b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 40\r\n\r\n"[..],
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n",
            b"{\"code\":\"request.bad-http\"}",
        ] {
            assert_eq!(json_for_bare_error(other), None);
        }
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            redact_db_url("postgres://ann:s3cret@db.example:5432/games"),
            "postgres://ann:***@db.example:5432/games"
        );
        assert_eq!(
            redact_db_url("postgres://ann@127.0.0.1/test?sslmode=require&password=s3cret"),
            "postgres://ann@127.0.0.1/test?sslmode=require&password=***"
        );
        assert_eq!(
            redact_db_url("postgres://db.example/games?password=s3cret"),
            "postgres://db.example/games?password=***"
        );
        assert_eq!(
            redact_db_url("sqlite:houserules-games.db"),
            "sqlite:houserules-games.db"
        );
        assert_eq!(
            redact_db_url("postgresql://u:p%40ss@h/d"),
            "postgresql://u:***@h/d"
        );
    }
}
