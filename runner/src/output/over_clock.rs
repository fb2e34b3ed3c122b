//! Moves over the clock, per engine: how many of its moves took longer than the time left
//! on its clock, and the time they took beyond it. With `time.margin_mode = "clamp"` (the
//! default, as fastchess) that time is forgiven up to the margin on every move, so an
//! engine can play on borrowed time without ever losing on time; these numbers make it
//! seen in `summary.json`, the result block and the report.

use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use crate::game::TimeControl;
use crate::store::tracker::OverClockTotal;

/// Beyond this share of its base time per game an engine's overshoot is warned of.
pub const WARN_SHARE: f64 = 0.10;

/// One engine's moves over its clock, as the outputs show them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OverClockLine {
    /// Games the engine played (every game recorded).
    pub games: u64,
    /// Its moves that took longer than the time left on its clock.
    pub moves: u64,
    /// The time those moves took beyond the clock, summed.
    pub ms: u64,
    /// `ms` over `games` (`null` without games).
    pub ms_per_game: Option<f64>,
    /// The time a game gives the engine: its clock's base time (the increment when the
    /// base is 0) or its time per move; `null` without a clock.
    pub base_ms: Option<u64>,
    /// `ms_per_game / base_ms`, a fraction.
    pub share_of_base: Option<f64>,
    /// `share_of_base` passed [`WARN_SHARE`].
    pub warning: bool,
}

/// The time a game gives an engine under `control`, which its overshoot is measured
/// against: the base time of a clock (its increment when the base is 0), the time per
/// move; `None` without a clock.
#[must_use]
pub fn base_time(control: TimeControl) -> Option<Duration> {
    match control {
        TimeControl::Clock {
            base, increment, ..
        } => Some(if base.is_zero() { increment } else { base }),
        TimeControl::MoveTime(t) => Some(t),
        TimeControl::Depth(_) | TimeControl::Nodes(_) => None,
    }
}

impl OverClockLine {
    /// The line of an engine's totals, measured against its `base` time.
    #[must_use]
    pub fn new(total: OverClockTotal, base: Option<Duration>) -> OverClockLine {
        let ms_per_game = (total.games > 0).then(|| total.ms as f64 / total.games as f64);
        let base_ms = base.map(|b| u64::try_from(b.as_millis()).unwrap_or(u64::MAX));
        let share_of_base = match (ms_per_game, base_ms) {
            (Some(per_game), Some(base)) if base > 0 => Some(per_game / base as f64),
            _ => None,
        };
        OverClockLine {
            games: total.games,
            moves: total.moves,
            ms: total.ms,
            ms_per_game,
            base_ms,
            share_of_base,
            warning: share_of_base.is_some_and(|s| s > WARN_SHARE),
        }
    }
}

/// The lines of every engine, in config order: `names`, their `totals` and base times.
#[must_use]
pub fn lines(
    names: &[String],
    totals: &[OverClockTotal],
    bases: &[Option<Duration>],
) -> Vec<(String, OverClockLine)> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let total = totals.get(i).copied().unwrap_or_default();
            let base = bases.get(i).copied().flatten();
            (name.clone(), OverClockLine::new(total, base))
        })
        .collect()
}

/// The lines the result block ends with: one per engine that went over its clock, and a
/// warning per engine past [`WARN_SHARE`]; nothing when no engine did.
#[must_use]
pub fn text(lines: &[(String, OverClockLine)]) -> String {
    let mut out = String::new();
    for (name, l) in lines.iter().filter(|(_, l)| l.moves > 0) {
        let _ = write!(
            out,
            "Over the clock: {name} {} move{}, {} ms beyond it",
            l.moves,
            if l.moves == 1 { "" } else { "s" },
            l.ms
        );
        if let (Some(per_game), Some(share)) = (l.ms_per_game, l.share_of_base) {
            let _ = write!(
                out,
                " ({per_game:.0} ms a game, {:.1}% of the base time)",
                100.0 * share
            );
        }
        out.push('\n');
    }
    for (name, _) in lines.iter().filter(|(_, l)| l.warning) {
        let _ = writeln!(
            out,
            "Warning: {name} took more than {:.0}% of its base time a game beyond its clock (time.margin_mode = \"cumulative\" makes a move owe it)",
            100.0 * WARN_SHARE
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn an_engine_past_a_tenth_of_its_base_time_a_game_is_warned_of() {
        let names = vec!["slow".to_owned(), "fine".to_owned(), "depth".to_owned()];
        let totals = [
            OverClockTotal {
                games: 2,
                moves: 40,
                ms: 1800,
            },
            OverClockTotal {
                games: 2,
                moves: 3,
                ms: 150,
            },
            OverClockTotal {
                games: 2,
                moves: 0,
                ms: 0,
            },
        ];
        let lines = lines(&names, &totals, &[Some(ms(1000)), Some(ms(1000)), None]);
        assert_eq!(lines[0].1.share_of_base, Some(0.9));
        assert!(lines[0].1.warning);
        // 75 ms a game of 1,000: 7.5%, reported, not warned of.
        assert_eq!(lines[1].1.share_of_base, Some(0.075));
        assert!(!lines[1].1.warning);
        assert_eq!((lines[2].1.base_ms, lines[2].1.share_of_base), (None, None));
        let text = text(&lines);
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            [
                "Over the clock: slow 40 moves, 1800 ms beyond it (900 ms a game, 90.0% of the base time)",
                "Over the clock: fine 3 moves, 150 ms beyond it (75 ms a game, 7.5% of the base time)",
                "Warning: slow took more than 10% of its base time a game beyond its clock (time.margin_mode = \"cumulative\" makes a move owe it)",
            ]
        );
    }

    #[test]
    fn the_base_is_what_a_game_gives() {
        let tc = |t: &str| TimeControl::parse(t).expect("tc");
        assert_eq!(base_time(tc("10+0.1")), Some(ms(10_000)));
        assert_eq!(base_time(tc("0+0.1")), Some(ms(100)));
        assert_eq!(base_time(tc("0.2s")), Some(ms(200)));
        assert_eq!(base_time(TimeControl::Depth(3)), None);
    }
}
