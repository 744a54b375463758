//! `houserules.Session`: a game under a creation request
//! (docs/session-request.schema.json: presets, layout, game, custom rule
//! modifiers, draft mode, seed, state), taking moves and choices, with
//! its state as the documented JSON, snapshot, restore and replay.

use std::sync::Mutex;

use houserules_session::{CreateRequest, Input, Refusal, Session as RSession};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::board::Board;
use crate::convert::{from_py, json_text, to_py};
use houserules_session::codes;

/// A creation request from a dict, a JSON string or None (FIDE chess,
/// no modifiers).
fn request_of(py: Python<'_>, request: Option<&Bound<'_, PyAny>>) -> PyResult<CreateRequest> {
    let text = match request {
        None => return Ok(CreateRequest::default()),
        Some(r) if r.is_none() => return Ok(CreateRequest::default()),
        Some(r) => json_text(r)?,
    };
    CreateRequest::parse(&text).map_err(|m| crate::refusal(py, codes::BAD_REQUEST, &m))
}

/// An input from a dict (`{"move": "e2e4"}`, `{"choice": "e4"}`) or its
/// JSON text.
fn input_of(py: Python<'_>, input: &Bound<'_, PyAny>) -> PyResult<Input> {
    let text = json_text(input)?;
    Input::parse(&text).map_err(|m| crate::refusal(py, codes::BAD_REQUEST, &m))
}

fn refused(py: Python<'_>, r: &Refusal) -> PyErr {
    crate::refusal(py, r.code, &r.message)
}

/// A game session under a rule set with custom rule modifiers (the
/// server's and `houserules play`'s session): moves and choices in,
/// state out, replayable from its request and inputs.
///
/// `Session(request)` takes the creation request as a dict or JSON text
/// (None: FIDE chess): `{"presets": [...], "modifiers": [...], "seed": 7,
/// "layout": ..., "game": ..., "fen": ..., "draft": False, ...}`.
///
/// Raises RefusalError (a ValueError) with the refusal's `code` and
/// `path` when the request is refused.
#[pyclass(module = "houserules")]
pub struct Session {
    // The modifier runtime keeps a cache in a RefCell: the lock makes the
    // object shareable between Python threads.
    inner: Mutex<RSession>,
}

impl Session {
    fn with<R>(&self, f: impl FnOnce(&mut RSession) -> R) -> PyResult<R> {
        let mut g = self
            .inner
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the session was poisoned by a panic"))?;
        Ok(f(&mut g))
    }

    fn of(s: RSession) -> Session {
        Session {
            inner: Mutex::new(s),
        }
    }

    /// A copy of the Rust session (for the search).
    pub(crate) fn cloned(&self) -> PyResult<RSession> {
        self.with(|s| s.clone())
    }
}

#[pymethods]
impl Session {
    #[new]
    #[pyo3(signature = (request = None))]
    fn new(py: Python<'_>, request: Option<&Bound<'_, PyAny>>) -> PyResult<Session> {
        let req = request_of(py, request)?;
        RSession::create(req)
            .map(Session::of)
            .map_err(|r| refused(py, &r))
    }

    /// Plays a move in UCI or SAN (`e2e4`, `Nf3`, `O-O`) under the rules
    /// in force and returns it as recorded (UCI).
    ///
    /// Raises RefusalError (`illegal-move`, `awaiting-choice`,
    /// `game-over`, ...); the session is then unchanged.
    fn play(&self, py: Python<'_>, r#move: &str) -> PyResult<String> {
        self.with(|s| {
            s.submit(Input::Move { mv: r#move.into() })
                .map_err(|r| refused(py, &r))?;
            Ok(match s.inputs().last() {
                Some(Input::Move { mv }) => mv.clone(),
                _ => r#move.to_string(),
            })
        })?
    }

    /// The pending choice, or None: a dict with `kind` (`piece`, `square`,
    /// `column`, `row`, `coin-flip`, `rps`), `for_player` (`white`,
    /// `black`, `both`), `options` (the values `choose` takes), `timeout`
    /// (seconds or None) and the whole `prompt`.
    #[getter]
    fn pending_choice<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let top = self.with(|s| s.pending_choice().cloned())?;
        let Some(c) = top else {
            return Ok(None);
        };
        let v = serde_json::json!({
            "kind": c.kind,
            "for_player": c.for_player,
            "options": c.prompt.get("options").cloned().unwrap_or(serde_json::Value::Null),
            "timeout": c.timeout,
            "prompt": c.prompt,
        });
        to_py(py, &v).map(Some)
    }

    /// Answers the pending choice with `value` (one of its `options`);
    /// `player` (`white` or `black`) for a rock-paper-scissors prompt for
    /// both players.
    ///
    /// Raises RefusalError (`no-pending-choice`, not an option, wrong
    /// player).
    #[pyo3(signature = (value, player = None))]
    fn choose(
        &self,
        py: Python<'_>,
        value: &Bound<'_, PyAny>,
        player: Option<String>,
    ) -> PyResult<()> {
        let choice = from_py(value)?;
        self.with(|s| {
            s.submit(Input::Choice {
                choice,
                player,
                auto: None,
            })
            .map_err(|r| refused(py, &r))
        })?
    }

    /// Answers the pending choice with its first option, recorded as a
    /// timeout (`"auto": "timeout"`).
    ///
    /// Raises RefusalError when no choice is pending.
    fn timeout_choice(&self, py: Python<'_>) -> PyResult<()> {
        self.with(|s| s.timeout_choice().map_err(|r| refused(py, &r)))?
    }

    /// Submits an input as the session's input format
    /// (docs/session-input.schema.json): `{"move": "e2e4"}` or
    /// `{"choice": VALUE, "player"?: ...}`, a dict or JSON text.
    ///
    /// Raises RefusalError.
    fn submit(&self, py: Python<'_>, input: &Bound<'_, PyAny>) -> PyResult<()> {
        let i = input_of(py, input)?;
        self.with(|s| s.submit(i).map_err(|r| refused(py, &r)))?
    }

    /// The state as documented (docs/session-output.schema.json), as a
    /// dict: `fen`, `status`, `legalMoves`, `pendingChoice`, `markers`,
    /// `modifiers`, `pieces`, `log`, ...
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = self.with(|s| s.to_json())?;
        to_py(py, &v)
    }

    /// The legal moves under the rules in force, in UCI (empty while a
    /// choice is pending or the game is over).
    #[getter]
    fn legal_moves(&self) -> PyResult<Vec<String>> {
        self.with(|s| s.legal_moves_uci())
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> PyResult<bool> {
        self.with(|s| s.is_over())
    }

    /// Whether the side to move is in check under the rules in force.
    fn is_check(&self) -> PyResult<bool> {
        self.with(|s| s.is_check())
    }

    /// The status: `ongoing`, `awaiting-choice`, `checkmate`, a draw or a
    /// rule's result.
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = self.with(|s| s.status())?;
        to_py(py, &v)
    }

    /// The FEN of the position.
    fn fen(&self) -> PyResult<String> {
        self.with(|s| s.game().fen())
    }

    /// True when White is to move.
    #[getter]
    fn turn(&self) -> PyResult<bool> {
        self.with(|s| s.game().turn() == houserules_engine::Color::White)
    }

    /// `uci`, a move the rules allow now, in SAN.
    ///
    /// Raises RefusalError when it is not.
    fn san(&self, py: Python<'_>, uci: &str) -> PyResult<String> {
        self.with(|s| {
            let (m, _) = s.resolve_move(uci).map_err(|r| refused(py, &r))?;
            Ok(s.san(m))
        })?
    }

    /// The creation request, as a dict.
    #[getter]
    fn request<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = self.with(|s| serde_json::to_value(s.request()).unwrap_or_default())?;
        to_py(py, &v)
    }

    /// The inputs accepted so far (moves recorded in UCI), as dicts:
    /// `Session.replay(request, inputs)` rebuilds this session.
    #[getter]
    fn inputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = self.with(|s| serde_json::to_value(s.inputs()).unwrap_or_default())?;
        to_py(py, &v)
    }

    /// A snapshot (a dict): `Session.restore(snapshot)` resumes exactly
    /// here, a pending choice included.
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = self.with(|s| s.snapshot())?;
        to_py(py, &v)
    }

    /// A hash of the whole state (position and rule state), for
    /// determinism checks.
    fn state_hash(&self) -> PyResult<u64> {
        self.with(|s| s.state_hash())
    }

    /// The engine position as a `Board` (without the modifiers: presets
    /// and layout only).
    fn board(&self) -> PyResult<Board> {
        self.with(|s| {
            let rules = s.request().presets.join(",");
            Board::from_game(s.game().clone(), rules)
        })
    }

    /// The session a creation request and its inputs make (refused inputs
    /// are skipped, as they were when first sent).
    ///
    /// Raises RefusalError when the request is refused.
    #[staticmethod]
    fn replay(
        py: Python<'_>,
        request: &Bound<'_, PyAny>,
        inputs: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<Session> {
        let req = request_of(py, Some(request))?;
        let inputs = inputs
            .iter()
            .map(|i| input_of(py, i))
            .collect::<PyResult<Vec<_>>>()?;
        RSession::replay(req, &inputs)
            .map(Session::of)
            .map_err(|r| refused(py, &r))
    }

    /// The session a snapshot (dict or JSON text) was taken of.
    ///
    /// Raises RefusalError when the snapshot is malformed.
    #[staticmethod]
    fn restore(py: Python<'_>, snapshot: &Bound<'_, PyAny>) -> PyResult<Session> {
        let text = json_text(snapshot)?;
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| crate::refusal(py, codes::BAD_REQUEST, &format!("snapshot: {e}")))?;
        RSession::restore(&v)
            .map(Session::of)
            .map_err(|r| refused(py, &r))
    }

    /// A copy.
    fn copy(&self) -> PyResult<Session> {
        self.cloned().map(Session::of)
    }

    fn __repr__(&self) -> PyResult<String> {
        self.with(|s| format!("<Session {} {}>", s.game().fen(), s.status()))
    }
}
