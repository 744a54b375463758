//! Routing a game's commands between nodes over NATS (issue 24).
//!
//! - The owner serves `hr.g.<game>.cmd` ([`serve_game`]): each request is
//!   turned into the game task's own [`Cmd`] (a hello, a message, a
//!   connection gone, a read, a join) and answered once the task took it.
//!   A connection of another node is, for the task, a connection like any
//!   other: its queue is pumped ([`pump`]) to `hr.c.<node>.<key>`, each
//!   message numbered, then an empty one when the task let it go.
//! - Any other node hands out a [`proxy`] handle: the same [`GameHandle`]
//!   the HTTP routes and WebSockets use, whose commands go to the owner.
//!   A proxy relays the owner's messages to its socket; a gap in their
//!   numbers (NATS core delivery is at most once) asks the owner to resync
//!   the connection (`resync` with the last `seq` relayed). When the owner
//!   goes (no responder, a silent node, a new owner announced on
//!   `hr.g.<game>.moved`) the proxy ends, and its socket is closed with
//!   1012 so that its client reconnects (and resends: moves carry their
//!   ply, so nothing is played twice).
//! - A read or a hello that finds no owner tries again for a few seconds,
//!   taking the game when its lease has expired (its node died) or was
//!   released (its node drained).

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use async_nats::Subscriber;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};

use super::{lock, Cluster, RemoteConn, Route};
use crate::game::{Cmd, GameHandle};
use crate::protocol::{ClientMessage, Seat};

/// How long a hello or a read looks for the game's owner (a dead node's
/// lease runs out within [`super::ClusterConfig::lease`], 3 s).
const FIND_OWNER: Duration = Duration::from_secs(8);

/// A request to a game's owner.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub(crate) enum Req {
    /// A connection of `node` said hello; the owner's messages for it go
    /// to `hr.c.<node>.<key>`.
    Hello {
        node: String,
        key: String,
        seat: Seat,
        version: u8,
    },
    /// A message of the connection `conn`, relayed under `key` (the key
    /// of its hello: the owner plays it only for the connection that hello
    /// made; a connection id alone may name another connection of a game
    /// loaded again, on this node or a new owner, whose ids start at 1).
    Msg {
        conn: u64,
        #[serde(default)]
        key: String,
        msg: ClientMessage,
    },
    /// The connection closed.
    Gone { conn: u64, key: String },
    /// The full state.
    View,
    /// The record.
    Record,
    /// The PGN.
    Pgn,
    /// The seat a token opens.
    SeatOf { token: String },
    /// Take the free seat, with the joiner's name if given.
    Join {
        #[serde(default)]
        name: Option<String>,
    },
    /// Name the seat a token opens (issue 26).
    Name { token: String, name: String },
    /// Offer or accept a rematch with a seat's token (issue 26).
    Rematch { token: String },
}

/// The owner's answer.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Rep {
    /// Done, with its value.
    Ok(Value),
    /// This node no longer runs the game: find its owner again.
    Moved,
    /// The request could not be read.
    Failed(String),
}

/// Why a request got no answer.
enum Fail {
    /// No owner answered (none subscribed, it timed out, it let the game
    /// go, or NATS is unreachable).
    Gone,
    /// Anything else.
    Error(String),
}

/// Serves `id`'s command subject on its owner, while the game's task runs.
pub(super) async fn serve_game(
    cluster: Weak<Cluster>,
    id: String,
    game: Arc<std::sync::Mutex<mpsc::WeakSender<Cmd>>>,
    mut sub: Subscriber,
) {
    while let Some(m) = sub.next().await {
        let Some(c) = cluster.upgrade() else { break };
        let Some(reply) = m.reply else { continue };
        let tx = lock(&game).upgrade();
        let rep = match tx {
            None => Rep::Moved,
            Some(tx) => match serde_json::from_slice::<Req>(&m.payload) {
                Ok(req) => answer(&c, &tx, req).await,
                Err(e) => Rep::Failed(format!("a request this node cannot read: {e}")),
            },
        };
        let body = serde_json::to_vec(&rep).unwrap_or_default();
        let _ = c.nats.publish(reply, body.into()).await;
    }
    tracing::debug!(game = %id, "no longer serving the game's commands");
}

/// Asks the game's task.
async fn ask<T>(tx: &mpsc::Sender<Cmd>, cmd: impl FnOnce(oneshot::Sender<T>) -> Cmd) -> Option<T> {
    let (r, answer) = oneshot::channel();
    tx.send(cmd(r)).await.ok()?;
    answer.await.ok()
}

/// One request on the owner: the task's command, and its answer.
async fn answer(c: &Arc<Cluster>, tx: &mpsc::Sender<Cmd>, req: Req) -> Rep {
    let ok = |v: Option<Value>| v.map_or(Rep::Moved, Rep::Ok);
    match req {
        Req::Hello {
            node,
            key,
            seat,
            version,
        } => {
            let queue = c.app().map_or(256, |a| a.config.limits.ws_queue.max(1));
            let (ptx, prx) = mpsc::channel::<Arc<str>>(queue);
            let conn = ask(tx, |reply| Cmd::Hello {
                seat,
                version,
                tx: ptx,
                reply,
            })
            .await;
            let Some(conn) = conn else {
                return Rep::Moved;
            };
            lock(&c.remote).insert(
                key.clone(),
                RemoteConn {
                    node: node.clone(),
                    conn,
                    game: tx.downgrade(),
                    since: Instant::now(),
                },
            );
            let subject = c.subject(&format!("c.{node}.{key}"));
            tokio::spawn(pump(Arc::downgrade(c), subject, key, prx));
            Rep::Ok(json!({"conn": conn, "node": c.node}))
        }
        Req::Msg { conn, key, msg } => {
            if !held_by(c, &key, conn, tx) {
                // Not a connection of this game's task: the relay finds the
                // owner again (its socket reconnects).
                return Rep::Moved;
            }
            let cmd = Cmd::Message {
                conn,
                msg,
                at: Instant::now(),
            };
            ok(tx.send(cmd).await.ok().map(|()| Value::Null))
        }
        Req::Gone { conn, key } => {
            let held = held_by(c, &key, conn, tx);
            lock(&c.remote).remove(&key);
            if !held {
                return Rep::Ok(Value::Null);
            }
            ok(tx.send(Cmd::Gone { conn }).await.ok().map(|()| Value::Null))
        }
        Req::View => ok(ask(tx, Cmd::View).await),
        Req::Record => ok(ask(tx, Cmd::Record).await),
        Req::Pgn => ok(ask(tx, Cmd::Pgn).await.map(Value::String)),
        Req::SeatOf { token } => ok(ask(tx, |reply| Cmd::SeatOf { token, reply })
            .await
            .map(|s| serde_json::to_value(s).unwrap_or(Value::Null))),
        Req::Join { name } => {
            ok(ask(tx, |reply| Cmd::Join { name, reply })
                .await
                .map(|r| match r {
                    Ok((seat, token, name)) => json!({"seat": seat, "token": token, "name": name}),
                    Err(m) => json!({"error": m}),
                }))
        }
        Req::Name { token, name } => ok(ask(tx, |reply| Cmd::Name { token, name, reply })
            .await
            .map(|r| match r {
                Ok(seat) => json!({"ok": seat}),
                Err(e) => json!({"err": e}),
            })),
        Req::Rematch { token } => {
            ok(ask(tx, |reply| Cmd::Rematch { token, reply })
                .await
                .map(|r| match r {
                    Ok(seat) => json!({"ok": seat}),
                    Err(e) => json!({"err": e}),
                }))
        }
    }
}

/// Whether the relayed connection `key` is `conn` of the game task `tx`
/// (a request of a connection that hello made to another owner, or to
/// an earlier task of this game, is not: its id may be another's here).
fn held_by(c: &Cluster, key: &str, conn: u64, tx: &mpsc::Sender<Cmd>) -> bool {
    lock(&c.remote)
        .get(key)
        .is_some_and(|r| r.conn == conn && r.game.upgrade().is_some_and(|g| g.same_channel(tx)))
}

/// Microseconds since the Unix epoch by this machine's clock (the relay
/// latency's stamp; 0 if the clock is before 1970).
fn now_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// Publishes a relayed connection's messages, numbered from 1 and stamped
/// with the time of their publish (`<n> <µs>\n<text>`), then an empty one
/// when the game let the connection go.
async fn pump(
    cluster: Weak<Cluster>,
    subject: String,
    key: String,
    mut rx: mpsc::Receiver<Arc<str>>,
) {
    let mut n: u64 = 0;
    while let Some(text) = rx.recv().await {
        let Some(c) = cluster.upgrade() else { return };
        n += 1;
        let _ = c
            .nats
            .publish(subject.clone(), format!("{n} {}\n{text}", now_us()).into())
            .await;
    }
    if let Some(c) = cluster.upgrade() {
        lock(&c.remote).remove(&key);
        let _ = c.nats.publish(subject, format!("{}\n", n + 1).into()).await;
    }
}

/// Sends `req` to `id`'s owner.
async fn request(c: &Cluster, id: &str, req: &Req) -> Result<Value, Fail> {
    let body = serde_json::to_vec(req).map_err(|e| Fail::Error(e.to_string()))?;
    let asked = Instant::now();
    let answer = c
        .nats
        .request(c.subject(&format!("g.{id}.cmd")), body.into())
        .await;
    if answer.is_ok() {
        c.count(|m| m.forward.observe(asked.elapsed().as_secs_f64()));
    }
    match answer {
        Ok(m) => match serde_json::from_slice::<Rep>(&m.payload) {
            Ok(Rep::Ok(v)) => Ok(v),
            Ok(Rep::Moved) => Err(Fail::Gone),
            Ok(Rep::Failed(e)) => Err(Fail::Error(e)),
            Err(e) => Err(Fail::Error(format!("an answer this node cannot read: {e}"))),
        },
        // No responder, a time-out, or NATS itself unreachable (it
        // restarts): all pass, so they are tried again.
        Err(e) => {
            tracing::debug!(game = %id, error = %e, "a request to the owner got no answer");
            Err(Fail::Gone)
        }
    }
}

/// A handle whose commands go to `id`'s owner on another node (or to this
/// node, once it took the game).
pub(crate) fn proxy(cluster: Arc<Cluster>, id: String) -> GameHandle {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(run_proxy(cluster, id, rx));
    GameHandle { tx }
}

/// A connection's link to its game once it said hello.
enum Link {
    /// Through NATS to the owner.
    Remote {
        owner: String,
        conn: u64,
        key: String,
        sub: Subscriber,
        moved: Subscriber,
        /// The number of the next relayed message.
        next: u64,
        /// The last game `seq` relayed (for a resync after a gap).
        last_seq: u64,
        /// When the owner last answered (its hello, a relayed message).
        heard: Instant,
        ws: mpsc::Sender<Arc<str>>,
    },
    /// To the game's task on this node (it took the game meanwhile).
    Local {
        h: GameHandle,
        conn: u64,
        rx: mpsc::Receiver<Arc<str>>,
        ws: mpsc::Sender<Arc<str>>,
    },
}

async fn run_proxy(c: Arc<Cluster>, id: String, mut rx: mpsc::Receiver<Cmd>) {
    let mut link: Option<Link> = None;
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let Some(l) = link.as_mut() else {
            let Some(cmd) = rx.recv().await else { break };
            match cmd {
                Cmd::Hello {
                    seat,
                    version,
                    tx,
                    reply,
                } => match hello(&c, &id, seat, version, &tx).await {
                    Some((l, conn)) => {
                        let _ = reply.send(conn);
                        if matches!(l, Link::Remote { .. }) {
                            c.count(|m| {
                                m.relayed("relay").inc();
                            });
                        }
                        link = Some(l);
                    }
                    None => {
                        // No owner answered (NATS away, say): the queue
                        // closes before the socket's sender goes, so that
                        // its writer closes 1012 (reconnect), not 1008 as
                        // for a client that does not read (trial 19).
                        rx.close();
                        drop(tx);
                        break;
                    }
                },
                other => one_shot(&c, &id, other).await,
            }
            continue;
        };
        if !step(&c, &id, l, &mut rx, &mut tick).await {
            break;
        }
    }
    // The queue closes before the socket's sender goes, so that its writer
    // sees the game gone (close 1012: reconnect).
    rx.close();
    if let Some(Link::Remote { conn, key, .. }) = &link {
        c.count(|m| {
            m.relayed("relay").dec();
        });
        let _ = request(
            &c,
            &id,
            &Req::Gone {
                conn: *conn,
                key: key.clone(),
            },
        )
        .await;
    }
    drop(link);
}

/// One event of a connected proxy; `false` when it ends.
async fn step(
    c: &Arc<Cluster>,
    id: &str,
    link: &mut Link,
    rx: &mut mpsc::Receiver<Cmd>,
    tick: &mut tokio::time::Interval,
) -> bool {
    match link {
        Link::Local {
            h,
            conn,
            rx: from,
            ws,
        } => tokio::select! {
            cmd = rx.recv() => match cmd {
                Some(Cmd::Message { msg, at, .. }) => {
                    h.tx.send(Cmd::Message { conn: *conn, msg, at }).await.is_ok()
                }
                Some(Cmd::Gone { .. }) => {
                    let _ = h.tx.send(Cmd::Gone { conn: *conn }).await;
                    false
                }
                Some(Cmd::Hello { .. } | Cmd::Stop) | None => false,
                Some(other) => h.tx.send(other).await.is_ok(),
            },
            text = from.recv() => match text {
                Some(t) => ws.try_send(t).is_ok(),
                None => false,
            },
        },
        Link::Remote {
            owner,
            conn,
            key,
            sub,
            moved,
            next,
            last_seq,
            heard,
            ws,
        } => tokio::select! {
            cmd = rx.recv() => match cmd {
                Some(Cmd::Message { msg, .. }) => {
                    request(c, id, &Req::Msg { conn: *conn, key: key.clone(), msg }).await.is_ok()
                }
                Some(Cmd::Gone { .. }) => {
                    let _ = request(c, id, &Req::Gone { conn: *conn, key: key.clone() }).await;
                    // Told already: not again when the proxy ends.
                    *key = String::new();
                    false
                }
                Some(Cmd::Hello { .. } | Cmd::Stop) | None => false,
                Some(other) => {
                    one_shot(c, id, other).await;
                    true
                }
            },
            m = sub.next() => {
                let Some(m) = m else { return false };
                *heard = Instant::now();
                let text = String::from_utf8_lossy(&m.payload);
                if let Some(sent) = stamp_of(&text) {
                    let us = now_us().saturating_sub(sent);
                    c.count(|m| m.relay.observe(us as f64 / 1e6));
                }
                match relayed(&text, next, last_seq) {
                    Relayed::Skip => true,
                    Relayed::Closed => false, // the owner let the connection go
                    Relayed::Write { body, resync } => {
                        if ws.try_send(Arc::from(body)).is_err() {
                            return false;
                        }
                        let Some(last_seq) = resync else { return true };
                        tracing::info!(game = %id, last_seq, "relay gap: resync from the owner");
                        let msg = ClientMessage::Resync { last_seq };
                        let req = Req::Msg { conn: *conn, key: key.clone(), msg };
                        request(c, id, &req).await.is_ok()
                    }
                }
            }
            m = moved.next() => {
                let Some(m) = m else { return false };
                let v: Value = serde_json::from_slice(&m.payload).unwrap_or(Value::Null);
                v["node"].as_str() == Some(owner.as_str())
            }
            _ = tick.tick() => c.alive(owner, *heard),
        },
    }
}

/// What a message relayed from the owner means for the relay.
#[derive(Debug, PartialEq, Eq)]
enum Relayed<'a> {
    /// Write `body` to the socket; with `resync`, messages were lost
    /// before it (NATS core delivers at most once): the owner is asked for
    /// what came after that `seq`.
    Write { body: &'a str, resync: Option<u64> },
    /// Already relayed, or not a relayed message: nothing to do.
    Skip,
    /// The owner let the connection go.
    Closed,
}

/// The publish stamp (µs since the Unix epoch) of a relayed message
/// (`<n> <µs>\n<text>`), if it has one.
fn stamp_of(payload: &str) -> Option<u64> {
    let (head, _) = payload.split_once('\n')?;
    head.split_once(' ')?.1.parse().ok()
}

/// Reads a relayed message (`<n>[ <µs>]\n<text>`, an empty text once the
/// owner let the connection go), given the number expected next and the
/// last game `seq` relayed, both updated.
fn relayed<'a>(payload: &'a str, next: &mut u64, last_seq: &mut u64) -> Relayed<'a> {
    let Some((head, body)) = payload.split_once('\n') else {
        return Relayed::Skip;
    };
    let n = head.split_once(' ').map_or(head, |(n, _)| n);
    let Ok(n) = n.parse::<u64>() else {
        return Relayed::Skip;
    };
    if body.is_empty() {
        return Relayed::Closed;
    }
    if n < *next {
        return Relayed::Skip;
    }
    let gap = n > *next;
    *next = n + 1;
    let before = *last_seq;
    if let Some(s) = seq_of(body) {
        *last_seq = s;
    }
    Relayed::Write {
        body,
        resync: gap.then_some(before),
    }
}

/// The `seq` of a relayed `welcome`, `state`, `update` or `patch` (its
/// first `"seq":` field: each is serialised with `seq` before `state`).
fn seq_of(text: &str) -> Option<u64> {
    let kind = ["welcome", "state", "update", "patch"]
        .iter()
        .any(|k| text.starts_with(&format!(r#"{{"kind":"{k}""#)));
    if !kind {
        return None;
    }
    let rest = &text[text.find(r#""seq":"#)? + 6..];
    let end = rest
        .find(|ch: char| !ch.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// A connection's hello, sent to wherever the game runs (looking for its
/// owner up to [`FIND_OWNER`]); its link and connection id, or `None`.
async fn hello(
    c: &Arc<Cluster>,
    id: &str,
    seat: Seat,
    version: u8,
    ws: &mpsc::Sender<Arc<str>>,
) -> Option<(Link, u64)> {
    let deadline = Instant::now() + FIND_OWNER;
    loop {
        match c.resolve(id).await {
            Ok(Some(Route::Local(h))) => {
                let queue = c.app().map_or(256, |a| a.config.limits.ws_queue.max(1));
                let (ptx, prx) = mpsc::channel(queue);
                let (r, conn) = oneshot::channel();
                let hello = Cmd::Hello {
                    seat,
                    version,
                    tx: ptx,
                    reply: r,
                };
                if h.tx.send(hello).await.is_ok() {
                    if let Ok(conn) = conn.await {
                        let link = Link::Local {
                            h,
                            conn,
                            rx: prx,
                            ws: ws.clone(),
                        };
                        return Some((link, conn));
                    }
                }
            }
            Ok(Some(Route::Remote(owner))) => {
                let key = crate::random_hex(8);
                // Subscribed before the hello is sent (on the same NATS
                // connection, so the server has both in that order): the
                // welcome cannot be missed.
                // Bounded: while NATS is away a subscription may wait for it;
                // the hello is then tried again.
                let subscribed = tokio::time::timeout(Duration::from_secs(2), async {
                    let sub = c
                        .nats
                        .subscribe(c.subject(&format!("c.{}.{key}", c.node)))
                        .await
                        .ok()?;
                    let moved = c
                        .nats
                        .subscribe(c.subject(&format!("g.{id}.moved")))
                        .await
                        .ok()?;
                    Some((sub, moved))
                })
                .await
                .ok()
                .flatten();
                let Some((sub, moved)) = subscribed else {
                    if Instant::now() >= deadline {
                        return None;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                };
                let req = Req::Hello {
                    node: c.node.clone(),
                    key: key.clone(),
                    seat,
                    version,
                };
                match request(c, id, &req).await {
                    Ok(v) => {
                        let conn = v["conn"].as_u64()?;
                        let owner = v["node"].as_str().map_or(owner, str::to_string);
                        let link = Link::Remote {
                            owner,
                            conn,
                            key,
                            sub,
                            moved,
                            next: 1,
                            last_seq: 0,
                            heard: Instant::now(),
                            ws: ws.clone(),
                        };
                        return Some((link, conn));
                    }
                    Err(Fail::Gone) => {}
                    Err(Fail::Error(e)) => {
                        tracing::warn!(game = %id, error = %e, "hello to the owner failed");
                        return None;
                    }
                }
            }
            Ok(None) => return None,
            Err(e) => tracing::warn!(game = %id, error = %e, "finding the game's owner failed"),
        }
        if Instant::now() >= deadline {
            tracing::warn!(game = %id, "no owner answered in time");
            return None;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A read or a join, sent to wherever the game runs (looking for its owner
/// up to [`FIND_OWNER`]); its answer goes to the command's reply. A command
/// left unanswered drops its reply (the caller's "the game's task
/// stopped").
async fn one_shot(c: &Arc<Cluster>, id: &str, cmd: Cmd) {
    let req = match &cmd {
        Cmd::View(_) => Req::View,
        Cmd::Record(_) => Req::Record,
        Cmd::Pgn(_) => Req::Pgn,
        Cmd::SeatOf { token, .. } => Req::SeatOf {
            token: token.clone(),
        },
        Cmd::Join { name, .. } => Req::Join { name: name.clone() },
        Cmd::Name { token, name, .. } => Req::Name {
            token: token.clone(),
            name: name.clone(),
        },
        Cmd::Rematch { token, .. } => Req::Rematch {
            token: token.clone(),
        },
        Cmd::Hello { .. } | Cmd::Message { .. } | Cmd::Gone { .. } | Cmd::Stop => return,
    };
    let deadline = Instant::now() + FIND_OWNER;
    loop {
        match c.resolve(id).await {
            Ok(Some(Route::Local(h))) => {
                let _ = h.tx.send(cmd).await;
                return;
            }
            Ok(Some(Route::Remote(_))) => match request(c, id, &req).await {
                Ok(v) => {
                    reply_with(cmd, v);
                    return;
                }
                Err(Fail::Gone) => {}
                Err(Fail::Error(e)) => {
                    tracing::warn!(game = %id, error = %e, "a request to the owner failed");
                    return;
                }
            },
            Ok(None) => return,
            Err(e) => tracing::warn!(game = %id, error = %e, "finding the game's owner failed"),
        }
        if Instant::now() >= deadline {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Answers a command with the owner's value.
fn reply_with(cmd: Cmd, v: Value) {
    match cmd {
        Cmd::View(r) | Cmd::Record(r) => {
            let _ = r.send(v);
        }
        Cmd::Pgn(r) => {
            let _ = r.send(v.as_str().unwrap_or_default().to_string());
        }
        Cmd::SeatOf { reply, .. } => {
            let _ = reply.send(serde_json::from_value::<Option<Seat>>(v).ok().flatten());
        }
        Cmd::Join { reply: r, .. } => {
            let answer = match v["error"].as_str() {
                Some(e) => Err(e.to_string()),
                None => serde_json::from_value::<Seat>(v["seat"].clone())
                    .map(|s| {
                        (
                            s,
                            v["token"].as_str().unwrap_or_default().to_string(),
                            v["name"].as_str().map(str::to_string),
                        )
                    })
                    .map_err(|e| e.to_string()),
            };
            let _ = r.send(answer);
        }
        Cmd::Name { reply, .. } => {
            let _ = reply.send(owner_answer(&v));
        }
        Cmd::Rematch { reply, .. } => {
            let _ = reply.send(owner_answer(&v));
        }
        Cmd::Hello { .. } | Cmd::Message { .. } | Cmd::Gone { .. } | Cmd::Stop => {}
    }
}

/// The owner's answer to a request that answers `{ok}` or `{err}` (a
/// seat's naming, a rematch): what it says, or `503 game.unavailable` when
/// it says neither.
fn owner_answer<T: serde::de::DeserializeOwned>(
    v: &Value,
) -> Result<T, crate::game::rematch::RematchError> {
    serde_json::from_value(v["ok"].clone()).map_err(|_| {
        serde_json::from_value(v["err"].clone()).unwrap_or(crate::game::rematch::RematchError {
            status: 503,
            code: "game.unavailable".into(),
            message: "the game's owner gave no answer".into(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::{relayed, seq_of, stamp_of, Relayed};

    /// Messages 1 and 2 relayed, 3 lost, 4 arrives: 4 is written and the
    /// owner asked for what came after the last seq relayed (the update
    /// of message 2, seq 1); a duplicate 2 and a non-message are skipped;
    /// the empty message closes.
    #[test]
    fn a_gap_in_the_numbers_asks_for_a_resync() {
        let (mut next, mut last) = (1, 0);
        let welcome = r#"{"kind":"welcome","protocolVersion":3,"seat":"white","seq":0,"state":{}}"#;
        let u1 = r#"{"kind":"update","seq":1}"#;
        let u3 = r#"{"kind":"update","seq":3}"#;
        assert_eq!(
            relayed(&format!("1\n{welcome}"), &mut next, &mut last),
            Relayed::Write {
                body: welcome,
                resync: None
            }
        );
        assert_eq!(
            relayed(&format!("2\n{u1}"), &mut next, &mut last),
            Relayed::Write {
                body: u1,
                resync: None
            }
        );
        assert_eq!(last, 1);
        assert_eq!(
            relayed(&format!("2\n{u1}"), &mut next, &mut last),
            Relayed::Skip
        );
        assert_eq!(
            relayed(&format!("4\n{u3}"), &mut next, &mut last),
            Relayed::Write {
                body: u3,
                resync: Some(1)
            }
        );
        assert_eq!((next, last), (5, 3));
        assert_eq!(relayed("garbage", &mut next, &mut last), Relayed::Skip);
        assert_eq!(relayed("5\n", &mut next, &mut last), Relayed::Closed);
    }

    /// The pump's form `<n> <µs>\n<text>`: the number is read as without
    /// a stamp, and the stamp is the relay latency's start.
    #[test]
    fn a_stamped_message_is_numbered_as_before() {
        let (mut next, mut last) = (1, 0);
        let u1 = r#"{"kind":"update","seq":1}"#;
        let stamped = format!("1 1733400000123456\n{u1}");
        assert_eq!(stamp_of(&stamped), Some(1_733_400_000_123_456));
        assert_eq!(stamp_of(&format!("1\n{u1}")), None);
        assert_eq!(
            relayed(&stamped, &mut next, &mut last),
            Relayed::Write {
                body: u1,
                resync: None
            }
        );
        assert_eq!((next, last), (2, 1));
        assert_eq!(relayed("2 5\n", &mut next, &mut last), Relayed::Closed);
    }

    #[test]
    fn seq_of_reads_the_first_seq() {
        assert_eq!(
            seq_of(r#"{"kind":"update","seq":12,"clock":null}"#),
            Some(12)
        );
        assert_eq!(
            seq_of(
                r#"{"kind":"welcome","protocolVersion":3,"seat":"white","seq":4,"state":{"seq":4}}"#
            ),
            Some(4)
        );
        assert_eq!(seq_of(r#"{"kind":"presence","white":true}"#), None);
        assert_eq!(
            seq_of(r#"{"kind":"error","code":"x","message":"\"seq\":9"}"#),
            None
        );
    }
}
