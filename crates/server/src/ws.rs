//! One WebSocket connection: reads client messages (size and rate
//! limited), forwards them to the game's task, and writes what the task
//! sends. The first message must be `hello`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot};

use crate::game::{Cmd, GameHandle};
use crate::protocol::{read_client_message, ClientMessage, Seat, ServerMessage};

/// Messages queued for a connection before it counts as not reading and
/// is dropped.
const QUEUE: usize = 256;

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

/// Serves one connection until it closes.
pub async fn run(socket: WebSocket, game: GameHandle, seat: Seat, rate: u32) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Arc<str>>(QUEUE);
    let writer = tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            if sink
                .send(Message::Text(text.as_ref().into()))
                .await
                .is_err()
            {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let reply = |m: ServerMessage| {
        let _ = tx.try_send(m.to_text().into());
    };
    let mut bucket = Bucket::new(rate);
    let mut conn: Option<u64> = None;
    // A client that never says hello is let go after a minute.
    let hello_by = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let next = if conn.is_none() {
            match tokio::time::timeout_at(hello_by, stream.next()).await {
                Ok(n) => n,
                Err(_) => break,
            }
        } else {
            stream.next().await
        };
        let Some(Ok(frame)) = next else { break };
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
                reply(ServerMessage::error(e.code, e.message, e.kind.as_deref()));
                continue;
            }
        };
        match (conn, msg) {
            (
                None,
                ClientMessage::Hello {
                    protocol_version, ..
                },
            ) => {
                let (r, id) = oneshot::channel();
                let hello = Cmd::Hello {
                    seat,
                    version: protocol_version,
                    tx: tx.clone(),
                    reply: r,
                };
                if game.tx.send(hello).await.is_err() {
                    break;
                }
                match id.await {
                    Ok(id) => conn = Some(id),
                    Err(_) => break,
                }
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
    if let Some(id) = conn {
        let _ = game.tx.send(Cmd::Gone { conn: id }).await;
    }
    drop(tx);
    let _ = writer.await;
}
