//! The engine client: spawns an engine from an argv list, speaks UCCI or UCI to it with
//! typed messages in each direction, and measures every search itself.

pub(crate) mod affinity;
mod bench;
mod from_engine;
mod hint;
mod io;
mod lifetime;
mod options;
mod process;
mod protocol;
mod session;
mod spec;
mod stderr;
mod sweep;
mod to_engine;
pub(crate) mod traffic;

use std::time::Duration;

use thiserror::Error;

pub(crate) use bench::bench_signature;
pub use from_engine::Score;
pub(crate) use lifetime::kill_all as kill_all_engines;
pub use protocol::{Coordinates, Protocol};
pub(crate) use session::Answer;
pub use session::EngineSession;
pub(crate) use spec::check_program;
pub use spec::{EngineSpec, Timeouts};
pub(crate) use to_engine::GoClock;
pub use to_engine::GoLimit;

/// What went wrong with an engine.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    #[error("cannot start `{command}`: {reason}")]
    Spawn { command: String, reason: String },
    #[error("the engine exited {when} ({status}){context}")]
    Exited {
        when: String,
        status: String,
        /// What it printed and advice, when it exited during the handshake.
        context: String,
    },
    /// An answer outside a search did not come in time; `key` is the config key of
    /// the timeout (`faults.startup_timeout`, `faults.ping_timeout`).
    #[error("{waiting_for} did not come within {} ({key}){context}", show(.after))]
    Timeout {
        waiting_for: String,
        key: &'static str,
        after: Duration,
        /// What the engine printed and what to do, when there is something to say.
        context: String,
    },
    #[error("no bestmove even after stop ({waited:?} after go)")]
    NoAnswer { waited: Duration },
    /// The engine broke the protocol: a line too long to be a message, or a handshake
    /// in the other protocol.
    #[error("protocol error: {0}")]
    Protocol(String),
}

/// A duration as the config writes it: `10s`, `500ms`.
fn show(d: &Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}
