//! Regression tests for the session-8 trial (issue 12, /work/wt/trial12.md
//! items 1 and 2): a passive restriction must leave the game's own
//! legality in place. Each test is named after the bug it pins; each
//! expected value is Fairy-Stockfish's, the engine's count of the same rules
//! without the modifier (an honest reference: the no-op modifier forbids
//! nothing), or derived by hand in a comment.

mod common;

use common::perft;
use houserules_engine::MoveKind;
use houserules_session::{CreateRequest, Input, Session};
use serde_json::{json, Value};

/// The trial's noop.json: a passive `forbid-move` of moves from empty
/// squares, which forbids nothing (every move starts on its piece).
fn noop() -> Value {
    json!({"version": 1, "id": "noop", "name": "noop",
           "passive": [{"kind": "forbid-move", "params": {"from": {"empty": true}}}]})
}

/// The trial's noqe.json: no queen move to the e-file.
fn noqe() -> Value {
    json!({"version": 1, "id": "no-queen-e", "name": "No queen on the e-file",
           "passive": [{"kind": "forbid-move",
                        "params": {"piece": {"type": ["queen"]}, "to": {"file": "e"}}}]})
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// A session on `game` with `presets` from `fen` (the game's start when
/// `None`), the `modifiers` attached, after the `play` moves (UCI or SAN).
fn session(
    game: Option<&str>,
    presets: &[&str],
    fen: Option<&str>,
    modifiers: Vec<Value>,
    play: &[&str],
) -> Session {
    let mut s = Session::create(CreateRequest {
        game: game.map(str::to_string),
        presets: presets.iter().map(|p| p.to_string()).collect(),
        fen: fen.map(str::to_string),
        modifiers,
        ..CreateRequest::default()
    })
    .unwrap_or_else(|e| panic!("{game:?} {presets:?}: {e}"));
    for m in play {
        s.submit(Input::Move { mv: m.to_string() })
            .unwrap_or_else(|e| panic!("{game:?} {presets:?} {m}: {e}"));
    }
    s
}

/// The session's perft with the no-op modifier equals the engine's perft
/// of the same game and presets without it, on FIDE, Gardner (5×5) and
/// Grand (10×10, past 64 squares: the interpreter's path). Before the fix
/// the session dropped the presets' compulsory captures and instant wins
/// under any passive modifier (suicide Gardner d5: 59080 against 218).
#[test]
fn passive_restriction_modifier_keeps_compulsory_captures_and_instant_wins() {
    type Case<'a> = (
        Option<&'a str>,
        &'a [&'a str],
        Option<&'a str>,
        &'a [&'a str],
        u32,
    );
    let cases: &[Case] = &[
        (None, &["suicide-chess"], None, &["e2e4", "d7d5"], 3),
        (None, &["suicide-chess"], None, &["e2e4", "b7b5"], 3),
        (None, &["capture-to-win"], Some(KIWIPETE), &[], 2),
        (None, &["capture-to-win"], None, &["e2e4", "d7d5"], 3),
        (
            None,
            &["extinction-chess:target=queen"],
            Some("4k3/8/8/8/8/8/3q4/3QK3 w - - 0 1"),
            &[],
            2,
        ),
        (
            None,
            &["first-promotion-wins"],
            Some("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1"),
            &[],
            2,
        ),
        (None, &["capture-all"], None, &["e2e4", "d7d5"], 3),
        (None, &["pawn-diagonal-no-capture"], Some(KIWIPETE), &[], 2),
        (Some("gardner"), &["suicide-chess"], None, &[], 4),
        (Some("gardner"), &["capture-to-win"], None, &[], 4),
        (
            Some("gardner"),
            &["extinction-chess:target=queen"],
            None,
            &[],
            4,
        ),
        (Some("gardner"), &["first-promotion-wins"], None, &[], 4),
        (Some("grand"), &["capture-to-win"], None, &["e4", "f7"], 2),
        (Some("grand"), &["suicide-chess"], None, &["e4", "f7"], 2),
        (
            Some("grand"),
            &["extinction-chess:target=queen"],
            None,
            &["e4", "f7"],
            2,
        ),
    ];
    for &(game, presets, fen, play, depth) in cases {
        let plain = session(game, presets, fen, Vec::new(), play);
        let reference = plain.game().perft(depth, false);
        let with = session(game, presets, fen, vec![noop()], play);
        assert_eq!(
            perft(&with, depth),
            reference,
            "{game:?} {presets:?} {fen:?} {play:?} depth {depth}"
        );
    }
}

/// Fairy-Stockfish 14 (`go perft 5` on Gardner with antichess rules:
/// `[gardneranti:gardner] king = - / commoner = k / mustCapture = true /
/// stalemateValue = win / extinctionValue = win / extinctionPieceTypes = *`)
/// counts 218; with extinction of the queen (`[gardnerextq:gardner]
/// extinctionValue = loss / extinctionPieceTypes = q`) 51316. The trial
/// read 59080 and 52054 under noop.json.
#[test]
fn passive_restriction_modifier_matches_fairy_stockfish_on_gardner() {
    let s = session(Some("gardner"), &["suicide-chess"], None, vec![noop()], &[]);
    assert_eq!(perft(&s, 5), 218);
    let s = session(
        Some("gardner"),
        &["extinction-chess:target=queen"],
        None,
        vec![noop()],
        &[],
    );
    assert_eq!(perft(&s, 5), 51316);
}

/// Suicide chess after 1. e4 d5: by hand, White's only capture is exd5
/// (the e4 pawn takes d5; no other white piece reaches a black one), and
/// captures are compulsory, so it is the only legal move, and `Nf3` is
/// refused (the trial's play accepted it under noqe.json).
#[test]
fn passive_restriction_modifier_keeps_suicide_compulsory_capture() {
    for m in [noop(), noqe()] {
        let mut s = session(None, &["suicide-chess"], None, vec![m], &["e4", "d5"]);
        assert_eq!(s.legal_moves_uci(), vec!["e4d5".to_string()]);
        let r = s.submit(Input::Move { mv: "Nf3".into() });
        assert!(r.is_err(), "Nf3 accepted");
        s.submit(Input::Move { mv: "exd5".into() }).unwrap();
    }
}

/// capture-to-win after 1. e4 d5 2. exd5: White's capture has won, so
/// the game is over and no side has a move (the engine lists none); the
/// trial listed Black's 28 moves under noop.json.
#[test]
fn passive_restriction_modifier_has_no_moves_after_an_instant_win() {
    let s = session(
        None,
        &["capture-to-win"],
        None,
        vec![noop()],
        &["e4", "d5", "exd5"],
    );
    assert!(s.legal_moves().is_empty());
    assert_eq!(s.status()["status"], "first-capture");
    assert!(s.is_over());
}

/// capture-to-win with bloodthirsty (must capture if able) from Kiwipete:
/// White has captures (e.g. e5f7, d5e6), so every legal move is a capture,
/// and each capture wins at once, leaving no reply: depth 2 counts 0. The
/// trial read 62.
#[test]
fn bloodthirsty_capture_to_win_counts_no_replies() {
    let s = session(
        None,
        &["capture-to-win"],
        Some(KIWIPETE),
        vec![json!("bloodthirsty")],
        &[],
    );
    assert_eq!(perft(&s, 2), 0);
}

/// Trial item 2: under pawn-diagonal-no-capture (RULINGS P20) the
/// diagonal step onto the en passant square is the en passant capture
/// only. Kiwipete after 1. a4: b4a3 is listed once, as en passant (SAN
/// `bxa3`), and playing it removes the a4 pawn. Kiwipete depth 2 under the
/// preset is 2761 without a modifier (the trial's plain count; the session
/// read 2762 with noop.json).
#[test]
fn pawn_diagonal_no_capture_lists_en_passant_once_under_a_modifier() {
    let s = session(
        None,
        &["pawn-diagonal-no-capture"],
        Some(KIWIPETE),
        vec![noop()],
        &["a2a4"],
    );
    let to_a3: Vec<_> = s
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == 25 && m.to == 16)
        .collect();
    assert_eq!(to_a3.len(), 1, "{to_a3:?}");
    assert_eq!(to_a3[0].kind, MoveKind::EnPassant);
    assert_eq!(s.san(to_a3[0]), "bxa3");
    let mut c = s.clone();
    c.submit(Input::Move { mv: "b4a3".into() }).unwrap();
    assert!(c
        .game()
        .fen()
        .starts_with("r3k2r/p1ppqpb1/bn2pnp1/3PN3/4P3/p1N2Q1p/"));
    let s = session(
        None,
        &["pawn-diagonal-no-capture"],
        Some(KIWIPETE),
        vec![noop()],
        &[],
    );
    assert_eq!(perft(&s, 2), 2761);
}

/// The same on Capablanca (10×8, the interpreter's path): after 1. b4 h6
/// 2. b5 a5, b5a6 is listed once, as en passant, and the session's move
/// count equals the engine's for the preset alone.
#[test]
fn pawn_diagonal_no_capture_lists_en_passant_once_on_capablanca() {
    let play = ["b2b4", "h7h6", "b4b5", "a7a5"];
    let plain = session(
        Some("capablanca"),
        &["pawn-diagonal-no-capture"],
        None,
        Vec::new(),
        &play,
    );
    let s = session(
        Some("capablanca"),
        &["pawn-diagonal-no-capture"],
        None,
        vec![noop()],
        &play,
    );
    // b5 = rank 5 × 10 + file 1 = 41, a6 = 50.
    let to_a6: Vec<_> = s
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == 41 && m.to == 50)
        .collect();
    assert_eq!(to_a6.len(), 1, "{to_a6:?}");
    assert_eq!(to_a6[0].kind, MoveKind::EnPassant);
    assert_eq!(perft(&s, 2), plain.game().perft(2, false));
}

/// Trial item 3: the session's SAN is disambiguated among the moves the
/// rule set allows. With `pacman_style` (files wrap) on
/// `4k3/8/8/8/8/8/8/1R2K1R1 w`, by hand both rooks reach a1 (b1 directly,
/// g1 over h1 and the wrapped edge): `Rba1` and `Rga1`, each read back as
/// its own move. (The session's game now plays on the wrapped definition
/// while pacman_style is attached, so the engine's SAN agrees.)
#[test]
fn session_san_is_disambiguated_among_the_rule_sets_moves() {
    let s = session(
        None,
        &[],
        Some("4k3/8/8/8/8/8/8/1R2K1R1 w - - 0 1"),
        vec![json!("pacman_style")],
        &[],
    );
    let legal = s.legal_moves();
    let by_uci = |uci: &str| {
        let (m, _) = s.resolve_move(uci).unwrap();
        m
    };
    assert_eq!(s.san(by_uci("b1a1")), "Rba1");
    assert_eq!(s.san_among(by_uci("g1a1"), &legal), "Rga1");
    assert_eq!(s.resolve_move("Rba1").unwrap().0, by_uci("b1a1"));
    assert_eq!(s.resolve_move("Rga1").unwrap().0, by_uci("g1a1"));
    assert!(s.resolve_move("Ra1").is_err());
}
