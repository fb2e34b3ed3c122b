//! A worker's slots (one per game played at once, each with its own engines) as one pool
//! fed by every batch the worker holds: a slot that ends a pair takes the next unstarted
//! pair of whichever batch has one. So the slots never wait for a batch's last pair or for
//! the database while the next batch is already claimed (see `match_batches.rs`).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, watch, Notify};
use tokio::task::JoinHandle;

use crate::schedule::engines::{Engines, RunContext};
use crate::schedule::RunState;
use crate::store::journal::JournalEntry;
use crate::store::layout::{Jobs, PairJob};

/// A pair waiting for a slot, with the state of its batch (a lost batch's pairs are not
/// played).
struct Queued {
    batch: i64,
    pair: PairJob,
    state: watch::Receiver<RunState>,
}

/// How a pair ended on its slot.
#[derive(Debug)]
pub(super) enum PairPlayed {
    /// Both games, in game order.
    Whole(Vec<JournalEntry>),
    /// Its batch stopped (lost, the run closed, a signal): nothing of it counts.
    Dropped,
    /// A game could not start (the opening file changed under the run).
    Failed(String),
}

/// A pair's end, for its batch.
#[derive(Debug)]
pub(super) struct PairDone {
    pub batch: i64,
    pub played: PairPlayed,
}

/// The queue the slots take pairs from: a queue under a lock and a wake-up for slots
/// waiting on an empty queue, closed once to let them end.
#[derive(Default)]
struct Queue {
    pairs: Mutex<VecDeque<Queued>>,
    closed: std::sync::atomic::AtomicBool,
    ready: Notify,
    /// Pairs in the queue (read without the lock, to decide when to claim more).
    waiting: AtomicU64,
}

impl Queue {
    fn take(&self) -> Option<Queued> {
        let mut pairs = match self.pairs.lock() {
            Ok(p) => p,
            Err(poisoned) => poisoned.into_inner(),
        };
        let next = pairs.pop_front();
        if next.is_some() {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
        next
    }

    /// The next pair, waiting while the queue is empty; `None` once closed and empty.
    async fn next(&self) -> Option<Queued> {
        loop {
            // Registered before the queue is looked at, so a pair pushed in between
            // wakes this slot.
            let ready = self.ready.notified();
            tokio::pin!(ready);
            ready.as_mut().enable();
            if let Some(q) = self.take() {
                return Some(q);
            }
            if self.closed.load(Ordering::SeqCst) {
                return None;
            }
            ready.await;
        }
    }
}

/// The slots of one run.
pub(super) struct Pool {
    queue: Arc<Queue>,
    done: mpsc::UnboundedReceiver<PairDone>,
    slots: Vec<JoinHandle<Engines>>,
}

impl Pool {
    /// Starts `concurrency` slots on `engines` (made when missing: each slot's engines
    /// are kept from batch to batch of the run).
    pub(super) fn start(
        run: &Arc<RunContext>,
        mut engines: Vec<Engines>,
        concurrency: usize,
    ) -> Pool {
        let plan = &run.plan;
        while engines.len() < concurrency.max(1) {
            engines.push(Engines::for_slot(plan, engines.len()));
        }
        let queue = Arc::new(Queue::default());
        let (tx, done) = mpsc::unbounded_channel();
        let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
        let slots = engines
            .into_iter()
            .map(|engines| {
                let (run, jobs, queue, tx) = (
                    Arc::clone(run),
                    jobs.clone(),
                    Arc::clone(&queue),
                    tx.clone(),
                );
                tokio::spawn(slot(run, jobs, queue, tx, engines))
            })
            .collect();
        Pool { queue, done, slots }
    }

    /// Queues the pairs of a batch; returns how many.
    pub(super) fn add(
        &self,
        batch: i64,
        pairs: impl Iterator<Item = PairJob>,
        state: &watch::Receiver<RunState>,
    ) -> u64 {
        let mut added = 0;
        {
            let mut queue = match self.queue.pairs.lock() {
                Ok(q) => q,
                Err(poisoned) => poisoned.into_inner(),
            };
            for pair in pairs {
                queue.push_back(Queued {
                    batch,
                    pair,
                    state: state.clone(),
                });
                added += 1;
            }
            self.queue.waiting.fetch_add(added, Ordering::SeqCst);
        }
        for _ in 0..added {
            self.queue.ready.notify_one();
        }
        added
    }

    /// Pairs not taken by a slot yet.
    pub(super) fn unstarted(&self) -> u64 {
        self.queue.waiting.load(Ordering::SeqCst)
    }

    /// The next pair ended (never `None` while slots run: they hold the sender).
    pub(super) async fn next_done(&mut self) -> Option<PairDone> {
        self.done.recv().await
    }

    /// Lets the slots end once the queue is empty and gives their engines back.
    pub(super) async fn close(self) -> Vec<Engines> {
        self.queue.closed.store(true, Ordering::SeqCst);
        self.queue.ready.notify_waiters();
        let mut engines = Vec::new();
        for handle in self.slots {
            if let Ok(e) = handle.await {
                engines.push(e);
            }
        }
        engines
    }
}

/// One slot: takes pairs until the pool closes and plays their games on its engines.
async fn slot(
    run: Arc<RunContext>,
    jobs: Jobs,
    queue: Arc<Queue>,
    done: mpsc::UnboundedSender<PairDone>,
    mut engines: Engines,
) -> Engines {
    while let Some(Queued {
        batch,
        pair,
        mut state,
    }) = queue.next().await
    {
        let played = if *state.borrow() == RunState::Running {
            play_pair(&run, &jobs, pair, &mut engines, &mut state).await
        } else {
            PairPlayed::Dropped
        };
        if done.send(PairDone { batch, played }).is_err() {
            break;
        }
    }
    engines
}

async fn play_pair(
    run: &RunContext,
    jobs: &Jobs,
    pair: PairJob,
    engines: &mut Engines,
    state: &mut watch::Receiver<RunState>,
) -> PairPlayed {
    let mut games = Vec::with_capacity(2);
    for job in pair.games(jobs) {
        match engines.play(run, job, state).await {
            Ok(Some(entry)) => games.push(entry),
            Ok(None) => return PairPlayed::Dropped,
            Err(e) => {
                return PairPlayed::Failed(format!(
                    "pair {} game {}: {e}",
                    job.pair + 1,
                    job.game + 1
                ))
            }
        }
    }
    PairPlayed::Whole(games)
}

/// Ends every engine of the slots.
pub async fn close(slots: Vec<Engines>) {
    for engines in slots {
        engines.close().await;
    }
}
