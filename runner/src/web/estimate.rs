//! What is left of an open run, estimated for its page. With an SPRT: the games to a
//! bound at the LLR's drift so far, the LLR per game (its value over the games played,
//! the test starting at 0) carried on in a straight line to the bound it moves towards;
//! without one, the pairs left. Either way the time at the workers' current pace (the
//! games a second of those heard from lately). A straight line is what the expected LLR
//! does under a fixed Elo difference; the real path wanders about it, so this says
//! roughly how far, not when.

use super::listing::ONLINE_WITHIN_S;
use super::pages::age;
use crate::fleet::status::{Status, WorkerLine};

/// How the page says the estimate is made.
pub(crate) const METHOD: &str = "Left: for an SPRT, the games to the bound the LLR \
     moves towards, at its drift so far (LLR per game, carried on in a straight line); \
     otherwise the pairs left. The time is at the current pace of the workers heard from \
     in the last minute.";

/// The estimate: the figure's value and the line under it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Left {
    pub value: String,
    pub sub: String,
}

/// The games a second of the workers heard from lately.
pub(crate) fn pace(workers: &[WorkerLine]) -> f64 {
    workers
        .iter()
        .filter(|w| w.last_seen_s_ago.is_some_and(|s| s < ONLINE_WITHIN_S))
        .map(|w| w.games_per_s)
        .filter(|g| g.is_finite() && *g > 0.0)
        .sum()
}

/// `, about 12 min at 3.10 games/s`, or nothing without a pace.
fn time_at(games: f64, games_per_s: f64) -> String {
    if games_per_s > 0.0 && games.is_finite() {
        format!(
            ", about {} at {games_per_s:.2} games/s",
            age(games / games_per_s)
        )
    } else {
        ", no worker playing".to_owned()
    }
}

/// The games to the nearer bound in the drift's direction: `(games, "H1")`; `None`
/// before any game or without drift.
pub(crate) fn games_to_bound(
    llr: f64,
    lower: f64,
    upper: f64,
    games: u64,
) -> Option<(f64, &'static str)> {
    if games == 0 || !llr.is_finite() || llr == 0.0 {
        return None;
    }
    let drift = llr / games as f64;
    let (distance, bound) = if drift > 0.0 {
        (upper - llr, "H1")
    } else {
        (lower - llr, "H0")
    };
    Some(((distance / drift).max(0.0), bound))
}

/// What is left of open run `s`; `None` once it ended.
pub(crate) fn left(s: &Status) -> Option<Left> {
    if s.state != "open" {
        return None;
    }
    let pace = pace(&s.workers);
    let pairs_left = s.pairs_total.saturating_sub(s.pairs);
    let sprt = match (s.llr, s.llr_lower, s.llr_upper) {
        (Some(llr), Some(lo), Some(hi)) => Some((llr, lo, hi)),
        _ => None,
    };
    Some(match sprt {
        Some((llr, lo, hi)) => match games_to_bound(llr, lo, hi, s.games) {
            // Past the run's last pair: it ends there first.
            Some((games, _)) if games > (pairs_left * 2) as f64 => Left {
                value: format!("{pairs_left} pairs"),
                sub: format!(
                    "the run ends before a bound at this drift{}",
                    time_at((pairs_left * 2) as f64, pace)
                ),
            },
            Some((games, bound)) => Left {
                value: format!("~{:.0} games", games.ceil()),
                sub: format!(
                    "to {bound} at {:+.4} LLR a game{}",
                    llr / s.games as f64,
                    time_at(games, pace)
                ),
            },
            None => Left {
                value: "n/a".to_owned(),
                sub: format!("no drift yet; {pairs_left} pairs left"),
            },
        },
        None => Left {
            value: format!("{pairs_left} pairs"),
            sub: format!(
                "of {}{}",
                s.pairs_total,
                time_at((pairs_left * 2) as f64, pace)
            ),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drift_is_carried_to_the_bound_it_moves_towards() {
        // +1.0 after 100 games: 0.01 a game, 1.94 more to 2.94 is 194 games.
        let (games, bound) = games_to_bound(1.0, -2.94, 2.94, 100).expect("a drift");
        assert!((games - 194.0).abs() < 1e-9, "{games}");
        assert_eq!(bound, "H1");
        // -0.5 after 50 games: -0.01 a game, 2.44 more to -2.94.
        let (games, bound) = games_to_bound(-0.5, -2.94, 2.94, 50).expect("a drift");
        assert!((games - 244.0).abs() < 1e-9, "{games}");
        assert_eq!(bound, "H0");
        assert_eq!(games_to_bound(0.0, -2.94, 2.94, 50), None);
        assert_eq!(games_to_bound(0.3, -2.94, 2.94, 0), None);
    }

    #[test]
    fn the_time_is_at_the_pace_of_the_workers_heard_from() {
        assert_eq!(time_at(600.0, 2.0), ", about 5 min at 2.00 games/s");
        assert_eq!(time_at(600.0, 0.0), ", no worker playing");
    }
}
