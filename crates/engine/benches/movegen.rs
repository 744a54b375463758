//! Criterion micro-benchmarks: legal move generation, bulk move counting
//! and make-move on a handful of positions, for houserules with cozy-chess
//! and shakmaty alongside for scale.
//!
//! `cargo bench -p houserules-engine --bench movegen [-- FILTER]`.
//!
//! - `legal/ENGINE/POSITION`: generate the legal moves into a list.
//! - `count/houserules/POSITION`: count them without listing (bulk counting).
//! - `make/ENGINE/POSITION`: copy the position and play each legal move
//!   (the move list is generated outside the timed loop).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_main, Criterion};
use houserules_engine::{Move, Position, Variant};
use shakmaty::Position as _;

/// Positions of the chessprogramming.org perft suite plus a quiet middle game.
const POSITIONS: &[(&str, &str)] = &[
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "pos4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        "pos5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    (
        "middlegame",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    ),
];

fn bench(c: &mut Criterion) {
    let variant = Variant::chess();
    let t = variant.tables_u64().expect("chess fits u64");
    for &(name, fen) in POSITIONS {
        let pos: Position<u64> = houserules_engine::fen::parse(variant.definition(), t, fen)
            .expect("houserules reads the FEN");
        let board = cozy_chess::Board::from_fen(fen, false).expect("cozy-chess reads the FEN");
        let sk: shakmaty::Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .expect("shakmaty reads the FEN")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("shakmaty accepts the position");

        // Legal move generation.
        let mut buf: Vec<Move> = Vec::with_capacity(256);
        c.bench_function(&format!("legal/houserules/{name}"), |b| {
            b.iter(|| {
                buf.clear();
                black_box(&pos).legal_moves_into(t, &mut buf);
                buf.len()
            })
        });
        c.bench_function(&format!("legal/cozy/{name}"), |b| {
            b.iter(|| {
                let mut n = 0;
                black_box(&board).generate_moves(|moves| {
                    for m in moves {
                        black_box(m);
                        n += 1;
                    }
                    false
                });
                n
            })
        });
        c.bench_function(&format!("legal/shakmaty/{name}"), |b| {
            b.iter(|| black_box(&sk).legal_moves().len())
        });

        // Bulk counting.
        c.bench_function(&format!("count/houserules/{name}"), |b| {
            b.iter(|| black_box(&pos).count_legal(t))
        });

        // Make-move: copy and play every legal move.
        let mut moves = Vec::new();
        pos.legal_moves_into(t, &mut moves);
        c.bench_function(&format!("make/houserules/{name}"), |b| {
            b.iter(|| {
                for &m in &moves {
                    let mut next = *black_box(&pos);
                    next.play_unchecked(t, m);
                    black_box(&next);
                }
            })
        });
        let mut cozy_moves = Vec::new();
        board.generate_moves(|ms| {
            cozy_moves.extend(ms);
            false
        });
        c.bench_function(&format!("make/cozy/{name}"), |b| {
            b.iter(|| {
                for &m in &cozy_moves {
                    let mut next = black_box(&board).clone();
                    next.play_unchecked(m);
                    black_box(&next);
                }
            })
        });
        let sk_moves = sk.legal_moves();
        c.bench_function(&format!("make/shakmaty/{name}"), |b| {
            b.iter(|| {
                for m in &sk_moves {
                    let mut next = black_box(&sk).clone();
                    next.play_unchecked(*m);
                    black_box(&next);
                }
            })
        });
    }
}

/// The benchmark group (written out rather than by `criterion_group!`, whose
/// generated function has no documentation).
fn benches() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
        .configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
