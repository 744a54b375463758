//! A stored game as PGN, without its game task: the game page's
//! `GET /api/games/{id}/pgn` ([`crate::game`]) and `houserules export`
//! both write through [`write_pgn`].

use houserules_session::pgn_record::Recorder;
use houserules_session::{CreateRequest, Input, Session};
use serde_json::Value;

use crate::game::{pgn_date, Meta, Outcome};
use crate::store::Entry;

/// What a game's PGN is written from: its creation request, its log and
/// its result.
#[derive(Debug, Clone)]
pub struct PgnSource<'a> {
    /// The game id (the `Site` tag).
    pub id: &'a str,
    /// The session's creation request.
    pub request: &'a CreateRequest,
    /// The players' names.
    pub meta: &'a Meta,
    /// Creation time in ms since the Unix epoch (the `Date` tag, UTC).
    pub created_ms: i64,
    /// The log, in `seq` order.
    pub entries: &'a [Entry],
    /// The result, when finished (`*` otherwise).
    pub outcome: Option<&'a Outcome>,
}

/// The PGN of a game (blocking: rules work; run it on the blocking pool
/// in the server). The tags are the Seven Tag Roster with the result and
/// its reason, and the rule set: `Variant` (the game's Fairy-Stockfish
/// name where it has one, `Chess960` for a Chess960 game, absent for FIDE
/// chess), `HouseRules` (the presets in `--rules` syntax), `Modifiers`
/// (the library modifiers; an inline descriptor has no id to name and is
/// left out), `SetUp`/`FEN` when the game did not start at its rules' own
/// start position (always for Chess960). Answers to choices, random
/// outcomes, turns that left the board unchanged (`--`) and skipped turns
/// are written as `[%hr …]` comments
/// ([`houserules_session::pgn_record`]), which `houserules pgn check`
/// replays.
pub fn write_pgn(src: &PgnSource<'_>) -> String {
    let request = src.request;
    // A move taken back is not in the game (issue 26).
    let inputs: Vec<Input> = crate::game::takeback::effective_inputs(src.entries);
    let result = src.outcome.map_or("*".to_string(), |o| o.result.clone());
    let mut game_file: Option<String> = None;
    let written = (|| {
        let presets = match &request.state {
            Some(state) => state.rules.clone(),
            None => {
                let joined = request.presets.join(",");
                houserules_presets::RuleSet::parse(&joined).map_or(joined, |r| r.to_cli())
            }
        };
        let modifiers: Vec<&str> = request.modifiers.iter().filter_map(Value::as_str).collect();
        let modifiers = modifiers.join(",");
        let mut s = Session::create(request.clone()).ok()?;
        // Before the modifiers' activation, which a reader replays from
        // the tags (trial 22: a coin that skipped White at creation).
        let start = houserules_session::pgn_record::start_before_rules(request)
            .unwrap_or_else(|| s.game().clone());
        let fen = start.fen();
        let own_start = !start.is_chess960()
            && houserules_engine::Game::from_fen(start.variant().clone(), "startpos")
                .is_ok_and(|g| g.fen() == fen);
        let mut tags = houserules_pgn::export::RuleTags::of_game(&start, &presets);
        tags.modifiers = Some(modifiers).filter(|m| !m.is_empty());
        // The seed replays the modifiers' random outcomes (rulings F4).
        tags.seed = request
            .seed
            .as_ref()
            .and_then(Value::as_u64)
            .and_then(|s| u32::try_from(s).ok())
            .filter(|_| tags.modifiers.is_some() || request.draft);
        // Choices, cancelled moves and skipped turns as `[%hr …]`
        // comments and `--` (issue 26 item 8).
        let mut recorder = Recorder::starting(start.turn());
        for i in inputs {
            let _ = recorder.submit(&mut s, i);
        }
        let movetext = recorder.finish(&s);
        let mut game = houserules_pgn::export::rule_set_game(
            &tags,
            &fen,
            own_start,
            &movetext.sans(),
            &result,
        );
        // A YAML game (the definition's text in the request) is named in
        // the PGN by its own id only, which no reader knows: say where its
        // rules are and how to replay it (trial 20).
        let mut before = movetext.before;
        let yaml = request
            .game
            .as_deref()
            .is_some_and(|g| g.contains('\n') || g.contains(':'));
        if yaml {
            let def = start.variant().definition();
            game_file = Some(format!("{}.yaml", def.id));
            before.insert(
                0,
                yaml_note(src.id, &def.id, &def.name).replace(['{', '}'], ""),
            );
        }
        houserules_pgn::export::set_comments(
            &mut game,
            before,
            movetext.plies.into_iter().map(|p| p.comments),
        );
        Some(game)
    })();
    let mut game = written.unwrap_or_default();
    game.set_tag("Event", "houserules game");
    game.set_tag("Site", format!("houserules game {}", src.id));
    game.set_tag("Date", pgn_date(src.created_ms));
    for (name, player) in [("White", &src.meta.white), ("Black", &src.meta.black)] {
        if let Some(p) = player.as_deref().map(pgn_player).filter(|p| !p.is_empty()) {
            game.set_tag(name, p);
        }
    }
    game.set_tag("TimeControl", time_control(src.meta.clock.as_ref()));
    if let Some(f) = game_file {
        game.set_tag(GAME_FILE_TAG, f);
    }
    if request.draft {
        // Trial 20: a draft game's PGN said nothing of the draft, so
        // `pgn check` replayed it without the drafted rules.
        game.set_tag(DRAFT_TAG, "1");
    }
    if let Some(o) = src.outcome {
        // The standard's word (PGN standard §9.8.1; trial 22: `checkmate`
        // is none of its values), and the reason itself beside it.
        game.set_tag("Termination", termination_word(&o.reason));
        game.set_tag(REASON_TAG, o.reason.as_str());
    }
    houserules_pgn::export_tags(&mut game);
    houserules_pgn::write_pgn(&game)
}

/// The tag that names why a game ended in the server's words
/// (`checkmate`, `timeout`, `abandonment`, a rule's reason such as
/// `first-blood`): the `Termination` tag may hold only the PGN standard's
/// words.
pub const REASON_TAG: &str = "TerminationReason";

/// The PGN standard's `Termination` word (§9.8.1) for a server outcome's
/// reason: `time forfeit` for a flag, `abandoned` for a player who left
/// (a claimed victory, a disconnection during a choice), `normal` for every
/// end by the rules or the players (mate, a draw, resignation, a rule's
/// win).
pub fn termination_word(reason: &str) -> &'static str {
    match reason {
        "timeout" | "timeout-vs-insufficient-material" => "time forfeit",
        "abandonment" | "disconnect-during-choice" => "abandoned",
        _ => "normal",
    }
}

/// The tag of a draft-mode game (RULINGS M4: a card drafted before every
/// third ply), `1`: with the `Seed` tag (the cards offered follow from
/// it) and the picks' `[%hr choice …]` comments, `houserules pgn check`
/// replays the drafted rules (docs/protocol.md § The PGN).
pub const DRAFT_TAG: &str = "Draft";

/// The tag naming the YAML file of a game played on a YAML definition
/// (`ID.yaml`, the definition's id): `houserules pgn check --game FILE`
/// replays the game with that file (docs/protocol.md § The PGN).
pub const GAME_FILE_TAG: &str = "GameFile";

/// The comment before the first move of a YAML game's PGN: where its rules
/// are and how to replay it. The definition is not copied into the PGN: a
/// PGN comment cannot hold a `}`, which YAML flow maps use, and tags hold
/// one line.
fn yaml_note(game: &str, id: &str, name: &str) -> String {
    format!(
        "Rules: the YAML game definition `{id}` ({name}) this game was created with, not \
         included here. Save it from GET /api/games/{game}/record (its request.game) as \
         {id}.yaml, then replay: houserules pgn check --game {id}.yaml FILE.pgn"
    )
}

/// A player's name as the PGN's `White`/`Black` tag writes it: the
/// engine's seat `engine:N` as `houserules engine level N` (issue 26: it
/// read `engine:5`), a person's name as given (trimmed).
pub fn pgn_player(name: &str) -> String {
    match crate::engine::parse_name(name) {
        Some(Ok(level)) => format!("houserules engine level {level}"),
        _ => name.trim().to_string(),
    }
}

/// The `TimeControl` tag (PGN Standard §9.6.1): `-` for an untimed game,
/// else sudden death with a Fischer increment, `SECONDS+INCREMENT`
/// (`300+2`), or `SECONDS` without one. The standard counts whole
/// seconds: a fractional setting (the server allows 0.5 s) is `?`,
/// unknown, rather than a value readers would misread.
pub fn time_control(clock: Option<&crate::clock::ClockSpec>) -> String {
    let Some(c) = clock else {
        return "-".into();
    };
    let whole = |x: f64| (x.fract() == 0.0 && x >= 0.0).then_some(x as u64);
    match (whole(c.initial_seconds), whole(c.increment_seconds)) {
        (Some(i), Some(0)) => i.to_string(),
        (Some(i), Some(inc)) => format!("{i}+{inc}"),
        _ => "?".into(),
    }
}

/// A short line naming a creation request's rule set, for the logs:
/// `game=grand presets=knight-immunity modifiers=minefield` (only the
/// parts given; an inline modifier descriptor by its id).
pub fn rules_summary(request: &serde_json::Map<String, Value>) -> String {
    let list = |k: &str| -> Vec<String> {
        request
            .get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|x| match x {
                        Value::String(s) => s.clone(),
                        other => other["id"].as_str().unwrap_or("inline").to_string(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut parts = Vec::new();
    if let Some(g) = request.get("game").and_then(Value::as_str) {
        // A YAML game file given inline is not a name.
        let name = if g.contains('\n') { "yaml" } else { g };
        parts.push(format!("game={name}"));
    }
    for k in ["presets", "modifiers"] {
        let l = list(k);
        if !l.is_empty() {
            parts.push(format!("{k}={}", l.join(",")));
        }
    }
    if parts.is_empty() {
        "chess".into()
    } else {
        parts.join(" ")
    }
}

/// [`rules_summary`] of a parsed request.
pub fn rules_summary_of(request: &CreateRequest) -> String {
    match serde_json::to_value(request) {
        Ok(Value::Object(o)) => rules_summary(&o),
        _ => "chess".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ClockSpec;

    /// PGN Standard §9.6.1: "-" no time control; "4500+60" sudden death
    /// with a 60 s increment; "300" sudden death without one.
    #[test]
    fn time_control_as_the_pgn_standard() {
        let c = |i, inc| ClockSpec {
            initial_seconds: i,
            increment_seconds: inc,
        };
        assert_eq!(time_control(None), "-");
        assert_eq!(time_control(Some(&c(300.0, 2.0))), "300+2");
        assert_eq!(time_control(Some(&c(4500.0, 60.0))), "4500+60");
        assert_eq!(time_control(Some(&c(300.0, 0.0))), "300");
        assert_eq!(time_control(Some(&c(0.5, 0.0))), "?");
    }

    /// PGN Standard §9.8.1 lists the Termination values "abandoned",
    /// "adjudication", "death", "emergency", "normal", "rules infraction",
    /// "time forfeit" and "unterminated" (trial 22: `checkmate` was
    /// written).
    #[test]
    fn termination_takes_the_standards_words_regression_trial22() {
        for (reason, word) in [
            ("checkmate", "normal"),
            ("stalemate", "normal"),
            ("resignation", "normal"),
            ("agreement", "normal"),
            ("first-blood", "normal"),
            ("timeout", "time forfeit"),
            ("timeout-vs-insufficient-material", "time forfeit"),
            ("abandonment", "abandoned"),
            ("disconnect-during-choice", "abandoned"),
        ] {
            assert_eq!(termination_word(reason), word, "{reason}");
        }
    }

    /// The engine's seat reads as a name, a person's name as given.
    #[test]
    fn players_as_the_pgn_names_them() {
        assert_eq!(pgn_player("engine:5"), "houserules engine level 5");
        assert_eq!(pgn_player(" Ada "), "Ada");
        assert_eq!(pgn_player("engine:fast"), "engine:fast");
    }
}
