//! Batches: whole pairs claimed by a worker under a lease, renewed while it plays them,
//! given back when it stops, and submitted with their games and the run's new counts in
//! one transaction, fenced by the claim's token.

use std::time::Duration;

use super::{query_error, Db, DbError};
use crate::store::journal::JournalEntry;
use crate::store::tracker::Counts;

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

/// How a run ends, when a submit ends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closing {
    /// `finished` or `aborted`.
    pub state: &'static str,
    pub status: String,
    pub exit_code: u8,
}

/// What a submit decides from the run's stored counts: the counts with the batch added,
/// and the run's end if this batch ends it.
#[derive(Clone, Debug)]
pub struct Decision {
    pub counts: Counts,
    pub closing: Option<Closing>,
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

    /// Submits a played batch: in one transaction, checks the fence, reads the run's
    /// counts, lets `decide` add the games and say whether the run ends, and stores the
    /// games, the counts and the end. Returns the end, if this batch brought it.
    ///
    /// # Errors
    /// [`DbError::LeaseLost`] (another worker has the batch: nothing is stored),
    /// [`DbError::RunClosed`] (the run ended meanwhile: nothing is stored),
    /// [`DbError::Query`] (the connection broke: try again).
    pub async fn submit_batch(
        &mut self,
        claim: &Claim,
        entries: &[JournalEntry],
        faults: u64,
        busy: Duration,
        decide: impl FnOnce(Counts, u64, u64) -> Decision,
    ) -> Result<Option<Closing>, DbError> {
        let q = |e: tokio_postgres::Error| query_error(&e);
        let tx = self.client.transaction().await.map_err(q)?;
        let row = tx
            .query_one(
                "SELECT counts::text, pairs_done, total_pairs FROM xq.begin_submit($1, $2::text::uuid)",
                &[&claim.batch, &claim.token],
            )
            .await
            .map_err(q)?;
        let stored: String = row.get(0);
        let counts: Counts = serde_json::from_str(&stored)
            .map_err(|e| DbError::Query(format!("run {}: counts are damaged: {e}", claim.run)))?;
        let done = u64::try_from(row.get::<_, i64>(1)).unwrap_or(0) + claim.pairs;
        let total = u64::try_from(row.get::<_, i64>(2)).unwrap_or(0);
        let decision = decide(counts, done, total);
        let pairs: Vec<i64> = entries
            .iter()
            .map(|e| i64::try_from(e.pair).unwrap_or(i64::MAX))
            .collect();
        let games: Vec<i16> = entries.iter().map(|e| i16::from(e.game)).collect();
        let lines: Vec<String> = entries
            .iter()
            .map(|e| serde_json::to_string(e).unwrap_or_default())
            .collect();
        let counts = serde_json::to_string(&decision.counts).unwrap_or_default();
        let (state, status, exit) = match &decision.closing {
            Some(c) => (c.state, c.status.as_str(), Some(i32::from(c.exit_code))),
            None => ("open", "open", None),
        };
        tx.execute(
            "SELECT xq.finish_submit($1, $2::text::uuid, $3, $4, $5, $6::text::jsonb, $7, $8, $9, $10, $11)",
            &[
                &claim.batch,
                &claim.token,
                &pairs,
                &games,
                &lines,
                &counts,
                &i64::try_from(faults).unwrap_or(i64::MAX),
                &seconds(busy),
                &state,
                &status,
                &exit,
            ],
        )
        .await
        .map_err(q)?;
        tx.commit().await.map_err(q)?;
        Ok(decision.closing)
    }
}
