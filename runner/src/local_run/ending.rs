//! How a run ends, decided from its counts alone, so that a local run and a distributed
//! one (whose counts sit in the database) end the same way: an SPRT verdict, the
//! regression gate, too many faults of one engine, or every pair played.

use crate::config::{FaultKind, Plan};
use crate::stats::{Estimate, StatsReport, Verdict};
use crate::store::ending::Ending;
use crate::store::tracker::Tracker;

/// The SPRT verdict of the first pairing, if one is reached.
#[must_use]
pub fn verdict(plan: &Plan, tracker: &Tracker) -> Option<Ending> {
    let sprt = plan.sprt.as_ref()?;
    let report = StatsReport::from_tally(&tracker.tally(0), sprt).ok()?;
    match report.verdict {
        Verdict::H1 => Some(Ending::H1Accepted),
        Verdict::H0 => Some(Ending::H0Accepted),
        Verdict::Continue => None,
    }
}

/// The ending when every pair was played without a verdict.
#[must_use]
pub fn when_complete(plan: &Plan, tracker: &Tracker) -> Ending {
    if let Some(min) = plan.gate_min_elo {
        // Without a complete pair the Elo is undefined and the gate is not passed.
        let e = Estimate::reported(&tracker.tally(0).penta);
        return if e.elo >= min {
            Ending::GatePassed
        } else {
            Ending::GateFailed
        };
    }
    if plan.sprt.is_some() {
        Ending::NoVerdict
    } else {
        Ending::Finished
    }
}

/// Whether an engine has more faults than the config allows, in every game recorded
/// (paired or not): the reason to abort, naming the engine and the key. Which limit a
/// fault counts against is [`FaultKind::of`], as in a tune.
#[must_use]
pub fn fault_limit(plan: &Plan, tracker: &Tracker) -> Option<String> {
    for (i, engine) in plan.engines.iter().enumerate() {
        for kind in FaultKind::ALL {
            let count: u64 = kind.reasons().map(|r| tracker.live_fault_count(i, r)).sum();
            let limit = plan.faults.limit(kind);
            if count > u64::from(limit) {
                let name = &engine.spec.name;
                let did = match kind {
                    FaultKind::Crash => format!("crashed or stalled {}", times(count)),
                    FaultKind::TimeLoss => format!("lost {count} game{} on time", plural(count)),
                    FaultKind::Illegal => {
                        format!("made {count} illegal or missing move{}", plural(count))
                    }
                };
                return Some(format!("{name} {did} ({} = {limit})", kind.key()));
            }
        }
    }
    None
}

/// `s` for a count other than one.
fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
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
    use crate::game::{EndReason, Outcome};
    use crate::store::journal::JournalEntry;

    fn plan(faults: &str) -> Plan {
        // Any program that exists serves as the engine: nothing is started.
        let program = std::env::current_exe().expect("test binary");
        let text = format!(
            "[tournament]\npairs = 5\n[time]\ndepth = 1\n[faults]\n{faults}\n\
             [[engine]]\nname = \"a\"\ncommand = [{program:?}]\n\
             [[engine]]\nname = \"b\"\ncommand = [{program:?}]\n"
        );
        crate::config::parse("test.toml", &text, &[])
            .expect("config")
            .plan
    }

    /// A tracker of one game that `a` lost by `reason`, its pair not complete.
    fn lost_by(reason: EndReason) -> Tracker {
        let mut tracker = Tracker::new(vec!["a".to_owned(), "b".to_owned()], 1);
        let entry = JournalEntry {
            reason,
            faulted: Some("a".to_owned()),
            ..JournalEntry::sample(0, 0, Outcome::BlackWins)
        };
        tracker.record(&entry, 0, 0, 1);
        tracker
    }

    #[test]
    fn a_missing_move_counts_against_the_illegal_move_limit() {
        let tracker = lost_by(EndReason::NoMove);
        assert_eq!(
            fault_limit(&plan("max_illegal_moves = 0"), &tracker).as_deref(),
            Some("a made 1 illegal or missing move (faults.max_illegal_moves = 0)")
        );
        assert_eq!(fault_limit(&plan("max_crashes = 0"), &tracker), None);
        let crashed = lost_by(EndReason::Stall);
        assert_eq!(
            fault_limit(&plan("max_crashes = 0"), &crashed).as_deref(),
            Some("a crashed or stalled once (faults.max_crashes = 0)")
        );
    }

    #[test]
    fn no_complete_pair_passes_no_gate() {
        let plan = Plan {
            gate_min_elo: Some(-50.0),
            ..plan("")
        };
        let tracker = lost_by(EndReason::Checkmate);
        assert_eq!(tracker.pairs(), 0);
        assert_eq!(when_complete(&plan, &tracker), Ending::GateFailed);
    }

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
