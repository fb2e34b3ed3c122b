//! A tune run on the workers: stored by `submit` with its SPSA state (the parameters as
//! fitted to the engine's options, the schedule, theta) in the run's row; made ready on a
//! worker from its stored config and state; each played batch applied to theta by the
//! server (`schema_v4.sql`, the local tuner's arithmetic operation for operation); shown
//! by `status`; written by `report --db` as the folder a
//! local `tune` writes (`tune-run.json`, `tune.jsonl`, `tune.json`, `report.html`).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::status::WorkerLine;
use super::uploads::{uploads, UploadPolicy};
use crate::store::folder::{RunFolder, Workload, TUNE_JOURNAL, TUNE_RUN};
use crate::store::meta::InputFile;
use crate::store::pg::runs::{NewRun, PairStates, RunRow, RunWorker};
use crate::store::pg::Db;
use crate::tune::config::TunePlan;
use crate::tune::folder::TuneMeta;
use crate::tune::journal::Record;
use crate::tune::outputs::TuneSummary;
use crate::tune::params::TuneParam;
use crate::tune::spsa::{Gains, SpsaConstants};

/// The SPSA state of a tune run, as the run's row keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    /// The parameters, their ranges narrowed to the engine's at submit.
    pub params: Vec<TuneParam>,
    pub schedule: SpsaConstants,
    /// theta, in the order of `params`.
    pub theta: Vec<f64>,
    /// The seed the server draws each iteration's flips and rounding from: the config's,
    /// the one the workers play from (absent only in a run whose config did not read
    /// when the database was upgraded, whose batches the server refuses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl TuneState {
    /// The state of a stored run.
    ///
    /// # Errors
    /// One line: not a tune, or a damaged state.
    pub fn of(run: &RunRow) -> Result<TuneState, String> {
        let text = run
            .tune
            .as_deref()
            .ok_or_else(|| format!("run {} is not a tune", run.id))?;
        TuneState::parse(text).map_err(|e| format!("run {}: {e}", run.id))
    }

    /// The state from its JSON.
    ///
    /// # Errors
    /// One line: a damaged state.
    pub fn parse(text: &str) -> Result<TuneState, String> {
        let state: TuneState =
            serde_json::from_str(text).map_err(|e| format!("the tune state is damaged: {e}"))?;
        if state.theta.len() != state.params.len() {
            return Err(
                "the tune state is damaged: theta and the parameters differ in length".to_owned(),
            );
        }
        Ok(state)
    }

    /// The state as stored; an empty one would read back as damaged, so a state that
    /// cannot be written is refused here.
    fn to_json(&self) -> Result<String, String> {
        serde_json::to_string(self).map_err(|e| format!("cannot write the tune state: {e}"))
    }

    /// The gains of each parameter.
    #[must_use]
    pub fn gains(&self) -> Vec<Gains> {
        self.params
            .iter()
            .map(|p| Gains::new(&self.schedule, p.min, p.max, p.c_end, p.r_end))
            .collect()
    }

    fn names(&self) -> Vec<String> {
        self.params.iter().map(|p| p.name.clone()).collect()
    }
}

/// The engine's name as a local tune names it (its sides are `name+` and `name-`).
fn engine_name(tune: &TunePlan) -> String {
    tune.plan.engines[0]
        .spec
        .name
        .trim_end_matches('+')
        .to_owned()
}

/// The run to store for a tune, and its state: the checks of a local tune's start (the
/// opening file, the engine's options, each parameter's range fitted to the engine's)
/// made here, so that a bad tune is refused at submit.
///
/// # Errors
/// One line naming the problem (file:line of the parameter where there is one).
pub async fn new_run(
    tune: &mut TunePlan,
    batch_pairs: u32,
    policy: UploadPolicy,
) -> Result<(NewRun, String), String> {
    let plan = &tune.plan;
    crate::local_run::tournament::load_openings(plan).map_err(|e| e.to_string())?;
    let announced = crate::tune::options::announced(&plan.engines[0], plan.timeouts).await?;
    for warning in
        crate::tune::options::fit(&mut tune.params, &announced).map_err(|e| e.to_string())?
    {
        eprintln!("{warning}");
    }
    let plan = &tune.plan;
    let openings_fingerprint = match &plan.openings {
        Some(o) => Some(
            InputFile::of(&o.path)
                .map_err(|e| format!("{}: cannot read: {e}", o.path.display()))?
                .fingerprint,
        ),
        None => None,
    };
    let state = TuneState {
        params: tune.params.clone(),
        schedule: tune.schedule,
        theta: tune.params.iter().map(|p| p.start).collect(),
        seed: Some(tune.plan.seed),
    };
    let engine = &plan.engines[0];
    let bench = engine
        .bench
        .map(|b| (engine.spec.name.clone(), b))
        .into_iter()
        .collect();
    let run = NewRun {
        title: format!("tune of {}", engine_name(tune)),
        // `submit --submitter` replaces it.
        submitter: super::submitter::this_machine(),
        config: tune.config.clone(),
        config_hash: crate::fnv::fnv1a_hex(tune.config.as_bytes()),
        openings_fingerprint,
        bench,
        total_pairs: tune.schedule.iterations,
        batch_pairs: batch_pairs.max(1),
        judge: None,
        starts: None,
        commits: std::collections::BTreeMap::new(),
        // Both sides play the one [[engine]] of the config.
        uploads: uploads(
            [(0, engine)],
            plan.openings.as_ref().map(|o| o.path.as_path()),
            policy,
        )?,
    };
    Ok((run, state.to_json()?))
}

/// A tune run made ready on a worker.
#[derive(Debug)]
pub struct TuneRun {
    pub tune: TunePlan,
    pub gains: Vec<Gains>,
    pub names: Arc<Vec<String>>,
    /// Each side's options that are not tuned.
    pub fixed: [Vec<(String, String)>; 2],
}

impl TuneRun {
    /// The tune of a stored run, with the parameters and schedule of its state, its
    /// config changed by `overrides` (where the files it carries are on this worker).
    ///
    /// # Errors
    /// One line: the stored config no longer validates here, or the state is damaged.
    pub fn of(run: &RunRow, overrides: &[String]) -> Result<TuneRun, String> {
        let state = TuneState::of(run)?;
        let mut tune = crate::tune::config::parse(
            &format!("run {} (stored config)", run.id),
            &run.config,
            overrides,
            Vec::new(),
        )
        .map_err(|e| e.to_string())?;
        tune.params.clone_from(&state.params);
        tune.schedule = state.schedule;
        let fixed = [
            tune.plan.engines[0].spec.options.clone(),
            tune.plan.engines[1].spec.options.clone(),
        ];
        Ok(TuneRun {
            gains: state.gains(),
            names: Arc::new(state.names()),
            fixed,
            tune,
        })
    }
}

/// One parameter's state, for `status`.
#[derive(Clone, Debug, Serialize)]
pub struct ParamNow {
    pub name: String,
    pub value: f64,
    pub start: f64,
    pub min: f64,
    pub max: f64,
}

/// A tune run's state, as `status --json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct TuneStatus {
    pub id: i64,
    pub kind: &'static str,
    pub title: String,
    /// Its description, submitter and engine with its build.
    #[serde(flatten)]
    pub about: super::about::About,
    pub state: String,
    pub status: String,
    pub exit_code: Option<u8>,
    /// Iterations applied to theta.
    pub pairs: u64,
    pub pairs_total: u64,
    pub pairs_claimed: u64,
    pub pairs_expired: u64,
    pub pairs_left: u64,
    pub params: Vec<ParamNow>,
    /// The current values as an `options = { ... }` line.
    pub options_line: String,
    pub workers: Vec<WorkerLine>,
}

/// The state of a tune run.
///
/// # Errors
/// One line: a damaged state.
pub fn status(
    run: &RunRow,
    pairs: PairStates,
    workers: &[RunWorker],
) -> Result<TuneStatus, String> {
    let state = TuneState::of(run)?;
    let summary = TuneSummary::new("", 0, &state.params, &state.theta, &[], "");
    Ok(TuneStatus {
        id: run.id,
        kind: "tune",
        title: run.title.clone(),
        about: super::about::About::of(run, &super::about::About::engine_names(&run.config))
            .measured_by(workers),
        state: run.state.clone(),
        status: run.status.clone(),
        exit_code: run.exit_code,
        pairs: run.pairs_done,
        pairs_total: run.total_pairs,
        pairs_claimed: super::status::pairs_now(run, pairs).claimed,
        pairs_expired: super::status::pairs_now(run, pairs).expired,
        pairs_left: super::status::pairs_now(run, pairs).left,
        params: state
            .params
            .iter()
            .zip(&state.theta)
            .map(|(p, &value)| ParamNow {
                name: p.name.clone(),
                value,
                start: p.start,
                min: p.min,
                max: p.max,
            })
            .collect(),
        options_line: summary.options_line,
        workers: super::status::worker_lines(workers),
    })
}

impl TuneStatus {
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
        out.push_str(&self.about.to_text());
        let _ = writeln!(
            out,
            "Tune: {} of {} iterations applied",
            self.pairs, self.pairs_total
        );
        for p in &self.params {
            let _ = writeln!(
                out,
                "  {}: {:.2} (start {}, range [{}, {}])",
                p.name, p.value, p.start, p.min, p.max
            );
        }
        let _ = writeln!(out, "  {}", self.options_line);
        out.push_str(&super::status::pairs_text(
            &self.state,
            self.pairs,
            [self.pairs_claimed, self.pairs_expired, self.pairs_left],
            self.pairs_total,
        ));
        super::status::workers_text(&self.workers, &mut out);
        out
    }
}

/// What a tune run's report is made of: its summary (values, trajectory) and its
/// records, read from the database (`report --db` and the pages of `serve`).
///
/// # Errors
/// One line: not a tune, a damaged record, the database's error.
pub async fn summary_of(db: &Db, run: &RunRow) -> Result<(TuneSummary, Vec<Record>), String> {
    let tune = TuneRun::of(run, &[])?;
    let state = TuneState::of(run)?;
    let mut records: Vec<Record> = Vec::new();
    let mut damaged = None;
    db.tune_records(run.id, |line| match serde_json::from_str::<Record>(line) {
        Ok(r) => records.push(r),
        Err(e) => {
            damaged.get_or_insert(e);
        }
    })
    .await
    .map_err(|e| e.to_string())?;
    if let Some(e) = damaged {
        return Err(format!("run {}: a tune record is damaged: {e}", run.id));
    }
    let status = if run.is_open() {
        "in progress".to_owned()
    } else {
        run.status.clone()
    };
    let summary = TuneSummary::new(
        &engine_name(&tune.tune),
        state.schedule.iterations,
        &state.params,
        &state.theta,
        &records,
        &status,
    );
    Ok((summary, records))
}

/// Writes tune run `id` into `dir` as a local tune's folder: a new folder, or one
/// holding an earlier report of the same tune (written over).
///
/// # Errors
/// One line: not a tune, a folder holding something else, a file that cannot be written.
pub async fn write_report(db: &Db, run: &RunRow, dir: &std::path::Path) -> Result<(), String> {
    // Read before the folder is touched: a run that is no tune changes nothing.
    let (summary, records) = summary_of(db, run).await?;
    let earlier = match std::fs::read_to_string(dir.join(TUNE_RUN)) {
        Ok(text) => {
            // Only an earlier report of this stored tune is written over: a local tune of
            // the same config, or another stored one, keeps its journal.
            let holds = match serde_json::from_str::<TuneMeta>(&text) {
                Ok(meta) if meta.db_run == Some(run.id) && meta.config == run.config => None,
                Ok(TuneMeta { db_run: None, .. }) => Some("a local tune".to_owned()),
                Ok(TuneMeta {
                    db_run: Some(other),
                    ..
                }) if other != run.id => Some(format!("stored tune {other}")),
                Ok(_) => Some(format!("a tune {} of another database", run.id)),
                Err(_) => Some("another tune".to_owned()),
            };
            if let Some(holds) = holds {
                return Err(format!(
                    "{}: holds {holds}, not tune {}: give another --out",
                    dir.display(),
                    run.id
                ));
            }
            true
        }
        Err(_) => {
            RunFolder::check_new(dir, Workload::Tune).map_err(|e| e.to_string())?;
            false
        }
    };
    // Held while the folder is written: no local tune may start in it meanwhile.
    let _folder = crate::tune::folder::create(dir, &run.config, earlier, Some(run.id))?;
    let journal = dir.join(TUNE_JOURNAL);
    let mut lines = String::new();
    for r in &records {
        lines.push_str(&serde_json::to_string(r).map_err(|e| e.to_string())?);
        lines.push('\n');
    }
    crate::atomic_file::write(&journal, lines.as_bytes())
        .map_err(|e| format!("{}: cannot write: {e}", journal.display()))?;
    summary
        .write(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    crate::tune::report::write(dir, &summary, &records, &run.config)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(())
}
