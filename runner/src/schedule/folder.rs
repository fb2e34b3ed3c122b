//! The output folder of a local run, checked before anything starts: a new run gets a
//! free, writable folder; a resume gets the folder of the same run, with the same
//! inputs. Every check here is cheap and writes nothing, so that a refused run has
//! started no engine and changed no file (exit 2); [`create`] writes `run.json` once
//! the engines have passed their preflight.

use std::path::{Path, PathBuf};

use super::errors::{OpeningsError, OutputDirError};
use super::folder_lock::{FolderLock, LOCK_FILE};
use super::tournament::RunError;
use crate::config::{differences, Loaded};
use crate::store::journal::JOURNAL_FILE;
use crate::store::meta::{InputFile, RunMeta, Shard, RUN_FILE};

/// How a run uses its folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// A new run: the folder must be free.
    New,
    /// Continue (or extend) the run in the folder.
    Resume,
}

fn refuse(dir: &Path, why: impl std::fmt::Display) -> RunError {
    RunError::OutputDir(OutputDirError::Refused {
        dir: dir.to_path_buf(),
        why: why.to_string(),
    })
}

/// Checks that a new run may use `dir`: it does not exist yet (and can be created), or
/// it is an empty, writable folder.
///
/// # Errors
/// [`RunError::OutputDir`] naming the folder and what to do.
pub fn check_new(dir: &Path) -> Result<(), RunError> {
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

fn writable(dir: &Path) -> Result<(), RunError> {
    use nix::unistd::{access, AccessFlags};
    access(dir, AccessFlags::W_OK | AccessFlags::X_OK)
        .map_err(|e| refuse(dir, format!("is not writable: {e}")))
}

/// The fingerprint of the run's opening file, if it has one.
///
/// # Errors
/// [`RunError::Openings`] when the file cannot be read.
pub fn openings_input(loaded: &Loaded) -> Result<Option<InputFile>, RunError> {
    let Some(openings) = &loaded.plan.openings else {
        return Ok(None);
    };
    InputFile::of(&openings.path).map(Some).map_err(|source| {
        RunError::Openings(OpeningsError::Fingerprint {
            path: openings.path.clone(),
            source,
        })
    })
}

/// Checks that the run in `dir` is the run `loaded` describes, with the same inputs,
/// and returns its `run.json`.
///
/// # Errors
/// [`RunError::OutputDir`] when there is no run, or the config (naming the keys that
/// differ), the shard or the opening file (naming it) changed.
pub fn check_resume(
    dir: &Path,
    loaded: &Loaded,
    shard: Option<Shard>,
    openings: Option<&InputFile>,
) -> Result<RunMeta, RunError> {
    let meta = RunMeta::read(dir).map_err(OutputDirError::from)?;
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
    if let (Some(was), Some(now)) = (&meta.openings, openings) {
        if was.fingerprint != now.fingerprint {
            return Err(RunError::Openings(OpeningsError::Changed {
                path: now.path.clone(),
                was: was.fingerprint.clone(),
                now: now.fingerprint.clone(),
            }));
        }
    }
    Ok(meta)
}

/// Creates the folder of a new run, takes its lock and writes its `run.json`.
///
/// # Errors
/// [`RunError::OutputDir`] when the folder or the file cannot be written, or another
/// runner has taken the folder since [`check_new`] (it holds the lock, or has written
/// its run).
pub fn create(dir: &Path, meta: &RunMeta) -> Result<FolderLock, RunError> {
    std::fs::create_dir_all(dir).map_err(|source| OutputDirError::Create {
        dir: dir.to_path_buf(),
        source,
    })?;
    let lock = FolderLock::take(dir)?;
    if dir.join(RUN_FILE).exists() {
        return Err(refuse(
            dir,
            "another runner started a run here meanwhile: give another --out",
        ));
    }
    if let Err(e) = meta.write(dir) {
        // The folder is left as it was found, so that the next run may use it.
        drop(lock);
        let _ = std::fs::remove_file(dir.join(LOCK_FILE));
        return Err(OutputDirError::from(e).into());
    }
    Ok(lock)
}
