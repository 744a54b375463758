//! Property tests of the WebSocket message reader: no text makes it
//! panic, and every message it can read writes back to itself.

use houserules_server::protocol::{read_client_message, ClientMessage, MAX_MESSAGE_BYTES};
use proptest::prelude::*;
use serde_json::json;

fn message() -> impl Strategy<Value = ClientMessage> {
    prop_oneof![
        (1u8..=2, proptest::option::of(any::<u64>())).prop_map(|(v, s)| ClientMessage::Hello {
            protocol_version: v,
            last_seq: s
        }),
        (".{0,12}", any::<u32>()).prop_map(|(m, p)| ClientMessage::Move { mv: m, ply: p }),
        (".{0,8}", ".{0,8}").prop_map(|(c, v)| ClientMessage::SubmitChoice {
            choice_id: c,
            value: json!(v)
        }),
        Just(ClientMessage::Resign),
        Just(ClientMessage::OfferDraw),
        Just(ClientMessage::AcceptDraw),
        Just(ClientMessage::DeclineDraw),
        Just(ClientMessage::ClaimDraw {
            mv: None,
            ply: None
        }),
        (".{0,12}", any::<u32>()).prop_map(|(m, p)| ClientMessage::ClaimDraw {
            mv: Some(m),
            ply: Some(p)
        }),
        Just(ClientMessage::ClaimVictory),
        Just(ClientMessage::Ping),
    ]
}

proptest! {
    #[test]
    fn any_text_is_read_or_refused(text in ".{0,200}") {
        let _ = read_client_message(&text);
    }

    #[test]
    fn json_like_text_is_read_or_refused(
        kind in prop_oneof![
            Just("move".to_string()),
            Just("hello".to_string()),
            Just("submit-choice".to_string()),
            ".{0,6}",
        ],
        key in ".{0,8}",
        value in prop_oneof![Just(json!(null)), Just(json!(-1)), Just(json!(1e300)), Just(json!([])), ".{0,5}".prop_map(|s| json!(s))],
    ) {
        let text = json!({"kind": kind, key: value}).to_string();
        let _ = read_client_message(&text);
    }

    #[test]
    fn messages_round_trip(m in message()) {
        let text = serde_json::to_string(&m).unwrap();
        prop_assert_eq!(read_client_message(&text), Ok(m));
    }
}

#[test]
fn refusals_name_what_is_wrong() {
    // Hand-written cases: each code and where it comes from.
    let e = read_client_message(&"x".repeat(MAX_MESSAGE_BYTES + 1)).unwrap_err();
    assert_eq!(e.code, "message.too-large");
    let e = read_client_message("[1]").unwrap_err();
    assert_eq!(e.code, "message.malformed");
    let e = read_client_message(r#"{"kind":"move","move":"e2e4"}"#).unwrap_err();
    assert_eq!(e.code, "message.malformed");
    assert!(e.message.contains("ply"), "{}", e.message);
    assert_eq!(e.kind.as_deref(), Some("move"));
    // An unknown field is refused on every kind, the field-less ones too
    // (serde's internally tagged unit variants would ignore it).
    for text in [
        r#"{"kind":"resign","x":1}"#,
        r#"{"kind":"ping","extra":null}"#,
        r#"{"kind":"offer-draw","move":"e4"}"#,
        r#"{"kind":"accept-draw","a":[]}"#,
        r#"{"kind":"decline-draw","b":{}}"#,
        r#"{"kind":"claim-victory","c":true}"#,
        r#"{"kind":"claim-draw","c":true}"#,
        r#"{"kind":"move","move":"e2e4","ply":0,"x":1}"#,
        r#"{"kind":"hello","protocolVersion":1,"x":1}"#,
    ] {
        let e = read_client_message(text).unwrap_err();
        assert_eq!(e.code, "message.malformed", "{text}");
        assert!(e.message.contains("unknown field"), "{text}: {}", e.message);
        assert!(e.kind.is_some(), "{text}");
    }
    // A claim by announcing a move needs both the move and its ply.
    for text in [
        r#"{"kind":"claim-draw","move":"Nf3"}"#,
        r#"{"kind":"claim-draw","ply":4}"#,
    ] {
        let e = read_client_message(text).unwrap_err();
        assert_eq!(e.code, "message.malformed", "{text}");
        assert!(e.message.contains("go together"), "{text}: {}", e.message);
    }
    assert_eq!(
        read_client_message(r#"{"kind":"claim-draw","move":"Nf3","ply":4}"#),
        Ok(ClientMessage::ClaimDraw {
            mv: Some("Nf3".into()),
            ply: Some(4)
        })
    );
    let e = read_client_message(r#"{"kind":"hello","protocolVersion":4}"#).unwrap_err();
    assert_eq!(e.code, "message.bad-version");
    let e = read_client_message(r#"{"kind":"pong"}"#).unwrap_err();
    assert_eq!(e.code, "message.unknown-kind");
}

/// Issue 21: a repeated key is refused (serde_json's `Value` keeps the last
/// one, so `{"kind":"move","move":"e2e4","move":"h2h4",…}` played h2h4),
/// naming the key and the path of its object.
#[test]
fn duplicate_keys_are_refused_naming_the_key() {
    for (text, path, key) in [
        (
            r#"{"kind":"move","move":"e2e4","move":"h2h4","ply":0}"#,
            "$",
            "move",
        ),
        (r#"{"kind":"ping","kind":"ping"}"#, "$", "kind"),
        (
            r#"{"kind":"submit-choice","choiceId":"c1","value":{"sq":"e4","sq":"e5"}}"#,
            "$.value",
            "sq",
        ),
    ] {
        let e = read_client_message(text).unwrap_err();
        assert_eq!(e.code, "message.malformed", "{text}");
        assert!(
            e.message
                .contains(&format!("{path}: duplicate key `{key}`")),
            "{text}: {}",
            e.message
        );
    }
    // The same keys in different objects are no repetition.
    assert!(read_client_message(
        r#"{"kind":"submit-choice","choiceId":"c1","value":{"kind":"x"}}"#
    )
    .is_ok());
}
