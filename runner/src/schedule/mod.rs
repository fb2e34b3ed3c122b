//! Scheduling a local run: workers that play pairs concurrently on reused engines, the
//! coordinator that writes every finished game to the journal, keeps the counts and
//! stops on SPRT verdicts, fault limits or a signal, and the checks before a run starts.
//!
//! | file | what |
//! |---|---|
//! | `engines.rs` | one worker's engines, and one game played on them (shared with distributed runs) |
//! | `worker.rs` | a local worker: pairs from the queue, games to the coordinator |
//! | `folder.rs` | the output folder: a new run, a resume, an extension; the checks before anything starts |
//! | `own_files.rs` | the files a run owns, which `output.pgnout` may not name |
//! | `ending.rs` | how a run ends: verdicts, the gate, fault limits |
//! | `preflight.rs` | every engine started once before a run: a bad command stops it, unknown options are warned of |
//! | `tournament.rs` | the coordinator |

pub mod ending;
pub mod engines;
pub mod errors;
pub mod folder;
pub mod folder_lock;
pub mod own_files;
pub mod preflight;
pub mod tournament;
pub mod worker;

pub use crate::store::ending::Ending;
pub use tournament::{run, RunError, RunOutcome, Start};

/// Whether workers may go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Running,
    /// Start nothing more and drop the games in progress at once (they are not recorded;
    /// their engines are killed): an SPRT verdict, a fault limit, a signal.
    Stopping,
}
