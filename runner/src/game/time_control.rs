//! Time controls and the runner's clocks.
//!
//! Text forms, as cutechess and fastchess users write them: `40/60+0.5` (40 moves in 60 s,
//! 0.5 s increment), `10+0.1`, `60` (sudden death), `0.2s` or `200ms` for a fixed time per
//! move; fixed depth and nodes come from their own config keys.

use std::fmt;
use std::time::Duration;

use thiserror::Error;

/// How a search is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: `moves` per period (or the whole game), `base` per period, `increment` per move.
    Clock {
        moves: Option<u32>,
        base: Duration,
        increment: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth.
    Depth(u32),
    /// A fixed number of nodes.
    Nodes(u64),
}

/// Why a time control text was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad time control `{text}`: {why} (examples: 40/60+0.5, 10+0.1, 60, 0.2s)")]
pub struct TimeControlError {
    pub text: String,
    pub why: &'static str,
}

fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.trim().parse().ok()?;
    (value.is_finite() && (0.0..1e7).contains(&value)).then(|| Duration::from_secs_f64(value))
}

/// Reads a duration such as `0.2s`, `200ms` or `0.2` (seconds).
///
/// # Errors
/// When the text is not a non-negative number with an optional `s` or `ms` unit.
pub fn parse_duration(text: &str) -> Result<Duration, TimeControlError> {
    let error = |why| TimeControlError {
        text: text.to_owned(),
        why,
    };
    let t = text.trim();
    let parsed = if let Some(ms) = t.strip_suffix("ms") {
        seconds(ms).map(|d| d / 1000)
    } else {
        seconds(t.strip_suffix('s').unwrap_or(t))
    };
    match parsed {
        Some(d) if d > Duration::ZERO => Ok(d),
        Some(_) => Err(error("the time must be positive")),
        None => Err(error("not a number of seconds")),
    }
}

impl TimeControl {
    /// Whether a search under this limit is the same whatever the clock: a fixed depth or
    /// node count.
    #[must_use]
    pub fn is_deterministic(self) -> bool {
        matches!(self, TimeControl::Depth(_) | TimeControl::Nodes(_))
    }

    /// Reads a clock (`40/60+0.5`, `10+0.1`, `60`) or a fixed time per move (`0.2s`, `200ms`).
    ///
    /// # Errors
    /// [`TimeControlError`] saying what is wrong.
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = |why| TimeControlError {
            text: text.to_owned(),
            why,
        };
        let t = text.trim();
        if t.ends_with('s') {
            return parse_duration(t).map(TimeControl::MoveTime);
        }
        let (moves, rest) = match t.split_once('/') {
            Some((m, rest)) => {
                let moves: u32 = m
                    .trim()
                    .parse()
                    .map_err(|_| error("moves per period is not a whole number"))?;
                if moves == 0 {
                    return Err(error("moves per period must be at least 1"));
                }
                (Some(moves), rest)
            }
            None => (None, t),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (
                seconds(b).ok_or_else(|| error("base time is not a number"))?,
                seconds(i).ok_or_else(|| error("increment is not a number"))?,
            ),
            None => (
                seconds(rest).ok_or_else(|| error("base time is not a number"))?,
                Duration::ZERO,
            ),
        };
        if base.is_zero() && increment.is_zero() {
            return Err(error("the clock has no time"));
        }
        Ok(TimeControl::Clock {
            moves,
            base,
            increment,
        })
    }

    /// Whether a clock runs (and a move can lose on time).
    #[must_use]
    pub fn is_clock(self) -> bool {
        matches!(self, TimeControl::Clock { .. } | TimeControl::MoveTime(_))
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag form: `40/60+0.5` style seconds, `movetime`, `depth`, `nodes`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !increment.is_zero() {
                    write!(f, "+{}", increment.as_secs_f64())?;
                }
                Ok(())
            }
            TimeControl::MoveTime(t) => write!(f, "{}s/move", t.as_secs_f64()),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

/// What happens to the time a move takes beyond the clock (within the margin).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MarginMode {
    /// The clock stops at zero: the overshoot is forgotten, so an engine may take up to
    /// the margin beyond its clock on every move. fastchess does the same; the default,
    /// so that results compare with fastchess's.
    #[default]
    Clamp,
    /// The overshoot is owed: the clock goes below zero and the flag falls once it is
    /// below minus the margin, as a real clock's would.
    Cumulative,
}

impl MarginMode {
    /// The names the config takes, with their modes.
    pub const NAMES: [(&'static str, MarginMode); 2] = [
        ("clamp", MarginMode::Clamp),
        ("cumulative", MarginMode::Cumulative),
    ];
}

/// One side's clock during a game.
///
/// The time left is `left - owed`: `owed` is the overshoot a [`MarginMode::Cumulative`]
/// clock carries below zero (at most one of the two is non-zero; a clamped clock never
/// owes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    mode: MarginMode,
    left: Duration,
    owed: Duration,
    /// Moves played in the current period.
    played_in_period: u32,
}

impl Clock {
    /// A full clock at the start of the game, its overshoot handled by `mode`.
    #[must_use]
    pub fn with_mode(control: TimeControl, mode: MarginMode) -> Clock {
        let left = match control {
            TimeControl::Clock { base, .. } => base,
            TimeControl::MoveTime(t) => t,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => Duration::ZERO,
        };
        Clock {
            control,
            mode,
            left,
            owed: Duration::ZERO,
            played_in_period: 0,
        }
    }

    /// The time control.
    #[must_use]
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Time left for the current move or period (`None` without a clock); zero while a
    /// cumulative clock is below zero (what an engine is told: no protocol sends a
    /// negative time).
    #[must_use]
    pub fn left(&self) -> Option<Duration> {
        self.control.is_clock().then_some(self.left)
    }

    /// The time a cumulative clock is below zero.
    #[must_use]
    pub fn owed(&self) -> Duration {
        self.owed
    }

    /// How long the side may think before its flag falls: the time left and the margin,
    /// less what the clock owes (`None` without a clock).
    #[must_use]
    pub fn deadline(&self, margin: Duration) -> Option<Duration> {
        self.control
            .is_clock()
            .then(|| (self.left + margin).saturating_sub(self.owed))
    }

    /// Moves to play before the next period, if the clock has periods.
    #[must_use]
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.control {
            TimeControl::Clock { moves: Some(m), .. } => Some(m - self.played_in_period % m),
            _ => None,
        }
    }

    /// The increment per move.
    #[must_use]
    pub fn increment(&self) -> Duration {
        match self.control {
            TimeControl::Clock { increment, .. } => increment,
            _ => Duration::ZERO,
        }
    }

    /// Whether a move that took `elapsed` lost on time, allowing `margin` for the pipes.
    #[must_use]
    pub fn flag_fell(&self, elapsed: Duration, margin: Duration) -> bool {
        self.deadline(margin).is_some_and(|d| elapsed > d)
    }

    /// Charges a move: time taken, increment added, a new period's time when one starts.
    /// Returns the part of `elapsed` beyond the time that was left (zero when the move
    /// was within the clock): the overshoot a clamped clock forgives.
    pub fn charge(&mut self, elapsed: Duration) -> Duration {
        let beyond = if self.control.is_clock() {
            elapsed.saturating_sub(self.left)
        } else {
            Duration::ZERO
        };
        match self.control {
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                self.take(elapsed);
                self.give(increment);
                self.played_in_period += 1;
                if moves.is_some_and(|m| self.played_in_period.is_multiple_of(m)) {
                    self.give(base);
                }
            }
            TimeControl::MoveTime(t) => self.left = t,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => {}
        }
        beyond
    }

    fn take(&mut self, time: Duration) {
        let short = time.saturating_sub(self.left);
        self.left = self.left.saturating_sub(time);
        if self.mode == MarginMode::Cumulative {
            self.owed += short;
        }
    }

    fn give(&mut self, time: Duration) {
        let repaid = time.min(self.owed);
        self.owed -= repaid;
        self.left += time - repaid;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_the_usual_forms() {
        assert_eq!(
            TimeControl::parse("40/60+0.5"),
            Ok(TimeControl::Clock {
                moves: Some(40),
                base: ms(60_000),
                increment: ms(500)
            })
        );
        assert_eq!(
            TimeControl::parse("10+0.1"),
            Ok(TimeControl::Clock {
                moves: None,
                base: ms(10_000),
                increment: ms(100)
            })
        );
        assert_eq!(
            TimeControl::parse("60"),
            Ok(TimeControl::Clock {
                moves: None,
                base: ms(60_000),
                increment: ms(0)
            })
        );
        assert_eq!(
            TimeControl::parse("0.2s"),
            Ok(TimeControl::MoveTime(ms(200)))
        );
        assert_eq!(parse_duration("150ms"), Ok(ms(150)));
        for bad in ["", "abc", "0/60", "10+x", "-5", "0+0", "40/", "1e99", "nan"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn clock_charges_increments_and_periods() {
        let mut clock =
            Clock::with_mode(TimeControl::parse("2/10+1").expect("tc"), MarginMode::Clamp);
        assert_eq!(clock.moves_to_go(), Some(2));
        clock.charge(ms(3000));
        assert_eq!(clock.left(), Some(ms(8000)));
        assert_eq!(clock.moves_to_go(), Some(1));
        clock.charge(ms(1000));
        assert_eq!(clock.left(), Some(ms(18_000)), "new period adds the base");
        assert!(clock.flag_fell(ms(18_011), ms(10)));
        assert!(!clock.flag_fell(ms(18_009), ms(10)));
        let depth = Clock::with_mode(TimeControl::Depth(3), MarginMode::Clamp);
        assert_eq!(depth.left(), None);
        assert!(!depth.flag_fell(ms(99_999), ms(0)));
    }

    /// An engine that answers 45 ms after its clock runs out, at 1+0 with a 100 ms
    /// margin: how many of its moves stand before its flag falls.
    fn moves_before_the_flag(mode: MarginMode) -> (u32, Duration) {
        let mut clock = Clock::with_mode(TimeControl::parse("1+0").expect("tc"), mode);
        let mut beyond = Duration::ZERO;
        for played in 0..30 {
            let elapsed = clock.left().unwrap_or_default() + ms(45);
            if clock.flag_fell(elapsed, ms(100)) {
                return (played, beyond);
            }
            beyond += clock.charge(elapsed);
        }
        (30, beyond)
    }

    #[test]
    fn a_clamped_clock_forgives_the_overshoot_a_cumulative_one_carries_it() {
        // Clamped: every move is 45 ms over, none loses, 30 x 45 ms taken beyond.
        assert_eq!(moves_before_the_flag(MarginMode::Clamp), (30, ms(1350)));
        // Cumulative: owed 45, then 90, then 135 > 100: the third move loses.
        assert_eq!(moves_before_the_flag(MarginMode::Cumulative), (2, ms(90)));
        let mut clock = Clock::with_mode(
            TimeControl::parse("1+0.05").expect("tc"),
            MarginMode::Cumulative,
        );
        assert_eq!(clock.charge(ms(1080)), ms(80));
        // 80 owed, 50 of it repaid by the increment.
        assert_eq!((clock.left(), clock.owed()), (Some(ms(0)), ms(30)));
        assert_eq!(clock.deadline(ms(100)), Some(ms(70)));
        assert_eq!(clock.charge(ms(10)), ms(10));
        assert_eq!((clock.left(), clock.owed()), (Some(ms(10)), ms(0)));
    }
}
