//! Write → read round trip over every game of the shared data files: the
//! game written by us and read back has the same tags, mainline moves,
//! NAGs, comments, variations and result.

mod common;

use houserules_pgn::{write_pgn, Line, PgnGame, Reader, LINE_WIDTH, SEVEN_TAG_ROSTER};

fn sorted_tags(g: &PgnGame) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = g
        .tags
        .iter()
        .map(|t| (t.name.clone(), t.value.clone()))
        .collect();
    v.sort();
    v
}

fn count(line: &Line) -> (usize, usize, usize) {
    let mut moves = line.moves.len();
    let mut comments = line.comments.len();
    let mut variations = 0;
    for m in &line.moves {
        comments += m.comments.len();
        variations += m.variations.len();
        for v in &m.variations {
            let (a, b, c) = count(v);
            moves += a;
            comments += b;
            variations += c;
        }
    }
    (moves, comments, variations)
}

#[test]
fn every_data_game_survives_write_and_read() {
    let mut games = 0;
    let mut totals = (0, 0, 0);
    for rel in common::pgn_files() {
        for (i, g) in Reader::new(common::open(&rel)).enumerate() {
            let original = g.unwrap_or_else(|e| panic!("{rel}: {e}"));
            let text = write_pgn(&original);
            let where_ = format!("{rel} game {}", i + 1);

            // Lines fit in 80 columns unless one word is longer than that.
            for l in text.lines() {
                let width = l.chars().count();
                assert!(
                    width <= LINE_WIDTH || !l.contains(' ') || l.starts_with('['),
                    "{where_}: line of {width} columns: {l}"
                );
            }
            // The Seven Tag Roster comes first, in order.
            let written_names: Vec<&str> = text
                .lines()
                .take_while(|l| l.starts_with('['))
                .map(|l| l[1..].split(' ').next().unwrap_or(""))
                .collect();
            let roster: Vec<&str> = SEVEN_TAG_ROSTER
                .iter()
                .copied()
                .filter(|n| original.tag(n).is_some())
                .collect();
            assert_eq!(
                &written_names[..roster.len()],
                roster.as_slice(),
                "{where_}"
            );

            let back: Vec<_> = Reader::new(text.as_bytes()).collect();
            assert_eq!(
                back.len(),
                1,
                "{where_}: written text reads as {} games:\n{text}",
                back.len()
            );
            let back = back
                .into_iter()
                .next()
                .and_then(Result::ok)
                .unwrap_or_else(|| panic!("{where_}: rereading fails:\n{text}"));

            assert_eq!(sorted_tags(&back), sorted_tags(&original), "{where_}: tags");
            let sans = |g: &PgnGame| g.mainline_sans().map(str::to_string).collect::<Vec<_>>();
            assert_eq!(sans(&back), sans(&original), "{where_}: mainline");
            assert_eq!(
                back.mainline, original.mainline,
                "{where_}: comments, NAGs or variations differ:\n{text}"
            );
            assert_eq!(
                back.result.as_deref(),
                Some(original.result.as_deref().unwrap_or("*")),
                "{where_}: result"
            );

            // Writing is stable.
            assert_eq!(write_pgn(&back), text, "{where_}: second write differs");
            games += 1;
            let (a, b, c) = count(&original.mainline);
            totals = (totals.0 + a, totals.1 + b, totals.2 + c);
        }
    }
    assert_eq!(games, 1310);
    // The data has comments and variations to round-trip (SOURCES.md: the
    // wcc2023 file alone has 322 comments and 195 variations).
    assert!(
        totals.1 > 322 && totals.2 > 195,
        "moves, comments, variations: {totals:?}"
    );
}
