//! The state of a run in the database, as a user reads it (the result block exactly as
//! a local run prints it, the pairs, the workers, the faults, the verdict) or as JSON.

use serde::Serialize;

use crate::config::{parse, Plan};
use crate::schedule::tournament::report_text;
use crate::stats::{Estimate, StatsReport, Verdict};
use crate::store::pg::runs::{PairStates, RunRow, RunWorker};
use crate::store::tracker::{Faults, Tracker};

/// A run's state, as `status --json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    pub id: i64,
    pub title: String,
    pub state: String,
    pub status: String,
    pub exit_code: Option<u8>,
    pub games: u64,
    pub pairs: u64,
    pub pairs_total: u64,
    pub pairs_claimed: u64,
    pub pairs_expired: u64,
    pub pairs_left: u64,
    pub penta: [u64; 5],
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub elo: f64,
    pub elo_ci95: f64,
    pub llr: Option<f64>,
    pub llr_lower: Option<f64>,
    pub llr_upper: Option<f64>,
    pub verdict: Option<Verdict>,
    pub faults: std::collections::BTreeMap<String, Faults>,
    pub workers: Vec<WorkerLine>,
    /// The block a local run prints (result block or rating table).
    pub text: String,
}

/// One worker of a run.
#[derive(Clone, Debug, Serialize)]
pub struct WorkerLine {
    pub name: String,
    pub batches: u64,
    pub games: u64,
    pub faults: u64,
    pub games_per_s: f64,
    pub last_seen_s_ago: Option<f64>,
    pub refused: Option<String>,
}

/// The plan of a stored run: its config as this build reads it.
pub fn plan_of(run: &RunRow) -> Result<Plan, String> {
    parse(&format!("run {} (stored config)", run.id), &run.config, &[])
        .map(|l| l.plan)
        .map_err(|e| e.to_string())
}

/// The tracker of a stored run's counts.
///
/// # Errors
/// The stored config no longer validates (a runner of another version).
pub fn tracker_of(run: &RunRow) -> Result<(Plan, Tracker), String> {
    let plan = plan_of(run)?;
    let names = plan.engines.iter().map(|e| e.spec.name.clone()).collect();
    let tracker = Tracker::from_counts(names, plan.pairings.len(), run.counts.clone());
    Ok((plan, tracker))
}

/// The state of a run.
///
/// # Errors
/// As [`tracker_of`].
pub fn status(run: &RunRow, pairs: PairStates, workers: &[RunWorker]) -> Result<Status, String> {
    let (plan, tracker) = tracker_of(run)?;
    let tally = tracker.tally(0);
    let estimate = Estimate::new(&tally.penta);
    let report = plan
        .sprt
        .as_ref()
        .and_then(|s| StatsReport::from_tally(&tally, s).ok());
    Ok(Status {
        id: run.id,
        title: run.title.clone(),
        state: run.state.clone(),
        status: run.status.clone(),
        exit_code: run.exit_code,
        games: tracker.games(),
        pairs: tracker.pairs(),
        pairs_total: run.total_pairs,
        pairs_claimed: pairs.claimed,
        pairs_expired: pairs.expired,
        pairs_left: pairs.left,
        penta: tally.penta.to_array(),
        wins: tally.wdl.wins,
        draws: tally.wdl.draws,
        losses: tally.wdl.losses,
        elo: estimate.elo,
        elo_ci95: estimate.elo_ci95,
        llr: report.as_ref().map(|r| r.llr),
        llr_lower: report.as_ref().map(|r| r.llr_lower),
        llr_upper: report.as_ref().map(|r| r.llr_upper),
        verdict: report.as_ref().map(|r| r.verdict),
        faults: tracker.fault_table().0,
        workers: worker_lines(workers),
        text: report_text(&plan, &tracker),
    })
}

impl Status {
    /// The state as text.
    #[must_use]
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        // While a run is open its status is its state (`[open] open`): say it once.
        let status = if self.status == self.state {
            String::new()
        } else {
            format!(" {}", self.status)
        };
        let mut out = format!("Run {}: {} [{}]{status}\n", self.id, self.title, self.state);
        out.push_str(&self.text);
        let _ = writeln!(
            out,
            "Pairs: {} done, {} claimed, {} waiting for another worker, {} not handed out (of {})",
            self.pairs, self.pairs_claimed, self.pairs_expired, self.pairs_left, self.pairs_total
        );
        for (engine, faults) in &self.faults {
            if !faults.is_empty() {
                let list: Vec<String> = faults.iter().map(|(k, v)| format!("{k} {v}")).collect();
                let _ = writeln!(out, "Faults of {engine}: {}", list.join(", "));
            }
        }
        workers_text(&self.workers, &mut out);
        out
    }
}

/// The workers of a run, for `status` (of a match or a tune).
#[must_use]
pub fn worker_lines(workers: &[RunWorker]) -> Vec<WorkerLine> {
    workers
        .iter()
        .map(|w| WorkerLine {
            name: w.name.clone(),
            batches: w.batches,
            games: w.games,
            faults: w.faults,
            games_per_s: if w.busy_s > 0.0 {
                w.games as f64 / w.busy_s
            } else {
                0.0
            },
            last_seen_s_ago: w.seen_s_ago,
            refused: w.refused.clone(),
        })
        .collect()
}

/// The `Workers:` block of `status`.
pub fn workers_text(workers: &[WorkerLine], out: &mut String) {
    use std::fmt::Write as _;
    if workers.is_empty() {
        return;
    }
    let _ = writeln!(out, "Workers:");
    for w in workers {
        let seen = w
            .last_seen_s_ago
            .map_or_else(|| "never".to_owned(), |s| format!("{s:.0} s ago"));
        let _ = write!(
            out,
            "  {}: {} batch{}, {} game{}, {:.2} games/s, last seen {seen}",
            w.name,
            w.batches,
            if w.batches == 1 { "" } else { "es" },
            w.games,
            if w.games == 1 { "" } else { "s" },
            w.games_per_s
        );
        if w.faults > 0 {
            let _ = write!(out, ", {} games ended by an engine fault", w.faults);
        }
        if let Some(why) = &w.refused {
            let _ = write!(out, ", REFUSED the run: {why}");
        }
        out.push('\n');
    }
}

/// One line per run for `status` without an id.
#[must_use]
pub fn list_line(run: &RunRow) -> String {
    format!(
        "{:>5}  {:<9}  {:>7}/{:<7} pairs  {}  ({})",
        run.id, run.state, run.pairs_done, run.total_pairs, run.title, run.status
    )
}
