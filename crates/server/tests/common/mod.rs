//! Test helpers: a server on a loopback port over SQLite or Postgres, and
//! a WebSocket client (tokio-tungstenite).
#![allow(dead_code, missing_docs)]

pub mod schema;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use houserules_server::game::Timing;
use houserules_server::store::SqlStore;
use houserules_server::{AppState, Config};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The JSON Schema of the server's WebSocket messages, generated from
/// `protocol::ServerMessage` as `docs/protocol.md` publishes it (the
/// `protocol_doc` test keeps the two equal), so a message kind added to the
/// enum is checked too (issue 23).
static SERVER_MESSAGE_SCHEMA: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    let schema = serde_json::to_value(schemars::schema_for!(
        houserules_server::protocol::ServerMessage
    ))
    .unwrap();
    jsonschema::validator_for(&schema).expect("the ServerMessage schema compiles")
});

/// A text frame from the server, read as JSON and checked against
/// [`SERVER_MESSAGE_SCHEMA`]: every message a test receives must be one the
/// published protocol describes.
pub fn server_message(text: &str) -> Value {
    let v: Value = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("the server sent text that is not JSON ({e}): {text}"));
    let errors: Vec<String> = SERVER_MESSAGE_SCHEMA
        .iter_errors(&v)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "a server message does not validate against the published schema (docs/protocol.md): {}\n{text}",
        errors.join("; ")
    );
    v
}

/// The two stores the suite runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// A database for one test: a fresh SQLite file, or a fresh schema on
/// the local Postgres (`HOUSERULES_TEST_PG`, default
/// `postgres://postgres@127.0.0.1:5432/test`).
#[derive(Debug, Clone)]
pub struct Db {
    pub url: String,
    pub schema: Option<String>,
}

pub fn pg_url() -> String {
    std::env::var("HOUSERULES_TEST_PG")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into())
}

pub fn fresh_db(backend: Backend) -> Db {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let pid = std::process::id();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    match backend {
        Backend::Sqlite => {
            let dir = std::env::temp_dir().join(format!("houserules-test-{pid}"));
            std::fs::create_dir_all(&dir).unwrap();
            Db {
                url: format!("sqlite:{}", dir.join(format!("t{n}.db")).display()),
                schema: None,
            }
        }
        Backend::Postgres => Db {
            url: pg_url(),
            schema: Some(format!("hr_test_{pid}_{n}_{nanos}")),
        },
    }
}

pub async fn open(db: &Db) -> SqlStore {
    SqlStore::connect(&db.url, db.schema.as_deref())
        .await
        .unwrap_or_else(|e| {
            panic!(
                "cannot open {} (Postgres must run on 127.0.0.1:5432, database test, trust auth; `pg_ctlcluster 15 main start`): {e}",
                db.url
            )
        })
}

/// Short durations for tests: a choice-timeout "second" is 50 ms, a
/// player may be claimed against after 300 ms, an idle game unloads after
/// 1 s (so that the suite also plays games that unload and rebuild between
/// requests).
pub fn fast() -> Config {
    Config {
        timing: Timing {
            choice_second: Duration::from_millis(50),
            claim_victory_after: Duration::from_millis(300),
            choice_disconnect_grace: Duration::from_millis(300),
            idle_unload: Duration::from_secs(1),
            seat_return: Duration::from_secs(10),
        },
        rate_per_second: 200,
        ..Default::default()
    }
}

pub struct Server {
    pub addr: SocketAddr,
    pub state: Arc<AppState>,
    pub db: Db,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub async fn start_on(db: Db, config: Config) -> Server {
    let store = open(&db).await;
    let state = AppState::new(Arc::new(store), config);
    state.rebuild_all().await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = houserules_server::http::router(Arc::clone(&state));
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    Server {
        addr,
        state,
        db,
        task,
    }
}

pub async fn start(backend: Backend) -> Server {
    start_on(fresh_db(backend), fast()).await
}

/// A minimal HTTP/1.1 client over a raw socket: the method, path, body;
/// returns (status, body text).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let (status, _, body) = http_full(addr, method, path, body).await;
    (status, body)
}

/// `POST path` with a JSON `body` and `Authorization: Bearer token` (none
/// when `token` is `None`): (status, body).
pub async fn post_as(
    addr: SocketAddr,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let status: u16 = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body.to_string())
}

/// [`http`] with the response's head (status line and headers, lower-cased).
pub async fn http_full(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    // A server may answer before it has read the whole body (a 413 from
    // the Content-Length alone) and close: as HTTP clients do, the answer
    // is read anyway. A body over the limit is not sent at all, so that the
    // early close leaves no unread data for a reset to discard the answer
    // with (regression: `service_endpoints` failed half the time writing
    // the 2 MiB body).
    if body.len() <= houserules_server::http::MAX_BODY_BYTES {
        let _ = s.write_all(body.as_bytes()).await;
    }
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    assert!(
        text.len() >= 12,
        "no HTTP answer to {method} {path}: {text:?}"
    );
    let status: u16 = text[9..12].parse().unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, head.to_ascii_lowercase(), body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

pub async fn get_json(addr: SocketAddr, path: &str) -> Value {
    let (status, body) = http(addr, "GET", path, None).await;
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// A created game: id and both tokens.
pub struct Created {
    pub id: String,
    pub white: String,
    pub black: String,
}

pub async fn create(addr: SocketAddr, request: Value) -> Created {
    let (status, body) = http(addr, "POST", "/api/games", Some(&request.to_string())).await;
    assert_eq!(status, 201, "create: {body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    Created {
        id: v["id"].as_str().unwrap().into(),
        white: v["seats"]["white"]["token"].as_str().unwrap_or("").into(),
        black: v["seats"]["black"]["token"].as_str().unwrap_or("").into(),
    }
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The welcome message.
    pub welcome: Value,
}

/// How long a test waits for an expected message.
pub const WAIT: Duration = Duration::from_secs(5);

impl Client {
    /// Connects (token `""`: spectator) and says hello with `version`.
    pub async fn connect(addr: SocketAddr, id: &str, token: &str, version: u8) -> Client {
        let mut c = Client::raw(addr, id, token).await;
        c.send(json!({"kind": "hello", "protocolVersion": version}))
            .await;
        let welcome = c.expect("welcome").await;
        c.welcome = welcome;
        c
    }

    pub async fn raw(addr: SocketAddr, id: &str, token: &str) -> Client {
        let url = if token.is_empty() {
            format!("ws://{addr}/api/games/{id}/ws")
        } else {
            format!("ws://{addr}/api/games/{id}/ws?token={token}")
        };
        let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        Client {
            ws,
            welcome: Value::Null,
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    pub async fn send_text(&mut self, t: String) {
        self.ws.send(Message::Text(t.into())).await.unwrap();
    }

    /// The next message, or panics after [`WAIT`].
    pub async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message within the wait")
                .expect("the socket open")
                .expect("a frame");
            if let Message::Text(t) = m {
                return server_message(t.as_str());
            }
        }
    }

    /// Skips messages until one of `kind` (presence and the like are
    /// skipped); panics after [`WAIT`].
    pub async fn expect(&mut self, kind: &str) -> Value {
        loop {
            let m = self.next().await;
            if m["kind"] == kind {
                return m;
            }
            assert!(
                m["kind"] != "error" || kind == "error",
                "unexpected error while waiting for {kind}: {m}"
            );
        }
    }

    /// Skips to the first `state` whose state satisfies `f`.
    pub async fn state_where(&mut self, f: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.expect("state").await;
            if f(&m["state"]) {
                return m;
            }
        }
    }

    /// Nothing but presence/pong arrives for `d`.
    pub async fn quiet(&mut self, d: Duration) {
        if let Ok(Some(Ok(Message::Text(t)))) = tokio::time::timeout(d, self.ws.next()).await {
            let v = server_message(t.as_str());
            assert!(v["kind"] == "presence", "expected nothing, got {v}");
        }
    }

    pub async fn mv(&mut self, m: &str, ply: u32) {
        self.send(json!({"kind": "move", "move": m, "ply": ply}))
            .await;
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Runs the body once per backend: `backend_tests!(name, async fn(Backend))`.
#[macro_export]
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::common::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::common::Backend::Postgres).await
                }
            )*
        }
    };
}

impl Client {
    /// Every message that arrives until none has for `d` (the socket kept
    /// read, so the server's queue for it never fills).
    pub async fn drain(&mut self, d: Duration) -> Vec<Value> {
        let mut got = Vec::new();
        while let Ok(Some(Ok(m))) = tokio::time::timeout(d, self.ws.next()).await {
            if let Message::Text(t) = m {
                got.push(server_message(t.as_str()));
            }
        }
        got
    }

    /// Sends `ping` and returns the messages that arrive before its
    /// `pong`: one connection's messages are handled in order, so the
    /// message sent before the ping has been handled when the pong comes.
    pub async fn until_pong(&mut self) -> Vec<Value> {
        self.send(json!({"kind": "ping"})).await;
        let mut got = Vec::new();
        loop {
            let m = self.next().await;
            if m["kind"] == "pong" {
                return got;
            }
            got.push(m);
        }
    }
}
