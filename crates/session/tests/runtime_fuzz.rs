//! Random valid descriptors never hit an unexpected runtime error (issue 5):
//! descriptors assembled from valid pieces are validated, attached to a game
//! and played with random inputs; nothing panics, every listed move is
//! accepted, and the only runtime code that may appear in the log is
//! `runtime.cascade-depth-exceeded`.

mod common;

use houserules_modifiers::{validate_value, Mulberry32};
use houserules_session::{CreateRequest, Session};
use proptest::prelude::*;
use serde_json::{json, Value};

fn triggers() -> Vec<Value> {
    vec![
        json!({"kind": "on-turn-start", "params": {"color": "both"}}),
        json!({"kind": "on-turn-end", "params": {"color": "mover"}}),
        json!({"kind": "on-capture"}),
        json!({"kind": "on-captured"}),
        json!({"kind": "on-damaged"}),
        json!({"kind": "on-move", "params": {"subject": {"type": ["pawn", "knight"]}}}),
        json!({"kind": "on-promotion"}),
        json!({"kind": "on-check-received"}),
        json!({"kind": "on-check-delivered"}),
        json!({"kind": "on-moved-onto-square", "params": {"filter": {"rank": ["4", "5"]}}}),
        json!({"kind": "conditional", "params": {"if": {"gt": [{"count": {"pieces": {"color": "white"}}}, 3]}}}),
        json!({"kind": "on-rule-activated"}),
        json!({"kind": "on-rule-expire"}),
        json!({"kind": "on-piece-entered-marker", "params": {"kind": "mine"}}),
        json!({"kind": "on-marker-expire", "params": {"kind": "pit"}}),
        json!({"kind": "on-capture-attempt"}),
    ]
}

fn effects() -> Vec<Value> {
    vec![
        json!({"kind": "add-to-attribute", "params": {"attr": "Hp", "delta": -1}}),
        json!({"kind": "set-piece-attr", "params": {"attr": "Hp", "value": 3}}),
        json!({"kind": "set-var", "params": {"name": "v", "value": {"count": {"markers": {"kind": "mine"}}}}}),
        json!({"kind": "add-to-var", "params": {"name": "n", "delta": 1, "scope": "game"}}),
        json!({"kind": "spawn-marker", "params": {"kind": "mine", "at": "$event.to", "lifetime": {"kind": "one-shot"}}}),
        json!({"kind": "spawn-marker", "params": {"kind": "pit", "at": ["d4", "e5"], "lifetime": {"kind": "moves", "plies": 2}}}),
        json!({"kind": "spawn-marker", "params": {"kind": "blocked", "at": "c6", "lifetime": {"kind": "permanent"}}}),
        json!({"kind": "remove-marker", "params": {"markers": {"kind": "mine"}}}),
        json!({"kind": "move-marker", "params": {"markers": {"kind": "pit"}, "to": "$event.to"}}),
        json!({"kind": "spawn-piece", "params": {"type": "knight", "color": "mover", "at": "d5"}}),
        json!({"kind": "kill", "params": {"pieces": {"royal": false, "adjacentTo": {"of": "$event.to", "ring": 8}}}}),
        json!({"kind": "kill", "params": {"pieces": "$self"}}),
        json!({"kind": "remove-piece", "params": {"pieces": {"type": ["rook"], "color": "opponent"}}}),
        json!({"kind": "swap-pieces", "params": {"a": {"type": ["knight"]}, "b": {"type": ["bishop"]}}}),
        json!({"kind": "step-piece", "params": {"pieces": {"type": ["pawn"]}, "order": "advanced-first", "direction": "forward", "distance": 1, "onOccupied": "kill", "intoRoyal": "stop"}}),
        json!({"kind": "step-piece", "params": {"pieces": {"color": "chooser", "royal": false}, "direction": "east", "distance": "until-blocked"}}),
        json!({"kind": "convert-piece", "params": {"pieces": {"type": ["pawn"], "adjacentTo": {"of": "$self", "ring": 4}}, "color": "turn"}}),
        json!({"kind": "convert-piece", "params": {"pieces": "$event.piece", "type": "queen"}}),
        json!({"kind": "detach-modifier"}),
        json!({"kind": "with-probability", "params": {"p": 0.5, "then": [{"kind": "kill", "params": {"pieces": {"royal": false, "type": ["pawn"]}}}], "else": []}}),
        json!({"kind": "random-pick", "params": {"from": {"squares": {"empty": true, "hardBlocked": false}}, "count": 2, "bind": "s", "then": [
            {"kind": "for-each", "params": {"over": "$bind.s", "bind": "q", "do": [{"kind": "spawn-marker", "params": {"kind": "mine", "at": "$bind.q", "lifetime": {"kind": "one-shot"}}}]}}
        ]}}),
        json!({"kind": "request-choice", "params": {"kind": "piece", "forPlayer": "chooser", "filter": {"color": "opponent"}, "bind": "p", "then": [
            {"kind": "convert-piece", "params": {"pieces": "$bind.p", "color": "chooser"}}
        ]}}),
        json!({"kind": "request-choice", "params": {"kind": "square", "forPlayer": "opponent", "filter": {"empty": true}, "bind": "sq"}}),
        json!({"kind": "request-choice", "params": {"kind": "rps", "forPlayer": "both", "bind": "r", "then": [
            {"kind": "conditional", "params": {"if": {"eq": [{"rps-winner": "$bind.r"}, "white"]}, "then": [{"kind": "set-var", "params": {"name": "w", "value": true}}]}}
        ]}}),
        json!({"kind": "flip-coin", "params": {"forPlayer": "turn", "count": 2, "bind": "c"}}),
        json!({"kind": "conditional", "params": {"if": {"and": [{"in-check": "turn"}, {"gt": [{"legal-move-count": {"capture": true}}, 0]}]}, "then": [
            {"kind": "add-to-var", "params": {"name": "n", "delta": 1}}
        ]}}),
    ]
}

fn passives() -> Vec<Value> {
    vec![
        json!({"kind": "forbid-move", "params": {"from": {"hasMarker": {"kind": "pit"}}}}),
        json!({"kind": "forbid-move", "params": {"progress": ["backward"]}}),
        json!({"kind": "forbid-move", "params": {"side": "turn", "piece": {"notType": "king"}, "when": {"eq": ["$var.v", 1]}}}),
        json!({"kind": "protect", "params": {"pieces": {"type": ["queen"]}, "against": ["capture", "kill"]}}),
        json!({"kind": "protect", "params": {"pieces": {"royal": true}, "against": ["capture"]}}),
        json!({"kind": "must-move-if-able", "params": {"capture": true}}),
        json!({"kind": "keep-farthest", "params": {"pieces": {"type": ["rook", "queen"]}}}),
        json!({"kind": "add-aura", "params": {"radius": 1, "targetAttr": "Hp", "delta": 1, "source": {"royal": true}}}),
    ]
}

fn descriptor(parts: &[(usize, Vec<usize>)], passive: &[usize]) -> Value {
    let t = triggers();
    let e = effects();
    let p = passives();
    let mut trig = vec![
        json!({"kind": "on-rule-activated", "effects": [{"kind": "set-var", "params": {"name": "v", "value": 0}}]}),
    ];
    for (ti, es) in parts {
        let mut x = t[*ti % t.len()].clone();
        x["effects"] = Value::Array(es.iter().map(|i| e[*i % e.len()].clone()).collect());
        trig.push(x);
    }
    json!({
        "version": 1, "id": "fuzz", "name": "Fuzz",
        // Declares the vars read by the passive pieces.
        "triggers": trig,
        "passive": passive.iter().map(|i| p[*i % p.len()].clone()).collect::<Vec<_>>(),
    })
}

fn play(d: Value, seed: u32) {
    if let Err(f) = validate_value(&d) {
        // The same piece twice in one trigger binds a name twice.
        assert!(
            f.iter().all(|x| x.code == "descriptor.bindings.duplicate"),
            "the generator builds valid descriptors: {f:?}"
        );
        return;
    }
    let req = CreateRequest {
        modifiers: vec![d],
        seed: Some(json!(seed)),
        ..CreateRequest::default()
    };
    let mut s = Session::create(req).expect("a valid descriptor attaches");
    let mut pick = Mulberry32::new(seed ^ 0xABCD);
    for _ in 0..24 {
        let Some(input) = common::random_input(&s, &mut pick) else {
            break;
        };
        s.submit(input).expect("listed inputs are accepted");
    }
    for e in &s.state().log {
        if let Some(code) = e.detail.get("code") {
            assert_eq!(code, "runtime.cascade-depth-exceeded");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_valid_descriptors_run(
        parts in prop::collection::vec((0usize..32, prop::collection::vec(0usize..64, 1..4)), 1..5),
        passive in prop::collection::vec(0usize..16, 0..3),
        seed in any::<u32>(),
    ) {
        play(descriptor(&parts, &passive), seed);
    }
}
