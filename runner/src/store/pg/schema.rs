//! The schema: created by `db init` (or the first submit), checked at every connection,
//! and the grants that give a worker role exactly what workers need.

use tokio_postgres::GenericClient;

use super::{query_error, Db, DbError};

/// The version of the schema this runner reads and writes.
pub const VERSION: &str = "8";

/// Version 1, as a new database starts.
const SCHEMA: &str = include_str!("schema.sql");
/// Version 1 to 2: tune runs (a new database runs it right after version 1).
const TO_V2: &str = include_str!("schema_v2.sql");
/// Version 2 to 3: the server checks the games, counts them and ends the run itself.
const TO_V3: &str = include_str!("schema_v3.sql");
/// Version 3 to 4: the server makes a tune's SPSA update itself.
const TO_V4: &str = include_str!("schema_v4.sql");
/// Version 4 to 5: a batch's submit reads its own games alone, however long its run.
const TO_V5: &str = include_str!("schema_v5.sql");
/// Version 5 to 6: the trust boundary's second pass (NULL tokens, where games start and
/// how they may end, stalls, names bound to connections, entries the runner reads).
const TO_V6: &str = include_str!("schema_v6.sql");
/// Version 6 to 7: who submitted a run, and each engine's build.
const TO_V7: &str = include_str!("schema_v7.sql");
/// Version 7 to 8: the machine each worker runs on (host, OS, architecture, cores), and
/// the name each engine announced to a worker that benched it.
const TO_V8: &str = include_str!("schema_v8.sql");

/// Every step from nothing to this version: version n is made by the first n steps.
const STEPS: [&str; 8] = [SCHEMA, TO_V2, TO_V3, TO_V4, TO_V5, TO_V6, TO_V7, TO_V8];

/// The advisory lock that serializes the `init`s that create or upgrade the schema.
const INIT_LOCK: i64 = 7_100_028;

/// The longest an `init` that creates or upgrades waits for a lock (the advisory lock
/// of another `init`, or a table a session holds in an open transaction).
const INIT_LOCK_WAIT: &str = "10s";

/// Whether `version` is one `init` upgrades: an earlier one of [`STEPS`].
fn is_older(version: &str) -> bool {
    version
        .parse::<usize>()
        .is_ok_and(|v| (1..STEPS.len()).contains(&v))
}

/// What `init` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Init {
    Created,
    /// From an earlier version: the runs there keep working.
    Upgraded {
        from: String,
    },
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
        Some(v) if is_older(&v) => Err(DbError::Schema(format!(
            "the database holds xq-runner schema version {v}, this runner speaks version {VERSION}: upgrade it with `xq-runner db init --db URL` (as the role that owns it; its runs keep working)"
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
    /// Creates the schema when there is none, upgrades an earlier version to this one,
    /// and checks the version otherwise. An up-to-date schema is only read: no lock is
    /// taken, so a submit never waits for anyone (any role can take an advisory lock,
    /// and one held on the key below would have held every submit). Creating or
    /// upgrading is one transaction, the version read again under the advisory lock, so
    /// that two runners starting at once do not both do it; it waits at most 10 s for a
    /// lock, then fails saying so.
    ///
    /// # Errors
    /// [`DbError::Schema`] for another version; [`DbError::Locked`] when another session
    /// holds what it needs; [`DbError::Query`] when the schema cannot be created (no
    /// permission to create a schema in the database).
    pub async fn init(&mut self) -> Result<Init, DbError> {
        let q = |e: tokio_postgres::Error| query_error(&e);
        if stored_version(&self.client).await?.as_deref() == Some(VERSION) {
            return Ok(Init::UpToDate);
        }
        let tx = self.client.transaction().await.map_err(q)?;
        tx.batch_execute(&format!("SET LOCAL lock_timeout = '{INIT_LOCK_WAIT}'"))
            .await
            .map_err(q)?;
        // Serializes concurrent inits (the lock is the transaction's; released at its end).
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&INIT_LOCK])
            .await
            .map_err(q)?;
        let done = match stored_version(&tx).await? {
            None => {
                for step in STEPS {
                    tx.batch_execute(step).await.map_err(q)?;
                }
                Init::Created
            }
            Some(v) if is_older(&v) => {
                let from: usize = v.parse().unwrap_or(1);
                for step in &STEPS[from..] {
                    tx.batch_execute(step).await.map_err(q)?;
                }
                judge_older_runs(&tx).await?;
                seed_older_tunes(&tx).await?;
                super::game_rules::fill_older_runs(&tx).await?;
                Init::Upgraded { from: v }
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
    /// state (not the batches' tokens), and calling the batch functions. It cannot
    /// write a table, read another worker's token or a stored game.
    ///
    /// # Errors
    /// [`DbError::Query`] (an unknown role, or not the schema's owner).
    pub async fn grant_worker(&self, role: &str) -> Result<(), DbError> {
        let role = quote_identifier(role);
        let grants = format!(
            "GRANT USAGE ON SCHEMA xq TO {role};
             GRANT SELECT ON xq.meta, xq.runs, xq.workers, xq.run_workers,
                 xq.tune_records, xq.artifacts, xq.artifact_chunks, xq.run_files TO {role};
             GRANT SELECT (run_id, pair, game, batch_id, red, black, result, reason, faulted,
                 over_clock) ON xq.games TO {role};
             GRANT SELECT (id, run_id, first_pair, pairs, state, worker, claims, claimed_at,
                 lease_until, done_at, theta) ON xq.batches TO {role};
             GRANT EXECUTE ON FUNCTION xq.claim_batch(bigint, text, integer, double precision),
                 xq.renew_batch(bigint, uuid, double precision), xq.release_batch(bigint, uuid),
                 xq.submit_batch(bigint, uuid, text[], double precision),
                 xq.submit_tune_batch(bigint, uuid, text[], bigint, double precision),
                 xq.report_bench(bigint, text, jsonb),
                 xq.heartbeat(text, bigint, integer, text), xq.refuse_run(bigint, text, text),
                 xq.report_machine(text, text, text, text, integer),
                 xq.report_announced(bigint, text, jsonb)
                 TO {role};"
        );
        self.client()
            .batch_execute(&grants)
            .await
            .map_err(|e| query_error(&e))
    }
}

/// Fills what the server judges a run by (see `schema_v3.sql`) for the match runs of
/// an older version, from their configs as this runner reads them, and counts their
/// first pairing again now that its pairings are known. A run whose config no longer
/// reads is left without them: its batches are refused, with a message.
async fn judge_older_runs(tx: &tokio_postgres::Transaction<'_>) -> Result<(), DbError> {
    let q = |e: tokio_postgres::Error| query_error(&e);
    let rows = tx
        .query(
            "SELECT id, config FROM xq.runs WHERE kind = 'match' AND engines IS NULL",
            &[],
        )
        .await
        .map_err(q)?;
    for row in rows {
        let (id, config): (i64, String) = (row.get(0), row.get(1));
        let Ok(loaded) = crate::config::parse(&format!("run {id}"), &config, &[]) else {
            tracing::warn!(
                "run {id}: its config no longer reads here; its batches will be refused"
            );
            continue;
        };
        let judge = super::runs::RunJudge::of(&loaded.plan);
        tx.execute(
            "UPDATE xq.runs SET engines = $2, pairings = $3, sprt = $4::text::jsonb,
                 gate_min_elo = $5, fault_limits = $6,
                 penta = xq.first_pairing_penta(id, cardinality($3::integer[]) / 2, NULL)
             WHERE id = $1",
            &[
                &id,
                &judge.engines,
                &judge.pairings,
                &judge.sprt,
                &judge.gate_min_elo,
                &judge.fault_limits,
            ],
        )
        .await
        .map_err(q)?;
    }
    Ok(())
}

/// Gives the tune runs of an older version the seed the server now draws their flips
/// from, the seed of their config (what the workers play from). A run whose config no
/// longer reads is left without one: its batches are refused, with a message.
async fn seed_older_tunes(tx: &tokio_postgres::Transaction<'_>) -> Result<(), DbError> {
    let q = |e: tokio_postgres::Error| query_error(&e);
    let rows = tx
        .query(
            "SELECT id, config FROM xq.runs WHERE kind = 'tune' AND NOT tune ? 'seed'",
            &[],
        )
        .await
        .map_err(q)?;
    for row in rows {
        let (id, config): (i64, String) = (row.get(0), row.get(1));
        let name = format!("run {id} (stored config)");
        let Ok(tune) = crate::tune::config::parse(&name, &config, &[], Vec::new()) else {
            tracing::warn!(
                "run {id}: its config no longer reads here; its batches will be refused"
            );
            continue;
        };
        tx.execute(
            "UPDATE xq.runs SET tune = jsonb_set(tune, '{seed}', $2::text::jsonb) WHERE id = $1",
            &[&id, &tune.plan.seed.to_string()],
        )
        .await
        .map_err(q)?;
    }
    Ok(())
}

/// A role name as an SQL identifier.
pub(super) fn quote_identifier(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
