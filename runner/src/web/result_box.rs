//! A run's result as fishtest shows it in its list: a coloured box (green H1, red H0,
//! yellow while running, grey cancelled or ended without a verdict) holding the LLR
//! with its bounds, Elo ±, the games with W/D/L and the pentanomial counts. Every line
//! is one unbroken line of the box (`white-space: nowrap` in the page's style).

use std::fmt::Write as _;

use crate::fleet::status::{RunState, Status};
use crate::output::report::{escape, fixed, signed};
use crate::stats::sprt::Verdict;

use super::pages::tune_of;

/// The box's colour class: `h1`, `h0`, `running`, `cancelled` (also aborted) or
/// `ended` (finished without a verdict).
#[must_use]
pub(crate) fn result_class(state: &str, verdict: Option<Verdict>) -> &'static str {
    match (state, verdict) {
        (_, Some(Verdict::H1)) => "h1",
        (_, Some(Verdict::H0)) => "h0",
        ("open", _) => "running",
        ("cancelled" | "aborted", _) => "cancelled",
        _ => "ended",
    }
}

/// The lines of a match's box.
fn match_lines(s: &Status) -> Vec<String> {
    let mut lines = Vec::with_capacity(4);
    lines.push(match (s.llr, s.llr_lower, s.llr_upper) {
        (Some(llr), Some(lo), Some(hi)) => {
            format!("LLR {} ({}, {})", fixed(llr, 2), fixed(lo, 2), fixed(hi, 2))
        }
        _ => "no SPRT".to_owned(),
    });
    lines.push(format!(
        "Elo {} \u{b1} {}",
        signed(s.elo, 2),
        fixed(s.elo_ci95, 2)
    ));
    lines.push(format!(
        "Games {}: W {} D {} L {}",
        s.games, s.wins, s.draws, s.losses
    ));
    let [ll, ld, dd, wd, ww] = s.penta;
    lines.push(format!("Ptnml(0-2) {ll}, {ld}, {dd}, {wd}, {ww}"));
    lines
}

/// The box of a run's state; `why` stands alone when the run does not read here.
#[must_use]
pub(crate) fn result_box(run: Option<&RunState>, why: &str) -> String {
    let (class, lines) = match run {
        Some(RunState::Match(s)) => (result_class(&s.state, s.verdict), match_lines(s)),
        Some(RunState::Tune(t)) => (
            result_class(&t.state, None),
            vec![
                tune_of(t.params.len()),
                format!("iterations {} of {}", t.pairs, t.pairs_total),
            ],
        ),
        None => ("ended", vec![why.to_owned()]),
    };
    let mut out = format!("<div class=\"result {class}\" data-result=\"{class}\">");
    for line in lines {
        let _ = write!(out, "<div>{}</div>", escape(&line));
    }
    out.push_str("</div>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_colour_follows_the_verdict_then_the_state() {
        assert_eq!(result_class("finished", Some(Verdict::H1)), "h1");
        assert_eq!(result_class("open", Some(Verdict::H0)), "h0");
        assert_eq!(result_class("open", Some(Verdict::Continue)), "running");
        assert_eq!(
            result_class("cancelled", Some(Verdict::Continue)),
            "cancelled"
        );
        assert_eq!(result_class("aborted", None), "cancelled");
        assert_eq!(result_class("finished", None), "ended");
    }
}
