//! Dynamic overshoot correction of the SPRT bounds for batched updates.
//!
//! When the LLR is only looked at every `batch_size` samples, it jumps over a
//! bound by some amount before the test stops, and the real error rates
//! exceed alpha and beta. fishtest corrects for this (Siegmund, *Sequential
//! Analysis*, Corollary 8.33): it tracks the ladder of new LLR minima and
//! maxima, and moves each bound inwards by the estimated expected overshoot
//! `E[d²] / (2 E[d])` of the ladder steps `d` on that side.
//!
//! [`Overshoot`] holds that running state (it serializes, so a resumed run
//! keeps it); feed it the total number of samples (pairs for pentanomial,
//! games for trinomial counts) and the LLR after each batch, then pass
//! [`Overshoot::corrections`] to [`Sprt::verdict_corrected`](super::sprt::Sprt::verdict_corrected).

use serde::{Deserialize, Serialize};

use super::sprt::{Sprt, Verdict};

/// Running statistics of the LLR's ladder steps, as fishtest's `overshoot` record.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Overshoot {
    /// Samples per update (pairs, or games for trinomial counts).
    pub batch_size: u64,
    /// Samples at the last update.
    pub last_update: u64,
    /// Samples that arrived in irregular updates (an audit count).
    pub skipped_updates: u64,
    /// Lowest LLR so far on the regular ladder.
    pub ref0: f64,
    /// Sum of the downward ladder steps (negative or 0).
    pub m0: f64,
    /// Sum of their squares.
    pub sq0: f64,
    /// Highest LLR so far on the regular ladder.
    pub ref1: f64,
    /// Sum of the upward ladder steps.
    pub m1: f64,
    /// Sum of their squares.
    pub sq1: f64,
    /// False once the batching contract was broken (a sample count that is not
    /// a multiple of the batch size, or samples lost); then no correction applies.
    pub valid: bool,
}

impl Overshoot {
    /// A fresh tracker for updates every `batch_size` samples (0 is taken as 1).
    #[must_use]
    pub fn new(batch_size: u64) -> Self {
        Self {
            batch_size: batch_size.max(1),
            last_update: 0,
            skipped_updates: 0,
            ref0: 0.0,
            m0: 0.0,
            sq0: 0.0,
            ref1: 0.0,
            m1: 0.0,
            sq1: 0.0,
            valid: true,
        }
    }

    /// Records the LLR after `samples` samples in total.
    ///
    /// The normal case is one batch more than last time. The same count again
    /// changes nothing; a jump of several batches restarts the ladder at this
    /// LLR; fewer samples than before, or a count that is not a multiple of the
    /// batch size, invalidates the tracker for good.
    pub fn update(&mut self, samples: u64, llr: f64) {
        if !self.valid {
            return;
        }
        if !samples.is_multiple_of(self.batch_size) || samples < self.last_update {
            self.valid = false;
            return;
        }
        if samples == self.last_update + self.batch_size {
            if llr < self.ref0 {
                let d = llr - self.ref0;
                self.m0 += d;
                self.sq0 += d * d;
                self.ref0 = llr;
            }
            if llr > self.ref1 {
                let d = llr - self.ref1;
                self.m1 += d;
                self.sq1 += d * d;
                self.ref1 = llr;
            }
        } else if samples != self.last_update {
            self.ref0 = llr;
            self.ref1 = llr;
            self.skipped_updates += samples - self.last_update - 1;
        }
        self.last_update = samples;
    }

    /// The corrections `(o0, o1)` by which the lower bound moves up and the
    /// upper bound moves down; `(0, 0)` until there are ladder steps, or when
    /// the tracker is invalid.
    #[must_use]
    pub fn corrections(&self) -> (f64, f64) {
        if !self.valid {
            return (0.0, 0.0);
        }
        let o0 = if self.m0 != 0.0 {
            -self.sq0 / self.m0 / 2.0
        } else {
            0.0
        };
        let o1 = if self.m1 != 0.0 {
            self.sq1 / self.m1 / 2.0
        } else {
            0.0
        };
        (o0, o1)
    }

    /// The verdict of `sprt` on `llr` with the corrected bounds.
    #[must_use]
    pub fn verdict(&self, sprt: &Sprt, llr: f64) -> Verdict {
        let (o0, o1) = self.corrections();
        sprt.verdict_corrected(llr, o0, o1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sprt::EloModel;
    use crate::stats::Penta;

    #[test]
    fn ladder_steps_give_the_siegmund_correction() {
        let mut o = Overshoot::new(2);
        o.update(2, 0.5); // up 0.5
        o.update(4, 0.3); // inside [ref0, ref1] = [0, 0.5]: no step
        o.update(6, -0.4); // down 0.4
        o.update(8, 1.5); // up 1.0
        let (o0, o1) = o.corrections();
        assert!((o0 - 0.16 / 0.4 / 2.0).abs() < 1e-12);
        assert!((o1 - (0.25 + 1.0) / 1.5 / 2.0).abs() < 1e-12);
    }

    #[test]
    fn broken_contract_disables_the_correction() {
        let mut o = Overshoot::new(2);
        o.update(2, 0.5);
        o.update(2, 0.9); // same data: ignored
        assert_eq!(o.m1, 0.5);
        o.update(3, 1.0); // not a multiple of the batch size
        assert!(!o.valid);
        assert_eq!(o.corrections(), (0.0, 0.0));
        let mut o = Overshoot::new(2);
        o.update(4, 0.5);
        o.update(2, 0.5); // samples lost
        assert!(!o.valid);
    }

    #[derive(Deserialize)]
    struct Step {
        penta: [u64; 5],
        llr: f64,
        o0: f64,
        o1: f64,
        verdict: Verdict,
        uncorrected: Verdict,
    }

    #[derive(Deserialize)]
    struct Run {
        batch_size: u64,
        elo0: f64,
        elo1: f64,
        model: EloModel,
        steps: Vec<Step>,
    }

    #[derive(Deserialize)]
    struct Data {
        runs: Vec<Run>,
    }

    #[test]
    fn matches_fishtest_update_sprt() -> Result<(), Box<dyn std::error::Error>> {
        // Generated with fishtest's `stat_util.update_SPRT`, see tests/data/README.md.
        let data: Data =
            serde_json::from_str(include_str!("../../tests/data/overshoot_fishtest.json"))?;
        assert_eq!(data.runs.len(), 2);
        for run in data.runs {
            let sprt = Sprt::new(run.elo0, run.elo1, 0.05, 0.05, run.model)?;
            let mut tracker = Overshoot::new(run.batch_size);
            for step in &run.steps {
                let penta = Penta::new(step.penta);
                let llr = sprt.llr(&penta)?;
                tracker.update(penta.pairs(), llr);
                let (o0, o1) = tracker.corrections();
                assert!((llr - step.llr).abs() < 1e-9, "{llr} vs {}", step.llr);
                assert!((o0 - step.o0).abs() < 1e-9 && (o1 - step.o1).abs() < 1e-9);
                assert_eq!(tracker.verdict(&sprt, llr), step.verdict);
                assert_eq!(sprt.verdict(llr), step.uncorrected);
            }
            // Each run stops through the correction, before the plain bounds.
            let last = run.steps.last().ok_or("empty run")?;
            assert_ne!(last.verdict, Verdict::Continue);
            assert_eq!(last.uncorrected, Verdict::Continue);
        }
        Ok(())
    }
}
