//! The engine client: spawns an engine from an argv list, speaks UCCI or UCI to it with
//! typed messages in each direction, and measures every search itself.

mod bench;
mod from_engine;
mod io;
mod process;
mod protocol;
mod session;
mod spec;
mod to_engine;

use std::time::Duration;

use thiserror::Error;

pub use bench::bench_signature;
pub use from_engine::{FromEngine, Info, Score, UCCI_MATE_THRESHOLD};
pub use io::{Line, LineIo, MAX_LINE};
pub use protocol::{Coordinates, Protocol};
pub use session::{Answer, EngineSession, Thought};
pub use spec::{check_program, EngineSpec, Timeouts};
pub use to_engine::{GoClock, GoLimit, ToEngine};

/// What went wrong with an engine.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    #[error("cannot start `{command}`: {reason}")]
    Spawn { command: String, reason: String },
    #[error("the engine exited {when} ({status})")]
    Exited { when: String, status: String },
    #[error("{waiting_for} did not come in time")]
    Timeout { waiting_for: String },
    #[error("no bestmove even after stop ({waited:?} after go)")]
    NoAnswer { waited: Duration },
}
