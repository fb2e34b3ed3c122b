//! What `serve` reads to keep a run's state up to date without reading it all again:
//! the run's committed batches (a batch commits all its games at once), and the games
//! of the pairs of the batches it has not seen yet, with their facts and journal lines.

use tokio_postgres::Row;

use super::{query_error, Db, DbError};
use crate::game::{EndReason, Outcome};
use crate::store::tracker::GameFacts;

/// A committed batch of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoneBatch {
    pub id: i64,
    pub first_pair: i64,
    pub pairs: i64,
    /// When it was done, in microseconds since the epoch: a batch purged and played
    /// again keeps its id but not this.
    pub done_us: i64,
}

/// A stored game: the facts the server checked, and its journal line.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub facts: GameFacts,
    pub entry: String,
}

/// The facts of a row `pair, game, result, reason, faulted, over_clock::text, ...`;
/// `None` for a game stored before the server checked games (its entry is no entry).
pub(crate) fn facts_of(row: &Row) -> Option<GameFacts> {
    let result: &str = row.get(2);
    let reason: &str = row.get(3);
    Some(GameFacts {
        pair: u64::try_from(row.get::<_, i64>(0)).ok()?,
        game: u8::try_from(row.get::<_, i16>(1)).ok()?,
        result: Outcome::from_pgn(result)?,
        reason: EndReason::from_code(reason)?,
        faulted: row.get(4),
        over_clock: row
            .get::<_, Option<&str>>(5)
            .and_then(|text| serde_json::from_str(text).ok())
            .unwrap_or_default(),
    })
}

impl Db {
    /// The committed batches of run `id`.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn done_batches(&self, id: i64) -> Result<Vec<DoneBatch>, DbError> {
        let rows = self
            .client()
            .query(
                "SELECT id, first_pair, pairs::int8, (extract(epoch FROM done_at) * 1e6)::int8
                 FROM xq.batches WHERE run_id = $1 AND state = 'done' AND done_at IS NOT NULL",
                &[&id],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(rows
            .iter()
            .map(|r| DoneBatch {
                id: r.get(0),
                first_pair: r.get(1),
                pairs: r.get(2),
                done_us: r.get(3),
            })
            .collect())
    }

    /// The checked games of run `id` with pairs in `from..to`, in pair and game order
    /// (a batch holds a range of pairs: those of the batches not seen yet).
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn stored_games(
        &self,
        id: i64,
        from: i64,
        to: i64,
    ) -> Result<Vec<StoredGame>, DbError> {
        let rows = self
            .client()
            .query(
                "SELECT pair, game, result, reason, faulted, over_clock::text, entry FROM xq.games
                 WHERE run_id = $1 AND pair >= $2 AND pair < $3 AND result IS NOT NULL
                 ORDER BY pair, game",
                &[&id, &from, &to],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(rows
            .iter()
            .filter_map(|row| {
                Some(StoredGame {
                    facts: facts_of(row)?,
                    entry: row.get(6),
                })
            })
            .collect())
    }
}
