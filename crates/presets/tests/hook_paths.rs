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
