//! What the runner needs to know to start and talk to an engine.

use std::path::PathBuf;
use std::time::Duration;

use super::protocol::{Coordinates, Protocol};

/// How to start one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in results and logs.
    pub name: String,
    /// Program and arguments, run directly (never through a shell).
    pub command: Vec<String>,
    pub working_dir: Option<PathBuf>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    pub protocol: Protocol,
    pub coordinates: Coordinates,
    /// Options set after the handshake, in order.
    pub options: Vec<(String, String)>,
}

/// How long the runner waits for an engine outside of its thinking time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// From start to `ucciok`/`uciok`, and for the first `readyok`.
    pub startup: Duration,
    /// For `readyok` after `isready` between games.
    pub ping: Duration,
    /// After `stop`, for the `bestmove` that must follow.
    pub stop_grace: Duration,
    /// After `quit`, before the process is killed.
    pub quit_grace: Duration,
    /// A search without a clock (depth, nodes) that takes longer than this is a stall.
    pub unclocked_move: Duration,
}

impl Timeouts {
    /// The defaults, as a constant for the config's table of defaults.
    pub const DEFAULT: Timeouts = Timeouts {
        startup: Duration::from_secs(10),
        ping: Duration::from_secs(10),
        stop_grace: Duration::from_millis(1000),
        quit_grace: Duration::from_millis(500),
        unclocked_move: Duration::from_secs(300),
    };
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts::DEFAULT
    }
}

/// Checks, without starting it, that an engine's program is an executable file: a path
/// (relative to the engine's `dir` when it has one) or a name found on `PATH`.
///
/// # Errors
/// One line saying what is wrong with the program.
pub fn check_program(spec: &EngineSpec) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt as _;
    let Some(program) = spec.command.first() else {
        return Err("the command is empty".to_owned());
    };
    let candidates: Vec<PathBuf> = if program.contains('/') {
        let path = PathBuf::from(program);
        vec![match (&spec.working_dir, path.is_relative()) {
            (Some(dir), true) => dir.join(path),
            _ => path,
        }]
    } else {
        std::env::var_os("PATH")
            .map(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join(program))
                    .collect()
            })
            .unwrap_or_default()
    };
    let executable = |p: &PathBuf| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if candidates.iter().any(executable) {
        return Ok(());
    }
    match candidates.first() {
        Some(p) if program.contains('/') && p.is_dir() => {
            Err(format!("{} is a folder, not a program", p.display()))
        }
        Some(p) if program.contains('/') && p.exists() => {
            Err(format!("{} is not executable", p.display()))
        }
        Some(p) if program.contains('/') => Err(format!("{} does not exist", p.display())),
        _ => Err(format!("`{program}` is not an executable file on PATH")),
    }
}
