//! End-to-end tests of `houserules modifiers`, `validate FILE.json` and
//! `play`. Expected positions come from thressgame-catalog.md § Parity
//! rules; RNG outcomes are forced by seeds (modifier-rulings F2).

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

mod python_chess;

fn houserules(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("houserules-mod-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Runs `play` on a request and input lines written to a fresh directory,
/// with `extra` arguments.
fn play_output(name: &str, request: &str, inputs: &[&str], extra: &[&str]) -> Output {
    let d = dir(name);
    let req = d.join("request.json");
    let inp = d.join("inputs.jsonl");
    std::fs::write(&req, request).expect("write");
    std::fs::write(&inp, inputs.join("\n")).expect("write");
    let mut args = vec![
        "play",
        "--create",
        req.to_str().unwrap(),
        "--inputs",
        inp.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = houserules(&args);
    let _ = std::fs::remove_dir_all(&d);
    o
}

fn play(name: &str, request: &str, inputs: &[&str]) -> (Option<i32>, Value) {
    let o = play_output(name, request, inputs, &["--json"]);
    let v: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code(), v)
}

#[test]
fn modifiers_json_lists_the_library() {
    let o = houserules(&["modifiers", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let list = v.as_array().expect("array");
    // 8 parity rules + 6 templates + the 47 other catalog rules.
    assert_eq!(list.len(), 61);
    let k = list
        .iter()
        .find(|e| e["id"] == "kamikaze")
        .expect("kamikaze");
    assert_eq!(k["catalog"]["number"], 38);
    assert_eq!(k["file"], "kamikaze.json");
    // Issue 12: the listing carries each descriptor's description.
    let lib = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../modifiers/library/kamikaze.json");
    let d: Value =
        serde_json::from_str(&std::fs::read_to_string(lib).expect("read")).expect("JSON");
    assert_eq!(k["description"], d["description"]);
    assert!(list
        .iter()
        .all(|e| e["description"].as_str().is_some_and(|d| !d.is_empty())));
}

#[test]
fn validate_json_descriptor_codes_and_paths() {
    let lib = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../modifiers/library/kamikaze.json");
    let o = houserules(&["validate", lib.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("ok: kamikaze (Kamikaze)"));
    let d = dir("validate");
    let bad = d.join("bad.json");
    std::fs::write(&bad, r#"{"version": 1, "id": "x", "name": "X", "passive": [{"kind": "kill", "params": {"pieces": {}}}]}"#).unwrap();
    let o = houserules(&["validate", bad.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        v["findings"][0]["code"],
        "descriptor.primitives.imperative-in-passive"
    );
    assert_eq!(v["findings"][0]["path"], "$.passive[0].kind");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn play_parry_defender_wins_and_a_refused_line_is_reported() {
    let (code, v) = play(
        "parry",
        r#"{"fen": "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "modifiers": ["parry"]}"#,
        &[
            r#"{"move": "e4d5"}"#,
            r#"{"move": "e8d8"}"#,
            r#"{"choice": "rock", "player": "white"}"#,
            r#"{"choice": "paper", "player": "black"}"#,
        ],
    );
    assert_eq!(code, Some(1), "line 2 is refused");
    assert_eq!(v["inputs"][1]["line"], 2);
    assert_eq!(v["inputs"][1]["code"], "choice-pending");
    assert_eq!(v["fen"], "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1");
    assert_eq!(v["sideToMove"], "black");
    assert!(v["pendingChoice"].is_null());
}

#[test]
fn play_kamikaze_seed_7_hits() {
    let (code, v) = play(
        "kamikaze",
        r#"{"fen": "4k3/8/3p4/4n3/3P1N2/8/8/4K3 w - - 0 1", "modifiers": ["kamikaze"], "seed": 7}"#,
        &[r#"{"move": "d4e5"}"#],
    );
    assert_eq!(code, Some(0));
    assert_eq!(
        v["fen"].as_str().unwrap().split(' ').next(),
        Some("4k3/8/8/4P3/8/8/8/4K3")
    );
    assert!(v["legalMoves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m == "e8e7"));
    assert_eq!(v["seed"], 7);
}

#[test]
fn play_mind_control_pending_choice_is_shown() {
    let (code, v) = play(
        "mind",
        r#"{"fen": "4k3/3q4/8/8/8/8/P7/4K3 w - - 0 1", "modifiers": ["mind_control:lifetime=1"]}"#,
        &[r#"{"choice": "d7"}"#],
    );
    assert_eq!(code, Some(0));
    assert_eq!(v["pendingChoice"]["forPlayer"], "black");
    assert_eq!(
        v["pendingChoice"]["prompt"]["options"],
        serde_json::json!(["a2"])
    );
    assert_eq!(v["legalMoves"], serde_json::json!([]));
    assert_eq!(v["status"]["status"], "awaiting-choice");
}

/// `play --json` prints the shape of docs/session-output.schema.json (the
/// full check against the schema is crates/session/tests/session_schema.rs;
/// here: the keys of the printed object against the schema's).
#[test]
fn play_json_has_the_published_output_shape() {
    let (code, v) = play(
        "shape",
        r#"{"fen": "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "modifiers": ["parry"]}"#,
        &[r#"{"move": "e4d5"}"#, r#"{"move": "e8d8"}"#],
    );
    assert_eq!(code, Some(1));
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/session-output.schema.json"),
        )
        .expect("committed schema"),
    )
    .expect("JSON");
    let props = schema["properties"].as_object().expect("properties");
    for k in v.as_object().expect("object").keys() {
        assert!(props.contains_key(k), "`{k}` is not in the schema");
    }
    for r in schema["required"].as_array().expect("required") {
        assert!(v.get(r.as_str().unwrap()).is_some(), "{r} is missing");
    }
    let report = schema["$defs"]["InputReport"]["properties"]
        .as_object()
        .expect("InputReport");
    for line in v["inputs"].as_array().expect("inputs") {
        for k in line.as_object().unwrap().keys() {
            assert!(report.contains_key(k), "inputs[].{k} is not in the schema");
        }
    }
    assert_eq!(v["pendingChoice"]["kind"], "rps");
}

/// Runs `play` without `--json` on a request and input lines; returns the
/// output.
fn play_text(name: &str, request: &str, inputs: &str) -> Output {
    let d = dir(name);
    let req = d.join("request.json");
    let inp = d.join("i.jsonl");
    std::fs::write(&req, request).expect("write");
    std::fs::write(&inp, inputs).expect("write");
    let o = houserules(&[
        "play",
        "--create",
        req.to_str().unwrap(),
        "--inputs",
        inp.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_dir_all(&d);
    o
}

/// Regression (new-user trial): a syntax error on line 2 of an inputs file
/// read `i.jsonl:2: not an input: … at line 1 column 9`, two positions that
/// disagree. `{"move" "e7e5"}` misses the `:` after the key: the 9th
/// character (`{`, the 7 of `"move"`, a space, then `"`) is where the
/// colon should be, so the place is `i.jsonl:2:9`, written once.
#[test]
fn input_syntax_error_names_file_line_and_column() {
    let o = play_text(
        "syntax",
        "{}",
        "{\"move\": \"e2e4\"}\n{\"move\" \"e7e5\"}\n",
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("i.jsonl:2:9: not an input: expected `:`"),
        "{err}"
    );
    assert!(!err.contains("line 1"), "{err}");
}

/// Regression (new-user trial): a 5 MB move string was echoed whole in its
/// refusal line, and control characters in it raw. Echoed input is cut to
/// 80 characters plus `… (N bytes)`, N the whole length, and ESC (U+001B)
/// is shown as `\u{1b}`.
#[test]
fn refused_moves_echo_a_bounded_escaped_excerpt() {
    let long = "a".repeat(5_000_000);
    let o = play_text("long-move", "{}", &format!("{{\"move\": \"{long}\"}}\n"));
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    let line = out.lines().next().expect("the refusal line");
    assert!(line.len() < 400, "{} bytes", line.len());
    assert!(
        line.contains(&format!("`{}… (5000000 bytes)`", "a".repeat(80))),
        "{line}"
    );

    let o = play_text("esc-move", "{}", "{\"move\": \"e2\\u001b[2Je4\"}\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(!o.stdout.contains(&0x1b), "a raw ESC is printed");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("`e2\\u{1b}[2Je4`"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// Regression (new-user trial): a descriptor saved without the `.json`
/// extension was read as a YAML game file ("unknown key `version`"). A
/// file that is not named .yaml/.yml and whose text is a JSON object is a
/// descriptor: the shipped kamikaze descriptor (ok under its own name, see
/// `validate_json_descriptor_codes_and_paths`) is ok under any name.
#[test]
fn descriptor_without_the_json_extension_is_sniffed() {
    let lib = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../modifiers/library/kamikaze.json");
    let d = dir("sniff");
    for name in ["kamikaze", "kamikaze.txt"] {
        let f = d.join(name);
        std::fs::copy(&lib, &f).expect("copied");
        let o = houserules(&["validate", f.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(String::from_utf8_lossy(&o.stdout).contains("ok: kamikaze (Kamikaze)"));
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Regression (new-user trial): `modifiers --help` and docs/modifiers.md
/// say the list includes each entry's file, but the text showed id, kind,
/// name and catalog only. Kamikaze is catalog rule #38 in
/// crates/modifiers/library/kamikaze.json (the JSON listing says so too).
#[test]
fn modifiers_text_has_the_file_column() {
    let o = houserules(&["modifiers"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some("kamikaze"))
        .expect("a kamikaze line");
    let cols: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(cols[0], "kamikaze");
    assert!(cols.contains(&"kamikaze.json"), "{line}");
    assert!(line.contains("#38"), "{line}");
    // The description is indented on the next line (issue 12).
    let next = text
        .lines()
        .skip_while(|l| l.split_whitespace().next() != Some("kamikaze"))
        .nth(1)
        .expect("a line after kamikaze");
    assert!(next.starts_with("  ") && next.len() > 10, "{next}");
}

/// Regression (new-user trial): the size limits were undocumented and the
/// inputs limit read "larger than 16777216 bytes". `play --help` documents
/// 1 MiB for the request and 16 MiB for the inputs (16777216 = 16 × 2^20),
/// and the message says so in MiB: a request of 1 MiB + 1 byte is refused.
#[test]
fn size_limits_are_documented_and_written_in_mib() {
    let help = String::from_utf8_lossy(&houserules(&["play", "--help"]).stdout).to_string();
    assert!(help.contains("1 MiB") && help.contains("16 MiB"), "{help}");
    let help = String::from_utf8_lossy(&houserules(&["validate", "--help"]).stdout).to_string();
    assert!(help.contains("1 MiB"), "{help}");

    let d = dir("limits");
    let req = d.join("big.json");
    std::fs::write(&req, format!("{{}}{}", " ".repeat((1 << 20) - 1))).expect("write");
    let o = houserules(&["play", "--create", req.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&d);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("larger than 1 MiB"), "{err}");
}

/// `play` writes a result as `moves` does: `checkmate (black wins)`. The
/// position is mate by hand: the rook on d1 checks the king on g1 along
/// the first rank, f1 and h1 are on that rank, and f2, g2, h2 hold White's
/// own pawns (new-user trial: `play` wrote "checkmate, black wins").
#[test]
fn play_writes_the_result_as_moves_does() {
    let o = play_output(
        "result-text",
        r#"{"fen": "7k/8/8/8/8/8/5PPP/3r2K1 w - - 0 1"}"#,
        &[],
        &[],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.lines().any(|l| l == "status: checkmate (black wins)"),
        "{text}"
    );
}

/// Issue 26 item 8: the PGN of a `parry` game. 1. e4 d5 2. exd5 is
/// contested; White throws rock, Black (the defender) paper: paper beats
/// rock, so the capture is cancelled and the turn passes with the board as
/// it was (parry.json: the defender winning cancels the capture). 2... Nf6
/// 3. exd5 is contested again; White's paper beats Black's rock and the
/// capture stands. So the board is that of 1. e4 d5 2. -- Nf6 3. exd5:
/// `rnbqkb1r/ppp1pppp/5n2/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3` (the
/// pass and Nf6 raise the half-move clock, the capture resets it; Black's
/// Nf6 ends move 2). The cancelled capture is a null move `--` that
/// carries the tried move and the answers as `[%hr …]` commands; python-
/// chess reads the file to that board and `pgn check` replays it exactly.
#[test]
fn play_pgn_of_a_parry_game_replays_in_python_chess_and_pgn_check() {
    let d = dir("parry-pgn");
    let pgn = d.join("parry.pgn");
    let o = play_output(
        "parry-pgn-play",
        r#"{"modifiers": ["parry"]}"#,
        &[
            r#"{"move": "e2e4"}"#,
            r#"{"move": "d7d5"}"#,
            r#"{"move": "e4d5"}"#,
            r#"{"choice": "rock", "player": "white"}"#,
            r#"{"choice": "paper", "player": "black"}"#,
            r#"{"move": "g8f6"}"#,
            r#"{"move": "e4d5"}"#,
            r#"{"choice": "paper", "player": "white"}"#,
            r#"{"choice": "rock", "player": "black"}"#,
        ],
        &["--json", "--pgn", pgn.to_str().unwrap()],
    );
    let expected = "rnbqkb1r/ppp1pppp/5n2/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3";
    let v: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    assert_eq!(o.status.code(), Some(0), "{v}");
    assert_eq!(v["fen"], expected);
    let text = std::fs::read_to_string(&pgn).expect("the PGN is written");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "1. e4 d5 2. -- {[%hr move exd5] [%hr choice rock player=white] \
             [%hr choice paper player=black] the board did not change: capture-cancelled} \
             2... Nf6 3. exd5 {[%hr choice paper player=white] [%hr choice rock player=black]}"
        ),
        "{text}"
    );
    // `pgn check` replays the answers from the comments.
    let o = houserules(&["pgn", "check", "--json", pgn.to_str().unwrap()]);
    let r: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    assert_eq!(o.status.code(), Some(0), "{r}");
    assert_eq!(
        (&r["plies"], &r["final_fen"]),
        (&5.into(), &expected.into()),
        "{r}"
    );
    // python-chess reads `--` as a null move: the same board.
    assert_eq!(python_chess::end_of_game(&pgn), (expected.to_string(), 0));
    // Without the answers to exd5's choice, Nf6 comes while it is pending:
    // the replay stops there, naming it; a `--` without its command is
    // named too.
    let (tags, movetext) = text.split_once("\n\n").expect("tags, then the movetext");
    let movetext = movetext.split_whitespace().collect::<Vec<_>>().join(" ");
    let bare = d.join("bare.pgn");
    std::fs::write(
        &bare,
        format!(
            "{tags}\n\n{}\n",
            movetext.replace(
                "[%hr choice rock player=white] [%hr choice paper player=black] ",
                ""
            )
        ),
    )
    .unwrap();
    let o = houserules(&["pgn", "check", bare.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("no `[%hr choice …]` comment answers it"),
        "{out}"
    );
    let null = d.join("null.pgn");
    std::fs::write(&null, "[Modifiers \"parry\"]\n\n1. e4 d5 2. -- Nf6 *\n").unwrap();
    let o = houserules(&["pgn", "check", null.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("ply 3 `--`: a null move needs"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}
