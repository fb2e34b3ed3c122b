//! Files written whole or not at all: the text goes into a temporary file in the same
//! folder, which is synced and then renamed over the file. A full disk, a file size
//! limit or a kill in the middle leaves the file as it was (the previous run's
//! `summary.json`, not 0 bytes; the previous `games.pgn`, not half a game), and a
//! reader never sees half a file. Every output of a run is written through here.
//!
//! Below every layer (like `exit.rs`): the store, the outputs, the tuner and the
//! command line all write through it.
//!
//! ```text
//! use std::io::Write as _;
//! use crate::atomic_file::AtomicFile;
//!
//! let mut file = AtomicFile::create("out/run/games.pgn".as_ref())?;
//! writeln!(file, "[Event \"x\"]")?;
//! file.finish()?.commit()?; // the old games.pgn stays until this line
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written: the text goes to a temporary file beside `path`, which is
/// removed if the value is dropped before [`AtomicFile::finish`] and
/// [`Staged::commit`].
#[derive(Debug)]
pub struct AtomicFile {
    staged: Staged,
    out: BufWriter<File>,
}

/// A file written and synced under its temporary name, ready to replace `path`.
/// Several files staged first and committed together change together, but for a
/// failure between their renames (a rename needs no space).
#[derive(Debug)]
pub struct Staged {
    path: PathBuf,
    temporary: PathBuf,
    committed: bool,
}

/// The temporary name of `path`: hidden, in the same folder (a rename across file
/// systems would copy), and with the process id, so that two processes writing the
/// same file (a `report` while the run ends) never write into one temporary file.
fn temporary_of(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

impl AtomicFile {
    /// Starts writing `path` (its folder must exist).
    ///
    /// # Errors
    /// The temporary file cannot be created.
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let temporary = temporary_of(path);
        // Created new, never opened through what is at its name: a link planted there
        // (the name is easy to guess) would have the text written over what it names.
        // A file left there by a killed process of the same pid is ours to replace.
        match std::fs::remove_file(&temporary) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let file = crate::plain_file::open(
            std::fs::OpenOptions::new().write(true).create_new(true),
            &temporary,
        )?;
        Ok(AtomicFile {
            staged: Staged {
                path: path.to_owned(),
                temporary,
                committed: false,
            },
            out: BufWriter::with_capacity(1 << 16, file),
        })
    }

    /// Writes out and syncs the text, ready for [`Staged::commit`]; `path` is
    /// unchanged yet.
    ///
    /// # Errors
    /// The text cannot be written or synced (a full disk shows here at the latest).
    pub fn finish(self) -> std::io::Result<Staged> {
        let AtomicFile { staged, out } = self;
        // On an error `staged` is dropped with the temporary file.
        let file = out
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.sync_all()?;
        Ok(staged)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl Staged {
    /// The file this replaces.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Renames the temporary file over `path` and syncs the folder, so that the new
    /// name survives a power cut too.
    ///
    /// # Errors
    /// The rename fails (the old file stays).
    pub fn commit(mut self) -> std::io::Result<()> {
        std::fs::rename(&self.temporary, &self.path)?;
        self.committed = true;
        let folder = match self.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        // The file is in place whatever this says; a folder that cannot be opened
        // for a sync (some file systems) costs only the durability of the name.
        if let Ok(dir) = File::open(folder) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            // Nothing to do if it is gone already; it is ours, named by our pid.
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

/// Writes `bytes` to `path` whole or not at all.
///
/// # Errors
/// The file cannot be written, synced or renamed; `path` is then unchanged.
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.finish()?.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("read dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_is_replaced_only_at_the_commit() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("summary.json");
        std::fs::write(&path, "old").expect("old");
        let mut file = AtomicFile::create(&path).expect("create");
        file.write_all(b"new").expect("write");
        let staged = file.finish().expect("finish");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "old");
        staged.commit().expect("commit");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new");
        assert_eq!(names_in(dir.path()), ["summary.json"], "no temporary left");
    }

    #[test]
    fn a_file_given_up_leaves_the_old_one_and_no_temporary() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("games.pgn");
        std::fs::write(&path, "old").expect("old");
        let mut file = AtomicFile::create(&path).expect("create");
        file.write_all(b"half a ga").expect("write");
        drop(file);
        let staged = {
            let mut file = AtomicFile::create(&path).expect("create");
            file.write_all(b"new").expect("write");
            file.finish().expect("finish")
        };
        drop(staged);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "old");
        assert_eq!(names_in(dir.path()), ["games.pgn"]);
    }

    #[test]
    fn a_link_planted_at_the_temporary_name_is_not_written_through() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("summary.json");
        let precious = dir.path().join("precious");
        std::fs::write(&precious, "keep me").expect("write");
        std::os::unix::fs::symlink(&precious, temporary_of(&path)).expect("symlink");
        write(&path, b"new").expect("written");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new");
        assert_eq!(std::fs::read_to_string(&precious).expect("read"), "keep me");
    }

    #[test]
    fn a_write_that_fails_leaves_the_old_file() {
        let dir = tempfile::tempdir().expect("dir");
        // A folder where the file should be: the rename fails, nothing is lost.
        let path = dir.path().join("report.html");
        std::fs::create_dir(&path).expect("a folder in the way");
        std::fs::write(path.join("inside"), "kept").expect("inside");
        assert!(write(&path, b"new").is_err());
        assert_eq!(
            std::fs::read_to_string(path.join("inside")).expect("read"),
            "kept"
        );
        assert_eq!(names_in(dir.path()), ["report.html"]);
    }
}
