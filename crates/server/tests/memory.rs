//! Memory figures (issue 21 § 3, § 5), printed, not asserted: ignored by
//! default, run with
//!
//! ```sh
//! cargo test -p houserules-server --test memory -- --ignored --nocapture --test-threads 1
//! HOUSERULES_MEMORY_GAMES=100000 cargo test …   # the games-in-a-row run
//! HOUSERULES_MEMORY_PG=1 cargo test …           # on Postgres rather than SQLite
//! ```
//!
//! The heap figures come from a counting allocator (bytes allocated and
//! not yet freed), the RSS figures from `/proc/self/statm`; docs/load.md
//! records them with the load average of the run.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{fresh_db, start_on, Backend, Client};
use houserules_server::store::{Entry, GameRow, Store};
use houserules_session::{CreateRequest, Input, Session};
use serde_json::json;

/// The system allocator, counting the bytes live.
#[global_allocator]
static A: houserules_alloc_count::Counting = houserules_alloc_count::Counting;

use houserules_alloc_count::live;

/// The resident set in bytes.
fn rss() -> i64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: i64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn backend() -> Backend {
    if std::env::var("HOUSERULES_MEMORY_PG").is_ok() {
        Backend::Postgres
    } else {
        Backend::Sqlite
    }
}

/// A game's inputs: `plies` moves picked by a fixed pseudo-random walk
/// (stopping early if the game ends).
fn walk(plies: usize, seed: u64) -> Vec<Input> {
    let mut s = Session::create(CreateRequest::parse("{}").unwrap()).unwrap();
    let mut x = seed;
    let mut out = Vec::new();
    for _ in 0..plies {
        let legal = s.legal_moves_uci();
        if legal.is_empty() || s.to_json()["status"]["status"] != "ongoing" {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mv = legal[(x % legal.len() as u64) as usize].clone();
        let i = Input::Move { mv };
        s.submit(i.clone()).unwrap();
        out.push(i);
    }
    out
}

/// Heap and RSS per loaded game (no moves), and per ply, on the server's
/// own path: games written to the store, then loaded through the registry
/// (`AppState::game`), as a request loads them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "prints memory figures; run by hand"]
async fn memory_per_game_and_per_ply() {
    let mut config = common::fast();
    config.timing.idle_unload = Duration::from_secs(3600);
    let s = start_on(fresh_db(backend()), config).await;
    let store = common::open(&s.db).await;
    const GAMES: usize = 1_000;
    const LONG: usize = 200;
    let long_games = 50;
    let line = walk(LONG, 0x2545_F491);
    let plies = line.len();
    let mut ids = Vec::new();
    for i in 0..GAMES + long_games {
        let id = format!("m{i:05}");
        store
            .create_game(&GameRow {
                id: id.clone(),
                request: "{}".into(),
                white_token: Some("w".repeat(48)),
                black_token: Some("b".repeat(48)),
                status: "live".into(),
                result: None,
                created_ms: 1,
            })
            .await
            .unwrap();
        if i >= GAMES {
            for (k, mv) in line.iter().enumerate() {
                let e = Entry {
                    seq: k as i64 + 1,
                    body: serde_json::to_string(mv).unwrap(),
                    at_ms: 1,
                    white_ms: None,
                    black_ms: None,
                };
                store.append(&id, &e, None).await.unwrap();
            }
        }
        ids.push(id);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (heap0, rss0) = (live(), rss());
    let mut handles = Vec::new();
    for id in &ids[..GAMES] {
        handles.push(s.state.game(id).await.unwrap().unwrap());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (heap1, rss1) = (live(), rss());
    for id in &ids[GAMES..] {
        handles.push(s.state.game(id).await.unwrap().unwrap());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (heap2, rss2) = (live(), rss());
    let per_game_heap = (heap1 - heap0) / GAMES as isize;
    let per_game_rss = (rss1 - rss0) / GAMES as i64;
    let per_long_heap = (heap2 - heap1) / long_games as isize;
    let per_long_rss = (rss2 - rss1) / long_games as i64;
    let per_ply_heap = (per_long_heap - per_game_heap) / plies as isize;
    let per_ply_rss = (per_long_rss - per_game_rss) / plies as i64;
    println!(
        "backend {:?}, load average {}: idle live game (no moves): heap {} B, RSS {} B; \
         {plies}-ply game: heap {} B, RSS {} B; per ply: heap {} B, RSS {} B",
        backend(),
        load_average(),
        per_game_heap,
        per_game_rss,
        per_long_heap,
        per_long_rss,
        per_ply_heap,
        per_ply_rss
    );
    // What a session alone holds, and per ply.
    let h0 = live();
    let mut sessions: Vec<Session> = (0..100)
        .map(|_| Session::create(CreateRequest::parse("{}").unwrap()).unwrap())
        .collect();
    let h1 = live();
    for s in &mut sessions {
        for i in &line {
            s.submit(i.clone()).unwrap();
        }
    }
    let h2 = live();
    println!(
        "session alone: {} B new, {} B per ply",
        (h1 - h0) / 100,
        (h2 - h1) / 100 / plies as isize
    );
    // Of which the rule set's variant (definition and move tables).
    let h0 = live();
    let variants: Vec<_> = (0..20)
        .map(|_| {
            houserules_presets::build(&houserules_presets::RuleSet::parse("").unwrap(), None)
                .unwrap()
        })
        .collect();
    println!(
        "of which the variant built for the rule set: {} B",
        (live() - h0) / 20
    );
    drop(variants);
    drop(handles);
}

/// Games created and finished one after another (each: created over HTTP,
/// both players connect, one resigns, both leave): the RSS at the start
/// and along the way. `HOUSERULES_MEMORY_GAMES` games (10,000 by default).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "prints memory figures; run by hand"]
async fn games_created_and_finished_in_a_row() {
    let n: usize = std::env::var("HOUSERULES_MEMORY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let s = start_on(fresh_db(backend()), common::fast()).await;
    let addr = s.addr;
    // A few games first, so that the start figure includes the pools and
    // the first allocations.
    let play = |i: usize| async move {
        let g = common::create(addr, json!({})).await;
        let mut w = Client::connect(addr, &g.id, &g.white, 2).await;
        let k = Client::connect(addr, &g.id, &g.black, 2).await;
        if i.is_multiple_of(2) {
            w.mv("e2e4", 0).await;
            w.state_where(|st| st["plyCount"] == 1).await;
        }
        w.send(json!({"kind": "resign"})).await;
        w.expect("game-over").await;
        w.close().await;
        k.close().await;
    };
    for i in 0..100 {
        play(i).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let start = rss();
    let t0 = Instant::now();
    println!(
        "backend {:?}: start RSS {} KiB, load average {}",
        backend(),
        start / 1024,
        load_average()
    );
    let mut peak = start;
    for i in 0..n {
        play(i).await;
        if (i + 1) % (n / 10).max(1) == 0 {
            let now = rss();
            peak = peak.max(now);
            println!(
                "{} games: RSS {} KiB ({:.2}× the start), loaded {}, {:.0} s, load average {}",
                i + 1,
                now / 1024,
                now as f64 / start as f64,
                s.state.metrics().games_loaded.get(),
                t0.elapsed().as_secs_f64(),
                load_average()
            );
        }
    }
    tokio::time::sleep(Duration::from_millis(1000)).await;
    println!(
        "end: RSS {} KiB ({:.2}× the start; peak {:.2}×), loaded {}",
        rss() / 1024,
        rss() as f64 / start as f64,
        peak as f64 / start as f64,
        s.state.metrics().games_loaded.get()
    );
    let _ = Arc::clone(&s.state);
}
