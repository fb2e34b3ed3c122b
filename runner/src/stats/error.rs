//! Typed errors of the statistics module.

use thiserror::Error;

/// Bad result counts or game scores.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum CountsError {
    /// A game score other than 0, 0.5 or 1.
    #[error("a game score must be 0, 0.5 or 1, got {0}")]
    InvalidScore(f64),
    /// Wrong number of comma-separated counts.
    #[error("expected {expected} comma-separated counts, got {got} in '{text}'")]
    Arity {
        /// Counts expected.
        expected: usize,
        /// Counts found.
        got: usize,
        /// The text as given.
        text: String,
    },
    /// A negative count.
    #[error("count '{0}' is negative")]
    Negative(String),
    /// A count that is not a non-negative integer.
    #[error("'{0}' is not a non-negative integer count")]
    NotACount(String),
    /// Counts so large that their sums (games are twice the pairs) would not be exact.
    #[error("the counts add up to more than {max}; no match is that long")]
    TooLarge {
        /// The largest total accepted.
        max: u64,
    },
    /// Pentanomial and trinomial counts that cannot describe the same games.
    #[error("pentanomial and trinomial counts disagree: {0}")]
    Inconsistent(String),
}

/// Failure of the bracketed root finder.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum RootError {
    /// `f(lo)` and `f(hi)` have the same sign, or the bracket is empty.
    #[error("f({lo}) and f({hi}) do not bracket a root")]
    NotBracketed {
        /// Lower end of the bracket.
        lo: f64,
        /// Upper end of the bracket.
        hi: f64,
    },
    /// No convergence within the iteration limit.
    #[error("no convergence after {0} iterations")]
    NotConverged(usize),
    /// A secular equation whose terms all have the same sign: it has no root.
    #[error("the secular equation has no root (its terms all have the same sign)")]
    OneSided,
}

/// Bad SPRT parameters, or a likelihood fit that does not exist.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SprtError {
    /// `elo0 >= elo1`, or a bound that is not finite.
    #[error("SPRT bounds need finite elo0 < elo1, got elo0 = {elo0}, elo1 = {elo1}")]
    Bounds {
        /// Lower Elo bound (H0).
        elo0: f64,
        /// Upper Elo bound (H1).
        elo1: f64,
    },
    /// alpha outside (0, 0.5).
    #[error("alpha must lie in (0, 0.5), got {0}")]
    Alpha(f64),
    /// beta outside (0, 0.5).
    #[error("beta must lie in (0, 0.5), got {0}")]
    Beta(f64),
    /// The maximum-likelihood distribution under a hypothesis could not be found
    /// (for the normalized model with very large bounds it may not exist).
    #[error("no maximum-likelihood fit for {what} on these counts: {cause}")]
    NoFit {
        /// The hypothesis, e.g. "normalized Elo = 500".
        what: String,
        /// The root finder's failure.
        cause: RootError,
    },
}

/// Bad games for a rating list, or ratings without a finite maximum.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RatingError {
    /// No engine has played a game.
    #[error("no games to rate")]
    NoGames,
    /// A game score outside [0, 1].
    #[error("game {game}: score {score} is not in [0, 1]")]
    InvalidScore {
        /// Index of the game in the input.
        game: usize,
        /// The score given.
        score: f64,
    },
    /// An engine playing itself.
    #[error("game {game}: engine {engine} cannot play itself")]
    SelfPlay {
        /// Index of the game in the input.
        game: usize,
        /// The engine.
        engine: usize,
    },
    /// The anchor engine does not exist.
    #[error("anchor engine {anchor} is out of range (there are {engines} engines)")]
    Anchor {
        /// The anchor asked for.
        anchor: usize,
        /// Number of engines.
        engines: usize,
    },
    /// The maximum-likelihood ratings are not finite: some group of engines
    /// scored everything (or nothing) against the rest, or never met them.
    #[error(
        "ratings have no finite maximum: engine {engine} is not linked to engine {other} \
         by results both ways (an engine won or lost every game, or groups never met)"
    )]
    Unbounded {
        /// An engine on one side of the cut.
        engine: usize,
        /// An engine on the other side.
        other: usize,
    },
    /// Newton's method did not converge.
    #[error("rating fit did not converge after {0} iterations")]
    NotConverged(usize),
}
