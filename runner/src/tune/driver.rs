//! The tune loop: iterations handed out in order, each one pair queued on the slot pool
//! (`crate::play`) between two copies of the engine, one at theta + c_k * flip and one
//! at theta - c_k * flip; each result journalled, then applied to theta, the moment it
//! arrives.
//!
//! At concurrency C, up to C iterations are in flight. Iteration k takes theta and its
//! gains c_k, R_k when it is handed out, and its update is applied to theta as it is when
//! the result arrives: every k is used exactly once, in order of hand-out, but theta has
//! moved by up to C - 1 other updates in between (see `docs/tuning.md`).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::watch;

use super::config::TunePlan;
use super::folder;
use super::iteration::{assign, update, InFlight};
use super::journal::TuneJournal;
use super::options;
use super::outputs::TuneSummary;
use super::progress::TuneProgress;
use super::report;
use super::spsa::Gains;
use crate::config::{FaultKind, FaultLimits};
use crate::exit;
use crate::game::EndReason;
use crate::play::engines::RunContext;
use crate::play::pool::{close_all, PairEnd, Pool, Report};
use crate::play::{stop_on_signal, RunState};
use crate::store::folder::{RunFolder, Workload, TUNE_JOURNAL};

/// Why a tune ended without its files.
#[derive(Debug, thiserror::Error)]
pub enum TuneFailure {
    /// A bad config, opening file, folder or engine: nothing was played (exit 2).
    #[error("{0}")]
    Input(String),
    /// Played, its iterations in the journal, but its files could not be written (a
    /// full disk): `--resume` writes them (exit 4).
    #[error(
        "{0}; the iterations are in the journal: `--resume` writes the files once there is room"
    )]
    Outputs(String),
}

impl From<String> for TuneFailure {
    fn from(why: String) -> TuneFailure {
        TuneFailure::Input(why)
    }
}

/// How a tune ended.
#[derive(Debug)]
pub struct TuneOutcome {
    pub exit_code: u8,
    /// The tune can be continued with `--resume`.
    pub resumable: bool,
}

/// The values as `name value, ...` for the progress bar.
fn values_text(names: &[String], theta: &[f64]) -> String {
    names
        .iter()
        .zip(theta)
        .map(|(n, t)| format!("{n} {t:.1}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Faults of this session, by kind ([`FaultKind::of`], the rule of a run), against the
/// run's limits.
#[derive(Default)]
pub(crate) struct FaultCounter {
    /// Per [`FaultKind::ALL`].
    counts: [u32; 3],
}

impl FaultCounter {
    pub(crate) fn add(&mut self, reason: EndReason, limits: FaultLimits) -> Option<String> {
        let kind = FaultKind::of(reason)?;
        let count = &mut self.counts[kind.index()];
        *count += 1;
        let limit = limits.limit(kind);
        (*count > limit).then(|| format!("{count} {} ({} = {limit})", kind.what(), kind.key()))
    }
}

/// Checks the engine's options, then plays (or resumes) the tune and writes its files.
///
/// # Errors
/// One line when the tune cannot start (nothing has been played then): bad openings, a
/// parameter the engine does not have, a folder that holds another tune.
pub async fn tune(tune: &mut TunePlan, resume: bool) -> Result<TuneOutcome, TuneFailure> {
    let plan = tune.plan.clone();
    let dir = plan.output.dir.clone();
    let openings = crate::local_run::tournament::load_openings(&plan).map_err(|e| e.to_string())?;
    // Held while the tune plays: one runner at a time in its folder. A new tune takes
    // it when it creates the folder.
    let mut run_folder = None;
    if resume {
        folder::check_resume(&dir, &tune.config)?;
        run_folder = Some(RunFolder::open(&dir).map_err(|e| e.to_string())?);
    } else {
        RunFolder::check_new(&dir, Workload::Tune).map_err(|e| e.to_string())?;
    }
    let announced = options::announced(&plan.engines[0], plan.timeouts).await?;
    for warning in options::fit(&mut tune.params, &announced).map_err(|e| e.to_string())? {
        eprintln!("{warning}");
    }
    if !resume {
        run_folder = Some(folder::create(&dir, &tune.config, false, None)?);
    }
    let (mut journal, mut records) =
        TuneJournal::open(&dir.join(TUNE_JOURNAL)).map_err(|e| e.to_string())?;
    let params = &tune.params;
    let names: Arc<Vec<String>> = Arc::new(params.iter().map(|p| p.name.clone()).collect());
    let gains: Vec<Gains> = params
        .iter()
        .map(|p| Gains::new(&tune.schedule, p.min, p.max, p.c_end, p.r_end))
        .collect();
    let n = tune.schedule.iterations;
    let mut done = HashSet::new();
    for r in &records {
        if r.iteration == 0 || r.iteration > n || !done.insert(r.iteration) {
            return Err(TuneFailure::Input(format!(
                "{}: iteration {} is beyond the tune's {n} or there twice",
                dir.join(TUNE_JOURNAL).display(),
                r.iteration
            )));
        }
    }
    let mut theta = super::journal::theta_after(params, &records);
    let mut pending: VecDeque<u64> = (1..=n).filter(|k| !done.contains(k)).collect();
    let progress = TuneProgress::new(n, records.len() as u64, plan.output.report_interval);
    if resume {
        progress.println(&format!(
            "Resuming {}: {} of {n} pairs played; {}",
            dir.display(),
            records.len(),
            values_text(&names, &theta)
        ));
    }

    let (state_tx, state_rx) = watch::channel(RunState::Running);
    let interrupted = Arc::new(AtomicBool::new(false));
    // The pairs in progress are dropped: their iterations are played again on resume.
    let signals = tokio::spawn(stop_on_signal(
        "stopping the pairs in progress, saving the results",
        state_tx.clone(),
        Arc::clone(&interrupted),
    ));
    let fixed = [
        plan.engines[0].spec.options.clone(),
        plan.engines[1].spec.options.clone(),
    ];
    let workers = plan.concurrency.min(pending.len());
    let run = Arc::new(RunContext {
        plan: plan.clone(),
        openings,
        random_plies: None,
    });
    let mut pool = Pool::start(&run, Vec::new(), workers);
    let mut in_flight: HashMap<u64, InFlight> = HashMap::new();
    let mut stop: Option<String> = None;
    let mut faults = FaultCounter::default();
    loop {
        // One iteration a free slot, handed out with theta as it is now.
        while stop.is_none() && *state_rx.borrow() == RunState::Running && in_flight.len() < workers
        {
            let Some(k) = pending.pop_front() else { break };
            let pair = InFlight::new(assign(plan.seed, &tune.schedule, &gains, &theta, k));
            pool.add([pair.order(&fixed, &names, &state_rx)]);
            in_flight.insert(k, pair);
        }
        if in_flight.is_empty() {
            pool.finish();
        }
        let (k, end) = match pool.next().await {
            None => break,
            Some(Report::Game(k, entry)) => {
                if let Some(pair) = in_flight.get_mut(&k) {
                    pair.add(&entry);
                }
                continue;
            }
            Some(Report::Pair(k, end)) => (k, end),
        };
        let Some(InFlight { a, scores, reasons }) = in_flight.remove(&k) else {
            continue;
        };
        match end {
            PairEnd::Whole => {}
            PairEnd::Dropped => continue,
            PairEnd::Failed(why) => {
                progress.println(&format!("error: {why}; stopping"));
                stop.get_or_insert(why);
                let _ = state_tx.send(RunState::Stopping);
                continue;
            }
        }
        let (after, record) = match update(&a, &names, &gains, &theta, scores) {
            Ok(updated) => updated,
            Err(e) => {
                progress.println(&format!("error: {e}; stopping"));
                stop.get_or_insert(e.to_string());
                let _ = state_tx.send(RunState::Stopping);
                continue;
            }
        };
        // The journal first: theta moves on only once the result is on disk.
        if let Err(e) = journal.append(&record) {
            progress.println(&format!("error: {e}; stopping"));
            stop.get_or_insert(e.to_string());
            let _ = state_tx.send(RunState::Stopping);
            continue;
        }
        theta = after;
        records.push(record);
        progress.pair_done(records.len() as u64, &values_text(&names, &theta));
        for reason in reasons {
            if let Some(why) = faults.add(reason, plan.faults) {
                if stop.is_none() {
                    progress.println(&format!("Aborting: {why}"));
                    stop = Some(why);
                    let _ = state_tx.send(RunState::Stopping);
                }
            }
        }
    }
    close_all(pool.close().await).await;
    signals.abort();
    progress.finish();
    let finished = records.len() as u64 == n;
    let status = if finished {
        "finished".to_owned()
    } else if interrupted.load(Ordering::SeqCst) {
        "interrupted".to_owned()
    } else {
        format!("aborted: {}", stop.as_deref().unwrap_or("stopped"))
    };
    let summary = TuneSummary::new(
        plan.engines[0].spec.name.trim_end_matches('+'),
        n,
        params,
        &theta,
        &records,
        &status,
    );
    summary
        .write(&dir)
        .map_err(|e| TuneFailure::Outputs(format!("{}: {e}", dir.display())))?;
    report::write(&dir, &summary, &records, &tune.config)
        .map_err(|e| TuneFailure::Outputs(format!("{}: {e}", dir.display())))?;
    drop(run_folder);
    crate::stdout::line(summary.text().trim_end());
    crate::stdout::line(format_args!(
        "Tune {status}: {} of {n} pairs; results in {}",
        records.len(),
        dir.display()
    ));
    Ok(TuneOutcome {
        exit_code: if finished { exit::OK } else { exit::ABORTED },
        resumable: !finished,
    })
}
