//! The progression of a run, rebuilt from the journal: the entries are replayed in
//! journal order through the same [`Tracker`] the run uses, and after each pair that
//! completes (both games in) the pairing's pairs, Elo with its 95% interval and, with an
//! SPRT, the LLR are recorded.
//!
//! Long runs are thinned to at most [`MAX_POINTS`] points per pairing (every k-th pair and
//! always the last), which is all a chart can show and keeps a 10,000-game report fast.

use crate::output::journal::JournalEntry;
use crate::schedule::jobs::Jobs;
use crate::schedule::tracker::Tracker;
use crate::stats::{Estimate, Sprt, Tally};

/// At most this many points per pairing.
pub const MAX_POINTS: u64 = 600;

/// The state of one pairing after a completed pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Completed pairs of the pairing.
    pub pairs: u64,
    pub elo: f64,
    pub elo_lower: f64,
    pub elo_upper: f64,
    /// LLR of the run's SPRT, for the first pairing of a run with one.
    pub llr: Option<f64>,
}

impl Point {
    /// The point of a pairing's counts; `sprt` adds the LLR.
    #[must_use]
    pub fn of(tally: &Tally, sprt: Option<&Sprt>) -> Point {
        let e = Estimate::new(&tally.penta);
        Point {
            pairs: tally.penta.pairs(),
            elo: e.elo,
            elo_lower: e.elo_lower,
            elo_upper: e.elo_upper,
            llr: sprt.and_then(|s| s.llr(&tally.penta).ok()),
        }
    }
}

/// The progression of every pairing and the final counts.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The run's counts after the last entry.
    pub tracker: Tracker,
    /// Per pairing, one point per recorded pair, in order.
    pub series: Vec<Vec<Point>>,
}

/// Replays the journal. `pairings` are engine indices as in the plan, `names` the engine
/// names; the SPRT (if any) applies to the first pairing, as in the run.
#[must_use]
pub fn replay(
    entries: &[JournalEntry],
    names: &[String],
    pairings: &[(usize, usize)],
    sprt: Option<&Sprt>,
) -> Replay {
    let jobs = Jobs::new(pairings.to_vec(), 0);
    let mut tracker = Tracker::new(names.to_vec(), pairings.len());
    // Pairs per pairing at most, from the journal: the thinning step.
    let per_pairing = (entries.len() as u64 / 2) / (pairings.len().max(1) as u64) + 1;
    let step = per_pairing.div_ceil(MAX_POINTS).max(1);
    let mut series: Vec<Vec<Point>> = vec![Vec::new(); pairings.len()];
    let mut last_pairs = vec![0u64; pairings.len()];
    for entry in entries {
        let job = jobs.job(entry.pair, entry.game);
        let Some(&(a, b)) = pairings.get(job.pairing) else {
            continue;
        };
        if !tracker.record(entry, job.pairing, a, b) {
            continue;
        }
        let tally = tracker.tally(job.pairing);
        let pairs = tally.penta.pairs();
        if pairs > last_pairs[job.pairing] {
            last_pairs[job.pairing] = pairs;
            if pairs % step == 0 {
                let test = if job.pairing == 0 { sprt } else { None };
                series[job.pairing].push(Point::of(&tally, test));
            }
        }
    }
    // The last pair of each pairing is always shown.
    for (k, points) in series.iter_mut().enumerate() {
        let tally = tracker.tally(k);
        if tally.penta.pairs() > 0 && points.last().map(|p| p.pairs) != Some(tally.penta.pairs()) {
            let test = if k == 0 { sprt } else { None };
            points.push(Point::of(&tally, test));
        }
    }
    Replay { tracker, series }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{EndReason, Outcome};

    fn entry(pair: u64, game: u8, result: Outcome) -> JournalEntry {
        let (red, black) = if game == 0 { ("a", "b") } else { ("b", "a") };
        JournalEntry {
            pair,
            game,
            opening: None,
            red: red.to_owned(),
            black: black.to_owned(),
            result,
            reason: EndReason::Checkmate,
            plies: 10,
            start_fen: String::new(),
            opening_moves: String::new(),
            moves: String::new(),
            times_ms: Vec::new(),
            scores: Vec::new(),
            depths: Vec::new(),
            faulted: None,
            detail: None,
            duration_ms: 1,
        }
    }

    #[test]
    fn a_pair_counts_when_both_games_are_in() {
        let names = vec!["a".to_owned(), "b".to_owned()];
        // Pair 1 finishes before pair 0; pair 2 is left unpaired.
        let entries = [
            entry(0, 0, Outcome::RedWins),
            entry(1, 0, Outcome::Draw),
            entry(1, 1, Outcome::RedWins),
            entry(2, 1, Outcome::Draw),
            entry(0, 1, Outcome::BlackWins),
        ];
        let r = replay(&entries, &names, &[(0, 1)], Some(&Sprt::default()));
        let pairs: Vec<u64> = r.series[0].iter().map(|p| p.pairs).collect();
        assert_eq!(pairs, vec![1, 2]);
        // Pair 1: a draws, then loses as Black: LD. Pair 0: a wins twice: WW.
        assert_eq!(r.tracker.tally(0).penta.to_array(), [0, 1, 0, 0, 1]);
        assert!(r.series[0].iter().all(|p| p.llr.is_some()));
        assert_eq!(r.tracker.unpaired(), 1);
    }

    #[test]
    fn no_games_no_points() {
        let r = replay(&[], &[], &[(0, 1)], None);
        assert!(r.series[0].is_empty());
    }
}
