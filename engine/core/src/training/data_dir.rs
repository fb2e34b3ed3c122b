//! A data folder (`engine/data/selfplay/`): the chunks its manifest lists, each checked
//! against the manifest's SHA-256 before it is read. What cannot be used is a note (one
//! line each) for the reader to print, never a reason to stop: a chunk missing, listed
//! twice, or a chunk file the manifest does not list (a pack cut short, or a file
//! copied in by hand).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use thiserror::Error;

use super::chunk::{read_chunk, ChunkError, ChunkHeader};
use super::game::SelfPlayGame;
use super::manifest::{Manifest, ManifestError, CHUNK_EXTENSION, MANIFEST_FILE};

/// Why a data folder cannot be read at all.
#[derive(Debug, Error)]
pub enum DataDirError {
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: {source}", .path.display())]
    Manifest {
        path: PathBuf,
        #[source]
        source: ManifestError,
    },
}

/// A chunk to read, and the SHA-256 its manifest gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkSource {
    pub path: PathBuf,
    pub sha256: Option<String>,
}

/// The lowercase hex SHA-256 of `bytes`.
#[must_use]
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            use std::fmt::Write as _;
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Reads `dir`'s manifest.
///
/// # Errors
/// [`DataDirError`] when it cannot be read or is not a manifest.
pub fn read_manifest(dir: &Path) -> Result<Manifest, DataDirError> {
    let path = dir.join(MANIFEST_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| DataDirError::Io {
        path: path.clone(),
        source,
    })?;
    Manifest::parse(&text).map_err(|source| DataDirError::Manifest { path, source })
}

/// The chunks of `dir` in its manifest's order, and a note for each thing left out.
///
/// # Errors
/// [`DataDirError`] when the manifest or the folder cannot be read.
pub fn chunks_of_dir(dir: &Path) -> Result<(Vec<ChunkSource>, Vec<String>), DataDirError> {
    let manifest = read_manifest(dir)?;
    let mut notes = Vec::new();
    let mut listed = HashSet::new();
    let mut sources = Vec::new();
    for entry in &manifest.entries {
        let path = dir.join(&entry.file);
        if !listed.insert(entry.file.clone()) {
            notes.push(format!(
                "{}: listed twice in {MANIFEST_FILE}: read once",
                path.display()
            ));
            continue;
        }
        sources.push(ChunkSource {
            path,
            sha256: Some(entry.sha256.clone()),
        });
    }
    let entries = std::fs::read_dir(dir).map_err(|source| DataDirError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut strays: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == CHUNK_EXTENSION))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_none_or(|n| !listed.contains(n))
        })
        .collect();
    strays.sort();
    for stray in strays {
        notes.push(format!(
            "{}: not in {MANIFEST_FILE}: skipped (add it with `xq-runner datagen pack`, or remove it)",
            stray.display()
        ));
    }
    Ok((sources, notes))
}

/// The games of a chunk, its file's SHA-256 checked against the manifest's first.
///
/// # Errors
/// [`ChunkError`]: the file cannot be read, its hash is not the manifest's, or
/// anything [`read_chunk`] finds.
pub fn read_source(source: &ChunkSource) -> Result<(ChunkHeader, Vec<SelfPlayGame>), ChunkError> {
    let bytes = std::fs::read(&source.path)?;
    if let Some(listed) = &source.sha256 {
        let found = sha256_hex(&bytes);
        if &found != listed {
            // A cut file says so rather than "damaged" when its header can tell.
            if let Err(e @ (ChunkError::Truncated { .. } | ChunkError::NotChunk)) =
                read_chunk(&bytes)
            {
                return Err(e);
            }
            return Err(ChunkError::Damaged(format!(
                "its SHA-256 is {found}, {MANIFEST_FILE} lists {listed}"
            )));
        }
    }
    read_chunk(&bytes)
}
