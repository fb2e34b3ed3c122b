//! An engine's stderr: drained to its end as bytes, whatever the engine writes.
//!
//! A reader that stopped early (at the first byte that is not UTF-8, as a `lines()`
//! reader does) would close the pipe, and the engine's next write to stderr would kill
//! it with SIGPIPE. So the drain never stops before end of file, decodes lossily (GBK
//! debug lines of Chinese engines become replacement characters in the log, no error),
//! and keeps at most [`MAX_STDERR_LINE`] bytes of a line: memory stays bounded
//! even when an engine writes gigabytes without a newline.

use tokio::io::{AsyncRead, AsyncReadExt};

use super::traffic;

/// Longest stderr line kept for the log; the rest of a longer line is read and dropped.
pub const MAX_STDERR_LINE: usize = 4 * 1024;

/// Reads `stderr` to its end, logging each line (at `debug`, and in the `--log` file).
pub async fn drain(name: String, stderr: impl AsyncRead + Unpin) {
    drain_with(stderr, |line, cut| {
        tracing::debug!(engine = %name, cut, "stderr: {line}");
        traffic::record(&name, traffic::Direction::Stderr, line);
    })
    .await;
}

/// Reads `input` to its end and calls `on_line` for each line (lossily decoded, at most
/// [`MAX_STDERR_LINE`] bytes, `cut` when the line was longer).
pub async fn drain_with(mut input: impl AsyncRead + Unpin, mut on_line: impl FnMut(&str, bool)) {
    let mut chunk = vec![0u8; 16 * 1024];
    let mut line: Vec<u8> = Vec::with_capacity(256);
    let mut cut = false;
    loop {
        let n = match input.read(&mut chunk).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            // A pipe read fails only when the pipe is gone; nothing more will come.
            Err(_) => break,
        };
        for part in chunk[..n].split_inclusive(|&b| b == b'\n') {
            let (body, ends) = match part.split_last() {
                Some((b'\n', body)) => (body, true),
                _ => (part, false),
            };
            let room = MAX_STDERR_LINE.saturating_sub(line.len());
            line.extend_from_slice(&body[..body.len().min(room)]);
            cut |= body.len() > room;
            if ends {
                emit(&mut line, cut, &mut on_line);
                cut = false;
            }
        }
    }
    if !line.is_empty() || cut {
        emit(&mut line, cut, &mut on_line);
    }
}

fn emit(line: &mut Vec<u8>, cut: bool, on_line: &mut impl FnMut(&str, bool)) {
    let text = String::from_utf8_lossy(line);
    on_line(text.trim_end_matches('\r'), cut);
    line.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines_of(input: Vec<u8>) -> Vec<(String, bool)> {
        let mut seen = Vec::new();
        drain_with(std::io::Cursor::new(input), |l, cut| {
            seen.push((l.to_owned(), cut));
        })
        .await;
        seen
    }

    #[tokio::test]
    async fn gbk_and_invalid_bytes_do_not_stop_the_drain() {
        // "搜索深度 3" in GBK, a lone 0xff, then plain lines.
        let mut input = vec![0xcb, 0xd1, 0xcb, 0xf7, 0xc9, 0xee, 0xb6, 0xc8];
        input.extend_from_slice(b" 3\n\xff\r\nafter\nlast");
        let seen = lines_of(input).await;
        assert_eq!(seen.len(), 4, "{seen:?}");
        assert!(seen[0].0.ends_with(" 3") && seen[0].0.contains('\u{fffd}'));
        assert_eq!(seen[1], ("\u{fffd}".to_owned(), false));
        assert_eq!(seen[2], ("after".to_owned(), false));
        assert_eq!(seen[3], ("last".to_owned(), false));
    }

    #[tokio::test]
    async fn an_endless_line_is_cut_and_the_next_one_read() {
        let mut input = vec![b'x'; MAX_STDERR_LINE * 10 + 3];
        input.extend_from_slice(b"\nnext\n");
        let seen = lines_of(input).await;
        assert_eq!(seen.len(), 2);
        assert_eq!((seen[0].0.len(), seen[0].1), (MAX_STDERR_LINE, true));
        assert_eq!(seen[1], ("next".to_owned(), false));
    }
}
