//! `houserules match --modifiers`: games between two of our levels under a
//! rule set with modifiers, the session as referee (issue 15).
//!
//! Each game is a session of its own, seeded `--seed + game index`: the
//! referee draws the random outcomes (kamikaze blasts, coin flips…) from
//! that seed, and the engines never read it (they search copies reseeded
//! from their own seeds, [`houserules_search::SessionSearcher`]). Choices
//! are answered by the player the prompt is for, rock-paper-scissors by
//! both; the time spent on a choice is taken from the answering side's
//! clock like a move's.
//!
//! Only our levels play: a UCI engine is told moves and positions, not
//! the choices, the random outcomes or the markers of a modifier session,
//! so it cannot follow such a game. The PGN records the moves with the
//! rule-set tags (as the server's `GET /pgn`); choices and random outcomes
//! are in no PGN field, so a game with them replays from its seed, not
//! from the PGN alone.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use houserules_engine::Color;
use houserules_search::{session_engine_for, Level, Objective, SessionEngine, SessionPlayer};
use houserules_session::Session;
use serde_json::Value;

use crate::error::{CliError, Outcome};
use crate::match_cmd::{level_of, limits, Control, MatchArgs, Rng, Scoreboard};
use crate::pgn_out::{self, RuleTags};
use houserules_session::pgn_record::{Movetext, Recorder};

/// Runs the match of `args` with the modifiers `list`.
///
/// # Errors
/// [`CliError::Input`]: an engine that is not `level:N`, an openings file
/// (not supported here), a rule set the session refuses, or a PGN file
/// that cannot be written.
pub fn run(
    args: &MatchArgs,
    list: &str,
    control: &Control,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let mut levels = [0u8; 2];
    let mut kinds: [Option<SessionEngine>; 2] = [None; 2];
    for (k, (spec, which)) in [(&args.engine1, "ENGINE1"), (&args.engine2, "ENGINE2")]
        .into_iter()
        .enumerate()
    {
        let (spec, kind) = session_engine_of(spec, which)?;
        kinds[k] = kind;
        let spec = &spec;
        levels[k] = level_of(spec, which)?.ok_or_else(|| {
            CliError::input(format!(
                "{which} {spec:?}: with --modifiers only our levels (level:1 to level:8) can play; \
                 a UCI engine is not told the choices, random outcomes and markers of the rules"
            ))
        })?;
    }
    if args.openings.is_some() {
        return Err(CliError::input(
            "--openings is not supported with --modifiers; use --random-plies",
        ));
    }
    if !args.option1.is_empty() || !args.option2.is_empty() {
        return Err(CliError::input(
            "--option1/--option2 are for external engines; our levels take none",
        ));
    }
    let request = crate::ruleset::request(&args.variant, None, list)?;
    let first = Session::create(request.clone())
        .map_err(|e| CliError::input(format!("--modifiers {list}: {e}")))?;
    let rules = args.variant.rules.clone().unwrap_or_default();
    let objective = Objective::from_rules(&rules);
    let mut tags = RuleTags::of_game(first.game(), &rules);
    tags.modifiers = Some(list.to_string());
    // `auto` (no suffix) is the per-rule-set choice, the same for every
    // game of the match.
    let kinds = kinds.map(|k| k.unwrap_or_else(|| session_engine_for(&first)));
    let names = [0, 1].map(|k| format!("houserules level {} {}", levels[k], kinds[k].name()));
    let mut rng = Rng(args.seed ^ 0x5EED);
    let mut openings: Vec<Vec<String>> = Vec::new();
    let mut board = Scoreboard::new(names);
    for i in 0..args.games {
        if board.time_up(i, args, out)? {
            break;
        }
        let pair = (i / 2) as usize;
        while openings.len() <= pair {
            openings.push(random_opening(&first, args.random_plies, &mut rng));
        }
        let white = (i % 2) as usize;
        let seed = args.seed.wrapping_add(u64::from(i));
        let mut req = request.clone();
        req.seed = Some(Value::from(seed as u32));
        let session = Session::create(req)
            .map_err(|e| CliError::input(format!("--modifiers {list}: {e}")))?;
        let mut engines = [white, 1 - white].map(|k| {
            let mut e = SessionPlayer::new(kinds[k]);
            e.set_level(Level::new(levels[k]));
            e.set_objective(objective);
            e
        });
        for (k, e) in engines.iter_mut().enumerate() {
            e.set_seed(seed.wrapping_mul(2).wrapping_add(k as u64));
        }
        // The PGN starts before the modifiers' activation, which a reader
        // replays from the tags (trial 22).
        let start = houserules_session::pgn_record::start_before_rules(&request)
            .unwrap_or_else(|| first.game().clone());
        let played = play(
            session,
            start.turn(),
            &openings[pair],
            &mut engines,
            control,
            args,
        );
        let start_fen = start.fen();
        let sans = played.movetext.sans();
        let mut pgn = pgn_out::build(&tags, &start_fen, true, &sans, played.result);
        // Choices and unchanged boards as `[%hr …]` comments (issue 26).
        houserules_pgn::export::set_comments(
            &mut pgn,
            played.movetext.before,
            played.movetext.plies.into_iter().map(|p| p.comments),
        );
        // The game's session seed, as `play --pgn` writes it, so that
        // `pgn check` replays its random outcomes (absent means 0).
        let session_seed = seed as u32;
        if session_seed != 0 {
            pgn.set_tag(houserules_pgn::export::SEED_TAG, session_seed.to_string());
        }
        let detail = format!("{} plies, {} choices", sans.len(), played.choices);
        board.record(
            out,
            args,
            control.tag(),
            i,
            white,
            pgn,
            played.result,
            &played.termination,
            &detail,
        )?;
    }
    board.finish(out, args)?;
    Ok(Outcome::Success)
}

/// Splits an optional session-engine suffix off `level:N[:mcts|:alphabeta|:auto]`:
/// the spec without it, and the engine (`None`: the per-rule-set choice).
///
/// # Errors
/// [`CliError::Input`]: a suffix that is none of the three.
fn session_engine_of(spec: &str, which: &str) -> Result<(String, Option<SessionEngine>), CliError> {
    let Some(rest) = spec.strip_prefix("level:") else {
        return Ok((spec.to_string(), None));
    };
    let Some((n, kind)) = rest.split_once(':') else {
        return Ok((spec.to_string(), None));
    };
    let kind = match kind {
        "auto" => None,
        k => Some(SessionEngine::parse(k).ok_or_else(|| {
            CliError::input(format!(
                "{which} {spec:?}: the session engine must be mcts, alphabeta or auto"
            ))
        })?),
    };
    Ok((format!("level:{n}"), kind))
}

/// The end of one game.
struct Played {
    result: &'static str,
    termination: String,
    movetext: Movetext,
    choices: u32,
}

/// `plies` random moves through a session (choices answered with their
/// first option), not ending the game; as UCI moves and choice values.
fn random_opening(start: &Session, plies: u32, rng: &mut Rng) -> Vec<String> {
    'retry: for _ in 0..100 {
        let mut s = start.clone();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let uci = s.legal_moves_uci();
            if uci.is_empty() {
                continue 'retry;
            }
            let mv = uci[(rng.next() % uci.len() as u64) as usize].clone();
            if s.submit(houserules_session::Input::Move { mv: mv.clone() })
                .is_err()
                || s.pending_choice().is_some()
                || s.is_over()
            {
                continue 'retry;
            }
            moves.push(mv);
        }
        return moves;
    }
    Vec::new()
}

/// The seat that acts now: the player a pending choice is for (the first
/// that has not answered a prompt for both), else the side to move.
fn actor(s: &Session) -> Color {
    match s.pending_choice() {
        Some(c) => match c.for_player.as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            _ if !c.collected.contains_key("white") => Color::White,
            _ => Color::Black,
        },
        None => s.game().turn(),
    }
}

/// Plays one game; `engines[0]` has White.
fn play(
    mut s: Session,
    start_side: Color,
    opening: &[String],
    engines: &mut [SessionPlayer; 2],
    control: &Control,
    args: &MatchArgs,
) -> Played {
    let mut recorder = Recorder::starting(start_side);
    let mut plies = 0;
    let mut choices = 0;
    for mv in opening {
        if recorder
            .submit(&mut s, houserules_session::Input::Move { mv: mv.clone() })
            .is_ok()
        {
            plies += 1;
        }
    }
    let (mut clocks, inc) = match control {
        Control::Clock { base, inc } => ([*base; 2], *inc),
        Control::PerMove { .. } => ([Duration::ZERO; 2], Duration::ZERO),
    };
    let margin = Duration::from_millis(args.time_margin);
    let loses = |c: Color| if c == Color::White { "0-1" } else { "1-0" };
    let (result, termination) = loop {
        if s.is_over() {
            let status = s.status();
            let result = match status.get("winner").and_then(Value::as_str) {
                Some("white") => "1-0",
                Some("black") => "0-1",
                _ => "1/2-1/2",
            };
            let why = status["status"].as_str().unwrap_or("over").to_string();
            break (result, format!("normal: {why}"));
        }
        if s.pending_choice().is_none() && !s.claimable_draws().is_empty() {
            break ("1/2-1/2", "adjudication: a claimable draw".to_string());
        }
        if plies >= args.max_plies {
            break ("1/2-1/2", format!("adjudication: {} plies", args.max_plies));
        }
        let seat = actor(&s);
        let ti = seat.index();
        let t0 = Instant::now();
        let r = engines[ti].search(&s, seat, &limits(control, clocks), &AtomicBool::new(false));
        let used = t0.elapsed();
        if matches!(control, Control::Clock { .. }) {
            if used > clocks[ti] + margin {
                break (loses(seat), "time forfeit".to_string());
            }
            if s.pending_choice().is_none() {
                clocks[ti] = clocks[ti].saturating_sub(used) + inc;
            } else {
                clocks[ti] = clocks[ti].saturating_sub(used);
            }
        }
        let Some(action) = r.action else {
            break (loses(seat), "rules infraction: no action".to_string());
        };
        if let Err(e) = recorder.submit(&mut s, action.input()) {
            break (
                loses(seat),
                format!("rules infraction: {action:?} refused: {}", e.message),
            );
        }
        match action {
            houserules_search::Action::Move(_) => plies += 1,
            houserules_search::Action::Choice { .. } => choices += 1,
        }
    };
    Played {
        result,
        termination,
        movetext: recorder.finish(&s),
        choices,
    }
}
