//! A session's inputs as PGN movetext that other readers replay, and the
//! `[%hr …]` comment commands that let `houserules pgn check` replay it
//! exactly (issue 26 item 8; docs/protocol.md § The PGN).
//!
//! PGN records board moves only. Under modifiers a turn can pass without
//! changing the board (a cancelled capture, a skipped turn) and players
//! answer choices between moves. So:
//! - a turn whose move left the board as it was is written as the null
//!   move `--` (python-chess and most readers accept it) followed by
//!   `[%hr move SAN]`, the move that was tried, and why the board did not
//!   change (the rule events, e.g. `capture-cancelled`);
//! - a turn the rules skipped (or gave to the side that just moved) is
//!   `--` with `[%hr skip]`, so that a reader's side to move stays the
//!   game's;
//! - an answer to a choice is `[%hr choice VALUE]`, with ` player=white`
//!   or ` player=black` when both players answer (rock–paper–scissors) and
//!   ` auto=timeout` when the server answered for a player whose time ran
//!   out (rulings B7), in a comment after the move that raised it (before
//!   the first move for a choice raised at the start);
//! - a random outcome is `[%hr random KIND VALUE]` (`coin`, `pick`,
//!   `chance`), for the reader to compare: the `Seed` tag replays the
//!   draws, the comments say what they were.

use houserules_engine::{Color, Game};
use houserules_modifiers::runtime::{LogEntry, Refusal};
use serde_json::Value;

use crate::{CreateRequest, Input, Session};

/// One ply of the written movetext: SAN (or `--`) and its comments.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordedPly {
    /// The move in SAN, or `--` for a turn that left the board unchanged.
    pub san: String,
    /// Comments after the move, in order (each one `{…}` in PGN).
    pub comments: Vec<String>,
}

/// A game's movetext with its `[%hr …]` commands.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Movetext {
    /// Comments before the first move (choices raised at the start).
    pub before: Vec<String>,
    /// The plies, in order.
    pub plies: Vec<RecordedPly>,
}

impl Movetext {
    /// The SAN of each ply (`--` for a null move).
    pub fn sans(&self) -> Vec<String> {
        self.plies.iter().map(|p| p.san.clone()).collect()
    }
}

/// The move's SAN as PGN writes it, `s` being the session just after it:
/// `#` says checkmate (PGN standard §8.2.3.5), so a move that won by
/// another rule (First Blood's capture, a king reaching the hill under a
/// preset, a royal lost to a modifier) keeps it only where the reader
/// knows that rule: a lichess variant's game with no preset and no
/// modifier on top (python-chess writes `#` after a variant win there,
/// e.g. three-check's third check, an atomic king blown up). Elsewhere a
/// reader takes the movetext as the named game's, where the move is no
/// mate: the SAN gets `+` if it gives check under the rules in force,
/// else nothing, and the `Result` and `Termination` tags say who won
/// (session-17 finding: `exd5#` after a First Blood capture).
fn pgn_suffix(s: &Session, san: String) -> String {
    let Some(bare) = san.strip_suffix('#') else {
        return san;
    };
    // The status names its end in `status` (`checkmate`, or a rule's reason).
    if s.status()["status"] == "checkmate" {
        return san;
    }
    let id = &s.game().variant().definition().id;
    let pure = !id.contains('+') && s.state().descriptors.is_empty();
    // lichess's variants (three-check, King of the Hill, Racing Kings,
    // atomic, horde, …): python-chess's boards of them write `#` after a
    // variant win, and their PGN names the variant.
    let lichess = houserules_presets::lichess::LICHESS_GAMES
        .iter()
        .any(|g| g.id == id);
    if pure && lichess {
        return san;
    }
    if s.is_check() {
        format!("{bare}+")
    } else {
        bare.to_string()
    }
}

/// The position a game's PGN starts from: the game as `request` sets it
/// up, before its modifiers are attached. Their activation (rulings G3:
/// on-rule-activated effects, a coin that skips the first turn) happens
/// again when a reader such as `houserules pgn check` creates the game
/// from the same tags, so it must not be in the `FEN` tag too (trial 22:
/// All on Red's first coin skipped White at creation, the PGN's `FEN` had
/// Black to move, and `pgn check` flipped the coin again on top of it).
/// What activation did is in the movetext: a skipped turn is `--` with
/// `[%hr skip]` ([`Recorder::starting`]).
///
/// `None` when the request cannot be set up without its modifiers (a
/// `fen` that only the rules in force accept): use the session's own
/// start then.
pub fn start_before_rules(request: &CreateRequest) -> Option<Game> {
    if request.modifiers.is_empty() && !request.draft {
        return None;
    }
    let mut bare = request.clone();
    bare.modifiers.clear();
    bare.draft = false;
    Session::create(bare).ok().map(|s| s.game().clone())
}

/// A command of a `[%hr …]` comment (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `[%hr move SAN]`: the move of a `--` ply whose board did not change.
    Move(String),
    /// `[%hr skip]`: the rules skipped this turn.
    Skip,
    /// `[%hr choice VALUE player=… auto=…]`: an answer.
    Choice(Input),
    /// `[%hr random KIND VALUE]`: a random outcome, for comparison.
    Random(String),
}

/// Writes the movetext of a game while its inputs are submitted: call
/// [`Recorder::submit`] for each input in place of [`Session::submit`],
/// then [`Recorder::finish`].
#[derive(Debug, Default)]
pub struct Recorder {
    out: Movetext,
    /// The move of the turn in progress: its SAN, the board before it and
    /// where the turn's log entries start.
    turn: Option<Turn>,
    /// The side a PGN reader expects to move next (it alternates sides
    /// with every ply written); `None` before the first move.
    reader_side: Option<Color>,
}

#[derive(Debug)]
struct Turn {
    san: String,
    board: String,
    log_from: usize,
    choices: Vec<String>,
    /// The side that played the move.
    side: Color,
    /// The move raised a choice before its turn could end (a Parry
    /// throw): its suffix is judged once the choice is decided.
    contested: bool,
}

impl Turn {
    /// Whether the move is still undecided in `s`: a choice it raised is
    /// pending and the turn has not passed.
    fn undecided(&self, s: &Session) -> bool {
        s.status()["status"] == "awaiting-choice" && s.game().turn() == self.side
    }

    /// The move's check sign from `s`, the position once its choices were
    /// decided (trial 18: a Parry-contested capture was judged while the
    /// throw was pending, with the mover still to move, so `Qxf7+` was
    /// written `Qxf7` and the reply `Kxf7` got the `+`; python-chess:
    /// `Qxf7+`, `Kxf7`). A capture that was cancelled keeps its SAN as
    /// tried (it is written `--` with `[%hr move SAN]`).
    fn settle(&mut self, s: &Session) {
        if !self.contested || Now::of(s).board == self.board {
            return;
        }
        self.contested = false;
        let bare = self.san.trim_end_matches(['+', '#']).to_string();
        let status = s.status();
        let won = status["status"] != "ongoing"
            && status["status"] != "awaiting-choice"
            && status["winner"].is_string();
        let san = if won {
            bare + "#"
        } else if s.is_check() {
            bare + "+"
        } else {
            bare
        };
        self.san = pgn_suffix(s, san);
    }
}

/// What the end of a turn is judged on: the board (the placement part
/// of the FEN, with pockets: what a PGN reader tracks), the side to move
/// and the length of the log.
struct Now {
    board: String,
    side: Color,
    log_len: usize,
}

impl Now {
    fn of(s: &Session) -> Now {
        let fen = s.game().fen();
        Now {
            board: fen.split(' ').next().unwrap_or_default().to_string(),
            side: s.game().turn(),
            log_len: s.state().log.len(),
        }
    }
}

impl Recorder {
    /// A recorder for a game that has had no input yet, whose PGN's start
    /// position is not known: the first move's side is taken as the
    /// reader's. Prefer [`Recorder::starting`].
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// A recorder for a game whose PGN starts from a position with `side`
    /// to move (White for a game's own start position; the `FEN` tag's
    /// side otherwise; see [`start_before_rules`]). A turn the rules
    /// skipped before the first move (All on Red's coin at the start) is
    /// then written `--` with `[%hr skip]` before it (trial 22: the PGN
    /// gave Black's first move to White, and python-chess stopped).
    pub fn starting(side: Color) -> Recorder {
        Recorder {
            reader_side: Some(side),
            ..Recorder::default()
        }
    }

    /// Submits `input` to `s` and records it when accepted.
    ///
    /// # Errors
    /// The session's [`Refusal`]; nothing is recorded then.
    pub fn submit(&mut self, s: &mut Session, input: Input) -> Result<(), Refusal> {
        match &input {
            Input::Move { mv } => {
                let (m, _) = s.resolve_move(mv)?;
                let san = s.san(m);
                // The turn before this move is decided: its check sign is
                // that of this position.
                if let Some(t) = self.turn.as_mut() {
                    t.settle(s);
                }
                let before = Now::of(s);
                s.submit(input)?;
                let san = pgn_suffix(s, san);
                let contested =
                    s.status()["status"] == "awaiting-choice" && s.game().turn() == before.side;
                // The turn before this move is complete: judge it on the
                // position this move was played from.
                // No move yet (a turn is in progress from the first on).
                let first = self.turn.is_none();
                self.close_turn(s, &before);
                match self.reader_side {
                    None => self.reader_side = Some(before.side),
                    // Turns skipped before the first move.
                    Some(_) if first => {
                        let log = &s.state().log;
                        self.push_skips(&log[..before.log_len.min(log.len())], before.side);
                    }
                    Some(_) => {}
                }
                self.turn = Some(Turn {
                    san,
                    board: before.board,
                    log_from: before.log_len,
                    choices: Vec::new(),
                    side: before.side,
                    contested,
                });
            }
            Input::Choice { .. } => {
                let text = write_choice(&input);
                s.submit(input)?;
                match &mut self.turn {
                    Some(t) => t.choices.push(text),
                    None => self.out.before.push(text),
                }
            }
        }
        Ok(())
    }

    /// The movetext of everything recorded. A move whose choice is still
    /// pending is left out: the movetext of an unfinished game ends before
    /// its undecided move (trial 18: it was written as decided, a `--`
    /// and a skipped turn, which `pgn check` then refused); its answers so
    /// far go with it.
    pub fn finish(mut self, s: &Session) -> Movetext {
        match self.turn.as_mut() {
            Some(t) if t.undecided(s) => self.turn = None,
            Some(t) => t.settle(s),
            None => {}
        }
        let now = Now::of(s);
        self.close_turn(s, &now);
        self.out
    }

    /// Writes the turn in progress, now that its inputs are all in (`now`
    /// is the position after them), then a `--` for each side the rules
    /// skipped, so that a reader's side to move stays the game's.
    fn close_turn(&mut self, s: &Session, now: &Now) {
        let Some(t) = self.turn.take() else {
            return;
        };
        // The log entries of the move and of the choices after it.
        let log = &s.state().log;
        let log = &log[t.log_from.min(now.log_len)..now.log_len.min(log.len())];
        let unchanged = now.board == t.board;
        let mut cmds: Vec<String> = Vec::new();
        if unchanged {
            cmds.push(format!("[%hr move {}]", t.san));
        }
        cmds.extend(t.choices);
        cmds.extend(log.iter().filter_map(write_random));
        let mut comments = Vec::new();
        if !cmds.is_empty() {
            let mut c = cmds.join(" ");
            if unchanged {
                let why: Vec<&str> = log
                    .iter()
                    .map(|e| e.event.as_str())
                    .filter(|e| !matches!(*e, "move" | "choice" | "skip"))
                    .collect();
                c.push_str(" the board did not change");
                if !why.is_empty() {
                    c.push_str(": ");
                    c.push_str(&why.join(", "));
                }
            }
            comments.push(c);
        }
        self.push(if unchanged { "--".into() } else { t.san }, comments);
        if !s.is_over() {
            self.push_skips(log, now.side);
        }
    }

    /// Writes a `--` with `[%hr skip]` for each turn the rules skipped, so
    /// that the reader's side to move becomes `to_move`. `log` holds the
    /// entries since the last ply written: as many `--` as it has `skip`
    /// entries when that count brings the reader to `to_move` (two skips in
    /// a row keep the move numbers; trial 22), else the one `--` or none
    /// that does (a turn given back to the side that moved has no `skip`
    /// entry; a cancelled capture's passed turn has one but is its own
    /// `--`).
    fn push_skips(&mut self, log: &[LogEntry], to_move: Color) {
        let Some(reader) = self.reader_side else {
            return;
        };
        let skips = log.iter().filter(|e| e.event == "skip").count();
        let lands = |n: usize| {
            if n.is_multiple_of(2) {
                reader
            } else {
                reader.flip()
            }
        };
        let n = if skips > 0 && lands(skips) == to_move {
            skips
        } else {
            usize::from(reader != to_move)
        };
        for _ in 0..n {
            let skipped = self.reader_side.map_or("", Color::name);
            self.push(
                "--".into(),
                vec![format!("[%hr skip] the rules skipped {skipped}'s turn")],
            );
        }
    }

    /// Writes one ply; the reader's side to move passes to the other side.
    fn push(&mut self, san: String, comments: Vec<String>) {
        self.out.plies.push(RecordedPly { san, comments });
        self.reader_side = self.reader_side.map(Color::flip);
    }
}

/// `[%hr choice VALUE …]` of a choice input.
fn write_choice(input: &Input) -> String {
    let Input::Choice {
        choice,
        player,
        auto,
    } = input
    else {
        return String::new();
    };
    let mut c = format!("[%hr choice {}", plain(choice));
    if let Some(p) = player {
        c.push_str(&format!(" player={p}"));
    }
    if let Some(a) = auto {
        c.push_str(&format!(" auto={a}"));
    }
    c.push(']');
    c
}

/// A JSON value in a command: a string as it is, a list comma-joined, a
/// number or boolean as JSON writes it.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(plain).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

/// The random outcome a log entry records, as its command says it
/// (`coin heads`, `pick e4`, `chance hit`), or `None` for other entries.
fn random_outcome(e: &LogEntry) -> Option<String> {
    Some(match e.event.as_str() {
        "coin" => format!("coin {}", plain(&e.detail["value"])),
        "random-pick" => format!("pick {}", plain(&e.detail["value"])),
        "chance" => format!(
            "chance {}",
            if e.detail["hit"] == Value::Bool(true) {
                "hit"
            } else {
                "miss"
            }
        ),
        _ => return None,
    })
}

/// `[%hr random …]` of a log entry that records a random outcome.
fn write_random(e: &LogEntry) -> Option<String> {
    random_outcome(e).map(|v| format!("[%hr random {v}]"))
}

/// The `[%hr random …]` commands of `log` (what [`Recorder`] writes for
/// those entries), for a reader to compare with a file's.
pub fn random_commands(log: &[LogEntry]) -> Vec<Command> {
    log.iter()
        .filter_map(random_outcome)
        .map(Command::Random)
        .collect()
}

/// The `[%hr …]` commands of a PGN comment, in order; other text is
/// ignored.
///
/// # Errors
/// A message naming the first command that is not one of `move`, `skip`,
/// `choice` and `random`, or a `choice` with an unknown option.
pub fn read_commands(comment: &str) -> Result<Vec<Command>, String> {
    let mut out = Vec::new();
    let mut rest = comment;
    while let Some(i) = rest.find("[%hr") {
        let body = &rest[i + 4..];
        let Some(end) = body.find(']') else {
            return Err(format!(
                "`{}` is not closed (missing `]`)",
                houserules_engine::echo::echo(&rest[i..])
            ));
        };
        let words: Vec<&str> = body[..end].split_whitespace().collect();
        let shown = || houserules_engine::echo::echo(&rest[i..i + 4 + end + 1]);
        let cmd = match words.as_slice() {
            ["move", san] => Command::Move((*san).to_string()),
            ["skip"] => Command::Skip,
            ["random", kind, value] => Command::Random(format!("{kind} {value}")),
            ["choice", value, opts @ ..] => {
                let (mut player, mut auto) = (None, None);
                for o in opts {
                    match o.split_once('=') {
                        Some(("player", p @ ("white" | "black"))) => player = Some(p.to_string()),
                        Some(("auto", a @ "timeout")) => auto = Some(a.to_string()),
                        _ => {
                            return Err(format!(
                                "`{}`: `{}` is not `player=white`, `player=black` or \
                                 `auto=timeout`",
                                shown(),
                                houserules_engine::echo::echo(o)
                            ))
                        }
                    }
                }
                Command::Choice(Input::Choice {
                    choice: Value::String((*value).to_string()),
                    player,
                    auto,
                })
            }
            _ => {
                return Err(format!(
                    "`{}` is not a houserules command (`[%hr move SAN]`, `[%hr skip]`, \
                     `[%hr choice VALUE]`, `[%hr random KIND VALUE]`)",
                    shown()
                ))
            }
        };
        out.push(cmd);
        rest = &body[end + 1..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_back_as_written() {
        let choice = Input::Choice {
            choice: Value::String("rock".into()),
            player: Some("black".into()),
            auto: Some("timeout".into()),
        };
        let text = format!(
            "{} [%hr move exd5] text between [%hr skip] [%hr random coin heads]",
            write_choice(&choice)
        );
        assert_eq!(
            read_commands(&text).unwrap(),
            vec![
                Command::Choice(choice),
                Command::Move("exd5".into()),
                Command::Skip,
                Command::Random("coin heads".into()),
            ]
        );
    }

    proptest::proptest! {
        /// Any comment text reads without a panic, and a choice written
        /// reads back as the same input.
        #[test]
        fn any_comment_reads_and_choices_round_trip(
            text in ".{0,80}",
            value in "[a-h1-8]{1,3}|rock|paper|heads",
            player in proptest::option::of("white|black"),
        ) {
            let _ = read_commands(&text);
            let _ = read_commands(&format!("[%hr {text}"));
            let input = Input::Choice {
                choice: Value::String(value),
                player,
                auto: None,
            };
            let cmds = read_commands(&write_choice(&input)).unwrap();
            proptest::prop_assert_eq!(cmds, vec![Command::Choice(input)]);
        }
    }

    #[test]
    fn bad_commands_are_named() {
        let e = read_commands("[%hr castle now]").unwrap_err();
        assert!(
            e.contains("`[%hr castle now]` is not a houserules command"),
            "{e}"
        );
        let e = read_commands("[%hr choice rock player=red]").unwrap_err();
        assert!(e.contains("`player=red`"), "{e}");
        let e = read_commands("[%hr move e4").unwrap_err();
        assert!(e.contains("not closed"), "{e}");
        // Other comment text, and other programs' commands, are not ours.
        assert_eq!(read_commands("good move [%clk 0:01:00]").unwrap(), vec![]);
    }
}
