//! A run's games streamed from the database: `games.jsonl` (the journal lines as stored)
//! and `games.pgn` (each written as a local run's `games.pgn` writes it), a slice of
//! pairs at a time, so that a run of any length is sent without being held in memory.

use std::path::PathBuf;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::response::{IntoResponse, Response};

use super::error::WebError;
use super::run_page::SLICE;
use crate::output::report::RunHead;
use crate::store::journal::JournalEntry;
use crate::store::pg::runs::RunRow;
use crate::store::pg::Db;

/// The stored games of run `id`, each slice of pairs turned into text by `render`; the
/// stream ends after the last pair, or after the database's error (the client sees a
/// cut-off body, never half a game line).
fn slices(
    db: Arc<Db>,
    id: i64,
    last: Option<i64>,
    render: impl FnMut(Vec<String>) -> String + Send + 'static,
) -> Body {
    let start = last.map(|last| (db, 0_i64, last, render));
    let stream = futures_util::stream::unfold(start, move |state| async move {
        let (db, from, last, mut render) = state?;
        if from > last {
            return None;
        }
        match db.game_entries(id, from, from + SLICE).await {
            Ok(lines) => {
                let text = render(lines);
                Some((
                    Ok(Bytes::from(text)),
                    Some((db, from + SLICE, last, render)),
                ))
            }
            Err(e) => {
                tracing::warn!("run {id}: the games' stream stopped: {e}");
                Some((Err(std::io::Error::other(e.to_string())), None))
            }
        }
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
        let mut text = String::new();
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
