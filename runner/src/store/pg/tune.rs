//! Tune runs in the database: the SPSA state in the run's row (JSON, read and written
//! whole by the fleet's tune code), and a played batch of iterations submitted with the
//! new state in one transaction, under the run's row lock and fenced by the claim's
//! token, so that every iteration updates theta once, or not at all. The server checks
//! that the new state keeps the run's parameters and keeps theta in range, and ends the
//! run itself after its last iteration.

use std::time::Duration;

use super::batches::{Claim, Closing};
use super::{query_error, Db, DbError};

/// What a tune submit makes of the state stored when it commits.
#[derive(Clone, Debug)]
pub struct TuneDecision {
    /// The iteration numbers of the batch, in the order they were applied.
    pub iterations: Vec<u64>,
    /// Their journal lines, in the same order.
    pub records: Vec<String>,
    /// The new state.
    pub state: String,
}

fn signed(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Db {
    /// A tune run's state as it is now (`None` for a match run).
    ///
    /// # Errors
    /// [`DbError::NoRun`], [`DbError::Query`].
    pub async fn tune_state(&self, run: i64) -> Result<Option<String>, DbError> {
        let row = self
            .client()
            .query_opt("SELECT tune::text FROM xq.runs WHERE id = $1", &[&run])
            .await
            .map_err(|e| query_error(&e))?
            .ok_or(DbError::NoRun(run))?;
        Ok(row.get(0))
    }

    /// Submits a played tune batch: in one transaction, locks the run, reads the state
    /// as it is now, lets `decide` apply the batch's results to it, and stores the
    /// records and the new state (`xq.submit_tune_batch`, fenced by the claim's token).
    /// Returns the end, if this batch brought it.
    ///
    /// # Errors
    /// [`DbError::LeaseLost`], [`DbError::RunClosed`], [`DbError::Refused`] (nothing is
    /// stored), [`DbError::Query`] (the connection broke: try again; or `decide`
    /// refused the stored state).
    pub async fn submit_tune_batch(
        &mut self,
        claim: &Claim,
        faults: u64,
        busy: Duration,
        decide: impl FnOnce(&str) -> Result<TuneDecision, String>,
    ) -> Result<Option<Closing>, DbError> {
        let q = |e: tokio_postgres::Error| query_error(&e);
        let tx = self.client.transaction().await.map_err(q)?;
        // The run's row stays locked until the commit: nobody moves theta meanwhile.
        let stored: Option<String> = tx
            .query_one(
                "SELECT xq.begin_tune_submit($1, $2::text::uuid)",
                &[&claim.batch, &claim.token],
            )
            .await
            .map_err(q)?
            .get(0);
        let stored =
            stored.ok_or_else(|| DbError::Query(format!("run {} is not a tune", claim.run)))?;
        let decision =
            decide(&stored).map_err(|why| DbError::Query(format!("run {}: {why}", claim.run)))?;
        let iterations: Vec<i64> = decision.iterations.iter().map(|&k| signed(k)).collect();
        let row = tx
            .query_one(
                "SELECT state, status, exit_code FROM xq.submit_tune_batch($1, $2::text::uuid,
                     $3, $4, $5::text::jsonb, $6, $7)",
                &[
                    &claim.batch,
                    &claim.token,
                    &iterations,
                    &decision.records,
                    &decision.state,
                    &signed(faults),
                    &busy.as_secs_f64(),
                ],
            )
            .await
            .map_err(q)?;
        tx.commit().await.map_err(q)?;
        Ok(Closing::of_row(&row))
    }

    /// Every record of a tune run in the order its results were applied to theta (the
    /// order of a local tune's journal), read a slice at a time.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn tune_records(&self, run: i64, mut each: impl FnMut(&str)) -> Result<u64, DbError> {
        const SLICE: i64 = 4096;
        let mut count = 0u64;
        let mut after = 0i64;
        loop {
            let rows = self
                .client()
                .query(
                    "SELECT applied, record FROM xq.tune_records WHERE run_id = $1 AND applied > $2
                     ORDER BY applied LIMIT $3",
                    &[&run, &after, &SLICE],
                )
                .await
                .map_err(|e| query_error(&e))?;
            let Some(last) = rows.last() else {
                return Ok(count);
            };
            after = last.get(0);
            for row in &rows {
                each(row.get::<_, &str>(1));
                count += 1;
            }
        }
    }
}
