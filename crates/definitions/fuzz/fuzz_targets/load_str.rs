//! Feeds arbitrary text to `load_str`: it must return diagnostics or a
//! definition, never panic, and stay within its input budgets. A
//! definition that loads must also compile in the engine.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(def) = houserules_definitions::load_str("fuzz.yaml", text) {
            assert!(houserules_engine::Variant::new(def).is_ok());
        }
    }
});
