//! The state of a run in the database, as a user reads it (the result block exactly as
//! a local run prints it, the pairs, the workers, the faults, the verdict) or as JSON.
//! The counts are made from the facts of the stored games, which the server checked;
//! what workers wrote (their names, their reasons to refuse) is shown escaped.

use serde::Serialize;

use super::fit::{fit, run_fit_text, RunFit, WorkerFit};
use crate::config::{parse_stored, Plan};
use crate::local_run::tournament::report_text;
use crate::output::printable::printable;
use crate::stats::{Estimate, StatsReport, Verdict};
use crate::store::layout::Jobs;
use crate::store::pg::runs::{PairStates, RunRow, RunWorker};
use crate::store::pg::workers::WorkerResults;
use crate::store::tracker::{FaultsByReason, GameFacts, Tracker};

/// A run's state, as `status --json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    pub id: i64,
    pub title: String,
    /// Its description, submitter and engines with their builds.
    #[serde(flatten)]
    pub about: super::about::About,
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
    pub nelo: f64,
    pub nelo_ci95: f64,
    pub llr: Option<f64>,
    pub llr_lower: Option<f64>,
    pub llr_upper: Option<f64>,
    pub verdict: Option<Verdict>,
    pub faults: std::collections::BTreeMap<String, FaultsByReason>,
    pub workers: Vec<WorkerLine>,
    /// fishtest's test of whether the workers' pairs fit one another (`None` with
    /// fewer than two workers of enough pairs).
    pub residuals: Option<RunFit>,
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
    /// Its bench speed by engine, nodes per second.
    pub bench_nps: std::collections::BTreeMap<String, u64>,
    /// Its games the owner purged from the run.
    pub purged: u64,
    /// Its stored games' figures: pairs, faults per game, residual (a match run's
    /// workers with stored games; none for a tune).
    #[serde(flatten)]
    pub results: Option<WorkerFit>,
}

/// The plan of a stored run: its config as this build reads it, on any machine (its
/// engines need not be here).
pub fn plan_of(run: &RunRow) -> Result<Plan, String> {
    parse_stored(&format!("run {} (stored config)", run.id), &run.config)
        .map(|l| l.plan)
        .map_err(|e| e.to_string())
}

/// The empty tracker of a stored run and where its games go, from its plan.
#[must_use]
pub fn new_tracker(plan: &Plan) -> (Tracker, Jobs) {
    let names = plan.engines.iter().map(|e| e.spec.name.clone()).collect();
    let tracker = Tracker::new(names, plan.pairings.len());
    (tracker, Jobs::new(plan.pairings.clone(), plan.pairs))
}

/// Counts stored game `game` in `tracker` (of [`new_tracker`], with its `jobs`).
pub fn record_stored(tracker: &mut Tracker, jobs: &Jobs, game: &GameFacts) {
    let job = jobs.job(game.pair, game.game);
    let (first, second) = if game.game == 0 {
        (job.red, job.black)
    } else {
        (job.black, job.red)
    };
    tracker.record_facts(game, job.pairing, first, second);
}

/// The tracker of a stored run: its stored games counted as a local run counts its
/// journal.
///
/// # Errors
/// The stored config no longer validates (a runner of another version).
pub fn tracker_of(run: &RunRow, games: &[GameFacts]) -> Result<(Plan, Tracker), String> {
    let plan = plan_of(run)?;
    let (mut tracker, jobs) = new_tracker(&plan);
    for game in games {
        record_stored(&mut tracker, &jobs, game);
    }
    Ok((plan, tracker))
}

/// The state of a run.
///
/// # Errors
/// As [`tracker_of`].
pub fn status(
    run: &RunRow,
    games: &[GameFacts],
    pairs: PairStates,
    workers: &[RunWorker],
    results: &[WorkerResults],
) -> Result<Status, String> {
    let (plan, tracker) = tracker_of(run, games)?;
    Ok(status_of(run, &plan, &tracker, pairs, workers, results))
}

/// The state of a run whose stored games `tracker` counted (`serve` keeps it between
/// requests).
#[must_use]
pub fn status_of(
    run: &RunRow,
    plan: &Plan,
    tracker: &Tracker,
    pairs: PairStates,
    workers: &[RunWorker],
    results: &[WorkerResults],
) -> Status {
    let (residuals, mut fits) = fit(results);
    let mut lines = worker_lines(workers);
    for line in &mut lines {
        line.results = fits.remove(&line.name);
    }
    let tally = tracker.tally(0);
    let estimate = Estimate::reported(&tally.penta);
    let report = plan
        .sprt
        .as_ref()
        .and_then(|s| StatsReport::from_tally(&tally, s).ok());
    Status {
        id: run.id,
        title: run.title.clone(),
        about: super::about::About::of(
            run,
            &plan
                .engines
                .iter()
                .map(|e| e.spec.name.clone())
                .collect::<Vec<_>>(),
        )
        .measured_by(workers),
        state: run.state.clone(),
        status: run.status.clone(),
        exit_code: run.exit_code,
        games: tracker.games(),
        pairs: tracker.pairs(),
        pairs_total: run.total_pairs,
        pairs_claimed: pairs_now(run, pairs).claimed,
        pairs_expired: pairs_now(run, pairs).expired,
        pairs_left: pairs_now(run, pairs).left,
        penta: tally.penta.to_array(),
        wins: tally.wdl.wins,
        draws: tally.wdl.draws,
        losses: tally.wdl.losses,
        elo: estimate.elo,
        elo_ci95: estimate.elo_ci95,
        nelo: estimate.nelo,
        nelo_ci95: estimate.nelo_ci95,
        llr: report.as_ref().map(|r| r.llr),
        llr_lower: report.as_ref().map(|r| r.llr_lower),
        llr_upper: report.as_ref().map(|r| r.llr_upper),
        verdict: report.as_ref().map(|r| r.verdict),
        faults: tracker.fault_table().0,
        workers: lines,
        residuals,
        text: report_text(plan, tracker),
    }
}

impl Status {
    /// The state as text.
    #[must_use]
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = format!(
            "Run {}: {} [{}]",
            self.id,
            printable(&self.title),
            self.state
        );
        // An open run's status says nothing more than its state.
        if self.status != self.state {
            let _ = write!(out, " {}", printable(&self.status));
        }
        out.push('\n');
        out.push_str(&self.about.to_text());
        out.push_str(&self.text);
        out.push_str(&pairs_text(
            &self.state,
            self.pairs,
            [self.pairs_claimed, self.pairs_expired, self.pairs_left],
            self.pairs_total,
        ));
        for (engine, faults) in &self.faults {
            if !faults.is_empty() {
                let list: Vec<String> = faults.iter().map(|(k, v)| format!("{k} {v}")).collect();
                let _ = writeln!(out, "Faults of {engine}: {}", list.join(", "));
            }
        }
        workers_text(&self.workers, &mut out);
        if let Some(residuals) = &self.residuals {
            let _ = writeln!(out, "{}", run_fit_text(residuals));
        }
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
            bench_nps: w.bench_nps.clone(),
            purged: w.purged,
            results: None,
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
            "  {}: {}, {}, {:.2} games/s, last seen {seen}",
            printable(&w.name),
            count(w.batches, "batch", "batches"),
            count(w.games, "game", "games"),
            w.games_per_s
        );
        if w.faults > 0 {
            let _ = write!(out, ", {} games ended by an engine fault", w.faults);
        }
        for (engine, nps) in &w.bench_nps {
            let _ = write!(
                out,
                ", {} bench {:.2} Mnodes/s",
                printable(engine),
                *nps as f64 / 1e6
            );
        }
        if w.purged > 0 {
            let _ = write!(out, ", {} purged", count(w.purged, "game", "games"));
        }
        if let Some(why) = &w.refused {
            let _ = write!(out, ", REFUSED the run: {}", printable(why));
        }
        out.push('\n');
        if let Some(r) = &w.results {
            fit_text(r, out);
        }
    }
}

/// The second line of a worker in `status`: its pairs, faults per game and residual.
fn fit_text(r: &WorkerFit, out: &mut String) {
    use std::fmt::Write as _;
    let [ll, ld, dd, wd, ww] = r.penta;
    let _ = write!(
        out,
        "    pairs {ll},{ld},{dd},{wd},{ww}; time losses {:.1}%, crashes {:.1}%, stalls {:.1}% of games; residual ",
        r.time_losses_per_game * 100.0,
        r.crashes_per_game * 100.0,
        r.stalls_per_game * 100.0
    );
    match (r.residual, r.fit) {
        (Some(z), Some(fit)) => {
            let colour = match fit {
                crate::stats::residuals::Fit::Green => "green",
                crate::stats::residuals::Fit::Yellow => "yellow",
                crate::stats::residuals::Fit::Red => "red",
            };
            let _ = write!(out, "{z:.2} ({colour})");
        }
        _ => out.push_str("n/a (too few pairs to test)"),
    }
    if let Some(why) = &r.too_many_faults {
        let _ = write!(out, ", engines failed: {why}");
    }
    if r.bad {
        out.push_str(", BAD: its pairs do not fit the rest (`purge --auto` removes its games)");
    }
    out.push('\n');
}

/// `n` and its noun, singular for one.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// How a run's pairs stand, as `status` shows them: an open run's as the batches are; a
/// closed run has none in flight or waiting (a batch still claimed when it closed is
/// dropped by its worker, an expired one is never handed out again), and every pair it
/// did not play is left unplayed.
#[must_use]
pub(crate) fn pairs_now(run: &RunRow, pairs: PairStates) -> PairStates {
    if run.is_open() {
        pairs
    } else {
        PairStates {
            claimed: 0,
            expired: 0,
            left: run.total_pairs.saturating_sub(pairs.done),
            ..pairs
        }
    }
}

/// The `Pairs:` line of `status` (a newline at its end): `[claimed, expired, left]` of
/// [`pairs_now`].
#[must_use]
pub(crate) fn pairs_text(
    state: &str,
    done: u64,
    [claimed, expired, left]: [u64; 3],
    total: u64,
) -> String {
    if state == "open" {
        format!(
            "Pairs: {done} done, {claimed} claimed, {expired} waiting for another worker, {left} not handed out (of {total})\n"
        )
    } else if left == 0 {
        format!("Pairs: {done} done (of {total})\n")
    } else {
        format!("Pairs: {done} done, {left} not played: the run is {state} (of {total})\n")
    }
}

/// The column heads of [`list_line`]'s lines.
#[must_use]
pub fn list_header() -> String {
    format!(
        "{:>5}  {:<9}  {:>15}  {}",
        "id", "state", "pairs done", "title (how it ended)"
    )
}

/// One line per run for `status` without an id: its id, state, pairs done of all, its
/// title, and how it ended (an open run's status is its state: not said twice).
#[must_use]
pub fn list_line(run: &RunRow) -> String {
    let mut line = format!(
        "{:>5}  {:<9}  {:>15}  {}",
        run.id,
        run.state,
        format!("{}/{}", run.pairs_done, run.total_pairs),
        printable(&run.title),
    );
    if run.status != run.state {
        line.push_str(&format!("  ({})", printable(&run.status)));
    }
    line
}

/// A stored run's state as `status --json` prints it: a match's or a tune's.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum RunState {
    Match(Box<Status>),
    Tune(Box<super::tune_run::TuneStatus>),
}

/// Why a stored run's state could not be made.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The database did not answer (or has no such run).
    #[error(transparent)]
    Db(#[from] crate::store::pg::DbError),
    /// The stored run does not read here (a runner of another version).
    #[error("{0}")]
    Stored(String),
}

/// The state of stored run `run`, read from the database: what `status` prints and the
/// pages of `serve` show.
///
/// # Errors
/// [`StateError`].
pub async fn state_of(db: &crate::store::pg::Db, run: &RunRow) -> Result<RunState, StateError> {
    let pairs = db.pair_states(run).await?;
    let workers = db.run_workers(run.id).await?;
    if run.is_tune() {
        let state = super::tune_run::status(run, pairs, &workers).map_err(StateError::Stored)?;
        return Ok(RunState::Tune(Box::new(state)));
    }
    let games = db.game_facts(run.id).await?;
    let results = db
        .worker_results(run.id, crate::store::pg::workers::EVERY_PAIR)
        .await?;
    let state = status(run, &games, pairs, &workers, &results).map_err(StateError::Stored)?;
    Ok(RunState::Match(Box::new(state)))
}

impl RunState {
    /// The state as text.
    #[must_use]
    pub fn to_text(&self) -> String {
        match self {
            RunState::Match(state) => state.to_text(),
            RunState::Tune(state) => state.to_text(),
        }
    }
}
