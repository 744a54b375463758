//! A global allocator that forwards to the system allocator and counts the
//! live heap bytes and their peak, for the memory tests and examples
//! (issue 11: peak memory of hostile PGN; issue 21: memory per game and
//! per ply). One binary installs it:
//!
//! ```ignore
//! #[global_allocator]
//! static A: houserules_alloc_count::Counting = houserules_alloc_count::Counting;
//! ```
//!
//! The counts are process-wide: a binary that measures should hold one
//! test, or run its cases one at a time. No library offers this cheaply
//! (dhat's tracking would make the 2,000,000-ply PGN case far too slow).

// A global allocator is an `unsafe` trait; this one only forwards and counts.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// The counting allocator (install it with `#[global_allocator]`).
pub struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn grow(by: isize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to the system allocator with the
// caller's arguments; the counters are only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            grow(l.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc_zeroed(l) };
        if !p.is_null() {
            grow(l.size() as isize);
        }
        p
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        // SAFETY: forwarded as is.
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            grow(new as isize - l.size() as isize);
        }
        q
    }
}

/// Heap bytes live now (allocated through [`Counting`] and not freed).
pub fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// The most heap bytes live at once since the last [`reset_peak`].
pub fn peak() -> isize {
    PEAK.load(Ordering::Relaxed)
}

/// Starts a new peak at the bytes live now.
pub fn reset_peak() {
    PEAK.store(live(), Ordering::Relaxed);
}
