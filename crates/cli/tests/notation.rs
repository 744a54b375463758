//! End-to-end regression tests for issue 11's wrong notation answers:
//! castling in UCI (text, `--json`, `perft --divide`), Chess960 games,
//! castling rights without their rook, two kings of one colour, en passant
//! under `short-stop`, a missing promotion piece, and `--fen-style`. The
//! expected values are the issue's, or python-chess 1.11.2's (the call is
//! quoted beside each).

use std::process::Command;

/// Runs the binary: (exit status, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(args)
        .output()
        .expect("the houserules binary runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "houserules {args:?}: {out}{err}");
    out
}

fn refused(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "houserules {args:?}: {out}{err}");
    err
}

/// The UCI column of `moves` text output.
fn uci(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| !l.starts_with("status:"))
        .filter_map(|l| l.split_whitespace().next())
        .collect()
}

/// Issue 11 item 1: python-chess `Board('8/8/8/8/8/8/8/k3K2R w K - 0 1')`
/// castles `e1g1 O-O+`; for Black `Board('r3k2K/8/8/8/8/8/8/8 b q - 0 1')`
/// `e8c8 O-O-O+`.
#[test]
fn standard_castling_is_king_to_destination_in_every_output() {
    let fen = "8/8/8/8/8/8/8/k3K2R w K - 0 1";
    let out = ok(&["moves", "--fen", fen]);
    assert!(out.lines().any(|l| l == "e1g1   O-O+"), "{out}");
    assert!(!uci(&out).contains(&"e1h1"), "{out}");
    let json = ok(&["moves", "--fen", fen, "--json"]);
    assert!(json.contains(r#"{"uci":"e1g1","san":"O-O+"}"#), "{json}");
    assert!(!json.contains("e1h1"), "{json}");
    let divide = ok(&["perft", "--fen", fen, "--depth", "1", "--divide"]);
    assert!(divide.lines().any(|l| l == "e1g1: 1"), "{divide}");
    assert!(!divide.contains("e1h1"), "{divide}");
    let black = ok(&["moves", "--fen", "r3k2K/8/8/8/8/8/8/8 b q - 0 1"]);
    assert!(black.lines().any(|l| l == "e8c8   O-O-O+"), "{black}");
    assert!(!uci(&black).contains(&"e8a8"), "{black}");
}

/// Issue 11 item 2: python-chess with `chess960=True` castles
/// `e1h1`/`e1a1` in `r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1`.
#[test]
fn chess960_games_write_king_takes_rook() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 1";
    for args in [
        vec!["moves", "--game", "chess960", "--fen", fen],
        vec!["moves", "--layout", "chess960:518", "--fen", fen],
        vec![
            "moves",
            "--game",
            "chess960",
            "--layout",
            "chess960:518",
            "--fen",
            fen,
        ],
    ] {
        let out = ok(&args);
        let ucis = uci(&out);
        for m in ["e1h1", "e1a1"] {
            assert!(ucis.contains(&m), "{m} missing from {args:?}: {out}");
        }
        for m in ["e1g1", "e1c1"] {
            assert!(!ucis.contains(&m), "{m} in {args:?}: {out}");
        }
    }
    // `--game chess960 --layout chess960:N` starts from position N
    // (Scharnagl numbering: 0 is BBQNNRKR).
    let out = ok(&[
        "perft",
        "--game",
        "chess960",
        "--layout",
        "chess960:0",
        "--depth",
        "1",
        "--json",
    ]);
    assert!(
        out.contains(r#""fen":"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1""#),
        "{out}"
    );
}

/// Issue 11 item 3: `perft --fen '4k3/8/8/8/8/8/8/4KR2 w K - 0 1' --depth 1`
/// is 13 (python-chess: `Board(...).legal_moves.count()` is 13).
#[test]
fn castling_rights_without_their_rook_are_dropped() {
    let out = ok(&[
        "perft",
        "--fen",
        "4k3/8/8/8/8/8/8/4KR2 w K - 0 1",
        "--depth",
        "1",
    ]);
    assert!(out.contains("Nodes: 13\n"), "{out}");
}

/// Issue 11 item 4: two white kings are refused naming both; with no black
/// king too, both faults are named. Under dual-king rules they are fine.
#[test]
fn two_kings_of_one_colour_are_refused_for_typed_positions() {
    let err = refused(&["moves", "--fen", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"]);
    assert!(err.contains("white has 2 kings (d1, e1)"), "{err}");
    let err = refused(&[
        "perft",
        "--fen",
        "8/8/8/8/8/8/8/3KK3 w - - 0 1",
        "--depth",
        "1",
    ]);
    assert!(err.contains("white has 2 kings (d1, e1)"), "{err}");
    assert!(err.contains("black has no king"), "{err}");
    for rules in [
        &["--rules", "dual-king"][..],
        &["--layout", "dual-classic"][..],
        &["--rules", "dual-king", "--layout", "standard"][..],
    ] {
        let mut args = vec!["moves", "--fen", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"];
        args.extend_from_slice(rules);
        ok(&args);
    }
}

/// Issue 11 item 5: under short-stop the en passant capture the position
/// gives stays legal (RULINGS P26): 12 moves with `exd6`.
#[test]
fn short_stop_keeps_the_en_passant_capture() {
    let out = ok(&[
        "moves",
        "--rules",
        "short-stop",
        "--fen",
        "rnbqkbnr/ppp2ppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    ]);
    assert_eq!(uci(&out).len(), 12, "{out}");
    assert!(out.lines().any(|l| l == "e5d6   exd6"), "{out}");
}

/// Issue 11 item 10: `gxh8` and `g7h8` say the promotion piece is missing
/// and list the choices (python-chess's promotions: gxh8=Q/R/B/N).
#[test]
fn missing_promotion_piece_is_named() {
    let fen = "7n/6P1/8/8/8/8/8/K6k w - - 0 1";
    for (mv, choices) in [
        ("gxh8", ["gxh8=Q", "gxh8=R", "gxh8=B", "gxh8=N"]),
        ("g7h8", ["g7h8q", "g7h8r", "g7h8b", "g7h8n"]),
    ] {
        let err = refused(&["state", "--fen", fen, "--play", mv]);
        assert!(err.contains("missing the promotion piece"), "{err}");
        for c in choices {
            assert!(err.contains(c), "{c} missing: {err}");
        }
    }
}

/// `--fen-style shredder` writes file letters (python-chess
/// `Board().fen(shredder=True)`: `... w HAha - 0 1`).
#[test]
fn fen_style_chooses_the_castling_letters() {
    let out = ok(&["perft", "--depth", "1", "--json", "--fen-style", "shredder"]);
    assert!(
        out.contains(r#""fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1""#),
        "{out}"
    );
    let out = ok(&["perft", "--depth", "1", "--json", "--fen-style", "xfen"]);
    assert!(out.contains(" w KQkq - 0 1"), "{out}");
    let err = refused(&["perft", "--depth", "1", "--fen-style", "lichess"]);
    assert!(err.contains("xfen") && err.contains("shredder"), "{err}");
}
