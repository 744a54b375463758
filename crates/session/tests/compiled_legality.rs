//! Differential test of dry-mode legality: the restrictions compiled to
//! bitboards (runtime/compiled.rs) against the descriptor interpreter
//! (runtime/legal.rs), two independent readings of modifier-rulings A10,
//! C2–C4 and 2.1 § MoveFilter. Sessions with library modifiers and with
//! hand-made restrictions are played at random (seeded), and at every
//! input both must list the same legal moves.

mod common;

use houserules_engine::Move;
use houserules_modifiers::{library, Mulberry32};
use houserules_session::{CreateRequest, Session};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Start positions: the initial one, Kiwipete and the other perft
/// positions of the Chess Programming Wiki (checks, pins, en passant,
/// castling, promotion), one with an en passant capture available, and two
/// where one castling wing crosses an attacked square (the compiled path
/// judges castling only for the moves the rules keep).
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/pppq1ppp/8/8/2b5/8/PPPQ1PPP/R3K2R w KQkq - 0 1",
    "r3k2r/ppp2ppp/8/8/8/8/1n3PPP/R3K2R w KQkq - 0 1",
];

/// Restrictions written for this test, covering the filter keys the
/// compiler reads (the library uses only some of them).
fn custom() -> Vec<Value> {
    let p = |kind: &str, params: Value| (kind.to_string(), params);
    let v = vec![
        p(
            "forbid-move",
            json!({"side": "white", "piece": {"type": ["knight", "queen"]}}),
        ),
        p(
            "forbid-move",
            json!({"side": "black", "from": {"rank": ["7", 2]}}),
        ),
        p(
            "forbid-move",
            json!({"piece": {"color": "black", "royal": false, "exclude": ["a7", "h7"]}}),
        ),
        p(
            "forbid-move",
            json!({"piece": {"royal": true}, "when": {"eq": ["$var.v", 1]}}),
        ),
        p(
            "forbid-move",
            json!({"to": {"squares": ["d4", "e4", "d5", "e5"]}, "capture": false}),
        ),
        p(
            "forbid-move",
            json!({"target": {"type": "pawn"}, "piece": {"type": ["queen", "rook"]}}),
        ),
        p("forbid-move", json!({"crossesFile": ["d", 4]})),
        p(
            "forbid-move",
            json!({"progress": ["backward"], "piece": {"notType": ["king"]}}),
        ),
        p("forbid-move", json!({"castling": true})),
        p(
            "forbid-move",
            json!({"from": {"relRank": {"n": 2, "of": "turn"}}}),
        ),
        p(
            "forbid-move",
            json!({"from": {"adjacentTo": {"of": ["e1", "e8"], "ring": 4}}}),
        ),
        p(
            "forbid-move",
            json!({"piece": {"onMarker": {"kind": "frozen-square"}}}),
        ),
        p(
            "forbid-move",
            json!({"from": {"empty": false, "file": "e"}}),
        ),
        p(
            "forbid-move",
            json!({"piece": {"sameFileAs": {"type": "king"}}}),
        ),
        p(
            "forbid-move",
            json!({"from": {"where": {"gt": [{"count": {"pieces": {"type": "queen"}}}, 1]}}}),
        ),
        p(
            "protect",
            json!({"pieces": {"royal": true}, "against": ["capture"]}),
        ),
        p(
            "protect",
            json!({"pieces": {"type": ["king", "queen"], "color": "white"}, "against": ["capture"]}),
        ),
        p(
            "protect",
            json!({"pieces": {"on": {"file": ["a", "b", "c", "d"]}}, "against": ["capture"]}),
        ),
        p(
            "protect",
            json!({"pieces": {"type": "king"}, "against": ["capture"], "when": {"eq": ["$var.v", 2]}}),
        ),
        p(
            "protect",
            json!({"pieces": {"type": "king"}, "against": ["kill"]}),
        ),
        p("must-move-if-able", json!({"piece": {"type": "pawn"}})),
        p(
            "must-move-if-able",
            json!({"to": {"rank": ["4", "5"]}, "capture": false}),
        ),
        p(
            "keep-farthest",
            json!({"pieces": {"type": ["rook", "bishop", "queen", "king"]}}),
        ),
        // Pawn moves come set-wise (several pieces per batch): keep-farthest
        // on pawns, a frozen origin among them, a per-move test on them.
        p("keep-farthest", json!({"pieces": {"type": "pawn"}})),
        p("forbid-move", json!({"from": {"file": ["c", "f"]}})),
        p(
            "forbid-move",
            json!({"piece": {"type": "pawn"}, "crossesFile": ["e"]}),
        ),
        p(
            "must-move-if-able",
            json!({"piece": {"type": "pawn"}, "progress": ["forward"], "capture": true}),
        ),
    ];
    v.into_iter()
        .enumerate()
        .map(|(i, (kind, params))| {
            json!({
                "version": 1, "id": format!("t{i}"), "name": "T",
                "triggers": [{"kind": "on-rule-activated", "effects": [
                    {"kind": "set-var", "params": {"name": "v", "value": 1}},
                    {"kind": "spawn-marker", "params": {"kind": "frozen-square", "at": ["b1", "g8", "e2", "d7"], "lifetime": {"kind": "permanent"}}}
                ]}],
                "passive": [{"kind": kind, "params": params}],
            })
        })
        .collect()
}

/// Restriction-bearing library modifiers, and ones that add moves or
/// blocks (which must fall back to the interpreter and still agree).
const LIBRARY: &[&str] = &[
    "ice_physics",
    "bloodthirsty",
    "hobbit_slaughter",
    "ice_age",
    "frozen-column",
    "all_on_red",
    "coin-flip-restriction",
    "god_kings",
    "invulnerability_potion",
    "mind_control",
    "mr_freeze",
    "no-mans-land",
    "no_cowards",
    "severe_constipation",
    "proletariat",
    "minefield",
];

fn sorted(mut v: Vec<Move>) -> Vec<(u8, u8, Option<u8>, String)> {
    v.sort_by_key(|m| {
        (
            m.from,
            m.to,
            m.promotion.map(|k| k.0),
            format!("{:?}", m.kind),
        )
    });
    v.iter()
        .map(|m| {
            (
                m.from,
                m.to,
                m.promotion.map(|k| k.0),
                format!("{:?}", m.kind),
            )
        })
        .collect()
}

/// Plays `plies` random inputs and compares both legalities before each;
/// returns how many of the compared positions compiled.
fn run(mods: Vec<Value>, fen: &str, seed: u32, plies: usize) -> Option<usize> {
    let req = CreateRequest {
        fen: Some(fen.into()),
        modifiers: mods,
        seed: Some(json!(seed)),
        ..CreateRequest::default()
    };
    // None: two modifiers that may not be active together.
    let mut s = Session::create(req).ok()?;
    let mut pick = Mulberry32::new(seed ^ 0x5EED);
    let mut compiled = 0;
    for _ in 0..plies {
        let a = s.legal_moves();
        let b = s.legal_moves_interpreted();
        assert_eq!(
            sorted(a.clone()),
            sorted(b),
            "compiled vs interpreted legal moves at {}",
            s.game().fen()
        );
        compiled += usize::from(s.legality_compiles());
        if common::choice_without_options(&s) {
            break;
        }
        let Some(input) = common::random_input(&s, &mut pick) else {
            break;
        };
        s.submit(input).expect("listed inputs are accepted");
    }
    Some(compiled)
}

#[test]
fn the_five_benchmark_modifiers_compile_and_agree() {
    let five = [
        "ice_physics",
        "bloodthirsty",
        "hobbit_slaughter",
        "ice_age",
        "frozen-column",
    ];
    for (i, fen) in FENS.iter().enumerate() {
        let mods = five.iter().map(|m| json!(m)).collect();
        let n = run(mods, fen, i as u32, 40).expect("the five attach together");
        assert!(n > 0, "the five compile on {fen}");
    }
}

#[test]
fn every_library_modifier_agrees_alone() {
    for e in library::list() {
        for (i, fen) in FENS.iter().enumerate().take(3) {
            run(vec![json!(e.id)], fen, i as u32 * 7 + 1, 16).expect("a library modifier attaches");
        }
    }
}

#[test]
fn custom_restrictions_agree() {
    for (j, d) in custom().into_iter().enumerate() {
        for (i, fen) in FENS.iter().enumerate() {
            run(vec![d.clone()], fen, (i * 31 + j) as u32, 24).unwrap_or_else(|| {
                panic!(
                    "test restriction {j} attaches: {:?}",
                    Session::create(CreateRequest {
                        modifiers: vec![d.clone()],
                        ..CreateRequest::default()
                    })
                    .err()
                )
            });
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_restriction_sets_agree(
        lib in prop::collection::vec(0usize..LIBRARY.len(), 0..4),
        own in prop::collection::vec(0usize..64, 0..3),
        fen in 0usize..FENS.len(),
        seed in any::<u32>(),
    ) {
        let c = custom();
        let mut mods: Vec<Value> = Vec::new();
        for i in lib {
            let v = json!(LIBRARY[i]);
            if !mods.contains(&v) {
                mods.push(v);
            }
        }
        for i in own {
            let v = c[i % c.len()].clone();
            if !mods.iter().any(|m| m.get("id") == v.get("id")) {
                mods.push(v);
            }
        }
        run(mods, FENS[fen], seed, 20);
    }
}
