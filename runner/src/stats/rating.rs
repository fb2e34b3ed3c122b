//! Rating lists for several engines (gauntlets, round robins): maximum-likelihood
//! logistic Elo over all games, anchored, with 95% intervals and a LOS table.
//!
//! The model is Bradley–Terry on the Elo scale, with draws as half points: the
//! first engine's expected score against the second is
//! `p = 1 / (1 + 10^((r2 - r1)/400))` and the log-likelihood is
//! `sum over games of s ln p + (1 - s) ln(1 - p)`. It is maximized by Newton's
//! method with step halving. The covariance of the ratings is the inverse of
//! the observed Fisher information (the negative Hessian) with the anchor
//! fixed; intervals are `±1.96 sd` and `LOS(i, j) = Φ((r_i - r_j) / sd(r_i - r_j))`.
//!
//! Games are treated as independent and a draw as a half point with binomial
//! variance, so with many draws or paired openings the intervals are
//! conservative (wider than the true spread).

use serde::{Deserialize, Serialize};

use super::elo::{phi, Z975};
use super::error::RatingError;
use super::linalg::{cholesky, cholesky_inverse, cholesky_solve, Matrix};

/// Newton iterations, at most.
const MAX_ITER: usize = 200;
/// The fit stops when no rating moves by more than this many Elo.
const TOL_ELO: f64 = 1e-9;
/// `ln 10 / 400`: natural-log odds per Elo.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// Which ratings are fixed, since only differences are determined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Anchor {
    /// This engine is rated 0 (its interval is 0; the others' are relative to it).
    Engine(usize),
    /// The ratings average 0.
    Mean,
}

impl Default for Anchor {
    /// The first engine is rated 0.
    fn default() -> Self {
        Self::Engine(0)
    }
}

/// Points and games between every two engines.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreTable {
    /// `points[i][j]`: points engine `i` scored against engine `j`.
    pub points: Matrix,
    /// `games[i][j]`: games between `i` and `j` (symmetric).
    pub games: Matrix,
}

impl ScoreTable {
    /// An empty table for `engines` engines.
    #[must_use]
    pub fn new(engines: usize) -> Self {
        Self {
            points: vec![vec![0.0; engines]; engines],
            games: vec![vec![0.0; engines]; engines],
        }
    }

    /// The table of `games`, each `(first, second, score of first)`; the number
    /// of engines is one more than the largest index.
    ///
    /// # Errors
    /// [`RatingError::InvalidScore`] for a score outside [0, 1],
    /// [`RatingError::SelfPlay`] for a game of an engine against itself.
    pub fn from_games(games: &[(usize, usize, f64)]) -> Result<Self, RatingError> {
        let engines = games
            .iter()
            .map(|&(a, b, _)| a.max(b) + 1)
            .max()
            .unwrap_or(0);
        let mut table = Self::new(engines);
        for (index, &(a, b, score)) in games.iter().enumerate() {
            if !(0.0..=1.0).contains(&score) {
                return Err(RatingError::InvalidScore { game: index, score });
            }
            if a == b {
                return Err(RatingError::SelfPlay {
                    game: index,
                    engine: a,
                });
            }
            table.add(a, b, score);
        }
        Ok(table)
    }

    /// Adds one game between engines `a` and `b` (both below [`ScoreTable::engines`])
    /// in which `a` scored `score`.
    pub fn add(&mut self, a: usize, b: usize, score: f64) {
        self.points[a][b] += score;
        self.points[b][a] += 1.0 - score;
        self.games[a][b] += 1.0;
        self.games[b][a] += 1.0;
    }

    /// Number of engines.
    #[must_use]
    pub fn engines(&self) -> usize {
        self.points.len()
    }

    /// Engines not reachable from engine 0 by "scored against" links in both
    /// directions; the maximum likelihood is finite only if there are none.
    fn unlinked(&self) -> Option<usize> {
        let n = self.engines();
        let reach = |forward: bool| {
            let mut seen = vec![false; n];
            let mut stack = vec![0];
            seen[0] = true;
            while let Some(i) = stack.pop() {
                for (j, seen_j) in seen.iter_mut().enumerate() {
                    let scored = if forward {
                        self.points[i][j]
                    } else {
                        self.points[j][i]
                    };
                    if !*seen_j && scored > 0.0 {
                        *seen_j = true;
                        stack.push(j);
                    }
                }
            }
            seen
        };
        let (fwd, back) = (reach(true), reach(false));
        (0..n).find(|&j| !(fwd[j] && back[j]))
    }
}

/// One engine's line in a rating list.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Maximum-likelihood Elo relative to the anchor.
    pub elo: f64,
    /// Half width of its 95% interval.
    pub ci95: f64,
    /// Games played.
    pub games: f64,
    /// Points scored.
    pub points: f64,
}

/// Anchored maximum-likelihood ratings with intervals and pairwise LOS.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingList {
    /// How the ratings are anchored.
    pub anchor: Anchor,
    /// One rating per engine, in input order.
    pub ratings: Vec<Rating>,
    /// Covariance of the ratings (Elo²).
    pub covariance: Matrix,
    /// `los[i][j]`: probability that engine `i` is stronger than engine `j`
    /// (0.5 on the diagonal).
    pub los: Matrix,
    /// Newton iterations used.
    pub iterations: usize,
}

impl RatingList {
    /// Fits ratings to `games`, each `(first, second, score of first)` with the
    /// score in [0, 1] (draws 0.5).
    ///
    /// # Errors
    /// See [`ScoreTable::from_games`] and [`RatingList::fit_table`].
    ///
    /// # Examples
    /// ```
    /// use xq_runner::stats::{Anchor, RatingList};
    ///
    /// // Engine 1 scores 3/4 against engine 0, engine 2 scores 1/2 against both.
    /// let games = [(0, 1, 0.0), (1, 0, 0.5), (0, 1, 0.5), (1, 0, 1.0), (2, 0, 0.5), (1, 2, 0.5)];
    /// let list = RatingList::fit(&games, Anchor::Engine(0))?;
    /// assert_eq!(list.ratings[0].elo, 0.0);
    /// assert!(list.ratings[1].elo > list.ratings[2].elo && list.ratings[2].elo > 0.0);
    /// assert!(list.los[1][0] > 0.5);
    /// # Ok::<(), xq_runner::stats::RatingError>(())
    /// ```
    pub fn fit(games: &[(usize, usize, f64)], anchor: Anchor) -> Result<Self, RatingError> {
        Self::fit_table(&ScoreTable::from_games(games)?, anchor)
    }

    /// Fits ratings to a score table.
    ///
    /// # Errors
    /// [`RatingError::NoGames`], [`RatingError::Anchor`] for an anchor out of
    /// range, [`RatingError::Unbounded`] when the maximum is not finite,
    /// [`RatingError::NotConverged`] if Newton's method fails.
    pub fn fit_table(table: &ScoreTable, anchor: Anchor) -> Result<Self, RatingError> {
        let n = table.engines();
        let total: f64 = table.games.iter().flatten().sum();
        if n < 2 || total <= 0.0 {
            return Err(RatingError::NoGames);
        }
        let fixed = match anchor {
            Anchor::Engine(a) if a >= n => {
                return Err(RatingError::Anchor {
                    anchor: a,
                    engines: n,
                })
            }
            Anchor::Engine(a) => a,
            Anchor::Mean => 0,
        };
        if let Some(other) = table.unlinked() {
            return Err(RatingError::Unbounded { engine: 0, other });
        }
        let free: Vec<usize> = (0..n).filter(|&i| i != fixed).collect();

        let mut r = vec![0.0; n];
        let mut iterations = 0;
        loop {
            if iterations == MAX_ITER {
                return Err(RatingError::NotConverged(MAX_ITER));
            }
            iterations += 1;
            let (grad, info) = derivatives(table, &r);
            let l = cholesky(&reduce(&info, &free)).ok_or(RatingError::NotConverged(iterations))?;
            let g: Vec<f64> = free.iter().map(|&i| grad[i]).collect();
            let step = cholesky_solve(&l, &g);

            // Step halving keeps every iterate an improvement.
            let base = log_likelihood(table, &r);
            let mut t = 1.0;
            let trial = loop {
                let mut next = r.clone();
                for (&i, s) in free.iter().zip(&step) {
                    next[i] += t * s;
                }
                if log_likelihood(table, &next) >= base - 1e-12 * base.abs() || t < 1e-6 {
                    break next;
                }
                t /= 2.0;
            };
            let moved = step.iter().map(|s| (t * s).abs()).fold(0.0, f64::max);
            r = trial;
            if moved < TOL_ELO {
                break;
            }
        }

        let (_, info) = derivatives(table, &r);
        let l = cholesky(&reduce(&info, &free)).ok_or(RatingError::NotConverged(iterations))?;
        let inv = cholesky_inverse(&l);
        let mut cov = vec![vec![0.0; n]; n];
        for (a, &i) in free.iter().enumerate() {
            for (b, &j) in free.iter().enumerate() {
                cov[i][j] = inv[a][b];
            }
        }
        if anchor == Anchor::Mean {
            let mean = r.iter().sum::<f64>() / n as f64;
            r.iter_mut().for_each(|x| *x -= mean);
            cov = center(&cov);
        }

        let ratings = (0..n)
            .map(|i| Rating {
                elo: r[i] + 0.0,
                ci95: Z975 * cov[i][i].max(0.0).sqrt(),
                games: table.games[i].iter().sum(),
                points: table.points[i].iter().sum(),
            })
            .collect();
        let los = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let var = cov[i][i] + cov[j][j] - 2.0 * cov[i][j];
                        if i == j || var <= 0.0 {
                            0.5
                        } else {
                            phi((r[i] - r[j]) / var.sqrt())
                        }
                    })
                    .collect()
            })
            .collect();
        Ok(Self {
            anchor,
            ratings,
            covariance: cov,
            los,
            iterations,
        })
    }
}

/// `ln p` for the logistic with log-odds `x`, without overflow.
fn ln_sigmoid(x: f64) -> f64 {
    -((-x.abs()).exp().ln_1p() + (-x).max(0.0))
}

/// `sum over ordered pairs of points[i][j] · ln p_ij`.
fn log_likelihood(table: &ScoreTable, r: &[f64]) -> f64 {
    let n = r.len();
    let mut sum = 0.0;
    for i in 0..n {
        for j in 0..n {
            if table.points[i][j] > 0.0 {
                sum += table.points[i][j] * ln_sigmoid(K * (r[i] - r[j]));
            }
        }
    }
    sum
}

/// Gradient of the log-likelihood and the observed information (negative Hessian), per Elo.
fn derivatives(table: &ScoreTable, r: &[f64]) -> (Vec<f64>, Matrix) {
    let n = r.len();
    let mut grad = vec![0.0; n];
    let mut info = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            let g = table.games[i][j];
            if i == j || g == 0.0 {
                continue;
            }
            let p = ln_sigmoid(K * (r[i] - r[j])).exp();
            grad[i] += K * (table.points[i][j] - g * p);
            let w = K * K * g * p * (1.0 - p);
            info[i][i] += w;
            info[i][j] -= w;
        }
    }
    (grad, info)
}

/// The rows and columns `keep` of `m`.
fn reduce(m: &[Vec<f64>], keep: &[usize]) -> Matrix {
    keep.iter()
        .map(|&i| keep.iter().map(|&j| m[i][j]).collect())
        .collect()
}

/// `P C P` with `P = I - 11ᵀ/n`: the covariance of ratings shifted to mean 0.
fn center(c: &[Vec<f64>]) -> Matrix {
    let n = c.len();
    let nf = n as f64;
    let row_mean: Vec<f64> = c.iter().map(|row| row.iter().sum::<f64>() / nf).collect();
    let col_mean: Vec<f64> = (0..n)
        .map(|j| c.iter().map(|row| row[j]).sum::<f64>() / nf)
        .collect();
    let all = row_mean.iter().sum::<f64>() / nf;
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| c[i][j] - row_mean[i] - col_mean[j] + all)
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_sigmoid_is_stable() {
        assert!((ln_sigmoid(0.0) - 0.5f64.ln()).abs() < 1e-15);
        assert!((ln_sigmoid(2.0) - (1.0 / (1.0 + (-2.0f64).exp())).ln()).abs() < 1e-15);
        assert!(ln_sigmoid(-800.0).is_finite() && ln_sigmoid(800.0) == 0.0);
    }

    #[test]
    fn centring_removes_the_mean() {
        let c = vec![vec![0.0, 0.0], vec![0.0, 4.0]];
        // r0 fixed, var(r1) = 4: centred, each has variance 1 and they are anti-correlated.
        let p = center(&c);
        assert!((p[0][0] - 1.0).abs() < 1e-12 && (p[1][1] - 1.0).abs() < 1e-12);
        assert!((p[0][1] + 1.0).abs() < 1e-12);
    }
}
