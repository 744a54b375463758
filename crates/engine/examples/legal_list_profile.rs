//! The engine's legal-move list, many times, for instruction counts under
//! callgrind (docs/performance.md § Session 19):
//! `legal_list_profile N [start]` calls `Game::legal_moves` N times on
//! Kiwipete (or the initial position); run it with N and with 1 and
//! subtract for the instructions per call. The same loop as the session's
//! `legal_profile legal/engine`, without building the session crate.

use houserules_engine::{Game, Variant};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let fen = match args.next().as_deref() {
        Some("start") => START,
        _ => KIWIPETE,
    };
    let plain = Game::from_fen(Variant::chess(), fen).expect("valid FEN");
    let mut sum = 0u64;
    for _ in 0..n {
        sum += std::hint::black_box(&plain).legal_moves().len() as u64;
    }
    println!("legal × {n}: {sum}");
}
