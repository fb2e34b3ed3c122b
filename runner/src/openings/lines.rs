//! The lines of an opening file, one in memory at a time, each with its number and the
//! byte offset where it starts (so a book can note where an opening is and read it again
//! later without keeping it).

use std::io::{self, BufRead, Read};

use super::error::LineError;

/// The longest line the readers accept. An opening line is a FEN (at most
/// ~90 bytes), a few dozen moves and a name: far below this. The limit keeps
/// a file without line breaks from being read into memory whole.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The most bytes of one overlong line that are skipped to reach the next line. A line
/// longer still ends the reading: the input is no opening file (or no file, like
/// `/dev/zero`, whose one line never ends).
const MAX_SKIPPED_BYTES: u64 = 64 * 1024 * 1024;

/// Reads lines (without their `\n`) from a [`BufRead`], counting lines and bytes.
#[derive(Debug)]
pub(super) struct RawLines<R> {
    inner: R,
    /// The current line's bytes.
    pub(super) buf: Vec<u8>,
    /// 1-based number of the current line (0 before the first).
    line: usize,
    /// Bytes consumed so far.
    consumed: u64,
    /// Byte offset of the start of the current line.
    start: u64,
    done: bool,
}

impl<R: BufRead> RawLines<R> {
    /// Lines of `inner`, which starts at byte `offset` of its file, just after line `line`.
    pub(super) fn starting_at(inner: R, line: usize, offset: u64) -> RawLines<R> {
        RawLines {
            inner,
            buf: Vec::with_capacity(256),
            line,
            consumed: offset,
            start: offset,
            done: false,
        }
    }

    /// The number of the current line (blank and comment lines included).
    pub(super) fn line(&self) -> usize {
        self.line
    }

    /// The byte offset of the start of the current line.
    pub(super) fn start(&self) -> u64 {
        self.start
    }

    /// Reads the next line into `buf`: `Ok(None)` at the end, `Some(Err)` for a line over
    /// [`MAX_LINE_BYTES`] (skipped to its end; one over `MAX_SKIPPED_BYTES` also ends the
    /// reading). Interrupted reads are retried.
    pub(super) fn next_line(&mut self) -> io::Result<Option<Result<(), LineError>>> {
        loop {
            match self.read_line() {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => return other,
            }
        }
    }

    fn read_line(&mut self) -> io::Result<Option<Result<(), LineError>>> {
        if self.done {
            return Ok(None);
        }
        self.buf.clear();
        self.start = self.consumed;
        let limit = MAX_LINE_BYTES as u64 + 1;
        let read = (&mut self.inner)
            .take(limit)
            .read_until(b'\n', &mut self.buf)?;
        self.consumed += read as u64;
        if read == 0 {
            self.done = true;
            return Ok(None);
        }
        self.line += 1;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            return Ok(Some(Ok(())));
        }
        if self.buf.len() <= MAX_LINE_BYTES {
            return Ok(Some(Ok(()))); // last line without a line ending
        }
        // Too long: drop the rest of the line without keeping it.
        let mut skipped = 0u64;
        loop {
            self.buf.clear();
            let read = (&mut self.inner)
                .take(limit)
                .read_until(b'\n', &mut self.buf)?;
            self.consumed += read as u64;
            if read == 0 || self.buf.last() == Some(&b'\n') {
                break;
            }
            skipped += read as u64;
            if skipped > MAX_SKIPPED_BYTES {
                self.done = true;
                break;
            }
        }
        self.buf.clear();
        Ok(Some(Err(LineError::TooLong {
            max: MAX_LINE_BYTES,
        })))
    }

    /// The current line as text, without a `\r` at its end and (on line 1) a UTF-8 byte
    /// order mark.
    ///
    /// # Errors
    /// [`LineError::NotUtf8`].
    pub(super) fn text(&self) -> Result<&str, LineError> {
        let text = std::str::from_utf8(&self.buf).map_err(|_| LineError::NotUtf8)?;
        Ok(self.tidy(text))
    }

    /// The current line as text, invalid bytes replaced (PGN files from Chinese tools are
    /// often GBK: their tag values may be garbled, their moves are ASCII).
    pub(super) fn text_lossy(&self) -> String {
        let text = String::from_utf8_lossy(&self.buf);
        self.tidy(&text).to_owned()
    }

    fn tidy<'t>(&self, text: &'t str) -> &'t str {
        let text = text.strip_suffix('\r').unwrap_or(text);
        if self.line == 1 {
            text.strip_prefix('\u{feff}').unwrap_or(text)
        } else {
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_and_offsets() {
        let text = "ab\r\n\ncd\nlast";
        let mut lines = RawLines::starting_at(text.as_bytes(), 0, 0);
        let mut seen = Vec::new();
        while let Ok(Some(Ok(()))) = lines.next_line() {
            seen.push((lines.line(), lines.start(), lines.text().map(str::to_owned)));
        }
        assert_eq!(
            seen,
            [
                (1, 0, Ok("ab".to_owned())),
                (2, 4, Ok(String::new())),
                (3, 5, Ok("cd".to_owned())),
                (4, 8, Ok("last".to_owned())),
            ]
        );
        // Started in the middle of a file, the numbers go on from there.
        let mut rest = RawLines::starting_at(&text.as_bytes()[5..], 2, 5);
        assert!(matches!(rest.next_line(), Ok(Some(Ok(())))));
        assert_eq!((rest.line(), rest.start(), rest.text()), (3, 5, Ok("cd")));
    }
}
