//! `positions.bin`: the XQNNDATA file (`xq_core::training`) a datagen appends each
//! finished game's records to, in one write synced to disk before the game's ledger
//! line is written.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use xq_core::training::{DataError, DataReader, DataWriter, Record, HEADER_BYTES, RECORD_BYTES};

/// Why `positions.bin` cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DataFileError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Data {
        path: PathBuf,
        #[source]
        source: DataError,
    },
    #[error("{path}: holds {found} records, fewer than the {expected} the ledger counts (the file was changed or cut)")]
    Short {
        path: PathBuf,
        found: u64,
        expected: u64,
    },
}

/// The data file open for appending.
#[derive(Debug)]
pub struct DataFile {
    path: PathBuf,
    file: File,
}

impl DataFile {
    /// Opens `path` holding exactly `records` records: creates it (header only) when it
    /// does not exist and none are expected, else checks its header and cuts off what
    /// the ledger does not count. With `dedup`, also returns the keys of its positions.
    ///
    /// # Errors
    /// [`DataFileError`] when it cannot be read or written, is not a data file, or holds
    /// fewer records than expected.
    pub fn open(
        path: &Path,
        records: u64,
        dedup: bool,
    ) -> Result<(DataFile, Option<HashSet<u64>>), DataFileError> {
        let io = |source| DataFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let data = |source| DataFileError::Data {
            path: path.to_path_buf(),
            source,
        };
        // A file shorter than its header was cut while it was being created: nothing of
        // it counts, so it is made again.
        let len = std::fs::metadata(path).map_or(0, |m| m.len());
        if records == 0 && len < HEADER_BYTES as u64 {
            let file = File::create(path).map_err(io)?;
            let file = DataWriter::new(file)
                .and_then(DataWriter::finish)
                .map_err(io)?;
            file.sync_all().map_err(io)?;
            let seen = dedup.then(HashSet::new);
            return Ok((
                DataFile {
                    path: path.to_path_buf(),
                    file,
                },
                seen,
            ));
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let found = len.saturating_sub(HEADER_BYTES as u64) / RECORD_BYTES as u64;
        if found < records {
            return Err(DataFileError::Short {
                path: path.to_path_buf(),
                found,
                expected: records,
            });
        }
        let mut seen = dedup.then(HashSet::new);
        {
            let mut reader = DataReader::new(BufReader::new(&file)).map_err(data)?;
            if let Some(seen) = &mut seen {
                for index in 0..records {
                    let Some(record) = reader.next_record().map_err(data)? else {
                        break;
                    };
                    let position = record
                        .position()
                        .map_err(|source| data(DataError::BadRecord { index, source }))?;
                    seen.insert(position.key());
                }
            }
        }
        file.set_len(HEADER_BYTES as u64 + records * RECORD_BYTES as u64)
            .map_err(io)?;
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok((
            DataFile {
                path: path.to_path_buf(),
                file,
            },
            seen,
        ))
    }

    /// Appends `records` in one write and syncs them to disk.
    ///
    /// # Errors
    /// [`DataFileError::Io`] when they cannot be written.
    pub fn append(&mut self, records: &[Record]) -> Result<(), DataFileError> {
        let bytes: Vec<u8> = records.iter().flat_map(Record::to_bytes).collect();
        let io = |source| DataFileError::Io {
            path: self.path.clone(),
            source,
        };
        self.file.write_all(&bytes).map_err(io)?;
        self.file.sync_data().map_err(io)
    }
}
