//! Issue 11, wrong answer 11: peak heap memory on hostile PGN stays flat.
//!
//! A counting global allocator records the peak of live heap bytes while
//! each input is generated on the fly (never held in memory) and checked
//! the way `houserules pgn check` does: streamed through
//! `Reader::read_game_streaming` into a `Replayer`. Each case prints its
//! peak (`cargo test -p houserules-pgn --test memory -- --nocapture`) and
//! must stay under 64 MiB (the target). The inputs are the issue's
//! sizes: one game of 2,000,000 plies, 48 MB of tag lines, an 18 MB
//! variation and an endless tag stream (cut at 256 MB here).
//!
//! This is not a timed test: only memory is asserted.

use std::io::{BufRead, BufReader, Read};
use std::sync::Mutex;

use houserules_pgn::{Reader, Replayer};

/// The cases measure one at a time (the peak is process-wide).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[global_allocator]
static A: houserules_alloc_count::Counting = houserules_alloc_count::Counting;

const LIMIT: usize = 64 << 20;

/// A `Read` that produces `head`, then `chunk(0)`, `chunk(1)`, … (`count`
/// chunks), then `tail`, without holding the whole text.
struct Generated<F: FnMut(u64) -> String> {
    head: Vec<u8>,
    chunk: F,
    n: u64,
    left: u64,
    tail: Vec<u8>,
    buf: Vec<u8>,
    at: usize,
}

impl<F: FnMut(u64) -> String> Generated<F> {
    fn new(head: &str, chunk: F, count: u64, tail: &str) -> Self {
        Generated {
            head: head.as_bytes().to_vec(),
            chunk,
            n: 0,
            left: count,
            tail: tail.as_bytes().to_vec(),
            buf: Vec::new(),
            at: 0,
        }
    }
}

impl<F: FnMut(u64) -> String> Read for Generated<F> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.buf.len() {
            self.at = 0;
            self.buf.clear();
            if !self.head.is_empty() {
                std::mem::swap(&mut self.buf, &mut self.head);
            } else if self.left > 0 {
                let c = (self.chunk)(self.n);
                self.n += 1;
                self.left -= 1;
                self.buf = c.into_bytes();
            } else if !self.tail.is_empty() {
                std::mem::swap(&mut self.buf, &mut self.tail);
            } else {
                return Ok(0);
            }
        }
        let k = out.len().min(self.buf.len() - self.at);
        out[..k].copy_from_slice(&self.buf[self.at..self.at + k]);
        self.at += k;
        Ok(k)
    }
}

/// Checks every game of `input` as `pgn check` does; returns the games'
/// (plies, error) and the peak of live heap bytes meanwhile.
fn check(input: impl BufRead) -> (Vec<(usize, Option<String>)>, usize) {
    let base = houserules_alloc_count::live();
    houserules_alloc_count::reset_peak();
    let mut reader = Reader::new(input);
    let mut out = Vec::new();
    loop {
        let mut rp: Option<Replayer> = None;
        let Some(item) = reader.read_game_streaming(&mut |tags, san, pos| {
            rp.get_or_insert_with(|| Replayer::new(tags, &|_| None, None))
                .push(san, Some(pos));
        }) else {
            break;
        };
        let plies = rp.as_ref().map_or(0, Replayer::plies);
        let error = match item {
            Ok(game) => rp
                .map(|r| r.finish(&game.tags, game.result.as_deref()))
                .and_then(|r| r.error.map(|e| e.to_string())),
            Err(e) => Some(e.to_string()),
        };
        out.push((plies, error));
    }
    (out, (houserules_alloc_count::peak() - base) as usize)
}

fn mib(n: usize) -> f64 {
    n as f64 / f64::from(1 << 20)
}

#[test]
fn a_game_of_two_million_plies() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // Knights out and back: 4 plies a line; 500,000 lines = 2,000,000
    // plies. The game is over by fivefold repetition after ply 16 (moves
    // follow: a warning), so replay goes on to the end.
    let lines = 500_000u64;
    let chunk = |n: u64| {
        let m = 2 * n + 1;
        format!("{m}. Nf3 Nf6 {}. Ng1 Ng8\n", m + 1)
    };
    let input = Generated::new("[Event \"long\"]\n\n", chunk, lines, "*\n");
    let (games, peak) = check(BufReader::new(input));
    println!(
        "2,000,000-ply game: peak heap {:.1} MiB ({} plies)",
        mib(peak),
        games[0].0
    );
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].0, 2_000_000, "{:?}", games[0]);
    assert!(games[0].1.is_none(), "{:?}", games[0]);
    assert!(peak < LIMIT, "peak {:.1} MiB", mib(peak));
}

#[test]
fn forty_eight_megabytes_of_tag_lines() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let input = Generated::new(
        "",
        // 48 bytes a line, 1,000,000 lines.
        |n| format!("[Tag{n:08} \"{:<31}\"]\n", "value"),
        1_000_000,
        "\n1. e4 *\n",
    );
    let (games, peak) = check(BufReader::new(input));
    println!("48 MB of tag lines: peak heap {:.1} MiB", mib(peak));
    assert_eq!(games.len(), 1);
    let e = games[0].1.as_deref().unwrap_or("");
    assert!(e.contains("game 1, line ") && e.contains("budget"), "{e}");
    assert!(peak < LIMIT, "peak {:.1} MiB", mib(peak));
}

#[test]
fn an_eighteen_megabyte_variation() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let input = Generated::new(
        "[Event \"variation\"]\n\n1. e4 (1. d4\n",
        // 64 bytes a line, 281,250 lines: 18,000,000 bytes.
        |_| "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8\n".to_string(),
        281_250,
        ") e5 *\n",
    );
    let (games, peak) = check(BufReader::new(input));
    println!("18 MB variation: peak heap {:.1} MiB", mib(peak));
    assert_eq!(games, [(2, None)]);
    assert!(peak < LIMIT, "peak {:.1} MiB", mib(peak));
}

#[test]
fn an_endless_tag_stream() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // No blank line ever: one game that never ends. Cut at 256 MB, four
    // times the game size cap, so the reader passes every budget.
    // 20 bytes a line, 12,800,000 lines: 256,000,000 bytes.
    let input = Generated::new("", |n| format!("[T{n:012} \"x\"]\n"), 12_800_000, "");
    let (games, peak) = check(BufReader::new(input));
    println!(
        "endless tag stream (256 MB): peak heap {:.1} MiB, {} reports",
        mib(peak),
        games.len()
    );
    assert!(!games.is_empty());
    assert!(games.iter().all(|(_, e)| e.is_some()), "{games:?}");
    assert!(peak < LIMIT, "peak {:.1} MiB", mib(peak));
}
