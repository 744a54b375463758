//! `Position::move_targets` lists, batch by batch, exactly the moves of
//! `legal_moves_into` (legal) and of `pseudo_legal_moves_hooked` without
//! hooks (pseudo-legal), in the same order; both lists are the ones the
//! perft suites check against reference counts.

use houserules_engine::{Game, Move, Variant};

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

/// The moves of the batches, listed as `Collect` lists them.
fn listed(g: &Game, legal: bool) -> Option<Vec<Move>> {
    let (pos, t) = g.small()?;
    let mut out = Vec::new();
    let given = pos.move_targets(t, legal, |from, tg: u64, kind, promote| {
        let mut tg = tg;
        while tg != 0 {
            let to = tg.trailing_zeros() as u8;
            tg &= tg - 1;
            if promote {
                pos.for_each_promotion(t, |k| {
                    out.push(Move {
                        from,
                        to,
                        promotion: Some(k),
                        kind,
                    })
                });
            } else {
                out.push(Move {
                    from,
                    to,
                    promotion: None,
                    kind,
                });
            }
        }
    });
    given.then_some(out)
}

/// The moves of `move_target_sets` batches, listed in order.
fn listed_sets(g: &Game, legal: bool) -> Option<Vec<Move>> {
    let (pos, t) = g.small()?;
    let mut out = Vec::new();
    let given = pos.move_target_sets(t, legal, true, |b| {
        let mut tg: u64 = b.targets;
        while tg != 0 {
            let to = tg.trailing_zeros() as u8;
            tg &= tg - 1;
            let from = if b.delta == 0 {
                b.from
            } else {
                (i32::from(to) - i32::from(b.delta)) as u8
            };
            let mut push = |promotion| {
                out.push(Move {
                    from,
                    to,
                    promotion,
                    kind: b.kind,
                })
            };
            if b.promote {
                pos.for_each_promotion(t, |k| push(Some(k)));
            } else {
                push(None);
            }
        }
    });
    given.then_some(out)
}

#[test]
fn move_targets_list_the_engine_moves_in_order() {
    for fen in FENS {
        let g = Game::from_fen(Variant::chess(), fen).expect("valid FEN");
        let (pos, t) = g.small().expect("8x8");
        let legal = listed(&g, true).expect("one king: the fast path applies");
        assert_eq!(legal, g.legal_moves(), "legal batches at {fen}");
        let mut pseudo = Vec::new();
        pos.pseudo_legal_moves_hooked(t, None, &mut pseudo);
        assert_eq!(
            listed(&g, false).expect("always given"),
            pseudo,
            "pseudo-legal batches at {fen}"
        );
        // Set-wise pawn batches: the same moves in the same order.
        assert_eq!(listed_sets(&g, true), Some(legal), "legal sets at {fen}");
        assert_eq!(
            listed_sets(&g, false),
            Some(pseudo),
            "pseudo-legal sets at {fen}"
        );
    }
}

/// Castling moves (king-takes-rook: `(king square, rook square)`) of a list.
fn castles(moves: &[Move]) -> Vec<(u8, u8)> {
    let mut c: Vec<(u8, u8)> = moves
        .iter()
        .filter(|m| m.kind == houserules_engine::MoveKind::Castle)
        .map(|m| (m.from, m.to))
        .collect();
    c.sort_unstable();
    c
}

/// The pseudo-legal list judges castling as FIDE Art. 3.8.2.2 does (the
/// king not in check, not crossing or landing on an attacked square); the
/// squares the rook alone crosses may be attacked. Expected wings worked
/// out by hand from the enemy piece's attacks; the list must also agree
/// with the legal list, which the perft suites check.
#[test]
fn pseudo_legal_castling_avoids_attacked_king_squares() {
    const E1: u8 = 4;
    const A1: u8 = 0;
    const H1: u8 = 7;
    let cases: &[(&str, &[(u8, u8)])] = &[
        // Nothing attacks the first rank: both wings.
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            &[(E1, A1), (E1, H1)],
        ),
        // The bishop on c4 sees d3, e2 and f1: the king would cross f1.
        ("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1", &[(E1, A1)]),
        // The knight on b2 attacks d1, which the king crosses going long.
        ("r3k2r/8/8/8/8/8/1n6/R3K2R w KQkq - 0 1", &[(E1, H1)]),
        // The pawn on b2 attacks c1, the king's destination going long.
        ("4k3/8/8/8/8/8/1p6/R3K2R w KQ - 0 1", &[(E1, H1)]),
        // The rook on e5 gives check: no castling.
        ("4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1", &[]),
        // The knight on a3 attacks b1, which only the rook crosses.
        ("4k3/8/8/8/8/n7/8/R3K2R w KQ - 0 1", &[(E1, A1), (E1, H1)]),
    ];
    for (fen, want) in cases {
        let g = Game::from_fen(Variant::chess(), fen).expect("valid FEN");
        let pseudo = listed(&g, false).expect("always given");
        assert_eq!(castles(&pseudo), *want, "pseudo-legal castling at {fen}");
        assert_eq!(castles(&g.legal_moves()), *want, "legal castling at {fen}");
        // Listed unjudged, then judged one by one.
        let (pos, t) = g.small().expect("8x8");
        let mut unjudged = Vec::new();
        pos.move_target_sets(t, false, false, |b| {
            if b.kind == houserules_engine::MoveKind::Castle {
                for to in (0..64u8).filter(|s| b.targets & (1u64 << s) != 0) {
                    unjudged.push(Move {
                        from: b.from,
                        to,
                        promotion: None,
                        kind: b.kind,
                    });
                }
            }
        });
        assert_eq!(
            castles(&unjudged).len(),
            2,
            "both rights, empty paths at {fen}"
        );
        unjudged.retain(|m| pos.castling_is_safe(t, *m));
        assert_eq!(castles(&unjudged), *want, "judged castling at {fen}");
    }
}
