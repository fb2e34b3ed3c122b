//! The network file: a 48-byte header, then the integer weights, little-endian.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic [`NET_MAGIC`] |
//! | 8..12 | format version [`NET_VERSION`] |
//! | 12..16 | feature set id ([`FEATURE_SET`]: 1,260 piece-squares, Black turned) |
//! | 16..20 | inputs (1,260) |
//! | 20..24 | hidden size `N` |
//! | 24..28 | activation ([`ACTIVATION_CRELU`]) |
//! | 28..32, 32..36 | `QA`, `QB` |
//! | 36..40 | output scale (evaluation units of an output of 1.0) |
//! | 40..48 | FNV-1a 64 hash of the payload |
//!
//! Payload: first-layer weights `i16 [1260][N]`, hidden biases `i16 [N]`, output weights
//! `i16 [2N]` (side to move first), output bias `i32`.

use std::path::Path;

use thiserror::Error;

use super::features::FEATURES;
use super::network::{Network, HIDDEN_CHUNK, MAX_HIDDEN};
use super::{QA, QB};

/// The first eight bytes of every network file.
pub const NET_MAGIC: [u8; 8] = *b"XQNNUE\0\0";
/// The file format version this build reads and writes.
pub const NET_VERSION: u32 = 1;
/// The feature set of [`super::features`].
pub const FEATURE_SET: u32 = 1;
/// CReLU, `clamp(x, 0, QA)`.
pub const ACTIVATION_CRELU: u32 = 0;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 48;

/// Why a network file was refused.
#[derive(Debug, Error)]
pub enum NetError {
    #[error("cannot read network file {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("not a network file (no XQNNUE header)")]
    NotNetwork,
    #[error("network format version {0}, this build reads version {NET_VERSION}")]
    Version(u32),
    #[error("network feature set {0}, this build has feature set {FEATURE_SET}")]
    FeatureSet(u32),
    #[error("network activation {0}, this build has CReLU ({ACTIVATION_CRELU})")]
    Activation(u32),
    #[error("network quantisation QA {0}, QB {1}; this build uses QA {QA}, QB {QB}")]
    Quantisation(u32, u32),
    #[error("network sizes: {0}")]
    Sizes(String),
    #[error("network file truncated: {found} bytes, {expected} expected")]
    Truncated { found: usize, expected: usize },
    #[error("network file has {0} bytes after the weights")]
    Trailing(usize),
    #[error("network weights hash {found:016x}, the header says {stated:016x} (file damaged)")]
    Hash { found: u64, stated: u64 },
    #[error("network weights out of range: {0}")]
    Range(String),
}

/// FNV-1a, 64 bits: the weights' fingerprint (no cryptography needed).
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn payload_bytes(hidden: usize) -> usize {
    2 * (FEATURES * hidden + hidden + 2 * hidden) + 4
}

impl Network {
    /// The hash of the weights, as the file header states it.
    #[must_use]
    pub fn hash(&self) -> u64 {
        fnv1a(&self.payload())
    }

    fn payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(payload_bytes(self.hidden));
        let weights = self
            .feature_weights
            .iter()
            .chain(&self.hidden_bias)
            .chain(&self.output_weights);
        for w in weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// The file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
        out.extend_from_slice(&NET_MAGIC);
        let words = [
            NET_VERSION,
            FEATURE_SET,
            FEATURES as u32,
            self.hidden as u32,
            ACTIVATION_CRELU,
            QA as u32,
            QB as u32,
            self.scale as u32,
        ];
        for word in words {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a network file's bytes.
    ///
    /// # Errors
    /// A [`NetError`] naming the first thing that does not fit this build: the magic,
    /// version, feature set, activation, quantisation, sizes, length, hash, or ranges.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 8 || bytes[..8] != NET_MAGIC {
            return Err(NetError::NotNetwork);
        }
        if bytes.len() < HEADER_BYTES {
            return Err(NetError::Truncated {
                found: bytes.len(),
                expected: HEADER_BYTES,
            });
        }
        let word = |i: usize| {
            let at = 8 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        if word(0) != NET_VERSION {
            return Err(NetError::Version(word(0)));
        }
        if word(1) != FEATURE_SET {
            return Err(NetError::FeatureSet(word(1)));
        }
        if word(2) as usize != FEATURES {
            return Err(NetError::Sizes(format!(
                "{} inputs, {FEATURES} expected",
                word(2)
            )));
        }
        let hidden = word(3) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_CHUNK) {
            return Err(NetError::Sizes(format!(
                "hidden size {hidden} (a multiple of {HIDDEN_CHUNK} up to {MAX_HIDDEN})"
            )));
        }
        if word(4) != ACTIVATION_CRELU {
            return Err(NetError::Activation(word(4)));
        }
        if (word(5), word(6)) != (QA as u32, QB as u32) {
            return Err(NetError::Quantisation(word(5), word(6)));
        }
        let scale = i32::try_from(word(7)).unwrap_or(0);
        let mut stated = [0u8; 8];
        stated.copy_from_slice(&bytes[40..48]);
        let stated = u64::from_le_bytes(stated);
        let expected = HEADER_BYTES + payload_bytes(hidden);
        if bytes.len() < expected {
            return Err(NetError::Truncated {
                found: bytes.len(),
                expected,
            });
        }
        if bytes.len() > expected {
            return Err(NetError::Trailing(bytes.len() - expected));
        }
        let payload = &bytes[HEADER_BYTES..];
        let found = fnv1a(payload);
        if found != stated {
            return Err(NetError::Hash { found, stated });
        }
        let mut words = payload
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let feature_weights: Vec<i16> = words.by_ref().take(FEATURES * hidden).collect();
        let hidden_bias: Vec<i16> = words.by_ref().take(hidden).collect();
        let output_weights: Vec<i16> = words.by_ref().take(2 * hidden).collect();
        let tail = &payload[payload.len() - 4..];
        let output_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        Network::from_parts(
            hidden,
            feature_weights,
            hidden_bias,
            output_weights,
            output_bias,
            scale,
        )
    }

    /// Loads a network file.
    ///
    /// # Errors
    /// [`NetError::Io`] when it cannot be read, else as [`Network::from_bytes`].
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let io = |source| NetError::Io {
            path: path.display().to_string(),
            source,
        };
        // Refuse a huge file before reading it: no network of this format is that large.
        let len = std::fs::metadata(path).map_err(io)?.len();
        let most = (HEADER_BYTES + payload_bytes(MAX_HIDDEN)) as u64;
        if len > most {
            return Err(NetError::Sizes(format!("{len} bytes, at most {most}")));
        }
        Network::from_bytes(&std::fs::read(path).map_err(io)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Network {
        let hidden = 16;
        let weights = (0..FEATURES * hidden)
            .map(|i| (i % 29) as i16 - 14)
            .collect();
        let bias = (0..hidden).map(|i| i as i16 * 3).collect();
        let out = (0..2 * hidden).map(|i| (i % 7) as i16 - 3).collect();
        Network::from_parts(hidden, weights, bias, out, -1234, 400).expect("valid")
    }

    fn refused(bytes: &[u8]) -> String {
        Network::from_bytes(bytes).expect_err("refused").to_string()
    }

    #[test]
    fn a_network_round_trips_through_its_file() {
        let net = small();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), HEADER_BYTES + payload_bytes(16));
        let back = Network::from_bytes(&bytes).expect("reads");
        assert_eq!(back, net);
        assert_eq!(back.hash(), net.hash());
    }

    #[test]
    fn every_wrong_file_gets_its_own_line() {
        let good = small().to_bytes();
        assert_eq!(
            refused(b"XQNNDATA and more"),
            "not a network file (no XQNNUE header)"
        );
        let with = |at: usize, value: u32| {
            let mut bytes = good.clone();
            bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
            bytes
        };
        assert_eq!(
            refused(&with(8, 2)),
            "network format version 2, this build reads version 1"
        );
        assert_eq!(
            refused(&with(12, 5)),
            "network feature set 5, this build has feature set 1"
        );
        assert!(refused(&with(16, 768)).contains("768 inputs"));
        assert!(refused(&with(20, 32)).starts_with("network file truncated"));
        assert!(refused(&with(20, 24)).contains("hidden size 24"));
        assert!(refused(&with(24, 1)).contains("activation 1"));
        assert!(refused(&with(28, 181)).contains("QA 181"));
        assert!(refused(&good[..good.len() - 3]).starts_with("network file truncated"));
        assert!(refused(&good[..20]).starts_with("network file truncated"));
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(
            refused(&longer),
            "network file has 1 bytes after the weights"
        );
        let mut damaged = good.clone();
        damaged[HEADER_BYTES + 100] ^= 1;
        assert!(refused(&damaged).starts_with("network weights hash"));
    }

    #[test]
    fn weights_that_could_overflow_are_refused() {
        let hidden = 16;
        let big = vec![2000i16; FEATURES * hidden];
        let err = Network::from_parts(hidden, big, vec![0; 16], vec![0; 32], 0, 400);
        assert!(matches!(err, Err(NetError::Range(_))));
        let out = vec![i16::MAX; 32];
        let err = Network::from_parts(hidden, vec![0; FEATURES * 16], vec![0; 16], out, 0, 400);
        assert!(err.is_ok(), "255 * 32 * 32767 fits in i32");
        let err = Network::from_parts(
            hidden,
            vec![0; FEATURES * 16],
            vec![0; 16],
            vec![0; 32],
            0,
            0,
        );
        assert!(matches!(err, Err(NetError::Range(_))));
    }

    #[test]
    fn a_missing_file_names_its_path() {
        let err = Network::load(Path::new("/nonexistent/net.nnue")).expect_err("missing");
        assert!(err.to_string().contains("/nonexistent/net.nnue"));
    }
}
