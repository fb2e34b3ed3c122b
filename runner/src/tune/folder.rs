//! The output folder of a tune: `tune-run.json` (the config it plays) next to the
//! journal; a new tune refuses a folder that holds one, a resume refuses a config that
//! differs from it in anything that decides the games or the gains.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::journal::TUNE_JOURNAL;
use crate::schedule::folder_lock::FolderLock;

/// The name of the file.
pub const TUNE_RUN: &str = "tune-run.json";

/// What a tune folder records about its tune.
#[derive(Debug, Serialize, Deserialize)]
pub struct TuneMeta {
    pub version: String,
    /// The config as the tune read it (see `TunePlan::config`).
    pub config: String,
}

/// Checks that a folder holds no tune or run, for a new tune.
///
/// # Errors
/// One line naming what the folder holds.
pub fn check_new(dir: &Path) -> Result<(), String> {
    for held in [TUNE_RUN, TUNE_JOURNAL, "games.jsonl"] {
        if dir.join(held).exists() {
            return Err(format!(
                "{}: holds {held} already: continue that tune with --resume, or choose another output.dir",
                dir.display()
            ));
        }
    }
    Ok(())
}

/// Creates the folder of a new tune with its `tune-run.json`.
///
/// # Errors
/// One line: the folder holds a tune or a run already, or cannot be written.
pub fn create(dir: &Path, config: &str) -> Result<FolderLock, String> {
    check_new(dir)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let lock = FolderLock::take(dir).map_err(|e| e.to_string())?;
    // Checked again under the lock: another tune may have started here meanwhile.
    check_new(dir)?;
    let meta = TuneMeta {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        config: config.to_owned(),
    };
    let json = serde_json::to_string_pretty(&meta).unwrap_or_default();
    crate::atomic_file::write(&dir.join(TUNE_RUN), (json + "\n").as_bytes())
        .map_err(|e| format!("{}: cannot write: {e}", dir.join(TUNE_RUN).display()))?;
    Ok(lock)
}

/// Checks that the folder holds this tune, for a resume.
///
/// # Errors
/// One line: no tune there, or one with another config (the differing keys named).
pub fn check_resume(dir: &Path, config: &str) -> Result<(), String> {
    let path = dir.join(TUNE_RUN);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: no tune to resume ({e})", path.display()))?;
    let meta: TuneMeta =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let differences = crate::config::differences(&meta.config, config);
    if differences.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: the tune there has another config (differs in {}): resume it with the same config",
            dir.display(),
            differences.join(", ")
        ))
    }
}
