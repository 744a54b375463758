//! Property tests: the FEN, SAN and UCI readers never panic, whatever the
//! text. A cheap stand-in for the cargo-fuzz targets in `crates/engine/fuzz`
//! that runs in every `cargo test`.
//!
//! FEN inputs are arbitrary strings, near-FEN strings built from the FEN
//! alphabet (most of them valid or nearly so), and valid FENs with a few
//! random edits. A FEN that reads must write back to a FEN that reads to
//! the same FEN, and the legal-move count must agree with the move list.
//! SAN and UCI inputs are read in a few fixed positions, through both the
//! [`Game`] API and the low-level `san::parse` / `uci::parse`; a move they
//! name must be legal.

use std::sync::OnceLock;

use houserules_engine::{Game, Move, Position, Variant};
use proptest::prelude::*;

fn chess() -> &'static Variant {
    static V: OnceLock<Variant> = OnceLock::new();
    V.get_or_init(Variant::chess)
}

/// Valid FENs: the perft suite, en passant, Chess960 castling, promotions.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "n1n4k/1P6/8/8/8/8/8/K7 w - - 0 1",
    "7k/8/8/8/8/8/6p1/K4R1R b - - 0 1",
    "1k6/8/8/8/Q3Q3/8/8/Q3Q2K w - - 0 1",
];

/// The games of [`FENS`].
fn games() -> &'static [Game] {
    static G: OnceLock<Vec<Game>> = OnceLock::new();
    G.get_or_init(|| {
        FENS.iter()
            .map(|f| Game::from_fen(chess().clone(), f).expect("fixed FEN is valid"))
            .collect()
    })
}

/// Reads `s` as a FEN both ways; when it reads, checks the round trip.
fn check_fen(s: &str) {
    let v = chess();
    let t = v.tables_u64().expect("chess fits u64");
    let low = houserules_engine::fen::parse(v.definition(), t, s);
    let Ok(g) = Game::from_fen(v.clone(), s) else {
        return;
    };
    assert!(
        low.is_ok() || s.trim() == "startpos",
        "Game::from_fen accepted what fen::parse rejected: {s:?}"
    );
    let fen = g.fen();
    let again = Game::from_fen(v.clone(), &fen)
        .unwrap_or_else(|e| panic!("{s:?}: written FEN {fen:?} does not read back: {e}"));
    assert_eq!(again.fen(), fen, "{s:?}: FEN round trip");
    let shredder = g.shredder_fen();
    let again = Game::from_fen(v.clone(), &shredder)
        .unwrap_or_else(|e| panic!("{s:?}: Shredder-FEN {shredder:?} does not read back: {e}"));
    assert_eq!(again.fen(), fen, "{s:?}: Shredder-FEN round trip");
    assert_eq!(
        g.count_legal_moves(),
        g.legal_moves().len() as u64,
        "{s:?}: count vs list"
    );
}

/// Reads `s` as SAN in every fixed position.
fn check_san(s: &str) {
    let v = chess();
    let t = v.tables_u64().expect("chess fits u64");
    for (g, fen) in games().iter().zip(FENS) {
        if let Ok(m) = g.parse_san(s) {
            assert!(g.is_legal(m), "{s:?} read as illegal {m:?} in {fen}");
        }
        let pos: Position<u64> =
            houserules_engine::fen::parse(v.definition(), t, fen).expect("fixed FEN");
        let mut legal: Vec<Move> = Vec::new();
        pos.legal_moves_into(t, &mut legal);
        if let Ok(m) = houserules_engine::san::parse(v.definition(), t, &pos, &legal, s) {
            assert!(legal.contains(&m), "{s:?} read as illegal {m:?} in {fen}");
        }
    }
}

/// Reads `s` as UCI in every fixed position.
fn check_uci(s: &str) {
    let v = chess();
    let t = v.tables_u64().expect("chess fits u64");
    for (g, fen) in games().iter().zip(FENS) {
        if let Ok(m) = g.parse_uci(s) {
            assert!(g.is_legal(m), "{s:?} read as illegal {m:?} in {fen}");
        }
        let pos: Position<u64> =
            houserules_engine::fen::parse(v.definition(), t, fen).expect("fixed FEN");
        let mut legal: Vec<Move> = Vec::new();
        pos.legal_moves_into(t, &mut legal);
        if let Ok(m) = houserules_engine::uci::parse(v.definition(), t, &pos, &legal, s) {
            assert!(legal.contains(&m), "{s:?} read as illegal {m:?} in {fen}");
        }
    }
}

/// One board square: mostly empty, else a piece letter.
fn cell() -> impl Strategy<Value = Option<char>> {
    prop_oneof![
        8 => Just(None),
        2 => prop::sample::select(vec!['p', 'n', 'b', 'r', 'q', 'P', 'N', 'B', 'R', 'Q']).prop_map(Some),
    ]
}

/// A board field: 8×8 cells with one king each placed on top, written with
/// digit runs; sometimes corrupted (a rank too long or short, a stray
/// character, a missing or extra rank).
fn board_field() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(cell(), 64),
        0..64usize,
        0..64usize,
        prop_oneof![
            8 => Just(None),
            1 => (0..8usize, "[0-9]|[a-zA-Z]|/|~|\\[|-| ").prop_map(Some),
        ],
    )
        .prop_map(|(mut cells, wk, bk, corrupt)| {
            cells[wk] = Some('K');
            if bk != wk {
                cells[bk] = Some('k');
            }
            let mut ranks: Vec<String> = cells
                .chunks(8)
                .map(|rank| {
                    let mut s = String::new();
                    let mut empty = 0;
                    for c in rank {
                        match c {
                            None => empty += 1,
                            Some(p) => {
                                if empty > 0 {
                                    s.push_str(&empty.to_string());
                                    empty = 0;
                                }
                                s.push(*p);
                            }
                        }
                    }
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                    }
                    s
                })
                .collect();
            if let Some((r, extra)) = corrupt {
                ranks[r].push_str(&extra);
            }
            ranks.join("/")
        })
}

/// Near-FEN strings: a board field and fields drawn from each field's
/// alphabet, with an occasional extra field.
fn near_fen() -> impl Strategy<Value = String> {
    (
        board_field(),
        prop_oneof![9 => "[wb]", 1 => "[WBx-]"],
        prop_oneof![6 => "-|[KQkq]{1,4}", 1 => "[A-Ha-hKQkq]{1,4}|[a-z0-9]{1,3}"],
        prop_oneof![6 => "-", 3 => "[a-h][36]", 1 => "[a-h][1-8]|[a-p][0-9]{1,2}|[a-h][1-8][a-h][1-8]"],
        prop_oneof![8 => "[0-9]{1,3}", 1 => "[0-9]{9,11}|-1|x"],
        prop_oneof![8 => "[0-9]{1,3}", 1 => "[0-9]{9,11}|0"],
        prop_oneof![6 => Just(String::new()), 1 => " [+0-9a-z\\[\\]~]{1,4}"],
        prop_oneof![1 => 0..6usize, 4 => Just(6usize)],
    )
        .prop_map(|(board, side, castling, ep, half, full, extra, nfields)| {
            let fields = [board, side, castling, ep, half, full];
            let mut s = fields[..nfields.clamp(1, 6)].join(" ");
            s.push_str(&extra);
            s
        })
}

/// A valid FEN with a few random single-character edits.
fn mutated_fen() -> impl Strategy<Value = String> {
    (
        prop::sample::select(FENS),
        prop::collection::vec((any::<prop::sample::Index>(), 0..3u8, "[ -~]"), 1..4),
    )
        .prop_map(|(fen, edits)| {
            let mut chars: Vec<char> = fen.chars().collect();
            for (at, op, c) in edits {
                let ch = c.chars().next().unwrap_or(' ');
                if chars.is_empty() {
                    chars.push(ch);
                    continue;
                }
                let i = at.index(chars.len());
                match op {
                    0 => chars[i] = ch,
                    1 => chars.insert(i, ch),
                    _ => {
                        chars.remove(i);
                    }
                }
            }
            chars.into_iter().collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn fen_any_string(s in "\\PC{0,100}") {
        check_fen(&s);
    }

    #[test]
    fn fen_near_fen(s in near_fen()) {
        check_fen(&s);
    }

    #[test]
    fn fen_mutated(s in mutated_fen()) {
        check_fen(&s);
    }

    #[test]
    fn san_any_string(s in "\\PC{0,12}") {
        check_san(&s);
    }

    #[test]
    fn san_alphabet(s in "[KQRBNPkqrbnpa-ix0-9=+#Oo()/:!?-]{0,9}") {
        check_san(&s);
    }

    #[test]
    fn uci_any_string(s in "\\PC{0,10}") {
        check_uci(&s);
    }

    #[test]
    fn uci_alphabet(s in "[a-q][0-9]{1,3}[a-q][0-9]{0,3}[qrbnkpQx]?|0000|[a-h][1-8]{0,2}") {
        check_uci(&s);
    }
}

/// The near-FEN generator must reach past the board field: a good share of
/// its strings read as positions.
#[test]
fn near_fen_strings_often_read() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = near_fen();
    let n = 500;
    let ok = (0..n)
        .filter(|_| {
            let s = strategy.new_tree(&mut runner).expect("a value").current();
            Game::from_fen(chess().clone(), &s).is_ok()
        })
        .count();
    eprintln!("near-FEN: {ok} of {n} read");
    assert!(ok * 10 >= n, "only {ok} of {n} near-FEN strings read");
}
