//! Server-authoritative chess clocks (issue 13 § Clocks), on the server's
//! monotonic clock ([`Instant`]).
//!
//! - Fischer increment: the mover's time used is charged when the move is
//!   accepted, then the increment is added.
//! - The clocks start with White's first move: no clock runs before it
//!   (so a game waiting for its players loses no time).
//! - While a choice is pending, the clock of the player the game waits
//!   for runs (for a choice for both, the mover's until the mover has
//!   answered, then the other's; `Game::clock_side`). It stops while the
//!   game is paused (a player with a pending choice gone in `no-timeout`
//!   mode).
//! - Restart: the remaining times are stored with every input; on a
//!   restart each clock resumes from its stored value less, for the side
//!   to move, the time it thought between its last input and the previous
//!   server's last record that it ran (`Store::last_alive`): the outage is
//!   charged to no one, the thinking before it is (issue 26 item 7).

use std::time::{Duration, Instant};

use houserules_engine::Color;
use serde::{Deserialize, Serialize};

/// A clock setting, from the creation request.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClockSpec {
    /// Each player's starting time in seconds (more than 0, at most
    /// 86,400; fractions allowed).
    #[schema(exclusive_minimum = 0.0, maximum = 86400.0)]
    pub initial_seconds: f64,
    /// Seconds added after each move (0 to 3,600).
    #[serde(default)]
    #[schema(minimum = 0.0, maximum = 3600.0)]
    pub increment_seconds: f64,
}

impl ClockSpec {
    /// Checks the ranges.
    ///
    /// # Errors
    /// `(JSON path, message)`.
    pub fn check(&self) -> Result<(), (String, String)> {
        if !(self.initial_seconds > 0.0 && self.initial_seconds <= 86_400.0) {
            return Err((
                "$.clock.initialSeconds".into(),
                format!(
                    "{} is not a time from more than 0 to 86400 seconds",
                    short(self.initial_seconds)
                ),
            ));
        }
        if !(self.increment_seconds >= 0.0 && self.increment_seconds <= 3_600.0) {
            return Err((
                "$.clock.incrementSeconds".into(),
                format!(
                    "{} is not an increment from 0 to 3600 seconds",
                    short(self.increment_seconds)
                ),
            ));
        }
        Ok(())
    }
}

/// A number of seconds as an error quotes it: as written when it is
/// short, else in exponent form (`1e300` was echoed with its 300 digits,
/// issue 26 item 9).
fn short(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() <= 16 {
        plain
    } else {
        format!("{x:e}")
    }
}

/// A running pair of clocks.
#[derive(Debug, Clone)]
pub struct Clock {
    /// Remaining milliseconds, White then Black, as of the last charge.
    remaining: [i64; 2],
    increment_ms: i64,
    /// The side whose clock runs, and since when.
    running: Option<(Color, Instant)>,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clock {
    /// New clocks at the spec's initial time.
    pub fn new(spec: &ClockSpec) -> Clock {
        let initial = (spec.initial_seconds * 1000.0).round() as i64;
        Clock {
            remaining: [initial, initial],
            increment_ms: (spec.increment_seconds * 1000.0).round() as i64,
            running: None,
        }
    }

    /// Sets the stored remaining times (on a rebuild).
    pub fn set(&mut self, white_ms: i64, black_ms: i64) {
        self.remaining = [white_ms, black_ms];
    }

    /// Remaining milliseconds of `c` at `now` (negative once flagged).
    pub fn remaining(&self, c: Color, now: Instant) -> i64 {
        let mut r = self.remaining[idx(c)];
        if let Some((side, since)) = self.running {
            if side == c {
                r -= now.saturating_duration_since(since).as_millis() as i64;
            }
        }
        r
    }

    /// Both stored remaining times (White, Black) at `now`.
    pub fn both(&self, now: Instant) -> (i64, i64) {
        (
            self.remaining(Color::White, now),
            self.remaining(Color::Black, now),
        )
    }

    /// Stops the running clock, charging its time used up to `now`.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.remaining[idx(side)] = self.remaining(side, now);
            self.running = None;
        }
    }

    /// Charges up to `now` and, when `moved` is the side that just
    /// completed a move, adds the increment to it.
    pub fn charge(&mut self, now: Instant, moved: Option<Color>) {
        self.stop(now);
        if let Some(c) = moved {
            self.remaining[idx(c)] += self.increment_ms;
        }
    }

    /// Starts `c`'s clock at `now` (after charging the one running).
    pub fn start(&mut self, c: Color, now: Instant) {
        self.stop(now);
        self.running = Some((c, now));
    }

    /// Starts `c`'s clock as of `since`, which may be later than `now`
    /// (after charging the one running up to `now`): until then it shows
    /// the same time and loses none (a clock held for a player's return
    /// after a restart or a take-over; `Timing::seat_return`).
    pub fn start_at(&mut self, c: Color, now: Instant, since: Instant) {
        self.stop(now);
        self.running = Some((c, since));
    }

    /// A clock started for a later moment (see [`Clock::start_at`]) runs
    /// from `now` if that is earlier.
    pub fn resume_by(&mut self, now: Instant) {
        if let Some((_, since)) = self.running.as_mut() {
            if *since > now {
                *since = now;
            }
        }
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// When the running side's time runs out.
    pub fn deadline(&self) -> Option<(Color, Instant)> {
        let (c, since) = self.running?;
        let left = self.remaining[idx(c)].max(0) as u64;
        Some((c, since + Duration::from_millis(left)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fischer_increment_is_added_after_the_charge() {
        // 60 s + 2 s: White thinks 5 s, so 60 - 5 + 2 = 57 s (hand count).
        let mut c = Clock::new(&ClockSpec {
            initial_seconds: 60.0,
            increment_seconds: 2.0,
        });
        let t0 = Instant::now();
        c.start(Color::White, t0);
        c.charge(t0 + Duration::from_secs(5), Some(Color::White));
        assert_eq!(c.both(t0 + Duration::from_secs(5)), (57_000, 60_000));
        c.start(Color::Black, t0 + Duration::from_secs(5));
        let (side, at) = c.deadline().unwrap();
        assert_eq!(side, Color::Black);
        assert_eq!(at, t0 + Duration::from_secs(65));
    }

    /// A clock started for a later moment loses nothing until then, runs
    /// from then by itself, and from the moment it is resumed if that
    /// comes first; its flag falls its remaining time after its start.
    #[test]
    fn a_clock_held_until_later_loses_nothing_until_then() {
        let spec = ClockSpec {
            initial_seconds: 10.0,
            increment_seconds: 0.0,
        };
        let t0 = Instant::now();
        let s = |ms: u64| t0 + Duration::from_millis(ms);
        let mut c = Clock::new(&spec);
        c.start_at(Color::White, t0, s(3_000));
        assert_eq!(c.remaining(Color::White, s(2_000)), 10_000);
        assert_eq!(c.remaining(Color::White, s(4_000)), 9_000);
        assert_eq!(c.deadline(), Some((Color::White, s(13_000))));
        c.resume_by(s(1_000));
        assert_eq!(c.remaining(Color::White, s(4_000)), 7_000);
        assert_eq!(c.deadline(), Some((Color::White, s(11_000))));
        // Resuming later than the start changes nothing.
        c.resume_by(s(5_000));
        assert_eq!(c.remaining(Color::White, s(4_000)), 7_000);
        // A move charges from the start: 10,000 - (2,000 - 1,000).
        c.start(Color::Black, s(2_000));
        assert_eq!(c.remaining(Color::White, s(9_000)), 9_000);
    }

    #[test]
    fn bad_specs_name_their_field() {
        let bad = ClockSpec {
            initial_seconds: 0.0,
            increment_seconds: 0.0,
        };
        assert_eq!(bad.check().unwrap_err().0, "$.clock.initialSeconds");
        let bad = ClockSpec {
            initial_seconds: 10.0,
            increment_seconds: -1.0,
        };
        assert_eq!(bad.check().unwrap_err().0, "$.clock.incrementSeconds");
    }

    /// A huge or long number is quoted in exponent form, a usual one as
    /// written (issue 26 item 9: `1e300` came back with its 300 digits).
    #[test]
    fn out_of_range_times_are_quoted_short() {
        let spec = |i: f64, inc: f64| ClockSpec {
            initial_seconds: i,
            increment_seconds: inc,
        };
        let (path, msg) = spec(1e300, 0.0).check().unwrap_err();
        assert_eq!(path, "$.clock.initialSeconds");
        assert_eq!(msg, "1e300 is not a time from more than 0 to 86400 seconds");
        let (_, msg) = spec(60.0, -123_456_789_012_345_680.0).check().unwrap_err();
        assert_eq!(
            msg,
            "-1.2345678901234568e17 is not an increment from 0 to 3600 seconds"
        );
        let (_, msg) = spec(0.0, 0.0).check().unwrap_err();
        assert_eq!(msg, "0 is not a time from more than 0 to 86400 seconds");
        let (_, msg) = spec(86_400.5, 0.0).check().unwrap_err();
        assert_eq!(
            msg,
            "86400.5 is not a time from more than 0 to 86400 seconds"
        );
    }
}
