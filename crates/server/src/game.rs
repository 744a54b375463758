//! One game: a task (an actor) that owns the session, its clocks, its
//! connections and its timers, and handles one command at a time.
//!
//! Why an actor per game: every change to a game is serialised by its own
//! task, so there is no lock around a session, and games never wait on
//! each other. The tasks run on the game shards ([`shard`]: a few OS
//! threads of their own, a game pinned to one by its id), never on the
//! main runtime's workers, which stay free for sockets. An input's rules
//! work ([`rules::step`]: the move read, its SAN, a draw claim, the submit
//! and the typed output; microseconds) runs in place there; replays, PGN
//! and engine searches go to the blocking pool. Store calls are async
//! (sqlx, one writer task with group commit). An input's
//! messages are built from typed values and serialised once per protocol
//! version for all receivers ([`events`]).

pub mod events;
pub mod naming;
pub mod rematch;
pub mod rules;
pub mod shard;
pub mod takeback;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use houserules_engine::Color;
use houserules_session::{
    ChoiceTimeout, ColorName, CreateRequest, Input, LogEntry, PendingChoice, PieceOut, Session,
    SessionOutput,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};

use crate::clock::{Clock, ClockSpec};
use crate::engine::{self, EngineSeat, Thought};
use crate::protocol::{
    BothSides, ClientMessage, ClockView, EngineView, GameInfo, ResultView, Seat, ServerMessage,
    SideClock, UpdateRef,
};
use crate::registry::Registry;
use crate::store::{Entry, Store};
use crate::Metrics;
use events::History;
use houserules_search::Action;
use rules::{Act, Changes, Stepped};

mod lifecycle;

/// Durations the server uses, configurable so that tests run fast.
#[derive(Debug, Clone)]
pub struct Timing {
    /// How long one second of a request's `choiceTimeout.seconds` lasts
    /// (1 s in production; the tests shorten it).
    pub choice_second: Duration,
    /// How long a player must be gone before the opponent may claim
    /// victory (40 s by default, as on lichess).
    pub claim_victory_after: Duration,
    /// How long a player whose choice is pending may be gone before the
    /// disconnect forfeits (timeout-with-default mode): a page reload or a
    /// dropped connection that comes back within it loses nothing (15 s
    /// by default; the session-7 web trial lost games on a reload).
    pub choice_disconnect_grace: Duration,
    /// How long an unfinished game with no connection and nothing timed
    /// (no running clock, choice timer, forfeit grace or engine search)
    /// stays in memory before its task unloads it; the next request
    /// rebuilds it from the store (issue 21; 2 minutes by default). A
    /// finished game unloads as soon as its last connection is gone.
    pub idle_unload: Duration,
    /// After a restart or a take-over by another node, how long the clock
    /// waits for the player it runs for to come back to the board (a
    /// connection of that seat; the engine is always there) before it runs
    /// anyway: the players' reconnection is part of the outage, charged
    /// to no one (10 s by default; trial 19: a paused owner's take-over
    /// charged the mover the 1.5 s its socket took to move over).
    pub seat_return: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            choice_second: Duration::from_secs(1),
            claim_victory_after: Duration::from_secs(40),
            choice_disconnect_grace: Duration::from_secs(15),
            idle_unload: Duration::from_secs(120),
            seat_return: Duration::from_secs(10),
        }
    }
}

/// The parts of a creation request the server reads itself; the rest is
/// the session's [`CreateRequest`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    /// The clock, or untimed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSpec>,
    /// White's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    /// Black's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why.
    pub reason: String,
}

impl Outcome {
    fn win(c: Color, reason: &str) -> Outcome {
        Outcome {
            result: if c == Color::White { "1-0" } else { "0-1" }.into(),
            reason: reason.into(),
        }
    }

    fn draw(reason: &str) -> Outcome {
        Outcome {
            result: "1/2-1/2".into(),
            reason: reason.into(),
        }
    }
}

/// A game event stored in the log besides the session's inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// `player` resigned.
    Resign {
        /// Who.
        player: String,
    },
    /// `player` offered a draw.
    OfferDraw {
        /// Who.
        player: String,
    },
    /// `player` declined the standing offer.
    DeclineDraw {
        /// Who.
        player: String,
    },
    /// `player` accepted the standing offer.
    AcceptDraw {
        /// Who.
        player: String,
    },
    /// `player` claimed a draw (`claim`: `threefold-repetition`,
    /// `fifty-move-rule`).
    ClaimDraw {
        /// Who.
        player: String,
        /// Which claim.
        claim: String,
    },
    /// `player`'s time ran out; `result` as decided then (FIDE 6.9).
    Flag {
        /// Who.
        player: String,
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: String,
    },
    /// `player` disconnected while a choice was pending for them in
    /// `timeout-with-default` mode (modifier-dsl-decisions § Choice
    /// Timeout & Disconnect).
    Forfeit {
        /// Who.
        player: String,
    },
    /// `player` claimed the win after the opponent's absence.
    ClaimVictory {
        /// Who.
        player: String,
    },
    /// `player` asked for a rematch of the finished game: the new game
    /// `game` was created ([`rematch`]).
    RematchOffer {
        /// Who.
        player: String,
        /// The new game's id.
        game: String,
    },
    /// `player` (or the engine's seat) accepted the rematch offer.
    RematchAccept {
        /// Who.
        player: String,
    },
    /// `player` declined the rematch offer.
    RematchDecline {
        /// Who.
        player: String,
    },
    /// `player` asked to take back their last move ([`takeback`]).
    TakebackOffer {
        /// Who.
        player: String,
    },
    /// `player` accepted the opponent's takeback: the last move is gone
    /// from the game (replay drops the last move input before it).
    TakebackAccept {
        /// Who.
        player: String,
    },
    /// `player` (or the engine's seat) declined the takeback.
    TakebackDecline {
        /// Who.
        player: String,
    },
}

fn color_of(name: &str) -> Color {
    if name == "black" {
        Color::Black
    } else {
        Color::White
    }
}

fn seat_color(seat: Seat) -> Option<Color> {
    match seat {
        Seat::White => Some(Color::White),
        Seat::Black => Some(Color::Black),
        Seat::Spectator => None,
    }
}

/// The milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The result a session status means, if the game is over.
fn session_outcome(status: &Value) -> Option<Outcome> {
    let name = status["status"].as_str().unwrap_or("ongoing");
    if name == "ongoing" || name == "awaiting-choice" {
        return None;
    }
    let reason = status["reason"].as_str().unwrap_or(name);
    Some(match status["winner"].as_str() {
        Some(w) => Outcome::win(color_of(w), name),
        None => Outcome::draw(reason),
    })
}

/// Whether `c` cannot checkmate by any series of legal moves (FIDE 6.9),
/// from the session's pieces: only the provable cases are recognised:
/// `c` has a lone king, or `c` has a king and one knight or one bishop
/// while the other side has a lone king (no help-mate exists then: the
/// lone king has no piece of its own to block its flight squares). Every
/// other position counts as "can mate", which only errs towards a loss on
/// time, as lichess's basic rule does.
pub fn cannot_mate(pieces: &[PieceOut], c: Color) -> bool {
    let of = |col: ColorName| -> Vec<&str> {
        pieces
            .iter()
            .filter(|p| p.color == col)
            .map(|p| p.ty.as_str())
            .collect()
    };
    let (ours, theirs) = match c {
        Color::White => (of(ColorName::White), of(ColorName::Black)),
        Color::Black => (of(ColorName::Black), of(ColorName::White)),
    };
    let non_king: Vec<&&str> = ours.iter().filter(|t| **t != "king").collect();
    match non_king.as_slice() {
        [] => true,
        [one] if **one == "knight" || **one == "bishop" => theirs.iter().all(|t| *t == "king"),
        _ => false,
    }
}

/// Whether the engine playing `color` has something to decide in the
/// pending choice: a choice for it, or its throw of a rock-paper-scissors
/// for both not yet given (as `engine::choice_is_mine` reads it from the
/// JSON output).
fn choice_is_mine(p: &PendingChoice, color: Color) -> bool {
    match p.for_player.as_str() {
        "both" => !p.collected.contains_key(color.name()),
        other => other == color.name(),
    }
}

/// One client connection, as the game sees it.
struct Conn {
    id: u64,
    seat: Seat,
    version: u8,
    tx: mpsc::Sender<Arc<str>>,
}

/// A command to a game's task.
pub enum Cmd {
    /// A connection said hello: register it, send `welcome`.
    Hello {
        /// Who.
        seat: Seat,
        /// Protocol version.
        version: u8,
        /// The socket writer's queue.
        tx: mpsc::Sender<Arc<str>>,
        /// The connection id.
        reply: oneshot::Sender<u64>,
    },
    /// A message from a connection.
    Message {
        /// The connection id.
        conn: u64,
        /// The message.
        msg: ClientMessage,
        /// When it was read (ack latency).
        at: Instant,
    },
    /// A connection closed.
    Gone {
        /// The connection id.
        conn: u64,
    },
    /// The full state (`GET /api/games/{id}`).
    View(oneshot::Sender<Value>),
    /// The record (`GET /api/games/{id}/record`).
    Record(oneshot::Sender<Value>),
    /// The game as PGN (`GET /api/games/{id}/pgn`).
    Pgn(oneshot::Sender<String>),
    /// The seat a token opens, if any.
    SeatOf {
        /// The token.
        token: String,
        /// The seat, `None` for a wrong token.
        reply: oneshot::Sender<Option<Seat>>,
    },
    /// Take a free seat (`POST /api/games/{id}/join`), naming it if the
    /// joiner gave a name and the seat has none ([`naming`]).
    Join {
        /// The joiner's name (checked by the route).
        name: Option<String>,
        /// The seat, its token and its name, or why not.
        reply: oneshot::Sender<Result<JoinedSeat, String>>,
    },
    /// Name the seat a token opens, once (`POST /api/games/{id}/name`,
    /// [`naming`]).
    Name {
        /// The seat token the request was sent with.
        token: String,
        /// The name (checked by the route).
        name: String,
        /// The seat named, or why not.
        reply: oneshot::Sender<Result<Seat, rematch::RematchError>>,
    },
    /// Offer or accept a rematch (`POST /api/games/{id}/rematch`,
    /// [`rematch`]).
    Rematch {
        /// The seat token the request was sent with.
        token: String,
        /// The new game's seat for this player, or why not.
        reply: oneshot::Sender<Result<rematch::RematchSeat, rematch::RematchError>>,
    },
    /// Let the game go now, between inputs (the commands queued before
    /// this one are handled first): the task ends and its connections are
    /// closed with code 1012, so that their clients reconnect. A cluster
    /// node sends it when another node took the game over, or when it
    /// drains (issue 24).
    Stop,
}

/// A join's answer: the seat taken, its token, and its name if it has one.
pub type JoinedSeat = (Seat, String, Option<String>);

/// A handle to a game's task.
#[derive(Clone)]
pub struct GameHandle {
    /// The command queue.
    pub tx: mpsc::Sender<Cmd>,
}

/// Everything needed to start a game's task.
pub struct GameInit {
    /// The id.
    pub id: String,
    /// The creation request as sent (JSON text).
    pub request_text: String,
    /// The server's part of it.
    pub meta: Meta,
    /// The session's part.
    pub request: CreateRequest,
    /// Seat tokens (White, Black).
    pub tokens: [Option<String>; 2],
    /// The stored log.
    pub entries: Vec<Entry>,
    /// When the game was created (ms since the Unix epoch; the PGN `Date`).
    pub created_ms: i64,
    /// At a restart: when the previous server was last known to run (ms
    /// since the Unix epoch, [`crate::store::Store::last_alive`]). The side
    /// to move is charged the time from its last input to then: what it
    /// thought before the stop, not the outage (issue 26 item 7). `None`
    /// charges nothing (a load while the server runs, a take-over).
    pub stopped_ms: Option<i64>,
}

/// The game's task state.
pub struct Game {
    id: String,
    request_text: String,
    meta: Meta,
    request: CreateRequest,
    /// When the game was created (ms since the Unix epoch).
    created_ms: i64,
    session: Arc<Mutex<Session>>,
    /// The entries of the log (for the record and rebuilds).
    entries: Vec<Entry>,
    tokens: [Option<String>; 2],
    outcome: Option<Outcome>,
    draw_offer: Option<Color>,
    clock: Option<Clock>,
    /// After a rebuild: the clock waits for its player's seat until then
    /// ([`Timing::seat_return`]).
    clock_hold: Option<Instant>,
    conns: Vec<Conn>,
    /// Connections a send dropped (their writer stopped, or their queue
    /// was full), not yet handled as gone: [`Game::reap`] does it after
    /// the command that dropped them, as `Gone` would have. Their own
    /// `Gone` may come later and then finds nothing to do.
    lost: Vec<Conn>,
    next_conn: u64,
    /// Since when each seat has had no connection.
    gone_since: [Option<Instant>; 2],
    /// Whether each seat has been at the board: connected since the game
    /// was loaded, or made a move. A seat never seen cannot be claimed
    /// against (its player may not have opened the invite yet).
    seen: [bool; 2],
    /// A disconnect forfeit waiting for its grace period: the player and
    /// when it falls due ([`Timing::choice_disconnect_grace`]).
    forfeit_due: Option<(Color, Instant)>,
    paused: bool,
    /// The pending choice's id and when its timeout expires.
    choice_deadline: Option<(String, Instant)>,
    /// The last accepted move: its player and the `plyCount` it was for
    /// (a resend of it is answered with the state).
    last_move: Option<(Color, u32)>,
    /// The last move while a choice it raised waits (the state's
    /// `pendingMove`): its mover and its UCI and bare SAN.
    pending_move: Option<crate::protocol::MovePlayed>,
    /// The session output as of `seq`, typed, with an empty `log` (the
    /// log is `log`).
    out: Arc<SessionOutput>,
    /// Whether the side to move is in check as of `seq` under the rules in
    /// force (the state's and the update's `inCheck`; issue 26: the page
    /// used standard chess's test, which a preset such as `trans-rights`
    /// changes).
    in_check: bool,
    /// The draw the side to move may claim now, as of `seq` (the state's
    /// and the update's `drawClaim`: the page offers "Claim draw" only
    /// then, issue 26 item 9).
    draw_claim: Option<&'static str>,
    /// The session's log as of `seq` (the full state's `log`).
    log: Vec<LogEntry>,
    /// The latest protocol-3 updates, for `resync`.
    history: History,
    store: Arc<dyn Store>,
    metrics: Arc<Metrics>,
    timing: Timing,
    /// The engine's seat, if the engine plays in this game.
    engine: Option<Engine>,
    /// Whether the rule set keeps FIDE's draw by insufficient material
    /// (`EndRules::insufficient_material`): only then does a flag against
    /// a side that cannot mate draw (FIDE 6.9, [`cannot_mate`]). Under
    /// other goals a lone king may still win (suicide chess: by losing
    /// it; capture-to-win: by capturing), so the flag loses.
    fide_dead: bool,
    /// When the task leaves memory ([`lifecycle`]).
    life: lifecycle::Life,
    /// The rematch offered after the end, if any ([`rematch`]).
    rematch: Option<rematch::RematchState>,
    /// The side whose takeback request stands ([`takeback`]).
    takeback_offer: Option<Color>,
}

/// The engine's part of a game (see [`crate::engine`]).
struct Engine {
    seat: EngineSeat,
    setup: Arc<engine::Setup>,
    searcher: Arc<Mutex<houserules_search::Searcher>>,
    /// The search under way: the ply it is for, its stop flag, its answer.
    thinking: Option<(u32, Arc<AtomicBool>, oneshot::Receiver<Option<Thought>>)>,
    /// The score of its last search (its side), for draw offers.
    last_score: Option<houserules_search::Score>,
    /// A ply whose search failed (the task ended without an answer): not
    /// searched again, so that a failing search does not loop.
    failed_at: Option<u32>,
}

/// What woke a game's task.
enum Wake {
    Cmd(Option<Cmd>),
    Deadline,
    Thought(Option<Thought>),
    /// Time to try leaving memory ([`lifecycle`]).
    Unload,
}

/// Runs rules work on the blocking pool.
async fn blocking<R: Send + 'static>(
    session: &Arc<Mutex<Session>>,
    f: impl FnOnce(&mut Session) -> R + Send + 'static,
) -> Result<R, String> {
    let s = Arc::clone(session);
    tokio::task::spawn_blocking(move || {
        let mut guard = s.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut guard)
    })
    .await
    .map_err(|e| format!("rules work failed: {e}"))
}

impl Game {
    /// Rebuilds a game from its request and log (rules work on the
    /// blocking pool) and starts its task.
    ///
    /// # Errors
    /// The request no longer creates a session, or a stored input is
    /// refused on replay (the message says which).
    pub async fn start(
        init: GameInit,
        store: Arc<dyn Store>,
        metrics: Arc<Metrics>,
        timing: Timing,
        registry: Arc<Registry>,
    ) -> Result<GameHandle, String> {
        let request = init.request.clone();
        let seat = engine::seat_of(init.meta.white.as_deref(), init.meta.black.as_deref());
        let id = init.id.clone();
        let (session, engine, fide_dead) = tokio::task::spawn_blocking(move || {
            let s = Session::create(request.clone())?;
            let e = seat.map(|seat| Engine {
                seat,
                setup: Arc::new(engine::Setup::new(seat, &request, &s, &id)),
                searcher: Arc::new(Mutex::new(engine::searcher())),
                thinking: None,
                last_score: None,
                failed_at: None,
            });
            // The rule set keeps FIDE's draw by insufficient material only
            // where checkmate stays the only way to win from those
            // positions (houserules_presets::dead).
            let fide_dead = s.game().variant().definition().end.insufficient_material;
            Ok::<_, houserules_session::Refusal>((s, e, fide_dead))
        })
        .await
        .map_err(|e| e.to_string())?
        .map_err(|r| r.to_string())?;
        let mut gone_since = [Some(Instant::now()); 2];
        if let Some(e) = &engine {
            // Never absent: no claim of victory against it.
            gone_since[if e.seat.color == Color::White { 0 } else { 1 }] = None;
        }
        let mut game = Game {
            engine,
            fide_dead,
            id: init.id,
            request_text: init.request_text,
            clock: init.meta.clock.as_ref().map(Clock::new),
            clock_hold: None,
            meta: init.meta,
            request: init.request,
            created_ms: init.created_ms,
            session: Arc::new(Mutex::new(session)),
            entries: Vec::new(),
            tokens: init.tokens,
            outcome: None,
            draw_offer: None,
            conns: Vec::new(),
            lost: Vec::new(),
            next_conn: 1,
            gone_since,
            seen: [false; 2],
            forfeit_due: None,
            paused: false,
            choice_deadline: None,
            last_move: None,
            pending_move: None,
            out: Arc::new(SessionOutput {
                fen: String::new(),
                side_to_move: ColorName::White,
                status: Value::Null,
                legal_moves: Vec::new(),
                pending_choice: None,
                markers: Vec::new(),
                active_modifiers: Vec::new(),
                pieces: Vec::new(),
                seed: 0,
                rng_stream: 0,
                ply_count: 0,
                vars: Default::default(),
                log: Vec::new(),
                inputs: None,
            }),
            in_check: false,
            draw_claim: None,
            log: Vec::new(),
            history: History::default(),
            store,
            metrics,
            timing,
            life: lifecycle::Life::new(registry),
            rematch: None,
            takeback_offer: None,
        };
        game.replay(init.entries, init.stopped_ms).await?;
        // A seat that has moved was at the board before a restart.
        let plies = game.ply_count();
        game.seen = [plies >= 1, plies >= 2];
        let (tx, rx) = mpsc::channel(256);
        game.life.me = Some(tx.downgrade());
        game.metrics.games_loaded.inc();
        if game.outcome.is_none() {
            game.metrics.games_live.inc();
        }
        // In a cluster the span names the node too (issue 22): a game's
        // lines from several nodes' logs then say which node owned it.
        let span = tracing::info_span!("game", id = %game.id, node = tracing::field::Empty);
        if let Some(node) = game.store.node() {
            span.record("node", node.as_str());
        }
        shard::spawn(
            &game.id.clone(),
            tracing::Instrument::instrument(game.run(rx), span),
        );
        Ok(GameHandle { tx })
    }

    /// Applies stored entries (no store write, no broadcast).
    async fn replay(&mut self, entries: Vec<Entry>, stopped_ms: Option<i64>) -> Result<(), String> {
        let bodies: Vec<(i64, String)> = entries.iter().map(|e| (e.seq, e.body.clone())).collect();
        let request = self.request.clone();
        // The session inputs in one blocking call; events are handled here.
        // The last stored input that is a move, when nothing but inputs
        // follow it: if a choice it raised still waits at the end, its SAN
        // is the state's `pendingMove`, written before it is played.
        let last_move_at = bodies
            .iter()
            .rposition(|(_, b)| b.contains("\"move\""))
            .filter(|&i| {
                bodies[i + 1..].iter().all(|(_, b)| {
                    serde_json::from_str::<Value>(b).is_ok_and(|v| v.get("event").is_none())
                })
            });
        let results = blocking(&self.session, move |s| {
            let mut out = Vec::new();
            let mut pending_move = None;
            // The inputs in force, for a takeback's rebuild.
            let mut inputs: Vec<Input> = Vec::new();
            for (k, (seq, body)) in bodies.into_iter().enumerate() {
                let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                if Some(k) == last_move_at {
                    if let Some(mv) = v.get("move").and_then(Value::as_str) {
                        pending_move = s.resolve_move_san(mv).ok().map(|(_, uci, san)| {
                            let before = s.output_since(s.log_len());
                            (uci, rules::bare_san(san), before)
                        });
                    }
                }
                if v.get("event").is_some() {
                    let refused = takeback::replay_event(s, &request, &mut inputs, &v).err();
                    out.push((seq, Some(v), refused, s.game().turn(), s.state().ply_count));
                    continue;
                }
                if let Ok(i) = serde_json::from_value::<Input>(v.clone()) {
                    inputs.push(i);
                }
                let turn = s.game().turn();
                let ply = s.state().ply_count;
                let r = serde_json::from_value::<Input>(v)
                    .map_err(|e| e.to_string())
                    .and_then(|i| s.submit(i).map_err(|r| r.to_string()))
                    .err();
                out.push((seq, None, r, turn, ply));
            }
            let claim = s.claimable_draw().map(rules::claim_name);
            let output = s.output();
            let pending_move = pending_move.and_then(|(uci, san, before)| {
                rules::contested(&output, &before)
                    .then_some(crate::protocol::MovePlayed { uci, san })
            });
            (out, output, s.is_check(), claim, pending_move)
        })
        .await?;
        let (steps, mut output, in_check, draw_claim, pending_move) = results;
        self.pending_move = pending_move;
        for (i, (seq, event, refused, turn, ply)) in steps.into_iter().enumerate() {
            if let Some(r) = refused {
                return Err(format!(
                    "game {}: stored input {seq} is refused on replay: {r}",
                    self.id
                ));
            }
            if let Some(ev) = event {
                let ev: Event = serde_json::from_value(ev)
                    .map_err(|e| format!("game {}: stored event {seq}: {e}", self.id))?;
                if let Some(o) = self.apply_event(&ev) {
                    self.outcome = Some(o);
                }
            } else if serde_json::from_str::<Value>(&entries[i].body)
                .ok()
                .and_then(|v| v.get("move").cloned())
                .is_some()
            {
                self.last_move = Some((turn, ply));
                self.draw_offer = None;
                self.takeback_offer = None;
            }
        }
        if let (Some(clock), Some(last)) = (
            self.clock.as_mut(),
            entries.iter().rev().find(|e| e.white_ms.is_some()),
        ) {
            clock.set(last.white_ms.unwrap_or(0), last.black_ms.unwrap_or(0));
        }
        self.entries = entries;
        if self.outcome.is_none() {
            self.outcome = session_outcome(&output.status);
        }
        // A restart charges the side whose clock ran (the side to move, or
        // the chooser the game waited for) the time it thought between
        // its turn's last stored input and the previous server's stop; the
        // outage itself is charged to no one (docs/protocol.md § Clocks).
        // Before, the clock resumed from the value stored with the last
        // input, giving that thinking time back (issue 26 item 7).
        let mut charge_restart = None;
        if let (Some(stop), Some(last)) = (
            stopped_ms,
            self.entries.iter().rev().find(|e| e.white_ms.is_some()),
        ) {
            let used = (stop - last.at_ms).max(0);
            if used > 0 && self.clock.is_some() && self.outcome.is_none() && output.ply_count > 0 {
                charge_restart =
                    Some((used, last.white_ms.unwrap_or(0), last.black_ms.unwrap_or(0)));
            }
        }
        self.log = std::mem::take(&mut output.log);
        self.out = Arc::new(output);
        // The side charged is the one whose clock ran (a pending choice's
        // chooser, [`Game::clock_side`]), known once the output is in.
        if let Some((used, w, b)) = charge_restart {
            let side = self.clock_side();
            if let Some(clock) = self.clock.as_mut() {
                match side {
                    Color::White => clock.set(w - used, b),
                    Color::Black => clock.set(w, b - used),
                }
            }
        }
        self.in_check = in_check;
        self.draw_claim = draw_claim;
        let now = Instant::now();
        // A game rebuilt with its clock to run (a restart, a take-over:
        // a running clock keeps a game loaded otherwise) waits for the
        // seat it runs for ([`Timing::seat_return`]).
        if self.clock.is_some() && self.outcome.is_none() && self.ply_count() > 0 {
            self.clock_hold = Some(now + self.timing.seat_return);
        }
        self.after_change(now);
        Ok(())
    }

    fn seq(&self) -> u64 {
        self.entries.len() as u64
    }

    fn turn(&self) -> Color {
        match self.out.side_to_move {
            ColorName::Black => Color::Black,
            ColorName::White => Color::White,
        }
    }

    fn ply_count(&self) -> u32 {
        self.out.ply_count
    }

    fn pending(&self) -> Option<&PendingChoice> {
        self.out.pending_choice.as_ref()
    }

    fn choice_timeout(&self) -> ChoiceTimeout {
        self.request.choice_timeout.clone().unwrap_or_default()
    }

    /// Applies a game event to the in-memory state; the outcome it ends
    /// the game with, if any.
    fn apply_event(&mut self, ev: &Event) -> Option<Outcome> {
        match ev {
            Event::Resign { player } => Some(Outcome::win(color_of(player).flip(), "resignation")),
            Event::OfferDraw { player } => {
                self.draw_offer = Some(color_of(player));
                None
            }
            Event::DeclineDraw { .. } => {
                self.draw_offer = None;
                None
            }
            Event::AcceptDraw { .. } => {
                self.draw_offer = None;
                Some(Outcome::draw("agreement"))
            }
            Event::ClaimDraw { claim, .. } => Some(Outcome::draw(claim)),
            Event::Flag { result, .. } => Some(Outcome {
                result: result.clone(),
                reason: if result == "1/2-1/2" {
                    "timeout-vs-insufficient-material"
                } else {
                    "timeout"
                }
                .into(),
            }),
            Event::Forfeit { player } => Some(Outcome::win(
                color_of(player).flip(),
                "disconnect-during-choice",
            )),
            Event::ClaimVictory { player } => Some(Outcome::win(color_of(player), "abandonment")),
            Event::RematchOffer { .. }
            | Event::RematchAccept { .. }
            | Event::RematchDecline { .. } => {
                self.rematch = rematch::apply(self.rematch.take(), ev);
                None
            }
            Event::TakebackOffer { player } => {
                self.takeback_offer = Some(color_of(player));
                None
            }
            Event::TakebackAccept { .. } | Event::TakebackDecline { .. } => {
                // A takeback's state change is the session's rebuild
                // (`takeback`); the move it took back no longer counts as
                // a resend.
                if matches!(ev, Event::TakebackAccept { .. }) {
                    self.last_move = None;
                    self.draw_offer = None;
                }
                self.takeback_offer = None;
                None
            }
        }
    }

    /// Clocks, pause and choice deadline after a change (or a rebuild).
    fn after_change(&mut self, now: Instant) {
        let pending = self.pending().cloned();
        let for_player = pending
            .as_ref()
            .map_or(String::new(), |p| p.for_player.clone());
        self.paused = self.outcome.is_none()
            && pending.is_some()
            && self.choice_timeout() == ChoiceTimeout::NoTimeout
            && ["white", "black"]
                .iter()
                .any(|c| (for_player == *c || for_player == "both") && !self.present(color_of(c)));
        let turn = self.clock_side();
        let ply = self.ply_count();
        let over = self.outcome.is_some();
        let paused = self.paused;
        // The hold after a rebuild ends when the seat is back, at its
        // bound, or when the clock stops anyway.
        let present = self.present(turn);
        self.clock_hold = self
            .clock_hold
            .filter(|until| !present && now < *until && !over && !paused && ply > 0);
        let hold = self.clock_hold;
        if let Some(clock) = self.clock.as_mut() {
            if over || paused || ply == 0 {
                clock.stop(now);
            } else if clock.running() != Some(turn) {
                match hold {
                    Some(until) => clock.start_at(turn, now, until),
                    None => clock.start(turn, now),
                }
            } else if hold.is_none() {
                // Back within the hold: the clock runs from now.
                clock.resume_by(now);
            }
        }
        let id = pending
            .as_ref()
            .map_or(String::new(), |p| p.choice_id.clone());
        // A choice's timer starts once its choosers are at the board (a
        // connection, or the engine's seat), not when the choice arises:
        // a choice raised at creation timed out before anyone opened the
        // page (issue 26 item 2). Once started it runs on.
        let choosers_here = ["white", "black"]
            .iter()
            .all(|c| !(for_player == *c || for_player == "both") || self.present(color_of(c)));
        self.choice_deadline = match (&self.choice_timeout(), pending.is_none() || over) {
            (ChoiceTimeout::TimeoutWithDefault { seconds }, false) => {
                let secs = pending
                    .as_ref()
                    .and_then(|p| p.prompt["timeout"].as_u64())
                    .unwrap_or(u64::from(*seconds)) as u32;
                // A deadline already set for this choice stands.
                match self.choice_deadline.take() {
                    Some((old, at)) if old == id => Some((id, at)),
                    _ if choosers_here => Some((id, now + self.timing.choice_second * secs)),
                    _ => None,
                }
            }
            _ => None,
        };
    }

    /// The side whose clock runs (when clocks run): the player the game
    /// waits for. Without a pending choice, the side to move. A choice for
    /// one player runs that player's clock; a choice for both (Parry's
    /// throw) runs the mover's until the mover has answered, then the
    /// other's. A player who has answered never loses time, so a defender
    /// who does not answer runs their own clock down, not the capturer's
    /// (trial 18; docs/protocol.md § Clocks during choices).
    fn clock_side(&self) -> Color {
        let turn = self.turn();
        match self.pending().map(|p| p.for_player.as_str()) {
            Some("white") => Color::White,
            Some("black") => Color::Black,
            Some("both") => {
                let answered = |c: Color| {
                    self.pending()
                        .is_some_and(|p| p.collected.contains_key(c.name()))
                };
                if answered(turn) && !answered(turn.flip()) {
                    turn.flip()
                } else {
                    turn
                }
            }
            _ => turn,
        }
    }

    fn present(&self, c: Color) -> bool {
        if self.engine.as_ref().is_some_and(|e| e.seat.color == c) {
            return true; // the engine is always at the board
        }
        let seat = if c == Color::White {
            Seat::White
        } else {
            Seat::Black
        };
        self.conns.iter().any(|k| k.seat == seat)
    }

    /// The full state sent to clients (`welcome`, `state`, `GET`): the
    /// session output with its log, then the game's fields. Built as a
    /// `Value` so that its keys keep the order v1 and v2 clients have
    /// always got (sorted).
    fn view(&self) -> Value {
        let now = Instant::now();
        let mut v = serde_json::to_value(&*self.out).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut v {
            m.insert(
                "log".into(),
                serde_json::to_value(&self.log).unwrap_or(Value::Null),
            );
            m.insert("inCheck".into(), json!(self.in_check));
            m.insert("drawClaim".into(), json!(self.draw_claim));
            m.insert("id".into(), json!(self.id));
            m.insert("seq".into(), json!(self.seq()));
            m.insert(
                "clock".into(),
                match &self.clock {
                    None => Value::Null,
                    Some(c) => {
                        let (w, b) = c.both(now);
                        json!({
                            "white": {"remainingMs": w.max(0)},
                            "black": {"remainingMs": b.max(0)},
                            "running": c.running().map(|c| c.name()),
                            "serverTimeMs": now_ms(),
                        })
                    }
                },
            );
            m.insert(
                "presence".into(),
                json!({"white": self.present(Color::White), "black": self.present(Color::Black)}),
            );
            m.insert("drawOffer".into(), json!(self.draw_offer.map(|c| c.name())));
            m.insert("result".into(), json!(self.outcome));
            m.insert("paused".into(), json!(self.paused));
            m.insert("choiceLeftMs".into(), json!(self.choice_left_ms(now)));
            m.insert(
                "players".into(),
                json!({"white": self.meta.white, "black": self.meta.black}),
            );
            m.insert(
                "seats".into(),
                json!({"white": self.tokens[0].is_some(), "black": self.tokens[1].is_some()}),
            );
            m.insert(
                "engine".into(),
                json!(self.engine.as_ref().map(|e| json!({
                    "color": e.seat.color.name(),
                    "level": e.seat.level,
                    "thinking": self.engine_due(),
                }))),
            );
            m.insert(
                "claimVictoryAfterMs".into(),
                json!(self.timing.claim_victory_after.as_millis() as u64),
            );
            m.insert("rematch".into(), json!(self.rematch_view()));
            m.insert(
                "takebackOffer".into(),
                json!(self.takeback_offer.map(|c| c.name())),
            );
            m.insert("pendingMove".into(), json!(self.pending_move));
        }
        v
    }

    /// The answers already given to a pending choice for both players (an
    /// rps throw): secret until the other player's is in (modifier-rulings
    /// B5), so the record, the PGN and the update of such an answer leave
    /// them out. They are the last inputs: nothing else is accepted while
    /// the choice is pending.
    fn hidden_answers(&self) -> usize {
        self.out
            .pending_choice
            .as_ref()
            .filter(|p| p.for_player == "both")
            .map_or(0, |p| p.collected.len())
    }

    /// The inputs anyone may read: all but [`Game::hidden_answers`].
    fn public_entries(&self) -> &[Entry] {
        &self.entries[..self.entries.len().saturating_sub(self.hidden_answers())]
    }

    fn record(&self) -> Value {
        crate::archive::record(
            &self.id,
            &self.request_text,
            self.public_entries(),
            self.outcome.as_ref(),
        )
    }

    /// The game as PGN ([`crate::archive::pgn`], the same text whether the
    /// game is in memory or not).
    async fn pgn(&self) -> String {
        crate::archive::pgn(
            &self.id,
            self.request.clone(),
            &self.meta,
            self.created_ms,
            self.public_entries(),
            self.outcome.as_ref(),
        )
        .await
    }

    fn send(&mut self, conn: u64, msg: &ServerMessage) {
        let text: Arc<str> = msg.to_text().into();
        self.send_text(|c| c.id == conn, &text);
    }

    /// Sends to the connections `to` selects; a connection whose queue is
    /// full (a client that does not read) or whose writer has stopped (its
    /// socket closed) is dropped, and kept in `lost` to be handled as gone
    /// ([`Game::reap`]): dropping it silently left its seat present for
    /// good when it was the seat's last connection, since its `Gone` then
    /// found nothing (the flaky `pause_on_disconnect`, session 8).
    fn send_text(&mut self, to: impl Fn(&Conn) -> bool, text: &Arc<str>) {
        let mut i = 0;
        while i < self.conns.len() {
            let c = &self.conns[i];
            if to(c) && c.tx.try_send(Arc::clone(text)).is_err() {
                let c = self.conns.remove(i);
                self.lost.push(c);
            } else {
                i += 1;
            }
        }
    }

    /// Handles the connections sends dropped as gone, in the order they
    /// were dropped (the broadcasts this makes may drop more).
    async fn reap(&mut self) {
        while !self.lost.is_empty() {
            let c = self.lost.remove(0);
            self.departed(c).await;
        }
    }

    /// A connection left (closed, or dropped by a send): presence, and
    /// the seat's absence when it was its last connection.
    async fn departed(&mut self, gone: Conn) {
        self.metrics.connections.dec();
        self.broadcast_presence();
        if let Some(c) = seat_color(gone.seat) {
            if !self.present(c) {
                self.gone_since[if c == Color::White { 0 } else { 1 }] = Some(Instant::now());
                self.on_seat_gone(c).await;
            }
        }
    }

    fn broadcast_presence(&mut self) {
        let msg = ServerMessage::Presence {
            white: self.present(Color::White),
            black: self.present(Color::Black),
            spectators: self
                .conns
                .iter()
                .filter(|c| c.seat == Seat::Spectator)
                .count() as u32,
        };
        let text: Arc<str> = msg.to_text().into();
        self.send_text(|_| true, &text);
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        loop {
            self.engine_step().await;
            let deadline = self.next_deadline();
            let unload = self.unload_at();
            let wake = {
                let thought = async {
                    match self.engine.as_mut().and_then(|e| e.thinking.as_mut()) {
                        Some((_, _, answer)) => answer.await.ok().flatten(),
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    c = rx.recv() => Wake::Cmd(c),
                    _ = tokio::time::sleep_until(deadline.unwrap_or_else(Instant::now).into()),
                        if deadline.is_some() => Wake::Deadline,
                    t = thought => Wake::Thought(t),
                    _ = tokio::time::sleep_until(unload.unwrap_or_else(Instant::now).into()),
                        if unload.is_some() => Wake::Unload,
                }
            };
            match wake {
                Wake::Cmd(None) | Wake::Cmd(Some(Cmd::Stop)) => break,
                Wake::Cmd(Some(cmd)) => {
                    self.life.touch();
                    self.handle(cmd).await;
                }
                Wake::Deadline => self.on_deadline().await,
                Wake::Thought(t) => self.on_thought(t).await,
                Wake::Unload => {
                    if self.try_unload(&rx).await {
                        break;
                    }
                }
            }
            self.reap().await;
        }
        // Closed before the connections go, so that their writers see the
        // game gone (close 1012: reconnect) rather than a dropped client.
        rx.close();
        if let Some((_, stop, _)) = self.engine.as_mut().and_then(|e| e.thinking.take()) {
            stop.store(true, Ordering::Relaxed);
        }
        self.metrics.games_loaded.dec();
        if self.outcome.is_none() {
            self.metrics.games_live.dec();
        }
    }

    /// The engine's part after every change (and after a rebuild, so that
    /// a restarted server resumes its thinking): a search is started on
    /// the blocking pool when it is the engine's turn, and stopped when
    /// the position it was for is gone (a resignation, a flag, an agreed
    /// draw); a draw offer to it is answered.
    async fn engine_step(&mut self) {
        let Some(e) = self.engine.as_ref() else {
            return;
        };
        let color = e.seat.color;
        if self.outcome.is_none() && self.draw_offer == Some(color.flip()) {
            let ev = if engine::accepts_draw(e.last_score) {
                Event::AcceptDraw {
                    player: color.name().into(),
                }
            } else {
                Event::DeclineDraw {
                    player: color.name().into(),
                }
            };
            let _ = self.commit_event(ev).await;
        }
        let ply = self.ply_count();
        let due = self.engine_due();
        let now = Instant::now();
        let own_ms = self.clock.as_ref().map(|c| c.remaining(color, now));
        let increment = self.meta.clock.as_ref().map_or(Duration::ZERO, |c| {
            Duration::from_secs_f64(c.increment_seconds.max(0.0))
        });
        let session = Arc::clone(&self.session);
        let Some(e) = self.engine.as_mut() else {
            return;
        };
        if let Some((for_ply, stop, _)) = &e.thinking {
            if due && *for_ply == ply {
                return; // still thinking about this position
            }
            stop.store(true, Ordering::Relaxed);
            e.thinking = None;
        }
        if !due || e.failed_at == Some(ply) {
            return;
        }
        let limits = engine::limits(color, own_ms, increment);
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = oneshot::channel();
        let (searcher, setup, flag) = (
            Arc::clone(&e.searcher),
            Arc::clone(&e.setup),
            Arc::clone(&stop),
        );
        // At most `Limits::engine_searches` searches run at once (issue 21:
        // sixteen engine games took a canary game's p99 from 6 to 141 ms);
        // this one waits its turn, and its clock time spent waiting is
        // taken from what it may spend.
        let searches = self.metrics.engine_searches.clone();
        let queued_at = Instant::now();
        tokio::spawn(async move {
            let _turn = searches.turn().await;
            if flag.load(Ordering::Relaxed) {
                return; // stopped while waiting: its position is gone
            }
            let limits = engine::after_waiting(limits, color, queued_at.elapsed());
            let r = tokio::task::spawn_blocking(move || {
                engine::think(&session, &searcher, &setup, color, ply, &limits, &flag)
            })
            .await
            .ok()
            .flatten();
            let _ = tx.send(r);
        });
        e.thinking = Some((ply, stop, rx));
    }

    /// Whether it is the engine's turn in a game going on (its search runs,
    /// or starts as soon as the task is free).
    fn engine_due(&self) -> bool {
        self.engine.as_ref().is_some_and(|e| {
            self.outcome.is_none()
                && match self.pending() {
                    None => self.turn() == e.seat.color,
                    Some(p) => choice_is_mine(p, e.seat.color),
                }
        })
    }

    /// The engine's search answered: its move is played as a player's
    /// move is (submitted, committed, broadcast), unless the position it
    /// was for is gone meanwhile.
    async fn on_thought(&mut self, thought: Option<Thought>) {
        let ply = self.ply_count();
        let turn = self.turn();
        let pending = self.pending().cloned();
        let over = self.outcome.is_some();
        let Some(e) = self.engine.as_mut() else {
            return;
        };
        let Some((for_ply, _, _)) = e.thinking.take() else {
            return;
        };
        let Some(t) = thought else {
            tracing::error!(game = %self.id, ply, "engine failure: the search gave no move");
            e.failed_at = Some(for_ply);
            return;
        };
        // The position it searched must still be the one to answer: the
        // same ply, and a move only with no choice pending, a choice only
        // while one waits for the engine.
        let still = match &t.action {
            Action::Move(_) => pending.is_none() && turn == e.seat.color,
            Action::Choice { .. } => pending
                .as_ref()
                .is_some_and(|p| choice_is_mine(p, e.seat.color)),
        };
        if over || for_ply != ply || !still {
            return;
        }
        e.last_score = Some(t.score);
        if let Err((code, message)) = self.apply_input(Some(t.action.input())).await {
            tracing::error!(game = %self.id, code, %message, "engine failure: its action was not played");
        }
    }

    fn next_deadline(&self) -> Option<Instant> {
        if self.outcome.is_some() {
            return None;
        }
        let flag = self.clock.as_ref().and_then(|c| c.deadline()).map(|d| d.1);
        [
            flag,
            self.choice_deadline.as_ref().map(|d| d.1),
            self.forfeit_due.map(|d| d.1),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    async fn on_deadline(&mut self) {
        let now = Instant::now();
        if let Some((c, at)) = self.forfeit_due {
            if at <= now {
                self.forfeit_due = None;
                if !self.present(c) && self.choice_pending_for(c) {
                    let _ = self
                        .commit_event(Event::Forfeit {
                            player: c.name().into(),
                        })
                        .await;
                    return;
                }
            }
        }
        if let Some((side, at)) = self.clock.as_ref().and_then(|c| c.deadline()) {
            if at <= now {
                let result = if self.fide_dead && cannot_mate(&self.out.pieces, side.flip()) {
                    "1/2-1/2".to_string()
                } else {
                    Outcome::win(side.flip(), "").result
                };
                let ev = Event::Flag {
                    player: side.name().into(),
                    result,
                };
                let _ = self.commit_event(ev).await;
                return;
            }
        }
        if self.choice_deadline.as_ref().is_some_and(|d| d.1 <= now) {
            self.choice_deadline = None;
            self.time_out_choice().await;
        }
    }

    /// The pending choice's timer ran out: its default is taken. A throw
    /// for both players gets `rock` for each player who has not answered
    /// (rulings B7), each stored as an input of its own, White's first:
    /// the session's timeout answers every missing slot in one step, and
    /// only the last of them was stored (trial 18: after a restart the
    /// replay lacked White's throw).
    async fn time_out_choice(&mut self) {
        let missing: Vec<Color> = match self.pending() {
            Some(p) if p.for_player == "both" && p.kind == "rps" => [Color::White, Color::Black]
                .into_iter()
                .filter(|c| !p.collected.contains_key(c.name()))
                .collect(),
            _ => Vec::new(),
        };
        if missing.is_empty() {
            let _ = self.apply_input(None).await;
            return;
        }
        for c in missing {
            let act = Act::Input(Input::Choice {
                choice: json!("rock"),
                player: Some(c.name().into()),
                auto: Some("timeout".into()),
            });
            if self.submit_commit(act).await.is_err() {
                return;
            }
        }
        self.on_pending_choice().await;
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Hello {
                seat,
                version,
                tx,
                reply,
            } => {
                let id = self.next_conn;
                self.next_conn += 1;
                self.conns.push(Conn {
                    id,
                    seat,
                    version,
                    tx,
                });
                self.metrics.connections.inc();
                let _ = reply.send(id);
                if let Some(c) = seat_color(seat) {
                    let i = if c == Color::White { 0 } else { 1 };
                    self.gone_since[i] = None;
                    self.seen[i] = true;
                    if self.forfeit_due.is_some_and(|(p, _)| p == c) {
                        self.forfeit_due = None; // back within the grace
                    }
                }
                let was_paused = self.paused;
                let had_timer = self.choice_deadline.is_some();
                let was_held = self.clock_hold.is_some();
                self.after_change(Instant::now());
                // The player a rebuilt game's clock waited for is back:
                // every page gets the clock that runs from now.
                let released = was_held && self.clock_hold.is_none();
                // A chooser came: the choice's timer starts now (after a
                // restart, in full), and every page counts down from it.
                let timer_started = !had_timer && self.choice_deadline.is_some();
                let welcome = ServerMessage::Welcome {
                    protocol_version: version,
                    seat,
                    seq: self.seq(),
                    state: self.view(),
                };
                self.send(id, &welcome);
                self.broadcast_presence();
                if (was_paused && !self.paused) || timer_started || released {
                    self.broadcast_state();
                }
                self.on_pending_choice().await;
            }
            Cmd::Gone { conn } => {
                let Some(pos) = self.conns.iter().position(|c| c.id == conn) else {
                    return;
                };
                let gone = self.conns.remove(pos);
                self.departed(gone).await;
            }
            Cmd::Message { conn, msg, at } => {
                let Some(c) = self.conns.iter().find(|c| c.id == conn) else {
                    return;
                };
                let (seat, version) = (c.seat, c.version);
                self.on_message(conn, seat, version, msg).await;
                self.metrics.ack_latency.observe(at.elapsed().as_secs_f64());
            }
            Cmd::View(reply) => {
                let _ = reply.send(self.view());
            }
            Cmd::Record(reply) => {
                let _ = reply.send(self.record());
            }
            Cmd::Pgn(reply) => {
                let pgn = self.pgn().await;
                let _ = reply.send(pgn);
            }
            Cmd::SeatOf { token, reply } => {
                let _ = reply.send(crate::seat_of(&self.tokens, &token));
            }
            Cmd::Join { name, reply } => {
                let _ = reply.send(self.join(name).await);
            }
            Cmd::Name { token, name, reply } => {
                let _ = reply.send(self.name_by_token(&token, &name).await);
            }
            Cmd::Rematch { token, reply } => {
                let _ = reply.send(self.rematch(&token).await);
            }
            Cmd::Stop => {} // handled by `run`
        }
    }

    async fn join(&mut self, joiner: Option<String>) -> Result<JoinedSeat, String> {
        if self.outcome.is_some() {
            return Err("the game is over".into());
        }
        let Some(i) = self.tokens.iter().position(Option::is_none) else {
            return Err("both seats are taken".into());
        };
        let seat = if i == 0 { Seat::White } else { Seat::Black };
        let token = crate::random_token();
        let name = if i == 0 { "white" } else { "black" };
        let status = if self.tokens.iter().filter(|t| t.is_none()).count() == 1 {
            "live"
        } else {
            "open"
        };
        match self.store.take_seat(&self.id, name, &token, status).await {
            Ok(true) => {
                self.tokens[i] = Some(token.clone());
                let c = if i == 0 { Color::White } else { Color::Black };
                match joiner {
                    // The seat is taken either way: a name the store did
                    // not keep is logged, and the page can name it later.
                    Some(n) if self.seat_name(c).is_none() => {
                        if let Err(e) = self.set_seat_name(c, &n).await {
                            tracing::warn!(game = %self.id, error = %e.message, "the joiner's name was not kept");
                            self.broadcast_state();
                        }
                    }
                    _ => self.broadcast_state(),
                }
                Ok((seat, token, self.seat_name(c).map(str::to_string)))
            }
            Ok(false) => Err("the seat was taken meanwhile".into()),
            Err(e) => {
                self.metrics.store_errors.inc();
                tracing::error!(game = %self.id, error = %e, "store error taking a seat");
                Err(e.to_string())
            }
        }
    }

    /// A seat lost its last connection (modifier-dsl-decisions § Choice
    /// Timeout & Disconnect): with a choice pending for it, a forfeit in
    /// `timeout-with-default` mode, a pause in `no-timeout` mode.
    /// Whether the pending choice waits for `c` (for `c`, or an rps for
    /// both).
    fn choice_pending_for(&self, c: Color) -> bool {
        let for_player = self.pending().map_or("", |p| p.for_player.as_str());
        for_player == c.name() || for_player == "both"
    }

    async fn on_seat_gone(&mut self, c: Color) {
        if self.outcome.is_some() {
            return;
        }
        if !self.choice_pending_for(c) {
            return;
        }
        match self.choice_timeout() {
            ChoiceTimeout::TimeoutWithDefault { .. } => {
                let grace = self.timing.choice_disconnect_grace;
                if grace.is_zero() {
                    let _ = self
                        .commit_event(Event::Forfeit {
                            player: c.name().into(),
                        })
                        .await;
                } else {
                    // Forfeit only if still gone when the grace ends
                    // (`on_deadline`); a reconnect cancels it.
                    self.forfeit_due = Some((c, Instant::now() + grace));
                }
            }
            ChoiceTimeout::NoTimeout => {
                self.after_change(Instant::now());
                self.broadcast_state();
            }
        }
    }

    async fn on_message(&mut self, conn: u64, seat: Seat, version: u8, msg: ClientMessage) {
        let kind = kind_name(&msg);
        let refuse = |code: &str, m: &str| ServerMessage::error(code, m, Some(kind));
        if let ClientMessage::Ping = msg {
            self.send(conn, &ServerMessage::Pong);
            return;
        }
        // Anyone may resync (spectators too), during the game or after.
        if let ClientMessage::Resync { last_seq } = msg {
            self.on_resync(conn, version, last_seq);
            return;
        }
        if let ClientMessage::Hello { .. } = msg {
            self.send(
                conn,
                &refuse("message.hello-again", "hello is sent once, first"),
            );
            return;
        }
        let Some(me) = seat_color(seat) else {
            self.send(
                conn,
                &refuse("seat.spectator", "a spectator cannot act in the game"),
            );
            return;
        };
        if self.outcome.is_some() {
            // A resend of a move already played is answered with the state
            // after the end too: a resend never errors (issue 13; found by
            // tests/state_machine.rs, where it got `game.over`).
            if let ClientMessage::Move { ply, .. } = &msg {
                if self.is_resend(me, *ply) {
                    self.send_state(conn);
                    return;
                }
            }
        }
        if let ClientMessage::DeclineRematch = msg {
            if let Err((code, message)) = self.decline_rematch(me).await {
                self.send(conn, &ServerMessage::error(code, message, Some(kind)));
            }
            return;
        }
        if let Some(o) = &self.outcome {
            let m = format!("the game is over ({} by {})", o.result, o.reason);
            self.send(conn, &refuse("game.over", &m));
            return;
        }
        // An open challenge starts when its free seat is taken: no move,
        // choice, offer or claim before (session-7 re-trial: the creator
        // could play and offer a draw to nobody). Resigning stays possible.
        if self.tokens.iter().any(Option::is_none) && !matches!(msg, ClientMessage::Resign) {
            self.send(
                conn,
                &refuse(
                    "game.not-started",
                    "the game starts when someone takes the free seat",
                ),
            );
            return;
        }
        let result = match msg {
            ClientMessage::Move { mv, ply } => self.on_move(conn, me, mv, ply).await,
            ClientMessage::SubmitChoice { choice_id, value } => {
                self.on_submit_choice(me, choice_id, value).await
            }
            ClientMessage::Resign => {
                self.commit_event(Event::Resign {
                    player: me.name().into(),
                })
                .await
            }
            ClientMessage::OfferDraw => {
                if self.draw_offer == Some(me.flip()) {
                    self.commit_event(Event::AcceptDraw {
                        player: me.name().into(),
                    })
                    .await
                } else if self.draw_offer == Some(me) {
                    Err(("draw.already-offered", "your draw offer stands".to_string()))
                } else {
                    self.commit_event(Event::OfferDraw {
                        player: me.name().into(),
                    })
                    .await
                }
            }
            ClientMessage::AcceptDraw | ClientMessage::DeclineDraw
                if self.draw_offer != Some(me.flip()) =>
            {
                Err((
                    "draw.no-offer",
                    "the opponent has no draw offer standing".to_string(),
                ))
            }
            ClientMessage::AcceptDraw => {
                self.commit_event(Event::AcceptDraw {
                    player: me.name().into(),
                })
                .await
            }
            ClientMessage::DeclineDraw => {
                self.commit_event(Event::DeclineDraw {
                    player: me.name().into(),
                })
                .await
            }
            ClientMessage::ClaimDraw {
                mv: Some(mv),
                ply: Some(ply),
            } => self.on_claim_draw_with_move(conn, me, mv, ply).await,
            ClientMessage::ClaimDraw { .. } => self.on_claim_draw(me).await,
            ClientMessage::ClaimVictory => {
                let them = me.flip();
                let idx = if them == Color::White { 0 } else { 1 };
                match self.gone_since[idx] {
                    Some(_) if !self.seen[idx] => Err((
                        "claim.opponent-never-joined",
                        "the opponent has not joined the game yet; a win can be claimed only \
                         against a player who came and left"
                            .to_string(),
                    )),
                    Some(t) if t.elapsed() >= self.timing.claim_victory_after => {
                        self.commit_event(Event::ClaimVictory {
                            player: me.name().into(),
                        })
                        .await
                    }
                    Some(t) => Err((
                        "claim.too-early",
                        format!(
                            "the opponent has been gone {} ms; the win can be claimed after {} ms",
                            t.elapsed().as_millis(),
                            self.timing.claim_victory_after.as_millis()
                        ),
                    )),
                    None => Err((
                        "claim.opponent-present",
                        "the opponent is connected".to_string(),
                    )),
                }
            }
            ClientMessage::OfferTakeback => self.offer_takeback(me).await,
            ClientMessage::AcceptTakeback => self.accept_takeback(me).await,
            ClientMessage::DeclineTakeback => self.decline_takeback(me).await,
            ClientMessage::Ping
            | ClientMessage::Hello { .. }
            | ClientMessage::Resync { .. }
            | ClientMessage::DeclineRematch => Ok(()),
        };
        if let Err((code, message)) = result {
            self.send(conn, &ServerMessage::error(code, message, Some(kind)));
        }
    }

    async fn on_claim_draw(&mut self, me: Color) -> Result<(), (&'static str, String)> {
        if self.turn() != me {
            return Err((
                "draw.not-your-turn",
                "a draw is claimed on one's own turn".into(),
            ));
        }
        let claim = blocking(&self.session, |s| s.claimable_draw().map(rules::claim_name))
            .await
            .map_err(|e| ("server.rules", e))?;
        match claim {
            Some(c) => {
                self.commit_event(Event::ClaimDraw {
                    player: me.name().into(),
                    claim: c.into(),
                })
                .await
            }
            None => Err((
                "draw.no-claim",
                "no draw can be claimed: neither threefold repetition nor the fifty-move rule"
                    .into(),
            )),
        }
    }

    async fn on_move(
        &mut self,
        conn: u64,
        me: Color,
        mv: String,
        ply: u32,
    ) -> Result<(), (&'static str, String)> {
        if !self.check_move(conn, me, ply)? {
            return Ok(());
        }
        self.apply(Act::Move {
            text: mv,
            claim: false,
        })
        .await
        .map(drop)
    }

    /// Whether a move of `me` for `ply` is a resend of a move already
    /// played: an earlier ply, or the ply of `me`'s last accepted move
    /// (still current while a choice it raised is pending).
    fn is_resend(&self, me: Color, ply: u32) -> bool {
        ply < self.ply_count() || self.last_move == Some((me, ply))
    }

    /// Answers `conn` with the current state (a resend changes nothing):
    /// v1 and v2 get the full `state`; v3 the latest `update` again (a
    /// client that has it ignores it, one that missed more sees the gap
    /// and resyncs), or the full `state` when no update is kept (after a
    /// restart, or before any input).
    fn send_state(&mut self, conn: u64) {
        let v3 = self.conns.iter().any(|c| c.id == conn && c.version >= 3);
        if v3 {
            if let Some(text) = self.history.get(self.seq()) {
                self.send_text(|c| c.id == conn, &text);
                return;
            }
        }
        let msg = ServerMessage::State {
            seq: self.seq(),
            state: self.view(),
        };
        self.send(conn, &msg);
    }

    /// `resync` (v3): the updates after `last_seq` when all are kept, else
    /// the full state; nothing when the client is up to date. A v1 or v2
    /// client gets the full state (it never gets updates).
    fn on_resync(&mut self, conn: u64, version: u8, last_seq: u64) {
        let seq = self.seq();
        if last_seq == seq {
            return;
        }
        if version >= 3 {
            if let Some(texts) = self.history.since(last_seq, seq) {
                for t in texts {
                    self.send_text(|c| c.id == conn, &t);
                }
                return;
            }
        }
        let msg = ServerMessage::State {
            seq,
            state: self.view(),
        };
        self.send(conn, &msg);
    }

    /// The checks of a move message made before any rules work (on the
    /// game's own fields): `false` when it was a resend of a move already
    /// played (answered with the state).
    fn check_move(
        &mut self,
        conn: u64,
        me: Color,
        ply: u32,
    ) -> Result<bool, (&'static str, String)> {
        let now_ply = self.ply_count();
        if self.is_resend(me, ply) {
            self.send_state(conn);
            return Ok(false);
        }
        // The pending choice first: while it is pending the ply a player
        // counts on may be ahead of the game's (a `parry` capture waits for
        // its answer), and `move.bad-ply` would not say why (issue 26 item 9).
        if self.pending().is_some() {
            return Err((
                "move.choice-pending",
                "a choice is pending: moves wait for its answer".into(),
            ));
        }
        if ply > now_ply {
            return Err((
                "move.bad-ply",
                format!("the move is for ply {ply}, but the game is at ply {now_ply}"),
            ));
        }
        if self.turn() != me {
            return Err((
                "move.not-your-turn",
                format!("it is {}'s turn", self.turn().name()),
            ));
        }
        Ok(true)
    }

    /// A draw claimed by announcing a move (FIDE 9.2.1, 9.3.1): the claim
    /// is judged on the position the move makes
    /// (`Session::claimable_draw_after`, repetition counting the rule
    /// state, in the same blocking call as the move), then the move is
    /// played as any move is (committed, broadcast). A correct claim then
    /// draws the game (a `claim-draw` event after the move in the log). An
    /// incorrect one leaves the move played and the game going on (FIDE
    /// 9.5.2: the announced move must
    /// be made; the server adds no time to the opponent's clock), and the
    /// claimant gets a `warning` with code `draw.claim-incorrect`. A move
    /// that ends the game by itself (checkmate, an automatic draw) ends it
    /// so, and the claim is moot.
    async fn on_claim_draw_with_move(
        &mut self,
        conn: u64,
        me: Color,
        mv: String,
        ply: u32,
    ) -> Result<(), (&'static str, String)> {
        if !self.check_move(conn, me, ply)? {
            return Ok(());
        }
        let (uci, claim) = self
            .apply(Act::Move {
                text: mv,
                claim: true,
            })
            .await?;
        if self.outcome.is_some() {
            return Ok(());
        }
        match claim {
            Some(c) => {
                self.commit_event(Event::ClaimDraw {
                    player: me.name().into(),
                    claim: c.into(),
                })
                .await
            }
            None => {
                let warn = ServerMessage::Warning {
                    code: "draw.claim-incorrect".into(),
                    message: format!(
                        "the claim is incorrect: {} makes neither a threefold repetition nor \
                         the fifty-move rule; the move is played and the game goes on (FIDE 9.5.2)",
                        uci.unwrap_or_default()
                    ),
                };
                self.send(conn, &warn);
                Ok(())
            }
        }
    }

    async fn on_submit_choice(
        &mut self,
        me: Color,
        choice_id: String,
        value: Value,
    ) -> Result<(), (&'static str, String)> {
        let Some(pending) = self.pending() else {
            return Err(("choice.none-pending", "no choice is pending".into()));
        };
        if pending.choice_id != choice_id {
            // The id as JSON text, as the message always showed it.
            return Err((
                "choice.unknown-id",
                format!(
                    "the pending choice is {}, not {choice_id}",
                    Value::String(pending.choice_id.clone())
                ),
            ));
        }
        let for_player = pending.for_player.as_str();
        if for_player != me.name() && for_player != "both" {
            return Err((
                "choice.not-yours",
                format!("this choice is for {for_player}"),
            ));
        }
        if for_player == "both" && pending.collected.contains_key(me.name()) {
            return Err((
                "choice.already-answered",
                "your answer is in; waiting for the opponent".into(),
            ));
        }
        let player = (for_player == "both").then(|| me.name().to_string());
        self.apply_input(Some(Input::Choice {
            choice: value,
            player,
            auto: None,
        }))
        .await
    }

    /// Submits a session input (`None`: the timeout default, the first
    /// option recorded with `"auto": "timeout"`), commits it, broadcasts
    /// it, then handles a choice it raised.
    async fn apply_input(&mut self, input: Option<Input>) -> Result<(), (&'static str, String)> {
        let act = match input {
            Some(i) => Act::Input(i),
            None => Act::TimeoutDefault,
        };
        self.apply(act).await.map(drop)
    }

    /// [`Game::submit_commit`], then the choice it raised: the move's UCI
    /// and the draw claim that holds after it, if any.
    async fn apply(
        &mut self,
        act: Act,
    ) -> Result<(Option<String>, Option<&'static str>), (&'static str, String)> {
        let r = self.submit_commit(act).await?;
        self.on_pending_choice().await;
        Ok(r)
    }

    /// [`Game::apply`] without the follow-up: one blocking call for the
    /// rules ([`rules::step`]), the commit, the broadcast. On a store
    /// failure the session goes back to the stored log.
    async fn submit_commit(
        &mut self,
        act: Act,
    ) -> Result<(Option<String>, Option<&'static str>), (&'static str, String)> {
        let before = self.turn();
        let ply = self.ply_count();
        let Stepped {
            input,
            claim,
            mut out,
            in_check,
            draw_claim,
            changes,
        } = rules::step(&self.session, Arc::clone(&self.out), act).await?;
        let is_move = changes.mv.is_some();
        let body = serde_json::to_string(&input).unwrap_or_default();
        let outcome = session_outcome(&out.status);
        let events = std::mem::take(&mut out.log);
        let turn_after = match out.side_to_move {
            ColorName::Black => Color::Black,
            ColorName::White => Color::White,
        };
        let old = std::mem::replace(&mut self.out, Arc::new(out));
        let old_check = std::mem::replace(&mut self.in_check, in_check);
        let old_claim = std::mem::replace(&mut self.draw_claim, draw_claim);
        let moved = (turn_after != before).then_some(before);
        if let Err(e) = self.commit(body.clone(), outcome, moved).await {
            // Not stored: back to the stored state (a replay of the log).
            self.out = old;
            self.in_check = old_check;
            self.draw_claim = old_claim;
            let request = self.request.clone();
            let inputs = takeback::effective_inputs(&self.entries);
            let _ = blocking(&self.session, move |s| {
                if let Ok(again) = Session::replay(request, &inputs) {
                    *s = again;
                }
            })
            .await;
            return Err(("server.store", e));
        }
        if is_move {
            self.last_move = Some((before, ply));
            self.draw_offer = None;
            self.takeback_offer = None;
            self.metrics.moves.inc();
        }
        // A move that raised a choice waits for it (`pendingMove`); any
        // input after it that decides it ends the wait.
        if is_move {
            self.pending_move = changes
                .mv
                .clone()
                .filter(|_| rules::contested(&self.out, &old));
        } else if !rules::contested(&self.out, &old) {
            self.pending_move = None;
        }
        let uci = changes.mv.as_ref().map(|m| m.uci.clone());
        self.log.extend(events.iter().cloned());
        let mut input: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        if self.hidden_answers() > 0 {
            // A throw of a choice still waiting for the other player's:
            // everyone is sent the update, so the throw itself is hidden
            // (trial 18: a v3 client read the opponent's rps answer here).
            if let Some(v) = input.get_mut("choice") {
                *v = Value::String("hidden".into());
            }
        }
        self.broadcast_input(input, changes, events);
        Ok((uci, claim))
    }

    /// Stores one log entry (with the clocks) and updates the game: the
    /// entry is committed before anything is sent.
    async fn commit(
        &mut self,
        body: String,
        outcome: Option<Outcome>,
        moved: Option<Color>,
    ) -> Result<(), String> {
        let now = Instant::now();
        let mut clock = self.clock.clone();
        if let Some(c) = clock.as_mut() {
            // The increment only once the clocks run (not on the free
            // first move).
            let timed = self.ply_count() > 1 || c.running().is_some();
            c.charge(now, moved.filter(|_| timed));
        }
        let (w, b) = clock
            .as_ref()
            .map(|c| c.both(now))
            .map_or((None, None), |(w, b)| (Some(w), Some(b)));
        let entry = Entry {
            seq: self.seq() as i64 + 1,
            body,
            at_ms: now_ms(),
            white_ms: w,
            black_ms: b,
        };
        let finished = outcome
            .as_ref()
            .map(|o| serde_json::to_string(o).unwrap_or_default());
        let started = Instant::now();
        let appended = self
            .store
            .append(&self.id, &entry, finished.as_deref())
            .await;
        self.metrics
            .store_append
            .observe(started.elapsed().as_secs_f64());
        if let Err(e) = appended {
            self.metrics.store_errors.inc();
            tracing::error!(game = %self.id, seq = entry.seq, error = %e, "store error: input not committed");
            return Err(e.to_string());
        }
        self.clock = clock;
        self.entries.push(entry);
        if let Some(o) = outcome.as_ref().filter(|_| self.outcome.is_none()) {
            self.metrics.games_finished.inc();
            self.metrics.games_live.dec();
            tracing::info!(game = %self.id, rules = %crate::pgn_export::rules_summary_of(&self.request), result = %o.result, reason = %o.reason, "game finished");
        }
        if outcome.is_some() {
            self.outcome = outcome;
        }
        self.after_change(now);
        Ok(())
    }

    async fn commit_event(&mut self, ev: Event) -> Result<(), (&'static str, String)> {
        let offer = self.draw_offer;
        let outcome = self.apply_event(&ev);
        let body = serde_json::to_string(&ev).unwrap_or_default();
        if let Err(e) = self.commit(body, outcome, None).await {
            self.draw_offer = offer;
            return Err(("server.store", e));
        }
        let input = serde_json::to_value(&ev).unwrap_or(Value::Null);
        self.broadcast_input(input, Changes::default(), Vec::new());
        Ok(())
    }

    /// The game-level fields of the state now (in every `update`, and
    /// alone as `patch`).
    fn info(&self) -> GameInfo {
        let now = Instant::now();
        GameInfo {
            seq: self.seq(),
            clock: self.clock.as_ref().map(|c| {
                let (w, b) = c.both(now);
                ClockView {
                    white: SideClock {
                        remaining_ms: w.max(0),
                    },
                    black: SideClock {
                        remaining_ms: b.max(0),
                    },
                    running: c.running().map(Into::into),
                    server_time_ms: now_ms(),
                }
            }),
            presence: BothSides {
                white: self.present(Color::White),
                black: self.present(Color::Black),
            },
            draw_offer: self.draw_offer.map(Into::into),
            result: self.outcome.as_ref().map(|o| ResultView {
                result: o.result.clone(),
                reason: o.reason.clone(),
            }),
            paused: self.paused,
            seats: BothSides {
                white: self.tokens[0].is_some(),
                black: self.tokens[1].is_some(),
            },
            engine: self.engine.as_ref().map(|e| EngineView {
                color: e.seat.color.into(),
                level: e.seat.level,
                thinking: self.engine_due(),
            }),
            rematch: self.rematch_view(),
            takeback_offer: self.takeback_offer.map(Into::into),
            choice_left_ms: self.choice_left_ms(now),
            players: crate::protocol::Players {
                white: self.meta.white.clone(),
                black: self.meta.black.clone(),
            },
            pending_move: self.pending_move.clone(),
        }
    }

    /// Milliseconds before the pending choice's timer runs out, if one
    /// runs ([`GameInfo::choice_left_ms`]).
    fn choice_left_ms(&self, now: Instant) -> Option<u64> {
        if self.outcome.is_some() {
            return None;
        }
        self.choice_deadline
            .as_ref()
            .map(|(_, at)| at.saturating_duration_since(now).as_millis() as u64)
    }

    /// The messages of a committed input: the full `state` for v1 and v2
    /// connections (built only when one is connected), an `update` for v3
    /// (always built: it is kept for `resync`), each serialised once for
    /// all its receivers; then `game-over` when the input ended the game.
    /// `changes` are the rules' answer for a session input, none for a
    /// game event (which changes no rules state); `events`, the log
    /// entries the input added.
    fn broadcast_input(&mut self, input: Value, changes: Changes, events: Vec<LogEntry>) {
        self.broadcast_update(input, changes, events);
        self.send_game_over();
    }

    /// [`Game::broadcast_input`] without `game-over` (an event after the
    /// end, such as a rematch offer, does not end the game again).
    fn broadcast_update(&mut self, input: Value, changes: Changes, events: Vec<LogEntry>) {
        let out = Arc::clone(&self.out);
        let Changes {
            mv,
            pieces,
            markers,
            modifiers,
            vars,
        } = changes;
        let update = UpdateRef {
            info: self.info(),
            input,
            mv,
            ply_count: out.ply_count,
            fen: &out.fen,
            side_to_move: out.side_to_move,
            in_check: self.in_check,
            draw_claim: self.draw_claim,
            status: &out.status,
            legal_moves: &out.legal_moves,
            pending_choice: out.pending_choice.as_ref(),
            events,
            pieces,
            markers: markers.then_some(out.markers.as_slice()),
            active_modifiers: modifiers.then_some(out.active_modifiers.as_slice()),
            vars: vars.then_some(&out.vars),
            rng_stream: out.rng_stream,
        };
        let text: Arc<str> = update.to_text().into();
        self.history.push(self.seq(), Arc::clone(&text));
        self.send_text(|c| c.version >= 3, &text);
        self.send_full_state(|c| c.version < 3);
    }

    /// Sends the full `state` to the connections `to` selects, building it
    /// only when there is one.
    fn send_full_state(&mut self, to: impl Fn(&Conn) -> bool) {
        if !self.conns.iter().any(&to) {
            return;
        }
        let msg = ServerMessage::State {
            seq: self.seq(),
            state: self.view(),
        };
        let text: Arc<str> = msg.to_text().into();
        self.send_text(to, &text);
    }

    fn send_game_over(&mut self) {
        if let Some(o) = &self.outcome {
            if self.entries.last().is_some() {
                let over = ServerMessage::GameOver {
                    result: o.result.clone(),
                    reason: o.reason.clone(),
                };
                let text: Arc<str> = over.to_text().into();
                self.send_text(|_| true, &text);
            }
        }
    }

    /// A change without a new input (a seat taken, a pause or its end): v1
    /// and v2 get the full `state` (as they always have), v3 a `patch`
    /// with the game-level fields, bounded like an update.
    fn broadcast_state(&mut self) {
        if self.conns.iter().any(|c| c.version >= 3) {
            let text: Arc<str> = ServerMessage::Patch(self.info()).to_text().into();
            self.send_text(|c| c.version >= 3, &text);
        }
        self.send_full_state(|c| c.version < 3);
        self.send_game_over();
    }

    /// A choice is pending: ask the v2 connections of the player who must
    /// answer; a player connected only with v1 gets the spec's fallback
    /// (the first option, with a warning).
    async fn on_pending_choice(&mut self) {
        for _ in 0..16 {
            let Some(pending) = self.pending().cloned() else {
                return;
            };
            if self.outcome.is_some() {
                return;
            }
            let for_player = pending.for_player.clone();
            let who: Vec<Color> = match for_player.as_str() {
                "both" => [Color::White, Color::Black]
                    .into_iter()
                    .filter(|c| !pending.collected.contains_key(c.name()))
                    .collect(),
                p => vec![color_of(p)],
            };
            let mut fallback = None;
            for c in who {
                let seat = if c == Color::White {
                    Seat::White
                } else {
                    Seat::Black
                };
                let v2 = self.conns.iter().any(|k| k.seat == seat && k.version >= 2);
                let v1 = self.conns.iter().any(|k| k.seat == seat && k.version < 2);
                if v2 {
                    let ask = ServerMessage::RequestChoice {
                        choice_id: pending.choice_id.clone(),
                        prompt: pending.prompt.clone(),
                    };
                    let text: Arc<str> = ask.to_text().into();
                    self.send_text(|k| k.seat == seat && k.version >= 2, &text);
                } else if v1 && fallback.is_none() {
                    fallback = Some((c, seat));
                }
            }
            let Some((c, seat)) = fallback else { return };
            let warn = ServerMessage::Warning {
                code: "choice.v1-fallback".into(),
                message: format!(
                    "a {} choice fired for {}; protocol v1 cannot answer it, so its first option was taken",
                    pending.kind,
                    c.name()
                ),
            };
            let text: Arc<str> = warn.to_text().into();
            self.send_text(|k| k.seat == seat, &text);
            let act = if for_player == "both" {
                // One slot only (rulings B5: a slot that times out gets
                // rock): the other player may still answer.
                Act::Input(Input::Choice {
                    choice: json!("rock"),
                    player: Some(c.name().into()),
                    auto: Some("timeout".into()),
                })
            } else {
                Act::TimeoutDefault
            };
            if self.submit_commit(act).await.is_err() {
                return;
            }
        }
    }
}

/// A message's kind, for `ref` in errors.
fn kind_name(m: &ClientMessage) -> &'static str {
    m.kind()
}

/// A PGN `Date` tag value, `YYYY.MM.DD` (PGN Standard 8.1.1.3), for a time in
/// milliseconds since the Unix epoch, in UTC. The proleptic Gregorian date of
/// the day count (H. Hinnant's `civil_from_days`, public domain); a time
/// before year 0 or after 9999 is "????.??.??" (unknown, as the standard
/// writes it).
pub fn pgn_date(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097; // [0, 146096]
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365], from March 1
    let mp = (5 * doy + 2) / 153; // [0, 11], March is 0
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    if !(0..=9999).contains(&y) {
        return "????.??.??".into();
    }
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod date_tests {
    use super::pgn_date;

    #[test]
    fn pgn_dates_in_utc() {
        // 0 ms is 1970-01-01 (the epoch); 951_782_400 s is 2000-02-29
        // (10 957 days to 2000-01-01, + 31 + 28); one millisecond before
        // midnight UTC is still that day.
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(951_868_799_999), "2000.02.29");
        assert_eq!(pgn_date(951_868_800_000), "2000.03.01");
        // 2026-12-01: 20 788 days after the epoch (56 years of 365 days
        // = 20 440, + 14 leap days 1972..=2024, + 334 days to Dec 1).
        assert_eq!(pgn_date(20_788 * 86_400_000), "2026.12.01");
        assert_eq!(pgn_date(-86_400_000), "1969.12.31");
    }
}
