//! The small parts the pages share (ages, the LLR bar, the verdict as said). The runs
//! page is `runs_list.rs`, the workers page `workers_page.rs`.

use crate::stats::sprt::Verdict;

/// `3 s`, `4 min`, `2.5 h`, `3.0 d`.
pub(crate) fn age(s: f64) -> String {
    match s {
        s if !s.is_finite() || s < 0.0 => "n/a".to_owned(),
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} d", s / 86400.0),
    }
}

/// The LLR as a bar between its bounds: the span lower..upper, a mark at the LLR.
pub(crate) fn llr_bar(llr: f64, lower: f64, upper: f64) -> String {
    const W: f64 = 120.0;
    let at = if upper > lower {
        ((llr - lower) / (upper - lower)).clamp(0.0, 1.0) * W
    } else {
        W / 2.0
    };
    let zero = if upper > lower && lower < 0.0 && upper > 0.0 {
        -lower / (upper - lower) * W
    } else {
        W / 2.0
    };
    format!(
        "<svg width=\"{W}\" height=\"14\" viewBox=\"0 0 {W} 14\" role=\"img\" aria-label=\"LLR\">\
         <rect x=\"0\" y=\"4\" width=\"{W}\" height=\"6\" rx=\"3\" fill=\"#e5e7eb\"/>\
         <line x1=\"{zero:.1}\" y1=\"2\" x2=\"{zero:.1}\" y2=\"12\" stroke=\"#9ca3af\"/>\
         <rect x=\"{:.1}\" y=\"1\" width=\"4\" height=\"12\" rx=\"1\" fill=\"#2563eb\"/></svg>",
        (at - 2.0).clamp(0.0, W - 4.0)
    )
}

/// A run's SPRT verdict as the pages say it: the test's "continue" only while the run
/// is open (a run that ended between the bounds has none); `None` without an SPRT.
pub(crate) fn shown_verdict(verdict: Option<Verdict>, state: &str) -> Option<String> {
    match verdict? {
        Verdict::Continue if state != "open" => Some("no verdict".to_owned()),
        v => Some(v.to_string()),
    }
}

/// What a tune's row says in place of a match's Elo, nElo and LLR.
pub(crate) fn tune_of(params: usize) -> String {
    match params {
        1 => "tune of 1 parameter".to_owned(),
        n => format!("tune of {n} parameters"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_run_between_the_bounds_has_no_verdict() {
        assert_eq!(
            shown_verdict(Some(Verdict::Continue), "open").as_deref(),
            Some("continue")
        );
        assert_eq!(
            shown_verdict(Some(Verdict::Continue), "finished").as_deref(),
            Some("no verdict")
        );
        assert_eq!(
            shown_verdict(Some(Verdict::H1), "finished").as_deref(),
            Some("H1")
        );
        assert_eq!(shown_verdict(None, "finished"), None);
    }

    #[test]
    fn ages_read_in_their_unit() {
        assert_eq!(age(3.2), "3 s");
        assert_eq!(age(600.0), "10 min");
        assert_eq!(age(3.0 * 3600.0), "3.0 h");
        assert_eq!(age(f64::NAN), "n/a");
    }

    #[test]
    fn the_llr_mark_stays_inside_its_bar() {
        assert!(llr_bar(99.0, -2.94, 2.94).contains("x=\"116.0\""));
        assert!(llr_bar(-99.0, -2.94, 2.94).contains("x=\"0.0\" y=\"1\""));
    }
}
