//! Worker residuals: fishtest's test of whether each worker's results fit the rest of a
//! run (`get_chi2` and `get_bad_workers` in fishtest's `util.py`, described in
//! `shared/reference/residuals.md`). A chi-square test of homogeneity on a table of one
//! row per worker and three columns of pair outcomes; each worker's row, set against
//! all the others, gives a chi-square of 2 degrees of freedom, shown as the standard
//! normal value of the same tail probability (its "residual").
//!
//! A worker on a broken machine (a wrong build, an overloaded CPU losing on time, a
//! different engine under the same name) plays pairs that do not follow the others'
//! distribution; its residual then stands out, with a threshold corrected for the
//! number of workers (Bonferroni), so that in a fleet of many honest workers one of
//! them is not flagged by chance alone.

use serde::Serialize;
use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

/// fishtest's `get_bad_workers(p = 0.001, res = 7.0)`: a run whose table has a p-value
/// below this has a worker that does not fit.
pub const BAD_P: f64 = 0.001;
/// ... and a worker whose residual is above this does not fit, whatever the p-value.
pub const BAD_RESIDUAL: f64 = 7.0;
/// A row whose smallest expected count is this or less is left out: the chi-square
/// law is not a good approximation of so few pairs.
const MIN_EXPECTED: f64 = 5.0;

/// A pentanomial count `[LL, LD, DD+WL, WD, WW]` collapsed to fishtest's three columns
/// `[WW + WD, LL + LD, DD + WL]`: with five, the LL and WW cells hold too few pairs for
/// the test to be valid.
#[must_use]
pub fn columns(penta: [u64; 5]) -> [u64; 3] {
    [penta[4] + penta[3], penta[0] + penta[1], penta[2]]
}

/// The test over the rows given.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Homogeneity {
    /// Chi-square of the whole table (of the rows kept).
    pub chi2: f64,
    /// Its degrees of freedom, `(rows - 1)(columns - 1)`.
    pub dof: u32,
    /// The probability of a chi-square this large if every worker played the same games.
    pub p: f64,
    /// Each input row's residual, `None` for a row left out (too few pairs).
    pub residuals: Vec<Option<f64>>,
    /// The residual above which a worker is yellow: `Φ⁻¹(1 - 0.05 / rows)`.
    pub z95: f64,
    /// ... and red: `Φ⁻¹(1 - 0.01 / rows)`.
    pub z99: f64,
}

/// The standard normal value with upper tail `tail`: `Φ⁻¹(1 - tail)`, computed as
/// `-Φ⁻¹(tail)` so that a tail of 1e-20 (which `1 - tail` rounds to 1) keeps its value.
fn upper_quantile(tail: f64) -> f64 {
    -Normal::standard().inverse_cdf(tail)
}

/// The test of `rows` (pentanomial counts, one row per worker); `None` when fewer than
/// two rows have enough pairs.
#[must_use]
pub fn homogeneity(rows: &[[u64; 5]]) -> Option<Homogeneity> {
    let observed: Vec<[f64; 3]> = rows.iter().map(|&r| columns(r).map(|c| c as f64)).collect();
    let mut kept: Vec<usize> = (0..rows.len()).collect();
    // Rows are dropped and the sums made again until every row kept has enough pairs:
    // dropping a row changes the others' expected counts.
    let (column_sums, total) = loop {
        let mut column_sums = [0.0; 3];
        for &i in &kept {
            for (sum, o) in column_sums.iter_mut().zip(observed[i]) {
                *sum += o;
            }
        }
        let total: f64 = column_sums.iter().sum();
        let enough = |i: &usize| {
            let row_sum: f64 = observed[*i].iter().sum();
            total > 0.0
                && column_sums
                    .iter()
                    .all(|c| row_sum * c / total > MIN_EXPECTED)
        };
        let before = kept.len();
        kept.retain(enough);
        if kept.len() == before {
            break (column_sums, total);
        }
    };
    if kept.len() < 2 {
        return None;
    }
    let mut chi2 = 0.0;
    let mut residuals = vec![None; rows.len()];
    let row_law = ChiSquared::new(2.0).ok()?;
    for &i in &kept {
        let row_sum: f64 = observed[i].iter().sum();
        let row_chi2: f64 = observed[i]
            .iter()
            .zip(column_sums)
            .map(|(o, c)| {
                let expected = row_sum * c / total;
                (o - expected).powi(2) / expected
            })
            .sum();
        chi2 += row_chi2;
        // The chi-square of the 2 x 3 table "this worker against all the others".
        let adjusted = row_chi2 / (1.0 - row_sum / total);
        let tail = row_law.sf(adjusted);
        // A tail below the smallest double: the normal value of a chi-square of 2
        // degrees of freedom (tail e^(-x/2)) is then close to sqrt(x).
        let z = if tail > 0.0 {
            upper_quantile(tail)
        } else {
            adjusted.sqrt()
        };
        residuals[i] = Some(z.max(0.0));
    }
    let n = kept.len();
    let dof = u32::try_from((n - 1) * 2).unwrap_or(u32::MAX);
    let p = ChiSquared::new(f64::from(dof)).ok()?.sf(chi2);
    Some(Homogeneity {
        chi2,
        dof,
        p,
        residuals,
        z95: upper_quantile(0.05 / n as f64),
        z99: upper_quantile(0.01 / n as f64),
    })
}

/// fishtest's bad workers (its auto-purge): while the table's p-value is below
/// [`BAD_P`] or some worker's residual is above [`BAD_RESIDUAL`], the worker of the
/// largest residual is marked and the test made again without it. Returns the indexes
/// of `rows` marked, worst first.
#[must_use]
pub fn bad_workers(rows: &[[u64; 5]]) -> Vec<usize> {
    let mut bad: Vec<usize> = Vec::new();
    loop {
        let left: Vec<usize> = (0..rows.len()).filter(|i| !bad.contains(i)).collect();
        let table: Vec<[u64; 5]> = left.iter().map(|&i| rows[i]).collect();
        let Some(test) = homogeneity(&table) else {
            return bad;
        };
        let worst = test
            .residuals
            .iter()
            .enumerate()
            .filter_map(|(k, r)| r.map(|r| (k, r)))
            .filter(|&(_, r)| test.p < BAD_P || r > BAD_RESIDUAL)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match worst {
            Some((k, _)) => bad.push(left[k]),
            None => return bad,
        }
    }
}

/// How a residual is shown, as fishtest colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Fit {
    /// Below `z95`.
    Green,
    /// Below `z99`.
    Yellow,
    /// Above `z99`: the worker's results do not fit the rest.
    Red,
}

impl Fit {
    /// The colour of `residual` under the thresholds of `test`.
    #[must_use]
    pub fn of(residual: f64, test: &Homogeneity) -> Fit {
        if residual < test.z95 {
            Fit::Green
        } else if residual < test.z99 {
            Fit::Yellow
        } else {
            Fit::Red
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W1: [u64; 5] = [20, 60, 200, 70, 25];
    const W2: [u64; 5] = [22, 55, 190, 72, 28];
    const W3: [u64; 5] = [18, 62, 205, 66, 24];
    const BAD: [u64; 5] = [45, 90, 150, 40, 10];

    fn close(got: f64, want: f64) -> bool {
        (got - want).abs() <= 1e-6 * want.abs().max(1.0)
    }

    /// The check vector of `shared/reference/residuals.md` (scipy, from the formulas).
    #[test]
    fn the_check_vector_of_four_workers() {
        let test = homogeneity(&[W1, W2, W3, BAD]).expect("a test");
        assert!(close(test.chi2, 53.942028), "{}", test.chi2);
        assert_eq!(test.dof, 6);
        assert!(close(test.p / 7.578419e-10, 1.0), "{}", test.p);
        let want = [1.431632, 2.060901, 1.371031, 6.858646];
        for (got, want) in test.residuals.iter().zip(want) {
            let got = got.expect("every row kept");
            assert!(close(got, want), "{got} vs {want}");
        }
        assert!(close(test.z95, 2.241403), "{}", test.z95);
        assert!(close(test.z99, 2.807034), "{}", test.z99);
        assert_eq!(Fit::of(6.858646, &test), Fit::Red);
        assert_eq!(Fit::of(2.060901, &test), Fit::Green);
    }

    #[test]
    fn the_check_vector_without_the_bad_worker() {
        let test = homogeneity(&[W1, W2, W3]).expect("a test");
        assert!(close(test.chi2, 1.080973), "{}", test.chi2);
        assert_eq!(test.dof, 4);
        assert!(close(test.p, 8.972792e-01), "{}", test.p);
        assert!(test.residuals.iter().all(|r| *r == Some(0.0)));
    }

    /// p < 0.001 marks the worst worker although its residual is below 7; then the
    /// other three fit.
    #[test]
    fn auto_purge_marks_the_bad_worker_only() {
        assert_eq!(bad_workers(&[W1, W2, BAD, W3]), vec![2]);
        assert!(bad_workers(&[W1, W2, W3]).is_empty());
    }

    #[test]
    fn rows_with_too_few_pairs_are_left_out() {
        // 6 pairs: at most 2 expected in the smallest column.
        let few = [1, 1, 2, 1, 1];
        let test = homogeneity(&[W1, few, W2]).expect("a test");
        assert_eq!(test.residuals[1], None);
        assert_eq!(test.dof, 2);
        assert!(homogeneity(&[W1, few]).is_none());
        assert!(homogeneity(&[]).is_none());
        // No draws anywhere: a column of zeros leaves every row out.
        assert!(homogeneity(&[[10, 0, 0, 0, 10], [10, 0, 0, 0, 10]]).is_none());
        assert!(bad_workers(&[W1, few]).is_empty());
    }

    #[test]
    fn a_far_off_worker_has_a_finite_residual() {
        let off = [900, 0, 10, 0, 10];
        let test = homogeneity(&[W1, W2, off]).expect("a test");
        let r = test.residuals[2].expect("kept");
        assert!(r.is_finite() && r > 20.0, "{r}");
    }
}
