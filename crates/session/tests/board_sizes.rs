//! Modifiers on boards other than 8×8 (issue 12, modifier-rulings E3):
//! squares numbered `rank * width + file` and named on the game's own
//! board, offsets clipped at its edges, relative ranks from each side of
//! it, and `descriptor.board-size` for a descriptor naming squares the
//! board lacks. Every expected value is derived by hand in a comment or
//! taken from Fairy-Stockfish's perft (`../shared/data/variant-perft.tsv`).

mod common;

use common::perft;
use houserules_session::{CreateRequest, Input, Session};
use serde_json::{json, Value};

fn create(game: &str, modifiers: Vec<Value>) -> Result<Session, String> {
    Session::create(CreateRequest {
        game: Some(game.into()),
        modifiers,
        ..CreateRequest::default()
    })
    .map_err(|e| e.to_string())
}

/// A passive restriction that matches nothing on Los Alamos (no bishops):
/// legality runs through the modifier interpreter, the tree is the game's.
fn no_bishop_moves() -> Value {
    json!({
        "version": 1,
        "id": "no-bishop-moves",
        "name": "No bishop moves",
        "description": "Bishops may not move.",
        "passive": [{"kind": "forbid-move", "params": {"piece": {"type": "bishop"}}}]
    })
}

#[test]
fn a_no_op_modifier_keeps_the_games_perft() {
    // Los Alamos 6×6: 10, 100, 1212 (Fairy-Stockfish, game:los-alamos).
    let s = create("los-alamos", vec![no_bishop_moves()]).unwrap();
    assert_eq!(perft(&s, 1), 10);
    assert_eq!(perft(&s, 2), 100);
    assert_eq!(perft(&s, 3), 1212);
}

#[test]
fn a_restriction_applies_on_a_small_board() {
    // Los Alamos starts with 6 pawn pushes (no double step) and 4 knight
    // moves (Nb1: a3, c3; Ne1: d3, f3). Without the knights: 6.
    let s = create("los-alamos", vec![json!("severe_constipation")]).unwrap();
    let moves = s.legal_moves_uci();
    assert_eq!(moves.len(), 6, "{moves:?}");
    // Gardner 5×5, the b-file frozen: Nb1 (a3, c3) and b2-b3 are gone
    // from its 7 first moves, 4 remain.
    let s = create("gardner", vec![json!("frozen-column:file=b")]).unwrap();
    let moves = s.legal_moves_uci();
    assert_eq!(moves.len(), 4, "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with('b')), "{moves:?}");
}

#[test]
fn a_marker_sits_on_the_named_square_of_the_board() {
    // f3 on 6×6 is square 2 * 6 + 5 = 17 (on 8×8, 17 would be b3).
    let mut s = create("los-alamos", vec![json!("simple-mine:square=f3")]).unwrap();
    let out = s.output();
    assert_eq!(out.markers.len(), 1);
    assert_eq!(out.markers[0].square, "f3");
    assert_eq!(s.state().markers[0].square, 17);
    // The knight from e1 lands on the mine and is killed (non-royal).
    s.submit(Input::Move { mv: "e1f3".into() }).unwrap();
    assert!(s.game().piece_at(17).is_none());
    assert!(s.game().piece_at(4).is_none());
    assert!(s.state().markers.is_empty());
}

#[test]
fn a_step_off_the_edge_is_clipped() {
    // `a_light_breeze` steps the pieces of file e, then file d, one file
    // east. On Gardner's 5×5 board file e is the last: its pieces (Ke1,
    // Pe2, pe4, ke5) have no square to the east and stay (not wrapped to
    // the next rank: e1 + 1 would be a2). Then file d: Qd1 and qd5 stop
    // before their kings (intoRoyal: stop), Pd2 lands on e2 and kills the
    // pawn there (onOccupied: kill), pd4 likewise on e4.
    // The library's descriptor says it is meant for 8×8 (`board`, so it is
    // refused on 5×5); the same rules without that field show the clipping.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../modifiers/library/a_light_breeze.json"
    );
    let mut breeze: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(breeze.as_object_mut().unwrap().remove("board").is_some());
    assert!(create("gardner", vec![json!("a_light_breeze")])
        .unwrap_err()
        .contains("descriptor.board-size"));
    let s = create("gardner", vec![breeze]).unwrap();
    let fen = s.game().fen();
    assert_eq!(
        fen.split(' ').next(),
        Some("rnbqk/ppp1p/5/PPP1P/RNBQK"),
        "{fen}"
    );
}

#[test]
fn descriptors_naming_squares_the_board_lacks_are_refused() {
    // Los Alamos has files a–f and ranks 1–6: h8 is not on it.
    let e = create("los-alamos", vec![json!("simple-mine:square=h8")]).unwrap_err();
    assert!(e.contains("descriptor.board-size"), "{e}");
    assert!(
        e.contains("los-alamos") && e.contains("6×6") && e.contains("h8"),
        "{e}"
    );
    // `ice_age` names the edge files a and h of 8×8 and says so (`board`).
    let e = create("los-alamos", vec![json!("ice_age")]).unwrap_err();
    assert!(
        e.contains("descriptor.board-size") && e.contains("8×8") && e.contains("6×6"),
        "{e}"
    );
    // On 8×8 both attach.
    assert!(create("chess", vec![json!("simple-mine:square=h8")]).is_ok());
    assert!(create("chess", vec![json!("ice_age")]).is_ok());
}
