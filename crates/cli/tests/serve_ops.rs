//! Issue 22 as an operator meets it: the real `houserules serve` binary,
//! run as a child process on a free loopback port with a temporary SQLite
//! file (or its own Postgres database), checked from outside.
//!
//! - settings from the environment and from `--config FILE.toml`, with the
//!   precedence the `serve` help documents (command line > environment >
//!   file > default), and clear errors for an unknown key or a bad value;
//! - seat tokens never in the logs (`RUST_LOG=debug`, text and JSON), a
//!   Postgres password never printed;
//! - SIGTERM during play: exit within 10 s, every acknowledged move in the
//!   store after a restart, WebSocket clients closed with 1012;
//! - `--log-format json`: one JSON object per line, with the fields the
//!   issue lists for a game created and finished.
//!
//! The Postgres test uses the server at 127.0.0.1:5432 (trust auth) and
//! skips, saying so, when `psql` cannot reach it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::{http, next_state, Next, Ws};

/// A temporary folder of this test process, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!(
            "houserules-serve-ops-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }

    fn db(&self) -> String {
        format!("sqlite:{}", self.0.join("games.db").display())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A running `houserules serve`: its address (from the line it prints on
/// standard output), that line, and its standard error as collected so
/// far.
struct Server {
    child: Child,
    addr: String,
    start_line: String,
    stderr: Arc<Mutex<String>>,
    collector: Option<tokio::task::JoinHandle<()>>,
}

/// The `houserules serve` command with a clean environment: no
/// `HOUSERULES_*` or `RUST_LOG` inherited from whoever runs the tests.
fn serve_command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_houserules"));
    c.arg("serve").args(args);
    for (k, _) in std::env::vars() {
        if k.starts_with("HOUSERULES_") || k == "RUST_LOG" {
            c.env_remove(k);
        }
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    c
}

/// Starts the server; panics with its standard error if it does not
/// print where it listens within 60 s.
async fn start(args: &[&str], env: &[(&str, &str)]) -> Server {
    let mut child = serve_command(args, env).spawn().unwrap();
    let stderr = Arc::new(Mutex::new(String::new()));
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    let sink = Arc::clone(&stderr);
    let collector = tokio::spawn(async move {
        while let Ok(Some(l)) = err.next_line().await {
            let mut s = sink.lock().unwrap();
            s.push_str(&l);
            s.push('\n');
        }
    });
    let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = tokio::time::timeout(Duration::from_secs(60), out.next_line())
        .await
        .ok()
        .and_then(|l| l.ok().flatten());
    let Some(line) = line else {
        let _ = child.kill().await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        panic!(
            "the server did not start; its standard error:\n{}",
            stderr.lock().unwrap()
        );
    };
    let addr = common::address_of(&line);
    Server {
        child,
        addr,
        start_line: line,
        stderr,
        collector: Some(collector),
    }
}

impl Server {
    /// Sends SIGTERM; waits for the exit (at most `within`) and for the
    /// whole standard error. Returns the time taken and whether it exited
    /// successfully.
    async fn terminate(&mut self, within: Duration) -> (Duration, bool) {
        let pid = self.child.id().expect("running").to_string();
        let t0 = Instant::now();
        let sent = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -TERM {pid}");
        let status = tokio::time::timeout(within, self.child.wait())
            .await
            .unwrap_or_else(|_| panic!("the server did not exit within {within:?} of SIGTERM"))
            .unwrap();
        let took = t0.elapsed();
        if let Some(c) = self.collector.take() {
            let _ = tokio::time::timeout(Duration::from_secs(5), c).await;
        }
        (took, status.success())
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

/// Runs `houserules serve ARGS` expecting it to fail before listening;
/// its exit code and standard error.
async fn refused(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let out = tokio::time::timeout(Duration::from_secs(30), serve_command(args, env).output())
        .await
        .expect("it exits")
        .unwrap();
    assert!(
        out.stdout.is_empty(),
        "it printed {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The raw body of a GET.
async fn get_text(addr: &str, path: &str) -> String {
    common::http_text(addr, "GET", path, "").await.1
}

/// A seat's WebSocket, after `hello` (protocol 2).
async fn ws(addr: &str, id: &str, token: &str) -> Ws {
    common::ws(addr, id, token, 2).await
}

/// Both seats' tokens of a new live game.
async fn create(addr: &str, body: &str) -> (String, [String; 2]) {
    let (status, g) = http(addr, "POST", "/api/games", body).await;
    assert_eq!(status, 201, "{g}");
    let t = |s: &str| g["seats"][s]["token"].as_str().unwrap().to_string();
    (
        g["id"].as_str().unwrap().to_string(),
        [t("white"), t("black")],
    )
}

/// Plays `moves` (UCI) from both seats, each acknowledged by its state.
async fn play_moves(addr: &str, id: &str, tokens: &[String; 2], moves: &[&str]) {
    let mut socks = [
        ws(addr, id, &tokens[0]).await,
        ws(addr, id, &tokens[1]).await,
    ];
    for s in &mut socks {
        assert!(matches!(next_state(s).await, Next::State(_)), "a welcome");
    }
    for (ply, mv) in moves.iter().enumerate() {
        let side = ply % 2;
        let msg = json!({"kind": "move", "move": mv, "ply": ply}).to_string();
        socks[side].send(Message::Text(msg.into())).await.unwrap();
        for s in &mut socks {
            match next_state(s).await {
                Next::State(v) => assert_eq!(v["state"]["plyCount"], ply + 1, "{v}"),
                Next::Closed(c) => panic!("closed ({c:?}) after {mv}"),
            }
        }
    }
}

/// The value of `name` in the start log line `serving … limits = Limits
/// { …, name: VALUE, … }` (the server logs its limits there).
fn logged_limit(stderr: &str, name: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.contains("serving"))
        .unwrap_or_else(|| panic!("no `serving` line in:\n{stderr}"));
    let key = format!("{name}: ");
    let at = line
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {line}"));
    line[at + key.len()..]
        .split([',', ' ', '}'])
        .next()
        .unwrap()
        .to_string()
}

// ---------------------------------------------------------------- (a)

/// Settings come from `HOUSERULES_*` variables: the address, the store
/// and a limit (read back from the start lines).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_from_the_environment() {
    let dir = TempDir::new("env");
    let db = dir.db();
    let mut s = start(
        &[],
        &[
            ("HOUSERULES_ADDR", "127.0.0.1:0"),
            ("HOUSERULES_DB", &db),
            ("HOUSERULES_MAX_CONNECTIONS", "4321"),
            ("HOUSERULES_WS_IDLE_TIMEOUT", "42"),
        ],
    )
    .await;
    assert!(
        s.start_line.contains(&format!("games in {db};")),
        "{}",
        s.start_line
    );
    assert!(s.addr.starts_with("127.0.0.1:"), "{}", s.addr);
    assert!(
        dir.0.join("games.db").exists(),
        "the store is where HOUSERULES_DB says"
    );
    let (_, ok) = s.terminate(Duration::from_secs(10)).await;
    assert!(ok);
    let err = s.stderr();
    assert_eq!(logged_limit(&err, "max_connections"), "4321");
    // Debug of a Duration of 42 s.
    assert_eq!(logged_limit(&err, "ws_idle_timeout"), "42s");
}

/// The documented precedence, one option at a time: the command line
/// wins over the environment, the environment over the file, the file
/// over the default (10000 connections, `serve --help`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_line_over_environment_over_file_over_default() {
    let dir = TempDir::new("precedence");
    let db = dir.db();
    let file = dir.0.join("houserules.toml");
    std::fs::write(
        &file,
        format!(
            "# settings of the precedence test\naddr = \"127.0.0.1:0\"\ndb = \"{}\"\nmax-connections = 111\nmax_connections_per_ip = 11\n",
            db.replace('\\', "\\\\")
        ),
    )
    .unwrap();
    let file = file.to_str().unwrap();
    // (arguments, environment, the connection cap expected)
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 4] = [
        (
            &["--config", file, "--max-connections", "333"],
            &[("HOUSERULES_MAX_CONNECTIONS", "222")],
            "333",
        ),
        (
            &["--config", file],
            &[("HOUSERULES_MAX_CONNECTIONS", "222")],
            "222",
        ),
        (&["--config", file], &[], "111"),
        (&["--addr", "127.0.0.1:0", "--db", &db], &[], "10000"),
    ];
    for (args, env, want) in cases {
        let mut s = start(args, env).await;
        let (_, ok) = s.terminate(Duration::from_secs(10)).await;
        assert!(ok);
        let err = s.stderr();
        assert_eq!(
            logged_limit(&err, "max_connections"),
            want,
            "{args:?} {env:?}"
        );
        assert!(
            s.start_line.contains(&format!("games in {db};")),
            "{}",
            s.start_line
        );
        // A key written with underscores is read as the option.
        let per_ip = if args.contains(&"--config") {
            "11"
        } else {
            "256"
        };
        assert_eq!(logged_limit(&err, "max_connections_per_ip"), per_ip);
    }
    // The file named by HOUSERULES_CONFIG, and `--config=FILE`.
    for (args, env) in [
        (vec![], vec![("HOUSERULES_CONFIG", file)]),
        (vec![format!("--config={file}")], vec![]),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut s = start(&args, &env).await;
        s.terminate(Duration::from_secs(10)).await;
        assert_eq!(logged_limit(&s.stderr(), "max_connections"), "111");
    }
}

/// A file with an unknown key, a value of the wrong type, a value the
/// option refuses, or no TOML at all is refused before listening, with
/// the file, the key and what is wrong; so are bad values from the
/// environment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_settings_are_refused_clearly() {
    let dir = TempDir::new("bad");
    let db = dir.db();
    let write = |name: &str, text: &str| {
        let p = dir.0.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let unknown = write(
        "unknown.toml",
        "addr = \"127.0.0.1:0\"\nmax-conections = 5\n",
    );
    let (code, err) = refused(&["--config", &unknown], &[]).await;
    assert_ne!(code, 0);
    assert!(err.contains(&unknown), "{err}");
    assert!(err.contains("unknown setting `max-conections`"), "{err}");
    assert!(
        err.contains("max-connections"),
        "the known settings are listed: {err}"
    );
    // Regression (session-11 trial): the closest setting is named.
    assert!(err.contains("did you mean `max-connections`?"), "{err}");
    let far = write("far.toml", "colour = \"blue\"\n");
    let (code, err) = refused(&["--config", &far], &[]).await;
    assert_ne!(code, 0);
    assert!(err.contains("unknown setting `colour`"), "{err}");
    assert!(!err.contains("did you mean"), "nothing is close: {err}");

    let table = write("table.toml", "[limits]\nmax-connections = 5\n");
    let (code, err) = refused(&["--config", &table], &[]).await;
    assert_ne!(code, 0);
    assert!(err.contains("unknown setting `limits`"), "{err}");

    let array = write("array.toml", "addr = [\"127.0.0.1:0\"]\n");
    let (code, err) = refused(&["--config", &array], &[]).await;
    assert_ne!(code, 0);
    assert!(
        err.contains("`addr` takes a string, a number or true/false"),
        "{err}"
    );

    let not_toml = write("not.toml", "addr: 127.0.0.1:0\n");
    let (code, err) = refused(&["--config", &not_toml], &[]).await;
    assert_ne!(code, 0);
    assert!(err.contains("not TOML"), "{err}");

    let missing = dir.0.join("missing.toml");
    let (code, err) = refused(&["--config", missing.to_str().unwrap()], &[]).await;
    assert_ne!(code, 0);
    assert!(err.contains("missing.toml"), "{err}");

    // A value the option refuses, from the file: the message names the
    // file, the key and the value.
    let bad_value = write(
        "value.toml",
        &format!("db = \"{db}\"\nmax-connections = \"lots\"\n"),
    );
    let (code, err) = refused(&["--config", &bad_value], &[]).await;
    assert_ne!(code, 0);
    assert!(err.contains("lots"), "{err}");
    assert!(err.contains("max-connections"), "{err}");
    assert!(err.contains(&bad_value), "the file is named: {err}");

    let zero = write("zero.toml", "ws-idle-timeout = 0\n");
    let (code, err) = refused(&["--config", &zero], &[]).await;
    assert_ne!(code, 0);
    assert!(err.contains("ws-idle-timeout"), "{err}");
    assert!(err.contains("more than 0"), "{err}");
    assert!(err.contains(&zero), "the file is named: {err}");

    // From the environment: the variable is named.
    let (code, err) = refused(&[], &[("HOUSERULES_ADDR", "localhost")]).await;
    assert_ne!(code, 0);
    assert!(err.contains("localhost"), "{err}");
    assert!(
        err.contains("HOUSERULES_ADDR"),
        "the variable is named: {err}"
    );
    let (code, err) = refused(&[], &[("HOUSERULES_LOG_FORMAT", "xml")]).await;
    assert_ne!(code, 0);
    assert!(err.contains("xml") && err.contains("json"), "{err}");
    let (code, err) = refused(&["--db", "mysql://u:hunter2@h/d"], &[]).await;
    assert_ne!(code, 0);
    assert!(err.contains("sqlite:PATH"), "{err}");
    assert!(!err.contains("hunter2"), "{err}");
}

/// Regressions (session-11 trial), each failure at start named with what
/// and where, before anything is served:
/// - a port in use: the server fails before it opens the store (its file
///   is not even created) and logs no "recovered the unfinished games";
/// - an unreachable Postgres: the host and port and the cause, not only
///   sqlx's "pool timed out";
/// - `backup` of a file that is not a SQLite database: says so, not
///   SQLite's raw "(code: 26) file is not a database".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_failures_say_what_and_where() {
    let dir = TempDir::new("start-failures");
    let mut s = start(&["--addr", "127.0.0.1:0", "--db", &dir.db()], &[]).await;
    let second = dir.0.join("second.db");
    let (code, err) = refused(
        &[
            "--addr",
            &s.addr,
            "--db",
            &format!("sqlite:{}", second.display()),
        ],
        &[("RUST_LOG", "info")],
    )
    .await;
    assert_ne!(code, 0);
    assert!(
        err.contains(&format!("cannot listen on {}", s.addr)),
        "{err}"
    );
    assert!(err.contains("choose another --addr"), "{err}");
    assert!(!err.contains("recovered the unfinished games"), "{err}");
    assert!(!second.exists(), "the store was opened: {err}");
    s.terminate(Duration::from_secs(10)).await;

    // Nothing listens on port 1 of the loopback: refused at once.
    let (code, err) = refused(
        &[
            "--addr",
            "127.0.0.1:0",
            "--db",
            "postgres://postgres@127.0.0.1:1/nothing",
        ],
        &[],
    )
    .await;
    assert_ne!(code, 0);
    assert!(err.contains("connect to Postgres at 127.0.0.1:1"), "{err}");
    assert!(err.to_lowercase().contains("refused"), "the cause: {err}");
    assert!(!err.contains("pool timed out"), "{err}");

    let text = dir.0.join("notes.txt");
    std::fs::write(&text, "these are notes, not a database\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(["backup", "--db"])
        .arg(format!("sqlite:{}", text.display()))
        .arg("--to")
        .arg(dir.0.join("copy.db"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("is not a SQLite database"), "{err}");
    assert!(err.contains("notes.txt"), "{err}");
    assert!(!err.contains("code: 26"), "{err}");
    assert!(!dir.0.join("copy.db").exists());
}

/// docs/operations.md § Health checks, as the server does it (session-11
/// trial: the doc said a stopping server answers `503` on the connections
/// still open, but an idle kept-alive connection is closed without an
/// answer): after SIGTERM, a kept-alive connection that has been answered
/// once is closed with no more bytes, and a new connection is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_closes_idle_connections_without_an_answer() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = TempDir::new("stop-idle");
    let mut s = start(&["--addr", "127.0.0.1:0", "--db", &dir.db()], &[]).await;
    let mut idle = tokio::net::TcpStream::connect(&s.addr).await.unwrap();
    idle.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).as_bytes())
        .await
        .unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 512];
    while !String::from_utf8_lossy(&answer).ends_with("ok\n") {
        let n = tokio::time::timeout(Duration::from_secs(5), idle.read(&mut buf))
            .await
            .expect("the first answer")
            .unwrap();
        assert!(n > 0, "closed before answering");
        answer.extend_from_slice(&buf[..n]);
    }
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    let addr = s.addr.clone();
    let reader = tokio::spawn(async move {
        let mut rest = Vec::new();
        let r = tokio::time::timeout(Duration::from_secs(9), idle.read_to_end(&mut rest)).await;
        (r.is_ok(), rest)
    });
    let (took, ok) = s.terminate(Duration::from_secs(10)).await;
    assert!(ok, "exit status after {took:?}");
    let (closed, rest) = reader.await.unwrap();
    assert!(closed, "the idle connection was closed");
    assert!(
        rest.is_empty(),
        "nothing more was sent on it: {:?}",
        String::from_utf8_lossy(&rest)
    );
    assert!(
        tokio::net::TcpStream::connect(&addr).await.is_err(),
        "new connections are refused"
    );
}

// ---------------------------------------------------------- (b), (d)

/// Plays two games with `RUST_LOG=debug` in `format`: one created live
/// (both tokens in the answer), one open and joined, each finished by
/// fool's mate over WebSockets; also opens a socket with a wrong token
/// and asks a game's page with a token. Returns the captured standard
/// error, every token used, and the first game's id.
async fn logged_play(format: &str) -> (String, Vec<String>, String) {
    let dir = TempDir::new(&format!("logs-{format}"));
    let db = dir.db();
    let mut s = start(
        &["--addr", "127.0.0.1:0", "--db", &db, "--log-format", format],
        &[("RUST_LOG", "debug")],
    )
    .await;
    let addr = s.addr.clone();
    let fools_mate = ["f2f3", "e7e5", "g2g4", "d8h4"];
    let (id, tokens) = create(
        &addr,
        r#"{"presets": ["knight-immunity"], "clock": {"initialSeconds": 300, "incrementSeconds": 2}}"#,
    )
    .await;
    play_moves(&addr, &id, &tokens, &fools_mate).await;

    let (status, open) = http(&addr, "POST", "/api/games", r#"{"seat": "white"}"#).await;
    assert_eq!(status, 201, "{open}");
    let id2 = open["id"].as_str().unwrap().to_string();
    let white = open["seats"]["white"]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, joined) = http(&addr, "POST", &format!("/api/games/{id2}/join"), "").await;
    assert_eq!(status, 200, "{joined}");
    let black = joined["token"].as_str().unwrap().to_string();
    let tokens2 = [white, black];
    // The page and the state with a token in the query.
    let _ = get_text(&addr, &format!("/games/{id2}?token={}", tokens2[0])).await;
    let _ = get_text(&addr, &format!("/api/games/{id2}?token={}", tokens2[1])).await;
    play_moves(&addr, &id2, &tokens2, &fools_mate).await;

    // A wrong token (well formed: 48 hex digits) is refused, unlogged.
    let wrong = "0123456789abcdef0123456789abcdef0123456789abcdef".to_string();
    let r =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token={wrong}"))
            .await;
    if let Ok((mut w, _)) = r {
        let _ = w
            .send(Message::Text(
                json!({"kind": "hello", "protocolVersion": 2})
                    .to_string()
                    .into(),
            ))
            .await;
        let _ = tokio::time::timeout(Duration::from_secs(2), w.next()).await;
    }
    let (_, ok) = s.terminate(Duration::from_secs(10)).await;
    assert!(ok, "{}", s.stderr());
    let mut all = tokens.to_vec();
    all.extend(tokens2);
    all.push(wrong);
    (s.stderr(), all, id)
}

fn assert_no_token(stderr: &str, tokens: &[String]) {
    assert!(
        stderr.lines().count() > 20,
        "debug logs were written:\n{stderr}"
    );
    for t in tokens {
        assert_eq!(t.len(), 48, "{t}");
        // The whole token, and any half of it (a cut or wrapped copy).
        for part in [&t[..], &t[..24], &t[24..]] {
            if let Some(line) = stderr.lines().find(|l| l.contains(part)) {
                panic!("a token ({part}) is in the logs: {line}");
            }
        }
    }
}

/// Issue 22: seat tokens never appear in the logs, even at debug level.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_never_appear_in_text_logs() {
    let (stderr, tokens, id) = logged_play("text").await;
    assert!(stderr.contains(&id), "the game is logged by its id");
    assert_no_token(&stderr, &tokens);
}

/// Issue 22: the JSON log lines are JSON, carry the fields the issue
/// lists (start, stop, recovered games; game created and finished with
/// id, rules and result; the game's span), and no token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_have_the_fields_and_no_token() {
    let (stderr, tokens, id) = logged_play("json").await;
    assert_no_token(&stderr, &tokens);
    let lines: Vec<Value> = stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: not JSON: {l}")))
        .collect();
    for l in &lines {
        for k in ["timestamp", "level", "fields", "target"] {
            assert!(!l[k].is_null(), "no {k} in {l}");
        }
    }
    let find = |msg: &str, game: Option<&str>| -> &Value {
        lines
            .iter()
            .find(|l| {
                l["fields"]["message"] == msg && game.is_none_or(|g| l["fields"]["game"] == g)
            })
            .unwrap_or_else(|| panic!("no {msg:?} line for {game:?} in\n{stderr}"))
    };
    let started = find("serving", None);
    assert_eq!(started["level"], "INFO");
    assert!(started["fields"]["addr"]
        .as_str()
        .unwrap()
        .starts_with("127.0.0.1:"));
    assert!(started["fields"]["db"]
        .as_str()
        .unwrap()
        .starts_with("sqlite:"));
    let recovered = find("recovered the unfinished games", None);
    assert_eq!(recovered["fields"]["games"], 0);

    let created = find("game created", Some(&id));
    assert_eq!(created["level"], "INFO");
    let rules = created["fields"]["rules"].as_str().unwrap();
    // The request named the preset knight-immunity.
    assert!(rules.to_lowercase().contains("knight"), "{created}");
    let finished = find("game finished", Some(&id));
    // Fool's mate: Black mates, 0-1.
    assert_eq!(finished["fields"]["result"], "0-1", "{finished}");
    assert_eq!(finished["fields"]["rules"], created["fields"]["rules"]);
    assert!(!finished["fields"]["reason"].is_null(), "{finished}");
    // Inside the game's span, which carries its id.
    assert_eq!(finished["span"]["name"], "game", "{finished}");
    assert_eq!(finished["span"]["id"], id.as_str(), "{finished}");
    let stopping = find("stopping within 10 s", None);
    assert_eq!(stopping["fields"]["signal"], "SIGTERM");
    find("stopped", None);
}

/// Issue 22: in a cluster, the log spans of a game and of a WebSocket name
/// the node (`<--node-id>-<incarnation>`) beside the game's id, so that
/// the lines of several nodes' logs say which node served what. Needs
/// Postgres and NATS on loopback; skipped with a message without them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_log_spans_name_the_node() {
    let Some(nats) = test_nats().await else {
        return;
    };
    let Some(pg) = Postgres::create("log_node").await else {
        return;
    };
    let url = format!("postgres://postgres@127.0.0.1:5432/{}", pg.name);
    // A socket silent for 1 s is closed, which logs inside its span.
    let mut s = start_cluster_node(
        &url,
        &nats,
        "lognode",
        &["--log-format", "json", "--ws-idle-timeout", "1"],
        &[("RUST_LOG", "info")],
    )
    .await;
    let (id, tokens) = create(&s.addr, "{}").await;
    play_moves(&s.addr, &id, &tokens, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let (id2, tokens2) = create(&s.addr, "{}").await;
    // Opened and never read: no pong, so the idle timeout closes it.
    let silent = ws(&s.addr, &id2, &tokens2[0]).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (_, ok) = s.terminate(Duration::from_secs(10)).await;
    drop(silent);
    let stderr = s.stderr();
    assert!(ok, "{stderr}");
    drop(pg);
    let lines: Vec<Value> = stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: not JSON: {l}")))
        .collect();
    let node_of = |l: &Value| l["span"]["node"].as_str().map(str::to_string);
    let finished = lines
        .iter()
        .find(|l| l["fields"]["message"] == "game finished" && l["fields"]["game"] == id.as_str())
        .unwrap_or_else(|| panic!("no \"game finished\" line in\n{stderr}"));
    assert_eq!(finished["span"]["name"], "game", "{finished}");
    assert_eq!(finished["span"]["id"], id.as_str(), "{finished}");
    let node = node_of(finished).unwrap_or_else(|| panic!("no node in {finished}"));
    assert!(node.starts_with("lognode-"), "{finished}");
    let closed = lines
        .iter()
        .find(|l| l["fields"]["message"] == "websocket closed: idle")
        .unwrap_or_else(|| panic!("no idle close in\n{stderr}"));
    assert_eq!(closed["span"]["name"], "ws", "{closed}");
    assert_eq!(closed["span"]["game"], id2.as_str(), "{closed}");
    assert_eq!(node_of(closed).as_deref(), Some(node.as_str()), "{closed}");
}

/// A password in a Postgres `--db` is never printed: not on the start
/// line, not in the logs (debug), not in a connection error, not in
/// `--help` when it comes from `HOUSERULES_DB`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_password_is_never_printed() {
    const PW: &str = "pw-Zq81xN";
    // A store that cannot be reached: the error says so, without it.
    let (code, err) = refused(
        &[
            "--addr",
            "127.0.0.1:0",
            "--db",
            &format!("postgres://postgres:{PW}@127.0.0.1:1/nothing"),
        ],
        &[("RUST_LOG", "debug")],
    )
    .await;
    assert_ne!(code, 0);
    assert!(!err.contains(PW), "{err}");
    assert!(err.contains("postgres:***@127.0.0.1:1"), "{err}");

    let help = serve_command(
        &["--help"],
        &[("HOUSERULES_DB", &format!("postgres://u:{PW}@h/d"))],
    )
    .output()
    .await
    .unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("HOUSERULES_DB"), "{text}");
    assert!(!text.contains(PW), "{text}");

    let Some(pg) = Postgres::create("pw").await else {
        return;
    };
    // Trust auth: the password is accepted and ignored.
    let url = format!("postgres://postgres:{PW}@127.0.0.1:5432/{}", pg.name);
    let mut s = start(
        &["--addr", "127.0.0.1:0", "--db", &url],
        &[("RUST_LOG", "debug")],
    )
    .await;
    let (id, tokens) = create(&s.addr, "{}").await;
    play_moves(&s.addr, &id, &tokens, &["e2e4", "e7e5"]).await;
    s.terminate(Duration::from_secs(10)).await;
    let err = s.stderr();
    assert!(!s.start_line.contains(PW), "{}", s.start_line);
    assert!(
        s.start_line.contains("postgres:***@127.0.0.1:5432"),
        "{}",
        s.start_line
    );
    assert!(
        !err.contains(PW),
        "{}",
        err.lines().find(|l| l.contains(PW)).unwrap_or("")
    );
    assert!(err.lines().count() > 10, "debug logs were written:\n{err}");
}

/// A database of our own on the local Postgres, dropped on drop.
struct Postgres {
    name: String,
}

fn psql(sql: &str) -> bool {
    std::process::Command::new("psql")
        .args([
            "-h",
            "127.0.0.1",
            "-p",
            "5432",
            "-U",
            "postgres",
            "-d",
            "test",
            "-qc",
            sql,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

impl Postgres {
    async fn create(tag: &str) -> Option<Postgres> {
        let name = format!("houserules_cli_{tag}_{}", std::process::id());
        let _ = psql(&format!("DROP DATABASE IF EXISTS {name}"));
        if !psql(&format!("CREATE DATABASE {name}")) {
            eprintln!("skipped: no Postgres at 127.0.0.1:5432 (psql, user postgres, trust auth)");
            return None;
        }
        Some(Postgres { name })
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = psql(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ));
    }
}

// ---------------------------------------------------------------- (c)

/// One game's bots: random legal moves from both seats until the socket
/// closes. Returns the acknowledged moves in order and the close code
/// each socket saw.
async fn bots(
    addr: String,
    id: String,
    tokens: [String; 2],
    mut rng: u64,
) -> (Vec<String>, Vec<Option<CloseCode>>) {
    let mut socks = [
        ws(&addr, &id, &tokens[0]).await,
        ws(&addr, &id, &tokens[1]).await,
    ];
    let mut acked = Vec::new();
    let mut codes = vec![None, None];
    let mut state = match next_state(&mut socks[0]).await {
        Next::State(v) => v,
        Next::Closed(c) => panic!("no welcome ({c:?})"),
    };
    assert!(matches!(next_state(&mut socks[1]).await, Next::State(_)));
    let mut closed = [false, false];
    loop {
        let legal = state["state"]["legalMoves"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if legal.is_empty() || !state["state"]["result"].is_null() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mv = legal[(rng % legal.len() as u64) as usize]
            .as_str()
            .unwrap()
            .to_string();
        let side = usize::from(state["state"]["sideToMove"] == "black");
        let ply = state["state"]["plyCount"].clone();
        let msg = json!({"kind": "move", "move": mv, "ply": ply}).to_string();
        if socks[side].send(Message::Text(msg.into())).await.is_err() {
            break;
        }
        match next_state(&mut socks[side]).await {
            Next::State(v) => {
                acked.push(mv);
                state = v;
            }
            Next::Closed(c) => {
                codes[side] = c;
                closed[side] = true;
                break;
            }
        }
        match next_state(&mut socks[1 - side]).await {
            Next::State(_) => {}
            Next::Closed(c) => {
                codes[1 - side] = c;
                closed[1 - side] = true;
                break;
            }
        }
    }
    // The other socket's close.
    for i in 0..2 {
        while !closed[i] {
            if let Next::Closed(c) = next_state(&mut socks[i]).await {
                codes[i] = c;
                closed[i] = true;
            }
        }
    }
    (acked, codes)
}

/// Issue 22 § Shutdown: SIGTERM while games are played. The process
/// exits (successfully) within 10 s, every WebSocket is closed with 1012
/// (service restart), and after a restart on the same store every
/// acknowledged move is in each game's record, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_during_play_keeps_every_acknowledged_move() {
    let dir = TempDir::new("sigterm");
    let db = dir.db();
    let mut s = start(&["--addr", "127.0.0.1:0", "--db", &db], &[]).await;
    let addr = s.addr.clone();
    const GAMES: usize = 8;
    let mut games = Vec::new();
    let mut tasks = Vec::new();
    for i in 0..GAMES {
        let (id, tokens) = create(&addr, "{}").await;
        games.push(id.clone());
        tasks.push(tokio::spawn(bots(
            addr.clone(),
            id,
            tokens,
            0x9E37_79B9 + i as u64 * 7919,
        )));
    }
    // Let them play a while.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (took, ok) = s.terminate(Duration::from_secs(12)).await;
    assert!(took < Duration::from_secs(10), "exit took {took:?}");
    assert!(ok, "exit status; stderr:\n{}", s.stderr());
    let mut played: HashMap<String, Vec<String>> = HashMap::new();
    let mut total = 0;
    for (id, t) in games.iter().zip(tasks) {
        let (acked, codes) = t.await.unwrap();
        assert_eq!(codes, vec![Some(CloseCode::Restart); 2], "game {id}");
        total += acked.len();
        played.insert(id.clone(), acked);
    }
    // Enough play for the test to mean something (the games end by
    // mate or draw only rarely in 1.5 s of random moves).
    assert!(total >= 40, "only {total} moves were acknowledged");
    eprintln!("SIGTERM after {total} acknowledged moves in {GAMES} games: exit in {took:?}");

    let mut s2 = start(&["--addr", "127.0.0.1:0", "--db", &db], &[]).await;
    for (id, acked) in &played {
        let (status, rec) = http(&s2.addr, "GET", &format!("/api/games/{id}/record"), "").await;
        assert_eq!(status, 200, "{rec}");
        let stored: Vec<String> = rec["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["input"]["move"].as_str().map(str::to_string))
            .collect();
        assert!(
            stored.len() >= acked.len() && stored[..acked.len()] == acked[..],
            "game {id}: acknowledged {acked:?}, stored {stored:?}"
        );
        // At most the one move sent when the stop came is there unacknowledged.
        assert!(
            stored.len() <= acked.len() + 1,
            "game {id}: {stored:?} vs {acked:?}"
        );
    }
    s2.terminate(Duration::from_secs(10)).await;
}

// ------------------------------------------------------ docs/operations.md

fn repo_file(rel: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The (option, variable, default) triples of `houserules serve --help`
/// (`-` when an option has no default).
async fn help_settings() -> Vec<(String, String, String)> {
    let out = serve_command(&["--help"], &[]).output().await.unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut rows: Vec<(String, String, String)> = Vec::new();
    // Options start at column 6 (`      --addr <ADDR>`); the examples
    // after the options may start a line with `--` too.
    for line in text.lines().take_while(|l| !l.starts_with("Examples:")) {
        let t = line.trim();
        if let Some(rest) = line.strip_prefix("      --") {
            let name = rest.split([' ', '=']).next().unwrap().to_string();
            rows.push((format!("--{name}"), String::new(), "-".into()));
        } else if let (Some(r), Some(v)) = (rows.last_mut(), t.strip_prefix("[env: ")) {
            r.1 = v
                .trim_end_matches(']')
                .split('=')
                .next()
                .unwrap()
                .to_string();
        } else if let (Some(r), Some(v)) = (rows.last_mut(), t.strip_prefix("[default: ")) {
            r.2 = v.trim_end_matches(']').to_string();
        }
    }
    rows.retain(|r| r.0 != "--help");
    rows
}

/// docs/operations.md's settings table lists every `serve` option with
/// its variable and default exactly as `--help` says, and nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_settings_table_matches_serve_help() {
    let help = help_settings().await;
    assert!(help.len() >= 15, "{help:?}");
    for (opt, env, _) in &help {
        assert!(
            env.starts_with("HOUSERULES_"),
            "{opt} has no variable ({env:?})"
        );
    }
    let doc = repo_file("docs/operations.md");
    let cell = |c: &str| c.trim().trim_matches('`').replace('—', "-");
    let table: Vec<(String, String, String)> = doc
        .lines()
        .filter(|l| l.starts_with("| `--"))
        .map(|l| {
            let c: Vec<&str> = l.split('|').collect();
            (cell(c[1]), cell(c[2]), cell(c[3]))
        })
        .collect();
    let mut a = help.clone();
    let mut b = table.clone();
    a.sort();
    b.sort();
    assert_eq!(
        b, a,
        "docs/operations.md § Settings vs `houserules serve --help`"
    );
}

/// The deploy examples fit the server: nginx's WebSocket timeouts are
/// above `--ws-idle-timeout`'s default, its other read timeout above
/// `--request-timeout`'s, the unit waits longer than the server's 10 s
/// stop; and `nginx -t` accepts the configuration (on a copy with a
/// throw-away certificate), when nginx and openssl are installed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deploy_examples_fit_the_server() {
    let help = help_settings().await;
    let default =
        |opt: &str| -> u64 { help.iter().find(|r| r.0 == opt).unwrap().2.parse().unwrap() };
    let conf = repo_file("deploy/nginx.conf");
    let ws = &conf[conf
        .find("location ~ ^/api/games/[^/]+/ws$")
        .expect("the WebSocket location")..];
    let ws = &ws[..ws.find('}').unwrap()];
    for d in ["proxy_read_timeout", "proxy_send_timeout"] {
        let at = ws.find(d).unwrap_or_else(|| panic!("no {d} in {ws}"));
        let secs: u64 = ws[at + d.len()..]
            .trim_start()
            .split('s')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(secs > default("--ws-idle-timeout"), "{d} {secs}s");
    }
    assert!(
        ws.contains("proxy_set_header Upgrade $http_upgrade;"),
        "{ws}"
    );
    assert!(
        ws.contains("proxy_set_header Connection $connection_upgrade;"),
        "{ws}"
    );
    assert!(ws.contains("proxy_http_version 1.1;"), "{ws}");
    let rest = &conf[conf.find("location / {").unwrap()..];
    let at = rest.find("proxy_read_timeout").unwrap();
    let secs: u64 = rest[at + 18..]
        .trim_start()
        .split('s')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(secs > default("--request-timeout"));

    let unit = repo_file("deploy/houserules.service");
    for line in [
        "Restart=on-failure",
        "TimeoutStopSec=15",
        "User=houserules",
        "EnvironmentFile=/etc/houserules/houserules.env",
        "ExecStart=/usr/local/bin/houserules serve",
        "UMask=0027",
    ] {
        assert!(unit.lines().any(|l| l == line), "no {line} in the unit");
    }
    // The environment file's variables are settings of `serve`.
    for line in repo_file("deploy/houserules.env")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let var = line.split('=').next().unwrap();
        assert!(
            var == "RUST_LOG" || help.iter().any(|r| r.1 == var),
            "{var} is not a setting"
        );
    }

    let have = |c: &str| std::process::Command::new(c).arg("-v").output().is_ok();
    if !(have("nginx") && have("openssl")) {
        eprintln!("skipped `nginx -t`: nginx or openssl is not installed (apt-get install nginx)");
        return;
    }
    let dir = TempDir::new("nginx");
    let d = dir.0.display().to_string();
    let ok = std::process::Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=games.example.org",
        ])
        .args([
            "-keyout",
            &format!("{d}/key.pem"),
            "-out",
            &format!("{d}/cert.pem"),
        ])
        .output()
        .unwrap();
    assert!(ok.status.success());
    let copy = conf
        .replace(
            "/etc/letsencrypt/live/games.example.org/fullchain.pem",
            &format!("{d}/cert.pem"),
        )
        .replace(
            "/etc/letsencrypt/live/games.example.org/privkey.pem",
            &format!("{d}/key.pem"),
        )
        .replace(
            "/var/log/nginx/houserules.access.log",
            &format!("{d}/access.log"),
        );
    std::fs::write(dir.0.join("houserules.conf"), copy).unwrap();
    std::fs::write(
        dir.0.join("nginx.conf"),
        format!("pid {d}/nginx.pid;\nerror_log {d}/error.log;\nevents {{}}\nhttp {{ include {d}/houserules.conf; }}\n"),
    )
    .unwrap();
    let t = std::process::Command::new("nginx")
        .args(["-t", "-c", &format!("{d}/nginx.conf")])
        .output()
        .unwrap();
    assert!(
        t.status.success(),
        "nginx -t: {}",
        String::from_utf8_lossy(&t.stderr)
    );
}

/// The metric names in a Prometheus query or text: `houserules_…`.
fn metric_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("houserules_") {
        let tail = &rest[i..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        out.push(tail[..end].to_string());
        rest = &tail[end..];
    }
    out
}

/// Whether `name` is a series name in the exposition `metrics`: a sample
/// line starts with it (followed by labels or the value).
fn exported(metrics: &str, name: &str) -> bool {
    metrics.lines().any(|l| {
        !l.starts_with('#')
            && l.strip_prefix(name)
                .is_some_and(|r| r.starts_with('{') || r.starts_with(' '))
    })
}

/// The NATS server of `HOUSERULES_TEST_NATS` (default
/// nats://127.0.0.1:4222) when it answers; `None`, with a message saying
/// the cluster part is skipped, when it does not.
async fn test_nats() -> Option<String> {
    let nats =
        std::env::var("HOUSERULES_TEST_NATS").unwrap_or_else(|_| "nats://127.0.0.1:4222".into());
    if tokio::net::TcpStream::connect(nats.trim_start_matches("nats://"))
        .await
        .is_err()
    {
        eprintln!("skipped the cluster part: no NATS at {nats}");
        return None;
    }
    Some(nats)
}

/// A `houserules serve` cluster node on loopback: the Postgres database
/// `url`, NATS at `nats`, named `node_id`, with `extra` flags and `env`.
async fn start_cluster_node(
    url: &str,
    nats: &str,
    node_id: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Server {
    let mut args = vec![
        "--addr",
        "127.0.0.1:0",
        "--db",
        url,
        "--cluster",
        nats,
        "--node-id",
        node_id,
    ];
    args.extend_from_slice(extra);
    start(&args, env).await
}

/// The `/metrics` of a cluster node (`--cluster` on the NATS server of
/// `HOUSERULES_TEST_NATS`, default 127.0.0.1:4222, with a Postgres
/// database of its own) after a game is created on it; `None`, with a
/// message, when NATS or Postgres is not there.
async fn cluster_node_metrics() -> Option<String> {
    let nats = test_nats().await?;
    let pg = Postgres::create("grafana_cluster").await?;
    let url = format!("postgres://postgres@127.0.0.1:5432/{}", pg.name);
    let mut s = start_cluster_node(&url, &nats, "grafana", &[], &[]).await;
    let _ = create(&s.addr, "{}").await;
    let metrics = get_text(&s.addr, "/metrics").await;
    s.terminate(Duration::from_secs(10)).await;
    drop(pg);
    Some(metrics)
}

/// Every metric name the Grafana dashboard's queries use is a series a
/// live `houserules serve` exports (after a game, a refused creation and
/// some requests, so that every labelled family has samples); the
/// metric names its descriptions mention are families the server
/// declares. The cluster's series (`houserules_cluster_…`) are a cluster
/// node's only: they are checked against one (Postgres and NATS on
/// loopback; skipped with a message without them), and a single server
/// must not declare them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_grafana_dashboard_reads_only_exported_metrics() {
    let dash: Value = serde_json::from_str(&repo_file("docs/grafana-dashboard.json")).unwrap();
    let dir = TempDir::new("grafana");
    let db = dir.db();
    let mut s = start(
        &[
            "--addr",
            "127.0.0.1:0",
            "--db",
            &db,
            "--creations-per-minute",
            "2",
        ],
        &[],
    )
    .await;
    let (id, tokens) = create(&s.addr, "{}").await;
    play_moves(&s.addr, &id, &tokens, &["e2e4", "e7e5"]).await;
    let _ = create(&s.addr, "{}").await;
    let (status, _) = http(&s.addr, "POST", "/api/games", "{}").await;
    assert_eq!(status, 429, "the third creation is over the rate");
    let single = get_text(&s.addr, "/metrics").await;
    s.terminate(Duration::from_secs(10)).await;
    assert!(
        !single.contains("houserules_cluster_"),
        "a single server declares no cluster metric:\n{single}"
    );
    let cluster = cluster_node_metrics().await;
    let metrics = single;

    // The check refuses what is not there.
    assert!(exported(&metrics, "houserules_moves_total"));
    assert!(
        !exported(&metrics, "houserules_moves"),
        "a counter's series ends in _total"
    );
    assert!(!exported(&metrics, "houserules_no_such_metric"));

    let mut queries = Vec::new();
    for p in dash["panels"].as_array().unwrap() {
        assert_eq!(p["datasource"]["uid"], "${datasource}", "{}", p["title"]);
        for t in p["targets"].as_array().unwrap() {
            queries.push(t["expr"].as_str().unwrap().to_string());
        }
    }
    for v in dash["templating"]["list"].as_array().unwrap() {
        if let Some(q) = v["query"]["query"].as_str() {
            queries.push(q.to_string());
        }
    }
    assert!(queries.len() >= 15, "{queries:?}");
    let mut seen = std::collections::BTreeSet::new();
    let mut cluster_names = 0;
    for q in &queries {
        let names = metric_names(q);
        assert!(
            !names.is_empty(),
            "a query without a houserules metric: {q}"
        );
        for n in names {
            if n.starts_with("houserules_cluster_") {
                cluster_names += 1;
                if let Some(c) = &cluster {
                    assert!(
                        exported(c, &n),
                        "`{n}` (in `{q}`) is not exported by a cluster node:\n{c}"
                    );
                }
            } else {
                assert!(
                    exported(&metrics, &n),
                    "`{n}` (in `{q}`) is not exported:\n{metrics}"
                );
            }
            seen.insert(n);
        }
    }
    assert!(cluster_names >= 9, "the cluster panels are drawn");
    // Every family the server (and a cluster node) declares is drawn
    // somewhere.
    let all = format!("{metrics}\n{}", cluster.as_deref().unwrap_or(""));
    for l in all.lines().filter(|l| l.starts_with("# TYPE ")) {
        let family = l.split(' ').nth(2).unwrap();
        assert!(
            seen.iter().any(|n| n.starts_with(family)),
            "the dashboard does not draw {family}"
        );
    }
    // Descriptions name only declared families (or their series).
    let text = dash.to_string();
    for n in metric_names(&text) {
        if n.starts_with("houserules_cluster_") && cluster.is_none() {
            continue;
        }
        let declared = all
            .lines()
            .filter_map(|l| l.strip_prefix("# TYPE "))
            .any(|l| n.starts_with(l.split(' ').next().unwrap()));
        assert!(
            declared,
            "`{n}` in the dashboard is not a metric of the server"
        );
    }
}

/// docs/operations.md § Backup and restore, Postgres: `pg_dump` while the
/// server plays, `pg_restore` into a new database, and a server on the
/// restored database has every acknowledged move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_dump_and_pg_restore_keep_every_move() {
    let Some(pg) = Postgres::create("dump").await else {
        return;
    };
    let Some(restored) = Postgres::create("restored").await else {
        return;
    };
    let url = |db: &str| format!("postgres://postgres@127.0.0.1:5432/{db}");
    let dir = TempDir::new("pgdump");
    let mut s = start(&["--addr", "127.0.0.1:0", "--db", &url(&pg.name)], &[]).await;
    let (id, tokens) = create(&s.addr, "{}").await;
    let moves = ["e2e4", "c7c5", "g1f3", "d7d6"];
    play_moves(&s.addr, &id, &tokens, &moves).await;
    let dump = dir.0.join("games.dump");
    let out = std::process::Command::new("pg_dump")
        .args(["--format=custom", "--file"])
        .arg(&dump)
        .arg(url(&pg.name))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    s.terminate(Duration::from_secs(10)).await;
    let out = std::process::Command::new("pg_restore")
        .args(["--no-owner", "--dbname", &url(&restored.name)])
        .arg(&dump)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut s2 = start(
        &["--addr", "127.0.0.1:0", "--db", &url(&restored.name)],
        &[],
    )
    .await;
    let (status, rec) = http(&s2.addr, "GET", &format!("/api/games/{id}/record"), "").await;
    assert_eq!(status, 200, "{rec}");
    let stored: Vec<&str> = rec["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["input"]["move"].as_str())
        .collect();
    assert_eq!(stored, moves);
    // The restored game plays on.
    let mut w = ws(&s2.addr, &id, &tokens[0]).await;
    assert!(matches!(next_state(&mut w).await, Next::State(_)));
    w.send(Message::Text(
        json!({"kind": "move", "move": "d2d4", "ply": 4})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    match next_state(&mut w).await {
        Next::State(v) => assert_eq!(v["state"]["plyCount"], 5, "{v}"),
        Next::Closed(c) => panic!("closed {c:?}"),
    }
    s2.terminate(Duration::from_secs(10)).await;
}

/// `houserules loadtest` against two cluster nodes (issue 24): games
/// created on both, each game's seats on different nodes (so every move
/// crosses NATS once), a report line per node and the totals, no bot
/// failed; `--server-pid` must match the `--server`s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loadtest_drives_a_cluster_with_a_report_per_node() {
    let Some(nats) = test_nats().await else {
        return;
    };
    let Some(pg) = Postgres::create("loadtest_cluster").await else {
        return;
    };
    let url = format!("postgres://postgres@127.0.0.1:5432/{}", pg.name);
    let mut nodes = Vec::new();
    for name in ["lt-a", "lt-b"] {
        nodes.push(
            start_cluster_node(
                &url,
                &nats,
                name,
                &[
                    "--max-connections-per-ip",
                    "0",
                    "--creations-per-minute",
                    "0",
                    "--messages-per-second",
                    "1000",
                ],
                &[],
            )
            .await,
        );
    }
    let pids: Vec<String> = nodes
        .iter()
        .map(|n| n.child.id().unwrap().to_string())
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args([
            "loadtest",
            "--games",
            "6",
            "--seconds",
            "3",
            "--moves-per-second",
            "60",
            "--server",
            &nodes[0].addr,
            "--server",
            &nodes[1].addr,
            "--server-pid",
            &pids[0],
            "--server-pid",
            &pids[1],
        ])
        .output()
        .await
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A line per node: 3 games created on each (games 0, 2, 4 and 1, 3,
    // 5), and moves sent from each (white's sockets on one, black's on
    // the other).
    for n in &nodes {
        let line = report
            .lines()
            .find(|l| l.starts_with(&format!("node {}:", n.addr)))
            .unwrap_or_else(|| panic!("no line for {} in\n{report}", n.addr));
        let created: u64 = line
            .split("games created ")
            .nth(1)
            .and_then(|r| r.split(',').next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        assert!(created >= 3, "{line}");
        let sent: u64 = line
            .split("moves sent ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        assert!(sent > 10, "{line}");
        assert!(line.contains("% of a core"), "{line}");
    }
    assert!(report.contains("total over 2 nodes"), "{report}");
    assert!(report.contains("bots failed: 0"), "{report}");
    let mismatched = Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args([
            "loadtest",
            "--server",
            &nodes[0].addr,
            "--server",
            &nodes[1].addr,
            "--server-pid",
            &pids[0],
        ])
        .output()
        .await
        .unwrap();
    assert!(!mismatched.status.success());
    assert!(
        String::from_utf8_lossy(&mismatched.stderr).contains("one per --server"),
        "{}",
        String::from_utf8_lossy(&mismatched.stderr)
    );
    for n in &mut nodes {
        n.terminate(Duration::from_secs(10)).await;
    }
    drop(pg);
}

/// Trial 20: a YAML game's PGN named only the game's id (`Variant`), which
/// no reader knows. It now names the file (`GameFile "ID.yaml"`) and says
/// in a comment where the definition is and how to replay it; replayed so
/// with `pgn check --game FILE`, it reaches the server's final position.
/// Gardner minichess under its own id `gardner-house` (5×5, FEN
/// `rnbqk/ppppp/5/PPPPP/RNBQK w`): 1. a3 e3 (single steps on 5×5): rank 3
/// holds White's a-pawn and Black's e-pawn, so the final FEN by hand is
/// `rnbqk/pppp1/P3p/1PPPP/RNBQK w - - 0 2` (pawn moves: halfmove 0).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_yaml_games_pgn_names_its_file_and_replays_with_it() {
    let dir = TempDir::new("yamlpgn");
    let yaml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../definitions/games/gardner.yaml"
    ))
    .unwrap()
    .replace("id: gardner\n", "id: gardner-house\n");
    assert!(yaml.contains("id: gardner-house\n"));
    let mut s = start(&["--addr", "127.0.0.1:0", "--db", &dir.db()], &[]).await;
    let (id, tokens) = create(&s.addr, &json!({ "game": yaml }).to_string()).await;
    play_moves(&s.addr, &id, &tokens, &["a2a3", "e4e3"]).await;
    let state: Value =
        serde_json::from_str(&get_text(&s.addr, &format!("/api/games/{id}")).await).unwrap();
    let pgn = get_text(&s.addr, &format!("/api/games/{id}/pgn")).await;
    s.terminate(Duration::from_secs(10)).await;
    assert!(pgn.contains("[GameFile \"gardner-house.yaml\"]"), "{pgn}");
    // The comment is wrapped at 80 columns: read it as one line.
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!("GET /api/games/{id}/record"))
            && flat.contains("houserules pgn check --game gardner-house.yaml"),
        "{pgn}"
    );
    let file = dir.0.join("gardner-house.yaml");
    std::fs::write(&file, &yaml).unwrap();
    let pgn_file = dir.0.join("game.pgn");
    std::fs::write(&pgn_file, &pgn).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(["pgn", "check", "--json", "--game"])
        .arg(&file)
        .arg(&pgn_file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        state["fen"], "rnbqk/pppp1/P3p/1PPPP/RNBQK w - - 0 2",
        "{state}"
    );
    assert!(
        text.contains("rnbqk/pppp1/P3p/1PPPP/RNBQK w - - 0 2"),
        "pgn check's final FEN: {text}"
    );
}
