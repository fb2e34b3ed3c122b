//! How a run ended, as its files record it: the status a user reads and the exit code.
//! What decides the ending (the SPRT, the gate, the fault limits) is
//! `schedule/ending.rs`; the outputs only write it, so the type lives down here.

use crate::exit;

/// How a run ended: the status a user reads and the exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub status: String,
    pub code: u8,
}

impl Ending {
    /// An ending with its status line and exit code.
    #[must_use]
    pub fn new(status: impl Into<String>, code: u8) -> Ending {
        Ending {
            status: status.into(),
            code,
        }
    }

    /// A run stopped by a signal (Ctrl-C, SIGTERM, SIGHUP): resumable.
    #[must_use]
    pub fn interrupted() -> Ending {
        Ending::new("interrupted", exit::ABORTED)
    }

    /// A run that could not go on (a journal write failed, a game could not start).
    #[must_use]
    pub fn aborted(why: &str) -> Ending {
        Ending::new(format!("aborted: {why}"), exit::ABORTED)
    }

    /// A shard that played all its pairs: the verdict comes at `merge`.
    #[must_use]
    pub fn shard_done(shard: crate::store::meta::Shard) -> Ending {
        Ending::new(
            format!("shard {shard} played (merge the shards for the run's result)"),
            exit::OK,
        )
    }

    /// Whether the run ended early and can be resumed.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.code == exit::ABORTED
    }
}
