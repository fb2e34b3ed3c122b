//! The engines at work: `concurrency` processes take candidate lines by index,
//! and the results are judged in index order, so the file does not depend on
//! which process finished first.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc;

use super::analyst::Analyst;
use super::sampler::{sample_line, LineOutcome};
use super::{GenerateError, Settings};
use crate::client::{EngineSpec, Timeouts};
use crate::openings::{Checker, Opening, ProblemKind};

/// Counts of what happened to the candidate lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Lines judged (in index order).
    pub tried: u64,
    /// Lines kept.
    pub kept: u64,
    /// Lines whose final score was outside the window.
    pub unbalanced: u64,
    /// Lines that reached a position (or mirror image) kept before.
    pub duplicates: u64,
    /// Lines that ended the game.
    pub game_over: u64,
    /// Lines that could not go on without repeating a position.
    pub dead_ends: u64,
    /// Engine searches, all processes together.
    pub searches: u64,
}

/// The result of a run.
#[derive(Debug)]
pub struct Generated {
    /// The openings kept, in the order they were found.
    pub openings: Vec<Opening>,
    /// The engine's own name (`id name`), if it gave one.
    pub engine_name: Option<String>,
    /// What happened to the lines.
    pub stats: Stats,
}

type Done = (u64, Result<LineOutcome, GenerateError>);

/// Generates `settings.count` openings with `concurrency` copies of the engine.
/// `on_progress` is called after every judged line.
///
/// # Errors
/// Bad settings, an engine that fails (a process that dies is restarted once),
/// or too few balanced lines within `settings.max_lines`.
pub async fn generate(
    spec: &EngineSpec,
    timeouts: Timeouts,
    settings: &Settings,
    concurrency: usize,
    on_progress: &mut dyn FnMut(&Stats),
) -> Result<Generated, GenerateError> {
    settings.validate()?;
    let concurrency = concurrency.clamp(1, settings.max_lines.try_into().unwrap_or(usize::MAX));
    let mut analysts = Vec::with_capacity(concurrency);
    for _ in 0..concurrency {
        match Analyst::start(spec, timeouts).await {
            Ok(analyst) => analysts.push(analyst),
            Err(e) => {
                for analyst in analysts {
                    analyst.quit().await;
                }
                return Err(e);
            }
        }
    }
    let engine_name = analysts
        .first()
        .and_then(|a| a.id_name().map(str::to_owned));
    let settings = Arc::new(settings.clone());
    let next = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Done>(concurrency * 2);
    let workers: Vec<_> = analysts
        .into_iter()
        .map(|analyst| {
            let work = work(
                analyst,
                Arc::clone(&settings),
                Arc::clone(&next),
                Arc::clone(&stop),
                tx.clone(),
            );
            tokio::spawn(work)
        })
        .collect();
    drop(tx);
    let mut stats = Stats::default();
    let result = judge_in_order(rx, &settings, &mut stats, on_progress).await;
    stop.store(true, Ordering::Relaxed);
    for worker in workers {
        if let Ok(searches) = worker.await {
            stats.searches += searches;
        }
    }
    let openings = result?;
    Ok(Generated {
        openings,
        engine_name,
        stats,
    })
}

/// Takes line indices until told to stop or out of lines; returns the number of
/// searches made. An engine fault restarts the engine and retries the line once
/// (a line depends on its index only, so the retry gives what the first try would).
async fn work(
    mut analyst: Analyst,
    settings: Arc<Settings>,
    next: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    tx: mpsc::Sender<Done>,
) -> u64 {
    while !stop.load(Ordering::Relaxed) {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= settings.max_lines {
            break;
        }
        let mut outcome = sample_line(&mut analyst, &settings, index).await;
        if let Err(GenerateError::Engine { source }) = &outcome {
            tracing::warn!("engine fault on line {index} ({source}); restarting it");
            outcome = match analyst.restart().await {
                Ok(()) => sample_line(&mut analyst, &settings, index).await,
                Err(e) => Err(e),
            };
        }
        let failed = outcome.is_err();
        if tx.send((index, outcome)).await.is_err() || failed {
            break;
        }
    }
    let searches = analyst.searches;
    analyst.quit().await;
    searches
}

/// Receives outcomes in any order and judges them in index order until
/// `settings.count` openings are kept.
async fn judge_in_order(
    mut rx: mpsc::Receiver<Done>,
    settings: &Settings,
    stats: &mut Stats,
    on_progress: &mut dyn FnMut(&Stats),
) -> Result<Vec<Opening>, GenerateError> {
    let mut pending = BTreeMap::new();
    let mut next_index = 0;
    let mut checker = Checker::new();
    let mut openings = Vec::with_capacity(settings.count);
    while let Some((index, outcome)) = rx.recv().await {
        pending.insert(index, outcome);
        while let Some(outcome) = pending.remove(&next_index) {
            next_index += 1;
            stats.tried += 1;
            match outcome? {
                LineOutcome::Balanced { mut opening, .. } => {
                    opening.line = openings.len() + 1;
                    match checker.check(&opening) {
                        None => {
                            stats.kept += 1;
                            openings.push(*opening);
                        }
                        Some(ProblemKind::GameOver(_)) => stats.game_over += 1,
                        Some(_) => stats.duplicates += 1,
                    }
                }
                LineOutcome::Unbalanced { .. } => stats.unbalanced += 1,
                LineOutcome::GameOver => stats.game_over += 1,
                LineOutcome::DeadEnd => stats.dead_ends += 1,
            }
            on_progress(stats);
            if openings.len() == settings.count {
                return Ok(openings);
            }
        }
    }
    Err(GenerateError::NotEnough {
        found: openings.len(),
        wanted: settings.count,
        tried: stats.tried,
    })
}
