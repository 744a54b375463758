//! One minimal bad descriptor per finding code, plus a few acceptance
//! checks. Limits come from presets-and-triggers.md § Hard caps and
//! modifier-rulings.md E1–E2.

use houserules_modifiers::{codes, validate, Finding};
use serde_json::{json, Value};

fn check(v: Value) -> Vec<Finding> {
    match validate(&v.to_string()) {
        Ok(_) => Vec::new(),
        Err(f) => f,
    }
}

/// A valid descriptor with the given passive part and triggers.
fn with(passive: Value, triggers: Value) -> Value {
    json!({"version": 1, "id": "t", "name": "T", "passive": passive, "triggers": triggers})
}

fn act(effects: Value) -> Value {
    with(
        json!([]),
        json!([{"kind": "on-rule-activated", "effects": effects}]),
    )
}

#[track_caller]
fn expect(v: Value, code: &str, path: &str) -> Finding {
    let found = check(v);
    let hit = found.iter().find(|f| f.code == code && f.path == path);
    match hit {
        Some(f) => f.clone(),
        None => panic!("expected {code} at {path}; got {found:#?}"),
    }
}

fn kill_self() -> Value {
    json!({"kind": "kill", "params": {"pieces": "$self"}})
}

/// `n` containers nested inside each other, the innermost holding `leaf`.
fn nest(n: usize, leaf: Value) -> Value {
    let mut v = leaf;
    for _ in 0..n {
        v = json!({"kind": "conditional", "params": {"if": true, "then": [v]}});
    }
    v
}

#[test]
fn minimal_descriptor_is_accepted() {
    let d = validate(r#"{"version":1,"id":"x","name":"X"}"#).expect("valid");
    assert_eq!(d.id, "x");
    assert!(d.triggers.is_empty());
}

#[test]
fn json_syntax_has_line_and_column() {
    let f = validate("{\n  \"version\": 1,\n  \"id\": }").unwrap_err();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].code, codes::JSON_SYNTAX);
    assert_eq!(f[0].path, "$");
    // Said once (regression: "line 3, column 9: … at line 3 column 9").
    assert!(
        f[0].message.ends_with("at line 3 column 9"),
        "{}",
        f[0].message
    );
    assert_eq!(
        f[0].message.matches("line 3").count(),
        1,
        "{}",
        f[0].message
    );
}

/// Regression (new-user trial): a repeated key was accepted, the last value
/// winning; and a byte order mark was a syntax error.
#[test]
fn duplicate_keys_are_refused_and_a_bom_is_skipped() {
    let f =
        validate("{\"version\": 1, \"id\": \"d\",\n \"id\": \"e\", \"name\": \"d\"}").unwrap_err();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].code, codes::JSON_SYNTAX);
    assert!(
        f[0].message.contains("duplicate key `id`") && f[0].message.contains("line 2"),
        "{}",
        f[0].message
    );
    let good = json!({"version": 1, "id": "t", "name": "T"}).to_string();
    assert!(validate(&good).is_ok());
    assert!(validate(&format!("\u{feff}{good}")).is_ok());
}

#[test]
fn root_must_be_an_object() {
    expect(json!([1, 2]), codes::FIELD_TYPE, "$");
}

#[test]
fn unknown_top_level_field_with_suggestion() {
    let f = expect(
        json!({"version": 1, "id": "t", "name": "T", "trigers": []}),
        codes::FIELD_UNKNOWN,
        "$.trigers",
    );
    assert!(
        f.message.contains("did you mean `triggers`"),
        "{}",
        f.message
    );
}

#[test]
fn missing_field() {
    expect(json!({"version": 1, "id": "t"}), codes::FIELD_MISSING, "$");
}

#[test]
fn wrong_version() {
    expect(
        json!({"version": 2, "id": "t", "name": "T"}),
        codes::VERSION_UNSUPPORTED,
        "$.version",
    );
}

#[test]
fn bad_id() {
    expect(
        json!({"version": 1, "id": "Bad Id", "name": "T"}),
        codes::ID_INVALID,
        "$.id",
    );
}

#[test]
fn duplicate_parameter_names() {
    let v = json!({"version": 1, "id": "t", "name": "T", "parameters": [
        {"name": "n", "type": "integer", "default": 1},
        {"name": "n", "type": "integer", "default": 2}
    ]});
    expect(v, codes::PARAMETER_DUPLICATE, "$.parameters[1].name");
}

#[test]
fn parameter_default_must_fit_its_type() {
    let v = json!({"version": 1, "id": "t", "name": "T", "parameters": [
        {"name": "sq", "type": "square", "default": "z9"}
    ]});
    expect(v, codes::PARAMETER_INVALID, "$.parameters[0].default");
}

#[test]
fn unknown_trigger_kind_with_suggestion() {
    let v = with(
        json!([]),
        json!([{"kind": "on-rule-activate", "effects": []}]),
    );
    let f = expect(v, codes::TRIGGER_UNKNOWN_KIND, "$.triggers[0].kind");
    assert!(
        f.message.contains("did you mean `on-rule-activated`"),
        "{}",
        f.message
    );
}

/// Regression (found while writing the README): a misspelt trigger kind
/// also reported every primitive in its effects as imperative-in-passive.
/// The effects are still a trigger's: one finding, the misspelling.
#[test]
fn unknown_trigger_kind_is_the_only_finding() {
    let v = with(
        json!([]),
        json!([{"kind": "on-captrue", "effects": [kill_self()]}]),
    );
    let found = check(v);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].code, codes::TRIGGER_UNKNOWN_KIND);
}

#[test]
fn unknown_primitive_kind_with_suggestion() {
    let v = with(
        json!([]),
        json!([
            {"kind": "on-move", "effects": []},
            {"kind": "on-move", "effects": []},
            {"kind": "on-move", "effects": [{"kind": "spawn-markr", "params": {}}]}
        ]),
    );
    let f = expect(
        v,
        codes::PRIMITIVE_UNKNOWN_KIND,
        "$.triggers[2].effects[0].kind",
    );
    assert!(
        f.message.contains("did you mean `spawn-marker`"),
        "{}",
        f.message
    );
}

#[test]
fn imperative_in_passive() {
    expect(
        with(json!([kill_self()]), json!([])),
        codes::IMPERATIVE_IN_PASSIVE,
        "$.passive[0].kind",
    );
}

#[test]
fn passive_in_trigger() {
    let v = act(json!([{"kind": "keep-farthest", "params": {"pieces": {"type": "rook"}}}]));
    expect(
        v,
        codes::PASSIVE_IN_TRIGGER,
        "$.triggers[0].effects[0].kind",
    );
}

#[test]
fn add_aura_is_allowed_in_both_parts() {
    let aura =
        json!({"kind": "add-aura", "params": {"radius": 1, "targetAttr": "HpBonus", "delta": 1}});
    let passive = json!({"kind": "add-aura", "params": {"radius": 1, "targetAttr": "HpBonus", "delta": 1, "source": {"type": ["king"]}}});
    assert!(check(with(
        json!([passive]),
        json!([{"kind": "on-move", "effects": [aura]}])
    ))
    .is_empty());
}

#[test]
fn a_passive_aura_needs_a_source() {
    let aura =
        json!({"kind": "add-aura", "params": {"radius": 1, "targetAttr": "HpBonus", "delta": 1}});
    expect(
        with(json!([aura]), json!([])),
        codes::PARAM_MISSING,
        "$.passive[0].params",
    );
}

#[test]
fn attribute_references_name_an_attribute() {
    let cond = |r: &str| json!([{"kind": "on-move", "effects": [{"kind": "conditional", "params": {"if": {"ge": [r, 2]}, "then": [{"kind": "kill", "params": {"pieces": "$self"}}]}}]}]);
    assert!(check(with(json!([]), cond("$self.attr.Hp"))).is_empty());
    expect(
        with(json!([]), cond("$self.attr")),
        codes::REFERENCE_INVALID,
        "$.triggers[0].effects[0].params.if.ge[0]",
    );
}

#[test]
fn cancel_capture_outside_its_trigger() {
    let v = with(
        json!([]),
        json!([{"kind": "on-capture", "effects": [{"kind": "cancel-capture"}]}]),
    );
    expect(v, codes::WRONG_TRIGGER, "$.triggers[0].effects[0].kind");
}

#[test]
fn choice_inside_with_probability() {
    let v = act(
        json!([{"kind": "with-probability", "params": {"p": 0.5, "then": [
            {"kind": "request-choice", "params": {"kind": "square", "forPlayer": "chooser", "bind": "s"}}
        ]}}]),
    );
    expect(
        v,
        codes::CHOICE_IN_DRAW,
        "$.triggers[0].effects[0].params.then[0].kind",
    );
}

#[test]
fn choice_inside_for_each() {
    let v = act(
        json!([{"kind": "for-each", "params": {"over": {"pieces": {"type": "pawn"}}, "bind": "p", "do": [
            {"kind": "flip-coin", "params": {"forPlayer": "turn", "bind": "c"}}
        ]}}]),
    );
    expect(
        v,
        codes::CHOICE_IN_ITERATION,
        "$.triggers[0].effects[0].params.do[0].kind",
    );
}

#[test]
fn unknown_parameter_with_suggestion() {
    let v = act(json!([{"kind": "kill", "params": {"pices": "$self"}}]));
    let f = expect(
        v,
        codes::PARAM_UNKNOWN,
        "$.triggers[0].effects[0].params.pices",
    );
    assert!(f.message.contains("did you mean `pieces`"), "{}", f.message);
}

#[test]
fn subject_only_on_triggers_that_have_one() {
    let v = with(
        json!([]),
        json!([{"kind": "on-turn-start", "params": {"subject": {"type": "king"}}, "effects": []}]),
    );
    expect(v, codes::PARAM_UNKNOWN, "$.triggers[0].params.subject");
    let v = with(
        json!([]),
        json!([{"kind": "on-move", "params": {"subject": {"type": "king"}}, "effects": []}]),
    );
    assert!(check(v).is_empty());
}

#[test]
fn missing_parameter() {
    let v = act(json!([{"kind": "kill", "params": {}}]));
    expect(v, codes::PARAM_MISSING, "$.triggers[0].effects[0].params");
}

#[test]
fn invalid_parameter_value() {
    // `dragon` could be a YAML game's piece (issue-12 trial, item 11); a
    // name with a space cannot.
    let v = act(
        json!([{"kind": "spawn-piece", "params": {"type": "red dragon", "color": "white", "at": "e4"}}]),
    );
    expect(
        v,
        codes::PARAM_INVALID,
        "$.triggers[0].effects[0].params.type",
    );
}

#[test]
fn forplayer_both_only_for_rps() {
    let v = act(
        json!([{"kind": "request-choice", "params": {"kind": "square", "forPlayer": "both", "bind": "s"}}]),
    );
    expect(
        v,
        codes::PARAM_INVALID,
        "$.triggers[0].effects[0].params.forPlayer",
    );
}

#[test]
fn nesting_depth_three_is_fine_four_is_not() {
    assert!(check(act(json!([nest(3, kill_self())]))).is_empty());
    let v = act(json!([nest(4, kill_self())]));
    expect(
        v,
        codes::NESTING_DEPTH_EXCEEDED,
        "$.triggers[0].effects[0].params.then[0].params.then[0].params.then[0].kind",
    );
}

#[test]
fn choice_depth_over_eight() {
    // Nine request-choices, each inside the previous one's `then`. The same
    // path also breaks the nesting limit; both are reported.
    let mut v = kill_self();
    for i in (0..9).rev() {
        v = json!({"kind": "request-choice", "params": {
            "kind": "square", "forPlayer": "chooser", "bind": format!("s{i}"), "then": [v]}});
    }
    let found = check(act(json!([v])));
    assert!(
        found.iter().any(|f| f.code == codes::CHOICE_DEPTH_EXCEEDED),
        "{found:#?}"
    );
    assert!(found
        .iter()
        .any(|f| f.code == codes::NESTING_DEPTH_EXCEEDED));
}

#[test]
fn eight_sequential_choices_are_fine() {
    let effects: Vec<Value> = (0..8)
        .map(|i| json!({"kind": "request-choice", "params": {"kind": "square", "forPlayer": "chooser", "bind": format!("s{i}")}}))
        .collect();
    assert!(check(act(Value::Array(effects))).is_empty());
}

#[test]
fn primitive_count_limit() {
    // 1 trigger + 49 primitives = 50 nodes: accepted; one more is refused.
    let ok: Vec<Value> = (0..49).map(|_| kill_self()).collect();
    assert!(check(act(Value::Array(ok))).is_empty());
    let bad: Vec<Value> = (0..50).map(|_| kill_self()).collect();
    expect(act(Value::Array(bad)), codes::PRIMITIVE_COUNT_EXCEEDED, "$");
}

#[test]
fn bad_square() {
    // p9 is on no board: 16 files × 9 ranks = 144 squares, and the engine
    // holds at most 128 (i9 is on a 9×9 board, so it is valid here and
    // checked against the game's board on attaching).
    let v = act(
        json!([{"kind": "spawn-marker", "params": {"kind": "mine", "at": "p9", "lifetime": {"kind": "permanent"}}}]),
    );
    expect(
        v,
        codes::SQUARE_INVALID,
        "$.triggers[0].effects[0].params.at",
    );
    let v = with(
        json!([]),
        json!([{"kind": "on-moved-onto-square",
        "params": {"filter": {"kind": "squares", "squares": [27, 128]}}, "effects": []}]),
    );
    expect(
        v,
        codes::SQUARE_INVALID,
        "$.triggers[0].params.filter.squares[1]",
    );
}

#[test]
fn bad_filters() {
    let v = act(json!([{"kind": "kill", "params": {"pieces": {"colour": "white"}}}]));
    let f = expect(
        v,
        codes::FILTER_INVALID,
        "$.triggers[0].effects[0].params.pieces.colour",
    );
    assert!(f.message.contains("did you mean `color`"), "{}", f.message);
    let v = with(
        json!([]),
        json!([{"kind": "on-moved-onto-square",
        "params": {"filter": {"kind": "predicate"}}, "effects": []}]),
    );
    expect(v, codes::FILTER_INVALID, "$.triggers[0].params.filter");
}

#[test]
fn unknown_marker_kind() {
    let v = act(
        json!([{"kind": "spawn-marker", "params": {"kind": "landmine", "at": "e4", "lifetime": {"kind": "permanent"}}}]),
    );
    let f = expect(
        v,
        codes::MARKER_UNKNOWN_KIND,
        "$.triggers[0].effects[0].params.kind",
    );
    assert!(f.message.contains("did you mean `mine`"), "{}", f.message);
}

#[test]
fn all_marker_kinds_are_accepted() {
    for k in [
        "portal-end",
        "frozen-square",
        "mine",
        "pit",
        "death-square",
        "tornado",
        "treasure",
        "blocked",
        "ward",
    ] {
        let v = act(
            json!([{"kind": "spawn-marker", "params": {"kind": k, "at": 0, "lifetime": {"kind": "moves", "plies": 2}}}]),
        );
        assert!(check(v).is_empty(), "{k}");
    }
}

#[test]
fn bad_lifetime() {
    let v = act(
        json!([{"kind": "spawn-marker", "params": {"kind": "mine", "at": "e4", "lifetime": {"kind": "moves", "plies": 0}}}]),
    );
    expect(
        v,
        codes::LIFETIME_INVALID,
        "$.triggers[0].effects[0].params.lifetime",
    );
    let v =
        json!({"version": 1, "id": "t", "name": "T", "draft": {"weight": 1, "duration": [5, 3]}});
    expect(v, codes::LIFETIME_INVALID, "$.draft.duration");
}

#[test]
fn probability_out_of_range() {
    let v = act(json!([{"kind": "with-probability", "params": {"p": 1.5, "then": []}}]));
    expect(
        v,
        codes::PROBABILITY_OUT_OF_RANGE,
        "$.triggers[0].effects[0].params.p",
    );
}

#[test]
fn bad_expression() {
    let v = act(json!([{"kind": "conditional", "params": {"if": {"equals": [1, 1]}, "then": []}}]));
    expect(
        v,
        codes::EXPRESSION_INVALID,
        "$.triggers[0].effects[0].params.if.equals",
    );
}

#[test]
fn bad_reference() {
    let v = act(json!([{"kind": "kill", "params": {"pieces": "$evnt.piece"}}]));
    expect(
        v,
        codes::REFERENCE_INVALID,
        "$.triggers[0].effects[0].params.pieces",
    );
}

#[test]
fn unbound_binding_variable_and_parameter() {
    let v = act(json!([{"kind": "kill", "params": {"pieces": "$bind.victim"}}]));
    expect(v, codes::UNBOUND, "$.triggers[0].effects[0].params.pieces");
    let v = with(
        json!([{"kind": "forbid-move", "params": {"when": "$var.never"}}]),
        json!([]),
    );
    expect(v, codes::UNBOUND, "$.passive[0].params.when");
    let v = act(
        json!([{"kind": "spawn-marker", "params": {"kind": "mine", "at": "$param.sq", "lifetime": {"kind": "one-shot"}}}]),
    );
    expect(v, codes::UNBOUND, "$.triggers[0].effects[0].params.at");
}

#[test]
fn duplicate_binding_in_one_trigger() {
    let pick = |b: &str| json!({"kind": "flip-coin", "params": {"forPlayer": "turn", "bind": b}});
    expect(
        act(json!([pick("c"), pick("c")])),
        codes::BINDING_DUPLICATE,
        "$.triggers[0].effects[1].params.bind",
    );
    // The same name in two different triggers is fine.
    let v = with(
        json!([]),
        json!([
            {"kind": "on-rule-activated", "effects": [pick("c")]},
            {"kind": "on-turn-start", "effects": [pick("c")]}
        ]),
    );
    assert!(check(v).is_empty());
}

#[test]
fn binding_is_visible_to_later_siblings() {
    let v = act(json!([
        {"kind": "request-choice", "params": {"kind": "piece", "forPlayer": "chooser", "filter": {"royal": false}, "bind": "p"}},
        {"kind": "kill", "params": {"pieces": "$bind.p"}}
    ]));
    assert!(check(v).is_empty());
}

#[test]
fn every_code_is_documented() {
    let docs = include_str!("../../../docs/modifiers.md");
    for code in codes::ALL {
        assert!(
            docs.contains(&format!("`{code}`")),
            "{code} is not in docs/modifiers.md"
        );
    }
}

/// A passive `add-moves` for kings with one shape.
fn add_moves(shape: Value) -> Value {
    with(
        json!([{"kind": "add-moves", "params": {"pieces": {"type": ["king"]}, "shapes": [shape]}}]),
        json!([]),
    )
}

const SHAPE_DIRECTION: &str = "$.passive[0].params.shapes[0].direction";

/// Regression: `[i64::MIN, 1]` validated (the runtime cast it `as i32`,
/// which wraps i64::MIN to 0, making it [0, 1]). A vector's |x| and |y|
/// are at most 15 (boards have at most 16 files and ranks), so it is a
/// bad parameter at the shape's `direction`, and the message says the
/// range.
#[test]
fn leap_vector_of_i64_min_is_refused() {
    for d in [json!([i64::MIN, 1]), json!([1, i64::MIN])] {
        let f = expect(
            add_moves(json!({"kind": "leap", "direction": d})),
            codes::PARAM_INVALID,
            SHAPE_DIRECTION,
        );
        assert!(f.message.contains("out of range"), "{}", f.message);
        assert!(f.message.contains("-15 to 15"), "{}", f.message);
    }
}

/// Regression: `[100, 1]` and `[0, 0]` got the generic "is a named
/// direction, [x, y] or a list of them". 100 is beyond |x| <= 15; [0, 0]
/// does not move. The same holds for one bad vector in a list (it was
/// dropped silently).
#[test]
fn out_of_range_and_zero_vectors_are_named() {
    for d in [
        json!([100, 1]),
        json!([[2, 1], [100, 1]]),
        // 16 files at most: |x| = 16 moves on no board.
        json!([16, 1]),
        json!([1, 18446744073709551615u64]),
    ] {
        let f = expect(
            add_moves(json!({"kind": "leap", "direction": d})),
            codes::PARAM_INVALID,
            SHAPE_DIRECTION,
        );
        assert!(
            f.message
                .contains("out of range: x and y are whole numbers from -15 to 15"),
            "{}",
            f.message
        );
    }
    for d in [json!([0, 0]), json!([[2, 1], [0, 0]])] {
        let f = expect(
            add_moves(json!({"kind": "leap", "direction": d})),
            codes::PARAM_INVALID,
            SHAPE_DIRECTION,
        );
        assert!(f.message.contains("[0, 0] does not move"), "{}", f.message);
    }
    // The limits themselves are fine: [-15, 15] (a 16×16 side), and
    // [9, 0], which moves on a board of 10 files or more.
    assert!(check(add_moves(json!({"kind": "leap", "direction": [-15, 15]}))).is_empty());
    assert!(check(add_moves(json!({"kind": "leap", "direction": [9, 0]}))).is_empty());
}

/// Echoed input is cut and its control characters escaped (re-trial: an
/// unknown trigger kind of 5,000 characters with an ESC was printed whole,
/// raw escape sequence included).
#[test]
fn unknown_kinds_are_echoed_cut_and_escaped() {
    let kind = format!("on-capt\u{1b}[2J{}", "r".repeat(5000));
    let v = with(json!([]), json!([{"kind": kind, "effects": []}]));
    let f = expect(v, codes::TRIGGER_UNKNOWN_KIND, "$.triggers[0].kind");
    let m = f.to_string();
    assert!(!m.contains('\u{1b}'), "raw ESC in {m:?}");
    assert!(m.contains("\\u{1b}"), "{m}");
    assert!(m.len() < 400, "{} bytes", m.len());
}

/// `descriptor.board-size` (issue 12, modifier-rulings E3): a descriptor
/// valid on 8×8 checked against another board reports what that board
/// lacks.
#[test]
fn board_size_findings_name_what_the_board_lacks() {
    use houserules_modifiers::runtime::Geom;
    use houserules_modifiers::validate::board_findings;
    let lib = |id: &str| -> Value {
        let path = format!("{}/library/{id}.json", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let gardner = Geom { w: 5, h: 5 };
    // A pawn's sixth rank (relRank 6): a 5×5 board has 5 ranks.
    let sixth = json!({
        "version": 1, "id": "sixth", "name": "Sixth", "description": "d",
        "passive": [{"kind": "forbid-move", "params": {
            "to": {"relRank": {"of": "mover", "n": 6}}}}]
    });
    let f = board_findings(&sixth, gardner);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].code, codes::BOARD_SIZE);
    assert!(
        f[0].message.contains("relative rank 6") && f[0].message.contains("5×5"),
        "{f:?}"
    );
    // early_promotion counts from the far end (relRank -3: the sixth rank
    // on 8×8) and cash_grab's far rank (relRank -1) exists on every board:
    // they scale (issue 12).
    assert!(board_findings(&lib("early_promotion"), gardner).is_empty());
    assert!(board_findings(&lib("cash_grab"), gardner).is_empty());
    // ice_age freezes the edge files a and h of 8×8 and says so with its
    // `board` field: refused on 5×5 (where h is missing too) and on 10×10
    // (where h is not an edge), at `$.board`.
    let f = board_findings(&lib("ice_age"), gardner);
    assert!(f.iter().any(|x| x.message.contains("file h")), "{f:?}");
    let grand = Geom { w: 10, h: 10 };
    let f = board_findings(&lib("ice_age"), grand);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(
        (f[0].code, f[0].path.as_str()),
        (codes::BOARD_SIZE, "$.board")
    );
    assert!(
        f[0].message.contains("8×8") && f[0].message.contains("10×10"),
        "{f:?}"
    );
    for id in ["a_light_breeze", "summoning_ritual", "short_stop"] {
        assert!(!board_findings(&lib(id), grand).is_empty(), "{id} on 10×10");
        assert!(
            board_findings(&lib(id), Geom::CHESS).is_empty(),
            "{id} on 8×8"
        );
    }
    // On 8×8 nothing is reported.
    assert!(board_findings(&lib("ice_age"), Geom::CHESS).is_empty());
    assert!(board_findings(&lib("early_promotion"), Geom::CHESS).is_empty());
    // A malformed or impossible `board` is refused by the validator.
    for (board, code) in [
        (json!({"width": 8}), codes::FIELD_TYPE),
        (json!("8x8"), codes::FIELD_TYPE),
        (json!({"width": 17, "height": 8}), codes::BOARD_SIZE),
        (json!({"width": 12, "height": 12}), codes::BOARD_SIZE),
    ] {
        let mut d = lib("ice_age");
        d["board"] = board.clone();
        let f = check(d);
        assert!(
            f.iter().any(|x| x.code == code && x.path == "$.board"),
            "{board}: {f:?}"
        );
    }
}

/// Squares, files and ranks named past 8×8 (issue 12): a descriptor is
/// valid when some board has its names (files a–p, ranks 1–16, at most
/// 128 squares), and the game's board, 8×8 included, is checked when it
/// is attached (`board_findings`).
#[test]
fn names_past_eight_by_eight_are_checked_on_the_games_board() {
    use houserules_modifiers::runtime::Geom;
    use houserules_modifiers::validate::board_findings;
    let mine_at = |sq: Value| -> Value {
        json!({
            "version": 1, "id": "m", "name": "M", "description": "A mine.",
            "triggers": [{"kind": "on-rule-activated", "effects": [
                {"kind": "spawn-marker", "params": {"kind": "mine", "at": sq,
                  "lifetime": {"kind": "permanent"}}}]}]
        })
    };
    // j10 is on Grand (10×10), not on 8×8 chess; index 99 likewise.
    for sq in [json!("j10"), json!(99)] {
        assert!(check(mine_at(sq.clone())).is_empty(), "{sq}");
        assert!(board_findings(&mine_at(sq.clone()), Geom { w: 10, h: 10 }).is_empty());
        let f = board_findings(&mine_at(sq.clone()), Geom::CHESS);
        assert_eq!(f.len(), 1, "{sq}: {f:?}");
        assert_eq!(f[0].code, codes::BOARD_SIZE);
        assert!(f[0].message.contains("8×8"), "{f:?}");
    }
    // p9 and index 128 are on no board (16 × 9 = 144 squares; the
    // engine holds 128).
    for sq in [json!("p9"), json!(128)] {
        let f = check(mine_at(sq.clone()));
        assert!(
            f.iter().any(|x| x.code == codes::SQUARE_INVALID),
            "{sq}: {f:?}"
        );
    }
}

/// Issue-12 trial, item 10: `validate psq.json --board 5x5` passed a
/// square parameter whose default `h8` a 5×5 session refuses. By hand:
/// Gardner's board has files a–e and ranks 1–5, so h8 is not on it; a
/// default of c3 is.
#[test]
fn board_findings_check_parameter_defaults() {
    use houserules_modifiers::runtime::Geom;
    use houserules_modifiers::validate::board_findings;
    let psq = |default: &str| {
        json!({
            "version": 1, "id": "psq", "name": "Psq", "description": "d",
            "parameters": [{"name": "sq", "type": "square", "default": default}],
            "passive": [{"kind": "forbid-move", "params": {"to": {"squares": "$param.sq"}}}]
        })
    };
    let gardner = Geom { w: 5, h: 5 };
    let f = board_findings(&psq("h8"), gardner);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].code, codes::BOARD_SIZE);
    assert_eq!(f[0].path, "$.parameters[0].default");
    assert!(
        f[0].message.contains("sq") && f[0].message.contains("h8") && f[0].message.contains("5×5"),
        "{f:?}"
    );
    assert!(board_findings(&psq("c3"), gardner).is_empty());
    assert!(board_findings(&psq("h8"), Geom::CHESS).is_empty());
    // A file parameter likewise: f is not a file of 5×5.
    let file = json!({
        "version": 1, "id": "pf", "name": "Pf", "description": "d",
        "parameters": [{"name": "f", "type": "file", "default": "f"}],
        "passive": [{"kind": "forbid-move", "params": {"to": {"file": "$param.f"}}}]
    });
    let f = board_findings(&file, gardner);
    assert_eq!(
        (f.len(), f[0].path.as_str()),
        (1, "$.parameters[0].default"),
        "{f:?}"
    );
}

/// Issue-12 trial, item 11: piece filters could name only the six FIDE
/// types, though the session's output names Capablanca's `archbishop`.
/// Without a game any game's piece name is accepted (lower case, a piece
/// id: letters, digits and `_`); against a game, a name other than the six
/// FIDE ones must be one of its types (`descriptor.piece-type`).
#[test]
fn piece_filters_name_any_games_piece_types() {
    use houserules_modifiers::runtime::Geom;
    use houserules_modifiers::validate::{attach_findings, GameFacts};
    let only = |ty: Value| {
        with(
            json!([{"kind": "forbid-move", "params": {"piece": {"type": ty}}}]),
            json!([]),
        )
    };
    for name in ["archbishop", "chancellor", "wazir", "bede", "fad", "knight"] {
        assert!(check(only(json!([name]))).is_empty(), "{name}");
    }
    // Not a piece name: upper case (with the lower-case hint), a leading
    // digit, a dash.
    let f = expect(
        only(json!(["Archbishop"])),
        codes::PARAM_INVALID,
        "$.passive[0].params.piece.type[0]",
    );
    assert!(f.message.contains("did you mean `archbishop`"), "{f:?}");
    expect(
        only(json!(["2x"])),
        codes::PARAM_INVALID,
        "$.passive[0].params.piece.type[0]",
    );
    expect(
        only(json!("no-such")),
        codes::FILTER_INVALID,
        "$.passive[0].params.piece.type",
    );
    // Capablanca's types (the names the session writes).
    let capablanca = GameFacts {
        board: Geom { w: 10, h: 8 },
        types: [
            "pawn",
            "knight",
            "bishop",
            "rook",
            "queen",
            "king",
            "archbishop",
            "chancellor",
        ]
        .map(String::from)
        .to_vec(),
    };
    let none = Default::default();
    assert!(attach_findings(
        &only(json!(["archbishop", "chancellor"])),
        &capablanca,
        &none
    )
    .is_empty());
    let f = attach_findings(&only(json!(["wazir"])), &capablanca, &none);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(
        (f[0].code, f[0].path.as_str()),
        (codes::PIECE_TYPE, "$.passive[0].params.piece.type[0]")
    );
    assert!(
        f[0].message.contains("wazir") && f[0].message.contains("archbishop, chancellor"),
        "{f:?}"
    );
    // The FIDE names stay valid on a game that lacks them (a rule about
    // bishops does nothing on Los Alamos).
    let los_alamos = GameFacts {
        board: Geom { w: 6, h: 6 },
        types: ["pawn", "knight", "rook", "queen", "king"]
            .map(String::from)
            .to_vec(),
    };
    assert!(attach_findings(&only(json!(["bishop"])), &los_alamos, &none).is_empty());
    // A piece-type parameter: any piece name as default; its value is
    // checked against the game.
    let param = json!({
        "version": 1, "id": "pt", "name": "Pt", "description": "d",
        "parameters": [{"name": "t", "type": "piece-type", "default": "archbishop"}],
        "passive": [{"kind": "forbid-move", "params": {"piece": {"type": ["$param.t"]}}}]
    });
    assert!(check(param.clone()).is_empty());
    assert!(attach_findings(&param, &capablanca, &none).is_empty());
    let f = attach_findings(&param, &los_alamos, &none);
    assert_eq!((f.len(), f[0].code), (1, codes::PIECE_TYPE), "{f:?}");
    let given = [("t".to_string(), json!("rook"))].into_iter().collect();
    assert!(attach_findings(&param, &los_alamos, &given).is_empty());
}

/// Issue-12 trial, nits: a `random-pick` count `"$param.n"` with n = 0 or
/// −5 acted as 1, and a marker lifetime `plies` of 0 or −5 through a
/// parameter was accepted. A count is a whole number from 1 to
/// `MAX_COUNT` (128), plies from 1 to 10 000, whether written or given by
/// a parameter's value.
#[test]
fn count_and_plies_parameters_below_one_are_refused() {
    use houserules_modifiers::runtime::Geom;
    use houserules_modifiers::validate::{attach_findings, GameFacts};
    let pick = |n: Value| {
        json!({
            "version": 1, "id": "rp", "name": "Rp", "description": "d",
            "parameters": [{"name": "n", "type": "integer", "default": n}],
            "triggers": [{"kind": "on-rule-activated", "effects": [{"kind": "random-pick", "params": {
                "from": {"squares": {"empty": true}}, "count": "$param.n", "bind": "s",
                "then": [{"kind": "spawn-marker", "params": {"kind": "mine", "at": "$bind.s",
                    "lifetime": {"kind": "permanent"}}}]}}]}]
        })
    };
    const AT: &str = "$.triggers[0].effects[0].params.count";
    for n in [0, -5] {
        let f = expect(pick(json!(n)), codes::PARAM_INVALID, AT);
        assert!(f.message.contains("from 1 to 128"), "{f:?}");
    }
    let f = expect(pick(json!(129)), codes::PARAM_INVALID, AT);
    assert!(
        f.message.contains("too large") && f.message.contains("128"),
        "{f:?}"
    );
    assert!(check(pick(json!(3))).is_empty());
    // Literal counts were already refused.
    let mut lit = pick(json!(3));
    lit["triggers"][0]["effects"][0]["params"]["count"] = json!(0);
    expect(lit, codes::PARAM_INVALID, AT);
    // The value given when attaching is judged, not the default.
    let facts = GameFacts {
        board: Geom::CHESS,
        types: Vec::new(),
    };
    let zero = [("n".to_string(), json!(0))].into_iter().collect();
    let f = attach_findings(&pick(json!(3)), &facts, &zero);
    assert_eq!(
        (f.len(), f[0].code, f[0].path.as_str()),
        (1, codes::PARAM_INVALID, AT),
        "{f:?}"
    );
    let two = [("n".to_string(), json!(2))].into_iter().collect();
    assert!(attach_findings(&pick(json!(0)), &facts, &two).is_empty());

    let marker = |plies: Value| {
        json!({
            "version": 1, "id": "mk", "name": "Mk", "description": "d",
            "parameters": [{"name": "p", "type": "integer", "default": plies}],
            "triggers": [{"kind": "on-rule-activated", "effects": [{"kind": "spawn-marker", "params": {
                "kind": "mine", "at": ["e4"], "lifetime": {"kind": "moves", "plies": "$param.p"}}}]}]
        })
    };
    const PLIES: &str = "$.triggers[0].effects[0].params.lifetime.plies";
    for p in [0, -5] {
        expect(marker(json!(p)), codes::PARAM_INVALID, PLIES);
    }
    assert!(check(marker(json!(4))).is_empty());
    // A literal 0 or −5 is refused as before.
    let mut lit = marker(json!(4));
    lit["triggers"][0]["effects"][0]["params"]["lifetime"]["plies"] = json!(0);
    expect(
        lit,
        codes::LIFETIME_INVALID,
        "$.triggers[0].effects[0].params.lifetime",
    );
}

/// `givesCheck` (issue 25 item 4) is a move filter key taking a boolean:
/// accepted with `true`, refused with a string, and a misspelling is an
/// unknown key.
#[test]
fn gives_check_is_a_boolean_move_filter_key() {
    let forbid = |params: Value| {
        with(
            json!([{"kind": "forbid-move", "params": params}]),
            json!([]),
        )
    };
    assert!(check(forbid(json!({"givesCheck": true}))).is_empty());
    let bad = check(forbid(json!({"givesCheck": "yes"})));
    assert!(
        bad.iter().any(|f| f.path.ends_with("givesCheck")),
        "{bad:#?}"
    );
    let misspelt = check(forbid(json!({"givesCheckk": true})));
    assert!(!misspelt.is_empty(), "an unknown key is refused");
}
