//! `on-damaged` when a trigger's primitives (or a detach) take an aura's
//! `Hp` bonus away (rulings C8: "on-damaged is enqueued whenever `Hp`
//! decreases, whatever the cause; stage 2 handles damage done by the move
//! itself").
//!
//! Queueing follows modifier-dsl-decisions § Trigger Reentrance and rulings
//! E1: secondary triggers go to the deferred queue, drained only after the
//! current arm has completed ("one arm = one atomic dispatch frame"), with
//! generation + 1, and an arm of generation 9 is not run
//! (`runtime.cascade-depth-exceeded`). The spec is silent on a bonus lost
//! and regained inside one arm; the project reads auras as derived facts
//! compared at the frame's ends, so that is no damage (docs/modifiers.md).
//!
//! Most scenarios share one board, derived by hand: White K e1, R e2,
//! P d2; Black K a8, Black to move. The aura (`banner`) is emitted by white
//! rooks, radius 1 (Chebyshev), `Hp` +1, reaching pawns of the emitter's
//! colour whose emitter has no `Drained` = 1. d2 is at distance 1 from e2,
//! so its effective `Hp` is 0 (absent) + 1 = 1. Black plays a8b8, which
//! changes no distance to e2: stage 2 sees no loss, and the on-move arm of
//! the black king (stage 6, generation 1) is what acts.

mod common;

use common::{mv, session};
use houserules_session::Session;
use serde_json::{json, Value};

const BOARD: &str = "k7/8/8/8/8/8/3PR3/4K3 b - - 0 1";

fn descriptor(id: &str, passive: Value, triggers: Value) -> Value {
    json!({"version": 1, "id": id, "name": id, "passive": passive, "triggers": triggers})
}

/// The white rooks.
fn rooks() -> Value {
    json!({"type": ["rook"], "color": "white"})
}

/// The aura: white rooks give +1 `Hp` to their own pawns within 1, unless
/// the rook's `Drained` attribute is 1.
fn banner_aura() -> Value {
    json!({"kind": "add-aura", "params": {
        "source": {"type": ["rook"]}, "radius": 1, "targetAttr": "Hp", "delta": 1,
        "filter": {"color": "$self.color", "type": ["pawn"],
                   "where": {"ne": ["$self.attr.Drained", 1]}}}})
}

/// Records each on-damaged in game variables: how many, the event's piece,
/// `$self`'s square, the event's `from`/`to`, and `done` as the arm saw it
/// (only in a descriptor that sets `done`: the validator refuses a
/// variable read but never set).
fn recorder_with(read_done: bool) -> Value {
    let set = |name: &str, value: &str| json!({"kind": "set-var", "params": {"name": name, "value": value, "scope": "game"}});
    let mut effects = vec![
        json!({"kind": "add-to-var", "params": {"name": "damaged", "delta": 1, "scope": "game"}}),
        set("piece", "$event.piece"),
        set("self", "$self.square"),
        set("from", "$event.from"),
        set("to", "$event.to"),
    ];
    if read_done {
        effects.push(set("seenDone", "$var.done"));
    }
    json!({"kind": "on-damaged", "effects": effects})
}

fn recorder() -> Value {
    recorder_with(false)
}

/// When Black moves: `effects`, then `done` = 1 (to see that on-damaged
/// runs after the whole arm, not in the middle of it).
fn on_black_move(effects: Value) -> Value {
    let mut effects = effects.as_array().unwrap().clone();
    effects
        .push(json!({"kind": "set-var", "params": {"name": "done", "value": 1, "scope": "game"}}));
    json!({"kind": "on-move", "params": {"subject": {"color": "black"}}, "effects": effects})
}

/// The banner aura, the recorder, and `effects` when Black moves.
fn banner(effects: Value) -> Value {
    descriptor(
        "banner",
        json!([banner_aura()]),
        json!([on_black_move(effects), recorder_with(true)]),
    )
}

fn var(s: &Session, name: &str) -> Value {
    s.state().vars.get(name).cloned().unwrap_or(Value::Null)
}

fn piece_on(s: &Session, square: &str) -> Option<Value> {
    s.to_json()["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["square"] == square)
        .cloned()
}

fn hp(s: &Session, square: &str) -> Value {
    piece_on(s, square).unwrap_or_else(|| panic!("no piece on {square}"))["attrs"]["Hp"].clone()
}

/// The id the session gives the piece on `square` (identity only).
fn id_on(s: &Session, square: &str) -> Value {
    piece_on(s, square).unwrap()["id"].clone()
}

#[test]
fn a_trigger_killing_the_emitter_damages_the_covered_piece_once() {
    let mut s = session(
        BOARD,
        vec![banner(
            json!([{"kind": "kill", "params": {"pieces": rooks()}}]),
        )],
    );
    assert_eq!(hp(&s, "d2"), json!(1), "d2 is next to the rook on e2");
    let d2 = id_on(&s, "d2");
    mv(&mut s, "a8b8");
    // The rook is not royal and not protected: the kill removes it, and
    // d2's effective Hp goes from 1 to 0 (absent).
    assert!(piece_on(&s, "e2").is_none());
    assert_eq!(hp(&s, "d2"), Value::Null);
    assert_eq!(var(&s, "damaged"), json!(1), "once");
    // Stage 2's payload: the damaged piece (also $self) and the ply's
    // from/to.
    assert_eq!(
        var(&s, "piece"),
        json!({"id": d2, "type": "pawn", "color": "white", "square": "d2"})
    );
    assert_eq!(var(&s, "self"), json!("d2"));
    assert_eq!(var(&s, "from"), json!("a8"));
    assert_eq!(var(&s, "to"), json!("b8"));
    // Deferred: the killing arm ran to its end (done = 1) first.
    assert_eq!(var(&s, "seenDone"), json!(1));
}

#[test]
fn a_trigger_moving_the_emitter_away_damages_the_pieces_left_behind() {
    // A white pawn on d5 is added: 3 ranks from e2 (not covered), 1 from e4.
    let mut s = session(
        "k7/8/8/3P4/8/8/3PR3/4K3 b - - 0 1",
        vec![banner(json!([{"kind": "step-piece", "params": {
            "pieces": rooks(), "direction": "north", "distance": 2}}]))],
    );
    assert_eq!(hp(&s, "d5"), Value::Null);
    mv(&mut s, "a8b8");
    // e3 and e4 are empty: the rook stops on e4. d2 is now 2 ranks away
    // (loses 1), d5 is 1 away (gains 1: no damage).
    assert!(piece_on(&s, "e4").is_some());
    assert_eq!(hp(&s, "d2"), Value::Null);
    assert_eq!(hp(&s, "d5"), json!(1));
    assert_eq!(var(&s, "damaged"), json!(1));
    assert_eq!(var(&s, "self"), json!("d2"));
}

#[test]
fn a_bonus_lost_and_regained_inside_one_arm_is_no_damage() {
    // The rook steps e2→e4 and back e4→e2 in the same arm: at the arm's
    // ends d2's bonus is 1 both times (project decision: the arm is one
    // atomic frame and auras are read at its ends).
    let mut s = session(
        BOARD,
        vec![banner(json!([
            {"kind": "step-piece", "params": {"pieces": rooks(), "direction": "north", "distance": 2}},
            {"kind": "step-piece", "params": {"pieces": rooks(), "direction": "south", "distance": 2}}
        ]))],
    );
    mv(&mut s, "a8b8");
    assert!(piece_on(&s, "e2").is_some(), "the rook is back on e2");
    assert_eq!(hp(&s, "d2"), json!(1));
    assert_eq!(var(&s, "damaged"), Value::Null, "no on-damaged");
    assert_eq!(var(&s, "done"), json!(1), "the arm did run");
}

/// A choice between two primitives of the arm (a coin-flip prompt for the
/// mover; the answer does not matter).
fn ask() -> Value {
    json!({"kind": "request-choice", "params": {"kind": "coin-flip", "forPlayer": "mover", "bind": "c"}})
}

#[test]
fn an_arm_suspended_by_a_choice_damages_when_it_ends() {
    // The kill comes before the choice: the arm is not complete while the
    // choice is pending, so nothing from its queue runs (rulings B3: it
    // resumes at the choice's next sibling); once answered, the arm ends
    // (done = 1) and on-damaged runs once.
    let mut s = session(
        BOARD,
        vec![banner(
            json!([{"kind": "kill", "params": {"pieces": rooks()}}, ask()]),
        )],
    );
    mv(&mut s, "a8b8");
    assert!(s.pending_choice().is_some());
    assert_eq!(var(&s, "damaged"), Value::Null);
    // A session restored while the choice is pending continues the same.
    let mut r = Session::restore(&s.snapshot()).unwrap();
    for t in [&mut s, &mut r] {
        t.submit_choice(&json!("heads")).unwrap();
        assert_eq!(var(t, "damaged"), json!(1));
        assert_eq!(var(t, "self"), json!("d2"));
        assert_eq!(var(t, "seenDone"), json!(1));
    }
}

#[test]
fn a_bonus_lost_before_a_choice_and_regained_after_it_is_no_damage() {
    // The frame spans the suspension: the rook leaves, the choice waits,
    // the rook comes back; d2 has its bonus at both ends of the arm.
    let mut s = session(
        BOARD,
        vec![banner(json!([
            {"kind": "step-piece", "params": {"pieces": rooks(), "direction": "north", "distance": 2}},
            ask(),
            {"kind": "step-piece", "params": {"pieces": rooks(), "direction": "south", "distance": 2}}
        ]))],
    );
    mv(&mut s, "a8b8");
    assert_eq!(hp(&s, "d2"), Value::Null, "the rook is on e4 meanwhile");
    s.submit_choice(&json!("tails")).unwrap();
    assert_eq!(hp(&s, "d2"), json!(1));
    assert_eq!(var(&s, "damaged"), Value::Null);
    assert_eq!(var(&s, "done"), json!(1));
}

#[test]
fn a_trigger_converting_the_emitter_damages() {
    // The rook becomes a bishop: it is no longer a `source` of the aura.
    let mut s = session(
        BOARD,
        vec![banner(
            json!([{"kind": "convert-piece", "params": {"pieces": rooks(), "type": "bishop"}}]),
        )],
    );
    mv(&mut s, "a8b8");
    assert_eq!(piece_on(&s, "e2").unwrap()["type"], "bishop");
    assert_eq!(hp(&s, "d2"), Value::Null);
    assert_eq!(var(&s, "damaged"), json!(1));
    assert_eq!(var(&s, "self"), json!("d2"));
}

#[test]
fn a_trigger_setting_the_attribute_the_aura_reads_damages() {
    // Drained = 1 on the rook: the filter's `where` fails for d2.
    let mut s = session(
        BOARD,
        vec![banner(json!([{"kind": "set-piece-attr", "params": {
            "target": rooks(), "attr": "Drained", "value": 1}}]))],
    );
    mv(&mut s, "a8b8");
    assert_eq!(hp(&s, "d2"), Value::Null);
    assert_eq!(var(&s, "damaged"), json!(1));
    assert_eq!(var(&s, "self"), json!("d2"));
}

#[test]
fn detaching_the_modifier_that_grants_the_aura_damages() {
    // The banner detaches itself when Black moves; the recorder is another
    // modifier, which stays. detach-modifier queues the detach (its
    // on-rule-expire first); the detach takes the aura away.
    let banner = descriptor(
        "banner",
        json!([banner_aura()]),
        json!([on_black_move(
            json!([{"kind": "detach-modifier", "params": {}}])
        )]),
    );
    let watcher = descriptor("watcher", json!([]), json!([recorder()]));
    let mut s = session(BOARD, vec![banner, watcher]);
    assert_eq!(hp(&s, "d2"), json!(1));
    mv(&mut s, "a8b8");
    let active: Vec<String> = s
        .state()
        .modifiers
        .iter()
        .map(|m| m.descriptor.clone())
        .collect();
    assert_eq!(active, vec!["watcher".to_string()]);
    assert_eq!(hp(&s, "d2"), Value::Null);
    assert_eq!(var(&s, "damaged"), json!(1));
    assert_eq!(var(&s, "self"), json!("d2"));
}

#[test]
fn an_instant_modifier_with_an_aura_damages_when_it_expires_at_creation() {
    // An instant modifier attaches and detaches at once (rulings A6: at
    // creation, with no ply). The pieces its aura covered lose the bonus:
    // on-damaged fires with the piece only (no ply, so no from/to).
    let mut flash = descriptor("flash", json!([banner_aura()]), json!([]));
    flash["draft"] = json!({"weight": 1, "duration": "instant"});
    let watcher = descriptor("watcher", json!([]), json!([recorder()]));
    let s = session(BOARD, vec![watcher, flash]);
    assert_eq!(hp(&s, "d2"), Value::Null);
    assert_eq!(var(&s, "damaged"), json!(1));
    assert_eq!(var(&s, "self"), json!("d2"));
    assert_eq!(var(&s, "from"), Value::Null);
}

#[test]
fn an_emitter_killed_by_on_capture_attempt_damages_once_not_again_at_stage_2() {
    // Black Ng5xh3 (a knight leap, file +1, rank −2) takes the pawn on h3;
    // on-capture-attempt kills the rook first. d2 loses its bonus in that
    // arm; the move itself then changes nothing for d2 (0 before and after
    // it), so stage 2 adds nothing.
    let d = descriptor(
        "banner",
        json!([banner_aura()]),
        json!([
            {"kind": "on-capture-attempt", "effects": [{"kind": "kill", "params": {"pieces": rooks()}}]},
            recorder()
        ]),
    );
    let mut s = session("k7/8/8/6n1/8/7P/3PR3/4K3 b - - 0 1", vec![d]);
    mv(&mut s, "g5h3");
    assert_eq!(piece_on(&s, "h3").unwrap()["color"], "black");
    assert_eq!(hp(&s, "d2"), Value::Null);
    assert_eq!(var(&s, "damaged"), json!(1), "once");
    assert_eq!(var(&s, "from"), json!("g5"));
    assert_eq!(var(&s, "to"), json!("h3"));
}

#[test]
fn aura_damage_chains_stop_at_generation_eight() {
    // Nine white knights a3 b3 c3 d3 e3 f3 g3 h4 h5: each emits +1 Hp
    // (radius 1) to knights, and each is adjacent only to the one before
    // and the one after it in that list. on-damaged kills the damaged
    // knight. The king's move (on-move, generation 1) kills a3, so b3
    // loses a3's bonus: on-damaged(b3) is generation 2 and kills b3, and so
    // on: c3 3, d3 4, e3 5, f3 6, g3 7, h4 8. h4's death damages h5 at
    // generation 9, which is not run (rulings E1): h5 stands and the code
    // is logged. The game goes on (Black's pawn on a7 keeps K+N v K+P
    // from being a dead position).
    let d = descriptor(
        "chain",
        json!([{"kind": "add-aura", "params": {
            "source": {"type": ["knight"]}, "radius": 1, "targetAttr": "Hp", "delta": 1,
            "filter": {"type": ["knight"]}}}]),
        json!([
            {"kind": "on-move", "params": {"subject": {"type": ["king"]}}, "effects": [
                {"kind": "kill", "params": {"pieces": {"type": ["knight"], "on": {"squares": ["a3"]}}}}]},
            {"kind": "on-damaged", "effects": [{"kind": "kill", "params": {"pieces": "$self"}}]}
        ]),
    );
    let mut s = session("k7/p7/8/7N/7N/NNNNNNN1/8/4K3 w - - 0 1", vec![d]);
    mv(&mut s, "e1d1");
    let knights: Vec<String> = s.to_json()["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["type"] == "knight")
        .map(|p| p["square"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(knights, vec!["h5".to_string()]);
    assert!(s
        .state()
        .log
        .iter()
        .any(|e| e.detail["code"] == "runtime.cascade-depth-exceeded"));
    mv(&mut s, "a8b8");
}

#[test]
fn no_aura_on_hp_fires_nothing_and_keeps_the_frame_empty() {
    // The same kill with an aura on another attribute (HpBonus): no Hp
    // goes down, so no on-damaged, and no Hp frame is kept in the cursor.
    let mut aura = banner_aura();
    aura["params"]["targetAttr"] = json!("HpBonus");
    let d = descriptor(
        "banner",
        json!([aura]),
        json!([
            on_black_move(json!([{"kind": "kill", "params": {"pieces": rooks()}}])),
            recorder_with(true)
        ]),
    );
    let mut s = session(BOARD, vec![d]);
    assert_eq!(piece_on(&s, "d2").unwrap()["attrs"]["HpBonus"], json!(1));
    mv(&mut s, "a8b8");
    assert!(piece_on(&s, "e2").is_none());
    assert_eq!(var(&s, "damaged"), Value::Null);
    assert!(s.state().cursor.hp_frame.is_empty());
    assert!(!s.snapshot().to_string().contains("hpFrame"));
}

/// A primitive lowering the stored `Hp` (rulings C8) fires on-damaged with
/// the same event as a lost aura bonus: the damaged piece and, during a
/// move, the ply's `from`/`to`. Here Black's a8b8 makes the on-move arm
/// seed d2 with Hp 3 and take 1 away: one on-damaged, for d2, from a8 to
/// b8 (no aura is attached, so nothing else fires).
#[test]
fn a_primitive_lowering_stored_hp_gives_the_move_in_the_event() {
    let pawn = json!({"type": ["pawn"], "color": "white"});
    let mut s = session(
        BOARD,
        vec![descriptor(
            "wound",
            json!([]),
            json!([
                on_black_move(json!([
                    {"kind": "seed-attribute", "params": {"target": pawn, "attr": "Hp", "value": 3}},
                    {"kind": "add-to-attribute", "params": {"target": pawn, "attr": "Hp", "delta": -1}}
                ])),
                recorder_with(true)
            ]),
        )],
    );
    let d2 = id_on(&s, "d2");
    mv(&mut s, "a8b8");
    assert_eq!(hp(&s, "d2"), json!(2));
    assert_eq!(var(&s, "damaged"), json!(1));
    assert_eq!(
        var(&s, "piece"),
        json!({"id": d2, "type": "pawn", "color": "white", "square": "d2"})
    );
    assert_eq!(var(&s, "from"), json!("a8"));
    assert_eq!(var(&s, "to"), json!("b8"));
    assert_eq!(var(&s, "seenDone"), json!(1), "queued after the arm");
}

/// An absent `Hp` is 0 (docs/modifiers.md § Auras: the stored value, 0
/// when absent), so taking 1 from a piece that never had `Hp` lowers it
/// from 0 to -1: one on-damaged (rulings C8: whenever `Hp` goes down).
#[test]
fn lowering_an_absent_hp_is_damage() {
    let pawn = json!({"type": ["pawn"], "color": "white"});
    let mut s = session(
        BOARD,
        vec![descriptor(
            "scratch",
            json!([]),
            json!([
                on_black_move(json!([
                    {"kind": "add-to-attribute", "params": {"target": pawn, "attr": "Hp", "delta": -1}}
                ])),
                recorder_with(true)
            ]),
        )],
    );
    mv(&mut s, "a8b8");
    assert_eq!(hp(&s, "d2"), json!(-1));
    assert_eq!(var(&s, "damaged"), json!(1));
}
