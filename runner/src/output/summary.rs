//! `summary.json`: the counts, statistics, verdict and faults of a run, written at the end
//! (and on interruption) from the same tracker the journal feeds.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::config::{Kind, Plan};
use crate::schedule::tracker::{Faults, Tracker};
use crate::stats::{Anchor, Estimate, Penta, RatingList, Sprt, StatsReport, Verdict, Wdl};

/// One engine of the run.
#[derive(Clone, Debug, Serialize)]
pub struct EngineLine {
    pub name: String,
    pub command: Vec<String>,
    /// The `bench` signature given in the config, if any.
    pub bench: Option<u64>,
}

/// The statistics of one pairing, from its first engine's view.
#[derive(Clone, Debug, Serialize)]
pub struct PairingLine {
    pub first: String,
    pub second: String,
    pub pairs: u64,
    pub penta: Penta,
    pub wdl: Wdl,
    pub elo: f64,
    pub elo_ci95: f64,
}

/// One line of the rating table.
#[derive(Clone, Debug, Serialize)]
pub struct RatingLine {
    pub name: String,
    pub elo: f64,
    pub ci95: f64,
    pub games: f64,
    pub points: f64,
}

/// The whole summary.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub version: &'static str,
    pub config_hash: String,
    pub kind: Kind,
    pub status: String,
    pub exit_code: u8,
    pub engines: Vec<EngineLine>,
    pub games: u64,
    pub pairs: u64,
    /// Games whose partner game was not played (counted in `reasons`, not in the statistics).
    pub unpaired_games: u64,
    /// Pair counts `[LL, LD, DD+WL, WD, WW]` of the first pairing, first engine's view.
    pub penta: Penta,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub elo: f64,
    pub elo_ci95: f64,
    pub nelo: f64,
    pub nelo_ci95: f64,
    pub los: f64,
    pub draw_ratio: f64,
    pub sprt: Option<Sprt>,
    pub llr: Option<f64>,
    pub llr_lower: Option<f64>,
    pub llr_upper: Option<f64>,
    pub verdict: Option<Verdict>,
    pub faults: BTreeMap<String, Faults>,
    pub reasons: BTreeMap<String, u64>,
    pub pairings: Vec<PairingLine>,
    pub ratings: Vec<RatingLine>,
    pub duration_s: f64,
}

/// The rating list of all games, first engine anchored at 0.
#[must_use]
pub fn ratings(tracker: &Tracker) -> Vec<RatingLine> {
    let Ok(list) = RatingList::fit(&tracker.games, Anchor::Engine(0)) else {
        return Vec::new();
    };
    tracker
        .names()
        .iter()
        .zip(list.ratings)
        .map(|(name, r)| RatingLine {
            name: name.clone(),
            elo: r.elo,
            ci95: r.ci95,
            games: r.games,
            points: r.points,
        })
        .collect()
}

/// Builds the summary of a run.
#[must_use]
pub fn summarize(
    plan: &Plan,
    hash: &str,
    tracker: &Tracker,
    status: &str,
    exit_code: u8,
    duration_s: f64,
) -> Summary {
    let first = tracker.tally(0);
    let estimate = Estimate::new(&first.penta);
    let report = plan
        .sprt
        .as_ref()
        .and_then(|sprt| StatsReport::from_tally(&first, sprt).ok());
    let pairings = plan
        .pairings
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| {
            let t = tracker.tally(k);
            let e = Estimate::new(&t.penta);
            PairingLine {
                first: plan.engines[a].spec.name.clone(),
                second: plan.engines[b].spec.name.clone(),
                pairs: t.penta.pairs(),
                penta: t.penta,
                wdl: t.wdl,
                elo: e.elo,
                elo_ci95: e.elo_ci95,
            }
        })
        .collect();
    Summary {
        version: env!("CARGO_PKG_VERSION"),
        config_hash: hash.to_owned(),
        kind: plan.kind,
        status: status.to_owned(),
        exit_code,
        engines: plan
            .engines
            .iter()
            .map(|e| EngineLine {
                name: e.spec.name.clone(),
                command: e.spec.command.clone(),
                bench: e.bench,
            })
            .collect(),
        games: tracker.games_done() as u64,
        pairs: (0..plan.pairings.len())
            .map(|k| tracker.tally(k).penta.pairs())
            .sum(),
        unpaired_games: tracker.unpaired() as u64,
        penta: first.penta,
        wins: first.wdl.wins,
        losses: first.wdl.losses,
        draws: first.wdl.draws,
        elo: estimate.elo,
        elo_ci95: estimate.elo_ci95,
        nelo: estimate.nelo,
        nelo_ci95: estimate.nelo_ci95,
        los: estimate.los,
        draw_ratio: estimate.draw_ratio,
        sprt: plan.sprt,
        llr: report.as_ref().map(|r| r.llr),
        llr_lower: report.as_ref().map(|r| r.llr_lower),
        llr_upper: report.as_ref().map(|r| r.llr_upper),
        verdict: report.as_ref().map(|r| r.verdict),
        faults: tracker.fault_table().0,
        reasons: tracker.reasons.clone(),
        pairings,
        ratings: ratings(tracker),
        duration_s,
    }
}
