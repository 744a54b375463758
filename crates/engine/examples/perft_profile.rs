//! A small perft driver for profilers (callgrind, perf).
//!
//! ```text
//! cargo run --release -p houserules-engine --example perft_profile -- [DEPTH] [bulk|no-bulk] [FEN]
//! ```
//!
//! Defaults: Kiwipete, depth 4, bulk counting. `startpos` and `kiwipete`
//! are accepted for the FEN. Prints the node count, the time taken and the
//! size of a position (copied once per move played).
//!
//! `PERFT_ENGINE=cozy` or `PERFT_ENGINE=shakmaty` runs the same perft on
//! that engine instead, for comparing profiles.

use std::time::Instant;

use houserules_engine::{Position, Variant};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// The benchmarks' cozy-chess perft, so that profiles compare the same shape.
#[path = "../benches/common/cozy.rs"]
mod cozy;

fn shakmaty_perft(pos: &shakmaty::Chess, depth: u32, bulk: bool) -> u64 {
    use shakmaty::Position as _;
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if bulk && depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            shakmaty_perft(&child, depth - 1, bulk)
        })
        .sum()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(4);
    let bulk = args.get(1).is_none_or(|s| s != "no-bulk");
    let fen = match args.get(2).map(String::as_str) {
        None | Some("kiwipete") => KIWIPETE.to_string(),
        Some("startpos") => STARTPOS.to_string(),
        Some(_) => args[2..].join(" "),
    };
    let engine = std::env::var("PERFT_ENGINE").unwrap_or_else(|_| "houserules".into());
    let start = Instant::now();
    let nodes = match engine.as_str() {
        "cozy" => {
            let board = cozy_chess::Board::from_fen(&fen, false).expect("cozy-chess reads the FEN");
            cozy::perft(&board, depth, bulk)
        }
        "shakmaty" => {
            let pos: shakmaty::Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .expect("shakmaty reads the FEN")
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("shakmaty accepts the position");
            shakmaty_perft(&pos, depth, bulk)
        }
        _ => {
            let variant = Variant::chess();
            let t = variant.tables_u64().expect("chess fits u64");
            let pos = match houserules_engine::fen::parse(variant.definition(), t, &fen) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("bad FEN: {e}");
                    std::process::exit(2);
                }
            };
            eprintln!(
                "size_of::<Position<u64>>() = {} bytes",
                std::mem::size_of::<Position<u64>>()
            );
            pos.perft(t, depth, bulk)
        }
    };
    let dt = start.elapsed();
    println!(
        "{engine}: perft({depth}, {}) = {nodes} in {:.3} s ({:.1} Mnps)",
        if bulk { "bulk" } else { "no-bulk" },
        dt.as_secs_f64(),
        nodes as f64 / dt.as_secs_f64() / 1e6
    );
}
