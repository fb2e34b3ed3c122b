//! A journal read as it grows, by a reader that is not its writer (`serve` of a run
//! folder while `xq-runner run` plays into it): each read takes only the bytes appended
//! since the last one. The file is opened read-only and never locked, so the writer is
//! never held up. A last line without its newline is still being written: it is left
//! in the file and read whole the next time. A file cut shorter than what was read, or
//! replaced by another (a resume cuts a torn line; a folder written again), is said so,
//! and the reading starts over.

use std::io::{BufRead, BufReader, Read as _, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// A line longer than this is no journal line (a game's line is a few kilobytes): the
/// file is something else, and is not held in memory to find out.
pub(crate) const MAX_LINE: usize = 16 << 20;

/// Why a read of the file stopped.
#[derive(Debug, Error)]
pub(crate) enum TailError {
    /// The file shrank below what was read, or is another file now: what was read of it
    /// no longer holds, and the next read starts from its beginning.
    #[error("{}: rewritten since it was read", .0.display())]
    Rewritten(PathBuf),
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A complete line refused by the reader's `each` (1-based line number): the
    /// reading stays before it.
    #[error("{}:{line}: {why}", .path.display())]
    Bad {
        path: PathBuf,
        line: usize,
        why: String,
    },
}

/// Where the reading of one file is.
#[derive(Debug)]
pub(crate) struct Tail {
    path: PathBuf,
    /// Bytes of complete lines read.
    offset: u64,
    /// Complete lines read.
    lines: usize,
    /// The file read (device and inode), once it was seen.
    file: Option<(u64, u64)>,
}

impl Tail {
    /// The reading of `path` from its start.
    pub(crate) fn new(path: &Path) -> Tail {
        Tail {
            path: path.to_owned(),
            offset: 0,
            lines: 0,
            file: None,
        }
    }

    /// Complete lines read so far.
    pub(crate) fn lines(&self) -> usize {
        self.lines
    }

    /// Reads the complete lines appended since the last read, handing each (without its
    /// newline) to `each`, until the end of the file or until about `budget` bytes
    /// were read (at least one line). Returns the bytes read. A missing file has no
    /// lines yet.
    ///
    /// # Errors
    /// [`TailError::Rewritten`] (the reading is back at the start: read again),
    /// [`TailError::Bad`] when `each` refuses a line or a line has no end in
    /// [`MAX_LINE`] bytes, [`TailError::Io`].
    pub(crate) fn read(
        &mut self,
        budget: u64,
        mut each: impl FnMut(&[u8]) -> Result<(), String>,
    ) -> Result<u64, TailError> {
        let path = self.path.clone();
        let io = move |source| TailError::Io { path, source };
        // Non-blocking and no link followed: a FIFO planted as the journal would hang
        // the reader for good, a link would show a file from elsewhere.
        let file = match crate::plain_file::read_only(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && self.file.is_none() => {
                return Ok(0)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(self.restart()),
            Err(e) => return Err(io(e)),
        };
        let meta = file.metadata().map_err(io.clone())?;
        let id = (meta.dev(), meta.ino());
        if self.file.is_some_and(|seen| seen != id) || meta.len() < self.offset {
            return Err(self.restart());
        }
        self.file = Some(id);
        let mut reader = BufReader::new(file);
        reader
            .seek(SeekFrom::Start(self.offset))
            .map_err(io.clone())?;
        let mut line = Vec::new();
        let mut read = 0;
        while read < budget {
            line.clear();
            let n = (&mut reader)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut line)
                .map_err(io.clone())?;
            if !line.ends_with(b"\n") {
                if n > MAX_LINE {
                    return Err(self.bad(format!("no end of line in {MAX_LINE} bytes")));
                }
                // The end, or a line still being written: left for the next read.
                break;
            }
            each(line.trim_ascii_end()).map_err(|why| self.bad(why))?;
            self.offset += n as u64;
            self.lines += 1;
            read += n as u64;
        }
        Ok(read)
    }

    /// The reading back at the start of the file, and the error that says so.
    fn restart(&mut self) -> TailError {
        *self = Tail::new(&self.path);
        TailError::Rewritten(self.path.clone())
    }

    /// The line after the last one read, refused for `why`.
    fn bad(&self, why: String) -> TailError {
        TailError::Bad {
            path: self.path.clone(),
            line: self.lines + 1,
            why,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    /// Every line `tail` reads now, as text.
    fn lines(tail: &mut Tail) -> Result<Vec<String>, TailError> {
        let mut got = Vec::new();
        tail.read(u64::MAX, |l| {
            got.push(String::from_utf8_lossy(l).into_owned());
            Ok(())
        })?;
        Ok(got)
    }

    fn append(path: &Path, bytes: &[u8]) {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("open for appending");
        f.write_all(bytes).expect("append");
    }

    #[test]
    fn lines_appended_in_pieces_are_read_once_each_and_whole() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("games.jsonl");
        let mut tail = Tail::new(&path);
        assert!(lines(&mut tail).expect("no file yet").is_empty());
        append(&path, b"{\"a\":1}\n{\"b\"");
        assert_eq!(lines(&mut tail).expect("read"), ["{\"a\":1}"]);
        // The partial line is not read until its newline is there.
        assert!(lines(&mut tail).expect("read").is_empty());
        append(&path, b":2");
        assert!(lines(&mut tail).expect("read").is_empty());
        append(&path, "}\n{\"象\":3}\n{\"d".as_bytes());
        assert_eq!(lines(&mut tail).expect("read"), ["{\"b\":2}", "{\"象\":3}"]);
        append(&path, b"\":4}\n");
        assert_eq!(lines(&mut tail).expect("read"), ["{\"d\":4}"]);
        assert_eq!(tail.lines(), 4);
    }

    #[test]
    fn a_budget_reads_a_long_file_in_slices() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("games.jsonl");
        append(&path, b"1111\n2222\n3333\n");
        let mut tail = Tail::new(&path);
        let mut got = Vec::new();
        let mut take = |t: &mut Tail| {
            t.read(6, |l| {
                got.push(l.to_vec());
                Ok(())
            })
        };
        assert_eq!(take(&mut tail).ok(), Some(10));
        assert_eq!(take(&mut tail).ok(), Some(5));
        assert_eq!(take(&mut tail).ok(), Some(0));
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn a_refused_line_stops_the_reading_before_it_every_time() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("games.jsonl");
        append(&path, b"ok\ngarbage\nok\n");
        let mut tail = Tail::new(&path);
        for _ in 0..2 {
            let mut good = 0;
            let result = tail.read(u64::MAX, |l| {
                if l == b"ok" {
                    good += 1;
                    Ok(())
                } else {
                    Err("not a journal entry".to_owned())
                }
            });
            let error = result.expect_err("the garbage line").to_string();
            assert!(
                error.ends_with("games.jsonl:2: not a journal entry"),
                "{error}"
            );
            assert_eq!(tail.lines(), 1);
            assert!(good <= 1);
        }
    }

    #[test]
    fn a_file_cut_or_replaced_is_read_again_from_its_start() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("games.jsonl");
        append(&path, b"one\ntwo\n");
        let mut tail = Tail::new(&path);
        assert_eq!(lines(&mut tail).expect("read").len(), 2);
        // Cut below what was read (a folder written again).
        std::fs::write(&path, b"uno\n").expect("rewrite");
        assert!(matches!(lines(&mut tail), Err(TailError::Rewritten(_))));
        assert_eq!(lines(&mut tail).expect("read again"), ["uno"]);
        // Another file in its place, longer than what was read.
        let other = dir.path().join("other");
        std::fs::write(&other, b"a\nb\nc\n").expect("write");
        std::fs::rename(&other, &path).expect("replace");
        assert!(matches!(lines(&mut tail), Err(TailError::Rewritten(_))));
        assert_eq!(lines(&mut tail).expect("read again"), ["a", "b", "c"]);
        // Gone: said, not a crash.
        std::fs::remove_file(&path).expect("remove");
        assert!(matches!(lines(&mut tail), Err(TailError::Rewritten(_))));
        assert!(lines(&mut tail).expect("no file").is_empty());
    }

    #[test]
    fn a_line_without_end_is_refused_not_held() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("games.jsonl");
        append(&path, &vec![b'x'; MAX_LINE + 10]);
        let result = Tail::new(&path).read(u64::MAX, |_| Ok(()));
        assert!(
            matches!(result, Err(TailError::Bad { line: 1, .. })),
            "{result:?}"
        );
    }
}
