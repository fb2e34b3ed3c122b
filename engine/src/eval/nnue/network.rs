//! The integer network: weights as the file stores them, checked so that no legal
//! position can overflow the `i16` accumulator or the `i32` output sum.

use super::activation::Activation;
use super::buckets::{output_bucket, MAX_BUCKETS, MAX_PIECES};
use super::features::FEATURES;
use super::file::NetError;
use super::QA;

/// The most first-layer sums a file may ask for.
pub const MAX_HIDDEN: usize = 2048;
/// Hidden sizes are whole chunks of the vectorised loops.
pub const HIDDEN_CHUNK: usize = 16;
/// The most pieces on a board: the most features one perspective has active.
const MAX_ACTIVE: i64 = MAX_PIECES as i64;

/// The integer weights of a network, before their checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkParts {
    pub hidden: usize,
    pub activation: Activation,
    /// Output buckets, `1..=MAX_BUCKETS` ([`super::buckets`]).
    pub buckets: usize,
    /// `FEATURES` rows of `hidden`.
    pub feature_weights: Vec<i16>,
    pub hidden_bias: Vec<i16>,
    /// `buckets` rows of `2 * hidden`, each the side to move's half first.
    pub output_weights: Vec<i16>,
    /// One per bucket, `QA · QB` units.
    pub output_bias: Vec<i32>,
    /// Evaluation units of an output of 1.0.
    pub scale: i32,
}

/// A quantised `(FEATURES -> hidden) x 2 -> 1` network with output buckets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub(super) hidden: usize,
    pub(super) activation: Activation,
    pub(super) buckets: usize,
    /// `FEATURES` rows of `hidden`: a feature's column of the first layer is contiguous.
    pub(super) feature_weights: Vec<i16>,
    pub(super) hidden_bias: Vec<i16>,
    /// `buckets` rows of `2 * hidden`: the side to move's sums first, then the other's.
    pub(super) output_weights: Vec<i16>,
    pub(super) output_bias: Vec<i32>,
    /// Evaluation units of an output of 1.0 (`QA * QB` in integers).
    pub(super) scale: i32,
    /// The bucket of each piece count `0..=32`, looked up once per evaluation.
    pub(super) bucket_of: [u8; MAX_PIECES + 1],
}

impl Network {
    /// A one-bucket CReLU network (the version-1 file's kind) from its integer weights.
    ///
    /// # Errors
    /// As [`Network::from_layers`].
    pub fn from_parts(
        hidden: usize,
        feature_weights: Vec<i16>,
        hidden_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
        scale: i32,
    ) -> Result<Network, NetError> {
        Network::from_layers(NetworkParts {
            hidden,
            activation: Activation::CRelu,
            buckets: 1,
            feature_weights,
            hidden_bias,
            output_weights,
            output_bias: vec![output_bias],
            scale,
        })
    }

    /// A network from its integer weights, checked.
    ///
    /// # Errors
    /// [`NetError::Sizes`] for a hidden size or bucket count out of range or weights of
    /// the wrong count, [`NetError::Range`] for weights whose sums could overflow.
    pub fn from_layers(parts: NetworkParts) -> Result<Network, NetError> {
        let NetworkParts {
            hidden,
            activation,
            buckets,
            feature_weights,
            hidden_bias,
            output_weights,
            output_bias,
            scale,
        } = parts;
        check_sizes(hidden, buckets)?;
        if feature_weights.len() != FEATURES * hidden
            || hidden_bias.len() != hidden
            || output_weights.len() != buckets * 2 * hidden
            || output_bias.len() != buckets
        {
            return Err(NetError::Sizes(
                "weight counts do not match the hidden size and buckets".into(),
            ));
        }
        if !(1..=100_000).contains(&scale) {
            return Err(NetError::Range(format!("output scale {scale}")));
        }
        let mut bucket_of = [0u8; MAX_PIECES + 1];
        for (pieces, b) in bucket_of.iter_mut().enumerate() {
            // Below MAX_BUCKETS = 16, so it fits a byte.
            *b = output_bucket(pieces, buckets) as u8;
        }
        let net = Network {
            hidden,
            activation,
            buckets,
            feature_weights,
            hidden_bias,
            output_weights,
            output_bias,
            scale,
            bucket_of,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// Every legal position's sums fit: each hidden sum is its bias plus at most 32
    /// feature weights (`i16`), and each bucket's output sum at most the largest
    /// activation times every output weight of the bucket (`i32`).
    ///
    /// CReLU's largest activation is `QA`, so `QA · Σ|w| + |b| ≤ 2^31 - 1`. SCReLU's is
    /// `QA²` (65,025) before the division by `QA`, so its sum needs `QA² · Σ|w| ≤ 2^31 - 1`
    /// (an average `|w|` of at most 33,025 / 2N: 129 at N = 128, which the trainer's
    /// clip of 1.98 · QB = 127 keeps to; 64 at N = 256, which the trainer's clip for it
    /// keeps to), and after the division `QA · Σ|w| + |b|` as CReLU.
    fn check_ranges(&self) -> Result<(), NetError> {
        let mut largest = vec![0i64; self.hidden];
        for row in self.feature_weights.chunks_exact(self.hidden) {
            for (max, &w) in largest.iter_mut().zip(row) {
                *max = (*max).max(i64::from(w).abs());
            }
        }
        for (i, (&bias, &max)) in self.hidden_bias.iter().zip(&largest).enumerate() {
            if i64::from(bias).abs() + MAX_ACTIVE * max > i64::from(i16::MAX) {
                return Err(NetError::Range(format!(
                    "hidden sum {i} can overflow 16 bits"
                )));
            }
        }
        let rows = self.output_weights.chunks_exact(2 * self.hidden);
        for (bucket, (row, &bias)) in rows.zip(&self.output_bias).enumerate() {
            let weights: i64 = row.iter().map(|&w| i64::from(w).abs()).sum();
            let qa = i64::from(QA);
            let squared =
                self.activation == Activation::SCRelu && qa * qa * weights > i64::from(i32::MAX);
            if squared || qa * weights + i64::from(bias).abs() > i64::from(i32::MAX) {
                return Err(NetError::Range(format!(
                    "the output sum of bucket {bucket} can overflow 32 bits"
                )));
            }
        }
        Ok(())
    }

    /// Hidden sums per perspective.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets.
    #[must_use]
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The hidden layer's activation.
    #[must_use]
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Evaluation units of an output of 1.0.
    #[must_use]
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The first layer's column of one feature.
    #[inline]
    pub(super) fn column(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }
}

/// A hidden size and bucket count this build can hold.
pub(super) fn check_sizes(hidden: usize, buckets: usize) -> Result<(), NetError> {
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_CHUNK) {
        return Err(NetError::Sizes(format!(
            "hidden size {hidden} (a multiple of {HIDDEN_CHUNK} up to {MAX_HIDDEN})"
        )));
    }
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(NetError::Sizes(format!(
            "{buckets} output buckets (1 to {MAX_BUCKETS})"
        )));
    }
    Ok(())
}
