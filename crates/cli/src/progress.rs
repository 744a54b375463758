//! Progress bars on stderr (indicatif). A bar appears only after a delay,
//! so quick runs print nothing on stderr; indicatif hides it when stderr is
//! not a terminal.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Runs `f` with a bar of `len` steps counting `unit` (e.g. `root moves`).
/// The bar is drawn on stderr once `delay` has passed and is cleared when
/// `f` returns.
pub fn with_bar<R>(len: u64, unit: &str, delay: Duration, f: impl FnOnce(&ProgressBar) -> R) -> R {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    let template =
        format!("{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} {{msg}}");
    bar.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (finished, finished_rx) = mpsc::channel::<()>();
    thread::scope(|s| {
        let shared = &bar;
        let reveal = s.spawn(move || {
            if finished_rx.recv_timeout(delay) == Err(RecvTimeoutError::Timeout) {
                shared.set_draw_target(ProgressDrawTarget::stderr());
                shared.enable_steady_tick(Duration::from_millis(200));
            }
        });
        let r = f(&bar);
        drop(finished);
        // The bar is visible or not for good once `reveal` has ended.
        let _ = reveal.join();
        bar.finish_and_clear();
        r
    })
}
