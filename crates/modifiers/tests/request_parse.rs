//! Regressions from the new-user trial of session 3: creation requests and
//! input lines are read as strictly as descriptors (a byte order mark is
//! skipped, a repeated key is refused instead of the last one winning), and
//! a value of the wrong shape is reported with its JSON path.

use houserules_modifiers::runtime::{CreateRequest, Input};

#[test]
fn request_with_a_byte_order_mark_is_read() {
    let r = CreateRequest::parse("\u{feff}{\"seed\": 7}").expect("read");
    assert_eq!(r.seed, Some(serde_json::json!(7)));
}

#[test]
fn request_with_a_repeated_key_is_refused() {
    let e = CreateRequest::parse(r#"{"seed": 7, "seed": 8}"#).expect_err("refused");
    assert!(e.contains("duplicate key `seed`"), "{e}");
}

#[test]
fn repeated_key_inside_the_state_is_refused() {
    let e = CreateRequest::parse(
        r#"{"state": {"format": "houserules-state/1", "turn": "white", "turn": "black"}}"#,
    )
    .expect_err("refused");
    assert!(e.contains("duplicate key `turn`"), "{e}");
}

#[test]
fn wrong_type_names_its_json_path() {
    let e = CreateRequest::parse(
        r#"{"state": {"format": "houserules-state/1", "board": "4k3/8/8/8/8/8/8/4K3",
            "turn": "white", "castling": "-", "halfmove_clock": 0, "fullmove_number": 1,
            "pieces": [{"square": "e8", "hp": "x"}]}}"#,
    )
    .expect_err("refused");
    assert!(e.starts_with("$.state.pieces[0].hp: "), "{e}");
    let e = CreateRequest::parse(r#"{"choiceTimeout": {"mode": "timeout-with-default"}}"#)
        .expect_err("refused");
    assert!(e.starts_with("$.choiceTimeout"), "{e}");
}

#[test]
fn request_that_is_not_an_object_is_refused() {
    let e = CreateRequest::parse("[1, 2]").expect_err("refused");
    assert!(e.contains("JSON object"), "{e}");
}

#[test]
fn input_with_a_repeated_key_is_refused() {
    let e = Input::parse(r#"{"move": "e2e4", "move": "d2d4"}"#).expect_err("refused");
    assert!(e.contains("duplicate key `move`"), "{e}");
    assert!(Input::parse("\u{feff}{\"move\": \"e2e4\"}").is_ok());
}

/// Regression (session-3 trial): `{"choice": …, "auto": "timeout"}` was
/// accepted without a timeout policy and with any option. A timeout takes
/// the first option (rulings B4/B7) and exists only under
/// `timeout-with-default`.
#[test]
fn timeout_inputs_take_the_default_and_need_a_timeout_policy() {
    use houserules_modifiers::runtime::ChoiceTimeout;
    let session = |timeout: ChoiceTimeout| {
        let s = houserules_modifiers::Session::create(CreateRequest {
            modifiers: vec![serde_json::json!("anti_camping")],
            seed: Some(serde_json::json!(7)),
            choice_timeout: Some(timeout),
            ..CreateRequest::default()
        })
        .expect("valid");
        let options = s.pending_choice().expect("a choice is asked").prompt["options"]
            .as_array()
            .expect("options")
            .clone();
        assert!(options.len() >= 2, "{options:?}");
        (s, options)
    };
    let input = |v: &serde_json::Value| Input::Choice {
        choice: v.clone(),
        player: None,
        auto: Some("timeout".into()),
    };
    let (mut s, options) = session(ChoiceTimeout::NoTimeout);
    let e = s.submit(input(&options[0])).expect_err("no timeout policy");
    assert_eq!(e.code, "bad-choice");
    let (mut s, options) = session(ChoiceTimeout::TimeoutWithDefault { seconds: 60 });
    let e = s.submit(input(&options[1])).expect_err("not the default");
    assert_eq!(e.code, "bad-choice");
    s.submit(input(&options[0])).expect("the default");
}

/// Regression (session-3 trial): a library modifier's bad parameter or
/// chooser was refused without the entry's JSON path.
#[test]
fn modifier_parameter_errors_name_the_entry() {
    for (mods, path) in [
        (vec!["anti_camping:foo=1"], "$.modifiers[0]: "),
        (
            vec!["frozen-column", "anti_camping:chooser=green"],
            "$.modifiers[1]: ",
        ),
    ] {
        let e = houserules_modifiers::Session::create(CreateRequest {
            modifiers: mods.iter().map(|m| serde_json::json!(m)).collect(),
            ..CreateRequest::default()
        })
        .expect_err("refused");
        assert!(e.to_string().contains(path), "{e}");
    }
}

/// Regression (new-user trial): `{"state": "hp.json"}` was refused with
/// "expected struct StateDoc", a Rust type name. The request format
/// (docs/modifiers.md, `play --help`) says `state` is a JSON position
/// state (docs/state-format.md), so the message says that, at `$.state`.
#[test]
fn state_that_is_not_an_object_names_the_state_format() {
    for request in [r#"{"state": "hp.json"}"#, r#"{"state": [1]}"#] {
        let e = CreateRequest::parse(request).expect_err("refused");
        assert!(e.starts_with("$.state: "), "{e}");
        assert!(e.contains("state object (docs/state-format.md"), "{e}");
        assert!(!e.contains("StateDoc"), "{e}");
    }
}
