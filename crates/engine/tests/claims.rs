//! Draw claims (FIDE 9.2 and 9.3): the claims of the current position
//! ([`Game::claimable_draws`]) and those made by announcing a move
//! ([`Game::claimable_draw_after`]), against python-chess
//! (`tests/data/claims.jsonl`, written by `tests/data/make_claims.py`) and
//! positions derived by hand.

use houserules_engine::{Claim, Game, GameError, Variant};

fn names(claims: &[Claim]) -> Vec<String> {
    claims.iter().map(|c| c.name().to_string()).collect()
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

#[test]
fn claims_agree_with_python_chess() {
    let text = include_str!("data/claims.jsonl");
    let mut rows = 0;
    for (line, row) in text.lines().enumerate() {
        let row: serde_json::Value = serde_json::from_str(row).expect("a JSON line");
        let fen = row["fen"].as_str().expect("fen");
        let mut g = Game::from_fen(Variant::chess(), fen).expect("valid FEN");
        for mv in strings(&row["moves"]) {
            g.apply_uci(&mv).expect("a legal move");
        }
        let at = format!("claims.jsonl:{} ({})", line + 1, g.fen());
        // "now": python-chess is_repetition(3) / is_fifty_moves().
        assert_eq!(names(&g.claimable_draws()), strings(&row["now"]), "{at}");
        let mut any3 = g.claimable_draws().contains(&Claim::ThreefoldRepetition);
        let mut any50 = g.claimable_draws().contains(&Claim::FiftyMoveRule);
        for m in g.legal_moves() {
            let uci = g.uci(m);
            let ours = g.claimable_draw_after(m).expect("a legal move");
            let expected = row["after"].get(&uci).map(strings).unwrap_or_default();
            assert_eq!(names(&ours), expected, "{at}: announcing {uci}");
            any3 |= ours.contains(&Claim::ThreefoldRepetition);
            any50 |= ours.contains(&Claim::FiftyMoveRule);
        }
        // python-chess's can_claim_* = now, or after some legal move.
        assert_eq!(any3, row["any3"], "{at}: can_claim_threefold_repetition");
        assert_eq!(any50, row["any50"], "{at}: can_claim_fifty_moves");
        rows += 1;
    }
    assert_eq!(rows, 300);
}

#[test]
fn announcing_the_move_that_repeats_a_position_a_third_time() {
    // FIDE 9.2.1: after 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1, Black's
    // Ng8 would bring the start position (White to move) for the third
    // time: Black may claim by announcing it, and has no claim without it.
    let mut g = Game::chess();
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        g.apply_san(m).unwrap();
    }
    assert_eq!(g.claimable_draws(), vec![]);
    let ng8 = g.parse_san("Ng8").unwrap();
    assert_eq!(
        g.claimable_draw_after(ng8),
        Ok(vec![Claim::ThreefoldRepetition])
    );
    let nh5 = g.parse_san("Nh5").unwrap();
    assert_eq!(g.claimable_draw_after(nh5), Ok(vec![]));
    // The game is unchanged by the question.
    assert_eq!(g.moves().len(), 7);
    g.apply(ng8).unwrap();
    assert_eq!(g.claimable_draws(), vec![Claim::ThreefoldRepetition]);
}

#[test]
fn announcing_the_fiftieth_quiet_move() {
    // FIDE 9.3.1: 99 half-moves without pawn move or capture; a rook move
    // makes the 100th. A mate on that move stands (the mated side has no
    // move, so nothing is claimed: FIDE 5.1.1), and the clock at 99 gives
    // no claim without a move.
    let g = Game::from_fen(Variant::chess(), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 100").unwrap();
    assert_eq!(g.claimable_draws(), vec![]);
    let ra2 = g.parse_san("Ra2").unwrap();
    assert_eq!(g.claimable_draw_after(ra2), Ok(vec![Claim::FiftyMoveRule]));
    let mate = g.parse_san("Ra8#").unwrap();
    assert_eq!(g.claimable_draw_after(mate), Ok(vec![]));
}

#[test]
fn an_illegal_announced_move_is_refused() {
    let g = Game::chess();
    // e2e5 from the start: a pawn cannot move three squares.
    let m = houserules_engine::Move {
        from: 12,
        to: 36,
        ..g.legal_moves()[0]
    };
    assert!(matches!(
        g.claimable_draw_after(m),
        Err(GameError::IllegalMove { .. })
    ));
}
