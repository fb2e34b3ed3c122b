//! The fit: the evaluation with weights `w` is `fixed + sum(w_t * term_t)`, and the
//! predicted score of a position is `sigmoid(k * evaluation)`. With `k` free, that is a
//! logistic regression on the features (fixed, term_1, ..., term_n) without intercept,
//! whose coefficients are `k` and `k * w_t`: the log loss (cross-entropy against the
//! results 1, 0.5, 0) is convex in them, so Newton's method finds the one minimum in a
//! few steps, where Texel's usual coordinate search over a squared error needs thousands
//! of passes. Weights outside their bounds are fixed at the bound and the rest refitted.

use crate::samples::{Sample, FEATURES};

/// Features scaled by this before the fit (scores are in units where a rook is 1000), so
/// that the Hessian is well conditioned.
const SCALE: f64 = 0.01;

/// The fitted weights (1.0 = the term as the seeds give it) and the fit's measures.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The slope of the sigmoid per unit of evaluation.
    pub k: f64,
    /// One weight per term of [`TERM_TUNABLES`](xq_engine::eval::TERM_TUNABLES).
    pub weights: [f64; FEATURES],
    /// Mean log loss with these weights.
    pub loss: f64,
    /// Standard error of each weight (from the inverse Hessian; 0 for a bound weight).
    pub std_error: [f64; FEATURES],
}

/// Mean log loss and the best `k` of the evaluation with fixed weights.
#[must_use]
pub fn loss_at(samples: &[Sample], weights: &[f64; FEATURES]) -> (f64, f64) {
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (evaluation(s, weights) * SCALE, s.result))
        .collect();
    let (loss, k) = fit_slope(&evals, 1.0 / 3.0);
    (loss, k * SCALE)
}

/// The slope `k` of least mean log loss of `sigmoid(k * e)` over `(e, result)` pairs, and
/// that loss, by Newton's method from `start` (the loss is convex in `k`; each step is
/// halved until the loss falls, as a full step from far away can overshoot).
#[must_use]
pub fn fit_slope(evals: &[(f64, f64)], start: f64) -> (f64, f64) {
    let mean_loss = |k: f64| {
        evals.iter().map(|&(e, y)| log_loss(k * e, y)).sum::<f64>() / evals.len().max(1) as f64
    };
    let mut k = start;
    let mut loss = mean_loss(k);
    for _ in 0..100 {
        let (mut g, mut h) = (0.0, 0.0);
        for &(e, y) in evals {
            let p = sigmoid(k * e);
            g += (p - y) * e;
            h += p * (1.0 - p) * e * e;
        }
        if h <= 0.0 {
            break;
        }
        let mut step = g / h;
        let mut next = mean_loss(k - step);
        while next > loss && step.abs() > 1e-15 * k.abs().max(1e-300) {
            step /= 2.0;
            next = mean_loss(k - step);
        }
        if next > loss {
            break;
        }
        k -= step;
        loss = next;
        if step.abs() < 1e-12 * k.abs().max(1e-300) {
            break;
        }
    }
    (loss, k)
}

/// The weights of least log loss inside `[min, max]`.
#[must_use]
pub fn fit(samples: &[Sample], min: f64, max: f64) -> Fit {
    let mut free = [true; FEATURES];
    let mut bound = [1.0; FEATURES];
    loop {
        let (k, weights, std_error) = newton(samples, &free, &bound);
        // Fix the weight furthest outside its bounds and fit again.
        let outside = (0..FEATURES)
            .filter(|&t| free[t])
            .map(|t| (t, (min - weights[t]).max(weights[t] - max)))
            .filter(|&(_, by)| by > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match outside {
            Some((t, _)) => {
                free[t] = false;
                bound[t] = weights[t].clamp(min, max);
            }
            None => {
                let (loss, _) = loss_at(samples, &weights);
                return Fit {
                    k: k * SCALE,
                    weights,
                    loss,
                    std_error,
                };
            }
        }
    }
}

/// The evaluation of a sample with weights, Red's view.
fn evaluation(s: &Sample, weights: &[f64; FEATURES]) -> f64 {
    s.fixed + s.terms.iter().zip(weights).map(|(x, w)| x * w).sum::<f64>()
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of the prediction `sigmoid(z)` against the result `y`, stable for any z.
pub fn log_loss(z: f64, y: f64) -> f64 {
    // -y ln p - (1 - y) ln(1 - p) = ln(1 + e^z) - y z
    let softplus = if z > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    };
    softplus - y * z
}

/// Newton's method on the coefficients (k, k*w of the free terms); bound terms are
/// folded into the fixed part at their value. Returns k (in scaled units), the weights
/// and their standard errors.
fn newton(
    samples: &[Sample],
    free: &[bool; FEATURES],
    bound: &[f64; FEATURES],
) -> (f64, [f64; FEATURES], [f64; FEATURES]) {
    let columns: Vec<usize> = (0..FEATURES).filter(|&t| free[t]).collect();
    let n = columns.len() + 1;
    let features = |s: &Sample| -> Vec<f64> {
        let fixed = s.fixed
            + (0..FEATURES)
                .filter(|&t| !free[t])
                .map(|t| s.terms[t] * bound[t])
                .sum::<f64>();
        std::iter::once(fixed)
            .chain(columns.iter().map(|&t| s.terms[t]))
            .map(|x| x * SCALE)
            .collect()
    };
    let rows: Vec<(Vec<f64>, f64)> = samples.iter().map(|s| (features(s), s.result)).collect();
    // Start at the seeds' weights (every w = 1) and a plausible k.
    let beta_start = 1.0 / 3.0;
    let mut beta = vec![beta_start; n];
    let mut hessian = vec![vec![0.0; n]; n];
    for _ in 0..30 {
        let mut gradient = vec![0.0; n];
        hessian = vec![vec![0.0; n]; n];
        for (x, y) in &rows {
            let z: f64 = x.iter().zip(&beta).map(|(a, b)| a * b).sum();
            let p = sigmoid(z);
            let curvature = p * (1.0 - p);
            for i in 0..n {
                gradient[i] += (p - y) * x[i];
                for j in 0..=i {
                    hessian[i][j] += curvature * x[i] * x[j];
                }
            }
        }
        // Only the lower triangle was summed; mirror it.
        hessian = (0..n)
            .map(|i| (0..n).map(|j| hessian[i.max(j)][i.min(j)]).collect())
            .collect();
        let Some(step) = solve(&hessian, &gradient) else {
            break;
        };
        for (b, s) in beta.iter_mut().zip(&step) {
            *b -= s;
        }
        if step.iter().map(|s| s.abs()).fold(0.0, f64::max) < 1e-10 {
            break;
        }
    }
    let mut weights = *bound;
    let mut std_error = [0.0; FEATURES];
    let variance = invert_diagonal(&hessian);
    for (i, &t) in columns.iter().enumerate() {
        weights[t] = beta[1 + i] / beta[0];
        // The delta method for w = b_t / b_0, ignoring the covariance with b_0 (whose
        // relative error is far smaller).
        std_error[t] = variance
            .get(1 + i)
            .map_or(0.0, |v| v.sqrt() / beta[0].abs());
    }
    (beta[0], weights, std_error)
}

/// The solution of `a x = b` by Gaussian elimination with partial pivoting; `None` when
/// `a` is singular.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &r)| row.iter().copied().chain(std::iter::once(r)).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let factor = row[col] / pivot_row[col];
                for (a, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *a -= factor * p;
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

/// The diagonal of the inverse of `a` (empty when singular).
fn invert_diagonal(a: &[Vec<f64>]) -> Vec<f64> {
    let n = a.len();
    (0..n)
        .map_while(|i| {
            let unit: Vec<f64> = (0..n).map(|j| f64::from(u8::from(i == j))).collect();
            solve(a, &unit).map(|column| column[i])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use xq_engine::rng::SplitMix64;

    /// Samples whose results are drawn from the model with known weights.
    fn drawn(weights: &[f64; FEATURES], k: f64, count: usize) -> Vec<Sample> {
        let mut rng = SplitMix64::new(7);
        let mut uniform = move || rng.next_f64();
        (0..count)
            .map(|_| {
                let mut s = Sample {
                    fixed: (uniform() - 0.5) * 1200.0,
                    terms: [0.0; FEATURES],
                    result: 0.0,
                };
                for x in &mut s.terms {
                    *x = (uniform() - 0.5) * 400.0;
                }
                let p = sigmoid(k * evaluation(&s, weights));
                s.result = if uniform() < p { 1.0 } else { 0.0 };
                s
            })
            .collect()
    }

    #[test]
    fn the_fit_finds_the_weights_the_results_were_drawn_with() {
        let mut truth = [1.0; FEATURES];
        truth[0] = 0.4;
        truth[3] = 2.0;
        truth[FEATURES - 1] = 0.0;
        let samples = drawn(&truth, 0.004, 60_000);
        let fit = fit(&samples, -10.0, 10.0);
        for (t, (&w, &e)) in fit.weights.iter().zip(&fit.std_error).enumerate() {
            assert!((w - truth[t]).abs() < 4.0 * e + 0.02, "{t}: {fit:?}");
            assert!(e > 0.0 && e < 0.1, "{t}: {fit:?}");
        }
        assert!((fit.k - 0.004).abs() < 0.0004, "{fit:?}");
        // The fitted weights predict better than the seeds' (all 1.0).
        assert!(fit.loss < loss_at(&samples, &[1.0; FEATURES]).0);
    }

    #[test]
    fn a_weight_beyond_its_bound_is_held_at_the_bound() {
        let mut truth = [1.0; FEATURES];
        truth[2] = -1.0;
        let samples = drawn(&truth, 0.004, 30_000);
        let fit = fit(&samples, 0.0, 4.0);
        assert_eq!(fit.weights[2], 0.0);
        assert_eq!(fit.std_error[2], 0.0);
        assert!((fit.weights[5] - 1.0).abs() < 0.15, "{fit:?}");
    }
}
