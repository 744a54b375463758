//! The games in memory: one slot per game id, holding the game task's
//! handle once loaded (issue 21: games leave memory).
//!
//! A game's task unloads itself (a finished game once its sockets are
//! gone, an idle one after [`crate::game::Timing::idle_unload`]) through
//! [`Registry::try_unload`], and the race with a request that wants its
//! handle is settled by the slot's lock:
//!
//! - [`crate::AppState::game`] clones the handle only while it holds the
//!   slot's lock;
//! - the task unloads only while it holds the same lock, only when the
//!   slot's handle is the last sender of its queue (nobody else holds a
//!   handle, so nobody can send to it any more) and only when its queue is
//!   empty (everything sent before has been handled). It then empties the
//!   slot, which drops that last sender, and ends.
//!
//! So a request either got the handle before (and the task does not
//! unload while the request holds it), or finds the slot empty after and
//! loads the game again from the store: no command is ever sent to a task
//! that has stopped, and none is lost.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::{mpsc, Mutex};

use crate::game::{Cmd, GameHandle};

/// A game's place in the registry: its task's handle once loaded.
pub(crate) type Slot = Arc<Mutex<Option<GameHandle>>>;

/// The games in memory, by id.
#[derive(Default)]
pub struct Registry {
    games: Mutex<HashMap<String, Slot>>,
}

impl Registry {
    /// The slot of `id`, added if missing.
    pub(crate) async fn slot(&self, id: &str) -> Slot {
        let mut games = self.games.lock().await;
        Arc::clone(games.entry(id.to_string()).or_default())
    }

    /// The handle of `id` when its task is running (never loads it).
    pub(crate) async fn loaded(&self, id: &str) -> Option<GameHandle> {
        let slot = self.games.lock().await.get(id).cloned()?;
        let handle = slot.lock().await;
        handle.as_ref().filter(|h| !h.tx.is_closed()).cloned()
    }

    /// Removes the slot of `id` when it is `slot`, empty, and no request
    /// holds it (the map's reference and the caller's are the only ones;
    /// none can be taken meanwhile, the map being locked), so that unknown
    /// ids and unloaded games do not grow the map.
    pub(crate) async fn forget(&self, id: &str, slot: &Slot) {
        let mut games = self.games.lock().await;
        if games.get(id).is_some_and(|s| {
            Arc::ptr_eq(s, slot)
                && Arc::strong_count(slot) == 2
                && s.try_lock().is_ok_and(|h| h.is_none())
        }) {
            games.remove(id);
        }
    }

    /// Takes the handle of `id` out of its slot (the game moved to another
    /// node: the next request routes anew), and forgets the slot.
    pub(crate) async fn take(&self, id: &str) -> Option<GameHandle> {
        let slot = self.games.lock().await.get(id).cloned()?;
        let handle = slot.lock().await.take();
        self.forget(id, &slot).await;
        handle
    }

    /// How many games have a slot (loaded, or being loaded).
    pub async fn len(&self) -> usize {
        self.games.lock().await.len()
    }

    /// Empties the registry (at shutdown) and returns the slots it held.
    pub(crate) async fn drain(&self) -> Vec<Slot> {
        self.games.lock().await.drain().map(|(_, s)| s).collect()
    }

    /// Whether no game has a slot.
    pub async fn is_empty(&self) -> bool {
        self.len().await == 0
    }

    /// Called by the task of game `id` (its queue `rx`, `me` a weak sender
    /// of it) that wants to stop: `true` when it may stop (its slot is
    /// emptied and the last sender dropped), `false` when someone holds its
    /// handle or a command waits (the task goes on, and tries again later).
    pub(crate) async fn try_unload(
        &self,
        id: &str,
        me: &mpsc::WeakSender<Cmd>,
        rx: &mpsc::Receiver<Cmd>,
    ) -> bool {
        let mut games = self.games.lock().await;
        let Some(slot) = games.get(id).cloned() else {
            // Not registered (a task started outside the registry): no one
            // can reach it.
            return rx.sender_strong_count() == 0 && rx.is_empty();
        };
        // A request holding the lock is taking the handle: not now.
        let Ok(mut handle) = slot.try_lock() else {
            return false;
        };
        let ours = handle.as_ref().is_some_and(|h| {
            h.tx.strong_count() == 1
                && rx.sender_strong_count() == 1
                && me.upgrade().is_some_and(|s| s.same_channel(&h.tx))
        });
        if !ours || !rx.is_empty() {
            return false;
        }
        // The last sender goes: nothing can be sent to the task any more.
        *handle = None;
        drop(handle);
        if Arc::strong_count(&slot) == 2 {
            games.remove(id);
        }
        true
    }
}
