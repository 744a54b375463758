//! Any string as SAN in a few fixed positions. A move it names is legal,
//! and the SAN written for it reads back as the same move.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    for game in common::games() {
        if let Ok(m) = game.parse_san(s) {
            assert!(
                game.is_legal(m),
                "{s:?} read as illegal {m:?} in {}",
                game.fen()
            );
            let written = game.san(m);
            assert_eq!(
                game.parse_san(&written),
                Ok(m),
                "{s:?}: written SAN {written:?} does not read back"
            );
        }
        let mut g = game.clone();
        if g.apply_san(s).is_ok() {
            g.undo().expect("one move to undo");
        }
    }
});
