//! Heap bytes a session holds per ply (issue 21: a live game's memory
//! grew by about 3.3 KB a ply). A counting global allocator keeps the live
//! heap bytes; the example plays seeded random games of a rule set and
//! prints, for the first game that reaches 300 plies, the session's heap
//! at ply 10 and at ply 300 and the difference per ply.
//!
//! `cargo run --release -p houserules-session --example ply_memory`
//! (FIDE and the five benchmark modifiers of docs/performance.md).
//!
//! The figure is the live heap (bytes requested, not the allocator's
//! pages), so a `Vec` that has just doubled counts its whole capacity:
//! it is read over 290 plies to average that out, and the games' vectors
//! are the same before and after a change.

use houserules_session::{CreateRequest, Input, Session};

/// The system allocator, counting the bytes live.
#[global_allocator]
static A: houserules_alloc_count::Counting = houserules_alloc_count::Counting;

use houserules_alloc_count::live;

const FROM: usize = 10;
const TO: usize = 300;

/// Plays seeded random games of `request` until one reaches [`TO`] plies;
/// returns the session's heap at [`FROM`] and at [`TO`] plies and the seed.
/// When none does in 300 games (rule sets whose random games end early),
/// the longest game's heap at its last ply and that ply.
fn measure(request: &str) -> Option<(isize, isize, u64, usize)> {
    let mut best: Option<(isize, isize, u64, usize)> = None;
    for game in 0..300u64 {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15 ^ game.wrapping_mul(0x2545_f491_4f6c_dd1d);
        let before = live();
        let mut s = Session::create(CreateRequest::parse(request).expect("request")).ok()?;
        let mut at_from = 0;
        let mut ply = 0;
        while ply < TO {
            if s.is_over() {
                break;
            }
            let legal = s.legal_moves_uci();
            if legal.is_empty() {
                // A pending choice: answer with its first option.
                if s.timeout_choice().is_err() {
                    break;
                }
                continue;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = legal[(seed % legal.len() as u64) as usize].clone();
            drop(legal);
            if s.submit(Input::Move { mv }).is_err() {
                break;
            }
            ply += 1;
            if ply == FROM {
                at_from = live() - before;
            }
        }
        let at_end = live() - before;
        drop(s);
        if ply == TO {
            return Some((at_from, at_end, game, ply));
        }
        if ply > FROM + 20 && best.is_none_or(|b| b.3 < ply) {
            best = Some((at_from, at_end, game, ply));
        }
    }
    best
}

/// [`measure`] for the engine's [`Game`](houserules_engine::Game) alone
/// (FIDE): what the engine keeps per ply.
fn measure_engine() -> Option<(isize, isize, u64)> {
    use houserules_engine::Game;
    for game in 0..2000u64 {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15 ^ game.wrapping_mul(0x2545_f491_4f6c_dd1d);
        let before = live();
        let mut g = Game::chess();
        let mut at_from = 0;
        let mut ply = 0;
        while ply < TO && !g.status().is_over() {
            let legal = g.legal_moves();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = legal[(seed % legal.len() as u64) as usize];
            drop(legal);
            g.apply(m).ok()?;
            ply += 1;
            if ply == FROM {
                at_from = live() - before;
            }
        }
        if ply == TO {
            return Some((at_from, live() - before, game));
        }
    }
    None
}

fn main() {
    if let Some((a, b, game)) = measure_engine() {
        println!(
            "engine Game (FIDE): heap {a} B at ply {FROM}, {b} B at ply {TO} (game {game}): {:.0} B a ply",
            (b - a) as f64 / (TO - FROM) as f64
        );
    }
    let cases = [
        ("FIDE", "{}"),
        (
            "five modifiers",
            r#"{"modifiers": ["ice_physics", "bloodthirsty", "hobbit_slaughter", "ice_age", "frozen-column"]}"#,
        ),
    ];
    for (name, req) in cases {
        match measure(req) {
            Some((a, b, game, ply)) => println!(
                "{name}: heap {a} B at ply {FROM}, {b} B at ply {ply} (game {game}): {:.0} B a ply",
                (b - a) as f64 / (ply - FROM) as f64
            ),
            None => println!("{name}: no game passed {} plies", FROM + 20),
        }
    }
}
