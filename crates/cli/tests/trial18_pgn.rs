//! Regressions of the fresh-user trials' PGN findings (sessions 18 and 22): each
//! PGN that `play --pgn` writes (the server's writer uses the same tags,
//! `houserules_pgn::export::variant_and_rules`, and the same movetext,
//! `houserules_session::pgn_record`) is read back by `houserules pgn
//! check` and by python-chess 1.11.2 (pip install chess==1.11.2), whose
//! boards give the expected positions.

use std::path::{Path, PathBuf};
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
    let d = std::env::temp_dir().join(format!("houserules-t18-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Plays `inputs` (JSON lines) on the game `request` and returns the PGN
/// `play --pgn` wrote.
fn played_pgn(d: &Path, request: &str, inputs: &[String]) -> (PathBuf, String) {
    let req = d.join("request.json");
    let inp = d.join("inputs.jsonl");
    let pgn = d.join("game.pgn");
    std::fs::write(&req, request).expect("write");
    std::fs::write(&inp, inputs.join("\n")).expect("write");
    let o = houserules(&[
        "play",
        "--create",
        req.to_str().unwrap(),
        "--inputs",
        inp.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&pgn).unwrap_or_else(|e| {
        panic!(
            "no PGN ({e}): {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    });
    (pgn, text)
}

fn moves(uci: &str) -> Vec<String> {
    uci.split_whitespace()
        .map(|m| format!(r#"{{"move": "{m}"}}"#))
        .collect()
}

/// The PGN the server's writer (`houserules_server::pgn_export::write_pgn`,
/// the one `GET /api/games/{id}/pgn` and `export` use) gives for game `id`
/// made by `request` with the inputs `s` has played.
fn server_pgn(
    id: &str,
    request: &houserules_session::CreateRequest,
    s: &houserules_session::Session,
) -> String {
    use houserules_server::game::Meta;
    use houserules_server::pgn_export::{write_pgn, PgnSource};
    use houserules_server::store::Entry;
    let entries: Vec<Entry> = s
        .inputs()
        .iter()
        .enumerate()
        .map(|(i, input)| Entry {
            seq: i as i64 + 1,
            body: serde_json::to_string(input).unwrap(),
            at_ms: 0,
            white_ms: None,
            black_ms: None,
        })
        .collect();
    write_pgn(&PgnSource {
        id,
        request,
        meta: &Meta::default(),
        created_ms: 0,
        entries: &entries,
        outcome: None,
    })
}

/// `pgn check --json`: (exit code, report).
fn pgn_check(pgn: &Path) -> (Option<i32>, Value) {
    let o = houserules(&["pgn", "check", "--json", pgn.to_str().unwrap()]);
    let r: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    });
    (o.status.code(), r)
}

/// python-chess's reading of the file: the final FEN and the number of
/// errors it met.
fn python_chess(pgn: &Path) -> (String, usize) {
    python_chess::end_of_game(pgn)
}

/// Regression (trial 18): an antichess game's PGN had no `Variant` tag,
/// so python-chess and `pgn check` read it as chess and refused the
/// king's capture `Kxd7`. The game and its final FEN are python-chess's
/// (`chess.variant.AntichessBoard`; the same game as the server's
/// `lichess_games.rs`): 1-0, White has no pieces left.
#[test]
fn an_antichess_pgn_names_its_variant() {
    let d = dir("antichess");
    let (pgn, text) = played_pgn(
        &d,
        r#"{"game": "antichess"}"#,
        &moves(
            "h2h3 f7f6 b2b4 b8a6 g2g3 a6b4 c2c4 b4a2 a1a2 h7h5 a2a7 a8a7 g3g4 h5g4 h3g4 h8h1 \
             d1c2 h1g1 c2d3 g1g4 d3d7 e8d7 f2f4 g4f4 b1c3 f4f1 e1f1 c7c5 d2d3 d7c7 c1h6 g8h6 \
             e2e4 d8d3 f1e2 d3c3 e2f3 c3f3 e4e5 f6e5",
        ),
    );
    let fen = "2b2b2/rpk1p1p1/7n/2p1p3/2P5/5q2/8/8 w - - 0 21";
    assert!(text.contains("[Variant \"Antichess\"]"), "{text}");
    assert!(!text.contains("[HouseRules"), "{text}");
    assert!(text.contains("Kxd7"), "{text}");
    let (code, r) = pgn_check(&pgn);
    assert_eq!(code, Some(0), "{r}");
    assert_eq!(
        (&r["plies"], &r["final_fen"]),
        (&40.into(), &fen.into()),
        "{r}"
    );
    assert_eq!(python_chess(&pgn), (fen.to_string(), 0), "{text}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Trial 18: horde's PGN said `Variant "horde"`, which `pgn check`
/// refused. lichess and python-chess write `Horde`. The game is
/// python-chess's (`chess.variant.HordeBoard`, as in the server's
/// `lichess_games.rs`): 1. g6 h5 2. e5 f6 3. exf6 a5 4. f7#.
#[test]
fn a_horde_pgn_names_its_variant_as_lichess() {
    let d = dir("horde");
    let (pgn, text) = played_pgn(
        &d,
        r#"{"game": "horde"}"#,
        &moves("g5g6 h7h5 e4e5 f7f6 e5f6 a7a5 f6f7"),
    );
    let fen = "rnbqkbnr/1ppppPp1/6P1/pPP2P1p/PPPP1PPP/PPPPPPPP/PPPPPPPP/PPPPPPPP b kq - 0 4";
    assert!(text.contains("[Variant \"Horde\"]"), "{text}");
    let (code, r) = pgn_check(&pgn);
    assert_eq!(code, Some(0), "{r}");
    assert_eq!(
        (&r["plies"], &r["final_fen"]),
        (&7.into(), &fen.into()),
        "{r}"
    );
    assert_eq!(python_chess(&pgn), (fen.to_string(), 0), "{text}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Regression (trial 18): after a Parry-contested capture the check sign
/// landed on the next move (`Qxf7 … Kxf7+`): the capture was judged while
/// its throw was pending. 1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 is
/// python-chess's SAN (`board.san`), both captures standing here: White's
/// rock beats Black's scissors, then Black's (the mover's) rock beats
/// White's scissors (modifier-rulings B5: the attacker winning the throw
/// keeps the capture). Final FEN python-chess's after those moves.
#[test]
fn a_parry_capture_that_checks_gets_the_check_sign() {
    let d = dir("parry-check");
    let mut inputs = moves("e2e4 e7e5 d1h5 b8c6 h5f7");
    inputs.push(r#"{"choice": "rock", "player": "white"}"#.into());
    inputs.push(r#"{"choice": "scissors", "player": "black"}"#.into());
    inputs.extend(moves("e8f7"));
    inputs.push(r#"{"choice": "rock", "player": "black"}"#.into());
    inputs.push(r#"{"choice": "scissors", "player": "white"}"#.into());
    let (pgn, text) = played_pgn(&d, r#"{"modifiers": ["parry"], "seed": 0}"#, &inputs);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("3. Qxf7+ {"), "{text}");
    assert!(flat.contains("3... Kxf7 {"), "{text}");
    let fen = "r1bq1bnr/pppp1kpp/2n5/4p3/4P3/8/PPPP1PPP/RNB1KBNR w KQ - 0 4";
    let (code, r) = pgn_check(&pgn);
    assert_eq!(code, Some(0), "{r}");
    assert_eq!(r["final_fen"], fen, "{r}");
    assert_eq!(python_chess(&pgn), (fen.to_string(), 0), "{text}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Regression (trial 18): a PGN written while a choice is pending wrote
/// the pending move as if decided (`--` and a skipped turn), which `pgn
/// check` refused. It now ends before the undecided move: after 1. e4 d5
/// 2. exd5 with White's throw only, the movetext is `1. e4 d5 *`, whose
/// board (python-chess) is the one after 1. e4 d5.
#[test]
fn a_pgn_with_a_pending_choice_ends_before_the_undecided_move() {
    let d = dir("pending");
    let mut inputs = moves("e2e4 d7d5 e4d5");
    inputs.push(r#"{"choice": "rock", "player": "white"}"#.into());
    let (pgn, text) = played_pgn(&d, r#"{"modifiers": ["parry"], "seed": 0}"#, &inputs);
    let (_, movetext) = text.split_once("\n\n").expect("tags, then the movetext");
    assert_eq!(movetext.trim(), "1. e4 d5 *", "{text}");
    let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let (code, r) = pgn_check(&pgn);
    assert_eq!(code, Some(0), "{r}");
    assert_eq!(
        (&r["plies"], &r["final_fen"]),
        (&2.into(), &fen.into()),
        "{r}"
    );
    assert_eq!(python_chess(&pgn), (fen.to_string(), 0), "{text}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Trial 20 (item 4): a draft-mode game's PGN had no tag saying it was a
/// draft game, so `pgn check` replayed it without the drafted rules. The
/// server's writer (`houserules_server::pgn_export::write_pgn`, the one
/// `GET /api/games/{id}/pgn` and `export` use) now writes `Draft "1"` and
/// the `Seed`; the picks are `[%hr choice …]` comments. The game: seed 11,
/// every draft card taken by its timeout default, each move the first of
/// the legal list, ten plies; `pgn check` replays it to the server
/// session's final position with the drafted rules attached.
#[test]
fn a_draft_games_pgn_replays_with_its_drafted_rules() {
    use houserules_session::{CreateRequest, Input, Session};
    let request = CreateRequest::parse(r#"{"draft": true, "seed": 11}"#).expect("request");
    let mut s = Session::create(request.clone()).expect("session");
    let mut plies = 0;
    while plies < 10 && !s.is_over() {
        if s.pending_choice().is_some() {
            s.timeout_choice().expect("the default card");
            continue;
        }
        let mv = s.legal_moves_uci()[0].clone();
        s.submit(Input::Move { mv }).expect("a legal move");
        plies += 1;
    }
    // Seed 11 drafts March of the Pawnguins twice (every pawn steps) and
    // Moving Up the Corporate Ladder: the board is not FIDE chess's.
    let drafted: Vec<&str> = s
        .state()
        .log
        .iter()
        .filter(|e| e.event == "attach")
        .filter_map(|e| e.detail["id"].as_str())
        .collect();
    assert!(
        drafted.len() >= 2,
        "rules drafted in ten plies: {drafted:?}"
    );
    let text = server_pgn("draft1", &request, &s);
    assert!(text.contains("[Draft \"1\"]"), "{text}");
    assert!(text.contains("[Seed \"11\"]"), "{text}");
    let d = dir("draft");
    let pgn = d.join("draft.pgn");
    std::fs::write(&pgn, &text).unwrap();
    let (code, r) = pgn_check(&pgn);
    assert_eq!(code, Some(0), "{r}\n{text}");
    assert_eq!(r["final_fen"], s.output().fen, "{r}\n{text}");
    // Without the tag (the old PGN) the replay is FIDE chess's: it does
    // not reach that position.
    let old = d.join("untagged.pgn");
    std::fs::write(&old, text.replace("[Draft \"1\"]\n", "")).unwrap();
    let (_, r) = pgn_check(&old);
    assert_ne!(r["final_fen"], s.output().fen, "{r}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Regression (trial 22): under All on Red the coin flipped when the rule
/// attaches can skip White's first turn (tails, and White's king has no
/// move at the start). The server's PGN then gave Black's first move to
/// White (`1. e5`, refused by python-chess), or wrote the position after
/// the skip as a `FEN` tag with Black to move, on which `pgn check` flipped
/// the coin again and refused the first move; two skips in a row were not
/// written at all, so python-chess's move numbers fell behind. The PGN now
/// starts from the position before the rules attach (no `FEN` tag) and
/// writes each skipped turn as `--` with `[%hr skip]`. The game: seed 42
/// (the trial's), each side playing the first move of its legal list for
/// 40 plies; python-chess 1.11.2 reads it to the server session's board,
/// side to move, castling rights, en passant square and move number, and
/// `pgn check` replays it to the session's FEN.
#[test]
fn a_turn_skipped_at_the_start_is_a_null_move_regression_trial22() {
    use houserules_session::{CreateRequest, Input, Session};
    let request =
        CreateRequest::parse(r#"{"modifiers": ["all_on_red"], "seed": 42}"#).expect("request");
    let mut s = Session::create(request.clone()).expect("session");
    // The case of the trial: White's first turn was skipped at creation.
    assert_eq!(
        s.game().turn(),
        houserules_engine::Color::Black,
        "seed 42 no longer skips White at the start: pick a seed that does"
    );
    let mut plies = 0;
    while plies < 40 && !s.is_over() {
        let mv = s.legal_moves_uci()[0].clone();
        s.submit(Input::Move { mv }).expect("a legal move");
        plies += 1;
    }
    let skips = s.state().log.iter().filter(|e| e.event == "skip").count();
    let text = server_pgn("allonred", &request, &s);
    assert!(!text.contains("[FEN"), "{text}");
    let (_, movetext) = text.split_once("\n\n").expect("tags, then the movetext");
    assert!(movetext.starts_with("1. -- {[%hr skip]"), "{text}");
    // The writer wraps lines, inside comments too.
    let flat = movetext.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(flat.matches("[%hr skip]").count(), skips, "{text}");
    let d = dir("allonred");
    let pgn = d.join("allonred.pgn");
    std::fs::write(&pgn, &text).unwrap();
    let fen = s.output().fen;
    let (code, r) = pgn_check(&pgn);
    assert_eq!(code, Some(0), "{r}\n{text}");
    assert_eq!(r["final_fen"], fen, "{r}\n{text}");
    let (theirs, errors) = python_chess(&pgn);
    assert_eq!(errors, 0, "{text}");
    // The halfmove clock aside: python-chess counts a null move as a
    // half-move, the rules' skipped turn is no move.
    let fields = |f: &str| {
        let v: Vec<String> = f.split(' ').map(str::to_string).collect();
        (v[..4].to_vec(), v.get(5).cloned())
    };
    assert_eq!(fields(&theirs), fields(&fen), "{text}");
    let _ = std::fs::remove_dir_all(&d);
}
