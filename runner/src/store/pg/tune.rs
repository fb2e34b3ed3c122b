//! Tune runs in the database: the SPSA state in the run's row (JSON, read and written
//! whole by the fleet's tune code), and a played batch of iterations submitted with the
//! new state in one transaction, under the run's row lock and fenced by the claim's
//! token, so that every iteration updates theta once, or not at all.

use std::time::Duration;

use super::batches::{Claim, Closing};
use super::{query_error, Db, DbError};

/// What a tune submit decides from the state stored when it commits.
#[derive(Clone, Debug)]
pub struct TuneDecision {
    /// The iteration numbers of the batch, in the order they were applied.
    pub iterations: Vec<u64>,
    /// Their journal lines, in the same order.
    pub records: Vec<String>,
    /// The new state.
    pub state: String,
    pub closing: Option<Closing>,
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

    /// Submits a played tune batch: in one transaction, checks the fence and locks the
    /// run (`xq.begin_submit`), reads the state as it is now, lets `decide` apply the
    /// batch's results to it, and stores the records and the new state
    /// (`xq.finish_tune_submit`). Returns the end, if this batch brought it.
    ///
    /// # Errors
    /// [`DbError::LeaseLost`], [`DbError::RunClosed`] (nothing is stored),
    /// [`DbError::Query`] (the connection broke: try again; or `decide` refused the
    /// stored state).
    pub async fn submit_tune_batch(
        &mut self,
        claim: &Claim,
        faults: u64,
        busy: Duration,
        decide: impl FnOnce(&str, u64, u64) -> Result<TuneDecision, String>,
    ) -> Result<Option<Closing>, DbError> {
        let q = |e: tokio_postgres::Error| query_error(&e);
        let tx = self.client.transaction().await.map_err(q)?;
        let row = tx
            .query_one(
                "SELECT pairs_done, total_pairs FROM xq.begin_submit($1, $2::text::uuid)",
                &[&claim.batch, &claim.token],
            )
            .await
            .map_err(q)?;
        let done = u64::try_from(row.get::<_, i64>(0)).unwrap_or(0) + claim.pairs;
        let total = u64::try_from(row.get::<_, i64>(1)).unwrap_or(0);
        // The run's row is locked by begin_submit: nobody moves theta until the commit.
        let stored: Option<String> = tx
            .query_one(
                "SELECT tune::text FROM xq.runs WHERE id = $1",
                &[&claim.run],
            )
            .await
            .map_err(q)?
            .get(0);
        let stored =
            stored.ok_or_else(|| DbError::Query(format!("run {} is not a tune", claim.run)))?;
        let decision = decide(&stored, done, total)
            .map_err(|why| DbError::Query(format!("run {}: {why}", claim.run)))?;
        let iterations: Vec<i64> = decision.iterations.iter().map(|&k| signed(k)).collect();
        let (state, status, exit) = match &decision.closing {
            Some(c) => (c.state, c.status.as_str(), Some(i32::from(c.exit_code))),
            None => ("open", "open", None),
        };
        tx.execute(
            "SELECT xq.finish_tune_submit($1, $2::text::uuid, $3, $4, $5::text::jsonb, $6, $7, $8, $9, $10)",
            &[
                &claim.batch,
                &claim.token,
                &iterations,
                &decision.records,
                &decision.state,
                &signed(faults),
                &busy.as_secs_f64(),
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
