//! A small work queue on scoped std threads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

/// The default number of worker threads: the available parallelism.
pub fn default_threads() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work` on every item, on up to `threads` threads that each take the
/// next unclaimed item, and calls `done(index, result)` on the calling
/// thread as each result arrives (in completion order, not item order).
pub fn for_each<T, R, W, D>(items: &[T], threads: usize, work: W, mut done: D)
where
    T: Sync,
    R: Send,
    W: Fn(&T) -> R + Sync,
    D: FnMut(usize, R),
{
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        for (i, item) in items.iter().enumerate() {
            done(i, work(item));
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, work) = (&next, &work);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send((i, work(item))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, r) in rx {
            done(i, r);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_once() {
        let items: Vec<u64> = (0..100).collect();
        for threads in [1, 2, 7] {
            let mut seen = vec![None; items.len()];
            for_each(
                &items,
                threads,
                |x| x * x,
                |i, r| {
                    assert!(seen[i].is_none());
                    seen[i] = Some(r);
                },
            );
            let want: Vec<Option<u64>> = items.iter().map(|x| Some(x * x)).collect();
            assert_eq!(seen, want);
        }
        for_each(&[] as &[u64], 2, |x| *x, |_, _| panic!("no items"));
    }
}
