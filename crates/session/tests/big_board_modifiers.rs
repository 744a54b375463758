//! Modifiers and draft mode on boards of more than 64 squares (issue 12):
//! Capablanca 10×8 and Grand 10×10 run the descriptor interpreter on the
//! engine's `u128` positions, with squares, files and ranks named on the
//! game's own board (`j9` is square 8 × 10 + 9 = 89 on Grand). Expected
//! values come from Fairy-Stockfish's perft (`../shared/data/
//! variant-perft.tsv`, or `/usr/games/fairy-stockfish` as quoted) or are
//! derived by hand in comments.

mod common;

use common::perft;
use houserules_session::{CreateRequest, Input, Session};
use serde_json::{json, Value};

fn create(game: &str, fen: Option<&str>, modifiers: Vec<Value>) -> Result<Session, String> {
    Session::create(CreateRequest {
        game: Some(game.into()),
        fen: fen.map(str::to_string),
        modifiers,
        ..CreateRequest::default()
    })
    .map_err(|e| e.to_string())
}

fn play(s: &mut Session, moves: &[&str]) {
    for m in moves {
        s.submit(Input::Move { mv: m.to_string() })
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

/// The origin and destination names of a UCI move such as `j10j9`
/// (a letter and one or two digits each; a promotion letter is dropped).
fn squares(uci: &str) -> (&str, &str) {
    let end = |from: usize| {
        from + 1
            + uci[from + 1..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count()
    };
    let mid = end(0);
    (&uci[..mid], &uci[mid..end(mid)])
}

/// A passive restriction that matches no move (a move from j1 to j1 does
/// not exist): legality runs through the interpreter on the `u128`
/// position (pseudo-legal moves, rule-aware self-check), and the tree must
/// be the game's. It also names a square past h.
fn no_op() -> Value {
    json!({
        "version": 1,
        "id": "no-op",
        "name": "No-op",
        "description": "Forbids the move from j1 to j1, which no piece can make.",
        "passive": [{"kind": "forbid-move", "params": {"from": {"squares": ["j1"]}, "to": {"squares": ["j1"]}}}]
    })
}

#[test]
fn capablanca_with_a_no_op_modifier_keeps_fairy_stockfish_perft() {
    // game:capablanca in variant-perft.tsv (Fairy-Stockfish c19b5f6):
    // 28, 784, 25228 from the start.
    let s = create("capablanca", None, vec![no_op()]).unwrap();
    assert_eq!(s.state().modifiers.len(), 1);
    assert_eq!(perft(&s, 1), 28);
    assert_eq!(perft(&s, 2), 784);
    assert_eq!(perft(&s, 3), 25228);
    // A middle game with castling rights on both sides and pieces in
    // contact: `fairy-stockfish`, UCI_Variant capablanca, `position fen
    // … go perft 3` gives 45307.
    let fen = "r1abqkbcnr/pppp1ppppp/2n7/4p5/4P5/5N4/PPPP1PPPPP/RNABQKBC1R w KQkq - 2 3";
    let s = create("capablanca", Some(fen), vec![no_op()]).unwrap();
    assert_eq!(perft(&s, 3), 45307);
}

#[test]
fn grand_with_a_no_op_modifier_keeps_fairy_stockfish_perft() {
    // game:grand in variant-perft.tsv: 65, 4225 from the start.
    let s = create("grand", None, vec![no_op()]).unwrap();
    assert_eq!(perft(&s, 1), 65);
    assert_eq!(perft(&s, 2), 4225);
    // After 1. e5 f6 (pawns meet on the 5th and 6th ranks):
    // `fairy-stockfish`, UCI_Variant grand, `go perft 2` gives 5328.
    let fen = "r8r/1nbqkcabn1/ppppp1pppp/10/5p4/4P5/10/PPPP1PPPPP/1NBQKCABN1/R8R w - - 0 2";
    let s = create("grand", Some(fen), vec![no_op()]).unwrap();
    assert_eq!(perft(&s, 2), 5328);
}

#[test]
fn a_restriction_on_a_file_past_h_applies() {
    // Capablanca's 28 first moves (tsv): 20 pawn moves, Nb1 a3/c3, Ni1
    // h3/j3, the archbishop c1 b3/d3 and the chancellor h1 g3/i3 (knight
    // leaps). Freezing file j (`frozen-column`: no move from it) takes
    // j2-j3 and j2-j4 (the rook j1 has none): 26. Ni1-j3 moves *into*
    // the file and stays.
    let s = create("capablanca", None, vec![json!("frozen-column:file=j")]).unwrap();
    let moves = s.legal_moves_uci();
    assert_eq!(moves.len(), 26, "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with('j')), "{moves:?}");
    assert!(moves.contains(&"i1j3".to_string()), "{moves:?}");
    // One frozen-square marker per rank of file j: j1 … j8.
    let out = s.output();
    let squares: Vec<&str> = out.markers.iter().map(|m| m.square.as_str()).collect();
    assert_eq!(
        squares,
        ["j1", "j2", "j3", "j4", "j5", "j6", "j7", "j8"],
        "{squares:?}"
    );
}

#[test]
fn a_mine_past_square_63_kills_the_piece_that_lands_there() {
    // Grand (10×10): j9 is file 9, rank 8: square 8 × 10 + 9 = 89, past
    // what a 64-bit set holds. Black's rook j10 (square 99) steps onto it
    // and is killed (non-royal: simple-mine's catalogue entry); the mine
    // is used up.
    let mut s = create("grand", None, vec![json!("simple-mine:square=j9")]).unwrap();
    let out = s.output();
    assert_eq!(out.markers.len(), 1);
    assert_eq!(out.markers[0].square, "j9");
    assert_eq!(s.state().markers[0].square, 89);
    play(&mut s, &["e3e4", "j10j9"]);
    assert!(s.game().piece_at(89).is_none(), "{}", s.game().fen());
    assert!(s.game().piece_at(99).is_none(), "{}", s.game().fen());
    assert!(s.state().markers.is_empty());
    // Rank 10 was `r8r`; now only the a10 rook: `r9`.
    let fen = s.game().fen();
    assert_eq!(fen.split('/').next(), Some("r9"), "{fen}");
}

#[test]
fn minefield_on_grand_mines_empty_squares_of_the_whole_board() {
    // minefield: two mines on random empty squares (random-pick over
    // `{"empty": true, "hardBlocked": false}`), a piece that ends on one
    // is killed, royals survive. Grand's start has 60 empty squares
    // (b1–i1, a2, j2, ranks 4–7, a9, j9, b10–i10), 16 of them past
    // square 63 (g7–j7: 64–69, a9 = 80, j9 = 89, b10–i10: 91–98). Over
    // 20 seeds, two distinct
    // empty squares each time, and some mine past 63 (were the squares
    // held in 64 bits, none could be).
    let start = create("grand", None, vec![]).unwrap();
    let empty: Vec<u8> = (0..100u8)
        .filter(|&sq| start.game().piece_at(sq).is_none())
        .collect();
    assert_eq!(empty.len(), 60);
    let mut past_63 = false;
    let mut killed = false;
    for seed in 0..20u32 {
        let req = CreateRequest {
            game: Some("grand".into()),
            seed: Some(json!(seed)),
            modifiers: vec![json!("minefield")],
            ..CreateRequest::default()
        };
        let mut s = Session::create(req).unwrap();
        let mines: Vec<u8> = s.state().markers.iter().map(|m| m.square).collect();
        assert_eq!(mines.len(), 2, "seed {seed}");
        assert_ne!(mines[0], mines[1], "seed {seed}");
        assert!(
            mines.iter().all(|m| empty.contains(m)),
            "seed {seed}: {mines:?}"
        );
        past_63 |= mines.iter().any(|&m| m > 63);
        // A legal move of White onto a mine (not a king's): the mover is
        // killed and that mine is gone, the other stays.
        let g = s.runtime().geom();
        let onto = s.legal_moves_uci().into_iter().find(|m| {
            let (from, to) = squares(m);
            let (from, to) = (g.parse(from), g.parse(to));
            to.is_some_and(|t| mines.contains(&t))
                && from
                    .and_then(|f| s.game().piece_at(f))
                    .is_some_and(|p| !s.game().variant().definition().pieces[p.kind.index()].royal)
        });
        if let Some(m) = onto {
            let to = g.parse(squares(&m).1).unwrap();
            play(&mut s, &[&m]);
            assert!(s.game().piece_at(to).is_none(), "seed {seed} {m}");
            assert_eq!(s.state().markers.len(), 1, "seed {seed} {m}");
            killed = true;
        }
    }
    assert!(past_63, "no mine past square 63 in 20 seeds");
    assert!(killed, "no seed put a mine where White could step");
}

#[test]
fn draft_mode_plays_on_capablanca() {
    // Draft mode (RULINGS M4) offers three cards after every third ply
    // (ply count + 1 a multiple of 3): after two plies.
    let req: CreateRequest =
        serde_json::from_value(json!({"game": "capablanca", "draft": true, "seed": 7})).unwrap();
    let mut s = Session::create(req).unwrap();
    play(&mut s, &["e2e4", "e7e5"]);
    let pc = s.pending_choice().expect("a draft after two plies").clone();
    assert_eq!(pc.kind, "card");
    let options = pc.prompt["options"].as_array().unwrap().clone();
    assert_eq!(options.len(), 3, "{options:?}");
    s.submit(Input::Choice {
        choice: options[0].clone(),
        player: None,
        auto: None,
    })
    .unwrap();
    assert!(s.pending_choice().is_none() || s.pending_choice().unwrap().kind != "card");
    // The picked card is attached (or ran and detached at once); the log
    // records the attach, and the game goes on.
    let attached = s.state().log.iter().any(|e| e.event == "attach");
    assert!(attached, "{:?}", s.state().log);
    let again = Session::replay(s.request().clone(), s.inputs()).unwrap();
    assert_eq!(again.to_json(), s.to_json());
}

#[test]
fn snapshot_restore_and_replay_equal_the_original_on_grand_with_markers() {
    let req = CreateRequest {
        game: Some("grand".into()),
        seed: Some(json!(3)),
        modifiers: vec![json!("minefield"), json!("simple-mine:square=j9")],
        ..CreateRequest::default()
    };
    let mut s = Session::create(req).unwrap();
    assert_eq!(s.state().markers.len(), 3);
    play(&mut s, &["e3e5", "e8e6", "Ra2", "Ra9"]);
    let again = Session::replay(s.request().clone(), s.inputs()).unwrap();
    assert_eq!(again.to_json(), s.to_json());
    assert_eq!(again.state_hash(), s.state_hash());
    let back = Session::restore(&s.snapshot()).unwrap();
    assert_eq!(back.to_json(), s.to_json());
    assert_eq!(back.snapshot(), s.snapshot());
    // A snapshot whose inputs do not replay to it is read as it is:
    // position, piece ids and markers (squares past 63 included).
    let mut snap = s.snapshot();
    snap["inputs"] = json!([]);
    let back = Session::restore(&snap).unwrap();
    assert_eq!(back.to_json()["fen"], s.to_json()["fen"]);
    assert_eq!(back.to_json()["pieces"], s.to_json()["pieces"]);
    assert_eq!(back.state().markers, s.state().markers);
}

#[test]
fn descriptor_squares_use_the_boards_own_names() {
    // k1 is past Grand's ten files: not on the board.
    let e = create("grand", None, vec![json!("simple-mine:square=k1")]).unwrap_err();
    assert!(
        e.contains("descriptor.board-size") && e.contains("k1"),
        "{e}"
    );
    // j10 is on Grand, not on 8×8 chess.
    assert!(create("grand", None, vec![json!("simple-mine:square=j10")]).is_ok());
    let e = create("chess", None, vec![json!("simple-mine:square=j10")]).unwrap_err();
    assert!(
        e.contains("descriptor.board-size") && e.contains("8×8"),
        "{e}"
    );
    // p9 is on no board (16 × 9 = 144 squares, the engine holds 128).
    let e = create("grand", None, vec![json!("simple-mine:square=p9")]).unwrap_err();
    assert!(
        e.contains("request.bad-modifier") && e.contains("p9"),
        "{e}"
    );
    // A file past h as a parameter value: `frozen-column:file=j` is
    // refused on chess (files a–h) and taken on Capablanca (a–j).
    let e = create("chess", None, vec![json!("frozen-column:file=j")]).unwrap_err();
    assert!(e.contains("descriptor.board-size"), "{e}");
}

/// Library descriptors whose fixed names mean an 8×8 board (ice_age's
/// edge files a and h, summoning_ritual's corners) declare it with their
/// `board` field and are refused on other boards (issue 12), while
/// early_promotion counts from the far end and attaches anywhere.
#[test]
fn eight_by_eight_library_rules_are_refused_on_other_boards() {
    for id in [
        "ice_age",
        "summoning_ritual",
        "a_light_breeze",
        "short_stop",
    ] {
        let e = create("grand", None, vec![json!(id)]).expect_err(id);
        assert!(
            e.contains("descriptor.board-size") && e.contains("8×8") && e.contains("10×10"),
            "{id}: {e}"
        );
    }
    assert!(create("grand", None, vec![json!("early_promotion")]).is_ok());
    assert!(create("capablanca", None, vec![json!("cash_grab")]).is_ok());
}

/// A `random-pick` may take more than 64 squares on a board that has them
/// (issue 12: counts were capped at 64). On Grand with the two kings alone
/// (a10, j1) 98 squares are empty; a pick of 90 of them places 90 mines on
/// 90 distinct empty squares (90 ≤ 98 candidates, so exactly the count).
#[test]
fn a_random_pick_of_more_than_64_squares() {
    let d = json!({
        "version": 1, "id": "many-mines", "name": "Many mines", "description": "d",
        "triggers": [{"kind": "on-rule-activated", "effects": [{
            "kind": "random-pick",
            "params": {
                "from": {"squares": {"empty": true}}, "count": 90, "bind": "spots",
                "then": [{"kind": "for-each", "params": {
                    "over": "$bind.spots", "bind": "spot",
                    "do": [{"kind": "spawn-marker", "params": {
                        "kind": "mine", "at": "$bind.spot", "lifetime": {"kind": "permanent"}}}]
                }}]
            }
        }]}]
    });
    let s = create(
        "grand",
        Some("k9/10/10/10/10/10/10/10/10/9K w - - 0 1"),
        vec![d],
    )
    .expect("the kings-only Grand position takes the rule");
    let markers = &s.runtime().state().markers;
    assert_eq!(markers.len(), 90);
    let mut squares: Vec<u8> = markers.iter().map(|m| m.square).collect();
    squares.sort_unstable();
    squares.dedup();
    assert_eq!(squares.len(), 90, "distinct squares");
    assert!(
        squares.iter().all(|&sq| sq != 90 && sq != 9),
        "a10 (90) and j1 (9) hold the kings"
    );
}
