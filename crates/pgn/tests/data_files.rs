//! Every game of every file under ../shared/data/pgn, read and replayed,
//! compared game by game with python-chess 1.11.2 (tests/data/reference.jsonl,
//! made by tests/data/make_reference.py), first with the crate's own
//! rules (antichess refused), then with a resolver that plays the
//! antichess games on the `suicide-chess` preset (checked against
//! tests/data/antichess_reference.jsonl, made by
//! make_antichess_reference.py).

mod common;

use std::collections::BTreeMap;

use houserules_engine::Variant;
use houserules_pgn::{replay, replay_with, PgnError, PgnGame, Reader, ReplayErrorKind};
use serde_json::Value;

/// One row of reference.jsonl.
struct Reference {
    game: usize,
    variant: String,
    plies: usize,
    final_fen: String,
    status: String,
    error: Option<(usize, String)>,
}

fn reference() -> BTreeMap<String, Vec<Reference>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/reference.jsonl");
    let text =
        std::fs::read_to_string(path).expect("tests/data/reference.jsonl (run make_reference.py)");
    let mut out: BTreeMap<String, Vec<Reference>> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("reference.jsonl line {}: {e}", i + 1));
        let s = |k: &str| {
            v[k].as_str()
                .unwrap_or_else(|| panic!("line {}: {k}", i + 1))
                .to_string()
        };
        let n = |k: &Value| {
            k.as_u64()
                .unwrap_or_else(|| panic!("line {}: number", i + 1)) as usize
        };
        let error = match &v["error"] {
            Value::Null => None,
            e => Some((n(&e["ply"]), e["move"].as_str().unwrap_or("").to_string())),
        };
        out.entry(s("file")).or_default().push(Reference {
            game: n(&v["game"]),
            variant: s("variant"),
            plies: n(&v["plies"]),
            final_fen: s("final_fen"),
            status: s("status"),
            error,
        });
    }
    out
}

fn read_file(rel: &str) -> Vec<Result<PgnGame, PgnError>> {
    Reader::new(common::open(rel)).collect()
}

/// The antichess resolver: the `suicide-chess` preset from the standard
/// layout for an `Antichess` tag.
fn antichess(tag: &str) -> Option<Variant> {
    tag.eq_ignore_ascii_case("antichess").then(|| {
        houserules_presets::build_from_str("suicide-chess", Some("standard"))
            .expect("suicide-chess builds")
            .0
    })
}

/// One row of antichess_reference.jsonl.
struct AntichessReference {
    plies: usize,
    final_fen: String,
    over: bool,
    winner: Option<String>,
    legal_moves: usize,
}

fn antichess_reference() -> BTreeMap<(String, usize), AntichessReference> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/antichess_reference.jsonl"
    );
    let text = std::fs::read_to_string(path)
        .expect("tests/data/antichess_reference.jsonl (run make_antichess_reference.py)");
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("antichess reference line");
            let key = (
                v["file"].as_str().expect("file").to_string(),
                v["game"].as_u64().expect("game") as usize,
            );
            let row = AntichessReference {
                plies: v["plies"].as_u64().expect("plies") as usize,
                final_fen: v["final_fen"].as_str().expect("final_fen").to_string(),
                over: v["over"].as_bool().expect("over"),
                winner: v["winner"].as_str().map(str::to_string),
                legal_moves: v["legal_moves"].as_u64().expect("legal_moves") as usize,
            };
            (key, row)
        })
        .collect()
}

#[test]
fn every_game_matches_python_chess() {
    // Without a resolver both antichess games are refused.
    every_game_matches(
        &|_| None,
        &[
            ("python-chess/antichess-programfox.pgn", 1),
            ("python-chess/antichess-programfox.pgn", 2),
            ("python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 1),
            ("python-chess/saturs-jannlee-zh-lichess.pgn", 1),
            ("scalachess/render-snapshot-pgns.pgn", 3),
        ],
    );
}

#[test]
fn every_game_matches_python_chess_with_an_antichess_resolver() {
    // The antichess games now replay; crazyhouse is still refused.
    every_game_matches(
        &antichess,
        &[
            ("python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 1),
            ("python-chess/saturs-jannlee-zh-lichess.pgn", 1),
            ("scalachess/render-snapshot-pgns.pgn", 3),
        ],
    );
}

#[test]
fn antichess_games_end_as_python_chess_says() {
    let reference = antichess_reference();
    assert_eq!(reference.len(), 2);
    for ((rel, number), r) in &reference {
        let games = read_file(rel);
        let game = games[number - 1].as_ref().expect("reads");
        let rep = replay_with(game, &antichess);
        let where_ = format!("{rel} game {number}");
        assert!(rep.error.is_none(), "{where_}: {:?}", rep.error);
        assert_eq!(rep.rules, Some(houserules_pgn::Rules::Resolved), "{where_}");
        assert_eq!(rep.plies, r.plies, "{where_}");
        assert_eq!(
            rep.final_fen().as_deref(),
            Some(r.final_fen.as_str()),
            "{where_}"
        );
        let g = rep.game.as_ref().expect("a final position");
        assert_eq!(g.legal_moves().len(), r.legal_moves, "{where_}");
        let status = g.status();
        assert_eq!(status.is_over(), r.over, "{where_}: {status:?}");
        let winner = match status {
            houserules_engine::Status::Checkmate { winner }
            | houserules_engine::Status::Variant {
                winner: Some(winner),
                ..
            } => Some(format!("{winner}").to_ascii_lowercase()),
            _ => None,
        };
        assert_eq!(winner, r.winner, "{where_}: {status:?}");
    }
}

/// Replays every game of every data file with `resolve` and compares it
/// with python-chess; `expected_unsupported` lists the games that must be
/// refused as `variant not supported`.
fn every_game_matches(
    resolve: &dyn Fn(&str) -> Option<Variant>,
    expected_unsupported: &[(&str, usize)],
) {
    let reference = reference();
    let files = common::pgn_files();
    let listed: Vec<&String> = reference.keys().collect();
    let ours: Vec<&String> = files.iter().collect();
    assert_eq!(
        ours, listed,
        "the data files and reference.jsonl list different files; regenerate the reference"
    );

    let mut total = 0;
    let mut failures = Vec::new();
    let mut unsupported = Vec::new();
    let mut move_errors = Vec::new();
    for rel in &files {
        let games = read_file(rel);
        let refs = &reference[rel];
        assert_eq!(
            games.len(),
            refs.len(),
            "{rel}: number of games (python-chess: {})",
            refs.len()
        );
        total += games.len();
        for (g, r) in games.iter().zip(refs) {
            let game = match g {
                Ok(game) => game,
                Err(e) => {
                    failures.push(format!("{rel} game {}: PGN error: {e}", r.game));
                    continue;
                }
            };
            let rep = replay_with(game, resolve);
            let where_ = format!("{rel} game {}", r.game);
            let resolved = rep.rules == Some(houserules_pgn::Rules::Resolved);
            if r.variant != "chess" && !resolved {
                // Antichess and crazyhouse: python-chess plays them, we
                // refuse the variants the resolver does not know.
                match &rep.error {
                    Some(e) if matches!(e.kind, ReplayErrorKind::VariantNotSupported(_)) => {
                        let v = game.tag("Variant").unwrap_or("");
                        assert_eq!(
                            e.kind,
                            ReplayErrorKind::VariantNotSupported(v.to_string()),
                            "{where_}"
                        );
                        assert_eq!(rep.plies, 0, "{where_}");
                        unsupported.push((rel.clone(), r.game));
                    }
                    other => failures.push(format!(
                        "{where_}: expected `variant not supported` ({}), got {other:?}",
                        r.variant
                    )),
                }
                continue;
            }
            let fen = rep.final_fen().unwrap_or_default();
            // python-chess's status is the final position's.
            let mut status = rep
                .final_status
                .as_ref()
                .map(|s| s.name().to_string())
                .unwrap_or_default();
            if resolved && r.status == "variant_win" && status != "ongoing" {
                // python-chess names every variant ending `variant_win`;
                // who won is checked by antichess_games_end_as_python_chess_says.
                status = r.status.clone();
            }
            match (&r.error, &rep.error) {
                (None, None) => {}
                (Some((ply, mv)), Some(e)) => {
                    if e.ply != Some(*ply) || e.san.as_deref() != Some(mv.as_str()) {
                        failures.push(format!(
                            "{where_}: error at ply {:?} `{:?}`, python-chess at ply {ply} `{mv}`",
                            e.ply, e.san
                        ));
                    }
                    assert!(
                        matches!(
                            e.kind,
                            ReplayErrorKind::Ambiguous(_) | ReplayErrorKind::Illegal
                        ),
                        "{where_}: {e}"
                    );
                    move_errors.push((rel.clone(), r.game, *ply, mv.clone()));
                }
                (None, Some(e)) => failures.push(format!("{where_}: unexpected error {e}")),
                (Some((ply, mv)), None) => failures.push(format!(
                    "{where_}: python-chess fails at ply {ply} `{mv}`, we do not"
                )),
            }
            if rep.plies != r.plies || fen != r.final_fen || status != r.status {
                failures.push(format!(
                    "{where_}: got {} plies `{fen}` {status}; python-chess {} plies `{}` {}",
                    rep.plies, r.plies, r.final_fen, r.status
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // SOURCES.md: 1,310 games in all (python-chess count).
    assert_eq!(total, 1310);

    // The variant games: both antichess games (unless resolved), both
    // crazyhouse files, and the Crazyhouse game inside the scalachess render
    // snapshots.
    let got: Vec<(&str, usize)> = unsupported.iter().map(|(f, g)| (f.as_str(), *g)).collect();
    assert_eq!(got, expected_unsupported);

    // The four games of immortal-games.pgn whose source has a bad SAN, as
    // python-chess reports them (game, ply, move).
    let expected_errors = [
        ("python-chess/immortal-games.pgn", 1, 10, "Nd7"),
        ("python-chess/immortal-games.pgn", 17, 30, "Rf8"),
        ("python-chess/immortal-games.pgn", 25, 25, "Rd1"),
        ("python-chess/immortal-games.pgn", 34, 18, "Nd7"),
    ];
    let got: Vec<(&str, usize, usize, &str)> = move_errors
        .iter()
        .map(|(f, g, p, m)| (f.as_str(), *g, *p, m.as_str()))
        .collect();
    assert_eq!(got, expected_errors);
}

#[test]
fn immortal_games_ambiguities_name_their_candidates() {
    let games = read_file("python-chess/immortal-games.pgn");
    assert_eq!(games.len(), 36);
    let game = games[0].as_ref().expect("game 1 reads");
    let rep = replay(game);
    let err = rep.error.expect("game 1 has the ambiguous Nd7");
    assert_eq!(err.ply, Some(10));
    let ReplayErrorKind::Ambiguous(mut candidates) = err.kind.clone() else {
        panic!("expected ambiguous, got {err}")
    };
    candidates.sort();
    // Before 5...Nd7 both knights (b8 and f6) reach d7.
    assert_eq!(candidates, ["b8d7", "f6d7"]);
    assert_eq!(err.pos.map(|p| p.line), Some(17));
    assert!(err.to_string().contains("ambiguous"), "{err}");
}

#[test]
fn uci_movetext_is_replayed() {
    let games = read_file("python-chess/uci-moves.pgn");
    let game = games[0].as_ref().expect("reads");
    assert_eq!(game.mainline.moves[0].san, "g1f3");
    let rep = replay(game);
    assert!(rep.error.is_none(), "{:?}", rep.error);
}

#[test]
fn chess960_games_use_chess960_rules() {
    for rel in [
        "python-chess/cutechess-fischerrandom.pgn",
        "scalachess/render-snapshot-pgns.pgn",
    ] {
        for g in read_file(rel) {
            let game = g.expect("reads");
            let rep = replay(&game);
            if game
                .tag("Variant")
                .is_some_and(|v| v.eq_ignore_ascii_case("fischerandom"))
            {
                assert_eq!(rep.rules, Some(houserules_pgn::Rules::Chess960), "{rel}");
                assert!(rep.game.as_ref().is_some_and(|g| g.is_chess960()));
            }
        }
    }
}

/// A real game played on past an automatic draw: game 11 of the 1886 world
/// championship reaches its fifth repetition after ply 57 of 84
/// (python-chess 1.11.2: `Board.is_fivefold_repetition()` first true after
/// ply 57). The rule did not exist in 1886; under today's FIDE 9.6.1 the
/// game was over, which the replay reports as a warning, not an error.
#[test]
fn world_championship_1886_game_11_goes_on_past_fivefold_repetition() {
    let games = read_file("pgn2tex/WorldChamp1886.pgn");
    let game = games[10].as_ref().expect("game 11 reads");
    let r = replay(game);
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(r.plies, 84);
    assert_eq!(
        r.warnings,
        [houserules_pgn::ReplayWarning::MovesAfterEnd {
            ply: 57,
            status: "fivefold-repetition".into()
        }]
    );
}

/// Issue 11, wrong answer 7 (value from the issue): the reason a game ended
/// is the first thing that ended it. From a position with the half-move
/// clock at 130, four knight-and-king shuffles (pawns on a2 and h7 keep mating material) repeat the start position a fifth
/// time after ply 16 (clock 146); four more plies reach clock 150, the
/// 75-move rule (FIDE 9.6.1 and 9.6.2). python-chess 1.11.2 agrees:
/// `is_fivefold_repetition()` first true after ply 16, and
/// `outcome().termination` of the final position is `SEVENTYFIVE_MOVES`.
#[test]
fn the_first_end_is_the_reason_fivefold_before_75_moves() {
    let text = "[FEN \"4k3/7p/8/8/8/8/P7/4K1N1 w - - 130 80\"]\n[Result \"1/2-1/2\"]\n\n\
                80. Nf3 Kd8 81. Ng1 Ke8 82. Nf3 Kd8 83. Ng1 Ke8 84. Nf3 Kd8 85. Ng1 Ke8 \
                86. Nf3 Kd8 87. Ng1 Ke8 88. Nf3 Kd8 89. Ng1 Ke8 1/2-1/2\n";
    let game = houserules_pgn::Reader::new(text.as_bytes())
        .next()
        .expect("a game")
        .expect("reads");
    let r = replay(&game);
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(r.plies, 20);
    assert_eq!(r.status().as_deref(), Some("fivefold-repetition"));
    assert_eq!(
        r.ended.as_ref().map(|(ply, _)| *ply),
        Some(16),
        "{:?}",
        r.ended
    );
    assert_eq!(
        r.final_status
            .as_ref()
            .map(|s| s.name().to_string())
            .as_deref(),
        Some("seventy-five-move-rule")
    );
}
