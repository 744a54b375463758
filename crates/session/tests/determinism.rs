//! Determinism (RULINGS M3, issue 5): a game is reproducible from its
//! creation request and its inputs; replays give byte-identical state
//! hashes, and a session restored from its snapshot (even with a choice
//! pending) continues exactly as the original.

mod common;

use houserules_modifiers::Mulberry32;
use houserules_session::{CreateRequest, Input, Session};
use serde_json::{json, Value};

const SETS: &[&[&str]] = &[
    &["kamikaze", "all_on_red"],
    &["minefield", "religious_conversion", "parry"],
    &["mr_freeze", "ice_physics"],
    &["mind_control", "vampire-on-capture"],
    &["coin-flip-restriction", "no-mans-land", "simple-mine"],
];

fn request(set: &[&str], seed: u32) -> CreateRequest {
    CreateRequest {
        modifiers: set.iter().map(|s| json!(s)).collect(),
        seed: Some(json!(seed)),
        ..CreateRequest::default()
    }
}

/// Plays up to `n` inputs chosen by a test-side stream: answers pending
/// choices with a random option (both players for rps), else a random
/// legal move. Returns the accepted inputs.
fn playout(s: &mut Session, pick: &mut Mulberry32, n: usize) -> Vec<Input> {
    let mut inputs = Vec::new();
    for _ in 0..n {
        let Some(input) = common::random_input(s, pick) else {
            break;
        };
        s.submit(input.clone()).expect("a listed input is accepted");
        inputs.push(input);
    }
    inputs
}

#[test]
fn hundred_replays_give_identical_hashes() {
    let req = request(SETS[1], 42);
    let mut s = Session::create(req.clone()).unwrap();
    let inputs = playout(&mut s, &mut Mulberry32::new(9), 60);
    let h = s.state_hash();
    for _ in 0..100 {
        assert_eq!(
            Session::replay(req.clone(), &inputs).unwrap().state_hash(),
            h
        );
    }
}

#[test]
fn replays_match_across_seeds_and_descriptor_sets() {
    for (i, set) in SETS.iter().enumerate() {
        for seed in 0..12u32 {
            let req = request(set, seed);
            let mut s = Session::create(req.clone()).unwrap();
            let inputs = playout(&mut s, &mut Mulberry32::new(seed * 31 + i as u32), 40);
            let a = Session::replay(req.clone(), &inputs).unwrap();
            assert_eq!(a.state_hash(), s.state_hash(), "set {set:?} seed {seed}");
            assert_eq!(a.to_json(), s.to_json());
        }
    }
}

#[test]
fn snapshot_restore_continues_identically() {
    for (i, set) in SETS.iter().enumerate() {
        for seed in 0..6u32 {
            let req = request(set, seed);
            let mut full = Session::create(req.clone()).unwrap();
            let inputs = playout(&mut full, &mut Mulberry32::new(seed + 100 * i as u32), 50);
            for cut in [0, inputs.len() / 3, inputs.len() / 2] {
                let mut a = Session::replay(req.clone(), &inputs[..cut]).unwrap();
                let text = serde_json::to_string(&a.snapshot()).unwrap();
                let snap: Value = serde_json::from_str(&text).unwrap();
                let mut b = Session::restore(&snap).unwrap();
                assert_eq!(a.snapshot(), b.snapshot());
                for inp in &inputs[cut..] {
                    a.submit(inp.clone()).unwrap();
                    b.submit(inp.clone()).unwrap();
                }
                assert_eq!(
                    b.state_hash(),
                    full.state_hash(),
                    "set {set:?} seed {seed} cut {cut}"
                );
            }
        }
    }
}

#[test]
fn seed_is_reported_and_defaults_to_zero() {
    let s = Session::create(CreateRequest {
        modifiers: vec![json!("kamikaze")],
        ..CreateRequest::default()
    })
    .unwrap();
    assert_eq!(s.to_json()["seed"], json!(0));
    let bad = Session::create(CreateRequest {
        seed: Some(json!(-1)),
        ..CreateRequest::default()
    });
    assert_eq!(bad.unwrap_err().code, "request.bad-seed");
    let big = Session::create(CreateRequest {
        seed: Some(json!(4_294_967_296u64)),
        ..CreateRequest::default()
    });
    assert_eq!(big.unwrap_err().code, "request.bad-seed");
}

#[test]
fn the_same_id_is_never_active_twice() {
    let r = Session::create(CreateRequest {
        modifiers: vec![json!("kamikaze"), json!("kamikaze")],
        ..CreateRequest::default()
    });
    assert_eq!(r.unwrap_err().code, "request.bad-modifier");
}
