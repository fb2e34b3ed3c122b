//! Training positions in memory: each kept as its 32 record bytes (a few million fit in
//! a few hundred MB), decoded to features when used.

use std::path::Path;

use thiserror::Error;
use xq_core::board::{Color, Piece, Square};
use xq_core::training::{DataError, DataReader, Record, RECORD_BYTES};
use xq_engine::eval::nnue::feature_index;

/// Why the data could not be loaded.
#[derive(Debug, Error)]
pub enum DatasetError {
    #[error("{path}: {source}")]
    Data {
        path: String,
        #[source]
        source: DataError,
    },
    #[error("{0}")]
    Dir(String),
    #[error("no positions in the data files")]
    Empty,
}

/// The positions of one or more data files.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    records: Vec<[u8; RECORD_BYTES]>,
    /// Bytes left after the last whole record, per file read (files cut short).
    pub trailing: Vec<(String, usize)>,
}

/// The most pieces, so the most active features per perspective.
pub const MAX_ACTIVE: usize = 32;

/// One position's active features per perspective, side to move first.
#[derive(Clone, Copy, Debug)]
pub struct Active {
    pub us: [u16; MAX_ACTIVE],
    pub them: [u16; MAX_ACTIVE],
    pub count: usize,
}

impl Dataset {
    /// Reads data files; each record is checked once here.
    ///
    /// # Errors
    /// [`DatasetError::Data`] naming the file for anything its reader refuses,
    /// [`DatasetError::Empty`] when there is no position at all.
    pub fn load(paths: &[impl AsRef<Path>]) -> Result<Dataset, DatasetError> {
        let mut out = Dataset::default();
        for path in paths {
            let path = path.as_ref();
            let name = path.display().to_string();
            let wrap = |source| DatasetError::Data {
                path: name.clone(),
                source,
            };
            let mut reader = DataReader::open(path).map_err(wrap)?;
            while let Some(bytes) = reader.next_bytes().map_err(wrap)? {
                Record::from_bytes(&bytes).map_err(|source| {
                    wrap(DataError::BadRecord {
                        index: reader.records_read() - 1,
                        source,
                    })
                })?;
                out.records.push(bytes);
            }
            if reader.trailing_bytes() > 0 {
                out.trailing.push((name, reader.trailing_bytes()));
            }
        }
        if out.records.is_empty() {
            return Err(DatasetError::Empty);
        }
        Ok(out)
    }

    /// A dataset of records already made (tests, tools).
    #[must_use]
    pub fn from_records(records: &[Record]) -> Dataset {
        Dataset {
            records: records.iter().map(Record::to_bytes).collect(),
            trailing: Vec::new(),
        }
    }

    /// Adds another's positions after these.
    pub fn append(&mut self, mut other: Dataset) {
        self.records.append(&mut other.records);
        self.trailing.append(&mut other.trailing);
    }

    /// Keeps the first of each position (pieces and side to move); returns how many
    /// repeats it dropped.
    pub fn dedup(&mut self) -> u64 {
        let keep = crate::sources::first_of_each(
            self.records.iter().map(|r| crate::sources::position_key(r)),
        );
        let dropped = (self.records.len() - keep.len()) as u64;
        self.records = keep.into_iter().map(|i| self.records[i]).collect();
        dropped
    }

    /// Positions held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there is no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The features of position `index`, side to move first. Indices `len()..2 * len()`
    /// name the positions again mirrored left to right (file a <-> i), which the rules
    /// of Xiangqi leave equal: `--mirror` trains on both for twice the data.
    #[must_use]
    pub fn active(&self, index: usize) -> Active {
        let len = self.records.len();
        active_of(&self.records[index % len], index >= len)
    }

    /// The training target of position `index`:
    /// `λ · result + (1 - λ) · sigmoid(score / scale)`, from the side to move's view.
    #[must_use]
    pub fn target(&self, index: usize, lambda: f32, scale: f32) -> f32 {
        let bytes = &self.records[index % self.records.len()];
        let score = f32::from(i16::from_le_bytes([bytes[29], bytes[30]]));
        let result = f32::from(bytes[31]) / 2.0;
        lambda * result + (1.0 - lambda) * sigmoid(score / scale)
    }
}

/// The logistic function.
#[must_use]
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Decodes a checked record's pieces straight to features, `mirror`ed left to right or
/// not (no allocation: this runs for every position of every epoch).
fn active_of(bytes: &[u8; RECORD_BYTES], mirror: bool) -> Active {
    let mut wide = [0u8; 16];
    wide[..12].copy_from_slice(&bytes[..12]);
    let mut occupancy = u128::from_le_bytes(wide);
    let side = if bytes[28] == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let mut out = Active {
        us: [0; MAX_ACTIVE],
        them: [0; MAX_ACTIVE],
        count: 0,
    };
    // `nibble` counts occupied squares, `out.count` the pieces kept (the same for a
    // checked record).
    let mut nibble = 0;
    while occupancy != 0 && nibble < MAX_ACTIVE {
        let index = occupancy.trailing_zeros() as usize;
        occupancy &= occupancy - 1;
        let code = usize::from((bytes[12 + nibble / 2] >> (4 * (nibble % 2))) & 0xf);
        nibble += 1;
        let (Some(piece), Some(&sq)) = (
            Piece::ALL.into_iter().find(|p| p.index() == code),
            Square::ALL.get(index),
        ) else {
            continue;
        };
        let sq = if mirror { sq.mirror() } else { sq };
        out.us[out.count] = feature_index(side, piece, sq) as u16;
        out.them[out.count] = feature_index(!side, piece, sq) as u16;
        out.count += 1;
    }
    out
}
