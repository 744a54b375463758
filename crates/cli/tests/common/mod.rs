//! What the tests that run `houserules serve` as a child process share: the
//! address from the start line, raw HTTP/1.1 requests, seat WebSockets and
//! reading their next state. Each test file uses only part of it.
#![allow(dead_code)]

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// The `HOST:PORT` of the start line `houserules server on
/// http://127.0.0.1:PORT/ (…)`; panics naming the line when it has none.
pub fn address_of(start_line: &str) -> String {
    start_line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {start_line:?}"))
        .to_string()
}

/// One HTTP/1.1 request with `Connection: close`; the status and the raw
/// body.
pub async fn http_text(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body.to_string())
}

/// One HTTP/1.1 request; the status and the body as JSON (`Null` when it
/// is not JSON).
pub async fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let (status, text) = http_text(addr, method, path, body).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A seat's WebSocket, after `hello` with protocol `version`.
pub async fn ws(addr: &str, id: &str, token: &str, version: u32) -> Ws {
    let (mut w, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token={token}"))
            .await
            .unwrap();
    w.send(Message::Text(
        json!({"kind": "hello", "protocolVersion": version})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    w
}

/// What a socket gave next: a welcome/state message, its close code, or
/// nothing (it died without a close frame, or 10 s of silence).
pub enum Next {
    State(Value),
    Closed(Option<CloseCode>),
}

impl Next {
    /// The state, or `None` when the socket closed or fell silent.
    pub fn state(self) -> Option<Value> {
        match self {
            Next::State(v) => Some(v),
            Next::Closed(_) => None,
        }
    }
}

/// The next `welcome` or `state` (protocols 1 and 2) of `w`.
pub async fn next_state(w: &mut Ws) -> Next {
    loop {
        let m = match tokio::time::timeout(Duration::from_secs(10), w.next()).await {
            Ok(Some(Ok(m))) => m,
            _ => return Next::Closed(None),
        };
        match m {
            Message::Text(t) => {
                let Ok(v) = serde_json::from_str::<Value>(t.as_str()) else {
                    return Next::Closed(None);
                };
                if v["kind"] == "welcome" || v["kind"] == "state" {
                    return Next::State(v);
                }
            }
            Message::Close(f) => return Next::Closed(f.map(|f| f.code)),
            _ => {}
        }
    }
}
