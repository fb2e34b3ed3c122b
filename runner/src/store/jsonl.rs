//! Reading a JSON Lines file that is only ever appended to, and that a kill may cut off
//! in the middle of its last line: the run's journal (`games.jsonl`) and the tune's
//! (`tune.jsonl`) both read through [`scan`].

use std::io::{BufRead, BufReader};
use std::path::Path;

use serde::de::DeserializeOwned;

/// Why a file could not be scanned; the caller names the file.
#[derive(Debug)]
pub enum ScanError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// A line before the last is not a value of the type (1-based line number).
    Corrupt { line: usize, why: String },
}

/// Streams every complete line of `path` as a `T` with its byte offset in the file, and
/// returns the length of the complete lines. The file is only read, never written. A
/// last line cut off by a kill (or still being written: no newline, or not valid JSON)
/// is left out; any other bad line is an error naming it. A missing file is empty.
///
/// # Errors
/// The file cannot be read, or a line before the last is not a `T`.
pub fn scan<T: DeserializeOwned>(
    path: &Path,
    mut each: impl FnMut(u64, T),
) -> Result<u64, ScanError> {
    // A link or a FIFO in the journal's place is refused, not followed or waited on.
    let file = match crate::plain_file::read_only(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(ScanError::Io(e)),
    };
    let mut good_len: u64 = 0;
    let mut reader = BufReader::new(file);
    // Bytes, not text: a line torn inside a character (names may be any UTF-8) is
    // a torn line like any other, and bad bytes inside the file get their line.
    let mut buffer = Vec::new();
    let mut line = 0;
    loop {
        buffer.clear();
        let read = reader
            .read_until(b'\n', &mut buffer)
            .map_err(ScanError::Io)?;
        if read == 0 || !buffer.ends_with(b"\n") {
            // The end, or a torn last line: the writer was killed while writing it.
            break;
        }
        line += 1;
        match serde_json::from_slice::<T>(buffer.trim_ascii_end()) {
            Ok(value) => {
                each(good_len, value);
                good_len += read as u64;
            }
            Err(e) => {
                // Only the very last line may be damaged.
                let mut rest = Vec::new();
                if reader.read_until(b'\n', &mut rest).map_err(ScanError::Io)? == 0 {
                    break;
                }
                return Err(ScanError::Corrupt {
                    line,
                    why: e.to_string(),
                });
            }
        }
    }
    Ok(good_len)
}
