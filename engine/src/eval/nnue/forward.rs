//! The output layer: CReLU of both perspectives' sums, side to move first, dotted with
//! the output weights; then scaled to evaluation units.
//!
//! The loops run over fixed chunks of [`CHUNK`] lanes with one `i32` sum per lane, so
//! the compiler turns them into vector multiply-adds (no `unsafe`, no `std::arch`).

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

impl Network {
    /// The evaluation, from the side to move's view, of the sums of the side to move
    /// (`us`) and of the other side (`them`):
    /// `(Σ crelu(us) · w[..N] + Σ crelu(them) · w[N..] + bias) · scale / (QA · QB)`,
    /// rounded toward zero and clamped to `±EVAL_LIMIT`.
    #[must_use]
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let (w_us, w_them) = self.output_weights.split_at(self.hidden);
        let sum = crelu_dot(us, w_us) + crelu_dot(them, w_them) + self.output_bias;
        let scaled = i64::from(sum) * i64::from(self.scale) / i64::from(QA * QB);
        scaled.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }
}
