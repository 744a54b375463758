//! The quiet path (`runtime/quiet.rs`) against the full after-move
//! dispatch: random games of preset rule sets and games with no modifier
//! left (mind_control lasts one ply), each move played both ways from the
//! same session; the snapshots (position, ids, hit points, log, counters,
//! result) and statuses must be equal after every move.

use houserules_session::{CreateRequest, Input, Session};
use serde_json::{json, Value};

/// splitmix64, for the random move choices.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn play_both_ways(name: &str, request: CreateRequest, seed: u64, plies: usize) -> usize {
    let mut s = Session::create(request).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let mut rng = seed;
    let mut quiet_moves = 0;
    for ply in 0..plies {
        while s.pending_choice().is_some() {
            s.timeout_choice().unwrap();
        }
        if s.is_over() {
            break;
        }
        let moves = s.legal_moves_uci();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(next(&mut rng) % moves.len() as u64) as usize].clone();
        let quiet_before =
            s.runtime().state().modifiers.is_empty() && s.runtime().state().markers.is_empty();
        let mut full = s.clone();
        full.dispatch_every_move();
        full.submit(Input::Move { mv: mv.clone() }).unwrap();
        s.submit(Input::Move { mv: mv.clone() }).unwrap();
        assert_eq!(
            s.snapshot(),
            full.snapshot(),
            "{name} seed {seed}: ply {ply} {mv}"
        );
        assert_eq!(s.status(), full.status(), "{name}: ply {ply} {mv}");
        assert_eq!(s.game().fen(), full.game().fen());
        quiet_moves += usize::from(quiet_before);
    }
    quiet_moves
}

fn request(game: Option<&str>, presets: &[&str], modifiers: &[&str]) -> CreateRequest {
    CreateRequest {
        game: game.map(str::to_string),
        presets: presets.iter().map(|p| p.to_string()).collect(),
        modifiers: modifiers.iter().map(|m| json!(m)).collect::<Vec<Value>>(),
        ..CreateRequest::default()
    }
}

#[test]
fn quiet_moves_leave_the_state_the_dispatch_leaves() {
    // (name, game, presets, modifiers)
    type Case<'a> = (&'a str, Option<&'a str>, &'a [&'a str], &'a [&'a str]);
    let cases: &[Case] = &[
        ("chess", None, &[], &[]),
        ("piece-hp", None, &["piece-hp"], &[]),
        ("capture-to-win", None, &["capture-to-win"], &[]),
        ("double-move", None, &["double-move"], &[]),
        ("suicide-chess", None, &["suicide-chess"], &[]),
        ("extinction-chess", None, &["extinction-chess"], &[]),
        ("knightmate-rules", None, &["knightmate-rules"], &[]),
        ("gardner", Some("gardner"), &[], &[]),
        ("capablanca", Some("capablanca"), &[], &[]),
        // One ply of mind_control, then nothing attached: from dispatch
        // to the quiet path, with converted pieces.
        ("mind_control", None, &[], &["mind_control"]),
    ];
    let mut quiet = 0;
    for (name, game, presets, modifiers) in cases {
        for seed in 1..=3 {
            quiet += play_both_ways(name, request(*game, presets, modifiers), seed, 120);
        }
    }
    // Attributes left behind: a one-ply rule gives every piece an
    // attribute, then detaches; captured pieces' attributes must go.
    let marks = json!({
        "descriptor": {
            "version": 1, "id": "marked", "name": "Marked",
            "triggers": [{ "kind": "on-rule-activated", "effects": [{
                "kind": "for-each",
                "params": { "over": { "pieces": {} }, "bind": "p", "do": [
                    { "kind": "set-piece-attr",
                      "params": { "target": "$bind.p", "attr": "Marked", "value": 1 } }
                ] }
            }] }]
        },
        "lifetime": 1
    });
    for seed in 1..=6 {
        let req = CreateRequest {
            modifiers: vec![marks.clone()],
            ..CreateRequest::default()
        };
        quiet += play_both_ways("attributes", req, seed, 150);
    }
    assert!(quiet > 1000, "the quiet path ran {quiet} times");
}
