//! Tune runs in the database: the SPSA state in the run's row (JSON, written by the
//! server), theta as it was when each batch was claimed (the values its iterations
//! play), and a played batch submitted as the two games of each iteration: the server
//! draws the flips, writes the records and moves theta (`schema_v4.sql`), under the
//! run's row lock and fenced by the claim's token, so that every iteration updates theta
//! once, or not at all.

use std::time::Duration;

use super::batches::{Claim, Closing};
use super::{query_error, Db, DbError};

fn signed(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Db {
    /// theta as it was when `claim` was made: what its iterations play.
    ///
    /// # Errors
    /// [`DbError::LeaseLost`] when the batch is gone; [`DbError::Query`], also for a
    /// batch of a match run.
    pub async fn batch_theta(&self, claim: &Claim) -> Result<Vec<f64>, DbError> {
        let row = self
            .client()
            .query_opt(
                "SELECT theta FROM xq.batches WHERE id = $1",
                &[&claim.batch],
            )
            .await
            .map_err(|e| query_error(&e))?
            .ok_or_else(|| DbError::LeaseLost(format!("batch {} is gone", claim.batch)))?;
        row.get::<_, Option<Vec<f64>>>(0)
            .ok_or_else(|| DbError::Query(format!("batch {} has no theta", claim.batch)))
    }

    /// Submits a played tune batch: each iteration's two games from the theta+ side
    /// (`"WL"`), in the order of the batch's iterations (`xq.submit_tune_batch`, fenced by
    /// the claim's token). Returns the end, if this batch brought it.
    ///
    /// # Errors
    /// [`DbError::LeaseLost`], [`DbError::RunClosed`], [`DbError::Refused`] (nothing is
    /// stored), [`DbError::Query`] (the connection broke: try again).
    pub async fn submit_tune_batch(
        &self,
        claim: &Claim,
        games: &[String],
        faults: u64,
        busy: Duration,
    ) -> Result<Option<Closing>, DbError> {
        let row = self
            .client()
            .query_one(
                "SELECT state, status, exit_code FROM xq.submit_tune_batch($1, $2::text::uuid,
                     $3, $4, $5)",
                &[
                    &claim.batch,
                    &claim.token,
                    &games,
                    &signed(faults),
                    &busy.as_secs_f64(),
                ],
            )
            .await
            .map_err(|e| query_error(&e))?;
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
