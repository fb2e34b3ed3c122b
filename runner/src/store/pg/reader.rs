//! The reader role of `serve`: what `db init --reader-role` grants (reading the runs,
//! their games and the workers, nothing else), the check that a role cannot write
//! (`serve` refuses one that can), and the reads only the pages need (every worker
//! seen, a run's stored games a slice at a time).

use super::{query_error, Db, DbError};

/// A stored game in a slice of a run's games ([`Db::game_entries`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SlicedEntry {
    pub pair: i64,
    pub game: i16,
    /// Bytes of its text.
    pub bytes: i64,
    /// Its text (the journal line); `None` when over the slice's budget.
    pub text: Option<String>,
}

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
    /// Its machine, as it reported it (`None` for a worker of an older runner).
    pub host: Option<String>,
    pub os: Option<String>,
    pub arch: Option<String>,
    pub cores: Option<i32>,
    /// Its last bench: the mean nodes per second of the engines it measured for the
    /// last run it benched; `None` when it never measured one.
    pub bench_nps: Option<f64>,
}

/// The first right found that lets the connected role write the schema, as a message
/// (`INSERT on xq.runs`), in the order a user would look for it: the role's attributes,
/// ownership, then each kind of privilege. Not only the role's own rights count but
/// those of every role it is a member of, inheriting or not: `SET ROLE` takes them
/// (that one is named, `member of xq_owner (SET ROLE xq_owner): owner of schema xq`).
/// A column-level grant writes as a table's does; CREATEROLE can grant itself any
/// role; the predefined roles that write files or run programs on the server write
/// anything; BYPASSRLS and REPLICATION have no place in a reader either.
const WRITE_PRIVILEGE: &str = "
    WITH acting AS (
        SELECT r.oid, r.rolname, r.rolsuper, r.rolcreaterole, r.rolbypassrls,
               r.rolreplication, r.rolname = current_user AS me
        FROM pg_roles r WHERE pg_has_role(current_user, r.oid, 'MEMBER')
    ), xq AS (
        SELECT oid, nspowner FROM pg_namespace WHERE nspname = 'xq'
    ), found (me, k, role, what) AS (
        SELECT me, 0, rolname, 'superuser' FROM acting WHERE rolsuper
        UNION ALL
        SELECT me, 1, rolname, 'CREATEROLE: it can grant itself any role'
            FROM acting WHERE rolcreaterole
        UNION ALL
        SELECT me, 2, rolname, 'BYPASSRLS' FROM acting WHERE rolbypassrls
        UNION ALL
        SELECT me, 3, rolname, 'REPLICATION' FROM acting WHERE rolreplication
        UNION ALL
        SELECT me, 4, rolname, 'writes files or runs programs on the server'
            FROM acting WHERE rolname IN ('pg_write_server_files', 'pg_execute_server_program')
        UNION ALL
        SELECT a.me, 5, a.rolname, 'owner of schema xq' FROM acting a JOIN xq ON xq.nspowner = a.oid
        UNION ALL
        SELECT a.me, 6, a.rolname, 'owner of ' || c.oid::regclass::text
            FROM acting a JOIN pg_class c ON c.relowner = a.oid JOIN xq ON c.relnamespace = xq.oid
        UNION ALL
        SELECT a.me, 6, a.rolname, 'owner of ' || p.oid::regprocedure::text
            FROM acting a JOIN pg_proc p ON p.proowner = a.oid JOIN xq ON p.pronamespace = xq.oid
        UNION ALL
        SELECT a.me, 7, a.rolname, 'CREATE on schema xq'
            FROM acting a, xq WHERE has_schema_privilege(a.oid, xq.oid, 'CREATE')
        UNION ALL
        SELECT a.me, 8, a.rolname, p || ' on ' || c.oid::regclass::text
            FROM acting a, pg_class c JOIN xq ON c.relnamespace = xq.oid,
                 unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER']) AS p
            WHERE c.relkind IN ('r', 'p') AND has_table_privilege(a.oid, c.oid, p)
        UNION ALL
        SELECT a.me, 9, a.rolname,
               p || ' on column ' || quote_ident(t.attname) || ' of ' || c.oid::regclass::text
            FROM acting a, pg_class c JOIN xq ON c.relnamespace = xq.oid
                 JOIN pg_attribute t ON t.attrelid = c.oid,
                 unnest(ARRAY['INSERT', 'UPDATE']) AS p
            WHERE c.relkind IN ('r', 'p') AND t.attnum > 0 AND NOT t.attisdropped
                AND has_column_privilege(a.oid, c.oid, t.attnum, p)
        UNION ALL
        SELECT a.me, 10, a.rolname, 'UPDATE on sequence ' || c.oid::regclass::text
            FROM acting a, pg_class c JOIN xq ON c.relnamespace = xq.oid
            -- CASE: the planner may test the privilege before the kind, and only a
            -- sequence has a sequence's privileges.
            WHERE CASE WHEN c.relkind = 'S'
                THEN has_sequence_privilege(a.oid, c.oid, 'USAGE,UPDATE') END
        UNION ALL
        SELECT a.me, 11, a.rolname, 'EXECUTE on ' || p.oid::regprocedure::text
            FROM acting a, pg_proc p JOIN xq ON p.pronamespace = xq.oid
            WHERE has_function_privilege(a.oid, p.oid, 'EXECUTE')
    )
    SELECT CASE WHEN me THEN what
                ELSE 'member of ' || quote_ident(role) || ' (SET ROLE ' || quote_ident(role)
                     || '): ' || what END
    FROM found ORDER BY me DESC, k, what
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
                        coalesce(sum(w.games), 0)::int8, coalesce(sum(w.busy_s), 0)::float8,
                        k.host, k.os, k.arch, k.cores,
                        (SELECT avg(e.value::float8)
                         FROM xq.run_workers AS b, jsonb_each_text(b.bench) AS e
                         WHERE b.worker = k.name AND b.run_id = (
                             SELECT l.run_id FROM xq.run_workers AS l
                             WHERE l.worker = k.name AND l.bench IS NOT NULL
                             ORDER BY l.last_at DESC, l.run_id DESC LIMIT 1))
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
                host: r.get(8),
                os: r.get(9),
                arch: r.get(10),
                cores: r.get(11),
                bench_nps: r.get(12),
            })
            .collect())
    }

    /// The next stored games of run `id` after the game `after` (pair and game; `None`
    /// for the start), up to pair `last`, in pair and game order, as few as hold about
    /// `budget` bytes of text (at least one game, at most `rows`): a stream reads a run
    /// a slice of bounded size at a time, however long its games. A game longer than
    /// `budget` comes without its text, to be read in pieces ([`Db::game_entry_piece`]).
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn game_entries(
        &self,
        id: i64,
        after: Option<(i64, i16)>,
        last: i64,
        budget: i64,
        rows: i64,
    ) -> Result<Vec<SlicedEntry>, DbError> {
        let (pair, game) = after.unwrap_or((-1, 1));
        // The sizes are read without the texts (`octet_length` of a stored text reads
        // its header); a text is sent only for the games the slice keeps.
        let found = self
            .client()
            .query(
                "SELECT pair, game, size, CASE WHEN size <= $5 THEN entry END
                 FROM (SELECT pair, game, entry, octet_length(entry)::int8 AS size,
                              sum(octet_length(entry)) OVER (ORDER BY pair, game) AS upto
                       FROM (SELECT pair, game, entry FROM xq.games
                             WHERE run_id = $1 AND (pair, game) > ($2, $3) AND pair <= $4
                                 AND result IS NOT NULL
                             ORDER BY pair, game LIMIT $6) k) w
                 WHERE upto - size < $5
                 ORDER BY pair, game",
                &[&id, &pair, &game, &last, &budget, &rows],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(found
            .iter()
            .map(|r| SlicedEntry {
                pair: r.get(0),
                game: r.get(1),
                bytes: r.get(2),
                text: r.get(3),
            })
            .collect())
    }

    /// The bytes `from..from + len` (0-based) of the stored text of game `game` of pair
    /// `pair` of run `id`: a long game's text read a piece at a time.
    ///
    /// # Errors
    /// [`DbError::Query`]; [`DbError::Query`] too when the game is gone (purged).
    pub async fn game_entry_piece(
        &self,
        id: i64,
        (pair, game): (i64, i16),
        from: i64,
        len: i64,
    ) -> Result<Vec<u8>, DbError> {
        let row = self
            .client()
            .query_opt(
                "SELECT substring(convert_to(entry, 'UTF8') FROM $4::int8::int4 + 1 FOR $5::int8::int4)
                 FROM xq.games WHERE run_id = $1 AND pair = $2 AND game = $3",
                &[&id, &pair, &game, &from, &len],
            )
            .await
            .map_err(|e| query_error(&e))?;
        row.map(|r| r.get(0))
            .ok_or_else(|| DbError::Query(format!("run {id}: pair {pair} game {game} is gone")))
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
