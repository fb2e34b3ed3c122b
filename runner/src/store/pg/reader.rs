//! The reader role of `serve`: what `db init --reader-role` grants (reading the runs,
//! their games and the workers, nothing else), the check that a role cannot write
//! (`serve` refuses one that can), and the reads only the pages need (every worker
//! seen, a run's stored games a slice at a time).

use super::{query_error, Db, DbError};

/// One worker as the workers page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerSeen {
    pub name: String,
    pub version: String,
    pub concurrency: i32,
    /// Seconds since it was last heard of.
    pub seen_s_ago: f64,
    /// The run it last played.
    pub run_id: Option<i64>,
    /// The runs it played for, by id.
    pub runs: Vec<i64>,
    pub games: u64,
    /// Wall time it spent on batches, summed over its batches of every run.
    pub busy_s: f64,
}

/// The first privilege found that lets the connected role write the schema, as a
/// message (`INSERT on xq.runs`), in the order a user would look for it: superuser,
/// owner, a table, a sequence, a function (every function of the schema writes).
const WRITE_PRIVILEGE: &str = "
    SELECT 'superuser' FROM pg_roles WHERE rolname = current_user AND rolsuper
    UNION ALL
    SELECT 'owner of schema xq' FROM pg_namespace
        WHERE nspname = 'xq' AND pg_has_role(nspowner, 'USAGE')
    UNION ALL
    SELECT 'CREATE on schema xq' FROM pg_namespace
        WHERE nspname = 'xq' AND has_schema_privilege(oid, 'CREATE')
    UNION ALL
    SELECT p || ' on ' || c.oid::regclass::text
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
             unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) AS p
        WHERE n.nspname = 'xq' AND c.relkind IN ('r', 'p') AND has_table_privilege(c.oid, p)
    UNION ALL
    SELECT 'UPDATE on sequence ' || c.oid::regclass::text
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        -- CASE: the planner may test the privilege before the kind, and only a
        -- sequence has a sequence's privileges.
        WHERE n.nspname = 'xq'
            AND CASE WHEN c.relkind = 'S' THEN has_sequence_privilege(c.oid, 'USAGE,UPDATE') END
    UNION ALL
    SELECT 'EXECUTE on ' || p.oid::regprocedure::text
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'xq' AND has_function_privilege(p.oid, 'EXECUTE')
    LIMIT 1";

impl Db {
    /// Gives `role` what the pages of `serve` read and nothing more: the runs, their
    /// games, the workers and the tune records; the batches without their tokens (which
    /// would let it submit in a worker's name). It can call no function and write nothing.
    ///
    /// # Errors
    /// [`DbError::Query`] (an unknown role, or not the schema's owner).
    pub async fn grant_reader(&self, role: &str) -> Result<(), DbError> {
        let role = super::schema::quote_identifier(role);
        let grants = format!(
            "GRANT USAGE ON SCHEMA xq TO {role};
             GRANT SELECT ON xq.meta, xq.runs, xq.games, xq.workers, xq.run_workers,
                 xq.tune_records TO {role};
             GRANT SELECT (id, run_id, first_pair, pairs, state, worker, claims, claimed_at,
                 lease_until, done_at, theta) ON xq.batches TO {role};"
        );
        self.client()
            .batch_execute(&grants)
            .await
            .map_err(|e| query_error(&e))
    }

    /// The connected role's first privilege that writes the schema (see
    /// [`WRITE_PRIVILEGE`]); `None` for a role that can only read.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn write_privilege(&self) -> Result<Option<String>, DbError> {
        let row = self
            .client()
            .query_opt(WRITE_PRIVILEGE, &[])
            .await
            .map_err(|e| query_error(&e))?;
        Ok(row.map(|r| r.get(0)))
    }

    /// The connected role's name, for messages.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn current_role(&self) -> Result<String, DbError> {
        let row = self
            .client()
            .query_one("SELECT current_user::text", &[])
            .await
            .map_err(|e| query_error(&e))?;
        Ok(row.get(0))
    }

    /// Every worker seen, by name, with what it played for every run.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn workers_seen(&self) -> Result<Vec<WorkerSeen>, DbError> {
        let rows = self
            .client()
            .query(
                "SELECT k.name, k.version, k.concurrency,
                        extract(epoch from now() - k.last_seen)::float8, k.run_id,
                        coalesce(array_agg(w.run_id ORDER BY w.run_id)
                                 FILTER (WHERE w.run_id IS NOT NULL), '{}'),
                        coalesce(sum(w.games), 0)::int8, coalesce(sum(w.busy_s), 0)::float8
                 FROM xq.workers k LEFT JOIN xq.run_workers w ON w.worker = k.name
                 GROUP BY k.name ORDER BY k.name",
                &[],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(rows
            .iter()
            .map(|r| WorkerSeen {
                name: r.get(0),
                version: r.get(1),
                concurrency: r.get(2),
                seen_s_ago: r.get(3),
                run_id: r.get(4),
                runs: r.get(5),
                games: u64::try_from(r.get::<_, i64>(6)).unwrap_or(0),
                busy_s: r.get(7),
            })
            .collect())
    }

    /// The stored games of run `id` with pairs in `from..to`, as journal lines in pair and
    /// game order: a stream reads a long run one slice at a time.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn game_entries(&self, id: i64, from: i64, to: i64) -> Result<Vec<String>, DbError> {
        let rows = self
            .client()
            .query(
                "SELECT entry FROM xq.games WHERE run_id = $1 AND pair >= $2 AND pair < $3 AND result IS NOT NULL
                 ORDER BY pair, game",
                &[&id, &from, &to],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// The largest pair of run `id` with a stored game (`None` without one).
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn last_pair(&self, id: i64) -> Result<Option<i64>, DbError> {
        let row = self
            .client()
            .query_one("SELECT max(pair) FROM xq.games WHERE run_id = $1", &[&id])
            .await
            .map_err(|e| query_error(&e))?;
        Ok(row.get(0))
    }
}

impl Db {
    /// Seconds since each run was submitted, by id.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn submitted_s_ago(&self) -> Result<std::collections::HashMap<i64, f64>, DbError> {
        let rows = self
            .client()
            .query(
                "SELECT id, extract(epoch from now() - created_at)::float8 FROM xq.runs",
                &[],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }
}
