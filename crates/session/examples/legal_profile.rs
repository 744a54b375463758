//! Runs one case of the runtime benchmark many times, for instruction
//! counts under callgrind (docs/performance.md § Modifiers):
//! `legal_profile CASE N` with CASE one of `engine`, `0`, `1`, `5` and
//! `legal` or `make` as a prefix (`legal/5`, `make/0`, ...), and an
//! optional third argument `start` for the initial position instead of
//! Kiwipete. The set `atomic` is the atomic descriptor of
//! `crates/modifiers/tests/data/atomic.json` (legality that sees a move's
//! effects, issue 25 item 3); `lib:ID` is the library modifier `ID` alone.

use houserules_engine::{Game, Variant};
use houserules_session::{CreateRequest, Input, Session};
use serde_json::json;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const ATOMIC: &str = include_str!("../../modifiers/tests/data/atomic.json");
const FIVE: [&str; 5] = [
    "ice_physics",
    "bloodthirsty",
    "hobbit_slaughter",
    "ice_age",
    "frozen-column",
];

fn main() {
    let mut args = std::env::args().skip(1);
    let case = args.next().unwrap_or_else(|| "legal/5".into());
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let fen = match args.next().as_deref() {
        Some("start") => START,
        _ => KIWIPETE,
    };
    let (what, set) = case.split_once('/').unwrap_or(("legal", "5"));
    let plain = Game::from_fen(Variant::chess(), fen).expect("valid FEN");
    let mods: &[&str] = match set {
        "1" => &FIVE[..1],
        "5" => &FIVE,
        _ => &[],
    };
    let modifiers = if set == "atomic" {
        vec![serde_json::from_str(ATOMIC).expect("the atomic descriptor is JSON")]
    } else if let Some(id) = set.strip_prefix("lib:") {
        vec![json!(id)]
    } else {
        mods.iter().map(|m| json!(m)).collect()
    };
    let s = Session::create(CreateRequest {
        fen: Some(fen.into()),
        modifiers,
        ..CreateRequest::default()
    })
    .expect("valid");
    let first = s.legal_moves_uci()[0].clone();
    let mut sum = 0u64;
    for _ in 0..n {
        sum += match (what, set) {
            ("legal", "engine") => plain.legal_moves().len() as u64,
            ("make", "engine") => {
                let mut g = plain.clone();
                g.apply(plain.legal_moves()[0]).expect("legal");
                g.hash() & 1
            }
            ("legal", _) => s.legal_moves().len() as u64,
            _ => {
                let mut t = s.clone();
                t.submit(Input::Move { mv: first.clone() }).expect("legal");
                u64::from(t.state().ply_count)
            }
        };
    }
    println!("{case} × {n}: {sum}");
}
