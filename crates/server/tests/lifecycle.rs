//! Games leave memory (issue 21 § 3), on SQLite and on Postgres: a
//! finished game once its sockets are gone (its reads then come from the
//! store, byte for byte the same), an idle unfinished game after the idle
//! time (rebuilt with the same state on the next request), start-up loads
//! only the games with something timed, and a request that races an
//! unload is never lost.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{create, fast, fresh_db, http, start_on, Backend, Client};
use houserules_server::store::Store;
use houserules_server::Config;
use serde_json::{json, Value};

/// Polls `f` every 20 ms for up to 5 s.
async fn eventually(what: &str, f: impl Fn() -> bool) {
    for _ in 0..250 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("not within 5 s: {what}");
}

fn loaded(s: &common::Server) -> i64 {
    s.state.metrics().games_loaded.get()
}

/// The three reads of a game, as the bytes answered.
async fn reads(addr: std::net::SocketAddr, id: &str) -> [String; 3] {
    let mut out = [String::new(), String::new(), String::new()];
    for (k, path) in [
        format!("/api/games/{id}"),
        format!("/api/games/{id}/pgn"),
        format!("/api/games/{id}/record"),
    ]
    .iter()
    .enumerate()
    {
        let (status, body) = http(addr, "GET", path, None).await;
        assert_eq!(status, 200, "GET {path}: {body}");
        out[k] = body;
    }
    out
}

/// The clock's `serverTimeMs` is the time of the answer (docs/protocol.md):
/// the one field two reads may differ in.
fn without_server_time(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).unwrap();
    if let Some(t) = v.get_mut("clock").and_then(|c| c.get_mut("serverTimeMs")) {
        *t = Value::Null;
    }
    v
}

async fn a_finished_game_leaves_memory(b: Backend) {
    let s = start_on(fresh_db(b), fast()).await;
    let g = create(
        s.addr,
        json!({"clock": {"initialSeconds": 300, "incrementSeconds": 2}, "white": "Ann", "black": "Bob"}),
    )
    .await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 2).await;
    let mut k = Client::connect(s.addr, &g.id, &g.black, 2).await;
    let watcher = Client::connect(s.addr, &g.id, "", 2).await;
    w.mv("e2e4", 0).await;
    k.state_where(|st| st["plyCount"] == 1).await;
    k.mv("e7e5", 1).await;
    w.state_where(|st| st["plyCount"] == 2).await;
    w.send(json!({"kind": "resign"})).await;
    k.expect("game-over").await;
    w.close().await;
    k.close().await;
    // The spectator keeps the game in memory: the reads come from its task.
    eventually("the players gone", || {
        s.state.metrics().connections.get() == 1
    })
    .await;
    assert_eq!(loaded(&s), 1);
    let before = reads(s.addr, &g.id).await;
    let unloaded = s.state.metrics().games_unloaded.get();
    watcher.close().await;
    eventually("the finished game unloaded", || loaded(&s) == 0).await;
    assert_eq!(s.state.metrics().games_unloaded.get(), unloaded + 1);
    // Its final state is kept, and the reads come from the store without
    // loading the game: the same answers.
    let store = common::open(&s.db).await;
    assert!(store.final_state(&g.id).await.unwrap().is_some());
    let after = reads(s.addr, &g.id).await;
    assert_eq!(loaded(&s), 0, "a read of a finished game loads nothing");
    assert_eq!(
        without_server_time(&after[0]),
        without_server_time(&before[0])
    );
    assert_eq!(after[1], before[1], "the PGN");
    assert_eq!(after[2], before[2], "the record");
    // By hand: White resigned after 1. e4 e5 → 0-1 (the record's last
    // input is the resignation, seq 3).
    let view: Value = serde_json::from_str(&after[0]).unwrap();
    assert_eq!(view["result"]["result"], "0-1");
    assert_eq!(view["presence"], json!({"white": false, "black": false}));
    assert!(view["clock"]["serverTimeMs"].as_i64().unwrap() > 0);
    assert!(after[1].contains("1. e4 e5 0-1"), "{}", after[1]);
    let record: Value = serde_json::from_str(&after[2]).unwrap();
    assert_eq!(record["inputs"][2]["input"]["event"], "resign");
}

async fn an_idle_game_unloads_and_rebuilds_the_same(b: Backend) {
    let s = start_on(fresh_db(b), fast()).await;
    let g = create(s.addr, json!({"white": "Ann", "black": "Bob"})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 2).await;
    let mut k = Client::connect(s.addr, &g.id, &g.black, 2).await;
    for (i, (c, m)) in [("w", "e2e4"), ("k", "c7c5"), ("w", "g1f3")]
        .iter()
        .enumerate()
    {
        let c = if *c == "w" { &mut w } else { &mut k };
        c.mv(m, i as u32).await;
        c.state_where(|st| st["plyCount"] == i + 1).await;
    }
    // A standing draw offer is part of the state too.
    k.send(json!({"kind": "offer-draw"})).await;
    w.state_where(|st| st["drawOffer"] == "black").await;
    w.close().await;
    k.close().await;
    eventually("the players gone", || {
        s.state.metrics().connections.get() == 0
    })
    .await;
    let before = reads(s.addr, &g.id).await;
    assert_eq!(loaded(&s), 1, "an idle game stays for the idle time");
    eventually("the idle game unloaded", || loaded(&s) == 0).await;
    let after = reads(s.addr, &g.id).await;
    assert_eq!(after, before, "untimed: the same bytes");
    assert_eq!(loaded(&s), 1, "the state read rebuilt it");
    // The next connection finds the same game and plays on.
    let mut k = Client::connect(s.addr, &g.id, &g.black, 2).await;
    let state = &k.welcome["state"];
    assert_eq!(state["plyCount"], 3);
    assert_eq!(state["drawOffer"], "black");
    assert_eq!(k.welcome["seq"], 4);
    k.mv("d7d6", 3).await;
    let st = k.state_where(|st| st["plyCount"] == 4).await;
    assert_eq!(st["seq"], 5);
}

async fn start_up_loads_only_timed_games(b: Backend) {
    let db = fresh_db(b);
    let first = start_on(db.clone(), fast()).await;
    let mut untimed = Vec::new();
    for i in 0..12 {
        let g = create(first.addr, json!({})).await;
        if i % 3 == 0 {
            // Some with moves.
            let mut w = Client::connect(first.addr, &g.id, &g.white, 2).await;
            w.mv("e2e4", 0).await;
            w.state_where(|st| st["plyCount"] == 1).await;
            w.close().await;
        }
        untimed.push(g);
    }
    // A timed game with a move made: its clock runs, its flag must fall.
    let timed = create(
        first.addr,
        json!({"clock": {"initialSeconds": 600, "incrementSeconds": 0}}),
    )
    .await;
    let mut w = Client::connect(first.addr, &timed.id, &timed.white, 2).await;
    w.mv("d2d4", 0).await;
    w.state_where(|st| st["plyCount"] == 1).await;
    w.close().await;
    drop(first);
    let again = start_on(db, fast()).await;
    assert_eq!(loaded(&again), 1, "only the game with a running clock");
    // The others load on their first request.
    let v = common::get_json(again.addr, &format!("/api/games/{}", untimed[0].id)).await;
    assert_eq!(v["plyCount"], 1);
    assert_eq!(loaded(&again), 2);
}

/// Requests for a game that unloads as soon as it is idle (idle time 0):
/// each one races the unload, and none may be lost (answered 503
/// `game.unavailable`, or hang).
async fn a_request_racing_an_unload_is_not_lost(b: Backend) {
    let mut config: Config = fast();
    config.timing.idle_unload = Duration::ZERO;
    let s = start_on(fresh_db(b), config).await;
    let g = create(s.addr, json!({})).await;
    let addr = s.addr;
    for round in 0..40 {
        let mut tasks = Vec::new();
        for k in 0..6 {
            let id = g.id.clone();
            let white = g.white.clone();
            tasks.push(tokio::spawn(async move {
                if k == 0 {
                    // A connection: its hello must be answered.
                    let c = Client::connect(addr, &id, &white, 2).await;
                    assert_eq!(c.welcome["kind"], "welcome");
                    c.close().await;
                } else {
                    let (status, body) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
                    assert_eq!(status, 200, "round {round}: {body}");
                }
            }));
        }
        for t in tasks {
            tokio::time::timeout(Duration::from_secs(10), t)
                .await
                .expect("answered")
                .unwrap();
        }
        // Some rounds start as the game is unloading, others just after
        // (back to back, a loaded machine left it no idle moment: the test
        // failed in CI at load 8 with no unload at all).
        tokio::time::sleep(Duration::from_millis(round % 4)).await;
    }
    // It did unload between the rounds.
    assert!(s.state.metrics().games_unloaded.get() > 0);
}

/// Direct calls: a handle handed out keeps the game in memory until it is
/// dropped, even with an idle time of 0.
async fn a_handle_holds_the_game(b: Backend) {
    let mut config: Config = fast();
    config.timing.idle_unload = Duration::ZERO;
    let s = start_on(fresh_db(b), config).await;
    let g = create(s.addr, json!({})).await;
    let h = s.state.game(&g.id).await.unwrap().unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(!h.tx.is_closed(), "the task waits while a handle is held");
    let (tx, rx) = tokio::sync::oneshot::channel();
    h.tx.send(houserules_server::game::Cmd::View(tx))
        .await
        .unwrap();
    assert_eq!(rx.await.unwrap()["plyCount"], 0);
    let weak = h.tx.downgrade();
    drop(h);
    eventually("unloaded once the handle is dropped", || {
        weak.upgrade().is_none_or(|t| t.is_closed())
    })
    .await;
    assert_eq!(loaded(&s), 0);
    assert!(s.state.registry().is_empty().await, "its slot is gone too");
    let _ = Arc::clone(&s.state);
}

on_both!(
    a_finished_game_leaves_memory,
    an_idle_game_unloads_and_rebuilds_the_same,
    start_up_loads_only_timed_games,
    a_request_racing_an_unload_is_not_lost,
    a_handle_holds_the_game,
);
