//! End-to-end tests of the game-choosing commands and options: `games`,
//! `validate`, `rules`, and `--game`, `--rules`, `--layout` on `perft`,
//! `moves` and `pgn check`. Expected counts come from
//! `../shared/data/variant-perft.tsv` (Fairy-Stockfish), looked up here by
//! rules, FEN and depth, or from the chessprogramming.org tables; never
//! from our own output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn houserules(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(args)
        .output()
        .expect("the houserules binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Runs the binary and requires exit status 0; returns stdout.
fn ok(args: &[&str]) -> String {
    let o = houserules(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "houserules {args:?} failed: {}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    text(&o.stdout)
}

/// Runs the binary and requires exit status `code`; returns stderr.
fn fails(args: &[&str], code: i32) -> String {
    let o = houserules(args);
    assert_eq!(
        o.status.code(),
        Some(code),
        "houserules {args:?}: {}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    text(&o.stderr)
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

fn shared_data() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    assert!(
        dir.is_dir(),
        "the shared test data is missing: expected the folder {}",
        dir.display()
    );
    dir
}

/// The node count of the `variant-perft.tsv` row with this rules column,
/// FEN and depth.
fn tsv(rules: &str, fen: &str, depth: u32) -> u64 {
    let path = shared_data().join("variant-perft.tsv");
    let table = std::fs::read_to_string(&path).expect("variant-perft.tsv");
    table
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f.len() >= 5 && f[0] == rules && f[2] == fen && f[3] == depth.to_string())
        .unwrap_or_else(|| panic!("no tsv row {rules} / {fen} / depth {depth}"))[4]
        .parse()
        .expect("a node count")
}

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "houserules-cli-games-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

// --- games ---------------------------------------------------------------

#[test]
fn games_json_lists_the_shipped_definitions() {
    let out = ok(&["games", "--json"]);
    let games: Vec<Value> = serde_json::from_str(&out).expect("a JSON array");
    let ids: Vec<&str> = games.iter().filter_map(|g| g["id"].as_str()).collect();
    for id in ["chess", "capablanca", "grand", "gardner", "los-alamos"] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    let capa = games
        .iter()
        .find(|g| g["id"] == "capablanca")
        .expect("capablanca");
    assert_eq!(
        (capa["width"].as_u64(), capa["height"].as_u64()),
        (Some(10), Some(8))
    );
    let letters: Vec<&str> = capa["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .filter_map(|p| p["letter"].as_str())
        .collect();
    // Fairy-Stockfish letters: archbishop A, chancellor C.
    assert!(
        letters.contains(&"A") && letters.contains(&"C"),
        "{letters:?}"
    );
    let text = ok(&["games"]);
    assert!(
        text.lines()
            .any(|l| l.starts_with("grand") && l.contains("10x10")),
        "{text}"
    );
}

// --- --game ----------------------------------------------------------------

#[test]
fn perft_of_shipped_games_matches_fairy_stockfish() {
    let capa = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    assert_eq!(tsv("game:capablanca", capa, 3), 25228);
    assert_eq!(
        nodes(&["perft", "--game", "capablanca", "--depth", "3"]),
        tsv("game:capablanca", capa, 3)
    );
    let gardner = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1";
    assert_eq!(
        nodes(&["perft", "--game", "gardner", "--depth", "4"]),
        tsv("game:gardner", gardner, 4)
    );
    // --fen is in the game's letters.
    assert_eq!(
        nodes(&[
            "perft",
            "--game",
            "capablanca",
            "--fen",
            capa,
            "--depth",
            "2"
        ]),
        tsv("game:capablanca", capa, 2)
    );
}

#[test]
fn moves_and_pgn_check_take_a_game() {
    let moves = ok(&["moves", "--game", "gardner"]);
    assert_eq!(
        moves.lines().count() as u64,
        tsv("game:gardner", "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1", 1)
    );
    let dir = scratch("gardner-pgn");
    let pgn = dir.join("g.pgn");
    std::fs::write(&pgn, "1. d3 *\n").expect("write");
    let out = ok(&[
        "pgn",
        "check",
        "--game",
        "gardner",
        pgn.to_str().expect("utf-8"),
    ]);
    assert!(out.contains("game 1: 1 ply,"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_file_works_like_a_shipped_game() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../definitions/games/gardner.yaml");
    assert_eq!(
        nodes(&[
            "perft",
            "--game",
            file.to_str().expect("utf-8"),
            "--depth",
            "3"
        ]),
        tsv("game:gardner", "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1", 3)
    );
}

/// A game file whose moves carry mutations (run as rule hooks) plays from
/// the CLI and validates. The counts are derived by hand in
/// crates/definitions/tests/mutations.rs (the Bomber destroys itself when
/// it captures: perft(2) = 100, 99 without the mutation).
#[test]
fn a_game_file_with_mutations_plays_and_validates() {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../definitions/tests/data/mutations.yaml");
    let file = file.to_str().expect("utf-8");
    let fen = "4k/5/2b2/2B2/K4 w - - 0 1";
    assert_eq!(
        nodes(&["perft", "--game", file, "--fen", fen, "--depth", "2"]),
        100
    );
    assert!(ok(&["validate", file]).starts_with("ok: "));
}

#[test]
fn unknown_games_and_bad_fens_exit_2() {
    let err = fails(&["perft", "--game", "capablance", "--depth", "1"], 2);
    assert!(err.contains("did you mean `capablanca`"), "{err}");
    // An 8x8 FEN is not a Capablanca position.
    let err = fails(
        &[
            "perft",
            "--game",
            "capablanca",
            "--fen",
            START,
            "--depth",
            "1",
        ],
        2,
    );
    assert!(err.contains("--fen") && err.contains("capablanca"), "{err}");
}

/// Regression (new-user trial): `--game DIR` said "no such file".
#[test]
fn a_directory_as_game_file_is_named_as_such() {
    let dir = scratch("game-dir");
    let arg = format!("{}/", dir.display());
    let err = fails(&["perft", "--game", &arg, "--depth", "1"], 2);
    assert!(err.contains("is a directory"), "{err}");
    let missing = format!("{}/missing.yaml", dir.display());
    let err = fails(&["perft", "--game", &missing, "--depth", "1"], 2);
    assert!(err.contains("no such file"), "{err}");
}

// --- validate --------------------------------------------------------------

#[test]
fn validate_a_good_and_a_bad_file() {
    let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("../definitions/games/gardner.yaml");
    let out = ok(&["validate", good.to_str().expect("utf-8")]);
    assert_eq!(out.trim(), "ok: gardner (Gardner minichess)");

    let dir = scratch("validate");
    let bad = dir.join("bad.yaml");
    let text = std::fs::read_to_string(&good).expect("read gardner.yaml");
    let line = text
        .lines()
        .position(|l| l.starts_with("board:"))
        .expect("a board key")
        + 1;
    std::fs::write(&bad, text.replacen("\nboard:", "\nbord:", 1)).expect("write");
    let err = fails(&["validate", bad.to_str().expect("utf-8")], 1);
    assert!(err.contains(&format!("bad.yaml:{line}:1")), "{err}");
    assert!(err.contains("unknown key `bord`"), "{err}");
    assert!(err.contains("did you mean `board`?"), "{err}");
    assert!(err.contains("| bord:"), "snippet: {err}");

    let err = fails(
        &[
            "validate",
            dir.join("missing.yaml").to_str().expect("utf-8"),
        ],
        2,
    );
    assert!(err.contains("missing.yaml"), "{err}");
    // Regression (new-user trial): --json was ignored for YAML files.
    let o = houserules(&["validate", bad.to_str().expect("utf-8"), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value =
        serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).expect("one JSON object");
    assert_eq!(v["ok"], false);
    let f = &v["findings"][0];
    assert_eq!(f["code"], "houserules::unknown-key", "{v}");
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(line as u64), Some(1))
    );
    assert!(f["message"].as_str().unwrap().contains("`bord`"), "{v}");
    let out = ok(&["validate", good.to_str().expect("utf-8"), "--json"]);
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(
        (&v["ok"], &v["id"]),
        (&Value::from(true), &Value::from("gardner"))
    );
    let json = dir.join("modifier.json");
    std::fs::write(&json, "{}").expect("write");
    // A .json file is a modifier descriptor (tests/modifiers.rs).
    let err = fails(&["validate", json.to_str().expect("utf-8")], 1);
    assert!(err.contains("descriptor.field.missing"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

// --- rules and layouts --------------------------------------------------------

#[test]
fn rules_json_lists_34_presets_and_the_layouts() {
    let v: Value = serde_json::from_str(&ok(&["rules", "--json"])).expect("JSON");
    let presets = v["presets"].as_array().expect("presets");
    assert_eq!(presets.len(), 34);
    let ids: Vec<&str> = presets.iter().filter_map(|p| p["id"].as_str()).collect();
    for id in [
        "suicide-chess",
        "coregal",
        "dual-king",
        "trans-rights",
        "piece-hp",
    ] {
        assert!(ids.contains(&id), "{id}");
    }
    for p in presets {
        for key in [
            "name",
            "category",
            "mode",
            "requires",
            "incompatible_with",
            "scope_aware",
            "params",
            "implemented",
            "description",
        ] {
            assert!(p.get(key).is_some(), "{key} missing in {p}");
        }
        assert!(
            p["description"].as_str().is_some_and(|d| d.len() > 20),
            "{p}"
        );
    }
    let layouts: Vec<&str> = v["layouts"]
        .as_array()
        .expect("layouts")
        .iter()
        .filter_map(|l| l["id"].as_str())
        .collect();
    assert_eq!(
        layouts,
        [
            "standard",
            "chess960",
            "dual-classic",
            "knightmate",
            "monster",
            "pawns-only"
        ]
    );
    let text = ok(&["rules"]);
    assert!(
        text.contains("suicide-chess") && text.contains("dual-classic"),
        "{text}"
    );
    // Each preset's description follows its header line (issue 12).
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("double-move "))
        .expect("double-move header");
    assert!(
        lines[at + 1].contains("two moves per turn"),
        "{}",
        lines[at + 1]
    );
}

#[test]
fn preset_perft_matches_fairy_stockfish() {
    let antichess_start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    assert_eq!(tsv("suicide-chess", antichess_start, 3), 8067);
    assert_eq!(
        nodes(&["perft", "--rules", "suicide-chess", "--depth", "3"]),
        tsv("suicide-chess", antichess_start, 3)
    );
    assert_eq!(
        nodes(&["perft", "--rules", "coregal", "--depth", "3"]),
        tsv("coregal", START, 3)
    );
    let dual = "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1";
    assert_eq!(
        nodes(&[
            "perft",
            "--rules",
            "dual-king",
            "--layout",
            "dual-classic",
            "--depth",
            "2"
        ]),
        tsv("dual-king", dual, 2)
    );
    // A FEN overrides the layout's start position.
    let later = "rnbkkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBKK1NR b - - 1 2";
    assert_eq!(
        nodes(&[
            "perft",
            "--rules",
            "dual-king",
            "--layout",
            "dual-classic",
            "--fen",
            later,
            "--depth",
            "2"
        ]),
        tsv("dual-king", later, 2)
    );
}

#[test]
fn preset_suite_matches_the_antichess_perft_file() {
    let suite = shared_data().join("perft/antichess.perft");
    let out = ok(&[
        "perft",
        "--rules",
        "suicide-chess",
        "--suite",
        suite.to_str().expect("utf-8"),
        "--max-nodes",
        "10000",
    ]);
    assert!(out.contains(" 0 failed"), "{out}");
}

#[test]
fn chess960_layout_518_is_the_standard_array() {
    // chessprogramming.org: perft(4) of the start position.
    assert_eq!(
        nodes(&["perft", "--layout", "chess960:518", "--depth", "4"]),
        197_281
    );
}

#[test]
fn bad_rules_exit_2_with_the_preset_message() {
    let err = fails(&["perft", "--rules", "suicde-chess", "--depth", "1"], 2);
    assert!(err.contains("unknown preset `suicde-chess`"), "{err}");
    assert!(err.contains("did you mean `suicide-chess`?"), "{err}");
    let err = fails(&["perft", "--layout", "chess960:960", "--depth", "1"], 2);
    assert!(err.contains("layout `chess960:960`"), "{err}");
    // Presets apply to other games where the game has what they need
    // (issue 12); the Clobberers have no piece with the queen role.
    let err = fails(&["moves", "--game", "clobberers", "--rules", "coregal"], 2);
    assert!(
        err.contains("preset `coregal` does not apply to game `clobberers`")
            && err.contains("role Queen"),
        "{err}"
    );
}

/// Regression (new-user trial): `--rules 'extinction-chess:'` was
/// accepted. The colon announces KEY=VALUE parameters and none follow:
/// bad input (exit 2), naming the preset and the empty list.
#[test]
fn rules_with_an_empty_parameter_list_exit_2() {
    let err = fails(
        &["perft", "--rules", "extinction-chess:", "--depth", "1"],
        2,
    );
    assert!(
        err.contains("`extinction-chess`")
            && err.contains("parameter list")
            && err.contains("empty"),
        "{err}"
    );
}

// --- pgn check with variants ----------------------------------------------------

#[test]
fn pgn_check_replays_antichess_games() {
    let dir = shared_data().join("pgn/python-chess");
    let anti = dir.join("antichess-programfox.pgn");
    let out = ok(&["pgn", "check", "--json", anti.to_str().expect("utf-8")]);
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    // python-chess 1.11.2 (crates/pgn/tests/data/antichess_reference.jsonl).
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["plies"], 62);
    assert_eq!(rows[0]["final_fen"], "8/2k5/8/8/8/8/6b1/8 w - - 0 32");
    assert_eq!(rows[1]["plies"], 64);
    assert_eq!(rows[1]["final_fen"], "8/6k1/3K4/8/8/3k4/8/8 w - - 4 33");
    assert!(rows.iter().all(|r| r["error"].is_null()), "{out}");

    // Crazyhouse replays since it is shipped (issue 25): python-chess 1.11.2
    // reads this lichess game to 122 plies and
    // `r4r2/ppp2ppk/pb1p1pNp/K2NpP2/3qn3/1B3b2/PP5P/8[QRRBNPP] w - - 8 62`
    // (`chess.pgn.read_game(f).end().board().fen()`).
    let zh = dir.join("saturs-jannlee-zh-lichess.pgn");
    let out = ok(&["pgn", "check", "--json", zh.to_str().expect("utf-8")]);
    let row: Value = serde_json::from_str(out.lines().next().expect("a line")).expect("JSON");
    assert_eq!(row["plies"], 122, "{out}");
    assert_eq!(
        row["final_fen"],
        "r4r2/ppp2ppk/pb1p1pNp/K2NpP2/3qn3/1B3b2/PP5P/8[QRRBNPP] w - - 8 62"
    );
    assert!(row["error"].is_null(), "{out}");
}

/// Writes a JSON state file in the test's temporary directory.
fn state_file(name: &str, json: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("houserules-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, json).expect("write the state file");
    path
}

#[test]
fn state_file_with_only_fen_fields_perfts_like_the_fen() {
    // chessprogramming.org "Perft Results": Kiwipete depth 2 = 2,039.
    let path = state_file(
        "kiwipete.json",
        r#"{"format": "houserules-state/1",
            "board": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R",
            "turn": "white", "castling": "KQkq"}"#,
    );
    let p = path.to_str().expect("utf-8");
    assert_eq!(nodes(&["perft", "--state", p, "--depth", "2"]), 2039);
}

#[test]
fn state_file_carries_rules_and_hit_points_to_moves() {
    // RULINGS P6: White's king with 2 HP may stay on the rook's file, so
    // a1a2 is legal; with the default 1 HP it is not.
    let json = r#"{"format": "houserules-state/1", "rules": "piece-hp",
        "board": "4r1k1/8/8/8/8/8/8/R3K3", "turn": "white",
        "pieces": [{"square": "e1", "hp": 2}]}"#;
    let path = state_file("hp.json", json);
    let out = ok(&["moves", "--state", path.to_str().expect("utf-8")]);
    assert!(out.lines().any(|l| l.starts_with("a1a2 ")), "{out}");
    let plain = state_file(
        "hp1.json",
        &json.replace(r#"{"square": "e1", "hp": 2}"#, ""),
    );
    let out = ok(&["moves", "--state", plain.to_str().expect("utf-8")]);
    assert!(!out.lines().any(|l| l.starts_with("a1a2 ")), "{out}");
}

#[test]
fn state_file_errors_name_the_file_and_the_json_path() {
    let path = state_file(
        "bad.json",
        r#"{"format": "houserules-state/1", "rules": "piece-hp", "board": "4k3/8/8/8/8/8/8/4K3",
            "turn": "white", "pieces": [{"square": "e1", "hp": "lots"}]}"#,
    );
    let p = path.to_str().expect("utf-8");
    let err = fails(&["moves", "--state", p], 2);
    assert!(
        err.contains("bad.json") && err.contains("pieces[0].hp"),
        "{err}"
    );
    let err = fails(&["moves", "--state", "/nonexistent/state.json"], 2);
    assert!(err.contains("/nonexistent/state.json"), "{err}");
    // The state carries its own rules and position.
    let err = fails(&["moves", "--state", p, "--fen", START], 2);
    assert!(err.contains("--fen") || err.contains("--state"), "{err}");
    let err = fails(&["moves", "--state", p, "--rules", "coregal"], 2);
    assert!(err.contains("--rules") || err.contains("--state"), "{err}");
}

#[test]
fn fen_with_a_pawn_where_play_cannot_put_it_is_refused() {
    // Regression (new-user trial): accepted silently. python-chess's
    // `Board.status()` flags FIDE pawns on the first or last rank.
    let err = fails(&["moves", "--fen", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1"], 2);
    assert!(
        err.contains("--fen") && err.contains("pawn `P` on a1"),
        "{err}"
    );
    // Grand chess: promotion is optional on ranks 8 and 9 and compulsory
    // on 10 (the game's definition), so a pawn may stand on a8 only.
    let out = ok(&[
        "moves",
        "--game",
        "grand",
        "--fen",
        "4k5/10/P9/10/10/10/10/10/10/4K5 w - - 0 1",
    ]);
    assert!(out.lines().any(|l| l.starts_with("a8a9 ")), "{out}");
    let err = fails(
        &[
            "moves",
            "--game",
            "grand",
            "--fen",
            "P3k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1",
        ],
        2,
    );
    assert!(
        err.contains("a10") && err.contains("must have promoted"),
        "{err}"
    );
}

#[test]
fn pgn_check_state_starts_games_from_the_state_position() {
    // Spec "Hit Points" scenario 2: a pawn on its last hit point is
    // removed by a capture. The state gives the d5 pawn 1 HP; the same
    // board from plain FEN (2 HP, G5) would see it pushed to d6 instead.
    let state = state_file(
        "pgn-hp.json",
        r#"{"format": "houserules-state/1", "rules": "piece-hp",
            "board": "4k3/8/8/3p4/8/8/8/3RK3", "turn": "white",
            "pieces": [{"square": "d5", "hp": 1}]}"#,
    );
    let pgn = state_file("pgn-hp.pgn", "1. Rxd5 Ke7 *\n");
    let (s, g) = (state.to_str().unwrap(), pgn.to_str().unwrap());
    let out = ok(&["pgn", "check", "--state", s, g, "--json"]);
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON line");
    assert_eq!(v["error"], Value::Null, "{out}");
    assert_eq!(v["final_fen"], "8/4k3/8/3R4/8/8/8/4K3 w - - 1 2", "{out}");
    // A game with a FEN tag is read under the state's rules (2 HP: the
    // pawn survives and is pushed north, scenario 1).
    let tagged = state_file(
        "pgn-hp-fen.pgn",
        "[FEN \"4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1\"]\n\n1. Rxd5 *\n",
    );
    let out = ok(&[
        "pgn",
        "check",
        "--state",
        s,
        tagged.to_str().unwrap(),
        "--json",
    ]);
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON line");
    assert_eq!(v["final_fen"], "4k3/8/3p4/3R4/8/8/8/4K3 b - - 0 1", "{out}");
    // The state carries its rules: --rules beside it is refused.
    let err = fails(&["pgn", "check", "--state", s, "--rules", "piece-hp", g], 2);
    assert!(err.contains("--state") && err.contains("--rules"), "{err}");
}

#[test]
fn state_command_writes_a_state_that_state_and_moves_read_back() {
    // Spec "Hit Points" scenario 1: the rook takes the 2-HP pawn, which
    // drops to 1 HP and is pushed north to d6.
    let out_path = std::env::temp_dir().join(format!(
        "houserules-state-{}-written.json",
        std::process::id()
    ));
    let o = out_path.to_str().unwrap();
    let printed = ok(&[
        "state",
        "--rules",
        "piece-hp",
        "--fen",
        "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1",
        "--play",
        "d1d5",
    ]);
    let v: Value = serde_json::from_str(&printed).expect("a JSON document");
    assert_eq!(v["format"], "houserules-state/1");
    assert_eq!(v["rules"], "piece-hp");
    assert_eq!(v["board"], "4k3/8/3p4/3R4/8/8/8/4K3");
    assert_eq!(v["turn"], "black");
    let hp = |sq: &str| {
        v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["square"] == sq)
            .map(|p| p["hp"].clone())
    };
    assert_eq!(hp("d6"), Some(Value::from(1)));
    assert_eq!(hp("d5"), Some(Value::from(2)));
    // Moves by SAN too, from a state file, written to --output; the file
    // is what stdout would have been.
    let first = state_file("first.json", &printed);
    ok(&[
        "state",
        "--state",
        first.to_str().unwrap(),
        "--play",
        "1... Ke7 2. Rxd6",
        "--output",
        o,
    ]);
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    // Scenario 2: the pawn on its last hit point is removed.
    assert_eq!(written["board"], "8/4k3/3R4/8/8/8/8/4K3");
    assert_eq!(written["fullmove_number"], 2);
    // Black's 1-HP king on e7 (P6): d7 and d8 are on the rook's file, e6
    // and f6 on its rank; taking the 2-HP rook on d6 would push it to d7
    // (N first), next to the king, so that is illegal too.
    let moves = ok(&["moves", "--state", o]);
    let mut list: Vec<&str> = moves.lines().map(|l| &l[..4]).collect();
    list.sort_unstable();
    assert_eq!(list, ["e7e8", "e7f7", "e7f8"], "{moves}");
    std::fs::remove_file(&out_path).ok();
}

#[test]
fn state_command_errors_name_the_move_and_the_option() {
    let err = fails(&["state", "--play", "e2e4,e7e5,e1e3"], 2);
    assert!(err.contains("move 3") && err.contains("e1e3"), "{err}");
    let err = fails(&["state", "--game", "no-such-game"], 2);
    assert!(err.contains("--game no-such-game"), "{err}");
    let err = fails(&["state", "--rules", "no-such-rule"], 2);
    assert!(err.contains("no-such-rule"), "{err}");
}

/// Regression (session-3 trial): `2.Nf3` (PGN export format glues the
/// number to the move) and `e.p.` were refused by `--play`. The board after
/// 1.e4 e5 2.Nf3 is the one every chess program gives.
#[test]
fn state_play_skips_glued_move_numbers_and_ep_suffixes() {
    let out = ok(&["state", "--play", "1.e4 e5 2.Nf3"]);
    assert!(
        out.contains("\"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R\""),
        "{out}"
    );
    // 1.e4 d5 2.e5 f5 3.exf6 e.p.: the en passant capture leaves no black
    // pawn on f5 and a white pawn on f6.
    let out = ok(&["state", "--play", "1.e4 d5 2.e5 f5 3.exf6 e.p."]);
    assert!(
        out.contains("\"rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR\""),
        "{out}"
    );
}

/// Regression (session-3 trial): a move after a decided game was called
/// illegal; the error now says the game is over (capture-to-win: the first
/// capture wins).
#[test]
fn state_play_after_a_decided_game_says_it_is_over() {
    let err = fails(
        &[
            "state",
            "--rules",
            "capture-to-win",
            "--play",
            "e4 d5 exd5 Qxd5",
        ],
        2,
    );
    assert!(
        err.contains("move 4") && err.contains("the game is over"),
        "{err}"
    );
}

#[test]
fn status_line_names_the_reason_the_game_ended() {
    // P15: in suicide-chess a side with no pieces left wins.
    let out = ok(&[
        "moves",
        "--rules",
        "suicide-chess",
        "--fen",
        "8/8/8/8/8/8/8/k7 w - - 0 1",
    ]);
    assert_eq!(out.trim(), "status: no-pieces-left (white wins)");
}

#[test]
fn knightmate_fen_without_knights_is_refused() {
    let err = fails(
        &[
            "moves",
            "--rules",
            "knightmate-rules",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ],
        2,
    );
    assert!(err.contains("knight"), "{err}");
}

/// Under a `chess960:N` layout, UCI castling is king-takes-rook even with
/// king and rooks on the standard squares, as engines in Chess960 mode
/// write it (the UCI protocol's `UCI_Chess960` option); without the layout
/// the same position castles `e1g1`/`e1c1`.
#[test]
fn chess960_layout_writes_castling_king_takes_rook() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let uci = |out: String| -> Vec<String> {
        out.lines()
            .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
            .collect()
    };
    let c960 = uci(ok(&["moves", "--layout", "chess960:518", "--fen", fen]));
    for m in ["e1h1", "e1a1"] {
        assert!(c960.contains(&m.to_owned()), "{m} under chess960:518");
    }
    for m in ["e1g1", "e1c1"] {
        assert!(!c960.contains(&m.to_owned()), "no {m} under chess960:518");
    }
    let fide = uci(ok(&["moves", "--fen", fen]));
    for m in ["e1g1", "e1c1"] {
        assert!(fide.contains(&m.to_owned()), "{m} in standard chess");
    }
}

/// Issue 12: `state --game` writes games other than FIDE chess, naming the
/// game in the document's `game` field (a shipped id, or a game file's
/// YAML text), and `--state` reads them back on that game.
#[test]
fn state_command_writes_other_games() {
    let dir = std::env::temp_dir().join(format!("houserules-state-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Capablanca (10×8, 80 squares: the engine's wide boards) after e4.
    let printed = ok(&["state", "--game", "capablanca", "--play", "e2e4"]);
    let v: Value = serde_json::from_str(&printed).expect("a JSON document");
    assert_eq!(v["game"], "capablanca");
    assert_eq!(
        v["board"],
        "rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR"
    );
    assert_eq!(v["turn"], "black");
    let path = dir.join("capablanca.json");
    std::fs::write(&path, &printed).unwrap();
    // Black's moves are those of Capablanca's start, which e4 does not
    // touch: 10 pawns × 2 steps = 20, the knights 2 each (a6/c6, h6/j6),
    // the archbishop on c8 and the chancellor on h8 2 knight leaps each
    // (b6/d6, g6/i6); rides are blocked: 20 + 4 + 4 = 28 (Capablanca's
    // perft(1), chessprogramming.org).
    let moves = ok(&["moves", "--state", path.to_str().unwrap()]);
    assert_eq!(moves.lines().count(), 28, "{moves}");
    // A game file travels as its text: the document stands alone.
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../definitions/games/gardner.yaml"
    );
    let printed = ok(&["state", "--game", file, "--play", "b1c3"]);
    let v: Value = serde_json::from_str(&printed).expect("a JSON document");
    assert!(
        v["game"].as_str().unwrap().contains("id: gardner"),
        "{printed}"
    );
    let path = dir.join("gardner.json");
    std::fs::write(&path, &printed).unwrap();
    // Gardner 5×5 after 1.Nc3: black's pawns a4-a3, b4-b3, bxc3, dxc3,
    // d4-d3, e4-e3 (c4 is blocked by the knight) and the knight b5's a3
    // and c3 (d4 holds its own pawn): 8 moves.
    let moves = ok(&["moves", "--state", path.to_str().unwrap()]);
    assert_eq!(moves.lines().count(), 8, "{moves}");
    std::fs::remove_dir_all(&dir).ok();
}
