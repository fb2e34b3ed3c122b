//! The output layer: the activation of both perspectives' sums, side to move first,
//! dotted with the output weights of the position's bucket; then scaled to evaluation
//! units.
//!
//! The loops run over fixed chunks of [`CHUNK`] lanes with one `i32` sum per lane, so
//! the compiler turns them into vector multiply-adds (no `unsafe`, no `std::arch`).
//! A lane's sum is part of the bucket's whole sum, which the loader bounds
//! ([`Network`]'s range check), so no lane can overflow either.

use super::activation::Activation;
use super::{Network, EVAL_LIMIT, QA, QB};

/// Lanes of the vectorised loops (a multiple of every vector width in use).
pub const CHUNK: usize = 16;

/// `Σ clamp(sums[i], 0, QA) * weights[i]`, with `sums` and `weights` of one length, a
/// multiple of [`CHUNK`].
#[inline]
fn crelu_dot(sums: &[i16], weights: &[i16]) -> i32 {
    let mut lanes = [0i32; CHUNK];
    for (s, w) in sums.chunks_exact(CHUNK).zip(weights.chunks_exact(CHUNK)) {
        for i in 0..CHUNK {
            lanes[i] += i32::from(s[i].clamp(0, QA as i16)) * i32::from(w[i]);
        }
    }
    lanes.iter().sum()
}

/// `Σ clamp(sums[i], 0, QA)² * weights[i]`, in `QA² · QB` units. Each term is at most
/// `QA² · |w|` (65,025 · |w|), so the product is taken in `i32`, not in `i16`.
#[inline]
fn screlu_dot(sums: &[i16], weights: &[i16]) -> i32 {
    let mut lanes = [0i32; CHUNK];
    for (s, w) in sums.chunks_exact(CHUNK).zip(weights.chunks_exact(CHUNK)) {
        for i in 0..CHUNK {
            let v = i32::from(s[i].clamp(0, QA as i16));
            lanes[i] += v * v * i32::from(w[i]);
        }
    }
    lanes.iter().sum()
}

impl Network {
    /// The evaluation, from the side to move's view, of the sums of the side to move
    /// (`us`) and of the other side (`them`) in a position of `pieces` pieces (which
    /// choose the output bucket): CReLU
    /// `(Σ crelu(us) · w[..N] + Σ crelu(them) · w[N..] + bias) · scale / (QA · QB)`;
    /// SCReLU the same with `screlu` and the dot products divided by `QA` before the
    /// bias is added; rounded toward zero and clamped to `±EVAL_LIMIT`.
    #[must_use]
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], pieces: usize) -> i32 {
        let bucket = usize::from(self.bucket_of[pieces.min(self.bucket_of.len() - 1)]);
        let width = 2 * self.hidden;
        let row = &self.output_weights[bucket * width..(bucket + 1) * width];
        let (w_us, w_them) = row.split_at(self.hidden);
        let bias = self.output_bias[bucket];
        let sum = match self.activation {
            Activation::CRelu => crelu_dot(us, w_us) + crelu_dot(them, w_them) + bias,
            Activation::SCRelu => (screlu_dot(us, w_us) + screlu_dot(them, w_them)) / QA + bias,
        };
        let scaled = i64::from(sum) * i64::from(self.scale) / i64::from(QA * QB);
        scaled.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }
}
