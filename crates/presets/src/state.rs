//! The JSON state format: a whole position under a rule set, both ways
//! (issue 4; RULINGS G5). See `docs/state-format.md` for the format and
//! `docs/state-format.schema.json` for its JSON Schema ([`schema_json`]).
//!
//! It carries what FEN carries (board, side to move, castling, en passant,
//! clocks) in FEN's own notations, field by field, plus what FEN cannot:
//! the rule set (with parameters such as the extinction target), stable
//! piece ids, hit points, which pawns are still unmoved, the half-move
//! within a multi-move turn and a locked result.
//!
//! It lives here, not in the engine: the engine stays free of serde and
//! knows only anonymous attribute bytes and rule-state slots, while the
//! meaning of those (hit points, phase, locked results) belongs to the
//! presets. Plain FEN stays valid for positions without extra state: it
//! is what this format gives with every optional field left out.

use std::collections::BTreeSet;

use houserules_engine::fen::{self, FenError};
use houserules_engine::{BitSet, Color, Game, GameDefinition, Position, Tables, Variant};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::PresetError;
use crate::needs::Kinds;
use crate::rules::{
    compose_on, hit_points, set_hit_points, PresetHooks, KING_MAX_HP, PIECE_START_HP, SLOT_PHASE,
    SLOT_RESULT,
};
use crate::ruleset::RuleSet;

/// The value of the `format` field.
pub const FORMAT: &str = "houserules-state/1";

const PAWN: u8 = 0;
const KING: u8 = 5;

/// A side, in JSON `"white"` or `"black"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// Why a rule locked the result before the game reached its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LockReason {
    /// The first capture won (RULINGS P9).
    CaptureToWin,
    /// The first promotion won.
    FirstPromotionWins,
}

impl LockReason {
    fn preset(self) -> &'static str {
        match self {
            LockReason::CaptureToWin => "capture-to-win",
            LockReason::FirstPromotionWins => "first-promotion-wins",
        }
    }
    fn code(self) -> u16 {
        match self {
            LockReason::CaptureToWin => 0,
            LockReason::FirstPromotionWins => 1,
        }
    }
}

/// A result a rule has locked in (capture-to-win, first-promotion-wins),
/// kept in the position's locked-result rule-state slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LockedResult {
    /// The side that won.
    pub winner: Side,
    /// The rule that decided it.
    pub reason: LockReason,
}

/// What a position knows about one piece beyond its letter on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieceState {
    /// The square (`e4`); a piece of the board must stand there.
    pub square: String,
    /// The piece's stable id (1–65535, unique). Left out: a fresh id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u16>,
    /// Hit points (`piece-hp` only): 1–3 for a king (3 is the
    /// `king-heals` cap), 1–2 for other pieces. Left out: the start value
    /// (king 1, others 2; RULINGS P6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<u8>,
    /// Pawns only: whether it has not moved yet (and may double-step).
    /// Left out: FEN's rule, a pawn on its home rank is unmoved (G5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmoved: Option<bool>,
}

/// The JSON state document (format `houserules-state/1`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateDoc {
    /// Always `houserules-state/1`.
    pub format: String,
    /// The game the rules are played on: a shipped game's id
    /// (`capablanca`) or the YAML text of a game file. Left out: FIDE
    /// chess.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The rule set in the CLI form (`piece-hp,king-heals`,
    /// `extinction-chess:target=knight`); empty or left out: FIDE chess.
    #[serde(default)]
    pub rules: String,
    /// FEN's board field (`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR`).
    pub board: String,
    /// The side to move.
    pub turn: Side,
    /// FEN's castling field (`KQkq`, X-FEN or Shredder-FEN letters, `-`).
    // File letters make the game a Chess960 game (castling rights on any
    // rook, UCI castling king-takes-rook); `KQkq` is standard castling,
    // whose rights need the king on e1/e8 and the rook in its corner. (A
    // plain comment: doc comments go into the committed JSON Schemas.)
    #[serde(default = "no_castling")]
    pub castling: String,
    /// The en passant square (`e3`), or null.
    #[serde(default)]
    pub en_passant: Option<String>,
    /// Half-moves since the last capture or pawn move (FIDE 9.3).
    #[serde(default)]
    pub halfmove_clock: u32,
    /// The full-move number, from 1.
    #[serde(default = "one")]
    pub fullmove_number: u32,
    /// Per-piece state; pieces not listed take the defaults.
    #[serde(default)]
    pub pieces: Vec<PieceState>,
    /// The half-move within a multi-move turn (`double-move`,
    /// `monster-rules`): 0 for the first, 1 for the second.
    #[serde(default)]
    pub phase: u8,
    /// A result a rule has locked in (the game is over), or null.
    #[serde(default)]
    pub result: Option<LockedResult>,
}

fn no_castling() -> String {
    "-".into()
}
fn one() -> u32 {
    1
}

/// Why a state document was refused: what is wrong and where (a JSON path
/// such as `pieces[2].hp`; empty for the whole document).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// Not JSON, or JSON of the wrong shape.
    #[error("state JSON{}: {message}", at(path))]
    Json {
        /// Where (`.` for the document itself).
        path: String,
        /// What serde said.
        message: String,
    },
    /// A field has a value the rules do not allow.
    #[error("state JSON{}: {message}", at(path))]
    Field {
        /// Where.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The rule set is refused.
    #[error("state JSON at `rules`: {0}")]
    Rules(#[from] PresetError),
    /// The game cannot be written in the format (kept for compatibility;
    /// every board the engine supports can be written since issue 12).
    #[error("the state format cannot hold this game's board")]
    Unsupported,
}

fn at(path: &str) -> String {
    if path.is_empty() || path == "." {
        String::new()
    } else {
        format!(" at `{path}`")
    }
}

fn field(path: impl Into<String>, message: impl Into<String>) -> StateError {
    StateError::Field {
        path: path.into(),
        message: message.into(),
    }
}

/// The JSON Schema of the state document (draft 2020-12), as committed in
/// `docs/state-format.schema.json`.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(StateDoc);
    let mut s = serde_json::to_string_pretty(&schema).expect("a schema serialises");
    s.push('\n');
    s
}

impl StateDoc {
    /// Reads a document from JSON text.
    ///
    /// # Errors
    /// [`StateError::Json`] with the path of the offending value.
    pub fn parse(json: &str) -> Result<StateDoc, StateError> {
        // A byte order mark is not JSON but editors write one.
        let json = json.strip_prefix('\u{feff}').unwrap_or(json);
        let mut de = serde_json::Deserializer::from_str(json);
        let doc = serde_path_to_error::deserialize(&mut de).map_err(|e| StateError::Json {
            path: e.path().to_string(),
            message: e.inner().to_string(),
        })?;
        // Text after the document (a second object, stray characters) is
        // refused rather than ignored.
        de.end().map_err(|e| StateError::Json {
            path: ".".into(),
            message: e.to_string(),
        })?;
        Ok(doc)
    }

    /// The document as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a state serialises");
        s.push('\n');
        s
    }

    /// The document of `game`, played under `rules` on FIDE chess (the
    /// rule set the game's variant was built from). Every piece is listed
    /// with its id; hit points under `piece-hp`; `unmoved` for pawns.
    ///
    /// # Errors
    /// None today; [`StateError::Unsupported`] is kept for compatibility.
    pub fn from_game(rules: &RuleSet, game: &Game) -> Result<StateDoc, StateError> {
        StateDoc::from_game_on(rules, game, None)
    }

    /// [`StateDoc::from_game`] for a game played on the game `on` (a
    /// shipped game's id or a game file's YAML text, written to the
    /// document's `game` field; `None`: FIDE chess).
    ///
    /// # Errors
    /// As [`StateDoc::from_game`].
    pub fn from_game_on(
        rules: &RuleSet,
        game: &Game,
        on: Option<&str>,
    ) -> Result<StateDoc, StateError> {
        let mut doc = match (
            game.position::<u64>(),
            game.variant().tables_u64(),
            game.position::<u128>(),
            game.variant().tables_u128(),
        ) {
            (Some(p), Some(t), _, _) => StateDoc::of_position(rules, game, p, t),
            (_, _, Some(p), Some(t)) => StateDoc::of_position(rules, game, p, t),
            _ => return Err(StateError::Unsupported),
        };
        doc.game = on.map(str::to_string);
        Ok(doc)
    }

    fn of_position<B: BitSet>(
        rules: &RuleSet,
        game: &Game,
        pos: &Position<B>,
        t: &Tables<B>,
    ) -> StateDoc {
        let width = t.width();
        let kinds = Kinds::of(game.variant().definition());
        // A Chess960 game's castling field is written in Shredder-FEN file
        // letters, which is how `to_game` knows it is one.
        let fen = if game.is_chess960() {
            game.shredder_fen()
        } else {
            game.fen()
        };
        let f: Vec<&str> = fen.split(' ').collect();
        let get = |i: usize| f.get(i).copied().unwrap_or("-");
        let hp_on = rules.has("piece-hp");
        let mut pieces = Vec::new();
        for sq in pos.occupied().iter() {
            let piece = pos.piece_at(sq).expect("occupied");
            pieces.push(PieceState {
                square: fen::square_name(sq, width),
                id: Some(pos.piece_id(sq)),
                hp: if hp_on { hit_points(pos, sq) } else { None },
                unmoved: kinds
                    .is(piece.kind, PAWN)
                    .then(|| pos.unmoved_squares().has(sq)),
            });
        }
        let lock = pos.rule_state(SLOT_RESULT);
        let result = if lock == 0 {
            None
        } else {
            Some(LockedResult {
                winner: if lock & 3 == 2 {
                    Side::Black
                } else {
                    Side::White
                },
                reason: if lock >> 2 == 1 {
                    LockReason::FirstPromotionWins
                } else {
                    LockReason::CaptureToWin
                },
            })
        };
        StateDoc {
            format: FORMAT.into(),
            game: None,
            rules: rules.to_cli(),
            board: get(0).into(),
            turn: game.turn().into(),
            castling: get(2).into(),
            en_passant: match get(3) {
                "-" => None,
                s => Some(s.into()),
            },
            halfmove_clock: game.halfmove_clock(),
            fullmove_number: game.fullmove_number(),
            pieces,
            phase: pos.rule_state(SLOT_PHASE) as u8,
            result,
        }
    }

    /// The rule set and the game this document describes, checked against
    /// the rules: every square named holds a piece, ids are unique, hit
    /// points only under `piece-hp` and within range, the phase and the
    /// locked result only under the presets that use them, and the side
    /// not to move has no royal an enemy capture could kill.
    ///
    /// # Errors
    /// Every [`StateError`], with the path of the offending field.
    pub fn to_game(&self) -> Result<(RuleSet, Game), StateError> {
        if self.format != FORMAT {
            return Err(field(
                "format",
                format!("expected \"{FORMAT}\", found \"{}\"", self.format),
            ));
        }
        let rules = RuleSet::parse(&self.rules)?;
        let (base, base_hooks) = match self.game.as_deref() {
            None => (GameDefinition::fide(), false),
            Some(g) => {
                let def = match houserules_definitions::builtin(g) {
                    Some(def) => def,
                    None => houserules_definitions::load_str("game.yaml", g).map_err(|d| {
                        let shown: String = g.chars().take(40).collect();
                        field(
                            "game",
                            format!(
                                "`{}` is neither a shipped game's id nor a valid game file ({} problems)",
                                shown.escape_debug(),
                                d.len()
                            ),
                        )
                    })?,
                };
                let hooks = Variant::new(def.clone())
                    .map_err(|e| field("game", format!("the engine refused the game: {e}")))?
                    .has_hooks();
                (def, hooks)
            }
        };
        let (variant, _) = crate::rules::build_on(&base, base_hooks, &rules, None)?;
        // File letters (Shredder-FEN, X-FEN's inner rooks) make a Chess960
        // game: castling rights on any rook, UCI castling king-takes-rook.
        // `KQkq` is standard castling.
        let chess960 = self
            .castling
            .chars()
            .any(|c| c.is_ascii_alphabetic() && !"KQkq".contains(c));
        let variant = variant.with_chess960(chess960);
        for (name, v) in [
            ("board", &self.board),
            ("castling", &self.castling),
            (
                "en_passant",
                self.en_passant.as_ref().unwrap_or(&String::new()),
            ),
        ] {
            if v.chars().any(char::is_whitespace) || (name != "en_passant" && v.is_empty()) {
                return Err(field(
                    name,
                    format!("`{v}`: expected one FEN field without spaces"),
                ));
            }
        }
        let (_, hooks) = compose_on(&base, base_hooks, &rules)?;
        let game = if let Some(t) = variant.tables_u64() {
            let pos = self.position(&rules, &hooks, &variant, t)?;
            Game::from_position(variant.clone(), pos)
        } else if let Some(t) = variant.tables_u128() {
            let pos = self.position(&rules, &hooks, &variant, t)?;
            Game::from_position(variant.clone(), pos)
        } else {
            return Err(StateError::Unsupported);
        }
        .map_err(|e| field("", e.to_string()))?;
        Ok((rules, game))
    }

    /// The position the document describes, on the tables `t` of
    /// `variant`, checked as [`StateDoc::to_game`] says.
    fn position<B: BitSet>(
        &self,
        rules: &RuleSet,
        hooks: &PresetHooks,
        variant: &Variant,
        t: &Tables<B>,
    ) -> Result<Position<B>, StateError> {
        // An empty `en_passant` is no en passant square, written `-` as in
        // FEN: left empty, the FEN's fields would shift and the reader
        // would take the half-move clock for the en passant field.
        let fen_text = format!(
            "{} {} {} {} {} {}",
            self.board,
            if self.turn == Side::White { "w" } else { "b" },
            self.castling,
            self.en_passant
                .as_deref()
                .filter(|ep| !ep.is_empty())
                .unwrap_or("-"),
            self.halfmove_clock,
            self.fullmove_number
        );
        let mut pos: Position<B> =
            fen::parse_setup(variant.definition(), t, &fen_text).map_err(fen_error)?;
        // A side without its royal piece: only a finished game under rules
        // that can destroy royals (P6, P8), and never both sides.
        let royal_kind = variant
            .definition()
            .pieces
            .iter()
            .position(|p| p.royal)
            .map(|k| variant.definition().pieces[k].id.clone());
        if let Some(kind) = royal_kind {
            let lost: Vec<Color> = [Color::White, Color::Black]
                .into_iter()
                .filter(|&c| pos.royals(t, c).is_empty())
                .collect();
            let can_lose = rules.has("piece-hp") || rules.has("explosive-rook");
            if lost.len() == 2 || (!lost.is_empty() && !can_lose) {
                return Err(field(
                    "board",
                    format!("{} has no royal piece ({kind})", side_name(lost[0])),
                ));
            }
        }
        let kinds = Kinds::of(variant.definition());
        self.apply_pieces(rules, &kinds, t, &mut pos)?;
        self.apply_rule_state(rules, hooks, &mut pos)?;
        let them = Color::from(self.turn).flip();
        if hooks.royal_exposed(t, &pos, them) {
            return Err(field(
                "board",
                format!(
                    "the side not to move ({}) has a royal piece that the side to move could capture and kill",
                    side_name(them)
                ),
            ));
        }
        Ok(pos)
    }

    fn apply_pieces<B: BitSet>(
        &self,
        rules: &RuleSet,
        kinds: &Kinds,
        t: &Tables<B>,
        pos: &mut Position<B>,
    ) -> Result<(), StateError> {
        let hp_on = rules.has("piece-hp");
        let mut seen = BTreeSet::new();
        let mut given_ids = BTreeSet::new();
        let mut unmoved = pos.unmoved_squares();
        for (i, p) in self.pieces.iter().enumerate() {
            let path = |f: &str| format!("pieces[{i}].{f}");
            let sq = fen::parse_square(&p.square, t.width(), t.height())
                .ok_or_else(|| field(path("square"), format!("`{}` is not a square", p.square)))?;
            let Some(piece) = pos.piece_at(sq) else {
                return Err(field(
                    path("square"),
                    format!("no piece stands on {} in `board`", p.square),
                ));
            };
            if !seen.insert(sq) {
                return Err(field(
                    path("square"),
                    format!("{} is listed twice", p.square),
                ));
            }
            if let Some(id) = p.id {
                if id == 0 {
                    return Err(field(path("id"), "ids start at 1"));
                }
                if !given_ids.insert(id) {
                    return Err(field(path("id"), format!("id {id} is given to two pieces")));
                }
            }
            if let Some(hp) = p.hp {
                if !hp_on {
                    return Err(field(
                        path("hp"),
                        "hit points need the piece-hp preset in `rules`",
                    ));
                }
                let max = if kinds.is(piece.kind, KING) {
                    KING_MAX_HP
                } else {
                    PIECE_START_HP
                };
                if hp == 0 || hp > max {
                    return Err(field(
                        path("hp"),
                        format!(
                            "{hp} hit points: a {} has 1 to {max} (RULINGS P6, P7)",
                            if kinds.is(piece.kind, KING) {
                                "king"
                            } else {
                                "piece other than a king"
                            }
                        ),
                    ));
                }
                set_hit_points(pos, sq, hp);
            }
            if let Some(u) = p.unmoved {
                if !kinds.is(piece.kind, PAWN) {
                    return Err(field(path("unmoved"), "only pawns carry `unmoved`"));
                }
                if u {
                    unmoved |= B::bit(sq);
                } else {
                    unmoved &= !B::bit(sq);
                }
            }
        }
        pos.set_unmoved_squares(unmoved);
        // Ids: the given ones first, then unlisted pieces whose FEN id
        // collides with a given one get fresh ids above every id in use.
        let mut next = pos
            .occupied()
            .iter()
            .map(|s| pos.piece_id(s))
            .chain(given_ids.iter().copied())
            .max()
            .unwrap_or(0);
        let mut explicit = B::EMPTY;
        for p in &self.pieces {
            if let Some(id) = p.id {
                let sq = fen::parse_square(&p.square, t.width(), t.height()).expect("checked");
                pos.set_piece_id(sq, id);
                explicit |= B::bit(sq);
            }
        }
        for sq in (pos.occupied() & !explicit).iter() {
            if given_ids.contains(&pos.piece_id(sq)) {
                next = next
                    .checked_add(1)
                    .ok_or_else(|| field("pieces", "too many piece ids"))?;
                pos.set_piece_id(sq, next);
            }
        }
        Ok(())
    }

    fn apply_rule_state<B: BitSet>(
        &self,
        rules: &RuleSet,
        hooks: &PresetHooks,
        pos: &mut Position<B>,
    ) -> Result<(), StateError> {
        match self.phase {
            0 => {}
            1 => {
                if !hooks.doubles_for(self.turn.into()) {
                    return Err(field(
                        "phase",
                        format!(
                            "phase 1 (second half-move) needs double-move, or monster-rules with the scope of the side to move ({})",
                            side_name(self.turn.into())
                        ),
                    ));
                }
                pos.set_rule_state(SLOT_PHASE, 1);
            }
            n => {
                return Err(field(
                    "phase",
                    format!("{n}: the phase is 0 (first half-move) or 1 (second)"),
                ))
            }
        }
        if let Some(r) = self.result {
            if !rules.has(r.reason.preset()) {
                return Err(field(
                    "result.reason",
                    format!("`{}` is not in `rules`", r.reason.preset()),
                ));
            }
            let w = if r.winner == Side::White { 1 } else { 2 };
            pos.set_rule_state(SLOT_RESULT, (r.reason.code() << 2) | w);
        }
        Ok(())
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn fen_error(e: FenError) -> StateError {
    let path = match &e {
        FenError::Turn(_) => "turn",
        FenError::Castling(_) | FenError::NoCastling(_) => "castling",
        FenError::EnPassant(_) => "en_passant",
        FenError::Clock { field, .. } if field.starts_with("half") => "halfmove_clock",
        FenError::Clock { .. } => "fullmove_number",
        _ => "board",
    };
    field(path, e.to_string())
}

/// Reads a state document and builds its game.
///
/// # Errors
/// Every [`StateError`].
pub fn from_json(json: &str) -> Result<(RuleSet, Game), StateError> {
    StateDoc::parse(json)?.to_game()
}

/// Writes `game` (played under `rules`) as a state document.
///
/// # Errors
/// [`StateError::Unsupported`] for boards larger than 64 squares.
pub fn to_json(rules: &RuleSet, game: &Game) -> Result<String, StateError> {
    Ok(StateDoc::from_game(rules, game)?.to_json())
}
