//! What the perft benches share (this crate's `perft.rs`, and the
//! definitions and presets crates' perft benches, which include this file
//! by path): reading the command line and environment, and the unit.

use std::time::Duration;

/// How a bench run was asked for.
pub struct Settings {
    /// Smaller depths: `HOUSERULES_BENCH_QUICK`, or a smoke test (`cargo
    /// bench` passes `--bench`; `cargo test --benches` does not).
    pub quick: bool,
    /// Repetitions (each bench says how it combines them):
    /// `HOUSERULES_BENCH_RUNS` (default 3) when benching, else 1.
    pub runs: usize,
    /// The other arguments: a row runs when its label contains one of them
    /// (all rows when there are none).
    pub filters: Vec<String>,
}

impl Settings {
    /// Reads the process's arguments and environment.
    pub fn from_env() -> Settings {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let benching = args.iter().any(|a| a == "--bench");
        let quick = env_flag("HOUSERULES_BENCH_QUICK") || !benching;
        let runs = if benching {
            std::env::var("HOUSERULES_BENCH_RUNS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(3)
                .max(1)
        } else {
            1
        };
        let filters = args.into_iter().filter(|a| !a.starts_with('-')).collect();
        Settings {
            quick,
            runs,
            filters,
        }
    }

    /// Whether the row labelled `label` is selected by the filters.
    #[allow(dead_code)] // not every bench filters rows
    pub fn selects(&self, label: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|f| label.contains(f.as_str()))
    }
}

/// Million nodes per second.
pub fn mnps(nodes: u64, d: Duration) -> f64 {
    nodes as f64 / d.as_secs_f64() / 1e6
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}
