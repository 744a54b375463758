//! Games on boards of more than 64 squares (Capablanca 10×8, Grand 10×10)
//! through a session without modifiers, on the engine's `u128` positions
//! (with modifiers and draft mode: `big_board_modifiers.rs`). Expected
//! values come
//! from Fairy-Stockfish's perft (`../shared/data/variant-perft.tsv`) or
//! are derived by hand in comments.

use std::path::Path;

mod common;

use common::perft;
use houserules_session::{CreateRequest, Input, Session};
use serde_json::{json, Value};

fn create(game: &str, fen: Option<&str>) -> Session {
    Session::create(CreateRequest {
        game: Some(game.into()),
        fen: fen.map(str::to_string),
        ..CreateRequest::default()
    })
    .unwrap_or_else(|e| panic!("{game}: {e}"))
}

fn play(s: &mut Session, moves: &[&str]) {
    for m in moves {
        s.submit(Input::Move { mv: m.to_string() })
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

/// The Fairy-Stockfish rows of `variant-perft.tsv` for `game:<id>`: the
/// start FEN and the node counts by depth.
fn tsv(game: &str) -> (String, Vec<(u32, u64)>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/variant-perft.tsv");
    let table = std::fs::read_to_string(&path).expect("variant-perft.tsv");
    let key = format!("game:{game}");
    let rows: Vec<Vec<String>> = table
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_string).collect::<Vec<_>>())
        .filter(|f| f.len() >= 5 && f[0] == key)
        .collect();
    assert!(!rows.is_empty(), "no tsv rows for {key}");
    let fen = rows[0][2].clone();
    let counts = rows
        .iter()
        .map(|f| (f[3].parse().unwrap(), f[4].parse().unwrap()))
        .collect();
    (fen, counts)
}

fn nodes(counts: &[(u32, u64)], depth: u32) -> u64 {
    counts.iter().find(|c| c.0 == depth).expect("a row").1
}

#[test]
fn capablanca_start_matches_fairy_stockfish_perft() {
    let (fen, counts) = tsv("capablanca");
    let s = create("capablanca", None);
    // The session starts from the game's start position, the tsv's FEN.
    assert_eq!(s.to_json()["fen"], json!(fen));
    assert_eq!(s.legal_moves_uci().len() as u64, nodes(&counts, 1)); // 28
    assert_eq!(perft(&s, 2), nodes(&counts, 2)); // 784
    assert_eq!(perft(&s, 3), nodes(&counts, 3)); // 25228
}

#[test]
fn grand_start_matches_fairy_stockfish_perft() {
    let (fen, counts) = tsv("grand");
    let s = create("grand", None);
    assert_eq!(s.to_json()["fen"], json!(fen));
    assert_eq!(s.legal_moves_uci().len() as u64, nodes(&counts, 1)); // 65
    assert_eq!(perft(&s, 2), nodes(&counts, 2)); // 4225
}

#[test]
fn capablanca_moves_in_san_and_uci() {
    let mut s = create("capablanca", None);
    // White: R a1, N b1, A c1, B d1, Q e1, K f1, B g1, C h1, N i1, R j1.
    // 1. e4 (SAN; e2-e4). 1... Nc6 (SAN; b8-c6: the archbishop on c8
    // has no knight jump to c6, the knight on i8 none either). 2. h1i3
    // (UCI; the chancellor's knight jump). 2... Ci6 (SAN; h8-i6).
    play(&mut s, &["e4", "Nc6", "h1i3", "Ci6"]);
    let recorded: Vec<Value> = s
        .inputs()
        .iter()
        .map(|i| serde_json::to_value(i).unwrap())
        .collect();
    assert_eq!(
        recorded,
        vec![
            json!({"move": "e2e4"}),
            json!({"move": "b8c6"}),
            json!({"move": "h1i3"}),
            json!({"move": "h8i6"}),
        ]
    );
    let out = s.to_json();
    // Rank 8 loses b8 and h8; c6 and i6 gain n and c; e4 and i3 gain P
    // and C; e2 and h1 are empty. Castling untouched (king and rooks
    // home); 3 plies since the pawn move; move 3, White to move.
    assert_eq!(
        out["fen"],
        json!("r1abqkb1nr/pppppppppp/2n5c1/10/4P5/8C1/PPPP1PPPPP/RNABQKB1NR w KQkq - 3 3")
    );
    assert_eq!(out["plyCount"], json!(4));
    assert_eq!(out["status"], json!({"status": "ongoing"}));
    // 20 pieces a side; j1 is named on the 10-file board.
    let pieces = out["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 40);
    assert!(pieces
        .iter()
        .any(|p| p["square"] == "j1" && p["color"] == "white"));
    assert!(pieces.iter().any(|p| p["square"] == "i3"));
    // The log has the four moves, in UCI with the mover.
    let log: Vec<&Value> = out["log"].as_array().unwrap().iter().collect();
    assert_eq!(log.len(), 4);
    assert_eq!(log[2]["detail"], json!({"uci": "h1i3", "color": "white"}));
    // A move that is not legal is refused, the session unchanged.
    let e = s.submit(Input::Move { mv: "e4e6".into() }).unwrap_err();
    assert_eq!(e.code, "illegal-move");
    let e = s.submit(Input::Move { mv: "Qz9".into() }).unwrap_err();
    assert_eq!(e.code, "illegal-move");
    assert_eq!(s.state().ply_count, 4);
}

#[test]
fn grand_moves_on_ten_ranks() {
    let mut s = create("grand", None);
    // Grand pawns start on the third rank and may step two: e3-e5, e8-e6.
    // Ra2 (a1-a2; a2 is empty) and Ra9 (a10-a9; a9 is empty) by SAN.
    play(&mut s, &["e3e5", "e8e6", "Ra2", "Ra9"]);
    let recorded: Vec<Value> = s
        .inputs()
        .iter()
        .map(|i| serde_json::to_value(i).unwrap())
        .collect();
    assert_eq!(recorded[2], json!({"move": "a1a2"}));
    assert_eq!(recorded[3], json!({"move": "a10a9"}));
    // From r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R:
    // a10 and a1 empty, rooks on a9 and a2, pawns e8→e6 and e3→e5; two
    // rook moves since the last pawn move; move 3.
    assert_eq!(
        s.to_json()["fen"],
        json!("9r/rnbqkcabn1/pppp1ppppp/10/4p5/4P5/10/PPPP1PPPPP/RNBQKCABN1/9R w - - 2 3")
    );
    assert!(s.to_json()["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["square"] == "a9" && p["color"] == "black"));
}

#[test]
fn checkmate_and_stalemate_on_capablanca() {
    // Black king a8, White king a6, White rook j1. Rj8 checks along the
    // eighth rank; a7 and b7 are covered by the king on a6, b8 by the
    // rook: mate.
    let mut s = create("capablanca", Some("k9/10/K9/10/10/10/10/9R w - - 0 1"));
    play(&mut s, &["Rj8"]);
    assert_eq!(
        s.status(),
        json!({"status": "checkmate", "winner": "white"})
    );
    assert!(s.is_check() && s.is_over());
    assert!(s.legal_moves_uci().is_empty());
    let e = s.submit(Input::Move { mv: "a8b8".into() }).unwrap_err();
    assert_eq!(e.code, "game-over");
    // Black king a8, White king b6, White queen c1. Qc7: a7 and b7 on the
    // queen's rank (b7 also the king's), b8 on its diagonal; a8 itself is
    // not attacked (c7-b8 leaves the board after b8): stalemate.
    let mut s = create("capablanca", Some("k9/10/1K8/10/10/10/10/2Q7 w - - 0 1"));
    play(&mut s, &["c1c7"]);
    assert_eq!(s.status(), json!({"status": "stalemate"}));
    assert!(!s.is_check());
}

#[test]
fn repetitions_on_capablanca_claim_and_end_as_on_8x8() {
    let mut s = create("capablanca", None);
    // Knights out and back: the start position again after every 4 plies.
    let cycle = ["b1c3", "b8c6", "c3b1", "c6b8"];
    play(&mut s, &cycle);
    play(&mut s, &cycle);
    // The start position for the third time: threefold may be claimed
    // (FIDE 9.2), the game goes on.
    assert_eq!(
        s.game().claimable_draw().map(|c| c.name()),
        Some("threefold-repetition")
    );
    assert_eq!(s.status(), json!({"status": "ongoing"}));
    play(&mut s, &cycle);
    play(&mut s, &cycle);
    // The fifth time ends the game (FIDE 9.6.1).
    assert_eq!(s.status(), json!({"status": "fivefold-repetition"}));
    assert!(s.is_over());
}

#[test]
fn a_rebuild_from_request_and_inputs_equals_the_original() {
    let mut s = create("grand", None);
    play(&mut s, &["e3e5", "e8e6", "Ra2", "Ra9", "Nc4"]);
    let again = Session::replay(s.request().clone(), s.inputs()).unwrap();
    assert_eq!(again.to_json(), s.to_json());
    assert_eq!(again.state_hash(), s.state_hash());
    // A snapshot restores to the same document, piece ids included.
    let back = Session::restore(&s.snapshot()).unwrap();
    assert_eq!(back.to_json(), s.to_json());
    assert_eq!(back.snapshot(), s.snapshot());
}

#[test]
fn a_snapshot_from_elsewhere_keeps_its_piece_ids_on_a_big_board() {
    // A snapshot whose inputs do not replay to it (here: no inputs, but
    // the position after 1. e4) is read as it is: position, piece ids.
    let mut s = create("capablanca", None);
    play(&mut s, &["e4"]);
    let mut snap = s.snapshot();
    snap["inputs"] = json!([]);
    let back = Session::restore(&snap).unwrap();
    assert_eq!(back.to_json()["fen"], s.to_json()["fen"]);
    assert_eq!(back.to_json()["pieces"], s.to_json()["pieces"]);
}

#[test]
fn presets_that_compose_on_capablanca_play_through_the_session() {
    // Every preset the game accepts: the session's moves are the engine's
    // (no modifier can narrow them), the document is written after each
    // ply, and a rebuild from request and inputs gives the same document.
    let mut played = 0;
    for p in houserules_presets::registry::PRESETS {
        let req = CreateRequest {
            game: Some("capablanca".into()),
            presets: vec![p.id.to_string()],
            ..CreateRequest::default()
        };
        let Ok(mut s) = Session::create(req.clone()) else {
            continue; // refused naming a need the game lacks (game_field.rs)
        };
        played += 1;
        for ply in 0..6 {
            let engine: std::collections::BTreeSet<String> = s
                .game()
                .legal_moves()
                .iter()
                .map(|m| s.game().uci(*m))
                .collect();
            let ours: std::collections::BTreeSet<String> =
                s.legal_moves_uci().into_iter().collect();
            if s.is_over() {
                break;
            }
            assert_eq!(ours, engine, "{} at ply {ply}", p.id);
            let _ = s.to_json();
            // The middle move of the sorted list: varied, reproducible.
            let m = ours.iter().nth(ours.len() / 2).unwrap().clone();
            s.submit(Input::Move { mv: m }).unwrap();
        }
        let again = Session::replay(req, s.inputs()).unwrap();
        assert_eq!(again.to_json(), s.to_json(), "{}", p.id);
    }
    // 32 of the presets compose on Capablanca at the time of writing.
    assert!(played > 5, "only {played} presets composed on capablanca");
}
