//! The options that choose a game and a position, shared by every
//! subcommand that works on one: `--game`, `--rules` and `--layout` choose
//! the game ([`VariantArgs`], also used by `pgn check`), `--fen` the
//! position ([`PositionArgs`]).

use std::path::Path;

use clap::Args;
use houserules_engine::fen::standard_castling_letters;
use houserules_engine::{Game, Variant};
use houserules_presets::RuleSet;

use crate::error::CliError;

/// Which game to play: a shipped or YAML definition, or FIDE chess with
/// preset rules and a starting layout.
#[derive(Clone, Debug, Default, Args)]
pub struct VariantArgs {
    /// The game: a shipped definition by id (`houserules games` lists
    /// them) or a YAML game file [default: chess]
    #[arg(long, value_name = "ID|FILE.yaml")]
    pub game: Option<String>,

    /// Preset house rules: `ID[:KEY=VALUE[;KEY=VALUE...]][,ID...]`, e.g.
    /// `berolina-pawns:scope=both,piece-hp`, on FIDE chess or on the
    /// --game (`houserules rules --game ID` lists those that apply)
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,

    /// The starting layout of FIDE chess: `standard`, `chess960:N` (0–959),
    /// `chess960:random:SEED`, `dual-classic`, `knightmate`, `monster`,
    /// `pawns-only` [default: the rules' preferred layout, else standard;
    /// another --game starts from its own setup]
    #[arg(long, value_name = "LAYOUT")]
    pub layout: Option<String>,

    /// Custom rule modifiers: `ID[:KEY=VALUE[;KEY=VALUE...]]` (library
    /// ids, `houserules modifiers` lists them) or
    /// `FILE.json[:KEY=VALUE[;KEY=VALUE...]]` descriptors, separated by
    /// commas; counted and listed through the modifier session's dry-mode
    /// legality
    #[arg(long, value_name = "MODIFIERS")]
    pub modifiers: Option<String>,
}

/// A chosen game: its compiled variant (with its castling mode: Chess960
/// for `--game chess960` and `chess960:…` layouts), its start FEN and a
/// name for messages.
#[derive(Clone, Debug)]
pub struct Chosen {
    /// The compiled game.
    pub variant: Variant,
    /// Its start position (the layout's, for presets).
    pub start_fen: String,
    /// What was chosen, for messages (`chess`, `game capablanca`,
    /// `rules suicide-chess`, ...).
    pub label: String,
}

impl VariantArgs {
    /// Whether any of `--game`, `--rules`, `--layout` was given.
    pub fn is_given(&self) -> bool {
        self.game.is_some() || self.rules.is_some() || self.layout.is_some()
    }

    /// The chosen game (FIDE chess when nothing is given).
    ///
    /// # Errors
    /// [`CliError::Input`]: an unknown game id, a YAML file with problems
    /// (its rendered diagnostics), a preset the game cannot take (naming
    /// the preset and what the game lacks), `--layout` with a game other
    /// than FIDE chess, or a preset error (its message verbatim).
    pub fn choose(&self) -> Result<Chosen, CliError> {
        let presets = self.rules.is_some() || self.layout.is_some();
        if let Some(game) = &self.game {
            // Chess960 is FIDE chess with Chess960 castling: its layouts
            // and presets are those of chess (`--game chess960 --layout
            // chess960:N`).
            if presets && game != "chess" && game != "chess960" {
                return self.presets_on_game(game);
            }
            if !presets {
                let variant = load_game(game)?;
                let start_fen = variant.definition().start_fen.clone();
                let label = format!("game {}", variant.definition().id);
                return Ok(Chosen {
                    variant,
                    start_fen,
                    label,
                });
            }
        }
        if presets {
            let rules = self.rules.as_deref().unwrap_or("");
            let (mut variant, start_fen) =
                houserules_presets::build_from_str(rules, self.layout.as_deref())
                    .map_err(|e| CliError::input(e.to_string()))?;
            if self.game.as_deref() == Some("chess960") {
                variant = variant.with_chess960(true);
            }
            let mut label = Vec::new();
            if let Some(r) = &self.rules {
                label.push(format!("rules {r}"));
            }
            if let Some(l) = &self.layout {
                label.push(format!("layout {l}"));
            }
            return Ok(Chosen {
                variant,
                start_fen,
                label: label.join(", "),
            });
        }
        let variant = Variant::chess();
        let start_fen = variant.definition().start_fen.clone();
        Ok(Chosen {
            variant,
            start_fen,
            label: "chess".into(),
        })
    }

    /// `--rules` (and `--layout`) on the game `game`.
    fn presets_on_game(&self, game: &str) -> Result<Chosen, CliError> {
        let base = load_game(game)?;
        let rules = self.rules.as_deref().unwrap_or("");
        let shown = |e: houserules_presets::PresetError| CliError::input(e.to_string());
        let rs = RuleSet::parse(rules).map_err(shown)?;
        let layout = self
            .layout
            .as_deref()
            .map(houserules_presets::Layout::parse)
            .transpose()
            .map_err(shown)?;
        let (variant, start_fen) =
            houserules_presets::build_on(base.definition(), base.has_hooks(), &rs, layout)
                .map_err(shown)?;
        let mut label = vec![format!("game {}", base.definition().id)];
        if let Some(r) = &self.rules {
            label.push(format!("rules {r}"));
        }
        if let Some(l) = &self.layout {
            label.push(format!("layout {l}"));
        }
        Ok(Chosen {
            variant,
            start_fen,
            label: label.join(", "),
        })
    }
}

/// Whether `arg` names a file rather than a shipped game id.
pub(crate) fn is_file_argument(arg: &str) -> bool {
    let lower = arg.to_ascii_lowercase();
    lower.ends_with(".yaml")
        || lower.ends_with(".yml")
        || arg.contains('/')
        || arg.contains('\\')
        || Path::new(arg).is_file()
}

/// A shipped definition by id, or a YAML game file.
///
/// # Errors
/// [`CliError::Input`] naming the unknown id (with a suggestion) or
/// carrying the file's rendered diagnostics.
pub fn load_game(arg: &str) -> Result<Variant, CliError> {
    let refused = |e: houserules_engine::DefinitionError| {
        CliError::input(format!("--game {arg}: the engine refused the game: {e}"))
    };
    if let Some(def) = houserules_definitions::builtin(arg) {
        return Variant::new(def).map_err(refused);
    }
    // lichess's variants by their other names (`zh`, `giveaway`, …) and
    // those built from presets (`antichess`).
    if let Some(g) = houserules_presets::lichess::find(arg) {
        return g
            .build()
            .map(|(v, _)| v)
            .map_err(|e| CliError::input(format!("--game {arg}: {e}")));
    }
    if houserules_definitions::builtin_source(arg).is_some() {
        return Err(CliError::input(format!(
            "--game {arg}: this shipped game needs engine features that are not built yet"
        )));
    }
    if is_file_argument(arg) {
        let path = Path::new(arg);
        if path.is_dir() {
            return Err(CliError::input(format!(
                "--game {arg}: this is a directory; give a game file (FILE.yaml) or a shipped game's id"
            )));
        }
        if !path.exists() {
            return Err(CliError::input(format!(
                "--game {arg}: no such file (and no shipped game has this id)"
            )));
        }
        // A file may carry mutations that run as rule hooks, so it is
        // loaded as a playable variant rather than a bare definition.
        return houserules_definitions::load_variant_file(path).map_err(|d| {
            let n = d.len();
            let problems = if n == 1 { "problem" } else { "problems" };
            CliError::input(format!(
                "--game {arg}: the game file has {n} {problems} (`houserules validate {arg}` shows them):\n{}",
                d.render().trim_end()
            ))
        });
    }
    let ids = houserules_definitions::builtin_ids();
    let hint = match houserules_definitions::diag::suggest(arg, ids.iter().copied()) {
        Some(s) => format!(" (did you mean `{s}`?)"),
        None => String::new(),
    };
    Err(CliError::input(format!(
        "--game {arg}: unknown game{hint}; shipped games: {} (or give a FILE.yaml)",
        ids.join(", ")
    )))
}

/// Which position to work on.
#[derive(Clone, Debug, Default, Args)]
pub struct PositionArgs {
    /// The position in FEN, in the game's piece letters (X-FEN or
    /// Shredder-FEN castling letters), or `startpos` for the game's start
    /// position (with --layout, the layout's) [default: startpos]
    #[arg(long, value_name = "FEN", conflicts_with = "state")]
    pub fen: Option<String>,

    /// The position and its rules from a JSON state file
    /// (`houserules-state/1`, docs/state-format.md): board, clocks, piece
    /// ids, hit points, multi-move phase, locked result, and the rule set
    /// itself (so it replaces --rules, --layout and --game)
    #[arg(
        long,
        value_name = "FILE.json",
        conflicts_with_all = ["game", "rules", "layout", "modifiers"]
    )]
    pub state: Option<std::path::PathBuf>,

    /// The game (`--game`, `--rules`, `--layout`).
    #[command(flatten)]
    pub variant: VariantArgs,

    /// Moves to play from the position first, in UCI or SAN, separated by
    /// commas or spaces (`e2e4,e7e5` or `'e4 e5 Nf3'`; move numbers such
    /// as `1.` are skipped), as UCI's `position … moves …`
    #[arg(long, value_name = "MOVES")]
    pub play: Option<String>,
}

impl PositionArgs {
    /// The game being played.
    ///
    /// # Errors
    /// As [`VariantArgs::choose`].
    pub fn chosen(&self) -> Result<Chosen, CliError> {
        if let Some(path) = &self.state {
            let (_, game) = load_state(path)?;
            return Ok(Chosen {
                variant: game.variant().clone(),
                start_fen: game.fen(),
                label: format!("state {}", path.display()),
            });
        }
        self.variant.choose()
    }

    /// The game at the chosen position, after the `--play` moves.
    ///
    /// # Errors
    /// As [`PositionArgs::start_game`], and a move that cannot be played
    /// ([`crate::movelist::play`]).
    pub fn game(&self) -> Result<Game, CliError> {
        let mut game = self.start_game()?;
        if let Some(list) = &self.play {
            crate::movelist::play(&mut game, list)?;
        }
        Ok(game)
    }

    /// The game at the chosen position, before the `--play` moves.
    ///
    /// # Errors
    /// [`CliError::Input`] naming the game option or FEN and what is wrong
    /// with it.
    pub fn start_game(&self) -> Result<Game, CliError> {
        if let Some(path) = &self.state {
            return load_state(path).map(|(_, game)| game);
        }
        let chosen = self.chosen()?;
        let fen = self.fen.as_deref().unwrap_or("startpos");
        let start = fen.trim() == "startpos";
        let text = if start {
            chosen.start_fen.as_str()
        } else {
            fen
        };
        // A typed position is also checked for pieces where play cannot
        // put them (a pawn on a back rank) and for more kings than the
        // rules allow, which the library reads. A game's own start
        // position is the designer's (Horde-like pawns on the first rank
        // are a design): it passes `validate` and is played as written.
        let game = Game::from_fen(chosen.variant, text).and_then(|mut g| {
            if !start {
                // Castling rights only Chess960 castling can keep make the
                // typed position a Chess960 one (issue 25: they were
                // cleared without a word) — unless they are written
                // `KQkq` with each king on its home file, which in standard
                // chess name the corner rooks, a right without its rook
                // being dropped as python-chess does (issue 11 item 3).
                if !standard_castling_letters(text, &chosen.start_fen) {
                    g.detect_chess960();
                }
                g.check_royal_count()
                    .and_then(|()| g.check_piece_ranks())
                    .map_err(houserules_engine::GameError::Fen)?;
            }
            Ok(g)
        });
        game.map_err(|e| {
            let fen = houserules_engine::echo::echo(fen);
            if start {
                CliError::input(format!(
                    "the start position of {} is not valid: {e}",
                    chosen.label
                ))
            } else if self.variant.is_given() {
                CliError::input(format!("invalid --fen `{fen}` for {}: {e}", chosen.label))
            } else {
                CliError::input(format!("invalid --fen `{fen}`: {e}"))
            }
        })
    }
}

/// Reads a JSON state file (at most 16 MiB) into its rule set and game.
///
/// # Errors
/// [`CliError::Input`] naming the file and, for bad content, the JSON path
/// of the offending value.
pub fn load_state(path: &Path) -> Result<(RuleSet, Game), CliError> {
    let shown = path.display();
    let text = crate::error::read_text_limited(path, 16 << 20)
        .map_err(|e| CliError::input(format!("--state {shown}: cannot read the file: {e}")))?;
    let (rules, game) = houserules_presets::state::from_json(&text)
        .map_err(|e| CliError::input(format!("--state {shown}: {e}")))?;
    game.check_royal_count()
        .and_then(|()| game.check_piece_ranks())
        .map_err(|e| CliError::input(format!("--state {shown}: {e}")))?;
    Ok((rules, game))
}

/// How a printed FEN writes its castling rights (`--fen-style`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FenStyle {
    /// X-FEN: `KQkq` for the outermost rooks, a file letter for a rook
    /// with another rook between it and the corner (Chess960).
    #[default]
    Xfen,
    /// Shredder-FEN: file letters always (`HAha`).
    Shredder,
}

impl FenStyle {
    /// The FEN of `game` in this style.
    pub fn fen(self, game: &Game) -> String {
        match self {
            FenStyle::Xfen => game.fen(),
            FenStyle::Shredder => game.shredder_fen(),
        }
    }
}

/// The `--fen-style` option of the commands that print a FEN.
#[derive(Clone, Copy, Debug, Default, Args)]
pub struct FenStyleArg {
    /// How printed FENs write castling rights: `xfen` (`KQkq`, a file
    /// letter only for an inner rook) or `shredder` (file letters always,
    /// `HAha`); both read back the same
    #[arg(long, value_enum, value_name = "STYLE", default_value_t)]
    pub fen_style: FenStyle,
}
