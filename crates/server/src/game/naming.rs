//! Naming a seat after creation (issue 26, trial 20 item 8): an invited
//! friend or a player who joined an open challenge had no way to give a
//! name, and played as "Anonymous" (`?` in the PGN).
//!
//! A seat's holder names it once, while it has no name: with the name in
//! the join's body, or later with `POST /api/games/{id}/name` and the seat
//! token. The name goes into the stored creation request (`white` or
//! `black`), where every reader of the names at creation already looks:
//! the lobby, the state's `players`, the PGN, a rebuild and a rematch.
//! Why once: a name that could change under the other player's eyes (or
//! be changed by whoever holds the link later) would make the record say
//! less, not more; a creator who named the seat, and the engine's seat,
//! keep theirs.

use houserules_engine::Color;
use serde_json::{Map, Value};

use super::rematch::RematchError;
use super::Game;
use crate::protocol::Seat;

fn refuse(status: u16, code: &'static str, message: impl Into<String>) -> RematchError {
    RematchError {
        status,
        code: code.into(),
        message: message.into(),
    }
}

/// The creation request with `name` as `side`'s name (`white`/`black`).
pub fn named_request(request_text: &str, side: &str, name: &str) -> Result<String, String> {
    let mut m: Map<String, Value> = serde_json::from_str(request_text)
        .map_err(|e| format!("the stored request does not read: {e}"))?;
    m.insert(side.into(), Value::String(name.into()));
    Ok(Value::Object(m).to_string())
}

impl Game {
    /// The name of `c`'s seat, if it has one.
    pub(super) fn seat_name(&self, c: Color) -> Option<&str> {
        match c {
            Color::White => self.meta.white.as_deref(),
            Color::Black => self.meta.black.as_deref(),
        }
    }

    /// `POST /api/games/{id}/name`: the seat `token` opens gets `name`
    /// (already checked by the route: trimmed, not empty, at most 100
    /// characters, no control or bidi character, not `engine:…`), if it
    /// has none.
    pub(super) async fn name_by_token(
        &mut self,
        token: &str,
        name: &str,
    ) -> Result<Seat, RematchError> {
        let seat = crate::seat_of(&self.tokens, token).ok_or_else(|| {
            refuse(
                403,
                "seat.bad-token",
                "the token opens no seat of this game",
            )
        })?;
        let c = if seat == Seat::White {
            Color::White
        } else {
            Color::Black
        };
        if let Some(old) = self.seat_name(c) {
            return Err(refuse(
                409,
                "name.already-set",
                format!(
                    "the {} seat is already named “{}”: a seat is named once",
                    c.name(),
                    crate::pgn_export::pgn_player(old)
                ),
            ));
        }
        self.set_seat_name(c, name).await?;
        Ok(seat)
    }

    /// Writes `c`'s name into the stored request, then into the game, and
    /// tells the connections (the state's `players`).
    pub(super) async fn set_seat_name(&mut self, c: Color, name: &str) -> Result<(), RematchError> {
        let text = named_request(&self.request_text, c.name(), name)
            .map_err(|m| refuse(500, "server.rebuild", m))?;
        if let Err(e) = self.store.set_request(&self.id, &text).await {
            self.metrics.store_errors.inc();
            tracing::error!(game = %self.id, error = %e, "store error naming a seat");
            return Err(refuse(503, "server.store", e.to_string()));
        }
        self.request_text = text;
        match c {
            Color::White => self.meta.white = Some(name.into()),
            Color::Black => self.meta.black = Some(name.into()),
        }
        if self.outcome.is_some() {
            // A finished game's reads come from its kept final state.
            let engine = self.engine.as_ref().map(|e| e.seat.color);
            let state = crate::archive::final_state_text(self.view(), engine);
            if let Err(e) = self.store.set_final_state(&self.id, &state).await {
                self.metrics.store_errors.inc();
                tracing::warn!(game = %self.id, error = %e, "keeping the final state failed");
            }
        }
        self.broadcast_state();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::named_request;

    #[test]
    fn a_name_goes_into_the_request_and_keeps_the_rest() {
        let t = named_request(
            r#"{"game":"chess","white":"Ann","seat":"white"}"#,
            "black",
            "Bo",
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&t).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"game":"chess","white":"Ann","seat":"white","black":"Bo"})
        );
        assert!(named_request("not json", "white", "x").is_err());
    }
}
