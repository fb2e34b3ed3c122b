//! Fitting the piece-square tables of the full evaluation (level 6) to game results,
//! together with the term weights.
//!
//! The evaluation of a position is linear in its table: each piece adds its kind's
//! material plus its square's placement value, the placement part scaled by the phase
//! (`PhaseScaling`: `1 + w * t / (SPAN * PLACEMENT_OPENING_DIVISOR)`). It is linear in
//! the term weights too. So with the `PhaseScaling` weight held at the compiled one, a
//! sample is the rest of the evaluation (what neither decides) and its features: per
//! square class, Red's pieces there minus Black's, times that phase factor, and per
//! weighted term, its net score as the seeds give it. `evaluation = rest + sum(theta_i *
//! x_i)`, where `theta_c` of a class is a piece's whole value (material and placement)
//! there and `theta_t` of a term its weight (1.0 = the seeds').
//!
//! A class is a piece kind on a square seen from its owner's side, the files folded
//! left onto right (the tables stay symmetric, as the seeds' are). Material and the
//! classes of a kind are collinear (every piece stands on some class), so material stays
//! the seeds' and the fitted values are written as placement relative to it.
//!
//! The fit minimises the log loss of `sigmoid(k * evaluation)` plus a ridge penalty
//! `lambda / 2 * sum((theta_i - centre_i)^2)` that holds a class seen in few positions near
//! the seeds' value (the centre of a term weight is the compiled one). With `k` fixed the
//! loss is convex in `theta`: Newton's method with the ridge's Hessian solves it in a few
//! steps; `k` and `theta` are fitted in turn. A weight outside its bounds is held at the
//! bound and the rest fitted again.

use crate::fit::{fit_slope, log_loss, sigmoid};
use xq_engine::board::PieceValues;
use xq_engine::board::{Color, Piece, PieceKind, Position, Square};
use xq_engine::eval::context::EvalContext;
use xq_engine::eval::psqt::{self, MATERIAL};
use xq_engine::eval::{phase, Evaluator, Term, TermWeights, TERM_TUNABLES};

/// Square classes per kind: 10 ranks by 5 folded files.
const PER_KIND: usize = 50;
/// Every square class of every kind.
pub const CLASSES: usize = PieceKind::COUNT * PER_KIND;
/// The weighted terms fitted with the tables: all but `PhaseScaling`, whose weight
/// multiplies the tables (held at the compiled one).
pub const TERMS: [Term; TERM_TUNABLES.len() - 1] = {
    let mut terms = [Term::Tempo; TERM_TUNABLES.len() - 1];
    let (mut i, mut j) = (0, 0);
    while i < TERM_TUNABLES.len() {
        if !matches!(TERM_TUNABLES[i].term, Term::PhaseScaling) {
            terms[j] = TERM_TUNABLES[i].term;
            j += 1;
        }
        i += 1;
    }
    terms
};
/// Every parameter: the classes, then the weights of [`TERMS`].
pub const PARAMETERS: usize = CLASSES + TERMS.len();

/// The class of a piece of `kind` on `own`, a square seen from its owner's side.
#[must_use]
pub fn class_of(kind: PieceKind, own: Square) -> usize {
    let file = own.file().index();
    kind.index() * PER_KIND + own.rank().index() * 5 + file.min(8 - file)
}

/// The squares of a class, Red's view (one, or a square and its mirror).
fn squares_of(class: usize) -> impl Iterator<Item = Square> {
    let (rank, folded) = ((class % PER_KIND) / 5, class % 5);
    Square::ALL.into_iter().filter(move |sq| {
        sq.rank().index() == rank && sq.file().index().min(8 - sq.file().index()) == folded
    })
}

/// The kind of a class.
fn kind_of(class: usize) -> PieceKind {
    PieceKind::ALL[class / PER_KIND]
}

/// A position as the table fit sees it, Red's view.
#[derive(Clone, Debug, PartialEq)]
pub struct TableSample {
    /// The evaluation without what the parameters decide (material is the seeds', so
    /// its share outside the phase factor is here too).
    pub rest: f64,
    /// `(parameter, x)`: for a class, Red's pieces on it minus Black's, times the phase
    /// factor; for a term, its net score for Red.
    pub features: Box<[(u16, f32)]>,
    /// 1 for a Red win, 0.5 for a draw, 0 for a Black win.
    pub result: f64,
}

/// A piece's whole value (material plus placement) on each class in `values`, and the
/// term weights as fractions (1.0 = the seeds'), as one parameter vector.
fn parameters(values: &PieceValues, weights: &TermWeights) -> Vec<f64> {
    let classes = (0..CLASSES).map(|class| {
        let kind = kind_of(class);
        let sq = squares_of(class).next().unwrap_or(Square::ALL[0]);
        f64::from(values.material_of(kind) + values.placement_of(Piece::new(Color::Red, kind), sq))
    });
    let terms = TERMS.iter().map(|&t| f64::from(weights.get(t)) / 100.0);
    classes.chain(terms).collect()
}

/// The centre of the ridge: seed 000's tables and the compiled term weights.
#[must_use]
pub fn centre() -> Vec<f64> {
    parameters(&psqt::VALUES, &TermWeights::default())
}

/// The compiled level-6 tables and term weights (where the fit starts).
#[must_use]
pub fn compiled() -> Vec<f64> {
    parameters(Evaluator::new(6).values(), &TermWeights::default())
}

/// The sample of a position (`None` in a drawish ending, whose scaling of the whole
/// score is not linear in the parameters).
#[must_use]
pub fn table_sample(pos: &Position, result: f64) -> Option<TableSample> {
    let weights = TermWeights::default();
    let breakdown = Evaluator::breakdown_at(pos, weights);
    if breakdown.scores.net(Term::DrawishEnding, Color::Red) != 0 {
        return None;
    }
    let red_view = match pos.side_to_move() {
        Color::Red => 1.0,
        Color::Black => -1.0,
    };
    let total = red_view * f64::from(breakdown.at_level(6));
    let factor = phase_factor(pos, &weights);
    let compiled = compiled();
    let mut features: Vec<(u16, f32)> = Vec::with_capacity(48);
    let mut add =
        |index: usize, x: f64| match features.iter_mut().find(|(i, _)| usize::from(*i) == index) {
            Some((_, value)) => *value += x as f32,
            None => features.push((u16::try_from(index).unwrap_or(u16::MAX), x as f32)),
        };
    // The evaluation at the compiled parameters, less what they decide, is the rest.
    let mut decided = 0.0;
    for sq in Square::ALL {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let (sign, own) = match piece.color() {
            Color::Red => (1.0, sq),
            Color::Black => (-1.0, sq.flip()),
        };
        let class = class_of(piece.kind(), own);
        // The model scales a piece's whole value by the phase factor, the engine only its
        // placement: the rest keeps the difference, `material * (1 - factor)`.
        decided += sign * compiled[class] * factor;
        add(class, sign * factor);
    }
    for (t, &term) in TERMS.iter().enumerate() {
        let net = f64::from(breakdown.scores.net(term, Color::Red));
        decided += compiled[CLASSES + t] * net;
        add(CLASSES + t, net);
    }
    features.retain(|&(_, x)| x != 0.0);
    Some(TableSample {
        rest: total - decided,
        features: features.into_boxed_slice(),
        result,
    })
}

/// What the phase multiplies placement by at the compiled `PhaseScaling` weight.
fn phase_factor(pos: &Position, weights: &TermWeights) -> f64 {
    let t = phase::t22(EvalContext::new(pos).phase_material);
    let unit = 1_000_000;
    let per_unit = f64::from(phase::placement_adjustment(unit, t)) / f64::from(unit);
    1.0 + f64::from(weights.get(Term::PhaseScaling)) / 100.0 * per_unit
}

fn evaluation(s: &TableSample, theta: &[f64]) -> f64 {
    s.rest
        + s.features
            .iter()
            .map(|&(c, x)| theta[usize::from(c)] * f64::from(x))
            .sum::<f64>()
}

/// Mean log loss at `theta` and slope `k`.
#[must_use]
pub fn mean_loss(samples: &[TableSample], theta: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| log_loss(k * evaluation(s, theta), s.result))
        .sum();
    total / samples.len().max(1) as f64
}

/// The slope `k` of least loss at `theta`.
#[must_use]
pub fn fit_k(samples: &[TableSample], theta: &[f64]) -> f64 {
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (evaluation(s, theta), s.result))
        .collect();
    fit_slope(&evals, 0.001).1
}

/// The parameters of least penalised loss at slope `k`: Newton's method from `start` on
/// the parameters the samples use and `held` does not hold (the others keep their value
/// in `start`).
#[must_use]
pub fn fit_theta(
    samples: &[TableSample],
    start: &[f64],
    centre: &[f64],
    held: &[bool],
    k: f64,
    lambda: f64,
) -> Vec<f64> {
    let mut column = vec![usize::MAX; PARAMETERS];
    let mut free = Vec::new();
    for s in samples {
        for &(i, _) in s.features.iter() {
            let i = usize::from(i);
            if column[i] == usize::MAX && !held[i] {
                column[i] = free.len();
                free.push(i);
            }
        }
    }
    let n = free.len();
    let count = samples.len().max(1) as f64;
    let penalised = |theta: &[f64]| {
        mean_loss(samples, theta, k)
            + lambda / 2.0
                * free
                    .iter()
                    .map(|&i| (theta[i] - centre[i]).powi(2))
                    .sum::<f64>()
    };
    let mut theta = start.to_vec();
    let mut current = penalised(&theta);
    for _ in 0..20 {
        let mut gradient = vec![0.0; n];
        let mut hessian = vec![0.0; n * n];
        for s in samples {
            let p = sigmoid(k * evaluation(s, &theta));
            let (g, w) = (k * (p - s.result) / count, k * k * p * (1.0 - p) / count);
            for (a, &(ia, xa)) in s.features.iter().enumerate() {
                let i = column[usize::from(ia)];
                if i == usize::MAX {
                    continue;
                }
                let xa = f64::from(xa);
                gradient[i] += g * xa;
                for &(ib, xb) in &s.features[..=a] {
                    let j = column[usize::from(ib)];
                    if j != usize::MAX {
                        hessian[i.max(j) * n + i.min(j)] += w * xa * f64::from(xb);
                    }
                }
            }
        }
        for (c, &i) in free.iter().enumerate() {
            gradient[c] += lambda * (theta[i] - centre[i]);
            hessian[c * n + c] += lambda;
        }
        let Some(step) = cholesky_solve(&hessian, &gradient, n) else {
            break;
        };
        // A full Newton step, halved while it does not lower the loss.
        let mut scale = 1.0;
        let mut next;
        loop {
            next = theta.clone();
            for (c, &i) in free.iter().enumerate() {
                next[i] -= scale * step[c];
            }
            let loss = penalised(&next);
            if loss <= current || scale < 1e-3 {
                current = loss.min(current);
                break;
            }
            scale /= 2.0;
        }
        // Converged when no class moves by a hundredth of a unit and no weight by 1e-5.
        let moved = free
            .iter()
            .zip(&step)
            .map(|(&i, s)| (s * scale).abs() * if i < CLASSES { 1.0 } else { 1000.0 })
            .fold(0.0, f64::max);
        theta = next;
        if moved < 0.01 {
            break;
        }
    }
    theta
}

/// What the fit found: every parameter, the slope, and which weights it held at a bound.
#[derive(Clone, Debug)]
pub struct TableFit {
    pub theta: Vec<f64>,
    pub k: f64,
    pub held: Vec<bool>,
}

/// The tables and term weights of least penalised loss, each weight within
/// `[min, max]` (fractions): the slope and the parameters in turn, twice, and again with
/// the weight furthest outside its bounds held at the bound until none is.
#[must_use]
pub fn fit(samples: &[TableSample], lambda: f64, min: f64, max: f64) -> TableFit {
    let centre = centre();
    let mut theta = compiled();
    let mut held = vec![false; PARAMETERS];
    loop {
        let mut k = fit_k(samples, &theta);
        for _ in 0..2 {
            theta = fit_theta(samples, &theta, &centre, &held, k, lambda);
            k = fit_k(samples, &theta);
        }
        let outside = (CLASSES..PARAMETERS)
            .filter(|&i| !held[i])
            .map(|i| (i, (min - theta[i]).max(theta[i] - max)))
            .filter(|&(_, by)| by > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match outside {
            Some((i, _)) => {
                held[i] = true;
                theta[i] = theta[i].clamp(min, max);
            }
            None => return TableFit { theta, k, held },
        }
    }
}

/// Solves `a x = b` for a symmetric positive definite `a` given by its lower triangle
/// (row-major `n x n`); `None` when it is not positive definite.
fn cholesky_solve(a: &[f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let sum: f64 = (0..j).map(|m| l[i * n + m] * l[j * n + m]).sum();
            if i == j {
                let d = a[i * n + i] - sum;
                if d <= 0.0 {
                    return None;
                }
                l[i * n + i] = d.sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - sum) / l[j * n + j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let sum: f64 = (0..i).map(|m| l[i * n + m] * y[m]).sum();
        y[i] = (b[i] - sum) / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let sum: f64 = (i + 1..n).map(|m| l[m * n + i] * x[m]).sum();
        x[i] = (y[i] - sum) / l[i * n + i];
    }
    Some(x)
}

/// The placement table (engine units, relative to the seeds' material) of every piece
/// kind, Red's view, `[kind][rank][file]`, from fitted class values.
#[must_use]
pub fn placement_tables(theta: &[f64]) -> [[[i32; 9]; 10]; PieceKind::COUNT] {
    let mut tables = [[[0; 9]; 10]; PieceKind::COUNT];
    for kind in PieceKind::ALL {
        for sq in Square::ALL {
            let value = theta[class_of(kind, sq)] - f64::from(MATERIAL[kind.index()]);
            tables[kind.index()][sq.rank().index()][sq.file().index()] = value.round() as i32;
        }
    }
    tables
}

/// The term weights of fitted parameters, in percent; `PhaseScaling` keeps the
/// compiled weight.
#[must_use]
pub fn term_weights(theta: &[f64]) -> TermWeights {
    let mut weights = TermWeights::default();
    for (t, &term) in TERMS.iter().enumerate() {
        weights.set(term, (theta[CLASSES + t] * 100.0).round() as i32);
    }
    weights
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_evaluation_at_the_compiled_parameters_is_the_engines() {
        let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
        let pos = Position::from_fen(fen).expect("fen");
        let sample = table_sample(&pos, 1.0).expect("not drawish");
        let engine = f64::from(Evaluator::default().evaluate(&pos));
        // Integer division in the engine's weights and phase scaling: within a few units.
        let ours = evaluation(&sample, &compiled());
        assert!((ours - engine).abs() <= 8.0, "{ours} vs {engine}");
        // And the features move it: twice the mobility weight adds the mobility term.
        let mut more = compiled();
        let mobility = TERMS
            .iter()
            .position(|&t| t == Term::Mobility)
            .expect("mobility");
        more[CLASSES + mobility] += 1.0;
        let breakdown = Evaluator::breakdown(&pos);
        let net = f64::from(breakdown.scores.net(Term::Mobility, Color::Red));
        assert!(net != 0.0);
        assert!((evaluation(&sample, &more) - evaluation(&sample, &compiled()) - net).abs() < 1e-3);
    }

    #[test]
    fn the_fit_moves_a_class_toward_what_the_results_say() {
        // Positions where a Red rook on a0 wins more than its value predicts.
        let start = compiled();
        let held = vec![false; PARAMETERS];
        let a0 = class_of(PieceKind::Rook, Square::ALL[0]);
        let mut samples = Vec::new();
        for i in 0..4000 {
            let present = i % 2 == 0;
            let x: f32 = if present { 1.0 } else { 0.0 };
            samples.push(TableSample {
                rest: -start[a0] * f64::from(x),
                features: vec![(a0 as u16, x)].into_boxed_slice(),
                // With the rook: Red wins 3 of 4; without: 1 of 2.
                result: if present {
                    f64::from(u8::from(i % 8 != 0))
                } else {
                    f64::from(u8::from(i % 4 == 1))
                },
            });
        }
        let k = 0.004;
        let theta = fit_theta(&samples, &start, &start, &held, k, 0.0);
        // sigmoid(k * (theta - start)) = 3/4: theta - start = ln 3 / k.
        let expected = start[a0] + 3f64.ln() / k;
        assert!(
            (theta[a0] - expected).abs() < 5.0,
            "{} vs {expected}",
            theta[a0]
        );
        // A ridge holds it nearer its centre; a held parameter does not move.
        let ridged = fit_theta(&samples, &start, &start, &held, k, 1e-5);
        assert!((ridged[a0] - start[a0]).abs() < (theta[a0] - start[a0]).abs());
        let mut hold = held.clone();
        hold[a0] = true;
        assert_eq!(
            fit_theta(&samples, &start, &start, &hold, k, 0.0)[a0],
            start[a0]
        );
    }
}
