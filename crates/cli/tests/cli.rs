//! End-to-end tests of the `houserules` binary. Expected counts come from
//! the chessprogramming.org perft tables and the shared suite files, never
//! from our own output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Runs the binary with `args`.
fn houserules(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(args)
        .output()
        .expect("the houserules binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// Runs the binary and requires exit status 0.
fn ok(args: &[&str]) -> String {
    let o = houserules(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "houserules {args:?} failed: {}{}",
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

/// The `Nodes: N` line of a text perft.
fn nodes_line(text: &str) -> u64 {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Nodes: "))
        .unwrap_or_else(|| panic!("no `Nodes:` line in {text}"));
    line.trim().parse().expect("a node count")
}

/// `../shared/data` next to the repository, or a plain failure saying it is
/// missing.
fn shared_data() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    assert!(
        dir.is_dir(),
        "the shared test data is missing: expected the folder {} (the repository must sit next to a `shared/` folder)",
        dir.display()
    );
    dir
}

/// A file in the temp folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        // Tests run in parallel threads of one process and two of them may
        // use the same name: a counter keeps one test's Drop from deleting
        // the other's file (a flaky `cannot read suite file`).
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("houserules-cli-{}-{n}-{name}", std::process::id()));
        std::fs::write(&path, text).expect("the temp file is written");
        TempFile(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temp path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn perft_startpos_depth_4_text() {
    // chessprogramming.org Perft Results, initial position, depth 4.
    assert_eq!(nodes_line(&ok(&["perft", "--depth", "4"])), 197_281);
    assert_eq!(
        nodes_line(&ok(&["perft", "--fen", "startpos", "--depth", "4"])),
        197_281
    );
}

#[test]
fn perft_startpos_depth_4_json() {
    let out = ok(&["perft", "--fen", "startpos", "--depth", "4", "--json"]);
    assert_eq!(out.trim().lines().count(), 1, "one JSON object: {out}");
    let v: Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(v["nodes"].as_u64(), Some(197_281));
    assert_eq!(v["depth"].as_u64(), Some(4));
    assert!(v["seconds"].is_f64(), "seconds is a float: {v}");
    assert!(v["nps"].is_u64(), "nps is an integer: {v}");
    assert!(v.get("divide").is_none(), "no divide without --divide: {v}");
}

#[test]
fn perft_kiwipete_divide() {
    // chessprogramming.org Perft Results, position 2: 48 moves, 97862 at depth 3.
    let out = ok(&["perft", "--fen", KIWIPETE, "--depth", "3", "--divide"]);
    let rows: Vec<(String, u64)> = out
        .lines()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let (m, n) = l
                .split_once(": ")
                .unwrap_or_else(|| panic!("a `move: count` line, got {l:?}"));
            (m.to_string(), n.parse().expect("a count"))
        })
        .collect();
    assert_eq!(rows.len(), 48);
    assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), 97_862);
    assert_eq!(nodes_line(&out), 97_862);

    let v: Value = serde_json::from_str(&ok(&[
        "perft", "--fen", KIWIPETE, "--depth", "3", "--divide", "--json",
    ]))
    .expect("valid JSON");
    let divide = v["divide"].as_object().expect("a divide object");
    assert_eq!(divide.len(), 48);
    assert_eq!(
        divide
            .values()
            .map(|n| n.as_u64().expect("a count"))
            .sum::<u64>(),
        97_862
    );
    assert_eq!(v["nodes"].as_u64(), Some(97_862));
}

#[test]
fn perft_divide_writes_standard_uci_castling() {
    // Standard UCI writes castling as the king's move (e1g1, e1c1); only
    // Chess960 writes king-takes-rook.
    let v: Value = serde_json::from_str(&ok(&[
        "perft", "--fen", KIWIPETE, "--depth", "1", "--divide", "--json",
    ]))
    .expect("valid JSON");
    let divide = v["divide"].as_object().expect("a divide object");
    assert!(
        divide.contains_key("e1g1") && divide.contains_key("e1c1"),
        "castling moves in {divide:?}"
    );
}

#[test]
fn perft_no_bulk_gives_the_same_count() {
    assert_eq!(
        nodes_line(&ok(&[
            "perft",
            "--fen",
            KIWIPETE,
            "--depth",
            "3",
            "--no-bulk"
        ])),
        97_862
    );
    assert_eq!(
        nodes_line(&ok(&[
            "perft",
            "--depth",
            "4",
            "--no-bulk",
            "--threads",
            "1"
        ])),
        197_281
    );
}

#[test]
fn moves_of_the_start_position() {
    let out = ok(&["moves"]);
    let moves: Vec<(&str, &str)> = out
        .lines()
        .map(|l| {
            let mut it = l.split_whitespace();
            (it.next().expect("uci"), it.next().expect("san"))
        })
        .collect();
    assert_eq!(moves.len(), 20);
    assert!(moves.contains(&("e2e4", "e4")));
    assert!(moves.contains(&("g1f3", "Nf3")));

    let v: Value =
        serde_json::from_str(&ok(&["moves", "--fen", "startpos", "--json"])).expect("valid JSON");
    let arr = v.as_array().expect("a JSON array");
    assert_eq!(arr.len(), 20);
    assert!(arr.iter().any(|m| m["uci"] == "e2e4" && m["san"] == "e4"));
    assert!(arr.iter().any(|m| m["uci"] == "g1f3" && m["san"] == "Nf3"));
}

#[test]
fn moves_reports_checkmate() {
    // Fool's mate: White is mated.
    let out = ok(&[
        "moves",
        "--fen",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ]);
    assert_eq!(out.trim(), "status: checkmate (black wins)");
}

#[test]
fn bad_fen_exits_2_naming_the_field() {
    let o = houserules(&[
        "perft",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "--depth",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("side to move") && err.contains("`x`"),
        "message: {err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");

    let o = houserules(&[
        "moves",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    // FEN lists ranks from 8 down to 1: the short eighth part
    // "RNBQKBN" is rank 1 of the board (session 20 named ranks by their
    // number on the board; this test still expected the part's index).
    assert!(
        stderr(&o).contains("board field, rank 1:"),
        "message: {}",
        stderr(&o)
    );
}

#[test]
fn missing_files_exit_2_naming_the_file() {
    let o = houserules(&["perft", "--suite", "/nonexistent/houserules.perft"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("/nonexistent/houserules.perft"),
        "message: {}",
        stderr(&o)
    );

    // A PGN file that cannot be opened is reported like a bad game (one
    // line naming it); other files would still run; the exit status is 2,
    // as `pgn check --help` says (regression: it was 1).
    let o = houserules(&["pgn", "check", "/nonexistent/houserules.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("/nonexistent/houserules.pgn") && text.contains("cannot open"),
        "output: {text}"
    );
}

#[test]
fn malformed_suite_line_exits_2_naming_the_line() {
    let suite = TempFile::new(
        "malformed.perft",
        "id x\nepd 8/8/8/8/8/8/8/K6k w - -\nperft one 3\n",
    );
    let o = houserules(&["perft", "--suite", suite.path()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(suite.path()) && err.contains("line 3"),
        "message: {err}"
    );
}

#[test]
fn suite_depth_error_names_the_perft_line() {
    // Regression (new-user trial): a too-deep `perft` line was reported at
    // the position's `epd` line (2) instead of its own (4).
    let suite = TempFile::new(
        "too-deep.perft",
        "id x\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\nperft 99 1\n",
    );
    let o = houserules(&["perft", "--suite", suite.path()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("line 4") && err.contains("depth 99"),
        "message: {err}"
    );
}

#[test]
fn threads_outside_1_to_256_are_refused() {
    // Regression (new-user trial): any count was accepted, so a typo could
    // spawn a hundred thousand threads.
    for n in ["0", "257", "100000"] {
        let o = houserules(&["perft", "--depth", "1", "--threads", n]);
        assert_eq!(o.status.code(), Some(2), "--threads {n}");
        let err = stderr(&o);
        assert!(
            err.contains("--threads") && err.contains("1..=256"),
            "{err}"
        );
    }
    // Perft of the start position at depth 2: 400 (chessprogramming.org).
    let out = ok(&["perft", "--depth", "2", "--threads", "256"]);
    assert_eq!(nodes_line(&out), 400);
}

#[test]
fn suite_reports_a_wrong_count() {
    // Start position: 20 and 400 are right (chessprogramming.org); 8903 is
    // deliberately wrong (the true count is 8902).
    let suite = TempFile::new(
        "wrong.perft",
        "id start-wrong\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20\nperft 2 400\nperft 3 8903\n\n\
         id kiwipete\nepd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\nperft 1 48\nperft 2 2039\n",
    );
    let o = houserules(&["perft", "--suite", suite.path()]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    let mismatch = out
        .lines()
        .find(|l| l.contains("start-wrong"))
        .unwrap_or_else(|| panic!("no mismatch line in {out}"));
    // The wrong count is `perft 3 8903`, on line 5 (the position is on 2).
    assert!(
        mismatch.contains(":5:") && mismatch.contains("depth 3"),
        "{mismatch}"
    );
    assert!(
        mismatch.contains("expected 8903") && mismatch.contains("got 8902"),
        "{mismatch}"
    );
    assert!(
        mismatch.contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
        "{mismatch}"
    );
    assert!(out.contains("1 passed, 1 failed"), "{out}");

    let o = houserules(&["perft", "--suite", suite.path(), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["passed"].as_u64(), Some(1));
    assert_eq!(v["failed"].as_u64(), Some(1));
    let m = &v["mismatches"][0];
    assert_eq!(
        (m["id"].as_str(), m["line"].as_u64(), m["depth"].as_u64()),
        (Some("start-wrong"), Some(5), Some(3))
    );
    assert_eq!(m["position_line"].as_u64(), Some(2));
    assert_eq!(
        (m["expected"].as_u64(), m["got"].as_u64()),
        (Some(8903), Some(8902))
    );
}

/// Regression (new-user trial): a mismatch was reported at the position's
/// `epd` line (2) rather than at the wrong `perft 2 401` (line 4; the start
/// position has 400 at depth 2, chessprogramming.org).
#[test]
fn suite_mismatch_names_the_wrong_perft_line_not_the_epd_line() {
    let suite = TempFile::new(
        "wrong.perft",
        "id start\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20\nperft 2 401\n",
    );
    let o = houserules(&["perft", "--suite", suite.path()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let want = format!("{}:4: start: depth 2: expected 401, got 400", suite.path());
    assert!(out.contains(&want), "{out}");
}

/// Regression (new-user trial): `.epd` mismatches read `q.epd:1: line 1:
/// …`, the line said twice (a position without `id` is named by its line).
#[test]
fn epd_mismatch_says_the_line_once() {
    let suite = TempFile::new(
        "q.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 21\n",
    );
    let o = houserules(&["perft", "--suite", suite.path()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let want = format!("{}:1: depth 1: expected 21, got 20", suite.path());
    assert!(out.contains(&want), "{out}");
}

/// Regression (new-user trial): `perft 1 3 extra` was read as `perft 1 3`.
#[test]
fn suite_perft_line_with_trailing_text_is_refused() {
    let suite = TempFile::new(
        "extra.perft",
        "epd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3 extra\n",
    );
    let o = houserules(&["perft", "--suite", suite.path()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(suite.path()) && err.contains("line 2") && err.contains("`extra`"),
        "{err}"
    );
}

/// Regression (new-user trial): `--max-nodes` without `--suite` was
/// ignored silently when `--depth` was given.
#[test]
fn max_nodes_without_suite_is_refused() {
    let o = houserules(&["perft", "--depth", "1", "--max-nodes", "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("--max-nodes"), "{}", stderr(&o));
}

/// Regression (new-user trial): `--max-nodes 0` checked no count while
/// `HOUSERULES_PERFT_MAX_NODES=0` checks every count (README, "0 checks
/// all"). Now 0 is no limit for both: the wrong `;D2 401` (the start
/// position has 400, chessprogramming.org) is checked and fails.
#[test]
fn max_nodes_0_checks_every_count() {
    let suite = TempFile::new(
        "zero.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    );
    let o = houserules(&["perft", "--suite", suite.path(), "--max-nodes", "0"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("0 passed, 1 failed"), "{}", stdout(&o));
}

#[test]
fn max_nodes_skips_the_deep_counts() {
    // Only the wrong count is above the cap, so the run passes.
    let suite = TempFile::new(
        "capped.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8903\n",
    );
    let out = ok(&["perft", "--suite", suite.path(), "--max-nodes", "8000"]);
    assert!(out.starts_with("1 passed, 0 failed"), "{out}");
}

#[test]
fn tricky_suite_passes() {
    let suite = shared_data().join("perft/tricky.perft");
    let out = ok(&[
        "perft",
        "--suite",
        suite.to_str().expect("a UTF-8 path"),
        "--max-nodes",
        "100000",
    ]);
    assert!(out.starts_with("18 passed, 0 failed"), "{out}");
}

/// Regression (new-user trial): `pgn check /dev/zero` never ended, and a
/// directory was reported as a broken game. Both are unreadable files:
/// one line naming the problem, exit status 2. NUL bytes are binary input
/// (issue 11, wrong answer 9: "not a PGN text file (compressed? use
/// zcat)").
#[test]
fn pgn_check_of_endless_files_and_directories_exits_2() {
    if std::path::Path::new("/dev/zero").exists() {
        let o = houserules(&["pgn", "check", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(2));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("not a PGN text file"), "output: {text}");
    }
    let dir = std::env::temp_dir();
    let o = houserules(&["pgn", "check", dir.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("directory"), "output: {text}");
}

/// Regression (new-user trial): `pgn check /dev/null` printed nothing. A
/// file without any game is reported (`FILE: no game found`; in JSON a
/// line with `game` and `error` null and the warning), and since no game
/// failed, the exit status is 0 (`pgn check --help`).
#[test]
fn pgn_check_of_a_file_without_games_says_so() {
    let empty = TempFile::new("empty.pgn", "");
    let blank = TempFile::new("blank.pgn", "\n\n  \n");
    for f in [&empty, &blank] {
        let o = houserules(&["pgn", "check", f.path()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o), format!("{}: no game found\n", f.path()));

        let o = houserules(&["pgn", "check", "--json", f.path()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).expect("one JSON line");
        assert_eq!(v["file"], f.path());
        assert!(v["game"].is_null() && v["error"].is_null(), "{v}");
        assert_eq!(v["warnings"], serde_json::json!(["no game found"]));
    }
    if Path::new("/dev/null").exists() {
        let o = houserules(&["pgn", "check", "/dev/null"]);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(stdout(&o), "/dev/null: no game found\n");
    }
}

/// Regression (new-user trial): a file that is not UTF-8 was reported as
/// "stream did not contain valid UTF-8", without a place. The bytes
/// `id: x\n` (6) and `name: caf` (9) come before the Latin-1 `é` (0xE9),
/// so the first invalid byte is at offset 15, line 2, column 10.
#[test]
fn non_utf8_files_are_reported_with_the_place_of_the_first_bad_byte() {
    let path =
        std::env::temp_dir().join(format!("houserules-cli-{}-latin1.yaml", std::process::id()));
    std::fs::write(&path, b"id: x\nname: caf\xe9\n").expect("written");
    let p = path.to_str().expect("utf-8 path");
    let json = path.with_extension("json");
    std::fs::write(&json, b"id: x\nname: caf\xe9\n").expect("written");
    let j = json.to_str().expect("utf-8 path");
    for args in [
        vec!["validate", p],
        vec!["perft", "--game", p, "--depth", "1"],
        vec!["perft", "--suite", p],
        vec!["play", "--create", j],
        vec!["moves", "--state", j],
    ] {
        let o = houserules(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("offset 15") && err.contains("line 2, column 10"),
            "{args:?}: {err}"
        );
    }
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&json);
}

/// Regression (new-user trial): a closed standard output exited with 1,
/// which the help reserves for a failed check. A closed pipe (the reader
/// has all it wants, `| head -c1`) discards the output quietly and a
/// passing run keeps its status 0; any other write error (`> /dev/full`: no space left on
/// the device) is reported on stderr with status 2.
#[test]
fn closed_or_full_standard_output_follows_ripgrep() {
    use std::process::Stdio;
    // The reading end is closed before the child writes anything
    // (perft of depth 4 with --divide only prints once it has counted).
    let mut child = Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(["perft", "--depth", "4", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("it ends");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "a closed pipe ends quietly");

    if Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let o = Command::new(env!("CARGO_BIN_EXE_houserules"))
            .args(["perft", "--depth", "2"])
            .stdout(full)
            .output()
            .expect("the binary runs");
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("cannot write output"), "{}", stderr(&o));
    }
}

/// Runs the binary with its standard output on a pipe whose reading end is
/// closed before the program starts, so every write meets a closed pipe.
fn into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(args)
        .stdout(writer)
        .output()
        .expect("the binary runs")
}

/// Regression (new-user trial): `pgn check BAD | head -c1` exited 0 where
/// `pgn check BAD` exits 1, and `play` with a refused input piped to
/// `head` sometimes did too, hiding the failure from `set -o pipefail`. A
/// closed pipe only discards the output: the exit status stays the one
/// `pgn check --help` and `play --help` give, 1 for a game with an error
/// (`Ke3` in this game: no white king can reach e3 after 1. e4 e5, it
/// stands on e1) and 1 for a refused input (`d7d5` when White is to move
/// in the initial position), with nothing on stderr.
#[test]
fn closed_pipe_keeps_the_status_of_a_failed_check() {
    let pgn = TempFile::new("bad-game.pgn", "1. e4 e5 2. Ke3 *\n");
    let o = into_closed_pipe(&["pgn", "check", pgn.path()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");

    let req = TempFile::new("pipe-request.json", "{}");
    let inputs = TempFile::new("pipe-inputs.jsonl", "{\"move\": \"d7d5\"}\n");
    let o = into_closed_pipe(&["play", "--create", req.path(), "--inputs", inputs.path()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

/// Regression (new-user trial): `houserules --help >/dev/full` exited 0
/// silently, though the README says output that cannot be written (a full
/// device) is an error with status 2. Clap prints help and version itself.
#[test]
fn help_and_version_into_a_full_device_exit_2() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for args in [&["--help"][..], &["--version"], &["pgn", "check", "--help"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let o = Command::new(env!("CARGO_BIN_EXE_houserules"))
            .args(args)
            .stdout(full)
            .output()
            .expect("the binary runs");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("cannot write output"), "{}", stderr(&o));
    }
    // Into a closed pipe the help is only discarded: status 0, as clap
    // gives for help.
    let o = into_closed_pipe(&["--help"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Regression (new-user trial): a 20 KB FEN was echoed in full in its
/// error, and a game file's source excerpt printed raw ESC/BEL/backspace
/// bytes. Echoed input is cut to 80 characters plus `… (N bytes)` (N the
/// whole length), and control characters are escaped (`\u{1b}`).
#[test]
fn errors_echo_bounded_input_without_control_bytes() {
    let fen = format!(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {}",
        "x".repeat(20_000)
    );
    let o = houserules(&["perft", "--fen", &fen, "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.len() < 1000, "{} bytes of error", err.len());
    assert!(
        err.contains(&format!("`{}… ({} bytes)`", &fen[..80], fen.len())),
        "{err}"
    );

    let yaml = TempFile::new("control.yaml", "");
    std::fs::write(&yaml.0, b"id: x\nbogus: a\x1b[2J\x07\x08b\n").expect("written");
    let o = houserules(&["validate", yaml.path()]);
    let all = [o.stdout.clone(), o.stderr.clone()].concat();
    for byte in [0x1b, 0x07, 0x08] {
        assert!(
            !all.contains(&byte),
            "raw byte {byte:#x}: {}",
            String::from_utf8_lossy(&all)
        );
    }
    // The excerpt shows the line, escaped.
    assert!(
        String::from_utf8_lossy(&all).contains("\\u{1b}[2J\\u{7}\\u{8}b"),
        "{}",
        String::from_utf8_lossy(&all)
    );
}

/// Regression (new-user trial): `pgn check -` did not read standard input,
/// the usual CLI convention. The game `1. e4 e5 2. Ke3` has an error
/// (no white king can reach e3 from e1), so `pgn check -` fed it on stdin
/// exits 1 (`pgn check --help`) and names `<stdin>` as its file.
#[test]
fn pgn_check_dash_reads_standard_input() {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(["pgn", "check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"1. e4 e5 2. Ke3 *\n")
        .expect("written");
    let o = child.wait_with_output().expect("it ends");
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).starts_with("<stdin>: game 1"), "{}", stdout(&o));
}

/// Regression (new-user trial): `validate --json` on a file that cannot be
/// read printed text only. It prints the report shape of `validate --json`
/// (`validate --help`): `{"ok": false, "findings": [...]}` with one
/// finding of code `file.unreadable`, in the game-file shape (`file`,
/// `line`, `column`, `help`) or the descriptor shape (`path`), and keeps
/// the exit status 2 of an unreadable file.
#[test]
fn validate_json_of_an_unreadable_file_prints_the_json_report() {
    for (file, descriptor) in [
        ("/nonexistent/houserules-game.yaml", false),
        ("/nonexistent/houserules-rule.json", true),
    ] {
        let o = houserules(&["validate", "--json", file]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
        assert_eq!(v["ok"], false);
        let f = &v["findings"][0];
        assert_eq!(v["findings"].as_array().map(Vec::len), Some(1), "{v}");
        assert_eq!(f["code"], "file.unreadable");
        assert!(
            f["message"].as_str().is_some_and(|m| m.contains(file)),
            "{v}"
        );
        if descriptor {
            assert_eq!(f["path"], "$");
        } else {
            assert_eq!(f["file"], file);
            assert!(f["line"].is_null() && f["column"].is_null(), "{v}");
        }
    }
    // A file that is not UTF-8 has a place: `id: x\n` (6 bytes) and
    // `name: caf` (9) come before the Latin-1 `é`, at line 2, column 10.
    let latin1 = TempFile::new("latin1-json.yaml", "");
    std::fs::write(&latin1.0, b"id: x\nname: caf\xe9\n").expect("written");
    let o = houserules(&["validate", "--json", latin1.path()]);
    assert_eq!(o.status.code(), Some(2));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    let f = &v["findings"][0];
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(2), Some(10)),
        "{v}"
    );
}

/// Regression (new-user trial): a one-move game was "1 plies". One half-move
/// is one ply; 0 and 2 stay "plies" (plural in English for all but one).
#[test]
fn pgn_check_says_1_ply_not_1_plies() {
    let pgn = TempFile::new("one.pgn", "1. e4 *\n\n1. e4 e5 *\n");
    let out = ok(&["pgn", "check", pgn.path()]);
    assert!(out.contains("game 1: 1 ply,"), "{out}");
    assert!(out.contains("game 2: 2 plies,"), "{out}");
}
