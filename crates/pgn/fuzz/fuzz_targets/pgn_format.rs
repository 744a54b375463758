//! Fuzz target: any bytes through `pgn format`'s path — read, replay,
//! rewrite the moves in standard SAN (`export_moves`), complete the tags
//! (`export_tags`), write. Nothing may panic, and the written game must
//! read back and replay to the same plies and final position when the
//! input replayed whole.
//!
//! Run: `cd crates/pgn/fuzz && cargo fuzz run pgn_format seeds`
//! (build only, on stable: `cargo fuzz build --sanitizer none`).

#![no_main]

use houserules_pgn::{export_moves, export_tags, replay, write_pgn, Reader, Replayer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for game in Reader::new(data)
        .max_line_bytes(4096)
        .max_game_bytes(1 << 16)
    {
        let Ok(mut game) = game else { continue };
        let Some(start) = Replayer::new(&game.tags, &|_| None, None).game().cloned() else {
            continue;
        };
        let before = replay(&game);
        let problems = export_moves(&mut game, &start);
        export_tags(&mut game);
        let text = write_pgn(&game);
        let again = match Reader::new(text.as_bytes()).next() {
            Some(Ok(again)) => again,
            other => panic!("a formatted game does not read back: {other:?}\n{text}"),
        };
        let after = replay(&again);
        if problems.mainline.is_none() && before.error.is_none() {
            assert!(
                after.error.is_none(),
                "the formatted game no longer replays: {:?}\n{text}",
                after.error
            );
            assert_eq!(after.plies, before.plies, "formatting changed the plies:\n{text}");
            assert_eq!(
                after.game.map(|g| g.fen()),
                before.game.map(|g| g.fen()),
                "formatting changed the final position:\n{text}"
            );
        }
    }
});
