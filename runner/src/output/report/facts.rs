//! The numbers of a report, computed once from the replayed journal and shared by the
//! HTML page and `summary.md`: per-pairing results, the result block, end reasons,
//! faults per engine, the rating list and the SPRT state.

use std::collections::BTreeMap;

use super::input::RunInput;
use super::series::{Point, Replay};
use crate::config::TournamentKind;
use crate::game::EndReason;
use crate::output::over_clock::{self, OverClockLine};
use crate::output::summary::{ratings, RatingLine};
use crate::output::text::{rating_table, result_block};
use crate::stats::{Estimate, StatsReport, Tally};

/// One pairing's results, first engine's view.
#[derive(Clone, Debug)]
pub struct PairingResult {
    pub first: String,
    pub second: String,
    pub tally: Tally,
    pub estimate: Estimate,
}

/// One end reason and how many games ended by it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReasonCount {
    pub code: String,
    /// The reason in words, for known codes.
    pub describe: String,
    pub games: u64,
}

/// Everything the page and the markdown show.
#[derive(Clone, Debug)]
pub struct Facts<'a> {
    pub input: &'a RunInput,
    pub names: Vec<String>,
    pub replay: &'a Replay,
    pub pairings: Vec<PairingResult>,
    /// The terminal's text: the result block of a match, the rating table of more engines.
    pub result_text: String,
    /// By count, most common first.
    pub reasons: Vec<ReasonCount>,
    /// Fault codes that occur in the run, in [`EndReason`] order.
    pub fault_codes: Vec<&'static str>,
    /// Per engine (config order): faults by code, in every game recorded (a fault that
    /// stopped the run before its pair was complete too).
    pub faults: Vec<BTreeMap<String, u64>>,
    /// Faults in games whose pair is not complete: in `faults`, not in the counts.
    pub unpaired_faults: u64,
    /// Per engine (config order): its moves over its clock.
    pub over_clock: Vec<(String, OverClockLine)>,
    /// Whether any engine plays on a clock (else there is no clock to go over).
    pub clocked: bool,
    /// The rating list (more than two engines), best first.
    pub ratings: Vec<RatingLine>,
    /// The SPRT state of the first pairing, if the run has an SPRT.
    pub sprt: Option<StatsReport>,
    /// Games recorded.
    pub games: u64,
    /// Mean plies per game and mean game time in seconds.
    pub mean_plies: f64,
    pub mean_game_s: f64,
}

impl<'a> Facts<'a> {
    /// Replays the journal and computes every number.
    #[must_use]
    pub fn new(input: &'a RunInput) -> Facts<'a> {
        let names: Vec<String> = input.engines.iter().map(|e| e.name.clone()).collect();
        let replay = &input.replay;
        let tracker = &replay.tracker;
        let name = |i: usize| names.get(i).cloned().unwrap_or_default();
        let pairings: Vec<PairingResult> = input
            .pairings
            .iter()
            .enumerate()
            .map(|(k, &(a, b))| {
                let tally = tracker.tally(k);
                PairingResult {
                    first: name(a),
                    second: name(b),
                    tally,
                    estimate: Estimate::reported(&tally.penta),
                }
            })
            .collect();
        let multi = input.kind != TournamentKind::Match;
        let mut rating_lines = if multi { ratings(tracker) } else { Vec::new() };
        rating_lines.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        let bases: Vec<_> = (0..names.len())
            .map(|i| {
                input
                    .settings
                    .as_ref()
                    .and_then(|s| s.engines.get(i))
                    .and_then(|e| e.base)
            })
            .collect();
        let over_clock = over_clock::lines(&names, &tracker.over_clock, &bases);
        let mut result_text = match pairings.first() {
            _ if multi => rating_table(&rating_lines),
            Some(p) => result_block((&p.first, &p.second), &p.tally, input.sprt.as_ref()),
            None => String::new(),
        };
        result_text.push_str(&over_clock::text(&over_clock));
        let mut reasons: Vec<ReasonCount> = tracker
            .reasons
            .iter()
            .map(|(code, &games)| ReasonCount {
                code: code.clone(),
                describe: EndReason::from_code(code)
                    .map_or_else(|| code.clone(), |r| r.describe().to_owned()),
                games,
            })
            .collect();
        reasons.sort_by(|a, b| b.games.cmp(&a.games).then(a.code.cmp(&b.code)));
        let faults = tracker.recorded_faults().to_vec();
        let fault_codes = EndReason::ALL
            .into_iter()
            .filter(|r| r.is_fault())
            .map(EndReason::code)
            .filter(|code| faults.iter().any(|f| f.contains_key(*code)))
            .collect();
        let total =
            |f: &[BTreeMap<String, u64>]| -> u64 { f.iter().flat_map(|m| m.values()).sum() };
        let unpaired_faults = total(&faults).saturating_sub(total(&tracker.faults));
        let sprt = match (input.sprt.as_ref(), pairings.first()) {
            (Some(s), Some(p)) => StatsReport::from_tally(&p.tally, s).ok(),
            _ => None,
        };
        let played = tracker.games().max(1) as f64;
        let mean_plies = replay.plies as f64 / played;
        let mean_game_s = replay.duration_ms as f64 / played / 1000.0;
        Facts {
            input,
            faults,
            unpaired_faults,
            clocked: bases.iter().any(Option::is_some),
            over_clock,
            names,
            pairings,
            result_text,
            reasons,
            fault_codes,
            ratings: rating_lines,
            sprt,
            games: tracker.games(),
            mean_plies,
            mean_game_s,
            replay,
        }
    }

    /// The title: `A vs B`, or the kind and number of engines.
    #[must_use]
    pub fn title(&self) -> String {
        match (self.input.kind, self.pairings.first()) {
            (TournamentKind::Match, Some(p)) => format!("{} vs {}", p.first, p.second),
            (TournamentKind::Gauntlet, _) => format!(
                "Gauntlet: {} vs {} opponents",
                self.names.first().map_or("?", String::as_str),
                self.names.len().saturating_sub(1)
            ),
            (TournamentKind::Ladder, _) => format!("Ladder of {} engines", self.names.len()),
            _ => format!("Round robin of {} engines", self.names.len()),
        }
    }

    /// Completed pairs over all pairings.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.pairings.iter().map(|p| p.tally.penta.pairs()).sum()
    }

    /// A marker for CI summaries, from the exit code: `PASS`, `FAIL`, `NO VERDICT`,
    /// `ABORTED`, or `INCOMPLETE` without a summary.
    #[must_use]
    pub fn marker(&self) -> &'static str {
        match self.input.status.as_ref().map(|s| s.exit_code) {
            None => self.input.pending.as_ref().map_or("INCOMPLETE", |p| p.0),
            Some(0) => "PASS",
            Some(1) => "FAIL",
            Some(3) => "NO VERDICT",
            Some(4) => "ABORTED",
            Some(_) => "ERROR",
        }
    }

    /// The status in words.
    #[must_use]
    pub fn status(&self) -> String {
        self.input.status.as_ref().map_or_else(
            || {
                self.input.pending.as_ref().map_or_else(
                    || "no summary.json: the run is still going or was killed".to_owned(),
                    |p| p.1.clone(),
                )
            },
            |s| s.ending.to_string(),
        )
    }

    /// The points of the first pairing that carry an LLR.
    #[must_use]
    pub fn llr_points(&self) -> &[Point] {
        self.replay.series.first().map_or(&[], Vec::as_slice)
    }

    /// Total faults of engine `i`.
    #[must_use]
    pub fn fault_total(&self, i: usize) -> u64 {
        self.faults.get(i).map_or(0, |f| f.values().sum())
    }
}
