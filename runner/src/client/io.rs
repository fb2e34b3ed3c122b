//! Line-based I/O with an engine over any async byte streams (pipes in production,
//! in-memory duplex streams in tests).
//!
//! Reading is cancel safe: a line that has only partly arrived stays in the reader when
//! the read is dropped (at a deadline, or when the process exit wins a race), and the
//! next read goes on from there.

use std::future::Future as _;
use std::task::Poll;
use std::time::Instant;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};

/// Longest line an engine may write on stdout. The longest line of the protocols is an
/// `info ... pv` line (a few hundred bytes); a line this long is not a message but a
/// broken engine, and reading on would cost memory without end.
pub const MAX_LINE: usize = 64 * 1024;

/// A line read from the engine, with the time it arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    pub at: Instant,
}

/// What the engine's output held next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    Line(Line),
    /// [`MAX_LINE`] bytes without a newline: the rest is not read (the engine is broken
    /// and gets no further word).
    TooLong,
    /// End of output: the engine (and everything holding its stdout) closed it.
    End,
}

/// The two directions of an engine's standard streams.
pub struct LineIo {
    reader: Box<dyn AsyncBufRead + Unpin + Send>,
    writer: Box<dyn AsyncWrite + Unpin + Send>,
    /// The part of a line read so far (kept across cancelled reads).
    partial: Vec<u8>,
}

impl std::fmt::Debug for LineIo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LineIo")
    }
}

impl LineIo {
    /// Wraps a reader and a writer.
    pub fn new(
        reader: Box<dyn AsyncBufRead + Unpin + Send>,
        writer: Box<dyn AsyncWrite + Unpin + Send>,
    ) -> LineIo {
        LineIo {
            reader,
            writer,
            partial: Vec::new(),
        }
    }

    /// Writes one line and flushes; returns when the engine can read it.
    ///
    /// # Errors
    /// The pipe is closed (the engine exited).
    pub async fn write_line(&mut self, text: &str) -> std::io::Result<Instant> {
        let mut bytes = Vec::with_capacity(text.len() + 1);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(b'\n');
        self.writer.write_all(&bytes).await?;
        self.writer.flush().await?;
        Ok(Instant::now())
    }

    /// Reads the next line (trimmed, invalid UTF-8 replaced). Cancel safe.
    ///
    /// # Errors
    /// Reading the pipe failed.
    pub async fn read_line(&mut self) -> std::io::Result<Incoming> {
        loop {
            if self.partial.len() >= MAX_LINE {
                return Ok(Incoming::TooLong);
            }
            let chunk = self.reader.fill_buf().await?;
            if chunk.is_empty() {
                if self.partial.is_empty() {
                    return Ok(Incoming::End);
                }
                // A last line without a newline.
                return Ok(Incoming::Line(self.take_line()));
            }
            let room = MAX_LINE - self.partial.len();
            let window = &chunk[..chunk.len().min(room)];
            match window.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.partial.extend_from_slice(&window[..i]);
                    self.reader.consume(i + 1);
                    return Ok(Incoming::Line(self.take_line()));
                }
                None => {
                    let used = window.len();
                    self.partial.extend_from_slice(window);
                    self.reader.consume(used);
                }
            }
        }
    }

    /// Takes the line read so far, leaving the buffer empty.
    fn take_line(&mut self) -> Line {
        let text = String::from_utf8_lossy(&self.partial).trim().to_owned();
        self.partial.clear();
        Line {
            text,
            at: Instant::now(),
        }
    }

    /// A line that is already complete in the reader's buffer or the pipe, without
    /// waiting for one (used to find answers the engine wrote when nobody asked).
    ///
    /// # Errors
    /// Reading the pipe failed.
    pub async fn ready_line(&mut self) -> std::io::Result<Option<Incoming>> {
        // The read polled once: what is already there is read, nothing is waited for.
        // Not a `timeout` of zero: its timer waits for the time driver's next tick, a
        // millisecond before every move (instant engines played 20 times slower). The
        // read is cancel safe.
        let mut read = std::pin::pin!(self.read_line());
        std::future::poll_fn(|cx| match read.as_mut().poll(cx) {
            Poll::Ready(line) => Poll::Ready(line.map(Some)),
            Poll::Pending => Poll::Ready(Ok(None)),
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncWriteExt, BufReader};

    /// An engine's end of a pipe and the runner's reader of it.
    fn pipe() -> (tokio::io::DuplexStream, LineIo) {
        let (engine, runner) = tokio::io::duplex(64);
        let io = LineIo::new(
            Box::new(BufReader::new(runner)),
            Box::new(tokio::io::sink()),
        );
        (engine, io)
    }

    /// The text of the next line, or what came instead.
    async fn next_text(io: &mut LineIo) -> Result<String, Incoming> {
        match io.read_line().await {
            Ok(Incoming::Line(l)) => Ok(l.text),
            Ok(other) => Err(other),
            Err(_) => Err(Incoming::End),
        }
    }

    #[tokio::test]
    async fn reads_lines_and_survives_bad_bytes() {
        let input = b"readyok\r\nbest\xffmove\nlast".to_vec();
        let reader = BufReader::new(std::io::Cursor::new(input));
        let mut io = LineIo::new(Box::new(reader), Box::new(tokio::io::sink()));
        assert_eq!(next_text(&mut io).await, Ok("readyok".to_owned()));
        assert_eq!(next_text(&mut io).await, Ok("best\u{fffd}move".to_owned()));
        assert_eq!(next_text(&mut io).await, Ok("last".to_owned()));
        assert_eq!(next_text(&mut io).await, Err(Incoming::End));
    }

    #[tokio::test]
    async fn an_over_long_line_is_reported_not_kept() {
        let mut input = b"readyok\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE * 3));
        input.extend_from_slice(b"\nbestmove h2e2\n");
        let reader = BufReader::new(std::io::Cursor::new(input));
        let mut io = LineIo::new(Box::new(reader), Box::new(tokio::io::sink()));
        assert_eq!(next_text(&mut io).await, Ok("readyok".to_owned()));
        assert_eq!(next_text(&mut io).await, Err(Incoming::TooLong));
        // Nothing more than the cap was taken in.
        assert!(io.partial.len() <= MAX_LINE);
        // A line of exactly the cap is still a line.
        let mut exact = vec![b'y'; MAX_LINE - 1];
        exact.push(b'\n');
        let reader = BufReader::new(std::io::Cursor::new(exact));
        let mut io = LineIo::new(Box::new(reader), Box::new(tokio::io::sink()));
        assert_eq!(next_text(&mut io).await.map(|t| t.len()), Ok(MAX_LINE - 1));
    }

    #[tokio::test]
    async fn a_line_not_there_is_not_waited_for_and_one_there_is_read() {
        let (mut engine, mut io) = pipe();
        assert_eq!(io.ready_line().await.ok().flatten(), None);
        engine.write_all(b"bestmove h2e2\n").await.expect("write");
        assert!(matches!(
            io.ready_line().await,
            Ok(Some(Incoming::Line(line))) if line.text == "bestmove h2e2"
        ));
    }

    #[tokio::test]
    async fn a_cancelled_read_keeps_the_part_of_the_line_it_had() {
        let (mut engine, mut io) = pipe();
        engine.write_all(b"bestm").await.expect("write");
        let early =
            tokio::time::timeout(std::time::Duration::from_millis(20), io.read_line()).await;
        assert!(early.is_err(), "no whole line yet");
        assert_eq!(io.ready_line().await.ok().flatten(), None);
        engine.write_all(b"ove h2e2\n").await.expect("write");
        assert_eq!(next_text(&mut io).await, Ok("bestmove h2e2".to_owned()));
    }
}
