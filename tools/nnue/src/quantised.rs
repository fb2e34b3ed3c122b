//! The quantised network's forward pass, from the integers alone and written without
//! the engine's accumulators, to check the engine's evaluation against:
//! sums `b + Σ w` in `i32`, CReLU `clamp(x, 0, QA)`, the output
//! `(Σ crelu(us) · w[..N] + Σ crelu(them) · w[N..] + bias) · scale / (QA · QB)` rounded
//! toward zero, clamped to the engine's `EVAL_LIMIT`.

use xq_engine::eval::nnue::{EVAL_LIMIT, FEATURES, QA, QB};

use crate::dataset::Active;

/// The integer weights, as a network file holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedNet {
    pub hidden: usize,
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    pub w2: Vec<i16>,
    pub b2: i32,
    pub scale: i32,
}

impl QuantisedNet {
    /// Reads the integers out of a network file's bytes (the header is the engine's
    /// business: this trusts it and takes the sizes from it).
    #[must_use]
    pub fn from_file_bytes(bytes: &[u8]) -> Option<QuantisedNet> {
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
        };
        let hidden = word(20)? as usize;
        let scale = i32::try_from(word(36)?).ok()?;
        let mut words = bytes
            .get(48..)?
            .chunks_exact(2)
            .map(|p| i16::from_le_bytes([p[0], p[1]]));
        let w1: Vec<i16> = words.by_ref().take(FEATURES * hidden).collect();
        let b1: Vec<i16> = words.by_ref().take(hidden).collect();
        let w2: Vec<i16> = words.by_ref().take(2 * hidden).collect();
        let tail = bytes.get(bytes.len().checked_sub(4)?..)?;
        let b2 = i32::from_le_bytes(tail.try_into().ok()?);
        (w2.len() == 2 * hidden).then_some(QuantisedNet {
            hidden,
            w1,
            b1,
            w2,
            b2,
            scale,
        })
    }

    fn sums(&self, features: &[u16]) -> Vec<i32> {
        let mut acc: Vec<i32> = self.b1.iter().map(|&b| i32::from(b)).collect();
        for &f in features {
            for (i, a) in acc.iter_mut().enumerate() {
                *a += i32::from(self.w1[usize::from(f) * self.hidden + i]);
            }
        }
        acc
    }

    /// The evaluation of a position from the side to move's view.
    #[must_use]
    pub fn evaluate(&self, active: &Active) -> i32 {
        let us = self.sums(&active.us[..active.count]);
        let them = self.sums(&active.them[..active.count]);
        let mut sum = i64::from(self.b2);
        for (i, (u, t)) in us.iter().zip(&them).enumerate() {
            sum += i64::from(*u.clamp(&0, &QA)) * i64::from(self.w2[i]);
            sum += i64::from(*t.clamp(&0, &QA)) * i64::from(self.w2[self.hidden + i]);
        }
        let scaled = sum * i64::from(self.scale) / i64::from(QA * QB);
        scaled.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }
}
