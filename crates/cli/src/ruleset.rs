//! Modifiers in the command line's rule set (`--modifiers`, issue 12):
//! reading the list, building the modifier session for `perft` and
//! `moves`, and counting the session's move tree.
//!
//! The list is `ENTRY[,ENTRY...]`, each entry a library id with optional
//! parameters (`ID[:KEY=VALUE[;KEY=VALUE...]]`, as in a creation request)
//! or a descriptor file (`FILE.json`, read and given inline; with
//! parameters, `FILE.json:KEY=VALUE;…`, an entry with options, checked as
//! a library id's parameters are).
//!
//! Counting runs the session's dry-mode legality at every node and plays
//! each move through the session (its after-move dispatch), so markers,
//! spawns and counters change the tree below. Two things are not
//! enumerated, and the count says so: a move after which a player must
//! choose (a piece, a square, a coin) ends its branch there, counted as
//! one leaf; and random draws are taken from the session's seeded stream
//! (seed 0 unless the creation request says otherwise), so the count is
//! that of one draw per node, not of every outcome.

use std::path::Path;

use houserules_session::{CreateRequest, Input, Session};
use serde_json::Value;

use crate::error::{read_text_limited, CliError};
use crate::position::{load_game, VariantArgs};

/// Whether a `--modifiers` entry names a descriptor file (with or
/// without parameters: `FILE.json:KEY=VALUE;…`).
pub fn is_file(entry: &str) -> bool {
    let lower = entry.to_ascii_lowercase();
    lower.ends_with(".json")
        || lower.contains(".json:")
        || entry.contains('/')
        || entry.contains('\\')
}

/// A descriptor-file entry split into the file and its parameter text:
/// `rule.json:n=3;lifetime=4` is (`rule.json`, `Some("n=3;lifetime=4")`).
/// The parameters start after the first `.json:`.
fn split_file_entry(entry: &str) -> (&str, Option<&str>) {
    match entry.to_ascii_lowercase().find(".json:") {
        // ASCII lower-casing keeps byte offsets.
        Some(i) => (&entry[..i + 5], Some(&entry[i + 6..])),
        None => (entry, None),
    }
}

/// A refusal of an entry's parameter list: the code and the message, as
/// the session words them for a library id's `ID:K=V;…`.
type ParamError = (&'static str, String);

/// Reads `K=V;…` of the entry `entry` (file `file`) into a creation-request
/// entry with options around `descriptor` (issue 25 item 4): `lifetime`
/// and `chooser` become the entry's options, other keys its `params`, all
/// as text, so the session checks them as it checks `ID:K=V;…` (unknown
/// parameter, bad value, bad lifetime or chooser). An empty list, an item
/// that is not `KEY=VALUE` and a key given twice are refused here with
/// the session's codes and wording for library ids.
fn with_params(
    descriptor: Value,
    entry: &str,
    file: &str,
    rest: &str,
) -> Result<Value, ParamError> {
    use houserules_engine::echo::echo;
    use houserules_session::codes;
    if rest.is_empty() {
        return Err((
            codes::BAD_MODIFIER,
            format!(
                "`{}` has an empty parameter list: write `{}`, or `{}:KEY=VALUE;…`",
                echo(entry),
                echo(file),
                echo(file)
            ),
        ));
    }
    let mut options = serde_json::Map::new();
    let mut params = serde_json::Map::new();
    let mut seen = std::collections::BTreeSet::new();
    for kv in rest.split(';').filter(|x| !x.is_empty()) {
        let (k, v) = kv.split_once('=').ok_or_else(|| {
            (
                codes::BAD_MODIFIER,
                format!("`{}` is not KEY=VALUE", echo(kv)),
            )
        })?;
        if !seen.insert(k) {
            return Err((
                codes::DUPLICATE_PARAMETER,
                format!(
                    "parameter `{}` is given twice in `{}`",
                    echo(k),
                    echo(entry)
                ),
            ));
        }
        let target = if k == "lifetime" || k == "chooser" {
            &mut options
        } else {
            &mut params
        };
        target.insert(k.to_string(), Value::String(v.to_string()));
    }
    options.insert("descriptor".into(), descriptor);
    if !params.is_empty() {
        options.insert("params".into(), Value::Object(params));
    }
    Ok(Value::Object(options))
}

/// Reads a descriptor file as an inline request entry; `FILE.json:K=V;…`
/// gives it parameters (and `lifetime`, `chooser`) as a library id takes
/// them, becoming an entry with options. `shown` is the option or field
/// named in errors of the file; `dir` is where a relative path is
/// resolved (the request's folder for `play`); errors of the parameter
/// list read `{list}: {code}: {at}: …`, `at` being the entry's JSON path in
/// the creation request (`$.modifiers[0]`), as the session's refusal of a
/// library id's reads after the option or file it came from (`list`).
///
/// # Errors
/// [`CliError::Input`] naming the file when it cannot be read or is not
/// JSON, or its parameter list when it is malformed.
pub fn descriptor_file(
    entry: &str,
    dir: Option<&Path>,
    shown: &str,
    list: &str,
    at: &str,
) -> Result<Value, CliError> {
    let (file, params) = split_file_entry(entry);
    let path = match dir {
        Some(d) if Path::new(file).is_relative() => d.join(file),
        _ => Path::new(file).to_path_buf(),
    };
    let text = read_text_limited(&path, 1 << 20).map_err(|e| {
        CliError::input(format!(
            "{shown}: cannot read the descriptor file {file}: {e}"
        ))
    })?;
    let descriptor = houserules_modifiers::validate::strict_json(&text)
        .map_err(|e| CliError::input(format!("{shown}: {file} is not JSON: {e}")))?;
    match params {
        None => Ok(descriptor),
        Some(rest) => with_params(descriptor, entry, file, rest)
            .map_err(|(code, m)| CliError::input(format!("{list}: {code}: {at}: {m}"))),
    }
}

/// The creation-request entries of a `--modifiers` list; `first` is the
/// index in the request's `modifiers` of the list's first entry (`play`
/// appends the list to its request's), for the JSON paths of errors.
///
/// # Errors
/// [`CliError::Input`] for an empty entry, an unreadable file or a
/// malformed parameter list of a file.
pub fn modifier_entries(list: &str, first: usize) -> Result<Vec<Value>, CliError> {
    let mut out = Vec::new();
    for (i, entry) in list.split(',').map(str::trim).enumerate() {
        if entry.is_empty() {
            return Err(CliError::input(format!(
                "--modifiers: entry {} is empty (write ID[:KEY=VALUE;...] or FILE.json[:KEY=VALUE;...], separated by commas)",
                i + 1
            )));
        }
        out.push(if is_file(entry) {
            let at = format!("$.modifiers[{}]", first + i);
            descriptor_file(
                entry,
                None,
                "--modifiers",
                &format!("--modifiers {list}"),
                &at,
            )?
        } else {
            Value::String(entry.to_string())
        });
    }
    Ok(out)
}

/// The modifier session of the rule set `rules` at `fen` (`None`: the
/// start position), with the modifiers `list`. A `--game` is passed to the
/// session as its `game`: a shipped id as is, a YAML file as its text.
///
/// # Errors
/// [`CliError::Input`]: a bad list, an unreadable game file, or the
/// session's refusal (for example `descriptor.board-size` for a modifier
/// naming a square the game's board lacks).
pub fn session(rules: &VariantArgs, fen: Option<&str>, list: &str) -> Result<Session, CliError> {
    Session::create(request(rules, fen, list)?)
        .map_err(|e| CliError::input(format!("--modifiers {list}: {e}")))
}

/// The creation request [`session`] uses (seed 0), for callers that set
/// more of it (`match --modifiers` gives each game its own seed).
///
/// # Errors
/// As [`session`], before the session is created.
pub fn request(
    rules: &VariantArgs,
    fen: Option<&str>,
    list: &str,
) -> Result<CreateRequest, CliError> {
    let game = match &rules.game {
        None => None,
        Some(g) if houserules_definitions::builtin_source(g).is_some() => Some(g.clone()),
        Some(g) => {
            // Loading reports a missing file or a bad definition with the
            // command line's own wording before the text is handed over.
            load_game(g)?;
            Some(read_text_limited(Path::new(g), 1 << 20).map_err(|e| {
                CliError::input(format!("--game {g}: cannot read the game file: {e}"))
            })?)
        }
    };
    let request = CreateRequest {
        fen: fen.filter(|f| f.trim() != "startpos").map(str::to_string),
        layout: rules.layout.clone(),
        game,
        presets: rules.rules.iter().cloned().collect(),
        // An empty list is no modifiers (a draft game's replay, whose
        // rules come from its draft).
        modifiers: if list.trim().is_empty() {
            Vec::new()
        } else {
            modifier_entries(list, 0)?
        },
        ..CreateRequest::default()
    };
    Ok(request)
}

/// A perft count of a session's move tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Leaf nodes.
    pub nodes: u64,
    /// Moves after which a choice was pending (each ended its branch).
    pub choices: u64,
    /// Moves that took random draws from the seeded stream.
    pub random: u64,
}

impl std::ops::AddAssign for Count {
    fn add_assign(&mut self, o: Count) {
        self.nodes += o.nodes;
        self.choices += o.choices;
        self.random += o.random;
    }
}

/// The session after `uci`, or `None` when the session refuses it (which
/// a move from its own legal list should never be).
pub fn after(s: &Session, uci: &str) -> Option<Session> {
    let mut c = s.clone();
    c.submit(Input::Move { mv: uci.into() }).ok()?;
    Some(c)
}

/// Perft of the session's move tree to `depth` (see the module
/// documentation for choices and random draws). With `bulk`, the last
/// ply is counted from the legal-move list without playing it.
pub fn perft(s: &Session, depth: u32, bulk: bool) -> Count {
    let mut count = Count::default();
    if depth == 0 {
        count.nodes = 1;
        return count;
    }
    let moves = s.legal_moves_uci();
    if depth == 1 && bulk {
        count.nodes = moves.len() as u64;
        return count;
    }
    for m in moves {
        let Some(c) = after(s, &m) else {
            continue;
        };
        count += below(s, &c, depth - 1, bulk);
    }
    count
}

/// The count below the move that led from `before` to `s`.
pub fn below(before: &Session, s: &Session, depth: u32, bulk: bool) -> Count {
    let random = u64::from(s.state().rng != before.state().rng);
    if s.pending_choice().is_some() {
        return Count {
            nodes: 1,
            choices: 1,
            random,
        };
    }
    let mut c = perft(s, depth, bulk);
    c.random += random;
    c
}

/// The notes printed under a count of the session `root`'s tree: what
/// was not enumerated.
pub fn notes(root: &Session, c: &Count) -> Vec<String> {
    let mut out = Vec::new();
    if root.pending_choice().is_some() {
        out.push(
            "the session awaits a choice before the first move (a modifier asked for one when attached): no move to count"
                .into(),
        );
    }
    let drawn = root.output().rng_stream;
    if drawn > 0 {
        out.push(format!(
            "attaching the modifiers drew {drawn} value(s) from the seeded random stream (seed 0); the count is for that draw"
        ));
    }
    if c.choices > 0 {
        out.push(format!(
            "{} move(s) ended in a pending choice; each was counted as one leaf (choices are not enumerated)",
            c.choices
        ));
    }
    if c.random > 0 {
        out.push(format!(
            "{} move(s) drew from the seeded random stream (seed 0); the count follows those draws, not every outcome",
            c.random
        ));
    }
    out
}
