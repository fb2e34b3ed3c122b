//! The float network trained: `(FEATURES -> N) x 2 -> 1`, CReLU `clamp(x, 0, 1)`, the
//! side to move's half first. Its output `o` is an evaluation of `o · scale` units; the
//! loss compares `sigmoid(o)` with the target.

use xq_core::rng::SplitMix64;
use xq_engine::eval::nnue::{NetError, Network, FEATURES, QA, QB};

use crate::dataset::Active;

/// Weights are kept within this, so that quantised they fit the engine's checks: the
/// first layer times `QA` gives at most 505, and 33 of those fit an `i16` sum; the
/// output layer times `QB` gives at most 127.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The float weights, laid out as the engine's file lays out the integers.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub hidden: usize,
    /// `FEATURES` rows of `hidden`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `2 * hidden`: the side to move's half first.
    pub w2: Vec<f32>,
    pub b2: f32,
}

impl Model {
    /// Random small weights from a seed: uniform in `±1/sqrt(32)` for the first layer
    /// (at most 32 active inputs), `±1/sqrt(2N)` for the output.
    #[must_use]
    pub fn new(hidden: usize, seed: u64) -> Model {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |bound: f32| (rng.next_f64() as f32 * 2.0 - 1.0) * bound;
        let first = 1.0 / 32f32.sqrt();
        let second = 1.0 / (2.0 * hidden as f32).sqrt();
        let w1 = (0..FEATURES * hidden).map(|_| uniform(first)).collect();
        let b1 = (0..hidden).map(|_| uniform(first)).collect();
        let w2 = (0..2 * hidden).map(|_| uniform(second)).collect();
        Model {
            hidden,
            w1,
            b1,
            w2,
            b2: 0.0,
        }
    }

    /// The first layer's sums of one perspective into `acc`.
    pub fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        for &f in features {
            let row = &self.w1[usize::from(f) * self.hidden..][..self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output `o` of a position, given both perspectives' sums.
    #[must_use]
    pub fn output(&self, us: &[f32], them: &[f32]) -> f32 {
        let (w_us, w_them) = self.w2.split_at(self.hidden);
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(a, w)| a.clamp(0.0, 1.0) * w).sum()
        };
        dot(us, w_us) + dot(them, w_them) + self.b2
    }

    /// The output of a position from its features (allocates; for checks, not loops).
    #[must_use]
    pub fn evaluate(&self, active: &Active) -> f32 {
        let (mut us, mut them) = (vec![0.0; self.hidden], vec![0.0; self.hidden]);
        self.accumulate(&active.us[..active.count], &mut us);
        self.accumulate(&active.them[..active.count], &mut them);
        self.output(&us, &them)
    }

    /// Keeps every weight within [`WEIGHT_CLIP`].
    pub fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(&mut self.b1).chain(&mut self.w2) {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// The integer network: first layer times `QA`, output weights times `QB`, output
    /// bias times `QA · QB`, each rounded to the nearest integer.
    ///
    /// # Errors
    /// The engine's checks ([`NetError`]); a clipped model always passes them.
    pub fn quantise(&self, scale: i32) -> Result<Network, NetError> {
        let q = |w: f32, by: i32| (w * by as f32).round() as i16;
        Network::from_parts(
            self.hidden,
            self.w1.iter().map(|&w| q(w, QA)).collect(),
            self.b1.iter().map(|&w| q(w, QA)).collect(),
            self.w2.iter().map(|&w| q(w, QB)).collect(),
            (self.b2 * (QA * QB) as f32).round() as i32,
            scale,
        )
    }
}
