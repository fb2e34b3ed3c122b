//! A little dense linear algebra for the rating fit: Cholesky factorization of
//! a symmetric positive definite matrix, solving with it, and its inverse.
//! Matrices are small (one row per engine), stored row-major as `Vec<Vec<f64>>`.

/// A square matrix, row-major.
pub type Matrix = Vec<Vec<f64>>;

/// The lower triangular `L` with `A = L Lᵀ`, or `None` if `a` is not
/// (numerically) positive definite.
#[must_use]
pub fn cholesky(a: &[Vec<f64>]) -> Option<Matrix> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let dot: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            let v = a[i][j] - dot;
            if i == j {
                if v.is_nan() || v <= 0.0 || v.is_infinite() {
                    return None;
                }
                l[i][i] = v.sqrt();
            } else {
                l[i][j] = v / l[j][j];
            }
        }
    }
    Some(l)
}

/// Solves `L Lᵀ x = b` given the Cholesky factor `l`.
#[must_use]
pub fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = l.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        let dot: f64 = (0..i).map(|k| l[i][k] * y[k]).sum();
        y[i] = (b[i] - dot) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let dot: f64 = (i + 1..n).map(|k| l[k][i] * x[k]).sum();
        x[i] = (y[i] - dot) / l[i][i];
    }
    x
}

/// The inverse of `L Lᵀ` given its Cholesky factor `l`.
#[must_use]
pub fn cholesky_inverse(l: &[Vec<f64>]) -> Matrix {
    let n = l.len();
    let mut inv = vec![vec![0.0; n]; n];
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        let col = cholesky_solve(l, &e);
        for (i, v) in col.into_iter().enumerate() {
            inv[i][j] = v;
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_a_small_spd_matrix() -> Result<(), &'static str> {
        let a = vec![
            vec![4.0, 1.0, 0.5],
            vec![1.0, 3.0, 0.2],
            vec![0.5, 0.2, 2.0],
        ];
        let l = cholesky(&a).ok_or("not positive definite")?;
        let inv = cholesky_inverse(&l);
        for (i, row) in a.iter().enumerate() {
            for j in 0..3 {
                let v: f64 = row
                    .iter()
                    .zip(&inv)
                    .map(|(x, inv_row)| x * inv_row[j])
                    .sum();
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((v - want).abs() < 1e-12);
            }
        }
        let x = cholesky_solve(&l, &[1.0, 2.0, 3.0]);
        for (i, want) in [1.0, 2.0, 3.0].iter().enumerate() {
            let v: f64 = (0..3).map(|k| a[i][k] * x[k]).sum();
            assert!((v - want).abs() < 1e-12);
        }
        Ok(())
    }

    #[test]
    fn rejects_indefinite_matrices() {
        assert!(cholesky(&[vec![1.0, 2.0], vec![2.0, 1.0]]).is_none());
        assert!(cholesky(&[vec![0.0]]).is_none());
    }
}
