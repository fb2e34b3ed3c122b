//! Training data files: a 16-byte header, then records of [`RECORD_BYTES`] bytes.
//!
//! Header (little-endian): the magic [`DATA_MAGIC`] (8 bytes), the format version
//! ([`DATA_VERSION`], `u32`) and the record size (`u32`, [`RECORD_BYTES`]). A file cut
//! short by a crash or a kill is still read: the reader stops at its last whole record
//! and says how many bytes it left ([`DataReader::trailing_bytes`]).

use std::io::{self, Read, Write};
use std::path::Path;

use thiserror::Error;

use super::record::{Record, RecordError, RECORD_BYTES};

/// The first eight bytes of every data file.
pub const DATA_MAGIC: [u8; 8] = *b"XQNNDATA";
/// The format version this code writes and reads.
pub const DATA_VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 16;

/// Why a data file cannot be read or written.
#[derive(Debug, Error)]
pub enum DataError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("not a training data file (no XQNNDATA header)")]
    NotDataFile,
    #[error("data format version {found}, this build reads version {DATA_VERSION}")]
    Version { found: u32 },
    #[error("records of {found} bytes, this build reads {RECORD_BYTES}")]
    RecordSize { found: u32 },
    #[error("record {index}: {source}")]
    BadRecord {
        index: u64,
        #[source]
        source: RecordError,
    },
}

impl DataError {
    fn io(path: &Path, source: io::Error) -> DataError {
        DataError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}

/// The header's bytes.
fn header() -> [u8; HEADER_BYTES] {
    let mut out = [0u8; HEADER_BYTES];
    out[..8].copy_from_slice(&DATA_MAGIC);
    out[8..12].copy_from_slice(&DATA_VERSION.to_le_bytes());
    out[12..16].copy_from_slice(&(RECORD_BYTES as u32).to_le_bytes());
    out
}

/// Reads as many bytes as `buf` holds, or fewer at the end of the input.
fn read_up_to(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Writes records to any byte sink, the header first.
#[derive(Debug)]
pub struct DataWriter<W: Write> {
    out: W,
    written: u64,
}

impl DataWriter<io::BufWriter<std::fs::File>> {
    /// Creates (or replaces) a data file.
    ///
    /// # Errors
    /// [`DataError::Io`] when the file cannot be created or written.
    pub fn create(path: &Path) -> Result<Self, DataError> {
        let file = std::fs::File::create(path).map_err(|e| DataError::io(path, e))?;
        DataWriter::new(io::BufWriter::new(file)).map_err(|e| DataError::io(path, e))
    }
}

impl<W: Write> DataWriter<W> {
    /// A writer that has written the header to `out`.
    ///
    /// # Errors
    /// The sink's error.
    pub fn new(mut out: W) -> io::Result<Self> {
        out.write_all(&header())?;
        Ok(DataWriter { out, written: 0 })
    }

    /// Appends one record.
    ///
    /// # Errors
    /// The sink's error.
    pub fn write(&mut self, record: &Record) -> io::Result<()> {
        self.out.write_all(&record.to_bytes())?;
        self.written += 1;
        Ok(())
    }

    /// Records written so far.
    #[must_use]
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Flushes and returns the sink.
    ///
    /// # Errors
    /// The sink's error.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Reads records from any byte source after checking its header.
#[derive(Debug)]
pub struct DataReader<R: Read> {
    input: R,
    read: u64,
    trailing: usize,
}

impl DataReader<io::BufReader<std::fs::File>> {
    /// Opens a data file and checks its header.
    ///
    /// # Errors
    /// [`DataError::Io`], or the header's error (see [`DataReader::new`]).
    pub fn open(path: &Path) -> Result<Self, DataError> {
        let file = std::fs::File::open(path).map_err(|e| DataError::io(path, e))?;
        DataReader::new(io::BufReader::new(file)).map_err(|e| match e {
            DataError::Io { source, .. } => DataError::io(path, source),
            other => other,
        })
    }

    /// Every record of a file; a truncated last record is left out.
    ///
    /// # Errors
    /// As [`DataReader::open`] and [`DataReader::next_record`].
    pub fn read_all(path: &Path) -> Result<Vec<Record>, DataError> {
        let mut reader = DataReader::open(path)?;
        let mut records = Vec::new();
        while let Some(record) = reader.next_record()? {
            records.push(record);
        }
        Ok(records)
    }
}

impl<R: Read> DataReader<R> {
    /// A reader of `input`, whose header has been checked.
    ///
    /// # Errors
    /// [`DataError::NotDataFile`] for a short input or another magic,
    /// [`DataError::Version`] and [`DataError::RecordSize`] for another format.
    pub fn new(mut input: R) -> Result<Self, DataError> {
        let mut head = [0u8; HEADER_BYTES];
        let got = read_up_to(&mut input, &mut head).map_err(|source| DataError::Io {
            path: "input".to_owned(),
            source,
        })?;
        if got < HEADER_BYTES || head[..8] != DATA_MAGIC {
            return Err(DataError::NotDataFile);
        }
        let word =
            |at: usize| u32::from_le_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
        if word(8) != DATA_VERSION {
            return Err(DataError::Version { found: word(8) });
        }
        if word(12) as usize != RECORD_BYTES {
            return Err(DataError::RecordSize { found: word(12) });
        }
        Ok(DataReader {
            input,
            read: 0,
            trailing: 0,
        })
    }

    /// The next record's raw bytes; `None` at the end, or at a last record cut short
    /// (whose length [`DataReader::trailing_bytes`] then gives).
    ///
    /// # Errors
    /// [`DataError::Io`] when the source fails.
    pub fn next_bytes(&mut self) -> Result<Option<[u8; RECORD_BYTES]>, DataError> {
        let mut bytes = [0u8; RECORD_BYTES];
        let got = read_up_to(&mut self.input, &mut bytes).map_err(|source| DataError::Io {
            path: "input".to_owned(),
            source,
        })?;
        if got < RECORD_BYTES {
            self.trailing = got;
            return Ok(None);
        }
        self.read += 1;
        Ok(Some(bytes))
    }

    /// The next record; `None` at the end or at a last record cut short.
    ///
    /// # Errors
    /// [`DataError::Io`], or [`DataError::BadRecord`] with the record's index.
    pub fn next_record(&mut self) -> Result<Option<Record>, DataError> {
        let Some(bytes) = self.next_bytes()? else {
            return Ok(None);
        };
        Record::from_bytes(&bytes)
            .map(Some)
            .map_err(|source| DataError::BadRecord {
                index: self.read - 1,
                source,
            })
    }

    /// Whole records read so far.
    #[must_use]
    pub fn records_read(&self) -> u64 {
        self.read
    }

    /// The bytes of a last record cut short, once the end is reached (0 otherwise).
    #[must_use]
    pub fn trailing_bytes(&self) -> usize {
        self.trailing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::samples::POSITIONS;
    use crate::training::GameResult;

    fn sample_file() -> (Vec<Record>, Vec<u8>) {
        let records: Vec<Record> = POSITIONS
            .iter()
            .enumerate()
            .map(|(i, fen)| {
                let pos = Position::from_fen(fen).expect("sample");
                Record::new(&pos, i as i16, GameResult::Win)
            })
            .collect();
        let mut writer = DataWriter::new(Vec::new()).expect("vec");
        for record in &records {
            writer.write(record).expect("vec");
        }
        assert_eq!(writer.written(), records.len() as u64);
        (records, writer.finish().expect("vec"))
    }

    fn read(bytes: &[u8]) -> Result<(Vec<Record>, usize), DataError> {
        let mut reader = DataReader::new(bytes)?;
        let mut out = Vec::new();
        while let Some(record) = reader.next_record()? {
            out.push(record);
        }
        Ok((out, reader.trailing_bytes()))
    }

    #[test]
    fn a_file_is_a_header_and_whole_records() {
        let (records, bytes) = sample_file();
        assert_eq!(bytes.len(), HEADER_BYTES + records.len() * RECORD_BYTES);
        let (back, trailing) = read(&bytes).expect("reads");
        assert_eq!(back, records);
        assert_eq!(trailing, 0);
    }

    #[test]
    fn a_truncated_file_is_read_up_to_its_last_whole_record() {
        let (records, bytes) = sample_file();
        let cut = &bytes[..bytes.len() - 5];
        let (back, trailing) = read(cut).expect("reads");
        assert_eq!(back, records[..records.len() - 1]);
        assert_eq!(trailing, RECORD_BYTES - 5);
        let (none, _) = read(&bytes[..HEADER_BYTES]).expect("header only");
        assert!(none.is_empty());
    }

    #[test]
    fn other_files_are_refused_with_the_reason() {
        let (_, bytes) = sample_file();
        let err = |b: &[u8]| read(b).expect_err("refused").to_string();
        assert_eq!(
            err(b"rnbakabnr/9/1c5c1 w"),
            "not a training data file (no XQNNDATA header)"
        );
        assert_eq!(
            err(&bytes[..10]),
            "not a training data file (no XQNNDATA header)"
        );
        let mut other = bytes.clone();
        other[8] = 9;
        assert_eq!(
            err(&other),
            "data format version 9, this build reads version 1"
        );
        let mut other = bytes.clone();
        other[12] = 40;
        assert_eq!(err(&other), "records of 40 bytes, this build reads 32");
        let mut other = bytes;
        other[HEADER_BYTES + RECORD_BYTES + 28] = 7;
        assert_eq!(
            err(&other),
            "record 1: side-to-move byte 7 (0 Red, 1 Black)"
        );
    }

    #[test]
    fn files_on_disk_round_trip_and_a_missing_one_names_its_path() {
        let dir = std::env::temp_dir().join(format!("xq-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("positions.bin");
        let (records, _) = sample_file();
        let mut writer = DataWriter::create(&path).expect("create");
        for record in &records {
            writer.write(record).expect("write");
        }
        writer.finish().expect("flush");
        assert_eq!(DataReader::read_all(&path).expect("read"), records);
        let missing = DataReader::read_all(&dir.join("missing.bin")).expect_err("missing");
        assert!(missing.to_string().contains("missing.bin"), "{missing}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
