//! One WebSocket connection: reads client messages (size and rate
//! limited), forwards them to the game's task, and writes what the task
//! sends. The first message must be `hello`.
//!
//! Bounded (issue 21, item 4): the queue to the client is
//! [`crate::limits::Limits::ws_queue`] long and each write has
//! [`crate::limits::Limits::ws_write_timeout`]; a client that does not
//! read is dropped with close code 1008 and its seat shown as gone. A
//! connection silent for [`crate::limits::Limits::ws_idle_timeout`] is
//! closed with 1001 (the server pings at a third of it, which live clients
//! answer), and at shutdown every connection gets 1012.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot, watch};

use crate::game::{Cmd, GameHandle};
use crate::metrics::KindLabels;
use crate::protocol::{read_client_message, ClientMessage, Seat, ServerMessage};
use crate::Metrics;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;

/// A token bucket: `rate` messages per second, bursts of `2 × rate`.
struct Bucket {
    rate: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new(rate: u32) -> Bucket {
        let rate = f64::from(rate.max(1));
        Bucket {
            rate,
            tokens: 2.0 * rate,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + dt * self.rate).min(2.0 * self.rate);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A connection's settings and the server's parts it uses.
pub struct WsSettings {
    /// Messages per second the client may send.
    pub rate: u32,
    /// Messages queued for the client before it counts as not reading.
    pub queue: usize,
    /// No frame read for this long: closed (1001); pings at a third of it.
    pub idle: Duration,
    /// One write taking longer: the client is not reading (1008).
    pub write_timeout: Duration,
    /// Set when the server stops (close 1012).
    pub shutdown: watch::Receiver<bool>,
    /// Message counts.
    pub metrics: Arc<Metrics>,
}

/// Close code 1001 (going away): the connection was idle too long.
pub const CLOSE_IDLE: u16 = 1001;
/// Close code 1008 (policy violation): the client did not read its
/// messages (its queue filled, or a write stalled); its seat is shown as
/// gone.
pub const CLOSE_NOT_READING: u16 = 1008;
/// Close code 1012 (service restart): the server is stopping, or the game
/// moved to another node of a cluster; clients reconnect (the web app
/// does).
pub const CLOSE_RESTART: u16 = 1012;

/// Close code 1009 (message too big): a frame or message over the read
/// limit of 1 MiB.
pub const CLOSE_TOO_BIG: u16 = 1009;

/// Whether a read error is tungstenite's size limit (a frame or a message
/// over the limit set at the upgrade).
fn too_big(e: axum::Error) -> bool {
    use tokio_tungstenite::tungstenite::Error;
    matches!(
        e.into_inner().downcast::<Error>().as_deref(),
        Ok(Error::Capacity(_))
    )
}

/// A server message's `kind`, read from the start of its text (every
/// server message is an object whose first field is `kind`).
fn kind_of(text: &str) -> &str {
    text.strip_prefix(r#"{"kind":""#)
        .and_then(|r| r.split('"').next())
        .unwrap_or("other")
}

/// One connection's counters of a metric family by message kind, each
/// looked up in the family once: a lookup takes the family's lock and
/// builds a label `String`, per message sent and received (issue 21).
#[derive(Default)]
struct KindCounters {
    seen: Vec<(String, Counter)>,
}

impl KindCounters {
    /// Counts one message of `kind` in `family`.
    fn inc(&mut self, family: &Family<KindLabels, Counter>, kind: &str) {
        if let Some((_, c)) = self.seen.iter().find(|(k, _)| k == kind) {
            c.inc();
            return;
        }
        let c = family
            .get_or_create(&KindLabels {
                kind: kind.to_string(),
            })
            .clone();
        c.inc();
        self.seen.push((kind.to_string(), c));
    }
}

/// Why the writer stopped.
enum WriterEnd {
    /// The reader asked (the client left, or a close code to send).
    Asked,
    /// A write stalled or the game dropped the connection (queue full).
    NotReading(&'static str),
}

/// Serves one connection until it closes.
pub async fn run(socket: WebSocket, game: GameHandle, seat: Seat, settings: WsSettings) {
    let WsSettings {
        rate,
        queue,
        idle,
        write_timeout,
        mut shutdown,
        metrics,
    } = settings;
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Arc<str>>(queue.max(1));
    // The reader keeps only a weak sender once the game holds the strong
    // one: when the game drops this connection (its queue was full), the
    // channel closes and the writer closes the socket, rather than leaving
    // a connection that gets nothing.
    let weak = tx.downgrade();
    let mut strong = Some(tx);
    let (close_tx, mut close_rx) = oneshot::channel::<Option<CloseFrame>>();
    let out_metrics = Arc::clone(&metrics);
    // The game's queue, to tell a game that ended (it moved to another
    // node: close 1012) from a game that dropped this connection. Weak: a
    // strong sender here would hold the game in memory a moment after the
    // connection's `Gone`, and refuse its unload then (tests/lifecycle.rs).
    let game_tx = game.tx.downgrade();
    let mut writer = tokio::spawn(async move {
        let mut out_kinds = KindCounters::default();
        let mut ping = tokio::time::interval(idle / 3);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ping.tick().await;
        let (end, frame) = loop {
            tokio::select! {
                biased;
                asked = &mut close_rx => break (WriterEnd::Asked, asked.ok().flatten()),
                text = rx.recv() => {
                    let Some(text) = text else {
                        if game_tx.upgrade().is_none_or(|t| t.is_closed()) {
                            break (WriterEnd::Asked, Some(CloseFrame {
                                code: CLOSE_RESTART,
                                reason: "the game moved to another node; reconnect".into(),
                            }));
                        }
                        break (WriterEnd::NotReading("the game dropped it: its queue was full"), None);
                    };
                    out_kinds.inc(&out_metrics.ws_out, kind_of(&text));
                    let sent = tokio::time::timeout(
                        write_timeout,
                        sink.send(Message::Text(text.as_ref().into())),
                    )
                    .await;
                    match sent {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) => break (WriterEnd::Asked, None),
                        Err(_) => break (WriterEnd::NotReading("a write stalled"), None),
                    }
                }
                _ = ping.tick() => {
                    match tokio::time::timeout(write_timeout, sink.send(Message::Ping(Default::default()))).await {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) => break (WriterEnd::Asked, None),
                        Err(_) => break (WriterEnd::NotReading("a ping stalled"), None),
                    }
                }
            }
        };
        let frame = match &end {
            WriterEnd::NotReading(why) => Some(CloseFrame {
                code: CLOSE_NOT_READING,
                reason: format!("not reading: {why}").into(),
            }),
            WriterEnd::Asked => frame,
        };
        // A client that does not read may not take the close frame
        // either: it gets a second, then the socket goes.
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            if let Some(f) = frame {
                let _ = sink.send(Message::Close(Some(f))).await;
            }
            let _ = sink.close().await;
        })
        .await;
        end
    });
    let reply = |m: ServerMessage| {
        if let Some(t) = weak.upgrade() {
            let _ = t.try_send(m.to_text().into());
        }
    };
    let mut bucket = Bucket::new(rate);
    let mut in_kinds = KindCounters::default();
    let mut conn: Option<u64> = None;
    let mut close: Option<CloseFrame> = None;
    let mut writer_done: Option<WriterEnd> = None;
    // A client that never says hello is let go after a minute.
    let hello_by = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let wait = if conn.is_none() {
            hello_by.min(tokio::time::Instant::now() + idle)
        } else {
            tokio::time::Instant::now() + idle
        };
        let next = tokio::select! {
            n = tokio::time::timeout_at(wait, stream.next()) => match n {
                Ok(n) => n,
                Err(_) => {
                    metrics.refused_because("ws-idle");
                    tracing::info!(?seat, idle_s = idle.as_secs(), "websocket closed: idle");
                    close = Some(CloseFrame {
                        code: CLOSE_IDLE,
                        reason: "idle: nothing received in time".into(),
                    });
                    break;
                }
            },
            () = async { let _ = shutdown.wait_for(|s| *s).await; } => {
                close = Some(CloseFrame {
                    code: CLOSE_RESTART,
                    reason: "the server is restarting; reconnect".into(),
                });
                break;
            }
            end = &mut writer => {
                writer_done = Some(end.unwrap_or(WriterEnd::Asked));
                break;
            }
        };
        let frame = match next {
            Some(Ok(frame)) => frame,
            Some(Err(e)) => {
                // A frame or message over the read limit (1 MiB) ends the
                // connection, but with a close frame that says why (RFC
                // 6455 § 7.4.1: 1009, message too big) rather than none
                // (the client saw 1005 or 1006; trial 19).
                if too_big(e) {
                    metrics.refused_because("ws-too-big");
                    tracing::info!(?seat, "websocket closed: a message over 1 MiB");
                    close = Some(CloseFrame {
                        code: CLOSE_TOO_BIG,
                        reason: "a message over 1 MiB (messages are at most 64 KiB)".into(),
                    });
                }
                break;
            }
            None => break,
        };
        let text = match frame {
            Message::Text(t) => t,
            Message::Binary(_) => {
                reply(ServerMessage::error(
                    "message.binary",
                    "messages are JSON text frames",
                    None,
                ));
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let at = Instant::now();
        if !bucket.take() {
            reply(ServerMessage::error(
                "message.rate-limited",
                format!("more than {rate} messages per second: this one was dropped"),
                None,
            ));
            continue;
        }
        let msg = match read_client_message(text.as_str()) {
            Ok(m) => m,
            Err(e) => {
                metrics
                    .ws_in
                    .get_or_create(&KindLabels {
                        kind: "invalid".into(),
                    })
                    .inc();
                reply(ServerMessage::error(e.code, e.message, e.kind.as_deref()));
                continue;
            }
        };
        // The kind of the message read (not a second parse of the text).
        in_kinds.inc(&metrics.ws_in, msg.kind());
        match (conn, msg) {
            (
                None,
                ClientMessage::Hello {
                    protocol_version, ..
                },
            ) => {
                let Some(tx) = strong.take() else { break };
                let (r, id) = oneshot::channel();
                let hello = Cmd::Hello {
                    seat,
                    version: protocol_version,
                    tx,
                    reply: r,
                };
                // No answer: the game's task stopped, or (on a cluster)
                // no owner answered in time. The client is told to
                // reconnect (trial 19: a node without NATS closed such a
                // socket with no code, or 1008 as if it did not read).
                let answered = match game.tx.send(hello).await {
                    Ok(()) => id.await.ok(),
                    Err(_) => None,
                };
                let Some(id) = answered else {
                    close = Some(CloseFrame {
                        code: CLOSE_RESTART,
                        reason: "the game did not answer; reconnect".into(),
                    });
                    break;
                };
                conn = Some(id);
            }
            (None, _) => reply(ServerMessage::error(
                "message.hello-first",
                "the first message is {\"kind\": \"hello\", \"protocolVersion\": 1, 2 or 3}",
                None,
            )),
            (Some(id), msg) => {
                if game
                    .tx
                    .send(Cmd::Message { conn: id, msg, at })
                    .await
                    .is_err()
                {
                    break;
                }
            }
        }
    }
    // The writer gets its close frame before the game hears `Gone`: the
    // game then drops this connection's queue, and a writer that saw the
    // queue close first would take it for a client that does not read
    // (1008) where a stopping server means 1012 (a drained node's local
    // sockets got 1008 now and then: tests/cluster.rs,
    // drain_hands_the_games_over).
    let closing = close.is_some();
    let _ = close_tx.send(close);
    if let Some(id) = conn {
        let _ = game.tx.send(Cmd::Gone { conn: id }).await;
    }
    drop(strong);
    let end = match writer_done {
        Some(end) => end,
        None => writer.await.unwrap_or(WriterEnd::Asked),
    };
    // Counted when decided, before the closing handshake below (which
    // waits up to a second for the client): a scrape right after the
    // socket's end sees it (ops.rs a_client_that_does_not_read… read the
    // count before it was made, under load).
    if let WriterEnd::NotReading(why) = &end {
        metrics.refused_because("ws-not-reading");
        tracing::warn!(
            ?seat,
            reason = "ws-not-reading",
            queue,
            write_timeout_s = write_timeout.as_secs(),
            "websocket dropped: {why}"
        );
    }
    if closing || matches!(end, WriterEnd::NotReading(_)) {
        // The closing handshake (RFC 6455 § 7.1.1): the client's own Close
        // is awaited (a second at most) before the socket goes, so that a
        // reset does not discard the close frame and its code on the way.
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            while let Some(Ok(m)) = stream.next().await {
                if matches!(m, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
}
