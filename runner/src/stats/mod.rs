//! Statistics: Elo, nElo, LOS, pentanomial and trinomial counts, GSPRT, rating lists.
//!
//! Every number matches fishtest (`server/fishtest/stats`) to 1e-6: counts are
//! regularized (zeros become 1e-3) before anything is computed, the SPRT uses
//! the exact maximum-likelihood LLR, and the text block has fastchess's layout.
//!
//! ```
//! use xq_runner::stats::{Estimate, Penta, Sprt, Verdict};
//!
//! let penta = Penta::new([120, 2950, 5700, 3100, 130]);
//! let est = Estimate::new(&penta);
//! assert!((est.elo - 2.461043).abs() < 1e-6);
//! let sprt = Sprt::default(); // [0, 2] nElo, alpha = beta = 0.05
//! let llr = sprt.llr(&penta)?;
//! assert!((llr - 1.4079441).abs() < 1e-6);
//! assert_eq!(sprt.verdict(llr), Verdict::Continue);
//! # Ok::<(), xq_runner::stats::SprtError>(())
//! ```

pub(crate) mod brent;
pub(crate) mod counts;
pub(crate) mod dist;
pub(crate) mod elo;
pub(crate) mod error;
#[cfg(test)]
mod fishtest_checks;
pub(crate) mod linalg;
pub(crate) mod mle;
pub(crate) mod overshoot;
pub(crate) mod penta;
pub(crate) mod rating;
pub(crate) mod report;
pub(crate) mod residuals;
pub(crate) mod sprt;
pub(crate) mod tally;
pub(crate) mod wdl;

pub use counts::WinDrawLoss;
pub use elo::{logistic_score, Estimate};
pub use error::{RatingError, RootError, SprtError};
pub use overshoot::Overshoot;
pub use penta::Penta;
pub use rating::{Anchor, RatingList, ScoreTable};
pub(crate) use report::StatsReport;
pub use sprt::{llr_logistic, llr_normalized, EloModel, Sprt, Verdict};
pub(crate) use tally::Tally;
pub use wdl::Wdl;
