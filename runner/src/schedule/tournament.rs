//! A whole run: preflight, workers, the journal, statistics after every game, SPRT and
//! fault stops, Ctrl-C, and the files at the end.
//!
//! Shutdown follows mini-redis: one `watch` channel carries the run state to every
//! worker; SPRT verdicts set `Finishing` (games in progress end normally), fault limits
//! and Ctrl-C set `Aborting` (games in progress are dropped, their engines killed, and
//! the journal stays resumable). A second Ctrl-C exits at once.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use tokio::sync::{mpsc, watch};

use super::jobs::{Jobs, Pending};
use super::tracker::Tracker;
use super::worker::{worker, Finished, RunState, Shared};
use crate::cli::exit;
use crate::client::EngineSession;
use crate::config::{Kind, Loaded, Plan};
use crate::game::EndReason;
use crate::openings::{BookUse, OpeningBook};
use crate::output::journal::{Journal, JournalError};
use crate::output::pgn_file::write_games_pgn;
use crate::output::progress::Progress;
use crate::output::summary::{ratings, summarize, RunnerCost};
use crate::output::text::{finished_line, rating_table, result_block};
use crate::stats::{Estimate, StatsReport, Verdict};

/// Why a run could not start or continue.
#[derive(Debug, Error)]
pub enum RunError {
    #[error("{0}")]
    Openings(String),
    #[error("engine `{name}` cannot be used: {why}")]
    EngineStart { name: String, why: String },
    #[error("{0}")]
    OutputDir(String),
    #[error(transparent)]
    Journal(#[from] JournalError),
}

/// What `run.json` records about a run, to resume it safely.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunMeta {
    pub version: String,
    pub config_hash: String,
    pub config: String,
}

/// How a run ended.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub exit_code: u8,
    pub status: String,
    pub output_dir: PathBuf,
}

const JOURNAL: &str = "games.jsonl";

/// Prepares the output folder: refuses to overwrite a run, and checks a resumed run is
/// the same run.
fn prepare_output(loaded: &Loaded, resume: bool) -> Result<(), RunError> {
    let dir = &loaded.plan.output.dir;
    let journal = dir.join(JOURNAL);
    let meta_path = dir.join("run.json");
    let out_err = |what: String| RunError::OutputDir(format!("{}: {what}", dir.display()));
    if resume {
        let text = std::fs::read_to_string(&meta_path)
            .map_err(|e| out_err(format!("nothing to resume (run.json: {e})")))?;
        let meta: RunMeta = serde_json::from_str(&text)
            .map_err(|e| out_err(format!("run.json is damaged: {e}")))?;
        if meta.config_hash != loaded.hash {
            return Err(out_err("the config differs from the one the run started with (compare run.json); resume with the same config and overrides".to_owned()));
        }
        return Ok(());
    }
    if journal.exists() {
        return Err(out_err("already holds a run (games.jsonl): add --resume to continue it, or choose another --set output.dir".to_owned()));
    }
    std::fs::create_dir_all(dir).map_err(|e| out_err(format!("cannot create: {e}")))?;
    let meta = RunMeta {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        config_hash: loaded.hash.clone(),
        config: loaded.text.clone(),
    };
    let text = serde_json::to_string_pretty(&meta).unwrap_or_default();
    std::fs::write(&meta_path, text).map_err(|e| out_err(format!("cannot write run.json: {e}")))?;
    Ok(())
}

/// Starts every engine once before anything is played, so a wrong command stops the run
/// with a clear message instead of a column of losses.
async fn preflight(plan: &Plan) -> Result<(), RunError> {
    for engine in &plan.engines {
        match EngineSession::start(&engine.spec, plan.timeouts).await {
            Ok(session) => session.quit().await,
            Err(e) => {
                return Err(RunError::EngineStart {
                    name: engine.spec.name.clone(),
                    why: e.to_string(),
                })
            }
        }
    }
    Ok(())
}

/// Loads the openings, checking every line (a run's first step, and all a dry run
/// does with them).
///
/// # Errors
/// [`RunError::Openings`] for a file that cannot be read or a bad line.
pub fn load_openings(
    plan: &Plan,
) -> Result<Option<(OpeningBook, crate::openings::Schedule)>, RunError> {
    let Some(openings) = &plan.openings else {
        return Ok(None);
    };
    let using = BookUse {
        format: openings.format,
        order: openings.order,
        seed: openings.seed,
        start: openings.start,
        rounds: plan.pairs,
        plies: openings.plies,
    };
    let (book, schedule) = OpeningBook::load_used(&openings.path, &using)
        .map_err(|e| RunError::Openings(e.to_string()))?;
    Ok(Some((book, schedule)))
}

/// Plays (or resumes) a run.
///
/// # Errors
/// [`RunError`] when the run cannot start: bad openings, an engine that does not start,
/// an output folder that holds another run.
pub async fn run(loaded: &Loaded, resume: bool) -> Result<RunOutcome, RunError> {
    let plan = &loaded.plan;
    let openings = load_openings(plan)?;
    preflight(plan).await?;
    prepare_output(loaded, resume)?;
    let started = Instant::now();
    let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
    let names: Vec<String> = plan.engines.iter().map(|e| e.spec.name.clone()).collect();
    let mut tracker = Tracker::new(names, plan.pairings.len());
    let journal_path = plan.output.dir.join(JOURNAL);
    if resume {
        // The games already played, streamed from the journal into the counts.
        Journal::scan(&journal_path, |_, entry| {
            let job = jobs.job(entry.pair, entry.game);
            let (a, b) = plan.pairings[job.pairing];
            tracker.record(&entry, job.pairing, a, b);
        })?;
    }
    let mut journal = Journal::open(&journal_path)?;
    let total_games = jobs.total_pairs() * 2;
    let progress = Progress::new(total_games, tracker.games_done() as u64);
    if resume {
        progress.println(&format!(
            "Resuming {}: {} games already played",
            plan.output.dir.display(),
            tracker.games_done()
        ));
    }

    let (state_tx, state_rx) = watch::channel(RunState::Running);
    let mut stop_status: Option<(&str, u8)> = verdict_status(plan, &tracker);
    if stop_status.is_some() {
        let _ = state_tx.send(RunState::Finishing);
    }
    let pending = Pending::new(jobs, tracker.finished().clone());
    let workers = usize::try_from(pending.remaining())
        .map_or(plan.concurrency, |left| plan.concurrency.min(left))
        .max(1);
    let shared = Arc::new(Shared {
        plan: plan.clone(),
        openings,
        queue: Mutex::new(pending),
    });
    let (results_tx, mut results_rx) = mpsc::channel::<Finished>(workers * 2);
    let mut handles = Vec::new();
    for _ in 0..workers {
        handles.push(tokio::spawn(worker(
            Arc::clone(&shared),
            results_tx.clone(),
            state_rx.clone(),
        )));
    }
    drop(results_tx);

    let interrupted = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let signal_state = state_tx.clone();
    let signal_flag = Arc::clone(&interrupted);
    let signals = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            signal_flag.store(true, std::sync::atomic::Ordering::SeqCst);
            eprintln!("\nInterrupted: stopping games, killing engines, saving the results (Ctrl-C again to quit at once)");
            let _ = signal_state.send(RunState::Aborting);
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(i32::from(exit::ABORTED));
            }
        }
    });

    let mut pairs_reported = completed_pairs(plan, &tracker);
    let mut moves_played: u64 = 0;
    while let Some(finished) = results_rx.recv().await {
        let job = finished.job;
        let (a, b) = plan.pairings[job.pairing];
        if let Err(e) = journal.append(&finished.entry) {
            progress.println(&format!("error: {e}; stopping"));
            let _ = state_tx.send(RunState::Aborting);
            stop_status = Some(("aborted", exit::ABORTED));
        }
        tracker.record(&finished.entry, job.pairing, a, b);
        moves_played += finished.entry.plies as u64;
        progress.println(&finished_line(
            job.pair * 2 + u64::from(job.game) + 1,
            &finished.entry,
        ));
        progress.game_done(estimate_message(plan, &tracker));
        let pairs = completed_pairs(plan, &tracker);
        if pairs / plan.output.report_interval > pairs_reported / plan.output.report_interval {
            progress.println(&report_text(plan, &tracker));
        }
        pairs_reported = pairs;
        if stop_status.is_none() {
            if let Some(reason) = fault_limit(plan, &tracker) {
                progress.println(&format!("Aborting: {reason}"));
                stop_status = Some(("aborted", exit::ABORTED));
                let _ = state_tx.send(RunState::Aborting);
            } else if let Some(status) = verdict_status(plan, &tracker) {
                stop_status = Some(status);
                let _ = state_tx.send(RunState::Finishing);
            }
        }
    }
    for handle in handles {
        let _ = handle.await;
    }
    signals.abort();
    progress.finish();

    let was_interrupted = interrupted.load(std::sync::atomic::Ordering::SeqCst);
    let (status, code) = if was_interrupted {
        ("interrupted", exit::ABORTED)
    } else {
        stop_status.unwrap_or_else(|| final_status(plan, &tracker))
    };
    write_games_pgn(
        plan,
        shared.openings.as_ref().map(|(book, _)| book),
        &plan.output.dir.join(JOURNAL),
        tracker.finished(),
        today(),
    )
    .map_err(|e| RunError::OutputDir(e.to_string()))?;
    let cost = RunnerCost::measure(moves_played);
    let elapsed = started.elapsed().as_secs_f64();
    let summary = summarize(plan, &loaded.hash, &tracker, status, code, elapsed, cost);
    let summary_text = serde_json::to_string_pretty(&summary).unwrap_or_default();
    std::fs::write(plan.output.dir.join("summary.json"), summary_text)
        .map_err(|e| RunError::OutputDir(format!("cannot write summary.json: {e}")))?;
    if let Err(e) = crate::output::report::write_report(&plan.output.dir) {
        eprintln!("warning: the HTML report could not be written: {e}");
    }
    if completed_pairs(plan, &tracker) % plan.output.report_interval != 0
        || completed_pairs(plan, &tracker) == 0
    {
        println!("{}", report_text(plan, &tracker).trim_end());
    }
    println!(
        "Finished: {status} ({} games in {:.1} s); results in {}",
        tracker.games_done(),
        started.elapsed().as_secs_f64(),
        plan.output.dir.display()
    );
    if code == exit::ABORTED {
        println!("Resume with: xq-runner run <config> --resume (same config and --set options)");
    }
    Ok(RunOutcome {
        exit_code: code,
        status: status.to_owned(),
        output_dir: plan.output.dir.clone(),
    })
}

fn completed_pairs(plan: &Plan, tracker: &Tracker) -> u64 {
    (0..plan.pairings.len())
        .map(|k| tracker.tally(k).penta.pairs())
        .sum()
}

/// Elo and LLR for the progress bar.
fn estimate_message(plan: &Plan, tracker: &Tracker) -> String {
    let tally = tracker.tally(0);
    let e = Estimate::new(&tally.penta);
    let mut message = format!("Elo {:.1} +/- {:.1}", e.elo, e.elo_ci95);
    if let Some(report) = plan
        .sprt
        .as_ref()
        .and_then(|s| StatsReport::from_tally(&tally, s).ok())
    {
        message.push_str(&format!(
            ", LLR {:.2} ({:.2}, {:.2})",
            report.llr, report.llr_lower, report.llr_upper
        ));
    }
    message
}

/// The result block (match) or the rating table (more engines).
fn report_text(plan: &Plan, tracker: &Tracker) -> String {
    match plan.kind {
        Kind::Match => {
            let names = (
                plan.engines[0].spec.name.as_str(),
                plan.engines[1].spec.name.as_str(),
            );
            result_block(names, &tracker.tally(0), plan.sprt.as_ref())
        }
        Kind::Gauntlet | Kind::RoundRobin | Kind::Ladder => rating_table(&ratings(tracker)),
    }
}

/// The SPRT verdict, if one is reached.
fn verdict_status(plan: &Plan, tracker: &Tracker) -> Option<(&'static str, u8)> {
    let sprt = plan.sprt.as_ref()?;
    let report = StatsReport::from_tally(&tracker.tally(0), sprt).ok()?;
    match report.verdict {
        Verdict::H1 => Some(("H1 accepted", exit::OK)),
        Verdict::H0 => Some(("H0 accepted", exit::H0)),
        Verdict::Continue => None,
    }
}

/// The status when every game was played.
fn final_status(plan: &Plan, tracker: &Tracker) -> (&'static str, u8) {
    if let Some(min) = plan.gate_min_elo {
        let e = Estimate::new(&tracker.tally(0).penta);
        return if e.elo >= min {
            ("gate passed", exit::OK)
        } else {
            ("gate failed: Elo below the minimum", exit::H0)
        };
    }
    if plan.sprt.is_some() {
        ("finished without an SPRT verdict", exit::NO_VERDICT)
    } else {
        ("finished", exit::OK)
    }
}

/// Whether an engine has more faults than the config allows.
fn fault_limit(plan: &Plan, tracker: &Tracker) -> Option<String> {
    let limits = plan.faults;
    for (i, engine) in plan.engines.iter().enumerate() {
        let crashes =
            tracker.fault_count(i, EndReason::Crash) + tracker.fault_count(i, EndReason::Stall);
        let time = tracker.fault_count(i, EndReason::TimeForfeit);
        let illegal = tracker.fault_count(i, EndReason::IllegalMove)
            + tracker.fault_count(i, EndReason::NoMove);
        let name = &engine.spec.name;
        if crashes > u64::from(limits.max_crashes) {
            return Some(format!(
                "{name} crashed or stalled {crashes} times (faults.max_crashes = {})",
                limits.max_crashes
            ));
        }
        if time > u64::from(limits.max_time_losses) {
            return Some(format!(
                "{name} lost {time} games on time (faults.max_time_losses = {})",
                limits.max_time_losses
            ));
        }
        if illegal > u64::from(limits.max_illegal_moves) {
            return Some(format!(
                "{name} made {illegal} illegal or missing moves (faults.max_illegal_moves = {})",
                limits.max_illegal_moves
            ));
        }
    }
    None
}

/// Today's date for PGN headers (`YYYY.MM.DD`), from the system clock.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}
