//! The network file: a header, then the integer weights, little-endian.
//!
//! Version 2 (written), a 56-byte header:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic [`NET_MAGIC`] |
//! | 8..12 | format version [`NET_VERSION`] (2) |
//! | 12..16 | feature set id ([`FEATURE_SET`]: 1,260 piece-squares, Black turned) |
//! | 16..20 | inputs (1,260) |
//! | 20..24 | hidden size `N` |
//! | 24..28 | activation: 0 CReLU, 1 SCReLU ([`Activation::code`]) |
//! | 28..32, 32..36 | `QA`, `QB` |
//! | 36..40 | output scale (evaluation units of an output of 1.0) |
//! | 40..44 | output buckets `B` (1..=16, [`super::buckets`]) |
//! | 44..48 | zero (keeps the hash 8-aligned) |
//! | 48..56 | FNV-1a 64 hash of the payload |
//!
//! Payload: first-layer weights `i16 [1260][N]`, hidden biases `i16 [N]`, output weights
//! `i16 [B][2N]` (each bucket's side to move's half first), output biases `i32 [B]`.
//!
//! Version 1 (read, the first shipped net's): the same without bytes 40..48 (a 48-byte
//! header, the hash at 40..48), CReLU only and one bucket. Its payload is a version-2
//! payload of one bucket, byte for byte, so a network's hash is the same in either.

use std::path::Path;

use thiserror::Error;

use super::activation::Activation;
use super::buckets::MAX_BUCKETS;
use super::features::FEATURES;
use super::network::{check_sizes, Network, NetworkParts, MAX_HIDDEN};
use super::{QA, QB};

/// The first eight bytes of every network file.
pub const NET_MAGIC: [u8; 8] = *b"XQNNUE\0\0";
/// The file format version this build writes (it reads this and version 1).
pub const NET_VERSION: u32 = 2;
/// The feature set of [`super::features`].
pub const FEATURE_SET: u32 = 1;
/// CReLU's code, `clamp(x, 0, QA)`: the only activation of version 1.
pub const ACTIVATION_CRELU: u32 = 0;
/// Bytes of the version-2 header.
pub const HEADER_BYTES: usize = 56;
/// Bytes of the version-1 header.
pub const HEADER_BYTES_V1: usize = 48;

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
    #[error("network format version {0}, this build reads versions 1 and {NET_VERSION}")]
    Version(u32),
    #[error("network feature set {0}, this build has feature set {FEATURE_SET}")]
    FeatureSet(u32),
    #[error(
        "network activation {0}, this build has CReLU (0) and SCReLU (1), version 1 CReLU only"
    )]
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

fn payload_bytes(hidden: usize, buckets: usize) -> usize {
    2 * (FEATURES * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

impl Network {
    /// The hash of the weights, as the file header states it.
    #[must_use]
    pub fn hash(&self) -> u64 {
        fnv1a(&self.payload())
    }

    fn payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(payload_bytes(self.hidden, self.buckets));
        let weights = self
            .feature_weights
            .iter()
            .chain(&self.hidden_bias)
            .chain(&self.output_weights);
        for w in weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The file's bytes (version 2).
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
            self.activation.code(),
            QA as u32,
            QB as u32,
            self.scale as u32,
            self.buckets as u32,
            0,
        ];
        for word in words {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a network file's bytes, version 1 or 2.
    ///
    /// # Errors
    /// A [`NetError`] naming the first thing that does not fit this build: the magic,
    /// version, feature set, activation, quantisation, sizes, length, hash, or ranges.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 8 || bytes[..8] != NET_MAGIC {
            return Err(NetError::NotNetwork);
        }
        let truncated = |expected| NetError::Truncated {
            found: bytes.len(),
            expected,
        };
        // Every read below is within the header length checked first.
        let word = |i: usize| {
            let at = 8 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        if bytes.len() < 12 {
            return Err(truncated(HEADER_BYTES_V1));
        }
        let header = match word(0) {
            1 => HEADER_BYTES_V1,
            NET_VERSION => HEADER_BYTES,
            other => return Err(NetError::Version(other)),
        };
        if bytes.len() < header {
            return Err(truncated(header));
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
        let buckets = if header == HEADER_BYTES_V1 {
            1
        } else {
            word(8) as usize
        };
        check_sizes(hidden, buckets)?;
        let activation = match Activation::from_code(word(4)) {
            Some(a) if header == HEADER_BYTES || a == Activation::CRelu => a,
            _ => return Err(NetError::Activation(word(4))),
        };
        if (word(5), word(6)) != (QA as u32, QB as u32) {
            return Err(NetError::Quantisation(word(5), word(6)));
        }
        let scale = i32::try_from(word(7)).unwrap_or(0);
        let mut stated = [0u8; 8];
        stated.copy_from_slice(&bytes[header - 8..header]);
        let stated = u64::from_le_bytes(stated);
        let expected = header + payload_bytes(hidden, buckets);
        if bytes.len() < expected {
            return Err(truncated(expected));
        }
        if bytes.len() > expected {
            return Err(NetError::Trailing(bytes.len() - expected));
        }
        let payload = &bytes[header..];
        let found = fnv1a(payload);
        if found != stated {
            return Err(NetError::Hash { found, stated });
        }
        let outputs = buckets * 2 * hidden;
        let (words, biases) = payload.split_at(payload.len() - 4 * buckets);
        let mut words = words
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let feature_weights: Vec<i16> = words.by_ref().take(FEATURES * hidden).collect();
        let hidden_bias: Vec<i16> = words.by_ref().take(hidden).collect();
        let output_weights: Vec<i16> = words.by_ref().take(outputs).collect();
        let output_bias = biases
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Network::from_layers(NetworkParts {
            hidden,
            activation,
            buckets,
            feature_weights,
            hidden_bias,
            output_weights,
            output_bias,
            scale,
        })
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
        let most = (HEADER_BYTES + payload_bytes(MAX_HIDDEN, MAX_BUCKETS)) as u64;
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
        assert_eq!(bytes.len(), HEADER_BYTES + payload_bytes(16, 1));
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
            refused(&with(8, 3)),
            "network format version 3, this build reads versions 1 and 2"
        );
        assert_eq!(
            refused(&with(12, 5)),
            "network feature set 5, this build has feature set 1"
        );
        assert!(refused(&with(16, 768)).contains("768 inputs"));
        assert!(refused(&with(20, 32)).starts_with("network file truncated"));
        assert!(refused(&with(20, 24)).contains("hidden size 24"));
        assert!(refused(&with(24, 7)).contains("activation 7"));
        assert!(refused(&with(40, 0)).contains("0 output buckets"));
        assert!(refused(&with(40, 17)).contains("17 output buckets"));
        assert!(refused(&with(40, 2)).starts_with("network file truncated"));
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

    /// A version-1 file of a one-bucket CReLU network, as the first trainer wrote it.
    fn version_1(net: &Network) -> Vec<u8> {
        let mut bytes = net.to_bytes();
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        bytes.drain(40..48);
        bytes
    }

    fn bucketed(activation: Activation, buckets: usize) -> Network {
        let hidden = 32;
        Network::from_layers(NetworkParts {
            hidden,
            activation,
            buckets,
            feature_weights: (0..FEATURES * hidden)
                .map(|i| (i % 31) as i16 - 15)
                .collect(),
            hidden_bias: (0..hidden).map(|i| i as i16 * 5).collect(),
            output_weights: (0..buckets * 2 * hidden)
                .map(|i| (i % 11) as i16 - 5)
                .collect(),
            output_bias: (0..buckets).map(|b| b as i32 * 1000 - 3000).collect(),
            scale: 500,
        })
        .expect("valid")
    }

    #[test]
    fn a_version_1_file_reads_as_the_one_bucket_crelu_network_with_its_hash() {
        let net = small();
        let old = version_1(&net);
        assert_eq!(old.len(), HEADER_BYTES_V1 + payload_bytes(16, 1));
        let back = Network::from_bytes(&old).expect("reads version 1");
        assert_eq!(back, net);
        assert_eq!(back.hash(), net.hash());
        let mut screlu = old.clone();
        screlu[24] = 1;
        assert!(refused(&screlu).contains("version 1 CReLU only"));
    }

    #[test]
    fn bucketed_networks_of_each_activation_round_trip() {
        for activation in Activation::ALL {
            for buckets in [1, 3, 8, 16] {
                let net = bucketed(activation, buckets);
                let bytes = net.to_bytes();
                assert_eq!(bytes.len(), HEADER_BYTES + payload_bytes(32, buckets));
                assert_eq!(Network::from_bytes(&bytes).expect("reads"), net);
            }
        }
    }

    /// Every cut of a file, and every header with one byte changed, is an error, not a
    /// panic (each cut one line: the messages hold no newline).
    #[test]
    fn every_cut_or_changed_file_is_one_error_line() {
        for bytes in [
            version_1(&small()),
            bucketed(Activation::SCRelu, 8).to_bytes(),
        ] {
            for len in 0..bytes.len() {
                let why = refused(&bytes[..len]);
                assert!(!why.contains('\n'), "{why}");
                assert!(
                    why.starts_with("network file truncated") || why.starts_with("not a network"),
                    "{len}: {why}"
                );
            }
            for at in 0..HEADER_BYTES_V1 {
                for flip in [1u8, 0x80] {
                    let mut changed = bytes.clone();
                    changed[at] ^= flip;
                    if let Err(e) = Network::from_bytes(&changed) {
                        assert!(!e.to_string().contains('\n'));
                    }
                }
            }
        }
    }

    #[test]
    fn screlu_output_sums_are_bounded_by_qa_squared() {
        let hidden = 128;
        let parts = |activation, w: i16| NetworkParts {
            hidden,
            activation,
            buckets: 2,
            feature_weights: vec![0; FEATURES * hidden],
            hidden_bias: vec![0; hidden],
            output_weights: vec![w; 2 * 2 * hidden],
            output_bias: vec![0; 2],
            scale: 400,
        };
        // 65,025 · 256 · 129 = 2,147,425,600 fits; 130 does not.
        assert!(Network::from_layers(parts(Activation::SCRelu, 129)).is_ok());
        let err = Network::from_layers(parts(Activation::SCRelu, 130)).expect_err("too wide");
        assert!(err.to_string().contains("bucket 0 can overflow"), "{err}");
        assert!(Network::from_layers(parts(Activation::CRelu, 130)).is_ok());
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
