//! The crash test (issue 13 § What it must show): `houserules serve` is
//! killed with SIGKILL while clients play many games; after a restart
//! every acknowledged input is in the log, every game's state equals a
//! replay of its log, and play continues.

use std::process::Stdio;
use std::time::{Duration, Instant};

use futures_util::SinkExt;
use houserules_session::{CreateRequest, Input, Session};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::Ws;

/// Starts `houserules serve` on a free loopback port; returns the child
/// and the address it printed.
async fn serve(db: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = tokio::time::timeout(Duration::from_secs(60), lines.next_line())
        .await
        .expect("the server starts")
        .unwrap()
        .expect("a line");
    (child, common::address_of(&line))
}

async fn http(addr: &str, method: &str, path: &str, body: &str) -> Value {
    let (status, text) = common::http_text(addr, method, path, body).await;
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {status} {text}"))
}

async fn ws(addr: &str, id: &str, token: &str) -> Ws {
    common::ws(addr, id, token, 1).await
}

/// The next welcome/state, or None when the socket dies.
async fn next_state(w: &mut Ws) -> Option<Value> {
    common::next_state(w).await.state()
}

/// One game's bots: plays random legal moves until the server dies;
/// returns the acknowledged (seq, uci) pairs.
async fn play(addr: String, id: String, tokens: [String; 2], mut rng: u64) -> Vec<(u64, String)> {
    let mut socks = [
        ws(&addr, &id, &tokens[0]).await,
        ws(&addr, &id, &tokens[1]).await,
    ];
    let mut acked = Vec::new();
    let Some(mut state) = next_state(&mut socks[0]).await else {
        return acked;
    };
    if next_state(&mut socks[1]).await.is_none() {
        return acked;
    }
    loop {
        let legal = state["state"]["legalMoves"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if legal.is_empty() {
            return acked;
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
            return acked;
        }
        let Some(ack) = next_state(&mut socks[side]).await else {
            return acked;
        };
        // The state after our move is the acknowledgement.
        acked.push((ack["seq"].as_u64().unwrap(), mv));
        if next_state(&mut socks[1 - side]).await.is_none() {
            return acked;
        }
        state = ack;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_input() {
    let dir = std::env::temp_dir().join(format!("houserules-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite:{}", dir.join("games.db").display());
    sigkill_trial(&db).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same on Postgres (issue 21 item 6: the single writer with group
/// commit acknowledges only committed inputs on both stores), in a
/// database of its own on the local server (127.0.0.1:5432, trust auth),
/// made and dropped with `psql`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_input_on_postgres() {
    let name = format!("hr_crash_{}", std::process::id());
    let psql = |sql: String| {
        std::process::Command::new("psql")
            .args([
                "-h",
                "127.0.0.1",
                "-U",
                "postgres",
                "-d",
                "test",
                "-q",
                "-c",
            ])
            .arg(sql)
            .output()
    };
    match psql(format!("CREATE DATABASE {name}")) {
        Ok(o) if o.status.success() => {}
        other => panic!(
            "cannot create a Postgres database with psql (Postgres must run on 127.0.0.1:5432, trust auth; .ci/run starts it): {other:?}"
        ),
    }
    sigkill_trial(&format!("postgres://postgres@127.0.0.1:5432/{name}")).await;
    let _ = psql(format!("DROP DATABASE {name} WITH (FORCE)"));
}

/// Kills the server (SIGKILL) while bots play; after a restart every
/// acknowledged input is in the log, every game equals a replay of its
/// log, and play continues.
async fn sigkill_trial(db: &str) {
    let db = db.to_string();
    let (mut child, addr) = serve(&db).await;
    const GAMES: usize = 12;
    let mut ids = Vec::new();
    let mut bots = Vec::new();
    for i in 0..GAMES {
        let g = http(&addr, "POST", "/api/games", "{}").await;
        let id = g["id"].as_str().unwrap().to_string();
        let tokens = [
            g["seats"]["white"]["token"].as_str().unwrap().to_string(),
            g["seats"]["black"]["token"].as_str().unwrap().to_string(),
        ];
        ids.push((id.clone(), tokens.clone()));
        bots.push(tokio::spawn(play(
            addr.clone(),
            id,
            tokens,
            0x9E37_79B9 + i as u64,
        )));
    }
    // Let them play, then kill the server mid-game.
    let until = Instant::now() + Duration::from_millis(1500);
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    child.start_kill().unwrap(); // SIGKILL on Unix
    child.wait().await.unwrap();
    let mut acked = Vec::new();
    for b in bots {
        acked.push(b.await.unwrap());
    }
    let total: usize = acked.iter().map(Vec::len).sum();
    assert!(
        total >= GAMES,
        "the bots played too little before the kill: {total} moves"
    );

    let (_child, addr) = serve(&db).await;
    for ((id, tokens), acked) in ids.iter().zip(&acked) {
        let rec = http(&addr, "GET", &format!("/api/games/{id}/record"), "").await;
        let inputs = rec["inputs"].as_array().unwrap();
        for (seq, mv) in acked {
            let stored = &inputs[*seq as usize - 1];
            assert_eq!(stored["seq"], *seq);
            assert_eq!(stored["input"]["move"], mv.as_str(), "game {id} seq {seq}");
        }
        // The state equals a replay of the stored log.
        let request: CreateRequest = serde_json::from_value(rec["request"].clone()).unwrap();
        let log: Vec<Input> = inputs
            .iter()
            .map(|i| serde_json::from_value(i["input"].clone()).unwrap())
            .collect();
        let replayed = Session::replay(request, &log).unwrap().to_json();
        let state = http(&addr, "GET", &format!("/api/games/{id}"), "").await;
        for (k, v) in replayed.as_object().unwrap() {
            assert_eq!(&state[k], v, "game {id}: field {k} differs from the replay");
        }
        assert_eq!(state["seq"], inputs.len());
        // Play continues.
        if state["result"].is_null() {
            let side = usize::from(state["sideToMove"] == "black");
            let mut w = ws(&addr, id, &tokens[side]).await;
            next_state(&mut w).await.unwrap();
            let mv = state["legalMoves"][0].clone();
            let msg = json!({"kind": "move", "move": mv, "ply": state["plyCount"]});
            w.send(Message::Text(msg.to_string().into())).await.unwrap();
            let after = next_state(&mut w).await.unwrap();
            assert_eq!(after["seq"], inputs.len() as u64 + 1);
        }
    }
}

/// `GET /api/games/{id}/record` replays with `houserules play` (issue 13,
/// docs/protocol.md § Replaying the record) for a game chosen with the
/// request's `game` field: Berolina, with a clock and players' names
/// (server fields, left out of the session request as the doc says).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_replays_with_play() {
    let dir = std::env::temp_dir().join(format!("houserules-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite:{}", dir.join("games.db").display());
    let (_child, addr) = serve(&db).await;
    let created = http(
        &addr,
        "POST",
        "/api/games",
        r#"{"game": "berolina", "white": "Ann", "clock": {"initialSeconds": 600, "incrementSeconds": 0}}"#,
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let tokens = [
        created["seats"]["white"]["token"].as_str().unwrap(),
        created["seats"]["black"]["token"].as_str().unwrap(),
    ];
    let mut socks = [
        ws(&addr, id, tokens[0]).await,
        ws(&addr, id, tokens[1]).await,
    ];
    next_state(&mut socks[0]).await.unwrap();
    next_state(&mut socks[1]).await.unwrap();
    // Berolina pawns step diagonally (e2-d3, d7-e6), then the knights.
    for (ply, mv) in ["e2d3", "d7e6", "g1f3", "b8c6"].iter().enumerate() {
        let msg = json!({"kind": "move", "move": mv, "ply": ply});
        socks[ply % 2]
            .send(Message::Text(msg.to_string().into()))
            .await
            .unwrap();
        for s in socks.iter_mut() {
            let st = next_state(s).await.unwrap();
            assert_eq!(st["state"]["plyCount"], ply + 1, "{st}");
        }
    }
    let state = http(&addr, "GET", &format!("/api/games/{id}"), "").await;
    let rec = http(&addr, "GET", &format!("/api/games/{id}/record"), "").await;
    let mut request = rec["request"].clone();
    for k in ["clock", "white", "black", "seat"] {
        request.as_object_mut().unwrap().remove(k);
    }
    let inputs: Vec<String> = rec["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["input"].clone())
        .filter(|i| i.get("event").is_none())
        .map(|i| i.to_string())
        .collect();
    std::fs::write(dir.join("request.json"), request.to_string()).unwrap();
    std::fs::write(dir.join("inputs.jsonl"), inputs.join("\n")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_houserules"))
        .arg("play")
        .arg("--create")
        .arg(dir.join("request.json"))
        .arg("--inputs")
        .arg(dir.join("inputs.jsonl"))
        .arg("--json")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let played: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    // Hand-derived as in crates/server/tests/http.rs (game_field).
    assert_eq!(
        state["fen"],
        "r1bqkbnr/ppp1pppp/2n1p3/8/8/3P1N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    );
    assert_eq!(played["fen"], state["fen"], "{text}");
    assert_eq!(played["legalMoves"], state["legalMoves"]);
    let _ = std::fs::remove_dir_all(&dir);
}
