//! Property tests: the reader never panics on any input, and every game it
//! reads survives being written and read back.

use houserules_pgn::{replay, write_pgn, Reader};
use proptest::prelude::*;

/// Pieces of PGN, glued at random into plausible and implausible text.
fn pgn_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("[Event \"x\"]\n".to_string()),
        Just("[White \"a \\\"b\\\" c\"]\n".to_string()),
        Just("[FEN \"8/8/8/8/8/k7/8/K7 w - - 0 1\"]\n".to_string()),
        Just("[Variant \"Chess960\"]\n".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just(" ".to_string()),
        Just("1. ".to_string()),
        Just("1... ".to_string()),
        Just("4..".to_string()),
        Just("e4 ".to_string()),
        Just("Nf3 ".to_string()),
        Just("O-O ".to_string()),
        Just("e7e8q ".to_string()),
        Just("Z0 ".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("{comment} ".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("; line comment\n".to_string()),
        Just("; with } brace ( and paren\n".to_string()),
        Just(" ;indented\n".to_string()),
        Just("%escape\n".to_string()),
        Just("$5 ".to_string()),
        Just("!? ".to_string()),
        Just(", ".to_string()),
        Just("1-0 ".to_string()),
        Just("1/2-1/2".to_string()),
        Just("*".to_string()),
        Just("\u{feff}".to_string()),
        Just("[".to_string()),
        Just("\"".to_string()),
        Just("\\".to_string()),
        "[ -~]{0,6}",
        any::<String>().prop_map(|s| s.chars().take(8).collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        for g in Reader::new(&bytes[..]).max_line_bytes(300).flatten() {
            let _ = replay(&g);
            let _ = write_pgn(&g);
        }
    }

    #[test]
    fn pgn_like_text_never_panics_and_round_trips(pieces in proptest::collection::vec(pgn_piece(), 0..80)) {
        let text: String = pieces.concat();
        for game in Reader::new(text.as_bytes()) {
            match game {
                Ok(g) => {
                    let _ = replay(&g);
                    let written = write_pgn(&g);
                    let back: Vec<_> = Reader::new(written.as_bytes()).collect();
                    prop_assert_eq!(back.len(), 1, "{:?} -> {:?}", text, written);
                    let back = back.into_iter().next().and_then(Result::ok);
                    prop_assert!(back.is_some(), "{:?} -> {:?} does not read", text, written);
                    let back = back.unwrap_or_default();
                    let sorted = |g: &houserules_pgn::PgnGame| {
                        let mut v: Vec<(String, String)> = g.tags.iter().map(|t| (t.name.clone(), t.value.clone())).collect();
                        v.sort();
                        v
                    };
                    prop_assert_eq!(sorted(&back), sorted(&g));
                    prop_assert_eq!(&back.mainline, &g.mainline, "{:?} -> {:?}", text, written);
                }
                Err(e) => {
                    // Errors say where.
                    prop_assert!(e.pos().line >= 1 && e.game() >= 1);
                }
            }
        }
    }
}
