//! `pgn check` under modifiers (issue 12): a game with a `Modifiers` tag,
//! or checked with `--modifiers`, replays through the modifier session
//! (its legality, triggers, markers and seeded draws), not the engine's
//! replay.
//!
//! The session is built as `play` builds it: the game from the `Variant`
//! tag (a shipped game) or `--game`, the presets from the `HouseRules`
//! tag or `--rules`, the start from the `FEN` tag or the rules' own, the
//! modifiers from the `Modifiers` tag or `--modifiers`, and the seed from
//! the `Seed` tag (else 0, the seed `play` uses unless its request names
//! one); a `Draft "1"` tag (the server's draft-mode games) replays in
//! draft mode, its picks from the comments. A tag wins over the
//! command line, with a warning. The answers to choices, the moves of
//! turns that left the board unchanged (written `--`) and skipped turns
//! come from the comments' `[%hr …]` commands
//! ([`houserules_session::pgn_record`], as the server and `play --pgn`
//! write them); a choice left unanswered when the next move comes is an
//! error naming it, and so is a random outcome the file records that the
//! replay did not draw (a wrong `Seed`).

use houserules_pgn::{Tag, TextPos};
use houserules_session::pgn_record::{random_commands, read_commands, Command};
use houserules_session::{Input, Session};

use crate::position::VariantArgs;

/// The tag holding the modifiers of a game, in `--modifiers` syntax
/// (`minefield,frozen-column:file=g`), as `play --pgn` writes it.
pub const MODIFIERS_TAG: &str = "Modifiers";

/// A game replayed through the modifier session.
pub struct SessionReplay {
    /// The session, or why it could not be built.
    pub session: Result<Session, String>,
    /// Moves played.
    pub plies: usize,
    /// The first bad move: its ply (1-based), its SAN, what was wrong and
    /// where it stands in the text.
    pub error: Option<(usize, String, String, Option<TextPos>)>,
    /// Where the tags and the command line disagree.
    pub warnings: Vec<String>,
    /// A `--` read whose `[%hr move …]` or `[%hr skip]` has not come yet:
    /// its ply and place.
    null: Option<(usize, Option<TextPos>)>,
    /// Where the current turn's log entries start, and how many of its
    /// random outcomes the file's `[%hr random …]` commands have matched.
    turn_log: (usize, usize),
}

/// The value of tag `name`, trimmed, when present and not empty.
fn tag<'a>(tags: &'a [Tag], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|t| t.name == name)
        .map(|t| t.value.trim())
        .filter(|v| !v.is_empty())
}

impl SessionReplay {
    /// The replay of a game with `tags`, or `None` when neither the tags
    /// nor the command line (`args.modifiers`) name modifiers (the engine
    /// replays such a game).
    pub fn for_game(tags: &[Tag], args: &VariantArgs) -> Option<SessionReplay> {
        let cli = args.modifiers.as_deref().filter(|m| !m.trim().is_empty());
        let tagged = tag(tags, MODIFIERS_TAG);
        // A draft game (the server's `Draft "1"` tag) replays through the
        // session too, its drafted rules from its seed and its picks.
        let draft = tag(tags, houserules_server::pgn_export::DRAFT_TAG)
            .is_some_and(|v| v == "1" || v.eq_ignore_ascii_case("true"));
        let list = match tagged.or(cli) {
            Some(l) => l,
            None if draft => "",
            None => return None,
        };
        let mut warnings = Vec::new();
        if let (Some(t), Some(c)) = (tagged, cli) {
            if t != c.trim() {
                warnings.push(format!(
                    "the Modifiers tag `{}` is used, not the command line's --modifiers {}",
                    houserules_engine::echo::echo(t),
                    houserules_engine::echo::echo(c)
                ));
            }
        }
        let session = Self::session(tags, args, list, draft);
        let log = session.as_ref().map_or(0, |s| s.state().log.len());
        Some(SessionReplay {
            session,
            plies: 0,
            error: None,
            warnings,
            null: None,
            turn_log: (log, 0),
        })
    }

    fn session(
        tags: &[Tag],
        args: &VariantArgs,
        list: &str,
        draft: bool,
    ) -> Result<Session, String> {
        // The game: a shipped game the Variant tag names, else --game
        // (also a YAML game's file whose id the Variant tag gives, as
        // `play --pgn` writes it).
        // A YAML game's file wins over a shipped game of the same id (a
        // copy of `gardner.yaml` with changed rules).
        let yaml_named = |v: &str| {
            args.game
                .as_deref()
                .and_then(|g| crate::position::load_game(g).ok())
                .is_some_and(|b| {
                    let id = &b.definition().id;
                    id == v || crate::pgn_cmd::shipped_game_of(v) == Some(id.as_str())
                })
        };
        let game = match tag(tags, "Variant") {
            Some(v) if yaml_named(v) => args.game.clone(),
            Some(v) => match crate::pgn_cmd::shipped_game_of(v) {
                Some(id) => (id != "chess").then(|| id.to_string()),
                None if yaml_named(v) => args.game.clone(),
                None => {
                    return Err(format!(
                        "the Variant tag `{}` names no game houserules can combine with the \
                         Modifiers or Draft tag",
                        houserules_engine::echo::echo(v)
                    ))
                }
            },
            None => args.game.clone(),
        };
        let mut rules = args.clone();
        rules.game = game;
        if let Some(h) = tag(tags, crate::pgn_cmd::HOUSE_RULES_TAG) {
            rules.rules = Some(h.to_string());
        }
        let fen = tag(tags, "FEN");
        let mut request = crate::ruleset::request(&rules, fen, list).map_err(|e| e.to_string())?;
        request.draft = draft;
        // The seed of the random outcomes, as `play --pgn` and the server
        // write it (absent: 0, the seed `play` uses by default).
        if let Some(seed) = tag(tags, houserules_pgn::export::SEED_TAG) {
            let n: u32 = seed.parse().map_err(|_| {
                format!(
                    "the Seed tag `{}` is not a whole number from 0 to 4294967295",
                    houserules_engine::echo::echo(seed)
                )
            })?;
            request.seed = Some(n.into());
        }
        // The modifiers' activation may leave a choice pending before the
        // first move: a `[%hr choice …]` comment before it answers it.
        Session::create(request).map_err(|e| format!("--modifiers {list}: {e}"))
    }

    /// Plays the next mainline move (`san`, at `pos` in the text). After
    /// an error, later moves are ignored.
    pub fn push(&mut self, san: &str, pos: Option<TextPos>) {
        if self.error.is_some() {
            return;
        }
        let Ok(s) = &mut self.session else {
            return;
        };
        let ply = self.plies + 1;
        let fail = |m: String| Some((ply, san.to_string(), m, pos));
        if let Some((n, at)) = self.null {
            self.error = Some((n, "--".into(), unexplained_null(n), at));
            return;
        }
        if let Some(c) = s.pending_choice() {
            self.error = fail(format!(
                "ply {ply} `{san}`: a {} choice of `{}` is pending after the previous move, \
                 and no `[%hr choice …]` comment answers it",
                c.kind, c.descriptor_id
            ));
            return;
        }
        if san == "--" {
            // Its move (or skip) comes in the comment after it.
            self.null = Some((ply, pos));
            return;
        }
        self.play(san, ply, pos);
    }

    /// Submits the move of ply `ply` (written `written` at `pos`).
    fn play(&mut self, written: &str, ply: usize, pos: Option<TextPos>) {
        let Ok(s) = &mut self.session else {
            return;
        };
        let log = s.state().log.len();
        match s.submit(Input::Move { mv: written.into() }) {
            Ok(()) => {
                self.plies = ply;
                self.turn_log = (log, 0);
            }
            Err(r) => {
                self.error = Some((
                    ply,
                    written.to_string(),
                    format!(
                        "ply {ply} `{written}` is refused under the modifiers ({}): {}",
                        r.code, r.message
                    ),
                    pos,
                ));
            }
        }
    }

    /// Reads the `[%hr …]` commands of a mainline comment (at `pos`) and
    /// plays them: a `--`'s move or skip, answers, random outcomes to
    /// compare. Other comment text is ignored.
    pub fn comment(&mut self, text: &str, pos: Option<TextPos>) {
        if self.error.is_some() || self.session.is_err() || !text.contains("[%hr") {
            return;
        }
        let ply = self.plies + 1;
        let commands = match read_commands(text) {
            Ok(c) => c,
            Err(e) => {
                self.error = Some((ply, String::new(), format!("comment: {e}"), pos));
                return;
            }
        };
        for c in commands {
            if self.error.is_some() {
                return;
            }
            self.command(c, pos);
        }
    }

    fn command(&mut self, c: Command, pos: Option<TextPos>) {
        let ply = self.plies + 1;
        let fail = |m: String| Some((ply, String::new(), m, pos));
        match (c, self.null) {
            (Command::Move(san), Some((n, at))) => {
                self.null = None;
                self.play(&san, n, at);
            }
            (Command::Skip, Some((n, _))) => {
                // The rules skipped this turn when the move before it was
                // played; a wrong skip shows at the next move, whose side
                // would not be to move.
                self.null = None;
                self.plies = n;
            }
            (Command::Move(_) | Command::Skip, None) => {
                self.error = fail(
                    "a `[%hr move …]` or `[%hr skip]` comment follows a `--` null move only".into(),
                );
            }
            (_, Some((n, at))) => {
                self.error = Some((n, "--".into(), unexplained_null(n), at));
            }
            (Command::Choice(input), None) => {
                let Ok(s) = &mut self.session else { return };
                let shown = match &input {
                    Input::Choice { choice, .. } => choice.as_str().unwrap_or_default().to_string(),
                    Input::Move { .. } => String::new(),
                };
                if let Err(r) = s.submit(input) {
                    self.error = fail(format!(
                        "the answer `{}` is refused ({}): {}",
                        houserules_engine::echo::echo(&shown),
                        r.code,
                        r.message
                    ));
                }
            }
            (Command::Random(r), None) => {
                let Ok(s) = &self.session else { return };
                let (from, seen) = self.turn_log;
                let drawn = random_commands(&s.state().log[from.min(s.state().log.len())..]);
                match drawn.get(seen) {
                    Some(Command::Random(d)) if *d == r => self.turn_log.1 += 1,
                    other => {
                        let got = match other {
                            Some(Command::Random(d)) => format!("`{d}`"),
                            _ => "nothing".into(),
                        };
                        self.error = fail(format!(
                            "the file records the random outcome `{}` but the replay drew {got} \
                             (is the Seed tag the game's?)",
                            houserules_engine::echo::echo(&r)
                        ));
                    }
                }
            }
        }
    }

    /// The error of a game whose text ended: a `--` left without its
    /// command.
    pub fn end(&mut self) {
        if let (None, Some((n, at))) = (&self.error, self.null) {
            self.error = Some((n, "--".into(), unexplained_null(n), at));
        }
    }
}

/// Why a `--` cannot be replayed under modifiers.
fn unexplained_null(ply: usize) -> String {
    format!(
        "ply {ply} `--`: a null move needs a `[%hr move SAN]` or `[%hr skip]` comment after it \
         (under modifiers a turn passes only by a move or a skip)"
    )
}
