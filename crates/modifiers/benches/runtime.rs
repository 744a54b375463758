//! Legal-move generation and make-move throughput of a session with 0, 1
//! and 5 modifiers attached (issue 5 § Benchmark), on Kiwipete. The five
//! are passive rules (no choices): ice_physics, bloodthirsty,
//! hobbit_slaughter, ice_age and the frozen-column template.

use criterion::{criterion_main, Criterion};
use houserules_modifiers::runtime::{CreateRequest, Input, Session};
use serde_json::json;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// A Kiwipete session with `mods` attached.
fn session(mods: &[&str]) -> Session {
    Session::create(CreateRequest {
        fen: Some(KIWIPETE.into()),
        modifiers: mods.iter().map(|m| json!(m)).collect(),
        ..CreateRequest::default()
    })
    .expect("valid")
}

/// Legality and make-move per modifier set.
fn bench(c: &mut Criterion) {
    let sets: [(&str, Vec<&str>); 3] = [
        ("0", vec![]),
        ("1", vec!["ice_physics"]),
        (
            "5",
            vec![
                "ice_physics",
                "bloodthirsty",
                "hobbit_slaughter",
                "ice_age",
                "frozen-column",
            ],
        ),
    ];
    let plain =
        houserules_engine::Game::from_fen(houserules_engine::Variant::chess(), KIWIPETE).unwrap();
    c.bench_function("legal/engine", |b| b.iter(|| plain.legal_moves().len()));
    for (name, mods) in &sets {
        let s = session(mods);
        c.bench_function(&format!("legal/{name}"), |b| {
            b.iter(|| s.legal_moves().len())
        });
        let m = s.legal_moves_uci()[0].clone();
        c.bench_function(&format!("make/{name}"), |b| {
            b.iter(|| {
                let mut t = s.clone();
                t.submit(Input::Move { mv: m.clone() }).expect("legal");
                t.state().ply_count
            })
        });
    }
}

/// The benchmark group (written out rather than by `criterion_group!`, whose
/// generated function has no documentation).
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
