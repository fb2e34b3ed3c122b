//! One batch of a tune run on a worker: its iterations take theta as the server took it
//! at the claim (their flips, gains and rounded values made as a local tune makes them),
//! their pairs are played on the slot pool as a local tune's are, the
//! lease renewed meanwhile; then the two games of each iteration are submitted, and the
//! server applies them to theta as it is when the batch commits (`schema_v4.sql`).
//!
//! A batch counts whole or not at all: a stop, a lost lease or a killed worker drops
//! it, theta never saw it, and the server hands its pairs out again, with theta as it
//! is then.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::watch;

use super::tune_run::TuneRun;
use super::worker::{AfterBatch, WorkerConnection, WorkerOptions, WorkerStop};
use crate::play::engines::RunContext;
use crate::play::pool::{close_all, PairEnd, Pool, Report};
use crate::play::RunState;
use crate::store::pg::batches::Claim;
use crate::store::pg::DbError;
use crate::tune::iteration::{assign, InFlight, IterationSides};

/// Plays the assignments on at most `slots` pairs at once, on the slot pool: every
/// iteration in order of k, or how the batch stopped (a pair that cannot start stops
/// it, through `state`).
async fn play_all(
    tune: &TuneRun,
    context: &Arc<RunContext>,
    assignments: Vec<IterationSides>,
    slots: usize,
    state: &watch::Sender<RunState>,
) -> Result<Vec<InFlight>, PairEnd> {
    let mut pool = Pool::start(context, Vec::new(), slots.max(1).min(assignments.len()));
    let mut in_flight: BTreeMap<u64, InFlight> = assignments
        .into_iter()
        .map(|a| (a.k, InFlight::new(a)))
        .collect();
    let watching = state.subscribe();
    pool.add(
        in_flight
            .values()
            .map(|pair| pair.order(&tune.fixed, &tune.names, &watching)),
    );
    pool.finish();
    let mut verdict = None;
    while let Some(report) = pool.next().await {
        match report {
            Report::Game(k, entry) => {
                if let Some(pair) = in_flight.get_mut(&k) {
                    pair.add(&entry);
                }
            }
            Report::Pair(_, PairEnd::Whole) => {}
            Report::Pair(_, end) => {
                if matches!(end, PairEnd::Failed(_)) {
                    let _ = state.send(RunState::Stopping);
                }
                verdict.get_or_insert(end);
            }
        }
    }
    close_all(pool.close().await).await;
    match verdict {
        Some(end) => Err(end),
        None => Ok(in_flight.into_values().collect()),
    }
}

/// Plays a claimed tune batch, renewing its lease, and submits it.
pub(super) async fn play_and_submit(
    options: &WorkerOptions,
    link: &mut WorkerConnection,
    tune: &TuneRun,
    context: &Arc<RunContext>,
    claim: &Claim,
) -> Result<AfterBatch, WorkerStop> {
    let began = Instant::now();
    // theta as the server took it at the claim: the values these iterations play.
    let mut pause = std::time::Duration::from_millis(250);
    let theta = loop {
        match link.db.batch_theta(claim).await {
            Ok(theta) if theta.len() == tune.gains.len() => break theta,
            Ok(_) => {
                return leave(options, link, claim, "theta and the parameters differ").await;
            }
            Err(DbError::LeaseLost(why)) => {
                tracing::warn!("batch {} not played: {why}", claim.batch);
                return Ok(AfterBatch::KeepPlaying);
            }
            Err(DbError::Query(why)) if why.contains("has no theta") => {
                return leave(options, link, claim, &why).await;
            }
            Err(e) => link.recover("reading theta", e, &mut pause).await?,
        }
    };
    let schedule = &tune.tune.schedule;
    let seed = tune.tune.plan.seed;
    let assignments: Vec<IterationSides> = (claim.first_pair..claim.first_pair + claim.pairs)
        .map(|pair| assign(seed, schedule, &tune.gains, &theta, pair + 1))
        .collect();
    let (batch_tx, _) = watch::channel(RunState::Running);
    let mut renewal = tokio::time::interval(options.lease / 3);
    renewal.tick().await;
    let mut stop = link.stop.clone();
    let played = {
        let play = play_all(tune, context, assignments, options.concurrency, &batch_tx);
        tokio::pin!(play);
        loop {
            tokio::select! {
                played = &mut play => break played,
                _ = renewal.tick() => super::worker::keep_lease(options, link, claim, &batch_tx).await,
                _ = stop.wait_for(|s| *s) => {
                    let _ = batch_tx.send(RunState::Stopping);
                }
            }
        }
    };
    let played = match played {
        Ok(whole) => whole,
        Err(PairEnd::Failed(why)) => return leave(options, link, claim, &why).await,
        Err(_) => {
            let _ = link.db.release(claim).await;
            return if *link.stop.borrow() {
                Err(WorkerStop::Signal)
            } else {
                Ok(AfterBatch::KeepPlaying)
            };
        }
    };
    let reasons = played.iter().flat_map(|pair| pair.reasons);
    let faults = reasons.filter(|r| r.is_fault()).count() as u64;
    let games: Vec<String> = played.iter().map(|pair| games_of(pair.scores)).collect();
    let busy = began.elapsed();
    pause = std::time::Duration::from_millis(250);
    loop {
        if *link.stop.borrow() {
            return Err(WorkerStop::Signal);
        }
        let result = link.db.submit_tune_batch(claim, &games, faults, busy).await;
        if result.is_ok() {
            crate::stdout::line(format_args!(
                "run {}, batch {}: iterations {}-{} applied, {} games in {:.1} s",
                claim.run,
                claim.batch,
                claim.first_pair + 1,
                claim.first_pair + claim.pairs,
                2 * claim.pairs,
                busy.as_secs_f64()
            ));
        }
        match result {
            Ok(Some(closing)) => {
                crate::stdout::line(format_args!(
                    "run {}: {} ({})",
                    claim.run, closing.status, closing.state
                ));
                return Ok(AfterBatch::KeepPlaying);
            }
            Ok(None) => return Ok(AfterBatch::KeepPlaying),
            Err(DbError::Refused(why)) => return leave(options, link, claim, &why).await,
            Err(DbError::LeaseLost(why) | DbError::RunClosed(why)) => {
                // Another worker has the pairs, or the run ended: theta must not see this.
                tracing::warn!("batch {} not counted: {why}", claim.batch);
                return Ok(AfterBatch::KeepPlaying);
            }
            Err(e) => link.recover("submitting a batch", e, &mut pause).await?,
        }
    }
}

/// An iteration's two games as the server takes them: the theta+ side's `W`, `D` or
/// `L` as Red, then as Black (the letters of the tune journal's records).
fn games_of(scores: [f64; 2]) -> String {
    scores
        .iter()
        .map(|&s| crate::tune::iteration::letter(s))
        .collect()
}

/// Gives the batch back and leaves the run for good, saying why (in `status`).
async fn leave(
    options: &WorkerOptions,
    link: &mut WorkerConnection,
    claim: &Claim,
    why: &str,
) -> Result<AfterBatch, WorkerStop> {
    eprintln!(
        "error: run {}: {why}; this worker leaves the run",
        claim.run
    );
    let _ = link.db.release(claim).await;
    let mut pause = std::time::Duration::from_millis(250);
    loop {
        match link.db.refuse(claim.run, &options.name, why).await {
            Ok(()) => return Ok(AfterBatch::LeaveRun),
            Err(e) => link.recover("refusing a run", e, &mut pause).await?,
        }
    }
}
