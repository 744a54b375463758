//! The evaluation's mobility term, on an 8×8 (`u64`) and a 10×8 (`u128`)
//! board, against values derived by hand in the comments.

use houserules_engine::{BitSet, Game, Position, Tables, Variant};
use houserules_search::{EvalTables, Objective};

/// The mobility term of the side to move's evaluation of `fen`: the
/// evaluation with every term less the one without mobility.
fn mobility_of(v: Variant, fen: &str, objective: Objective) -> i32 {
    let game = Game::from_fen(v, fen).unwrap();
    let def = game.variant().definition();
    let royal: Vec<bool> = def.pieces.iter().map(|p| p.royal).collect();
    let pawn_like: Vec<bool> = def.pieces.iter().map(|p| p.pawn_like).collect();
    fn diff<B: BitSet>(
        t: &Tables<B>,
        p: &Position<B>,
        royal: &[bool],
        pawn_like: &[bool],
        objective: Objective,
    ) -> i32 {
        let e = EvalTables::new(t, royal.len(), royal, pawn_like, objective);
        assert_eq!(
            e.has_mobility(),
            objective == Objective::Material,
            "the term is on for material objectives (HOUSERULES_EVAL_MOBILITY unset)"
        );
        e.evaluate_in(t, p, royal.len()) - e.evaluate(p, royal.len())
    }
    let variant = game.variant();
    if let (Some(t), Some(p)) = (variant.tables_u64(), game.position::<u64>()) {
        diff(t, p, &royal, &pawn_like, objective)
    } else {
        let t = variant.tables_u128().unwrap();
        let p = game.position::<u128>().unwrap();
        diff(t, p, &royal, &pawn_like, objective)
    }
}

#[test]
fn a_knights_mobility_on_8x8() {
    // A knight's mean on an empty 8×8 board: 4·7·6 + 4·6·7 = 336 moves
    // over 64 squares = 5.25. A reached square is worth 50 / 5.25 cp,
    // 2438/256 in the term's fixed point (round(50 / 5.25 × 256)), less
    // 25 cp per piece (6400/256), floored: kings have no term.
    // Nd4 reaches 8 squares: (8 × 2438 − 6400) / 256 = 51.2 → 51.
    let m = |fen: &str, objective| mobility_of(Variant::chess(), fen, objective);
    assert_eq!(m("7k/8/8/8/3N4/8/8/4K3 w - - 0 1", Objective::Material), 51);
    // Black to move: the same term against the side to move.
    assert_eq!(
        m("7k/8/8/8/3N4/8/8/4K3 b - - 0 1", Objective::Material),
        -51
    );
    // Na1 reaches b3 and c2: (2 × 2438 − 6400) / 256 = −5.95 → −6.
    assert_eq!(m("7k/8/8/8/8/8/8/N3K3 w - - 0 1", Objective::Material), -6);
    // A black pawn on d7 attacks c6 and e6, two of Nd4's squares, which
    // no longer count: (6 × 2438 − 6400) / 256 = 32.1 → 32 (the pawn has
    // no term of its own).
    assert_eq!(
        m("7k/3p4/8/8/3N4/8/8/4K3 w - - 0 1", Objective::Material),
        32
    );
    // Giving material away (suicide chess, capture-all): no term.
    assert_eq!(m("7k/8/8/8/3N4/8/8/4K3 w - - 0 1", Objective::GiveAway), 0);
}

#[test]
fn a_knights_mobility_on_10x8() {
    // Capablanca chess (10×8, u128 bitboards): a knight's mean is
    // (4·9·6 + 4·8·7) / 80 = 440 / 80 = 5.5 moves, so a square is worth
    // round(50 / 5.5 × 256) = 2327/256 cp; Nd4 reaches 8 squares:
    // (8 × 2327 − 6400) / 256 = 47.7 → 47.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../definitions/games/capablanca.yaml"
    );
    let v = houserules_definitions::load_variant_file(std::path::Path::new(path)).unwrap();
    assert_eq!(
        mobility_of(
            v,
            "9k/10/10/10/3N6/10/10/4K5 w - - 0 1",
            Objective::Material
        ),
        47
    );
}
