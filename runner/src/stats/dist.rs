//! Regularized empirical distributions of pair or game scores, and their moments.
//!
//! fishtest never works on raw counts: each zero count is first replaced by
//! 1e-3 ("regularize"), so that no bucket has probability zero and every
//! logarithm and variance below is finite. The total `N` is then not an integer.

use serde::{Deserialize, Serialize};

/// The count that replaces a zero count before any computation (fishtest's epsilon).
pub const REGULARIZER: f64 = 1e-3;

/// An empirical distribution on the equally spaced scores `i / (k - 1)`,
/// `i = 0..k`, built from `k` regularized counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pdf {
    /// Total of the regularized counts.
    pub n: f64,
    /// Score of each bucket: 0, 1/4, ..., 1 (pairs) or 0, 1/2, 1 (games).
    pub scores: Vec<f64>,
    /// Probability of each bucket (regularized count / `n`).
    pub probs: Vec<f64>,
}

/// Mean, variance, skewness and excess kurtosis of a distribution.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    /// Expected score.
    pub mean: f64,
    /// Variance of the score.
    pub var: f64,
    /// Skewness `m3 / var^1.5`.
    pub skewness: f64,
    /// Excess kurtosis `m4 / var^2 - 3`.
    pub exkurt: f64,
}

impl Pdf {
    /// The regularized distribution of `counts` (worst bucket first).
    /// Fewer than two buckets give a distribution on the single score 0.
    #[must_use]
    pub fn from_counts(counts: &[u64]) -> Self {
        let regularized: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARIZER } else { c as f64 })
            .collect();
        let n: f64 = regularized.iter().sum();
        let last = counts.len().saturating_sub(1).max(1) as f64;
        let scores = (0..counts.len()).map(|i| i as f64 / last).collect();
        let probs = regularized.iter().map(|c| c / n).collect();
        Self { n, scores, probs }
    }

    /// Mean and variance of the score.
    #[must_use]
    pub fn mean_var(&self) -> (f64, f64) {
        mean_var(&self.scores, &self.probs)
    }

    /// Mean, variance, skewness and excess kurtosis of the score.
    #[must_use]
    pub fn moments(&self) -> Moments {
        let (mean, var) = self.mean_var();
        let central = |k: i32| -> f64 {
            self.scores
                .iter()
                .zip(&self.probs)
                .map(|(a, p)| p * (a - mean).powi(k))
                .sum()
        };
        Moments {
            mean,
            var,
            skewness: central(3) / var.powf(1.5),
            exkurt: central(4) / (var * var) - 3.0,
        }
    }
}

/// Mean `sum p_i a_i` and variance `sum p_i (a_i - mean)^2` of scores `a` under
/// weights `p`. The weights are used as given (not renormalized), as fishtest does.
#[must_use]
pub fn mean_var(scores: &[f64], probs: &[f64]) -> (f64, f64) {
    let mean: f64 = scores.iter().zip(probs).map(|(a, p)| p * a).sum();
    let var: f64 = scores
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mean) * (a - mean))
        .sum();
    (mean, var)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_counts_are_regularized() {
        let pdf = Pdf::from_counts(&[0, 0, 50, 0, 0]);
        assert!((pdf.n - 50.004).abs() < 1e-12);
        assert_eq!(pdf.scores, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        let total: f64 = pdf.probs.iter().sum();
        assert!((total - 1.0).abs() < 1e-15);
        let (mean, var) = pdf.mean_var();
        assert!((mean - 0.5).abs() < 1e-15);
        assert!(var > 0.0);
    }

    #[test]
    fn moments_of_a_symmetric_two_point_law() {
        let pdf = Pdf::from_counts(&[5, 0, 5]);
        let m = pdf.moments();
        assert!((m.mean - 0.5).abs() < 1e-12);
        assert!(m.skewness.abs() < 1e-12);
        // Almost a two-point law: kurtosis 1, excess -2.
        assert!((m.exkurt + 2.0).abs() < 1e-3);
    }

    #[test]
    fn no_counts_at_all_is_uniform() {
        let pdf = Pdf::from_counts(&[0, 0, 0]);
        assert!(pdf.probs.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-15));
    }
}
