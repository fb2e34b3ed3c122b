//! The record of a tune's folder (a `store::folder::RunFolder`): `tune-run.json` (the
//! config it plays) next to the journal; a new tune refuses a folder that holds one, a resume refuses a config that
//! differs from it in anything that decides the games or the gains.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::store::folder::{FolderError, RunFolder, Workload, TUNE_RUN};
use crate::store::meta::write_json;

/// What a tune folder records about its tune.
#[derive(Debug, Serialize, Deserialize)]
pub struct TuneMeta {
    pub version: String,
    /// The config as the tune read it (see `TunePlan::config`).
    pub config: String,
    /// The id of the stored tune the folder is a report of (`report --db`); none for a
    /// local tune.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db_run: Option<i64>,
}

/// Writes `tune-run.json` into `dir`, whole or not at all.
fn write_meta(dir: &Path, config: &str, db_run: Option<i64>) -> Result<(), FolderError> {
    let meta = TuneMeta {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        config: config.to_owned(),
        db_run,
    };
    Ok(write_json(&dir.join(TUNE_RUN), &meta)?)
}

/// Takes the folder of a tune with its `tune-run.json`: a new one (checked free, then
/// created), or one holding an `earlier` report of the same tune (written over);
/// `db_run` is the stored tune the folder reports, if it does.
///
/// # Errors
/// One line: the folder holds a tune or a run already, or cannot be written.
pub fn create(
    dir: &Path,
    config: &str,
    earlier: bool,
    db_run: Option<i64>,
) -> Result<RunFolder, String> {
    let folder = if earlier {
        RunFolder::open(dir).and_then(|f| write_meta(dir, config, db_run).map(|()| f))
    } else {
        RunFolder::check_new(dir, Workload::Tune).and_then(|()| {
            RunFolder::create(dir, Workload::Tune, |dir| write_meta(dir, config, db_run))
        })
    };
    folder.map_err(|e| e.to_string())
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
