//! The slot pool: one slot per game played at once, each with its own engines (started
//! once, reused from pair to pair, restarted after a fault), taking pairs from one
//! queue that every workload fills. A slot that ends a pair takes the next queued one,
//! whoever queued it, so a workload decides only *what to queue next* and *what to do
//! with a finished pair*: a local run, a local tune, a fleet match batch and a fleet tune
//! batch are policies over this one loop.
//!
//! Stopping is mini-redis's shape: every queued pair carries a `watch` receiver of its
//! workload (a run, a batch), and a [`RunState::Stopping`] sent on it drops the pair at
//! once, its game in progress abandoned and its engines killed; [`Pool::close`] then
//! joins every slot, so when it returns no slot plays and every engine is accounted for.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, watch, Notify};
use tokio::task::JoinHandle;

use super::engines::{Engines, PairOptions, RunContext};
use super::RunState;
use crate::store::journal::JournalEntry;
use crate::store::layout::{Jobs, PairJob};

/// A pair for a slot: which pair, the engine options it plays with when they are not
/// the run's own, the state of the workload it belongs to, and the workload's `tag`
/// (a batch, an iteration) that comes back with its games.
#[derive(Debug)]
pub struct Order<T> {
    pub tag: T,
    pub pair: PairJob,
    /// Options for this pair alone (a tune's theta+ and theta-): the slot plays it on
    /// fresh engines started with them, so none carries a table over from other values.
    pub options: Option<PairOptions>,
    pub state: watch::Receiver<RunState>,
}

/// How a pair ended on its slot: the one pair result of every workload.
#[derive(Debug)]
pub enum PairEnd {
    /// Both of its games (those to play) ended; each was reported as it ended.
    Whole,
    /// Its workload stopped (a verdict, a fault limit, a signal, a lost lease): the game
    /// in progress is dropped, and nothing of it is reported.
    Dropped,
    /// A game could not start (the opening file changed under the run).
    Failed(String),
}

/// What a slot reports, in order: each game the moment it ends (so a game is kept even
/// when its partner is never played), then its pair's end.
#[derive(Debug)]
pub enum Report<T> {
    Game(T, Box<JournalEntry>),
    Pair(T, PairEnd),
}

/// The queue the slots take pairs from: a queue under a lock and a wake-up for slots
/// waiting on an empty queue, closed once to let them end.
#[derive(Debug)]
struct Queue<T> {
    orders: Mutex<VecDeque<Order<T>>>,
    closed: AtomicBool,
    ready: Notify,
    /// Pairs in the queue (read without the lock, to decide when to queue more).
    waiting: AtomicU64,
}

impl<T> Queue<T> {
    fn take(&self) -> Option<Order<T>> {
        // A slot that panicked holding the lock left the queue as it was: go on.
        let mut orders = match self.orders.lock() {
            Ok(p) => p,
            Err(poisoned) => poisoned.into_inner(),
        };
        let next = orders.pop_front();
        if next.is_some() {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
        next
    }

    /// The next pair, waiting while the queue is empty; `None` once closed and empty.
    async fn next(&self) -> Option<Order<T>> {
        loop {
            // Registered before the queue is looked at, so a pair pushed in between
            // wakes this slot.
            let ready = self.ready.notified();
            tokio::pin!(ready);
            ready.as_mut().enable();
            if let Some(order) = self.take() {
                return Some(order);
            }
            if self.closed.load(Ordering::SeqCst) {
                return None;
            }
            ready.await;
        }
    }
}

/// The slots of one run.
#[derive(Debug)]
pub struct Pool<T> {
    queue: Arc<Queue<T>>,
    reports: mpsc::UnboundedReceiver<Report<T>>,
    slots: Vec<JoinHandle<Engines>>,
}

impl<T: Copy + Send + 'static> Pool<T> {
    /// Starts `slots` slots on `engines` (made when missing, for the slot's core: a
    /// fleet worker keeps each slot's engines from batch to batch of a run).
    #[must_use]
    pub fn start(run: &Arc<RunContext>, mut engines: Vec<Engines>, slots: usize) -> Pool<T> {
        let plan = &run.plan;
        engines.truncate(slots);
        while engines.len() < slots {
            engines.push(Engines::for_slot(plan, engines.len()));
        }
        let queue = Arc::new(Queue {
            orders: Mutex::new(VecDeque::new()),
            closed: AtomicBool::new(false),
            ready: Notify::new(),
            waiting: AtomicU64::new(0),
        });
        // Every sender is a slot's: the reports end when the last slot has.
        let (tx, reports) = mpsc::unbounded_channel();
        let jobs = Jobs::new(plan.pairings.clone(), plan.pairs);
        let slots = engines
            .into_iter()
            .map(|engines| {
                let slot = Slot {
                    run: Arc::clone(run),
                    jobs: jobs.clone(),
                    queue: Arc::clone(&queue),
                    reports: tx.clone(),
                };
                tokio::spawn(slot.work(engines))
            })
            .collect();
        Pool {
            queue,
            reports,
            slots,
        }
    }

    /// Queues pairs, played in the order given; returns how many.
    pub fn add(&self, orders: impl IntoIterator<Item = Order<T>>) -> u64 {
        let mut added = 0;
        {
            let mut queue = match self.queue.orders.lock() {
                Ok(q) => q,
                Err(poisoned) => poisoned.into_inner(),
            };
            for order in orders {
                queue.push_back(order);
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
    #[must_use]
    pub fn unstarted(&self) -> u64 {
        self.queue.waiting.load(Ordering::SeqCst)
    }

    /// Nothing more will be queued: each slot ends when the queue is empty.
    pub fn finish(&self) {
        self.queue.closed.store(true, Ordering::SeqCst);
        self.queue.ready.notify_waiters();
    }

    /// The next report; `None` once every slot has ended (after [`Pool::finish`]).
    pub async fn next(&mut self) -> Option<Report<T>> {
        self.reports.recv().await
    }

    /// Lets the slots end once the queue is empty, waits for every one, and gives their
    /// engines back (still running, for the run's next batch, or [`close_all`]).
    pub async fn close(self) -> Vec<Engines> {
        self.finish();
        let mut engines = Vec::with_capacity(self.slots.len());
        for handle in self.slots {
            // A slot that panicked has lost only its pair in progress; its engines'
            // processes die with their handles (killed on drop).
            match handle.await {
                Ok(e) => engines.push(e),
                Err(e) => tracing::warn!("a game slot ended abnormally: {e}"),
            }
        }
        engines
    }
}

/// Ends every engine of the slots, the slots' at once.
pub async fn close_all(slots: Vec<Engines>) {
    let mut closing = tokio::task::JoinSet::new();
    for engines in slots {
        closing.spawn(engines.close());
    }
    while closing.join_next().await.is_some() {}
}

/// One slot: what it needs to play any queued pair.
struct Slot<T> {
    run: Arc<RunContext>,
    jobs: Jobs,
    queue: Arc<Queue<T>>,
    reports: mpsc::UnboundedSender<Report<T>>,
}

impl<T: Copy> Slot<T> {
    /// Takes pairs until the pool closes and plays their games on `engines`.
    async fn work(self, mut engines: Engines) -> Engines {
        while let Some(mut order) = self.queue.next().await {
            let end = if *order.state.borrow() == RunState::Running {
                self.play(&mut order, &mut engines).await
            } else {
                PairEnd::Dropped
            };
            if self.reports.send(Report::Pair(order.tag, end)).is_err() {
                break;
            }
        }
        engines
    }

    async fn play(&self, order: &mut Order<T>, engines: &mut Engines) -> PairEnd {
        let fresh = order.options.is_some();
        if fresh {
            engines.restart_with(order.options.clone()).await;
        }
        let mut end = PairEnd::Whole;
        for job in order.pair.games(&self.jobs) {
            match engines.play(&self.run, job, &mut order.state).await {
                Ok(Some(entry)) => {
                    if self
                        .reports
                        .send(Report::Game(order.tag, Box::new(entry)))
                        .is_err()
                    {
                        end = PairEnd::Dropped;
                        break;
                    }
                }
                Ok(None) => {
                    end = PairEnd::Dropped;
                    break;
                }
                Err(e) => {
                    let (pair, game) = (job.pair + 1, job.game + 1);
                    end = PairEnd::Failed(format!("pair {pair} game {game}: {e}"));
                    break;
                }
            }
        }
        if fresh {
            // The next pair plays with the run's options, or other values.
            engines.restart_with(None).await;
        }
        end
    }
}
