//! Fuzz target: any bytes through the PGN reader. Nothing may panic; every
//! game read is replayed, written, and must read back as the same game;
//! the streaming reader passes on the same mainline moves and comments as
//! the stored game holds.
//!
//! Run: `cd crates/pgn/fuzz && cargo fuzz run pgn_reader seeds`
//! (build only, on stable: `cargo fuzz build --sanitizer none`).

#![no_main]

use houserules_pgn::{replay, write_pgn, Reader, Streamed};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let stored: Vec<_> = Reader::new(data)
        .max_line_bytes(4096)
        .max_game_bytes(1 << 16)
        .collect();
    let mut streaming = Reader::new(data)
        .max_line_bytes(4096)
        .max_game_bytes(1 << 16);
    for game in &stored {
        let mut seen = Vec::new();
        let item = streaming.read_game_streaming_with_comments(&mut |_, s, _| {
            seen.push(match s {
                Streamed::Move(m) => format!("move {m}"),
                Streamed::Comment(c) => format!("comment {c}"),
            })
        });
        if let (Ok(game), Some(Ok(_))) = (game, item) {
            let mut want: Vec<String> =
                game.mainline.comments.iter().map(|c| format!("comment {c}")).collect();
            for m in &game.mainline.moves {
                want.push(format!("move {}", m.san));
                want.extend(m.comments.iter().map(|c| format!("comment {c}")));
            }
            assert_eq!(seen, want, "streamed and stored mainlines differ");
        }
    }
    for game in Reader::new(data)
        .max_line_bytes(4096)
        .max_game_bytes(1 << 16)
    {
        let Ok(game) = game else { continue };
        let _ = replay(&game);
        let text = write_pgn(&game);
        let mut back = Reader::new(text.as_bytes());
        match back.next() {
            // The writer turns NUL into U+FFFD (see `write_pgn`): such a
            // game reads back changed, but writing it again is a fixpoint.
            Some(Ok(again)) if format!("{game:?}").contains("\\0") => {
                assert_eq!(write_pgn(&again), text, "not a fixpoint:\n{text}");
            }
            Some(Ok(again)) => {
                assert_eq!(
                    again.mainline, game.mainline,
                    "round trip changed the movetext:\n{text}"
                );
                let sorted = |g: &houserules_pgn::PgnGame| {
                    let mut v: Vec<(String, String)> = g
                        .tags
                        .iter()
                        .map(|t| (t.name.clone(), t.value.clone()))
                        .collect();
                    v.sort();
                    v
                };
                assert_eq!(
                    sorted(&again),
                    sorted(&game),
                    "round trip changed the tags:\n{text}"
                );
                assert_eq!(
                    again.result.as_deref(),
                    Some(game.result.as_deref().unwrap_or("*"))
                );
                assert!(
                    back.next().is_none(),
                    "one game written, several read:\n{text}"
                );
            }
            other => panic!("a written game does not read back: {other:?}\n{text}"),
        }
    }
});
