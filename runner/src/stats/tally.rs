//! The full record of a paired match: pentanomial pair counts and trinomial
//! game counts together, and the WL/DD split that only both together determine.
//!
//! A DD+WL pair scores one point either way, so pentanomial counts alone do not
//! say how many games were won, lost or drawn. With the game counts beside
//! them the split is exact: wins are `WL + WD + 2·WW`, hence
//! `WL = W - WD - 2·WW` and `DD = (DD+WL) - WL`.

use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

use super::counts::WinDrawLoss;
use super::error::CountsError;
use super::penta::Penta;
use super::wdl::Wdl;

/// Pair and game counts of one paired match; merging is exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tally {
    /// Pair counts `[LL, LD, DD+WL, WD, WW]`.
    pub penta: Penta,
    /// Game counts `[L, D, W]`.
    pub wdl: Wdl,
}

/// The two kinds of one-point pairs, known only with game counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MiddleSplit {
    /// Pairs with one win and one loss.
    pub wl: u64,
    /// Pairs with two draws.
    pub dd: u64,
}

impl MiddleSplit {
    /// fastchess's `WL/DD Ratio` (infinite or NaN when there is no DD pair).
    #[must_use]
    pub fn ratio(&self) -> f64 {
        self.wl as f64 / self.dd as f64
    }
}

impl Tally {
    /// Pentanomial and trinomial counts that must describe the same games.
    ///
    /// # Errors
    /// [`CountsError::Inconsistent`] if they cannot (see [`Tally::middle_split`]).
    pub fn new(penta: Penta, wdl: Wdl) -> Result<Self, CountsError> {
        let tally = Self { penta, wdl };
        tally.middle_split()?;
        Ok(tally)
    }

    /// Counts one pair given its two game outcomes.
    pub fn add_pair(&mut self, first: WinDrawLoss, second: WinDrawLoss) {
        self.penta.add_pair(first, second);
        self.wdl.add_game(first);
        self.wdl.add_game(second);
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

    /// How the DD+WL pairs split into WL and DD pairs.
    ///
    /// # Errors
    /// [`CountsError::Inconsistent`] when the game count is not twice the pair
    /// count, or the wins or draws cannot come from these pairs.
    pub fn middle_split(&self) -> Result<MiddleSplit, CountsError> {
        let (p, w) = (self.penta, self.wdl);
        let bad = |why: String| Err(CountsError::Inconsistent(why));
        if w.games() != p.games() {
            return bad(format!("{} games but {} pairs", w.games(), p.pairs()));
        }
        let wins_outside = p.wd + 2 * p.ww;
        let Some(wl) = w.wins.checked_sub(wins_outside).filter(|&wl| wl <= p.dd_wl) else {
            return bad(format!(
                "{} wins cannot come from WD = {}, WW = {} and DD+WL = {}",
                w.wins, p.wd, p.ww, p.dd_wl
            ));
        };
        let dd = p.dd_wl - wl;
        if w.draws != p.ld + 2 * dd + p.wd {
            return bad(format!(
                "{} draws, but LD + 2·DD + WD = {}",
                w.draws,
                p.ld + 2 * dd + p.wd
            ));
        }
        Ok(MiddleSplit { wl, dd })
    }
}

impl Add for Tally {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        Self {
            penta: self.penta + rhs.penta,
            wdl: self.wdl + rhs.wdl,
        }
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_of_recorded_pairs() -> Result<(), CountsError> {
        let mut t = Tally::default();
        for (a, b) in [
            (1.0, 0.0),
            (0.0, 1.0),
            (0.5, 0.5),
            (1.0, 0.5),
            (0.0, 0.5),
            (1.0, 1.0),
        ] {
            t.add_scores(a, b)?;
        }
        assert_eq!(t.penta.to_array(), [0, 1, 3, 1, 1]);
        assert_eq!(t.wdl.to_array(), [3, 4, 5]);
        assert_eq!(t.middle_split()?, MiddleSplit { wl: 2, dd: 1 });
        assert!((t.middle_split()?.ratio() - 2.0).abs() < 1e-12);
        let twice = t + t;
        assert_eq!(twice.middle_split()?, MiddleSplit { wl: 4, dd: 2 });
        Ok(())
    }

    #[test]
    fn inconsistent_counts_are_rejected() {
        let penta = Penta::new([0, 0, 2, 0, 0]);
        assert!(Tally::new(penta, Wdl::new([1, 2, 1])).is_ok());
        assert!(Tally::new(penta, Wdl::new([0, 4, 0])).is_ok());
        // Wrong number of games.
        assert!(Tally::new(penta, Wdl::new([1, 1, 1])).is_err());
        // Three wins cannot come from two one-point pairs.
        assert!(Tally::new(penta, Wdl::new([1, 0, 3])).is_err());
        // Wins fit but then draws do not.
        assert!(Tally::new(penta, Wdl::new([2, 1, 1])).is_err());
    }
}
