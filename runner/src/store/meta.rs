//! `run.json`: what a run is, written when it starts and read back to resume it, report
//! on it or merge its shards. It holds the config as played (overrides applied), its
//! hash, a fingerprint of every file the schedule depends on (the opening file), the
//! shard the folder plays, the stored run it reports (if it does), and the time played
//! over all sessions.

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

impl Shard {
    /// Shard `index` of `count` (1-based): the one check of a shard, whether it comes
    /// from `--shard I/N` or from a `run.json` read back.
    #[must_use]
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }
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
    /// The id of the stored run the folder is a report of (`report --db`, `run --db`);
    /// none for a local run. `report --db` writes over its own folder only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db_run: Option<i64>,
    /// Wall time played over every session of the run so far, in seconds.
    #[serde(default)]
    pub played_s: f64,
}

/// The most time a run may have played, in seconds (about 31 years): a `run.json` that
/// says more was not written by a run.
pub const MAX_PLAYED_S: f64 = 1e9;

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
    /// A value a run never writes (a hand edit): refused as the command line would
    /// refuse it.
    #[error("{}: {key}: {why}", .path.display())]
    Invalid {
        path: PathBuf,
        key: &'static str,
        why: String,
    },
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
        let meta: RunMeta = serde_json::from_str(&text).map_err(|e| MetaError::Damaged {
            path: path.clone(),
            why: e.to_string(),
        })?;
        meta.check()
            .map_err(|(key, why)| MetaError::Invalid { path, key, why })?;
        Ok(meta)
    }

    /// The checks of the values the config does not cover (the config is validated
    /// when it is parsed, as any config): the shard as `--shard` takes it, and a time
    /// played that a run can have played.
    fn check(&self) -> Result<(), (&'static str, String)> {
        if let Some(s) = self.shard {
            if Shard::new(s.index, s.count).is_none() {
                return Err((
                    "shard",
                    format!(
                        "index {} of {}: expected I of N with 1 <= I <= N, as --shard I/N takes it",
                        s.index, s.count
                    ),
                ));
            }
        }
        let played = self.played_s;
        if !(0.0..=MAX_PLAYED_S).contains(&played) {
            return Err((
                "played_s",
                format!("{played:e}: expected the seconds played, from 0 to {MAX_PLAYED_S:e}"),
            ));
        }
        Ok(())
    }

    /// Writes `run.json` into `dir` whole or not at all (a temporary file renamed over
    /// it), so a kill never leaves half a file.
    ///
    /// # Errors
    /// [`MetaError::Write`].
    pub fn write(&self, dir: &Path) -> Result<(), MetaError> {
        write_json(&dir.join(RUN_FILE), self)
    }
}

/// Writes a folder's record (`run.json`, `tune-run.json`) whole or not at all.
///
/// # Errors
/// [`MetaError::Write`].
pub(crate) fn write_json(path: &Path, record: &impl Serialize) -> Result<(), MetaError> {
    let error = |source| MetaError::Write {
        path: path.to_owned(),
        source,
    };
    let text = serde_json::to_string_pretty(record).map_err(|e| error(std::io::Error::other(e)))?;
    crate::atomic_file::write(path, text.as_bytes()).map_err(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `run.json` of a run with this shard and time played, read back.
    fn read_with(shard: &str, played_s: &str) -> Result<RunMeta, String> {
        let dir = tempfile::tempdir().expect("temp dir");
        let text = format!(
            "{{\"version\": \"0\", \"config_hash\": \"h\", \"config\": \"\", \"shard\": {shard}, \"played_s\": {played_s}}}"
        );
        std::fs::write(dir.path().join(RUN_FILE), text).expect("write");
        RunMeta::read(dir.path()).map_err(|e| e.to_string())
    }

    #[test]
    fn a_hand_edited_shard_or_time_is_refused_naming_the_key() {
        assert!(read_with("[2, 3]", "12.5").is_ok());
        assert!(read_with("null", "0").is_ok());
        for (shard, played, key) in [
            ("[0, 0]", "1", "shard"),
            ("[4, 3]", "1", "shard"),
            ("{\"index\": 0, \"count\": 5}", "1", "shard"),
            ("null", "-1e308", "played_s"),
            ("null", "1e308", "played_s"),
            ("null", "-0.5", "played_s"),
        ] {
            let error = read_with(shard, played).expect_err("refused");
            assert!(
                error.contains(&format!("run.json: {key}: ")) && !error.contains('\n'),
                "{shard} {played}: {error}"
            );
        }
        let error = read_with("[4, 3]", "1").expect_err("refused");
        assert!(error.ends_with("run.json: shard: index 4 of 3: expected I of N with 1 <= I <= N, as --shard I/N takes it"), "{error}");
    }
}
