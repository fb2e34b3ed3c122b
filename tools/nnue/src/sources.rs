//! Where training positions come from: data folders of game-record chunks (their
//! manifest's chunks, each checked against its SHA-256), chunk files, and the older
//! position files (`XQNNDATA`). Each game is replayed and the reader's filters
//! (`xq_core::training::positions`) choose its positions. A chunk that cannot be used
//! (cut, damaged, foreign, missing) is one note and is skipped; a data folder whose
//! manifest cannot be read, or an older position file that is bad, stops the load.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};

use xq_core::training::{
    chunks_of_dir, read_source, training_positions, ChunkSource, FilterCounts, Filters, Record,
    CHUNK_MAGIC, DATA_MAGIC,
};

use crate::dataset::{Dataset, DatasetError};

/// One place to read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A data folder: the chunks its `manifest.tsv` lists.
    Dir(PathBuf),
    /// A chunk, or an older position file.
    File(PathBuf),
}

/// What the reader keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    pub filters: Filters,
    /// Keep each position (pieces and side to move) once, the first time it is read.
    pub dedup: bool,
}

/// What was read, and what was left out.
#[derive(Clone, Debug, Default)]
pub struct ReadReport {
    pub chunks: usize,
    pub games: u64,
    pub counts: FilterCounts,
    /// Positions left out as repeats (`dedup`).
    pub repeats: u64,
    /// Positions read from older position files (no filters apply: they were chosen
    /// when written).
    pub position_files: u64,
}

/// The positions of `sources`, with the filters applied; `note` hears one line per
/// chunk or file skipped (and per file cut short) as it happens.
///
/// # Errors
/// [`DatasetError`] for a data folder that cannot be read, a bad older position file,
/// or no position at all.
pub fn read_sources(
    sources: &[Source],
    options: &ReadOptions,
    note: &mut dyn FnMut(String),
) -> Result<(Dataset, ReadReport), DatasetError> {
    let mut report = ReadReport::default();
    let mut records = Vec::new();
    let mut older = Vec::new();
    for source in sources {
        match source {
            Source::Dir(dir) => {
                let (chunks, notes) =
                    chunks_of_dir(dir).map_err(|e| DatasetError::Dir(e.to_string()))?;
                notes.into_iter().for_each(&mut *note);
                for chunk in chunks {
                    read_chunk(&chunk, options, &mut records, &mut report, note);
                }
            }
            Source::File(path) => match magic(path) {
                Err(e) => note(format!("{}: cannot read: {e}: skipped", path.display())),
                Ok(Some(m)) if m == CHUNK_MAGIC => {
                    let chunk = ChunkSource {
                        path: path.clone(),
                        sha256: None,
                    };
                    read_chunk(&chunk, options, &mut records, &mut report, note);
                }
                Ok(Some(m)) if m == DATA_MAGIC => older.push(path.clone()),
                _ => note(format!(
                    "{}: not a game-record chunk nor a training data file: skipped",
                    path.display()
                )),
            },
        }
    }
    let mut data = Dataset::from_records(&records);
    if !older.is_empty() {
        let files = Dataset::load(&older)?;
        report.position_files = files.len() as u64;
        for (path, bytes) in &files.trailing {
            note(format!(
                "{path}: ends in a record cut short ({bytes} bytes left unread)"
            ));
        }
        data.append(files);
    }
    if options.dedup {
        report.repeats = data.dedup();
    }
    if data.is_empty() {
        return Err(DatasetError::Empty);
    }
    Ok((data, report))
}

/// Reads one chunk into `records`, or notes why it was skipped.
fn read_chunk(
    chunk: &ChunkSource,
    options: &ReadOptions,
    records: &mut Vec<Record>,
    report: &mut ReadReport,
    note: &mut dyn FnMut(String),
) {
    let games = match read_source(chunk) {
        Ok((_, games)) => games,
        Err(e) => {
            note(format!("{}: {e}: skipped", chunk.path.display()));
            return;
        }
    };
    let mut kept = Vec::new();
    let mut counts = FilterCounts::default();
    for game in &games {
        // A decoded game replays: its moves were decoded from its legal moves.
        if let Err(e) = training_positions(game, &options.filters, &mut kept, &mut counts) {
            note(format!("{}: {e}: skipped", chunk.path.display()));
            return;
        }
    }
    report.chunks += 1;
    report.games += games.len() as u64;
    report.counts.add(&counts);
    records.append(&mut kept);
}

/// The first eight bytes of a file; `None` when it is shorter.
fn magic(path: &Path) -> std::io::Result<Option<[u8; 8]>> {
    let mut bytes = [0u8; 8];
    match std::fs::File::open(path)?.read_exact(&mut bytes) {
        Ok(()) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

/// A position's identity for `dedup`: its pieces and side to move (a record's bytes
/// before the score).
#[must_use]
pub fn position_key(bytes: &[u8]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes[..29].hash(&mut hasher);
    hasher.finish()
}

/// Keeps the first of each key in `keys`, returning the indices kept.
#[must_use]
pub fn first_of_each(keys: impl Iterator<Item = u64>) -> Vec<usize> {
    let mut seen = HashSet::new();
    keys.enumerate()
        .filter_map(|(i, k)| seen.insert(k).then_some(i))
        .collect()
}
