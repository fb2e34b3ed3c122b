//! Line-based I/O with an engine over any async byte streams (pipes in production,
//! in-memory duplex streams in tests).

use std::time::Instant;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};

/// Longest line kept; the rest of a longer line is read and dropped, so an engine that
/// floods one endless line cannot exhaust memory.
pub const MAX_LINE: usize = 64 * 1024;

/// A line read from the engine, with the time it arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    pub at: Instant,
}

/// The two directions of an engine's standard streams.
pub struct LineIo {
    reader: Box<dyn AsyncBufRead + Unpin + Send>,
    writer: Box<dyn AsyncWrite + Unpin + Send>,
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
        LineIo { reader, writer }
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

    /// Reads the next line (trimmed, invalid UTF-8 replaced); `None` at end of stream.
    ///
    /// # Errors
    /// Reading the pipe failed.
    pub async fn read_line(&mut self) -> std::io::Result<Option<Line>> {
        let mut kept: Vec<u8> = Vec::new();
        let mut saw_any = false;
        loop {
            let chunk = self.reader.fill_buf().await?;
            if chunk.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], Some(i + 1)),
                None => (chunk, None),
            };
            let room = MAX_LINE.saturating_sub(kept.len());
            kept.extend_from_slice(&part[..part.len().min(room)]);
            let used = done.unwrap_or(chunk.len());
            self.reader.consume(used);
            if done.is_some() {
                break;
            }
        }
        let at = Instant::now();
        let text = String::from_utf8_lossy(&kept).trim().to_owned();
        Ok(Some(Line { text, at }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::BufReader;

    /// The text of the next line, `None` at the end (or on a read error).
    async fn next_text(io: &mut LineIo) -> Option<String> {
        io.read_line().await.ok().flatten().map(|l| l.text)
    }

    #[tokio::test]
    async fn reads_lines_caps_long_ones_and_survives_bad_bytes() {
        let mut input = b"readyok\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE * 3));
        input.extend_from_slice(b"\nbest\xffmove\nlast");
        let reader = BufReader::new(std::io::Cursor::new(input));
        let mut io = LineIo::new(Box::new(reader), Box::new(tokio::io::sink()));
        assert_eq!(next_text(&mut io).await.as_deref(), Some("readyok"));
        assert_eq!(next_text(&mut io).await.map(|t| t.len()), Some(MAX_LINE));
        assert_eq!(
            next_text(&mut io).await.as_deref(),
            Some("best\u{fffd}move")
        );
        assert_eq!(next_text(&mut io).await.as_deref(), Some("last"));
        assert!(next_text(&mut io).await.is_none());
    }
}
