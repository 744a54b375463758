//! Custom rule modifiers for houserules: the JSON descriptor format
//! (`version: 1`), its validator with stable error codes and JSON paths, the
//! seeded Mulberry32 stream, the shipped library of descriptors (every
//! thressgame catalog rule), and the [`runtime`] that plays them inside
//! engine games (dispatch, triggers, primitives, markers, choices, draft
//! mode). The session that hosts the runtime (creation request, inputs,
//! output, snapshot and replay) is the `houserules-session` crate. See
//! docs/modifiers.md.
//!
//! ```
//! let d = houserules_modifiers::library::get("kamikaze").expect("shipped");
//! assert_eq!(d.name, "Kamikaze");
//! let err = houserules_modifiers::validate("{").unwrap_err();
//! assert_eq!(err[0].code, "descriptor.json.syntax");
//! ```

#![forbid(unsafe_code)]

pub mod descriptor;
pub mod library;
pub mod rng;
pub mod runtime;
pub mod validate;

pub use descriptor::{
    schema_json, BoardSize, Descriptor, MarkerKind, Node, PrimitiveKind, Trigger, TriggerKind,
};
pub use rng::Mulberry32;
pub use runtime::{Refusal, Runtime};
pub use validate::{codes, validate, validate_value, Finding};

/// Input as echoed in a message: cut and with control characters escaped
/// (`houserules_engine::echo`).
pub(crate) fn echo_input(s: &str) -> String {
    houserules_engine::echo::echo(s)
}
