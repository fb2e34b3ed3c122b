//! `[faults]`: how long an engine may take to answer, and how many faults abort a run.

use super::{defaults, duration};
use crate::client::Timeouts;
use crate::config::plan::{FaultLimits, Problem};
use crate::config::raw::RawFaults;

/// The engine timeouts (`quit_grace` is not configurable).
pub(super) fn timeouts(f: &RawFaults) -> Result<Timeouts, Problem> {
    let d = defaults::TIMEOUTS;
    Ok(Timeouts {
        startup: duration(
            "faults.startup_timeout",
            f.startup_timeout.as_ref(),
            d.startup,
        )?,
        ping: duration("faults.ping_timeout", f.ping_timeout.as_ref(), d.ping)?,
        stop_grace: duration("faults.stop_grace", f.stop_grace.as_ref(), d.stop_grace)?,
        quit_grace: d.quit_grace,
        unclocked_move: duration(
            "faults.move_timeout",
            f.move_timeout.as_ref(),
            d.unclocked_move,
        )?,
    })
}

/// The abort thresholds.
pub(super) fn limits(f: &RawFaults) -> FaultLimits {
    FaultLimits {
        max_crashes: f.max_crashes.unwrap_or(defaults::MAX_CRASHES),
        max_time_losses: f.max_time_losses.unwrap_or(defaults::MAX_TIME_LOSSES),
        max_illegal_moves: f.max_illegal_moves.unwrap_or(defaults::MAX_ILLEGAL_MOVES),
    }
}
