//! The reader on the odd corners of PGN: BOM, `%` lines, move numbers in
//! every spelling, commas, blank lines in tags, CRLF, glyphs, errors with
//! line:column and resynchronisation.

use houserules_pgn::{Line, PgnError, PgnGame, Reader, TextPos};

fn read(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    Reader::new(text.as_bytes()).collect()
}

fn one(text: &str) -> PgnGame {
    let mut games = read(text);
    assert_eq!(games.len(), 1, "expected one game in {text:?}: {games:?}");
    games.remove(0).unwrap_or_else(|e| panic!("{e}"))
}

fn sans(g: &PgnGame) -> Vec<&str> {
    g.mainline_sans().collect()
}

fn syntax(e: &PgnError) -> (usize, u64, u64, String) {
    match e {
        PgnError::Syntax { game, pos, message } => (*game, pos.line, pos.column, message.clone()),
        other => panic!("expected a syntax error, got {other}"),
    }
}

#[test]
fn utf8_bom_is_skipped() {
    let g = one("\u{feff}[Event \"A\"]\n[Site \"?\"]\n\n *\n");
    assert_eq!(g.tag("Event"), Some("A"));
    assert!(g.mainline.moves.is_empty());
    assert_eq!(g.result.as_deref(), Some("*"));
}

#[test]
fn percent_lines_are_skipped_anywhere_at_line_start() {
    let g = one("% header escape\n[Event \"x\"]\n% between tags\n\n1. e4 e5\n%mid-game escape 2. d4\n2. Nf3 *\n");
    assert_eq!(sans(&g), ["e4", "e5", "Nf3"]);
    // `%` not at the start of a line is not an escape.
    let e = read("1. e4 %x *\n");
    assert!(e[0].is_err());
}

#[test]
fn move_numbers_in_every_spelling() {
    let g =
        one("1.d4 d5 2.c4 e6 3. Nc3 Nf6 4. Bg5 4..Be7 5. Nf3 5...O-O 6 e3 ..h6 7. Bh4 7 ... b6 *");
    assert_eq!(
        sans(&g),
        [
            "d4", "d5", "c4", "e6", "Nc3", "Nf6", "Bg5", "Be7", "Nf3", "O-O", "e3", "h6", "Bh4",
            "b6"
        ]
    );
}

#[test]
fn commas_between_moves() {
    let g = one("1. e4, e5 2. Nf3,Nc6, 3. Bb5 *");
    assert_eq!(sans(&g), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
}

#[test]
fn blank_line_inside_the_tag_section() {
    let g = one("[Event \"AlphaZero vs. Stockfish\"]\n\n[Date \"2017.12.04\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n");
    assert_eq!(g.tag("Date"), Some("2017.12.04"));
    assert_eq!(sans(&g), ["e4", "e5"]);
}

#[test]
fn crlf_and_escaped_tag_values() {
    let g = one("[White \"A \\\"B\\\" C\\\\D\"]\r\n[Black \"say \"hi\" there\"]\r\n\r\n1. e4 {two\r\nlines} e5 1/2-1/2\r\n");
    assert_eq!(g.tag("White"), Some("A \"B\" C\\D"));
    // An unescaped quote not followed by `]` is kept (python-chess reads it so too).
    assert_eq!(g.tag("Black"), Some("say \"hi\" there"));
    assert_eq!(g.mainline.moves[0].comments, ["two lines"]);
    assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
}

#[test]
fn every_line_ending_and_tiny_buffers() {
    // LF, CRLF and old-Mac CR line endings; tiny buffers split the CRLF pairs.
    let text = "[Event \"a\"]\r\n[Site \"s\"]\r\r1. e4 {x\r\ny} e5\r\n2. Nf3 *\n\n[Event \"b\"]\r\r1. d4 *\r";
    let expected: Vec<PgnGame> = read(text).into_iter().map(|g| g.expect("reads")).collect();
    assert_eq!(expected.len(), 2);
    assert_eq!(sans(&expected[0]), ["e4", "e5", "Nf3"]);
    assert_eq!(expected[0].mainline.moves[0].comments, ["x y"]);
    assert_eq!(expected[1].tag("Event"), Some("b"));
    assert_eq!(
        expected[1].mainline.moves[0].pos,
        TextPos {
            line: 10,
            column: 4
        }
    );
    for cap in 1..8 {
        let r = std::io::BufReader::with_capacity(cap, text.as_bytes());
        let got: Vec<PgnGame> = Reader::new(r).map(|g| g.expect("reads")).collect();
        assert_eq!(got, expected, "buffer of {cap} bytes");
        assert_eq!(
            got[1].mainline.moves[0].pos,
            TextPos {
                line: 10,
                column: 4
            }
        );
    }
}

#[test]
fn several_tags_on_one_line() {
    let g = one("[White \"a\"] [Black \"b\"]\n\n*");
    assert_eq!((g.tag("White"), g.tag("Black")), (Some("a"), Some("b")));
}

#[test]
fn glyphs_and_nags() {
    let g = one("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 ? $14 Nf6 +- *");
    let nags: Vec<&[u8]> = g.mainline.moves.iter().map(|m| m.nags.as_slice()).collect();
    assert_eq!(
        nags,
        [&[1][..], &[2], &[3], &[4], &[5], &[6], &[2, 14], &[18]]
    );
    assert_eq!(g.mainline.moves[0].san, "e4");
    let e = read("1. e4 $ *");
    assert!(syntax(e[0].as_ref().unwrap_err()).3.contains("`$`"));
    let e = read("1. e4 $256 *");
    assert!(syntax(e[0].as_ref().unwrap_err())
        .3
        .contains("out of range"));
}

#[test]
fn comments_of_both_kinds_and_nested_variations() {
    let text = "{start} 1. e4 {a} ; rest of line\n e5 (1... c5 {sic} (1... e6 2. d4) 2. Nf3) (1... d5) 2. Nf3 *";
    let g = one(text);
    assert_eq!(g.mainline.comments, ["start"]);
    assert_eq!(g.mainline.moves[0].comments, ["a", "rest of line"]);
    let e5 = &g.mainline.moves[1];
    assert_eq!(e5.variations.len(), 2);
    let c5: &Line = &e5.variations[0];
    assert_eq!(
        c5.moves.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(),
        ["c5", "Nf3"]
    );
    assert_eq!(c5.moves[0].variations[0].moves[0].san, "e6");
    assert_eq!(sans(&g), ["e4", "e5", "Nf3"]);
}

#[test]
fn every_result_and_games_without_moves() {
    for r in ["1-0", "0-1", "1/2-1/2", "*"] {
        let g = one(&format!("[Event \"x\"]\n\n{r}\n"));
        assert_eq!(g.result.as_deref(), Some(r));
        assert!(g.mainline.moves.is_empty());
    }
    // Tags with no movetext at all, then another game after one blank line:
    // a repeated tag name starts the next game.
    let games = read("[Event \"a\"]\n[Site \"s\"]\n\n[Event \"b\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].as_ref().unwrap().tag("Event"), Some("a"));
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("b"));
    // A result inside a variation is ignored.
    let g = one("1. e4 (1. d4 *) e5 1-0");
    assert_eq!(g.result.as_deref(), Some("1-0"));
}

#[test]
fn games_end_at_blank_lines_and_tag_lines() {
    let games = read("1. e4 e5 *\n\n1. d4 d5 *\n[Event \"third\"]\n1. c4 *\n");
    assert_eq!(games.len(), 3);
    assert_eq!(sans(games[1].as_ref().unwrap()), ["d4", "d5"]);
    assert_eq!(games[2].as_ref().unwrap().tag("Event"), Some("third"));
}

#[test]
fn moves_know_where_they_are() {
    let g = one("[Event \"x\"]\n\n1. e4 e5\n  2.Nf3 *");
    assert_eq!(g.mainline.moves[0].pos, TextPos { line: 3, column: 4 });
    assert_eq!(g.mainline.moves[1].pos, TextPos { line: 3, column: 7 });
    assert_eq!(g.mainline.moves[2].pos, TextPos { line: 4, column: 5 });
    assert_eq!(g.start, TextPos { line: 1, column: 1 });
}

#[test]
fn unterminated_comment_is_an_error_with_line_and_column() {
    let text = "[Event \"one\"]\n\n1. e4 {never closed\n2. d4 d5\n\n[Event \"two\"]\n\n1. d4 *\n";
    let games = read(text);
    assert_eq!(games.len(), 2, "{games:?}");
    let (game, line, column, msg) = syntax(games[0].as_ref().unwrap_err());
    assert_eq!((game, line, column), (1, 3, 7));
    assert!(msg.contains("comment"), "{msg}");
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("two"));
    assert!(games[0]
        .as_ref()
        .unwrap_err()
        .to_string()
        .starts_with("game 1, line 3:7: "));

    // At the end of the input.
    let games = read("1. e4 e5 {open");
    let (game, line, column, _) = syntax(games[0].as_ref().unwrap_err());
    assert_eq!((game, line, column), (1, 1, 10));
}

#[test]
fn bad_games_do_not_stop_the_rest() {
    let text = "\
[Event \"good\"]\n\n1. e4 e5 *\n\n\
[Event \"bad tag]\n[Site \"?\"]\n\n1. e4 *\n\n\
[Event \"bad move\"]\n\n1. e4 <junk> e5 *\n\n\
[Event \"unclosed\"]\n\n1. e4 (1. d4 d5\n\n\
[Event \"stray\"]\n\n1. e4 ) *\n\n\
[Event \"after result\"]\n\n1. e4 1-0 e5\n\n\
[Event \"last\"]\n\n1. d4 *\n";
    let games = read(text);
    let summary: Vec<Result<String, (usize, u64, u64)>> = games
        .iter()
        .map(|g| match g {
            Ok(g) => Ok(g.tag("Event").unwrap_or("").to_string()),
            Err(e) => {
                let (game, line, col, _) = syntax(e);
                Err((game, line, col))
            }
        })
        .collect();
    assert_eq!(
        summary,
        [
            Ok("good".to_string()),
            Err((2, 5, 8)),
            Err((3, 12, 7)),
            Err((4, 16, 7)),
            Err((5, 20, 7)),
            Err((6, 24, 11)),
            Ok("last".to_string()),
        ]
    );
}

#[test]
fn invalid_utf8_and_long_lines_do_not_panic() {
    let mut bytes = b"[Event \"caf\xe9\"]\n\n1. e4 {\xff\xfe} e5 *\n\n".to_vec();
    bytes.extend_from_slice(b"[Event \"long\"]\n\n1. e4 ");
    bytes.extend(std::iter::repeat_n(b'x', 5000));
    bytes.extend_from_slice(b"\n\n[Event \"after\"]\n\n1. d4 *\n");
    let games: Vec<_> = Reader::new(&bytes[..]).max_line_bytes(1000).collect();
    assert_eq!(games.len(), 3);
    // A line that is not UTF-8 reads as ISO 8859-1, the PGN Standard's
    // character set (2.1): byte E9 is `é` (regression, session-6 trial:
    // it was U+FFFD, so `pgn format` corrupted Latin-1 names).
    assert_eq!(games[0].as_ref().unwrap().tag("Event"), Some("café"));
    assert_eq!(
        games[0].as_ref().unwrap().mainline.moves[0].comments,
        vec!["\u{ff}\u{fe}".to_string()]
    );
    let (game, line, _, msg) = syntax(games[1].as_ref().unwrap_err());
    assert_eq!((game, line), (2, 7));
    // The message names the limit (regression, session-6 trial).
    assert!(
        msg.contains("line too long (over the reader's limit of 1000 bytes)"),
        "{msg}"
    );
    assert_eq!(games[2].as_ref().unwrap().tag("Event"), Some("after"));
}

#[test]
fn game_size_and_nesting_are_bounded() {
    let big = format!(
        "[Event \"big\"]\n\n1. e4 {{{}}} *\n\n[Event \"next\"]\n\n*\n",
        "word ".repeat(1000)
    );
    let games: Vec<_> = Reader::new(big.as_bytes()).max_game_bytes(500).collect();
    assert!(syntax(games[0].as_ref().unwrap_err())
        .3
        .contains("longer than 500 bytes"));
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));

    let deep = format!("1. e4 {} *", "( e4 ".repeat(10_000));
    let games = read(&deep);
    assert!(syntax(games[0].as_ref().unwrap_err())
        .3
        .contains("nested deeper"));
}

#[test]
fn io_errors_end_the_stream() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let mut r = Reader::new(std::io::BufReader::new(Failing));
    let e = r.next().expect("an error").unwrap_err();
    assert!(
        matches!(
            e,
            PgnError::Io {
                game: 1,
                line: 1,
                ..
            }
        ),
        "{e}"
    );
    assert!(r.next().is_none());
}

/// Regression (new-user trial): a tag line over the line limit in the middle
/// of the tag section ended the game's tag section, so the tags after it
/// started a second game. A game is one game whatever the length of its
/// lines: here one spoiled game, then the next one.
#[test]
fn over_long_tag_line_does_not_split_the_game() {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(b"[Event \"one\"]\n[Annotator \"");
    bytes.extend(std::iter::repeat_n(b'x', 5000));
    bytes.extend_from_slice(b"\"]\n[Site \"here\"]\n\n1. e4 e5 *\n\n[Event \"two\"]\n\n1. d4 *\n");
    let games: Vec<_> = Reader::new(&bytes[..]).max_line_bytes(1000).collect();
    assert_eq!(games.len(), 2, "{games:?}");
    let (game, line, _, msg) = syntax(games[0].as_ref().unwrap_err());
    assert_eq!((game, line), (1, 2));
    assert!(msg.contains("line too long"), "{msg}");
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("two"));
}

/// Regression (new-user trial): `pgn check /dev/zero` never ended, the
/// reader skipping one endless line. A line longer than the game cap ends
/// the stream with a read error.
#[test]
fn an_endless_line_ends_the_stream() {
    let endless = std::io::BufReader::new(std::io::repeat(b'x'));
    let mut reader = Reader::new(endless)
        .max_line_bytes(100)
        .max_game_bytes(10_000);
    match reader.next() {
        Some(Err(e @ houserules_pgn::PgnError::Io { .. })) => {
            assert!(e.to_string().contains("longer than 10000 bytes"), "{e}")
        }
        other => panic!("expected a read error, got {other:?}"),
    }
    assert!(reader.next().is_none());
}

/// Regression (new-user trial): a 5 MB bad token or a run of NUL bytes was
/// echoed whole in the error message. Messages show at most 40 characters
/// of a token, with control characters escaped.
#[test]
fn bad_tokens_are_shortened_and_escaped_in_messages() {
    let text = format!("1. e4 {} *\n", "x".repeat(5000));
    let games = read(&text);
    let msg = syntax(games[0].as_ref().unwrap_err()).3;
    assert!(msg.len() < 200, "{} bytes", msg.len());
    assert!(msg.contains(&format!("`{}…`", "x".repeat(40))), "{msg}");

    let games = read("1. e4 \u{1}\u{1}\u{1} *\n");
    let msg = syntax(games[0].as_ref().unwrap_err()).3;
    assert!(!msg.contains('\u{1}'), "{msg:?}");
    assert!(msg.contains("\\u{1}"), "{msg:?}");
}

/// Issue 11, wrong answer 9 (value from the issue): binary input, such as
/// gzip data or NUL bytes (`/dev/zero`), is "not a PGN text file
/// (compressed? use zcat)", once, and nothing else is read.
#[test]
fn binary_input_is_not_a_pgn_text_file() {
    // The first bytes of `gzip` output: magic 1f 8b, method 8 (deflate).
    let gzip: &[u8] = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xcb\x48\xcd\xc9\xc9\x07\x00";
    let nul = std::io::BufReader::new(std::io::repeat(0));
    for input in [Box::new(gzip) as Box<dyn std::io::BufRead>, Box::new(nul)] {
        let mut reader = Reader::new(input);
        match reader.next() {
            Some(Err(e @ PgnError::NotText)) => {
                assert_eq!(e.to_string(), "not a PGN text file (compressed? use zcat)")
            }
            other => panic!("expected NotText, got {other:?}"),
        }
        assert!(reader.next().is_none());
    }
}
