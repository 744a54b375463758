//! One clear diagnostic for each kind of mistake: its code, the file name,
//! `line:column`, the source line in the rendering and, for misspelt names,
//! a suggestion. Each test breaks `chess.yaml` in one place.

use houserules_definitions::{builtin_source, load_str, Code, Diagnostic};

fn chess() -> &'static str {
    builtin_source("chess").expect("chess.yaml is shipped")
}

/// `chess.yaml` with the first `from` replaced by `to`.
fn chess_with(from: &str, to: &str) -> String {
    let c = chess();
    assert!(c.contains(from), "chess.yaml has no `{from}`");
    c.replacen(from, to, 1)
}

/// Loads `text` as `name`, which must fail with exactly one diagnostic.
fn one(name: &str, text: &str) -> Diagnostic {
    match load_str(name, text) {
        Ok(_) => panic!("{name} loaded, but it is broken"),
        Err(ds) => {
            assert_eq!(
                ds.len(),
                1,
                "one diagnostic expected, got:\n{}",
                ds.render()
            );
            ds.iter().next().cloned().expect("one")
        }
    }
}

/// Checks the code, position, the rendering (file:line:col, the source
/// line) and the help.
fn expect(
    d: &Diagnostic,
    code: Code,
    line: usize,
    col: usize,
    line_text: &str,
    help: Option<&str>,
) {
    let r = d.render();
    assert_eq!(d.code(), code, "{r}");
    assert_eq!(d.line_col(), (line, col), "{r}");
    assert!(
        r.starts_with(&format!("{}:{line}:{col}: ", d.file())),
        "{r}"
    );
    assert!(
        r.contains(line_text),
        "the snippet shows `{line_text}`:\n{r}"
    );
    assert!(r.contains('^'), "the snippet underlines the span:\n{r}");
    if let Some(h) = help {
        assert!(
            d.help_text().is_some_and(|t| t.contains(h)),
            "help should contain `{h}`:\n{r}"
        );
    }
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .expect("needle")
}

#[test]
fn unknown_top_level_key_with_suggestion() {
    let t = chess_with("board:", "bord:");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::UnknownKey,
        line_of(&t, "bord:"),
        1,
        "bord:",
        Some("did you mean `board`?"),
    );
    assert_eq!(d.file(), "bad.yaml");
}

#[test]
fn unknown_nested_key_with_suggestion() {
    let t = chess_with("    symbol: N", "    symbl: N");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::UnknownKey,
        line_of(&t, "symbl"),
        5,
        "symbl: N",
        Some("did you mean `symbol`?"),
    );
}

#[test]
fn wrong_type() {
    let t = chess_with("  width: 8", "  width: eight");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::WrongType,
        line_of(&t, "width: eight"),
        10,
        "width: eight",
        None,
    );
    assert!(d.message().contains("whole number"), "{}", d.message());
}

#[test]
fn wrong_type_of_a_list() {
    let t = chess_with("royal: [King]", "royal: King");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::WrongType,
        line_of(&t, "royal: King"),
        8,
        "royal: King",
        None,
    );
}

#[test]
fn missing_key() {
    let t = chess_with("  height: 8\n", "");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::MissingKey,
        line_of(&t, "width: 8"),
        3,
        "width: 8",
        None,
    );
    assert!(d.message().contains("`height`"));
}

#[test]
fn unknown_enum_value_with_suggestion() {
    let t = chess_with("      - type: Leap", "      - type: Lep");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::InvalidValue,
        line_of(&t, "type: Lep"),
        15,
        "type: Lep",
        Some("did you mean `Leap`?"),
    );
}

#[test]
fn duplicate_piece_id() {
    let t = chess_with("  - id: Bishop", "  - id: Knight");
    let d = one("bad.yaml", &t);
    let second = t
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("- id: Knight"))
        .nth(1)
        .map(|(i, _)| i + 1)
        .expect("two");
    expect(&d, Code::Duplicate, second, 9, "- id: Knight", None);
    assert!(d.render().contains(&format!(
        "first declared on line {}",
        line_of(&t, "- id: Knight")
    )));
}

#[test]
fn duplicate_symbol() {
    let t = chess_with("    symbol: B", "    symbol: n");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::Duplicate,
        line_of(&t, "symbol: n"),
        13,
        "symbol: n",
        None,
    );
    assert!(
        d.message().contains("`Knight` and `Bishop`"),
        "{}",
        d.message()
    );
}

#[test]
fn duplicate_yaml_key() {
    let t = chess_with("name: Chess\n", "name: Chess\nname: Again\n");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::Duplicate,
        line_of(&t, "name: Again"),
        1,
        "name: Again",
        None,
    );
}

#[test]
fn vector_off_the_board() {
    let t = chess_with("direction: [2, 1]", "direction: [9, 1]");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::VectorOffBoard,
        line_of(&t, "[9, 1]"),
        20,
        "direction: [9, 1]",
        None,
    );
    assert!(
        d.render().contains("^^^^^^"),
        "the whole vector is underlined:\n{}",
        d.render()
    );
}

/// Regression: `[i64::MIN, 1]` passed validation in release (|i64::MIN|
/// wrapped to a negative number, below the board's width) and panicked in
/// debug with "attempt to negate with overflow". |-2^63| is far beyond the
/// 8x8 board's |x| <= 7, so it is off the board like -2^63 + 1.
#[test]
fn vector_of_i64_min_is_off_the_board_not_an_overflow() {
    for v in ["[-9223372036854775808, 1]", "[1, -9223372036854775808]"] {
        let t = chess_with("direction: [2, 1]", &format!("direction: {v}"));
        let d = one("bad.yaml", &t);
        expect(
            &d,
            Code::VectorOffBoard,
            line_of(&t, v),
            20,
            &format!("direction: {v}"),
            Some("|x| is at most 7 and |y| at most 7"),
        );
    }
}

/// Regression: castling's `steps` were added to the king's file unchecked,
/// so `i64::MAX` steps overflowed (a panic in debug). From the e file any
/// step count above 4 (toward a) or 3 (toward h) leaves the 8-file board,
/// and so does a rook moved i64::MAX steps past the king.
#[test]
fn castling_steps_of_i64_max_leave_the_board_not_an_overflow() {
    let t = chess_with(
        "move self 2 steps toward target",
        "move self 9223372036854775807 steps toward target",
    );
    let d = one("bad.yaml", &t);
    assert_eq!(d.code(), Code::InvalidValue, "{}", d.render());
    assert!(d.render().contains("leave the board"), "{}", d.render());
    let t = chess_with(
        "move target 1 step past self",
        "move target 9223372036854775807 step past self",
    );
    let d = one("bad.yaml", &t);
    assert_eq!(d.code(), Code::InvalidValue, "{}", d.render());
    assert!(d.render().contains("leaves the board"), "{}", d.render());
}

/// Regression: numbers beyond i64 were "expected a whole number" (width)
/// or "found floating point `18446744073709552000.0`" with the caret on the
/// key (range). Both are whole numbers, only too large: the message says so
/// and the caret is under the number (column 10 after `  width: `, column
/// 16 after `        range: `).
#[test]
fn too_large_numbers_are_said_to_be_too_large() {
    let t = chess_with("width: 8", "width: 99999999999999999999999999");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::InvalidValue,
        line_of(&t, "width: 9999"),
        10,
        "width: 99999999999999999999999999",
        None,
    );
    assert!(d.message().contains("too large"), "{}", d.render());
    assert!(
        d.message().contains("9223372036854775807"),
        "{}",
        d.render()
    );

    let t = chess_with(
        "        range: 2\n",
        "        range: 18446744073709551617\n",
    );
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::InvalidValue,
        line_of(&t, "range: 1844"),
        16,
        "range: 18446744073709551617",
        None,
    );
    assert!(d.message().contains("too large"), "{}", d.render());
    assert!(!d.message().contains("floating point"), "{}", d.render());
}

/// Regression (new-user trial): on a 2x1 board a one-square step up, [0, 1],
/// cannot fit (one rank), and the message read "1 steps of [0, 1] make".
#[test]
fn one_step_off_the_board_is_singular() {
    let t = "id: tiny\nname: Tiny\nboard:\n  width: 2\n  height: 1\nsetup: Kk w - - 0 1\nroyal: [King]\npieces:\n  - id: King\n    symbol: K\n    movement:\n      - type: Step\n        direction: Omnidirectional\n";
    match load_str("tiny.yaml", t) {
        Ok(_) => panic!("loaded"),
        Err(ds) => {
            let r = ds.render();
            assert!(r.contains("1 step of [0, 1] makes [0, 1]"), "{r}");
            assert!(!r.contains("1 steps"), "{r}");
        }
    }
}

/// Regression: a range between i64::MAX and u64::MAX (here u64::MAX) was
/// read as i64::MAX and reported as "range 9223372036854775807 is out of
/// range", a number the file does not hold. It is too large to read.
#[test]
fn range_above_i64_is_too_large_not_i64_max() {
    let t = chess_with(
        "        range: 2\n",
        "        range: 18446744073709551615\n",
    );
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::InvalidValue,
        line_of(&t, "range: 1844"),
        16,
        "range: 18446744073709551615",
        None,
    );
    assert!(
        d.message().contains("`18446744073709551615` is too large"),
        "{}",
        d.render()
    );
}

#[test]
fn step_range_off_the_board() {
    let t = chess_with("        range: 2\n", "        range: 8\n");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::VectorOffBoard,
        line_of(&t, "range: 8"),
        16,
        "range: 8",
        None,
    );
}

#[test]
fn unknown_direction_with_suggestion() {
    let t = chess_with("direction: Orthogonal", "direction: Orthgonal");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::UnknownName,
        line_of(&t, "Orthgonal"),
        20,
        "direction: Orthgonal",
        Some("did you mean `Orthogonal`?"),
    );
}

#[test]
fn unknown_promotion_piece_with_suggestion() {
    let t = chess_with("Promote(Queen, Rook,", "Promote(Queen, Rok,");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::UnknownName,
        line_of(&t, "Rok"),
        32,
        "Promote(Queen, Rok",
        Some("did you mean `Rook`?"),
    );
}

#[test]
fn unknown_property_in_a_condition_with_suggestion() {
    let t = chess_with(
        "condition: self.has_moved == false and $engine",
        "condition: self.hasmoved == false and $engine",
    );
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::UnknownAccessor,
        line_of(&t, "hasmoved"),
        25,
        "self.hasmoved == false",
        Some("did you mean `has_moved`?"),
    );
}

#[test]
fn unknown_accessor_in_a_condition_with_suggestion() {
    let t = chess_with("$engine.state.is_in_check", "$engine.stat.is_in_check");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::UnknownAccessor,
        line_of(&t, "$engine.stat."),
        56,
        "$engine.stat.is_in_check",
        Some("did you mean `state`?"),
    );
    assert!(d.message().contains("`$engine.stat`"), "{}", d.message());
}

#[test]
fn unknown_root_accessor_with_suggestion() {
    let t = chess_with(
        "condition: $target.has_enemy\n",
        "condition: $targt.has_enemy\n",
    );
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::UnknownAccessor,
        line_of(&t, "$targt"),
        21,
        "$targt.has_enemy",
        Some("did you mean `$target`?"),
    );
}

#[test]
fn unknown_property_in_a_folded_condition() {
    let t = chess_with(
        "target.owner == self.owner and",
        "target.ownr == self.owner and",
    );
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::UnknownAccessor,
        line_of(&t, "target.ownr"),
        22,
        "target.ownr == self.owner",
        Some("did you mean `owner`?"),
    );
}

#[test]
fn type_error_in_a_condition() {
    let t = chess_with(
        "$path.is_clear and self.has_moved == false",
        "$path.is_clear and self.has_moved == 3",
    );
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::ConditionType,
        line_of(&t, "has_moved == 3"),
        60,
        "self.has_moved == 3",
        None,
    );
    assert!(
        d.message()
            .contains("cannot compare true/false with a number"),
        "{}",
        d.message()
    );
}

#[test]
fn condition_that_is_not_true_or_false() {
    let t = chess_with("condition: $target.has_enemy\n", "condition: self.x + 1\n");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::ConditionType,
        line_of(&t, "self.x + 1"),
        20,
        "self.x + 1",
        None,
    );
}

#[test]
fn syntax_error_in_a_condition() {
    let t = chess_with(
        "condition: $target.has_enemy\n",
        "condition: $target.has_enemy and\n",
    );
    let d = one("bad.yaml", &t);
    let line = line_of(&t, "has_enemy and");
    expect(
        &d,
        Code::ConditionSyntax,
        line,
        41,
        "$target.has_enemy and",
        None,
    );
    assert!(d.message().contains("after `and`"), "{}", d.message());
}

#[test]
fn setup_rank_too_long_for_the_board() {
    let t = chess_with("setup: rnbqkbnr/pppppppp/", "setup: rnbqkbnr/ppppppppp/");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::Setup,
        line_of(&t, "setup:"),
        17,
        "ppppppppp",
        None,
    );
    assert!(
        d.message().contains("9 files, but the board has 8"),
        "{}",
        d.message()
    );
}

#[test]
fn setup_with_too_few_ranks() {
    let t = chess_with("setup: rnbqkbnr/pppppppp/8/", "setup: rnbqkbnr/pppppppp/");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::Setup,
        line_of(&t, "setup:"),
        8,
        "setup: rnbqkbnr",
        None,
    );
    assert!(
        d.message().contains("7 ranks, but the board has 8"),
        "{}",
        d.message()
    );
}

#[test]
fn setup_with_an_unknown_letter() {
    let t = chess_with("setup: rnbqkbnr/pppppppp/", "setup: rnbqkbnr/ppppxppp/");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::Setup,
        line_of(&t, "setup:"),
        21,
        "ppppxppp",
        Some("P, N, B, R, Q, K"),
    );
}

#[test]
fn setup_without_a_king() {
    let t = chess_with("setup: rnbqkbnr/", "setup: rnbq1bnr/");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::Setup,
        line_of(&t, "setup:"),
        8,
        "setup: rnbq1bnr",
        None,
    );
    assert!(d.message().contains("no royal piece"), "{}", d.message());
}

#[test]
fn checkmate_without_a_royal_piece() {
    let t = chess_with("royal: [King]\n", "");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::NoRoyal,
        line_of(&t, "checkmate: true"),
        14,
        "checkmate: true",
        Some("royal: [King]"),
    );
}

#[test]
fn over_large_input() {
    let mut t = chess().to_string();
    t.push_str("# ");
    t.push_str(&"x".repeat(houserules_definitions::MAX_INPUT_BYTES));
    t.push('\n');
    let d = one("big.yaml", &t);
    assert_eq!(d.code(), Code::Budget);
    assert!(
        d.message().contains("at most 1048576 bytes"),
        "{}",
        d.message()
    );
    assert!(d.render().starts_with("big.yaml:"), "{}", d.render());
}

#[test]
fn alias_bomb() {
    let mut t = String::from("templates:\n  a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 9].join(",");
        t.push_str(&format!("  {}: &{} [{refs}]\n", w[1], w[1]));
    }
    t.push_str(chess());
    let started = std::time::Instant::now();
    let d = one("bomb.yaml", &t);
    assert!(started.elapsed().as_secs() < 5, "the bomb is stopped early");
    assert_eq!(d.code(), Code::Budget, "{}", d.render());
    assert!(d.message().contains("alias"), "{}", d.message());
    let (line, _) = d.line_col();
    assert!(
        (2..=10).contains(&line),
        "points into the anchors:\n{}",
        d.render()
    );
}

/// Regression (new-user trial): `edge: [WrapFiles]` was reported as
/// "externally tagged enum expected scalar or mapping", serde's words. The
/// game format (docs/game-format.md, Board topology) calls `edge` a board
/// topology: Stop, WrapFiles, Warp or `Bounce: { max: N, ends: B }`.
#[test]
fn edge_of_the_wrong_shape_is_named_in_game_format_words() {
    let knight = "      - type: Leap\n        direction: [2, 1]\n";
    for (edge, found) in [
        ("[WrapFiles]", "found a list"),
        ("3", "found a number"),
        ("{WrapFiles: 1}", "`WrapFiles` with settings"),
        ("Bounce", "`Bounce` without its settings"),
    ] {
        let t = chess_with(
            knight,
            &format!("      - type: Leap\n        edge: {edge}\n        direction: [2, 1]\n"),
        );
        let d = one("bad.yaml", &t);
        let m = d.message();
        assert!(m.contains(found), "{edge}: {m}");
        assert!(!m.contains("enum") && !m.contains("variant"), "{edge}: {m}");
        // The diagnostic points at the `edge` entry (8 spaces, then `edge`
        // at column 9, or its value).
        let line = line_of(&t, "edge:");
        assert_eq!(d.line_col().0, line, "{}", d.render());
    }
    let t = chess_with(
        knight,
        "      - type: Leap\n        edge: [WrapFiles]\n        direction: [2, 1]\n",
    );
    expect(
        &one("bad.yaml", &t),
        Code::WrongType,
        line_of(&t, "edge:"),
        9,
        "edge: [WrapFiles]",
        None,
    );
}

/// Regression (new-user trial): a file with a second YAML document was
/// reported as an exceeded budget and a possible alias bomb. A game file
/// holds one document; the diagnostic names the line and column where the
/// second one starts (the `---` line after chess.yaml's last line, column
/// 1).
#[test]
fn second_yaml_document_is_named_as_such() {
    let t = format!("{}---\nid: second\n", chess());
    let second = chess().lines().count() + 1;
    let d = one("two.yaml", &t);
    expect(&d, Code::Syntax, second, 1, "---", None);
    assert!(
        d.message().contains("one YAML document")
            && d.message().contains(&format!("line {second}, column 1")),
        "{}",
        d.message()
    );
    assert!(!d.message().contains("alias"), "{}", d.message());
}

#[test]
fn not_supported_by_the_engine_yet() {
    let t = chess_with("  stalemate: Draw", "  stalemate: Loss");
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::EngineUnsupported,
        line_of(&t, "stalemate: Loss"),
        14,
        "stalemate: Loss",
        None,
    );
    assert!(d.message().contains("not supported by the engine yet"));
}

#[test]
fn condition_the_engine_cannot_express_is_reported_not_dropped() {
    let t = chess_with(
        "    symbol: N\n    role: Knight\n    movement:\n      - type: Leap\n        direction: [2, 1]\n        symmetry: Full\n        condition: $target.is_empty or $target.has_enemy\n",
        "    symbol: N\n    role: Knight\n    movement:\n      - type: Leap\n        direction: [2, 1]\n        symmetry: Full\n        condition: ($target.is_empty or $target.has_enemy) and $engine.state.turn == White\n",
    );
    let d = one("bad.yaml", &t);
    let line = line_of(&t, "$engine.state.turn == White");
    let col = t
        .lines()
        .nth(line - 1)
        .and_then(|l| l.find("$engine.state.turn"))
        .expect("col")
        + 1;
    expect(
        &d,
        Code::EngineUnsupported,
        line,
        col,
        "$engine.state.turn == White",
        None,
    );
    assert!(
        d.message()
            .contains("`$engine.state.turn` is not supported by the engine yet"),
        "{}",
        d.message()
    );
}

#[test]
fn en_passant_without_its_marker() {
    let t = chess_with(
        "        mutations: [ set self.en_passant_vulnerable = true ]\n",
        "",
    );
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::Invalid,
        line_of(&t, "adjacent_enemy.en_passant"),
        41,
        "adjacent_enemy.en_passant_vulnerable",
        Some("set self.en_passant_vulnerable = true"),
    );
}

#[test]
fn yaml_syntax_error() {
    let t = chess_with("royal: [King]", "royal: [King");
    let d = one("bad.yaml", &t);
    assert_eq!(d.code(), Code::Syntax, "{}", d.render());
    assert!(d.render().starts_with("bad.yaml:"), "{}", d.render());
}

#[test]
fn every_diagnostic_is_a_miette_diagnostic_with_a_label() {
    let t = chess_with("board:", "bord:");
    let err = load_str("bad.yaml", &t).unwrap_err();
    let m: &dyn miette::Diagnostic = &err;
    assert_eq!(
        m.code().map(|c| c.to_string()).as_deref(),
        Some("houserules::unknown-key")
    );
    let labels: Vec<_> = m.labels().expect("labels").collect();
    assert_eq!(labels.len(), 1);
    assert!(m.source_code().is_some());
    assert_eq!(
        m.help().map(|h| h.to_string()).as_deref(),
        Some("did you mean `board`?")
    );
}

/// A royal piece that removes itself would leave its side without the
/// piece checkmate is about; the file is refused where the mutation is
/// written.
#[test]
fn destroy_self_on_a_royal_piece() {
    let t = chess_with(
        "        direction: Omnidirectional\n        condition: $target.is_empty or $target.has_enemy\n    actions:",
        "        direction: Omnidirectional\n        condition: $target.is_empty or $target.has_enemy\n        mutations: [ destroy self ]\n    actions:",
    );
    let d = one("bad.yaml", &t);
    expect(
        &d,
        Code::Invalid,
        line_of(&t, "[ destroy self ]"),
        22,
        "mutations: [ destroy self ]",
        Some("royal"),
    );
    assert!(
        d.message().contains("royal piece `King`"),
        "{}",
        d.message()
    );
}

/// Regression (new-user trial): a game file that is not UTF-8 got no
/// position. `id: x\n` (6 bytes) and `name: caf` (9) come before the
/// Latin-1 `é` (0xE9): offset 15, line 2, column 10.
#[test]
fn non_utf8_game_file_names_the_bad_byte() {
    let path = std::env::temp_dir().join(format!(
        "houserules-diag-{}-latin1.yaml",
        std::process::id()
    ));
    std::fs::write(&path, b"id: x\nname: caf\xe9\n").expect("written");
    let ds = houserules_definitions::load_file(&path).expect_err("not UTF-8");
    let _ = std::fs::remove_file(&path);
    let d = ds.iter().next().expect("one diagnostic");
    assert_eq!(d.line_col(), (2, 10), "{}", d.render());
    assert!(d.message().contains("offset 15"), "{}", d.message());
    assert!(d.render().contains("name: caf"), "{}", d.render());
}

/// Regression (new-user trial): an error in a long single-line file (a
/// game written as one JSON/flow mapping) printed the whole line in its
/// excerpt. The excerpt is cut to a window of at most 120 characters
/// around the column, `...` marking the cuts, and the caret stays under
/// the offending key.
#[test]
fn long_line_excerpt_is_a_window_around_the_column() {
    let t = format!(
        "{{id: x, name: \"{}\", bord: 1, setup: \"{}\"}}\n",
        "a".repeat(300),
        "b".repeat(300)
    );
    let d = one("long.yaml", &t);
    assert_eq!(d.code(), Code::UnknownKey, "{}", d.render());
    let r = d.render();
    let lines: Vec<&str> = r.lines().collect();
    // Header, empty gutter, the excerpt, the caret line.
    let excerpt = lines[2].strip_prefix("1 | ").expect("the excerpt line");
    let carets = lines[3].strip_prefix("  | ").expect("the caret line");
    assert!(
        excerpt.starts_with("...") && excerpt.ends_with("..."),
        "{r}"
    );
    assert!(
        excerpt.chars().count() <= 120 + 6,
        "{} characters:\n{r}",
        excerpt.chars().count()
    );
    let key = excerpt.find("bord").expect("the key is in the window");
    assert_eq!(carets.find('^'), Some(key), "{r}");
    assert!(carets[key..].starts_with("^^^^ "), "{r}");
    // The column is still the one of the whole line.
    assert_eq!(d.line_col(), (1, t.find("bord").expect("bord") + 1));
}
