//! The progression of a run, rebuilt from the journal: the entries are replayed in
//! journal order through the same [`Tracker`] the run uses, and after each pair that
//! completes (both games in) the pairing's pairs, Elo with its 95% interval and, with an
//! SPRT, the LLR are recorded.
//!
//! Long runs are thinned to between [`MIN_POINTS`] and twice as many points per pairing
//! (every k-th pair and always the last), which is all a chart can show and keeps a
//! report of any length fast and small.

use crate::stats::{Estimate, Sprt, Tally};
use crate::store::journal::JournalEntry;
use crate::store::layout::Jobs;
use crate::store::tracker::Tracker;

/// A long pairing keeps at least this many points and fewer than twice as many.
pub const MIN_POINTS: u64 = 300;

/// The state of one pairing after a completed pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Completed pairs of the pairing.
    pub pairs: u64,
    pub elo: f64,
    pub elo_lower: f64,
    pub elo_upper: f64,
    /// Normalized Elo and the half width of its 95% interval (the unit of an SPRT
    /// with `model = "normalized"`).
    pub nelo: f64,
    pub nelo_ci95: f64,
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
            nelo: e.nelo,
            nelo_ci95: e.nelo_ci95,
            llr: sprt.and_then(|s| s.llr(&tally.penta).ok()),
        }
    }
}

/// The progression of every pairing and the final counts.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The run's counts after the last entry.
    pub tracker: Tracker,
    /// Per pairing, one point per recorded pair (thinned), in order.
    pub series: Vec<Vec<Point>>,
    /// Sum of the plies and of the durations (ms) of the recorded games.
    pub plies: u64,
    pub duration_ms: u64,
}

/// Builds a [`Replay`] one journal entry at a time, so a report reads a journal of any
/// length in constant memory. Each pairing keeps a point every `step` pairs; when it
/// holds `2 * MIN_POINTS` points, every second one is dropped and its step doubles.
/// It owns what it reads with (a few pairs of indices and the SPRT), so that it can be
/// kept and fed as a journal grows or as a stored run's batches commit (`serve`).
#[derive(Clone, Debug)]
pub struct Replayer {
    jobs: Jobs,
    pairings: Vec<(usize, usize)>,
    sprt: Option<Sprt>,
    steps: Vec<u64>,
    last_pairs: Vec<u64>,
    replay: Replay,
}

impl Replayer {
    /// `pairings` are engine indices as in the plan, `names` the engine names; the SPRT
    /// (if any) applies to the first pairing, as in the run.
    #[must_use]
    pub fn new(names: &[String], pairings: &[(usize, usize)], sprt: Option<&Sprt>) -> Self {
        Replayer {
            jobs: Jobs::new(pairings.to_vec(), 0),
            pairings: pairings.to_vec(),
            sprt: sprt.copied(),
            steps: vec![1; pairings.len()],
            last_pairs: vec![0; pairings.len()],
            replay: Replay {
                tracker: Tracker::new(names.to_vec(), pairings.len()),
                series: vec![Vec::new(); pairings.len()],
                plies: 0,
                duration_ms: 0,
            },
        }
    }

    /// Replays the next entry of the journal.
    pub fn add(&mut self, entry: &JournalEntry) {
        let job = self.jobs.job(entry.pair, entry.game);
        let k = job.pairing;
        let Some(&(a, b)) = self.pairings.get(k) else {
            return;
        };
        let replay = &mut self.replay;
        if !replay.tracker.record(entry, k, a, b) {
            return;
        }
        replay.plies += entry.plies as u64;
        replay.duration_ms += entry.duration_ms;
        let tally = replay.tracker.tally(k);
        let pairs = tally.penta.pairs();
        if pairs > self.last_pairs[k] {
            self.last_pairs[k] = pairs;
            if pairs.is_multiple_of(self.steps[k]) {
                let test = if k == 0 { self.sprt.as_ref() } else { None };
                let points = &mut replay.series[k];
                points.push(Point::of(&tally, test));
                if points.len() as u64 >= 2 * MIN_POINTS {
                    // Keep the points at multiples of the doubled step.
                    let mut index = 0;
                    points.retain(|_| {
                        index += 1;
                        index % 2 == 0
                    });
                    self.steps[k] *= 2;
                }
            }
        }
    }

    /// The replay, with the last pair of each pairing always shown.
    #[must_use]
    pub fn finish(mut self) -> Replay {
        let replay = &mut self.replay;
        for (k, points) in replay.series.iter_mut().enumerate() {
            let tally = replay.tracker.tally(k);
            if tally.penta.pairs() > 0
                && points.last().map(|p| p.pairs) != Some(tally.penta.pairs())
            {
                let test = if k == 0 { self.sprt.as_ref() } else { None };
                points.push(Point::of(&tally, test));
            }
        }
        self.replay
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    /// Replays a list of journal entries (see [`Replayer`]).
    fn replay(
        entries: &[JournalEntry],
        names: &[String],
        pairings: &[(usize, usize)],
        sprt: Option<&Sprt>,
    ) -> Replay {
        let mut replayer = Replayer::new(names, pairings, sprt);
        for entry in entries {
            replayer.add(entry);
        }
        replayer.finish()
    }

    #[test]
    fn a_pair_counts_when_both_games_are_in() {
        let names = vec!["a".to_owned(), "b".to_owned()];
        // Pair 1 finishes before pair 0; pair 2 is left unpaired.
        let entries = [
            JournalEntry::sample(0, 0, Outcome::RedWins),
            JournalEntry::sample(1, 0, Outcome::Draw),
            JournalEntry::sample(1, 1, Outcome::RedWins),
            JournalEntry::sample(2, 1, Outcome::Draw),
            JournalEntry::sample(0, 1, Outcome::BlackWins),
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
    fn long_runs_are_thinned_to_evenly_spaced_points() {
        let names = vec!["a".to_owned(), "b".to_owned()];
        let pairs = 5 * MIN_POINTS + 3;
        let entries: Vec<JournalEntry> = (0..pairs)
            .flat_map(|p| {
                [
                    JournalEntry::sample(p, 0, Outcome::RedWins),
                    JournalEntry::sample(p, 1, Outcome::Draw),
                ]
            })
            .collect();
        let r = replay(&entries, &names, &[(0, 1)], None);
        let points: Vec<u64> = r.series[0].iter().map(|p| p.pairs).collect();
        assert!(points.len() as u64 >= MIN_POINTS && (points.len() as u64) < 2 * MIN_POINTS + 1);
        // Evenly spaced by a power-of-two step, and the last pair is shown.
        let step = points[0];
        assert!(step.is_power_of_two());
        assert!(points[..points.len() - 1]
            .iter()
            .enumerate()
            .all(|(i, &p)| p == step * (i as u64 + 1)));
        assert_eq!(points.last(), Some(&pairs));
        assert_eq!(r.plies, 20 * pairs);
    }

    #[test]
    fn no_games_no_points() {
        let r = replay(&[], &[], &[(0, 1)], None);
        assert!(r.series[0].is_empty());
    }
}
