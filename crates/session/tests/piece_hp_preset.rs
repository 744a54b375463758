//! Modifiers under the `piece-hp` preset: its hit points are the pieces'
//! `Hp` fact ("the single source of truth for HP-related attribute
//! writes", presets-and-triggers § `piece-hp`), so modifiers read them as
//! `Hp`, their writes change them, and a drop fires `on-damaged`
//! (rulings C8; stage 2 for the move's own damage).
//!
//! Board: White K e1, R d1; Black K e8, P d5; White to move. Under
//! `piece-hp` the pawn starts with 2 hit points and the kings with 1
//! (RULINGS P6). Rd1xd5 deals 1 damage: the pawn keeps 1 hit point and is
//! pushed to the first empty square clockwise from north of d5, d6; the
//! rook stands on d5 (preset scenario 1).

mod common;

use common::mv;
use houserules_session::{CreateRequest, Session};
use serde_json::{json, Value};

const BOARD: &str = "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1";

fn session(modifiers: Vec<Value>) -> Session {
    Session::create(CreateRequest {
        fen: Some(BOARD.into()),
        presets: vec!["piece-hp".into()],
        modifiers,
        ..CreateRequest::default()
    })
    .expect("valid request")
}

/// Counts on-damaged (and on-capture) in game variables, and records the
/// damaged piece's square.
fn recorder(extra: Vec<Value>) -> Value {
    let mut triggers = vec![
        json!({"kind": "on-damaged", "effects": [
            {"kind": "add-to-var", "params": {"name": "damaged", "delta": 1, "scope": "game"}},
            {"kind": "set-var", "params": {"name": "where", "value": "$self.square", "scope": "game"}}
        ]}),
        json!({"kind": "on-capture", "effects": [
            {"kind": "add-to-var", "params": {"name": "caps", "delta": 1, "scope": "game"}}
        ]}),
    ];
    triggers.extend(extra);
    json!({"version": 1, "id": "rec", "name": "rec", "triggers": triggers})
}

fn var(s: &Session, name: &str) -> Value {
    s.state().vars.get(name).cloned().unwrap_or(Value::Null)
}

fn hp_on(s: &Session, square: &str) -> Value {
    s.to_json()["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .find(|p| p["square"] == square)
        .unwrap_or_else(|| panic!("no piece on {square}"))["attrs"]["Hp"]
        .clone()
}

#[test]
fn modifiers_read_the_preset_hit_points_as_hp() {
    let s = session(vec![recorder(vec![])]);
    assert_eq!(hp_on(&s, "d5"), json!(2), "a pawn starts with 2");
    assert_eq!(hp_on(&s, "e1"), json!(1), "a king starts with 1");
}

#[test]
fn damage_from_a_preset_capture_fires_on_damaged() {
    let mut s = session(vec![recorder(vec![])]);
    mv(&mut s, "d1d5");
    assert_eq!(hp_on(&s, "d6"), json!(1), "pushed to d6 with 1 left");
    assert_eq!(var(&s, "damaged"), json!(1), "stage 2 saw the damage");
    assert_eq!(var(&s, "where"), json!("d6"));
}

#[test]
fn a_modifier_writing_hp_changes_the_preset_hit_points() {
    // When White moves, the black pawn loses 1 Hp through the modifier:
    // 2 -> 1 (on-damaged), then on White's next move 1 -> 0, which kills
    // it as the preset retracts a piece at 0.
    let pawn = json!({"type": ["pawn"], "color": "black"});
    let hit = json!({"kind": "on-move", "params": {"subject": {"color": "white"}}, "effects": [
        {"kind": "add-to-attribute", "params": {"target": pawn, "attr": "Hp", "delta": -1}}
    ]});
    let mut s = session(vec![recorder(vec![hit])]);
    mv(&mut s, "e1f1");
    assert_eq!(hp_on(&s, "d5"), json!(1));
    assert_eq!(var(&s, "damaged"), json!(1));
    mv(&mut s, "e8f8");
    mv(&mut s, "f1e1");
    let gone = s.to_json()["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .all(|p| p["square"] != "d5");
    assert!(gone, "at 0 hit points the pawn is removed");
}

/// A capture that lowers the stored hit points and pushes the target out
/// of an `Hp` aura is two causes in one move: two on-damaged, as for the
/// two causes inside one arm (docs/modifiers.md § Auras). Board by hand:
/// White K a1, R e1; Black K f6, P e7. The black king gives its own pieces
/// +1 `Hp` within 1 (e7 is next to f6). Re1xe7 takes the pawn from 2 to 1
/// stored and pushes it north to e8, two ranks from f6: out of the aura.
#[test]
fn stored_and_aura_losses_in_one_move_fire_twice() {
    let aura = json!({"kind": "add-aura", "params": {
        "source": {"type": ["king"], "color": "black"}, "radius": 1,
        "targetAttr": "Hp", "delta": 1, "filter": {"color": "black"}}});
    let d = json!({"version": 1, "id": "rec", "name": "rec", "passive": [aura],
    "triggers": [{"kind": "on-damaged", "effects": [
        {"kind": "add-to-var", "params": {"name": "damaged", "delta": 1, "scope": "game"}}
    ]}]});
    let mut s = Session::create(CreateRequest {
        fen: Some("8/4p3/5k2/8/8/8/8/K3R3 w - - 0 1".into()),
        presets: vec!["piece-hp".into()],
        modifiers: vec![d],
        ..CreateRequest::default()
    })
    .expect("valid request");
    assert_eq!(hp_on(&s, "e7"), json!(3), "2 stored + 1 from the aura");
    mv(&mut s, "e1e7");
    assert_eq!(hp_on(&s, "e8"), json!(1), "1 stored, out of the aura");
    assert_eq!(var(&s, "damaged"), json!(2));
}
