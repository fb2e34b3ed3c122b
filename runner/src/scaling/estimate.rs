//! The time a point will take, estimated before it plays: a clock is taken as used in
//! full by both engines over a game of [`PLIES`] plies, so a 60+0.6 point costs thirty
//! times a 2+0.02 point; a fixed depth or node count has no clock to go by (`None`).

use std::time::Duration;

use crate::config::Plan;
use crate::game::TimeControl;

/// The length of a game the estimate assumes, in plies (both sides).
pub const PLIES: u32 = 120;

/// The seconds one side's clock gives it in a game of [`PLIES`] plies.
#[must_use]
pub fn side_seconds(moves: Option<u32>, base: Duration, increment: Duration) -> f64 {
    let own_moves = PLIES / 2;
    let periods = moves.map_or(1, |m| own_moves.div_ceil(m.max(1)));
    base.as_secs_f64() * f64::from(periods) + increment.as_secs_f64() * f64::from(own_moves)
}

/// The seconds a game takes at most (both engines' clocks), if its limits have clocks.
#[must_use]
pub fn game_seconds(plan: &Plan) -> Option<f64> {
    let mut total = 0.0;
    // A game is two engines: in a gauntlet or round robin the first two stand for all.
    for engine in plan.engines.iter().take(2) {
        total += match engine.time_control {
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => side_seconds(moves, base, increment),
            TimeControl::MoveTime(t) => t.as_secs_f64() * f64::from(PLIES / 2),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => return None,
        };
    }
    Some(total)
}

/// The wall time a point's games take at most, at its concurrency.
#[must_use]
pub fn point_seconds(plan: &Plan) -> Option<f64> {
    let games = plan.pairs as f64 * plan.pairings.len() as f64 * 2.0;
    game_seconds(plan).map(|g| g * games / plan.concurrency.max(1) as f64)
}

/// A duration in words: `45 s`, `12 min`, `3.5 h`, `2.1 days`.
#[must_use]
pub fn words(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else if seconds < 172_800.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else {
        format!("{:.1} days", seconds / 86_400.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_clock_costs_thirty_short_ones() {
        let side = |b: f64, i: f64| {
            side_seconds(None, Duration::from_secs_f64(b), Duration::from_secs_f64(i))
        };
        let ratio = side(60.0, 0.6) / side(2.0, 0.02);
        assert!((ratio - 30.0).abs() < 1e-9, "{ratio}");
        assert!((side(10.0, 0.1) - 16.0).abs() < 1e-9);
        // 40 moves in 60 s: two periods in a game of 60 moves a side.
        let periods = side_seconds(Some(40), Duration::from_secs(60), Duration::ZERO);
        assert!((periods - 120.0).abs() < 1e-9);
    }

    #[test]
    fn words_fit_the_size() {
        assert_eq!(words(45.0), "45 s");
        assert_eq!(words(720.0), "12 min");
        assert_eq!(words(12_600.0), "3.5 h");
        assert_eq!(words(259_200.0), "3.0 days");
    }
}
