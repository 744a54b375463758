//! # houserules-python
//!
//! The native module `houserules._houserules` of the Python package
//! `houserules` (issue 28; docs/python.md): a python-chess-shaped
//! [`board::Board`] for any rule set the engine builds (FIDE chess, the
//! shipped games, YAML games, presets and layouts), a [`session::Session`]
//! over the creation request of `docs/session-request.schema.json` (custom
//! rule modifiers, choices, randomness), PGN reading and writing
//! ([`pgn`]) and the engine's search ([`search`]).
//!
//! Errors are `ValueError` subclasses named as python-chess names them
//! (`IllegalMoveError`, `InvalidMoveError`, `AmbiguousMoveError`) plus
//! `RefusalError` for a session's refusals (with the refusal's `code` and
//! the JSON `path` it names); their messages are the library's, as the
//! command-line tool prints them. Perft, divide and search release the GIL.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod board;
mod convert;
mod pgn;
mod search;
mod session;

pyo3::create_exception!(
    houserules,
    IllegalMoveError,
    PyValueError,
    "A move that is well-formed but not legal in the position (python-chess's IllegalMoveError)."
);
pyo3::create_exception!(
    houserules,
    InvalidMoveError,
    PyValueError,
    "Text that is not a move in the notation asked for (python-chess's InvalidMoveError)."
);
pyo3::create_exception!(
    houserules,
    AmbiguousMoveError,
    PyValueError,
    "SAN that matches several legal moves (python-chess's AmbiguousMoveError)."
);
pyo3::create_exception!(
    houserules,
    RefusalError,
    PyValueError,
    "A session refused a request or an input: `code` is the stable refusal code \
     (`request.invalid`, `illegal-move`, ...) and `path` the JSON path the message names \
     (`$.modifiers[0]`), or None."
);

/// A [`houserules_session::Refusal`] as a `RefusalError` with `code` and
/// `path` attributes: the path is the `$…` the message starts with, if it
/// does (`$.modifiers[0]: …`).
pub(crate) fn refusal(py: Python<'_>, code: &str, message: &str) -> PyErr {
    let path = message
        .strip_prefix('$')
        .and_then(|rest| rest.split_once(": ").map(|(p, _)| format!("${p}")))
        .filter(|p| !p.contains(' '));
    let err = RefusalError::new_err(message.to_string());
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail short of
    // memory exhaustion; the error is returned either way.
    let _ = value.setattr("code", code);
    let _ = value.setattr("path", path);
    err
}

/// The module `houserules._houserules`; `houserules/__init__.py`
/// re-exports it.
#[pymodule]
fn _houserules(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<board::Board>()?;
    m.add_class::<board::Move>()?;
    m.add_class::<board::LegalMoves>()?;
    m.add_class::<board::Outcome>()?;
    m.add_class::<session::Session>()?;
    m.add_class::<search::SearchResult>()?;
    m.add_class::<pgn::PgnGame>()?;
    m.add_class::<pgn::PgnReader>()?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add_function(wrap_pyfunction!(pgn::write_board, m)?)?;
    m.add_function(wrap_pyfunction!(board::games, m)?)?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>())?;
    m.add("RefusalError", py.get_type::<RefusalError>())?;
    Ok(())
}
