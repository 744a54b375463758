use houserules_engine::{Game, Variant};

fn perft(fen: &str, depth: u32) -> u64 {
    let g = Game::from_fen(Variant::chess(), fen).unwrap();
    let v = g.variant().clone();
    let t = v.tables_u64().unwrap();
    let p = houserules_engine::fen::parse(v.definition(), t, fen).unwrap();
    p.perft(t, depth, true)
}

#[test]
fn quick() {
    // chessprogramming.org Perft Results
    assert_eq!(perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5), 4865609);
    assert_eq!(perft("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4), 4085603);
    assert_eq!(perft("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5), 674624);
    assert_eq!(perft("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4), 422333);
    assert_eq!(perft("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4), 2103487);
}
