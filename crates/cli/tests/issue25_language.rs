//! Issue 25 item 4 on the command line: a FEN that `play` writes under
//! modifiers is read back by `moves --modifiers` under the same rules;
//! `--modifiers FILE.json:KEY=VALUE`; threefold repetition claims that
//! count the rule state. Every expected value is derived by hand in the
//! comment above it.

use std::path::PathBuf;

use serde_json::Value;

mod run;
use run::{fails, ok};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("houserules-i25-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `play --json` on a request and input lines; the resulting state.
fn play(name: &str, request: &str, inputs: &[&str]) -> Value {
    let d = dir(name);
    let req = d.join("request.json");
    let inp = d.join("inputs.jsonl");
    std::fs::write(&req, request).expect("write");
    std::fs::write(&inp, inputs.join("\n")).expect("write");
    let out = ok(&[
        "play",
        "--create",
        req.to_str().unwrap(),
        "--inputs",
        inp.to_str().unwrap(),
        "--json",
    ]);
    let _ = std::fs::remove_dir_all(&d);
    serde_json::from_str(&out).expect("JSON state")
}

fn move_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| !l.starts_with("status:")).collect()
}

#[test]
fn a_fen_play_writes_under_god_kings_is_read_back_under_them() {
    // Under god_kings kings are never in check (a protected royal): White
    // plays Ra8, and Black's king steps along the rook's rank to d8. The
    // position has White to move and Black's king attacked by the rook
    // on the board: FIDE's reader refuses it (the side not to move is in
    // check). Ra8 and Kd8 are neither pawn moves nor captures (half-move
    // clock 2) and Black moved (move 2).
    let v = play(
        "god-kings",
        r#"{"fen": "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "modifiers": ["god_kings"]}"#,
        &[r#"{"move": "a1a8"}"#, r#"{"move": "e8d8"}"#],
    );
    let fen = v["fen"].as_str().expect("fen");
    assert_eq!(fen, "R2k4/8/8/8/8/8/8/4K3 w - - 2 2");
    // Read back under the same rules: White's 23 moves. The king on e1
    // steps or leaps to every square up to two away on the board (god
    // kings add leaps (1,0), (1,1), (2,0), (2,1), (2,2) in every
    // direction): c1 d1 f1 g1, c2–g2, c3–g3 = 4 + 5 + 5 = 14, none of
    // them check under these rules. The rook: a1–a7 (7) and b8, c8 (2; it
    // never captures the king) = 9.
    let out = ok(&["moves", "--modifiers", "god_kings", "--fen", fen]);
    assert_eq!(move_lines(&out).len(), 23, "{out}");
    assert!(out.contains("a8c8"), "{out}");
    assert!(!out.contains("a8d8"), "{out}");
    // FIDE chess refuses it, as before.
    let err = fails(&["moves", "--fen", fen]);
    assert!(
        err.contains("the side not to move (black) is in check"),
        "{err}"
    );
    // Under a rule that leaves check alone the position is judged by the
    // rules in force and refused: frozen-column on the h-file protects
    // nothing on d8 …
    let err = fails(&["moves", "--modifiers", "frozen-column:file=h", "--fen", fen]);
    assert!(
        err.contains("the side not to move (black) is in check under the rules in force"),
        "{err}"
    );
    // … while on the d-file it protects the king against capture (a
    // protected royal is never in check, modifier-rulings C3): accepted.
    // White's moves: the king's 5 steps (d1, d2, e2, f2, f1) and the
    // rook's a1–a7, b8, c8 (9) = 14.
    let out = ok(&["moves", "--modifiers", "frozen-column:file=d", "--fen", fen]);
    assert_eq!(move_lines(&out).len(), 14, "{out}");
}

#[test]
fn a_fen_with_a_pawn_pushed_to_its_first_rank_is_read_back() {
    // back_that_shit_up (instant) steps every pawn one square backward at
    // creation: d2 → d1. A pawn on its own first rank stays a pawn
    // (modifier-rulings C5).
    let v = play(
        "back",
        r#"{"fen": "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", "modifiers": ["back_that_shit_up"]}"#,
        &[],
    );
    let fen = v["fen"].as_str().expect("fen");
    assert_eq!(fen.split(' ').next(), Some("4k3/8/8/8/8/8/8/3PK3"));
    // Read back under the same rules (the instant rule runs again at
    // creation; the pawn on d1 cannot step back off the board): the pawn
    // moves only d1d2 (C5: one square, no double step); the king d2, e2,
    // f2, f1 (d1 is its own pawn) = 5.
    let out = ok(&["moves", "--modifiers", "back_that_shit_up", "--fen", fen]);
    let lines = move_lines(&out);
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines.iter().any(|l| l.starts_with("d1d2")), "{out}");
    assert!(!out.contains("d1d3"), "{out}");
}

fn library_file(name: &str) -> String {
    format!("{}/../modifiers/library/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn nodes(args: &[&str]) -> u64 {
    let out = ok(args);
    out.lines()
        .find_map(|l| l.strip_prefix("Nodes: "))
        .unwrap_or_else(|| panic!("no `Nodes:` line in {out}"))
        .trim()
        .parse()
        .expect("a node count")
}

#[test]
fn a_descriptor_file_takes_parameters_as_a_library_id_does() {
    let file = library_file("frozen-column.json");
    // The file's default file is d: d2d3 and d2d4 are frozen, 20 − 2 = 18.
    assert_eq!(nodes(&["perft", "--modifiers", &file, "--depth", "1"]), 18);
    // file=b freezes b2 (b3, b4) and the knight on b1 (a3, c3): 20 − 4 =
    // 16, as the library id with the same parameter.
    let with = format!("{file}:file=b");
    assert_eq!(nodes(&["perft", "--modifiers", &with, "--depth", "1"]), 16);
    assert_eq!(
        nodes(&[
            "perft",
            "--modifiers",
            "frozen-column:file=b",
            "--depth",
            "1"
        ]),
        16
    );
    // lifetime is the entry's option, as for library ids: 1 ply, so the
    // freeze holds for White's first move only (16), then expires and the
    // markers go: Black's 20 replies to each = 320.
    let timed = format!("{file}:file=b;lifetime=1");
    assert_eq!(
        nodes(&["perft", "--modifiers", &timed, "--depth", "2"]),
        320
    );
}

#[test]
fn descriptor_file_parameter_errors_are_a_library_ids() {
    let file = library_file("frozen-column.json");
    // Each error as the library id's, with the file in place of the id.
    let lib = fails(&[
        "perft",
        "--modifiers",
        "frozen-column:nope=1",
        "--depth",
        "1",
    ]);
    assert!(lib.contains("has no parameter `nope`"), "{lib}");
    let err = fails(&[
        "perft",
        "--modifiers",
        &format!("{file}:nope=1"),
        "--depth",
        "1",
    ]);
    assert!(err.contains("request.bad-modifier"), "{err}");
    assert!(err.contains("$.modifiers[0]"), "{err}");
    assert!(
        err.contains("`frozen-column` has no parameter `nope`"),
        "{err}"
    );

    let lib = fails(&[
        "perft",
        "--modifiers",
        "frozen-column:file=z",
        "--depth",
        "1",
    ]);
    assert!(lib.contains("`z` is not a valid value for `file`"), "{lib}");
    let err = fails(&[
        "perft",
        "--modifiers",
        &format!("{file}:file=z"),
        "--depth",
        "1",
    ]);
    assert!(err.contains("`z` is not a valid value for `file`"), "{err}");

    let lib = fails(&[
        "perft",
        "--modifiers",
        "frozen-column:file=a;file=b",
        "--depth",
        "1",
    ]);
    assert!(lib.contains("request.duplicate-parameter"), "{lib}");
    let err = fails(&[
        "perft",
        "--modifiers",
        &format!("minefield,{file}:file=a;file=b"),
        "--depth",
        "1",
    ]);
    assert!(err.contains("request.duplicate-parameter"), "{err}");
    assert!(err.contains("$.modifiers[1]"), "{err}");
    assert!(err.contains("parameter `file` is given twice"), "{err}");

    let lib = fails(&["perft", "--modifiers", "frozen-column:", "--depth", "1"]);
    assert!(lib.contains("has an empty parameter list"), "{lib}");
    let err = fails(&["perft", "--modifiers", &format!("{file}:"), "--depth", "1"]);
    assert!(err.contains("has an empty parameter list"), "{err}");
    assert!(err.contains("request.bad-modifier"), "{err}");

    let lib = fails(&["perft", "--modifiers", "frozen-column:file", "--depth", "1"]);
    assert!(lib.contains("`file` is not KEY=VALUE"), "{lib}");
    let err = fails(&[
        "perft",
        "--modifiers",
        &format!("{file}:file"),
        "--depth",
        "1",
    ]);
    assert!(err.contains("`file` is not KEY=VALUE"), "{err}");

    let lib = fails(&[
        "perft",
        "--modifiers",
        "frozen-column:lifetime=0",
        "--depth",
        "1",
    ]);
    let err = fails(&[
        "perft",
        "--modifiers",
        &format!("{file}:lifetime=0"),
        "--depth",
        "1",
    ]);
    let tail = |s: &str| s.split("$.modifiers[0]: ").nth(1).map(str::to_string);
    assert_eq!(tail(&err), tail(&lib), "{err} / {lib}");
    // A missing file is named without its parameters.
    let err = fails(&[
        "perft",
        "--modifiers",
        "missing.json:file=b",
        "--depth",
        "1",
    ]);
    assert!(
        err.contains("cannot read the descriptor file missing.json:"),
        "{err}"
    );
}

/// A game counter raised by every move (its own descriptor file).
const COUNTER: &str = r#"{"version": 1, "id": "count-moves", "name": "Count moves",
  "triggers": [{"kind": "on-move", "effects": [
    {"kind": "add-to-var", "params": {"name": "n", "delta": 1, "scope": "game"}}]}]}"#;

#[test]
fn moves_under_modifiers_claims_repetition_with_the_rule_state() {
    // After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, Ng8 repeats the start position a
    // third time (FIDE 9.2.1): `moves` marks it `claim:` in FIDE chess
    // and under a rule that keeps no state (god_kings), but not while a
    // counter of the moves (0, 4, 8 on those boards) makes each position
    // new.
    let play = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1";
    let claim = |out: &str| {
        out.lines()
            .any(|l| l.starts_with("f6g8") && l.ends_with("claim: threefold-repetition"))
    };
    let out = ok(&["moves", "--play", play]);
    assert!(claim(&out), "{out}");
    let out = ok(&["moves", "--modifiers", "god_kings", "--play", play]);
    assert!(claim(&out), "{out}");
    let d = dir("counter");
    let file = d.join("count-moves.json");
    std::fs::write(&file, COUNTER).expect("write");
    let out = ok(&[
        "moves",
        "--modifiers",
        file.to_str().unwrap(),
        "--play",
        play,
    ]);
    let _ = std::fs::remove_dir_all(&d);
    assert!(!claim(&out), "{out}");
    assert!(out.lines().any(|l| l.starts_with("f6g8")), "{out}");
}
