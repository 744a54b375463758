//! The game shards: a fixed set of OS threads, each driving its own
//! current-thread tokio runtime, on which the games' tasks run (issue 21
//! item 2, a lean move path).
//!
//! Why: a move used to wake a runtime worker for the game's task, then a
//! blocking-pool thread for its rules (`spawn_blocking` per input), then
//! the worker again; `perf` showed half the server's CPU in the kernel,
//! switching threads, and the rules under 1 %. A move's rules take
//! microseconds, so a game's task now runs them in place
//! ([`super::rules::step`]) on its shard thread. The shards run nothing
//! but games, so the HTTP and WebSocket side (the main runtime's workers)
//! is never held up by rules work; a game is pinned to one shard by a hash
//! of its id, and its task keeps the one-command-at-a-time order of an
//! actor. Searches of the engine, replays and PGN still go to the blocking
//! pool (they can take long).
//!
//! The shards start on first use, one per core (at least two), and live as
//! long as the process.

use std::future::Future;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use tokio::runtime::{Builder, Handle};

thread_local! {
    /// Whether this thread is a shard (rules work may run in place).
    static ON_SHARD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

static SHARDS: OnceLock<Vec<Handle>> = OnceLock::new();

/// How many shards: one per core the process may use, at least two (so
/// that one long input never holds every game up).
fn count() -> usize {
    std::thread::available_parallelism()
        .map(std::num::NonZeroUsize::get)
        .unwrap_or(2)
        .max(2)
}

fn shards() -> &'static [Handle] {
    SHARDS.get_or_init(|| {
        (0..count())
            .map(|i| {
                let (tx, rx) = std::sync::mpsc::channel();
                std::thread::Builder::new()
                    .name(format!("game-shard-{i}"))
                    .spawn(move || {
                        ON_SHARD.with(|s| s.set(true));
                        let rt = Builder::new_current_thread()
                            .enable_all()
                            .thread_name(format!("game-shard-{i}-blocking"))
                            .build()
                            .expect("a game shard's runtime starts");
                        let _ = tx.send(rt.handle().clone());
                        // Drives the tasks spawned through the handle, for good.
                        rt.block_on(std::future::pending::<()>());
                    })
                    .expect("a game shard's thread starts");
                rx.recv().expect("a game shard's runtime handle")
            })
            .collect()
    })
}

/// The shard of the game `id`: a stable hash of the id.
fn shard_of(id: &str) -> usize {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    id.hash(&mut h);
    (h.finish() % shards().len() as u64) as usize
}

/// Runs the game `id`'s task on its shard.
pub fn spawn<F>(id: &str, task: F)
where
    F: Future<Output = ()> + Send + 'static,
{
    shards()[shard_of(id)].spawn(task);
}

/// Whether the calling thread is a shard: rules work may run in place
/// there. Elsewhere (a runtime worker) it goes to the blocking pool.
pub fn on_shard() -> bool {
    ON_SHARD.with(std::cell::Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_stays_on_its_shard_and_runs_there() {
        assert_eq!(shard_of("abc"), shard_of("abc"));
        assert!(!on_shard());
        let (tx, rx) = std::sync::mpsc::channel();
        spawn("abc", async move {
            let _ = tx.send((on_shard(), std::thread::current().name().map(String::from)));
        });
        let (on, name) = rx.recv().unwrap();
        assert!(on);
        assert!(name.unwrap().starts_with("game-shard-"));
    }
}
