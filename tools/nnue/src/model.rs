//! The float network trained: `(FEATURES -> N) x 2 -> 1` with `B` output buckets,
//! CReLU `clamp(x, 0, 1)` or SCReLU `clamp(x, 0, 1)²`, the side to move's half first.
//! Its output `o` is an evaluation of `o · scale` units; the loss compares `sigmoid(o)`
//! with the target. A position's bucket is chosen by its piece count, as the engine
//! chooses it ([`output_bucket`]).

use xq_core::rng::SplitMix64;
use xq_engine::eval::nnue::{
    output_bucket, Activation, NetError, Network, NetworkParts, FEATURES, QA, QB,
};

use crate::dataset::Active;

/// Weights are kept within this, so that quantised they fit the engine's checks: the
/// first layer times `QA` gives at most 505, and 33 of those fit an `i16` sum; the
/// output layer times `QB` gives at most 127.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The float weights, laid out as the engine's file lays out the integers.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub hidden: usize,
    pub activation: Activation,
    pub buckets: usize,
    /// `FEATURES` rows of `hidden`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `buckets` rows of `2 * hidden`: each the side to move's half first.
    pub w2: Vec<f32>,
    /// One per bucket.
    pub b2: Vec<f32>,
}

impl Model {
    /// Random small weights from a seed: uniform in `±1/sqrt(32)` for the first layer
    /// (at most 32 active inputs), `±1/sqrt(2N)` for the output, each bucket its own
    /// draw (one bucket draws exactly what the one-output network drew).
    #[must_use]
    pub fn new(hidden: usize, seed: u64) -> Model {
        Model::with(hidden, Activation::CRelu, 1, seed)
    }

    /// [`Model::new`] with an activation and output buckets.
    #[must_use]
    pub fn with(hidden: usize, activation: Activation, buckets: usize, seed: u64) -> Model {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |bound: f32| (rng.next_f64() as f32 * 2.0 - 1.0) * bound;
        let first = 1.0 / 32f32.sqrt();
        let second = 1.0 / (2.0 * hidden as f32).sqrt();
        let w1 = (0..FEATURES * hidden).map(|_| uniform(first)).collect();
        let b1 = (0..hidden).map(|_| uniform(first)).collect();
        let w2 = (0..buckets * 2 * hidden).map(|_| uniform(second)).collect();
        Model {
            hidden,
            activation,
            buckets,
            w1,
            b1,
            w2,
            b2: vec![0.0; buckets],
        }
    }

    /// The bucket of a position with `pieces` pieces.
    #[must_use]
    pub fn bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.buckets)
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

    /// The activation of a first-layer sum.
    #[must_use]
    #[inline]
    pub fn activate(&self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self.activation {
            Activation::CRelu => c,
            Activation::SCRelu => c * c,
        }
    }

    /// The derivative of [`Model::activate`] at `x` (0 where it is clipped).
    #[must_use]
    #[inline]
    pub fn slope(&self, x: f32) -> f32 {
        if !(x > 0.0 && x < 1.0) {
            return 0.0;
        }
        match self.activation {
            Activation::CRelu => 1.0,
            Activation::SCRelu => 2.0 * x,
        }
    }

    /// The output weights of a bucket: the side to move's half, the other's.
    #[must_use]
    pub fn output_weights(&self, bucket: usize) -> (&[f32], &[f32]) {
        self.w2[bucket * 2 * self.hidden..][..2 * self.hidden].split_at(self.hidden)
    }

    /// The output `o` of a position in `bucket`, given both perspectives' sums.
    #[must_use]
    pub fn output(&self, us: &[f32], them: &[f32], bucket: usize) -> f32 {
        let (w_us, w_them) = self.output_weights(bucket);
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(&a, w)| self.activate(a) * w).sum()
        };
        dot(us, w_us) + dot(them, w_them) + self.b2[bucket]
    }

    /// The output of a position from its features (allocates; for checks, not loops).
    #[must_use]
    pub fn evaluate(&self, active: &Active) -> f32 {
        let (mut us, mut them) = (vec![0.0; self.hidden], vec![0.0; self.hidden]);
        self.accumulate(&active.us[..active.count], &mut us);
        self.accumulate(&active.them[..active.count], &mut them);
        self.output(&us, &them, self.bucket(active.count))
    }

    /// The clip of the output weights. CReLU's and, up to 128 hidden, SCReLU's is
    /// [`WEIGHT_CLIP`]; wider SCReLU networks need a smaller one, as the engine bounds
    /// `QA² · Σ|w|` of a bucket by `2^31 - 1` (`Network`'s range check): the quantised
    /// weights may then average at most `(2^31 - 1) / (QA² · 2N)`.
    #[must_use]
    pub fn output_clip(&self) -> f32 {
        match self.activation {
            Activation::CRelu => WEIGHT_CLIP,
            Activation::SCRelu => {
                let qa = i64::from(QA);
                let most = i64::from(i32::MAX) / (qa * qa * 2 * self.hidden as i64);
                WEIGHT_CLIP.min(most as f32 / QB as f32)
            }
        }
    }

    /// Keeps every weight within its clip.
    pub fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(&mut self.b1) {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
        let out = self.output_clip();
        for w in &mut self.w2 {
            *w = w.clamp(-out, out);
        }
    }

    /// The integer network: first layer times `QA`, output weights times `QB`, output
    /// biases times `QA · QB`, each rounded to the nearest integer.
    ///
    /// # Errors
    /// The engine's checks ([`NetError`]); a clipped model always passes them.
    pub fn quantise(&self, scale: i32) -> Result<Network, NetError> {
        let q = |w: f32, by: i32| (w * by as f32).round() as i16;
        Network::from_layers(NetworkParts {
            hidden: self.hidden,
            activation: self.activation,
            buckets: self.buckets,
            feature_weights: self.w1.iter().map(|&w| q(w, QA)).collect(),
            hidden_bias: self.b1.iter().map(|&w| q(w, QA)).collect(),
            output_weights: self.w2.iter().map(|&w| q(w, QB)).collect(),
            output_bias: self
                .b2
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
            scale,
        })
    }
}
