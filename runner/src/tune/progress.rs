//! The tune's progress bar: pairs done, the ETA and the current values, on a terminal
//! only (indicatif hides it otherwise). Without a terminal (a log file, nohup, a CI job,
//! systemd) a line instead, every `report_interval` pairs but at least every tenth of
//! the tune and at least once a minute: a tune runs for hours, and a log that stays empty
//! until its end (the shipped tune's interval is 50 pairs, longer than a tune of
//! `--pairs 40`) cannot be told from a hung one.

use std::cell::Cell;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::output::progress::duration_text;

/// The longest a tune without a terminal goes without a progress line.
const LINE_AT_LEAST_EVERY: Duration = Duration::from_secs(60);

/// The progress display of a tune.
#[derive(Debug)]
pub struct TuneProgress {
    bar: ProgressBar,
    /// Pairs between two lines without a terminal.
    interval: u64,
    /// When the last line was printed (or the tune started).
    last_line: Cell<Instant>,
    /// Pairs done when the display was made (a resumed tune's earlier ones): the ETA
    /// counts only this session's pace.
    done_before: u64,
}

/// Pairs between two progress lines: `report_interval`, but at least ten lines over the
/// tune's `total` pairs.
fn line_interval(total: u64, report_interval: u64) -> u64 {
    report_interval.min(total.div_ceil(10)).max(1)
}

impl TuneProgress {
    /// A bar over `total` pairs with `done` already played.
    #[must_use]
    pub fn new(total: u64, done: u64, interval: u64) -> TuneProgress {
        let bar = ProgressBar::new(total);
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} pairs, ETA {eta}  {msg}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_position(done);
        // The pairs of an earlier session say nothing about this one's speed.
        bar.reset_eta();
        TuneProgress {
            bar,
            interval: line_interval(total, interval),
            last_line: Cell::new(Instant::now()),
            done_before: done,
        }
    }

    /// One more pair, and theta now (`values` as `name value` pairs).
    pub fn pair_done(&self, done: u64, values: &str) {
        self.bar.inc(1);
        self.bar.set_message(values.to_owned());
        if !self.bar.is_hidden() {
            return;
        }
        let total = self.bar.length().unwrap_or(0);
        let since = self.last_line.get().elapsed();
        if done.is_multiple_of(self.interval) || since >= LINE_AT_LEAST_EVERY || done == total {
            self.last_line.set(Instant::now());
            crate::stdout::line(format_args!(
                "pair {done}/{total}{}: {values}",
                self.pace(done, total)
            ));
        }
    }

    /// `, 4m 10s, ETA 12m 30s` at this session's pace; empty before it has one.
    fn pace(&self, done: u64, total: u64) -> String {
        let elapsed = self.bar.elapsed();
        let played = done.saturating_sub(self.done_before);
        if played == 0 || elapsed.is_zero() {
            return String::new();
        }
        let left = elapsed.mul_f64(total.saturating_sub(done) as f64 / played as f64);
        format!(
            ", {} played, ETA {}",
            duration_text(elapsed),
            duration_text(left)
        )
    }

    /// Prints a line above the bar (or plainly when it is hidden).
    pub fn println(&self, text: &str) {
        if self.bar.is_hidden() {
            crate::stdout::line(text);
        } else {
            self.bar.println(text);
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

    #[test]
    fn a_line_every_interval_but_at_least_ten_over_the_tune() {
        // The shipped tune: 5,000 pairs, a line every 50.
        assert_eq!(line_interval(5000, 50), 50);
        // The same config with --pairs 40: every 4 pairs, not never.
        assert_eq!(line_interval(40, 50), 4);
        assert_eq!(line_interval(7, 50), 1);
        assert_eq!(line_interval(0, 50), 1);
        assert_eq!(line_interval(100, 0), 1);
    }
}
