//! `houserules modifiers`, `houserules play` and the JSON branch of
//! `houserules validate`: the custom rule modifiers (issue 5).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use houserules_modifiers::library::{self, EntryKind};
use houserules_session::pgn_record::Recorder;
use houserules_session::{CreateRequest, Input, InputReport, Session};
use serde_json::{json, Value};

use crate::error::{read_text_limited, CliError, Outcome};
use crate::pgn_out::{self, RuleTags};

/// Options of `houserules modifiers`.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  houserules modifiers
  houserules modifiers --json

Lists the shipped modifier library: id, name, file under
crates/modifiers/library/, kind (parity, template, catalog), the
thressgame catalog rule it implements and its description. The text
columns are id, kind, name, file and catalog rule (`-` for none), with
the description indented on the next line; JSON entries have the keys
id, name, file, kind, catalog and description.")]
pub struct ModifiersArgs {
    /// Print JSON instead of text
    #[arg(long)]
    json: bool,
}

/// Runs `houserules modifiers`.
///
/// # Errors
/// [`CliError::Output`] when the output cannot be written.
pub fn list(args: &ModifiersArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    if args.json {
        let v: Vec<Value> = library::list()
            .iter()
            .map(|e| {
                json!({
                    "id": e.id, "name": e.name, "file": e.file, "kind": e.kind,
                    "catalog": e.catalog.map(|c| json!({"number": c.number, "id": c.id})),
                    "description": description(e.id),
                })
            })
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        )?;
    } else {
        let list = library::list();
        // The file column is as wide as its longest name.
        let file_width = list.iter().map(|e| e.file.len()).max().unwrap_or(0);
        for e in list {
            let kind = match e.kind {
                EntryKind::Parity => "parity",
                EntryKind::Template => "template",
                EntryKind::Catalog => "catalog",
            };
            let cat = e
                .catalog
                .map(|c| format!("#{} {}", c.number, c.id))
                .unwrap_or_else(|| "-".into());
            writeln!(
                out,
                "{:<32} {:<9} {:<34} {:<file_width$} {}",
                e.id, kind, e.name, e.file, cat
            )?;
            writeln!(out, "  {}", description(e.id))?;
        }
    }
    Ok(Outcome::Success)
}

/// A library descriptor's `description` (every shipped one validates and
/// has one; `library.rs` tests both).
fn description(id: &str) -> String {
    library::get(id).map(|d| d.description).unwrap_or_default()
}

/// Validates a JSON modifier descriptor: `ok: ID (NAME)`, or each finding
/// (`code at path: message`) on stderr and exit status 1; `--json` prints
/// `{"ok", "findings"}` on stdout.
///
/// # Errors
/// [`CliError::Input`] when the file cannot be read (without `--json`).
pub fn validate(
    path: &Path,
    as_json: bool,
    board: Option<houserules_modifiers::runtime::Geom>,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let shown = path.display().to_string();
    let text = match read_text_limited(path, 1 << 20) {
        Ok(text) => text,
        Err(e) => return crate::validate_cmd::unreadable(&shown, &e, as_json, true, out),
    };
    validate_text(&shown, &text, as_json, board, out)
}

/// Validates the text of a JSON modifier descriptor read from `shown`, as
/// [`validate`] does.
///
/// # Errors
/// [`CliError::Output`] when the report cannot be written.
pub fn validate_text(
    shown: &str,
    text: &str,
    as_json: bool,
    board: Option<houserules_modifiers::runtime::Geom>,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    // A descriptor valid on 8×8 is checked against `--board` too.
    let checked = houserules_modifiers::validate(text).and_then(|d| {
        let on_board = match (board, houserules_modifiers::validate::strict_json(text)) {
            (Some(g), Ok(v)) => houserules_modifiers::validate::board_findings(&v, g),
            _ => Vec::new(),
        };
        if on_board.is_empty() {
            Ok(d)
        } else {
            Err(on_board)
        }
    });
    match checked {
        Ok(d) => {
            if as_json {
                writeln!(
                    out,
                    "{}",
                    json!({"ok": true, "id": d.id, "name": d.name, "findings": []})
                )?;
            } else {
                writeln!(out, "ok: {} ({})", d.id, d.name)?;
            }
            Ok(Outcome::Success)
        }
        Err(findings) => {
            if as_json {
                writeln!(out, "{}", json!({"ok": false, "findings": findings}))?;
            } else {
                for f in &findings {
                    reportln!("{shown}: {f}");
                }
                let n = findings.len();
                reportln!("{shown}: {n} problem{}", if n == 1 { "" } else { "s" });
            }
            Ok(Outcome::Failed)
        }
    }
}

/// Reads one input line. A JSON syntax error gives its column apart
/// (serde_json counts lines within the one line it reads, so its "line 1"
/// would contradict the file's line number), with the message without
/// serde_json's "at line L column C".
fn parse_input(line: &str) -> Result<Input, (Option<usize>, String)> {
    if let Err(e) = houserules_modifiers::validate::strict_json(line) {
        if e.line() > 0 {
            let msg = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let msg = msg.strip_suffix(&suffix).unwrap_or(&msg).to_string();
            return Err((Some(e.column()), msg));
        }
    }
    Input::parse(line).map_err(|e| (None, e))
}

/// Options of `houserules play`.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  houserules play --create request.json --inputs inputs.jsonl --json
  houserules play --modifiers minefield,my-rule.json --inputs inputs.jsonl

  With request.json:  {\"modifiers\": [\"anti_camping\"], \"seed\": 7}
  and inputs.jsonl:   {\"choice\": \"b8\"}
                      {\"move\": \"e2e4\"}
  the rule first asks White to pick an enemy piece (b8), then e2e4 is
  played.
  houserules play --create request.json --inputs inputs.jsonl --pgn game.pgn
  writes the moves played as PGN as well.

The creation request is {\"fen\"?, \"state\"?, \"layout\"?, \"presets\"?,
\"modifiers\"?, \"seed\"?, \"draft\"?, \"choiceTimeout\"?, \"coinFlips\"?}
(see docs/modifiers.md); \"state\" is a full JSON position state as
`houserules state` writes it (docs/state-format.md) and carries the
presets, so it excludes fen, layout and presets. A modifier entry that
names a `.json` file (\"modifiers\": [\"my-rule.json\"]) is read from the
request's folder; --modifiers adds entries (ids or files).

The text output shows the board, the FEN, the status, the pending choice
with its options, the active modifiers (`none` when none), the markers
with their squares, the last events and the number of legal moves. Each input line is {\"move\": UCI or SAN} or {\"choice\":
VALUE, \"player\"?: \"white\"|\"black\", \"auto\"?: \"timeout\"}. A refused
input is reported with its line number and reason, and the game stays as
it was.

Size limits: the request is at most 1 MiB, the inputs file at most 16 MiB.

Exit status: 0 when every input was accepted, 1 when one was refused, 2
when the request or an input line cannot be read.")]
pub struct PlayArgs {
    /// The creation request (JSON) [default: FIDE chess, no rules]
    #[arg(long, value_name = "REQUEST.json")]
    create: Option<PathBuf>,
    /// Modifiers added to the request's: `ID[:KEY=VALUE;...]` or
    /// `FILE.json[:KEY=VALUE;...]` descriptors, separated by commas
    #[arg(long, value_name = "MODIFIERS")]
    modifiers: Option<String>,
    /// The inputs, one JSON object per line
    #[arg(long, value_name = "INPUTS.jsonl")]
    inputs: Option<PathBuf>,
    /// Print the resulting state as JSON
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    fen_style: crate::position::FenStyleArg,
    /// Also write the moves played as PGN to this file (tags: `Variant`
    /// for a game other than FIDE chess, `HouseRules` the presets in
    /// --rules syntax, `Modifiers` the library modifiers in --modifiers
    /// syntax, `Seed` the request's seed when it is not 0, `SetUp` and
    /// `FEN` when the game does not start from its own start position)
    #[arg(long, value_name = "FILE.pgn")]
    pgn: Option<PathBuf>,
}

/// How many of the last log entries the text output shows.
const LAST_EVENTS: usize = 8;

/// The board as text, rank by rank from the top, `.` for an empty square,
/// with file letters and rank numbers (any board size).
fn write_board(game: &houserules_engine::Game, out: &mut dyn Write) -> Result<(), CliError> {
    let def = game.variant().definition();
    let (w, h) = (def.width, def.height);
    for r in (0..h).rev() {
        let mut line = format!("{:>2} ", r + 1);
        for f in 0..w {
            let c = game.piece_at(r * w + f).map_or('.', |p| {
                let sym = def.pieces[p.kind.index()].symbol;
                if p.color == houserules_engine::Color::White {
                    sym
                } else {
                    sym.to_ascii_lowercase()
                }
            });
            line.push(c);
            line.push(' ');
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    let files: Vec<String> = (0..w).map(|f| ((b'a' + f) as char).to_string()).collect();
    writeln!(out, "   {}", files.join(" "))?;
    Ok(())
}

/// Runs `houserules play`.
///
/// # Errors
/// [`CliError::Input`] for an unreadable or invalid request or input line.
pub fn play(args: &PlayArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let (shown, mut req) = match &args.create {
        Some(path) => {
            let shown = path.display().to_string();
            let text = read_text_limited(path, 1 << 20)
                .map_err(|e| CliError::input(format!("cannot read {shown}: {e}")))?;
            let mut req = CreateRequest::parse(&text)
                .map_err(|e| CliError::input(format!("{shown}: not a creation request: {e}")))?;
            // `"modifiers": ["my-rule.json"]`: a descriptor file, read
            // from the request's folder.
            let dir = path.parent();
            for (i, m) in req.modifiers.iter_mut().enumerate() {
                if let Some(entry) = m.as_str().filter(|e| crate::ruleset::is_file(e)) {
                    let at = format!("{shown}: $.modifiers[{i}]");
                    let path = format!("$.modifiers[{i}]");
                    *m = crate::ruleset::descriptor_file(entry, dir, &at, &shown, &path)?;
                }
            }
            (shown, req)
        }
        None => ("the request".to_string(), CreateRequest::default()),
    };
    if let Some(list) = &args.modifiers {
        req.modifiers
            .extend(crate::ruleset::modifier_entries(list, req.modifiers.len())?);
    }
    let tags = args.pgn.as_ref().map(|_| pgn_rule_tags(&req));
    let before_rules = houserules_session::pgn_record::start_before_rules(&req);
    let mut s = Session::create(req).map_err(|e| CliError::input(format!("{shown}: {e}")))?;
    // The PGN starts before the modifiers' activation, which a reader
    // replays from the tags (trial 22).
    let start = before_rules.unwrap_or_else(|| s.game().clone());
    // The PGN's movetext, written as the inputs are played (choices and
    // unchanged boards as `[%hr …]` comments and `--`, issue 26).
    let mut recorder = Recorder::starting(start.turn());
    let mut report = Vec::new();
    let mut refused = false;
    if let Some(p) = &args.inputs {
        let shown = p.display().to_string();
        let text = read_text_limited(p, 16 << 20)
            .map_err(|e| CliError::input(format!("cannot read {shown}: {e}")))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let input = parse_input(line).map_err(|(column, e)| {
                let at = column.map(|c| format!(":{c}")).unwrap_or_default();
                CliError::input(format!("{shown}:{}{at}: not an input: {e}", i + 1))
            })?;
            let submitted = if tags.is_some() {
                recorder.submit(&mut s, input)
            } else {
                s.submit(input)
            };
            match submitted {
                Ok(()) => {
                    report.push(json!({"line": i + 1, "ok": true}));
                }
                Err(r) => {
                    refused = true;
                    report.push(
                        json!({"line": i + 1, "ok": false, "code": r.code, "reason": r.message}),
                    );
                }
            }
        }
    }
    if let (Some(path), Some(tags)) = (&args.pgn, &tags) {
        // A game other than chess is named by its `Variant` (`pgn check`
        // replays the moves on it): a shipped game by the name other
        // programs read, a YAML game by its own id (its file is not in
        // the PGN: `pgn check --game FILE.yaml` replays it, and the tag
        // tells the reader which game it was). A composed definition is
        // named `GAME+PRESETS`; the presets are the `HouseRules` tag.
        // Antichess is `Variant "Antichess"` without `HouseRules`, as
        // lichess writes it (trial 18).
        let (variant, house_rules) = houserules_pgn::export::variant_and_rules(
            &start.variant().definition().id,
            start.is_chess960(),
            tags.house_rules.as_deref().unwrap_or(""),
        );
        let tags = RuleTags {
            variant,
            house_rules,
            ..tags.clone()
        };
        // The rules' own start position needs no FEN tag, on any game
        // (a Gardner game from Gardner's setup has none).
        let own_start = !start.is_chess960()
            && houserules_engine::Game::from_fen(start.variant().clone(), "startpos")
                .is_ok_and(|g| g.fen() == start.fen());
        let status = s.status();
        let result = match (s.is_over(), status["winner"].as_str()) {
            (false, _) => "*",
            (true, Some("white")) => "1-0",
            (true, Some("black")) => "0-1",
            (true, _) => "1/2-1/2",
        };
        let movetext = std::mem::take(&mut recorder).finish(&s);
        let mut pgn = pgn_out::build(&tags, &start.fen(), own_start, &movetext.sans(), result);
        houserules_pgn::export::set_comments(
            &mut pgn,
            movetext.before,
            movetext.plies.into_iter().map(|p| p.comments),
        );
        pgn_out::write(path, &pgn)?;
    }
    // The printed shape is docs/session-output.schema.json.
    let mut output = s.output();
    output.inputs = Some(
        report
            .iter()
            .map(|r| InputReport {
                line: r["line"].as_u64().unwrap_or(0) as usize,
                ok: r["ok"] == true,
                code: r["code"].as_str().map(String::from),
                reason: r["reason"].as_str().map(String::from),
            })
            .collect(),
    );
    let mut state = serde_json::to_value(&output).unwrap_or_default();
    if args.fen_style.fen_style == crate::position::FenStyle::Shredder {
        state["fen"] = json!(s.game().shredder_fen());
    }
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&state).unwrap_or_default()
        )?;
    } else {
        for r in &report {
            if r["ok"] == false {
                writeln!(
                    out,
                    "line {}: refused ({}): {}",
                    r["line"],
                    r["code"].as_str().unwrap_or(""),
                    r["reason"].as_str().unwrap_or("")
                )?;
            }
        }
        write_board(s.game(), out)?;
        writeln!(out, "fen: {}", state["fen"].as_str().unwrap_or(""))?;
        let st = &state["status"];
        let name = st["status"].as_str().unwrap_or("unknown");
        // As `moves` writes a result: `checkmate (black wins)`,
        // `stalemate (draw)`, with a rule's reason first when it has one.
        let mut parts: Vec<String> = st["reason"]
            .as_str()
            .map(str::to_string)
            .into_iter()
            .collect();
        match st["winner"].as_str() {
            Some(w) => parts.push(format!("{w} wins")),
            None if st.get("winner").is_some() => parts.push("draw".into()),
            None => {}
        }
        let line = if parts.is_empty() {
            name.to_string()
        } else {
            format!("{name} ({})", parts.join(", "))
        };
        writeln!(out, "status: {line}")?;
        if !state["pendingChoice"].is_null() {
            let pc = &state["pendingChoice"];
            let options: Vec<String> = pc["prompt"]["options"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|o| o.as_str().map_or_else(|| o.to_string(), str::to_string))
                .collect();
            writeln!(
                out,
                "pending choice: {} for {} ({}), options: {}",
                pc["kind"].as_str().unwrap_or(""),
                pc["forPlayer"].as_str().unwrap_or(""),
                pc["descriptorId"].as_str().unwrap_or(""),
                options.join(" ")
            )?;
        }
        let active: Vec<&str> = state["activeModifiers"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["id"].as_str())
            .collect();
        let active = if active.is_empty() {
            "none".to_string()
        } else {
            active.join(", ")
        };
        writeln!(out, "active modifiers: {active}")?;
        let markers: Vec<String> = state["markers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| {
                format!(
                    "{} {}",
                    m["kind"].as_str().unwrap_or("?"),
                    m["square"].as_str().unwrap_or("?")
                )
            })
            .collect();
        let markers = if markers.is_empty() {
            "none".to_string()
        } else {
            markers.join(", ")
        };
        writeln!(out, "markers: {markers}")?;
        let log = state["log"].as_array().map_or(&[][..], Vec::as_slice);
        if !log.is_empty() {
            writeln!(out, "last events:")?;
            for e in &log[log.len().saturating_sub(LAST_EVENTS)..] {
                writeln!(
                    out,
                    "  {} {}",
                    e["event"].as_str().unwrap_or("?"),
                    e["detail"]
                )?;
            }
        }
        writeln!(
            out,
            "legal moves: {}",
            state["legalMoves"].as_array().map_or(0, Vec::len)
        )?;
    }
    Ok(Outcome::failed_if(refused))
}

/// The PGN rule tags of a creation request: `HouseRules` from its presets
/// (or its state's rules), `Modifiers` from its library modifiers
/// (`ID[:K=V;...]`, joined by commas). An inline descriptor has no
/// library id to name: it is left out, with a warning.
fn pgn_rule_tags(req: &CreateRequest) -> RuleTags {
    let presets = match &req.state {
        Some(state) => state.rules.clone(),
        // In canonical --rules form, every parameter written, as `state`
        // writes it.
        None => {
            let joined = req.presets.join(",");
            houserules_presets::RuleSet::parse(&joined).map_or(joined, |r| r.to_cli())
        }
    };
    let mut modifiers = Vec::new();
    for m in &req.modifiers {
        match m.as_str() {
            Some(id) => modifiers.push(id.to_string()),
            None => reportln!(
                "warning: --pgn: the inline modifier {} is not written in the Modifiers tag \
                 (only library modifiers have an id to name)",
                m.get("id").and_then(Value::as_str).map_or_else(
                    || "without an id".to_string(),
                    |id| format!("`{}`", houserules_engine::echo::echo(id))
                )
            ),
        }
    }
    // The seed only matters to modifiers (rulings F4); the session has
    // already refused a seed that is not a u32.
    let seed = req
        .seed
        .as_ref()
        .and_then(Value::as_u64)
        .and_then(|s| u32::try_from(s).ok())
        .filter(|_| !req.modifiers.is_empty());
    RuleTags {
        variant: None,
        house_rules: Some(presets).filter(|p| !p.is_empty()),
        modifiers: Some(modifiers.join(",")).filter(|m| !m.is_empty()),
        seed,
    }
}
