//! A local worker: takes pairs from the run's queue one at a time, plays both games of a
//! pair one after the other on its own engines, and hands each finished game to the
//! coordinator the moment it ends (so a game is in the journal even if its partner is
//! never played).

use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, watch};

use super::engines::{Engines, RunContext};
use super::RunState;
use crate::store::journal::JournalEntry;
use crate::store::layout::{Jobs, Pending};

/// What a worker tells the coordinator.
#[derive(Debug)]
pub enum Report {
    /// A finished game.
    Game(Box<JournalEntry>),
    /// A game could not even start: the run cannot go on as configured.
    Failed(String),
}

/// Plays pairs from `queue` until it is empty or the run stops. `slot` numbers the
/// workers from 0; with `tournament.affinity` it picks the core of the slot's engines.
pub async fn worker(
    run: Arc<RunContext>,
    jobs: Jobs,
    queue: Arc<Mutex<Pending>>,
    reports: mpsc::Sender<Report>,
    mut state: watch::Receiver<RunState>,
    slot: usize,
) {
    let mut engines = Engines::for_slot(&run.plan, slot);
    'pairs: while *state.borrow() == RunState::Running {
        // A worker that panicked holding the lock left the queue as it was: go on.
        let next = match queue.lock() {
            Ok(mut q) => q.next(),
            Err(poisoned) => poisoned.into_inner().next(),
        };
        let Some(pair) = next else { break };
        for job in pair.games(&jobs) {
            let report = match engines.play(&run, job, &mut state).await {
                Ok(Some(entry)) => Report::Game(Box::new(entry)),
                Ok(None) => break 'pairs,
                Err(e) => {
                    Report::Failed(format!("pair {} game {}: {e}", job.pair + 1, job.game + 1))
                }
            };
            let failed = matches!(report, Report::Failed(_));
            if reports.send(report).await.is_err() || failed {
                break 'pairs;
            }
        }
    }
    engines.close().await;
}
