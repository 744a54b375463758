//! `--play MOVES` on `moves`, `perft` and `state` for every way of choosing
//! a game, the claimable draws `moves` shows, and `state --pgn`. Expected
//! values come from python-chess 1.11 (perft of the position the moves
//! reach, SAN, PGN read back) or from hand derivations in comments.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn houserules(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(args)
        .output()
        .expect("the houserules binary runs")
}

fn ok(args: &[&str]) -> String {
    let o = houserules(args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "houserules {args:?} failed: {out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn fails(args: &[&str]) -> String {
    let o = houserules(args);
    assert_eq!(o.status.code(), Some(2), "houserules {args:?} should fail");
    String::from_utf8_lossy(&o.stderr).into_owned()
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

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("houserules-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir.join(name)
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
        .display()
        .to_string()
}

#[test]
fn play_reaches_the_position_for_every_way_of_choosing_a_game() {
    // python-chess: after 1. e4 e5 2. Nf3 Nc6 3. Bb5, perft(1) = 30,
    // perft(3) = 28579; chess.yaml is FIDE chess written as a game file.
    let ruy = "e4 e5 Nf3 Nc6 Bb5";
    assert_eq!(nodes(&["perft", "--play", ruy, "--depth", "3"]), 28579);
    let yaml = repo("crates/definitions/games/chess.yaml");
    assert_eq!(
        nodes(&["perft", "--game", &yaml, "--play", ruy, "--depth", "3"]),
        28579
    );
    let moves = ok(&[
        "moves",
        "--game",
        "chess",
        "--play",
        "1.e4 e5 2.Nf3 Nc6 3.Bb5",
    ]);
    assert_eq!(moves.lines().count(), 30, "{moves}");
    // Shipped game: Capablanca's start has 28 moves (Fairy-Stockfish
    // perft 1); White's e2e4 neither blocks nor opens a Black move.
    assert_eq!(
        nodes(&[
            "perft",
            "--game",
            "capablanca",
            "--play",
            "e2e4",
            "--depth",
            "1"
        ]),
        28
    );
    // Presets: python-chess AntichessBoard after 1. e3 b5 2. Bxb5,
    // perft(2) = 24 (captures are compulsory for White's replies).
    assert_eq!(
        nodes(&[
            "perft",
            "--rules",
            "suicide-chess",
            "--play",
            "e3,b5,Bxb5",
            "--depth",
            "2"
        ]),
        24
    );
    // --fen: python-chess, Kiwipete after O-O: perft(2) = 2059.
    assert_eq!(
        nodes(&["perft", "--fen", KIWIPETE, "--play", "O-O", "--depth", "2"]),
        2059
    );
    // --layout: chess960:518 is the standard array; python-chess perft(2)
    // after 1. e4 = 600.
    assert_eq!(
        nodes(&[
            "perft",
            "--layout",
            "chess960:518",
            "--play",
            "e2e4",
            "--depth",
            "2"
        ]),
        600
    );
    // --state: python-chess perft(2) after 1. e4 e5 = 835.
    let state = scratch("after-e4.json");
    ok(&["state", "--play", "e4", "--output", state.to_str().unwrap()]);
    assert_eq!(
        nodes(&[
            "perft",
            "--state",
            state.to_str().unwrap(),
            "--play",
            "e5",
            "--depth",
            "2"
        ]),
        835
    );
}

#[test]
fn a_bad_move_names_its_number_text_position_and_reason() {
    let err = fails(&["moves", "--game", "capablanca", "--play", "e2e4 e7e5 Qxe5"]);
    assert!(
        err.contains("--play: move 3 `Qxe5` cannot be played in `")
            && err.contains("not a legal move"),
        "{err}"
    );
    let err = fails(&["perft", "--play", "e4,e4", "--depth", "1"]);
    assert!(
        err.contains("move 2 `e4`")
            && err.contains("`rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1`"),
        "{err}"
    );
}

#[test]
fn moves_show_threefold_claims_by_announcing_a_move_and_without() {
    // FIDE 9.2.1: after 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1, Black's
    // Ng8 would give the start position a third time.
    let out = ok(&["moves", "--play", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"]);
    let claiming: Vec<&str> = out.lines().filter(|l| l.contains("claim")).collect();
    assert_eq!(claiming, ["f6g8   Ng8      claim: threefold-repetition"]);
    let json: Value = serde_json::from_str(&ok(&[
        "moves",
        "--play",
        "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1",
        "--json",
    ]))
    .unwrap();
    let with: Vec<&Value> = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m.get("claims").is_some())
        .collect();
    assert_eq!(with.len(), 1);
    assert_eq!(with[0]["uci"], "f6g8");
    assert_eq!(
        with[0]["claims"],
        serde_json::json!(["threefold-repetition"])
    );
    // FIDE 9.2.2: once Ng8 is played, White may claim without a move.
    let out = ok(&["moves", "--play", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"]);
    assert!(
        out.lines()
            .any(|l| l == "claimable draw: threefold-repetition"),
        "{out}"
    );
    let o = houserules(&[
        "moves",
        "--play",
        "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
        "--json",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("claimable draw: threefold-repetition"));
}

#[test]
fn moves_show_fifty_move_claims() {
    // FIDE 9.3.1: 99 quiet half-moves; every move of the lone king and
    // rook is quiet (nothing to capture) and none mates, so each one
    // announced completes the fifty moves: 5 king moves (d1, d2, e2, f2,
    // f1) and 10 rook moves (a2-a8, b1-d1), castling (O-O-O) included.
    let out = ok(&["moves", "--fen", "8/8/8/4k3/8/8/8/R3K3 w Q - 99 80"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 16, "{out}");
    assert!(
        lines.iter().all(|l| l.ends_with("claim: fifty-move-rule")),
        "{out}"
    );
    // FIDE 9.3.2: at 100 the claim needs no move.
    let out = ok(&["moves", "--fen", "8/8/8/4k3/8/8/8/R3K3 w - - 100 80"]);
    assert!(
        out.lines().any(|l| l == "claimable draw: fifty-move-rule"),
        "{out}"
    );
}

#[test]
fn state_pgn_is_read_back_by_python_chess() {
    // The moves (UCI) and their SAN as python-chess writes them; reading
    // the written file with python-chess `chess.pgn.read_game` gave back
    // these UCI moves and no errors (checked when the test was written).
    let uci = "e2e4 d7d5 e4d5 g8f6 d2d4 f6d5 c2c4 d5b6 g1f3 c8g4 f1e2 e7e6 e1g1 f8e7 \
               b1c3 e8g8 c4c5 b6d5 d1b3 b7b5 c5b6 a7b6 b3b5 g4f3 e2f3 d5c3 b2c3 e7d6 \
               b5d3 d6h2 g1h2 d8h4 h2g1";
    let san = [
        "e4", "d5", "exd5", "Nf6", "d4", "Nxd5", "c4", "Nb6", "Nf3", "Bg4", "Be2", "e6", "O-O",
        "Be7", "Nc3", "O-O", "c5", "Nd5", "Qb3", "b5", "cxb6", "axb6", "Qb5", "Bxf3", "Bxf3",
        "Nxc3", "bxc3", "Bd6", "Qd3", "Bxh2+", "Kxh2", "Qh4+", "Kg1",
    ];
    let path = scratch("game.pgn");
    ok(&["state", "--play", uci, "--pgn", path.to_str().unwrap()]);
    let text = std::fs::read_to_string(&path).unwrap();
    let game = houserules_pgn::Reader::new(text.as_bytes())
        .next()
        .expect("one game")
        .expect("valid PGN");
    assert_eq!(game.mainline_sans().collect::<Vec<_>>(), san);
    assert_eq!(game.tag("Result"), Some("*"));
    assert_eq!(game.tag("FEN"), None);
    assert_eq!(game.tag("Variant"), None);
    assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"));
}

#[test]
fn state_pgn_tags_the_start_position_rules_and_result() {
    // A set-up position: SetUp and FEN; python-chess SAN a8=Q Kg6 Qg8+ Kf5
    // and numbering from move 40.
    let path = scratch("setup.pgn");
    ok(&[
        "state",
        "--fen",
        "8/P4k2/8/8/8/8/6K1/8 w - - 0 40",
        "--play",
        "a7a8q f7g6 a8g8 g6f5",
        "--pgn",
        path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("[SetUp \"1\"]\n[FEN \"8/P4k2/8/8/8/8/6K1/8 w - - 0 40\"]\n\n40. a8=Q Kg6 41. Qg8+ Kf5 *\n"),
        "{text}"
    );
    // Fool's mate: Black mates (FIDE 5.1.1), result 0-1.
    ok(&[
        "state",
        "--play",
        "f3 e5 g4 Qh4#",
        "--pgn",
        path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("[Result \"0-1\"]") && text.ends_with("1. f3 e5 2. g4 Qh4# 0-1\n\n"),
        "{text}"
    );
    // Presets in --rules syntax; a shipped game by its id (its state
    // document names the game, issue 12).
    ok(&[
        "state",
        "--rules",
        "piece-hp",
        "--play",
        "e4",
        "--pgn",
        path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    // (every parameter written, as --rules takes them)
    assert!(text.contains("[HouseRules \"piece-hp"), "{text}");
    let out = ok(&[
        "state",
        "--game",
        "capablanca",
        "--play",
        "e2e4",
        "--pgn",
        path.to_str().unwrap(),
    ]);
    assert!(out.contains("\"game\": \"capablanca\""), "{out}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("[Variant \"capablanca\"]") && text.contains("1. e4 *"),
        "{text}"
    );
    // A Chess960 layout: Variant Chess960 and the layout's position.
    ok(&[
        "state",
        "--layout",
        "chess960:0",
        "--pgn",
        path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("[Variant \"Chess960\"]")
            && text.contains("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w "),
        "{text}"
    );
}

/// Runs `play` on a request and input lines written to scratch files, with
/// `--pgn`, and returns the exit status and the PGN text.
fn play_pgn(name: &str, request: &str, inputs: &[&str]) -> (Option<i32>, String) {
    let req = scratch(&format!("{name}.json"));
    let inp = scratch(&format!("{name}.jsonl"));
    let pgn = scratch(&format!("{name}.pgn"));
    std::fs::write(&req, request).unwrap();
    std::fs::write(&inp, inputs.join("\n")).unwrap();
    let o = houserules(&[
        "play",
        "--create",
        req.to_str().unwrap(),
        "--inputs",
        inp.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    (
        o.status.code(),
        std::fs::read_to_string(&pgn).unwrap_or_default(),
    )
}

#[test]
fn play_takes_san_inputs_and_writes_pgn() {
    // Fool's mate in SAN and UCI mixed: Black mates (FIDE 5.1.1).
    let (code, pgn) = play_pgn(
        "fools",
        "{}",
        &[
            r#"{"move": "f3"}"#,
            r#"{"move": "e7e5"}"#,
            r#"{"move": "g4"}"#,
            r#"{"move": "Qh4#"}"#,
        ],
    );
    assert_eq!(code, Some(0), "{pgn}");
    assert!(
        pgn.contains("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"),
        "{pgn}"
    );
    // A SAN move naming no legal move is refused with its line, and the
    // PGN holds the moves accepted.
    let (code, pgn) = play_pgn(
        "refused",
        r#"{"presets": ["piece-hp"]}"#,
        &[r#"{"move": "e4"}"#, r#"{"move": "Qxe4"}"#],
    );
    assert_eq!(code, Some(1));
    assert!(
        pgn.contains("[HouseRules \"piece-hp") && pgn.contains("\n1. e4 *\n"),
        "{pgn}"
    );
    // Library modifiers by id (anti_camping first asks White for an enemy
    // piece: the b8 knight). The answer, given before the first move, is a
    // `[%hr choice …]` comment before it (issue 26 item 8).
    let (code, pgn) = play_pgn(
        "modifiers",
        r#"{"modifiers": ["anti_camping"], "seed": 7}"#,
        &[r#"{"choice": "b8"}"#, r#"{"move": "e4"}"#],
    );
    assert_eq!(code, Some(0), "{pgn}");
    assert!(
        pgn.contains("[Modifiers \"anti_camping\"]")
            && pgn.contains("\n{[%hr choice b8]} 1. e4 *\n"),
        "{pgn}"
    );
}
