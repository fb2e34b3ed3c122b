//! Exact maximum-likelihood fits behind the generalized SPRT.
//!
//! Given the empirical distribution `p` on scores `a_i`, the generalized LLR
//! compares the most likely distributions `q` that satisfy H0 and H1. Both fits
//! reduce to a *secular equation* `sum p_i x_i / (1 + θ x_i) = 0` in one unknown
//! θ, solved by Brent's method on the open interval where all `1 + θ x_i > 0`
//! (inset by 1e-9 at both ends, as fishtest does). The theory is in
//! H. van den Bergh's notes "support_MLE_multinomial" (Proposition 1.1) and
//! "normalized_elo_practical" (Section 4.1), the basis of fishtest's `LLRcalc`.

use super::brent::find_root;
use super::dist::{mean_var, Pdf};
use super::error::RootError;

/// How far inside its poles the secular bracket starts.
pub const BRACKET_INSET: f64 = 1e-9;
/// Fixed-point iterations of the normalized fit, at most.
pub const T_VALUE_MAX_ITER: usize = 10;
/// The normalized fit stops when no probability moves by this much.
pub const T_VALUE_TOL: f64 = 1e-9;

/// Solves `sum p_i x_i / (1 + θ x_i) = 0` for θ in `(-1/max x, -1/min x)`.
///
/// # Errors
/// [`RootError::OneSided`] when the `x_i` do not straddle zero (then no
/// root exists), or the root finder's failure.
pub fn secular(xs: &[f64], probs: &[f64]) -> Result<f64, RootError> {
    let lo_x = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_x = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if xs.iter().any(|x| x.is_nan()) || lo_x * hi_x >= 0.0 {
        return Err(RootError::OneSided);
    }
    let f = |theta: f64| -> f64 {
        xs.iter()
            .zip(probs)
            .map(|(x, p)| p * x / (1.0 + theta * x))
            .sum()
    };
    find_root(f, -1.0 / hi_x + BRACKET_INSET, -1.0 / lo_x - BRACKET_INSET)
}

/// The most likely distribution on `pdf.scores` with expected score `s`,
/// given the empirical `pdf`: `q_i = p_i / (1 + θ (a_i - s))`.
///
/// # Errors
/// The secular equation's failure (only if `s` is outside the scores' range).
pub fn mle_expected(pdf: &Pdf, s: f64) -> Result<Vec<f64>, RootError> {
    let shifted: Vec<f64> = pdf.scores.iter().map(|a| a - s).collect();
    let theta = secular(&shifted, &pdf.probs)?;
    Ok(pdf
        .probs
        .iter()
        .zip(&shifted)
        .map(|(p, x)| p / (1.0 + theta * x))
        .collect())
}

/// The most likely distribution on `pdf.scores` with t-value
/// `(mu - reference) / sigma = t`, given the empirical `pdf`.
///
/// Starts from the uniform distribution and repeats, at most
/// [`T_VALUE_MAX_ITER`] times: with `mu`, `sigma` of the current `q`,
/// `φ_i = a_i - reference - t·sigma·(1 + ((mu - a_i)/sigma)²)/2`, solve the
/// secular equation in φ, `q_i = p_i / (1 + θ φ_i)`; stop once no `q_i` moved
/// by [`T_VALUE_TOL`].
///
/// # Errors
/// The secular equation's failure: for large `|t|` every φ_i can have the same
/// sign and no such fit exists from this start.
pub fn mle_t_value(pdf: &Pdf, reference: f64, t: f64) -> Result<Vec<f64>, RootError> {
    let k = pdf.probs.len();
    let mut q = vec![1.0 / k as f64; k];
    for _ in 0..T_VALUE_MAX_ITER {
        let (mu, var) = mean_var(&pdf.scores, &q);
        let sigma = var.sqrt();
        let phi: Vec<f64> = pdf
            .scores
            .iter()
            .map(|a| {
                let z = (mu - a) / sigma;
                a - reference - t * sigma * (1.0 + z * z) / 2.0
            })
            .collect();
        let theta = secular(&phi, &pdf.probs)?;
        let next: Vec<f64> = pdf
            .probs
            .iter()
            .zip(&phi)
            .map(|(p, x)| p / (1.0 + theta * x))
            .collect();
        let moved = q
            .iter()
            .zip(&next)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        q = next;
        if moved < T_VALUE_TOL {
            break;
        }
    }
    Ok(q)
}

/// The generalized log-likelihood ratio of `q1` against `q0` for the
/// observations `pdf`: `N · sum p_i ln(q1_i / q0_i)`.
#[must_use]
pub fn llr_of_fits(pdf: &Pdf, q0: &[f64], q1: &[f64]) -> f64 {
    let per_sample: f64 = pdf
        .probs
        .iter()
        .zip(q0.iter().zip(q1))
        .map(|(p, (a, b))| p * (b.ln() - a.ln()))
        .sum();
    pdf.n * per_sample
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pdf(counts: &[u64]) -> Pdf {
        Pdf::from_counts(counts)
    }

    #[test]
    fn expected_fit_has_the_asked_mean_and_is_a_distribution() -> Result<(), RootError> {
        let p = pdf(&[120, 2950, 5700, 3100, 130]);
        for s in [0.3, 0.5, 0.5028, 0.7] {
            let q = mle_expected(&p, s)?;
            let (mean, _) = mean_var(&p.scores, &q);
            assert!((mean - s).abs() < 1e-9, "mean {mean} for s {s}");
            assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(q.iter().all(|&x| x > 0.0));
        }
        Ok(())
    }

    #[test]
    fn fit_at_the_empirical_mean_is_the_empirical_law() -> Result<(), RootError> {
        let p = pdf(&[10, 20, 30, 25, 15]);
        let (mean, _) = p.mean_var();
        let q = mle_expected(&p, mean)?;
        for (a, b) in q.iter().zip(&p.probs) {
            assert!((a - b).abs() < 1e-9);
        }
        Ok(())
    }

    #[test]
    fn t_value_fit_has_the_asked_t() -> Result<(), RootError> {
        let p = pdf(&[120, 2950, 5700, 3100, 130]);
        for t in [-0.05, 0.0, 0.0081, 0.05] {
            let q = mle_t_value(&p, 0.5, t)?;
            let (mu, var) = mean_var(&p.scores, &q);
            assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-5);
        }
        Ok(())
    }

    #[test]
    fn secular_needs_a_sign_change() {
        assert!(secular(&[0.1, 0.2], &[0.5, 0.5]).is_err());
        assert!(secular(&[f64::NAN, 0.2], &[0.5, 0.5]).is_err());
    }
}
