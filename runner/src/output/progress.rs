//! The progress bar: games done, Elo ± and LLR, on a terminal only (indicatif hides it
//! otherwise, so logs and CI output stay clean).

use indicatif::{ProgressBar, ProgressStyle};

/// A progress display.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar over `total` games with `done` already played.
    #[must_use]
    pub fn new(total: u64, done: u64) -> Progress {
        let bar = ProgressBar::new(total);
        if let Ok(style) =
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_position(done);
        Progress { bar }
    }

    /// Whether the bar is drawn (stderr is a terminal).
    #[must_use]
    pub fn visible(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// One more game, and the current estimate.
    pub fn game_done(&self, message: String) {
        self.bar.inc(1);
        self.bar.set_message(message);
    }

    /// Prints lines above the bar (or plainly when it is hidden).
    pub fn println(&self, text: &str) {
        if self.visible() {
            for line in text.lines() {
                self.bar.println(line);
            }
        } else {
            println!("{}", text.trim_end());
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
