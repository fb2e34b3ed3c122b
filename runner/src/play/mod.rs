//! Playing pairs, for every workload: the slot pool (`pool.rs`) and the engines of one
//! slot (`engines.rs`: one game played on them). A workload (a local run or tune, a
//! fleet worker's match or tune batch) queues pairs and handles each finished one;
//! nothing else plays games.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::watch;

pub(crate) mod engines;
pub(crate) mod pool;
pub(crate) mod random_plies;

/// Whether a workload's pairs may go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Running,
    /// Start nothing more and drop the games in progress at once (they are not recorded;
    /// their engines are killed): an SPRT verdict, a fault limit, a signal, a lost lease.
    Stopping,
}

/// On the first SIGINT, SIGTERM or SIGHUP a local workload stops (`doing` says how):
/// its pairs in progress are dropped, their engines killed, what was played is saved and
/// resumable. On a second, every engine process is killed and the runner exits at once.
pub async fn stop_on_signal(
    doing: &'static str,
    state: watch::Sender<RunState>,
    interrupted: Arc<AtomicBool>,
) {
    crate::signals::stop_then_exit(doing, crate::exit::ABORTED, move || {
        interrupted.store(true, Ordering::SeqCst);
        // Fails only when the workload has ended: nothing is left to stop.
        let _ = state.send(RunState::Stopping);
    })
    .await;
}
