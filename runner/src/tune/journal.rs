//! `tune.jsonl`, the tune's journal: one JSON line per finished pair (the iteration, the
//! values each side played, the result, theta after the update), written whole and
//! synced to disk before theta moves on. It is the tune's single source of truth: a
//! resume reads theta and the finished iterations from it, so an interrupted or killed
//! tune loses no finished iteration and plays none twice. A last line cut off by a kill
//! is cut away on resume.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::store::jsonl::ScanError;

/// One finished iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// k, from 1.
    pub iteration: u64,
    /// The integer values the theta+ side played (sent with `setoption`).
    pub plus: BTreeMap<String, i64>,
    /// The values of the theta- side.
    pub minus: BTreeMap<String, i64>,
    /// +1 or -1 per parameter: the direction of theta+ from theta.
    pub flip: BTreeMap<String, i8>,
    /// The two games from the theta+ side: `W`, `D` or `L` (game 1: theta+ Red).
    pub games: [char; 2],
    /// Wins minus losses of the theta+ side.
    pub result: i32,
    /// theta after this result's update.
    pub theta: BTreeMap<String, f64>,
}

/// theta after the last of `records` (a parameter it lacks, and every one before the
/// first record, at its start): where a tune resumes, and what a page shows now.
#[must_use]
pub fn theta_after(params: &[crate::tune::params::TuneParam], records: &[Record]) -> Vec<f64> {
    params
        .iter()
        .map(|p| {
            records
                .last()
                .and_then(|r| r.theta.get(&p.name).copied())
                .unwrap_or(p.start)
        })
        .collect()
}

/// A journal problem.
#[derive(Debug, Error)]
pub enum JournalError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: not a tune record: {why}")]
    Corrupt {
        path: PathBuf,
        line: usize,
        why: String,
    },
}

/// The journal, open for appending.
#[derive(Debug)]
pub struct TuneJournal {
    path: PathBuf,
    file: File,
}

impl TuneJournal {
    /// Reads every record of the journal at `path` (none when it does not exist), cuts a
    /// torn last line off, and opens it for appending.
    ///
    /// # Errors
    /// The file cannot be read or written, or a line before the last is not a record.
    pub fn open(path: &Path) -> Result<(TuneJournal, Vec<Record>), JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_owned(),
            source,
        };
        let (records, good_len) = read(path)?;
        // Never through a link planted in its place (see `plain_file`).
        let file = crate::plain_file::open(OpenOptions::new().create(true).append(true), path)
            .map_err(io)?;
        if file.metadata().map_err(io)?.len() != good_len {
            file.set_len(good_len).map_err(io)?;
            file.sync_data().map_err(io)?;
        }
        Ok((
            TuneJournal {
                path: path.to_owned(),
                file,
            },
            records,
        ))
    }

    /// Appends one record as one write and syncs it to disk.
    ///
    /// # Errors
    /// Writing failed (disk full...).
    pub fn append(&mut self, record: &Record) -> Result<(), JournalError> {
        let io = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        let mut line = serde_json::to_string(record).map_err(|e| io(std::io::Error::other(e)))?;
        line.push('\n');
        self.file.write_all(line.as_bytes()).map_err(io)?;
        self.file.sync_data().map_err(io)
    }
}

/// The records of a journal, and the length of its complete lines. Only the last line
/// may be torn (no newline, or not a whole record): it is left out.
///
/// # Errors
/// The file cannot be read, or a line before the last is not a record.
pub fn read(path: &Path) -> Result<(Vec<Record>, u64), JournalError> {
    let io = |source| JournalError::Io {
        path: path.to_owned(),
        source,
    };
    let mut records = Vec::new();
    let good_len =
        crate::store::jsonl::scan(path, |_, record| records.push(record)).map_err(|e| match e {
            ScanError::Io(source) => io(source),
            ScanError::Corrupt { line, why } => JournalError::Corrupt {
                path: path.to_owned(),
                line,
                why,
            },
        })?;
    Ok((records, good_len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::folder::TUNE_JOURNAL;

    fn record(k: u64) -> Record {
        Record {
            iteration: k,
            plus: BTreeMap::from([("X".to_owned(), 51)]),
            minus: BTreeMap::from([("X".to_owned(), 49)]),
            flip: BTreeMap::from([("X".to_owned(), 1)]),
            games: ['W', 'D'],
            result: 1,
            theta: BTreeMap::from([("X".to_owned(), 50.25)]),
        }
    }

    #[test]
    fn records_survive_a_torn_last_line_which_is_cut_off() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join(TUNE_JOURNAL);
        {
            let (mut journal, old) = TuneJournal::open(&path).expect("open");
            assert!(old.is_empty());
            journal.append(&record(1)).expect("append");
            journal.append(&record(2)).expect("append");
        }
        let whole = std::fs::read(&path).expect("read");
        let mut torn = whole.clone();
        let line = serde_json::to_string(&record(3)).expect("json");
        torn.extend_from_slice(&line.as_bytes()[..line.len() / 2]);
        std::fs::write(&path, &torn).expect("write");
        let (mut journal, records) = TuneJournal::open(&path).expect("reopen");
        assert_eq!(records, vec![record(1), record(2)]);
        assert_eq!(
            std::fs::read(&path).expect("read"),
            whole,
            "the torn line is cut off"
        );
        journal.append(&record(3)).expect("append");
        let (records, _) = read(&path).expect("read");
        assert_eq!(
            records.iter().map(|r| r.iteration).collect::<Vec<_>>(),
            [1, 2, 3]
        );
    }

    #[test]
    fn a_bad_line_before_the_last_is_named() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join(TUNE_JOURNAL);
        let good = serde_json::to_string(&record(1)).expect("json");
        std::fs::write(&path, format!("{good}\nnot json\n{good}\n")).expect("write");
        let e = read(&path).expect_err("refused").to_string();
        assert!(e.contains("tune.jsonl:2: not a tune record"), "{e}");
    }
}
