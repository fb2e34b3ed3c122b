//! How a run ends, decided from its counts alone, so that a local run and a distributed
//! one (whose counts sit in the database) end the same way: an SPRT verdict, the
//! regression gate, too many faults of one engine, or every pair played.

use crate::config::Plan;
use crate::exit;
use crate::game::EndReason;
use crate::stats::{Estimate, StatsReport, Verdict};
use crate::store::tracker::Tracker;

/// How a run ended: the status a user reads and the exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub status: String,
    pub code: u8,
}

impl Ending {
    fn new(status: impl Into<String>, code: u8) -> Ending {
        Ending {
            status: status.into(),
            code,
        }
    }

    /// A run stopped by a signal (Ctrl-C, SIGTERM, SIGHUP): resumable.
    #[must_use]
    pub fn interrupted() -> Ending {
        Ending::new("interrupted", exit::ABORTED)
    }

    /// A run that could not go on (a journal write failed, a game could not start).
    #[must_use]
    pub fn aborted(why: &str) -> Ending {
        Ending::new(format!("aborted: {why}"), exit::ABORTED)
    }

    /// A shard that played all its pairs: the verdict comes at `merge`.
    #[must_use]
    pub fn shard_done(shard: crate::store::meta::Shard) -> Ending {
        Ending::new(
            format!("shard {shard} played (merge the shards for the run's result)"),
            exit::OK,
        )
    }

    /// Whether the run ended early and can be resumed.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.code == exit::ABORTED
    }
}

/// The SPRT verdict of the first pairing, if one is reached.
#[must_use]
pub fn verdict(plan: &Plan, tracker: &Tracker) -> Option<Ending> {
    let sprt = plan.sprt.as_ref()?;
    let report = StatsReport::from_tally(&tracker.tally(0), sprt).ok()?;
    match report.verdict {
        Verdict::H1 => Some(Ending::new("H1 accepted", exit::OK)),
        Verdict::H0 => Some(Ending::new("H0 accepted", exit::H0)),
        Verdict::Continue => None,
    }
}

/// The ending when every pair was played without a verdict.
#[must_use]
pub fn when_complete(plan: &Plan, tracker: &Tracker) -> Ending {
    if let Some(min) = plan.gate_min_elo {
        let e = Estimate::new(&tracker.tally(0).penta);
        return if e.elo >= min {
            Ending::new("gate passed", exit::OK)
        } else {
            Ending::new("gate failed: Elo below the minimum", exit::H0)
        };
    }
    if plan.sprt.is_some() {
        Ending::new("finished without an SPRT verdict", exit::NO_VERDICT)
    } else {
        Ending::new("finished", exit::OK)
    }
}

/// Whether an engine has more faults than the config allows, in every game recorded
/// (paired or not): the reason to abort, naming the engine and the key.
#[must_use]
pub fn fault_limit(plan: &Plan, tracker: &Tracker) -> Option<String> {
    let limits = plan.faults;
    for (i, engine) in plan.engines.iter().enumerate() {
        let count = |reasons: &[EndReason]| -> u64 {
            reasons
                .iter()
                .map(|&r| tracker.live_fault_count(i, r))
                .sum()
        };
        let crashes = count(&[EndReason::Crash, EndReason::Stall]);
        let time = count(&[EndReason::TimeForfeit]);
        let illegal = count(&[EndReason::IllegalMove, EndReason::NoMove]);
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
