//! Property test: random playouts under random compatible preset sets
//! never panic, undo restores the FEN and the hash exactly, and every game
//! either ends with a defined status within the ply cap or is reported as
//! still ongoing at the cap (counted, not failed: 75-move and fivefold
//! repetition end long games, but a 200-ply cap is shorter than that).

mod common;

use houserules_engine::{Game, Status};
use houserules_presets::build;

use common::Rng;

#[test]
fn random_compatible_preset_sets_play_out_safely() {
    let mut rng = Rng(4);
    let (mut ended, mut capped, mut sets) = (0, 0, 0);
    for _ in 0..120 {
        let Some(rs) = common::random_rule_set(&mut rng, 1, 3) else {
            continue;
        };
        let Ok((v, fen)) = build(&rs, None) else {
            continue;
        };
        sets += 1;
        let mut g = Game::from_fen(v, &fen).unwrap();
        let mut done = false;
        for _ in 0..200 {
            let status = g.status();
            if status != Status::Ongoing {
                assert!(status.is_over(), "{}: {status:?}", rs.to_cli());
                done = true;
                break;
            }
            let moves = g.legal_moves();
            assert!(
                !moves.is_empty(),
                "{}: ongoing without moves at {}",
                rs.to_cli(),
                g.fen()
            );
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            let (f, h) = (g.fen(), g.hash());
            let _ = g.san(m);
            g.apply(m).unwrap();
            g.undo().unwrap();
            assert_eq!((g.fen(), g.hash()), (f, h), "{}: undo", rs.to_cli());
            g.apply(m).unwrap();
        }
        if done {
            ended += 1;
        } else {
            capped += 1;
        }
    }
    assert!(sets > 40, "only {sets} compatible sets");
    assert!(ended > 0);
    eprintln!("{sets} sets: {ended} ended, {capped} still ongoing at the cap");
}
