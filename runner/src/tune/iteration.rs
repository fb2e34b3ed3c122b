//! One SPSA iteration, the same for a local tune and a tune on the workers: its
//! assignment (the flips, the gains, the two rounded option sets) made from theta when it
//! is handed out, its pair's order for the slot pool and its games' scores, and its result
//! applied to theta as theta is when the result arrives, giving the journal's record.
//! The arithmetic lives here and in `spsa.rs` only, so both ways of tuning follow
//! fishtest's formulas and its check vector alike.

use std::collections::BTreeMap;
use std::sync::Arc;

use thiserror::Error;
use tokio::sync::watch;
use xq_core::board::Color;

use super::journal::Record;
use super::spsa::{Gains, IterationRng, SpsaConstants, Step};
use crate::game::EndReason;
use crate::play::engines::PairOptions;
use crate::play::pool::Order;
use crate::play::RunState;
use crate::store::journal::JournalEntry;
use crate::store::layout::PairJob;

/// One iteration as handed out.
#[derive(Debug, Clone, PartialEq)]
pub struct IterationSides {
    /// k, from 1.
    pub k: u64,
    pub steps: Vec<Step>,
    /// The integer values of the theta+ side (engine 0), per parameter.
    pub plus: Vec<i64>,
    /// The values of the theta- side (engine 1).
    pub minus: Vec<i64>,
}

/// The iteration `k` at `theta`: its flips and rounded values come from the run's seed
/// and `k` alone, so the same iteration handed out again flips the same way.
#[must_use]
pub fn assign(
    seed: u64,
    schedule: &SpsaConstants,
    gains: &[Gains],
    theta: &[f64],
    k: u64,
) -> IterationSides {
    let mut rng = IterationRng::new(seed, k);
    let steps: Vec<Step> = gains
        .iter()
        .zip(theta)
        .map(|(g, &t)| {
            let flip = rng.flip();
            Step::new(g, schedule, k, t, flip)
        })
        .collect();
    let plus = steps.iter().map(|s| rng.round(s.plus)).collect();
    let minus = steps.iter().map(|s| rng.round(s.minus)).collect();
    IterationSides {
        k,
        steps,
        plus,
        minus,
    }
}

/// Applies a played iteration to `theta` (theta as it is now, which may have moved
/// since the iteration was handed out): theta after the update, and the record. The
/// formula alone: [`update`] adds the check that theta stays a number.
#[must_use]
pub fn apply(
    a: &IterationSides,
    names: &[String],
    gains: &[Gains],
    theta: &[f64],
    scores: [f64; 2],
) -> (Vec<f64>, Record) {
    let result: i32 = scores.iter().map(|&s| ((s - 0.5) * 2.0) as i32).sum();
    let after: Vec<f64> = a
        .steps
        .iter()
        .zip(gains)
        .zip(theta)
        .map(|((step, g), &t)| step.update(g, t, result))
        .collect();
    let map_i = |values: &[i64]| -> BTreeMap<String, i64> {
        names.iter().cloned().zip(values.iter().copied()).collect()
    };
    let record = Record {
        iteration: a.k,
        plus: map_i(&a.plus),
        minus: map_i(&a.minus),
        flip: names
            .iter()
            .cloned()
            .zip(a.steps.iter().map(|s| if s.flip > 0.0 { 1 } else { -1 }))
            .collect(),
        games: [letter(scores[0]), letter(scores[1])],
        result,
        theta: names.iter().cloned().zip(after.iter().copied()).collect(),
    };
    (after, record)
}

/// A game's score (1, 0.5 or 0) as the journal's letter: `W`, `D` or `L`.
#[must_use]
pub fn letter(score: f64) -> char {
    match score {
        s if s > 0.75 => 'W',
        s if s < 0.25 => 'L',
        _ => 'D',
    }
}

/// An update that would leave theta without a number: the iteration is an error (the
/// tune stops, its journal without it), never a theta of NaN that the engines would be
/// sent as 0.
#[derive(Clone, Debug, PartialEq, Error)]
#[error("iteration {k}: {name} would become {value} (theta {theta}, R_k {r_k:.3e}, c_k {c_k:.3e}, result {result}), not a finite number")]
pub struct NotFinite {
    pub k: u64,
    pub name: String,
    pub value: f64,
    pub theta: f64,
    pub r_k: f64,
    pub c_k: f64,
    pub result: i32,
}

/// [`apply`] with the check every update must pass: each parameter's new theta is a
/// finite number (the inputs are bounded when the tune is read, so this is the last
/// guard, not the first). A local tune updates through this.
///
/// # Errors
/// [`NotFinite`] for the first parameter whose theta would not be finite.
pub fn update(
    a: &IterationSides,
    names: &[String],
    gains: &[Gains],
    theta: &[f64],
    scores: [f64; 2],
) -> Result<(Vec<f64>, Record), NotFinite> {
    let (after, record) = apply(a, names, gains, theta, scores);
    match after.iter().position(|v| !v.is_finite()) {
        None => Ok((after, record)),
        Some(i) => Err(NotFinite {
            k: a.k,
            name: names.get(i).cloned().unwrap_or_default(),
            value: after[i],
            theta: theta.get(i).copied().unwrap_or(f64::NAN),
            r_k: a.steps.get(i).map_or(f64::NAN, |s| s.r_k),
            c_k: a.steps.get(i).map_or(f64::NAN, |s| s.c_k),
            result: record.result,
        }),
    }
}

/// The options of an iteration's two engines: each side's fixed options, then the
/// rounded values of its side (theta+ for engine 0, theta- for engine 1).
#[must_use]
pub fn pair_options(
    fixed: &[Vec<(String, String)>; 2],
    names: &[String],
    a: &IterationSides,
) -> PairOptions {
    let side = |fixed: &Vec<(String, String)>, values: &[i64]| {
        let mut options = fixed.clone();
        options.extend(
            names
                .iter()
                .zip(values)
                .map(|(n, v)| (n.clone(), v.to_string())),
        );
        options
    };
    Arc::new(vec![side(&fixed[0], &a.plus), side(&fixed[1], &a.minus)])
}

/// An iteration on a slot: its assignment, and the theta+ side's score and the reason
/// of each of its games as they end.
#[derive(Debug)]
pub struct InFlight {
    pub a: IterationSides,
    pub scores: [f64; 2],
    pub reasons: [EndReason; 2],
}

impl InFlight {
    #[must_use]
    pub fn new(a: IterationSides) -> InFlight {
        InFlight {
            a,
            scores: [0.5; 2],
            reasons: [EndReason::MaxPlies; 2],
        }
    }

    /// One of its games ended.
    pub fn add(&mut self, entry: &JournalEntry) {
        // Game 1: theta+ (engine 0) Red; game 2: colours swapped.
        let (game, plus) = match entry.game {
            0 => (0, Color::Red),
            _ => (1, Color::Black),
        };
        self.scores[game] = entry.result.score_for(plus);
        self.reasons[game] = entry.reason;
    }

    /// The order that plays it on the pool: pair k - 1 (the round of its opening) on
    /// fresh engines with its two sides' options.
    #[must_use]
    pub fn order(
        &self,
        fixed: &[Vec<(String, String)>; 2],
        names: &[String],
        state: &watch::Receiver<RunState>,
    ) -> Order<u64> {
        Order {
            tag: self.a.k,
            pair: PairJob {
                pair: self.a.k - 1,
                todo: [true, true],
            },
            options: Some(pair_options(fixed, names, &self.a)),
            state: state.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_update_uses_the_theta_it_is_given_and_the_step_it_was_handed_out_with() {
        let schedule = SpsaConstants::new(
            10,
            SpsaConstants::ALPHA,
            SpsaConstants::GAMMA,
            SpsaConstants::A_RATIO,
        );
        let gains = vec![Gains::new(&schedule, 0.0, 100.0, 5.0, 0.01)];
        let names = vec!["X".to_owned()];
        let a = assign(3, &schedule, &gains, &[50.0], 1);
        assert_eq!(
            a,
            assign(3, &schedule, &gains, &[50.0], 1),
            "the same every time"
        );
        let step = a.steps[0];
        // A win and a draw of theta+: result 1, applied to a theta that moved meanwhile.
        let (after, record) = apply(&a, &names, &gains, &[60.0], [1.0, 0.5]);
        assert_eq!(record.result, 1);
        assert_eq!(record.games, ['W', 'D']);
        let want = gains[0].clip(60.0 + step.r_k * step.c_k * step.flip);
        assert!((after[0] - want).abs() < 1e-12);
        assert!((record.theta["X"] - want).abs() < 1e-12);
        assert_eq!(record.plus["X"], a.plus[0]);
    }

    #[test]
    fn an_update_that_would_make_theta_nan_is_an_error() {
        let schedule = SpsaConstants::new(
            10,
            SpsaConstants::ALPHA,
            SpsaConstants::GAMMA,
            SpsaConstants::A_RATIO,
        );
        let names = vec!["X".to_owned()];
        // Gains no config passes any more (r_end = 1e308 made a infinite): R_k is
        // infinite, and a drawn pair multiplies it by 0.
        let gains = vec![Gains {
            a: f64::INFINITY,
            ..Gains::new(&schedule, 0.0, 100.0, 5.0, 0.01)
        }];
        let a = assign(3, &schedule, &gains, &[50.0], 1);
        let (silent, _) = apply(&a, &names, &gains, &[50.0], [0.5, 0.5]);
        assert!(silent[0].is_nan(), "the formula alone gives NaN");
        let refused = update(&a, &names, &gains, &[50.0], [0.5, 0.5]);
        assert!(
            matches!(&refused, Err(e) if e.k == 1 && e.name == "X" && e.value.is_nan()),
            "{refused:?}"
        );
        let good = vec![Gains::new(&schedule, 0.0, 100.0, 5.0, 0.01)];
        let a = assign(3, &schedule, &good, &[50.0], 1);
        assert!(update(&a, &names, &good, &[50.0], [0.5, 0.5]).is_ok());
    }
}
