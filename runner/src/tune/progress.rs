//! The tune's progress bar: pairs done, the ETA and the current values, on a terminal
//! only (indicatif hides it otherwise); without a terminal a line every
//! `report_interval` pairs instead.

use indicatif::{ProgressBar, ProgressStyle};

/// The progress display of a tune.
#[derive(Debug)]
pub struct TuneProgress {
    bar: ProgressBar,
    interval: u64,
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
            interval: interval.max(1),
        }
    }

    /// One more pair, and theta now (`values` as `name value` pairs).
    pub fn pair_done(&self, done: u64, values: &str) {
        self.bar.inc(1);
        self.bar.set_message(values.to_owned());
        if self.bar.is_hidden() && done.is_multiple_of(self.interval) {
            crate::stdout::line(format_args!(
                "pair {done}/{}: {values}",
                self.bar.length().unwrap_or(0)
            ));
        }
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
