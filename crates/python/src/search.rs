//! `houserules.search(board, depth=None, movetime=None)`: the engine
//! opponent's search (crates/search) on a `Board` (alpha-beta) or a
//! `Session` (the session search its rule set calls for), with the GIL
//! released while it runs.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use houserules_engine::PieceKind;
use houserules_search::{
    session_engine_for, Action, Level, Limits, Objective, Score, Searcher, SessionPlayer,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::board::{Board, Move};
use crate::convert::to_py;
use crate::session::Session;

/// What a search found: `move` (a `Move` for a board; for a session the
/// UCI text of a move, or None), `choice` (a session's answer to its
/// pending choice, else None), `score` in centipawns from the side to
/// move's view (None when it is a mate score), `mate` (moves to mate,
/// negative when being mated; else None), `depth`, `nodes` and `pv` (the
/// principal variation in UCI, boards only).
#[pyclass(module = "houserules", frozen)]
pub struct SearchResult {
    #[pyo3(get)]
    r#move: Option<Py<PyAny>>,
    #[pyo3(get)]
    choice: Option<Py<PyAny>>,
    #[pyo3(get)]
    score: Option<i32>,
    #[pyo3(get)]
    mate: Option<i32>,
    #[pyo3(get)]
    depth: u32,
    #[pyo3(get)]
    nodes: u64,
    #[pyo3(get)]
    pv: Vec<String>,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self, py: Python<'_>) -> String {
        let mv = self
            .r#move
            .as_ref()
            .and_then(|m| m.bind(py).str().ok().map(|s| s.to_string()))
            .unwrap_or_else(|| "None".into());
        let score = match (self.score, self.mate) {
            (_, Some(m)) => format!("mate {m}"),
            (Some(cp), None) => format!("cp {cp}"),
            _ => "None".into(),
        };
        format!(
            "SearchResult(move={mv}, score={score}, depth={}, nodes={})",
            self.depth, self.nodes
        )
    }
}

fn split(score: Score) -> (Option<i32>, Option<i32>) {
    match score {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n)),
    }
}

/// The limits: `depth` plies, `movetime` seconds; neither: one second.
fn limits(depth: Option<u32>, movetime: Option<f64>) -> PyResult<Limits> {
    let mut l = Limits::default();
    if let Some(d) = depth {
        if d == 0 {
            return Err(PyValueError::new_err("depth must be at least 1"));
        }
        l.depth = Some(d);
    }
    if let Some(t) = movetime {
        if !(t.is_finite() && t > 0.0) {
            return Err(PyValueError::new_err(
                "movetime is a positive number of seconds",
            ));
        }
        l.movetime = Some(Duration::from_secs_f64(t));
    }
    if l.depth.is_none() && l.movetime.is_none() {
        l.movetime = Some(Duration::from_secs(1));
    }
    Ok(l)
}

/// Searches `board` (a `Board` or a `Session`) for its side to move within
/// `depth` plies and/or `movetime` seconds (neither: one second) at
/// strength `level` (1 to 8, 8 the strongest) and returns a
/// `SearchResult`. The GIL is released while searching.
///
/// Raises ValueError for bad limits or when `board` is neither.
#[pyfunction]
#[pyo3(signature = (board, depth = None, movetime = None, level = 8))]
pub fn search(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    depth: Option<u32>,
    movetime: Option<f64>,
    level: u8,
) -> PyResult<SearchResult> {
    let limits = limits(depth, movetime)?;
    if let Ok(b) = board.cast::<Board>() {
        let (game, rules) = {
            let b = b.borrow();
            (b.game.clone(), b.rules.clone())
        };
        let objective = Objective::from_rules(&rules);
        let hp_on = rules
            .split(',')
            .any(|r| r.split(':').next().unwrap_or("").trim() == "piece-hp");
        let hp = hp_on.then(|| {
            (0..game.variant().definition().pieces.len())
                .map(|k| houserules_presets::rules::start_hp(PieceKind(k as u8)))
                .collect()
        });
        let g = game.clone();
        let r = py.detach(move || {
            let mut s = Searcher::new(16);
            s.set_level(Level::new(level));
            s.set_objective(objective);
            s.set_hit_points(hp);
            s.search(&g, &limits, &AtomicBool::new(false), |_| {})
        });
        let legal = game.legal_moves();
        let mv = match r.best {
            Some(m) => Some(Py::new(py, Move::of(&game, &legal, m))?.into_any()),
            None => None,
        };
        let mut pv = Vec::new();
        let mut g = game.clone();
        for &m in &r.pv {
            pv.push(g.uci(m));
            if g.apply(m).is_err() {
                break;
            }
        }
        let (score, mate) = split(r.score);
        return Ok(SearchResult {
            r#move: mv,
            choice: None,
            score,
            mate,
            depth: r.depth,
            nodes: r.nodes,
            pv,
        });
    }
    if let Ok(s) = board.cast::<Session>() {
        let session = s.borrow().cloned()?;
        let rules = session.request().presets.join(",");
        let objective = Objective::from_rules(&rules);
        let r = py.detach(move || {
            let mut e = SessionPlayer::new(session_engine_for(&session));
            e.set_level(Level::new(level));
            e.set_objective(objective);
            let seat = match session.pending_choice() {
                // The seat that answers a pending choice decides.
                Some(c) if c.for_player == "black" => houserules_engine::Color::Black,
                Some(c) if c.for_player == "white" => houserules_engine::Color::White,
                _ => session.game().turn(),
            };
            e.search(&session, seat, &limits, &AtomicBool::new(false))
        });
        let (mv, choice) = match r.action {
            Some(Action::Move(uci)) => (Some(uci.into_pyobject(py)?.into_any().unbind()), None),
            Some(Action::Choice { value, .. }) => (None, Some(to_py(py, &value)?.unbind())),
            None => (None, None),
        };
        let (score, mate) = split(r.score);
        return Ok(SearchResult {
            r#move: mv,
            choice,
            score,
            mate,
            depth: r.depth,
            nodes: r.nodes,
            pv: Vec::new(),
        });
    }
    Err(PyValueError::new_err(
        "search takes a houserules.Board or a houserules.Session",
    ))
}
