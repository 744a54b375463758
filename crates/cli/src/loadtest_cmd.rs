//! `houserules loadtest`: holds N concurrent games of bots playing random
//! legal moves against a server on this machine, for a bounded time, and
//! prints connections held, moves per second, ack latency p50/p99,
//! resident memory per game and, with `--server-pid`, the server's CPU
//! time per accepted move beside the load average. Against a cluster
//! (several `--server`s) the games are spread over the nodes, the two
//! seats of each game on different nodes, and the figures are printed per
//! node and in total.

use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::error::{CliError, Outcome};

const EXAMPLES: &str = "\
Examples:
  houserules loadtest --games 1000 --seconds 20
  houserules loadtest --games 200 --seconds 10 --server 127.0.0.1:8080
  houserules loadtest --games 10000 --moves-per-second 2000 --seconds 60 \\
      --server 127.0.0.1:8080 --server-pid $(pgrep -n -f 'houserules serve')
  houserules loadtest --games 3000 --moves-per-second 600 --seconds 30 \\
      --server 127.0.0.1:8081 --server 127.0.0.1:8082 --server 127.0.0.1:8083
  houserules loadtest --games 1000 --moves-per-second 1000 --seconds 20 \\
      --warmup-plies 300 --no-replace --server 127.0.0.1:8080 --server-pid PID
  houserules loadtest --create-finish 100000 --games 8 \\
      --server 127.0.0.1:8080 --server-pid PID

Without --server, a server is started in this process on a loopback port
with a fresh SQLite file in the temporary directory (removed after), so
the memory figure covers server and clients together. Only loopback
addresses are accepted. Each game is two WebSocket clients (protocol 3,
or 1 with --protocol 1) playing random legal moves; a finished game is
replaced by a new one. The ack latency is the time from sending a move to
receiving the update (v1: the state) that includes it.

With --warmup-plies N every game first plays N plies, at most 33 a second
so that each seat stays under the server's default message rate (a game
that ends sooner is replaced and starts again), and
the figures cover only what follows, so the cost per move can be compared
at early and late plies. With --moves-per-second each game's pace starts
at a random phase of its interval, at the start and again when its
warm-up ends, so that the moves arrive evenly rather than in waves. The server's CPU time per accepted move (user +
system, /proc/PID/stat, needs --server-pid) is taken over the measured
window only, and printed with the load average at its start and end: on a
shared machine it is the figure that depends least on the other jobs.
With --no-replace a game that has played its warm-up waits for the
others (answering the server's pings), so that every game enters the
window at the warm-up's ply, and a game that ends after its warm-up is
not replaced, so a late-ply window holds no game that restarted from ply
0 (the games that ended are counted in the report).

With --create-finish N no games are held: N games are created and
finished one after another, --games at a time (each: created, both seats
connect with protocol 3, white resigns, both leave), and the server's
resident memory is printed after the first 100 (the start), after each
tenth, and once no game is loaded (its /metrics houserules_games_loaded),
each with the load average: whether games leave memory (issue 21: within
2x of the start). Start the server with --creations-per-minute 0.

With several --server (the nodes of a cluster, docs/cluster.md), game i is
created on node i mod N, its white seat connects to that node and its black
seat to the next one, so every game has a seat relayed between two nodes.
Each move's ack latency is counted for the node its mover is connected to;
the report has a line per node (games created, moves sent, moves per
second, ack p50/p99, and its CPU per move with its --server-pid, given in
the same order as the --server) and the totals. Start the nodes with
--max-connections-per-ip 0 --creations-per-minute 0 (one address makes
every game) and a --messages-per-second above the bots' rate.

With --ramp-seconds S the games start one after another over S seconds
(game i at i*S/GAMES), rather than all at once: the creations and the
sockets then come at GAMES/S a second. The measured window (--seconds)
starts once every game has its two sockets welcomed (and has played its
warm-up): the moves acknowledged before, the ramp, are reported apart
(moves per second and ack p50/p99/max, in total and per node), and the
measured window is also given in slices of 10 s (p50/p99/max of each),
which shows whether its tail is steady or comes in bursts.";

/// Options of `houserules loadtest`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct LoadtestArgs {
    /// Concurrent games to hold (two sockets each)
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// How long to play, in seconds (the run stops by itself)
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// A running server on a loopback address (else one is started here);
    /// repeated, the nodes of a cluster: games spread over them, the two
    /// seats of a game on different nodes, a report per node
    #[arg(long, value_name = "HOST:PORT")]
    server: Vec<SocketAddr>,
    /// The seed of the bots' random moves
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The moves per second all games together aim at (each game then
    /// moves every GAMES/RATE seconds, as people do); 0: every bot moves
    /// as soon as it has the state (the server's most; with --server, start
    /// that server with a --messages-per-second above 20, its default, or
    /// its rate limit stops the bots)
    #[arg(long, value_name = "RATE", default_value_t = 0)]
    moves_per_second: u64,
    /// The process id of the --server, whose resident memory and CPU time
    /// are then measured (else only this process's memory is); with
    /// several --server, one per server in the same order
    #[arg(long, value_name = "PID", requires = "server")]
    server_pid: Vec<u32>,
    /// The protocol version the bots speak (3: an update per move; 1: the
    /// full state per move)
    #[arg(long, value_name = "VERSION", default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
    protocol: u8,
    /// The creation request of each game (JSON), e.g. with modifiers
    #[arg(long, value_name = "JSON", default_value = "{}")]
    request: String,
    /// Plies every game plays before the measured window starts
    #[arg(long, value_name = "PLIES", default_value_t = 0)]
    warmup_plies: u32,
    /// Start the games over this many seconds (game i at i*S/GAMES)
    /// rather than all at once; the moves of the ramp are reported apart
    /// from the measured window
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0)]
    ramp_seconds: f64,
    /// A game that has played its warm-up waits for the others, and one
    /// that ends after it is not replaced (its bots stop): every measured
    /// move is then at or past the warm-up's ply, and no game creation is
    /// in the CPU figure
    #[arg(long)]
    no_replace: bool,
    /// Instead of holding games: create and finish this many games one
    /// after another (--games at a time; each created, both seats
    /// connected, white resigns, both leave) and print the server's
    /// resident memory along the way (needs one --server and its
    /// --server-pid; start the server with --creations-per-minute 0)
    #[arg(
        long,
        value_name = "GAMES",
        default_value_t = 0,
        requires = "server_pid"
    )]
    create_finish: u64,
}

/// One acknowledged move outside the warm-up: when it was sent (ms since
/// the bots started), its ack latency, the node of its mover, and whether
/// it fell in the measured window (else in the ramp).
#[derive(Clone, Copy)]
struct Sample {
    at_ms: u64,
    us: u64,
    node: usize,
    measured: bool,
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One node's share of the measured window.
#[derive(Default)]
struct NodeStats {
    /// Games created on it.
    games: AtomicU64,
    /// Moves sent by sockets connected to it.
    moves: AtomicU64,
    /// Their ack latencies.
    latencies_us: Mutex<Vec<u64>>,
}

#[derive(Default)]
struct Stats {
    /// Per `--server`, in order.
    nodes: Vec<NodeStats>,
    /// Moves in the measured window.
    moves: AtomicU64,
    /// Games that finished the warm-up.
    warm: AtomicU64,
    /// The sum of the plies of the measured moves (their mean ply).
    plies: AtomicU64,
    /// Whether the measured window has started.
    measuring: std::sync::atomic::AtomicBool,
    /// Whether the run is over (the bots stop).
    stop: std::sync::atomic::AtomicBool,
    games_done: AtomicU64,
    connections: AtomicU64,
    latencies_us: Mutex<Vec<u64>>,
    /// Every acknowledged move after the warm-up, ramp and measured window.
    samples: Mutex<Vec<Sample>>,
    /// When the bots started.
    launched: Option<Instant>,
}

/// The resident memory of a process (this one for `None`), in KiB
/// (Linux `/proc`).
fn rss_kib(pid: Option<u32>) -> Option<u64> {
    let path = match pid {
        Some(p) => format!("/proc/{p}/status"),
        None => "/proc/self/status".into(),
    };
    let s = std::fs::read_to_string(path).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

async fn http_post(addr: SocketAddr, path: &str, body: &str) -> Result<Value, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out);
    let body = text.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
    serde_json::from_str(body).map_err(|e| format!("{e}: {body}"))
}

/// The server's CPU time (user + system) in seconds, from
/// `/proc/PID/stat` (fields 14 and 15, in clock ticks of 1/100 s: Linux's
/// USER_HZ, fixed at 100 for this interface).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces: count after its `)`.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// The context switches of all the server's threads so far (voluntary and
/// not), summed over `/proc/PID/task/*/status`: issue 21 found thread
/// switches to be half the CPU of a move. Threads that ended are not
/// counted (the server's threads live as long as it does, bar the
/// blocking pool's idle ones).
fn context_switches(pid: u32) -> Option<u64> {
    let mut n = 0;
    for t in std::fs::read_dir(format!("/proc/{pid}/task"))
        .ok()?
        .flatten()
    {
        let Ok(s) = std::fs::read_to_string(t.path().join("status")) else {
            continue;
        };
        for line in s.lines() {
            if let Some(v) = line
                .strip_prefix("voluntary_ctxt_switches:")
                .or_else(|| line.strip_prefix("nonvoluntary_ctxt_switches:"))
            {
                n += v.trim().parse::<u64>().unwrap_or(0);
            }
        }
    }
    Some(n)
}

/// The load average (1, 5, 15 min) as `/proc/loadavg` gives it.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

async fn connect(addr: SocketAddr, id: &str, token: &str, version: u8) -> Result<Ws, String> {
    let url = format!("ws://{addr}/api/games/{id}/ws?token={token}");
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .map_err(|e| e.to_string())?;
    ws.send(Message::Text(
        json!({"kind": "hello", "protocolVersion": version})
            .to_string()
            .into(),
    ))
    .await
    .map_err(|e| e.to_string())?;
    Ok(ws)
}

/// The next `welcome`/`state`/`update`/`game-over`, skipping the rest.
async fn next_state(ws: &mut Ws) -> Result<Value, String> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .map_err(|_| "no message for 30 s".to_string())?
            .ok_or("socket closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).map_err(|e| e.to_string())?;
            match v["kind"].as_str() {
                Some("welcome" | "state" | "update" | "game-over") => return Ok(v),
                Some("error") => return Err(format!("server error: {v}")),
                _ => {}
            }
        }
    }
}

/// What a bot pair is told.
/// The time between two plies of a game during the warm-up: 33 plies a
/// second, so each seat sends under 17 messages a second.
const WARMUP_PLY_GAP: Duration = Duration::from_millis(30);

#[derive(Clone)]
struct Plan {
    /// The servers; this pair creates its games on `home` and connects
    /// white there and black to the next one.
    servers: Arc<Vec<SocketAddr>>,
    home: usize,
    until: Instant,
    pace: Option<Duration>,
    version: u8,
    request: String,
    warmup_plies: u32,
    /// When this pair starts (the ramp).
    start_at: Instant,
    /// [`LoadtestArgs::no_replace`].
    no_replace: bool,
}

/// Plays games one after another until `until`; a pair that fails before
/// it was counted ready is counted then, so that the measured window does
/// not wait for it.
async fn bot_pair(plan: Plan, rng: u64, stats: Arc<Stats>) -> Result<(), String> {
    let mut ready = false;
    let r = bot_pair_games(plan, rng, &stats, &mut ready).await;
    if r.is_err() && !ready {
        stats.warm.fetch_add(1, Ordering::Relaxed);
    }
    r
}

/// [`bot_pair`]'s games; `ready` is set when the pair is counted in
/// `stats.warm` (its first game's sockets welcomed and its warm-up played).
async fn bot_pair_games(
    plan: Plan,
    mut rng: u64,
    stats: &Stats,
    ready: &mut bool,
) -> Result<(), String> {
    let Plan {
        servers,
        home,
        until,
        pace,
        version,
        request,
        warmup_plies,
        start_at,
        no_replace,
    } = plan;
    tokio::time::sleep_until(start_at.into()).await;
    let mut warm = warmup_plies == 0;
    let mut last_sent = Instant::now();
    // Paced games start their clocks at spread-out times, so that the
    // moves do not come in waves.
    let mut next_move =
        Instant::now() + pace.map_or(Duration::ZERO, |p| p.mul_f64((rng % 1000) as f64 / 1000.0));
    let going = |stats: &Stats| Instant::now() < until && !stats.stop.load(Ordering::Relaxed);
    let launched = stats.launched.unwrap_or_else(Instant::now);
    // The node of each seat (white at home, black on the next node).
    let seat_node = [home, (home + 1) % servers.len()];
    let addr = servers[home];
    while going(stats) {
        let g = http_post(addr, "/api/games", &request).await?;
        stats.nodes[home].games.fetch_add(1, Ordering::Relaxed);
        let id = g["id"].as_str().ok_or("no id")?;
        let tw = g["seats"]["white"]["token"].as_str().ok_or("no token")?;
        let tb = g["seats"]["black"]["token"].as_str().ok_or("no token")?;
        let mut socks = [
            connect(servers[seat_node[0]], id, tw, version).await?,
            connect(servers[seat_node[1]], id, tb, version).await?,
        ];
        stats.connections.fetch_add(2, Ordering::Relaxed);
        let mut state = next_state(&mut socks[0]).await?["state"].clone();
        next_state(&mut socks[1]).await?;
        if warm && !*ready {
            *ready = true;
            stats.warm.fetch_add(1, Ordering::Relaxed);
        }
        while going(stats) {
            let legal = state["legalMoves"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() || !state["result"].is_null() {
                stats.games_done.fetch_add(1, Ordering::Relaxed);
                if no_replace && warm {
                    // A replacement would play from ply 0 in a window
                    // meant for late plies: this pair stops here.
                    for s in &mut socks {
                        let _ = s.close(None).await;
                    }
                    stats.connections.fetch_sub(2, Ordering::Relaxed);
                    return Ok(());
                }
                break;
            }
            // xorshift64*: a reproducible stream of random moves.
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = &legal[(rng % legal.len() as u64) as usize];
            let ply = state["plyCount"].as_u64().unwrap_or(0);
            if !warm && ply >= u64::from(warmup_plies) {
                warm = true;
                *ready = true;
                stats.warm.fetch_add(1, Ordering::Relaxed);
                if let Some(p) = pace {
                    // Warm-ups run at one fixed gap, so the games end them
                    // together: paced from then on without a new phase,
                    // their moves came in waves (a wave batches into one
                    // commit and few wake-ups, which flattered the CPU
                    // figure against evenly arriving moves; session 21).
                    next_move = Instant::now() + p.mul_f64((rng % 1000) as f64 / 1000.0);
                }
            }
            if no_replace && warm && warmup_plies > 0 {
                // A late-ply window: a game that has played its warm-up
                // waits for the others (a game moving on meanwhile would
                // enter the window hundreds of plies later, or over),
                // reading its sockets so that the server's pings are
                // answered.
                let mut waited = false;
                while !stats.measuring.load(Ordering::Relaxed) && going(stats) {
                    waited = true;
                    for s in &mut socks {
                        let _ = tokio::time::timeout(Duration::from_millis(50), s.next()).await;
                    }
                }
                if let (Some(p), true) = (pace, waited) {
                    // Spread again over one interval, not all at once.
                    next_move = Instant::now() + p.mul_f64((rng % 1000) as f64 / 1000.0);
                }
            }
            if !warm {
                // The warm-up keeps each seat under the server's default
                // 20 messages a second (`--messages-per-second`; a seat
                // sends every other ply): played as fast as acknowledged,
                // a game's seats were rate-limited after about 80 plies,
                // so a warm-up to ply 300 never ended.
                tokio::time::sleep_until((last_sent + WARMUP_PLY_GAP).into()).await;
            }
            last_sent = Instant::now();
            if let (Some(p), true) = (pace, warm) {
                if next_move < Instant::now() {
                    // The end of the warm-up (or a slow ack) left this game
                    // behind: pace from now on, rather than catch up.
                    next_move = Instant::now();
                }
                if next_move > until || stats.stop.load(Ordering::Relaxed) {
                    // The next move would fall after the end: stop here
                    // rather than start another game.
                    for s in &mut socks {
                        let _ = s.close(None).await;
                    }
                    stats.connections.fetch_sub(2, Ordering::Relaxed);
                    return Ok(());
                }
                tokio::time::sleep_until(next_move.into()).await;
                next_move += p;
                if stats.stop.load(Ordering::Relaxed) {
                    break;
                }
            }
            // Read when the move goes (after the pace's wait): a move sent
            // in the window counts in it.
            let measured = warm && stats.measuring.load(Ordering::Relaxed);
            let side = usize::from(state["sideToMove"] == "black");
            let sent = Instant::now();
            socks[side]
                .send(Message::Text(
                    json!({"kind": "move", "move": mv, "ply": ply})
                        .to_string()
                        .into(),
                ))
                .await
                .map_err(|e| e.to_string())?;
            let ack = next_state(&mut socks[side]).await?;
            let us = sent.elapsed().as_micros() as u64;
            next_state(&mut socks[1 - side]).await?;
            if ack["kind"] != "state" && ack["kind"] != "update" {
                break;
            }
            if warm {
                if let Ok(mut l) = stats.samples.lock() {
                    l.push(Sample {
                        at_ms: (sent - launched).as_millis() as u64,
                        us,
                        node: seat_node[side],
                        measured,
                    });
                }
            }
            if measured {
                stats.moves.fetch_add(1, Ordering::Relaxed);
                stats.plies.fetch_add(ply, Ordering::Relaxed);
                if let Ok(mut l) = stats.latencies_us.lock() {
                    l.push(us);
                }
                let node = &stats.nodes[seat_node[side]];
                node.moves.fetch_add(1, Ordering::Relaxed);
                if let Ok(mut l) = node.latencies_us.lock() {
                    l.push(us);
                }
            }
            // v3: the update has the fields the bot reads (legalMoves,
            // sideToMove, plyCount, result) at its top level.
            state = if ack["kind"] == "update" {
                ack
            } else {
                ack["state"].clone()
            };
        }
        for s in &mut socks {
            let _ = s.close(None).await;
        }
        stats.connections.fetch_sub(2, Ordering::Relaxed);
    }
    Ok(())
}

/// The value of the metric `name` (no labels) in a server's `/metrics`.
async fn metric(addr: SocketAddr, name: &str) -> Option<f64> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.ok()?;
    let req = format!("GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.ok()?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.ok()?;
    let text = String::from_utf8_lossy(&out);
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// One game of `--create-finish`: created, both seats connected (v3),
/// white resigns, both leave once they saw the end.
async fn create_and_finish(addr: SocketAddr, request: &str) -> Result<(), String> {
    let g = http_post(addr, "/api/games", request).await?;
    let id = g["id"]
        .as_str()
        .ok_or_else(|| format!("no game id in {g}"))?;
    let tw = g["seats"]["white"]["token"].as_str().ok_or("no token")?;
    let tb = g["seats"]["black"]["token"].as_str().ok_or("no token")?;
    let mut w = connect(addr, id, tw, 3).await?;
    let mut b = connect(addr, id, tb, 3).await?;
    next_state(&mut w).await?;
    next_state(&mut b).await?;
    w.send(Message::Text(json!({"kind": "resign"}).to_string().into()))
        .await
        .map_err(|e| e.to_string())?;
    for ws in [&mut w, &mut b] {
        loop {
            let m = next_state(ws).await?;
            if m["kind"] == "game-over" {
                break;
            }
        }
    }
    let _ = w.close(None).await;
    let _ = b.close(None).await;
    Ok(())
}

/// `--create-finish N`: N games created and finished in a row, `--games`
/// at a time; the server's resident memory at the start (after 100 games,
/// so that pools and first allocations are in it), after each tenth, and
/// once the games have left memory.
async fn create_finish(args: &LoadtestArgs, addr: SocketAddr, pid: u32) -> Result<String, String> {
    use std::fmt::Write as _;
    let n = args.create_finish;
    let parallel = args.games.max(1) as u64;
    let mut report = String::new();
    let run = |count: u64| {
        let request = args.request.clone();
        async move {
            let next = Arc::new(AtomicU64::new(0));
            let mut tasks = Vec::new();
            for _ in 0..parallel.min(count) {
                let next = Arc::clone(&next);
                let request = request.clone();
                tasks.push(tokio::spawn(async move {
                    while next.fetch_add(1, Ordering::Relaxed) < count {
                        create_and_finish(addr, &request).await?;
                    }
                    Ok::<(), String>(())
                }));
            }
            for t in tasks {
                t.await.map_err(|e| e.to_string())??;
            }
            Ok::<(), String>(())
        }
    };
    let mib = |k: u64| k as f64 / 1024.0;
    let loaded = || metric(addr, "houserules_games_loaded");
    // Waits (10 s at most) until no game is loaded; the games loaded then.
    let settle = || async {
        let by = Instant::now() + Duration::from_secs(10);
        loop {
            let l = loaded().await;
            if l.is_none_or(|l| l == 0.0) || Instant::now() > by {
                return l;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    let fresh = rss_kib(Some(pid)).ok_or("no /proc/PID/status for --server-pid")?;
    run(100).await?;
    settle().await;
    let start = rss_kib(Some(pid)).ok_or("the server is gone")?;
    let t0 = Instant::now();
    let line = format!(
        "create-finish: {n} games, {parallel} at a time; server RSS {:.1} MiB before any game, {:.1} MiB after 100 games (the start; load average {})",
        mib(fresh),
        mib(start),
        load_average()
    );
    reportln!("{line}");
    let _ = writeln!(report, "{line}");
    let step = (n / 10).max(1);
    let mut done = 0;
    let mut first_tenth = None;
    let mut peak = start;
    while done < n {
        let k = step.min(n - done);
        run(k).await?;
        done += k;
        let now = rss_kib(Some(pid)).ok_or("the server is gone")?;
        peak = peak.max(now);
        let tenth = *first_tenth.get_or_insert(now);
        let line = format!(
            "{done} games: RSS {:.1} MiB ({:.2}× the start, {:.2}× the first tenth), games loaded {}, {:.0} games/s, load average {}",
            mib(now),
            now as f64 / start as f64,
            now as f64 / tenth as f64,
            loaded().await.map_or("unknown".into(), |l| l.to_string()),
            done as f64 / t0.elapsed().as_secs_f64(),
            load_average()
        );
        // Along the way on standard error (a 100,000-game run takes
        // minutes); the report has every line.
        reportln!("{line}");
        let _ = writeln!(report, "{line}");
    }
    let left = settle().await;
    let end = rss_kib(Some(pid)).ok_or("the server is gone")?;
    let _ = writeln!(
        report,
        "end: RSS {:.1} MiB = {:.2}× the start ({:.2}× the first tenth; peak {:.2}×), games loaded {}, load average {}",
        mib(end),
        end as f64 / start as f64,
        end as f64 / first_tenth.unwrap_or(start) as f64,
        peak as f64 / start as f64,
        left.map_or("unknown".into(), |l| l.to_string()),
        load_average()
    );
    Ok(report)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

/// `n moves, p50 …, p99 …, max … ms` of some ack latencies.
fn summary(mut us: Vec<u64>) -> String {
    us.sort_unstable();
    format!(
        "{} moves, ack p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        us.len(),
        percentile(&us, 0.50),
        percentile(&us, 0.99),
        percentile(&us, 1.0)
    )
}

/// The report of the ramp (the moves acknowledged before the measured
/// window: in total and per node) and of the measured window in slices of
/// 10 s, from the samples; `ramp` is how long the ramp took and `window`
/// when the measured window started, both since the bots started.
fn phases(
    samples: &[Sample],
    servers: &[SocketAddr],
    ramp: Duration,
    window: Duration,
    games: usize,
) -> (String, String) {
    let secs = ramp.as_secs_f64().max(1e-3);
    let ramped: Vec<&Sample> = samples.iter().filter(|s| !s.measured).collect();
    let mut out = format!(
        "ramp: {games} games started and welcomed in {secs:.1} s: {} = {:.0} moves/s\n",
        summary(ramped.iter().map(|s| s.us).collect()),
        ramped.len() as f64 / secs
    );
    if servers.len() > 1 {
        for (i, a) in servers.iter().enumerate() {
            let mine: Vec<u64> = ramped
                .iter()
                .filter(|s| s.node == i)
                .map(|s| s.us)
                .collect();
            out.push_str(&format!("  ramp on node {a}: {}\n", summary(mine)));
        }
    }
    let from = window.as_millis() as u64;
    let measured: Vec<&Sample> = samples.iter().filter(|s| s.measured).collect();
    let last = measured.iter().map(|s| s.at_ms).max().unwrap_or(from);
    let mut slices = String::new();
    let mut t = from;
    while t <= last {
        let slice: Vec<u64> = measured
            .iter()
            .filter(|s| s.at_ms >= t && s.at_ms < t + 10_000)
            .map(|s| s.us)
            .collect();
        slices.push_str(&format!(
            "  {}–{} s of the window: {}\n",
            (t - from) / 1000,
            (t - from) / 1000 + 10,
            summary(slice)
        ));
        t += 10_000;
    }
    (out, slices)
}

/// Runs the load test.
pub fn run(args: &LoadtestArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    for a in &args.server {
        if !a.ip().is_loopback() {
            return Err(CliError::input(format!(
                "--server {a}: only loopback addresses (127.0.0.0/8, ::1) are load-tested"
            )));
        }
    }
    if !args.server_pid.is_empty() && args.server_pid.len() != args.server.len() {
        return Err(CliError::input(format!(
            "--server-pid: give one per --server, in the same order ({} --server, {} --server-pid)",
            args.server.len(),
            args.server_pid.len()
        )));
    }
    if args.games == 0 || args.seconds == 0 || args.seconds > 3600 {
        return Err(CliError::input(
            "--games must be at least 1 and --seconds from 1 to 3600",
        ));
    }
    if !(0.0..=3600.0).contains(&args.ramp_seconds) {
        return Err(CliError::input(format!(
            "--ramp-seconds {}: give a number of seconds from 0 to 3600",
            args.ramp_seconds
        )));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::input(format!("cannot start the async runtime: {e}")))?;
    if args.create_finish > 0 {
        let ([addr], [pid]) = (args.server.as_slice(), args.server_pid.as_slice()) else {
            return Err(CliError::input(
                "--create-finish: give one --server and its --server-pid",
            ));
        };
        let report = runtime
            .block_on(create_finish(args, *addr, *pid))
            .map_err(CliError::input)?;
        write!(out, "{report}")?;
        return Ok(Outcome::Success);
    }
    let report = runtime.block_on(async {
        let pids: Vec<Option<u32>> = if args.server_pid.is_empty() {
            vec![None]
        } else {
            args.server_pid.iter().copied().map(Some).collect()
        };
        let rss_all = |pids: &[Option<u32>]| -> Option<u64> {
            pids.iter().map(|p| rss_kib(*p)).sum()
        };
        let cpu_all = |pids: &[Option<u32>]| -> Option<f64> {
            pids.iter().map(|p| p.and_then(cpu_seconds)).sum()
        };
        let switches_all = |pids: &[Option<u32>]| -> Option<u64> {
            pids.iter().map(|p| p.and_then(context_switches)).sum()
        };
        let rss_before = rss_all(&pids);
        let mut db_file = None;
        let servers: Vec<SocketAddr> = match args.server.as_slice() {
            [] => vec![{
                let path = std::env::temp_dir().join(format!("houserules-loadtest-{}.db", std::process::id()));
                let db = format!("sqlite:{}", path.display());
                db_file = Some(path);
                let (tx, rx) = tokio::sync::oneshot::channel();
                // The load generator is one address making thousands of games
                // and sockets: the per-address caps are off.
                let config = houserules_server::Config {
                    rate_per_second: 1000,
                    limits: houserules_server::limits::Limits {
                        max_connections: 100_000,
                        max_connections_per_ip: 0,
                        creations_per_minute: 0,
                        ..Default::default()
                    },
                    ..Default::default()
                };
                tokio::spawn(async move {
                    let r = houserules_server::serve(
                        "127.0.0.1:0".parse().expect("a loopback address"),
                        &db,
                        None,
                        config,
                        |a, _| {
                            let _ = tx.send(a);
                        },
                    )
                    .await;
                    if let Err(e) = r {
                        reportln!("error: server: {e}");
                    }
                });
                rx.await.map_err(|_| "the server did not start".to_string())?
            }],
            given => given.to_vec(),
        };
        let launched = Instant::now();
        let stats = Arc::new(Stats {
            nodes: servers.iter().map(|_| NodeStats::default()).collect(),
            launched: Some(launched),
            ..Stats::default()
        });
        let servers = Arc::new(servers);
        // The warm-up is bounded too: at most 10 minutes.
        let warmup_bound = if args.warmup_plies > 0 { Duration::from_secs(600) } else { Duration::ZERO };
        // The ramp, and the connections after it, within a minute more.
        let ramp = Duration::from_secs_f64(args.ramp_seconds);
        let warmup_bound = warmup_bound + ramp + Duration::from_secs(60);
        let hard_end = Instant::now() + warmup_bound + Duration::from_secs(args.seconds);
        let mut tasks = Vec::new();
        let pace = (args.moves_per_second > 0)
            .then(|| Duration::from_secs_f64(args.games as f64 / args.moves_per_second as f64));
        let plan = Plan {
            servers: Arc::clone(&servers),
            home: 0,
            until: hard_end,
            pace,
            version: args.protocol,
            request: args.request.clone(),
            warmup_plies: args.warmup_plies,
            start_at: launched,
            no_replace: args.no_replace,
        };
        for i in 0..args.games {
            let seed = args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(i as u64) | 1;
            let plan = Plan {
                home: i % servers.len(),
                start_at: launched + ramp.mul_f64(i as f64 / args.games as f64),
                ..plan.clone()
            };
            tasks.push(tokio::spawn(bot_pair(plan, seed, Arc::clone(&stats))));
        }
        // The warm-up: until every game has played its plies.
        let mut peak = 0;
        let mut rss_peak = 0;
        while (stats.warm.load(Ordering::Relaxed) as usize) < args.games && Instant::now() < launched + warmup_bound {
            tokio::time::sleep(Duration::from_millis(250)).await;
            peak = peak.max(stats.connections.load(Ordering::Relaxed));
        }
        // The measured window.
        let start = Instant::now();
        let ramp_took = start - launched;
        let until = start + Duration::from_secs(args.seconds);
        let cpu_start = cpu_all(&pids);
        let cpu_node_start: Vec<Option<f64>> = pids.iter().map(|p| p.and_then(cpu_seconds)).collect();
        let moves_node_start: Vec<u64> = stats.nodes.iter().map(|n| n.moves.load(Ordering::Relaxed)).collect();
        let switches_start = switches_all(&pids);
        let load_start = load_average();
        stats.measuring.store(true, Ordering::Relaxed);
        // The connections held once everyone is in, and the memory then.
        while Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(250)).await;
            peak = peak.max(stats.connections.load(Ordering::Relaxed));
            rss_peak = rss_peak.max(rss_all(&pids).unwrap_or(0));
        }
        let moves = stats.moves.load(Ordering::Relaxed);
        let plies = stats.plies.load(Ordering::Relaxed);
        let cpu_end = cpu_all(&pids);
        let cpu_node_end: Vec<Option<f64>> = pids.iter().map(|p| p.and_then(cpu_seconds)).collect();
        let moves_node_end: Vec<u64> = stats.nodes.iter().map(|n| n.moves.load(Ordering::Relaxed)).collect();
        let switches_end = switches_all(&pids);
        let load_end = load_average();
        let elapsed = start.elapsed().as_secs_f64();
        stats.stop.store(true, Ordering::Relaxed);
        let mut failed = 0;
        let mut first_error = None;
        for t in tasks {
            match t.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    failed += 1;
                    first_error.get_or_insert(e);
                }
                Err(e) => {
                    failed += 1;
                    first_error.get_or_insert(e.to_string());
                }
            }
        }
        if let Some(p) = db_file {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", p.display()));
            }
        }
        let mut lat = stats.latencies_us.lock().map(|l| l.clone()).unwrap_or_default();
        lat.sort_unstable();
        let cpu = match (cpu_start, cpu_end) {
            (Some(a), Some(b)) if moves > 0 => format!(
                "{:.0} µs per accepted move ({:.2} s of CPU for {moves} moves; load average {load_start} at the start, {load_end} at the end)",
                (b - a) * 1e6 / moves as f64,
                b - a
            ),
            _ => format!("unknown (give --server-pid; load average {load_start} → {load_end})"),
        };
        let switches = match (switches_start, switches_end) {
            (Some(a), Some(b)) if moves > 0 => format!(
                "{:.1} per accepted move (all the threads of every server given)",
                b.saturating_sub(a) as f64 / moves as f64
            ),
            _ => "unknown (give --server-pid)".into(),
        };
        let (ramp_report, slices) = phases(
            &stats.samples.lock().map(|l| l.clone()).unwrap_or_default(),
            &servers,
            ramp_took,
            start - launched,
            args.games,
        );
        let mean_ply = if moves > 0 { plies as f64 / moves as f64 } else { 0.0 };
        let whose = match (args.server_pid.as_slice(), args.server.len()) {
            ([p], _) => format!("the server, process {p}"),
            ([], 0) => "server and clients in one process".into(),
            ([], _) => "this client process only: give --server-pid".into(),
            (ps, _) => format!("the {} servers together", ps.len()),
        };
        // Per node (only with several servers): the moves of its sockets,
        // their latencies, its CPU per move of all the moves (every node
        // works on every move of a game with a seat on it).
        let mut per_node = String::new();
        if servers.len() > 1 {
            for (i, (a, n)) in servers.iter().zip(&stats.nodes).enumerate() {
                let mut l = n.latencies_us.lock().map(|l| l.clone()).unwrap_or_default();
                l.sort_unstable();
                let m = moves_node_end[i] - moves_node_start[i];
                let cpu = match (cpu_node_start.get(i).copied().flatten(), cpu_node_end.get(i).copied().flatten()) {
                    (Some(a), Some(b)) => format!(", CPU {:.2} s = {:.0}% of a core", b - a, (b - a) * 100.0 / elapsed),
                    _ => String::new(),
                };
                per_node.push_str(&format!(
                    "node {a}: games created {}, moves sent {m} = {:.0} moves/s, ack p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms{cpu}\n",
                    n.games.load(Ordering::Relaxed),
                    m as f64 / elapsed,
                    percentile(&l, 0.50),
                    percentile(&l, 0.99),
                    percentile(&l, 1.0),
                ));
            }
        }
        let per_game = match rss_before {
            Some(b) => format!(
                "{:.1} KiB ({whose}: {:.1} MiB at the start, {:.1} MiB at the peak)",
                rss_peak.saturating_sub(b) as f64 / args.games as f64,
                b as f64 / 1024.0,
                rss_peak as f64 / 1024.0
            ),
            None => "unknown (no /proc)".into(),
        };
        Ok::<String, String>(format!(
            "{ramp_report}{per_node}{}protocol: {}\ngames: {} concurrent ({} finished{}){}\nconnections held: {peak}\nmoves: {moves} in {elapsed:.1} s = {:.0} moves/s (mean ply {mean_ply:.0}, after a warm-up of {} plies)\nserver CPU: {cpu}\nserver context switches: {switches}\nack latency: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (the measured window)\n{slices}resident memory per game: {per_game}\nbots failed: {failed}{}\n",
            if servers.len() > 1 {
                format!("total over {} nodes (load average {load_start} at the start, {load_end} at the end):\n", servers.len())
            } else {
                String::new()
            },
            args.protocol,
            args.games,
            stats.games_done.load(Ordering::Relaxed),
            if args.no_replace { ", those past the warm-up not replaced" } else { " and replaced" },
            match pace {
                Some(p) => format!(", each moving every {:.2} s", p.as_secs_f64()),
                None => ", moving as fast as acknowledged".into(),
            },
            moves as f64 / elapsed,
            args.warmup_plies,
            percentile(&lat, 0.50),
            percentile(&lat, 0.99),
            percentile(&lat, 1.0),
            first_error.map(|e| format!(" (first: {e})")).unwrap_or_default(),
        ))
    });
    let report = report.map_err(CliError::input)?;
    write!(out, "{report}")?;
    Ok(Outcome::Success)
}
