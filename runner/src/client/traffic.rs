//! The engine traffic log (`xq-runner run --log FILE`, fastchess's `-log file=...
//! engine=true`): every line to and from every engine, with the time and the engine,
//! in plain text (never colour codes).
//!
//! ```text
//! 2025-12-01T10:36:12.123456Z level6#4711 > go depth 4
//! 2025-12-01T10:36:12.125012Z level6#4711 < bestmove h2e2
//! 2025-12-01T10:36:12.125100Z level6#4711 ! a line the engine wrote on stderr
//! 2025-12-01T10:36:12.130000Z level6#4711 * exited (exit status: 0)
//! ```
//! The engine is named as in the config, with its process id (two games of a run can
//! play the same engine at once). The log is process-wide, like `tracing`'s subscriber:
//! it is opened once, before any engine starts.

use std::fs::File;
use std::io::{LineWriter, Write};
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};

/// Which way a line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Runner to engine (`>`).
    ToEngine,
    /// Engine stdout to runner (`<`).
    FromEngine,
    /// Engine stderr (`!`).
    Stderr,
    /// What the runner did or saw: start, exit, kill (`*`).
    Event,
}

impl Direction {
    fn mark(self) -> char {
        match self {
            Direction::ToEngine => '>',
            Direction::FromEngine => '<',
            Direction::Stderr => '!',
            Direction::Event => '*',
        }
    }
}

static LOG: OnceLock<Mutex<LineWriter<File>>> = OnceLock::new();

/// Opens (creates or truncates) the traffic log. A second call keeps the first file.
///
/// # Errors
/// The file cannot be created.
pub fn open(path: &Path) -> std::io::Result<()> {
    let file = File::create(path)?;
    let _ = LOG.set(Mutex::new(LineWriter::new(file)));
    Ok(())
}

/// Writes one line to the log, if one is open. Write errors are ignored: a full disk
/// must not stop the games.
pub fn record(engine: &str, direction: Direction, line: &str) {
    let Some(log) = LOG.get() else { return };
    let mut stamp = String::with_capacity(32);
    let _ = SystemTime.format_time(&mut Writer::new(&mut stamp));
    let Ok(mut file) = log.lock() else { return };
    let _ = writeln!(file, "{stamp} {engine} {} {line}", direction.mark());
}
