//! When a game's task leaves memory (issue 21).
//!
//! - A finished game unloads as soon as its last connection is gone, after
//!   keeping its final state in the store (reads of it then need no
//!   session: [`crate::archive`]).
//! - An unfinished game unloads after [`super::Timing::idle_unload`] without
//!   a command while nothing in it runs on its own: no connection, no
//!   running clock (its flag must fall on time), no choice timer, no
//!   disconnect-forfeit grace, no engine search. The next request rebuilds
//!   it from the store with the same state (the log is the game).
//!
//! The unload itself goes through [`Registry::try_unload`], which refuses
//! while a request holds the game's handle or a command waits in its queue:
//! the task then goes on and tries again [`RETRY`] later.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::{Cmd, Game};
use crate::registry::Registry;

/// How long a refused unload waits before it is tried again.
const RETRY: Duration = Duration::from_millis(250);

/// A task's part in its own unloading.
pub(super) struct Life {
    registry: Arc<Registry>,
    /// The task's own queue, weakly (not counted as a holder of its handle).
    pub(super) me: Option<mpsc::WeakSender<Cmd>>,
    /// When the task last handled a command.
    last_active: Instant,
    /// An unload was refused: not before then again.
    retry_at: Option<Instant>,
    /// The final state of the finished game is in the store.
    final_kept: bool,
}

impl Life {
    pub(super) fn new(registry: Arc<Registry>) -> Life {
        Life {
            registry,
            me: None,
            last_active: Instant::now(),
            retry_at: None,
            final_kept: false,
        }
    }

    /// A command was handled: the idle time starts again.
    pub(super) fn touch(&mut self) {
        self.last_active = Instant::now();
        self.retry_at = None;
    }
}

impl Game {
    /// When the task should try to unload, if it may.
    pub(super) fn unload_at(&self) -> Option<Instant> {
        if !self.conns.is_empty() || !self.lost.is_empty() {
            return None;
        }
        let due = if self.outcome.is_some() {
            self.life.last_active
        } else {
            let clock_runs = self.clock.as_ref().is_some_and(|c| c.running().is_some());
            let thinking = self.engine.as_ref().is_some_and(|e| e.thinking.is_some());
            if clock_runs
                || thinking
                || self.choice_deadline.is_some()
                || self.forfeit_due.is_some()
            {
                return None;
            }
            // A duration too long to add means never.
            self.life.last_active.checked_add(self.timing.idle_unload)?
        };
        Some(self.life.retry_at.map_or(due, |r| r.max(due)))
    }

    /// Tries to leave memory; `true` when the task must end now.
    pub(super) async fn try_unload(&mut self, rx: &mpsc::Receiver<Cmd>) -> bool {
        if self.outcome.is_some() && !self.life.final_kept {
            self.keep_final_state().await;
        }
        let Some(me) = self.life.me.clone() else {
            return false;
        };
        if self.life.registry.try_unload(&self.id, &me, rx).await {
            self.metrics.games_unloaded.inc();
            return true;
        }
        self.life.retry_at = Some(Instant::now() + RETRY);
        false
    }

    /// Keeps the finished game's state in the store (once; a game finished
    /// before it was loaded may have it already, and keeps it). A failure
    /// is counted and logged, and the game unloads anyway: its reads then
    /// rebuild it. One conditional write, no read first: under churn the
    /// reads of finishing games queued on the reads' pool past its timeout
    /// (issue 21, session 19).
    async fn keep_final_state(&mut self) {
        self.life.final_kept = true;
        let engine = self.engine.as_ref().map(|e| e.seat.color);
        let text = crate::archive::final_state_text(self.view(), engine);
        if let Err(e) = self.store.keep_final_state(&self.id, &text).await {
            self.metrics.store_errors.inc();
            tracing::warn!(game = %self.id, error = %e, "keeping the final state failed");
        }
    }
}
