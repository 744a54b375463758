//! Rematch (issue 26): after the end, a player asks for a new game with
//! the same rules and clock, colours swapped, against the same opponent.
//!
//! `POST /api/games/{id}/rematch` with a seat's token creates the new game
//! at once (both seats' tokens made, the game `live`) and stores a
//! `rematch-offer` event in the finished game's log: the event, not the
//! task's memory, is the offer, so a restart or an unload keeps it. The
//! opponent sees it in the state (`rematch`) and accepts with the same
//! route and its own token (the answer is its seat in the new game), or
//! declines with the `decline-rematch` message. An engine opponent
//! accepts at once (its seat moves to the other colour with the same
//! level). A declined offer's game stays unplayed, like an invite nobody
//! opened.
//!
//! Why the tokens are not in the log: the record is public; the new game's
//! row in the store holds them, and the accepting player's is read from
//! there.

use houserules_engine::Color;
use serde_json::{Map, Value};

use super::{color_of, Event, Game};
use crate::protocol::{RematchView, Seat};
use crate::store::GameRow;

/// A rematch's state, as the finished game's log says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RematchState {
    /// The new game's id.
    pub game: String,
    /// Who asked.
    pub by: Color,
    /// Where it stands.
    pub status: RematchStatus,
}

/// Where an offer stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RematchStatus {
    /// Waiting for the opponent.
    Offered,
    /// Both players are on the new game.
    Accepted,
    /// The opponent said no.
    Declined,
}

/// A player's seat in the rematch: the answer of the route.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RematchSeat {
    /// The new game's id.
    pub game: String,
    /// This player's colour in it.
    pub seat: Seat,
    /// Its token.
    pub token: String,
    /// Whether this request created the game (an offer; `201`), or took
    /// a seat in one already made (an accept; `200`).
    pub created: bool,
}

/// Why a rematch request is refused: the HTTP status, a stable code and
/// what to do.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RematchError {
    /// HTTP status (403, 409, 503).
    pub status: u16,
    /// Stable code (`seat.bad-token`, `game.not-finished`, `rematch.*`).
    pub code: std::borrow::Cow<'static, str>,
    /// What is wrong.
    pub message: String,
}

fn refuse(status: u16, code: &'static str, message: impl Into<String>) -> RematchError {
    RematchError {
        status,
        code: code.into(),
        message: message.into(),
    }
}

/// The state after a rematch event (the others leave it as it was).
pub(super) fn apply(state: Option<RematchState>, ev: &Event) -> Option<RematchState> {
    match (ev, state) {
        (Event::RematchOffer { player, game }, _) => Some(RematchState {
            game: game.clone(),
            by: color_of(player),
            status: RematchStatus::Offered,
        }),
        (Event::RematchAccept { .. }, Some(s)) => Some(RematchState {
            status: RematchStatus::Accepted,
            ..s
        }),
        (Event::RematchDecline { .. }, Some(s)) => Some(RematchState {
            status: RematchStatus::Declined,
            ..s
        }),
        (_, s) => s,
    }
}

/// The creation request of the rematch: the finished game's request with
/// `white` and `black` (names, or the engine's `engine:N`) swapped and no
/// `seat` (both seats are given out), and a fresh random seed when the
/// rules draw random numbers (modifiers, draft mode): the same seed would
/// replay the same mines and draws (session-14 trial). Everything else is
/// kept as sent: rules, layout, clock, choice timeout.
pub fn swapped_request(request_text: &str) -> Result<String, String> {
    let mut m: Map<String, Value> = serde_json::from_str(request_text)
        .map_err(|e| format!("the stored request does not read: {e}"))?;
    crate::draw_fresh_seed(&mut m);
    let white = m.remove("white");
    let black = m.remove("black");
    m.remove("seat");
    if let Some(b) = black.filter(|v| !v.is_null()) {
        m.insert("white".into(), b);
    }
    if let Some(w) = white.filter(|v| !v.is_null()) {
        m.insert("black".into(), w);
    }
    Ok(Value::Object(m).to_string())
}

/// A code of [`RematchError`] as the `'static` text an error message takes.
fn rematch_code(code: &str) -> &'static str {
    match code {
        "server.store" => "server.store",
        _ => "rematch.failed",
    }
}

impl Game {
    /// The state's `rematch`.
    pub(super) fn rematch_view(&self) -> Option<RematchView> {
        self.rematch.as_ref().map(|r| RematchView {
            game: r.game.clone(),
            offered_by: r.by.into(),
            status: match r.status {
                RematchStatus::Offered => "offered",
                RematchStatus::Accepted => "accepted",
                RematchStatus::Declined => "declined",
            }
            .into(),
        })
    }

    /// `POST /api/games/{id}/rematch` with `token`: an offer (the new game
    /// made), or the opponent's acceptance of the standing offer.
    pub(super) async fn rematch(&mut self, token: &str) -> Result<RematchSeat, RematchError> {
        let me = match crate::seat_of(&self.tokens, token) {
            Some(Seat::White) => Color::White,
            Some(Seat::Black) => Color::Black,
            _ => {
                return Err(refuse(
                    403,
                    "seat.bad-token",
                    "the token opens no seat of this game",
                ))
            }
        };
        if self.engine.as_ref().is_some_and(|e| e.seat.color == me) {
            return Err(refuse(
                403,
                "seat.bad-token",
                "the token opens no seat of this game",
            ));
        }
        if self.outcome.is_none() {
            return Err(refuse(
                409,
                "game.not-finished",
                "a rematch is asked for once the game is over",
            ));
        }
        match self.rematch.clone() {
            None => self.offer_rematch(me).await,
            Some(r) if r.status == RematchStatus::Declined => Err(refuse(
                409,
                "rematch.declined",
                format!(
                    "the rematch (game {}) was declined by {}",
                    r.game,
                    r.by.flip().name()
                ),
            )),
            Some(r) if r.status == RematchStatus::Offered && r.by == me => Err(refuse(
                409,
                "rematch.already-offered",
                format!(
                    "your rematch offer (game {}) stands; the opponent accepts or declines it",
                    r.game
                ),
            )),
            Some(r) => {
                // The opponent's standing offer (accepted now), or an
                // agreed rematch asked for again (a reloaded page): the
                // seat of this player in the new game.
                let row = match self.store.game(&r.game).await {
                    Ok(Some(row)) => row,
                    Ok(None) => {
                        return Err(refuse(
                            409,
                            "rematch.gone",
                            format!("the rematch game {} is not in the store", r.game),
                        ))
                    }
                    Err(e) => {
                        self.metrics.store_errors.inc();
                        return Err(refuse(503, "server.store", e.to_string()));
                    }
                };
                let (seat, token) = match me.flip() {
                    Color::White => (Seat::White, row.white_token),
                    Color::Black => (Seat::Black, row.black_token),
                };
                let Some(token) = token else {
                    return Err(refuse(
                        409,
                        "rematch.gone",
                        "the rematch game has no seat for you",
                    ));
                };
                if r.status == RematchStatus::Offered {
                    self.rematch_event(Event::RematchAccept {
                        player: me.name().into(),
                    })
                    .await?;
                }
                Ok(RematchSeat {
                    game: r.game,
                    seat,
                    token,
                    created: false,
                })
            }
        }
    }

    /// The offer: the new game created in the store, then the event.
    async fn offer_rematch(&mut self, me: Color) -> Result<RematchSeat, RematchError> {
        let text = swapped_request(&self.request_text)
            .map_err(|m| refuse(409, "rematch.bad-request", m))?;
        let id = crate::random_hex(6);
        let tokens = [crate::random_token(), crate::random_token()];
        let row = GameRow {
            id: id.clone(),
            request: text,
            white_token: Some(tokens[0].clone()),
            black_token: Some(tokens[1].clone()),
            status: "live".into(),
            result: None,
            created_ms: super::now_ms(),
        };
        if let Err(e) = self.store.create_game(&row).await {
            self.metrics.store_errors.inc();
            return Err(refuse(503, "server.store", e.to_string()));
        }
        self.metrics.games_created.inc();
        tracing::info!(game = %self.id, rematch = %id, "rematch created");
        self.rematch_event(Event::RematchOffer {
            player: me.name().into(),
            game: id.clone(),
        })
        .await?;
        if let Some(engine) = self.engine.as_ref().map(|e| e.seat.color) {
            // The engine accepts at once.
            self.rematch_event(Event::RematchAccept {
                player: engine.name().into(),
            })
            .await?;
        }
        let (seat, token) = match me.flip() {
            Color::White => (Seat::White, tokens[0].clone()),
            Color::Black => (Seat::Black, tokens[1].clone()),
        };
        Ok(RematchSeat {
            game: id,
            seat,
            token,
            created: true,
        })
    }

    /// `decline-rematch` from `me`.
    pub(super) async fn decline_rematch(
        &mut self,
        me: Color,
    ) -> Result<(), (&'static str, String)> {
        match &self.rematch {
            Some(r) if r.status == RematchStatus::Offered && r.by != me => {}
            _ => {
                return Err((
                    "rematch.no-offer",
                    "the opponent has no rematch offer standing".into(),
                ))
            }
        }
        self.rematch_event(Event::RematchDecline {
            player: me.name().into(),
        })
        .await
        .map_err(|e| (rematch_code(&e.code), e.message))
    }

    /// Stores a rematch event in the finished game's log and tells the
    /// connections (an `update` for v3, the `state` for v1 and v2, no
    /// second `game-over`); the kept final state is written again so that
    /// reads of the unloaded game show it.
    async fn rematch_event(&mut self, ev: Event) -> Result<(), RematchError> {
        let before = self.rematch.clone();
        self.rematch = apply(self.rematch.take(), &ev);
        let body = serde_json::to_string(&ev).unwrap_or_default();
        if let Err(e) = self.commit(body, None, None).await {
            self.rematch = before;
            return Err(refuse(503, "server.store", e));
        }
        let input = serde_json::to_value(&ev).unwrap_or(Value::Null);
        self.broadcast_update(input, super::Changes::default(), Vec::new());
        let engine = self.engine.as_ref().map(|e| e.seat.color);
        let text = crate::archive::final_state_text(self.view(), engine);
        if let Err(e) = self.store.set_final_state(&self.id, &text).await {
            self.metrics.store_errors.inc();
            tracing::warn!(game = %self.id, error = %e, "keeping the final state failed");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rematch_request_swaps_the_names_and_drops_the_seat() {
        let t = swapped_request(
            r#"{"modifiers":["parry"],"white":"Ann","black":"engine:3","seat":"white","clock":{"initialSeconds":60,"incrementSeconds":0}}"#,
        )
        .unwrap();
        let v: Value = serde_json::from_str(&t).unwrap();
        assert_eq!(v["white"], "engine:3");
        assert_eq!(v["black"], "Ann");
        assert!(v.get("seat").is_none());
        assert_eq!(v["modifiers"][0], "parry");
        assert_eq!(v["clock"]["initialSeconds"], 60);
        // One name only: it moves to the other colour.
        let v: Value =
            serde_json::from_str(&swapped_request(r#"{"white":"Ann"}"#).unwrap()).unwrap();
        assert_eq!(v["black"], "Ann");
        assert!(v.get("white").is_none());
    }
}
