//! The creation request and the inputs of a session, as JSON: their
//! strict readers, and how a request's presets, layout and modifier
//! entries become a game and attached modifiers.

use std::collections::BTreeMap;

use houserules_engine::Game;
use houserules_modifiers::descriptor::{Descriptor, MarkerKind};
use houserules_modifiers::runtime::{codes, parse_color, ChoiceTimeout, CoinFlips, Geom};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Input as echoed in a message: cut and with control characters escaped.
fn echo_input(s: &str) -> String {
    houserules_engine::echo::echo(s)
}

/// A creation request (issue 5 § Game session API).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateRequest {
    /// Start position (in the letters of the variant). It replaces the
    /// layout's start position; the rules of `presets` and `layout` apply
    /// to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// A full position state (`docs/state-format.md`, format
    /// `houserules-state/1`): board, side to move, castling, en passant,
    /// clocks, piece ids and hit points, preset state, and the rule set.
    /// It carries the position and the presets, so it excludes `fen`,
    /// `layout` and `presets` (refused together).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<houserules_presets::state::StateDoc>,
    /// A layout id (presets crate: `standard`, `chess960:N`,
    /// `chess960:random:SEED`, `dual-classic`, `knightmate`, `monster`,
    /// `pawns-only`). It gives the start position and, for `chess960:…`,
    /// Chess960 castling, written king-takes-rook in UCI. With `fen`, the
    /// FEN replaces the start position and the layout's rules still apply
    /// (a Chess960 FEN with `chess960:N` castles as Chess960); the layout
    /// is still checked against the presets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<String>,
    /// The game (issue 12): a shipped game id (`gardner`, `berolina`, …,
    /// as `houserules games` lists them) or the text of a YAML game
    /// definition (docs/game-format.md). Absent: FIDE chess. The presets
    /// compose on it (each refused, naming its missing need, when the game
    /// lacks what it needs); `layout` is for FIDE chess only. Modifiers and
    /// draft mode play on every board the engine holds (up to 128 squares:
    /// Capablanca 10×8, Grand 10×10), with squares named on that board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Presets, `ID[:K=V]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub presets: Vec<String>,
    /// Modifiers: a library id (`ID[:K=V;…]`, with the reserved keys
    /// `lifetime` and `chooser`, rulings G3) or an inline descriptor.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<crate::output::ModifierEntry>")]
    pub modifiers: Vec<Value>,
    /// The seed, a u32 (0 when absent, rulings F4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<u32>")]
    pub seed: Option<Value>,
    /// Draft mode (RULINGS M4): a card draft before every third ply.
    #[serde(default)]
    pub draft: bool,
    /// Choice timeout policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice_timeout: Option<ChoiceTimeout>,
    /// Coin flips drawn (`auto`) or asked (`manual`), rulings B6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coin_flips: Option<CoinFlips>,
}

impl CreateRequest {
    /// Reads a creation request from JSON text: a byte order mark is
    /// skipped, a repeated key is refused, and an error names the JSON
    /// path of the offending value (`$.state.pieces[0].hp: invalid type…`).
    ///
    /// # Errors
    /// A message with the line and column of a syntax error, or the path of
    /// a value of the wrong shape.
    pub fn parse(text: &str) -> Result<CreateRequest, String> {
        let v = houserules_modifiers::validate::strict_json(text).map_err(|e| e.to_string())?;
        if !v.is_object() {
            return Err(
                "a JSON object is expected, such as {\"modifiers\": [\"mr_freeze\"]}".into(),
            );
        }
        // A state that is not an object would otherwise be reported with
        // serde's Rust type name ("expected struct StateDoc").
        if let Some(st) = v.get("state").filter(|st| !st.is_object() && !st.is_null()) {
            let hint = if st.is_string() {
                " (a file name is not read here: put the state JSON itself)"
            } else {
                ""
            };
            return Err(format!(
                "$.state: a state object (docs/state-format.md, as `houserules state` writes it) is expected, not {}{hint}",
                houserules_modifiers::validate::type_name(st)
            ));
        }
        serde_path_to_error::deserialize(v).map_err(|e| {
            let path = e.path().to_string();
            let at = if path == "." {
                "$".to_string()
            } else {
                format!("$.{path}")
            };
            format!("{at}: {}", e.into_inner())
        })
    }
}

/// An input: a move or a choice (one JSON object per line in scripts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Input {
    /// `{"move": "e2e4"}` or `{"move": "Nf3"}`.
    Move {
        /// UCI or SAN (read by [`crate::Session::submit`] against the moves
        /// the active rules allow; recorded in UCI).
        #[serde(rename = "move")]
        mv: String,
    },
    /// `{"choice": VALUE, "player"?: colour, "auto"?: reason}`.
    Choice {
        /// The value: a square name, file letter, rank digit, heads/tails,
        /// rock/paper/scissors.
        choice: Value,
        /// Which player answers (needed for `rps` frames with both).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// Set by the server for timeouts (`"timeout"`), rulings B7.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        auto: Option<String>,
    },
}

impl Input {
    /// Reads one input from JSON text, strictly: an object with either
    /// `move` (a string, UCI or SAN: the session reads it) or `choice` (a string, with optional `player`,
    /// `white` or `black`, and `auto`, only `"timeout"`), and no other key
    /// (docs/session-input.schema.json).
    ///
    /// # Errors
    /// A message naming the offending key or value.
    pub fn parse(text: &str) -> Result<Input, String> {
        let v = houserules_modifiers::validate::strict_json(text).map_err(|e| e.to_string())?;
        let Value::Object(o) = v else {
            return Err(
                "an input is a JSON object: {\"move\": \"e2e4\"} or {\"choice\": VALUE}".into(),
            );
        };
        let allowed: &[&str] = match (o.contains_key("move"), o.contains_key("choice")) {
            (true, true) => return Err("an input has `move` or `choice`, not both".into()),
            (false, false) => {
                return Err(
                    "an input needs `move` (UCI or SAN, e.g. \"e2e4\" or \"Nf3\") or `choice`"
                        .into(),
                )
            }
            (true, false) => &["move"],
            (false, true) => &["choice", "player", "auto"],
        };
        if let Some(k) = o.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(format!(
                "unknown key `{k}` (this input may have {})",
                allowed
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(m) = o.get("move") {
            return match m {
                Value::String(s) => Ok(Input::Move { mv: s.clone() }),
                _ => Err("`move` is a string, in UCI or SAN, such as \"e2e4\" or \"Nf3\"".into()),
            };
        }
        let player = match o.get("player") {
            None => None,
            Some(Value::String(p)) if p == "white" || p == "black" => Some(p.clone()),
            Some(p) => return Err(format!("`player` is \"white\" or \"black\", not {p}")),
        };
        let auto = match o.get("auto") {
            None => None,
            Some(Value::String(a)) if a == "timeout" => Some(a.clone()),
            Some(a) => return Err(format!("`auto` can only be \"timeout\", not {a}")),
        };
        if !o["choice"].is_string() {
            return Err(format!(
                "`choice` is a string (a square, file letter, rank digit, heads/tails, rock/paper/scissors or card id), not {}",
                o["choice"]
            ));
        }
        Ok(Input::Choice {
            choice: o["choice"].clone(),
            player,
            auto,
        })
    }
}

/// The game a request's `game`, `presets` and `layout` choose (both copies
/// of the building, [`Session::create`] and [`Session::restore`], go
/// through it).
#[derive(Clone)]
pub(crate) struct PresetGame {
    variant: houserules_engine::Variant,
    /// The layout's start FEN (used when the request has no `fen`).
    start: String,
    /// The layout is Chess960: castling is written king-takes-rook in UCI
    /// even when king and rooks stand on the standard squares.
    chess960: bool,
}

/// The variant a request's `game` names: a shipped game id, or else the
/// text of a YAML definition (with the rule hooks its mutations need).
///
/// # Errors
/// A message starting with `$.game: `.
pub(crate) fn load_game(game: &str) -> Result<houserules_engine::Variant, String> {
    let id = game.trim();
    if let Some(src) = houserules_definitions::builtin_source(id) {
        return houserules_definitions::load_variant_str(&format!("{id}.yaml"), src).map_err(|d| {
            format!(
                "$.game: the shipped game `{id}` needs engine features that are not built yet: {}",
                d.render().trim_end()
            )
        });
    }
    // lichess's variants built on FIDE chess (antichess, King of the
    // Hill, Racing Kings, atomic); the YAML ones were found above.
    if let Some(info) = houserules_presets::lichess::find(id).filter(|g| !g.is_yaml()) {
        return info
            .build()
            .map(|(variant, _)| variant)
            .map_err(|e| format!("$.game: the shipped game `{}` does not build: {e}", info.id));
    }
    // One word without YAML structure is meant as an id.
    if !game.contains(':') && !game.contains('\n') {
        let mut ids = houserules_definitions::builtin_ids();
        ids.extend(
            houserules_presets::lichess::LICHESS_GAMES
                .iter()
                .filter(|g| !g.is_yaml())
                .map(|g| g.id),
        );
        let ids = ids.join(", ");
        return Err(format!(
            "$.game: `{}` is not a shipped game id ({ids}) nor the text of a YAML game definition",
            echo_input(game)
        ));
    }
    houserules_definitions::load_variant_str("$.game", game).map_err(|d| {
        format!(
            "$.game: the YAML game definition has problems:\n{}",
            d.render().trim_end()
        )
    })
}

/// A build error prefixed with the request field it is about: a given
/// layout the game or the rules cannot start from is `$.layout`'s, the
/// rest `$.presets`' (session-6 web trial: a bad layout was placed at
/// `$.presets`).
fn field_of(layout_given: bool) -> impl Fn(houserules_presets::PresetError) -> String {
    move |e| match e {
        houserules_presets::PresetError::BadLayout { .. } if layout_given => {
            format!("$.layout: {e}")
        }
        _ => format!("$.presets: {e}"),
    }
}

/// How many rule sets [`PresetGame::build`] keeps built.
const CACHED: usize = 256;

impl PresetGame {
    /// Parses the game, rule set and layout and builds the variant:
    /// without `game`, FIDE chess (`houserules_presets::build`); with it,
    /// the presets compose on that game (`houserules_presets::build_on`, as
    /// the command line's `--game … --rules …`), and a game with no preset
    /// nor layout is played as defined (its own rule hooks included).
    ///
    /// # Errors
    /// A message starting with the request field's JSON path (`$.game: …`,
    /// `$.presets: …`, `$.layout: …`).
    ///
    /// The games built are kept, by their three texts, and shared: a
    /// variant's definition and move tables are about 200 KB (FIDE chess,
    /// measured in crates/server/tests/memory.rs) and never change once
    /// built, so every session of one rule set plays on one copy (issue 21:
    /// this was most of a live game's memory on the server). The building is
    /// a function of the texts alone (a YAML game is given inline, a
    /// Chess960 layout by its number or seed). At most [`CACHED`] rule sets
    /// are kept; the cache starts again when full, so that requests with
    /// ever new rule sets cannot grow it without bound.
    pub(crate) fn build(
        game: Option<&str>,
        presets: &str,
        layout: Option<&str>,
    ) -> Result<PresetGame, String> {
        type Key = (Option<String>, String, Option<String>);
        static BUILT: std::sync::OnceLock<
            std::sync::Mutex<std::collections::HashMap<Key, PresetGame>>,
        > = std::sync::OnceLock::new();
        let key: Key = (
            game.map(str::to_string),
            presets.to_string(),
            layout.map(str::to_string),
        );
        let built = BUILT.get_or_init(Default::default);
        if let Some(g) = built.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return Ok(g.clone());
        }
        let g = PresetGame::build_uncached(game, presets, layout)?;
        let mut map = built.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= CACHED {
            map.clear();
        }
        map.insert(key, g.clone());
        Ok(g)
    }

    /// [`PresetGame::build`] without the cache.
    fn build_uncached(
        game: Option<&str>,
        presets: &str,
        layout: Option<&str>,
    ) -> Result<PresetGame, String> {
        let rules =
            houserules_presets::RuleSet::parse(presets).map_err(|e| format!("$.presets: {e}"))?;
        let layout = layout
            .map(houserules_presets::Layout::parse)
            .transpose()
            .map_err(|e| format!("$.layout: {e}"))?;
        let chess960 = matches!(layout, Some(houserules_presets::Layout::Chess960(_)));
        let (variant, start) = match game {
            None => {
                houserules_presets::build(&rules, layout).map_err(field_of(layout.is_some()))?
            }
            Some(g) => {
                let base = load_game(g)?;
                if rules.is_empty() && layout.is_none() {
                    let start = base.definition().start_fen.clone();
                    (base, start)
                } else {
                    houserules_presets::build_on(
                        base.definition(),
                        base.has_hooks(),
                        &rules,
                        layout,
                    )
                    .map_err(field_of(layout.is_some()))?
                }
            }
        };
        Ok(PresetGame {
            variant,
            start,
            chess960,
        })
    }

    /// The game at `fen` (the layout's start position when `None`) under
    /// these rules: a given FEN replaces the layout's start position, and
    /// the layout's rules (its castling notation) still apply to it.
    pub(crate) fn game(self, fen: Option<&str>) -> Result<Game, houserules_engine::GameError> {
        let mut game = Game::from_fen(self.variant, fen.unwrap_or(&self.start))?;
        if self.chess960 {
            game.set_chess960(true);
        } else if let Some(fen) = fen {
            // As the command line reads a typed FEN (issue 25 § 5): rights
            // only Chess960 castling keeps (file letters, a king off its
            // home file) make it a Chess960 game instead of being dropped.
            if !houserules_engine::fen::standard_castling_letters(fen, &self.start) {
                game.detect_chess960();
            }
        }
        Ok(game)
    }

    /// [`PresetGame::game`] for a request with modifiers: a FEN whose side
    /// not to move is in check by the game's own attacks is read anyway,
    /// and `true` says so, because the rules in force may see no check
    /// there (`god_kings`' protected kings: a king a rook attacks on
    /// the board a game under them wrote, issue 25 item 4). The session
    /// judges it again once the modifiers are attached.
    pub(crate) fn game_under_rules(
        self,
        fen: Option<&str>,
    ) -> Result<(Game, bool), houserules_engine::GameError> {
        use houserules_engine::fen::{parse_setup, FenError};
        use houserules_engine::GameError;
        let text = fen.unwrap_or(&self.start).to_string();
        match self.clone().game(fen) {
            Err(GameError::Fen(FenError::OppositeCheck(_))) => {
                // The royal tests passed (they come first); the setup
                // reader skips only the check test after them.
                let def = self.variant.definition();
                let mut game = match (self.variant.tables_u64(), self.variant.tables_u128()) {
                    (Some(t), _) => {
                        let pos = parse_setup(def, t, &text)?;
                        Game::from_position(self.variant.clone(), pos)?
                    }
                    (None, Some(t)) => {
                        let pos = parse_setup(def, t, &text)?;
                        Game::from_position(self.variant.clone(), pos)?
                    }
                    (None, None) => return Err(GameError::PositionWidth),
                };
                if self.chess960 {
                    game.set_chess960(true);
                }
                Ok((game, true))
            }
            other => other.map(|g| (g, false)),
        }
    }
}

/// Reads a creation-request modifier entry: a library id with
/// `:K=V;…` overrides, or an inline descriptor. A key given twice is
/// refused (the last one would otherwise win silently).
#[allow(clippy::type_complexity)]
pub(crate) fn resolve_modifier(
    v: &Value,
) -> Result<(Descriptor, BTreeMap<String, String>), (Option<&'static str>, String)> {
    match v {
        Value::String(s) => {
            let (id, rest) = s.split_once(':').unwrap_or((s.as_str(), ""));
            let d = houserules_modifiers::library::get(id).map_err(|e| (None, e.to_string()))?;
            // As `--rules 'ID:'` is refused: a `:` promises parameters.
            if s.contains(':') && rest.is_empty() {
                return Err((
                    None,
                    format!(
                        "`{}` has an empty parameter list: write `{id}`, or `{id}:KEY=VALUE;…`",
                        echo_input(s)
                    ),
                ));
            }
            let mut over = BTreeMap::new();
            for kv in rest.split(';').filter(|x| !x.is_empty()) {
                let (k, val) = kv
                    .split_once('=')
                    .ok_or_else(|| (None, format!("`{}` is not KEY=VALUE", echo_input(kv))))?;
                if over.insert(k.to_string(), val.to_string()).is_some() {
                    return Err((
                        Some(codes::DUPLICATE_PARAMETER),
                        format!(
                            "parameter `{}` is given twice in `{}`",
                            echo_input(k),
                            echo_input(s)
                        ),
                    ));
                }
            }
            Ok((d, over))
        }
        Value::Object(o) if houserules_modifiers::runtime::entry::has_options(o) => {
            houserules_modifiers::runtime::entry::with_options(o).map_err(|e| (None, e))
        }
        Value::Object(_) => houserules_modifiers::validate::validate_value(v)
            .map(|d| (d, BTreeMap::new()))
            .map_err(|f| {
                (
                    None,
                    f.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; "),
                )
            }),
        _ => Err((
            None,
            "a modifier is a library id or an inline descriptor".into(),
        )),
    }
}

pub(crate) fn parse_param_value(
    ty: houserules_modifiers::descriptor::ParamType,
    v: &str,
) -> Option<Value> {
    use houserules_modifiers::descriptor::ParamType as T;
    match ty {
        T::Integer => v.parse::<i64>().ok().map(Value::from),
        T::Number => v
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number),
        T::Boolean => v.parse::<bool>().ok().map(Value::from),
        T::String => Some(json!(v)),
        // Names some board has (files `a`–`p`, ranks `1`–`16`): the game's
        // own board is checked when the modifier is attached (`board_fit`).
        T::Square => Geom::name_on_some_board(v).then(|| json!(v)),
        T::File => (v.len() == 1 && ("a"..="p").contains(&v)).then(|| json!(v)),
        // A piece name of some game: the game's own types are checked when
        // the modifier is attached (`board_fit`).
        T::PieceType => houserules_modifiers::validate::is_piece_type_name(v).then(|| json!(v)),
        T::Color => parse_color(v).map(|_| json!(v)),
        T::MarkerKind => MarkerKind::parse(v).map(|_| json!(v)),
    }
}

/// Whether a request's rules include the `piece-hp` preset (given as
/// presets, or inside its `state`): its hit points are then the pieces'
/// `Hp` fact for the modifiers (presets-and-triggers § `piece-hp`).
pub(crate) fn uses_piece_hp(request: &CreateRequest) -> bool {
    let has = |spec: &str| {
        spec.split(',')
            .any(|p| p.split(':').next().map(str::trim) == Some("piece-hp"))
    };
    match &request.state {
        Some(doc) => has(&doc.rules),
        None => request.presets.iter().any(|p| has(p)),
    }
}
