//! One rule set on the command line (issue 12): `--game` with `--rules`,
//! `--modifiers` on `perft` and `moves`, and `rules --game`. Every count
//! below is derived by hand in the comment above it.

mod run;
use run::{fails, houserules, ok, text};

fn nodes(args: &[&str]) -> u64 {
    let out = ok(args);
    out.lines()
        .find_map(|l| l.strip_prefix("Nodes: "))
        .unwrap_or_else(|| panic!("no `Nodes:` line in {out}"))
        .trim()
        .parse()
        .expect("a node count")
}

/// Both counts (bulk and `--no-bulk`) of `args`, which must agree.
fn both(args: &[&str]) -> u64 {
    let bulk = nodes(args);
    let mut v = args.to_vec();
    v.push("--no-bulk");
    assert_eq!(nodes(&v), bulk, "--no-bulk differs for {args:?}");
    bulk
}

/// Capablanca chess on the wrap-board cylinder (files a and j adjacent).
///
/// Depth 1: as in Capablanca chess, 28: ten pawns × 2, the knights b1
/// (a3, c3; its wrapped leap to j2 is on a pawn) and i1 (h3, j3; a2 is a
/// pawn), the archbishop's leaps b3, d3 and the chancellor's g3, i3; the
/// rooks' wrapped steps land on each other, every slider is boxed in.
///
/// Depth 2: Capablanca chess has 28 × 28 = 784 (Fairy-Stockfish). On the
/// cylinder only b2b3 and b2b4 change Black's replies: they open the
/// archbishop's diagonal c1–b2–a3, which wraps to j4–i5–h6–g7–f8, so the
/// g7 pawn is pinned against the black king and g7g6, g7g5 are illegal:
/// 784 − 2 × 2 = 780. No other first move opens a wrapped line to f8
/// (the queen's and bishops' wrapped diagonals end on black pawns).
#[test]
fn capablanca_on_the_wrap_board_by_hand() {
    let args = ["perft", "--game", "capablanca", "--rules", "wrap-board"];
    assert_eq!(both(&[&args[..], &["--depth", "1"]].concat()), 28);
    assert_eq!(both(&[&args[..], &["--depth", "2"]].concat()), 780);
    let out = ok(&[&args[..], &["--depth", "2", "--divide"]].concat());
    assert!(
        out.contains("b2b3: 26") && out.contains("b2b4: 26") && out.contains("a2a3: 28"),
        "{out}"
    );
}

/// Gardner minichess (5×5) with hit points, from `4k/5/n4/5/R3K w`:
/// White Ra1, Ke1; Black Ke5, Na3.
///
/// Depth 1, 8: the rook a2, a3 (takes the knight), b1, c1, d1; the king
/// d1, d2, e2 (the knight covers b1, c2, c4, b5; the black king d4, e4,
/// d5).
///
/// Depth 2, Black's replies (king e5: d5, d4, e4; knight a3: b1, c2, c4,
/// b5): after Ra2, Rb1 (the knight may take it), Rc1, Kd1, Kd2, Ke2 all
/// seven; after Rd1 the rook covers d4 and d5, so 1 + 4 = 5; after Rxa3
/// plain Gardner leaves the king alone, 3, so 6 × 7 + 5 + 3 = 50. Under
/// piece-hp the knight has 2 hit points: it survives with 1 and is pushed
/// to the first empty square clockwise from north of a3, a4, from where
/// it leaps to c5, c3 and b2: 3 + 3 = 6, so 6 × 7 + 5 + 6 = 53.
#[test]
fn gardner_with_hit_points_by_hand() {
    let fen = "4k/5/n4/5/R3K w - - 0 1";
    let plain = ["perft", "--game", "gardner", "--fen", fen];
    let hp = [
        "perft", "--game", "gardner", "--rules", "piece-hp", "--fen", fen,
    ];
    assert_eq!(both(&[&plain[..], &["--depth", "1"]].concat()), 8);
    assert_eq!(both(&[&hp[..], &["--depth", "1"]].concat()), 8);
    assert_eq!(both(&[&plain[..], &["--depth", "2"]].concat()), 50);
    assert_eq!(both(&[&hp[..], &["--depth", "2"]].concat()), 53);
}

/// A YAML game file (chess.yaml, FIDE chess written as a game) with the
/// piece-hp preset and the frozen-column modifier on the e-file: the e2
/// pawn may not move (the king on e1 has no move at the start anyway), so
/// White has 20 − 2 = 18 first moves; no first move captures, checks or
/// unblocks anything, and Black's e7 pawn is frozen too: 18 × 18 = 324.
/// The same with the d-file (d2 and d7 pawns frozen).
#[test]
fn a_yaml_game_with_a_preset_and_a_modifier_by_hand() {
    let yaml = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../definitions/games/chess.yaml"
    );
    let args = [
        "perft",
        "--game",
        yaml,
        "--rules",
        "piece-hp",
        "--modifiers",
        "frozen-column:file=e",
    ];
    assert_eq!(both(&[&args[..], &["--depth", "1"]].concat()), 18);
    assert_eq!(both(&[&args[..], &["--depth", "2"]].concat()), 324);
    let d = [
        "perft",
        "--modifiers",
        "frozen-column:file=d",
        "--depth",
        "2",
    ];
    assert_eq!(both(&d), 324);
    let moves = ok(&["moves", "--modifiers", "frozen-column:file=d"]);
    assert_eq!(moves.lines().count(), 18, "{moves}");
    assert!(!moves.contains("d2d4"), "{moves}");
}

/// A descriptor given by file path, and a count that depends on a random
/// draw says so.
#[test]
fn modifiers_by_file_and_random_draws_are_noted() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../modifiers/library/frozen-column.json"
    );
    // The file's default file is d: 18 first moves (as above).
    assert_eq!(nodes(&["perft", "--modifiers", file, "--depth", "1"]), 18);
    // Minefield draws its two mines when attached; a mine kills after a
    // move, so the first ply keeps FIDE's 20 moves.
    let out = ok(&["perft", "--modifiers", "minefield", "--depth", "1"]);
    assert!(out.contains("Nodes: 20"), "{out}");
    assert!(
        out.contains("note: attaching the modifiers drew 2 value(s)"),
        "{out}"
    );
}

#[test]
fn modifier_errors_name_what_is_wrong() {
    let err = fails(&["perft", "--modifiers", "no-such-rule", "--depth", "1"]);
    assert!(err.contains("--modifiers no-such-rule"), "{err}");
    let err = fails(&["perft", "--modifiers", "minefield,", "--depth", "1"]);
    assert!(err.contains("entry 2 is empty"), "{err}");
    let err = fails(&["perft", "--modifiers", "missing.json", "--depth", "1"]);
    assert!(
        err.contains("cannot read the descriptor file missing.json"),
        "{err}"
    );
    // Capablanca's 10×8 (80 squares) takes modifiers too: `minefield`
    // forbids no move, so perft(1) is the game's 28 (Fairy-Stockfish,
    // `../shared/data/variant-perft.tsv`); `frozen-column:file=j` takes
    // j2-j3 and j2-j4 (nothing else leaves file j at the start): 26.
    assert_eq!(
        nodes(&[
            "perft",
            "--game",
            "capablanca",
            "--modifiers",
            "minefield",
            "--depth",
            "1",
        ]),
        28
    );
    assert_eq!(
        nodes(&[
            "perft",
            "--game",
            "capablanca",
            "--modifiers",
            "frozen-column:file=j",
            "--depth",
            "1",
        ]),
        26
    );
    // Gardner's 5×5 plays: `severe_constipation` freezes the knight on
    // b1, leaving the 5 pawn pushes of Gardner's 7 first moves.
    assert_eq!(
        nodes(&[
            "perft",
            "--game",
            "gardner",
            "--modifiers",
            "severe_constipation",
            "--depth",
            "1"
        ]),
        5
    );
    let err = fails(&["state", "--modifiers", "minefield"]);
    assert!(err.contains("--modifiers"), "{err}");
}

/// `rules --game ID` lists the presets that apply and the others with the
/// need the game lacks (los-alamos has no bishop: its file gives pawn,
/// knight, rook, queen, king).
#[test]
fn rules_for_a_game_list_what_applies() {
    let out = ok(&["rules", "--game", "los-alamos"]);
    assert!(
        out.starts_with("Presets that apply to game los-alamos (31 of 34):"),
        "{out}"
    );
    assert!(
        out.contains("bishops-ignore-color: needs a piece kind with role Bishop"),
        "{out}"
    );
    assert!(!out.contains("Layouts"), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["rules", "--game", "chess", "--json"])).unwrap();
    assert_eq!(json["presets"].as_array().unwrap().len(), 34);
    assert_eq!(json["not_applicable"].as_array().unwrap().len(), 0);
    let err = fails(&[
        "perft", "--game", "grand", "--layout", "monster", "--depth", "1",
    ]);
    assert!(err.contains("starts from its own setup"), "{err}");
}

/// Session-8 trial: `rules --game gardner` printed the presets' preferred
/// layouts (`layout: knightmate`, `layout: dual-classic`…), which Gardner
/// refuses (the layouts are FIDE start positions). FIDE chess keeps them.
#[test]
fn rules_game_prints_layouts_refused_on_gardner() {
    let out = ok(&["rules", "--game", "gardner"]);
    assert!(out.contains("knightmate-rules  Knightmate"), "{out}");
    assert!(!out.contains("  layout: "), "{out}");
    let out = ok(&["rules", "--game", "chess"]);
    assert!(out.contains("  layout: knightmate"), "{out}");
    let out = ok(&["rules"]);
    assert!(out.contains("  layout: knightmate"), "{out}");
}

/// `pgn check` replays a game under its `Modifiers` tag (issue 12): a game
/// written by `play --modifiers ... --pgn` reads back to the position
/// `play` reached, and the same movetext without the tag does not replay.
#[test]
fn pgn_check_replays_the_modifiers_tag() {
    let dir = std::env::temp_dir().join(format!("houserules-pgn-mods-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs = dir.join("inputs.jsonl");
    std::fs::write(
        &inputs,
        "{\"move\": \"e2e4\"}\n{\"move\": \"e7e5\"}\n{\"move\": \"d1h5\"}\n",
    )
    .unwrap();
    let pgn = dir.join("game.pgn");
    let (inputs_s, pgn_s) = (inputs.to_str().unwrap(), pgn.to_str().unwrap());
    // `born_again_christian` turns both queens into bishops when it
    // attaches. After 1.e4 e5 the former queen on d1 moves as a bishop
    // over the emptied e2, f3 and g4 to h5 (2.Bh5: neither the c1 nor the
    // f1 bishop reaches h5). Black to move, half-move clock 1 (a bishop
    // move), move 2.
    let fen = "rnbbkbnr/pppp1ppp/8/4p2B/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2";
    let played = ok(&[
        "play",
        "--modifiers",
        "born_again_christian",
        "--inputs",
        inputs_s,
        "--pgn",
        pgn_s,
        "--json",
    ]);
    let played: serde_json::Value = serde_json::from_str(&played).unwrap();
    assert_eq!(played["fen"], fen);
    let written = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        written.contains("[Modifiers \"born_again_christian\"]") && written.contains("Bh5"),
        "{written}"
    );
    let report = ok(&["pgn", "check", "--json", pgn_s]);
    let r: serde_json::Value = serde_json::from_str(report.trim()).unwrap();
    assert_eq!(r["final_fen"], fen, "{report}");
    assert_eq!(r["plies"], 3, "{report}");
    assert!(r["error"].is_null(), "{report}");

    // `play` writes the position after the modifiers attached as the
    // start (`FEN` with bishops on d1 and d8). Without the tags the engine
    // replays FIDE chess from the standard start, where d1 holds a queen
    // and `Bh5` names no move: ply 3 is an error (exit status 1).
    let bare_text: String = written
        .lines()
        .filter(|l| {
            !l.starts_with("[Modifiers") && !l.starts_with("[SetUp") && !l.starts_with("[FEN")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let bare = dir.join("bare.pgn");
    std::fs::write(&bare, bare_text).unwrap();
    let o = houserules(&["pgn", "check", "--json", bare.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    let r: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(r["error"]["ply"], 3, "{r}");
    // `--modifiers` supplies the rule set of a game without the tag.
    let report = ok(&[
        "pgn",
        "check",
        "--json",
        "--modifiers",
        "born_again_christian",
        bare.to_str().unwrap(),
    ]);
    let r: serde_json::Value = serde_json::from_str(report.trim()).unwrap();
    assert_eq!(r["final_fen"], fen, "{report}");

    // A modifier that asks for a choice when it attaches (`mr_freeze`:
    // the chooser names a file) cannot be replayed from moves alone: with
    // no `[%hr choice …]` comment before the first move, that move is an
    // error at ply 1 naming the pending choice (issue 26 item 8; before,
    // the whole game was refused).
    let check_under_mr_freeze = |file: &std::path::Path| -> serde_json::Value {
        let o = houserules(&[
            "pgn",
            "check",
            "--json",
            "--modifiers",
            "mr_freeze",
            file.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
        serde_json::from_str(text(&o.stdout).trim()).unwrap()
    };
    let r = check_under_mr_freeze(&bare);
    assert_eq!(
        (&r["error"]["kind"], &r["error"]["ply"]),
        (&"illegal".into(), &1.into()),
        "{r}"
    );
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("a column choice of `mr_freeze` is pending"),
        "{r}"
    );
    // Answered in a comment before the first move (a column, `a`), the
    // choice is no longer in the way: the replay goes on to ply 3, where
    // `Bh5` names no move from the standard start (d1 holds a queen, as
    // above), and moves on the a-file are not among the first two.
    let answered = bare.with_extension("answered.pgn");
    let body = std::fs::read_to_string(&bare).unwrap();
    let (tags, moves) = body.split_once("\n\n").unwrap();
    std::fs::write(&answered, format!("{tags}\n\n{{[%hr choice a]}} {moves}")).unwrap();
    let r = check_under_mr_freeze(&answered);
    assert_eq!(r["error"]["ply"], 3, "{r}");

    // A game on another board: Gardner 5×5 with `severe_constipation`.
    // After 1.a3 (a2-a3; no double steps in Gardner) the board reads
    // rnbqk/ppppp/P4/1PPPP/RNBQK, Black to move, move 1. The PGN names
    // the game in its Variant tag, and `pgn check` replays it there.
    let req = dir.join("gardner.json");
    std::fs::write(&req, r#"{"game": "gardner"}"#).unwrap();
    std::fs::write(&inputs, "{\"move\": \"a2a3\"}\n").unwrap();
    ok(&[
        "play",
        "--create",
        req.to_str().unwrap(),
        "--modifiers",
        "severe_constipation",
        "--inputs",
        inputs_s,
        "--pgn",
        pgn_s,
    ]);
    let written = std::fs::read_to_string(&pgn).unwrap();
    assert!(written.contains("[Variant \"gardner\"]"), "{written}");
    let report = ok(&["pgn", "check", "--json", pgn_s]);
    let r: serde_json::Value = serde_json::from_str(report.trim()).unwrap();
    assert_eq!(
        r["final_fen"], "rnbqk/ppppp/P4/1PPPP/RNBQK b - - 0 1",
        "{report}"
    );

    // A YAML game (no shipped id): Gardner's file under the id
    // `my-gardner`. The PGN names it by that id in `Variant` (the file is
    // not in the PGN), and `pgn check --game FILE.yaml` replays it there
    // with no warning; the same 1.a3 gives the same board as above.
    let yaml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../definitions/games/gardner.yaml"
    ))
    .unwrap()
    .replace("id: gardner", "id: my-gardner");
    let yaml_path = dir.join("my-gardner.yaml");
    std::fs::write(&yaml_path, &yaml).unwrap();
    std::fs::write(&req, serde_json::json!({"game": yaml}).to_string()).unwrap();
    ok(&[
        "play",
        "--create",
        req.to_str().unwrap(),
        "--modifiers",
        "severe_constipation",
        "--inputs",
        inputs_s,
        "--pgn",
        pgn_s,
    ]);
    let written = std::fs::read_to_string(&pgn).unwrap();
    assert!(written.contains("[Variant \"my-gardner\"]"), "{written}");
    let report = ok(&[
        "pgn",
        "check",
        "--json",
        "--game",
        yaml_path.to_str().unwrap(),
        pgn_s,
    ]);
    let r: serde_json::Value = serde_json::from_str(report.trim()).unwrap();
    assert_eq!(
        r["final_fen"], "rnbqk/ppppp/P4/1PPPP/RNBQK b - - 0 1",
        "{report}"
    );
    assert!(!report.contains("names no game"), "{report}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `validate --board WxH` (modifier-rulings E3): a descriptor's squares,
/// files and ranks checked against another board.
#[test]
fn validate_checks_a_descriptor_against_a_board() {
    let ice_age = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../modifiers/library/ice_age.json"
    );
    // ice_age freezes files a and h; a 6×6 board has files a–f.
    let o = houserules(&["validate", ice_age, "--board", "6x6"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    let err = text(&o.stderr);
    assert!(
        err.contains("descriptor.board-size") && err.contains("file h") && err.contains("6×6"),
        "{err}"
    );
    assert!(ok(&["validate", ice_age, "--board", "8x8"]).starts_with("ok: ice_age"));
    assert!(ok(&["validate", ice_age]).starts_with("ok: ice_age"));
    let err = fails(&["validate", ice_age, "--board", "17x1"]);
    assert!(err.contains("17x1"), "{err}");
}
