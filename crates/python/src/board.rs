//! `houserules.Board`, `Move`, the legal-move view and `Outcome`: the
//! engine's [`Game`] shaped like python-chess's `chess.Board` where the
//! concepts match (docs/python.md lists the differences).

use std::path::Path;

use houserules_engine::fen::{parse_square, standard_castling_letters};
use houserules_engine::san::SanError;
use houserules_engine::uci::UciError;
use houserules_engine::{Claim, Color, Game, GameError, Move as EMove, MoveKind, Status, Variant};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::{AmbiguousMoveError, IllegalMoveError, InvalidMoveError};

/// A shipped game by id (or a lichess name such as `antichess`, `zh`),
/// or a YAML game file; the CLI's `--game` (crates/cli/src/position.rs).
pub(crate) fn load_game(arg: &str) -> Result<Variant, String> {
    let refused = |e: houserules_engine::DefinitionError| {
        format!("game {arg}: the engine refused the game: {e}")
    };
    if let Some(def) = houserules_definitions::builtin(arg) {
        return Variant::new(def).map_err(refused);
    }
    if let Some(g) = houserules_presets::lichess::find(arg) {
        return g
            .build()
            .map(|(v, _)| v)
            .map_err(|e| format!("game {arg}: {e}"));
    }
    if houserules_definitions::builtin_source(arg).is_some() {
        return Err(format!(
            "game {arg}: this shipped game needs engine features that are not built yet"
        ));
    }
    let lower = arg.to_ascii_lowercase();
    let path = Path::new(arg);
    if lower.ends_with(".yaml") || lower.ends_with(".yml") || path.is_file() {
        if !path.is_file() {
            return Err(format!(
                "game {arg}: no such file (and no shipped game has this id)"
            ));
        }
        return houserules_definitions::load_variant_file(path).map_err(|d| {
            format!(
                "game {arg}: the game file has problems:\n{}",
                d.render().trim_end()
            )
        });
    }
    let ids = houserules_definitions::builtin_ids();
    let hint = match houserules_definitions::diag::suggest(arg, ids.iter().copied()) {
        Some(s) => format!(" (did you mean `{s}`?)"),
        None => String::new(),
    };
    Err(format!(
        "game {arg}: unknown game{hint}; shipped games: {} (or give a FILE.yaml, or Board.from_yaml(text))",
        ids.join(", ")
    ))
}

/// The variant and start FEN of `base` (a loaded game, `None`: FIDE
/// chess) under the presets `rules` (`--rules` syntax) and `layout`, as
/// the CLI's `--game`/`--rules`/`--layout` choose them.
fn choose(
    base: Option<Variant>,
    base_id: &str,
    rules: &str,
    layout: Option<&str>,
) -> Result<(Variant, String), String> {
    let presets = !rules.trim().is_empty() || layout.is_some();
    let fide = base.is_none() || base_id == "chess" || base_id == "chess960";
    if !presets {
        let variant = base.unwrap_or_else(Variant::chess);
        let start = variant.definition().start_fen.clone();
        return Ok((variant, start));
    }
    if fide {
        let (mut v, start) =
            houserules_presets::build_from_str(rules, layout).map_err(|e| e.to_string())?;
        if base_id == "chess960" {
            v = v.with_chess960(true);
        }
        return Ok((v, start));
    }
    let base = base.expect("a game other than chess was loaded");
    let rs = houserules_presets::RuleSet::parse(rules).map_err(|e| e.to_string())?;
    let layout = layout
        .map(houserules_presets::Layout::parse)
        .transpose()
        .map_err(|e| e.to_string())?;
    houserules_presets::build_on(base.definition(), base.has_hooks(), &rs, layout)
        .map_err(|e| e.to_string())
}

/// `rules` given as a list of `ID[:K=V;…]` strings or as one comma list.
fn rules_text(rules: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let Some(r) = rules else {
        return Ok(String::new());
    };
    if r.is_none() {
        return Ok(String::new());
    }
    if let Ok(s) = r.cast::<PyString>() {
        return s.extract::<String>();
    }
    let list: Vec<String> = r.extract().map_err(|_| {
        PyValueError::new_err(
            "rules: a list of preset ids (`ID[:KEY=VALUE;...]`) or one comma-separated string",
        )
    })?;
    Ok(list.join(","))
}

/// Whether `s` looks like a FEN rather than a game id or file (python-chess
/// takes the FEN as `Board`'s first argument): a `/` in the first field
/// and a side-to-move field.
fn looks_like_fen(s: &str) -> bool {
    let mut f = s.split_whitespace();
    let board = f.next().unwrap_or("");
    matches!(f.next(), Some("w" | "b")) && board.contains('/')
}

/// The squares, promotion and drop of a UCI text on a board `w`×`h`
/// (`e2e4`, `e7e8q`, `a10b10`, `P@e4`): `(from, to, promotion, drop)`,
/// the letters lower case; `None` when it is not UCI of that board.
fn uci_parts(uci: &str, w: u8, h: u8) -> Option<(u16, u16, Option<u8>, Option<u8>)> {
    if let Some((piece, sq)) = uci.split_once('@') {
        let to = u16::from(parse_square(sq, w, h)?);
        let &[p] = piece.as_bytes() else {
            return None;
        };
        return p
            .is_ascii_alphabetic()
            .then_some((to, to, None, Some(p.to_ascii_lowercase())));
    }
    let b = uci.as_bytes();
    let square_end = |start: usize| -> Option<usize> {
        if !b.get(start)?.is_ascii_lowercase() {
            return None;
        }
        let mut i = start + 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > start + 1).then_some(i)
    };
    let a = square_end(0)?;
    let c = square_end(a)?;
    let from = u16::from(parse_square(&uci[..a], w, h)?);
    let to = u16::from(parse_square(&uci[a..c], w, h)?);
    let promo = match &b[c..] {
        [] => None,
        [p] if p.is_ascii_alphabetic() => Some(p.to_ascii_lowercase()),
        _ => return None,
    };
    Some((from, to, promo, None))
}

/// The longest UCI text of a move: `a64b64q` (boards hold at most 128
/// squares, so a rank has at most 3 digits with room to spare).
const UCI_MAX: usize = 11;

/// A move, as python-chess's `chess.Move`: compared and hashed by its UCI
/// text. `from_square`/`to_square` are square indices (`a1` = 0, rank by
/// rank, the board's width per rank: `h1` = 7 on 8×8, `j1` = 9 on 10×8);
/// `promotion` and `drop` are the piece's letter in lower case (`"q"`),
/// not python-chess's piece-type numbers, since a rule set may have any
/// pieces. A castling move's `to_square` is the king's destination, and
/// the rook's square in Chess960 (as in its UCI).
// Plain bytes, no heap: a board lists its moves as these by the million
// (the speed row of docs/performance.md).
#[pyclass(module = "houserules", frozen, skip_from_py_object, freelist = 1024)]
#[derive(Clone, Copy)]
pub struct Move {
    text: [u8; UCI_MAX],
    len: u8,
    from: u16,
    to: u16,
    promo: Option<u8>,
    dropped: Option<u8>,
    /// The engine's move and the board width it belongs to, when the move
    /// came from a board (a move built by `Move.from_uci` is read again by
    /// the board it is given to).
    engine: Option<(EMove, u8)>,
}

/// Appends the name of `sq` (board `w` files wide) to `buf` at `*n`.
fn put_square(buf: &mut [u8; UCI_MAX], n: &mut usize, sq: u8, w: u8) {
    let f = sq % w;
    let r = u32::from(sq / w) + 1;
    buf[*n] = b'a' + f;
    *n += 1;
    if r >= 10 {
        buf[*n] = b'0' + (r / 10 % 10) as u8;
        *n += 1;
    }
    buf[*n] = b'0' + (r % 10) as u8;
    *n += 1;
}

impl Move {
    /// The move `m` of `game` (one of `legal`, its legal moves), written
    /// as [`houserules_engine::uci::write`] writes it: castling through the
    /// engine (its notation depends on the mode and the other moves),
    /// other moves here, without allocating.
    pub(crate) fn of(game: &Game, legal: &[EMove], m: EMove) -> Move {
        let def = game.variant().definition();
        let (w, h) = (def.width, def.height);
        let mut text = [0u8; UCI_MAX];
        let mut n = 0;
        let symbol = |k: houserules_engine::PieceKind| def.pieces[k.index()].symbol as u8;
        if m.kind == MoveKind::Castle {
            let uci = game.uci_among(m, legal);
            let (from, to, promo, dropped) =
                uci_parts(&uci, w, h).unwrap_or((u16::from(m.from), u16::from(m.to), None, None));
            let len = uci.len().min(UCI_MAX);
            text[..len].copy_from_slice(&uci.as_bytes()[..len]);
            return Move {
                text,
                len: len as u8,
                from,
                to,
                promo,
                dropped,
                engine: Some((m, w)),
            };
        }
        if let Some(k) = m.dropped() {
            let p = symbol(k);
            text[0] = p.to_ascii_uppercase();
            text[1] = b'@';
            n = 2;
            put_square(&mut text, &mut n, m.to, w);
            return Move {
                text,
                len: n as u8,
                from: u16::from(m.to),
                to: u16::from(m.to),
                promo: None,
                dropped: Some(p.to_ascii_lowercase()),
                engine: Some((m, w)),
            };
        }
        put_square(&mut text, &mut n, m.from, w);
        put_square(&mut text, &mut n, m.to, w);
        let promo = m.promotion.map(|k| symbol(k).to_ascii_lowercase());
        if let Some(p) = promo {
            text[n] = p;
            n += 1;
        }
        Move {
            text,
            len: n as u8,
            from: u16::from(m.from),
            to: u16::from(m.to),
            promo,
            dropped: None,
            engine: Some((m, w)),
        }
    }

    /// The UCI text.
    pub(crate) fn text(&self) -> &str {
        // Only ASCII is ever written into the buffer.
        std::str::from_utf8(&self.text[..self.len as usize]).unwrap_or("")
    }
}

#[pymethods]
impl Move {
    /// A move from its UCI text (`e2e4`, `e7e8q`, `P@e4`, `a10b10`): the
    /// board it is played on reads it, so it may be written for any board.
    /// The square indices assume 8 files unless the text names more.
    ///
    /// Raises InvalidMoveError when the text is not UCI.
    #[staticmethod]
    fn from_uci(uci: &str) -> PyResult<Move> {
        let bad = || InvalidMoveError::new_err(UciError::Syntax(uci.to_string()).to_string());
        if uci.len() > UCI_MAX {
            return Err(bad());
        }
        let (from, to, promo, dropped) = uci_parts(uci, 8, 26)
            .or_else(|| uci_parts(uci, 26, 26))
            .ok_or_else(bad)?;
        let mut text = [0u8; UCI_MAX];
        text[..uci.len()].copy_from_slice(uci.as_bytes());
        Ok(Move {
            text,
            len: uci.len() as u8,
            from,
            to,
            promo,
            dropped,
            engine: None,
        })
    }

    /// The move in UCI (castling per the board's Chess960 mode when it
    /// was listed).
    fn uci(&self) -> &str {
        self.text()
    }

    /// The square the piece leaves (a drop: the square it is put on).
    // python-chess's attribute names, not conversions.
    #[allow(clippy::wrong_self_convention)]
    #[getter]
    fn from_square(&self) -> u16 {
        self.from
    }

    /// The square the piece goes to.
    #[allow(clippy::wrong_self_convention)]
    #[getter]
    fn to_square(&self) -> u16 {
        self.to
    }

    /// The letter of the piece a promotion makes (`"q"`), or None.
    #[getter]
    fn promotion(&self) -> Option<char> {
        self.promo.map(char::from)
    }

    /// The letter of the piece a drop puts on the board (`"n"`), or None.
    #[getter]
    fn drop(&self) -> Option<char> {
        self.dropped.map(char::from)
    }

    fn __str__(&self) -> &str {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.text())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Move>() {
            Ok(o) => o.get().text() == self.text(),
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        // FNV-1a of the UCI text: equal moves hash alike.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.text().bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }

    fn __bool__(&self) -> bool {
        true
    }
}

/// How a game ended, as python-chess's `chess.Outcome`: `termination` is
/// the status name (`checkmate`, `stalemate`, `insufficient-material`,
/// `seventy-five-move-rule`, `fivefold-repetition`, `threefold-repetition`
/// and `fifty-move-rule` when claimed, or a rule's own reason such as
/// `king-captured`), `winner` True for White, False for Black, None for a
/// draw.
#[pyclass(module = "houserules", frozen, skip_from_py_object)]
#[derive(Clone)]
pub struct Outcome {
    #[pyo3(get)]
    termination: String,
    #[pyo3(get)]
    winner: Option<bool>,
}

#[pymethods]
impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str {
        match self.winner {
            Some(true) => "1-0",
            Some(false) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __repr__(&self) -> String {
        let w = match self.winner {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        format!("Outcome(termination='{}', winner={w})", self.termination)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Outcome>() {
            Ok(o) => o.get().termination == self.termination && o.get().winner == self.winner,
            Err(_) => false,
        }
    }
}

/// The error a bad SAN raises: InvalidMoveError (not SAN, a null move),
/// AmbiguousMoveError, IllegalMoveError (no legal move matches, or a
/// promotion without its piece).
pub(crate) fn san_error(e: &SanError) -> PyErr {
    let m = e.to_string();
    match e {
        SanError::Syntax(_) | SanError::NullMove(_) => InvalidMoveError::new_err(m),
        SanError::Ambiguous { .. } => AmbiguousMoveError::new_err(m),
        SanError::Illegal(_) | SanError::MissingPromotion { .. } => IllegalMoveError::new_err(m),
    }
}

/// The error a bad UCI move raises: InvalidMoveError (not UCI, a null
/// move) or IllegalMoveError.
pub(crate) fn uci_error(e: &UciError) -> PyErr {
    let m = e.to_string();
    match e {
        UciError::Syntax(_) | UciError::NullMove(_) => InvalidMoveError::new_err(m),
        UciError::Illegal(_) | UciError::MissingPromotion { .. } => IllegalMoveError::new_err(m),
    }
}

fn game_error(e: GameError) -> PyErr {
    match &e {
        GameError::San(s) => san_error(s),
        GameError::Uci(u) => uci_error(u),
        GameError::IllegalMove { .. } => IllegalMoveError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The status as an outcome (`None` while the game goes on).
pub(crate) fn outcome_of(status: &Status) -> Option<Outcome> {
    let white = |c: Color| c == Color::White;
    match status {
        Status::Ongoing => None,
        Status::Checkmate { winner } => Some(Outcome {
            termination: "checkmate".into(),
            winner: Some(white(*winner)),
        }),
        Status::Variant { winner, reason } => Some(Outcome {
            termination: reason.clone(),
            winner: winner.map(white),
        }),
        other => Some(Outcome {
            termination: other.name().to_string(),
            winner: None,
        }),
    }
}

/// A position of a game under a rule set, with its move history: FIDE
/// chess, a shipped game (`Board(game="capablanca")`), a YAML game (a file
/// path, or `Board.from_yaml(text)`), preset house rules
/// (`rules=["piece-hp"]`) and a starting layout (`layout="chess960:518"`).
///
/// Shaped like python-chess's `chess.Board`: `legal_moves`, `push`,
/// `push_uci`, `push_san`, `pop`, `peek`, `move_stack`, `san`, `uci`,
/// `parse_san`, `parse_uci`, `is_legal`, `is_check`, `is_game_over`,
/// `outcome`, `result`, `fen`, `turn`, `copy`. A move that is not legal is
/// refused by `push` (IllegalMoveError), unlike python-chess, which plays
/// pseudo-legal moves unchecked.
#[pyclass(module = "houserules")]
pub struct Board {
    pub(crate) game: Game,
    /// The moves played since the board was made, as returned to Python.
    stack: Vec<Py<Move>>,
    /// The presets in `--rules` syntax (for the search's objective and
    /// the PGN `HouseRules` tag).
    pub(crate) rules: String,
    /// The FEN the board started from, and whether it is its rules' own
    /// start position (PGN: no `SetUp`/`FEN` tags then).
    pub(crate) start_fen: String,
    pub(crate) own_start: bool,
}

impl Board {
    /// A board on `game` with an empty Python move stack (the game's own
    /// history is kept for repetitions).
    pub(crate) fn from_game(game: Game, rules: String) -> Board {
        let start_fen = game.fen();
        Board {
            game,
            stack: Vec::new(),
            rules,
            start_fen,
            own_start: false,
        }
    }

    /// The engine move `mv` names on this board.
    fn resolve(&self, mv: &Move) -> PyResult<EMove> {
        if let Some((m, w)) = mv.engine {
            if w == self.game.variant().definition().width && self.game.is_legal(m) {
                return Ok(m);
            }
        }
        self.game.parse_uci(mv.text()).map_err(|e| uci_error(&e))
    }

    /// The legal moves as `Move`s.
    pub(crate) fn move_objects(&self) -> Vec<Move> {
        let legal = self.game.legal_moves();
        legal
            .iter()
            .map(|&m| Move::of(&self.game, &legal, m))
            .collect()
    }

    fn play(&mut self, py: Python<'_>, m: EMove) -> PyResult<Py<Move>> {
        let legal = self.game.legal_moves();
        let obj = Move::of(&self.game, &legal, m);
        self.game.apply(m).map_err(game_error)?;
        let obj = Py::new(py, obj)?;
        self.stack.push(obj.clone_ref(py));
        Ok(obj)
    }

    fn status_claiming(&self, claim_draw: bool) -> Option<Outcome> {
        let o = outcome_of(&self.game.status());
        if o.is_some() || !claim_draw {
            return o;
        }
        // python-chess's order under claim_draw: fifty moves, then
        // threefold repetition.
        let claims = self.game.claimable_draws();
        let pick = [Claim::FiftyMoveRule, Claim::ThreefoldRepetition]
            .into_iter()
            .find(|c| claims.contains(c))?;
        Some(Outcome {
            termination: pick.name().to_string(),
            winner: None,
        })
    }

    /// `push_san` for the PGN reader.
    pub(crate) fn push_san_inner(&mut self, py: Python<'_>, san: &str) -> PyResult<Py<Move>> {
        let em = self.game.parse_san(san).map_err(|e| san_error(&e))?;
        self.play(py, em)
    }

    /// Moves played on this board.
    pub(crate) fn ply_count(&self) -> usize {
        self.stack.len()
    }

    /// `result()` without claims.
    pub(crate) fn result_text(&self) -> &'static str {
        match self.status_claiming(false) {
            Some(o) => o.result(),
            None => "*",
        }
    }

    fn width_height(&self) -> (u8, u8) {
        let d = self.game.variant().definition();
        (d.width, d.height)
    }

    fn symbol_at(&self, sq: u8) -> Option<char> {
        let p = self.game.piece_at(sq)?;
        let s = self.game.variant().definition().pieces[p.kind.index()].symbol;
        Some(if p.color == Color::White {
            s.to_ascii_uppercase()
        } else {
            s.to_ascii_lowercase()
        })
    }
}

/// The board made from a game choice and a FEN (`None`: the start).
pub(crate) fn build_board(
    variant: Variant,
    start_fen: String,
    fen: Option<&str>,
    chess960: bool,
    rules: String,
    layout_given: bool,
) -> PyResult<Board> {
    let typed = fen.filter(|f| f.trim() != "startpos");
    let text = typed.unwrap_or(&start_fen);
    let mut game = Game::from_fen(variant, text).map_err(|e| {
        let what = if typed.is_some() {
            "invalid FEN"
        } else {
            "the start position is not valid"
        };
        PyValueError::new_err(format!(
            "{what} `{}`: {e}",
            houserules_engine::echo::echo(text)
        ))
    })?;
    if typed.is_some() {
        // As the CLI's --fen: castling letters only Chess960 can keep make
        // the position a Chess960 one; more kings than the rules allow and
        // pieces where play cannot put them are refused.
        if !standard_castling_letters(text, &start_fen) {
            game.detect_chess960();
        }
        game.check_royal_count()
            .and_then(|()| game.check_piece_ranks())
            .map_err(|e| PyValueError::new_err(format!("invalid FEN `{text}`: {e}")))?;
    }
    if chess960 {
        game.set_chess960(true);
    }
    let mut b = Board::from_game(game, rules);
    // The rules' own start (no `SetUp`/`FEN` in PGN): no FEN and no layout
    // chosen (a Chess960 layout's position is not what the tags rebuild).
    b.own_start = typed.is_none() && !layout_given;
    Ok(b)
}

#[pymethods]
impl Board {
    /// A board: `game` is a shipped game id (`chess`, `chess960`,
    /// `capablanca`, `crazyhouse`, ... as `houserules.games()` lists them)
    /// or a YAML game file; `fen` a position in the game's letters (None:
    /// the start position); `rules` preset house rules
    /// (`["piece-hp", "berolina-pawns:scope=both"]` or one comma list);
    /// `layout` a starting layout of FIDE chess (`standard`,
    /// `chess960:N`, `chess960:random:SEED`, ...); `chess960` writes and
    /// reads castling as king-takes-rook. A FEN given as the first
    /// argument (python-chess's `Board(fen)`) is taken as `fen` on chess.
    ///
    /// Raises ValueError naming what is wrong (an unknown game with a
    /// suggestion, a preset the game cannot take, a bad FEN).
    #[new]
    #[pyo3(signature = (game = "chess", fen = None, rules = None, layout = None, chess960 = false))]
    fn new(
        game: &str,
        fen: Option<&str>,
        rules: Option<&Bound<'_, PyAny>>,
        layout: Option<&str>,
        chess960: bool,
    ) -> PyResult<Board> {
        let (game, fen) = if fen.is_none() && looks_like_fen(game) {
            ("chess", Some(game))
        } else {
            (game, fen)
        };
        let rules = rules_text(rules)?;
        let base = match game {
            "chess" => None,
            g => Some(load_game(g).map_err(PyValueError::new_err)?),
        };
        let (variant, start) = choose(base, game, &rules, layout).map_err(PyValueError::new_err)?;
        build_board(variant, start, fen, chess960, rules, layout.is_some())
    }

    /// A board on the game defined by the YAML text `text`
    /// (docs/game-format.md), with optional `fen`, `rules` and `chess960`
    /// as in `Board(...)`.
    ///
    /// Raises ValueError with every problem of the definition, each with
    /// its line and column.
    #[staticmethod]
    #[pyo3(signature = (text, fen = None, rules = None, chess960 = false))]
    fn from_yaml(
        text: &str,
        fen: Option<&str>,
        rules: Option<&Bound<'_, PyAny>>,
        chess960: bool,
    ) -> PyResult<Board> {
        let base = houserules_definitions::load_variant_str("game.yaml", text)
            .map_err(|d| PyValueError::new_err(d.render().trim_end().to_string()))?;
        let rules = rules_text(rules)?;
        let id = base.definition().id.clone();
        let (variant, start) = if rules.trim().is_empty() {
            let s = base.definition().start_fen.clone();
            (base, s)
        } else {
            let rs = houserules_presets::RuleSet::parse(&rules)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            houserules_presets::build_on(base.definition(), base.has_hooks(), &rs, None)
                .map_err(|e| PyValueError::new_err(format!("game {id}: {e}")))?
        };
        build_board(variant, start, fen, chess960, rules, false)
    }

    /// The legal moves: `len()`, `in`, `count()`, iteration (a fresh list
    /// each time, like python-chess's generator, it follows the board).
    #[getter]
    fn legal_moves(slf: &Bound<'_, Self>) -> LegalMoves {
        LegalMoves {
            board: slf.clone().unbind(),
        }
    }

    /// Plays `move` (a Move, or a UCI string).
    ///
    /// Raises IllegalMoveError when it is not legal here (the board is
    /// then unchanged).
    fn push(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(obj) = r#move.cast::<Move>() {
            let m = obj.get();
            // A move listed by a board of this width: the engine judges it
            // as it plays it (one legal-move listing), and the stack keeps
            // the caller's object.
            if let Some((em, w)) = m.engine {
                if w == self.game.variant().definition().width && self.game.apply(em).is_ok() {
                    self.stack.push(obj.clone().unbind());
                    return Ok(());
                }
            }
            let em = self.game.parse_uci(m.text()).map_err(|e| uci_error(&e))?;
            self.play(py, em)?;
            return Ok(());
        }
        let text: String = r#move
            .extract()
            .map_err(|_| PyValueError::new_err("push takes a Move or a UCI string"))?;
        let em = self.game.parse_uci(&text).map_err(|e| uci_error(&e))?;
        self.play(py, em)?;
        Ok(())
    }

    /// Plays a move in UCI and returns it.
    ///
    /// Raises InvalidMoveError (not UCI) or IllegalMoveError.
    fn push_uci(&mut self, py: Python<'_>, uci: &str) -> PyResult<Py<Move>> {
        let em = self.game.parse_uci(uci).map_err(|e| uci_error(&e))?;
        self.play(py, em)
    }

    /// Plays a move in SAN (`Nf3`, `O-O`, `exd8=Q+`) and returns it.
    ///
    /// Raises InvalidMoveError, IllegalMoveError or AmbiguousMoveError.
    fn push_san(&mut self, py: Python<'_>, san: &str) -> PyResult<Py<Move>> {
        let em = self.game.parse_san(san).map_err(|e| san_error(&e))?;
        self.play(py, em)
    }

    /// Takes back the last move and returns it.
    ///
    /// Raises IndexError when no move was played on this board.
    fn pop(&mut self) -> PyResult<Py<Move>> {
        let Some(m) = self.stack.pop() else {
            return Err(PyIndexError::new_err("pop from empty move stack"));
        };
        self.game.undo().map_err(game_error)?;
        Ok(m)
    }

    /// The last move played.
    ///
    /// Raises IndexError when there is none.
    fn peek(&self, py: Python<'_>) -> PyResult<Py<Move>> {
        self.stack
            .last()
            .map(|m| m.clone_ref(py))
            .ok_or_else(|| PyIndexError::new_err("peek from empty move stack"))
    }

    /// The moves played on this board, first first.
    #[getter]
    fn move_stack(&self, py: Python<'_>) -> Vec<Py<Move>> {
        self.stack.iter().map(|m| m.clone_ref(py)).collect()
    }

    /// `move` in SAN with `+`/`#`.
    ///
    /// Raises IllegalMoveError when it is not legal here.
    fn san(&self, r#move: &Move) -> PyResult<String> {
        let m = self.resolve(r#move)?;
        Ok(self.game.san(m))
    }

    /// `move` in UCI; `chess960` (None: the board's mode) writes castling
    /// as king-takes-rook.
    ///
    /// Raises IllegalMoveError when it is not legal here.
    #[pyo3(signature = (r#move, chess960 = None))]
    fn uci(&self, r#move: &Move, chess960: Option<bool>) -> PyResult<String> {
        let m = self.resolve(r#move)?;
        match chess960 {
            Some(c) if c != self.game.is_chess960() => {
                let mut g = self.game.clone();
                g.set_chess960(c);
                Ok(g.uci(m))
            }
            _ => Ok(self.game.uci(m)),
        }
    }

    /// The legal move `san` names.
    ///
    /// Raises InvalidMoveError, IllegalMoveError or AmbiguousMoveError.
    fn parse_san(&self, san: &str) -> PyResult<Move> {
        let m = self.game.parse_san(san).map_err(|e| san_error(&e))?;
        Ok(Move::of(&self.game, &self.game.legal_moves(), m))
    }

    /// The legal move `uci` names (castling as king-to-destination or
    /// king-takes-rook).
    ///
    /// Raises InvalidMoveError or IllegalMoveError.
    fn parse_uci(&self, uci: &str) -> PyResult<Move> {
        let m = self.game.parse_uci(uci).map_err(|e| uci_error(&e))?;
        Ok(Move::of(&self.game, &self.game.legal_moves(), m))
    }

    /// Whether `move` is legal here.
    fn is_legal(&self, r#move: &Move) -> bool {
        self.resolve(r#move).is_ok()
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.game.is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        matches!(self.game.status(), Status::Checkmate { .. })
    }

    /// Whether the side to move has no legal move and is not in check.
    fn is_stalemate(&self) -> bool {
        !self.game.is_check() && self.game.count_legal_moves() == 0
    }

    /// Whether neither side can mate (FIDE 9.6; the game's own rule).
    fn is_insufficient_material(&self) -> bool {
        self.game.is_insufficient_material()
    }

    /// Whether the game is over (with `claim_draw`, also when a draw can
    /// be claimed now: threefold repetition or the fifty-move rule).
    #[pyo3(signature = (*, claim_draw = false))]
    fn is_game_over(&self, claim_draw: bool) -> bool {
        self.status_claiming(claim_draw).is_some()
    }

    /// How the game ended, or None while it goes on.
    #[pyo3(signature = (*, claim_draw = false))]
    fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        self.status_claiming(claim_draw)
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[pyo3(signature = (*, claim_draw = false))]
    fn result(&self, claim_draw: bool) -> &'static str {
        match self.status_claiming(claim_draw) {
            Some(o) => o.result(),
            None => "*",
        }
    }

    /// The status name: `ongoing`, `checkmate`, `stalemate`, a draw or a
    /// rule's reason.
    fn status(&self) -> String {
        self.game.status().name().to_string()
    }

    /// The draws the side to move may claim now (`threefold-repetition`,
    /// `fifty-move-rule`).
    fn claimable_draws(&self) -> Vec<&'static str> {
        self.game
            .claimable_draws()
            .into_iter()
            .map(Claim::name)
            .collect()
    }

    /// Whether a draw can be claimed now.
    fn can_claim_draw(&self) -> bool {
        !self.game.claimable_draws().is_empty()
    }

    /// How many times the current position has occurred.
    fn repetitions(&self) -> usize {
        self.game.repetitions()
    }

    /// The FEN (X-FEN castling; `shredder=True`: file letters always).
    #[pyo3(signature = (*, shredder = false))]
    fn fen(&self, shredder: bool) -> String {
        if shredder {
            self.game.shredder_fen()
        } else {
            self.game.fen()
        }
    }

    /// The board part of the FEN.
    fn board_fen(&self) -> String {
        self.game
            .fen()
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_string()
    }

    /// True when White is to move (python-chess's `chess.WHITE`).
    #[getter]
    fn turn(&self) -> bool {
        self.game.turn() == Color::White
    }

    /// Half-moves since the last capture or pawn move.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.game.halfmove_clock()
    }

    /// The move number, starting at 1, after each Black move one more.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.game.fullmove_number()
    }

    /// Half-moves played on this board.
    fn ply(&self) -> usize {
        self.stack.len()
    }

    /// Whether castling is written and read as king-takes-rook.
    #[getter]
    fn chess960(&self) -> bool {
        self.game.is_chess960()
    }

    /// The game's id (`chess`, `capablanca`, `chess+piece-hp` for presets).
    #[getter]
    fn game(&self) -> String {
        self.game.variant().definition().id.clone()
    }

    /// The presets in force, in `--rules` syntax (`""` for none).
    #[getter]
    fn rules(&self) -> String {
        self.rules.clone()
    }

    /// Files of the board.
    #[getter]
    fn width(&self) -> u8 {
        self.width_height().0
    }

    /// Ranks of the board.
    #[getter]
    fn height(&self) -> u8 {
        self.width_height().1
    }

    /// The piece letter on `square` (upper case for White), or None.
    fn piece_at(&self, square: u32) -> Option<String> {
        let (w, h) = self.width_height();
        if square >= u32::from(w) * u32::from(h) {
            return None;
        }
        self.symbol_at(square as u8).map(String::from)
    }

    /// The index of a square name (`e4`) on this board.
    ///
    /// Raises ValueError when the board has no such square.
    fn parse_square(&self, name: &str) -> PyResult<u32> {
        let (w, h) = self.width_height();
        parse_square(name, w, h)
            .map(u32::from)
            .ok_or_else(|| PyValueError::new_err(format!("no square `{name}` on a {w}×{h} board")))
    }

    /// The name of square `square` (`e4`).
    fn square_name(&self, square: u32) -> PyResult<String> {
        let (w, h) = self.width_height();
        if square >= u32::from(w) * u32::from(h) {
            return Err(PyValueError::new_err(format!(
                "square {square} is not on a {w}×{h} board"
            )));
        }
        Ok(houserules_engine::fen::square_name(square as u8, w))
    }

    /// A copy; `stack=False` forgets the moves played (the position and
    /// its repetition history stay).
    #[pyo3(signature = (*, stack = true))]
    fn copy(&self, py: Python<'_>, stack: bool) -> Board {
        Board {
            game: self.game.clone(),
            stack: if stack {
                self.stack.iter().map(|m| m.clone_ref(py)).collect()
            } else {
                Vec::new()
            },
            rules: self.rules.clone(),
            // Without the stack the copy starts where the board is now.
            start_fen: if stack {
                self.start_fen.clone()
            } else {
                self.game.fen()
            },
            own_start: stack && self.own_start,
        }
    }

    fn __copy__(&self, py: Python<'_>) -> Board {
        self.copy(py, true)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> Board {
        self.copy(py, true)
    }

    /// Leaf nodes of the legal-move tree `depth` plies deep (the GIL is
    /// released while counting).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let g = self.game.clone();
        py.detach(move || g.perft(depth, true))
    }

    /// Perft below each legal move: `{uci: leaf count}` (the GIL is
    /// released while counting).
    fn divide<'py>(&self, py: Python<'py>, depth: u32) -> PyResult<Bound<'py, PyDict>> {
        let g = self.game.clone();
        let counts = py.detach(move || {
            let legal = g.legal_moves();
            g.divide(depth, true)
                .into_iter()
                .map(|(m, n)| (g.uci_among(m, &legal), n))
                .collect::<Vec<_>>()
        });
        let d = PyDict::new(py);
        for (k, v) in counts {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The Zobrist hash of the position (python-chess's `zobrist_hash`,
    /// on our own keys).
    fn zobrist_hash(&self) -> u64 {
        self.game.hash()
    }

    fn __hash__(&self) -> u64 {
        self.game.hash()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Board>() {
            Ok(o) => match o.try_borrow() {
                Ok(o) => {
                    o.game.variant().definition().id == self.game.variant().definition().id
                        && o.game.fen() == self.game.fen()
                }
                Err(_) => false,
            },
            Err(_) => false,
        }
    }

    /// The board as text, rank by rank from the top, `.` for an empty
    /// square (python-chess's layout).
    fn __str__(&self) -> String {
        let (w, h) = self.width_height();
        let mut out = String::new();
        for r in (0..h).rev() {
            let row: Vec<String> = (0..w)
                .map(|f| {
                    self.symbol_at(r * w + f)
                        .map_or_else(|| ".".to_string(), String::from)
                })
                .collect();
            out.push_str(&row.join(" "));
            if r > 0 {
                out.push('\n');
            }
        }
        out
    }

    fn __repr__(&self) -> String {
        let id = &self.game.variant().definition().id;
        if id == "chess" {
            format!("Board('{}')", self.game.fen())
        } else {
            format!("Board(game='{id}', fen='{}')", self.game.fen())
        }
    }

    /// An SVG picture of the board, `size` pixels wide (any board size:
    /// the squares scale; pieces are their letters, White's light with a
    /// dark outline, Black's dark).
    #[pyo3(signature = (size = 400))]
    fn svg(&self, size: u32) -> String {
        let (w, h) = self.width_height();
        let size = size.max(16) as f64;
        let sq = size / f64::from(w.max(h));
        let (pw, ph) = (sq * f64::from(w), sq * f64::from(h));
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {pw:.1} {ph:.1}\" width=\"{pw:.0}\" height=\"{ph:.0}\">"
        );
        for r in 0..h {
            for f in 0..w {
                let x = f64::from(f) * sq;
                let y = f64::from(h - 1 - r) * sq;
                let fill = if (r + f) % 2 == 0 {
                    "#b58863"
                } else {
                    "#f0d9b5"
                };
                s.push_str(&format!(
                    "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{sq:.1}\" height=\"{sq:.1}\" fill=\"{fill}\"/>"
                ));
                if let Some(c) = self.symbol_at(r * w + f) {
                    let (fg, stroke) = if c.is_ascii_uppercase() {
                        ("#ffffff", "#000000")
                    } else {
                        ("#000000", "#ffffff")
                    };
                    s.push_str(&format!(
                        "<text x=\"{:.1}\" y=\"{:.1}\" font-family=\"sans-serif\" font-weight=\"bold\" font-size=\"{:.1}\" text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"{fg}\" stroke=\"{stroke}\" stroke-width=\"{:.2}\">{}</text>",
                        x + sq / 2.0,
                        y + sq / 2.0,
                        sq * 0.62,
                        sq * 0.03,
                        c.to_ascii_uppercase()
                    ));
                }
            }
        }
        s.push_str("</svg>");
        s
    }

    fn _repr_svg_(&self) -> String {
        self.svg(400)
    }
}

/// The legal moves of a board, as python-chess's `LegalMoveGenerator`:
/// `len()`, `in`, `count()`, `bool()`, iteration; it follows the board it
/// came from.
#[pyclass(module = "houserules")]
pub struct LegalMoves {
    board: Py<Board>,
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.board.borrow(py).game.count_legal_moves() as usize
    }

    /// The number of legal moves.
    fn count(&self, py: Python<'_>) -> usize {
        self.__len__(py)
    }

    fn __bool__(&self, py: Python<'_>) -> bool {
        self.__len__(py) > 0
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> bool {
        match r#move.cast::<Move>() {
            Ok(m) => self.board.borrow(py).resolve(m.get()).is_ok(),
            Err(_) => false,
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let moves = self.board.borrow(py).move_objects();
        Ok(PyList::new(py, moves)?.try_iter()?.into_any())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let b = self.board.borrow(py);
        let sans: Vec<String> = b
            .game
            .legal_moves()
            .into_iter()
            .map(|m| b.game.san(m))
            .collect();
        format!("<LegalMoves ({})>", sans.join(", "))
    }
}

/// The ids of the shipped games (`Board(game=ID)` takes them).
#[pyfunction]
pub fn games() -> Vec<String> {
    houserules_definitions::builtin_ids()
        .iter()
        .map(|s| s.to_string())
        .collect()
}
