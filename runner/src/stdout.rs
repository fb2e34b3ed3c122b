//! Printing to stdout that survives a reader who leaves (`xq-runner run | head -3`).
//!
//! Rust ignores SIGPIPE, so a write to a pipe whose reader is gone fails with EPIPE,
//! and `println!` panics on that (exit 101, a backtrace, a run that never writes its
//! summary). Here the first EPIPE is a request to stop, as SIGPIPE is for most
//! programs and SIGTERM is for the runner ([`crate::signals`] waits for it beside the
//! signals): a run stops cleanly, its outputs written, and exits 4. Whatever is printed
//! after goes nowhere. Another error (a full disk under `> log`) stops the printing
//! with one warning, not the run.
//!
//! ```text
//! stdout::line(format_args!("Finished game {}", 7));
//! ```

use std::fmt::Display;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

/// Nothing is printed any more.
static CLOSED: AtomicBool = AtomicBool::new(false);
/// Set when a write met EPIPE: the reader left.
static READER_GONE: AtomicBool = AtomicBool::new(false);
/// Wakes whoever waits in [`reader_gone`].
static GONE: Notify = Notify::const_new();

/// Prints `text` and a newline to stdout; after a failed write, nothing.
pub fn line(text: impl Display) {
    if CLOSED.load(Ordering::Acquire) {
        return;
    }
    // Stdout is line-buffered: the line reaches the pipe (or fails) here.
    let written = writeln!(std::io::stdout().lock(), "{text}");
    if let Err(e) = written {
        if CLOSED.swap(true, Ordering::AcqRel) {
            return;
        }
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            READER_GONE.store(true, Ordering::Release);
            GONE.notify_waiters();
        } else {
            // Not eprintln!: stderr may be the same broken file.
            let _ = writeln!(
                std::io::stderr(),
                "warning: cannot print to stdout ({e}); printing stops, the run goes on"
            );
        }
    }
}

/// Whether stdout's reader has left (a write met EPIPE).
#[must_use]
pub fn is_reader_gone() -> bool {
    READER_GONE.load(Ordering::Acquire)
}

/// Returns once stdout's reader has left (at once if it has).
pub async fn reader_gone() {
    loop {
        let notified = GONE.notified();
        tokio::pin!(notified);
        // Registered before the check: a notice between the two is not lost.
        notified.as_mut().enable();
        if is_reader_gone() {
            return;
        }
        notified.await;
    }
}
