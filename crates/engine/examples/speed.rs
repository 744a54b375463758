//! Quick perft timing: `cargo run --release -p houserules-engine --example speed [DEPTH] [ours|cozy] [bulk|nobulk]`.
//! Under valgrind (callgrind) it gives instruction counts to compare.
use houserules_engine::{Game, Variant};
use std::time::Instant;

fn cozy(b: &cozy_chess::Board, d: u32, bulk: bool) -> u64 {
    if d == 0 {
        return 1;
    }
    let mut n = 0;
    b.generate_moves(|ms| {
        if bulk && d == 1 {
            n += ms.len() as u64;
        } else {
            for m in ms {
                let mut c = b.clone();
                c.play_unchecked(m);
                n += cozy(&c, d - 1, bulk);
            }
        }
        false
    });
    n
}

fn main() {
    let d: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let engine = std::env::args().nth(2).unwrap_or_else(|| "ours".into());
    for (name, fen, depth) in [
        (
            "startpos",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            d + 1,
        ),
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            d,
        ),
    ] {
        let g = Game::from_fen(Variant::chess(), fen).expect("valid FEN");
        let b: cozy_chess::Board = fen.parse().expect("valid FEN");
        let modes: &[bool] = match std::env::args().nth(3).as_deref() {
            Some("nobulk") => &[false],
            Some("bulk") => &[true],
            _ => &[true, false],
        };
        for &bulk in modes {
            let dd = if bulk { depth } else { depth - 1 };
            let t0 = Instant::now();
            let n = if engine == "cozy" {
                cozy(&b, dd, bulk)
            } else {
                g.perft(dd, bulk)
            };
            let s = t0.elapsed().as_secs_f64();
            println!(
                "{engine} {name} bulk={bulk} nodes={n} {:.1} Mnps",
                n as f64 / s / 1e6
            );
        }
    }
}
