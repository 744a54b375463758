//! The YAML examples of board topology and per-player shapes play exactly
//! as the presets that implement the same rules from Rust
//! (`docs/board-topology.md`): `docs/examples/cylinder-chess.yaml` (every
//! shape `edge: WrapFiles`) as `wrap-board` (RULINGS P4), and
//! `docs/examples/half-berolina.yaml` (Berolina shapes `only: White`, FIDE
//! pawn shapes `only: Black`) as `berolina-pawns:scope=white` (P17, P27).
//! The hand-counted values of both files are in
//! `crates/definitions/tests/topology.rs`; this test checks that the two
//! ways of writing the rules agree deeper than can be counted by hand.

use std::path::Path;
use std::process::Command;

fn nodes(args: &[&str]) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(args)
        .output()
        .expect("run houserules");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{args:?}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .find_map(|l| l.strip_prefix("Nodes: "))
        .unwrap_or_else(|| panic!("no `Nodes:` line in {text}"))
        .trim()
        .parse()
        .expect("a node count")
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(name)
        .to_str()
        .expect("utf-8")
        .to_string()
}

#[test]
fn yaml_topology_and_per_player_shapes_equal_their_presets() {
    for (file, rules, fen) in [
        ("cylinder-chess.yaml", "wrap-board", "startpos"),
        (
            "cylinder-chess.yaml",
            "wrap-board",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (
            "half-berolina.yaml",
            "berolina-pawns:scope=white",
            "startpos",
        ),
        (
            "half-berolina.yaml",
            "berolina-pawns:scope=white",
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        ),
    ] {
        let yaml = nodes(&[
            "perft",
            "--game",
            &example(file),
            "--fen",
            fen,
            "--depth",
            "4",
        ]);
        let preset = nodes(&["perft", "--rules", rules, "--fen", fen, "--depth", "4"]);
        assert_eq!(yaml, preset, "{file} vs {rules} from {fen}");
    }
}
