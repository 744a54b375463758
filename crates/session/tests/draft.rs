//! Draft mode (RULINGS M4, modifier-rulings G2): before plies 3, 6, 9, …
//! the player to move picks one of three distinct cards from the library's
//! eligible cards; the game is reproducible from its inputs.

use houserules_modifiers::library;
use houserules_session::{CreateRequest, Input, Session};
use serde_json::json;

fn draft_game(seed: u32) -> Session {
    Session::create(CreateRequest {
        draft: true,
        seed: Some(json!(seed)),
        ..CreateRequest::default()
    })
    .unwrap()
}

fn mv(s: &mut Session, m: &str) {
    s.submit(Input::Move { mv: m.into() })
        .unwrap_or_else(|e| panic!("{m}: {e}"));
}

#[test]
fn draft_before_ply_three_for_white_then_six_for_black() {
    for seed in 0..20 {
        let mut s = draft_game(seed);
        assert!(s.pending_choice().is_none(), "no draft before ply 1");
        mv(&mut s, "e2e4");
        assert!(s.pending_choice().is_none());
        mv(&mut s, "e7e5");
        let pc = s.pending_choice().expect("a draft before ply 3").clone();
        assert_eq!(pc.kind, "card");
        assert_eq!(pc.for_player, "white");
        let opts: Vec<String> = pc.prompt["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert_eq!(opts.len(), 3);
        assert!(
            opts[0] != opts[1] && opts[1] != opts[2] && opts[0] != opts[2],
            "without replacement"
        );
        for o in &opts {
            let d = library::get(o).unwrap();
            assert!(
                d.draft.is_some(),
                "{o} is a card (templates are never dealt)"
            );
        }
        assert!(s.legal_moves_uci().is_empty(), "no move until the pick");
        s.submit_choice(&json!(opts[0])).unwrap();
        // Answer any target choices of the card with their first option.
        while s.pending_choice().is_some() {
            s.timeout_choice().unwrap();
        }
        let before = s.state().drafted.clone();
        assert_eq!(before, vec![2]);
        // Plies 3, 4, 5: the next draft is for Black, before ply 6.
        for _ in 0..3 {
            if s.is_over() || s.pending_choice().is_some() {
                break;
            }
            let m = s.legal_moves_uci()[0].clone();
            mv(&mut s, &m);
            while s.pending_choice().is_some() && s.pending_choice().unwrap().kind != "card" {
                s.timeout_choice().unwrap();
            }
        }
        if s.state().ply_count == 5 && !s.is_over() {
            let pc = s.pending_choice().expect("a draft before ply 6");
            assert_eq!(pc.kind, "card");
            assert_eq!(pc.for_player, s.game().turn().name());
        }
        let replay = Session::replay(
            CreateRequest {
                draft: true,
                seed: Some(json!(seed)),
                ..CreateRequest::default()
            },
            s.inputs(),
        )
        .unwrap();
        assert_eq!(replay.state_hash(), s.state_hash(), "seed {seed}");
    }
}

#[test]
fn a_picked_card_attaches_for_the_drafting_player_within_its_range() {
    let mut s = draft_game(3);
    mv(&mut s, "e2e4");
    mv(&mut s, "e7e5");
    let pc = s.pending_choice().unwrap().clone();
    let card = pc.prompt["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["duration"].is_array())
        .cloned();
    let Some(card) = card else { return };
    let id = card["id"].as_str().unwrap().to_string();
    s.submit_choice(&json!(id)).unwrap();
    while s.pending_choice().is_some() {
        s.timeout_choice().unwrap();
    }
    let inst = s
        .state()
        .modifiers
        .iter()
        .find(|m| m.descriptor == id)
        .expect("attached");
    assert_eq!(inst.chooser.name(), "white");
    let (lo, hi) = (
        card["duration"][0].as_u64().unwrap() as u32,
        card["duration"][1].as_u64().unwrap() as u32,
    );
    match inst.lifetime {
        houserules_session::Lifetime::Moves { expires_at_move } => {
            assert!(
                (2 + lo..=2 + hi).contains(&expires_at_move),
                "{expires_at_move} not in 2 + [{lo}, {hi}]"
            );
        }
        other => panic!("{other:?}"),
    }
}
