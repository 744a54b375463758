//! The examples of `docs/game-format.md` load, and the first one plays
//! Gardner minichess (perft counts from the `game:gardner` rows of
//! `../shared/data/variant-perft.tsv`: 7, 53, 506).

use std::path::PathBuf;

fn doc() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/game-format.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The YAML code blocks of the document.
fn yaml_blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        match (&mut cur, line.trim_start()) {
            (None, "```yaml") => cur = Some(String::new()),
            (Some(b), "```") => {
                out.push(std::mem::take(b));
                cur = None;
            }
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            _ => {}
        }
    }
    out
}

#[test]
fn first_example_is_gardner_minichess() {
    let blocks = yaml_blocks(&doc());
    let first = blocks
        .iter()
        .find(|b| b.contains("id: gardner"))
        .expect("the first example");
    let def = houserules_definitions::load_str("game-format.md", first)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let game =
        houserules_engine::Game::new(houserules_engine::Variant::new(def).expect("compiles"));
    assert_eq!([1, 2, 3].map(|d| game.perft(d, true)), [7, 53, 506]);
}

#[test]
fn castling_example_is_the_shipped_chess_king() {
    let blocks = yaml_blocks(&doc());
    let castle = blocks
        .iter()
        .find(|b| b.contains("- id: Castle"))
        .expect("the castling example");
    let chess = houserules_definitions::builtin_source("chess").expect("chess");
    for line in castle.lines().filter(|l| !l.trim().is_empty()) {
        assert!(chess.contains(line), "chess.yaml has `{line}`");
    }
}

/// The excerpts shown for `edge`, `only` and properties are lines of the
/// example files in `docs/examples/`, which the other tests load and play.
#[test]
fn excerpts_are_from_the_example_files() {
    let blocks = yaml_blocks(&doc());
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples");
    let mut checked = 0;
    for (marker, file) in [
        ("edge: WrapFiles", "cylinder-chess.yaml"),
        ("only: White", "half-berolina.yaml"),
        ("set self.charges", "charged-pieces.yaml"),
    ] {
        let path = examples.join(file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        for b in blocks.iter().filter(|b| b.contains(marker)) {
            for line in b.lines().filter(|l| !l.trim().is_empty()) {
                assert!(text.contains(line), "{file} has `{line}`");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 3, "one excerpt of each example in the document");
}
