//! Scheduling: the games of a run (pairs, openings, colours), workers that play them
//! concurrently on reused engines, and the coordinator that records results and stops
//! on SPRT verdicts, fault limits or Ctrl-C.

pub mod finished;
pub mod jobs;
pub mod shutdown;
pub mod tournament;
pub mod tracker;
pub mod worker;

pub use tournament::{run, RunError, RunMeta, RunOutcome};
