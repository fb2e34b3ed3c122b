//! One batch played on a worker: its pairs shared by the worker's slots (one per game
//! played at once), each slot with its own engines, kept from batch to batch of the same
//! run. The batch counts only whole: if the run stops or the lease is lost, every game of
//! it is dropped.

use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::schedule::engines::{Engines, RunContext};
use crate::schedule::RunState;
use crate::store::finished::FinishedGames;
use crate::store::journal::JournalEntry;
use crate::store::layout::{Jobs, Pending};
use crate::store::pg::batches::Claim;

/// How a batch ended.
#[derive(Debug)]
pub enum Played {
    /// Every game of every pair, in pair and game order.
    Whole(Vec<JournalEntry>),
    /// Stopped before the end: nothing counts.
    Dropped,
    /// A game could not start (the opening file changed under the run).
    Failed(String),
}

/// Plays the pairs of `claim` on `slots` (whose engines it keeps for the next batch).
pub async fn play(
    run: &Arc<RunContext>,
    claim: &Claim,
    slots: &mut Vec<Engines>,
    state: watch::Receiver<RunState>,
) -> Played {
    let plan = &run.plan;
    let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
    let queue = Arc::new(Mutex::new(
        Pending::new(&jobs, FinishedGames::default()).within(claim.first_pair, claim.pairs),
    ));
    let wanted = usize::try_from(claim.pairs)
        .unwrap_or(usize::MAX)
        .min(plan.concurrency.max(1));
    while slots.len() < wanted {
        slots.push(Engines::for_slot(plan, slots.len()));
    }
    // Slots beyond what this batch can use keep their engines for the next batch.
    let idle = slots.split_off(wanted);
    let handles: Vec<_> = slots
        .drain(..)
        .map(|engines| {
            let (run, jobs, queue, mut state) = (
                Arc::clone(run),
                jobs.clone(),
                Arc::clone(&queue),
                state.clone(),
            );
            tokio::spawn(async move {
                let mut engines = engines;
                let mut games = Vec::new();
                let mut outcome = None;
                loop {
                    let next = match queue.lock() {
                        Ok(mut q) => q.next(),
                        Err(poisoned) => poisoned.into_inner().next(),
                    };
                    let Some(pair) = next else { break };
                    for job in pair.games(&jobs) {
                        match engines.play(&run, job, &mut state).await {
                            Ok(Some(entry)) => games.push(entry),
                            Ok(None) => outcome = Some(Played::Dropped),
                            Err(e) => {
                                outcome = Some(Played::Failed(format!(
                                    "pair {} game {}: {e}",
                                    job.pair + 1,
                                    job.game + 1
                                )))
                            }
                        }
                        if outcome.is_some() {
                            break;
                        }
                    }
                    if outcome.is_some() {
                        break;
                    }
                }
                (engines, games, outcome)
            })
        })
        .collect();
    let mut all = Vec::new();
    let mut verdict = None;
    for handle in handles {
        match handle.await {
            Ok((engines, games, outcome)) => {
                slots.push(engines);
                all.extend(games);
                if verdict.is_none() {
                    verdict = outcome;
                }
            }
            Err(e) => verdict = Some(Played::Failed(format!("a game task failed: {e}"))),
        }
    }
    slots.extend(idle);
    if let Some(v) = verdict {
        return v;
    }
    all.sort_by_key(|e| (e.pair, e.game));
    if all.len() as u64 != claim.pairs * 2 {
        return Played::Failed(format!(
            "batch {}: {} games played of {}",
            claim.batch,
            all.len(),
            claim.pairs * 2
        ));
    }
    Played::Whole(all)
}

/// Ends every engine of the slots.
pub async fn close(slots: Vec<Engines>) {
    for engines in slots {
        engines.close().await;
    }
}
