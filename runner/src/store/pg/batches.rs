//! Batches: whole pairs claimed by a worker under a lease, renewed while it plays them,
//! given back when it stops, and submitted with their games, fenced by the claim's
//! token. The server checks the games, counts them and decides whether the run ends
//! (`xq.submit_batch`): a worker hands in games and nothing else.

use std::time::Duration;

use super::{query_error, Db, DbError};
use crate::store::journal::JournalEntry;

/// A claimed batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub run: i64,
    pub batch: i64,
    /// The fence: only this token's holder may renew or submit the batch.
    pub token: String,
    pub first_pair: u64,
    pub pairs: u64,
}

/// How a run ended, when a submit ended it: as the server decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closing {
    /// `finished` or `aborted`.
    pub state: String,
    pub status: String,
    pub exit_code: Option<u8>,
}

impl Closing {
    /// The run's state after a submit (`state`, `status`, `exit_code` of the submit
    /// functions): `None` while the run is open.
    pub(super) fn of_row(row: &tokio_postgres::Row) -> Option<Closing> {
        let state: String = row.get(0);
        (state != "open").then(|| Closing {
            state,
            status: row.get(1),
            exit_code: row
                .get::<_, Option<i32>>(2)
                .and_then(|c| u8::try_from(c).ok()),
        })
    }
}

fn seconds(d: Duration) -> f64 {
    d.as_secs_f64()
}

impl Db {
    /// Claims up to `pairs` pairs of run `run` for `worker` (see `xq.claim_batch`).
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn claim(
        &self,
        run: i64,
        worker: &str,
        pairs: u64,
        lease: Duration,
    ) -> Result<Option<Claim>, DbError> {
        let row = self
            .client()
            .query_opt(
                "SELECT batch_id, token::text, first_pair, pairs FROM xq.claim_batch($1, $2, $3, $4)",
                &[
                    &run,
                    &worker,
                    &i32::try_from(pairs).unwrap_or(i32::MAX),
                    &seconds(lease),
                ],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(row.map(|r| Claim {
            run,
            batch: r.get(0),
            token: r.get(1),
            first_pair: u64::try_from(r.get::<_, i64>(2)).unwrap_or(0),
            pairs: u64::try_from(r.get::<_, i32>(3)).unwrap_or(0),
        }))
    }

    /// Renews a lease; `false` when the batch is lost (another worker has it, or the
    /// run closed).
    ///
    /// # Errors
    /// [`DbError::Query`] (the connection broke: the lease may still be held).
    pub async fn renew(&self, claim: &Claim, lease: Duration) -> Result<bool, DbError> {
        let row = self
            .client()
            .query_one(
                "SELECT xq.renew_batch($1, $2::text::uuid, $3)",
                &[&claim.batch, &claim.token, &seconds(lease)],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(row.get(0))
    }

    /// Gives a batch back at once.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn release(&self, claim: &Claim) -> Result<(), DbError> {
        self.client()
            .execute(
                "SELECT xq.release_batch($1, $2::text::uuid)",
                &[&claim.batch, &claim.token],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(())
    }

    /// Says the worker is alive and what it works on.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn heartbeat(
        &self,
        worker: &str,
        run: Option<i64>,
        concurrency: usize,
    ) -> Result<(), DbError> {
        self.client()
            .execute(
                "SELECT xq.heartbeat($1, $2, $3, $4)",
                &[
                    &worker,
                    &run,
                    &i32::try_from(concurrency).unwrap_or(i32::MAX),
                    &env!("CARGO_PKG_VERSION"),
                ],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(())
    }

    /// Records that `worker` refuses run `run`, and why (shown by `status`).
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn refuse(&self, run: i64, worker: &str, reason: &str) -> Result<(), DbError> {
        self.client()
            .execute(
                "SELECT xq.refuse_run($1, $2, $3)",
                &[&run, &worker, &reason],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(())
    }

    /// Submits a played batch: its games, which the server checks and counts, closing
    /// the run if they end it. Returns the end, if this batch brought it.
    ///
    /// # Errors
    /// [`DbError::LeaseLost`] (another worker has the batch: nothing is stored),
    /// [`DbError::RunClosed`] (the run ended meanwhile: nothing is stored),
    /// [`DbError::Refused`] (the server refused the games: nothing is stored),
    /// [`DbError::Query`] (the connection broke: try again).
    pub async fn submit_batch(
        &self,
        claim: &Claim,
        entries: &[JournalEntry],
        busy: Duration,
    ) -> Result<Option<Closing>, DbError> {
        let lines = entries
            .iter()
            .map(serde_json::to_string)
            .collect::<Result<Vec<String>, _>>()
            .map_err(|e| DbError::Query(format!("a game that cannot be written: {e}")))?;
        let row = self
            .client()
            .query_one(
                "SELECT state, status, exit_code FROM xq.submit_batch($1, $2::text::uuid, $3, $4)",
                &[&claim.batch, &claim.token, &lines, &seconds(busy)],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(Closing::of_row(&row))
    }
}
