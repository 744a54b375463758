//! `chess.yaml` compiles to exactly the engine's built-in FIDE definition.

use houserules_engine::GameDefinition;

#[test]
fn chess_yaml_is_the_fide_definition() {
    let def = match houserules_definitions::load_str(
        "chess.yaml",
        houserules_definitions::builtin_source("chess").unwrap(),
    ) {
        Ok(d) => d,
        Err(e) => panic!("{}", e.render()),
    };
    assert_eq!(def, GameDefinition::fide());
}
