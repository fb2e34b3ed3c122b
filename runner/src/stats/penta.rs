//! Pentanomial pair counts `[LL, LD, DD+WL, WD, WW]`.

use serde::{Deserialize, Serialize};

use super::counts::{CountKind, Counts, WinDrawLoss};
use super::error::CountsError;

/// Pentanomial pair counts `[LL, LD, DD+WL, WD, WW]` from the first engine's
/// point of view. Serialized as that array.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "[u64; 5]", into = "[u64; 5]")]
pub struct Penta {
    /// Pairs lost twice (0 points).
    pub ll: u64,
    /// Pairs with a loss and a draw (0.5 points).
    pub ld: u64,
    /// Pairs with two draws or a win and a loss (1 point).
    pub dd_wl: u64,
    /// Pairs with a win and a draw (1.5 points).
    pub wd: u64,
    /// Pairs won twice (2 points).
    pub ww: u64,
}

impl Penta {
    /// Counts from the array `[LL, LD, DD+WL, WD, WW]`.
    #[must_use]
    pub const fn new(counts: [u64; 5]) -> Self {
        let [ll, ld, dd_wl, wd, ww] = counts;
        Self {
            ll,
            ld,
            dd_wl,
            wd,
            ww,
        }
    }

    /// The array `[LL, LD, DD+WL, WD, WW]`.
    #[must_use]
    pub const fn to_array(self) -> [u64; 5] {
        [self.ll, self.ld, self.dd_wl, self.wd, self.ww]
    }

    /// Counts one pair given its two game outcomes.
    ///
    /// # Examples
    /// ```
    /// use xq_runner::stats::{WinDrawLoss, Penta};
    ///
    /// let mut penta = Penta::default();
    /// penta.add_pair(WinDrawLoss::Win, WinDrawLoss::Loss); // one point: DD+WL
    /// penta.add_pair(WinDrawLoss::Win, WinDrawLoss::Draw); // one and a half: WD
    /// assert_eq!(penta.to_array(), [0, 0, 1, 1, 0]);
    /// ```
    pub fn add_pair(&mut self, first: WinDrawLoss, second: WinDrawLoss) {
        match first.half_points() + second.half_points() {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 => self.dd_wl += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// Counts one pair given its two game scores (each 0, 0.5 or 1).
    ///
    /// # Errors
    /// [`CountsError::InvalidScore`] if a score is not 0, 0.5 or 1.
    pub fn add_scores(&mut self, first: f64, second: f64) -> Result<(), CountsError> {
        let (a, b) = (
            WinDrawLoss::from_score(first)?,
            WinDrawLoss::from_score(second)?,
        );
        self.add_pair(a, b);
        Ok(())
    }

    /// Counts of a list of pairs, each given as its two game scores.
    ///
    /// # Errors
    /// [`CountsError::InvalidScore`] if a score is not 0, 0.5 or 1.
    pub fn from_scores(pairs: &[(f64, f64)]) -> Result<Self, CountsError> {
        let mut penta = Self::default();
        for &(a, b) in pairs {
            penta.add_scores(a, b)?;
        }
        Ok(penta)
    }

    /// Number of pairs.
    #[must_use]
    pub const fn pairs(&self) -> u64 {
        self.ll + self.ld + self.dd_wl + self.wd + self.ww
    }

    /// Number of games (two per pair).
    #[must_use]
    pub const fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Total points of the first engine: 0.5 per LD, 1 per DD+WL, ...
    #[must_use]
    pub fn points(&self) -> f64 {
        (self.ld + 2 * self.dd_wl + 3 * self.wd + 4 * self.ww) as f64 / 2.0
    }

    /// fastchess's `DrawRatio` for pairs: the share of DD+WL pairs, `(DD+WL) / pairs`
    /// (a fraction; NaN without pairs).
    #[must_use]
    pub fn draw_ratio(&self) -> f64 {
        self.dd_wl as f64 / self.pairs() as f64
    }

    /// fastchess's and fishtest's `PairsRatio`: `(WW+WD) / (LL+LD)`, the pairs won
    /// over the pairs lost (infinite when no pair was lost, NaN when neither).
    #[must_use]
    pub fn pairs_ratio(&self) -> f64 {
        (self.ww + self.wd) as f64 / (self.ll + self.ld) as f64
    }

    /// The same counts seen from the second engine.
    #[must_use]
    pub const fn mirrored(self) -> Self {
        Self::new([self.ww, self.wd, self.dd_wl, self.ld, self.ll])
    }
}

impl From<[u64; 5]> for Penta {
    fn from(counts: [u64; 5]) -> Self {
        Self::new(counts)
    }
}

impl From<Penta> for [u64; 5] {
    fn from(penta: Penta) -> Self {
        penta.to_array()
    }
}

impl Counts for Penta {
    fn kind(&self) -> CountKind {
        CountKind::Pentanomial
    }

    fn frequencies(&self) -> Vec<u64> {
        self.to_array().to_vec()
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_land_in_their_buckets() -> Result<(), CountsError> {
        let pairs = [
            (0.0, 0.0),
            (0.0, 0.5),
            (0.5, 0.5),
            (1.0, 0.0),
            (0.5, 1.0),
            (1.0, 1.0),
            (1.0, 1.0),
        ];
        let penta = Penta::from_scores(&pairs)?;
        assert_eq!(penta.to_array(), [1, 1, 2, 1, 2]);
        assert_eq!(penta.games(), 14);
        let points: f64 = pairs.iter().map(|(a, b)| a + b).sum();
        assert!((penta.points() - points).abs() < 1e-12);
        assert!(matches!(
            Penta::from_scores(&[(0.25, 0.0)]),
            Err(CountsError::InvalidScore(_))
        ));
        Ok(())
    }

    #[test]
    fn ratios_follow_fastchess() {
        let p = Penta::new([120, 2950, 5700, 3100, 130]);
        assert!((p.draw_ratio() - 0.475).abs() < 1e-12);
        assert!((p.pairs_ratio() - 3230.0 / 3070.0).abs() < 1e-12);
        assert!(Penta::new([0, 0, 1, 1, 0]).pairs_ratio().is_infinite());
        assert!(Penta::default().pairs_ratio().is_nan());
    }
}
