//! The progress bar: games done over the terminal's width, Elo ± and LLR, and how long
//! the rest should take, on a terminal only (indicatif hides it otherwise, so logs and
//! CI output stay clean).
//!
//! Two lines: the bar fills the width of the terminal (`{wide_bar}`), the estimate
//! under it is cut to that width (`{wide_msg}`), so a narrow terminal never wraps a
//! line and leaves stale copies of the bar behind.
//!
//! The time left is the games left at the rate of this session (games finished since
//! the bar was made over the time since then; a resumed run's earlier games do not
//! count, they took no time here). With an SPRT the run usually stops before its last
//! pair, so the bar gives the pairs to the bound the LLR is heading for at its slope so
//! far, labelled as an estimate, and the time to the last pair as the most it can take.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::stats::{Sprt, Tally};

/// Fewer complete pairs than this give an LLR slope too noisy to extrapolate.
pub const MIN_PAIRS_FOR_ESTIMATE: u64 = 10;

/// Where an SPRT stands after a game: the LLR, its bounds, and the complete pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtPace {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub pairs: u64,
}

impl SprtPace {
    /// The state of the first pairing's counts under the run's SPRT; `None` without one.
    #[must_use]
    pub fn of(tally: &Tally, sprt: Option<&Sprt>) -> Option<SprtPace> {
        let sprt = sprt?;
        Some(SprtPace {
            llr: sprt.llr(&tally.penta).ok()?,
            lower: sprt.lower_bound(),
            upper: sprt.upper_bound(),
            pairs: tally.penta.pairs(),
        })
    }

    /// Pairs until the LLR reaches the bound it is heading for, at its mean slope so
    /// far (it starts at 0), and whether that bound is H1's. `None` with too few pairs or
    /// no slope.
    #[must_use]
    pub fn pairs_to_bound(&self) -> Option<(u64, bool)> {
        if self.pairs < MIN_PAIRS_FOR_ESTIMATE || !self.llr.is_finite() {
            return None;
        }
        let slope = self.llr / self.pairs as f64;
        if slope == 0.0 {
            return None;
        }
        let (bound, h1) = if slope > 0.0 {
            (self.upper, true)
        } else {
            (self.lower, false)
        };
        // Less a hair, so a whole number of pairs is not rounded up by float noise.
        let pairs = ((bound - self.llr) / slope - 1e-9).ceil().max(0.0);
        // Beyond any run: no estimate worth printing.
        (pairs < 1e12).then_some((pairs as u64, h1))
    }
}

/// `42 s`, `3m 05s`, `2h 07m`, `3d 04h`.
#[must_use]
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s} s"),
        60..=3_599 => format!("{}m {:02}s", s / 60, s % 60),
        3_600..=86_399 => format!("{}h {:02}m", s / 3_600, s % 3_600 / 60),
        _ => format!("{}d {:02}h", s / 86_400, s % 86_400 / 3_600),
    }
}

/// The time-left part of the bar: `ETA 4m 10s`, or with an SPRT `est. 480 pairs to H1
/// at the current LLR slope (~4m 00s), at most 12m 30s`. `played` games took `elapsed`
/// in this session; `games_left` games remain at most. Empty before the first game of
/// the session (no rate yet).
#[must_use]
pub fn eta_text(
    played: u64,
    elapsed: Duration,
    games_left: u64,
    sprt: Option<&SprtPace>,
) -> String {
    if played == 0 || elapsed.is_zero() {
        return String::new();
    }
    let per_game = elapsed.as_secs_f64() / played as f64;
    let time_for = |games: u64| duration_text(Duration::from_secs_f64(per_game * games as f64));
    let Some(pace) = sprt else {
        return format!("ETA {}", time_for(games_left));
    };
    let most = format!("at most {}", time_for(games_left));
    match pace.pairs_to_bound() {
        Some((pairs, h1)) if pairs.saturating_mul(2) <= games_left => format!(
            "est. {pairs} pairs to {} at the current LLR slope (~{}), {most}",
            if h1 { "H1" } else { "H0" },
            time_for(pairs.saturating_mul(2))
        ),
        Some(_) => format!("no SPRT bound at the current LLR slope, {most}"),
        None => most,
    }
}

/// A progress display.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    /// Games done when the bar was made (a resumed run's earlier games).
    done_before: u64,
}

impl Progress {
    /// A bar over `total` games with `done` already played.
    #[must_use]
    pub fn new(total: u64, done: u64) -> Progress {
        let bar = ProgressBar::new(total);
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} games\n{wide_msg}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_position(done);
        Progress {
            bar,
            started: Instant::now(),
            done_before: done,
        }
    }

    /// Whether the bar is drawn (stderr is a terminal).
    #[must_use]
    pub fn visible(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// One more game: the current estimate (`message`) and the time left, with the
    /// SPRT's state for its estimate (see [`eta_text`]).
    pub fn game_done(&self, message: String, sprt: Option<SprtPace>) {
        self.bar.inc(1);
        let done = self.bar.position();
        let left = self.bar.length().unwrap_or(done).saturating_sub(done);
        let played = done.saturating_sub(self.done_before);
        let eta = eta_text(played, self.started.elapsed(), left, sprt.as_ref());
        if eta.is_empty() {
            self.bar.set_message(message);
        } else {
            self.bar.set_message(format!("{message}  |  {eta}"));
        }
    }

    /// Prints lines above the bar (or plainly when it is hidden).
    pub fn println(&self, text: &str) {
        if self.visible() {
            for line in text.lines() {
                self.bar.println(line);
            }
        } else {
            crate::stdout::line(text.trim_end());
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pace(llr: f64, pairs: u64) -> SprtPace {
        SprtPace {
            llr,
            lower: -2.94,
            upper: 2.94,
            pairs,
        }
    }

    #[test]
    fn durations_read_at_a_glance() {
        assert_eq!(duration_text(Duration::from_secs(42)), "42 s");
        assert_eq!(duration_text(Duration::from_secs(185)), "3m 05s");
        assert_eq!(duration_text(Duration::from_secs(7_620)), "2h 07m");
        assert_eq!(duration_text(Duration::from_secs(273_600)), "3d 04h");
    }

    #[test]
    fn without_sprt_the_games_left_at_the_current_rate() {
        // 20 games in 40 s: 2 s a game, 130 left.
        let text = eta_text(20, Duration::from_secs(40), 130, None);
        assert_eq!(text, "ETA 4m 20s");
        assert_eq!(eta_text(0, Duration::from_secs(40), 130, None), "");
    }

    #[test]
    fn with_sprt_the_pairs_to_the_bound_at_the_llr_slope() {
        // 1.47 after 50 pairs: 0.0294 a pair, 50 more pairs to 2.94.
        let p = pace(1.47, 50);
        assert_eq!(p.pairs_to_bound(), Some((50, true)));
        let text = eta_text(100, Duration::from_secs(100), 900, Some(&p));
        assert_eq!(
            text,
            "est. 50 pairs to H1 at the current LLR slope (~1m 40s), at most 15m 00s"
        );
        let falling = pace(-0.98, 20);
        assert_eq!(falling.pairs_to_bound(), Some((40, false)));
    }

    #[test]
    fn with_sprt_no_estimate_from_few_pairs_or_beyond_the_last_pair() {
        let early = pace(1.0, MIN_PAIRS_FOR_ESTIMATE - 1);
        assert_eq!(early.pairs_to_bound(), None);
        let text = eta_text(10, Duration::from_secs(10), 60, Some(&early));
        assert_eq!(text, "at most 1m 00s");
        // 0.01 a pair: 284 pairs to go, but only 30 are left.
        let slow = pace(0.1, 10);
        let text = eta_text(10, Duration::from_secs(10), 60, Some(&slow));
        assert_eq!(
            text,
            "no SPRT bound at the current LLR slope, at most 1m 00s"
        );
        assert_eq!(pace(0.0, 40).pairs_to_bound(), None);
    }
}
