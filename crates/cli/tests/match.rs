//! `houserules match` end to end: our levels against each other
//! (deterministic at a fixed depth and seed), one short game against
//! Debian's Stockfish, the PGN it writes (replayed by `houserules pgn
//! check`), and its refusals of bad options.

use std::path::PathBuf;
use std::process::{Command, Output};

fn houserules(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(args)
        .output()
        .expect("the houserules binary runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("houserules-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The tag values `name` of every game of a PGN text, in order.
fn tags(pgn: &str, name: &str) -> Vec<String> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .filter_map(|l| l.strip_prefix(prefix.as_str()))
        .map(|v| v.trim_end_matches("\"]").to_string())
        .collect()
}

#[test]
fn our_levels_play_a_deterministic_match_and_write_pgn() {
    let run = |file: &PathBuf| {
        let f = file.to_str().unwrap();
        let o = houserules(&[
            "match", "level:8", "level:1", "--games", "4", "--depth", "3", "--seed", "7", "--pgn",
            f,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        (text(&o), std::fs::read_to_string(file).unwrap())
    };
    let (a, pgn_a) = run(&tmp("a.pgn"));
    let (_, pgn_b) = run(&tmp("b.pgn"));
    // Same seed, same depth: the same games.
    assert_eq!(pgn_a, pgn_b);
    // Four games, colours alternating, every result a real one.
    assert_eq!(
        tags(&pgn_a, "White"),
        [
            "houserules level 8",
            "houserules level 1",
            "houserules level 8",
            "houserules level 1"
        ]
    );
    for r in tags(&pgn_a, "Result") {
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&r.as_str()), "{r}");
    }
    assert_eq!(tags(&pgn_a, "Round"), ["1", "2", "3", "4"]);
    // Level 8 (depth 3) against level 1 (depth 1 with ±150 cp of noise)
    // must score more than half.
    let score = a
        .lines()
        .find(|l| l.starts_with("Score of houserules level 8 vs houserules level 1: "))
        .unwrap_or_else(|| panic!("no score line in {a}"));
    let frac: f64 = score
        .split('[')
        .nth(1)
        .and_then(|s| s.split(']').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no score fraction in {score}"));
    assert!(frac > 0.5, "{score}");
    assert!(a.contains("W/D/L: "), "{a}");
    assert!(a.contains("Elo difference: "), "{a}");
    // The games replay under the PGN checker (an independent reader and
    // the rules engine as referee).
    let o = houserules(&["pgn", "check", tmp("a.pgn").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn a_preset_match_writes_the_rule_set_tag() {
    let file = tmp("presets.pgn");
    let o = houserules(&[
        "match",
        "level:4",
        "level:2",
        "--games",
        "2",
        "--depth",
        "2",
        "--rules",
        "capture-to-win",
        "--random-plies",
        "2",
        "--pgn",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        tags(&pgn, "HouseRules"),
        ["capture-to-win", "capture-to-win"]
    );
    // Each random opening is played with both colours: both games start
    // with the same two plies.
    let firsts: Vec<&str> = pgn.lines().filter(|l| l.starts_with("1. ")).collect();
    assert_eq!(firsts.len(), 2);
    let opening = |l: &str| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    assert_eq!(opening(firsts[0]), opening(firsts[1]));
}

/// One short game against Debian's Stockfish (`/usr/games/stockfish`, or
/// `STOCKFISH=path`): the game ends with a result, and the PGN names the
/// engine from its `id name`.
#[test]
fn one_short_game_against_stockfish() {
    let sf = std::env::var("STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".into());
    assert!(
        std::path::Path::new(&sf).exists(),
        "Stockfish is missing at {sf}: `apt-get install stockfish` or set STOCKFISH=path"
    );
    let file = tmp("sf.pgn");
    let o = houserules(&[
        "match",
        "level:3",
        &sf,
        "--option2",
        "Skill Level=0",
        "--games",
        "1",
        "--tc",
        "2+0.05",
        "--max-plies",
        "60",
        "--pgn",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert_eq!(tags(&pgn, "Black").len(), 1);
    assert!(tags(&pgn, "Black")[0].starts_with("Stockfish"), "{pgn}");
    assert_eq!(tags(&pgn, "TimeControl"), ["2+0.05"]);
    let result = &tags(&pgn, "Result")[0];
    assert!(
        ["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()),
        "{pgn}"
    );
    // Neither side may lose on time or by an illegal move at this pace.
    let termination = &tags(&pgn, "Termination")[0];
    assert!(
        termination == "normal" || termination == "adjudication",
        "{pgn}"
    );
    let o = houserules(&["pgn", "check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// Fairy-Stockfish is told its own name of the game (`losalamos`, not our
/// `los-alamos`; `knightmate`, not `knightmate-classic`) and Stockfish
/// `UCI_Chess960` for Chess960, without `--uci-variant`: with the wrong
/// option the engine plays another game, and its first move that Los
/// Alamos or Knightmate does not allow ends the game as an illegal move
/// (regression: `los-alamos` was sent and refused by Fairy-Stockfish).
#[test]
fn external_engines_are_told_the_game_by_their_names() {
    let fsf =
        std::env::var("FAIRY_STOCKFISH").unwrap_or_else(|_| "/usr/games/fairy-stockfish".into());
    let sf = std::env::var("STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".into());
    for (engine, game) in [
        (&fsf, "los-alamos"),
        (&fsf, "knightmate-classic"),
        (&sf, "chess960"),
    ] {
        assert!(
            std::path::Path::new(engine).exists(),
            "{engine} is missing: `apt-get install stockfish fairy-stockfish`"
        );
        let file = tmp(&format!("names-{game}.pgn"));
        let o = houserules(&[
            "match",
            "level:1",
            engine,
            "--game",
            game,
            "--games",
            "2",
            "--depth",
            "2",
            "--max-plies",
            "40",
            "--random-plies",
            "2",
            "--pgn",
            file.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{game}: {}", text(&o));
        let pgn = std::fs::read_to_string(&file).unwrap();
        for t in tags(&pgn, "Termination") {
            assert!(t == "normal" || t == "adjudication", "{game}: {pgn}");
        }
    }
}

#[test]
fn bad_options_are_refused_with_a_message() {
    for (args, expected) in [
        (
            vec!["match", "level:9", "level:1"],
            "the level must be 1 to 8",
        ),
        (
            vec!["match", "level:2", "level:1", "--tc", "fast"],
            "--tc \"fast\": expected SECONDS[+INCREMENT]",
        ),
        (
            vec!["match", "level:2", "level:1", "--tc", "1", "--depth", "2"],
            "exclude each other",
        ),
        (
            vec!["match", "level:2", "/nonexistent/engine"],
            "cannot start",
        ),
        (
            vec!["match", "level:2", "level:1", "--option1", "Hash=1"],
            "--option1 is for external engines",
        ),
        (
            vec![
                "match",
                "level:2",
                "/usr/games/stockfish",
                "--modifiers",
                "kamikaze",
            ],
            "with --modifiers only our levels (level:1 to level:8) can play",
        ),
        (
            vec!["match", "level:2", "level:1", "--modifiers", "no_such_rule"],
            "no_such_rule",
        ),
    ] {
        let o = houserules(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(expected), "{args:?}: {}", text(&o));
    }
}

#[test]
fn a_modifier_match_is_refereed_by_the_session() {
    // Two games under kamikaze and parry (random blasts, rock-paper-
    // scissors on every capture): the same seed gives the same games, the
    // PGN carries the Modifiers tag, and choices were answered. Both
    // levels are named with the searcher `auto` chose: alpha-beta, as
    // neither rule skips a turn (search::session_engine_for).
    let run = |file: &PathBuf| {
        let f = file.to_str().unwrap();
        let o = houserules(&[
            "match",
            "level:3",
            "level:1",
            "--games",
            "2",
            "--depth",
            "1",
            "--seed",
            "3",
            "--modifiers",
            "kamikaze,parry",
            "--max-plies",
            "60",
            "--pgn",
            f,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        (text(&o), std::fs::read_to_string(file).unwrap())
    };
    let (out, pgn_a) = run(&tmp("mods-a.pgn"));
    let (_, pgn_b) = run(&tmp("mods-b.pgn"));
    assert_eq!(pgn_a, pgn_b);
    assert_eq!(
        tags(&pgn_a, "Modifiers"),
        ["kamikaze,parry", "kamikaze,parry"]
    );
    for r in tags(&pgn_a, "Result") {
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&r.as_str()), "{r}");
    }
    assert!(
        out.contains("Score of houserules level 3 alphabeta vs houserules level 1 alphabeta: "),
        "{out}"
    );
    let answered: u32 = out
        .lines()
        .filter_map(|l| l.strip_suffix(" choices"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u32>().ok())
        .sum();
    assert!(answered > 0, "parry asks on every capture: {out}");
}

#[test]
fn a_modifier_match_game_replays_under_pgn_check() {
    // Game 1 of a match is seeded with --seed (0 here), the seed `pgn
    // check` replays a Modifiers game with: an independent replay of the
    // moves through a new session reaches the same end, so the referee
    // applied the rules as the session does.
    let file = tmp("mods-replay.pgn");
    let o = houserules(&[
        "match",
        "level:2",
        "level:2",
        "--games",
        "1",
        "--depth",
        "1",
        "--seed",
        "0",
        "--modifiers",
        "kamikaze",
        "--max-plies",
        "80",
        "--pgn",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = houserules(&["pgn", "check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(!text(&o).contains("warning"), "{}", text(&o));
}

#[test]
fn modifier_match_pgn_with_nonzero_seed_replays() {
    // Trial 15: games of a `--modifiers` match are seeded `--seed + game
    // index`, but the PGN had no `Seed` tag, so `pgn check` replayed every
    // game but one of a `--seed 0` match with seed 0 and refused a move
    // where the kamikaze outcomes differed (here `fxe3` at ply 11 of game
    // 1 and `Bxg7` at ply 8 of game 2, before the fix). The tag carries
    // each game's seed (2 and 3), the one `play --pgn` writes.
    let file = tmp("mods-seed.pgn");
    let o = houserules(&[
        "match",
        "level:2",
        "level:2",
        "--games",
        "2",
        "--depth",
        "1",
        "--seed",
        "2",
        "--modifiers",
        "kamikaze",
        "--max-plies",
        "80",
        "--pgn",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert_eq!(tags(&pgn, "Seed"), ["2", "3"]);
    let o = houserules(&["pgn", "check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn an_unwritable_pgn_path_is_refused_before_the_first_game() {
    // Trial 15: `--pgn /nonexistent/dir/x.pgn` played every game and only
    // failed when writing at the end, losing a long match's games. The
    // path is now tried first: the command fails with the path named and
    // no game is played (no "Score of" line; 10,000 games at depth 1
    // would take minutes).
    let o = houserules(&[
        "match",
        "level:1",
        "level:1",
        "--games",
        "10000",
        "--depth",
        "1",
        "--pgn",
        "/nonexistent/dir/x.pgn",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let all = text(&o);
    assert!(all.contains("--pgn /nonexistent/dir/x.pgn"), "{all}");
    assert!(!all.contains("Score of"), "{all}");
}

#[test]
fn an_external_houserules_engine_is_told_the_house_rules() {
    // Found by helper lmr (session 9): `match --rules double-move` with
    // `houserules uci` as both external engines never told them the
    // presets, so they played FIDE chess and every game ended in a rules
    // infraction after White's first single move (White moves twice under
    // double-move). An engine that lists `HouseRules` now gets the presets.
    let me = env!("CARGO_BIN_EXE_houserules");
    let engine = format!("{me} uci");
    let file = tmp("double-move-external.pgn");
    let o = houserules(&[
        "match",
        &engine,
        &engine,
        "--rules",
        "double-move",
        "--games",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "12",
        "--pgn",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let pgn = std::fs::read_to_string(&file).unwrap();
    let terminations = tags(&pgn, "Termination");
    assert_eq!(terminations.len(), 2, "{pgn}");
    for t in terminations {
        assert_ne!(t, "rules infraction", "{pgn}");
    }
}

#[test]
fn a_failed_match_leaves_an_existing_pgn_file_alone() {
    // Re-trial (session 9): the up-front `--pgn` check emptied an existing
    // file, so a match that then failed on a bad `--rules` lost an earlier
    // match's record. The file must keep its bytes, and a new path must
    // not be left behind as an empty file.
    let file = tmp("keep.pgn");
    std::fs::write(&file, "[Event \"earlier\"]\n\n1. e4 *\n").unwrap();
    let fresh = tmp("never-written.pgn");
    let _ = std::fs::remove_file(&fresh);
    for path in [&file, &fresh] {
        let o = houserules(&[
            "match",
            "level:1",
            "level:1",
            "--rules",
            "nonsense",
            "--games",
            "2",
            "--depth",
            "1",
            "--pgn",
            path.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "[Event \"earlier\"]\n\n1. e4 *\n"
    );
    assert!(!fresh.exists());
}
