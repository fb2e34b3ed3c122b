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

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            startup: Duration::from_secs(10),
            ping: Duration::from_secs(10),
            stop_grace: Duration::from_millis(1000),
            quit_grace: Duration::from_millis(500),
            unclocked_move: Duration::from_secs(300),
        }
    }
}
