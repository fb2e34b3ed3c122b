//! A run's games streamed from the database: `games.jsonl` (the journal lines as stored)
//! and `games.pgn` (each written as a local run's `games.pgn` writes it), a slice of at
//! most [`SLICE_BYTES`] of stored text at a time, sent under back-pressure: the next
//! slice is read only once the client took the one before, so a connection holds a few
//! slices at most however large the games and however slow (or idle) its reader.

use std::path::PathBuf;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc::Sender;

use super::error::WebError;
use crate::output::pgn_headers::GameHeaders;
use crate::output::report::RunHead;
use crate::store::journal::JournalEntry;
use crate::store::pg::reader::SlicedEntry;
use crate::store::pg::runs::RunRow;
use crate::store::pg::{Db, DbError};

/// Bytes of stored text a slice holds (and a long game's piece): small enough that a
/// connection's few slices weigh little (with 8 idle readers of 1 MB games, serve went
/// from 15 MB to 386 MB when a slice was 512 pairs), large enough that a run of
/// 100,000 games of 2-3 kB is a few hundred queries.
const SLICE_BYTES: i64 = 256 << 10;

/// Games a slice holds at most (short games: the query's rows).
const SLICE_ROWS: i64 = 1024;

/// Pieces read ahead of the one being sent: one, so that the database is read while
/// the client takes the last, and no more.
const AHEAD: usize = 1;

/// What a stream makes of each stored game.
enum Render {
    /// The stored line and a newline, a long one in pieces.
    Jsonl,
    /// The game's PGN with the run's headers.
    Pgn(GameHeaders<'static>),
}

type Piece = Result<Bytes, std::io::Error>;

/// Why a stream stops early: the database's error, or a client gone away.
enum Stop {
    Db(DbError),
    Gone,
}

impl From<DbError> for Stop {
    fn from(e: DbError) -> Stop {
        Stop::Db(e)
    }
}

/// Sends `bytes` once the client took what was before; `Stop::Gone` when it left.
async fn send(tx: &Sender<Piece>, bytes: Vec<u8>) -> Result<(), Stop> {
    if bytes.is_empty() {
        return Ok(());
    }
    tx.send(Ok(Bytes::from(bytes)))
        .await
        .map_err(|_| Stop::Gone)
}

/// The text of a game longer than a slice, read a piece at a time.
struct Pieces<'a> {
    entry: &'a SlicedEntry,
    from: i64,
}

impl Pieces<'_> {
    /// The next piece; `None` past the end.
    async fn next(&mut self, db: &Db, id: i64) -> Result<Option<Vec<u8>>, Stop> {
        if self.from >= self.entry.bytes {
            return Ok(None);
        }
        let e = self.entry;
        let piece = db
            .game_entry_piece(id, (e.pair, e.game), self.from, SLICE_BYTES)
            .await?;
        if piece.is_empty() {
            return Ok(None);
        }
        self.from += i64::try_from(piece.len()).unwrap_or(i64::MAX);
        Ok(Some(piece))
    }
}

/// The whole text of a game longer than a slice (`games.pgn` must parse it whole; its
/// size is bounded by what the server stores).
async fn whole(db: &Db, id: i64, entry: &SlicedEntry) -> Result<Vec<u8>, Stop> {
    let mut text = Vec::new();
    let mut pieces = Pieces { entry, from: 0 };
    while let Some(piece) = pieces.next(db, id).await? {
        text.extend_from_slice(&piece);
    }
    Ok(text)
}

/// Sends the stored games of run `id` up to pair `last`, each turned into text by
/// `render`, a slice at a time.
async fn feed(
    db: &Db,
    id: i64,
    last: i64,
    render: &Render,
    tx: &Sender<Piece>,
) -> Result<(), Stop> {
    let mut after = None;
    loop {
        let slice = db
            .game_entries(id, after, last, SLICE_BYTES, SLICE_ROWS)
            .await?;
        let Some(end) = slice.last() else {
            return Ok(());
        };
        after = Some((end.pair, end.game));
        let mut out = Vec::new();
        for e in &slice {
            match (render, &e.text) {
                (Render::Jsonl, Some(text)) => {
                    out.extend_from_slice(text.as_bytes());
                    out.push(b'\n');
                }
                (Render::Jsonl, None) => {
                    // Over a slice: what is before goes first, then the line piece by
                    // piece, never whole in memory.
                    send(tx, std::mem::take(&mut out)).await?;
                    let mut pieces = Pieces { entry: e, from: 0 };
                    while let Some(piece) = pieces.next(db, id).await? {
                        send(tx, piece).await?;
                    }
                    out.push(b'\n');
                }
                (Render::Pgn(headers), text) => {
                    let long;
                    let line = match text {
                        Some(text) => text.as_bytes(),
                        None => {
                            long = whole(db, id, e).await?;
                            &long
                        }
                    };
                    if let Ok(entry) = serde_json::from_slice::<JournalEntry>(line) {
                        let mut pgn = String::new();
                        headers.push(&mut pgn, &entry);
                        out.extend_from_slice(pgn.as_bytes());
                    }
                }
            }
        }
        send(tx, out).await?;
    }
}

/// The stored games of run `id` up to pair `last` as a body: a task reads and renders
/// them while the body sends what is before (at most [`AHEAD`] pieces wait), and stops
/// when the client goes away. The stream ends after the last game, or after the
/// database's error (the client sees a cut-off body, never half a game line).
fn games(db: Arc<Db>, id: i64, last: Option<i64>, render: Render) -> Body {
    let (tx, rx) = tokio::sync::mpsc::channel::<Piece>(AHEAD);
    tokio::spawn(async move {
        let Some(last) = last else { return };
        if let Err(Stop::Db(e)) = feed(&db, id, last, &render, &tx).await {
            tracing::warn!("run {id}: the games' stream stopped: {e}");
            let _ = tx.send(Err(std::io::Error::other(e.to_string()))).await;
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|piece| (piece, rx))
    });
    Body::from_stream(stream)
}

/// `games.jsonl` of run `run`.
///
/// # Errors
/// The database's.
pub(crate) async fn jsonl(db: Arc<Db>, run: &RunRow) -> Result<Response, WebError> {
    let last = db.last_pair(run.id).await?;
    Ok((
        [("content-type", "application/x-ndjson; charset=utf-8")],
        games(db, run.id, last, Render::Jsonl),
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
    Ok((
        [("content-type", "application/x-chess-pgn; charset=utf-8")],
        games(db, run.id, last, Render::Pgn(headers)),
    )
        .into_response())
}
