//! Errors of preset parsing, composition and building.

/// Why a rule set or layout was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PresetError {
    /// The rule list is empty where an id was expected (e.g. `a,,b`).
    #[error("empty preset id at position {position} of `{input}`")]
    EmptyId {
        /// 1-based position of the empty entry.
        position: usize,
        /// The whole input.
        input: String,
    },
    /// No preset has this id.
    #[error("unknown preset `{}`{}", houserules_engine::echo::echo(id), suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
    UnknownPreset {
        /// The id given.
        id: String,
        /// The closest known id, if any is close.
        suggestion: Option<String>,
    },
    /// A preset was named twice.
    #[error("preset `{id}` is listed twice")]
    Duplicate {
        /// The id.
        id: String,
    },
    /// A parameter entry is not `KEY=VALUE`.
    #[error("preset `{preset}`: parameter `{text}` is not KEY=VALUE")]
    MalformedParameter {
        /// The preset.
        preset: String,
        /// The text.
        text: String,
    },
    /// `ID:` with nothing (or only `;`) after the colon.
    #[error("preset `{preset}`: the parameter list after `:` is empty (write `{preset}` alone for the defaults, or KEY=VALUE after the colon)")]
    EmptyParameters {
        /// The preset.
        preset: String,
    },
    /// The preset has no such parameter.
    #[error("preset `{preset}` has no parameter `{key}` (it takes: {known})")]
    UnknownParameter {
        /// The preset.
        preset: String,
        /// The key given.
        key: String,
        /// The keys it takes, comma-separated, or `none`.
        known: String,
    },
    /// A parameter value is not allowed.
    #[error("preset `{preset}`: `{key}={value}` is not allowed (expected one of: {allowed})")]
    BadValue {
        /// The preset.
        preset: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// The allowed values.
        allowed: String,
    },
    /// A parameter was given twice.
    #[error("preset `{preset}`: parameter `{key}` is given twice")]
    DuplicateParameter {
        /// The preset.
        preset: String,
        /// The key.
        key: String,
    },
    /// A required preset is missing.
    #[error("preset `{preset}` requires `{required}`, which is not in the rule set")]
    MissingRequirement {
        /// The preset that needs it.
        preset: String,
        /// The preset it needs.
        required: String,
    },
    /// Two presets may not be combined.
    #[error("presets `{a}` and `{b}` cannot be combined: {reason}")]
    Incompatible {
        /// The first preset (in the order given).
        a: String,
        /// The second.
        b: String,
        /// Why.
        reason: String,
    },
    /// A preset (or one of its options) is declared but cannot be played
    /// by the current engine.
    #[error("preset `{preset}` cannot be played yet: {needs}")]
    NotImplemented {
        /// The preset (with its option, if the option is the problem).
        preset: String,
        /// The engine capability it needs.
        needs: String,
    },
    /// The game lacks something the preset needs (`crate::needs`).
    #[error("preset `{preset}` does not apply to game `{game}`: it needs {need}")]
    NotApplicable {
        /// The preset.
        preset: String,
        /// The game's id.
        game: String,
        /// What the game lacks ([`crate::needs::Need::describe`]).
        need: String,
    },
    /// No layout has this id, or its argument is wrong.
    #[error("layout `{id}`: {reason}")]
    BadLayout {
        /// The layout text given.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// The engine refused the composed definition (a bug in a transform).
    #[error("the composed game definition was refused by the engine: {0}")]
    Definition(String),
}
