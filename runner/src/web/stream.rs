//! A run's games streamed from the database: `games.jsonl` (the journal lines as stored)
//! and `games.pgn` (each written as a local run's `games.pgn` writes it), a slice of
//! pairs at a time, so that a run of any length is sent without being held in memory.

use std::path::PathBuf;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::response::{IntoResponse, Response};

use super::error::WebError;
use crate::output::report::RunHead;
use crate::store::journal::JournalEntry;
use crate::store::pg::runs::RunRow;
use crate::store::pg::Db;

/// Pairs a stream reads at a time: a few megabytes of text, so that the next slice is
/// read from the database while this one is sent.
const STREAM_SLICE: i64 = 512;

/// Slices read ahead of the one being sent.
const AHEAD: usize = 2;

/// The stored games of run `id`, each slice of pairs turned into text by `render`; the
/// stream ends after the last pair, or after the database's error (the client sees a
/// cut-off body, never half a game line). A task reads and renders the slices while
/// the body sends the ones before (at most [`AHEAD`] wait), and stops when the client
/// goes away.
fn slices(
    db: Arc<Db>,
    id: i64,
    last: Option<i64>,
    mut render: impl FnMut(Vec<String>) -> String + Send + 'static,
) -> Body {
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(AHEAD);
    tokio::spawn(async move {
        let Some(last) = last else { return };
        let mut from = 0;
        while from <= last {
            let slice = match db.game_entries(id, from, from + STREAM_SLICE).await {
                Ok(lines) => Ok(Bytes::from(render(lines))),
                Err(e) => {
                    tracing::warn!("run {id}: the games' stream stopped: {e}");
                    Err(std::io::Error::other(e.to_string()))
                }
            };
            let failed = slice.is_err();
            if tx.send(slice).await.is_err() || failed {
                return;
            }
            from += STREAM_SLICE;
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|slice| (slice, rx))
    });
    Body::from_stream(stream)
}

/// `games.jsonl` of run `run`.
///
/// # Errors
/// The database's.
pub(crate) async fn jsonl(db: Arc<Db>, run: &RunRow) -> Result<Response, WebError> {
    let last = db.last_pair(run.id).await?;
    let body = slices(db, run.id, last, |lines| {
        let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    Ok((
        [("content-type", "application/x-ndjson; charset=utf-8")],
        body,
    )
        .into_response())
}

/// `games.pgn` of match run `run`, with the headers its config gives.
///
/// # Errors
/// The database's; [`WebError::NotFound`] for a tune (it has no games stored).
pub(crate) async fn pgn(db: Arc<Db>, run: &RunRow) -> Result<Response, WebError> {
    if run.is_tune() {
        return Err(WebError::NotFound(format!(
            "run {} is a tune: its games are not stored",
            run.id
        )));
    }
    let meta = run.meta();
    let label = PathBuf::from(format!("run {}", run.id));
    let headers = RunHead::of_stored(&label, meta)
        .map_err(|e| WebError::Failed(e.to_string()))?
        .pgn_headers();
    let last = db.last_pair(run.id).await?;
    let body = slices(db, run.id, last, move |lines| {
        // A game's PGN is about as long as its journal line.
        let mut text = String::with_capacity(lines.iter().map(String::len).sum());
        for line in lines {
            if let Ok(entry) = serde_json::from_str::<JournalEntry>(&line) {
                headers.push(&mut text, &entry);
            }
        }
        text
    });
    Ok((
        [("content-type", "application/x-chess-pgn; charset=utf-8")],
        body,
    )
        .into_response())
}
