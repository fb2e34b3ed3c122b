//! The runs and workers the pages list: each run's state is the one `status --json`
//! prints, a match's from its kept state ([`Folds`]: only the batches committed since
//! the last request are read, so a warm list replays no games), with what a list row
//! adds (engines, clock, when it was submitted).

use serde::Serialize;

use super::error::WebError;
use super::fold::Folds;
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

/// The `state=` filter of the runs list: one of [`STATES`], or none.
///
/// # Errors
/// [`WebError::BadPath`] for any other query.
pub(crate) fn state_filter(query: Option<&str>) -> Result<Option<String>, WebError> {
    let Some(query) = query.filter(|q| !q.is_empty()) else {
        return Ok(None);
    };
    match query.strip_prefix("state=") {
        Some(state) if STATES.contains(&state) => Ok(Some(state.to_owned())),
        _ => Err(WebError::BadPath(format!(
            "the runs are filtered by `state=` one of {}",
            STATES.join(", ")
        ))),
    }
}

/// The runs, open ones first, then the others, newest first in each.
///
/// # Errors
/// The database's.
pub(crate) async fn runs(
    db: &Db,
    folds: &Folds,
    state: Option<&str>,
) -> Result<Vec<RunEntry>, WebError> {
    let mut rows = db.runs(false).await?;
    rows.retain(|r| state.is_none_or(|s| r.state == s));
    rows.sort_by_key(|r| (!r.is_open(), std::cmp::Reverse(r.id)));
    let submitted = db.submitted_s_ago().await?;
    let mut entries = Vec::with_capacity(rows.len());
    for row in &rows {
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
    Ok(entries)
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

    #[test]
    fn a_worker_is_online_on_a_run_idle_without_and_offline_when_quiet() {
        assert_eq!(worker_state(3.0, Some(1)), "online");
        assert_eq!(worker_state(3.0, None), "idle");
        assert_eq!(worker_state(61.0, Some(1)), "offline");
        assert_eq!(worker_state(f64::NAN, None), "offline");
    }

    #[test]
    fn the_runs_are_filtered_by_a_known_state_only() {
        assert_eq!(state_filter(None).ok(), Some(None));
        assert_eq!(state_filter(Some("")).ok(), Some(None));
        assert_eq!(
            state_filter(Some("state=open")).ok(),
            Some(Some("open".to_owned()))
        );
        for bad in ["state=", "state=done", "x=1", "state=open&x=1"] {
            assert!(
                matches!(state_filter(Some(bad)), Err(WebError::BadPath(_))),
                "{bad}"
            );
        }
    }
}
