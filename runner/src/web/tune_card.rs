//! The live card of a stored tune, as a match's page has one: what was played of what
//! was planned, the batches in flight, each parameter's value so far (not final until
//! the tune ends), then the workers table. The figures are `status --json`'s.

use std::fmt::Write as _;

use super::headline::figure;
use super::workers_table::workers_table;
use crate::fleet::tune_run::TuneStatus;

/// What a value is while the tune goes on, and once it ended.
pub(crate) fn stage(state: &str) -> &'static str {
    if state == "open" {
        "so far"
    } else {
        "final"
    }
}

/// The card.
pub(crate) fn tune_card(t: &TuneStatus) -> String {
    let mut out =
        String::from("<section class=\"card\" id=\"live-run\"><h2>Now</h2><div class=\"kpis\">");
    figure(
        &mut out,
        "pairs",
        "Pairs",
        &t.pairs.to_string(),
        &format!("of {} planned", t.pairs_total),
    );
    figure(
        &mut out,
        "in-flight",
        "Batches in flight",
        &format!("{} pairs", t.pairs_claimed),
        &format!(
            "{} waiting, {} not handed out",
            t.pairs_expired, t.pairs_left
        ),
    );
    figure(
        &mut out,
        "state",
        "State",
        &t.state,
        &if t.status == t.state {
            format!("values {}", stage(&t.state))
        } else {
            format!("{}; values {}", t.status, stage(&t.state))
        },
    );
    for p in &t.params {
        figure(
            &mut out,
            "param",
            &p.name,
            &format!("{:.2}", p.value),
            &format!("{} (start {})", stage(&t.state), p.start),
        );
    }
    let _ = writeln!(
        out,
        "</div><h2 style=\"margin-top:16px\">Workers</h2>{}\
         <p class=\"meta\"><a href=\"/api/runs/{}\">JSON</a></p></section>",
        workers_table(&t.workers),
        t.id
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_so_far_until_the_tune_ends() {
        assert_eq!(stage("open"), "so far");
        assert_eq!(stage("finished"), "final");
        assert_eq!(stage("cancelled"), "final");
    }
}
