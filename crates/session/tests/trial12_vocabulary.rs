//! Issue-12 trial (session 8), items 10 and 11 and the nits on counts and
//! lifetimes, as a session sees them: piece filters name the game's own
//! piece types, attaching judges parameter values against the game, and a
//! lifetime too large for the ply counter says so. Expected values are
//! derived by hand in the comments.

mod common;

use common::perft;
use houserules_session::{CreateRequest, Session};
use serde_json::{json, Value};

fn create(game: Option<&str>, modifiers: Vec<Value>) -> Result<Session, String> {
    Session::create(CreateRequest {
        game: game.map(str::to_string),
        modifiers,
        ..CreateRequest::default()
    })
    .map_err(|e| e.to_string())
}

fn frozen(ty: &str) -> Value {
    json!({
        "version": 1, "id": "frozen", "name": "Frozen", "description": "d",
        "passive": [{"kind": "forbid-move", "params": {"piece": {"type": [ty]}}}]
    })
}

#[test]
fn piece_filters_name_capablancas_archbishop() {
    // Capablanca's start (RNABQKBCNR): pawns 10 × 2 = 20; knights b1 (a3,
    // c3) and i1 (h3, j3) 4; archbishop c1 leaps to b3 and d3 (a2 and e2
    // hold pawns, its diagonals are blocked) 2; chancellor h1 to g3 and
    // i3 2: 28. Freezing the archbishop leaves 26, the chancellor 26 too.
    let s = create(Some("capablanca"), vec![frozen("archbishop")]).unwrap();
    assert_eq!(perft(&s, 1), 26);
    let s = create(Some("capablanca"), vec![frozen("chancellor")]).unwrap();
    assert_eq!(perft(&s, 1), 26);
}

#[test]
fn a_piece_type_the_game_lacks_is_refused_when_attached() {
    // FIDE chess has no archbishop; Capablanca has no wazir.
    let e = create(None, vec![frozen("archbishop")]).unwrap_err();
    assert!(
        e.contains("descriptor.piece-type") && e.contains("archbishop") && e.contains("king"),
        "{e}"
    );
    let e = create(Some("capablanca"), vec![frozen("wazir")]).unwrap_err();
    assert!(
        e.contains("descriptor.piece-type") && e.contains("chancellor"),
        "{e}"
    );
    // The FIDE names stay valid where the game lacks the type: Los Alamos
    // has no bishops, and its 6×6 start has 10 moves (6 pawn steps, no
    // double step, and 2 for each knight; Fairy-Stockfish losalamos).
    let s = create(Some("los-alamos"), vec![frozen("bishop")]).unwrap();
    assert_eq!(perft(&s, 1), 10);
}

#[test]
fn a_square_parameter_default_off_the_board_is_refused() {
    // The trial's psq.json on Gardner (5×5, files a–e): h8 is not on it.
    let psq = json!({"version":1,"id":"psq","name":"psq",
        "parameters":[{"name":"sq","type":"square","default":"h8"}],
        "passive":[{"kind":"forbid-move","params":{"to":{"squares":["$param.sq"]}}}]});
    let e = create(Some("gardner"), vec![psq]).unwrap_err();
    assert!(
        e.contains("descriptor.board-size") && e.contains("h8"),
        "{e}"
    );
}

#[test]
fn a_random_pick_count_parameter_of_zero_is_refused() {
    let pick = json!({
        "version": 1, "id": "rp", "name": "Rp", "description": "d",
        "parameters": [{"name": "n", "type": "integer", "default": 2}],
        "triggers": [{"kind": "on-rule-activated", "effects": [{"kind": "random-pick", "params": {
            "from": {"squares": {"empty": true}}, "count": "$param.n", "bind": "s",
            "then": [{"kind": "for-each", "params": {"over": "$bind.s", "bind": "q",
                "do": [{"kind": "spawn-marker", "params": {"kind": "mine", "at": "$bind.q",
                    "lifetime": {"kind": "permanent"}}}]}}]}}]}]
    });
    // n = 2 (the default) lays two mines.
    let s = create(None, vec![pick.clone()]).unwrap();
    assert_eq!(s.runtime().state().markers.len(), 2);
    for n in [0, -5] {
        let entry = json!({"descriptor": pick.clone(), "params": {"n": n}});
        let e = create(None, vec![entry]).unwrap_err();
        assert!(
            e.contains("$param.n") && e.contains("from 1 to 128"),
            "{n}: {e}"
        );
    }
}

#[test]
fn a_modifier_lifetime_too_large_says_so() {
    // The ply counter is a u32: 99999999999 plies do not fit.
    let e = create(None, vec![json!("kamikaze:lifetime=99999999999")]).unwrap_err();
    assert!(e.contains("too large") && e.contains("4294967295"), "{e}");
    let e = create(None, vec![json!("kamikaze:lifetime=0")]).unwrap_err();
    assert!(e.contains("≥ 1"), "{e}");
    assert!(create(None, vec![json!("kamikaze:lifetime=4294967295")]).is_ok());
}
