//! Regression (new-user trial, session 3): a session whose presets had
//! decided the game reported `stalemate` or `checkmate`, because it read
//! "no legal moves" before asking the rules. The winners below are the
//! spec's (presets-and-triggers.md: the first capture wins; the first
//! promotion wins; in suicide-chess, as lichess Antichess, a side without
//! pieces wins; in extinction-chess a side that has lost every piece of the
//! target type loses), and the reasons are the presets' documented names.

use houserules_session::{CreateRequest, Input, Session};

fn status_after(presets: &[&str], fen: Option<&str>, moves: &[&str]) -> serde_json::Value {
    let mut s = Session::create(CreateRequest {
        presets: presets.iter().map(|p| p.to_string()).collect(),
        fen: fen.map(str::to_string),
        ..CreateRequest::default()
    })
    .expect("a valid request");
    for m in moves {
        s.submit(Input::Move { mv: m.to_string() })
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    assert!(s.is_over());
    s.status()
}

#[test]
fn capture_to_win_is_not_stalemate() {
    let st = status_after(&["capture-to-win"], None, &["e2e4", "d7d5", "e4d5"]);
    assert_eq!(st["status"], "first-capture");
    assert_eq!(st["winner"], "white");
}

#[test]
fn first_promotion_wins_is_not_checkmate() {
    let st = status_after(
        &["first-promotion-wins"],
        Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
        &["a7a8q"],
    );
    assert_eq!(st["status"], "first-promotion");
    assert_eq!(st["winner"], "white");
}

#[test]
fn suicide_chess_without_pieces_wins() {
    let st = status_after(
        &["suicide-chess"],
        Some("8/8/8/8/8/8/8/1r5R w - - 0 1"),
        &["h1b1"],
    );
    assert_eq!(st["status"], "no-pieces-left");
    assert_eq!(st["winner"], "black");
}

#[test]
fn extinction_of_the_target_loses() {
    let st = status_after(
        &["extinction-chess:target=knight"],
        Some("4k3/8/8/8/8/8/1n6/KR6 w - - 0 1"),
        &[],
    );
    assert_eq!(st["status"], "knights-extinct");
    assert_eq!(st["winner"], "black");
}
