//! Helpers shared by the reference-data tests (`perft_suites.rs`,
//! `differential.rs`): locating test data, environment knobs, a seeded
//! PRNG, a tiny thread pool and the bridge to the reference engines
//! (shakmaty, cozy-chess).
//!
//! Every function here is a means of *getting* reference values or of
//! running our engine; none of them computes an expected value from our own
//! output.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use houserules_engine::{Game, Move, Variant};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position as _};

/// `../shared/data/perft` beside the repository checkout.
pub fn shared_perft_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/perft"
    ))
}

/// `crates/engine/tests/data`.
pub fn local_data_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data"))
}

/// Reads a file of `../shared/data/perft`. Panics with a plain message when
/// it is absent: a test that needs the shared data never passes without it.
pub fn read_shared(name: &str) -> String {
    let path = shared_perft_dir().join(name);
    read_or_fail(
        &path,
        "this test needs the project's shared test data (the `shared/` folder beside the repository \
         checkout, read as crates/engine/../../../shared/data/perft); it is not optional and the test \
         fails without it",
    )
}

/// Reads a file of `crates/engine/tests/data`.
pub fn read_local(name: &str) -> String {
    read_or_fail(
        &local_data_dir().join(name),
        "this file is part of the repository; restore it from git",
    )
}

fn read_or_fail(path: &Path, why: &str) -> String {
    match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => panic!(
            "MISSING TEST DATA: cannot read {} ({e}): {why}",
            path.display()
        ),
    }
}

/// An unsigned integer from the environment, or `default` when unset.
/// Panics on a value that is not a number (a typo must not silently fall
/// back to the short run).
pub fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Err(_) => default,
        Ok(v) => {
            let v = v.trim().replace('_', "");
            v.parse().unwrap_or_else(|_| {
                panic!("environment variable {name}={v:?} is not a non-negative integer")
            })
        }
    }
}

/// Worker threads for the heavy tests: `HOUSERULES_TEST_THREADS`, else the
/// machine's available parallelism.
pub fn threads() -> usize {
    let n = env_u64("HOUSERULES_TEST_THREADS", 0) as usize;
    if n > 0 {
        n
    } else {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    }
}

/// SplitMix64: a tiny, well-mixed, seedable PRNG (Steele, Lea, Flood 2014).
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }
}

/// Runs `f` on every item on `threads` workers (work is handed out one
/// item at a time, so long items do not stall a worker's queue). Results
/// come back in item order.
pub fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(items.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                let r = f(i, &items[i]);
                out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

/// Our game from a FEN (FIDE chess), or a message.
///
/// The suites mix standard and Chess960 positions without saying which, so
/// the castling mode is chosen as shakmaty's `CastlingMode::detect` does:
/// standard chess when standard castling keeps every right the FEN gives
/// (king on e1/e8, rooks in the corners), Chess960 otherwise.
pub fn our_game(fen: &str) -> Result<Game, String> {
    let read =
        |v: Variant| Game::from_fen(v, fen).map_err(|e| format!("houserules rejects {fen:?}: {e}"));
    let c960 = read(Variant::chess960())?;
    let standard = read(Variant::chess())?;
    let rights = |g: &Game| g.shredder_fen().split(' ').nth(2).map(str::to_owned);
    Ok(if rights(&standard) == rights(&c960) {
        standard
    } else {
        c960
    })
}

/// shakmaty's position from a FEN, as lenient as the suites need
/// (impossible checker alignments and too much material are accepted).
pub fn shakmaty_position(fen: &str, mode: CastlingMode) -> Result<Chess, String> {
    let parsed: shakmaty::fen::Fen = fen
        .parse()
        .map_err(|e| format!("shakmaty cannot read {fen:?}: {e}"))?;
    match parsed.into_position::<Chess>(mode) {
        Ok(pos) => Ok(pos),
        Err(e) => match e.ignore_impossible_check() {
            Ok(pos) => Ok(pos),
            Err(e) => e
                .ignore_too_much_material()
                .map_err(|e| format!("shakmaty rejects {fen:?}: {e}")),
        },
    }
}

/// Our legal moves keyed by UCI (`chess960`: castling king-takes-rook).
pub fn our_moves_by_uci(game: &mut Game, chess960: bool) -> BTreeMap<String, Move> {
    let saved = game.is_chess960();
    game.set_chess960(chess960);
    let map = game
        .legal_moves()
        .into_iter()
        .map(|m| (game.uci(m), m))
        .collect();
    game.set_chess960(saved);
    map
}

/// shakmaty's legal moves keyed by UCI in `mode`.
pub fn shakmaty_moves_by_uci(pos: &Chess, mode: CastlingMode) -> BTreeMap<String, shakmaty::Move> {
    pos.legal_moves()
        .into_iter()
        .map(|m| (UciMove::from_move(m, mode).to_string(), m))
        .collect()
}

/// The moves in `a` and not in `b`, and in `b` and not in `a`.
pub fn set_diff<V, W>(
    a: &BTreeMap<String, V>,
    b: &BTreeMap<String, W>,
) -> (Vec<String>, Vec<String>) {
    let only_a = a.keys().filter(|k| !b.contains_key(*k)).cloned().collect();
    let only_b = b.keys().filter(|k| !a.contains_key(*k)).cloned().collect();
    (only_a, only_b)
}

/// Leaf count by shakmaty (used only to *locate* a perft discrepancy that a
/// suite file already revealed; the expected totals come from the files).
pub fn shakmaty_perft(pos: &Chess, depth: u32) -> u64 {
    shakmaty::perft(pos, depth)
}

/// Walks down from `fen` to the first position where our move list differs
/// from shakmaty's, following the child whose perft differs. Returns a
/// human-readable description of the divergence (or of why it could not be
/// located).
pub fn locate_perft_divergence(fen: &str, depth: u32) -> String {
    let mode = CastlingMode::Chess960;
    let (mut game, mut pos) = match (our_game(fen), shakmaty_position(fen, mode)) {
        (Ok(g), Ok(p)) => (g, p),
        (Err(e), _) | (_, Err(e)) => return format!("cannot locate: {e}"),
    };
    let mut path: Vec<String> = Vec::new();
    let mut depth = depth;
    loop {
        let ours = our_moves_by_uci(&mut game, true);
        let theirs = shakmaty_moves_by_uci(&pos, mode);
        let (only_ours, only_theirs) = set_diff(&ours, &theirs);
        if !only_ours.is_empty() || !only_theirs.is_empty() {
            return format!(
                "after [{}] at FEN {}: moves only houserules generates {only_ours:?}; moves only shakmaty generates {only_theirs:?}",
                path.join(" "),
                game.fen()
            );
        }
        if depth <= 1 {
            return format!(
                "after [{}] at FEN {}: same move lists, yet counts differ",
                path.join(" "),
                game.fen()
            );
        }
        let mut found = false;
        for (uci, m) in &ours {
            let mut child = game.clone();
            child.apply(*m).expect("legal");
            let mut their_child = pos.clone();
            their_child.play_unchecked(theirs[uci]);
            let a = child.perft(depth - 1, true);
            let b = shakmaty_perft(&their_child, depth - 1);
            if a != b {
                path.push(uci.clone());
                game = child;
                pos = their_child;
                depth -= 1;
                found = true;
                break;
            }
        }
        if !found {
            return format!(
                "after [{}] at FEN {}: every child agrees with shakmaty at depth {} (the total differs only at the root?)",
                path.join(" "),
                game.fen(),
                depth - 1
            );
        }
    }
}

/// A rough human duration.
pub fn secs(d: std::time::Duration) -> String {
    format!("{:.1}s", d.as_secs_f64())
}

/// Our legal moves as sorted `UCI SAN` lines (python-chess's
/// `board.uci(m) + " " + board.san(m)` for comparison).
pub fn move_lines(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_moves()
        .into_iter()
        .map(|m| format!("{} {}", g.uci(m), g.san(m)))
        .collect();
    v.sort();
    v
}

/// Rule hooks under which White's turn never passes (a multi-move turn):
/// moves play differently from FIDE (`hooks.rs`, `undo_history.rs`).
#[derive(Debug)]
pub struct WhiteForever;
impl<B: houserules_engine::BitSet> houserules_engine::hooks::RuleHooks<B> for WhiteForever {
    fn turn_passes(
        &self,
        _t: &houserules_engine::Tables<B>,
        before: &houserules_engine::Position<B>,
        _after: &houserules_engine::Position<B>,
        _m: Move,
    ) -> bool {
        before.turn() != houserules_engine::Color::White
    }
}
