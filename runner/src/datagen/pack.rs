//! `xq-runner datagen pack DIR --into DATA`: the games a datagen folder holds that the
//! data folder does not, as one compressed chunk (`xq_core::training::chunk`) and its
//! manifest row (one chunk for each engine build among them).
//!
//! What is packed is remembered by the data folder's manifest: each row names the
//! datagen folder's id and the ledger lines it holds, so a later pack of the same
//! folder (stopped and resumed, or still running with `--live`) starts after the last
//! line packed, and no game is packed twice or left out. A ledger only grows (a resume
//! drops a torn last line, never a whole one), so its line numbers stay.

use std::path::{Path, PathBuf};

use thiserror::Error;
use xq_core::training::{
    sha256_hex, write_chunk, ChunkError, DataDirError, ManifestEntry, CHUNK_EXTENSION,
};

use super::data_folder::DataFolder;
use super::folder;
use super::game_line::game_of;
use super::ledger::{read_lines, LedgerError, LedgerLine};
use super::repeats::first_repeat;
use crate::store::folder::{RunFolder, DATAGEN_LEDGER, DATAGEN_RUN};

/// Why nothing was packed.
#[derive(Debug, Error)]
pub enum PackError {
    #[error("{}: holds no datagen ({DATAGEN_RUN} is missing)", .dir.display())]
    NotDatagen { dir: PathBuf },
    #[error("{0}")]
    Meta(String),
    #[error("{}: written by an older runner (its {DATAGEN_RUN} has no id, its ledger no scores): nothing to pack", .dir.display())]
    NoSource { dir: PathBuf },
    #[error("{why}; or pack the games it has written so far with --live")]
    InUse { why: String },
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    #[error("{}: {lines} ledger lines, fewer than the {packed} that {} lists as packed from it: not the folder that was packed (a copy?)", .dir.display(), .into.display())]
    Shrunk {
        dir: PathBuf,
        into: PathBuf,
        lines: u64,
        packed: u64,
    },
    #[error("{}: {why}", .path.display())]
    Game { path: PathBuf, why: String },
    #[error("{0}")]
    Chunk(#[from] ChunkError),
    #[error(transparent)]
    DataDir(DataDirError),
    #[error("this chunk is packed already: {file} in the manifest has the same SHA-256")]
    Duplicate { file: String },
    #[error("game {game} is in {file} already, played by the same engine build at the same settings in another datagen: one config and seeds play the same games, so give this datagen another datagen.seed")]
    Repeats { file: String, game: u64 },
    #[error("{}: would hold {would} bytes with this pack, more than its bound of {limit} (--max-mb): nothing packed", .dir.display())]
    TooLarge {
        dir: PathBuf,
        would: u64,
        limit: u64,
    },
    #[error("{}: another pack is adding to it", .dir.display())]
    Busy { dir: PathBuf },
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl PackError {
    /// Whether the data folder could not be written (not a refusal of bad input).
    #[must_use]
    pub fn is_io(&self) -> bool {
        matches!(self, PackError::Io { .. })
    }
}

/// How to pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackOptions {
    /// Pack a folder a datagen is writing (its whole ledger lines so far).
    pub live: bool,
    /// The data folder's bound, in bytes.
    pub max_bytes: u64,
}

/// What a pack did.
#[derive(Debug)]
pub struct Packed {
    /// The rows added (none when everything was packed already).
    pub added: Vec<ManifestEntry>,
    /// The bytes of each chunk added.
    pub chunk_bytes: Vec<u64>,
    /// Ledger lines of the datagen folder packed before this pack.
    pub before: u64,
    /// The data folder after the pack: chunks, positions, bytes.
    pub chunks: usize,
    pub positions: u64,
    pub bytes: u64,
}

/// Packs the games of the datagen folder `out` that `into` does not hold yet.
///
/// # Errors
/// [`PackError`]: the folder is no datagen or is being written (without `live`), the
/// ledger or the data folder cannot be read, the chunk is there already, or it would
/// take the data folder past its bound. Nothing is changed then.
pub fn pack(out: &Path, into: &Path, options: PackOptions) -> Result<Packed, PackError> {
    if !out.join(DATAGEN_RUN).exists() {
        return Err(PackError::NotDatagen {
            dir: out.to_path_buf(),
        });
    }
    // Held while packing, unless live: a resume waits meanwhile.
    let _held = if options.live {
        None
    } else {
        Some(RunFolder::open(out).map_err(|e| PackError::InUse { why: e.to_string() })?)
    };
    let meta = folder::read(out).map_err(PackError::Meta)?;
    if meta.source.is_empty() {
        return Err(PackError::NoSource {
            dir: out.to_path_buf(),
        });
    }
    let data = DataFolder::take(into)?;
    let mut manifest = data.manifest()?;
    let lines = read_lines(&out.join(DATAGEN_LEDGER))?;
    let before = manifest.packed_lines(&meta.source);
    let total = lines.len() as u64;
    if total < before {
        return Err(PackError::Shrunk {
            dir: out.to_path_buf(),
            into: into.to_path_buf(),
            lines: total,
            packed: before,
        });
    }
    let date = crate::output::files::today().replace('.', "-");
    let mut chunks = Vec::new();
    let mut first = before;
    for group in by_build(&lines[before as usize..]) {
        let games = group
            .iter()
            .map(game_of)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|why| PackError::Game {
                path: out.join(DATAGEN_LEDGER),
                why,
            })?;
        let bytes = write_chunk(&games)?;
        let sha256 = sha256_hex(&bytes);
        if let Some(there) = manifest.with_sha256(&sha256) {
            return Err(PackError::Duplicate {
                file: there.file.clone(),
            });
        }
        let file = format!(
            "{}-{}.{CHUNK_EXTENSION}",
            date.replace('-', ""),
            &sha256[..12]
        );
        chunks.push((file.clone(), bytes));
        let entry = ManifestEntry {
            file,
            games: games.len() as u64,
            positions: games.iter().map(|g| g.searched() as u64).sum(),
            bench: group[0].bench,
            commit: group[0].commit.clone().unwrap_or_else(|| "-".to_owned()),
            level: meta.settings.level.clone(),
            net: meta.settings.net.clone(),
            limit: meta.settings.limit.clone(),
            random_plies: meta.settings.random_plies,
            seed: meta.settings.seed,
            source: meta.source.clone(),
            first_line: first + 1,
            last_line: first + group.len() as u64,
            date: date.clone(),
            sha256,
        };
        if let Some((file, game)) = first_repeat(into, &manifest, &entry, &games) {
            return Err(PackError::Repeats { file, game });
        }
        first = entry.last_line;
        manifest.entries.push(entry);
    }
    let added: Vec<ManifestEntry> =
        manifest.entries[manifest.entries.len() - chunks.len()..].to_vec();
    let chunk_bytes: Vec<u64> = chunks.iter().map(|(_, b)| b.len() as u64).collect();
    let now = data.bytes()?;
    if !chunks.is_empty() {
        let manifest_now =
            std::fs::metadata(into.join(xq_core::training::MANIFEST_FILE)).map_or(0, |m| m.len());
        let would = now - manifest_now.min(now)
            + manifest.to_text().len() as u64
            + chunk_bytes.iter().sum::<u64>();
        if would > options.max_bytes {
            return Err(PackError::TooLarge {
                dir: into.to_path_buf(),
                would,
                limit: options.max_bytes,
            });
        }
        data.add(&chunks, &manifest)?;
    }
    Ok(Packed {
        added,
        chunk_bytes,
        before,
        chunks: manifest.entries.len(),
        positions: manifest.positions(),
        bytes: data.bytes()?,
    })
}

/// The lines in runs of one engine build each, in order.
fn by_build(lines: &[LedgerLine]) -> Vec<&[LedgerLine]> {
    let mut groups = Vec::new();
    let mut start = 0;
    for i in 1..=lines.len() {
        let split = i == lines.len()
            || (lines[i].bench, &lines[i].commit) != (lines[start].bench, &lines[start].commit);
        if split {
            groups.push(&lines[start..i]);
            start = i;
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(game: u64, bench: Option<u64>) -> LedgerLine {
        LedgerLine {
            game,
            positions: 0,
            result: "1/2-1/2".to_owned(),
            reason: "max_plies".to_owned(),
            start_fen: String::new(),
            opening_moves: String::new(),
            moves: String::new(),
            scores: Vec::new(),
            bench,
            commit: None,
        }
    }

    #[test]
    fn lines_split_where_the_build_changes() {
        let lines = [
            line(0, Some(1)),
            line(1, Some(1)),
            line(2, Some(2)),
            line(3, Some(1)),
        ];
        let sizes: Vec<usize> = by_build(&lines).iter().map(|g| g.len()).collect();
        assert_eq!(sizes, [2, 1, 1]);
        assert!(by_build(&[]).is_empty());
    }
}
