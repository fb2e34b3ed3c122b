//! The record of a datagen's folder: `datagen-run.json` (the config file's text and
//! the identity of what it generates) beside the ledger and `positions.bin`. A new
//! datagen refuses a folder that holds one; `xq-runner resume DIR` reads the config
//! back from it.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::store::folder::{RunFolder, Workload, DATAGEN_RUN};
use crate::store::meta::write_json;

/// What a datagen folder records about its datagen.
#[derive(Debug, Serialize, Deserialize)]
pub struct DatagenMeta {
    pub version: String,
    /// The config file as written (with `[datagen]`): a resume parses it again.
    pub config: String,
    /// `DatagenPlan::identity`: a resume with another is refused.
    pub identity: String,
    /// The positions to write (the config's, or `--positions`).
    pub positions: u64,
}

/// Creates the folder of a new datagen with its record.
///
/// # Errors
/// One line: the folder is taken or cannot be written.
pub fn create(dir: &Path, meta: &DatagenMeta) -> Result<RunFolder, String> {
    RunFolder::check_new(dir, Workload::Datagen)
        .and_then(|()| {
            RunFolder::create(dir, Workload::Datagen, |dir| {
                Ok(write_json(&dir.join(DATAGEN_RUN), meta)?)
            })
        })
        .map_err(|e| e.to_string())
}

/// The record of the datagen in `dir`.
///
/// # Errors
/// One line: no datagen there, or its record cannot be read.
pub fn read(dir: &Path) -> Result<DatagenMeta, String> {
    let path = dir.join(DATAGEN_RUN);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: no datagen to resume: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}
