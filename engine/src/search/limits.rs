//! What bounds a search (depth, nodes, time), the shared stop/ponder control, and the
//! time allocation from a clock.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::params::{
    DEFAULT_MOVES_TO_GO, HARD_BUDGET_FACTOR, INCREMENT_SHARE, LAST_MOVE_CAP, MAX_MOVES_TO_GO,
    MOVETIME_OVERHEAD_DIVISOR, MOVE_CAP, MOVE_OVERHEAD,
};

/// Time left on the engine's clock for the rest of the game or the period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    pub time_left: Duration,
    pub increment: Duration,
    /// Moves until the next time control, if the period has one.
    pub moves_to_go: Option<u32>,
}

/// The limits of one `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<ClockReading>,
    /// Search until told to stop (`go infinite`, `go depth infinite`).
    pub infinite: bool,
    /// Ponder: search without a time limit until `ponderhit` (then the clock applies) or `stop`.
    pub ponder: bool,
}

/// A soft budget (do not start another iteration beyond it) and a hard one (abort the
/// search at it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
    /// A fixed time per move (`movetime`): use all of it rather than stopping early.
    pub fixed: bool,
}

impl Limits {
    /// Whether the search ends without a `stop`: it is neither infinite nor pondering,
    /// and a depth, node count or time bounds it (a `go` with none of them runs until
    /// stopped, like `go infinite`).
    #[must_use]
    pub fn ends_by_itself(&self) -> bool {
        let limited = self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.clock.is_some();
        limited && !self.infinite && !self.ponder
    }

    /// The time budget, if time limits the search at all (the formulas are in
    /// `params.rs`, from [`MOVE_OVERHEAD`] on).
    #[must_use]
    pub fn budget(&self) -> Option<Budget> {
        if let Some(movetime) = self.movetime {
            let t = movetime
                .saturating_sub(MOVE_OVERHEAD / MOVETIME_OVERHEAD_DIVISOR)
                .max(Duration::from_millis(1));
            return Some(Budget {
                soft: t,
                hard: t,
                fixed: true,
            });
        }
        let clock = self.clock?;
        let usable = clock.time_left.saturating_sub(MOVE_OVERHEAD);
        let moves_to_go = clock
            .moves_to_go
            .unwrap_or(DEFAULT_MOVES_TO_GO)
            .clamp(1, MAX_MOVES_TO_GO);
        let base = usable / moves_to_go + clock.increment * INCREMENT_SHARE.0 / INCREMENT_SHARE.1;
        // Never plan on more than the time left minus a reserve for the moves to come.
        let (share, of) = if moves_to_go == 1 {
            LAST_MOVE_CAP
        } else {
            MOVE_CAP
        };
        let cap = usable * share / of;
        let soft = base.min(cap).max(Duration::from_millis(1));
        let hard = (base * HARD_BUDGET_FACTOR).min(cap).max(soft);
        Some(Budget {
            soft,
            hard,
            fixed: false,
        })
    }
}

/// Flags shared between the protocol thread and the search thread.
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    origin: Instant,
    /// Microseconds after `origin` when the clock of this move started (reset on ponderhit).
    clock_start: AtomicU64,
}

impl Control {
    /// A fresh control for one search; the clock starts now.
    #[must_use]
    pub fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            origin: Instant::now(),
            clock_start: AtomicU64::new(0),
        }
    }

    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked.
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the pondered move: the clock starts now.
    pub fn ponderhit(&self) {
        let now = self.origin.elapsed().as_micros() as u64;
        self.clock_start.store(now, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Whether the search is still pondering.
    #[must_use]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Time on this move's clock (since the start, or since ponderhit).
    #[must_use]
    pub fn clock_elapsed(&self) -> Duration {
        let start = Duration::from_micros(self.clock_start.load(Ordering::Relaxed));
        self.origin.elapsed().saturating_sub(start)
    }

    /// Time since the search started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.origin.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let ms = Duration::from_millis;
        for (left, inc, mtg) in [
            (1000, 10, None),
            (50, 0, None),
            (60_000, 0, Some(1)),
            (5000, 50, Some(40)),
        ] {
            let limits = Limits {
                clock: Some(ClockReading {
                    time_left: ms(left),
                    increment: ms(inc),
                    moves_to_go: mtg,
                }),
                ..Limits::default()
            };
            let budget = limits.budget().expect("clock gives a budget");
            assert!(budget.soft <= budget.hard);
            assert!(budget.hard < ms(left), "{left} {inc} {mtg:?}: {budget:?}");
        }
        assert!(Limits {
            depth: Some(3),
            ..Limits::default()
        }
        .budget()
        .is_none());
    }
}
