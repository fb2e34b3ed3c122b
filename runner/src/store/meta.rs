//! `run.json`: what a run is, written when it starts and read back to resume it, report
//! on it or merge its shards. It holds the config as played (overrides applied), its
//! hash, a fingerprint of every file the schedule depends on (the opening file), the
//! shard the folder plays, and the time played over all sessions.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The name of the file in a run's folder.
pub const RUN_FILE: &str = "run.json";

/// A file the schedule depends on, by content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputFile {
    pub path: String,
    /// FNV-1a of the file's bytes (hex).
    pub fingerprint: String,
}

impl InputFile {
    /// Fingerprints a file.
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn of(path: &Path) -> std::io::Result<InputFile> {
        Ok(InputFile {
            path: path.display().to_string(),
            fingerprint: crate::config::fingerprint_file(path)?,
        })
    }
}

/// Which part of a run a folder plays (`run --shard I/N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based.
    pub index: u64,
    pub count: u64,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The contents of `run.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    pub version: String,
    pub config_hash: String,
    /// The config as played, with overrides applied, as TOML.
    pub config: String,
    /// The opening file as it was when the run started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<InputFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Wall time played over every session of the run so far, in seconds.
    #[serde(default)]
    pub played_s: f64,
}

/// Why `run.json` cannot be used.
#[derive(Debug, Error)]
pub enum MetaError {
    #[error("{}: nothing to resume or report here (no run.json: {source})", .dir.display())]
    Missing {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: damaged: {why}", .path.display())]
    Damaged { path: PathBuf, why: String },
    #[error("{}: cannot write: {source}", .path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl RunMeta {
    /// Reads `run.json` of the run in `dir`.
    ///
    /// # Errors
    /// [`MetaError::Missing`] or [`MetaError::Damaged`].
    pub fn read(dir: &Path) -> Result<RunMeta, MetaError> {
        let path = dir.join(RUN_FILE);
        let text = std::fs::read_to_string(&path).map_err(|source| MetaError::Missing {
            dir: dir.to_owned(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|e| MetaError::Damaged {
            path,
            why: e.to_string(),
        })
    }

    /// Writes `run.json` into `dir` whole or not at all (a temporary file renamed over
    /// it), so a kill never leaves half a file.
    ///
    /// # Errors
    /// [`MetaError::Write`].
    pub fn write(&self, dir: &Path) -> Result<(), MetaError> {
        let path = dir.join(RUN_FILE);
        let error = |source| MetaError::Write {
            path: path.clone(),
            source,
        };
        let text =
            serde_json::to_string_pretty(self).map_err(|e| error(std::io::Error::other(e)))?;
        crate::atomic_file::write(&path, text.as_bytes()).map_err(error)
    }
}
