//! The integer network: weights as the file stores them, checked so that no legal
//! position can overflow the `i16` accumulator or the `i32` output sum.

use super::features::FEATURES;
use super::file::NetError;
use super::QA;

/// The most first-layer sums a file may ask for.
pub const MAX_HIDDEN: usize = 2048;
/// Hidden sizes are whole chunks of the vectorised loops.
pub const HIDDEN_CHUNK: usize = 16;
/// The most pieces on a board: the most features one perspective has active.
const MAX_ACTIVE: i64 = 32;

/// A quantised `(FEATURES -> hidden) x 2 -> 1` network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub(super) hidden: usize,
    /// `FEATURES` rows of `hidden`: a feature's column of the first layer is contiguous.
    pub(super) feature_weights: Vec<i16>,
    pub(super) hidden_bias: Vec<i16>,
    /// `2 * hidden`: the side to move's sums first, then the other side's.
    pub(super) output_weights: Vec<i16>,
    pub(super) output_bias: i32,
    /// Evaluation units of an output of 1.0 (`QA * QB` in integers).
    pub(super) scale: i32,
}

impl Network {
    /// A network from its integer weights, checked.
    ///
    /// # Errors
    /// [`NetError::Sizes`] for a hidden size out of range or weights of the wrong count,
    /// [`NetError::Range`] for weights whose sums could overflow.
    pub fn from_parts(
        hidden: usize,
        feature_weights: Vec<i16>,
        hidden_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
        scale: i32,
    ) -> Result<Network, NetError> {
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_CHUNK) {
            return Err(NetError::Sizes(format!(
                "hidden size {hidden} (a multiple of {HIDDEN_CHUNK} up to {MAX_HIDDEN})"
            )));
        }
        if feature_weights.len() != FEATURES * hidden
            || hidden_bias.len() != hidden
            || output_weights.len() != 2 * hidden
        {
            return Err(NetError::Sizes(
                "weight counts do not match the hidden size".into(),
            ));
        }
        if !(1..=100_000).contains(&scale) {
            return Err(NetError::Range(format!("output scale {scale}")));
        }
        let net = Network {
            hidden,
            feature_weights,
            hidden_bias,
            output_weights,
            output_bias,
            scale,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// Every legal position's sums fit: each hidden sum is its bias plus at most 32
    /// feature weights, and the output sum at most `QA` times every output weight.
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
        let output: i64 = self
            .output_weights
            .iter()
            .map(|&w| i64::from(w).abs() * i64::from(QA))
            .sum::<i64>()
            + i64::from(self.output_bias).abs();
        if output > i64::from(i32::MAX) {
            return Err(NetError::Range(
                "the output sum can overflow 32 bits".into(),
            ));
        }
        Ok(())
    }

    /// Hidden sums per perspective.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
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
