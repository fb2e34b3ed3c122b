//! Whether a folder's run is being played, and how it ended if not. A runner holds
//! `run.lock` while it plays and writes its pid in it; testing the lock would take it
//! for a moment (and could refuse a run starting then), so the pid alone is looked at:
//! a live process of that pid is the runner.

use std::path::Path;

use crate::exit;
use crate::output::report::RunStatus;
use crate::store::folder_lock::LOCK_FILE;

/// Whether the runner whose pid `run.lock` in `dir` holds is alive.
pub(crate) fn played(dir: &Path) -> bool {
    let Ok(text) = crate::plain_file::read_to_string(&dir.join(LOCK_FILE)) else {
        return false;
    };
    let Some(pid) = text.trim().parse::<i32>().ok().filter(|p| *p > 0) else {
        return false;
    };
    match nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None) {
        // Alive, or alive under another user.
        Ok(()) | Err(nix::errno::Errno::EPERM) => true,
        Err(_) => false,
    }
}

/// The state, status and exit code of the run in `dir`, whose `summary.json` says
/// `ended` (none while it plays, or after a kill).
pub(crate) fn state(dir: &Path, ended: Option<&RunStatus>) -> (String, String, Option<u8>) {
    if played(dir) {
        return ("open".to_owned(), "open".to_owned(), None);
    }
    match ended {
        Some(s) => {
            let state = if s.exit_code == exit::ABORTED {
                "aborted"
            } else {
                "finished"
            };
            (state.to_owned(), s.ending.to_string(), Some(s.exit_code))
        }
        None => (
            "stopped".to_owned(),
            "stopped without summary.json (killed?): `xq-runner resume` continues it".to_owned(),
            None,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_open_while_the_pid_of_its_lock_lives() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert!(!played(dir.path()), "no lock file");
        std::fs::write(dir.path().join(LOCK_FILE), std::process::id().to_string()).expect("write");
        assert!(played(dir.path()));
        assert_eq!(state(dir.path(), None).0, "open");
        // A pid no process has (above the kernel's limit).
        std::fs::write(dir.path().join(LOCK_FILE), "2147483647").expect("write");
        assert!(!played(dir.path()));
        assert_eq!(state(dir.path(), None).0, "stopped");
        std::fs::write(dir.path().join(LOCK_FILE), "garbage").expect("write");
        assert!(!played(dir.path()));
    }
}
