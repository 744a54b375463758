//! The rule-set session: a game under a rule set (presets, layout and
//! custom rule modifiers) that the server, the engine opponent and the
//! command-line tool host (issue 5 § Game session API; issue 12).
//!
//! A [`Session`] is built from a [`CreateRequest`] (JSON, schema
//! `docs/session-request.schema.json`), takes [`Input`]s (a move or a
//! choice) and shows its state as a [`SessionOutput`]. It records its
//! request and accepted inputs, so a game replays exactly
//! ([`Session::replay`], RULINGS M3), and it snapshots and restores
//! mid-dispatch, a pending choice included ([`Session::snapshot`],
//! [`Session::restore`]).
//!
//! The rules sit in the layers below: the engine (`houserules-engine`),
//! the presets (`houserules-presets`) and the modifier runtime
//! (`houserules_modifiers::runtime`), whose [`Runtime`] runs the triggers,
//! primitives, markers and choices that a session drives.
//!
//! ```
//! use houserules_session::{CreateRequest, Input, Session};
//! let mut s = Session::create(CreateRequest::default()).expect("the start position");
//! s.submit(Input::Move { mv: "e2e4".into() }).expect("legal");
//! assert_eq!(s.state().ply_count, 1);
//! ```

#![forbid(unsafe_code)]

mod output;
pub mod pgn_record;
mod request;

use std::collections::BTreeMap;
use std::sync::Arc;

use houserules_engine::{Game, Move};
use houserules_modifiers::descriptor::Descriptor;
use houserules_modifiers::runtime::{parse_color, Options};
use serde_json::{json, Value};

pub use houserules_modifiers::runtime::{
    codes, is_fully_immobilising, shape_ok, Arm, ChoiceTimeout, CoinFlips, Cursor, Instance,
    Lifetime, LogEntry, Marker, MarkerLifetime, PathStep, PendingChoice, Ply, Refusal, Runtime,
    SanBefore, State, Step, Work, DIRECTIONS, MAX_CASCADE, MAX_MARKERS, MAX_SKIPS,
};
pub use output::{
    input_schema_json, output_schema_json, request_schema_json, ActiveModifier, ColorName,
    InputLine, InputReport, MarkerOut, PieceOut, SessionOutput,
};
use request::{parse_param_value, resolve_modifier, uses_piece_hp, PresetGame};
pub use request::{CreateRequest, Input};

fn refuse(code: &'static str, message: impl Into<String>) -> Refusal {
    Refusal::new(code, message)
}

/// Refuses a modifier that names a square, file or rank the game's board
/// does not have, in its descriptor or its parameter values
/// (`descriptor.board-size`, modifier-rulings E3: attaching re-validates
/// the descriptor against the game's board). Entry `i` of the request.
fn board_fit(
    rt: &Runtime,
    i: usize,
    desc: &Descriptor,
    params: &BTreeMap<String, Value>,
) -> Result<(), Refusal> {
    use houserules_modifiers::descriptor::ParamType as T;
    let g = rt.geom();
    let game = &rt.game().variant().definition().id;
    let refused = |code: &'static str, what: String| {
        refuse(
            code,
            format!(
                "$.modifiers[{i}]: `{}` cannot apply to game `{game}` ({}×{} board): {what}",
                desc.id, g.w, g.h
            ),
        )
    };
    for p in &desc.parameters {
        let Some(v) = params.get(&p.name).and_then(Value::as_str) else {
            continue;
        };
        let fits = match p.ty {
            T::Square => g.parse(v).is_some(),
            T::File => g.parse_file(v).is_some(),
            _ => true,
        };
        if !fits {
            return Err(refused(
                codes::BOARD_SIZE,
                format!("parameter `{}` = `{v}` is not on the board", p.name),
            ));
        }
    }
    let v = serde_json::to_value(desc).unwrap_or(Value::Null);
    let facts = rt.game_facts();
    match houserules_modifiers::validate::attach_findings(&v, &facts, params).first() {
        Some(f) => Err(refused(
            session_code(f.code),
            format!("{}: {} (at {})", f.code, f.message, f.path),
        )),
        None => Ok(()),
    }
}

/// The refusal code of an attach finding: the board and piece-type codes
/// as they are, other findings (a `$param` count out of range) as a bad
/// modifier.
fn session_code(finding: &str) -> &'static str {
    match finding {
        codes::BOARD_SIZE => codes::BOARD_SIZE,
        codes::PIECE_TYPE => codes::PIECE_TYPE,
        _ => codes::BAD_MODIFIER,
    }
}

/// Gives the pieces of `p` the ids of a snapshot (`(square, id)`) and the
/// next id to hand out ([`Session::restore`]), on either bitboard width.
fn set_ids<B: houserules_engine::BitSet>(
    p: &mut houserules_engine::Position<B>,
    ids: &[(u8, u16)],
    next: u16,
) {
    for &(sq, id) in ids {
        p.set_piece_id(sq, id);
    }
    p.set_next_piece_id(next);
}

/// A game session: the modifier runtime on a game, with the request that
/// built it and the inputs it accepted.
#[derive(Debug, Clone)]
pub struct Session {
    rt: Runtime,
    /// Shared, so that cloning a session does not copy it.
    request: Arc<CreateRequest>,
    inputs: Vec<Input>,
}

impl Session {
    /// Creates a session from a creation request: builds the variant from
    /// the presets and layout, sets the position, attaches the modifiers in
    /// list order (each finishing its on-rule-activated, choices included,
    /// before the next; rulings G3), with the side to move as chooser
    /// unless overridden.
    ///
    /// # Errors
    /// A [`Refusal`] naming the bad field (`request.*` codes).
    pub fn create(request: CreateRequest) -> Result<Session, Refusal> {
        let seed = match &request.seed {
            None => 0,
            Some(v) => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    refuse(
                        codes::BAD_SEED,
                        format!("$.seed: seed {v} is not an integer from 0 to 4294967295"),
                    )
                })?,
        };

        let game = match &request.state {
            Some(doc) => {
                if request.fen.is_some()
                    || request.layout.is_some()
                    || request.game.is_some()
                    || !request.presets.is_empty()
                {
                    return Err(refuse(
                        codes::BAD_REQUEST,
                        "$.state carries the position and the presets of FIDE chess: leave out \
                         fen, layout, game and presets",
                    ));
                }
                let (_, game) = doc
                    .to_game()
                    .map_err(|e| refuse(codes::BAD_REQUEST, format!("$.state: {e}")))?;
                (game, false)
            }
            None => {
                let built = PresetGame::build(
                    request.game.as_deref(),
                    &request.presets.join(","),
                    request.layout.as_deref(),
                )
                .map_err(|e| refuse(codes::BAD_REQUEST, e))?;
                let read = if request.modifiers.is_empty() {
                    built.game(request.fen.as_deref()).map(|g| (g, false))
                } else {
                    built.game_under_rules(request.fen.as_deref())
                };
                read.map_err(|e| refuse(codes::BAD_REQUEST, format!("$.fen: {e}")))?
            }
        };
        let (game, judge_check) = game;
        let mut rt = Runtime::new(
            game,
            Options {
                seed,
                coin_flips: request.coin_flips.unwrap_or_default(),
                choice_timeout: request.choice_timeout.clone().unwrap_or_default(),
                draft: request.draft,
                hp_preset: uses_piece_hp(&request),
            },
        )?;
        let mut attach = Vec::new();
        for (i, m) in request.modifiers.iter().enumerate() {
            let (desc, over) = resolve_modifier(m).map_err(|(code, e)| {
                refuse(
                    code.unwrap_or(codes::BAD_MODIFIER),
                    format!("$.modifiers[{i}]: {e}"),
                )
            })?;
            if attach
                .iter()
                .any(|(d, _): &(Descriptor, _)| d.id == desc.id)
            {
                return Err(refuse(
                    codes::BAD_MODIFIER,
                    format!("$.modifiers[{i}]: `{}` is already active", desc.id),
                ));
            }
            attach.push((desc, over));
        }
        let turn = rt.game().turn();
        for (i, (desc, over)) in attach.into_iter().enumerate() {
            // Refusals name the entry's JSON path, as resolving it does.
            let at = |m: String| refuse(codes::BAD_MODIFIER, format!("$.modifiers[{i}]: {m}"));
            let chooser = match over.get("chooser").map(String::as_str) {
                None => turn,
                Some(c) => parse_color(c).ok_or_else(|| {
                    at(format!(
                        "`{}`: chooser `{c}` is not white or black",
                        desc.id
                    ))
                })?,
            };
            let lifetime = match over.get("lifetime").map(String::as_str) {
                Some("instant") => Lifetime::OneShot,
                Some("permanent") => Lifetime::Permanent,
                Some(n) => {
                    // A number of plies too large for the ply counter is
                    // told apart from a word that is no number at all.
                    let digits = !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
                    let plies: u32 = match n.parse::<u32>() {
                        Ok(p) if p >= 1 => p,
                        Err(_) if digits => {
                            return Err(at(format!(
                                "`{}`: lifetime `{n}` is too large (at most {} plies)",
                                desc.id,
                                u32::MAX
                            )))
                        }
                        _ => {
                            return Err(at(format!(
                                "`{}`: lifetime `{n}` is not instant, permanent or a number ≥ 1",
                                desc.id
                            )))
                        }
                    };
                    Lifetime::Moves {
                        expires_at_move: plies,
                    }
                }
                None => match desc.draft.as_ref().map(|d| &d.duration) {
                    Some(houserules_modifiers::descriptor::DraftDuration::Named(n))
                        if n == "instant" =>
                    {
                        Lifetime::OneShot
                    }
                    _ => Lifetime::Permanent,
                },
            };
            let mut params = BTreeMap::new();
            for p in &desc.parameters {
                params.insert(p.name.clone(), p.default.clone());
            }
            for (k, v) in &over {
                if k == "chooser" || k == "lifetime" {
                    continue;
                }
                let Some(p) = desc.parameters.iter().find(|p| &p.name == k) else {
                    return Err(at(format!("`{}` has no parameter `{k}`", desc.id)));
                };
                let val = parse_param_value(p.ty, v).ok_or_else(|| {
                    at(format!(
                        "`{}`: `{v}` is not a valid value for `{k}`",
                        desc.id
                    ))
                })?;
                params.insert(k.clone(), val);
            }
            board_fit(&rt, i, &desc, &params)?;
            rt.attach(desc, chooser, lifetime, params)?;
            rt.drive();
        }
        if judge_check {
            // The FEN's side not to move is attacked on the board: legal
            // only when the rules in force see no check there (issue 25
            // item 4), judged after the modifiers and their activation.
            let them = rt.game().turn().flip();
            if rt.is_in_check(them) {
                return Err(refuse(
                    codes::BAD_REQUEST,
                    format!(
                        "$.fen: FEN position is illegal: the side not to move ({them}) is in \
                         check under the rules in force"
                    ),
                ));
            }
        }
        Ok(Session {
            rt,
            request: Arc::new(request),
            inputs: Vec::new(),
        })
    }

    /// Rebuilds a session from its creation request and inputs (a game is
    /// fully reproducible from these, RULINGS M3). Refused inputs are
    /// skipped, as they were when first sent.
    ///
    /// # Errors
    /// As [`Session::create`].
    pub fn replay(request: CreateRequest, inputs: &[Input]) -> Result<Session, Refusal> {
        let mut s = Session::create(request)?;
        for i in inputs {
            let _ = s.submit(i.clone());
        }
        Ok(s)
    }

    /// Restores a session from [`Session::snapshot`] JSON: the position
    /// (with its piece ids) and the whole runtime state, so that a pending
    /// choice resumes exactly where it stopped.
    ///
    /// The repetition history (threefold, fivefold) is not in the FEN: the
    /// session is rebuilt by replaying the snapshot's request and inputs
    /// (RULINGS M3), and the replay is used when it reproduces the
    /// snapshot exactly. Otherwise (a snapshot from another build of the
    /// library, for example) the position and state are read as they are
    /// and the history restarts at the restored position.
    ///
    /// # Errors
    /// A [`Refusal`] when the snapshot is malformed.
    pub fn restore(snapshot: &Value) -> Result<Session, Refusal> {
        let bad = |m: String| refuse(codes::BAD_REQUEST, m);
        let request: CreateRequest =
            serde_json::from_value(snapshot.get("request").cloned().unwrap_or(Value::Null))
                .map_err(|e| bad(format!("request: {e}")))?;
        let st: State =
            serde_json::from_value(snapshot.get("state").cloned().unwrap_or(Value::Null))
                .map_err(|e| bad(format!("state: {e}")))?;
        let inputs: Vec<Input> =
            serde_json::from_value(snapshot.get("inputs").cloned().unwrap_or(json!([])))
                .map_err(|e| bad(format!("inputs: {e}")))?;
        if let Ok(again) = Session::replay(request.clone(), &inputs) {
            if again.inputs == inputs && &again.snapshot() == snapshot {
                return Ok(again);
            }
        }
        let fen = snapshot
            .get("fen")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("missing fen".into()))?;
        let ids: Vec<(u8, u16)> =
            serde_json::from_value(snapshot.get("ids").cloned().unwrap_or(json!([])))
                .map_err(|e| bad(format!("ids: {e}")))?;
        let next_id = snapshot
            .get("nextPieceId")
            .and_then(Value::as_u64)
            .unwrap_or(1) as u16;
        let presets = match &request.state {
            Some(doc) => doc.rules.clone(),
            None => request.presets.join(","),
        };
        let mut game =
            PresetGame::build(request.game.as_deref(), &presets, request.layout.as_deref())
                .map_err(bad)?
                // A FEN a game under modifiers wrote is read under them
                // (issue 25 item 4).
                .game_under_rules(Some(fen))
                .map(|(g, _)| g)
                .map_err(|e| bad(format!("$.fen: {e}")))?;
        // The piece ids as saved, on either bitboard width (boards of more
        // than 64 squares hold `u128` positions).
        if game.is_large() {
            game.edit::<u128, _>(|p, _| set_ids(p, &ids, next_id));
        } else {
            game.edit::<u64, _>(|p, _| set_ids(p, &ids, next_id));
        }
        let hp_preset = uses_piece_hp(&request);
        Ok(Session {
            rt: Runtime::from_parts(game, st, hp_preset),
            request: Arc::new(request),
            inputs,
        })
    }

    /// A snapshot for [`Session::restore`]: request, inputs, FEN, piece
    /// ids and state.
    pub fn snapshot(&self) -> Value {
        let ids: Vec<(u8, u16)> = self.rt.pieces().iter().map(|p| (p.sq, p.id)).collect();
        let game = self.rt.game();
        let next = match game.small() {
            Some((p, _)) => p.next_piece_id(),
            None => game
                .position::<u128>()
                .map_or(1, houserules_engine::Position::next_piece_id),
        };
        json!({
            "request": self.request,
            "inputs": self.inputs,
            "fen": self.rt.game().fen(),
            "ids": ids,
            "nextPieceId": next,
            "state": self.rt.state(),
        })
    }

    /// The engine game.
    pub fn game(&self) -> &Game {
        self.rt.game()
    }

    /// The runtime state.
    pub fn state(&self) -> &State {
        self.rt.state()
    }

    /// The modifier runtime the session drives.
    pub fn runtime(&self) -> &Runtime {
        &self.rt
    }

    /// The creation request.
    pub fn request(&self) -> &CreateRequest {
        &self.request
    }

    /// The inputs accepted so far.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// Replaces the session's random stream by a fresh one for `seed`
    /// ([`Runtime::reseed`]): an engine searching copies of a session
    /// reseeds them so that it never reads the game's own stream. Not
    /// recorded as an input, so a reseeded session no longer replays from
    /// its record: for search copies only.
    pub fn reseed(&mut self, seed: u32) {
        self.rt.reseed(seed);
    }

    /// Sends every later move through the whole after-move dispatch, even
    /// when nothing listens: the reference of the quiet path's
    /// differential test (`tests/quiet_path.rs`). Not for other uses.
    #[doc(hidden)]
    pub fn dispatch_every_move(&mut self) {
        self.rt.dispatch_every_move();
    }

    /// The pending choice on top of the stack, if any.
    pub fn pending_choice(&self) -> Option<&PendingChoice> {
        self.rt.pending_choice()
    }

    /// Submits an input.
    ///
    /// # Errors
    /// A [`Refusal`]; the session is then unchanged.
    pub fn submit(&mut self, input: Input) -> Result<(), Refusal> {
        self.rt.begin_input();
        let input = match input {
            // SAN is recorded as the UCI it names, so a record replays
            // whatever notation the player typed.
            Input::Move { mv } => Input::Move {
                mv: self.rt.submit_move(&mv)?,
            },
            Input::Choice {
                choice,
                player,
                auto,
            } => {
                self.rt
                    .submit_choice_as(&choice, player.as_deref(), auto.as_deref())?;
                Input::Choice {
                    choice,
                    player,
                    auto,
                }
            }
        };
        self.inputs.push(input);
        Ok(())
    }

    /// Plays `m` recorded as `uci`, both as [`Session::resolve_move`] or
    /// [`Session::resolve_move_san`] gave them in this same state (nothing
    /// submitted since): [`Session::submit`] of the move without reading
    /// and judging it a second time. Recorded as `{"move": uci}`.
    pub fn submit_resolved_move(&mut self, m: Move, uci: String) {
        self.rt.begin_input();
        self.rt.submit_resolved(m, uci.clone());
        self.inputs.push(Input::Move { mv: uci });
    }

    /// The move that `text` (UCI or SAN: `e2e4`, `Nf3`, `O-O`) names among
    /// the moves the active rules allow now, and the UCI the session would
    /// record for it, without playing it.
    ///
    /// # Errors
    /// The [`Refusal`] [`Session::submit`] would give.
    pub fn resolve_move(&self, text: &str) -> Result<(Move, String), Refusal> {
        self.rt.resolve_move(text)
    }

    /// [`Session::resolve_move`] and the move's SAN ([`Session::san`]) as
    /// far as it is known before the move is played, from one listing of
    /// the legal moves: complete it with [`SanBefore::finish`] from the
    /// state after [`Session::submit_resolved_move`] ([`Session::status`],
    /// [`Session::is_check`]).
    ///
    /// # Errors
    /// As [`Session::resolve_move`].
    pub fn resolve_move_san(&self, text: &str) -> Result<(Move, String, SanBefore), Refusal> {
        self.rt.resolve_move_san(text)
    }

    /// Answers the pending choice on top of the stack.
    ///
    /// # Errors
    /// A [`Refusal`] (no pending choice, wrong player, not an option); the
    /// session is then unchanged.
    pub fn submit_choice(&mut self, value: &Value) -> Result<(), Refusal> {
        self.answer(value, None, None)
    }

    /// Answers the top choice with its first option (the timeout default,
    /// rulings B4/B7), recorded as an input with `"auto": "timeout"`.
    ///
    /// # Errors
    /// [`codes::NO_PENDING_CHOICE`].
    pub fn timeout_choice(&mut self) -> Result<(), Refusal> {
        let Some(top) = self.rt.pending_choice() else {
            return Err(refuse(codes::NO_PENDING_CHOICE, "no choice is pending"));
        };
        if top.kind == "rps" && top.for_player == "both" {
            for c in ["white", "black"] {
                if self
                    .rt
                    .pending_choice()
                    .is_some_and(|t| !t.collected.contains_key(c))
                {
                    self.answer(&json!("rock"), Some(c), Some("timeout"))?;
                }
            }
            return Ok(());
        }
        let first = top.prompt["options"].get(0).cloned().unwrap_or(Value::Null);
        self.answer(&first, None, Some("timeout"))
    }

    /// Answers the top choice and records the answer as an input.
    fn answer(
        &mut self,
        value: &Value,
        player: Option<&str>,
        auto: Option<&str>,
    ) -> Result<(), Refusal> {
        self.rt.submit_choice_as(value, player, auto)?;
        self.inputs.push(Input::Choice {
            choice: value.clone(),
            player: player.map(str::to_string),
            auto: auto.map(str::to_string),
        });
        Ok(())
    }

    /// Legal moves in UCI: `[]` while a choice is pending or the game is
    /// over (rulings B2). Dry mode: nothing is fired, drawn or changed.
    pub fn legal_moves_uci(&self) -> Vec<String> {
        self.rt.legal_moves_uci()
    }

    /// Legal moves under the active rules (dry mode).
    pub fn legal_moves(&self) -> Vec<Move> {
        self.rt.legal_moves()
    }

    /// `m`, a move the active rules allow now, in SAN disambiguated among
    /// those moves, so that [`Session::resolve_move`] reads it back as `m`
    /// (the engine's [`Game::san`](houserules_engine::Game::san)
    /// disambiguates among the game's moves without the modifiers).
    pub fn san(&self, m: Move) -> String {
        self.rt.san(m)
    }

    /// [`Session::san`] with `legal`, [`Session::legal_moves`] of this
    /// position, listed once for many moves.
    pub fn san_among(&self, m: Move, legal: &[Move]) -> String {
        self.rt.san_among(m, legal)
    }

    /// [`Session::legal_moves`] by the descriptor interpreter alone,
    /// without the compiled restrictions: the oracle of the differential
    /// tests (tests/compiled_legality.rs). Not for other uses.
    #[doc(hidden)]
    pub fn legal_moves_interpreted(&self) -> Vec<Move> {
        self.rt.legal_moves_interpreted()
    }

    /// Whether the active restrictions compile on the current position
    /// (else legality runs the interpreter), for the differential tests.
    #[doc(hidden)]
    pub fn legality_compiles(&self) -> bool {
        self.rt.legality_compiles()
    }

    /// The status name: `awaiting-choice`, `ongoing`, `checkmate`,
    /// `stalemate`, a draw, or a rule's result.
    pub fn status(&self) -> Value {
        self.rt.status()
    }

    /// Whether the side to move is in check under the active rules
    /// (rule-aware attacks, modifier-rulings C3).
    pub fn is_check(&self) -> bool {
        self.rt.is_check()
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.rt.is_over()
    }

    /// How many times the current position has occurred, board and rule
    /// state alike (issue 25 item 4; see
    /// [`houserules_modifiers::runtime::Runtime::repetitions`]).
    pub fn repetitions(&self) -> usize {
        self.rt.repetitions()
    }

    /// The draws the side to move may claim now, repetition counted with
    /// the rule state (see
    /// [`houserules_modifiers::runtime::Runtime::claimable_draws`]).
    pub fn claimable_draws(&self) -> Vec<houserules_engine::Claim> {
        self.rt.claimable_draws()
    }

    /// The first of [`Session::claimable_draws`], if any.
    pub fn claimable_draw(&self) -> Option<houserules_engine::Claim> {
        self.rt.claimable_draw()
    }

    /// The draws the side to move may claim by announcing `m` (FIDE
    /// 9.2.1, 9.3.1), judged on the position the move makes under the
    /// rules in force, its triggers included; the session is unchanged.
    ///
    /// # Errors
    /// A [`Refusal`] when `m` is not a move the rules allow now.
    pub fn claimable_draw_after(&self, m: Move) -> Result<Vec<houserules_engine::Claim>, Refusal> {
        self.rt.claimable_draw_after(m)
    }

    /// A key for an engine's transposition table: the position and the
    /// rule-layer state that decides how the game goes on (modifiers,
    /// markers, attributes and hit points, variables, pending choices,
    /// counters, the ply count), never the random stream or the log; see
    /// [`houserules_modifiers::runtime::Runtime::search_key`]. Two
    /// sessions with the same key play on alike for a searcher that draws
    /// its own outcomes.
    pub fn search_key(&self) -> u64 {
        self.rt.search_key()
    }

    /// A hash of the whole state (position and runtime state), for
    /// determinism checks.
    pub fn state_hash(&self) -> u64 {
        let text = serde_json::to_string(&self.snapshot()).unwrap_or_default();
        // FNV-1a: stable across runs and platforms.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}
