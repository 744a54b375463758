//! The shipped definitions: ids, loading, and the one waiting for engine
//! features.

use houserules_definitions::{
    builtin, builtin_ids, builtin_source, pending_builtin_ids, BUILTIN_SOURCES,
};

#[test]
fn every_playable_builtin_loads_under_its_id() {
    let ids = builtin_ids();
    assert_eq!(ids[0], "chess");
    for id in [
        "chess",
        "chess960",
        "capablanca",
        "gardner",
        "los-alamos",
        "berolina",
        "knightmate-classic",
        "clobberers",
    ] {
        assert!(ids.contains(&id), "{id} is playable");
        let def = builtin(id).unwrap_or_else(|| panic!("{id} loads"));
        assert_eq!(def.id, id);
        houserules_engine::Variant::new(def).expect("compiles");
    }
    assert_eq!(
        ids.len() + pending_builtin_ids().len(),
        BUILTIN_SOURCES.len()
    );
    assert!(builtin("no-such-game").is_none());
    assert!(builtin_source("no-such-game").is_none());
}

#[test]
fn board_sizes_and_pieces_are_as_the_games_say() {
    let size = |id: &str| {
        let d = builtin(id).expect(id);
        (
            d.width,
            d.height,
            d.pieces.iter().map(|p| p.symbol).collect::<String>(),
        )
    };
    assert_eq!(size("capablanca"), (10, 8, "PNBRQKAC".into()));
    assert_eq!(size("gardner"), (5, 5, "PNBRQK".into()));
    assert_eq!(size("los-alamos"), (6, 6, "PNRQK".into()));
    assert_eq!(size("knightmate-classic"), (8, 8, "PMBRQK".into()));
    assert_eq!(size("clobberers"), (8, 8, "PDWACK".into()));
    let km = builtin("knightmate-classic").expect("knightmate");
    let royal: Vec<char> = km
        .pieces
        .iter()
        .filter(|p| p.royal)
        .map(|p| p.symbol)
        .collect();
    assert_eq!(royal, ['K']);
    // Los Alamos: no double step, no en passant, no castling; promotion to
    // queen, rook or knight.
    let la = builtin("los-alamos").expect("los-alamos");
    assert!(la.castling.is_none());
    assert!(la
        .pieces
        .iter()
        .all(|p| p.shapes.iter().all(|s| !s.first_move_only)));
    let promo = la.promotion.expect("promotion");
    let names: Vec<&str> = promo
        .choices
        .iter()
        .map(|&k| la.pieces[k].id.as_str())
        .collect();
    assert_eq!(names, ["Queen", "Rook", "Knight"]);
    // Capablanca: the king castles from f to c or i, the rook to d or h.
    let cap = builtin("capablanca")
        .expect("capablanca")
        .castling
        .expect("castling");
    assert_eq!((cap.king_files, cap.rook_files), ([2, 8], [3, 7]));
}

#[test]
fn grand_compiles_its_promotion_rules() {
    // Grand chess: compulsory promotion on the 10th rank, optional on the
    // 8th and 9th, only to types the side has lost (setup: 1 Q, C, A; 2 R,
    // B, N).
    assert!(pending_builtin_ids().is_empty());
    let g = builtin("grand").expect("grand is playable");
    let p = g.promotion.expect("promotion");
    assert_eq!(p.ranks, vec![9]);
    assert_eq!(p.optional_ranks, vec![7, 8]);
    let limit = |id: &str| {
        let k = g.pieces.iter().position(|x| x.id == id).expect(id);
        p.limits.iter().find(|(kk, _)| *kk == k).map(|x| x.1)
    };
    assert_eq!(limit("Queen"), Some(1));
    assert_eq!(limit("Rook"), Some(2));
    assert_eq!(limit("Knight"), Some(2));
}

/// Regression: Berolina pawns step diagonally without capturing, so two
/// pawns can reach one square; SAN must name the file (found by a
/// new-user trial: `moves` printed `e3` for both d2e3 and f2e3).
#[test]
fn berolina_pawn_san_names_the_file_when_needed() {
    use houserules_engine::{Game, Variant};
    let g = Game::new(Variant::new(builtin("berolina").expect("berolina")).expect("compiles"));
    let san = |uci: &str| g.san(g.parse_uci(uci).expect(uci));
    assert_eq!(san("d2e3"), "de3");
    assert_eq!(san("f2e3"), "fe3");
    // The only pawn move to b4 (a double step from d2) needs no file.
    assert_eq!(san("d2b4"), "db4");
    assert_eq!(g.uci(g.parse_san("b4").expect("b4 is unambiguous")), "d2b4");
    assert!(g.parse_san("e3").is_err(), "e3 is ambiguous");
    assert_eq!(g.uci(g.parse_san("de3").unwrap()), "d2e3");
}
