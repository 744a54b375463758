//! The JSON state format (issue 4, RULINGS G5): round trips of whole
//! positions (ids, hit points, unmoved pawns, multi-move phase, locked
//! results, rule parameters), plain-FEN equivalence, the committed schema,
//! and a clear error with its JSON path for every kind of bad input.
//!
//! To refresh the committed schema after changing the format:
//! `HOUSERULES_BLESS=1 cargo test -p houserules-presets --test state`.

mod common;

use std::path::PathBuf;

use common::{game, sq, Rng};
use houserules_engine::{Game, Position};
use houserules_presets::rules::hit_points;
use houserules_presets::state::{self, StateDoc, StateError};
use houserules_presets::RuleSet;

fn pos(g: &Game) -> &Position<u64> {
    g.position::<u64>().unwrap()
}

/// Everything the format must carry, square by square.
fn same_position(a: &Game, b: &Game) {
    assert_eq!(a.fen(), b.fen());
    assert_eq!(a.hash(), b.hash(), "{}", a.fen());
    let (pa, pb) = (pos(a), pos(b));
    assert_eq!(pa.unmoved_squares(), pb.unmoved_squares());
    for s in 0..64u8 {
        assert_eq!(pa.piece_id(s), pb.piece_id(s), "id on {s}");
        assert_eq!(pa.piece_attribute(s), pb.piece_attribute(s), "hp on {s}");
    }
    for slot in 0..houserules_engine::RULE_SLOTS {
        assert_eq!(pa.rule_state(slot), pb.rule_state(slot), "slot {slot}");
    }
}

fn board_of(g: &Game) -> String {
    g.fen().split(' ').next().unwrap().to_string()
}

fn round_trip(rules: &str, g: &Game) -> Game {
    let rs = RuleSet::parse(rules).unwrap();
    let json = state::to_json(&rs, g).unwrap();
    let (rs2, back) = state::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(rs2, rs);
    same_position(g, &back);
    // Writing it again gives the same text.
    assert_eq!(state::to_json(&rs2, &back).unwrap(), json);
    back
}

fn err(json: &str) -> StateError {
    match state::from_json(json) {
        Ok(_) => panic!("accepted: {json}"),
        Err(e) => e,
    }
}

fn path_of(e: &StateError) -> String {
    match e {
        StateError::Json { path, .. } | StateError::Field { path, .. } => path.clone(),
        StateError::Rules(_) => "rules".into(),
        StateError::Unsupported => String::new(),
    }
}

const START: &str = r#"{"format": "houserules-state/1", "board": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "turn": "white", "castling": "KQkq"}"#;

#[test]
fn state_minimal_document_equals_plain_fen() {
    let (rs, g) = state::from_json(START).unwrap();
    assert!(rs.is_empty());
    let f = Game::chess();
    same_position(&g, &f);
}

/// Regression (new-user trial): `"en_passant": ""` was refused as "FEN en
/// passant field `0`": the empty field shifted the FEN's fields and the
/// half-move clock was read in its place. An empty en passant field is no
/// en passant square, FEN's `-`, so the document is the start position.
#[test]
fn state_empty_en_passant_is_no_square() {
    let json = START.replace('}', r#", "en_passant": "", "halfmove_clock": 0}"#);
    let (_, g) = state::from_json(&json).unwrap_or_else(|e| panic!("{e}"));
    same_position(&g, &Game::chess());
    assert_eq!(
        g.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn state_round_trip_fide_after_moves_keeps_ids() {
    let mut g = game("", None, None);
    for m in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"] {
        g.apply_uci(m).unwrap();
    }
    let back = round_trip("", &g);
    // The queen that captured on d5 keeps the id it had on d8.
    assert_eq!(back.piece_id(sq("d5")), Game::chess().piece_id(sq("d8")));
}

#[test]
fn state_round_trip_hit_points() {
    let mut g = game("piece-hp,king-heals,poisoned-squares", None, None);
    for m in ["e2e4", "d7d5", "e4d5", "d8d5", "d1g4", "c8g4"] {
        g.apply_uci(m).unwrap();
    }
    let rs = "piece-hp,king-heals,poisoned-squares";
    let back = round_trip(rs, &g);
    assert_eq!(
        hit_points(pos(&back), sq("e1")),
        Some(3),
        "healed on three turn ends"
    );
    let doc = StateDoc::from_game(&RuleSet::parse(rs).unwrap(), &g).unwrap();
    // e4 poisoned the white pawn (1 HP left), so exd5 took the black pawn
    // (poisoned on d5 too) and then died there; the queen on g4 survived
    // the bishop's capture with 1 HP, pushed N to g5.
    assert_eq!(
        board_of(&g),
        "rn2kbnr/ppp1pppp/8/6Q1/6b1/8/PPPP1PPP/RNB1KBNR"
    );
    let g5 = doc.pieces.iter().find(|p| p.square == "g5").unwrap();
    assert_eq!(g5.hp, Some(1));
    let d5 = doc.pieces.iter().find(|p| p.square == "d5");
    assert_eq!(d5, None);
}

#[test]
fn state_round_trip_half_move_within_a_double_move_turn() {
    let mut g = game("double-move", None, None);
    g.apply_uci("e2e4").unwrap();
    let back = round_trip("double-move", &g);
    let doc = StateDoc::from_game(&RuleSet::parse("double-move").unwrap(), &back).unwrap();
    assert_eq!(doc.phase, 1);
    assert_eq!(back.legal_moves(), g.legal_moves());
}

#[test]
fn state_round_trip_locked_first_promotion_result() {
    let rs = "first-promotion-wins";
    let mut g = game(rs, None, Some("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"));
    g.apply_uci("b7b8q").unwrap();
    let back = round_trip(rs, &g);
    assert_eq!(back.status(), g.status());
    assert!(back.status().is_over());
    let json = state::to_json(&RuleSet::parse(rs).unwrap(), &g).unwrap();
    assert!(json.contains("\"first-promotion-wins\""), "{json}");
}

#[test]
fn state_round_trip_extinction_target() {
    let rs = "extinction-chess:target=knight";
    let g = game(rs, None, None);
    let json = state::to_json(&RuleSet::parse(rs).unwrap(), &g).unwrap();
    let (back_rules, _) = state::from_json(&json).unwrap();
    assert_eq!(
        back_rules.get("extinction-chess").unwrap().param("target"),
        Some("knight")
    );
}

#[test]
fn state_round_trip_pawn_back_on_its_home_rank_stays_moved() {
    // pawns-move-backward (P21): a pawn that stepped back to its home rank
    // has moved and has no double step; plain FEN cannot say so (G5), the
    // state format can.
    let rs = "pawns-move-backward";
    let mut g = game(rs, None, None);
    for m in ["e2e3", "a7a6", "e3e2", "a6a5"] {
        g.apply_uci(m).unwrap();
    }
    let back = round_trip(rs, &g);
    assert!(!back.legal_moves().iter().any(|m| back.uci(*m) == "e2e4"));
    let from_fen = game(rs, None, Some(&g.fen()));
    assert!(from_fen
        .legal_moves()
        .iter()
        .any(|m| from_fen.uci(*m) == "e2e4"));
}

#[test]
fn state_round_trip_random_playouts_under_random_rule_sets() {
    let sets = [
        "",
        "piece-hp",
        "piece-hp,king-heals,poisoned-squares,queen-splits",
        "double-move,piece-hp",
        "monster-rules",
        "capture-to-win",
        "pawns-move-backward,knights-leap-twice",
        "explosive-rook",
        "knightmate-rules",
        "extinction-chess:target=any",
        "suicide-chess",
    ];
    let mut rng = Rng(7);
    for rs in sets {
        let mut g = game(rs, None, None);
        for _ in 0..60 {
            round_trip(rs, &g);
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            g.apply(moves[(rng.next() % moves.len() as u64) as usize])
                .unwrap();
        }
    }
}

#[test]
fn state_explicit_ids_and_defaults_for_unlisted_pieces() {
    let json = r#"{"format": "houserules-state/1", "board": "4k3/8/8/8/8/8/8/R3K3",
        "turn": "white", "pieces": [{"square": "a1", "id": 2}]}"#;
    let (_, g) = state::from_json(json).unwrap();
    assert_eq!(g.piece_id(sq("a1")), 2);
    let ids = [
        g.piece_id(sq("a1")),
        g.piece_id(sq("e1")),
        g.piece_id(sq("e8")),
    ];
    assert!(ids.iter().all(|&i| i > 0));
    assert_ne!(ids[0], ids[1]);
    assert_ne!(ids[0], ids[2]);
    assert_ne!(ids[1], ids[2]);
}

#[test]
fn state_hit_points_let_an_attacked_king_stand_on_the_side_not_to_move() {
    // Black's 2-HP king on e8 is attacked by the rook while White is to
    // move: legal under piece-hp (P6), refused with default hit points.
    let ok = r#"{"format": "houserules-state/1", "rules": "piece-hp,king-heals",
        "board": "4k3/8/8/8/8/8/8/K3R3", "turn": "white",
        "pieces": [{"square": "e8", "hp": 2}]}"#;
    let (_, g) = state::from_json(ok).unwrap();
    assert_eq!(hit_points(pos(&g), sq("e8")), Some(2));
    let bad = ok.replace(r#"{"square": "e8", "hp": 2}"#, "");
    assert_eq!(path_of(&err(&bad)), "board");
}

#[test]
fn state_committed_schema_is_up_to_date() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/state-format.schema.json");
    let fresh = state::schema_json();
    if std::env::var_os("HOUSERULES_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write the schema");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale or missing; regenerate it with `HOUSERULES_BLESS=1 cargo test -p houserules-presets --test state`",
        path.display()
    );
}

// ------------------------------------------------------------------ errors

#[test]
fn state_error_not_json() {
    let e = err("{\"format\": ");
    assert!(matches!(e, StateError::Json { .. }), "{e}");
    let e = err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(matches!(e, StateError::Json { .. }), "{e}");
}

/// Regression (new-user trial): text after the document was ignored.
#[test]
fn state_error_trailing_text() {
    for tail in ["x", " {}"] {
        let e = err(&format!("{}{tail}", START.trim_end()));
        assert!(e.to_string().contains("trailing"), "{e}");
    }
}

#[test]
fn state_error_wrong_type_names_the_path() {
    let json = START.replace(
        r#""castling": "KQkq""#,
        r#""castling": "KQkq", "pieces": [{"square": "e1", "hp": "lots"}]"#,
    );
    let e = err(&json);
    assert_eq!(path_of(&e), "pieces[0].hp", "{e}");
    assert!(e.to_string().contains("pieces[0].hp"), "{e}");
}

#[test]
fn state_error_unknown_field_and_missing_field() {
    let e = err(&START.replace(r#""turn": "white""#, r#""turn": "white", "colour": 1"#));
    assert!(e.to_string().contains("colour"), "{e}");
    let e = err(r#"{"format": "houserules-state/1", "turn": "white"}"#);
    assert!(e.to_string().contains("board"), "{e}");
    let e = err(&START.replace(r#""turn": "white""#, r#""turn": "red""#));
    assert_eq!(path_of(&e), "turn", "{e}");
}

#[test]
fn state_error_format_version() {
    let e = err(&START.replace("houserules-state/1", "houserules-state/9"));
    assert_eq!(path_of(&e), "format", "{e}");
}

#[test]
fn state_error_fen_fields_name_their_field() {
    let e = err(&START.replace("RNBQKBNR\"", "RNBQKBNX\""));
    assert_eq!(path_of(&e), "board", "{e}");
    let e = err(&START.replace("KQkq", "KQkqZ"));
    assert_eq!(path_of(&e), "castling", "{e}");
    let e = err(&START.replace(r#""castling": "KQkq""#, r#""en_passant": "z9""#));
    assert_eq!(path_of(&e), "en_passant", "{e}");
    let e = err(&START.replace("RNBQKBNR\"", "RNBQKBNR w\""));
    assert_eq!(path_of(&e), "board", "{e}");
}

#[test]
fn state_error_rules() {
    let e = err(&START.replace(r#""turn""#, r#""rules": "piece-hq", "turn""#));
    assert!(matches!(e, StateError::Rules(_)), "{e}");
    assert!(e.to_string().contains("piece-hp"), "suggestion: {e}");
}

#[test]
fn state_error_pieces() {
    let with = |pieces: &str, rules: &str| {
        START.replace(
            r#""turn""#,
            &format!(r#""rules": "{rules}", "pieces": [{pieces}], "turn""#),
        )
    };
    let cases = [
        (with(r#"{"square": "e4"}"#, ""), "pieces[0].square"),
        (with(r#"{"square": "k9"}"#, ""), "pieces[0].square"),
        (
            with(r#"{"square": "e1"}, {"square": "e1"}"#, ""),
            "pieces[1].square",
        ),
        (
            with(
                r#"{"square": "e1", "id": 3}, {"square": "d1", "id": 3}"#,
                "",
            ),
            "pieces[1].id",
        ),
        (with(r#"{"square": "e1", "id": 0}"#, ""), "pieces[0].id"),
        (with(r#"{"square": "e1", "hp": 2}"#, ""), "pieces[0].hp"),
        (
            with(r#"{"square": "e1", "hp": 4}"#, "piece-hp"),
            "pieces[0].hp",
        ),
        (
            with(r#"{"square": "d1", "hp": 3}"#, "piece-hp"),
            "pieces[0].hp",
        ),
        (
            with(r#"{"square": "d1", "hp": 0}"#, "piece-hp"),
            "pieces[0].hp",
        ),
        (
            with(r#"{"square": "e1", "hp": 300}"#, "piece-hp"),
            "pieces[0].hp",
        ),
        (
            with(r#"{"square": "d1", "unmoved": true}"#, ""),
            "pieces[0].unmoved",
        ),
    ];
    for (json, path) in cases {
        let e = err(&json);
        assert_eq!(path_of(&e), path, "{e}\n{json}");
        assert!(e.to_string().contains(path), "{e}");
    }
}

#[test]
fn state_error_phase_and_result_need_their_presets() {
    let e = err(&START.replace(r#""turn""#, r#""phase": 1, "turn""#));
    assert_eq!(path_of(&e), "phase", "{e}");
    let e = err(&START.replace(
        r#""turn""#,
        r#""rules": "monster-rules", "phase": 1, "turn": "black", "x""#,
    ));
    assert!(matches!(e, StateError::Json { .. }), "{e}");
    let black_second = START
        .replace(r#""turn": "white""#, r#""turn": "black""#)
        .replace(
            r#""board""#,
            r#""rules": "monster-rules", "phase": 1, "board""#,
        );
    assert_eq!(path_of(&err(&black_second)), "phase");
    let e = err(&START.replace(r#""turn""#, r#""rules": "double-move", "phase": 2, "turn""#));
    assert_eq!(path_of(&e), "phase", "{e}");
    let e = err(&START.replace(
        r#""turn""#,
        r#""result": {"winner": "white", "reason": "capture-to-win"}, "turn""#,
    ));
    assert_eq!(path_of(&e), "result.reason", "{e}");
    let e = err(&START.replace(
        r#""turn""#,
        r#""result": {"winner": "white", "reason": "checkmate"}, "turn""#,
    ));
    assert_eq!(path_of(&e), "result.reason", "{e}");
}

#[test]
fn state_error_side_not_to_move_in_check() {
    let e = err(
        r#"{"format": "houserules-state/1", "board": "4k3/8/8/8/8/8/8/K3R3", "turn": "white"}"#,
    );
    assert_eq!(path_of(&e), "board", "{e}");
}

#[test]
fn state_round_trip_and_undo_under_random_compatible_preset_sets() {
    // Every position of random playouts under random compatible preset
    // sets (hit-point presets included): the incremental hash equals one
    // recomputed from scratch, undo restores the position exactly, and the
    // state document reads back to the same hash.
    let ids: Vec<&str> = houserules_presets::PRESETS
        .iter()
        .filter(|p| p.implemented)
        .map(|p| p.id)
        .collect();
    let mut rng = Rng(99);
    let mut sets = 0;
    for _ in 0..300 {
        let k = 1 + rng.next() % 3;
        let s = (0..k)
            .map(|_| ids[(rng.next() % ids.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(",");
        let Ok(rs) = RuleSet::parse(&s) else {
            continue;
        };
        let Ok((v, fen)) = houserules_presets::build(&rs, None) else {
            continue;
        };
        sets += 1;
        let mut g = Game::from_fen(v, &fen).unwrap();
        for _ in 0..120 {
            if g.status().is_over() {
                break;
            }
            let ms = g.legal_moves();
            let m = ms[(rng.next() % ms.len() as u64) as usize];
            let before = *pos(&g);
            g.apply(m).unwrap();
            let fresh = Game::from_position(g.variant().clone(), *pos(&g)).unwrap();
            assert_eq!(fresh.hash(), g.hash(), "{s}: {}", g.fen());
            let json = state::to_json(&rs, &g).unwrap();
            let (_, back) = state::from_json(&json).unwrap_or_else(|e| panic!("{s}: {e}\n{json}"));
            assert_eq!(back.hash(), g.hash(), "{s}: {json}");
            g.undo().unwrap();
            assert_eq!(*pos(&g), before, "{s}: undo");
            g.apply(m).unwrap();
        }
    }
    assert!(sets > 100, "only {sets} compatible sets");
}

#[test]
fn state_round_trip_of_a_game_won_by_destroying_a_royal() {
    // piece-hp with poisoned-squares: a 1-HP king that ends its turn on d4
    // dies (P13) and its side loses; the finished position still reads
    // back, while a board without a king is refused where no rule can
    // destroy one.
    let rs = "piece-hp,king-heals,poisoned-squares";
    let mut g = game(rs, None, Some("4k3/8/8/8/8/4K3/8/8 w - - 0 1"));
    g.apply_uci("e3d4").unwrap();
    let back = round_trip(rs, &g);
    assert_eq!(back.status(), g.status());
    assert!(back.status().is_over());
    let e =
        err(r#"{"format": "houserules-state/1", "board": "4k3/8/8/8/8/8/8/8", "turn": "white"}"#);
    assert_eq!(path_of(&e), "board", "{e}");
    let e = err(
        r#"{"format": "houserules-state/1", "rules": "piece-hp", "board": "8/8/8/8/8/8/8/8", "turn": "white"}"#,
    );
    assert_eq!(path_of(&e), "board", "{e}");
}
