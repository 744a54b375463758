//! Perft throughput of the YAML definitions (issue 3 benchmark).
//!
//! `cargo bench -p houserules-definitions --bench perft` prints two tables,
//! million nodes per second, best of `HOUSERULES_BENCH_RUNS` runs
//! (default 3), all measured in the same run:
//!
//! 1. FIDE chess from the embedded `chess.yaml`, from the engine's built-in
//!    `GameDefinition::fide()`, and cozy-chess, with the ratios yaml/builtin
//!    (the issue asks for at least 1/1.1 = 0.91) and yaml/cozy.
//! 2. Capablanca chess from `capablanca.yaml` beside Fairy-Stockfish's
//!    `go perft` on the same position, when a Fairy-Stockfish binary is
//!    found (`HOUSERULES_FSF_BIN`, else `fairy-stockfish` on `PATH` or
//!    `/usr/games/fairy-stockfish`, as Debian's `fairy-stockfish` package
//!    installs it). Fairy-Stockfish's time is the wall-clock time between
//!    sending `go perft N` and reading its `Nodes searched` line (its perft
//!    counts the last ply in bulk, like our bulk rows); without a binary the
//!    row says so and only ours is measured.
//!
//! Every engine must report the same node count. `HOUSERULES_BENCH_QUICK=1`
//! (or running without `--bench`, as `cargo test --benches` does) uses small
//! depths and one run.

#[path = "../../engine/benches/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use houserules_engine::{Game, GameDefinition, Variant};

fn yaml(id: &str) -> GameDefinition {
    houserules_definitions::builtin(id).unwrap_or_else(|| panic!("{id}.yaml does not load"))
}

#[path = "../../engine/benches/common/cozy.rs"]
mod cozy;

/// Times `f` `runs` times; the best time and the (checked constant) count.
fn best(runs: usize, label: &str, engine: &str, f: &dyn Fn() -> u64) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut nodes = None;
    for run in 0..runs {
        let start = Instant::now();
        let n = black_box(f());
        let dt = start.elapsed();
        eprintln!(
            "  run {}/{runs} {label:<26} {engine:<16} {n:>11} nodes {:>8.3} s {:>7.1} Mnps",
            run + 1,
            dt.as_secs_f64(),
            common::mnps(n, dt)
        );
        assert!(
            nodes.is_none_or(|m| m == n),
            "{label} {engine}: count changed"
        );
        nodes = Some(n);
        best = best.min(dt);
    }
    (nodes.unwrap_or(0), best)
}

/// A Fairy-Stockfish process driven over UCI.
struct Fsf {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
    name: String,
}

impl Fsf {
    fn find() -> Option<String> {
        if let Ok(p) = std::env::var("HOUSERULES_FSF_BIN") {
            return Some(p);
        }
        for p in ["fairy-stockfish", "/usr/games/fairy-stockfish"] {
            if Command::new(p)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .and_then(|mut c| c.wait())
                .is_ok()
            {
                return Some(p.to_string());
            }
        }
        None
    }

    fn start(bin: &str) -> Option<Fsf> {
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let out = BufReader::new(child.stdout.take()?);
        let mut f = Fsf {
            child,
            out,
            name: String::new(),
        };
        f.send("uci");
        f.name = f
            .until("uciok")
            .into_iter()
            .find_map(|l| l.strip_prefix("id name ").map(str::to_string))?;
        Some(f)
    }

    fn send(&mut self, s: &str) {
        let stdin = self.child.stdin.as_mut().expect("piped stdin");
        writeln!(stdin, "{s}").expect("Fairy-Stockfish accepts input");
        stdin.flush().expect("flush");
    }

    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            if self.out.read_line(&mut l).unwrap_or(0) == 0 {
                panic!("Fairy-Stockfish ended before `{prefix}`");
            }
            let l = l.trim_end().to_string();
            let done = l.starts_with(prefix);
            lines.push(l);
            if done {
                return lines;
            }
        }
    }

    fn perft(&mut self, variant: &str, fen: &str, depth: u32) -> u64 {
        self.send(&format!("setoption name UCI_Variant value {variant}"));
        self.send(&format!("position fen {fen}"));
        self.send("isready");
        self.until("readyok");
        self.send(&format!("go perft {depth}"));
        let lines = self.until("Nodes searched");
        let last = lines.last().expect("a line");
        last.rsplit(' ')
            .next()
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("cannot read `{last}`"))
    }
}

impl Drop for Fsf {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

fn main() {
    let settings = common::Settings::from_env();
    let quick = settings.quick;
    let runs = if quick { 1 } else { settings.runs };

    // ---------------------------------------------- chess.yaml vs built-in
    let yaml_chess = Variant::new(yaml("chess")).expect("chess.yaml compiles");
    let builtin = Variant::chess();
    let cases = [
        (
            "startpos",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            if quick { 4 } else { 6 },
        ),
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            if quick { 3 } else { 5 },
        ),
    ];
    let mut table = Vec::new();
    for (name, fen, depth) in cases {
        for bulk in [true, false] {
            let label = format!("{name} d{depth} {}", if bulk { "bulk" } else { "no-bulk" });
            let y = Game::from_fen(yaml_chess.clone(), fen).expect("FEN");
            let b = Game::from_fen(builtin.clone(), fen).expect("FEN");
            let c = cozy_chess::Board::from_fen(fen, false).expect("cozy FEN");
            let (ny, ty) = best(runs, &label, "chess.yaml", &|| y.perft(depth, bulk));
            let (nb, tb) = best(runs, &label, "builtin", &|| b.perft(depth, bulk));
            let (nc, tc) = best(runs, &label, "cozy", &|| cozy::perft(&c, depth, bulk));
            assert!(
                ny == nb && nb == nc,
                "{label}: yaml {ny}, builtin {nb}, cozy {nc}"
            );
            table.push((
                label,
                ny,
                common::mnps(ny, ty),
                common::mnps(nb, tb),
                common::mnps(nc, tc),
            ));
        }
    }

    // --------------------------------------- capablanca vs Fairy-Stockfish
    let capa = Variant::new(yaml("capablanca")).expect("capablanca.yaml compiles");
    let capa_fen = capa.definition().start_fen.clone();
    let capa_depth = if quick { 3 } else { 5 };
    let g = Game::from_fen(capa, &capa_fen).expect("FEN");
    let capa_label = format!("capablanca start d{capa_depth} bulk");
    let (n_ours, t_ours) = best(runs, &capa_label, "capablanca.yaml", &|| {
        g.perft(capa_depth, true)
    });
    let fsf = Fsf::find().and_then(|b| Fsf::start(&b));
    let fsf_row = fsf.map(|f| {
        let name = f.name.clone();
        let cell = std::cell::RefCell::new(f);
        let (n, t) = best(runs, &capa_label, "fairy-stockfish", &|| {
            cell.borrow_mut().perft("capablanca", &capa_fen, capa_depth)
        });
        assert_eq!(
            n, n_ours,
            "{capa_label}: Fairy-Stockfish {n}, ours {n_ours}"
        );
        (name, common::mnps(n, t))
    });

    println!();
    println!("perft, best of {runs} run(s), million nodes per second");
    println!(
        "| {:<22} | {:>11} | {:>10} | {:>8} | {:>8} | {:>12} | {:>9} |",
        "position", "nodes", "chess.yaml", "built-in", "cozy", "yaml/builtin", "yaml/cozy"
    );
    println!(
        "|{:-<24}|{:->13}|{:->12}|{:->10}|{:->10}|{:->14}|{:->11}|",
        ":", ":", ":", ":", ":", ":", ":"
    );
    for (label, n, y, b, c) in &table {
        println!(
            "| {label:<22} | {n:>11} | {y:>10.1} | {b:>8.1} | {c:>8.1} | {:>12.3} | {:>9.3} |",
            y / b,
            y / c
        );
    }
    println!();
    let ours = common::mnps(n_ours, t_ours);
    match fsf_row {
        Some((name, f)) => {
            println!(
                "| {:<24} | {:>11} | {:>15} | {:>15} | {:>9} |",
                "position", "nodes", "capablanca.yaml", "Fairy-Stockfish", "ours/FSF"
            );
            println!(
                "|{:-<26}|{:->13}|{:->17}|{:->17}|{:->11}|",
                ":", ":", ":", ":", ":"
            );
            println!(
                "| {capa_label:<24} | {n_ours:>11} | {ours:>15.1} | {f:>15.1} | {:>9.3} |",
                ours / f
            );
            println!("Fairy-Stockfish: {name}");
        }
        None => println!(
            "{capa_label}: {n_ours} nodes, capablanca.yaml {ours:.1} Mnps; no Fairy-Stockfish binary found (set HOUSERULES_FSF_BIN)"
        ),
    }
}
