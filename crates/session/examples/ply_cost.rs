//! Whether the rules work of one move grows with the game's length
//! (issue 21: the server's CPU per move grew 1.6× from ply 39 to ply 227).
//! The work is what the server's game task does per move
//! (`crates/server/src/game/rules.rs` `run`): the move read, its SAN, the
//! submit, the typed output with the new log entries, the check and the
//! draw claim.
//!
//! Two figures, over seeded random FIDE games:
//! - the median cost per 20-ply bucket, with the mean number of legal moves
//!   (late positions of random games hold more queens: more moves to list,
//!   which is the position, not the history);
//! - the same move from the same position played by the session with its
//!   history (ply 200 to 300) and by a fresh session created from that
//!   position's FEN (no history), the fastest of 7 runs each: their
//!   ratio is what the history costs.
//!
//! `cargo run --release -p houserules-session --example ply_cost`

use std::time::{Duration, Instant};

use houserules_session::{CreateRequest, Input, Session};

fn step(s: &mut Session, text: &str) {
    let log_from = s.log_len();
    let (m, uci) = s.resolve_move(text).expect("legal");
    let san = s.san(m);
    s.submit(Input::Move { mv: uci }).expect("accepted");
    let input = s.inputs().last().cloned();
    let out = s.output_since(log_from);
    let check = s.is_check();
    let claim = s.game().claimable_draw();
    std::hint::black_box((san, input, out, check, claim));
}

fn main() {
    const MAX: usize = 320;
    // Each move's time by bucket: the median is read, as a shared machine
    // preempts some moves for milliseconds.
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); MAX / 20];
    let mut count = vec![0u32; MAX / 20];
    let mut moves = [0u64; MAX / 20];
    let (mut with_history, mut fresh, mut pairs) = (Duration::ZERO, Duration::ZERO, 0u32);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut games = 0;
    while count[MAX / 20 - 1] < 3000 && games < 1500 {
        games += 1;
        let mut s = Session::create(CreateRequest::parse("{}").unwrap()).unwrap();
        for ply in 0..MAX {
            if s.is_over() {
                break;
            }
            let legal = s.legal_moves_uci();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = legal[(seed % legal.len() as u64) as usize].clone();
            if ply >= 200 && ply % 10 == 0 {
                // The same move with and without the history.
                let fen = s.game().fen();
                let req = format!("{{\"fen\": \"{fen}\"}}");
                let base = Session::create(CreateRequest::parse(&req).unwrap()).unwrap();
                // The fastest of 7 runs each: the machine is shared, and a
                // clone just before each run leaves the caches alike.
                let (mut best_a, mut best_b) = (Duration::MAX, Duration::MAX);
                for _ in 0..7 {
                    let mut a = s.clone();
                    let t = Instant::now();
                    step(&mut a, &mv);
                    best_a = best_a.min(t.elapsed());
                    let mut b = base.clone();
                    let t = Instant::now();
                    step(&mut b, &mv);
                    best_b = best_b.min(t.elapsed());
                }
                with_history += best_a;
                fresh += best_b;
                pairs += 1;
            }
            let t = Instant::now();
            step(&mut s, &mv);
            times[ply / 20].push(t.elapsed());
            count[ply / 20] += 1;
            moves[ply / 20] += legal.len() as u64;
        }
    }
    println!("{games} games");
    for (i, (t, n)) in times.iter_mut().zip(&count).enumerate() {
        if *n > 0 {
            t.sort();
            println!(
                "plies {:3}-{:3}: median {:6.1} µs a move, {:5.1} legal moves ({n} moves)",
                i * 20,
                i * 20 + 19,
                t[t.len() / 2].as_secs_f64() * 1e6,
                moves[i] as f64 / f64::from(*n)
            );
        }
    }
    if pairs > 0 {
        let (a, b) = (
            with_history.as_secs_f64() * 1e6 / f64::from(pairs),
            fresh.as_secs_f64() * 1e6 / f64::from(pairs),
        );
        println!(
            "plies 200-300, the same move: {a:.1} µs with the history, {b:.1} µs from the FEN alone ({pairs} pairs): ratio {:.2}",
            a / b
        );
    }
}
