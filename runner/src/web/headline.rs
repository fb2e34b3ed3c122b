//! The figures a run's live card opens with, the same for a stored run and a folder's:
//! games and pairs, Elo and nElo, the LLR between its bounds, the verdict with the state.

use std::fmt::Write as _;

use crate::output::report::{escape, fixed, signed};
use crate::stats::sprt::Verdict;

use super::pages::shown_verdict;

/// A run's headline figures, borrowed from its status (`status --json`'s or a folder's).
pub(crate) struct Headline<'a> {
    pub games: u64,
    pub pairs: u64,
    pub pairs_total: u64,
    pub elo: (f64, f64),
    pub nelo: (f64, f64),
    /// The LLR with its lower and upper bounds; `None` without an SPRT.
    pub llr: Option<(f64, f64, f64)>,
    pub verdict: Option<Verdict>,
    pub state: &'a str,
    pub status: &'a str,
}

/// The headline of a status with the figures' fields by these names: a stored run's
/// (`fleet::status::Status`) and a folder's (`FolderStatus`), one mapping for both.
macro_rules! headline_of {
    ($s:expr) => {
        $crate::web::headline::Headline {
            games: $s.games,
            pairs: $s.pairs,
            pairs_total: $s.pairs_total,
            elo: ($s.elo, $s.elo_ci95),
            nelo: ($s.nelo, $s.nelo_ci95),
            llr: match ($s.llr, $s.llr_lower, $s.llr_upper) {
                (Some(llr), Some(lo), Some(hi)) => Some((llr, lo, hi)),
                _ => None,
            },
            verdict: $s.verdict,
            state: &$s.state,
            status: &$s.status,
        }
    };
}
pub(crate) use headline_of;

impl Headline<'_> {
    /// The card's opening and its first four figures; the caller adds its own and
    /// closes the `kpis` block and the section.
    pub(crate) fn open_card(&self) -> String {
        let mut out = String::from(
            "<section class=\"card\" id=\"live-run\"><h2>Now</h2><div class=\"kpis\">",
        );
        figure(
            &mut out,
            "games",
            "Games",
            &self.games.to_string(),
            &format!("{} of {} pairs", self.pairs, self.pairs_total),
        );
        let (elo, elo_ci95) = self.elo;
        let (nelo, nelo_ci95) = self.nelo;
        figure(
            &mut out,
            "elo",
            "Elo",
            &format!("{} \u{b1} {}", signed(elo, 2), fixed(elo_ci95, 2)),
            &format!("nElo {} \u{b1} {}", signed(nelo, 2), fixed(nelo_ci95, 2)),
        );
        match self.llr {
            Some((llr, lo, hi)) => figure(
                &mut out,
                "llr",
                "LLR",
                &fixed(llr, 2),
                &format!("bounds {} and {}", fixed(lo, 2), fixed(hi, 2)),
            ),
            None => figure(&mut out, "llr", "LLR", "n/a", "no SPRT"),
        }
        figure(
            &mut out,
            "verdict",
            "Verdict",
            &shown_verdict(self.verdict, self.state).unwrap_or_else(|| "none".to_owned()),
            // An open run's status is its state: said once.
            &if self.status == self.state {
                self.state.to_owned()
            } else {
                format!("{}: {}", self.state, self.status)
            },
        );
        out
    }
}

/// One figure of the live card, marked with its key (`data-k`) for tools and tests.
pub(crate) fn figure(out: &mut String, key: &str, label: &str, value: &str, sub: &str) {
    let _ = write!(
        out,
        "<div class=\"kpi\" data-k=\"{key}\"><div class=\"label\">{}</div>\
         <div class=\"value\">{}</div><div class=\"sub\">{}</div></div>",
        escape(label),
        escape(value),
        escape(sub)
    );
}
