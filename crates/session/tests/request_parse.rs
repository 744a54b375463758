//! Regressions from the new-user trial of session 3: creation requests and
//! input lines are read as strictly as descriptors (a byte order mark is
//! skipped, a repeated key is refused instead of the last one winning), and
//! a value of the wrong shape is reported with its JSON path.

use houserules_session::{CreateRequest, Input};

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
    use houserules_session::ChoiceTimeout;
    let session = |timeout: ChoiceTimeout| {
        let s = houserules_session::Session::create(CreateRequest {
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
        let e = houserules_session::Session::create(CreateRequest {
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

/// The refusal of `uci` in a session created from `request`.
fn refusal(request: &str, uci: &str) -> houserules_session::Refusal {
    let mut s = houserules_session::Session::create(CreateRequest::parse(request).expect("read"))
        .expect("created");
    s.submit(Input::Move { mv: uci.into() })
        .expect_err("refused")
}

/// Regression (new-user trial): every refused move only said "`X` is not
/// legal under the active rules". The reason is added when the board
/// tells it, and the code stays `illegal-move`:
/// - initial position, White to move: d7 holds a black pawn, e3 is empty;
/// - `4k3/P7/8/8/8/8/8/4K3 w`: the pawn on a7 reaches a8 only by
///   promoting, to one of the FIDE pieces q, r, b, n;
/// - frozen-column on file e (its descriptor: pieces on the frozen file
///   cannot move): e2e4, legal in FIDE chess, is forbidden by the rule.
#[test]
fn refused_moves_say_why() {
    let r = refusal("{}", "d7d5");
    assert_eq!(r.code, "illegal-move");
    assert!(
        r.message
            .contains("the piece on d7 is Black's, and it is White's move"),
        "{}",
        r.message
    );
    let r = refusal("{}", "e3e4");
    assert_eq!(r.code, "illegal-move");
    assert!(
        r.message.contains("there is no piece on e3"),
        "{}",
        r.message
    );

    let r = refusal(r#"{"fen": "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"}"#, "a7a8");
    assert_eq!(r.code, "illegal-move");
    assert!(
        r.message.contains("a promotion piece letter is needed"),
        "{}",
        r.message
    );
    for choice in ["`a7a8q`", "`a7a8r`", "`a7a8b`", "`a7a8n`"] {
        assert!(r.message.contains(choice), "{choice}: {}", r.message);
    }

    // e2e4 is legal in chess; frozen-column on the e file freezes e2.
    let r = refusal(r#"{"modifiers": ["frozen-column:file=e"]}"#, "e2e4");
    assert_eq!(r.code, "illegal-move");
    assert!(
        r.message.contains("forbidden by an attached modifier"),
        "{}",
        r.message
    );
    // A pawn never moves three squares (re-trial: this read "forbidden by
    // the active rules", as if a rule were to blame).
    let r = refusal("{}", "e2e5");
    assert_eq!(r.code, "illegal-move");
    assert!(
        r.message.contains("not a legal move in this position"),
        "{}",
        r.message
    );
}

/// Regression (new-user trial): `"frozen-column:"` (a `:` and no
/// parameter) was accepted in a request while `--rules 'extinction-chess:'`
/// is refused. It is refused too, with the entry's path (the second entry
/// here, `$.modifiers[1]`).
#[test]
fn empty_parameter_list_is_refused_with_its_path() {
    let e = houserules_session::Session::create(CreateRequest {
        modifiers: vec![
            serde_json::json!("kamikaze"),
            serde_json::json!("frozen-column:"),
        ],
        ..CreateRequest::default()
    })
    .expect_err("refused");
    let e = e.to_string();
    assert!(e.contains("$.modifiers[1]: "), "{e}");
    assert!(e.contains("empty parameter list"), "{e}");
}
