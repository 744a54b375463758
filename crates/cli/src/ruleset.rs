//! Modifiers in the command line's rule set (`--modifiers`, issue 12):
//! reading the list, building the modifier session for `perft` and
//! `moves`, and counting the session's move tree.
//!
//! The list is `ENTRY[,ENTRY...]`, each entry a library id with optional
//! parameters (`ID[:KEY=VALUE[;KEY=VALUE...]]`, as in a creation request)
//! or a descriptor file (`FILE.json`, read and given inline).
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

/// Whether a `--modifiers` entry names a descriptor file.
pub fn is_file(entry: &str) -> bool {
    let lower = entry.to_ascii_lowercase();
    lower.ends_with(".json") || entry.contains('/') || entry.contains('\\')
}

/// Reads a descriptor file as an inline request entry. `shown` is the
/// option or field named in errors; `dir` is where a relative path is
/// resolved (the request's folder for `play`).
///
/// # Errors
/// [`CliError::Input`] naming the file when it cannot be read or is not
/// JSON.
pub fn descriptor_file(entry: &str, dir: Option<&Path>, shown: &str) -> Result<Value, CliError> {
    let path = match dir {
        Some(d) if Path::new(entry).is_relative() => d.join(entry),
        _ => Path::new(entry).to_path_buf(),
    };
    let text = read_text_limited(&path, 1 << 20).map_err(|e| {
        CliError::input(format!(
            "{shown}: cannot read the descriptor file {entry}: {e}"
        ))
    })?;
    houserules_modifiers::validate::strict_json(&text)
        .map_err(|e| CliError::input(format!("{shown}: {entry} is not JSON: {e}")))
}

/// The creation-request entries of a `--modifiers` list.
///
/// # Errors
/// [`CliError::Input`] for an empty entry or an unreadable file.
pub fn modifier_entries(list: &str) -> Result<Vec<Value>, CliError> {
    let mut out = Vec::new();
    for (i, entry) in list.split(',').map(str::trim).enumerate() {
        if entry.is_empty() {
            return Err(CliError::input(format!(
                "--modifiers: entry {} is empty (write ID[:KEY=VALUE;...] or FILE.json, separated by commas)",
                i + 1
            )));
        }
        out.push(if is_file(entry) {
            descriptor_file(entry, None, "--modifiers")?
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
        modifiers: modifier_entries(list)?,
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
