//! How a run ends, decided from its counts alone, so that a local run and a distributed
//! one (whose counts sit in the database) end the same way: an SPRT verdict, the
//! regression gate, too many faults of one engine, or every pair played.

use crate::config::Plan;
use crate::exit;
use crate::game::EndReason;
use crate::stats::{Estimate, StatsReport, Verdict};
// The type is the store's (the outputs write it); the old path stays for the callers.
pub use crate::store::ending::Ending;
use crate::store::tracker::Tracker;

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
                "{name} crashed or stalled {} (faults.max_crashes = {})",
                times(crashes),
                limits.max_crashes
            ));
        }
        if time > u64::from(limits.max_time_losses) {
            return Some(format!(
                "{name} lost {time} game{} on time (faults.max_time_losses = {})",
                if time == 1 { "" } else { "s" },
                limits.max_time_losses
            ));
        }
        if illegal > u64::from(limits.max_illegal_moves) {
            return Some(format!(
                "{name} made {illegal} illegal or missing move{} (faults.max_illegal_moves = {})",
                if illegal == 1 { "" } else { "s" },
                limits.max_illegal_moves
            ));
        }
    }
    None
}

/// `once`, `twice`, `3 times`.
fn times(n: u64) -> String {
    match n {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        n => format!("{n} times"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::store::journal::JournalEntry;

    #[test]
    fn a_fault_limit_counts_in_words_that_fit_the_number() {
        let program = std::env::current_exe().expect("test binary");
        let text = format!(
            "[tournament]\npairs = 4\n[time]\ndepth = 1\n[faults]\nmax_crashes = 0\nmax_time_losses = 0\n\
             [[engine]]\nname = \"a\"\ncommand = [{0:?}]\n[[engine]]\nname = \"b\"\ncommand = [{0:?}]\n",
            program.display().to_string()
        );
        let plan = crate::config::parse("t.toml", &text, &[])
            .expect("config")
            .plan;
        let mut tracker = Tracker::new(vec!["a".into(), "b".into()], 1);
        let fault = |pair: u64, reason: EndReason| JournalEntry {
            reason,
            faulted: Some("a".to_owned()),
            ..JournalEntry::sample(pair, 0, Outcome::BlackWins)
        };
        tracker.record(&fault(0, EndReason::Crash), 0, 0, 1);
        assert_eq!(
            fault_limit(&plan, &tracker).as_deref(),
            Some("a crashed or stalled once (faults.max_crashes = 0)")
        );
        tracker.record(&fault(1, EndReason::Stall), 0, 0, 1);
        tracker.record(&fault(2, EndReason::Crash), 0, 0, 1);
        assert_eq!(
            fault_limit(&plan, &tracker).as_deref(),
            Some("a crashed or stalled 3 times (faults.max_crashes = 0)")
        );
        let mut on_time = Tracker::new(vec!["a".into(), "b".into()], 1);
        on_time.record(&fault(0, EndReason::TimeForfeit), 0, 0, 1);
        assert_eq!(
            fault_limit(&plan, &on_time).as_deref(),
            Some("a lost 1 game on time (faults.max_time_losses = 0)")
        );
    }
}
