//! `summary.json`: the counts, statistics, verdict and faults of a run, written at the end
//! (and on interruption) from the same tracker the journal feeds.

use std::collections::BTreeMap;

use serde::Serialize;

use super::over_clock::{self, base_time, OverClockLine};
use crate::config::{Plan, TournamentKind};
use crate::stats::{Anchor, Estimate, Penta, RatingList, Sprt, StatsReport, Verdict, Wdl};
use crate::store::ending::Ending;
use crate::store::tracker::{FaultsByReason, Tracker};

/// One engine of the run.
#[derive(Clone, Debug, Serialize)]
pub struct EngineLine {
    pub name: String,
    pub command: Vec<String>,
    /// The `bench` signature given in the config, if any.
    pub bench: Option<u64>,
    /// Options of the config that the engine did not announce when the run started.
    pub unknown_options: Vec<String>,
}

/// Per engine name, the options of the config it did not announce (engines with none
/// are left out).
pub type UnknownOptions = BTreeMap<String, Vec<String>>;

/// The statistics of one pairing, from its first engine's view.
#[derive(Clone, Debug, Serialize)]
pub struct PairingLine {
    pub first: String,
    pub second: String,
    pub pairs: u64,
    pub penta: Penta,
    /// Written with its counts named: as an array it read losses, draws, wins.
    #[serde(serialize_with = "named_wdl")]
    pub wdl: Wdl,
    pub elo: f64,
    pub elo_ci95: f64,
}

/// `{"wins": W, "draws": D, "losses": L}`.
fn named_wdl<S: serde::Serializer>(wdl: &Wdl, out: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Named {
        wins: u64,
        draws: u64,
        losses: u64,
    }
    Named {
        wins: wdl.wins,
        draws: wdl.draws,
        losses: wdl.losses,
    }
    .serialize(out)
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

/// What the runner itself cost: its own CPU time (engines excluded) and memory.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct RunnerCost {
    /// User + system CPU time of the runner process.
    pub cpu_ms: f64,
    /// Engine moves played in this session of the run.
    pub moves: u64,
    /// `cpu_ms / moves` in microseconds.
    pub cpu_per_move_us: f64,
    /// Peak resident memory of the runner process.
    pub peak_rss_kb: u64,
}

impl RunnerCost {
    /// Measures the current process.
    #[must_use]
    pub fn measure(moves: u64) -> RunnerCost {
        use nix::sys::resource::{getrusage, UsageWho};
        let cpu_ms = getrusage(UsageWho::RUSAGE_SELF).map_or(0.0, |u| {
            let t =
                |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 * 1e3 + tv.tv_usec() as f64 / 1e3;
            t(u.user_time()) + t(u.system_time())
        });
        let peak_rss_kb = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmHWM:"))
                    .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
            })
            .unwrap_or(0);
        let cpu_per_move_us = if moves > 0 {
            cpu_ms * 1e3 / moves as f64
        } else {
            0.0
        };
        RunnerCost {
            cpu_ms,
            moves,
            cpu_per_move_us,
            peak_rss_kb,
        }
    }
}

/// The whole summary. Every estimate of a pairing without a complete pair (Elo, nElo,
/// their intervals, LOS, the draw ratio) is undefined: `null` ([`Estimate::reported`]).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub version: &'static str,
    pub config_hash: String,
    pub kind: TournamentKind,
    pub status: Ending,
    pub exit_code: u8,
    pub engines: Vec<EngineLine>,
    /// Games counted: both games of every complete pair (every count below is of these).
    pub games: u64,
    pub pairs: u64,
    /// Finished games whose partner game was not played (an interrupted run): kept in
    /// the journal for a resume, counted nowhere else.
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
    /// Faults per engine in every game recorded, its pair complete or not: the crash
    /// that stopped a run is here even though no pair of it was counted.
    pub faults: BTreeMap<String, FaultsByReason>,
    /// Per engine, its moves over its clock and the time beyond it.
    pub over_clock: BTreeMap<String, OverClockLine>,
    pub reasons: BTreeMap<String, u64>,
    pub pairings: Vec<PairingLine>,
    pub ratings: Vec<RatingLine>,
    /// Wall time played, over every session of the run.
    pub duration_s: f64,
    /// The runner's own cost in this session (not the engines').
    pub runner: RunnerCost,
}

/// The rating list of all games, first engine anchored at 0.
#[must_use]
pub fn ratings(tracker: &Tracker) -> Vec<RatingLine> {
    let Ok(list) = RatingList::fit_table(&tracker.scores, Anchor::Engine(0)) else {
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

/// Every engine's moves over its clock, in config order.
#[must_use]
pub fn over_clock_lines(plan: &Plan, tracker: &Tracker) -> Vec<(String, OverClockLine)> {
    let bases: Vec<_> = plan
        .engines
        .iter()
        .map(|e| base_time(e.time_control))
        .collect();
    over_clock::lines(tracker.names(), &tracker.over_clock, &bases)
}

/// Builds the summary of a run.
#[must_use]
pub fn summarize(
    plan: &Plan,
    hash: &str,
    tracker: &Tracker,
    ending: &Ending,
    duration_s: f64,
    runner: RunnerCost,
) -> Summary {
    let first = tracker.tally(0);
    let estimate = Estimate::reported(&first.penta);
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
            let e = Estimate::reported(&t.penta);
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
        status: ending.clone(),
        exit_code: ending.exit_code(),
        engines: plan
            .engines
            .iter()
            .map(|e| EngineLine {
                name: e.spec.name.clone(),
                command: e.spec.command.clone(),
                bench: e.bench,
                // Known only to the runner that started the engines: see `RunFiles`.
                unknown_options: Vec::new(),
            })
            .collect(),
        games: tracker.games(),
        pairs: tracker.pairs(),
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
        over_clock: over_clock_lines(plan, tracker).into_iter().collect(),
        reasons: tracker.reasons.clone(),
        pairings,
        ratings: ratings(tracker),
        duration_s,
        runner,
    }
}
