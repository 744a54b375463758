//! The engine opponent (issue 15): a seat played by `houserules-search`.
//!
//! A creation request seats it by naming a player `engine:N` (`"black":
//! "engine:4"`), N the level 1–8 ([`houserules_search::Level`]). The game
//! task ([`crate::game`]) starts a search on the blocking pool whenever it
//! is the engine's turn (never on the async runtime), and plays the answer
//! through the path every move takes, so that spectators, the store and
//! the clocks see it as any move. What is decided here: which names are
//! engine seats, which rule sets the search can play, the time a move may
//! take, and whether a draw offer is accepted.

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Duration;

use houserules_engine::{Color, PieceKind};
use houserules_search::{
    session_engine_for, Action, Level, Limits, Objective, Score, Searcher, SessionPlayer,
};
use houserules_session::{CreateRequest, Session};

/// The name prefix of an engine seat.
pub const PREFIX: &str = "engine:";

/// The most a move takes without a clock (level 8 has no time cap of its
/// own; levels 1–7 stop sooner, at their own caps of 50 ms to 3 s).
pub const UNTIMED_MOVE: Duration = Duration::from_secs(5);

/// The transposition table of one engine game, in MiB (a server hosts
/// many: small, and the levels' time caps leave little to fill).
const HASH_MB: usize = 4;

/// An engine seat of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineSeat {
    /// The colour it plays.
    pub color: Color,
    /// Its level, 1–8.
    pub level: u8,
}

/// Reads a player's name: `None` for a person's name (anything not
/// starting with `engine:`), else the level or why it is not one
/// (exactly one digit 1–8 follows the prefix).
pub fn parse_name(name: &str) -> Option<Result<u8, String>> {
    let rest = name.strip_prefix(PREFIX)?;
    Some(match rest.as_bytes() {
        [d @ b'1'..=b'8'] => Ok(d - b'0'),
        _ => Err(format!(
            "`{name}` is not an engine seat: `engine:N` takes a level N from 1 (weakest) to 8 (strongest)"
        )),
    })
}

/// The engine seat that the players' names give, if any (the first one
/// that parses; creation refuses two).
pub fn seat_of(white: Option<&str>, black: Option<&str>) -> Option<EngineSeat> {
    [(Color::White, white), (Color::Black, black)]
        .into_iter()
        .find_map(|(color, name)| {
            let level = parse_name(name?)?.ok()?;
            Some(EngineSeat { color, level })
        })
}

/// Whether the search can play the session's rule set: every game the
/// rules engine builds (FIDE chess, the shipped and YAML games, presets)
/// with the engine's own search, and modifiers with the session search
/// (choices as decision plies, randomness as chance nodes: the search
/// [`session_engine_for`] picks for the rule set); not draft mode (its
/// rule cards change the rules every third ply, which no search here
/// looks ahead through). `Err` says why, for the finding.
pub fn supports(session: &Session) -> Result<(), String> {
    let st = session.state();
    if st.draft {
        return Err(
            "the engine cannot play draft mode (rule cards are choices it does not search yet)"
                .into(),
        );
    }
    Ok(())
}

/// The search settings of a rule set: the objective and, under
/// `piece-hp`, the start hit points per kind (kings 1, others 2: RULINGS
/// P6), as `houserules uci` sets them.
#[derive(Debug, Clone)]
pub struct Setup {
    level: u8,
    objective: Objective,
    hit_points: Option<Vec<u8>>,
    seed: u64,
}

impl Setup {
    /// The settings for `seat` in a game created by `request` (`id`
    /// seeds the weak levels' randomness, so a game replays the same).
    pub fn new(seat: EngineSeat, request: &CreateRequest, session: &Session, id: &str) -> Setup {
        let rules = match &request.state {
            Some(doc) => doc.rules.clone(),
            None => request.presets.join(","),
        };
        let hp = rules
            .split(',')
            .any(|r| r.split(':').next().unwrap_or("").trim() == "piece-hp");
        let kinds = session.game().variant().definition().pieces.len();
        // FNV-1a of the id.
        let seed = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        Setup {
            level: seat.level,
            objective: Objective::from_rules(&rules),
            hit_points: hp.then(|| {
                (0..kinds)
                    .map(|k| houserules_presets::rules::start_hp(PieceKind(k as u8)))
                    .collect()
            }),
            seed,
        }
    }
}

/// A new searcher for one engine game.
pub fn searcher() -> Searcher {
    Searcher::new(HASH_MB)
}

/// What a move may spend: the level's own caps (depth and time, applied
/// by the search), at most [`UNTIMED_MOVE`], and with a clock the search's
/// share of it (`own_ms` left and `increment`): a thirtieth of the time
/// left plus three quarters of the increment, never more than half of
/// what is left, so an ordinary clock never runs out on the engine.
pub fn limits(color: Color, own_ms: Option<i64>, increment: Duration) -> Limits {
    let mut l = Limits {
        movetime: Some(UNTIMED_MOVE),
        ..Limits::default()
    };
    if let Some(ms) = own_ms {
        let left = Duration::from_millis(ms.max(1) as u64);
        match color {
            Color::White => (l.wtime, l.winc) = (Some(left), Some(increment)),
            Color::Black => (l.btime, l.binc) = (Some(left), Some(increment)),
        }
    }
    l
}

/// `limits` for a search that waited `waited` for its turn (the engine
/// search limiter): the wait is taken from the engine's clock time, so
/// that the share of it the search spends stays a share of what is left.
pub fn after_waiting(mut limits: Limits, color: Color, waited: Duration) -> Limits {
    let left = match color {
        Color::White => &mut limits.wtime,
        Color::Black => &mut limits.btime,
    };
    if let Some(t) = left.as_mut() {
        *t = t.saturating_sub(waited).max(Duration::from_millis(1));
    }
    limits
}

/// A search's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Thought {
    /// The move (in the session's UCI) or the answer to a pending choice.
    pub action: Action,
    /// Its score, from the engine's side.
    pub score: Score,
}

/// Whether the engine playing `color` has something to decide in
/// `pending` (the session output's `pendingChoice`, or null): a choice for
/// it, or its throw of a rock-paper-scissors for both not yet given.
pub fn choice_is_mine(pending: &serde_json::Value, color: Color) -> bool {
    match pending["forPlayer"].as_str() {
        Some("both") => pending["collected"].get(color.name()).is_none(),
        Some(p) => p == color.name(),
        None => false,
    }
}

/// Searches the session's position (blocking: run it on the blocking
/// pool). The session is locked only to copy the position, so the game's
/// other rules work goes on meanwhile. The move is one of the session's
/// legal moves (the search's best, else the first legal move, so that the
/// engine never stalls); `None` when there is none.
pub fn think(
    session: &Mutex<Session>,
    searcher: &Mutex<Searcher>,
    setup: &Setup,
    color: Color,
    ply: u32,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<Thought> {
    let (game, legal, copy) = {
        let s = session.lock().unwrap_or_else(|p| p.into_inner());
        let modifiers = !s.state().modifiers.is_empty()
            || !s.state().markers.is_empty()
            || s.pending_choice().is_some();
        (
            s.game().clone(),
            s.legal_moves_uci(),
            modifiers.then(|| s.clone()),
        )
    };
    if let Some(copy) = copy {
        // The session search: it reseeds its copies, so the game's seed
        // (the future of its random stream) is never read.
        let mut e = SessionPlayer::new(session_engine_for(&copy));
        e.set_level(Level::new(setup.level));
        e.set_objective(setup.objective);
        e.set_seed(setup.seed ^ u64::from(ply));
        let r = e.search(&copy, color, limits, stop);
        let action = r.action.or_else(|| fallback(&copy, color))?;
        return Some(Thought {
            action,
            score: r.score,
        });
    }
    let mut sr = searcher.lock().unwrap_or_else(|p| p.into_inner());
    sr.set_level(Level::new(setup.level));
    sr.set_objective(setup.objective);
    sr.set_hit_points(setup.hit_points.clone());
    sr.set_seed(setup.seed ^ u64::from(ply));
    let r = sr.search(&game, limits, stop, |_| {});
    let mv = r
        .best
        .map(|m| game.uci(m))
        .filter(|u| legal.contains(u))
        .or_else(|| legal.first().cloned())?;
    Some(Thought {
        action: Action::Move(mv),
        score: r.score,
    })
}

/// What the engine does when its search finds nothing: the first legal
/// move, or the first option of its pending choice (never stall).
fn fallback(s: &Session, color: Color) -> Option<Action> {
    match s.pending_choice() {
        Some(c) => {
            let value = c.prompt["options"].get(0)?.clone();
            let player = (c.for_player == "both").then(|| color.name().to_string());
            Some(Action::Choice { value, player })
        }
        None => s.legal_moves_uci().first().cloned().map(Action::Move),
    }
}

/// Whether the engine accepts a draw offer, from the score of its last
/// search (its own point of view): only when it is clearly lost, three
/// pawns or more down or mated by force. With no search yet since the
/// game was loaded it declines.
pub fn accepts_draw(last: Option<Score>) -> bool {
    match last {
        Some(Score::Cp(cp)) => cp <= -300,
        Some(Score::Mate(n)) => n < 0,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_names() {
        assert_eq!(parse_name("ann"), None);
        assert_eq!(parse_name("engine:1"), Some(Ok(1)));
        assert_eq!(parse_name("engine:8"), Some(Ok(8)));
        for bad in [
            "engine:0",
            "engine:9",
            "engine:x",
            "engine:",
            "engine:44",
            "engine: 4",
        ] {
            assert!(matches!(parse_name(bad), Some(Err(_))), "{bad}");
        }
    }

    #[test]
    fn waiting_is_taken_from_the_clock() {
        let l = limits(Color::Black, Some(10_000), Duration::from_secs(2));
        let l = after_waiting(l, Color::Black, Duration::from_secs(3));
        assert_eq!(l.btime, Some(Duration::from_secs(7)));
        assert_eq!(l.wtime, None);
        let l = after_waiting(l, Color::Black, Duration::from_secs(60));
        assert_eq!(l.btime, Some(Duration::from_millis(1)));
        // Untimed: nothing to take.
        let l = after_waiting(
            limits(Color::White, None, Duration::ZERO),
            Color::White,
            Duration::from_secs(3),
        );
        assert_eq!(l.wtime, None);
    }

    #[test]
    fn draw_policy() {
        assert!(!accepts_draw(None));
        assert!(!accepts_draw(Some(Score::Cp(-299))));
        assert!(accepts_draw(Some(Score::Cp(-300))));
        assert!(accepts_draw(Some(Score::Mate(-3))));
        assert!(!accepts_draw(Some(Score::Mate(2))));
    }
}
