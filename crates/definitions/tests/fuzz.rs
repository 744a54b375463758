//! `load_str` never panics, whatever it is given: random YAML-ish text,
//! and shipped files cut, spliced and with bytes changed.

use proptest::prelude::*;

fn chess() -> &'static str {
    houserules_definitions::builtin_source("chess").expect("shipped")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

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
