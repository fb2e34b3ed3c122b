//! A workload's output folder, for every workload that writes one (a run, a shard, a
//! merge, a tune, the report of a stored run or tune): checked before anything starts
//! (cheap checks that write nothing, so a refused workload has started no engine and
//! changed no file), then created or reopened under its lock, with its record
//! (`run.json` or `tune-run.json`) written whole beside its journal.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::folder_lock::{FolderLock, LOCK_FILE};
use super::journal::JOURNAL_FILE;
use super::meta::{MetaError, RunMeta, Shard, RUN_FILE};
use crate::config::{differences, Loaded};

/// A tune's record: the config it plays (`tune::folder::TuneMeta`).
pub(crate) const TUNE_RUN: &str = "tune-run.json";

/// A tune's journal: one line per iteration.
pub(crate) const TUNE_JOURNAL: &str = "tune.jsonl";

/// A datagen's record: the config it plays (`datagen::folder::DatagenMeta`).
pub(crate) const DATAGEN_RUN: &str = "datagen-run.json";

/// A datagen's ledger: one line per finished game, its record.
pub(crate) const DATAGEN_LEDGER: &str = "datagen.jsonl";

/// How a workload uses its folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FolderUse {
    /// A new workload: the folder must be free.
    New,
    /// Continue (or extend) the workload in the folder.
    Resume,
}

/// What a folder holds the output of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Workload {
    /// A run (or a shard, a merge, a stored run's report): `run.json` and `games.jsonl`.
    Run,
    /// A tune (or a stored tune's report): `tune-run.json` and `tune.jsonl`.
    Tune,
    /// A datagen: `datagen-run.json` and `datagen.jsonl`.
    Datagen,
}

impl Workload {
    /// Its record file, and what it is called.
    fn record(self) -> (&'static str, &'static str) {
        match self {
            Workload::Run => (RUN_FILE, "run"),
            Workload::Tune => (TUNE_RUN, "tune"),
            Workload::Datagen => (DATAGEN_RUN, "datagen"),
        }
    }
}

/// Why a workload's output folder cannot be used.
#[derive(Debug, Error)]
pub enum FolderError {
    /// The folder is refused: taken, not empty, not writable, another workload's.
    #[error("{}: {why}", .dir.display())]
    Refused { dir: PathBuf, why: String },
    /// The folder cannot be created.
    #[error("{}: cannot create: {source}", .dir.display())]
    Create {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `run.json` cannot be read or written.
    #[error(transparent)]
    Meta(#[from] MetaError),
    /// `output.pgnout` names a file the run owns (`what` says which).
    #[error("output.pgnout: `{}` is {what}: name another file", .path.display())]
    PgnOut { path: PathBuf, what: String },
}

fn refuse(dir: &Path, why: impl std::fmt::Display) -> FolderError {
    FolderError::Refused {
        dir: dir.to_path_buf(),
        why: why.to_string(),
    }
}

/// A workload's folder, held (locked) while the workload writes in it: no other runner
/// reads or writes its journal meanwhile. Dropping it lets the next runner in.
#[derive(Debug)]
pub(crate) struct RunFolder {
    dir: PathBuf,
    _lock: FolderLock,
}

impl RunFolder {
    /// Checks that a new `workload` may use `dir`. A run's folder does not exist yet (and
    /// can be created), or is an empty, writable folder; a tune's holds no tune or run
    /// (a stored tune's report is written over its earlier one).
    ///
    /// # Errors
    /// [`FolderError::Refused`] naming the folder and what to do.
    pub fn check_new(dir: &Path, workload: Workload) -> Result<(), FolderError> {
        match workload {
            Workload::Run => check_new_run(dir),
            Workload::Tune => {
                for held in [TUNE_RUN, TUNE_JOURNAL, JOURNAL_FILE] {
                    if dir.join(held).exists() {
                        return Err(refuse(dir, format!("holds {held} already: continue that tune with --resume, or choose another output.dir")));
                    }
                }
                Ok(())
            }
            Workload::Datagen => {
                if dir.join(DATAGEN_RUN).exists() {
                    return Err(refuse(
                        dir,
                        format!(
                            "already holds a datagen: continue it with `xq-runner resume {}`, or give another output.dir",
                            dir.display()
                        ),
                    ));
                }
                check_new_run(dir)
            }
        }
    }

    /// Creates the folder of a new `workload`, takes its lock and writes its record with
    /// `write_record` (whole or not at all).
    ///
    /// # Errors
    /// [`FolderError`] when the folder or the record cannot be written, or another
    /// runner has taken the folder since [`RunFolder::check_new`].
    pub fn create(
        dir: &Path,
        workload: Workload,
        write_record: impl FnOnce(&Path) -> Result<(), FolderError>,
    ) -> Result<RunFolder, FolderError> {
        std::fs::create_dir_all(dir).map_err(|source| FolderError::Create {
            dir: dir.to_path_buf(),
            source,
        })?;
        let folder = RunFolder::open(dir)?;
        let (record, name) = workload.record();
        if dir.join(record).exists() {
            return Err(refuse(
                dir,
                format!("another runner started a {name} here meanwhile: give another --out"),
            ));
        }
        if let Err(e) = write_record(dir) {
            // The folder is left as it was found, so that the next workload may use it.
            drop(folder);
            let _ = std::fs::remove_file(dir.join(LOCK_FILE));
            return Err(e);
        }
        Ok(folder)
    }

    /// Takes the lock of the existing folder `dir` (a resume, a report written over).
    ///
    /// # Errors
    /// [`FolderError::Refused`] naming the runner that has the folder.
    pub fn open(dir: &Path) -> Result<RunFolder, FolderError> {
        Ok(RunFolder {
            dir: dir.to_path_buf(),
            _lock: FolderLock::take(dir)?,
        })
    }

    /// Checks that the run in `dir` is the run `loaded` describes, playing `shard`, and
    /// returns its `run.json` (the caller compares the opening file).
    ///
    /// # Errors
    /// [`FolderError`] when there is no run, or the config (naming the keys that
    /// differ) or the shard changed.
    pub fn check_resume(
        dir: &Path,
        loaded: &Loaded,
        shard: Option<Shard>,
    ) -> Result<RunMeta, FolderError> {
        let meta = RunMeta::read(dir)?;
        if meta.config_hash != loaded.hash {
            let keys = differences(&meta.config, &loaded.text);
            return Err(refuse(
                dir,
                format!(
                    "the config differs from the one the run started with in {}: resume with the run's own config (`xq-runner resume {}`)",
                    if keys.is_empty() { "its text".to_owned() } else { keys.join(", ") },
                    dir.display()
                ),
            ));
        }
        if meta.shard != shard {
            let name = |s: Option<Shard>| {
                s.map_or_else(|| "the whole run".to_owned(), |s| format!("shard {s}"))
            };
            return Err(refuse(
                dir,
                format!("holds {}, not {}", name(meta.shard), name(shard)),
            ));
        }
        Ok(meta)
    }

    /// The run's journal, `games.jsonl`.
    pub fn journal(&self) -> PathBuf {
        self.dir.join(JOURNAL_FILE)
    }
}

fn check_new_run(dir: &Path) -> Result<(), FolderError> {
    if dir.join(JOURNAL_FILE).exists() || dir.join(RUN_FILE).exists() {
        return Err(refuse(
            dir,
            format!(
                "already holds a run: continue it with `xq-runner resume {}`, or give another --out",
                dir.display()
            ),
        ));
    }
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(refuse(
                    dir,
                    "is not empty and holds no run: give another --out (nothing is written into a folder that is not a run)",
                ));
            }
            writable(dir)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // The nearest folder that exists must take the new ones.
            let parent = nearest_existing(dir);
            if !parent.is_dir() {
                return Err(refuse(
                    dir,
                    format!("cannot be created: {} is not a folder", parent.display()),
                ));
            }
            writable(&parent).map_err(|_| {
                refuse(
                    dir,
                    format!("cannot be created: {} is not writable", parent.display()),
                )
            })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
            let file = nearest_existing(dir);
            Err(refuse(
                dir,
                if file == dir {
                    "is a file, not a folder: give another --out".to_owned()
                } else {
                    format!("cannot be created: {} is a file", file.display())
                },
            ))
        }
        Err(e) => Err(refuse(dir, format!("cannot be used: {e}"))),
    }
}

fn nearest_existing(dir: &Path) -> PathBuf {
    let mut at = dir.to_path_buf();
    while !at.exists() {
        match at.parent() {
            Some(p) if !p.as_os_str().is_empty() => at = p.to_path_buf(),
            _ => return PathBuf::from("."),
        }
    }
    at
}

fn writable(dir: &Path) -> Result<(), FolderError> {
    use nix::unistd::{access, AccessFlags};
    access(dir, AccessFlags::W_OK | AccessFlags::X_OK)
        .map_err(|e| refuse(dir, format!("is not writable: {e}")))
}
