//! The schema: created by `db init` (or the first submit), checked at every connection,
//! and the grants that give a worker role exactly what workers need.

use tokio_postgres::error::SqlState;
use tokio_postgres::Client;

use super::{query_error, Db, DbError};

/// The version of the schema this runner reads and writes.
pub const VERSION: &str = "1";

const SCHEMA: &str = include_str!("schema.sql");

/// The version stored in the database; `None` when there is no schema.
async fn stored_version(client: &Client) -> Result<Option<String>, DbError> {
    match client
        .query_opt(
            "SELECT value FROM xq.meta WHERE key = 'schema_version'",
            &[],
        )
        .await
    {
        Ok(row) => Ok(row.map(|r| r.get(0))),
        Err(e) if e.code() == Some(&SqlState::UNDEFINED_TABLE) => Ok(None),
        Err(e) if e.code() == Some(&SqlState::INVALID_SCHEMA_NAME) => Ok(None),
        Err(e) => Err(query_error(&e)),
    }
}

/// Checks that the database holds this runner's schema version.
///
/// # Errors
/// [`DbError::Schema`] naming what to do.
pub async fn check(client: &Client) -> Result<(), DbError> {
    match stored_version(client).await? {
        Some(v) if v == VERSION => Ok(()),
        Some(v) => Err(DbError::Schema(format!(
            "the database holds xq-runner schema version {v}, this runner speaks version {VERSION}: run the runner of that version, or upgrade every runner together"
        ))),
        None => Err(DbError::Schema(
            "the database has no xq-runner schema: create it with `xq-runner db init --db URL` (as the role that will own it)".to_owned(),
        )),
    }
}

impl Db {
    /// Creates the schema when there is none (and says whether it did), and checks the
    /// version otherwise.
    ///
    /// # Errors
    /// [`DbError::Schema`] for another version; [`DbError::Query`] when the schema
    /// cannot be created (no permission to create a schema in the database).
    pub async fn init(&self) -> Result<bool, DbError> {
        if stored_version(self.client()).await?.is_some() {
            check(self.client()).await?;
            return Ok(false);
        }
        self.client()
            .batch_execute(&format!("BEGIN; {SCHEMA} COMMIT;"))
            .await
            .map_err(|e| query_error(&e))?;
        Ok(true)
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
             GRANT SELECT ON xq.meta, xq.runs, xq.batches, xq.workers, xq.run_workers TO {role};
             GRANT EXECUTE ON FUNCTION xq.claim_batch(bigint, text, integer, double precision),
                 xq.renew_batch(bigint, uuid, double precision), xq.release_batch(bigint, uuid),
                 xq.begin_submit(bigint, uuid),
                 xq.finish_submit(bigint, uuid, bigint[], smallint[], text[], jsonb, bigint,
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
