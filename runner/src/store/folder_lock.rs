//! One runner at a time in a run's folder. Two runners playing into one folder would
//! write one journal from two processes and number their games alike; the second one is
//! refused instead. The lock is the operating system's (`flock` on `run.lock`), so it
//! goes with the process however that ends, SIGKILL included: a stale lock cannot stop
//! a resume.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::Path;

use super::folder::FolderError;

/// The lock file's name inside a run's folder; it holds the pid of the runner that has it.
pub(crate) const LOCK_FILE: &str = "run.lock";

/// Held while a runner plays into a folder; dropping it lets the next runner in.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

impl FolderLock {
    /// Takes the lock of the existing folder `dir`, writing this process's pid into it.
    ///
    /// # Errors
    /// [`FolderError::Refused`] naming the runner that has the folder, or why the
    /// lock file cannot be used.
    pub fn take(dir: &Path) -> Result<FolderLock, FolderError> {
        let refuse = |why: String| FolderError::Refused {
            dir: dir.to_path_buf(),
            why,
        };
        let path = dir.join(LOCK_FILE);
        // A link planted as `run.lock` is refused, never followed: the pid below would
        // be written over whatever it names.
        let mut file = crate::plain_file::open(
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
            &path,
        )
        .map_err(|e| refuse(format!("cannot open {LOCK_FILE}: {e}")))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut pid = String::new();
                // The holder's pid only names it in the message: unreadable, it is left out.
                let _ = file.read_to_string(&mut pid);
                let holder = match pid.trim() {
                    "" => "another xq-runner".to_owned(),
                    pid => format!("another xq-runner (pid {pid})"),
                };
                return Err(refuse(format!(
                    "is in use by {holder}: wait for it to end, or stop it (a resume continues its run)"
                )));
            }
            Err(TryLockError::Error(e)) => {
                return Err(refuse(format!("cannot lock {LOCK_FILE}: {e}")))
            }
        }
        let written = file
            .set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| write!(file, "{}", std::process::id()));
        written.map_err(|e| refuse(format!("cannot write {LOCK_FILE}: {e}")))?;
        Ok(FolderLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_of_a_folder_is_refused_naming_the_holder_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let first = FolderLock::take(dir.path()).expect("a free folder locks");
        // A second open file description conflicts as a second process would.
        let refused = FolderLock::take(dir.path()).expect_err("the folder is held");
        let line = refused.to_string();
        assert!(
            line.contains(&format!(
                "in use by another xq-runner (pid {})",
                std::process::id()
            )),
            "{line}"
        );
        drop(first);
        FolderLock::take(dir.path()).expect("the folder is free again");
    }

    #[test]
    fn a_folder_that_does_not_exist_cannot_be_locked() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let missing = dir.path().join("no-such-run");
        let line = FolderLock::take(&missing)
            .expect_err("no folder")
            .to_string();
        assert!(line.contains("cannot open run.lock"), "{line}");
    }

    #[test]
    fn a_lock_file_that_is_a_link_is_refused_and_its_target_left_alone() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("precious");
        std::fs::write(&target, "keep me").expect("write");
        std::os::unix::fs::symlink(&target, dir.path().join(LOCK_FILE)).expect("symlink");
        let line = FolderLock::take(dir.path())
            .expect_err("a link is no lock")
            .to_string();
        assert!(
            line.contains("cannot open run.lock: a symbolic link, not followed"),
            "{line}"
        );
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "keep me");
    }
}
