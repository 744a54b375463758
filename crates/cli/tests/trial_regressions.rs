//! Regression tests for wrong answers found by the trial session (a fresh
//! user's run of the README). Each fails on commit 015a61a. Expected values
//! are python-chess 1.11.2's or derived by hand (quoted beside each).

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

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("houserules-trial-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// A PGN `FEN` tag with two white kings: python-chess
/// `Board("k7/8/8/8/8/8/8/K6K w - - 0 1").status()` has
/// `STATUS_TOO_MANY_KINGS`, and `houserules moves --fen` refuses it ("white
/// has 2 kings (a1, h1), the rules allow 1"). `pgn check` replayed the game
/// and exited 0.
#[test]
fn pgn_fen_tag_with_two_white_kings_is_refused() {
    let pgn = temp("two-kings.pgn");
    std::fs::write(
        &pgn,
        "[Event \"y\"]\n[FEN \"k7/8/8/8/8/8/8/K6K w - - 0 1\"]\n[SetUp \"1\"]\n[Result \"*\"]\n\n1. Kb2 *\n",
    )
    .unwrap();
    let (code, out, err) = run(&["pgn", "check", pgn.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("2 kings"), "{out}{err}");
}

/// `state --game capablanca --rules suicide-chess --pgn` writes
/// `[Variant "capablanca+suicide-chess"]` and `[HouseRules "suicide-chess"]`;
/// `pgn check` of that file must replay on the 10x8 Capablanca board. By
/// hand: Capablanca's start `rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/
/// RNABQKBCNR`, then e2e4 and d7d5. It was replayed as 8x8 chess.
#[test]
fn written_variant_with_house_rules_replays_on_its_own_board() {
    let pgn = temp("capa-suicide.pgn");
    let (code, out, err) = run(&[
        "state",
        "--game",
        "capablanca",
        "--rules",
        "suicide-chess",
        "--play",
        "e4 d5",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(&["pgn", "check", pgn.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("rnabqkbcnr/ppp1pppppp/10/3p6/4P5/10/PPPP1PPPPP/RNABQKBCNR"),
        "{out}{err}"
    );
}

/// Session-6 trial: `state --play e4 --pgn x.pgn -o x.pgn` exited 0 with
/// the JSON document over the PGN. Two outputs on one file are refused,
/// nothing is written, exit status 2.
#[test]
fn state_pgn_and_output_on_one_file_are_refused() {
    let path = temp("state-both.out");
    let _ = std::fs::remove_file(&path);
    let p = path.to_str().expect("UTF-8 temp path");
    let (code, _, err) = run(&["state", "--play", "e4", "--pgn", p, "-o", p]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("name the same file"), "{err}");
    assert!(!path.exists(), "nothing is written");
}

/// Session-8 trial: `play --pgn` dropped the request's seed, so `pgn check`
/// replayed a kamikaze game with seed 0 and silently reached another
/// position. The record now carries `[Seed "7"]` and the replay ends where
/// `play` ended. (With seed 7 the kamikaze blast after 2...exa3 hits,
/// with seed 0 it does not: the trial saw both positions, so the two
/// paths disagree unless the seed travels.)
#[test]
fn play_pgn_keeps_the_seed_of_random_modifiers() {
    let request = temp("seed-request.json");
    std::fs::write(
        &request,
        r#"{"game":"gardner","presets":["wrap-board"],"modifiers":["kamikaze"],"seed":7}"#,
    )
    .unwrap();
    let inputs = temp("seed-inputs.jsonl");
    std::fs::write(&inputs, "{\"move\":\"Na3\"}\n{\"move\":\"e4a3\"}\n").unwrap();
    let pgn = temp("seed.pgn");
    let (code, out, err) = run(&[
        "play",
        "--create",
        request.to_str().unwrap(),
        "--inputs",
        inputs.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let played: serde_json::Value = serde_json::from_str(&out).unwrap();
    let written = std::fs::read_to_string(&pgn).unwrap();
    assert!(written.contains("[Seed \"7\"]"), "{written}");
    // Gardner's own start: no SetUp/FEN tags.
    assert!(!written.contains("[FEN"), "{written}");
    let (code, out, err) = run(&["pgn", "check", "--json", pgn.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let r: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["final_fen"], played["fen"], "{out}");
    // A Seed tag that is not a u32 is an error naming it.
    let bad = temp("seed-bad.pgn");
    std::fs::write(&bad, written.replace("[Seed \"7\"]", "[Seed \"-1\"]")).unwrap();
    let (code, out, err) = run(&["pgn", "check", bad.to_str().unwrap()]);
    assert_ne!(code, 0, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("Seed tag `-1`"),
        "{out}{err}"
    );
}

/// Session-8 trial: a YAML game that kept a shipped game's id (a copy of
/// `gardner.yaml` with wrapped files) was replayed by `pgn check --game
/// FILE.yaml` as the shipped Gardner, where its wrapped capture is
/// illegal. On the wrapped board the b1 knight reaches a3 and the e4 pawn
/// (Black's, Gardner's start `rnbqk/ppppp/5/PPPPP/RNBQK`) takes it across
/// the edge: e4 to a3 is one diagonal step forward when file e wraps to a.
#[test]
fn a_yaml_game_with_a_shipped_id_replays_on_the_file() {
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../definitions/games/gardner.yaml"
    ))
    .unwrap();
    assert!(shipped.contains("id: gardner"));
    let yaml = temp("gardner-wrap.yaml");
    std::fs::write(&yaml, wrap_files(&shipped)).unwrap();
    let pgn = temp("gardner-wrap.pgn");
    let (code, out, err) = run(&[
        "state",
        "--game",
        yaml.to_str().unwrap(),
        "--play",
        "Na3 exa3",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(&[
        "pgn",
        "check",
        "--game",
        yaml.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

/// Adds `edge: WrapFiles` to every movement entry (`- type: …`) of a
/// game file, the way docs/game-format.md writes a cylinder board.
fn wrap_files(yaml: &str) -> String {
    yaml.lines()
        .flat_map(|l| {
            let t = l.trim_start();
            if t.starts_with("- type: ") {
                let indent = l.len() - t.len() + 2;
                vec![
                    l.to_string(),
                    format!("{}edge: WrapFiles", " ".repeat(indent)),
                ]
            } else {
                vec![l.to_string()]
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Session-8 trial (item 3): SAN under modifiers was disambiguated among
/// the engine's moves, not the rule set's. With `pacman_style` (files
/// wrap) on `4k3/8/8/8/8/8/8/1R2K1R1 w`, by hand both rooks reach a1 (b1
/// directly, g1 over h1 and the wrapped edge), so each is written with its
/// file: `Rba1`, `Rga1`. `play --pgn` wrote `1. Ra1`, which `pgn check`
/// then refused as ambiguous; now it round-trips to the rook from b1 on
/// a1 (`4k3/8/8/8/8/8/8/R3K1R1 b - - 1 1`).
#[test]
fn session_san_is_disambiguated_among_the_rule_sets_moves() {
    let fen = "4k3/8/8/8/8/8/8/1R2K1R1 w - - 0 1";
    let (code, out, err) = run(&["moves", "--modifiers", "pacman_style", "--fen", fen]);
    assert_eq!(code, 0, "{out}{err}");
    let line = |uci: &str| {
        out.lines()
            .find(|l| l.starts_with(uci))
            .map(|l| l.split_whitespace().nth(1).unwrap_or("").to_string())
    };
    assert_eq!(line("b1a1").as_deref(), Some("Rba1"), "{out}");
    assert_eq!(line("g1a1").as_deref(), Some("Rga1"), "{out}");
    let req = temp("pacman-req.json");
    std::fs::write(
        &req,
        format!("{{\"modifiers\":[\"pacman_style\"],\"fen\":\"{fen}\"}}"),
    )
    .unwrap();
    let inputs = temp("pacman-in.jsonl");
    std::fs::write(&inputs, "{\"move\":\"b1a1\"}\n").unwrap();
    let pgn = temp("pacman.pgn");
    let (code, out, err) = run(&[
        "play",
        "--create",
        req.to_str().unwrap(),
        "--inputs",
        inputs.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("1. Rba1 "), "{text}");
    let (code, out, err) = run(&["pgn", "check", pgn.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("4k3/8/8/8/8/8/8/R3K1R1 b - - 1 1"),
        "{out}{err}"
    );
}

/// A Chess960 position typed in the default game (issue 25 § 5): its
/// castling rights `Ada` (White's a-file rook, Black's d- and a-file
/// rooks, kings on c1 and c8) were dropped without a word, and perft 4
/// gave 95,035. python-chess 1.11.2, `Board(FEN, chess960=True)`: perft
/// 1–4 = 3, 122, 2,444, 95,135 (castling field `Qkq` in X-FEN).
#[test]
fn chess960_fen_in_default_game_keeps_its_castling_rights() {
    let fen = "r1krn1bb/2B1p1pp/1pp2p2/p2p4/8/1n1Pq2P/PPPRP1P1/RQK1N2B w Ada - 4 11";
    let (code, out, err) = run(&["perft", "--fen", fen, "--depth", "4"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Nodes: 95135"), "{out}{err}");
}
