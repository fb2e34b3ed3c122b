//! fishtest's classic SPSA, as its server computes it (`docs/tuning.md` gives the
//! formulas): the gains from each parameter's `c_end` and `r_end`, the two perturbed
//! points of an iteration, the update from a pair's result, and the worker's stochastic
//! rounding of the values sent to an engine as integers.

use serde::{Deserialize, Serialize};
use thiserror::Error;
use xq_core::rng::SplitMix64;

/// The run-wide constants of SPSA.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaConstants {
    /// N: the number of iterations (one pair each).
    pub iterations: u64,
    pub alpha: f64,
    pub gamma: f64,
    /// fishtest's `A`: `int(A_ratio * N)`.
    pub big_a: f64,
}

impl SpsaConstants {
    /// fishtest's defaults.
    pub const ALPHA: f64 = 0.602;
    pub const GAMMA: f64 = 0.101;
    pub const A_RATIO: f64 = 0.1;

    /// The schedule of `iterations` iterations with `A = int(a_ratio * iterations)`.
    #[must_use]
    pub fn new(iterations: u64, alpha: f64, gamma: f64, a_ratio: f64) -> SpsaConstants {
        SpsaConstants {
            iterations,
            alpha,
            gamma,
            big_a: (a_ratio * iterations as f64).trunc(),
        }
    }
}

/// One parameter's bounds and gains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    pub min: f64,
    pub max: f64,
    /// `c = c_end * N^gamma`.
    pub c: f64,
    /// `a = r_end * c_end^2 * (A + N)^alpha`.
    pub a: f64,
}

impl Gains {
    /// The gains fishtest derives from `c_end` and `r_end`.
    #[must_use]
    pub fn new(schedule: &SpsaConstants, min: f64, max: f64, c_end: f64, r_end: f64) -> Gains {
        let n = schedule.iterations as f64;
        let a_end = r_end * c_end * c_end;
        Gains {
            min,
            max,
            c: c_end * n.powf(schedule.gamma),
            a: a_end * (schedule.big_a + n).powf(schedule.alpha),
        }
    }

    /// `c_k = c / k^gamma` (k counts from 1).
    #[must_use]
    pub fn c_k(&self, schedule: &SpsaConstants, k: u64) -> f64 {
        self.c / (k as f64).powf(schedule.gamma)
    }

    /// `R_k = a / (A + k)^alpha / c_k^2`.
    #[must_use]
    pub fn r_k(&self, schedule: &SpsaConstants, k: u64) -> f64 {
        let c_k = self.c_k(schedule, k);
        self.a / (schedule.big_a + k as f64).powf(schedule.alpha) / (c_k * c_k)
    }

    /// Checks that the gains move theta by finite amounts: `c_k` positive and finite,
    /// `R_k` positive and finite, and the largest step `R_k * c_k * 2` finite, at the
    /// first and the last iteration (the ends of the schedule, where an overflow or an
    /// underflow of the inputs shows: a tiny `c_end` squares to 0 and `R_k` to 0/0).
    ///
    /// # Errors
    /// [`BadGains`] at the first iteration where they are not.
    pub fn check(&self, schedule: &SpsaConstants) -> Result<(), BadGains> {
        for k in [1, schedule.iterations.max(1)] {
            let (c_k, r_k) = (self.c_k(schedule, k), self.r_k(schedule, k));
            let step = r_k * c_k * 2.0;
            let positive = |v: f64| v.is_finite() && v > 0.0;
            if !(positive(c_k) && positive(r_k) && step.is_finite()) {
                return Err(BadGains { k, c_k, r_k });
            }
        }
        Ok(())
    }

    /// `value` clipped to `[min, max]`.
    #[must_use]
    pub fn clip(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }
}

/// Gains that do not move theta by a finite, non-zero amount.
#[derive(Clone, Copy, Debug, PartialEq, Error)]
#[error("the gains are not usable numbers at iteration {k}: c_k = {c_k:.3e}, R_k = {r_k:.3e}")]
pub struct BadGains {
    pub k: u64,
    pub c_k: f64,
    pub r_k: f64,
}

/// What one iteration plays, for one parameter: fixed when the iteration is handed out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub c_k: f64,
    pub r_k: f64,
    /// +1 or -1.
    pub flip: f64,
    /// `clip(theta + c_k * flip)`: the value of the side whose result counts.
    pub plus: f64,
    /// `clip(theta - c_k * flip)`.
    pub minus: f64,
}

impl Step {
    /// The step of iteration `k` at `theta`.
    #[must_use]
    pub fn new(gains: &Gains, schedule: &SpsaConstants, k: u64, theta: f64, flip: f64) -> Step {
        let c_k = gains.c_k(schedule, k);
        Step {
            c_k,
            r_k: gains.r_k(schedule, k),
            flip,
            plus: gains.clip(theta + c_k * flip),
            minus: gains.clip(theta - c_k * flip),
        }
    }

    /// theta after a result (wins - losses of the `plus` side) arrives:
    /// `clip(theta + R_k * c_k * result * flip)`. `theta` is the value when the result
    /// arrives, which at concurrency > 1 may have moved since the step was made.
    #[must_use]
    pub fn update(&self, gains: &Gains, theta: f64, result: i32) -> f64 {
        gains.clip(theta + self.r_k * self.c_k * f64::from(result) * self.flip)
    }
}

/// The random choices of one iteration, the same every time it is played (a resumed
/// run replays an unfinished iteration with the flips it had): one generator per
/// iteration, seeded from the run's seed and `k`.
#[derive(Debug)]
pub struct IterationRng(SplitMix64);

impl IterationRng {
    /// The generator of iteration `k` of a run seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64, k: u64) -> IterationRng {
        let mut mix = SplitMix64::new(seed ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03));
        IterationRng(SplitMix64::new(mix.next_u64()))
    }

    /// +1 or -1 with equal chances (fishtest: `getrandbits(1)`).
    pub fn flip(&mut self) -> f64 {
        if self.0.next_u64() >> 63 == 1 {
            1.0
        } else {
            -1.0
        }
    }

    /// fishtest's worker's stochastic rounding, `floor(value + uniform(0, 1))`: N.p
    /// becomes N + 1 with probability p, so the expected value sent is `value` itself.
    pub fn round(&mut self, value: f64) -> i64 {
        (value + self.uniform()).floor() as i64
    }

    /// A uniform number in `[0, 1)`: what [`IterationRng::round`] adds before flooring.
    pub fn uniform(&mut self) -> f64 {
        self.0.next_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check vector of fishtest's formulas: one parameter (start 50, bounds 0..100,
    /// c_end 5, r_end 0.01), N = 10, A = 1; per iteration the flip, the result, and
    /// c_k, R_k, plus, minus and theta after, as computed from fishtest's formulas.
    #[allow(clippy::type_complexity)]
    const CHECK: [(f64, i32, f64, f64, f64, f64, f64); 10] = [
        (
            1.0,
            2,
            6.309137672953,
            0.017526626795,
            56.309137672953,
            43.690862327047,
            50.221155802789,
        ),
        (
            -1.0,
            -1,
            5.882554707331,
            0.015794266448,
            44.338601095457,
            56.103710510120,
            50.314066439230,
        ),
        (
            -1.0,
            0,
            5.646518528960,
            0.014416398384,
            44.667547910270,
            55.960584968191,
            50.314066439230,
        ),
        (
            1.0,
            1,
            5.484814514841,
            0.013358403949,
            55.798880954071,
            44.829251924389,
            50.387334807106,
        ),
        (
            1.0,
            -2,
            5.362583084090,
            0.012521699713,
            55.749917891196,
            45.024751723017,
            50.253037496978,
        ),
        (
            -1.0,
            1,
            5.264737571818,
            0.011840115228,
            44.988299925160,
            55.517775068796,
            50.190702397483,
        ),
        (
            1.0,
            2,
            5.183404510395,
            0.011271144779,
            55.374106907879,
            45.007297887088,
            50.307548202854,
        ),
        (
            -1.0,
            0,
            5.113966934250,
            0.010786699574,
            45.193581268604,
            55.421515137104,
            50.307548202854,
        ),
        (
            1.0,
            -1,
            5.053491166404,
            0.010367531973,
            55.361039369258,
            45.254057036450,
            50.255155971612,
        ),
        (
            1.0,
            1,
            5.000000000000,
            0.010000000000,
            55.255155971612,
            45.255155971612,
            50.305155971612,
        ),
    ];

    fn close(what: &str, got: f64, want: f64) {
        assert!((got - want).abs() < 1e-9, "{what}: {got} != {want}");
    }

    #[test]
    fn the_check_vector_is_reproduced_to_1e_9() {
        let schedule = SpsaConstants::new(
            10,
            SpsaConstants::ALPHA,
            SpsaConstants::GAMMA,
            SpsaConstants::A_RATIO,
        );
        assert!((schedule.big_a - 1.0).abs() < f64::EPSILON);
        let gains = Gains::new(&schedule, 0.0, 100.0, 5.0, 0.01);
        close("c", gains.c, 6.309137672953);
        close("a", gains.a, 1.058908428507);
        let mut theta = 50.0;
        for (i, &(flip, result, c_k, r_k, plus, minus, after)) in CHECK.iter().enumerate() {
            let k = i as u64 + 1;
            let step = Step::new(&gains, &schedule, k, theta, flip);
            close(&format!("k={k} c_k"), step.c_k, c_k);
            close(&format!("k={k} R_k"), step.r_k, r_k);
            close(&format!("k={k} plus"), step.plus, plus);
            close(&format!("k={k} minus"), step.minus, minus);
            theta = step.update(&gains, theta, result);
            close(&format!("k={k} theta"), theta, after);
        }
    }

    #[test]
    fn at_the_last_iteration_the_gains_are_c_end_and_r_end() {
        let schedule = SpsaConstants::new(
            2000,
            SpsaConstants::ALPHA,
            SpsaConstants::GAMMA,
            SpsaConstants::A_RATIO,
        );
        let gains = Gains::new(&schedule, 0.0, 400.0, 10.0, 0.002);
        close("c_N", gains.c_k(&schedule, 2000), 10.0);
        close("R_N", gains.r_k(&schedule, 2000), 0.002);
    }

    #[test]
    fn gains_that_overflow_or_underflow_are_refused() {
        let schedule = SpsaConstants::new(
            10,
            SpsaConstants::ALPHA,
            SpsaConstants::GAMMA,
            SpsaConstants::A_RATIO,
        );
        let gains = |c_end, r_end| Gains::new(&schedule, 0.0, 100.0, c_end, r_end);
        assert_eq!(gains(5.0, 0.01).check(&schedule), Ok(()));
        // c_end^2 underflows: a = 0 and c_k^2 = 0, so R_k = 0/0.
        let tiny = gains(1e-300, 0.002).check(&schedule);
        assert!(matches!(tiny, Err(BadGains { k: 1, .. })), "{tiny:?}");
        assert!(gains(5.0, 1e308).check(&schedule).is_err());
    }

    #[test]
    fn values_are_clipped_to_the_bounds() {
        let schedule = SpsaConstants::new(
            10,
            SpsaConstants::ALPHA,
            SpsaConstants::GAMMA,
            SpsaConstants::A_RATIO,
        );
        let gains = Gains::new(&schedule, 0.0, 100.0, 5.0, 0.01);
        let step = Step::new(&gains, &schedule, 1, 98.0, 1.0);
        close("plus", step.plus, 100.0);
        close("minus", step.minus, 98.0 - step.c_k);
        close("update", step.update(&gains, 99.9, 2), 100.0);
    }

    #[test]
    fn rounding_is_stochastic_with_the_value_as_mean() {
        let mut rng = IterationRng::new(7, 1);
        let draws: Vec<i64> = (0..20_000).map(|_| rng.round(10.25)).collect();
        assert!(draws.iter().all(|&d| d == 10 || d == 11));
        let mean = draws.iter().sum::<i64>() as f64 / draws.len() as f64;
        assert!((mean - 10.25).abs() < 0.02, "mean {mean}");
        // Integers stay as they are.
        assert!((0..100).all(|_| rng.round(42.0) == 42));
    }

    #[test]
    fn an_iteration_draws_the_same_flips_every_time() {
        let flips = |seed, k| {
            let mut rng = IterationRng::new(seed, k);
            (0..16).map(|_| rng.flip()).collect::<Vec<_>>()
        };
        assert_eq!(flips(1, 5), flips(1, 5));
        assert_ne!(flips(1, 5), flips(1, 6));
        let all = flips(3, 1);
        assert!(all.contains(&1.0) && all.contains(&-1.0));
    }
}
