//! Playing pairs, for every workload: the slot pool (`pool.rs`) and the engines of one
//! slot (`engines.rs`: one game played on them). A workload (a local run or tune, a
//! fleet worker's match or tune batch) queues pairs and handles each finished one;
//! nothing else plays games.

pub mod engines;
pub mod pool;

/// Whether a workload's pairs may go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Running,
    /// Start nothing more and drop the games in progress at once (they are not recorded;
    /// their engines are killed): an SPRT verdict, a fault limit, a signal, a lost lease.
    Stopping,
}
