//! The engine's per-profile move-generation paths (docs/performance.md,
//! "Hook profiles") agree with the general hooked path they replace.
//!
//! Hooks declare what they use ([`houserules_engine::hooks::HookProfile`]);
//! the engine then generates with its own legal generator, with
//! pseudo-legal moves plus compulsory capture, or with pseudo-legal moves
//! of which only the pinned pieces' and royals' moves are played. Over
//! random playouts of every single preset and random compatible sets,
//! the legal-move set and the bulk count of each path equal those of a
//! reference written here that plays every pseudo-legal move through the
//! hooks and judges it on the hooks' royal set (what the general path did
//! before the profiles existed, and what the oracle tests validated).

mod common;

use houserules_engine::{Game, Move, Status};
use houserules_presets::registry::PRESETS;
use houserules_presets::{build, RuleSet};

use common::Rng;

fn key(m: &Move) -> (u8, u8, u8, u8) {
    (
        m.from,
        m.to,
        m.promotion.map_or(0, |k| k.0 + 1),
        m.kind as u8,
    )
}

/// Plays up to `plies` random moves from the rule set's start and checks
/// every position on the way.
fn check_playout(rs: &RuleSet, rng: &mut Rng, plies: usize) -> usize {
    let Ok((v, fen)) = build(rs, None) else {
        return 0;
    };
    let mut g = Game::from_fen(v, &fen).unwrap();
    let mut seen = 0;
    for _ in 0..plies {
        let (pos, t) = g.small().expect("presets are on 8×8");
        let mut general = Vec::new();
        if t.hooks().is_some() {
            general = common::hooked_reference(pos, t);
        } else {
            pos.legal_moves_into(t, &mut general);
        }
        let mut fast = g.legal_moves();
        general.sort_by_key(key);
        fast.sort_by_key(key);
        assert_eq!(
            fast,
            general,
            "{}: legal moves of the profile path differ from the general path at {}",
            rs.to_cli(),
            g.fen()
        );
        assert_eq!(
            g.count_legal_moves(),
            general.len() as u64,
            "{}: bulk count differs from the move list at {}",
            rs.to_cli(),
            g.fen()
        );
        seen += 1;
        if g.status() != Status::Ongoing || fast.is_empty() {
            break;
        }
        let m = fast[(rng.next() % fast.len() as u64) as usize];
        g.apply(m).unwrap();
    }
    seen
}

#[test]
fn every_preset_alone_generates_as_the_general_path() {
    let mut rng = Rng(41);
    let mut positions = 0;
    for p in PRESETS.iter().filter(|p| p.implemented) {
        // Presets that need another one (king-heals) are left to the sets.
        let Ok(rs) = RuleSet::parse(p.id) else {
            continue;
        };
        for _ in 0..6 {
            positions += check_playout(&rs, &mut rng, 120);
        }
    }
    assert!(positions > 5000, "only {positions} positions checked");
}

#[test]
fn random_preset_sets_generate_as_the_general_path() {
    let mut rng = Rng(42);
    let mut sets = 0;
    for _ in 0..150 {
        let Some(rs) = common::random_rule_set(&mut rng, 2, 2) else {
            continue;
        };
        if check_playout(&rs, &mut rng, 80) > 0 {
            sets += 1;
        }
    }
    assert!(sets > 40, "only {sets} compatible sets");
}

/// Bug found while adding the profile paths: under `coregal` a pawn that
/// promotes to a queen makes a new royal piece, which must not land on an
/// attacked square. Fairy-Stockfish (`coregal`) has 38 legal moves here and
/// no d7d8q: the new queen on d8 would stand on the black queen's diagonal.
#[test]
fn coregal_promotion_to_royal_queen_onto_attacked_square_is_illegal() {
    let g = common::game(
        "coregal",
        None,
        Some("7Q/k2P4/7P/4P3/1p4pq/p3RB2/5N2/2K5 w - - 4 105"),
    );
    assert!(!common::legal(&g, "d7d8q"));
    assert!(common::legal(&g, "d7d8r"));
    assert_eq!(g.legal_moves().len(), 38);
    assert_eq!(g.count_legal_moves(), 38);
}

/// Atomic and racing kings list and count their legal moves themselves
/// (`HookProfile::own_moves`: explosions and "gives check" judged on
/// bitboards without playing each move). Over random playouts from their
/// start positions and from positions of scalachess's perft files, the
/// moves and the bulk count equal the general path's
/// (`Position::legal_moves_hooked`, which plays every move through the
/// hooks and which the python-chess differential validated).
#[test]
fn lichess_own_move_paths_generate_as_the_general_path() {
    let mut rng = Rng(43);
    let starts: &[(&str, &[&str])] = &[
        (
            "atomic",
            &[
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
                "r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1",
                "8/8/8/4k3/4K3/8/8/8 w - - 0 1",
                "8/8/2k5/3K4/8/8/1q6/8 w - - 0 1",
            ],
        ),
        (
            "racingkings",
            &[
                "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
                "8/8/8/8/8/6K1/krbnNBR1/qrbnNBRQ b - - 1 1",
                "4brn1/2K2k2/8/8/8/8/8/8 w - - 0 1",
            ],
        ),
    ];
    let mut positions = 0;
    for &(id, fens) in starts {
        let (v, _) = houserules_presets::lichess::find(id)
            .expect("shipped")
            .build()
            .expect("builds");
        for &fen in fens {
            for _ in 0..40 {
                let mut g = Game::from_fen(v.clone(), fen).unwrap();
                for _ in 0..120 {
                    let (pos, t) = g.small().expect("8×8");
                    let h = t.hooks().expect("hooked");
                    let mut general = Vec::new();
                    pos.legal_moves_hooked(t, h, &mut general);
                    let mut own = g.legal_moves();
                    general.sort_by_key(key);
                    own.sort_by_key(key);
                    assert_eq!(own, general, "{id}: legal moves differ at {}", g.fen());
                    assert_eq!(
                        g.count_legal_moves(),
                        general.len() as u64,
                        "{id}: bulk count differs at {}",
                        g.fen()
                    );
                    positions += 1;
                    if g.status() != Status::Ongoing || own.is_empty() {
                        break;
                    }
                    let m = own[(rng.next() % own.len() as u64) as usize];
                    g.apply(m).unwrap();
                }
            }
        }
    }
    assert!(positions > 10_000, "only {positions} positions checked");
}
