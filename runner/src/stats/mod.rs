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

pub mod brent;
pub mod counts;
pub mod dist;
pub mod elo;
pub mod error;
#[cfg(test)]
mod fishtest_checks;
pub mod linalg;
pub mod mle;
pub mod overshoot;
pub mod penta;
pub mod rating;
pub mod report;
pub mod residuals;
pub mod sprt;
pub mod tally;
pub mod wdl;

pub use counts::{parse_counts, CountKind, Counts, WinDrawLoss};
pub use dist::{Moments, Pdf};
pub use elo::{logistic_elo, logistic_score, Estimate};
pub use error::{CountsError, RatingError, RootError, SprtError};
pub use overshoot::Overshoot;
pub use penta::Penta;
pub use rating::{Anchor, Rating, RatingList, ScoreTable};
pub use report::{ReportError, StatsReport};
pub use sprt::{llr_logistic, llr_normalized, EloModel, Sprt, Verdict};
pub use tally::{MiddleSplit, Tally};
pub use wdl::{Trinomial, Wdl};
