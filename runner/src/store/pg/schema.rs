//! The schema: created by `db init` (or the first submit), checked at every connection,
//! and the grants that give a worker role exactly what workers need.

use tokio_postgres::GenericClient;

use super::{query_error, Db, DbError};

/// The version of the schema this runner reads and writes.
pub const VERSION: &str = "2";

/// Version 1, as a new database starts.
const SCHEMA: &str = include_str!("schema.sql");
/// Version 1 to 2: tune runs (a new database runs it right after version 1).
const TO_V2: &str = include_str!("schema_v2.sql");

/// What `init` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    Created,
    /// From version 1: the runs there keep working.
    Upgraded,
    UpToDate,
}

/// The version stored in the database; `None` when there is no schema. (Asked without
/// an error when there is none: an error would end the transaction of `init`.)
async fn stored_version(client: &impl GenericClient) -> Result<Option<String>, DbError> {
    let exists: bool = client
        .query_one("SELECT to_regclass('xq.meta') IS NOT NULL", &[])
        .await
        .map_err(|e| query_error(&e))?
        .get(0);
    if !exists {
        return Ok(None);
    }
    let row = client
        .query_opt(
            "SELECT value FROM xq.meta WHERE key = 'schema_version'",
            &[],
        )
        .await
        .map_err(|e| query_error(&e))?;
    Ok(row.map(|r| r.get(0)))
}

/// Checks that the database holds this runner's schema version.
///
/// # Errors
/// [`DbError::Schema`] naming what to do.
pub async fn check(client: &impl GenericClient) -> Result<(), DbError> {
    match stored_version(client).await? {
        Some(v) if v == VERSION => Ok(()),
        Some(v) if v == "1" => Err(DbError::Schema(format!(
            "the database holds xq-runner schema version 1, this runner speaks version {VERSION}: upgrade it with `xq-runner db init --db URL` (as the role that owns it; its runs keep working)"
        ))),
        Some(v) => Err(DbError::Schema(format!(
            "the database holds xq-runner schema version {v}, this runner speaks version {VERSION}: run the runner of that version, or upgrade every runner together"
        ))),
        None => Err(DbError::Schema(
            "the database has no xq-runner schema: create it with `xq-runner db init --db URL` (as the role that will own it)".to_owned(),
        )),
    }
}

impl Db {
    /// Creates the schema when there is none, upgrades version 1 to this version, and
    /// checks the version otherwise. One transaction, the version read under a lock, so
    /// that two runners starting at once do not both create or upgrade it.
    ///
    /// # Errors
    /// [`DbError::Schema`] for another version; [`DbError::Query`] when the schema
    /// cannot be created (no permission to create a schema in the database).
    pub async fn init(&mut self) -> Result<Init, DbError> {
        let q = |e: tokio_postgres::Error| query_error(&e);
        let tx = self.client.transaction().await.map_err(q)?;
        // Serializes concurrent inits (the lock is the transaction's; released at its end).
        tx.execute("SELECT pg_advisory_xact_lock(7100028)", &[])
            .await
            .map_err(q)?;
        let done = match stored_version(&tx).await? {
            None => {
                tx.batch_execute(SCHEMA).await.map_err(q)?;
                tx.batch_execute(TO_V2).await.map_err(q)?;
                Init::Created
            }
            Some(v) if v == "1" => {
                tx.batch_execute(TO_V2).await.map_err(q)?;
                Init::Upgraded
            }
            Some(_) => {
                check(&tx).await?;
                Init::UpToDate
            }
        };
        tx.commit().await.map_err(q)?;
        Ok(done)
    }

    /// Gives `role` what a worker needs and nothing more: reading the runs and their
    /// state, and calling the batch functions. It cannot write a table.
    ///
    /// # Errors
    /// [`DbError::Query`] (an unknown role, or not the schema's owner).
    pub async fn grant_worker(&self, role: &str) -> Result<(), DbError> {
        let role = quote_identifier(role);
        let grants = format!(
            "GRANT USAGE ON SCHEMA xq TO {role};
             GRANT SELECT ON xq.meta, xq.runs, xq.batches, xq.workers, xq.run_workers,
                 xq.tune_records TO {role};
             GRANT EXECUTE ON FUNCTION xq.claim_batch(bigint, text, integer, double precision),
                 xq.renew_batch(bigint, uuid, double precision), xq.release_batch(bigint, uuid),
                 xq.begin_submit(bigint, uuid),
                 xq.finish_submit(bigint, uuid, bigint[], smallint[], text[], jsonb, bigint,
                                  double precision, text, text, integer),
                 xq.finish_tune_submit(bigint, uuid, bigint[], text[], jsonb, bigint,
                                       double precision, text, text, integer),
                 xq.heartbeat(text, bigint, integer, text), xq.refuse_run(bigint, text, text)
                 TO {role};"
        );
        self.client()
            .batch_execute(&grants)
            .await
            .map_err(|e| query_error(&e))
    }
}

/// A role name as an SQL identifier.
fn quote_identifier(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
