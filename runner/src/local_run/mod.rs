//! A local run: the coordinator that queues the run's pairs on the slot pool
//! (`crate::play`), writes every finished game to the journal, keeps the counts and
//! stops on SPRT verdicts, fault limits or a signal, and the checks before a run starts.
//!
//! | file | what |
//! |---|---|
//! | `own_files.rs` | the files a run owns, which `output.pgnout` may not name |
//! | `ending.rs` | how a run ends: verdicts, the gate, fault limits |
//! | `folder_check.rs` | a folder's journal checked as a resume checks it, for `report DIR` |
//! | `preflight.rs` | every engine started once before a run: a bad command stops it, unknown options are warned of |
//! | `tournament.rs` | the coordinator |

pub(crate) mod ending;
pub(crate) mod errors;
pub(crate) mod folder_check;
pub(crate) mod own_files;
pub(crate) mod preflight;
pub(crate) mod tournament;

pub use tournament::{run, Part, Start};
