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
//! one). A tag wins over the
//! command line, with a warning. A move after which a player must choose
//! (a square, a piece, a coin) cannot be replayed: PGN records moves, not
//! answers, so the next move is an error naming the pending choice.

use houserules_pgn::{Tag, TextPos};
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
        let list = tagged.or(cli)?;
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
        let session = Self::session(tags, args, list);
        Some(SessionReplay {
            session,
            plies: 0,
            error: None,
            warnings,
        })
    }

    fn session(tags: &[Tag], args: &VariantArgs, list: &str) -> Result<Session, String> {
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
                         Modifiers tag",
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
        let s = Session::create(request).map_err(|e| format!("--modifiers {list}: {e}"))?;
        // `play` starts a game from the request alone; the modifiers'
        // activation may leave a choice pending before the first move,
        // which PGN cannot answer either.
        if let Some(c) = s.pending_choice() {
            return Err(format!(
                "a {} choice of `{}` is pending before the first move; PGN does not record answers",
                c.kind, c.descriptor_id
            ));
        }
        Ok(s)
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
        if let Some(c) = s.pending_choice() {
            self.error = fail(format!(
                "ply {ply} `{san}`: a {} choice of `{}` is pending after the previous move; \
                 PGN records moves, not answers, so the game cannot be replayed from here",
                c.kind, c.descriptor_id
            ));
            return;
        }
        match s.submit(Input::Move { mv: san.into() }) {
            Ok(()) => self.plies = ply,
            Err(r) => {
                self.error = fail(format!(
                    "ply {ply} `{san}` is refused under the modifiers ({}): {}",
                    r.code, r.message
                ));
            }
        }
    }
}
