//! PGN for Python (`houserules.pgn`): a streaming reader over a file path
//! or a Python file object (one game in memory at a time), games with
//! their tags, mainline, comments and variations, the board a game's tags
//! name, and the writer.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::sync::Mutex;

use houserules_pgn::export::{rule_set_game, RuleTags, GAME_NAMES};
use houserules_pgn::{write_pgn, PgnGame as RGame, Reader};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use crate::board::{build_board, load_game, Board};

/// A Python file object (text or binary) read as bytes, calling its
/// `read(n)` with the GIL held.
struct PyFile {
    obj: Py<PyAny>,
    /// Bytes read but not yet handed out (a text file's `read(n)` gives
    /// up to `n` characters, which may be more than `n` bytes).
    pending: Vec<u8>,
    at: usize,
}

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at >= self.pending.len() {
            let chunk = Python::attach(|py| -> PyResult<Vec<u8>> {
                let got = self.obj.bind(py).call_method1("read", (8192,))?;
                if let Ok(b) = got.cast::<PyBytes>() {
                    return Ok(b.as_bytes().to_vec());
                }
                if let Ok(s) = got.cast::<PyString>() {
                    return Ok(s.extract::<String>()?.into_bytes());
                }
                Err(PyValueError::new_err(
                    "the file's read() returned neither str nor bytes",
                ))
            })
            .map_err(|e| std::io::Error::other(e.to_string()))?;
            self.pending = chunk;
            self.at = 0;
            if self.pending.is_empty() {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

type Source = Box<dyn BufRead + Send>;

/// Reads the games of a PGN file one at a time: `PgnReader(path)` (a str
/// or os.PathLike) or `PgnReader(file)` (an object with `read()`, text or
/// binary). Iterating yields `PgnGame`s; a malformed game yields a
/// `PgnGame` whose `error` says what and where (game number, line,
/// column), and reading goes on with the next game.
#[pyclass(module = "houserules")]
pub struct PgnReader {
    inner: Mutex<Reader<Source>>,
}

#[pymethods]
impl PgnReader {
    #[new]
    fn new(source: &Bound<'_, PyAny>) -> PyResult<PgnReader> {
        let boxed: Source = if source.hasattr("read")? {
            Box::new(BufReader::new(PyFile {
                obj: source.clone().unbind(),
                pending: Vec::new(),
                at: 0,
            }))
        } else {
            let path: std::path::PathBuf = source.extract().map_err(|_| {
                PyValueError::new_err("PgnReader takes a path or a file object with read()")
            })?;
            let f = File::open(&path).map_err(|e| {
                PyValueError::new_err(format!("cannot open {}: {e}", path.display()))
            })?;
            Box::new(BufReader::new(f))
        };
        Ok(PgnReader {
            inner: Mutex::new(Reader::new(boxed)),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PgnGame>> {
        let mut r = self
            .inner
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the reader was poisoned by a panic"))?;
        // The file object's read() takes the GIL again; reading a file
        // from disk runs without it.
        let reader: &mut Reader<Source> = &mut r;
        let next = py.detach(|| reader.read_game());
        Ok(next.map(|g| match g {
            Ok(game) => PgnGame { game, error: None },
            Err(e) => PgnGame {
                game: RGame::default(),
                error: Some(e.to_string()),
            },
        }))
    }
}

/// One game read from PGN (or made by `write_board`'s caller): its
/// `headers` (a dict, in file order), `moves` (the mainline as written,
/// SAN), `result`, `comments` (after each mainline move) and `error`
/// (None, or why the game could not be read). `str(game)` writes it back
/// as PGN with its comments, NAGs and variations.
#[pyclass(module = "houserules")]
pub struct PgnGame {
    game: RGame,
    #[pyo3(get)]
    error: Option<String>,
}

/// The board a game's tags name: `HouseRules` (presets in `--rules`
/// syntax) on the game its `Variant` tag names, `Variant` (chess,
/// Chess960, lichess's variants, the shipped games by id or name), `FEN`.
fn start_board(game: &RGame) -> PyResult<Board> {
    let variant_tag = game.tag("Variant").unwrap_or("").trim();
    let house = game.tag("HouseRules").unwrap_or("").trim().to_string();
    let fen = game.tag("FEN");
    let loose = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let chess960 = houserules_pgn::replay::rules_for_variant(Some(variant_tag))
        == Ok(houserules_pgn::Rules::Chess960);
    // Absent, standard or Chess960: FIDE chess (Chess960 castling set below).
    let id: Option<String> = if variant_tag.is_empty()
        || houserules_pgn::replay::rules_for_variant(Some(variant_tag)).is_ok()
    {
        None
    } else if let Some(g) = houserules_presets::lichess::find(variant_tag) {
        Some(g.id.to_string())
    } else {
        let key = loose(variant_tag);
        let named = GAME_NAMES
            .iter()
            .find(|(id, names)| loose(id) == key || names.iter().any(|n| loose(n) == key))
            .map(|(id, _)| id.to_string());
        match named {
            Some(id) => Some(id),
            None if houserules_definitions::builtin_source(variant_tag).is_some() => {
                Some(variant_tag.to_string())
            }
            None => {
                return Err(PyValueError::new_err(format!(
                    "Variant tag `{}`: variant not supported",
                    houserules_engine::echo::echo(variant_tag)
                )))
            }
        }
    };
    let base = match &id {
        Some(i) => Some(load_game(i).map_err(PyValueError::new_err)?),
        None => None,
    };
    let (variant, start) = match (base, house.is_empty()) {
        (None, true) => {
            let v = houserules_engine::Variant::chess();
            let s = v.definition().start_fen.clone();
            (v, s)
        }
        (Some(b), true) => {
            let s = b.definition().start_fen.clone();
            (b, s)
        }
        (None, false) => houserules_presets::build_from_str(&house, None)
            .map_err(|e| PyValueError::new_err(format!("HouseRules tag `{house}`: {e}")))?,
        (Some(b), false) => houserules_presets::RuleSet::parse(&house)
            .and_then(|rs| houserules_presets::build_on(b.definition(), b.has_hooks(), &rs, None))
            .map_err(|e| PyValueError::new_err(format!("HouseRules tag `{house}`: {e}")))?,
    };
    build_board(variant, start, fen, chess960, house, false)
}

#[pymethods]
impl PgnGame {
    /// The tags, in file order.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for t in &self.game.tags {
            if !d.contains(&t.name)? {
                d.set_item(&t.name, &t.value)?;
            }
        }
        Ok(d)
    }

    /// The mainline moves as written (SAN).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.mainline_sans().map(str::to_string).collect()
    }

    /// The comments after each mainline move (a list per move).
    #[getter]
    fn comments(&self) -> Vec<Vec<String>> {
        self.game
            .mainline
            .moves
            .iter()
            .map(|m| m.comments.clone())
            .collect()
    }

    /// The result: the `Result` tag, else the movetext's termination
    /// marker, else `*`.
    #[getter]
    fn result(&self) -> String {
        self.game
            .tag("Result")
            .map(str::to_string)
            .or_else(|| self.game.result.clone())
            .unwrap_or_else(|| "*".into())
    }

    /// The board at the game's start, under the rules its tags name.
    ///
    /// Raises ValueError for a variant or HouseRules tag houserules cannot
    /// play, or a bad FEN tag.
    fn board(&self) -> PyResult<Board> {
        start_board(&self.game)
    }

    /// The board after the mainline (its `move_stack` holds the moves).
    ///
    /// Raises the move's error (IllegalMoveError, AmbiguousMoveError,
    /// InvalidMoveError) naming the ply of the first move that cannot be
    /// played.
    fn end(&self, py: Python<'_>) -> PyResult<Board> {
        let mut b = start_board(&self.game)?;
        for (i, san) in self.game.mainline_sans().enumerate() {
            if let Err(e) = b.push_san_inner(py, san) {
                let msg = format!("ply {}: {}", i + 1, e.value(py));
                return Err(if e.is_instance_of::<crate::AmbiguousMoveError>(py) {
                    crate::AmbiguousMoveError::new_err(msg)
                } else if e.is_instance_of::<crate::InvalidMoveError>(py) {
                    crate::InvalidMoveError::new_err(msg)
                } else {
                    crate::IllegalMoveError::new_err(msg)
                });
            }
        }
        Ok(b)
    }

    /// The game as PGN text (Seven Tag Roster first, comments, NAGs and
    /// variations kept, lines of at most 80 columns).
    fn __str__(&self) -> String {
        write_pgn(&self.game)
    }

    fn __repr__(&self) -> String {
        let tag = |n: &str| self.game.tag(n).unwrap_or("?").to_string();
        format!(
            "<PgnGame {} vs {}, {} plies, {}>",
            tag("White"),
            tag("Black"),
            self.game.mainline.moves.len(),
            self.result()
        )
    }
}

/// The PGN of the game played on `board` (from where the board started,
/// with its `move_stack` as SAN): the Seven Tag Roster, `Variant` and
/// `HouseRules` for the board's rules, `SetUp`/`FEN` when it started
/// elsewhere than its rules' start position; `headers` (a dict) sets
/// more tags or replaces these; `result` defaults to the board's result.
#[pyfunction]
#[pyo3(signature = (board, headers = None, result = None))]
pub fn write_board(
    board: &Bound<'_, Board>,
    headers: Option<&Bound<'_, PyDict>>,
    result: Option<String>,
) -> PyResult<String> {
    let b = board.borrow();
    let n = b.ply_count();
    // The start of this board's moves, then each move in SAN there.
    let mut g = b.game.clone();
    let mut moves = Vec::with_capacity(n);
    for _ in 0..n {
        moves.push(g.undo().map_err(|e| PyValueError::new_err(e.to_string()))?);
    }
    moves.reverse();
    let mut sans = Vec::with_capacity(n);
    for m in moves {
        sans.push(g.san(m));
        g.apply(m)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    let result = result.unwrap_or_else(|| b.result_text().to_string());
    let tags = RuleTags::of_game(&b.game, &b.rules);
    let start = if n == 0 {
        b.game.fen()
    } else {
        b.start_fen.clone()
    };
    let mut pgn = rule_set_game(&tags, &start, b.own_start, &sans, &result);
    if let Some(h) = headers {
        for (k, v) in h.iter() {
            pgn.set_tag(k.str()?.to_string(), v.str()?.to_string());
        }
    }
    Ok(write_pgn(&pgn))
}
