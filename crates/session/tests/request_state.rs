//! The creation request's `state` field (issue 5 § CLI: "state"?: a full
//! JSON position state, `docs/state-format.md`): the session starts from
//! the state's position, presets and per-piece state.

use houserules_presets::StateDoc;
use houserules_session::{CreateRequest, Input, Session};

/// A `piece-hp` state: white rook a1, black pawn a5 with `hp` hit points.
fn hp_state(hp: u8) -> StateDoc {
    StateDoc::parse(&format!(
        r#"{{"format": "houserules-state/1", "rules": "piece-hp",
            "board": "4k3/8/8/p7/8/8/8/R3K3", "turn": "white", "castling": "-",
            "halfmove_clock": 0, "fullmove_number": 1,
            "pieces": [{{"square": "a5", "hp": {hp}}}]}}"#
    ))
    .expect("a valid state document")
}

fn after_capture(hp: u8) -> String {
    let mut s = Session::create(CreateRequest {
        state: Some(hp_state(hp)),
        ..CreateRequest::default()
    })
    .expect("the state is accepted");
    s.submit(Input::Move { mv: "a1a5".into() })
        .expect("the rook may capture");
    s.game().fen()
}

/// presets-and-triggers.md, Hit Points scenario 2: a pawn already at
/// hp = 1 is removed by the capture and the rook stands on its square. The
/// hit point comes from the request's state, so this fails if it is lost.
#[test]
fn state_hit_points_reach_the_session_scenario_2() {
    assert!(after_capture(1).starts_with("4k3/8/8/R7/8/8/8/4K3 b"));
}

/// Scenario 1: at hp = 2 (the default) the pawn survives and is pushed to
/// the first empty square clockwise from north (a6).
#[test]
fn state_default_hit_points_scenario_1() {
    assert!(after_capture(2).starts_with("4k3/8/p7/R7/8/8/8/4K3 b"));
}

/// The state carries position and presets; a request that also names a
/// FEN, a layout or presets is refused with the field's path.
#[test]
fn state_with_fen_or_presets_is_refused() {
    for req in [
        CreateRequest {
            state: Some(hp_state(2)),
            fen: Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()),
            ..CreateRequest::default()
        },
        CreateRequest {
            state: Some(hp_state(2)),
            presets: vec!["piece-hp".into()],
            ..CreateRequest::default()
        },
    ] {
        let e = Session::create(req).expect_err("refused");
        assert!(e.to_string().contains("$.state"), "{e}");
    }
}

/// A state the presets refuse (a king with 4 hit points; P6/P7 cap it at 3)
/// is refused at creation with the state's path.
#[test]
fn bad_state_is_refused() {
    let mut doc = hp_state(2);
    doc.pieces[0].square = "e8".into();
    doc.pieces[0].hp = Some(4);
    let e = Session::create(CreateRequest {
        state: Some(doc),
        ..CreateRequest::default()
    })
    .expect_err("refused");
    assert!(e.to_string().contains("$.state"), "{e}");
}
