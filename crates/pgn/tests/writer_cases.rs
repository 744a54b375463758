//! The writer's layout: tag order, move numbers, comments, NAGs,
//! variations, wrapping.

use houserules_pgn::{write_pgn, Line, MoveNode, PgnGame, Reader, Tag};

fn tag(name: &str, value: &str) -> Tag {
    Tag {
        name: name.into(),
        value: value.into(),
        pos: None,
    }
}

fn line(sans: &[&str]) -> Line {
    Line {
        moves: sans.iter().map(|s| MoveNode::new(*s)).collect(),
        ..Line::default()
    }
}

#[test]
fn seven_tag_roster_first_then_the_rest_in_order() {
    let game = PgnGame {
        tags: vec![
            tag("ECO", "C20"),
            tag("Result", "1-0"),
            tag("White", "W \"the\" \\ one"),
            tag("Event", "E"),
            tag("Annotator", "A"),
            tag("Date", "2024.01.01"),
        ],
        mainline: line(&["e4"]),
        result: Some("1-0".into()),
        ..PgnGame::default()
    };
    let text = write_pgn(&game);
    assert_eq!(
        text,
        "[Event \"E\"]\n[Date \"2024.01.01\"]\n[White \"W \\\"the\\\" \\\\ one\"]\n[Result \"1-0\"]\n\
         [ECO \"C20\"]\n[Annotator \"A\"]\n\n1. e4 1-0\n\n"
    );
}

#[test]
fn move_numbers_comments_nags_and_variations() {
    let mut main = line(&["e4", "e5", "Nf3", "Nc6"]);
    main.comments.push("before".into());
    main.moves[0].nags.push(1);
    main.moves[1].comments.push("open   game".into());
    let mut alt = line(&["c5", "Nf3"]);
    alt.moves[0].variations.push(line(&["e6"]));
    main.moves[1].variations.push(alt);
    main.moves[2].variations.push(Line::default());
    let game = PgnGame {
        mainline: main,
        ..PgnGame::default()
    };
    assert_eq!(
        write_pgn(&game),
        "{before} 1. e4 $1 e5 {open game} (1... c5 (1... e6) 2. Nf3) 2. Nf3 () 2... Nc6 *\n\n"
    );
}

#[test]
fn black_to_move_from_a_fen() {
    let game = PgnGame {
        tags: vec![
            tag("FEN", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12"),
            tag("SetUp", "1"),
        ],
        mainline: line(&["Kd7", "e4", "Ke6"]),
        ..PgnGame::default()
    };
    assert!(write_pgn(&game).ends_with("\n\n12... Kd7 13. e4 Ke6 *\n\n"));
}

#[test]
fn comments_with_a_closing_brace_become_line_comments() {
    let mut main = line(&["e4", "e5"]);
    main.moves[0].variations.push(Line {
        comments: vec!["a } b".into()],
        ..Line::default()
    });
    main.comments.push("x}".into());
    let game = PgnGame {
        mainline: main.clone(),
        ..PgnGame::default()
    };
    let text = write_pgn(&game);
    assert_eq!(text, " ;x}\n1. e4 (;a } b\n) 1... e5 *\n\n");
    let back = Reader::new(text.as_bytes())
        .next()
        .expect("a game")
        .expect("reads");
    assert_eq!(back.mainline, main);
}

#[test]
fn lines_wrap_before_80_columns() {
    let sans: Vec<String> = (0..200)
        .map(|i| {
            if i % 2 == 0 {
                "Nf3".into()
            } else {
                "Nf6".into()
            }
        })
        .collect();
    let refs: Vec<&str> = sans.iter().map(String::as_str).collect();
    let mut main = line(&refs);
    main.moves[3].comments.push("word ".repeat(60));
    let text = write_pgn(&PgnGame {
        mainline: main,
        ..PgnGame::default()
    });
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    assert!(text.lines().filter(|l| l.chars().count() > 70).count() > 10);
    // Move number and move stay together.
    assert!(!text.lines().any(|l| l.ends_with('.')), "{text}");
}

/// Regression (session-5 trial): `pgn format` wrote the added `SetUp "1"`
/// after every other tag instead of beside `FEN`. PGN Standard 9.7.1 pairs
/// the two; python-chess's `Game.setup` writes `SetUp` just before `FEN`.
#[test]
fn export_writes_set_up_just_before_fen() {
    let mut game = PgnGame {
        tags: vec![
            tag("Event", "e"),
            tag("FEN", "8/8/8/8/8/8/6K1/k7 w - - 0 1"),
            tag("Annotator", "a"),
        ],
        ..PgnGame::default()
    };
    houserules_pgn::export_tags(&mut game);
    let text = write_pgn(&game);
    assert!(
        text.contains("[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/6K1/k7 w - - 0 1\"]\n[Annotator \"a\"]\n"),
        "{text}"
    );
    // A game that has `SetUp` keeps it where it was, once.
    houserules_pgn::export_tags(&mut game);
    assert_eq!(write_pgn(&game).matches("SetUp").count(), 1);
}

/// Regression (fuzz target `pgn_format`): a NUL read from a comment was
/// written back, and the output was refused as binary ("not a PGN text
/// file") because a NUL near the start of a file means binary data.
#[test]
fn a_nul_in_a_comment_is_written_as_a_replacement_character() {
    let mut first = MoveNode::new("e4");
    first.comments.push("a\0b".to_string());
    let mut game = PgnGame {
        tags: vec![tag("Event", "e\0f")],
        ..PgnGame::default()
    };
    game.mainline.moves.push(first);
    let text = write_pgn(&game);
    assert!(!text.contains('\0'), "{text:?}");
    let back = Reader::new(text.as_bytes())
        .next()
        .expect("one game")
        .expect("the written game reads back as text");
    assert_eq!(back.tag("Event"), Some("e\u{fffd}f"));
    assert_eq!(
        back.mainline.moves[0].comments,
        vec!["a\u{fffd}b".to_string()]
    );
}
