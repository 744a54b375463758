//! The language additions of issue 25 § 4 built in session 15: repetition
//! that counts the rule state, `ifBlocked: "ignore"`, and a numeric `eq`.
//! Expected values are derived by hand in comments.

mod common;

use common::{mv, session};
use houserules_engine::Claim;
use houserules_session::Session;
use serde_json::{json, Value};

/// The knights' shuffle: after these four plies the start position is
/// back on the board (same pieces, White to move, same castling rights,
/// no en passant square).
const SHUFFLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn shuffle(s: &mut Session, times: usize) {
    for _ in 0..times {
        for m in SHUFFLE {
            mv(s, m);
        }
    }
}

/// A game counter raised by every move: the board repeats, the counter
/// never does.
fn counter() -> Value {
    json!({"version": 1, "id": "count-moves", "name": "Count moves",
        "triggers": [{"kind": "on-move", "effects": [
            {"kind": "add-to-var", "params": {"name": "n", "delta": 1, "scope": "game"}}]}]})
}

/// A game variable flipped between 0 and 1 by every move: after four
/// plies it is back to its value.
fn toggle() -> Value {
    json!({"version": 1, "id": "toggle", "name": "Toggle",
        "triggers": [
            {"kind": "on-rule-activated", "effects": [
                {"kind": "set-var", "params": {"name": "t", "value": 0, "scope": "game"}}]},
            {"kind": "on-move", "effects": [
                {"kind": "set-var", "params": {"name": "t", "value": {"sub": [1, "$var.t"]}, "scope": "game"}}]}]})
}

#[test]
fn a_board_that_repeats_with_a_counter_that_does_not_is_no_repetition() {
    // Without the counter, 8 plies of the shuffle show the start position
    // for the third time (plies 0, 4, 8): threefold repetition (FIDE
    // 9.2.2). With it, the counter reads 0, 4 and 8 there: three different
    // positions under the rules in force, each seen once.
    let mut plain = session(START, vec![]);
    shuffle(&mut plain, 2);
    assert_eq!(plain.repetitions(), 3);
    assert_eq!(plain.claimable_draw(), Some(Claim::ThreefoldRepetition));

    let mut s = session(START, vec![counter()]);
    shuffle(&mut s, 2);
    assert_eq!(s.to_json()["vars"]["n"], 8, "every move counted");
    assert_eq!(s.game().repetitions(), 3, "the board alone repeats");
    assert_eq!(s.repetitions(), 1);
    assert_eq!(s.claimable_draws(), Vec::<Claim>::new());
    // 16 plies: the board's fifth occurrence (plies 0, 4, 8, 12, 16)
    // would end a plain game (fivefold repetition, FIDE 9.6.1); the
    // counter (16) keeps this one going.
    shuffle(&mut s, 2);
    assert_eq!(s.game().repetitions(), 5);
    assert_eq!(s.repetitions(), 1);
    assert_eq!(s.status()["status"], "ongoing");
    let mut plain16 = session(START, vec![]);
    shuffle(&mut plain16, 4);
    assert_eq!(plain16.status()["status"], "fivefold-repetition");
}

#[test]
fn a_board_and_rule_state_that_both_repeat_is_a_repetition() {
    // The toggle reads 0 at plies 0, 4, 8, … (it flips on every move): the
    // start position and t = 0 together come back every four plies.
    let mut s = session(START, vec![toggle()]);
    // After 7 plies (Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1), announcing Ng8 would
    // make the start position with t = 0 appear for the third time
    // (FIDE 9.2.1).
    shuffle(&mut s, 1);
    for m in &SHUFFLE[..3] {
        mv(&mut s, m);
    }
    assert_eq!(s.to_json()["vars"]["t"], 1, "seven flips from 0");
    assert_eq!(s.claimable_draws(), Vec::<Claim>::new());
    let ng8 = s.resolve_move("f6g8").expect("legal").0;
    assert_eq!(
        s.claimable_draw_after(ng8).expect("legal"),
        vec![Claim::ThreefoldRepetition]
    );
    mv(&mut s, "f6g8");
    assert_eq!(s.to_json()["vars"]["t"], 0);
    assert_eq!(s.repetitions(), 3);
    assert_eq!(s.claimable_draw(), Some(Claim::ThreefoldRepetition));
    // Plies 12 and 16: the fourth and fifth occurrence end the game.
    shuffle(&mut s, 2);
    assert_eq!(s.repetitions(), 5);
    assert_eq!(s.status()["status"], "fivefold-repetition");
    assert!(s.is_over());
}

#[test]
fn announcing_a_move_claims_only_when_the_rule_state_repeats_too() {
    // The counter of `counter()` with the shuffle announced by the counter
    // modifier: announcing Ng8 after 7 plies claims nothing (n would be
    // 8, the start had 0 and ply 4 had 4), whereas without modifiers the
    // same announcement claims threefold repetition.
    let mut s = session(START, vec![counter()]);
    let mut plain = session(START, vec![]);
    for s in [&mut s, &mut plain] {
        shuffle(s, 1);
        for m in &SHUFFLE[..3] {
            mv(s, m);
        }
    }
    let ng8 = s.resolve_move("f6g8").expect("legal").0;
    assert_eq!(s.claimable_draw_after(ng8).expect("legal"), vec![]);
    assert_eq!(
        plain.claimable_draw_after(ng8).expect("legal"),
        vec![Claim::ThreefoldRepetition]
    );
}

#[test]
fn a_timed_marker_keeps_the_board_from_repeating_until_it_expires() {
    // A mine on h5 for 6 plies (spawned at ply 0: it expires when the ply
    // count reaches 6, rulings D). The shuffle brings the start board back
    // at plies 4, 8, 12 and 16. At ply 0 the mine has 6 plies left, at ply
    // 4 two: two different positions. From ply 8 on it is gone: plies 8,
    // 12 and 16 are one position, seen three times at ply 16 (threefold
    // repetition claimable), while the board alone is seen five times
    // (which would end a game without the rule).
    let mine = json!({"version": 1, "id": "timed-mine", "name": "Timed mine",
        "triggers": [{"kind": "on-rule-activated", "effects": [
            {"kind": "spawn-marker", "params": {"kind": "mine", "at": "h5",
                "lifetime": {"kind": "moves", "plies": 6}}}]}]});
    let mut s = session(START, vec![mine]);
    shuffle(&mut s, 1);
    assert_eq!(s.state().markers.len(), 1, "the mine stands at ply 4");
    assert_eq!(s.repetitions(), 1);
    shuffle(&mut s, 1);
    assert!(s.state().markers.is_empty(), "the mine expired at ply 6");
    assert_eq!(s.repetitions(), 1);
    shuffle(&mut s, 2);
    assert_eq!(s.game().repetitions(), 5);
    assert_eq!(s.repetitions(), 3);
    assert_eq!(s.claimable_draw(), Some(Claim::ThreefoldRepetition));
    assert_eq!(s.status()["status"], "ongoing");
}

/// A modifier that, when attached, puts a `blocked` marker (a hard
/// block) on each of `blocks` and then runs `effect`.
fn on_activation(blocks: &[&str], effect: Value) -> Value {
    let mut effects: Vec<Value> = blocks
        .iter()
        .map(|sq| {
            json!({"kind": "spawn-marker", "params": {"kind": "blocked", "at": sq,
                "lifetime": {"kind": "permanent"}}})
        })
        .collect();
    effects.push(effect);
    json!({"version": 1, "id": "relocate", "name": "Relocate",
        "triggers": [{"kind": "on-rule-activated", "effects": effects}]})
}

fn board(s: &Session) -> String {
    s.game().fen().split(' ').next().unwrap().to_string()
}

#[test]
fn move_piece_if_blocked_ignore_lands_on_a_hard_block() {
    // The knight on f1 is sent to f3, which a `blocked` marker holds.
    let send = |if_blocked: Option<&str>| {
        let mut params = json!({"piece": {"on": {"squares": ["f1"]}}, "to": "f3"});
        if let Some(b) = if_blocked {
            params["ifBlocked"] = json!(b);
        }
        on_activation(&["f3"], json!({"kind": "move-piece", "params": params}))
    };
    let fen = "4k3/8/8/8/8/8/8/4KN2 w - - 0 1";
    // `stay` (the default): nothing happens.
    assert_eq!(
        board(&session(fen, vec![send(None)])),
        "4k3/8/8/8/8/8/8/4KN2"
    );
    // `nearest-free`: the empty squares 1 from f3 are e3, g3, f2 and f4;
    // the tie goes to the one nearest f1: f2 (1 away; e3 and g3 are 2,
    // f4 is 3).
    assert_eq!(
        board(&session(fen, vec![send(Some("nearest-free"))])),
        "4k3/8/8/8/8/8/5N2/4K3"
    );
    // `ignore`: the hard block does not count; the knight stands on f3,
    // under the marker, and the move is logged.
    let s = session(fen, vec![send(Some("ignore"))]);
    assert_eq!(board(&s), "4k3/8/8/8/8/5N2/8/4K3");
    assert!(s.state().log.iter().any(|e| e.event == "moved"));
    assert!(
        s.state().markers.iter().any(|m| m.square == 21),
        "f3's marker stays"
    );
}

#[test]
fn move_piece_if_blocked_ignore_still_never_captures() {
    // f2 holds a black pawn: `ignore` ignores hard blocks only; a square
    // with a piece keeps the knight where it is, and nothing is logged.
    let m = on_activation(
        &[],
        json!({"kind": "move-piece", "params": {"piece": {"on": {"squares": ["f1"]}},
            "to": "f2", "ifBlocked": "ignore"}}),
    );
    let s = session("4k3/8/8/8/8/8/5p2/4KN2 w - - 0 1", vec![m]);
    assert_eq!(board(&s), "4k3/8/8/8/8/8/5p2/4KN2");
    assert!(!s.state().log.iter().any(|e| e.event == "moved"));
}

#[test]
fn step_piece_if_blocked_ignore_ends_on_a_hard_block() {
    // The rook on a1 steps north 1 onto a2, which is blocked.
    let step = |extra: Value| {
        let mut params = json!({"pieces": {"on": {"squares": ["a1"]}}, "direction": "north",
            "distance": 1});
        for (k, v) in extra.as_object().unwrap() {
            params[k] = v.clone();
        }
        on_activation(&["a2"], json!({"kind": "step-piece", "params": params}))
    };
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    // Default: the block stops the step.
    assert_eq!(
        board(&session(fen, vec![step(json!({}))])),
        "4k3/8/8/8/8/8/8/R3K3"
    );
    // ignoreHardBlocks passes over blocks but never ends on one: with one
    // step there is nowhere to end but a1.
    assert_eq!(
        board(&session(fen, vec![step(json!({"ignoreHardBlocks": true}))])),
        "4k3/8/8/8/8/8/8/R3K3"
    );
    // ifBlocked: ignore — the rook ends on a2.
    assert_eq!(
        board(&session(fen, vec![step(json!({"ifBlocked": "ignore"}))])),
        "4k3/8/8/8/8/8/R7/4K3"
    );
}

#[test]
fn step_piece_push_if_blocked_ignore_pushes_onto_a_hard_block() {
    // The rook on a1 steps north 1 into the pawn on a2, pushing it; a3 is
    // blocked. By default the line cannot move (the square beyond it is
    // hard-blocked), so nothing moves; with `ifBlocked: "ignore"` the pawn
    // goes to a3 and the rook to a2.
    let push = |ignore: bool| {
        let mut params = json!({"pieces": {"on": {"squares": ["a1"]}}, "direction": "north",
            "distance": 1, "onOccupied": "push"});
        if ignore {
            params["ifBlocked"] = json!("ignore");
        }
        on_activation(&["a3"], json!({"kind": "step-piece", "params": params}))
    };
    let fen = "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1";
    assert_eq!(
        board(&session(fen, vec![push(false)])),
        "4k3/8/8/8/8/8/P7/R3K3"
    );
    assert_eq!(
        board(&session(fen, vec![push(true)])),
        "4k3/8/8/8/8/P7/R7/4K3"
    );
}

#[test]
fn step_piece_refuses_nearest_free() {
    // `nearest-free` is a move-piece value; step-piece takes stop or
    // ignore.
    let m = on_activation(
        &[],
        json!({"kind": "step-piece", "params": {"pieces": {"on": {"squares": ["a1"]}},
            "direction": "north", "distance": 1, "ifBlocked": "nearest-free"}}),
    );
    let err = Session::create(houserules_session::CreateRequest {
        modifiers: vec![m],
        ..Default::default()
    })
    .expect_err("refused");
    assert!(err.message.contains("ifBlocked"), "{err}");
}

/// A modifier that sets the game variable `hit` to 1 after a move when
/// `cond` holds, and to 0 when it does not.
fn flag_if(cond: Value) -> Value {
    json!({"version": 1, "id": "flag", "name": "Flag",
        "triggers": [{"kind": "on-move", "effects": [
            {"kind": "add-to-var", "params": {"name": "n", "delta": 1, "scope": "game"}},
            {"kind": "conditional", "params": {"if": cond,
                "then": [{"kind": "set-var", "params": {"name": "hit", "value": 1, "scope": "game"}}],
                "else": [{"kind": "set-var", "params": {"name": "hit", "value": 0, "scope": "game"}}]}}]}]})
}

fn hit_after_e4(cond: Value) -> Value {
    let mut s = session(START, vec![flag_if(cond)]);
    mv(&mut s, "e2e4");
    s.to_json()["vars"]["hit"].clone()
}

#[test]
fn eq_compares_numbers_as_numbers() {
    // After one move the counter n is 1: it equals 1.0.
    assert_eq!(hit_after_e4(json!({"eq": ["$var.n", 1.0]})), 1);
    assert_eq!(hit_after_e4(json!({"ne": ["$var.n", 1.0]})), 0);
    // e4's `.rank` is the text "4", which reads as the number 4 (as `lt`
    // and `ge` read it): equal to 4 and to 4.0, not to 5.
    assert_eq!(hit_after_e4(json!({"eq": ["$event.to.rank", 4]})), 1);
    assert_eq!(hit_after_e4(json!({"eq": [4.0, "$event.to.rank"]})), 1);
    assert_eq!(hit_after_e4(json!({"eq": ["$event.to.rank", 5]})), 0);
    // Two texts stay texts: "4" is not "04".
    assert_eq!(hit_after_e4(json!({"eq": ["$event.to.rank", "04"]})), 0);
    assert_eq!(hit_after_e4(json!({"eq": ["$event.to.rank", "4"]})), 1);
    // Integers are compared exactly: 2^53 + 1 and 2^53 are the same f64
    // (9007199254740993 rounds to 9007199254740992) but different numbers.
    assert_eq!(
        hit_after_e4(json!({"eq": [9_007_199_254_740_993_u64, 9_007_199_254_740_992_u64]})),
        0
    );
    assert_eq!(
        hit_after_e4(json!({"eq": [9_007_199_254_740_993_u64, 9_007_199_254_740_993_u64]})),
        1
    );
}
