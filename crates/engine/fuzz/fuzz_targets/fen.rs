//! Any string as a FEN. When it parses: the written FEN re-parses to the
//! same FEN (X-FEN and Shredder-FEN), bulk and full perft(2) agree, and a
//! few legal moves (chosen by the input's bytes) play, each round-tripping
//! through SAN and UCI, with the FEN round trip checked after each.
#![no_main]

mod common;

use houserules_engine::Game;
use libfuzzer_sys::fuzz_target;

fn round_trip(game: &Game) {
    let v = common::chess();
    let fen = game.fen();
    let again = Game::from_fen(v.clone(), &fen)
        .unwrap_or_else(|e| panic!("written FEN {fen:?} does not re-parse: {e}"));
    assert_eq!(again.fen(), fen, "FEN round trip");
    let shredder = game.shredder_fen();
    let again = Game::from_fen(v.clone(), &shredder)
        .unwrap_or_else(|e| panic!("written Shredder-FEN {shredder:?} does not re-parse: {e}"));
    assert_eq!(again.fen(), fen, "Shredder-FEN round trip of {shredder:?}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let v = common::chess();
    let t = v.tables_u64().expect("chess fits u64");
    let low = houserules_engine::fen::parse(v.definition(), t, s);
    let Ok(mut game) = Game::from_fen(v.clone(), s) else {
        return;
    };
    assert!(
        low.is_ok() || s.trim() == "startpos",
        "Game::from_fen accepted what fen::parse rejected: {s:?}"
    );
    round_trip(&game);
    assert_eq!(
        game.perft(2, true),
        game.perft(2, false),
        "bulk and full perft(2) differ in {}",
        game.fen()
    );
    let mut choose = data.iter().rev().copied();
    for _ in 0..6 {
        let legal = game.legal_moves();
        assert_eq!(
            game.count_legal_moves(),
            legal.len() as u64,
            "count_legal vs legal_moves in {}",
            game.fen()
        );
        let _ = game.status();
        if legal.is_empty() {
            break;
        }
        let m = legal[choose.next().unwrap_or(0) as usize % legal.len()];
        let san = game.san(m);
        assert_eq!(
            game.parse_san(&san),
            Ok(m),
            "SAN {san:?} round trip in {}",
            game.fen()
        );
        let uci = game.uci(m);
        assert_eq!(
            game.parse_uci(&uci),
            Ok(m),
            "UCI {uci:?} round trip in {}",
            game.fen()
        );
        game.apply(m).expect("a legal move applies");
        round_trip(&game);
    }
});
