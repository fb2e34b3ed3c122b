//! A streaming reader of EPD opening files: one line in memory at a time.

use std::io::BufRead;

use super::error::OpeningError;
use super::line::parse_line;
use super::lines::RawLines;
use super::opening::Opening;

/// Yields one `Result` per line that is neither blank nor a comment, in file
/// order, over any [`BufRead`]. Bad lines are errors with their line number
/// and the reader goes on; an I/O error is yielded once and ends the reader.
/// Line endings may be `\n` or `\r\n`; a UTF-8 byte order mark is skipped.
///
/// # Examples
/// ```
/// use xq_runner::openings::OpeningReader;
///
/// let text = "# two openings, one bad\n\
///             rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2\r\n\
///             \n\
///             not-a-fen\n";
/// let results: Vec<_> = OpeningReader::new(text.as_bytes()).collect();
/// assert_eq!(results.len(), 2);
/// assert_eq!(results[0].as_ref().map(|o| o.line).ok(), Some(2));
/// assert_eq!(results[1].as_ref().err().map(|e| e.line()), Some(4));
/// ```
#[derive(Debug)]
pub struct OpeningReader<R> {
    lines: RawLines<R>,
    done: bool,
}

impl<R: BufRead> OpeningReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> OpeningReader<R> {
        OpeningReader::starting_at(inner, 0, 0)
    }

    /// A reader over `inner`, which starts at byte `offset` of its file just after line
    /// `line` (to read again an opening whose place was noted).
    pub fn starting_at(inner: R, line: usize, offset: u64) -> OpeningReader<R> {
        OpeningReader {
            lines: RawLines::starting_at(inner, line, offset),
            done: false,
        }
    }

    /// The number of the last line read (blank and comment lines included).
    #[must_use]
    pub fn line(&self) -> usize {
        self.lines.line()
    }

    /// The byte offset of the start of the last line read: after an opening, where its
    /// line starts.
    #[must_use]
    pub fn line_start(&self) -> u64 {
        self.lines.start()
    }
}

impl<R: BufRead> Iterator for OpeningReader<R> {
    type Item = Result<Opening, OpeningError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let raw = match self.lines.next_line() {
                Ok(Some(raw)) => raw,
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(source) => {
                    self.done = true;
                    return Some(Err(OpeningError::Io {
                        line: self.lines.line(),
                        source,
                    }));
                }
            };
            let line = self.lines.line();
            let parsed = raw.and_then(|()| parse_line(self.lines.text()?, line));
            match parsed {
                Ok(None) => continue,
                Ok(Some(opening)) => return Some(Ok(opening)),
                Err(kind) => return Some(Err(OpeningError::Line { line, kind })),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::io::{self, BufReader, Read};

    use xq_core::board::START_FEN;

    use super::super::error::LineError;
    use super::super::lines::MAX_LINE_BYTES;
    use super::*;

    /// An endless file: the same opening line forever. A reader that tried to
    /// load its input whole would never return.
    struct Endless {
        line: Vec<u8>,
        pos: usize,
    }

    impl Read for Endless {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let mut n = 0;
            while n < out.len() {
                out[n] = self.line[self.pos];
                self.pos = (self.pos + 1) % self.line.len();
                n += 1;
            }
            Ok(n)
        }
    }

    #[test]
    fn streams_an_endless_input() {
        let endless = Endless {
            line: format!("{START_FEN} moves h2e2 ; name x\n").into_bytes(),
            pos: 0,
        };
        let mut reader = OpeningReader::new(BufReader::with_capacity(1024, endless));
        let lines: Vec<usize> = reader
            .by_ref()
            .take(1000)
            .map(|r| r.map(|o| o.line).unwrap_or(0))
            .collect();
        assert_eq!(lines, (1..=1000).collect::<Vec<_>>());
        assert!(reader.lines.buf.capacity() < 4096, "one line at a time");
    }

    #[test]
    fn reports_bad_bytes_and_long_lines_and_goes_on() {
        let mut text = Vec::new();
        text.extend_from_slice(b"\xEF\xBB\xBF# bom, then a bad byte\n");
        text.extend_from_slice(b"rnbakabnr\xFF\n");
        text.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES * 2 + 5));
        text.extend_from_slice(b"\n");
        text.extend_from_slice(START_FEN.as_bytes());
        let results: Vec<_> = OpeningReader::new(&text[..]).collect();
        assert_eq!(results.len(), 3);
        assert!(matches!(
            results[0],
            Err(OpeningError::Line {
                line: 2,
                kind: LineError::NotUtf8
            })
        ));
        assert!(matches!(
            results[1],
            Err(OpeningError::Line {
                line: 3,
                kind: LineError::TooLong { .. }
            })
        ));
        assert!(matches!(results[2], Ok(ref o) if o.line == 4));
    }

    /// Zero bytes forever, like `/dev/zero`: one line that never ends.
    struct Zeros;

    impl Read for Zeros {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            out.fill(0);
            Ok(out.len())
        }
    }

    #[test]
    fn a_line_that_never_ends_is_reported_and_ends_the_reader() {
        let mut reader = OpeningReader::new(BufReader::with_capacity(1 << 16, Zeros));
        assert!(matches!(
            reader.next(),
            Some(Err(OpeningError::Line {
                line: 1,
                kind: LineError::TooLong { .. }
            }))
        ));
        assert!(reader.next().is_none());
    }

    struct Broken;

    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }

    #[test]
    fn an_io_error_ends_the_reader() {
        let mut reader = OpeningReader::new(BufReader::new(Broken));
        assert!(matches!(
            reader.next(),
            Some(Err(OpeningError::Io { line: 0, .. }))
        ));
        assert!(reader.next().is_none());
    }
}
