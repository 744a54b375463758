//! Auras, effective attributes and capture flags (runtime::aura).
//!
//! The shapes come from presets-and-triggers.md § Trigger Primitives: the
//! King Row example (`add-aura {radius: 1, targetAttr: HpBonus, delta: 1}`
//! on reaching rank 8), stage 1 recomputing auras before stage 2 compares
//! HP with the pre-move snapshot (and rulings C8: stage 2 handles damage
//! done by the move itself), and the "re-arm" example of
//! `set-capture-flag {flag: 0}` at the end of White's turn. Check and
//! legality values are FIDE's, changed only where the rule says so.

mod common;

use common::{mv, session};
use houserules_session::{Input, Session};
use serde_json::{json, Value};

fn attr(s: &Session, square: &str, name: &str) -> Value {
    s.to_json()["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["square"] == square)
        .unwrap_or_else(|| panic!("no piece on {square}"))["attrs"][name]
        .clone()
}

fn descriptor(id: &str, passive: Value, triggers: Value) -> Value {
    json!({"version": 1, "id": id, "name": id, "passive": passive, "triggers": triggers})
}

/// presets-and-triggers.md's King Row, as a game-scoped trigger: the piece
/// that reaches rank 8 projects +1 HpBonus on the squares within 1.
fn king_row() -> Value {
    descriptor(
        "king-row",
        json!([]),
        json!([{"kind": "on-moved-onto-square",
                "params": {"filter": {"kind": "predicate", "rank": 7}},
                "effects": [{"kind": "add-aura", "params": {"radius": 1, "targetAttr": "HpBonus", "delta": 1}}]}]),
    )
}

#[test]
fn king_row_aura_reaches_the_neighbours_and_follows_its_emitter() {
    // White rook d1 goes to d8; black knights on c8 and e7 are next to d8,
    // the knight on a8 is not.
    let mut s = session("n1n5/4n3/8/8/8/8/7k/K2R4 w - - 0 1", vec![king_row()]);
    mv(&mut s, "d1d8");
    assert_eq!(attr(&s, "c8", "HpBonus"), json!(1));
    assert_eq!(attr(&s, "e7", "HpBonus"), json!(1));
    assert_eq!(attr(&s, "a8", "HpBonus"), Value::Null);
    // Stored attributes are unchanged: the bonus is derived.
    let j = s.to_json();
    let c8 = j["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["square"] == "c8")
        .unwrap()
        .clone();
    assert_eq!(c8["baseAttrs"], json!({}));
    // The emitter leaves: the aura goes with it (d6 is next to e7, not to
    // c8).
    mv(&mut s, "h2h3");
    mv(&mut s, "d8d6");
    assert_eq!(attr(&s, "c8", "HpBonus"), Value::Null);
    assert_eq!(attr(&s, "e7", "HpBonus"), json!(1));
    // The emitter is taken: its aura ends.
    mv(&mut s, "c8d6");
    assert_eq!(attr(&s, "e7", "HpBonus"), Value::Null);
    assert!(s.state().modifiers[0].auras.is_empty());
}

/// A passive aura: each king adds 1 Hp to its own pieces next to it.
fn guard() -> Value {
    descriptor(
        "royal-guard",
        json!([{"kind": "add-aura", "params": {
            "source": {"type": ["king"]}, "radius": 1, "targetAttr": "Hp", "delta": 1,
            "filter": {"color": "$self.color", "notType": ["king"]}}}]),
        json!([
            {"kind": "on-damaged", "effects": [
                {"kind": "spawn-marker", "params": {"kind": "treasure", "at": "$self", "lifetime": {"kind": "permanent"}}}
            ]},
            {"kind": "on-move", "effects": [
                {"kind": "conditional", "params": {"if": {"ge": ["$self.attr.Hp", 1]}, "then": [
                    {"kind": "set-var", "params": {"name": "guarded", "value": "$self.square", "scope": "game"}}
                ]}}
            ]}
        ]),
    )
}

#[test]
fn passive_aura_covers_allies_near_the_source_only() {
    let s = session("4k3/3pp3/8/8/8/8/3PP3/4K3 w - - 0 1", vec![guard()]);
    assert_eq!(attr(&s, "d2", "Hp"), json!(1));
    assert_eq!(attr(&s, "e2", "Hp"), json!(1));
    assert_eq!(attr(&s, "d7", "Hp"), json!(1));
    assert_eq!(
        attr(&s, "e1", "Hp"),
        Value::Null,
        "the filter leaves out kings"
    );
}

#[test]
fn conditions_read_effective_attributes() {
    let mut s = session("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", vec![guard()]);
    // d2d3 ends away from the king: `$self.attr.Hp` is null there.
    mv(&mut s, "d2d3");
    assert_eq!(s.state().vars.get("guarded"), None);
    mv(&mut s, "e8e7");
    mv(&mut s, "e1e2");
    mv(&mut s, "e7e6");
    // The king steps to e3, then d3d4 ends next to it.
    mv(&mut s, "e2e3");
    mv(&mut s, "e6f6");
    mv(&mut s, "d3d4");
    assert_eq!(
        s.state().vars.get("guarded"),
        Some(&json!("d4")),
        "d4 is next to the king on e3: effective Hp 1"
    );
}

#[test]
fn losing_an_aura_by_the_move_fires_on_damaged_at_stage_2() {
    // The king steps away from d2: d2's Hp goes from 1 to 0 by the move.
    let mut s = session("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", vec![guard()]);
    assert_eq!(attr(&s, "d2", "Hp"), json!(1));
    mv(&mut s, "e1f1");
    assert_eq!(attr(&s, "d2", "Hp"), Value::Null, "no stored Hp, no aura");
    let m = s.to_json()["markers"].clone();
    assert_eq!(m.as_array().unwrap().len(), 1, "{m}");
    assert_eq!(m[0]["square"], "d2");
    // Moving back does not damage anybody.
    mv(&mut s, "e8e7");
    mv(&mut s, "f1e1");
    assert_eq!(s.to_json()["markers"].as_array().unwrap().len(), 1);
}

/// A piece that captures is disarmed (capture flag 1).
fn disarm() -> Value {
    json!({"kind": "on-capture", "effects": [{"kind": "set-capture-flag", "params": {"flag": 1}}]})
}

#[test]
fn a_disarmed_piece_cannot_capture_and_gives_no_check() {
    let d = descriptor("one-capture", json!([]), json!([disarm()]));
    let mut s = session("k7/6p1/8/p6p/8/8/8/R3K3 w - - 0 1", vec![d]);
    mv(&mut s, "a1a5");
    // FIDE: the rook on a5 checks a8 along the file. Disarmed, it does not.
    assert!(!s.is_check());
    assert!(s.legal_moves_uci().contains(&"a8a7".to_string()));
    mv(&mut s, "g7g6");
    let legal = s.legal_moves_uci();
    assert!(!legal.contains(&"a5h5".to_string()), "no capture");
    assert!(legal.contains(&"a5b5".to_string()), "quiet moves stay");
    assert!(s.submit(Input::Move { mv: "a5h5".into() }).is_err());
}

#[test]
fn set_capture_flag_zero_at_whites_turn_end_re_arms() {
    // presets-and-triggers.md: "Re-arm flag at the end of white's own turn".
    let rearm = json!({"kind": "on-turn-end", "params": {"color": "white", "target": {"color": "white"}},
        "effects": [{"kind": "set-capture-flag", "params": {"flag": 0}}]});
    let d = descriptor("one-capture-per-turn", json!([]), json!([disarm(), rearm]));
    let mut s = session("k7/6p1/8/p6p/8/8/8/R3K3 w - - 0 1", vec![d]);
    mv(&mut s, "a1a5");
    assert!(
        s.is_check(),
        "re-armed at stage 11: the rook checks as in FIDE"
    );
    assert!(!s.legal_moves_uci().contains(&"a8a7".to_string()));
}
