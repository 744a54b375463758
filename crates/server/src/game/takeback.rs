//! Takeback (issue 26): a player asks to take back their own last move;
//! the opponent accepts or declines.
//!
//! The log stays append-only: an accepted takeback is a `takeback-accept`
//! event, and the inputs in force are the stored inputs with, at each such
//! event, the last move input before it dropped ([`effective_inputs`]).
//! The session is then rebuilt from the request and those inputs
//! ([`Session::replay`], RULINGS M3: a game is its request and its
//! inputs), live and on every replay alike ([`replay_event`]), so that
//! the state after a restart is byte for byte the state before it.
//!
//! Refused when the move drew randomness (the session's draw count moved:
//! a rebuilt game would draw the same numbers again, so the "undone" luck
//! would come back and a player could fish for it) or when a choice was
//! answered after it (a choice is the opponent's decision too). An engine
//! opponent declines every request (it answers at once): the computer's
//! games are played as they fall, as a clock game over the board.
//!
//! After an accepted takeback every connection gets the full `state`
//! (protocol 3 too: the rules' diff of an update cannot say "undo"); the
//! update history is cleared, so a `resync` across it gets the full state.

use houserules_engine::Color;
use houserules_session::{CreateRequest, Input, Session};
use serde_json::Value;

use super::{blocking, Event, Game};
use crate::store::Entry;

/// The session inputs in force after the stored `entries`: every input in
/// order, less the move each `takeback-accept` event took back.
pub fn effective_inputs(entries: &[Entry]) -> Vec<Input> {
    let mut inputs = Vec::new();
    for e in entries {
        let Ok(v) = serde_json::from_str::<Value>(&e.body) else {
            continue;
        };
        if let Some(ev) = v.get("event") {
            if ev == "takeback-accept" {
                inputs.pop();
            }
            continue;
        }
        if let Ok(i) = serde_json::from_value::<Input>(v) {
            inputs.push(i);
        }
    }
    inputs
}

/// A stored event during replay: a `takeback-accept` drops the last input
/// (it must be a move) and rebuilds `s` from `request` and the inputs in
/// force. Other events change nothing here.
///
/// # Errors
/// The input before the takeback is not a move, or the rebuild fails.
pub(super) fn replay_event(
    s: &mut Session,
    request: &CreateRequest,
    inputs: &mut Vec<Input>,
    event: &Value,
) -> Result<(), String> {
    if event["event"] != "takeback-accept" {
        return Ok(());
    }
    match inputs.pop() {
        Some(Input::Move { .. }) => {}
        _ => return Err("a takeback follows no move".into()),
    }
    *s = Session::replay(request.clone(), inputs).map_err(|r| r.to_string())?;
    Ok(())
}

/// Why `me` may not take back the last move, checked on the log alone: the
/// last input must be a move of `me` (no choice answered after it).
fn last_input_check(entries: &[Entry]) -> Result<(), (&'static str, String)> {
    let inputs = effective_inputs(entries);
    match inputs.last() {
        None => Err(("takeback.no-move", "there is no move to take back".into())),
        Some(Input::Choice { .. }) => Err((
            "takeback.choice",
            "the last move raised a choice, which was answered: a move with a choice cannot be \
             taken back"
                .into(),
        )),
        Some(Input::Move { .. }) => Ok(()),
    }
}

impl Game {
    /// The session rebuilt without the last move, and whether that move
    /// drew randomness (the session's draw count differs), on the blocking
    /// pool.
    async fn without_last_move(&self) -> Result<(Session, bool), (&'static str, String)> {
        let mut inputs = effective_inputs(&self.entries);
        inputs.pop();
        let request = self.request.clone();
        let drawn_now = self.out.rng_stream;
        tokio::task::spawn_blocking(move || {
            let s = Session::replay(request, &inputs).map_err(|r| r.to_string())?;
            let drawn_before = s.output().rng_stream;
            Ok::<_, String>((s, drawn_before != drawn_now))
        })
        .await
        .map_err(|e| ("server.rules", e.to_string()))?
        .map_err(|e| ("server.rules", e))
    }

    /// `offer-takeback` from `me`.
    pub(super) async fn offer_takeback(&mut self, me: Color) -> Result<(), (&'static str, String)> {
        if self.takeback_offer == Some(me) {
            return Err((
                "takeback.already-offered",
                "your takeback request stands".into(),
            ));
        }
        if self.pending().is_some() {
            return Err((
                "takeback.choice",
                "a choice is pending: a move with a choice cannot be taken back".into(),
            ));
        }
        last_input_check(&self.entries)?;
        match self.last_move {
            Some((mover, _)) if mover == me => {}
            Some(_) => {
                return Err((
                    "takeback.not-yours",
                    "the last move is the opponent's: one takes back one's own last move".into(),
                ))
            }
            None => return Err(("takeback.no-move", "there is no move to take back".into())),
        }
        let (_, random) = self.without_last_move().await?;
        if random {
            return Err((
                "takeback.random",
                "the last move drew randomness: it cannot be taken back".into(),
            ));
        }
        self.commit_event(Event::TakebackOffer {
            player: me.name().into(),
        })
        .await?;
        if let Some(engine) = self
            .engine
            .as_ref()
            .map(|e| e.seat.color)
            .filter(|c| *c != me)
        {
            self.commit_event(Event::TakebackDecline {
                player: engine.name().into(),
            })
            .await?;
        }
        Ok(())
    }

    /// `takeback.no-offer` unless `me`'s opponent has a takeback request
    /// standing (what both answers to a request need).
    fn opponent_offer_stands(&self, me: Color) -> Result<(), (&'static str, String)> {
        if self.takeback_offer == Some(me.flip()) {
            Ok(())
        } else {
            Err((
                "takeback.no-offer",
                "the opponent has no takeback request standing".into(),
            ))
        }
    }

    /// `decline-takeback` from `me`.
    pub(super) async fn decline_takeback(
        &mut self,
        me: Color,
    ) -> Result<(), (&'static str, String)> {
        self.opponent_offer_stands(me)?;
        self.commit_event(Event::TakebackDecline {
            player: me.name().into(),
        })
        .await
    }

    /// `accept-takeback` from `me`: the event stored, then the session
    /// rebuilt without the move, and the full state to everyone.
    pub(super) async fn accept_takeback(
        &mut self,
        me: Color,
    ) -> Result<(), (&'static str, String)> {
        self.opponent_offer_stands(me)?;
        // Checked again: nothing may have changed since the request (a
        // move clears it), but the check is cheap against a wrong undo.
        last_input_check(&self.entries)?;
        let (session, _) = self.without_last_move().await?;
        let ev = Event::TakebackAccept {
            player: me.name().into(),
        };
        let offer = self.takeback_offer;
        let last = self.last_move;
        self.apply_event(&ev);
        let body = serde_json::to_string(&ev).unwrap_or_default();
        if let Err(e) = self.commit(body, None, None).await {
            self.takeback_offer = offer;
            self.last_move = last;
            return Err(("server.store", e));
        }
        let mut out = blocking(&self.session, move |s| {
            *s = session;
            s.output()
        })
        .await
        .map_err(|e| ("server.rules", e))?;
        self.log = std::mem::take(&mut out.log);
        self.out = std::sync::Arc::new(out);
        self.history.clear();
        self.after_change(std::time::Instant::now());
        self.send_full_state(|_| true);
        Ok(())
    }
}
