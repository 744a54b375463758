//! `load_str` never panics, whatever it is given: random YAML-ish text,
//! and shipped files cut, spliced and with bytes changed. The example
//! files with properties, topology and hook mutations, broken the same
//! way, neither panic when loaded nor when played (perft 2).

use proptest::prelude::*;

fn chess() -> &'static str {
    houserules_definitions::builtin_source("chess").expect("shipped")
}

/// The docs' example files and the mutation test game.
const EXAMPLES: [&str; 4] = [
    include_str!("../../../docs/examples/charged-pieces.yaml"),
    include_str!("../../../docs/examples/cylinder-chess.yaml"),
    include_str!("../../../docs/examples/half-berolina.yaml"),
    include_str!("data/mutations.yaml"),
];

/// Loads `s` for play and, when it loads, plays two plies of every line.
fn load_and_play(s: &str) {
    if let Ok(v) = houserules_definitions::load_variant_str("fuzz.yaml", s) {
        let g = houserules_engine::Game::new(v);
        let _ = g.perft(2, false);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn examples_with_a_changed_byte(which in 0usize..4, at in 0usize..4096, b in any::<u8>()) {
        let mut bytes = EXAMPLES[which].as_bytes().to_vec();
        let i = at % bytes.len();
        bytes[i] = b;
        load_and_play(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn property_conditions_and_values_anywhere(
        cond in "[a-z$_.() =!<>0-9+-]{0,60}",
        value in "[a-z$_.() =!<>0-9+-]{0,30}",
    ) {
        let c = EXAMPLES[0];
        load_and_play(&c.replace("self.charges > 0", &cond.replace('"', "")));
        load_and_play(&c.replace("= self.charges - 1", &format!("= {value}")));
        load_and_play(&c.replace("$target.sprint == false", &cond));
    }

    #[test]
    fn random_yamlish_text(s in "[a-z$_:\\[\\]{}(),.&*!|>'\" \n\t0-9=<-]{0,300}") {
        let _ = houserules_definitions::load_str("fuzz.yaml", &s);
    }

    #[test]
    fn chess_with_a_changed_byte(at in 0usize..4096, b in any::<u8>()) {
        let mut bytes = chess().as_bytes().to_vec();
        let i = at % bytes.len();
        bytes[i] = b;
        let s = String::from_utf8_lossy(&bytes);
        let _ = houserules_definitions::load_str("fuzz.yaml", &s);
    }

    #[test]
    fn chess_cut_and_spliced(a in 0usize..4096, b in 0usize..4096, ins in "[a-zA-Z0-9$.()\\[\\], :\n-]{0,40}") {
        let c = chess();
        let (mut a, mut b) = (a % c.len(), b % c.len());
        if a > b { std::mem::swap(&mut a, &mut b); }
        while !c.is_char_boundary(a) { a -= 1; }
        while !c.is_char_boundary(b) { b -= 1; }
        let s = format!("{}{}{}", &c[..a], ins, &c[b..]);
        let _ = houserules_definitions::load_str("fuzz.yaml", &s);
    }

    #[test]
    fn conditions_anywhere(cond in "[a-z$_.() =!<>0-9]{0,60}") {
        let s = chess().replace("condition: $target.has_enemy\n", &format!("condition: \"{}\"\n", cond.replace('"', "")));
        let _ = houserules_definitions::load_str("fuzz.yaml", &s);
    }
}

#[test]
fn every_example_line_removed() {
    for src in EXAMPLES {
        let lines: Vec<&str> = src.lines().collect();
        for i in 0..lines.len() {
            let mut l = lines.clone();
            l.remove(i);
            load_and_play(&l.join("\n"));
        }
    }
}

#[test]
fn every_shipped_file_line_removed() {
    for (id, src) in houserules_definitions::BUILTIN_SOURCES {
        let lines: Vec<&str> = src.lines().collect();
        for i in 0..lines.len() {
            let mut l = lines.clone();
            l.remove(i);
            let _ = houserules_definitions::load_str(&format!("{id}.yaml"), &l.join("\n"));
        }
    }
}
