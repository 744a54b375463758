//! docs/protocol.md carries the JSON Schemas of the WebSocket messages,
//! generated from the types: this test fails when they drift
//! (`UPDATE_DOCS=1` rewrites them).

#[test]
fn protocol_doc_schemas_are_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/protocol.md");
    let text = std::fs::read_to_string(path).unwrap();
    let begin = text.find("<!-- schemas:begin").expect("the begin marker");
    let begin = begin + text[begin..].find("-->\n").unwrap() + 4;
    let end = text.find("<!-- schemas:end -->").expect("the end marker");
    let want = houserules_server::protocol::schemas_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let new = format!("{}{}{}", &text[..begin], want, &text[end..]);
        std::fs::write(path, new).unwrap();
        return;
    }
    assert!(
        text[begin..end] == want,
        "docs/protocol.md's schemas are stale: run UPDATE_DOCS=1 cargo test -p houserules-server --test protocol_doc"
    );
}
