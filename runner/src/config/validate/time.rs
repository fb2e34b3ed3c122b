//! `[time]` (and an engine's own `time`): exactly one limit, and the margin. A clock may
//! carry a depth too (`tc` with `depth`, as fastchess's `tc=` with `depth=`): the clock
//! stays the limit, the depth a cap on each search sent with it.

use std::time::Duration;

use super::choice::choice;
use super::{defaults, duration, problem};
use crate::config::plan::Problem;
use crate::config::raw::RawTime;
use crate::game::{parse_duration, MarginMode, TimeControl};

/// Exactly one limit of a `[time]` table at `key`, or none.
pub(super) fn control(key: &str, time: &RawTime) -> Result<Option<TimeControl>, Problem> {
    let mut found = Vec::new();
    if let Some(tc) = &time.tc {
        let tc = TimeControl::parse(tc).map_err(|e| problem(format!("{key}.tc"), e.to_string()))?;
        if !matches!(tc, TimeControl::Clock { .. }) {
            return Err(problem(
                format!("{key}.tc"),
                "a clock like 10+0.1 or 40/60; use movetime for a time per move",
            ));
        }
        found.push(tc);
    }
    if let Some(t) = &time.movetime {
        found.push(TimeControl::MoveTime(
            parse_duration(t).map_err(|e| problem(format!("{key}.movetime"), e.to_string()))?,
        ));
    }
    if let Some(d) = time.depth {
        if d == 0 || d > defaults::MAX_DEPTH {
            return Err(problem(
                format!("{key}.depth"),
                format!("depth must be 1..{}", defaults::MAX_DEPTH),
            ));
        }
        found.push(TimeControl::Depth(d));
    }
    if let Some(n) = time.nodes {
        if n == 0 {
            return Err(problem(format!("{key}.nodes"), "nodes must be at least 1"));
        }
        found.push(TimeControl::Nodes(n));
    }
    match found.as_slice() {
        [] => Ok(None),
        [one] | [one @ TimeControl::Clock { .. }, TimeControl::Depth(_)] => Ok(Some(*one)),
        _ => Err(problem(
            key,
            "set only one of tc, movetime, depth, nodes (or tc with depth)",
        )),
    }
}

/// The depth a clocked search stops at: `depth` beside `tc` (checked by [`control`]).
pub(super) fn depth_cap(time: &RawTime) -> Option<u32> {
    time.tc.as_ref().and(time.depth)
}

/// `time.margin`.
pub(super) fn margin(time: &RawTime) -> Result<Duration, Problem> {
    duration("time.margin", time.margin.as_ref(), defaults::TIME_MARGIN)
}

/// `time.margin_mode`.
pub(super) fn margin_mode(time: &RawTime) -> Result<MarginMode, Problem> {
    choice(
        "time.margin_mode",
        time.margin_mode.as_deref(),
        defaults::MARGIN_MODE,
        &MarginMode::NAMES,
        "clamp or cumulative",
    )
}
