//! Point estimates: logistic Elo with its 95% interval, LOS, nElo with
//! fishtest's interval, draw ratio and pair ratio.
//!
//! All numbers follow fishtest (`stat_util.get_elo` and the nElo of its
//! results page) on the regularized counts, so they agree with it to 1e-6.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

use super::counts::{CountKind, Counts};

/// The 97.5% quantile of the standard normal law (two-sided 95%).
pub const Z975: f64 = 1.959963984540054;
/// `800 / ln 10`: normalized Elo per unit of t-value (`nElo = C · t`).
pub const NELO_PER_T: f64 = 347.435_585_522_601_46;
/// Scores are clamped to `[SCORE_CLAMP, 1 - SCORE_CLAMP]` before conversion to Elo.
pub const SCORE_CLAMP: f64 = 1e-3;

/// Logistic Elo of an expected score: `-400 log10(1/s - 1)`, with `s`
/// clamped to [0.001, 0.999] (so at most ±1199.83).
#[must_use]
pub fn logistic_elo(score: f64) -> f64 {
    let s = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    // `+ 0.0` turns -0 into +0 so that an even score prints as 0.00.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// Expected score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
#[must_use]
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function Φ.
#[must_use]
pub fn phi(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// Everything a result line shows, estimated from one set of counts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Pentanomial (pairs) or trinomial (games).
    pub kind: CountKind,
    /// Games played (two per pair for pentanomial counts).
    pub games: u64,
    /// Pairs played; `None` for trinomial counts.
    pub pairs: Option<u64>,
    /// Expected score per game of the regularized counts, in [0, 1].
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// Lower end of the 95% Elo interval.
    pub elo_lower: f64,
    /// Upper end of the 95% Elo interval.
    pub elo_upper: f64,
    /// Half width of the 95% interval, `(elo_upper - elo_lower) / 2`.
    pub elo_ci95: f64,
    /// Likelihood of superiority, `Φ((mu - 0.5) / SE)`, a fraction.
    pub los: f64,
    /// Normalized Elo, `C · (mu - 0.5) / sigma_per_game` with `C = 800 / ln 10`.
    pub nelo: f64,
    /// Half width of fishtest's 95% nElo interval.
    pub nelo_ci95: f64,
    /// fastchess's `DrawRatio` as a fraction: `(DD+WL) / pairs` for pentanomial
    /// counts, `D / games` for trinomial ones (raw counts; NaN without games).
    pub draw_ratio: f64,
    /// fastchess's `PairsRatio`, `(WW+WD) / (LL+LD)`; `None` for trinomial counts.
    pub pairs_ratio: Option<f64>,
}

impl Estimate {
    /// Estimates from pentanomial or trinomial counts. Never fails: zero counts
    /// are regularized, so even no games at all give finite numbers (Elo 0,
    /// LOS 0.5, a huge interval).
    #[must_use]
    pub fn new<C: Counts + ?Sized>(counts: &C) -> Self {
        let freq = counts.frequencies();
        let pdf = counts.pdf();
        let m = pdf.moments();
        let (mu, var) = (m.mean, m.var);

        let se = (var / pdf.n).sqrt();
        let (mu_lo, mu_hi) = (mu - Z975 * se, mu + Z975 * se);
        let (elo_lower, elo_upper) = (logistic_elo(mu_lo), logistic_elo(mu_hi));

        // nElo: t-value of the pair (or game) score; per game sigma is sqrt(2)
        // times the pair sigma for pentanomial counts.
        let t = (mu - 0.5) / var.sqrt();
        let var_t = (1.0 - t * m.skewness + 0.25 * t * t * (m.exkurt + 2.0)).max(0.0);
        let coeff = match counts.kind() {
            CountKind::Pentanomial => NELO_PER_T / std::f64::consts::SQRT_2,
            CountKind::Trinomial => NELO_PER_T,
        };

        let units: u64 = freq.iter().sum();
        let middle = freq.get(freq.len() / 2).copied().unwrap_or(0);
        let (games, pairs, pairs_ratio) = match counts.kind() {
            CountKind::Pentanomial => {
                let won = freq.iter().skip(3).sum::<u64>() as f64;
                let lost = freq.iter().take(2).sum::<u64>() as f64;
                (2 * units, Some(units), Some(won / lost))
            }
            CountKind::Trinomial => (units, None, None),
        };

        Self {
            kind: counts.kind(),
            games,
            pairs,
            score: mu,
            elo: logistic_elo(mu),
            elo_lower,
            elo_upper,
            elo_ci95: (elo_upper - elo_lower) / 2.0,
            los: phi((mu - 0.5) / se),
            nelo: coeff * t,
            nelo_ci95: coeff * Z975 * (var_t / pdf.n).sqrt(),
            draw_ratio: middle as f64 / units as f64,
            pairs_ratio,
        }
    }
}

impl Estimate {
    /// The estimate as every output shows it: [`Estimate::new`], but with every number
    /// undefined (NaN: `n/a` in text and HTML, `null` in JSON) when the counts hold no
    /// games (no complete pair, for pair counts). The point estimates of regularized
    /// empty counts (Elo 0, LOS 50 %, an interval of +/- 1199.83) describe the
    /// regularization, not the engines. One pair is enough for numbers: their interval
    /// then says how little they mean.
    #[must_use]
    pub fn reported<C: Counts + ?Sized>(counts: &C) -> Self {
        let mut e = Self::new(counts);
        if e.games == 0 {
            for x in [
                &mut e.score,
                &mut e.elo,
                &mut e.elo_lower,
                &mut e.elo_upper,
                &mut e.elo_ci95,
                &mut e.los,
                &mut e.nelo,
                &mut e.nelo_ci95,
                &mut e.draw_ratio,
            ] {
                *x = f64::NAN;
            }
            e.pairs_ratio = e.pairs_ratio.map(|_| f64::NAN);
        }
        e
    }

    /// Whether the estimate is undefined: no games ([`Estimate::reported`]).
    #[must_use]
    pub fn is_undefined(&self) -> bool {
        self.games == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Penta, Wdl};

    #[test]
    fn constants_are_what_they_claim() {
        assert!((NELO_PER_T - 800.0 / 10f64.ln()).abs() < 1e-12);
        let z = Normal::standard().inverse_cdf(0.975);
        assert!((z - Z975).abs() < 1e-9, "{z}");
        // statrs's normal law is good to about 1e-12 here.
        assert!((phi(Z975) - 0.975).abs() < 1e-11, "{}", phi(Z975) - 0.975);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-800.0, -3.0, 0.0, 2.5, 400.0] {
            assert!((logistic_elo(logistic_score(elo)) - elo).abs() < 1e-9);
        }
        assert_eq!(logistic_elo(1.0), logistic_elo(0.999));
        assert!(logistic_elo(0.5).is_sign_positive());
    }

    #[test]
    fn zero_games_give_finite_neutral_numbers() {
        for est in [
            Estimate::new(&Penta::default()),
            Estimate::new(&Wdl::default()),
        ] {
            assert_eq!(est.games, 0);
            assert!(est.elo.abs() < 1e-12);
            assert!((est.los - 0.5).abs() < 1e-12);
            assert!(est.elo_ci95.is_finite() && est.elo_ci95 > 0.0);
            assert!(est.nelo.abs() < 1e-12 && est.nelo_ci95.is_finite());
            assert!(est.draw_ratio.is_nan());
        }
    }

    #[test]
    fn all_wins_clamp_near_1200() {
        // The score is clamped to 0.999: about +1199.83.
        let top = logistic_elo(0.999);
        assert!((top - 1_199.826_195).abs() < 1e-6);
        let est = Estimate::new(&Penta::new([0, 0, 0, 0, 10]));
        assert!((est.elo - top).abs() < 1e-9, "{}", est.elo);
        assert!(est.los > 0.999_999);
        assert!(est.nelo > 0.0 && est.nelo.is_finite());
        let est = Estimate::new(&Wdl::new([0, 0, 25]));
        assert!((est.elo - top).abs() < 1e-9);
        assert!(est.draw_ratio == 0.0 && est.pairs_ratio.is_none());
    }

    #[test]
    fn one_pair_is_fine() {
        let est = Estimate::new(&Penta::new([0, 0, 0, 1, 0]));
        assert_eq!((est.games, est.pairs), (2, Some(1)));
        assert!(est.elo > 0.0 && est.elo_ci95.is_finite());
        assert_eq!(est.pairs_ratio, Some(f64::INFINITY));
    }
}
