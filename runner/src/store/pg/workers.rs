//! What each worker played for a run, counted from the stored games' facts (what
//! `status` shows beside each worker, and what fishtest's residuals are computed from),
//! and the owner's purge of a worker's games (`xq.purge_workers`, `schema_v4.sql`).

use std::ops::Range;

use super::{query_error, Db, DbError};

/// Every pair of a run, for [`Db::worker_results`].
pub const EVERY_PAIR: Range<i64> = 0..i64::MAX;

/// A worker's stored games of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkerResults {
    pub name: String,
    /// Games stored (every pairing).
    pub games: u64,
    /// The first pairing's pairs, `[LL, LD, DD+WL, WD, WW]` for its first engine, as
    /// `runs.penta` counts the run's.
    pub penta: [u64; 5],
    pub crashes: u64,
    pub stalls: u64,
    pub time_losses: u64,
    /// Illegal moves and engines that said they had none.
    pub illegal: u64,
}

/// What a purge removed of one worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Purged {
    pub worker: String,
    pub batches: u64,
    pub pairs: u64,
    pub games: u64,
    /// Batches it held that had no game stored yet, handed out again.
    pub released: u64,
}

impl WorkerResults {
    /// Adds `more`, another part of the same worker's games.
    fn add(&mut self, more: &WorkerResults) {
        self.games += more.games;
        for (slot, n) in self.penta.iter_mut().zip(more.penta) {
            *slot += n;
        }
        self.crashes += more.crashes;
        self.stalls += more.stalls;
        self.time_losses += more.time_losses;
        self.illegal += more.illegal;
    }
}

/// Adds `more` (the results of other games of the same run) to `into`, kept by name.
pub fn add_results(into: &mut Vec<WorkerResults>, more: &[WorkerResults]) {
    for part in more {
        match into.binary_search_by(|r| r.name.as_str().cmp(&part.name)) {
            Ok(at) => into[at].add(part),
            Err(at) => into.insert(at, part.clone()),
        }
    }
}

fn unsigned(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

impl Db {
    /// Each worker's stored games of run `id` with pairs in `pairs` ([`EVERY_PAIR`] for
    /// all), by name, in one grouped statement: the games by pair (a pair is always in
    /// one batch, so of one worker), then the pairs by worker. A game that was never
    /// checked (no result) is left out, as in the run's counts. The results of
    /// separate ranges add up ([`add_results`]): a live page counts only the pairs of
    /// the batches it has not seen, not the whole run again at each batch.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn worker_results(
        &self,
        id: i64,
        pairs: Range<i64>,
    ) -> Result<Vec<WorkerResults>, DbError> {
        let rows = self
            .client()
            .query(
                "WITH pairs AS (
                     SELECT b.worker, g.pair, count(*) AS games,
                            count(*) FILTER (WHERE g.reason = 'crash') AS crashes,
                            count(*) FILTER (WHERE g.reason = 'stall') AS stalls,
                            count(*) FILTER (WHERE g.reason = 'time_forfeit') AS time_losses,
                            count(*) FILTER (WHERE g.reason IN ('illegal_move', 'no_move')) AS illegal,
                            sum(CASE WHEN g.result = '1/2-1/2' THEN 1
                                     WHEN (g.result = '1-0') = (g.game = 0) THEN 2 ELSE 0 END) AS s
                     FROM xq.games AS g JOIN xq.batches AS b ON b.id = g.batch_id
                     WHERE g.run_id = $1 AND g.pair >= $2 AND g.pair < $3
                           AND g.result IS NOT NULL
                     GROUP BY b.worker, g.pair
                 ), pairings AS (
                     SELECT greatest(coalesce(cardinality(pairings), 0) / 2, 1) AS n
                     FROM xq.runs WHERE id = $1
                 )
                 SELECT p.worker, sum(p.games)::int8, sum(p.crashes)::int8, sum(p.stalls)::int8,
                        sum(p.time_losses)::int8, sum(p.illegal)::int8,
                        ARRAY[count(*) FILTER (WHERE p.games = 2 AND p.pair % k.n = 0 AND p.s = 0),
                              count(*) FILTER (WHERE p.games = 2 AND p.pair % k.n = 0 AND p.s = 1),
                              count(*) FILTER (WHERE p.games = 2 AND p.pair % k.n = 0 AND p.s = 2),
                              count(*) FILTER (WHERE p.games = 2 AND p.pair % k.n = 0 AND p.s = 3),
                              count(*) FILTER (WHERE p.games = 2 AND p.pair % k.n = 0 AND p.s = 4)]
                 FROM pairs AS p, pairings AS k
                 GROUP BY p.worker ORDER BY p.worker",
                &[&id, &pairs.start, &pairs.end],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(rows
            .iter()
            .map(|r| {
                let counts: Vec<i64> = r.get(6);
                let mut penta = [0; 5];
                for (slot, n) in penta.iter_mut().zip(counts) {
                    *slot = unsigned(n);
                }
                WorkerResults {
                    name: r.get(0),
                    games: unsigned(r.get(1)),
                    crashes: unsigned(r.get(2)),
                    stalls: unsigned(r.get(3)),
                    time_losses: unsigned(r.get(4)),
                    illegal: unsigned(r.get(5)),
                    penta,
                }
            })
            .collect())
    }

    /// Removes the games of `workers` from match run `id` in one transaction (the
    /// server's `xq.purge_workers`: the owner's alone), hands their batches out again
    /// and judges the run's end again. One entry per worker that had batches there
    /// (played, or only held).
    ///
    /// # Errors
    /// [`DbError::Refused`] (a tune, a cancelled run, no such run); [`DbError::Query`]
    /// (permission denied for a role other than the owner).
    pub async fn purge_workers(&self, id: i64, workers: &[String]) -> Result<Vec<Purged>, DbError> {
        let rows = self
            .client()
            .query(
                "SELECT worker, batches, pairs, games, released FROM xq.purge_workers($1, $2)",
                &[&id, &workers],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(rows
            .iter()
            .map(|r| Purged {
                worker: r.get(0),
                batches: unsigned(r.get(1)),
                pairs: unsigned(r.get(2)),
                games: unsigned(r.get(3)),
                released: unsigned(r.get(4)),
            })
            .collect())
    }

    /// Whether `worker` ever worked on run `id`: it claimed one of its batches, or sent
    /// it anything (a refusal, a bench).
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn worker_known(&self, id: i64, worker: &str) -> Result<bool, DbError> {
        let row = self
            .client()
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM xq.batches WHERE run_id = $1 AND worker = $2)
                     OR EXISTS (SELECT 1 FROM xq.run_workers WHERE run_id = $1 AND worker = $2)",
                &[&id, &worker],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(row.get(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(name: &str, games: u64, penta: [u64; 5], crashes: u64) -> WorkerResults {
        WorkerResults {
            name: name.to_owned(),
            games,
            penta,
            crashes,
            ..WorkerResults::default()
        }
    }

    #[test]
    fn results_of_separate_pairs_add_up_by_worker() {
        let mut kept = vec![results("b", 4, [0, 1, 1, 0, 0], 1)];
        add_results(
            &mut kept,
            &[
                results("a", 2, [0, 0, 0, 0, 1], 0),
                results("b", 6, [1, 0, 1, 1, 0], 2),
            ],
        );
        add_results(&mut kept, &[results("c", 2, [0, 0, 1, 0, 0], 0)]);
        assert_eq!(
            kept,
            vec![
                results("a", 2, [0, 0, 0, 0, 1], 0),
                results("b", 10, [1, 1, 2, 1, 0], 3),
                results("c", 2, [0, 0, 1, 0, 0], 0),
            ]
        );
    }
}
