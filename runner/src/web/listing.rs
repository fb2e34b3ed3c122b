//! The runs and workers the pages list: each run's state is the one `status --json`
//! prints, a match's from its kept state ([`Folds`]: only the batches committed since
//! the last request are read, so a warm list replays no games), with what a list row
//! adds (engines, clock, when it was submitted).

use serde::Serialize;

use super::error::WebError;
use super::fold::Folds;
use super::list_query::{ListQuery, PAGE_SIZE};
use crate::fleet::status::{plan_of, RunState};
use crate::store::pg::reader::WorkerSeen;
use crate::store::pg::runs::RunRow;
use crate::store::pg::Db;

/// The states a run can be in, for the filter of the runs page.
pub(crate) const STATES: [&str; 4] = ["open", "finished", "cancelled", "aborted"];

/// One run of the list.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct RunEntry {
    pub id: i64,
    pub kind: String,
    pub title: String,
    pub engines: Vec<String>,
    pub clock: String,
    pub submitted_s_ago: f64,
    /// Its state as `status --json ID` prints it; `None` when the run does not read here
    /// (then `error` says why).
    pub run: Option<RunState>,
    pub error: Option<String>,
}

/// One page of the runs list: its runs, and where it is in the filtered list.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct RunsPage {
    pub runs: Vec<RunEntry>,
    /// Runs the filters keep, on every page.
    pub total: usize,
    pub page: usize,
    pub pages: usize,
}

/// The runs `query` asks for: those of its state and submitter, open ones first, then
/// the others, newest first in each, the page's [`PAGE_SIZE`] of them. Only the page's
/// runs are read further (their state folded): a list of thousands stays quick.
///
/// # Errors
/// The database's.
pub(crate) async fn runs(db: &Db, folds: &Folds, query: &ListQuery) -> Result<RunsPage, WebError> {
    let mut rows = db.runs(false).await?;
    rows.retain(|r| {
        query.state.as_ref().is_none_or(|s| &r.state == s)
            && query
                .submitter
                .as_ref()
                .is_none_or(|s| r.submitter.as_ref() == Some(s))
    });
    rows.sort_by_key(|r| (!r.is_open(), std::cmp::Reverse(r.id)));
    let total = rows.len();
    let submitted = db.submitted_s_ago().await?;
    let mut entries = Vec::with_capacity(PAGE_SIZE);
    for row in rows.iter().skip(query.offset()).take(PAGE_SIZE) {
        entries.push(
            entry(
                db,
                folds,
                row,
                submitted.get(&row.id).copied().unwrap_or(0.0),
            )
            .await?,
        );
    }
    Ok(RunsPage {
        runs: entries,
        total,
        page: query.page,
        pages: total.div_ceil(PAGE_SIZE).max(1),
    })
}

async fn entry(
    db: &Db,
    folds: &Folds,
    row: &RunRow,
    submitted_s_ago: f64,
) -> Result<RunEntry, WebError> {
    let plan = plan_of(row).ok();
    let (run, error) = match folds.state(db, row).await {
        Ok(state) => (Some(state), None),
        Err(crate::fleet::status::StateError::Stored(why)) => (None, Some(why)),
        Err(e) => return Err(e.into()),
    };
    Ok(RunEntry {
        id: row.id,
        kind: row.kind.clone(),
        title: row.title.clone(),
        engines: plan
            .as_ref()
            .map(|p| p.engines.iter().map(|e| e.spec.name.clone()).collect())
            .unwrap_or_default(),
        clock: plan
            .as_ref()
            .and_then(|p| p.engines.first())
            .map(|e| e.time_control.to_string())
            .unwrap_or_default(),
        submitted_s_ago,
        run,
        error,
    })
}

/// A worker heard of within this many seconds is there (it beats every few seconds
/// while it waits or plays): `online` when it holds a run, `idle` without one; quieter
/// than this it is `offline`.
pub(crate) const ONLINE_WITHIN_S: f64 = 60.0;

/// One worker of the workers page.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct WorkerEntry {
    pub name: String,
    pub version: String,
    /// `online`, `idle` or `offline` ([`ONLINE_WITHIN_S`]).
    pub state: &'static str,
    /// Its machine as it reported it (none for a worker of an older runner).
    pub host: Option<String>,
    pub os: Option<String>,
    pub arch: Option<String>,
    pub cores: Option<i32>,
    /// The games it plays at once.
    pub concurrency: i32,
    /// The mean nodes per second of its last bench, where it measured one.
    pub bench_nps: Option<f64>,
    pub last_seen_s_ago: f64,
    /// The run it is on now.
    pub run: Option<i64>,
    pub runs: Vec<i64>,
    pub games: u64,
    /// Games a second and a minute while it played (its games over its time on batches).
    pub games_per_s: f64,
    pub games_per_min: f64,
}

/// A worker's state by its last heartbeat and its run.
pub(crate) fn worker_state(seen_s_ago: f64, run: Option<i64>) -> &'static str {
    match (seen_s_ago < ONLINE_WITHIN_S, run) {
        (true, Some(_)) => "online",
        (true, None) => "idle",
        (false, _) => "offline",
    }
}

/// What the fleet has now, for the top of the runs list: the workers there (online or
/// idle), their cores (the cores of their machines, else their concurrency), and the
/// games a minute of those playing.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub(crate) struct FleetTotals {
    pub online: usize,
    pub idle: usize,
    pub cores: i64,
    pub games_per_min: f64,
}

/// The totals of `workers`.
pub(crate) fn fleet_totals(workers: &[WorkerEntry]) -> FleetTotals {
    let mut t = FleetTotals::default();
    for w in workers {
        match w.state {
            "online" => {
                t.online += 1;
                t.games_per_min += w.games_per_min;
            }
            "idle" => t.idle += 1,
            _ => continue,
        }
        t.cores += i64::from(w.cores.unwrap_or(w.concurrency));
    }
    t
}

/// Every worker seen.
///
/// # Errors
/// The database's.
pub(crate) async fn workers(db: &Db) -> Result<Vec<WorkerEntry>, WebError> {
    Ok(db
        .workers_seen()
        .await?
        .into_iter()
        .map(|w: WorkerSeen| {
            let games_per_s = if w.busy_s > 0.0 {
                w.games as f64 / w.busy_s
            } else {
                0.0
            };
            WorkerEntry {
                state: worker_state(w.seen_s_ago, w.run_id),
                games_per_s,
                games_per_min: games_per_s * 60.0,
                name: w.name,
                version: w.version,
                host: w.host,
                os: w.os,
                arch: w.arch,
                cores: w.cores,
                concurrency: w.concurrency,
                bench_nps: w.bench_nps,
                last_seen_s_ago: w.seen_s_ago,
                run: w.run_id,
                runs: w.runs,
                games: w.games,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(state: &'static str, cores: Option<i32>, per_min: f64) -> WorkerEntry {
        WorkerEntry {
            name: "w".to_owned(),
            version: String::new(),
            state,
            host: None,
            os: None,
            arch: None,
            cores,
            concurrency: 2,
            bench_nps: None,
            last_seen_s_ago: 0.0,
            run: None,
            runs: Vec::new(),
            games: 0,
            games_per_s: per_min / 60.0,
            games_per_min: per_min,
        }
    }

    #[test]
    fn a_worker_is_online_on_a_run_idle_without_and_offline_when_quiet() {
        assert_eq!(worker_state(3.0, Some(1)), "online");
        assert_eq!(worker_state(3.0, None), "idle");
        assert_eq!(worker_state(61.0, Some(1)), "offline");
        assert_eq!(worker_state(f64::NAN, None), "offline");
    }

    #[test]
    fn the_fleet_counts_the_workers_there_and_the_games_of_those_playing() {
        let t = fleet_totals(&[
            entry("online", Some(8), 30.0),
            entry("idle", None, 12.0),
            entry("offline", Some(64), 99.0),
        ]);
        assert_eq!(
            t,
            FleetTotals {
                online: 1,
                idle: 1,
                cores: 10,
                games_per_min: 30.0
            }
        );
    }
}
