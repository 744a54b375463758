//! The creation request's `game` field (issue 12): modifiers on games
//! other than FIDE chess, and the refusal of modifiers on boards the
//! modifier runtime cannot hold yet (more than 64 squares; such games play
//! without modifiers, tests/big_boards.rs).

use houserules_session::{CreateRequest, Session};
use serde_json::{json, Value};

fn create(game: &str, presets: &[&str], modifiers: Vec<Value>) -> Result<Session, String> {
    Session::create(CreateRequest {
        game: Some(game.into()),
        presets: presets.iter().map(|p| p.to_string()).collect(),
        modifiers,
        ..CreateRequest::default()
    })
    .map_err(|e| e.to_string())
}

#[test]
fn berolina_start_has_thirty_moves_through_the_session() {
    // Berolina pawns move one square diagonally forward, or two over an
    // empty diagonal square on their first move. From the start: the a-
    // and h-pawns have 2 moves each (b3/c4, g3/f4), the b- and g-pawns 3
    // (a3, c3, d4 / h3, f3, e4), the c- to f-pawns 4 each (16), the knights
    // 4: 2 + 2 + 3 + 3 + 16 + 4 = 30 (not FIDE chess's 20, so the game was
    // really used).
    let s = create("berolina", &[], vec![]).unwrap();
    assert_eq!(s.legal_moves_uci().len(), 30);
}

#[test]
fn a_modifier_on_berolina_freezes_its_file() {
    // `frozen-column` on file g: the pieces standing on g cannot move.
    // Those are Ng1 (Nf3, Nh3: 2 moves) and the g2 pawn (f3, h3, e4: 3
    // moves), so 30 - 5 = 25 moves remain. The h-pawn still moves onto g3
    // (only pieces standing in the file are frozen).
    let s = create("berolina", &[], vec![json!("frozen-column:file=g")]).unwrap();
    let moves = s.legal_moves_uci();
    assert_eq!(moves.len(), 25, "{moves:?}");
    assert!(moves.contains(&"h2g3".to_string()));
    assert!(!moves.iter().any(|m| m.starts_with('g')));
}

#[test]
fn a_yaml_game_text_is_a_game() {
    // The shipped Berolina definition given as text plays as the id does.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../definitions/games/berolina.yaml"
    ))
    .unwrap();
    let s = create(&text, &[], vec![]).unwrap();
    assert_eq!(s.legal_moves_uci().len(), 30);
}

#[test]
fn boards_over_64_squares_take_modifiers() {
    // The runtime's square sets hold 128 squares: Capablanca and Grand
    // take `minefield` (two mines on empty squares) as 8×8 does
    // (tests/big_board_modifiers.rs plays them).
    for game in ["capablanca", "grand"] {
        let s = create(game, &[], vec![json!("minefield")]).unwrap();
        assert_eq!(s.state().markers.len(), 2, "{game}");
    }
}

#[test]
fn unknown_game_and_bad_yaml_are_refused_at_the_field() {
    let e = create("no-such-game", &[], vec![]).unwrap_err();
    assert!(e.contains("$.game") && e.contains("no-such-game"), "{e}");
    let e = create("id: x\nboard: [", &[], vec![]).unwrap_err();
    assert!(e.contains("$.game"), "{e}");
}

#[test]
fn presets_compose_on_the_game() {
    // `piece-hp` on Berolina: the presets apply on the game, which keeps
    // its own pawns (30 moves from the start, as without the preset, since
    // no capture is possible on the first move).
    let s = create("berolina", &["piece-hp"], vec![]).unwrap();
    assert_eq!(s.legal_moves_uci().len(), 30);
    // A layout is for FIDE chess only.
    let e = Session::create(CreateRequest {
        game: Some("berolina".into()),
        layout: Some("chess960:0".into()),
        ..CreateRequest::default()
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("layout"), "{e}");
}
