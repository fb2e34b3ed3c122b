//! The files of a run folder opened as what they should be: a regular file, reached
//! without following a symbolic link at its name. A link planted as `run.lock` or
//! `games.jsonl` would otherwise have a runner write its pid or its games into whatever
//! the link names (outside the folder), and `serve DIR` show that file; a FIFO planted
//! under such a name would hang the reader that opens it for good. The open is
//! non-blocking for that reason (a FIFO or a device opens at once, and is then refused
//! for what it is); on a regular file the flag changes nothing.
//!
//! Below every layer (like `atomic_file.rs`): the store, the outputs, the tuner and
//! `serve` open through it.

use std::fs::{File, OpenOptions};
use std::io::{Error, ErrorKind, Read as _};
use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _};
use std::path::Path;

use nix::libc;

/// Opens `path` as `options` say, refusing a symbolic link at its last component and
/// anything that is not a regular file (a FIFO, a device, a socket, a folder).
///
/// # Errors
/// The open's own error (`NotFound` for a missing file), or one of kind
/// `InvalidInput` saying what the path is instead.
pub(crate) fn open(options: &OpenOptions, path: &Path) -> std::io::Result<File> {
    let mut options = options.clone();
    options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    let file = options.open(path).map_err(|e| match e.raw_os_error() {
        // O_NOFOLLOW's answer when the last component is a link.
        Some(libc::ELOOP) => Error::new(
            ErrorKind::InvalidInput,
            "a symbolic link, not followed (a run folder's files are plain files)",
        ),
        // A FIFO opened for writing with no reader.
        Some(libc::ENXIO) => not_regular("a FIFO or a device"),
        _ => e,
    })?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    let what = if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_dir() {
        "a folder"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a device"
    };
    Err(not_regular(what))
}

fn not_regular(what: &str) -> Error {
    Error::new(
        ErrorKind::InvalidInput,
        format!("{what}, not a regular file: not opened"),
    )
}

/// `path` opened for reading (see [`open`]).
///
/// # Errors
/// As [`open`].
pub(crate) fn read_only(path: &Path) -> std::io::Result<File> {
    open(OpenOptions::new().read(true), path)
}

/// The text of `path` (see [`open`]).
///
/// # Errors
/// As [`open`], and the read's (`InvalidData` for text that is not UTF-8).
pub(crate) fn read_to_string(path: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    read_only(path)?.read_to_string(&mut text)?;
    Ok(text)
}

/// Whether `path` is a regular file itself, not a link to one.
pub(crate) fn is_plain(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    #[test]
    fn a_link_a_fifo_and_a_folder_are_refused_a_plain_file_opens() {
        let dir = tempfile::tempdir().expect("temp dir");
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "secret").expect("write");
        let link = dir.path().join("games.jsonl");
        std::os::unix::fs::symlink(&outside, &link).expect("symlink");
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).expect("mkfifo");

        let refused = |p: &Path, wants: &str| {
            let e = read_to_string(p).expect_err("refused");
            assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
            assert!(e.to_string().contains(wants), "{e}");
        };
        refused(&link, "a symbolic link, not followed");
        // Opened for reading, a FIFO without a writer would block: it is refused at once.
        refused(&fifo, "a FIFO, not a regular file");
        refused(dir.path(), "a folder, not a regular file");
        let appending = open(OpenOptions::new().append(true).create(true), &link);
        assert!(appending.is_err(), "not appended through the link");
        assert!(open(OpenOptions::new().write(true), &fifo).is_err());
        assert_eq!(std::fs::read_to_string(&outside).expect("read"), "secret");
        assert!(!is_plain(&link) && !is_plain(&fifo) && is_plain(&outside));

        let mut plain = open(
            OpenOptions::new().append(true).create(true),
            &dir.path().join("new"),
        )
        .expect("a new plain file");
        plain.write_all(b"ok").expect("write");
        assert_eq!(read_to_string(&dir.path().join("new")).expect("read"), "ok");
        assert_eq!(
            read_to_string(&dir.path().join("missing"))
                .expect_err("missing")
                .kind(),
            ErrorKind::NotFound
        );
    }
}
