//! Reads of games that are not in memory (issue 21): a finished game's
//! state, any game's record and PGN come from the store without loading
//! the game's task, and start-up chooses which games need their task at
//! once.
//!
//! The record and the PGN are written by the same functions whether the
//! game is loaded or not ([`record`], [`pgn`]), so both paths give the
//! same bytes. A finished game's state is the view its task kept in the
//! store when it ended ([`final_state_text`]), with what depends on the
//! moment of the read filled in on each read ([`served_view`]).

use houserules_engine::Color;
use houserules_session::{ChoiceTimeout, CreateRequest};
use serde_json::{json, Value};
use tokio::sync::oneshot;

use crate::game::{now_ms, Cmd, GameHandle, Meta, Outcome};
use crate::store::{Entry, StoreError, Summary};
use crate::AppState;

/// Why a read of a game failed.
#[derive(Debug)]
pub enum ReadError {
    /// No game has that id.
    NotFound,
    /// The store failed.
    Store(StoreError),
    /// The game had to be rebuilt and did not rebuild.
    Rebuild(String),
    /// The game's task (on a cluster, its owner) gave no answer: it
    /// stopped, or no owner answered within the forward's retries
    /// (`503 game.unavailable`, as docs/cluster.md says; trial 19 got a
    /// `500 server.rebuild` from a node that had lost NATS).
    Unavailable(String),
}

/// Whether an unfinished game needs its task from start-up on, judged from
/// its lobby line alone (no replay): a clock that may be running (timed,
/// and a move made: clocks start with the first move), an engine seat (it
/// may be its turn), or choices that time out (modifiers or draft mode may
/// raise a choice, and the request does not turn the timeout off). A stored
/// request that does not read counts as needing it, so that the rebuild
/// names its fault at start-up as before.
pub fn needs_task(g: &Summary) -> bool {
    let Ok((meta, request)) = crate::split_request(&g.request) else {
        return true;
    };
    let clock = meta.clock.is_some() && g.inputs > 0;
    let engine = crate::engine::seat_of(meta.white.as_deref(), meta.black.as_deref()).is_some();
    let choices = (!request.modifiers.is_empty() || request.draft || request.state.is_some())
        && request.choice_timeout.clone().unwrap_or_default() != ChoiceTimeout::NoTimeout;
    clock || engine || choices
}

/// A finished game's state as kept in the store: its view with the
/// presence of a game with no connection (only an engine seat is
/// present). The clock's `serverTimeMs` is replaced on each read.
pub(crate) fn final_state_text(mut view: Value, engine: Option<Color>) -> String {
    if let Some(p) = view.get_mut("presence") {
        *p = json!({
            "white": engine == Some(Color::White),
            "black": engine == Some(Color::Black),
        });
    }
    view.to_string()
}

/// A kept final state as served: the clock's `serverTimeMs` is now.
fn served_view(text: &str) -> Result<Value, String> {
    let mut v: Value = serde_json::from_str(text).map_err(|e| format!("the kept state: {e}"))?;
    if let Some(t) = v.get_mut("clock").and_then(|c| c.get_mut("serverTimeMs")) {
        *t = json!(now_ms());
    }
    Ok(v)
}

/// The record (`GET /api/games/{id}/record`): the creation request and
/// every accepted input with its seq, time and clocks, and the result.
pub(crate) fn record(
    id: &str,
    request_text: &str,
    entries: &[Entry],
    outcome: Option<&Outcome>,
) -> Value {
    let request: Value = serde_json::from_str(request_text).unwrap_or(Value::Null);
    let inputs: Vec<Value> = entries
        .iter()
        .map(|e| {
            json!({
                "seq": e.seq,
                "atMs": e.at_ms,
                "input": serde_json::from_str::<Value>(&e.body).unwrap_or(Value::Null),
                "clock": e.white_ms.map(|w| json!({"whiteMs": w, "blackMs": e.black_ms})),
            })
        })
        .collect();
    json!({"id": id, "request": request, "inputs": inputs, "result": outcome})
}

/// The game as PGN ([`crate::pgn_export::write_pgn`], replayed on the
/// blocking pool): the same text whether the game is in memory or not,
/// and the same as `houserules export` writes.
pub(crate) async fn pgn(
    id: &str,
    request: CreateRequest,
    meta: &Meta,
    created_ms: i64,
    entries: &[Entry],
    outcome: Option<&Outcome>,
) -> String {
    let (id, meta, entries, outcome) = (
        id.to_string(),
        meta.clone(),
        entries.to_vec(),
        outcome.cloned(),
    );
    tokio::task::spawn_blocking(move || {
        crate::pgn_export::write_pgn(&crate::pgn_export::PgnSource {
            id: &id,
            request: &request,
            meta: &meta,
            created_ms,
            entries: &entries,
            outcome: outcome.as_ref(),
        })
    })
    .await
    .unwrap_or_default()
}

/// Asks a game's task; `None` when it has stopped.
async fn ask<T>(h: &GameHandle, cmd: impl FnOnce(oneshot::Sender<T>) -> Cmd) -> Option<T> {
    let (tx, rx) = oneshot::channel();
    h.tx.send(cmd(tx)).await.ok()?;
    rx.await.ok()
}

/// A stored result (JSON text) as an outcome.
fn outcome_of(text: Option<&str>) -> Option<Outcome> {
    text.and_then(|t| serde_json::from_str(t).ok())
}

impl AppState {
    /// The task of a game, loading it; a missing game or a failed rebuild
    /// as a [`ReadError`].
    async fn task(&self, id: &str) -> Result<GameHandle, ReadError> {
        match self.game(id).await {
            Ok(Some(h)) => Ok(h),
            Ok(None) => Err(ReadError::NotFound),
            Err(e) => Err(ReadError::Rebuild(e)),
        }
    }

    /// The full state of a game (`GET /api/games/{id}`): from its task when
    /// it is in memory, from the store when it is finished (the state kept
    /// at its end), else from its task, loaded for it.
    ///
    /// # Errors
    /// [`ReadError`].
    pub async fn read_view(&self, id: &str) -> Result<Value, ReadError> {
        if let Some(h) = self.registry().loaded(id).await {
            if let Some(v) = ask(&h, Cmd::View).await {
                return Ok(v);
            }
        }
        let row = self
            .store
            .game(id)
            .await
            .map_err(ReadError::Store)?
            .ok_or(ReadError::NotFound)?;
        if row.status == "finished" {
            if let Some(text) = self.store.final_state(id).await.map_err(ReadError::Store)? {
                return served_view(&text).map_err(ReadError::Rebuild);
            }
        }
        let h = self.task(id).await?;
        ask(&h, Cmd::View)
            .await
            .ok_or_else(|| ReadError::Unavailable("the game's task gave no answer".into()))
    }

    /// The record of a game (`GET /api/games/{id}/record`): from its task
    /// when it is in memory, else from the store (no session needed).
    ///
    /// # Errors
    /// [`ReadError`].
    pub async fn read_record(&self, id: &str) -> Result<Value, ReadError> {
        if let Some(h) = self.registry().loaded(id).await {
            if let Some(v) = ask(&h, Cmd::Record).await {
                return Ok(v);
            }
        }
        let row = self
            .store
            .game(id)
            .await
            .map_err(ReadError::Store)?
            .ok_or(ReadError::NotFound)?;
        if row.result.is_none() {
            // An unfinished game may hold a secret answer (an rps throw
            // waiting for the other's): only its task knows, so it is asked.
            if let Ok(Some(h)) = self.game(id).await {
                if let Some(v) = ask(&h, Cmd::Record).await {
                    return Ok(v);
                }
            }
        }
        let entries = self.store.entries(id).await.map_err(ReadError::Store)?;
        let outcome = outcome_of(row.result.as_deref());
        Ok(record(id, &row.request, &entries, outcome.as_ref()))
    }

    /// The game as PGN (`GET /api/games/{id}/pgn`): from its task when it
    /// is in memory, else from the store (the moves replayed on a session
    /// made for the answer, on the blocking pool, and dropped).
    ///
    /// # Errors
    /// [`ReadError`].
    pub async fn read_pgn(&self, id: &str) -> Result<String, ReadError> {
        if let Some(h) = self.registry().loaded(id).await {
            if let Some(v) = ask(&h, Cmd::Pgn).await {
                return Ok(v);
            }
        }
        let row = self
            .store
            .game(id)
            .await
            .map_err(ReadError::Store)?
            .ok_or(ReadError::NotFound)?;
        if row.result.is_none() {
            // An unfinished game may hold a secret answer (an rps throw
            // waiting for the other's): only its task knows, so it is asked.
            if let Ok(Some(h)) = self.game(id).await {
                if let Some(v) = ask(&h, Cmd::Pgn).await {
                    return Ok(v);
                }
            }
        }
        let entries = self.store.entries(id).await.map_err(ReadError::Store)?;
        let (meta, request) = crate::split_request(&row.request).map_err(ReadError::Rebuild)?;
        let outcome = outcome_of(row.result.as_deref());
        Ok(pgn(
            id,
            request,
            &meta,
            row.created_ms,
            &entries,
            outcome.as_ref(),
        )
        .await)
    }
}
