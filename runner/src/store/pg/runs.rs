//! Runs in the database: submit, cancel, read one or all, the pairs claimed, the workers
//! of a run, the facts of its games (for its counts) and its games in order (for
//! `report`).

use std::collections::BTreeMap;

use tokio_postgres::Row;

use super::{query_error, Db, DbError};
use crate::config::Plan;
use crate::store::tracker::GameFacts;

/// What the server judges a match run by (`schema_v3.sql`): written by the owner at
/// submit, never by a worker.
#[derive(Clone, Debug, PartialEq)]
pub struct RunJudge {
    /// Engine names in config order.
    pub engines: Vec<String>,
    /// The pairings as engine indexes, flattened: `[a0, b0, a1, b1, ...]`.
    pub pairings: Vec<i32>,
    /// The SPRT of the first pairing, as JSON (`elo0`, `elo1`, `alpha`, `beta`, `model`).
    pub sprt: Option<String>,
    pub gate_min_elo: Option<f64>,
    /// `max_crashes`, `max_time_losses`, `max_illegal_moves`.
    pub fault_limits: Vec<i64>,
    /// The endings the config can produce (`schema_v6.sql`): adjudication by draw and
    /// by resignation, `max_plies`, and which engines (in config order) play on a clock
    /// (only they can lose on time or move over it).
    pub adjudicate_draw: bool,
    pub adjudicate_resign: bool,
    pub max_plies: Option<i32>,
    pub clocked: Vec<bool>,
}

impl RunJudge {
    /// The judge of a run of `plan`.
    #[must_use]
    pub fn of(plan: &Plan) -> RunJudge {
        let index = |i: usize| i32::try_from(i).unwrap_or(i32::MAX);
        RunJudge {
            engines: plan.engines.iter().map(|e| e.spec.name.clone()).collect(),
            pairings: plan
                .pairings
                .iter()
                .flat_map(|&(a, b)| [index(a), index(b)])
                .collect(),
            sprt: plan
                .sprt
                .as_ref()
                .and_then(|s| serde_json::to_string(s).ok()),
            gate_min_elo: plan.gate_min_elo,
            fault_limits: [
                plan.faults.max_crashes,
                plan.faults.max_time_losses,
                plan.faults.max_illegal_moves,
            ]
            .map(i64::from)
            .to_vec(),
            adjudicate_draw: plan.settings.draw.is_some(),
            adjudicate_resign: plan.settings.resign.is_some(),
            max_plies: plan
                .settings
                .max_plies
                .map(|m| i32::try_from(m).unwrap_or(i32::MAX)),
            clocked: plan
                .engines
                .iter()
                .map(|e| e.time_control.is_clock())
                .collect(),
        }
    }
}

/// A run to store.
#[derive(Clone, Debug)]
pub struct NewRun {
    pub title: String,
    /// Who asked for it (`submit`'s OS user and host, or `--submitter`; one line).
    pub submitter: Option<String>,
    /// The config as played (overrides applied), TOML.
    pub config: String,
    pub config_hash: String,
    pub openings_fingerprint: Option<String>,
    /// The bench signature each engine must show, by engine name.
    pub bench: BTreeMap<String, u64>,
    pub total_pairs: u64,
    pub batch_pairs: u32,
    /// How the server judges it (a match run; `None` for a tune).
    pub judge: Option<RunJudge>,
    /// The files stored with it (the engines' programs and files, the opening file).
    pub uploads: Vec<super::artifacts::Upload>,
    /// Where each pair's games start (a match run; `None` for a tune).
    pub starts: Option<super::game_rules::RunStarts>,
    /// The git commit of each engine's build, by its index in the config, where
    /// `bisect` built it from one.
    pub commits: BTreeMap<usize, String>,
}

/// A stored run.
#[derive(Clone, Debug)]
pub struct RunRow {
    pub id: i64,
    pub title: String,
    pub config: String,
    pub config_hash: String,
    pub openings_fingerprint: Option<String>,
    pub bench: BTreeMap<String, u64>,
    pub total_pairs: u64,
    pub batch_pairs: u32,
    pub next_pair: u64,
    pub pairs_done: u64,
    pub games_done: u64,
    pub state: String,
    pub status: String,
    pub exit_code: Option<u8>,
    /// Seconds from the submit to the end (or to now while open).
    pub age_s: f64,
    /// `match` (any run of `run`) or `tune`.
    pub kind: String,
    /// A tune's SPSA state, as JSON (read and written by `fleet/tune_run.rs`).
    pub tune: Option<String>,
    /// Who submitted it (schema 7; `None` for older runs).
    pub submitter: Option<String>,
    /// Each engine's build by its index in the config: the first 12 hex digits of the
    /// SHA-256 of its stored program (none for a program the workers have).
    pub builds: BTreeMap<usize, String>,
    /// The git commit of each engine's build, by its index, where `bisect` built it.
    pub commits: BTreeMap<usize, String>,
}

const RUN_COLUMNS: &str = "id, title, config, config_hash, openings_fingerprint, bench::text,
    total_pairs, batch_pairs, next_pair, pairs_done, games_done, state, status,
    exit_code, extract(epoch from coalesce(ended_at, now()) - created_at)::float8, kind,
    tune::text, submitter, builds::text, commits::text";

fn unsigned(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

impl RunRow {
    /// The record a local run folder of this stored run holds (`run.json`), for the
    /// outputs drawn from its stored games.
    pub(crate) fn meta(&self) -> crate::store::meta::RunMeta {
        crate::store::meta::RunMeta {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            config_hash: self.config_hash.clone(),
            config: self.config.clone(),
            openings: None,
            shard: None,
            db_run: Some(self.id),
            played_s: self.age_s,
        }
    }

    fn from_row(row: &Row) -> Result<RunRow, DbError> {
        let damaged = |what: &str, e: serde_json::Error| {
            DbError::Query(format!(
                "run {}: {what} is damaged: {e}",
                row.get::<_, i64>(0)
            ))
        };
        let bench: String = row.get(5);
        let builds: String = row.get(18);
        let builds: BTreeMap<String, String> =
            serde_json::from_str(&builds).map_err(|e| damaged("builds", e))?;
        let commits: String = row.get(19);
        let commits: BTreeMap<String, String> =
            serde_json::from_str(&commits).map_err(|e| damaged("commits", e))?;
        // Keys are engine indexes; another key names no engine.
        let by_index = |m: BTreeMap<String, String>| -> BTreeMap<usize, String> {
            m.into_iter()
                .filter_map(|(k, v)| Some((k.parse().ok()?, v)))
                .collect()
        };
        Ok(RunRow {
            id: row.get(0),
            title: row.get(1),
            config: row.get(2),
            config_hash: row.get(3),
            openings_fingerprint: row.get(4),
            bench: serde_json::from_str(&bench).map_err(|e| damaged("bench", e))?,
            total_pairs: unsigned(row.get(6)),
            batch_pairs: u32::try_from(row.get::<_, i32>(7)).unwrap_or(1),
            next_pair: unsigned(row.get(8)),
            pairs_done: unsigned(row.get(9)),
            games_done: unsigned(row.get(10)),
            state: row.get(11),
            status: row.get(12),
            exit_code: row
                .get::<_, Option<i32>>(13)
                .and_then(|c| u8::try_from(c).ok()),
            age_s: row.get(14),
            kind: row.get(15),
            tune: row.get(16),
            submitter: row.get(17),
            // `schema_v7.sql`, `schema_v8.sql`.
            builds: by_index(builds),
            commits: by_index(commits),
        })
    }

    /// Whether the run still hands out batches.
    #[must_use]
    pub fn is_open(&self) -> bool {
        self.state == "open"
    }

    /// Whether the run is a tune.
    #[must_use]
    pub fn is_tune(&self) -> bool {
        self.kind == "tune"
    }
}

/// What one worker did for a run.
#[derive(Clone, Debug)]
pub struct RunWorker {
    pub name: String,
    pub batches: u64,
    pub games: u64,
    pub faults: u64,
    /// Wall time the worker spent on this run's batches, summed over its batches.
    pub busy_s: f64,
    /// Seconds since the worker was last heard of.
    pub seen_s_ago: Option<f64>,
    pub refused: Option<String>,
    /// Its bench speed by engine, nodes per second.
    pub bench_nps: BTreeMap<String, u64>,
    /// Its games the owner purged (`xq-runner purge`).
    pub purged: u64,
    /// The name each engine it benched announced (`id name`), by engine.
    pub announced: BTreeMap<String, String>,
}

/// How the pairs of a run stand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairStates {
    pub done: u64,
    /// In batches under a live lease.
    pub claimed: u64,
    /// In batches whose lease ran out (waiting for another worker).
    pub expired: u64,
    /// Never handed out.
    pub left: u64,
}

impl Db {
    /// Stores a new run; returns its id.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn submit(&mut self, run: &NewRun) -> Result<i64, DbError> {
        self.insert_run(run, "match", None).await
    }

    /// Stores a new tune run with its SPSA state (JSON); returns its id.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn submit_tune(&mut self, run: &NewRun, state: &str) -> Result<i64, DbError> {
        self.insert_run(run, "tune", Some(state)).await
    }

    async fn insert_run(
        &mut self,
        run: &NewRun,
        kind: &str,
        tune: Option<&str>,
    ) -> Result<i64, DbError> {
        let bench = serde_json::to_string(&run.bench).unwrap_or_else(|_| "{}".to_owned());
        let commits = serde_json::to_string(&run.commits).unwrap_or_else(|_| "{}".to_owned());
        let judge = run.judge.as_ref();
        let q = |e: tokio_postgres::Error| query_error(&e);
        // The run and its files together, or neither.
        let tx = self.client.transaction().await.map_err(q)?;
        let row = tx
            .query_one(
                "INSERT INTO xq.runs (title, config, config_hash, openings_fingerprint, bench,
                     total_pairs, batch_pairs, kind, tune, engines, pairings, sprt,
                     gate_min_elo, fault_limits, adjudicate_draw, adjudicate_resign, max_plies,
                     clocked, submitter, commits)
                 VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7, $8, $9::text::jsonb, $10, $11,
                     $12::text::jsonb, $13, $14, $15, $16, $17, $18, $19, $20::text::jsonb)
                 RETURNING id",
                &[
                    &run.title,
                    &run.config,
                    &run.config_hash,
                    &run.openings_fingerprint,
                    &bench,
                    &i64::try_from(run.total_pairs).unwrap_or(i64::MAX),
                    &i32::try_from(run.batch_pairs).unwrap_or(i32::MAX),
                    &kind,
                    &tune,
                    &judge.map(|j| &j.engines),
                    &judge.map(|j| &j.pairings),
                    &judge.and_then(|j| j.sprt.as_ref()),
                    &judge.and_then(|j| j.gate_min_elo),
                    &judge.map(|j| &j.fault_limits),
                    &judge.map(|j| j.adjudicate_draw),
                    &judge.map(|j| j.adjudicate_resign),
                    &judge.and_then(|j| j.max_plies),
                    &judge.map(|j| &j.clocked),
                    &run.submitter,
                    &commits,
                ],
            )
            .await
            .map_err(q)?;
        let id: i64 = row.get(0);
        if let Some(starts) = &run.starts {
            starts.store(&tx, id).await?;
        }
        super::artifacts::store(&tx, id, &run.uploads).await?;
        // Workers that wait for new runs look at once (when the transaction commits).
        tx.execute("SELECT pg_notify('xq_runs', $1::text)", &[&id.to_string()])
            .await
            .map_err(q)?;
        tx.commit().await.map_err(q)?;
        Ok(id)
    }

    /// One run.
    ///
    /// # Errors
    /// [`DbError::NoRun`], [`DbError::Query`].
    pub async fn run(&self, id: i64) -> Result<RunRow, DbError> {
        let row = self
            .client()
            .query_opt(
                &format!("SELECT {RUN_COLUMNS} FROM xq.runs WHERE id = $1"),
                &[&id],
            )
            .await
            .map_err(|e| query_error(&e))?
            .ok_or(DbError::NoRun(id))?;
        RunRow::from_row(&row)
    }

    /// Every run, newest last; only the open ones with `open_only`.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn runs(&self, open_only: bool) -> Result<Vec<RunRow>, DbError> {
        let filter = if open_only {
            "WHERE state = 'open'"
        } else {
            ""
        };
        let rows = self
            .client()
            .query(
                &format!("SELECT {RUN_COLUMNS} FROM xq.runs {filter} ORDER BY id"),
                &[],
            )
            .await
            .map_err(|e| query_error(&e))?;
        rows.iter().map(RunRow::from_row).collect()
    }

    /// Cancels an open run: no batch is handed out any more, and results in flight are
    /// refused.
    ///
    /// # Errors
    /// [`DbError::NoRun`]; [`DbError::RunClosed`] when it is not open.
    pub async fn cancel(&self, id: i64) -> Result<(), DbError> {
        let changed = self
            .client()
            .execute(
                "WITH c AS (UPDATE xq.runs SET state = 'cancelled', status = 'cancelled', exit_code = 4,
                     ended_at = now() WHERE id = $1 AND state = 'open' RETURNING id)
                 SELECT pg_notify('xq_runs', id::text) FROM c",
                &[&id],
            )
            .await
            .map_err(|e| query_error(&e))?;
        if changed == 0 {
            let run = self.run(id).await?;
            return Err(DbError::RunClosed(format!(
                "run {id} is {} already",
                run.state
            )));
        }
        Ok(())
    }

    /// How the pairs of a run stand.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn pair_states(&self, run: &RunRow) -> Result<PairStates, DbError> {
        let row = self
            .client()
            .query_one(
                "SELECT coalesce(sum(pairs) FILTER (WHERE lease_until >= now()), 0)::int8,
                        coalesce(sum(pairs) FILTER (WHERE lease_until < now()), 0)::int8
                 FROM xq.batches WHERE run_id = $1 AND state = 'claimed'",
                &[&run.id],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(PairStates {
            done: run.pairs_done,
            claimed: unsigned(row.get(0)),
            expired: unsigned(row.get(1)),
            left: run.total_pairs.saturating_sub(run.next_pair),
        })
    }

    /// Records this worker's bench speed on a run (`xq.report_bench`).
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn report_bench(
        &self,
        run: i64,
        worker: &str,
        nps: &[(String, u64)],
    ) -> Result<(), DbError> {
        let map: BTreeMap<&str, u64> = nps.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let json = serde_json::to_string(&map).unwrap_or_else(|_| "{}".to_owned());
        self.client()
            .execute(
                "SELECT xq.report_bench($1, $2, $3::text::jsonb)",
                &[&run, &worker, &json],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(())
    }

    /// Records the name each engine announced (`id name`) to this worker, which benched
    /// it, on a run (`xq.report_announced`).
    ///
    /// # Errors
    /// [`DbError::Refused`] (a name out of bounds), [`DbError::Query`].
    pub async fn report_announced(
        &self,
        run: i64,
        worker: &str,
        names: &[(String, String)],
    ) -> Result<(), DbError> {
        let map: BTreeMap<&str, &str> = names
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let json = serde_json::to_string(&map).unwrap_or_else(|_| "{}".to_owned());
        self.client()
            .execute(
                "SELECT xq.report_announced($1, $2, $3::text::jsonb)",
                &[&run, &worker, &json],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(())
    }

    /// The workers of a run, by name.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn run_workers(&self, id: i64) -> Result<Vec<RunWorker>, DbError> {
        let rows = self
            .client()
            .query(
                "SELECT w.worker, w.batches, w.games, w.faults, w.busy_s,
                        extract(epoch from now() - k.last_seen)::float8, w.refused, w.bench::text,
                        w.purged, w.announced::text
                 FROM xq.run_workers w LEFT JOIN xq.workers k ON k.name = w.worker
                 WHERE w.run_id = $1 ORDER BY w.worker",
                &[&id],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(rows
            .iter()
            .map(|r| RunWorker {
                name: r.get(0),
                batches: unsigned(r.get(1)),
                games: unsigned(r.get(2)),
                faults: unsigned(r.get(3)),
                busy_s: r.get(4),
                seen_s_ago: r.get(5),
                refused: r.get(6),
                bench_nps: r
                    .get::<_, Option<String>>(7)
                    .and_then(|text| serde_json::from_str(&text).ok())
                    .unwrap_or_default(),
                purged: unsigned(r.get(8)),
                announced: r
                    .get::<_, Option<String>>(9)
                    .and_then(|text| serde_json::from_str(&text).ok())
                    .unwrap_or_default(),
            })
            .collect())
    }

    /// The facts of every game of a run that the server checked (what its counts are
    /// made of), in pair and game order, read in one statement: a batch commits all its
    /// games at once, so the facts hold whole batches even while workers submit. A game
    /// stored before the server checked games, whose entry is not one, is left out.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn game_facts(&self, id: i64) -> Result<Vec<GameFacts>, DbError> {
        let rows = self
            .client()
            .query(
                "SELECT pair, game, result, reason, faulted, over_clock::text FROM xq.games
                 WHERE run_id = $1 AND result IS NOT NULL ORDER BY pair, game",
                &[&id],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(rows.iter().filter_map(super::committed::facts_of).collect())
    }

    /// Every game of a run, in pair and game order, as journal lines; read a slice of
    /// pairs at a time so that a long run does not sit in memory.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn games(&self, id: i64, mut each: impl FnMut(&str)) -> Result<u64, DbError> {
        self.game_rows(id, "g.entry", |row| each(row.get(0))).await
    }

    /// As [`Db::games`], with the worker that submitted each game.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn games_by_worker(
        &self,
        id: i64,
        mut each: impl FnMut(&str, &str),
    ) -> Result<u64, DbError> {
        self.game_rows(id, "g.entry, b.worker", |row| each(row.get(0), row.get(1)))
            .await
    }

    async fn game_rows(
        &self,
        id: i64,
        columns: &str,
        mut each: impl FnMut(&Row),
    ) -> Result<u64, DbError> {
        const SLICE: i64 = 4096;
        let last: Option<i64> = self
            .client()
            .query_one("SELECT max(pair) FROM xq.games WHERE run_id = $1", &[&id])
            .await
            .map_err(|e| query_error(&e))?
            .get(0);
        let statement = format!(
            "SELECT {columns} FROM xq.games g JOIN xq.batches b ON b.id = g.batch_id
             WHERE g.run_id = $1 AND g.pair >= $2 AND g.pair < $3 ORDER BY g.pair, g.game"
        );
        let mut count = 0;
        let mut from = 0;
        while last.is_some_and(|last| from <= last) {
            let rows = self
                .client()
                .query(&statement, &[&id, &from, &(from + SLICE)])
                .await
                .map_err(|e| query_error(&e))?;
            for row in &rows {
                each(row);
                count += 1;
            }
            from += SLICE;
        }
        Ok(count)
    }
}
