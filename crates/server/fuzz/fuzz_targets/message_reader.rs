//! Fuzz target: any text through the WebSocket message reader. Nothing
//! may panic; every message read writes back to JSON that reads as the
//! same message.
//!
//! Run: `cd crates/server/fuzz && cargo fuzz run message_reader seeds`
//! (build only, on stable: `cargo fuzz build --sanitizer none`).

#![no_main]

use houserules_server::protocol::read_client_message;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(msg) = read_client_message(text) {
        let again = serde_json::to_string(&msg).unwrap();
        assert_eq!(read_client_message(&again).ok(), Some(msg), "{again}");
    }
});
