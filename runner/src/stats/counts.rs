//! Result counts: pentanomial pair counts and trinomial game counts.
//!
//! A *pair* is one opening played twice with colours swapped. Its pair score
//! (the sum of the two game scores of the first engine) falls into one of five
//! buckets, `[LL, LD, DD+WL, WD, WW]` (0, 0.5, 1, 1.5, 2 points). Games that are
//! not paired are counted as `[L, D, W]`. Both are plain sums, so adding two
//! count sets is exact: shards of a run and resumed runs merge with `+`.
//!
//! This file holds what both kinds share; the types are in
//! [`penta`](super::penta) and [`wdl`](super::wdl).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::dist::Pdf;
use super::error::CountsError;
use super::penta::Penta;
use super::wdl::Wdl;

/// The result of one game from the first engine's point of view: win, draw or loss
/// (the game's own result, from Red's side, is `game::Outcome`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WinDrawLoss {
    /// Score 0.
    Loss,
    /// Score 0.5.
    Draw,
    /// Score 1.
    Win,
}

impl WinDrawLoss {
    /// The outcome of a game score, which must be exactly 0, 0.5 or 1.
    ///
    /// # Errors
    /// [`CountsError::InvalidScore`] for any other number.
    pub fn from_score(score: f64) -> Result<Self, CountsError> {
        if score == 0.0 {
            Ok(Self::Loss)
        } else if score == 0.5 {
            Ok(Self::Draw)
        } else if score == 1.0 {
            Ok(Self::Win)
        } else {
            Err(CountsError::InvalidScore(score))
        }
    }

    /// Half points scored: 0, 1 or 2.
    #[must_use]
    pub const fn half_points(self) -> usize {
        match self {
            Self::Loss => 0,
            Self::Draw => 1,
            Self::Win => 2,
        }
    }

    /// The game score: 0, 0.5 or 1.
    #[must_use]
    pub fn score(self) -> f64 {
        self.half_points() as f64 / 2.0
    }
}

/// Which kind of counts a set is; decides the scores of its buckets and the
/// unit of `N` (pairs or games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CountKind {
    /// Five pair buckets, scores 0, 1/4, 1/2, 3/4, 1; `N` counts pairs.
    Pentanomial,
    /// Three game buckets, scores 0, 1/2, 1; `N` counts games.
    Trinomial,
}

/// A set of result counts that the estimators and the SPRT accept.
pub trait Counts {
    /// Pentanomial or trinomial.
    fn kind(&self) -> CountKind;

    /// The raw counts, worst bucket first.
    fn frequencies(&self) -> Vec<u64>;

    /// The regularized empirical distribution (zero counts become 1e-3).
    fn pdf(&self) -> Pdf {
        Pdf::from_counts(&self.frequencies())
    }
}

/// Implements exact merging (`+`, `+=`, `sum()`), `Display` as `a, b, c` and
/// `FromStr` from `a,b,c` for a count type with an array form.
macro_rules! count_set_ops {
    ($ty:ident, $n:literal) => {
        impl Add for $ty {
            type Output = Self;
            fn add(self, rhs: Self) -> Self {
                let (a, b) = (self.to_array(), rhs.to_array());
                Self::new(std::array::from_fn(|i| a[i] + b[i]))
            }
        }

        impl AddAssign for $ty {
            fn add_assign(&mut self, rhs: Self) {
                *self = *self + rhs;
            }
        }

        impl Sum for $ty {
            fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
                iter.fold(Self::default(), Add::add)
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let parts: Vec<String> = self.to_array().iter().map(u64::to_string).collect();
                write!(f, "{}", parts.join(", "))
            }
        }

        impl FromStr for $ty {
            type Err = CountsError;
            fn from_str(s: &str) -> Result<Self, CountsError> {
                parse_counts::<$n>(s).map(Self::new)
            }
        }
    };
}

count_set_ops!(Penta, 5);
count_set_ops!(Wdl, 3);

/// The largest total of counts accepted from text: sums, twice it (the games of pairs)
/// and points stay exact in integers and in `f64` (below 2^53).
pub const MAX_TOTAL_COUNT: u64 = 1 << 50;

/// Parses `N` comma-separated non-negative integer counts (spaces allowed).
///
/// # Errors
/// [`CountsError::Arity`], [`CountsError::Negative`], [`CountsError::NotACount`] or
/// [`CountsError::TooLarge`].
pub fn parse_counts<const N: usize>(text: &str) -> Result<[u64; N], CountsError> {
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    if items.len() != N {
        return Err(CountsError::Arity {
            expected: N,
            got: items.len(),
            text: text.to_owned(),
        });
    }
    let mut counts = [0; N];
    for (slot, item) in counts.iter_mut().zip(items) {
        *slot = item.parse::<u64>().map_err(|_| {
            if item.parse::<i128>().is_ok_and(|v| v < 0) {
                CountsError::Negative(item.to_owned())
            } else {
                CountsError::NotACount(item.to_owned())
            }
        })?;
    }
    let total = counts.iter().try_fold(0u64, |sum, &c| sum.checked_add(c));
    if total.is_none_or(|t| t > MAX_TOTAL_COUNT) {
        return Err(CountsError::TooLarge {
            max: MAX_TOTAL_COUNT,
        });
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_whose_sums_would_wrap_are_refused() {
        let max = u64::MAX;
        assert!(matches!(
            parse_counts::<3>(&format!("{max},{max},{max}")),
            Err(CountsError::TooLarge { .. })
        ));
        assert!(matches!(
            parse_counts::<5>(&format!("{},0,0,0,1", MAX_TOTAL_COUNT)),
            Err(CountsError::TooLarge { .. })
        ));
        assert_eq!(
            parse_counts::<5>(&format!("{},0,0,0,0", MAX_TOTAL_COUNT)).ok(),
            Some([MAX_TOTAL_COUNT, 0, 0, 0, 0])
        );
    }

    #[test]
    fn merging_is_exact() {
        let a = Penta::new([1, 2, 3, 4, 5]);
        let b = Penta::new([10, 20, 30, 40, 50]);
        assert_eq!((a + b).to_array(), [11, 22, 33, 44, 55]);
        let total: Penta = [a, b, a].into_iter().sum();
        assert_eq!(total.to_array(), [12, 24, 36, 48, 60]);
        let mut w = Wdl::new([1, 2, 3]);
        w += Wdl::new([3, 2, 1]);
        assert_eq!(w.to_array(), [4, 4, 4]);
        assert_eq!(a.mirrored().mirrored(), a);
    }

    #[test]
    fn parsing_rejects_bad_counts() {
        assert_eq!(
            "1, 2,3,4 ,5".parse::<Penta>().ok(),
            Some(Penta::new([1, 2, 3, 4, 5]))
        );
        assert!(matches!(
            "1,2,3".parse::<Penta>(),
            Err(CountsError::Arity { got: 3, .. })
        ));
        assert!(matches!(
            "1,-2,3".parse::<Wdl>(),
            Err(CountsError::Negative(_))
        ));
        assert!(matches!(
            "1,x,3".parse::<Wdl>(),
            Err(CountsError::NotACount(_))
        ));
        assert!(matches!(
            "1,2.5,3".parse::<Wdl>(),
            Err(CountsError::NotACount(_))
        ));
        assert!(matches!(
            "".parse::<Wdl>(),
            Err(CountsError::Arity { got: 1, .. })
        ));
    }

    #[test]
    fn serde_uses_arrays() -> Result<(), serde_json::Error> {
        let p = Penta::new([1, 2, 3, 4, 5]);
        assert_eq!(serde_json::to_string(&p)?, "[1,2,3,4,5]");
        assert_eq!(serde_json::from_str::<Wdl>("[3,2,1]")?, Wdl::new([3, 2, 1]));
        Ok(())
    }
}
