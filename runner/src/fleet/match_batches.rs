//! A match run's batches played back to back on one pool of slots. The worker holds at
//! most two batches: the next is claimed as soon as the current one has fewer unstarted
//! pairs than there are slots, and a batch is submitted while the slots play the next.
//! So a slot waits neither for the database nor for another slot's last pair (with one
//! batch at a time, a worker of 2 slots played 0.84x the games per second of a local run
//! at the same concurrency; docs/runner-performance.md).
//!
//! A batch still counts only whole: a lost lease, a closed run or a signal drops the
//! pairs of that batch (its queued ones are not played) and its games are not sent.

use std::collections::BTreeMap;
use std::time::Instant;

use tokio::sync::watch;

use super::worker::{
    heartbeat, next_batch_pairs, renew, retry, AfterBatch, FaultTally, WorkerConnection,
    WorkerOptions, WorkerRun, WorkerStop,
};
use crate::play::pool::{Order, PairEnd, Pool, Report};
use crate::play::RunState;
use crate::store::finished::FinishedGames;
use crate::store::journal::JournalEntry;
use crate::store::layout::{Jobs, Pending};
use crate::store::pg::batches::Claim;
use crate::store::pg::DbError;

/// Batches a worker holds at once: the one being finished and the next.
const HELD_AT_MOST: usize = 2;

/// A batch the worker holds.
struct ClaimedBatch {
    claim: Claim,
    began: Instant,
    state: watch::Sender<RunState>,
    games: Vec<JournalEntry>,
    /// Pairs not back from the slots yet.
    out: u64,
    /// Stopped: its pairs come back dropped, nothing of it is sent.
    dropped: bool,
}

impl ClaimedBatch {
    fn stop(&mut self) {
        self.dropped = true;
        let _ = self.state.send(RunState::Stopping);
    }
}

/// Plays the batches of `first`'s run, claiming more while the run has pairs, until the
/// worker holds none. The slots' engines stay in `assignment` for later batches.
pub(super) async fn play_run(
    options: &WorkerOptions,
    link: &mut WorkerConnection,
    assignment: &mut WorkerRun,
    first: Claim,
) -> Result<AfterBatch, WorkerStop> {
    let context = std::sync::Arc::clone(&assignment.prepared.context);
    let mut pool = Pool::start(
        &context,
        std::mem::take(&mut assignment.slots),
        options.concurrency.max(1),
    );
    let mut held = BTreeMap::new();
    let result = drive(options, link, assignment, &mut pool, &mut held, first).await;
    // Whatever ended the run here, no batch is left playing: the slots end their games
    // at once and give their engines back.
    for h in held.values_mut() {
        h.stop();
    }
    assignment.slots = pool.close().await;
    for h in held.into_values() {
        if let Err(e) = link.db.release(&h.claim).await {
            tracing::warn!("giving back batch {}: {e}", h.claim.batch);
        }
    }
    result
}

async fn drive(
    options: &WorkerOptions,
    link: &mut WorkerConnection,
    assignment: &mut WorkerRun,
    pool: &mut Pool<i64>,
    held: &mut BTreeMap<i64, ClaimedBatch>,
    first: Claim,
) -> Result<AfterBatch, WorkerStop> {
    let context = std::sync::Arc::clone(&assignment.prepared.context);
    let jobs = Jobs::new(context.plan.pairings.clone(), context.plan.pairs);
    let take = |pool: &Pool<i64>, held: &mut BTreeMap<i64, ClaimedBatch>, claim: Claim| {
        let (state, watch_state) = watch::channel(RunState::Running);
        let pairs =
            Pending::new(&jobs, FinishedGames::default()).within(claim.first_pair, claim.pairs);
        let out = pool.add(pairs.map(|pair| Order {
            tag: claim.batch,
            pair,
            options: None,
            state: watch_state.clone(),
        }));
        held.insert(
            claim.batch,
            ClaimedBatch {
                out,
                began: Instant::now(),
                games: Vec::with_capacity(usize::try_from(claim.pairs * 2).unwrap_or(0)),
                state,
                dropped: false,
                claim,
            },
        );
    };
    let run = first.run;
    take(pool, held, first);
    // Whether a claim may still give pairs of this run.
    let mut more = true;
    let mut renewal = tokio::time::interval(options.lease / 3);
    renewal.tick().await;
    let mut stop = link.stop.clone();
    loop {
        let stopping = *link.stop.borrow();
        if more
            && !stopping
            && held.len() < HELD_AT_MOST
            && pool.unstarted() < options.concurrency as u64
        {
            let pairs = options.batch_pairs.unwrap_or(assignment.pairs).max(1);
            match retry!(link, "claiming a batch", |db| db.claim(
                run,
                &options.name,
                pairs,
                options.lease
            ))? {
                Some(claim) => take(pool, held, claim),
                None => more = false,
            }
        }
        if held.is_empty() {
            return if stopping {
                Err(WorkerStop::Signal)
            } else {
                Ok(AfterBatch::KeepPlaying)
            };
        }
        tokio::select! {
            report = pool.next() => {
                let (batch, end) = match report {
                    None => return Ok(AfterBatch::KeepPlaying),
                    Some(Report::Game(batch, entry)) => {
                        if let Some(h) = held.get_mut(&batch) {
                            h.games.push(*entry);
                        }
                        continue;
                    }
                    Some(Report::Pair(batch, end)) => (batch, end),
                };
                let Some(h) = held.get_mut(&batch) else { continue };
                h.out -= 1;
                match end {
                    PairEnd::Whole => {}
                    PairEnd::Dropped => h.stop(),
                    PairEnd::Failed(why) => {
                        eprintln!("error: run {run}: {why}; this worker leaves the run");
                        retry!(link, "refusing a run", |db| db.refuse(run, &options.name, &why))?;
                        return Ok(AfterBatch::LeaveRun);
                    }
                }
                if h.out > 0 {
                    continue;
                }
                let Some(h) = held.remove(&batch) else { continue };
                if h.dropped {
                    // A batch not given back returns to the pool when its lease runs out.
                    if let Err(e) = link.db.release(&h.claim).await {
                        tracing::warn!("giving back batch {}: {e}", h.claim.batch);
                    }
                    continue;
                }
                let busy = h.began.elapsed();
                assignment.pairs = next_batch_pairs(assignment.run_batch, options.concurrency, &h.claim, busy);
                let batch_faults = FaultTally::of(&h.games);
                let sent = submit(options, link, h, busy).await?;
                if sent == Sent::Counted {
                    assignment.faults.add(batch_faults);
                    if let Some(why) = assignment.faults.too_many() {
                        eprintln!("error: run {run}: {why}; this worker leaves the run");
                        retry!(link, "refusing a run", |db| db.refuse(run, &options.name, &why))?;
                        return Ok(AfterBatch::LeaveRun);
                    }
                }
                if !matches!(sent, Sent::Open | Sent::Counted) {
                    // The run ended, or this worker leaves it: the other batch's pairs
                    // are not played.
                    more = false;
                    for other in held.values_mut() {
                        other.stop();
                    }
                }
                if sent == Sent::Refused {
                    return Ok(AfterBatch::LeaveRun);
                }
            }
            _ = renewal.tick() => {
                // One heartbeat a tick, a renewal for each batch held.
                heartbeat(options, link, run).await;
                for h in held.values() {
                    renew(options, link, &h.claim, &h.state).await;
                }
            }
            _ = stop.wait_for(|s| *s), if !stopping => {
                for h in held.values_mut() {
                    h.stop();
                }
            }
        }
    }
}

/// What became of a batch sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sent {
    /// Counted, and the run goes on.
    Counted,
    /// Not counted (a lost lease, a batch not whole), the run goes on.
    Open,
    /// The run is closed: this batch ended it, or it ended meanwhile.
    Closed,
    /// The server refused the games: this worker's games are not what the run needs,
    /// and it leaves the run (visibly in `status`) rather than play more of them.
    Refused,
}

/// Sends a whole batch.
async fn submit(
    options: &WorkerOptions,
    link: &mut WorkerConnection,
    mut h: ClaimedBatch,
    busy: std::time::Duration,
) -> Result<Sent, WorkerStop> {
    let claim = &h.claim;
    h.games.sort_by_key(|e| (e.pair, e.game));
    if h.games.len() as u64 != claim.pairs * 2 {
        tracing::warn!(
            "batch {}: {} games played of {}: not sent",
            claim.batch,
            h.games.len(),
            claim.pairs * 2
        );
        return Ok(Sent::Open);
    }
    let entries = &h.games;
    let result = retry!(link, "submitting a batch", |db| db
        .submit_batch(claim, entries, busy));
    match result {
        Ok(Some(closing)) => {
            crate::stdout::line(batch_line(claim, entries, busy));
            crate::stdout::line(format_args!(
                "run {}: {} ({})",
                claim.run, closing.status, closing.state
            ));
            Ok(Sent::Closed)
        }
        Ok(None) => {
            crate::stdout::line(batch_line(claim, entries, busy));
            Ok(Sent::Counted)
        }
        Err(WorkerStop::Fatal(DbError::Refused(why))) => {
            eprintln!(
                "error: run {}: {why}; this worker leaves the run",
                claim.run
            );
            retry!(link, "refusing a run", |db| db.refuse(
                claim.run,
                &options.name,
                &why
            ))?;
            Ok(Sent::Refused)
        }
        Err(WorkerStop::Fatal(DbError::RunClosed(why))) => {
            tracing::warn!("batch {} not counted: {why}", claim.batch);
            Ok(Sent::Closed)
        }
        Err(WorkerStop::Fatal(DbError::LeaseLost(why))) => {
            // Another worker has the pairs: this result must not count.
            tracing::warn!("batch {} not counted: {why}", claim.batch);
            Ok(Sent::Open)
        }
        Err(e) => Err(e),
    }
}

/// The line a worker prints for each batch the server counted, as a fishtest worker
/// does for each task.
fn batch_line(claim: &Claim, games: &[JournalEntry], busy: std::time::Duration) -> String {
    let drawn = games
        .iter()
        .filter(|g| g.result == crate::game::Outcome::Draw)
        .count();
    let faults = games.iter().filter(|g| g.reason.is_fault()).count();
    let mut line = format!(
        "run {}, batch {}: pairs {}-{} counted, {} games ({} decisive, {drawn} drawn",
        claim.run,
        claim.batch,
        claim.first_pair,
        claim.first_pair + claim.pairs - 1,
        games.len(),
        games.len() - drawn
    );
    if faults > 0 {
        line.push_str(&format!(", {faults} ended by an engine fault"));
    }
    line.push_str(&format!(") in {:.1} s", busy.as_secs_f64()));
    line
}
