//! The generalized sequential probability ratio test (GSPRT) of fishtest, with
//! the exact maximum-likelihood LLR in the logistic and the normalized model.
//!
//! H0: the Elo difference is `elo0`; H1: it is `elo1`. After each update the
//! LLR is compared with `A = ln(beta / (1 - alpha))` and
//! `B = ln((1 - beta) / alpha)`: H1 is accepted when `LLR > B`, H0 when
//! `LLR < A`, otherwise the test continues.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::counts::{CountKind, Counts};
use super::elo::{logistic_score, NELO_PER_T};
use super::error::{RootError, SprtError};
use super::mle::{llr_of_fits, mle_expected, mle_t_value};

/// In which Elo the SPRT bounds are expressed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo; the hypotheses fix the expected score.
    Logistic,
    /// Normalized Elo (the default of fishtest and fastchess); the hypotheses
    /// fix the t-value `(mu - 0.5) / sigma`, which does not depend on the draw rate.
    #[default]
    Normalized,
}

impl FromStr for EloModel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "logistic" => Ok(Self::Logistic),
            "normalized" => Ok(Self::Normalized),
            _ => Err(format!(
                "unknown Elo model '{s}' (expected logistic or normalized)"
            )),
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Logistic => "logistic",
            Self::Normalized => "normalized",
        })
    }
}

/// The state of a test after an update.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// H0 accepted (the change is not an improvement of `elo1`).
    H0,
    /// H1 accepted.
    H1,
    /// Neither bound crossed yet.
    #[serde(rename = "continue")]
    Continue,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::H0 => "H0",
            Self::H1 => "H1",
            Self::Continue => "continue",
        })
    }
}

/// A GSPRT design: H0 `elo = elo0` against H1 `elo = elo1` with error rates
/// `alpha` (false positive) and `beta` (false negative).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// Elo under H0 (in the chosen model's Elo).
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// Logistic or normalized Elo.
    pub model: EloModel,
}

impl Default for Sprt {
    /// `[0, 2]` normalized Elo at alpha = beta = 0.05.
    fn default() -> Self {
        Self {
            elo0: 0.0,
            elo1: 2.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
        }
    }
}

impl Sprt {
    /// A checked design.
    ///
    /// # Errors
    /// [`SprtError`] when `elo0 >= elo1` (or either is not finite), or alpha or
    /// beta is outside (0, 0.5).
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<Self, SprtError> {
        let sprt = Self {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        };
        sprt.validate()?;
        Ok(sprt)
    }

    /// Checks the design (see [`Sprt::new`]).
    ///
    /// # Errors
    /// As [`Sprt::new`].
    pub fn validate(&self) -> Result<(), SprtError> {
        let in_range = |x: f64| x > 0.0 && x < 0.5;
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1) {
            return Err(SprtError::Bounds {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        if !in_range(self.alpha) {
            return Err(SprtError::Alpha(self.alpha));
        }
        if !in_range(self.beta) {
            return Err(SprtError::Beta(self.beta));
        }
        Ok(())
    }

    /// The lower LLR bound `A = ln(beta / (1 - alpha))`.
    #[must_use]
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper LLR bound `B = ln((1 - beta) / alpha)`.
    #[must_use]
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The LLR of `counts` in this design's model.
    ///
    /// # Errors
    /// [`SprtError::NoFit`] if a hypothesis has no maximum-likelihood fit.
    pub fn llr<C: Counts + ?Sized>(&self, counts: &C) -> Result<f64, SprtError> {
        match self.model {
            EloModel::Logistic => llr_logistic(self.elo0, self.elo1, counts),
            EloModel::Normalized => llr_normalized(self.elo0, self.elo1, counts),
        }
    }

    /// H1 if `llr > B`, H0 if `llr < A`, else continue (NaN continues).
    #[must_use]
    pub fn verdict(&self, llr: f64) -> Verdict {
        self.verdict_corrected(llr, 0.0, 0.0)
    }

    /// As [`Sprt::verdict`] with the bounds moved inwards by the overshoot
    /// corrections `o0` (lower) and `o1` (upper), see
    /// [`Overshoot`](super::overshoot::Overshoot).
    #[must_use]
    pub fn verdict_corrected(&self, llr: f64, o0: f64, o1: f64) -> Verdict {
        if llr < self.lower_bound() + o0 {
            Verdict::H0
        } else if llr > self.upper_bound() - o1 {
            Verdict::H1
        } else {
            Verdict::Continue
        }
    }

    /// How far the LLR has gone towards the bound on its side, as fastchess
    /// prints it: `llr / B` when `llr >= 0`, else `-(llr / A)` (so -0.5 means
    /// half way to H0). Multiply by 100 for the percentage.
    #[must_use]
    pub fn fraction(&self, llr: f64) -> f64 {
        if llr >= 0.0 {
            llr / self.upper_bound()
        } else {
            -llr / self.lower_bound()
        }
    }
}

/// The exact GSPRT LLR with bounds in logistic Elo: the hypotheses fix the
/// expected score `s_j = 1 / (1 + 10^(-elo_j/400))` (fishtest's `LLR_logistic`).
///
/// # Errors
/// [`SprtError::NoFit`] if a fit fails (not expected for finite bounds).
pub fn llr_logistic<C: Counts + ?Sized>(
    elo0: f64,
    elo1: f64,
    counts: &C,
) -> Result<f64, SprtError> {
    let pdf = counts.pdf();
    let fit = |elo: f64| {
        mle_expected(&pdf, logistic_score(elo)).map_err(|e| no_fit("logistic Elo", elo, e))
    };
    let (q0, q1) = (fit(elo0)?, fit(elo1)?);
    Ok(llr_of_fits(&pdf, &q0, &q1))
}

/// The exact GSPRT LLR with bounds in normalized Elo: the hypotheses fix the
/// t-value `t_j = nelo_j / C` of a game, times `sqrt 2` for the pair score of
/// pentanomial counts (fishtest's `LLR_normalized`).
///
/// # Errors
/// [`SprtError::NoFit`] if a fit fails, which happens for very large bounds
/// (hundreds of nElo).
pub fn llr_normalized<C: Counts + ?Sized>(
    nelo0: f64,
    nelo1: f64,
    counts: &C,
) -> Result<f64, SprtError> {
    let pdf = counts.pdf();
    let scale = match counts.kind() {
        CountKind::Pentanomial => std::f64::consts::SQRT_2,
        CountKind::Trinomial => 1.0,
    };
    let fit = |nelo: f64| {
        mle_t_value(&pdf, 0.5, nelo / NELO_PER_T * scale)
            .map_err(|e| no_fit("normalized Elo", nelo, e))
    };
    let (q0, q1) = (fit(nelo0)?, fit(nelo1)?);
    Ok(llr_of_fits(&pdf, &q0, &q1))
}

fn no_fit(model: &str, elo: f64, cause: RootError) -> SprtError {
    SprtError::NoFit {
        what: format!("{model} = {elo}"),
        cause,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Penta, Wdl};

    #[test]
    fn bounds_at_five_percent() {
        let sprt = Sprt::default();
        assert!((sprt.upper_bound() - 2.944_438_979_166_440_3).abs() < 1e-15);
        assert!((sprt.lower_bound() + 2.944_438_979_166_440_3).abs() < 1e-15);
        assert_eq!(sprt.verdict(2.95), Verdict::H1);
        assert_eq!(sprt.verdict(-2.95), Verdict::H0);
        assert_eq!(sprt.verdict(2.944_438_979_166_440_3), Verdict::Continue);
        assert_eq!(sprt.verdict(f64::NAN), Verdict::Continue);
        assert!((sprt.fraction(1.977_92) - 0.671_747).abs() < 1e-5);
        assert!((sprt.fraction(-sprt.upper_bound() / 2.0) + 0.5).abs() < 1e-12);
    }

    #[test]
    fn bad_designs_are_rejected() {
        let m = EloModel::Normalized;
        assert!(matches!(
            Sprt::new(2.0, 2.0, 0.05, 0.05, m),
            Err(SprtError::Bounds { .. })
        ));
        assert!(matches!(
            Sprt::new(f64::NAN, 2.0, 0.05, 0.05, m),
            Err(SprtError::Bounds { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 2.0, 0.5, 0.05, m),
            Err(SprtError::Alpha(_))
        ));
        assert!(matches!(
            Sprt::new(0.0, 2.0, 0.05, 0.0, m),
            Err(SprtError::Beta(_))
        ));
        assert!(Sprt::new(-3.0, 1.0, 0.01, 0.2, m).is_ok());
    }

    #[test]
    fn empty_counts_give_a_finite_llr() -> Result<(), SprtError> {
        let sprt = Sprt::default();
        for llr in [sprt.llr(&Penta::default())?, sprt.llr(&Wdl::default())?] {
            assert!(llr.is_finite() && llr.abs() < 1e-3, "{llr}");
        }
        Ok(())
    }

    #[test]
    fn huge_normalized_bounds_fail_cleanly() {
        let result = llr_normalized(0.0, 5000.0, &Penta::new([10, 20, 30, 20, 10]));
        assert!(matches!(result, Err(SprtError::NoFit { .. })));
    }

    #[test]
    fn model_names_round_trip() {
        for m in [EloModel::Logistic, EloModel::Normalized] {
            assert_eq!(m.to_string().parse::<EloModel>(), Ok(m));
        }
        assert!("bayes".parse::<EloModel>().is_err());
    }
}
