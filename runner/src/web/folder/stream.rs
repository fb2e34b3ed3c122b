//! A folder's `games.jsonl` (its lines as written) and `games.pgn` (each game as a
//! local run's `games.pgn` writes it), streamed from the journal a slice at a time
//! while the run may go on writing it: the stream ends at the last complete line.

use std::path::Path;

use axum::body::{Body, Bytes};
use axum::response::{IntoResponse, Response};

use super::super::error::WebError;
use super::routes::READ_TIMEOUT;
use crate::output::report::RunHead;
use crate::store::journal::{JournalEntry, JOURNAL_FILE};
use crate::store::tail::Tail;

/// Bytes of the journal read for one piece of the answer.
const SLICE_BYTES: u64 = 1 << 20;

/// The journal of `dir`, each line turned into bytes by `render` (which refuses a line
/// with why); a refused line or a failed read ends the stream, cut off.
fn lines(
    dir: &Path,
    render: impl FnMut(&[u8], &mut Vec<u8>) -> Result<(), String> + Send + 'static,
) -> Body {
    let start = Some((Tail::new(&dir.join(JOURNAL_FILE)), render));
    let stream = futures_util::stream::unfold(start, |state| async move {
        let (mut tail, mut render) = state?;
        let slice = tokio::time::timeout(
            READ_TIMEOUT,
            tokio::task::spawn_blocking(move || {
                let mut out = Vec::new();
                let read = tail.read(SLICE_BYTES, |line| render(line, &mut out));
                (tail, render, out, read)
            }),
        )
        .await;
        let Ok(slice) = slice else {
            let e = super::routes::timed_out();
            tracing::warn!("the games' stream stopped: {e}");
            return Some((Err(std::io::Error::other(e.to_string())), None));
        };
        match slice {
            Ok((_, _, _, Ok(0))) => None,
            Ok((tail, render, out, Ok(_))) => Some((Ok(Bytes::from(out)), Some((tail, render)))),
            Ok((_, _, _, Err(e))) => {
                tracing::warn!("the games' stream stopped: {e}");
                Some((Err(std::io::Error::other(e.to_string())), None))
            }
            Err(e) => Some((Err(std::io::Error::other(e.to_string())), None)),
        }
    });
    Body::from_stream(stream)
}

/// `games.jsonl` of the run in `dir`.
pub(crate) fn jsonl(dir: &Path) -> Response {
    let body = lines(dir, |line, out| {
        out.extend_from_slice(line);
        out.push(b'\n');
        Ok(())
    });
    (
        [("content-type", "application/x-ndjson; charset=utf-8")],
        body,
    )
        .into_response()
}

/// `games.pgn` of the run in `dir`, with the headers its `games.pgn` is written with.
///
/// # Errors
/// [`WebError::Failed`] when `run.json` does not read.
pub(crate) fn pgn(dir: &Path) -> Result<Response, WebError> {
    let headers = RunHead::read(dir)
        .map_err(|e| WebError::Failed(e.to_string()))?
        .pgn_headers();
    let body = lines(dir, move |line, out| {
        let entry: JournalEntry =
            serde_json::from_slice(line).map_err(|e| format!("not a journal entry: {e}"))?;
        let mut text = String::new();
        headers.push(&mut text, &entry);
        out.extend_from_slice(text.as_bytes());
        Ok(())
    });
    Ok((
        [("content-type", "application/x-chess-pgn; charset=utf-8")],
        body,
    )
        .into_response())
}
