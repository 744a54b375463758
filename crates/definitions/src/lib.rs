//! # houserules-definitions
//!
//! Games described in YAML: the game file format (`docs/game-format.md`),
//! its condition language, diagnostics with source snippets, the JSON
//! Schema of the format, and the shipped game definitions.
//!
//! ```
//! let def = houserules_definitions::builtin("chess").unwrap();
//! let game = houserules_engine::Game::new(houserules_engine::Variant::new(def).unwrap());
//! assert_eq!(game.perft(2, true), 400);
//!
//! let err = houserules_definitions::load_str("bad.yaml", "id: bad\nbord: {}\n").unwrap_err();
//! let d = err.iter().next().unwrap();
//! assert_eq!(d.line_col(), (2, 1));
//! assert_eq!(d.help_text(), Some("did you mean `board`?"));
//! ```

#![forbid(unsafe_code)]

mod builtin;
mod compile;
pub mod cond;
pub mod diag;
pub mod effects;
pub mod model;
mod props;

use houserules_engine::{GameDefinition, Variant};

pub use builtin::{builtin, builtin_ids, builtin_source, pending_builtin_ids, BUILTIN_SOURCES};
pub use diag::{Code, Diagnostic, Diagnostics, Source};

/// Largest game file accepted, in bytes (1 MiB).
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// Limits on aliases and nodes handed to the YAML parser (alias bombs and
/// deep nesting end with a [`Code::Budget`] diagnostic).
fn yaml_options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_events = 200_000;
    budget.max_aliases = 1_000;
    budget.max_anchors = 1_000;
    budget.max_nodes = 100_000;
    budget.max_depth = 48;
    budget.max_documents = 1;
    budget.max_total_scalar_bytes = MAX_INPUT_BYTES;
    budget.max_recorded_anchor_events = 100_000;
    budget.max_recorded_anchor_bytes = MAX_INPUT_BYTES;
    budget.max_merge_keys = 100;
    let mut alias = serde_saphyr::options::AliasLimits::default();
    alias.max_total_replayed_events = 100_000;
    alias.max_replay_stack_depth = 16;
    alias.max_alias_expansions_per_anchor = 1_000;
    let mut o = serde_saphyr::Options::default();
    o.budget = Some(budget);
    o.alias_limits = alias;
    o.with_snippet = false;
    o.duplicate_keys = serde_saphyr::options::DuplicateKeyPolicy::Error;
    o
}

/// Loads a game definition from YAML text. `name` is the file name shown
/// in diagnostics.
///
/// # Errors
/// [`Diagnostics`]: every problem found, each with its place in the file.
/// Never panics.
pub fn load_str(name: &str, text: &str) -> Result<GameDefinition, Diagnostics> {
    let (def, effects, _) = load_parts(name, text)?;
    match effects.first() {
        None => Ok(def),
        Some(e) => {
            let src = Source::new(name, text);
            let d = Diagnostic::new(
                &src,
                Code::EngineUnsupported,
                e.span.clone(),
                "this definition has mutations or conditions on piece properties that run as rule hooks, which a bare `GameDefinition` cannot carry: load it with `load_variant_str` or `load_variant_file`",
            )
            .label("runs as a rule hook");
            Err(Diagnostics::new(vec![d]))
        }
    }
}

/// Loads a game definition from YAML text and compiles it for play, with
/// the rule hooks its movement mutations need (`destroy self`,
/// `move self N steps toward target`; see [`effects`]). A definition
/// without such mutations gets no hooks (the engine's fast path).
///
/// # Errors
/// As [`load_str`].
pub fn load_variant_str(name: &str, text: &str) -> Result<Variant, Diagnostics> {
    let (def, effects, attrs) = load_parts(name, text)?;
    let built = if effects.is_empty() {
        Variant::new(def)
    } else {
        Variant::with_hooks(def, effects::MutationHooks::new(effects, attrs))
    };
    built.map_err(|e| {
        let src = Source::new(name, text);
        Diagnostics::new(vec![Diagnostic::new(
            &src,
            Code::Invalid,
            0..0,
            format!("the engine refuses the definition: {e}"),
        )])
    })
}

/// [`load_variant_str`] on a file (read as [`load_file`] does).
///
/// # Errors
/// As [`load_file`].
pub fn load_variant_file(path: &std::path::Path) -> Result<Variant, Diagnostics> {
    let (name, text) = read_file(path)?;
    load_variant_str(&name, &text)
}

fn load_parts(
    name: &str,
    text: &str,
) -> Result<(GameDefinition, Vec<effects::Effect>, bool), Diagnostics> {
    let src = Source::new(name, text);
    if text.len() > MAX_INPUT_BYTES {
        let d = Diagnostic::new(
            &src,
            Code::Budget,
            MAX_INPUT_BYTES..MAX_INPUT_BYTES,
            format!(
                "the file is {} bytes; game files may be at most {MAX_INPUT_BYTES} bytes (1 MiB)",
                text.len()
            ),
        )
        .label("the budget ends here");
        return Err(Diagnostics::new(vec![d]));
    }
    let parsed = std::panic::catch_unwind(|| {
        serde_saphyr::from_str_with_options::<model::GameFile>(text, yaml_options())
    });
    let file = match parsed {
        Ok(Ok(f)) => f,
        Ok(Err(e)) => return Err(Diagnostics::new(vec![yaml_error(&src, &e)])),
        Err(_) => {
            let d = Diagnostic::new(
                &src,
                Code::Syntax,
                0..0,
                "the YAML parser failed on this file",
            );
            return Err(Diagnostics::new(vec![d]));
        }
    };
    compile::compile(&file, &src).map_err(Diagnostics::new)
}

/// Loads a game definition from a file.
///
/// # Errors
/// [`Diagnostics`] for unreadable files too.
pub fn load_file(path: &std::path::Path) -> Result<GameDefinition, Diagnostics> {
    let (name, text) = read_file(path)?;
    load_str(&name, &text)
}

fn read_file(path: &std::path::Path) -> Result<(String, String), Diagnostics> {
    let name = path.display().to_string();
    match std::fs::metadata(path) {
        Ok(m) if m.len() > MAX_INPUT_BYTES as u64 => {
            let src = Source::new(&name, "");
            return Err(Diagnostics::new(vec![Diagnostic::new(
                &src,
                Code::Budget,
                0..0,
                format!("the file is {} bytes; game files may be at most {MAX_INPUT_BYTES} bytes (1 MiB)", m.len()),
            )]));
        }
        _ => {}
    }
    // Read at most one byte past the budget: a device such as /dev/zero
    // reports length 0 but never ends.
    let read = std::fs::File::open(path).and_then(|f| {
        use std::io::Read;
        let mut bytes = Vec::new();
        f.take(MAX_INPUT_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map(|_| bytes)
    });
    match read.map(String::from_utf8) {
        Ok(Ok(text)) => Ok((name, text)),
        Ok(Err(e)) => {
            // The snippet shows the text with the bad bytes replaced (U+FFFD
            // at the same offset), the caret under the first.
            let bad = diag::InvalidUtf8::of(&e);
            let src = Source::new(&name, &String::from_utf8_lossy(e.as_bytes()));
            let span = bad.offset..bad.offset + char::REPLACEMENT_CHARACTER.len_utf8();
            Err(Diagnostics::new(vec![Diagnostic::new(
                &src,
                Code::Syntax,
                span,
                bad.to_string(),
            )
            .label("not UTF-8")]))
        }
        Err(e) => {
            let src = Source::new(&name, "");
            Err(Diagnostics::new(vec![Diagnostic::new(
                &src,
                Code::Syntax,
                0..0,
                format!("cannot read the file: {e}"),
            )]))
        }
    }
}

fn strip_location(msg: &str) -> String {
    // serde-saphyr appends " at line N, column M"; the diagnostic shows it.
    match msg.rfind(" at line ") {
        Some(i) if msg[i..].contains(", column ") => msg[..i].to_string(),
        _ => msg.to_string(),
    }
}

/// People's words for Rust scalar type names in serde messages.
fn type_name(ty: &str) -> &str {
    match ty {
        "i8" | "i16" | "i32" | "i64" | "i128" | "u8" | "u16" | "u32" | "u64" | "u128" | "isize"
        | "usize" => "a whole number",
        "bool" => "true or false",
        "f32" | "f64" => "a number",
        "string" | "str" | "char" => "text",
        other => other,
    }
}

/// What a budget breach means, in the words of a game file's author (the
/// limits are those of [`yaml_options`]).
fn breach_words(b: &serde_saphyr::budget::BudgetBreach) -> String {
    use serde_saphyr::budget::BudgetBreach as B;
    match b {
        B::Events { .. } | B::Nodes { .. } => "far more values than a game file needs".into(),
        B::Aliases { .. } => "more than 1000 aliases (`*name`)".into(),
        B::Anchors { .. } => "more than 1000 anchors (`&name`)".into(),
        B::Depth { .. } => "lists and mappings nested more than 48 deep".into(),
        B::ScalarBytes { .. } => "more than 1 MiB of text".into(),
        B::MergeKeys { .. } => "more than 100 merge keys (`<<`)".into(),
        B::AliasAnchorRatio { .. }
        | B::RecordedAnchorEvents { .. }
        | B::RecordedAnchorBytes { .. } => {
            "aliases that expand too far: aliases may not expand without bound (an alias bomb?)"
                .into()
        }
        B::InputBytes { .. } => "more than 1 MiB".into(),
        B::SequenceUnbalanced => "lists and mappings that do not close".into(),
        other => format!("a parser limit ({other:?})"),
    }
}

/// The whole-number literal at `span`, or the value after the key at
/// `span` (`key: 123`), with its own span: YAML reads a number too large
/// for a whole number as a float, and serde-saphyr may point at the key.
fn int_literal(src: &Source, span: &std::ops::Range<usize>) -> Option<std::ops::Range<usize>> {
    let text = src.text();
    let start = span.start.min(text.len());
    let rest = &text[start..];
    let rest = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let is_int = |t: &str| {
        let d = t.strip_prefix(['-', '+']).unwrap_or(t);
        !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
    };
    let token = |from: usize| {
        let t = &rest[from..];
        let lead = t.len() - t.trim_start().len();
        let t = t.trim_start();
        let len = t
            .find(|c: char| c.is_whitespace() || matches!(c, ',' | '}' | ']' | '#'))
            .unwrap_or(t.len());
        (from + lead, &t[..len])
    };
    let (at, t) = token(0);
    if is_int(t) {
        return Some(start + at..start + at + t.len());
    }
    let colon = rest.find(':')?;
    let (at, t) = token(colon + 1);
    is_int(t).then(|| start + at..start + at + t.len())
}

/// The diagnostic for a whole number too large to read, if `span` holds
/// one: the message says so, with the largest number read, and the caret
/// is on the number.
fn too_large(src: &Source, span: &std::ops::Range<usize>) -> Option<Diagnostic> {
    let at = int_literal(src, span)?;
    let lit = &src.text()[at.clone()];
    // Only numbers beyond i64 get here: smaller ones are read as such.
    lit.trim_start_matches(['-', '+'])
        .parse::<i64>()
        .is_err()
        .then(|| {
            Diagnostic::new(
                src,
                Code::InvalidValue,
                at,
                format!(
                    "number `{lit}` is too large: whole numbers here are at most {} in size",
                    i64::MAX
                ),
            )
            .label("too large")
        })
}

fn yaml_error(src: &Source, e: &serde_saphyr::Error) -> Diagnostic {
    use serde_saphyr::Error as E;
    let e = e.without_snippet();
    let span = match e.location() {
        Some(l) => {
            let sp = l.span();
            let start = match sp.byte_offset() {
                Some(o) => o as usize,
                None if l.line() > 0 => src.offset_of(l.line() as usize, l.column() as usize),
                None => 0,
            };
            let len = sp.byte_len().map_or(1, |n| n as usize).max(1);
            start..start + len
        }
        None => 0..0,
    };
    let d = |code: Code, msg: String| Diagnostic::new(src, code, span.clone(), msg);
    // Errors met while replaying an alias are wrapped; judge the original.
    let mut inner = e;
    for _ in 0..8 {
        match inner {
            E::AliasError { error, .. } => inner = error.without_snippet(),
            _ => break,
        }
    }
    match inner {
        E::SerdeUnknownField { field, expected, .. } => d(Code::UnknownKey, format!("unknown key `{field}`"))
            .label("unknown key")
            .maybe_help(diag::did_you_mean(field, expected.iter().copied())),
        E::SerdeUnknownVariant { variant, expected, .. } => d(Code::InvalidValue, format!("unknown value `{variant}`"))
            .label("not allowed here")
            .maybe_help(diag::did_you_mean(variant, expected.iter().copied())),
        E::SerdeMissingField { field, .. } => {
            d(Code::MissingKey, format!("missing key `{field}`")).label(format!("`{field}` is required in this mapping"))
        }
        E::SerdeInvalidType { .. } | E::SerdeInvalidValue { .. } | E::InvalidScalar { .. }
            if too_large(src, &span).is_some() =>
        {
            too_large(src, &span).expect("checked just above")
        }
        E::SerdeInvalidType { unexpected, expected, .. } => {
            d(Code::WrongType, format!("wrong type: expected {}, found {unexpected}", type_name(expected))).label("wrong type")
        }
        E::SerdeInvalidValue { unexpected, expected, .. } => {
            d(Code::InvalidValue, format!("invalid value: expected {expected}, found {unexpected}")).label("invalid value")
        }
        E::DuplicateMappingKey { key, .. } => {
            d(Code::Duplicate, format!("duplicate key `{}`", key.as_deref().unwrap_or("?"))).label("already given above")
        }
        E::Budget { breach: serde_saphyr::budget::BudgetBreach::Documents { .. }, .. } | E::MultipleDocuments { .. } => {
            let (line, column) = src.line_col(span.start);
            d(
                Code::Syntax,
                format!("a game file holds one YAML document, but a second one starts at line {line}, column {column} (remove the `---` line and what follows, or put the second game in its own file)"),
            )
            .label("a second document starts here")
        }
        E::Budget { breach, .. } => d(
            Code::Budget,
            format!("input budget exceeded: {}; game files must stay small", breach_words(breach)),
        )
        .label("budget exceeded here"),
        E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. }
        | E::AliasReplayCounterOverflow { .. } => d(
            Code::Budget,
            format!(
                "input budget exceeded ({}): game files must stay small, and aliases may not expand without bound (an alias bomb?)",
                strip_location(&inner.to_string())
            ),
        )
        .label("budget exceeded here"),
        E::Unexpected { expected, .. } => {
            let want = match *expected {
                "sequence start" => "a list",
                "mapping start" => "a mapping",
                "string scalar" => "text",
                other => other,
            };
            d(Code::WrongType, format!("wrong type: expected {want}")).label("wrong type")
        }
        E::InvalidScalar { ty, .. } => {
            d(Code::WrongType, format!("wrong type: expected {}", type_name(ty))).label("wrong type")
        }
        other => {
            let msg = strip_location(&other.to_string());
            let code = if msg.starts_with("invalid type") { Code::WrongType } else { Code::Syntax };
            d(code, msg).label("here")
        }
    }
}

/// The JSON Schema of the game file format (pretty-printed JSON).
pub fn schema_json() -> String {
    let mut schema = schemars::schema_for!(model::GameFile);
    let obj = schema.ensure_object();
    let defs = obj
        .entry("$defs")
        .or_insert_with(|| serde_json::Value::Object(Default::default()));
    if let (Some(defs), serde_json::Value::Object(extra)) =
        (defs.as_object_mut(), model_extra_defs())
    {
        for (k, v) in extra {
            defs.insert(k, v);
        }
    }
    let mut s = serde_json::to_string_pretty(&schema).unwrap_or_default();
    s.push('\n');
    s
}

fn model_extra_defs() -> serde_json::Value {
    model::extra_defs()
}
