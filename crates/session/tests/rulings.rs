//! Rulings closed after the first runtime: C6 castling rights, P26
//! (short_stop keeps en passant), the repetition history across a restore,
//! A6 (no on-turn-start at creation) and a modifier parameter given twice.

mod common;

use common::{mv, session};
use houserules_session::{codes, CreateRequest, Session};
use serde_json::{json, Value};

fn castling_field(s: &Session) -> String {
    s.game().fen().split(' ').nth(2).unwrap().to_string()
}

/// Swaps the pieces on `a` and `b` twice at activation: away and back.
fn swap_away_and_back(a: &str, b: &str) -> Value {
    let swap = json!({"kind": "swap-pieces", "params": {"a": {"on": {"squares": [a]}}, "b": {"on": {"squares": [b]}}}});
    json!({"version": 1, "id": "away-and-back", "name": "Away and back",
           "triggers": [{"kind": "on-rule-activated", "effects": [swap.clone(), swap]}]})
}

#[test]
fn c6_rook_swapped_away_and_back_keeps_its_right_lost() {
    // modifier-rulings C6's test: White's h1 rook swapped away and back.
    let s = session(
        "r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1",
        vec![swap_away_and_back("h1", "g1")],
    );
    assert_eq!(
        s.game().fen().split(' ').next().unwrap(),
        "r3k2r/8/8/8/8/8/8/R3K1NR"
    );
    assert_eq!(castling_field(&s), "Qkq");
    assert!(!s.legal_moves_uci().contains(&"e1g1".to_string()));
}

#[test]
fn c6_king_moved_by_a_primitive_and_back_loses_both_rights() {
    let s = session(
        "r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1",
        vec![swap_away_and_back("e1", "d1")],
    );
    assert_eq!(
        s.game().fen().split(' ').next().unwrap(),
        "r3k2r/8/8/8/8/8/8/R2QK2R"
    );
    assert_eq!(
        castling_field(&s),
        "kq",
        "White's king left e1; Black keeps both"
    );
    let legal = s.legal_moves_uci();
    assert!(!legal.contains(&"e1g1".to_string()));
}

#[test]
fn c6_a_king_converted_in_place_loses_its_rights() {
    let conv = json!({"version": 1, "id": "conv", "name": "Conv", "triggers": [{"kind": "on-rule-activated", "effects": [
        {"kind": "convert-piece", "params": {"pieces": {"on": {"squares": ["e8"]}}, "type": "queen"}},
        {"kind": "convert-piece", "params": {"pieces": {"on": {"squares": ["e8"]}}, "type": "king"}}
    ]}]});
    let s = session("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", vec![conv]);
    assert_eq!(castling_field(&s), "KQ");
}

#[test]
fn p26_short_stop_keeps_an_en_passant_capture_given_by_the_position() {
    // RULINGS P26: "an en passant capture given by the position stays
    // legal"; the double step itself is gone.
    let s = session(
        "4k3/8/8/3pP3/8/8/4P3/4K3 w - d6 0 1",
        vec![json!("short_stop")],
    );
    let legal = s.legal_moves_uci();
    assert!(legal.contains(&"e5d6".to_string()), "{legal:?}");
    assert!(legal.contains(&"e2e3".to_string()));
    assert!(!legal.contains(&"e2e4".to_string()));
    let mut s = s;
    mv(&mut s, "e5d6");
    assert_eq!(
        s.game().fen().split(' ').next().unwrap(),
        "4k3/8/3P4/8/8/8/4P3/4K3"
    );
}

#[test]
fn threefold_repetition_counts_positions_before_a_restore() {
    // FIDE 9.2: the position after Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 is the
    // start position for the third time. The session is restored after
    // the sixth ply; the last two plies are played on the restored one.
    let mut s = Session::create(CreateRequest {
        modifiers: vec![json!("frozen-column:file=a")],
        ..CreateRequest::default()
    })
    .unwrap();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"] {
        mv(&mut s, m);
    }
    let snap = serde_json::from_str(&serde_json::to_string(&s.snapshot()).unwrap()).unwrap();
    let mut r = Session::restore(&snap).unwrap();
    for m in ["f3g1", "f6g8"] {
        mv(&mut s, m);
        mv(&mut r, m);
    }
    assert_eq!(s.game().repetitions(), 3);
    assert_eq!(
        r.game().repetitions(),
        3,
        "the restored session kept its history"
    );
    assert_eq!(r.state_hash(), s.state_hash());
    assert_eq!(r.to_json()["status"], s.to_json()["status"]);
}

#[test]
fn a6_on_turn_start_does_not_fire_at_creation() {
    // modifier-rulings A6: on-turn-start fires only in stage 12, never at
    // creation; White's first turn starts without it.
    let d = json!({"version": 1, "id": "count-starts", "name": "Count",
        "triggers": [{"kind": "on-turn-start", "params": {"color": "white"},
            "effects": [{"kind": "add-to-var", "params": {"name": "n", "delta": 1, "scope": "game"}}]}]});
    let mut s = session("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", vec![d]);
    assert_eq!(s.state().vars.get("n"), None);
    mv(&mut s, "e2e3");
    assert_eq!(s.state().vars.get("n"), None, "Black's turn starts");
    mv(&mut s, "e8e7");
    assert_eq!(
        s.state().vars.get("n"),
        Some(&json!(1)),
        "White's second turn"
    );
}

#[test]
fn a_modifier_parameter_given_twice_is_refused() {
    let e = Session::create(CreateRequest {
        modifiers: vec![json!("parry"), json!("frozen-column:file=e;file=d")],
        ..CreateRequest::default()
    })
    .unwrap_err();
    assert_eq!(e.code, codes::DUPLICATE_PARAMETER);
    assert!(e.message.starts_with("$.modifiers[1]: "), "{}", e.message);
    assert!(e.message.contains("`file`"), "{}", e.message);
    // Reserved keys too.
    let e = Session::create(CreateRequest {
        modifiers: vec![json!("parry:lifetime=3;lifetime=5")],
        ..CreateRequest::default()
    })
    .unwrap_err();
    assert_eq!(e.code, codes::DUPLICATE_PARAMETER);
}

#[test]
fn a_marker_respawned_under_the_entering_piece_is_not_entered_again() {
    // Found by runtime_fuzz: an entry hook that puts a new one-shot mine
    // under the piece made the entry loop for ever. The piece entered the
    // mine that was there (rulings D3); the new one waits for the next
    // piece.
    let d = json!({"version": 1, "id": "respawn", "name": "Respawn", "triggers": [
        {"kind": "on-rule-activated", "effects": [
            {"kind": "spawn-marker", "params": {"kind": "mine", "at": "e4", "lifetime": {"kind": "one-shot"}}}
        ]},
        {"kind": "on-piece-entered-marker", "params": {"kind": "mine"}, "effects": [
            {"kind": "add-to-var", "params": {"name": "hits", "delta": 1, "scope": "game"}},
            {"kind": "spawn-marker", "params": {"kind": "mine", "at": "$event.to", "lifetime": {"kind": "one-shot"}}}
        ]}
    ]});
    let mut s = session("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", vec![d]);
    mv(&mut s, "e2e4");
    assert_eq!(s.state().vars.get("hits"), Some(&json!(1)));
    let m = s.to_json()["markers"].clone();
    assert_eq!(m.as_array().unwrap().len(), 1);
    assert_eq!(m[0]["square"], "e4");
}
