//! The data folder `pack` adds to (`engine/data/selfplay/` in the repository): held by
//! one pack at a time, its size bounded, and changed in an order that a kill cannot
//! turn into a manifest naming a chunk that is not there: the chunks are written whole
//! first, then the manifest.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

use xq_core::training::{read_manifest, Manifest, MANIFEST_FILE};

use super::pack::PackError;

/// The bound on a data folder's size by default: a repository stays cheap to clone.
pub const DEFAULT_MAX_BYTES: u64 = 64_000_000;

/// A data folder held by this pack: another pack into it is refused meanwhile. The lock
/// is the operating system's on the folder itself, so no lock file lands in it.
#[derive(Debug)]
pub struct DataFolder {
    dir: PathBuf,
    _lock: File,
}

impl DataFolder {
    /// Creates `dir` if needed and takes its lock.
    ///
    /// # Errors
    /// [`PackError::Io`] when it cannot be created or opened, [`PackError::Busy`] when
    /// another pack holds it.
    pub fn take(dir: &Path) -> Result<DataFolder, PackError> {
        let io = |source| PackError::Io {
            path: dir.to_path_buf(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let lock = File::open(dir).map_err(io)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(PackError::Busy {
                    dir: dir.to_path_buf(),
                })
            }
            Err(TryLockError::Error(source)) => return Err(io(source)),
        }
        Ok(DataFolder {
            dir: dir.to_path_buf(),
            _lock: lock,
        })
    }

    /// The folder's manifest; an empty one when it has none yet.
    ///
    /// # Errors
    /// [`PackError::DataDir`] when it has one that cannot be read.
    pub fn manifest(&self) -> Result<Manifest, PackError> {
        if !self.dir.join(MANIFEST_FILE).exists() {
            return Ok(Manifest::default());
        }
        read_manifest(&self.dir).map_err(PackError::DataDir)
    }

    /// The bytes of every file in the folder (and below it).
    ///
    /// # Errors
    /// [`PackError::Io`] when it cannot be listed.
    pub fn bytes(&self) -> Result<u64, PackError> {
        tree_bytes(&self.dir)
    }

    /// Writes the chunks (name and bytes), then the manifest that lists them.
    ///
    /// # Errors
    /// [`PackError::Io`]: a chunk written before the failure stays, listed nowhere (the
    /// trainer says so and skips it).
    pub fn add(&self, chunks: &[(String, Vec<u8>)], manifest: &Manifest) -> Result<(), PackError> {
        for (name, bytes) in chunks {
            let path = self.dir.join(name);
            crate::atomic_file::write(&path, bytes)
                .map_err(|source| PackError::Io { path, source })?;
        }
        let path = self.dir.join(MANIFEST_FILE);
        crate::atomic_file::write(&path, manifest.to_text().as_bytes())
            .map_err(|source| PackError::Io { path, source })
    }
}

fn tree_bytes(dir: &Path) -> Result<u64, PackError> {
    let io = |source| PackError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut total = 0;
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let kind = entry.file_type().map_err(io)?;
        if kind.is_dir() {
            total += tree_bytes(&entry.path())?;
        } else {
            total += entry.metadata().map_err(io)?.len();
        }
    }
    Ok(total)
}
