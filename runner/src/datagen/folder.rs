//! The record of a datagen's folder: `datagen-run.json` (the config file's text, the
//! identity of what it generates, and the folder's own id) beside the ledger. A new
//! datagen refuses a folder that holds one; `xq-runner resume DIR` reads the config
//! back from it, and `datagen pack` names the folder's games by its id.

use std::path::Path;

use serde::{Deserialize, Serialize};
use xq_core::training::manifest::field;

use super::config::DatagenPlan;
use crate::game::TimeControl;
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
    /// This folder's id (16 hex digits, drawn when it is created): a data folder's
    /// manifest names the ledger lines of each chunk by it, so that no game is packed
    /// twice. Empty in folders of runners before it.
    #[serde(default)]
    pub source: String,
    /// What the manifest says of its games besides their build, taken from the plan when
    /// the folder is made: `pack` needs no config that parses where it runs (the
    /// engine's program and the opening file are checked relative to the folder one
    /// started in).
    #[serde(default)]
    pub settings: RecordedSettings,
}

/// A datagen's settings as a data folder's manifest lists them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedSettings {
    /// `nodes=N` or `depth=D`.
    pub limit: String,
    /// The engine's `evallevel` and `evalfile` options, `-` when the config sets none.
    pub level: String,
    pub net: String,
    pub random_plies: u32,
    pub seed: u64,
}

impl RecordedSettings {
    /// The settings of a datagen's plan.
    #[must_use]
    pub fn of(dg: &DatagenPlan) -> RecordedSettings {
        let engine = &dg.plan.engines[0];
        // Compared without case: UCI says `EvalLevel` where UCCI says `evallevel`.
        let option = |name: &str| {
            engine
                .spec
                .options
                .iter()
                .find(|(key, _)| key.eq_ignore_ascii_case(name))
                .map_or_else(|| "-".to_owned(), |(_, value)| field(value))
        };
        RecordedSettings {
            limit: match engine.time_control {
                TimeControl::Nodes(n) => format!("nodes={n}"),
                TimeControl::Depth(d) => format!("depth={d}"),
                // A datagen's config refuses clocks.
                ref other => field(&other.to_string()),
            },
            level: option("evallevel"),
            net: option("evalfile"),
            random_plies: dg.settings.random_plies,
            seed: dg.settings.seed,
        }
    }
}

/// A new folder id: 16 hex digits from the clock and the process id, mixed.
#[must_use]
pub fn new_source() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let seed = nanos ^ u64::from(std::process::id()).rotate_left(32);
    format!("{:016x}", xq_core::rng::SplitMix64::new(seed).next_u64())
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
