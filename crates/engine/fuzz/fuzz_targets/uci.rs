//! Any string as a UCI move in a few fixed positions. A move it names is
//! legal, and the UCI written for it reads back as the same move.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    for game in common::games() {
        if let Ok(m) = game.parse_uci(s) {
            assert!(
                game.is_legal(m),
                "{s:?} read as illegal {m:?} in {}",
                game.fen()
            );
            let written = game.uci(m);
            assert_eq!(
                game.parse_uci(&written),
                Ok(m),
                "{s:?}: written UCI {written:?} does not read back"
            );
        }
        let mut g = game.clone();
        if g.apply_uci(s).is_ok() {
            g.undo().expect("one move to undo");
        }
    }
});
