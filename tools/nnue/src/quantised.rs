//! The quantised network's forward pass, from the integers alone and written without
//! the engine's accumulators, to check the engine's evaluation against: sums `b + Σ w`
//! in `i32`; the bucket of the position's piece count; CReLU
//! `(Σ clamp(us, 0, QA) · w[..N] + Σ clamp(them, 0, QA) · w[N..] + bias)`, or SCReLU
//! `(Σ clamp(us, 0, QA)² · w[..N] + Σ clamp(them, 0, QA)² · w[N..]) / QA + bias`, in
//! `i64`; times `scale / (QA · QB)` rounded toward zero, clamped to the engine's
//! `EVAL_LIMIT`.

use xq_engine::eval::nnue::{output_bucket, Activation, EVAL_LIMIT, FEATURES, QA, QB};

use crate::dataset::Active;

/// The integer weights, as a network file holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedNet {
    pub hidden: usize,
    pub activation: Activation,
    pub buckets: usize,
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// `buckets` rows of `2 * hidden`.
    pub w2: Vec<i16>,
    pub b2: Vec<i32>,
    pub scale: i32,
}

impl QuantisedNet {
    /// Reads the integers out of a network file's bytes, version 1 (48-byte header, one
    /// bucket, CReLU) or 2 (56 bytes, buckets at 40..44). The header's checks are the
    /// engine's business: this takes the sizes from it, and gives `None` for a file
    /// whose sizes do not add up.
    #[must_use]
    pub fn from_file_bytes(bytes: &[u8]) -> Option<QuantisedNet> {
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
        };
        let (header, buckets) = match word(8)? {
            1 => (48, 1),
            2 => (56, usize::try_from(word(40)?).ok()?),
            _ => return None,
        };
        let hidden = word(20)? as usize;
        let activation = Activation::from_code(word(24)?)?;
        let scale = i32::try_from(word(36)?).ok()?;
        let outputs = buckets.checked_mul(2 * hidden)?;
        let biases = bytes.len().checked_sub(4 * buckets)?;
        let mut words = bytes
            .get(header..biases)?
            .chunks_exact(2)
            .map(|p| i16::from_le_bytes([p[0], p[1]]));
        let w1: Vec<i16> = words.by_ref().take(FEATURES * hidden).collect();
        let b1: Vec<i16> = words.by_ref().take(hidden).collect();
        let w2: Vec<i16> = words.by_ref().take(outputs).collect();
        let b2 = bytes
            .get(biases..)?
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        (w2.len() == outputs && words.next().is_none()).then_some(QuantisedNet {
            hidden,
            activation,
            buckets,
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
        let bucket = output_bucket(active.count, self.buckets);
        let w2 = &self.w2[bucket * 2 * self.hidden..][..2 * self.hidden];
        let activate = |x: i32| {
            let v = i64::from(x.clamp(0, QA));
            match self.activation {
                Activation::CRelu => v,
                Activation::SCRelu => v * v,
            }
        };
        let mut dot = 0i64;
        for (i, (u, t)) in us.iter().zip(&them).enumerate() {
            dot += activate(*u) * i64::from(w2[i]);
            dot += activate(*t) * i64::from(w2[self.hidden + i]);
        }
        if self.activation == Activation::SCRelu {
            dot /= i64::from(QA);
        }
        let sum = dot + i64::from(self.b2[bucket]);
        let scaled = sum * i64::from(self.scale) / i64::from(QA * QB);
        scaled.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }
}
