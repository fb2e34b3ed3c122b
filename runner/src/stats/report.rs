//! A complete statistics report for one pairing: the numbers as a serializable
//! struct (the JSON of `xq-runner stats --json`) and fastchess's text block.
//!
//! ```text
//! Elo: 2.46 +/- 2.38, nElo: 4.54 +/- 4.40
//! LOS: 97.86 %, DrawRatio: 47.50 %, PairsRatio: 1.05
//! Games: 24000, Wins: ?, Losses: ?, Draws: ?, Points: 12085.0 (50.35 %)
//! Ptnml(0-2): [120, 2950, 5700, 3100, 130], WL/DD Ratio: ?
//! LLR: 1.41 (47.8%) (-2.94, 2.94) [0.00, 2.00]
//! ```
//! Game counts that pentanomial counts alone do not determine print as `?`
//! (and are `null` in JSON). Ratios print as percentages in the text and are
//! fractions in the struct. Like fastchess, trinomial reports have no
//! `PairsRatio` and no `Ptnml` line.
//!
//! A number that is undefined prints as `n/a` (and is `null` in JSON): every estimate
//! when there are no games (the first line then ends in `(no games)`; the regularized
//! counts would otherwise show Elo 0 +/- 1199.83), a ratio of nothing to nothing
//! (`DrawRatio` without games, `PairsRatio` without won or lost pairs).

use std::fmt::Write as _;

use serde::Serialize;

use super::counts::Counts;
use super::elo::Estimate;
use super::error::SprtError;
use super::penta::Penta;
use super::sprt::{llr_logistic, llr_normalized, Sprt, Verdict};
use super::tally::Tally;
use super::wdl::Wdl;

/// Everything `xq-runner stats` reports. Non-finite numbers serialize as `null`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatsReport {
    /// Elo, nElo, LOS, ratios (from the pentanomial counts when there are any).
    #[serde(flatten)]
    pub estimate: Estimate,
    /// Pair counts `[LL, LD, DD+WL, WD, WW]`, if given.
    pub penta: Option<Penta>,
    /// Game counts `[L, D, W]`, if given.
    pub wdl: Option<Wdl>,
    /// Games won, when known.
    pub wins: Option<u64>,
    /// Games lost, when known.
    pub losses: Option<u64>,
    /// Games drawn, when known.
    pub draws: Option<u64>,
    /// Points of the first engine (raw counts).
    pub points: f64,
    /// fastchess's `WL/DD Ratio`, when both kinds of counts are known and agree.
    pub wl_dd_ratio: Option<f64>,
    /// Why the pair and game counts disagree, if they do (then the game counts
    /// are shown as given, and the WL/DD split is unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mismatch: Option<String>,
    /// The SPRT design.
    pub sprt: Sprt,
    /// LLR in the design's model.
    pub llr: f64,
    /// Lower LLR bound (H0 below).
    pub llr_lower: f64,
    /// Upper LLR bound (H1 above).
    pub llr_upper: f64,
    /// fastchess's LLR fraction ([`Sprt::fraction`]).
    pub llr_fraction: f64,
    /// H0, H1 or continue.
    pub verdict: Verdict,
    /// LLR with the bounds read as logistic Elo.
    pub llr_logistic: Option<f64>,
    /// LLR with the bounds read as normalized Elo.
    pub llr_normalized: Option<f64>,
}

/// Why a report could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReportError {
    /// Neither pair nor game counts.
    #[error("no counts given: need pentanomial or trinomial counts")]
    NoCounts,
    /// A bad design, or an LLR without a fit.
    #[error(transparent)]
    Sprt(#[from] SprtError),
}

impl StatsReport {
    /// The report for pentanomial and/or trinomial counts under `sprt`. With
    /// both, the pentanomial counts drive the statistics and the game counts
    /// fill in wins, losses, draws and, if they agree, the WL/DD split
    /// (fishtest's totals often differ by a few unpaired games; that is noted
    /// in [`StatsReport::mismatch`], not an error).
    ///
    /// # Errors
    /// [`ReportError`] for no counts, a bad design, or an LLR in the chosen
    /// model without a fit.
    pub fn new(penta: Option<Penta>, wdl: Option<Wdl>, sprt: &Sprt) -> Result<Self, ReportError> {
        sprt.validate()?;
        let (split, mismatch) = match (penta, wdl) {
            (Some(penta), Some(wdl)) => match (Tally { penta, wdl }).middle_split() {
                Ok(split) => (Some(split), None),
                Err(err) => (None, Some(err.to_string())),
            },
            _ => (None, None),
        };
        let counts: &dyn Counts = match (&penta, &wdl) {
            (Some(p), _) => p,
            (None, Some(w)) => w,
            (None, None) => return Err(ReportError::NoCounts),
        };
        let llr = sprt.llr(counts)?;
        let estimate = Estimate::reported(counts);
        // Like fastchess, games and points come from the game counts when known.
        let points = wdl.map_or_else(|| penta.map_or(0.0, |p| p.points()), |w| w.points());
        Ok(Self {
            estimate,
            penta,
            wdl,
            wins: wdl.map(|w| w.wins),
            losses: wdl.map(|w| w.losses),
            draws: wdl.map(|w| w.draws),
            points,
            wl_dd_ratio: split.map(|s| s.ratio()),
            mismatch,
            sprt: *sprt,
            llr,
            llr_lower: sprt.lower_bound(),
            llr_upper: sprt.upper_bound(),
            llr_fraction: sprt.fraction(llr),
            verdict: sprt.verdict(llr),
            llr_logistic: llr_logistic(sprt.elo0, sprt.elo1, counts).ok(),
            llr_normalized: llr_normalized(sprt.elo0, sprt.elo1, counts).ok(),
        })
    }

    /// The report for a full match record.
    ///
    /// # Errors
    /// As [`StatsReport::new`].
    pub fn from_tally(tally: &Tally, sprt: &Sprt) -> Result<Self, ReportError> {
        Self::new(Some(tally.penta), Some(tally.wdl), sprt)
    }

    /// Games played: `W + L + D` when the game counts are known (as fastchess
    /// prints it), else two per pair.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.wdl.map_or(self.estimate.games, |w| w.games())
    }

    /// The points as a share of the games (NaN without games).
    #[must_use]
    pub fn points_ratio(&self) -> f64 {
        self.points / self.games() as f64
    }

    /// Whether the estimates are undefined: no games (no pairs, for pair counts).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.estimate.games == 0
    }

    /// fastchess's result block, five lines (three for trinomial counts plus
    /// the LLR line), each ending in a newline.
    #[must_use]
    pub fn to_text(&self) -> String {
        let e = &self.estimate;
        let mut out = String::new();
        let _ = write!(
            out,
            "Elo: {} +/- {}, nElo: {} +/- {}",
            num(e.elo, 2),
            num(e.elo_ci95, 2),
            num(e.nelo, 2),
            num(e.nelo_ci95, 2)
        );
        if self.is_empty() {
            let what = if self.penta.is_some() {
                "pairs"
            } else {
                "games"
            };
            let _ = write!(out, " (no {what})");
        }
        out.push('\n');
        let _ = write!(
            out,
            "LOS: {}, DrawRatio: {}",
            percent(e.los, 2),
            percent(e.draw_ratio, 2)
        );
        if let Some(ratio) = e.pairs_ratio {
            let _ = write!(out, ", PairsRatio: {}", num(ratio, 2));
        }
        out.push('\n');
        let _ = writeln!(
            out,
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {} ({})",
            self.games(),
            count(self.wins),
            count(self.losses),
            count(self.draws),
            num(self.points, 1),
            percent(self.points_ratio(), 2)
        );
        if let Some(p) = self.penta {
            let wl_dd = self
                .wl_dd_ratio
                .map_or_else(|| "?".to_owned(), |r| num(r, 2));
            let _ = writeln!(out, "Ptnml(0-2): [{p}], WL/DD Ratio: {wl_dd}");
        }
        let _ = writeln!(
            out,
            "LLR: {} ({}%) ({}, {}) [{}, {}]",
            num(self.llr, 2),
            num(100.0 * self.llr_fraction, 1),
            num(self.llr_lower, 2),
            num(self.llr_upper, 2),
            num(self.sprt.elo0, 2),
            num(self.sprt.elo1, 2),
        );
        out
    }
}

/// A fraction as a percentage with `digits` decimals (`47.50 %`), or `n/a`.
fn percent(x: f64, digits: usize) -> String {
    if x.is_nan() {
        "n/a".to_owned()
    } else {
        format!("{} %", num(100.0 * x, digits))
    }
}

/// A number with `digits` decimals as fmt/printf prints it: `inf`, `-inf`,
/// `n/a` for an undefined one (NaN), and never `-0.00`.
fn num(x: f64, digits: usize) -> String {
    if x.is_nan() {
        "n/a".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else {
        let s = format!("{x:.digits$}");
        match s.strip_prefix('-') {
            Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_owned(),
            _ => s,
        }
    }
}

/// A count, or `?` when unknown.
fn count(x: Option<u64>) -> String {
    x.map_or_else(|| "?".to_owned(), |v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sprt::EloModel;

    #[test]
    fn text_block_of_the_first_check_vector() -> Result<(), ReportError> {
        let penta = Penta::new([120, 2950, 5700, 3100, 130]);
        let report = StatsReport::new(Some(penta), None, &Sprt::default())?;
        let text = report.to_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Elo: 2.46 +/- 2.38, nElo: 4.54 +/- 4.40");
        assert_eq!(
            lines[1],
            "LOS: 97.86 %, DrawRatio: 47.50 %, PairsRatio: 1.05"
        );
        assert_eq!(
            lines[2],
            "Games: 24000, Wins: ?, Losses: ?, Draws: ?, Points: 12085.0 (50.35 %)"
        );
        assert_eq!(
            lines[3],
            "Ptnml(0-2): [120, 2950, 5700, 3100, 130], WL/DD Ratio: ?"
        );
        assert_eq!(lines[4], "LLR: 1.41 (47.8%) (-2.94, 2.94) [0.00, 2.00]");
        assert_eq!(lines.len(), 5);
        Ok(())
    }

    #[test]
    fn game_counts_fill_in_the_unknowns() -> Result<(), Box<dyn std::error::Error>> {
        let tally = Tally::new(Penta::new([1, 2, 3, 3, 1]), Wdl::new([6, 7, 7]))?;
        let report = StatsReport::from_tally(
            &tally,
            &Sprt {
                model: EloModel::Logistic,
                ..Sprt::default()
            },
        )?;
        let text = report.to_text();
        assert!(text.contains("Games: 20, Wins: 7, Losses: 6, Draws: 7, Points: 10.5 (52.50 %)"));
        assert!(text.contains("WL/DD Ratio: 2.00"), "{text}");
        assert!(text.ends_with("[0.00, 2.00]\n"));
        assert_eq!(Some(report.llr), report.llr_logistic);
        assert_eq!(report.mismatch, None);
        Ok(())
    }

    #[test]
    fn disagreeing_counts_are_shown_as_given() -> Result<(), ReportError> {
        // fishtest's totals: 9 games more than twice the pairs.
        let penta = Penta::new([10789, 19328, 33806, 19402, 10543]);
        let wdl = Wdl::new([65804, 56553, 65388]);
        let report = StatsReport::new(Some(penta), Some(wdl), &Sprt::default())?;
        assert!(report.mismatch.is_some());
        assert_eq!(report.wl_dd_ratio, None);
        assert_eq!(report.estimate.games, 187_736);
        let text = report.to_text();
        assert!(
            text.contains("Games: 187745, Wins: 65388, Losses: 65804, Draws: 56553"),
            "{text}"
        );
        assert!(text.contains("WL/DD Ratio: ?"));
        Ok(())
    }

    #[test]
    fn trinomial_block_has_no_pair_lines() -> Result<(), ReportError> {
        let report = StatsReport::new(None, Some(Wdl::new([0, 0, 0])), &Sprt::default())?;
        let text = report.to_text();
        assert_eq!(text.lines().count(), 4);
        assert!(text.starts_with("Elo: n/a +/- n/a, nElo: n/a +/- n/a (no games)\n"));
        assert!(text.contains("LOS: n/a, DrawRatio: n/a\n"));
        assert!(text.contains("Points: 0.0 (n/a)"));
        assert!(!text.contains("nan") && !text.contains("1199"), "{text}");
        Ok(())
    }

    #[test]
    fn no_pairs_say_so_and_undefined_ratios_are_not_numbers() -> Result<(), ReportError> {
        let report = StatsReport::new(Some(Penta::default()), None, &Sprt::default())?;
        let text = report.to_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Elo: n/a +/- n/a, nElo: n/a +/- n/a (no pairs)");
        assert_eq!(lines[1], "LOS: n/a, DrawRatio: n/a, PairsRatio: n/a");
        assert_eq!(lines.len(), 5, "the block keeps its shape: {text}");
        let json = serde_json::to_value(&report).map_err(|_| ReportError::NoCounts)?;
        for key in [
            "elo",
            "elo_ci95",
            "elo_lower",
            "los",
            "nelo",
            "nelo_ci95",
            "pairs_ratio",
        ] {
            assert!(json[key].is_null(), "{key}: {json}");
        }
        // All pairs drawn: a defined Elo, but a pairs ratio of 0/0.
        let drawn = StatsReport::new(Some(Penta::new([0, 0, 3, 0, 0])), None, &Sprt::default())?;
        let text = drawn.to_text();
        assert!(text.starts_with("Elo: 0.00 +/- "), "{text}");
        assert!(
            text.contains("LOS: 50.00 %, DrawRatio: 100.00 %, PairsRatio: n/a"),
            "{text}"
        );
        Ok(())
    }

    #[test]
    fn numbers_print_like_fmt() {
        assert_eq!(num(-0.0001, 2), "0.00");
        assert_eq!(num(-0.005_000_1, 2), "-0.01");
        assert_eq!(num(f64::INFINITY, 2), "inf");
        assert_eq!(num(f64::NAN, 2), "n/a");
    }
}
