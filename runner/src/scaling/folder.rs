//! The scaling folder: `scaling-plan.json` (every point's config, written before any
//! point plays: `resume` needs nothing else), a run folder per point, and the point
//! folders' progress read from their journals.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::config::{Kind, Point, ScalingPlan};
use crate::config::{ConfigError, Override};
use crate::local_run::tournament::RunError;
use crate::store::folder::{RunFolder, Workload};
use crate::store::folder_lock::LOCK_FILE;
use crate::store::journal::{Journal, JournalError, JOURNAL_FILE};
use crate::store::meta::RUN_FILE;

/// The file that makes a folder a scaling run's.
pub const PLAN_FILE: &str = "scaling-plan.json";

/// Why a scaling run cannot start or continue.
#[derive(Debug, Error)]
pub enum ScalingError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error("{}: {why}", .dir.display())]
    Folder { dir: PathBuf, why: String },
    #[error("{}: damaged: {why}", .path.display())]
    Damaged { path: PathBuf, why: String },
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
}

impl ScalingError {
    /// The exit code: 4 when a point played and its outputs could not be written, else 2.
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        match self {
            ScalingError::Run(e) => e.exit_code(),
            ScalingError::Runtime(_) => crate::exit::ABORTED,
            _ => crate::exit::USAGE,
        }
    }
}

fn folder(dir: &Path, why: impl std::fmt::Display) -> ScalingError {
    ScalingError::Folder {
        dir: dir.to_path_buf(),
        why: why.to_string(),
    }
}

/// `scaling-plan.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredPlan {
    pub version: String,
    pub kind: Kind,
    pub interleave: bool,
    pub points: Vec<StoredPoint>,
}

/// One point of `scaling-plan.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredPoint {
    pub label: String,
    pub setting: String,
    pub dir: String,
    pub x: f64,
    pub config_hash: String,
    /// The point's config as played (overrides and setting applied), as TOML.
    pub config: String,
}

impl StoredPlan {
    /// The stored form of a plan.
    #[must_use]
    pub fn of(plan: &ScalingPlan) -> StoredPlan {
        StoredPlan {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            kind: plan.kind,
            interleave: plan.interleave,
            points: plan
                .points
                .iter()
                .map(|p| StoredPoint {
                    label: p.label.clone(),
                    setting: p.setting.clone(),
                    dir: p.dir.clone(),
                    x: p.x,
                    config_hash: p.loaded.hash.clone(),
                    config: p.loaded.text.clone(),
                })
                .collect(),
        }
    }

    /// Whether `root` holds a scaling run.
    #[must_use]
    pub fn is_in(root: &Path) -> bool {
        root.join(PLAN_FILE).is_file()
    }

    /// Reads the plan of the scaling run in `root`.
    ///
    /// # Errors
    /// [`ScalingError::Damaged`] or [`ScalingError::Folder`].
    pub fn read(root: &Path) -> Result<StoredPlan, ScalingError> {
        let path = root.join(PLAN_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            folder(
                root,
                format!("holds no scaling run to resume ({PLAN_FILE}: {e})"),
            )
        })?;
        serde_json::from_str(&text).map_err(|e| ScalingError::Damaged {
            path,
            why: e.to_string(),
        })
    }

    /// Writes the plan into `root` (whole or not at all).
    ///
    /// # Errors
    /// [`ScalingError::Folder`] when it cannot be written.
    pub fn write(&self, root: &Path) -> Result<(), ScalingError> {
        let text = serde_json::to_string_pretty(self).map_err(|e| folder(root, e))?;
        crate::atomic_file::write(&root.join(PLAN_FILE), text.as_bytes())
            .map_err(|e| folder(root, format!("cannot write {PLAN_FILE}: {e}")))
    }

    /// The plan again, each point read back through the run's config code with
    /// `overrides` (`--concurrency`, `--pairs`), its folder inside `root`.
    ///
    /// # Errors
    /// [`ScalingError::Config`] for a point that no longer reads (a hand edit).
    pub fn restore(
        &self,
        root: &Path,
        overrides: &[Override],
    ) -> Result<ScalingPlan, ScalingError> {
        let mut points = Vec::with_capacity(self.points.len());
        for p in &self.points {
            let name = format!("{} ({})", root.join(PLAN_FILE).display(), p.label);
            let mut loaded = crate::config::parse(&name, &p.config, overrides)?;
            if loaded.hash != p.config_hash {
                return Err(ScalingError::Damaged {
                    path: root.join(PLAN_FILE),
                    why: format!("the config of {} does not match its hash", p.label),
                });
            }
            loaded.plan.output.dir = root.join(&p.dir);
            points.push(Point {
                label: p.label.clone(),
                setting: p.setting.clone(),
                dir: p.dir.clone(),
                x: p.x,
                loaded,
            });
        }
        Ok(ScalingPlan {
            kind: self.kind,
            interleave: self.interleave,
            root: root.to_path_buf(),
            points,
        })
    }

    /// The points whose folder or config differ from `other`'s (a `run --resume` with
    /// another config).
    #[must_use]
    pub fn differences(&self, other: &StoredPlan) -> Vec<String> {
        let mut out = Vec::new();
        if self.interleave != other.interleave {
            out.push("scaling.interleave".to_owned());
        }
        let was: BTreeMap<&str, &str> = self
            .points
            .iter()
            .map(|p| (p.dir.as_str(), p.config_hash.as_str()))
            .collect();
        let now: BTreeMap<&str, &str> = other
            .points
            .iter()
            .map(|p| (p.dir.as_str(), p.config_hash.as_str()))
            .collect();
        if was.keys().ne(now.keys()) {
            out.push("the list of settings".to_owned());
        } else if let Some((dir, _)) = was.iter().find(|(d, h)| now.get(*d) != Some(h)) {
            out.push(format!("the config of {dir}"));
        }
        out
    }
}

/// Checks that a new scaling run may use `root` (a free or empty folder, as a run's).
///
/// # Errors
/// [`ScalingError`] naming the folder and what to do.
pub fn check_new(root: &Path) -> Result<(), ScalingError> {
    if StoredPlan::is_in(root) {
        return Err(folder(
            root,
            format!(
                "already holds a scaling run: continue it with `xq-runner resume {}`, or give another --out",
                root.display()
            ),
        ));
    }
    RunFolder::check_new(root, Workload::Run).map_err(RunError::OutputDir)?;
    Ok(())
}

/// Creates the scaling folder and takes its lock (one runner at a time plays in it).
///
/// # Errors
/// [`ScalingError`] when it cannot be created or another runner holds it.
pub(crate) fn lock(root: &Path) -> Result<RunFolder, ScalingError> {
    std::fs::create_dir_all(root).map_err(|e| folder(root, format!("cannot be created: {e}")))?;
    RunFolder::open(root).map_err(|e| RunError::OutputDir(e).into())
}

/// Whether a point has started: its folder holds a run.
#[must_use]
pub fn started(dir: &Path) -> bool {
    dir.join(RUN_FILE).is_file()
}

/// Makes the folder of a point that never wrote its `run.json` usable by a new run: a
/// runner killed while creating it left at most its lock file (no other runner holds
/// it: taking it first checks).
///
/// # Errors
/// [`ScalingError`] when another runner holds the folder or the file cannot go.
pub fn clear_unstarted(dir: &Path) -> Result<(), ScalingError> {
    if started(dir) || !dir.join(LOCK_FILE).is_file() {
        return Ok(());
    }
    let only_lock = std::fs::read_dir(dir)
        .map_err(|e| folder(dir, e))?
        .filter_map(Result::ok)
        .all(|e| e.file_name() == LOCK_FILE);
    if only_lock {
        let held = RunFolder::open(dir).map_err(RunError::OutputDir)?;
        drop(held);
        std::fs::remove_file(dir.join(LOCK_FILE)).map_err(|e| folder(dir, e))?;
    }
    Ok(())
}

/// A point's progress from its journal: its complete pairs, and one past the highest
/// pair number it holds (a session must allow at least that many pairs).
///
/// # Errors
/// [`ScalingError::Journal`] when the journal cannot be read.
pub fn progress(dir: &Path) -> Result<(u64, u64), ScalingError> {
    let path = dir.join(JOURNAL_FILE);
    if !path.is_file() {
        return Ok((0, 0));
    }
    let mut games: BTreeMap<u64, u8> = BTreeMap::new();
    Journal::scan(&path, |_, entry| {
        *games.entry(entry.pair).or_default() |= 1 << entry.game.min(1);
    })?;
    let complete = games.values().filter(|&&g| g == 3).count() as u64;
    let bound = games.keys().next_back().map_or(0, |p| p + 1);
    Ok((complete, bound))
}
