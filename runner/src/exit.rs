//! The exit codes of `xq-runner`, shared by every subcommand and by the runs that decide
//! them (see README, "Exit codes"). A module of its own, below the CLI and the schedule,
//! so that a run can say how it ended without knowing the command line.

/// Finished; for SPRT: H1 accepted; with a gate: passed.
pub const OK: u8 = 0;
/// SPRT H0 accepted, or the regression gate failed.
pub const H0: u8 = 1;
/// Bad config or usage; nothing was started.
pub const USAGE: u8 = 2;
/// Finished without a verdict.
pub const NO_VERDICT: u8 = 3;
/// Aborted: too many engine faults, or interrupted.
pub const ABORTED: u8 = 4;
