//! Brent's bracketed root finder (inverse quadratic interpolation, secant and
//! bisection), with the tolerances fishtest gets from its solver.
//!
//! The step logic is the classic one of Brent (1973), in the form used by
//! netlib's `zeros.c`: keep a bracket `[cur, blk]` with `f` of opposite signs,
//! try an interpolation step, and fall back to bisection whenever the step
//! would leave the bracket or shrink it too slowly.

use super::error::RootError;

/// Absolute tolerance on the root.
pub const XTOL: f64 = 2e-12;
/// Relative tolerance on the root (four machine epsilons).
pub const RTOL: f64 = 4.0 * f64::EPSILON;
/// Iteration limit.
pub const MAX_ITER: usize = 100;

/// Finds `x` in `[lo, hi]` with `f(x) = 0`, given that `f(lo)` and `f(hi)`
/// have opposite signs (or one is zero). The answer is within
/// `XTOL + RTOL·|x|` of a root.
///
/// # Errors
/// [`RootError::NotBracketed`] if the signs do not differ or an end is not
/// finite; [`RootError::NotConverged`] after [`MAX_ITER`] iterations.
pub fn find_root<F: FnMut(f64) -> f64>(mut f: F, lo: f64, hi: f64) -> Result<f64, RootError> {
    let not_bracketed = RootError::NotBracketed { lo, hi };
    if !(lo.is_finite() && hi.is_finite()) {
        return Err(not_bracketed);
    }
    // `pre`: the previous iterate; `cur`: the best one; `blk`: the contrapoint.
    let (mut x_pre, mut x_cur) = (lo, hi);
    let (mut f_pre, mut f_cur) = (f(x_pre), f(x_cur));
    if f_pre.is_nan() || f_cur.is_nan() || f_pre * f_cur > 0.0 {
        return Err(not_bracketed);
    }
    if f_pre == 0.0 {
        return Ok(x_pre);
    }
    if f_cur == 0.0 {
        return Ok(x_cur);
    }
    let (mut x_blk, mut f_blk) = (0.0, 0.0);
    let (mut s_pre, mut s_cur) = (0.0, 0.0);

    for _ in 0..MAX_ITER {
        if f_pre != 0.0 && f_cur != 0.0 && (f_pre < 0.0) != (f_cur < 0.0) {
            // The sign change is between pre and cur: pre becomes the contrapoint.
            x_blk = x_pre;
            f_blk = f_pre;
            s_cur = x_cur - x_pre;
            s_pre = s_cur;
        }
        if f_blk.abs() < f_cur.abs() {
            // Keep the smaller |f| in cur.
            x_pre = x_cur;
            x_cur = x_blk;
            x_blk = x_pre;
            f_pre = f_cur;
            f_cur = f_blk;
            f_blk = f_pre;
        }

        let delta = (XTOL + RTOL * x_cur.abs()) / 2.0;
        let s_bis = (x_blk - x_cur) / 2.0;
        if f_cur == 0.0 || s_bis.abs() < delta {
            return Ok(x_cur);
        }

        if s_pre.abs() > delta && f_cur.abs() < f_pre.abs() {
            let s_try = if x_pre == x_blk {
                // Secant through pre and cur.
                -f_cur * (x_cur - x_pre) / (f_cur - f_pre)
            } else {
                // Inverse quadratic interpolation through all three points.
                let d_pre = (f_pre - f_cur) / (x_pre - x_cur);
                let d_blk = (f_blk - f_cur) / (x_blk - x_cur);
                -f_cur * (f_blk * d_blk - f_pre * d_pre) / (d_blk * d_pre * (f_blk - f_pre))
            };
            if 2.0 * s_try.abs() < s_pre.abs().min(3.0 * s_bis.abs() - delta) {
                // Accept the interpolation step.
                s_pre = s_cur;
                s_cur = s_try;
            } else {
                s_pre = s_bis;
                s_cur = s_bis;
            }
        } else {
            s_pre = s_bis;
            s_cur = s_bis;
        }

        x_pre = x_cur;
        f_pre = f_cur;
        if s_cur.abs() > delta {
            x_cur += s_cur;
        } else {
            x_cur += delta.copysign(s_bis);
        }
        f_cur = f(x_cur);
        if f_cur.is_nan() {
            return Err(not_bracketed);
        }
    }
    Err(RootError::NotConverged(MAX_ITER))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_simple_roots() -> Result<(), RootError> {
        let root = find_root(|x| x * x - 2.0, 0.0, 2.0)?;
        assert!((root - 2f64.sqrt()).abs() < 1e-11);
        let r = find_root(|x| x * x * x - x - 2.0, 1.0, 2.0)?;
        assert!((r * r * r - r - 2.0).abs() < 1e-10);
        let r = find_root(f64::cos, 0.0, 3.0)?;
        assert!((r - std::f64::consts::FRAC_PI_2).abs() < 1e-11);
        // Roots at the ends.
        assert_eq!(find_root(|x| x, 0.0, 1.0)?, 0.0);
        assert_eq!(find_root(|x| x - 1.0, 0.0, 1.0)?, 1.0);
        Ok(())
    }

    #[test]
    fn handles_steep_functions_near_a_pole() -> Result<(), RootError> {
        // The secular function has poles just outside its bracket.
        let f = |x: f64| 0.3 * 0.5 / (1.0 + 0.5 * x) + 0.7 * (-0.2) / (1.0 - 0.2 * x);
        let r = find_root(f, -2.0 + 1e-9, 5.0 - 1e-9)?;
        assert!(f(r).abs() < 1e-9);
        Ok(())
    }

    #[test]
    fn reports_missing_brackets() {
        assert!(matches!(
            find_root(|x| x * x + 1.0, -1.0, 1.0),
            Err(RootError::NotBracketed { .. })
        ));
        assert!(find_root(|x| x, f64::NEG_INFINITY, 1.0).is_err());
        assert!(find_root(|_| f64::NAN, 0.0, 1.0).is_err());
    }
}
