//! `output.pgnout` (fastchess's `-pgnout file=`): `games.pgn` also written to a file of
//! the user's choosing at the end of a run. With `pgnout_append` (the default, as in
//! fastchess) the file keeps what it held before the run started and the run's games
//! follow; a resumed run rewrites its own part, so no game is there twice.

use std::io::{Read as _, Write as _};
use std::path::Path;

use crate::atomic_file::{AtomicFile, Staged};
use crate::config::PgnOut;

/// The file in the output folder that remembers how long the pgnout file was before
/// the run began (its own games start there), so that a resume rewrites the run's
/// part of the file and nothing before it.
pub const BASE_FILE: &str = "pgnout.base";

/// How many bytes of the pgnout file are not the run's: on a fresh run its length now
/// (or 0 when it does not exist or is replaced); on a resume what the run noted.
#[must_use]
pub fn base(pgnout: &PgnOut, dir: &Path, resume: bool) -> u64 {
    if !pgnout.append {
        return 0;
    }
    let noted = || {
        std::fs::read_to_string(dir.join(BASE_FILE))
            .ok()
            .and_then(|t| t.trim().parse().ok())
    };
    let now = || std::fs::metadata(&pgnout.path).map_or(0, |m| m.len());
    if resume {
        noted().unwrap_or_else(now)
    } else {
        now()
    }
}

/// Writes the run's `games.pgn` (in `dir`) to the pgnout file after its first `base`
/// bytes, and notes `base` in the output folder. The file is replaced whole
/// ([`crate::atomic_file`]): a full disk leaves it as it was.
///
/// # Errors
/// A one-line message naming the file that could not be read or written.
pub fn deliver(pgnout: &PgnOut, dir: &Path, base: u64) -> Result<(), String> {
    let games = dir.join("games.pgn");
    let mut text = std::fs::File::open(&games)
        .map_err(|e| format!("output.pgnout: cannot read {}: {e}", games.display()))?;
    let target = &pgnout.path;
    let fail = |e: std::io::Error| format!("output.pgnout: cannot write {}: {e}", target.display());
    if let Some(parent) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    let mut out = AtomicFile::create(target).map_err(fail)?;
    // The file's own part stays; the run's part is written anew.
    let kept = match std::fs::File::open(target) {
        Ok(old) => std::io::copy(&mut old.take(base), &mut out).map_err(fail)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(fail(e)),
    };
    if base > 0 && kept == base {
        // PGN games are separated by a blank line.
        out.write_all(b"\n").map_err(fail)?;
    }
    std::io::copy(&mut text, &mut out).map_err(fail)?;
    out.finish().and_then(Staged::commit).map_err(fail)?;
    let noted = dir.join(BASE_FILE);
    crate::atomic_file::write(&noted, base.to_string().as_bytes())
        .map_err(|e| format!("output.pgnout: cannot write {}: {e}", noted.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_once_and_a_resume_rewrites_its_part() {
        let dir = tempfile::tempdir().expect("dir");
        let target = dir.path().join("all.pgn");
        std::fs::write(&target, "[Event \"old\"]\n1. h2e2 *\n").expect("old");
        let pgnout = PgnOut {
            path: target.clone(),
            append: true,
        };
        let out = dir.path().join("run");
        std::fs::create_dir_all(&out).expect("run dir");
        std::fs::write(out.join("games.pgn"), "game 1\n").expect("games");
        let start = base(&pgnout, &out, false);
        deliver(&pgnout, &out, start).expect("first");
        std::fs::write(out.join("games.pgn"), "game 1\ngame 2\n").expect("games");
        let again = base(&pgnout, &out, true);
        assert_eq!(again, start, "the resume finds the noted base");
        deliver(&pgnout, &out, again).expect("resume");
        let text = std::fs::read_to_string(&target).expect("read");
        assert_eq!(text, "[Event \"old\"]\n1. h2e2 *\n\ngame 1\ngame 2\n");
        let replace = PgnOut {
            path: target.clone(),
            append: false,
        };
        deliver(&replace, &out, base(&replace, &out, false)).expect("replace");
        assert_eq!(
            std::fs::read_to_string(&target).expect("read"),
            "game 1\ngame 2\n"
        );
    }
}
