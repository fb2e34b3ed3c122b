//! Agreement with fishtest: its published check table (printed in `docs/statistics.md`)
//! and the full-precision vectors produced by fishtest's own Python
//! (`tests/data/fishtest_vectors.json`, see `tests/data/README.md`).

use serde::Deserialize;

use super::counts::Counts;
use super::elo::Estimate;
use super::error::SprtError;
use super::penta::Penta;
use super::sprt::{llr_logistic, llr_normalized};
use super::wdl::Wdl;

/// Within 1e-6, relative when the number is larger than 1.
fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= 1e-6 * want.abs().max(1.0)
}

/// Largest absolute error seen per column, printed for the record.
#[derive(Default, Debug)]
struct MaxErr([f64; 7]);

impl MaxErr {
    fn check(&mut self, what: &str, column: usize, got: f64, want: f64) {
        assert!(
            close(got, want),
            "{what}: column {column}: got {got}, want {want}"
        );
        self.0[column] = self.0[column].max((got - want).abs());
    }
}

// The published check table, shared with the CLI test (`runner/tests/stats_cli.rs`).
include!("../../tests/data/fishtest_check_table.rs");

fn computed<C: Counts + ?Sized>(
    c: &C,
    log: [f64; 2],
    norm: [f64; 2],
) -> Result<[f64; 7], SprtError> {
    let e = Estimate::new(c);
    Ok([
        e.elo,
        e.elo_ci95,
        e.los,
        e.nelo,
        e.nelo_ci95,
        llr_logistic(log[0], log[1], c)?,
        llr_normalized(norm[0], norm[1], c)?,
    ])
}

#[test]
fn reference_check_table() -> Result<(), SprtError> {
    let mut max = MaxErr::default();
    for (counts, log, norm, want) in FISHTEST_CHECK_TABLE {
        let got = computed(&Penta::new(counts), log, norm)?;
        for (column, (g, w)) in got.iter().zip(want).enumerate() {
            max.check(&format!("{counts:?}"), column, *g, w);
        }
    }
    eprintln!("check table, max abs error per column: {:?}", max.0);
    Ok(())
}

#[derive(Deserialize)]
struct Vector {
    counts: Vec<u64>,
    logistic_bounds: [f64; 2],
    normalized_bounds: [f64; 2],
    elo: f64,
    elo_ci95: f64,
    los: f64,
    nelo: f64,
    nelo_ci95: f64,
    llr_logistic: f64,
    llr_normalized: f64,
}

#[derive(Deserialize)]
struct Vectors {
    vectors: Vec<Vector>,
}

#[test]
fn fishtest_python_vectors() -> Result<(), Box<dyn std::error::Error>> {
    let data: Vectors =
        serde_json::from_str(include_str!("../../tests/data/fishtest_vectors.json"))?;
    assert!(data.vectors.len() >= 18);
    let mut max = MaxErr::default();
    for v in &data.vectors {
        let (log, norm) = (v.logistic_bounds, v.normalized_bounds);
        let got = match v.counts.as_slice() {
            &[a, b, c, d, e] => computed(&Penta::new([a, b, c, d, e]), log, norm)?,
            &[l, d, w] => computed(&Wdl::new([l, d, w]), log, norm)?,
            other => return Err(format!("bad counts {other:?}").into()),
        };
        let want = [
            v.elo,
            v.elo_ci95,
            v.los,
            v.nelo,
            v.nelo_ci95,
            v.llr_logistic,
            v.llr_normalized,
        ];
        for (column, (g, w)) in got.iter().zip(want).enumerate() {
            max.check(&format!("{:?}", v.counts), column, *g, w);
        }
    }
    eprintln!("fishtest vectors, max abs error per column: {:?}", max.0);
    Ok(())
}
