//! # Racing Kings written with a custom modifier (issue 25 item 4)
//!
//! Racing Kings is FIDE chess from `8/8/8/8/8/8/krbnNBRK/qrbnNBRQ`, where
//! no move may give check and a king on the last rank wins. Here the
//! goal is the engine's ([`houserules_presets::lichess::racing_kings_goal_only`]:
//! the shipped game's result hook without its move filter) and "no move
//! may give check" is the custom modifier below, one `forbid-move` with
//! the `givesCheck` move filter key. The game is replayed along
//! python-chess 1.11.2's `RacingKingsBoard` playouts committed for the
//! shipped game (`crates/presets/tests/data/lichess_racingkings.txt`, made
//! by `make_lichess_reference.py`; format in its docstring) and compared
//! at every position: the legal moves in UCI and SAN (the runtime's own
//! SAN), the FEN, and the result.

use std::collections::BTreeMap;
use std::path::PathBuf;

use houserules_engine::Game;
use houserules_modifiers::runtime::{Lifetime, Options};
use houserules_modifiers::Runtime;

/// The custom modifier: racing kings' "no move may give check".
const NO_CHECKS: &str = r#"{
  "version": 1,
  "id": "no-checks",
  "name": "No checks",
  "description": "No move may give check (racing kings).",
  "passive": [{"kind": "forbid-move", "params": {"givesCheck": true}}]
}"#;

/// FNV-1a 64 of `lines` joined by `\n` (as the generator's `digest`).
fn digest(lines: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in lines.join("\n").bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    format!("{h:016x}")
}

fn runtime(fen: &str) -> Runtime {
    let (variant, _) = houserules_presets::lichess::racing_kings_goal_only().expect("builds");
    let game = Game::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut rt = Runtime::new(game, Options::default()).expect("runtime");
    let desc = houserules_modifiers::validate(NO_CHECKS).expect("a valid descriptor");
    let turn = rt.game().turn();
    rt.attach(desc, turn, Lifetime::Permanent, BTreeMap::new())
        .expect("attaches");
    // As `Session::create` after each attach: run what attaching queued.
    rt.drive();
    rt
}

/// python-chess's `Outcome.result()` for the runtime's status.
fn result(rt: &Runtime) -> String {
    let st = rt.status();
    match (st["status"].as_str(), st["winner"].as_str()) {
        (Some("ongoing"), _) => "*".into(),
        (_, Some("white")) => "1-0".into(),
        (_, Some("black")) => "0-1".into(),
        _ => "1/2-1/2".into(),
    }
}

#[test]
fn racing_kings_as_fide_chess_with_a_custom_modifier_matches_python_chess() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../presets/tests/data/lichess_racingkings.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut rt: Option<Runtime> = None;
    let (mut positions, mut failures) = (0usize, Vec::new());
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] == "P" {
            rt = Some(runtime(f[2]));
            continue;
        }
        let (want, want_result, want_fen, mv) = (f[0], f[1], f[2], f[3]);
        let Some(r) = rt.as_mut() else { continue };
        positions += 1;
        let legal = r.legal_moves();
        let uci = r.legal_moves_uci();
        let mut lines: Vec<String> = legal
            .iter()
            .zip(&uci)
            .map(|(&m, u)| format!("{u} {}", r.san_among(m, &legal)))
            .collect();
        lines.sort();
        let mut problems = Vec::new();
        if digest(&lines) != want {
            problems.push(format!("moves: ours {}", lines.join(", ")));
        }
        if r.game().fen() != want_fen {
            problems.push(format!("FEN: ours {}", r.game().fen()));
        }
        let got = result(r);
        if got != want_result {
            problems.push(format!("result: ours {got}, python-chess's {want_result}"));
        }
        if !problems.is_empty() {
            failures.push(format!(
                "line {} ({want_fen}): {}",
                n + 1,
                problems.join("; ")
            ));
            rt = None;
            if failures.len() >= 10 {
                break;
            }
            continue;
        }
        if mv != "-" {
            // As `Session::submit` feeds an input.
            r.begin_input();
            if let Err(e) = r.submit_move(mv) {
                failures.push(format!("line {}: {mv} refused: {e}", n + 1));
                rt = None;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(positions >= 3000, "only {positions} positions compared");
}

/// Without the modifier the goal-only game lets a move give check, so the
/// comparison above can fail: in Racing Kings' start White's knight on e2
/// may go to the empty c3, from where it attacks Black's king on a2 (a
/// knight's leap). python-chess's `RacingKingsBoard` refuses `e2c3`
/// (FIDE chess's `Board` plays it, with check); the goal-only game allows
/// it and the modifier forbids it.
#[test]
fn the_modifier_is_what_forbids_checks() {
    let fen = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1";
    let (variant, _) = houserules_presets::lichess::racing_kings_goal_only().expect("builds");
    let bare = Game::from_fen(variant, fen).expect("start");
    let bare_uci: Vec<String> = bare.legal_moves().iter().map(|&m| bare.uci(m)).collect();
    assert!(bare_uci.contains(&"e2c3".to_string()));
    let rt = runtime(fen);
    assert!(!rt.legal_moves_uci().contains(&"e2c3".to_string()));
}
