//! The results of a scaling run, a row per setting, read from each point's
//! `summary.json` (a point is a run; its summary is the truth): `scaling.json` and the
//! table printed at the end.

use std::path::Path;

use serde::Serialize;

use super::config::{Kind, ScalingPlan};
use super::estimate;
use crate::stats::{Estimate, Penta};

/// The results file in the scaling folder.
pub const RESULTS_FILE: &str = "scaling.json";

/// One engine pair at one setting, from the first engine's view.
#[derive(Clone, Debug, Serialize)]
pub struct PairingRow {
    pub first: String,
    pub second: String,
    pub games: u64,
    pub penta: Penta,
    pub elo: f64,
    pub elo_ci95: f64,
    pub elo_lower: f64,
    pub elo_upper: f64,
    pub nelo: f64,
    pub nelo_ci95: f64,
    pub nelo_lower: f64,
    pub nelo_upper: f64,
    pub draw_ratio: f64,
}

impl PairingRow {
    fn new(first: String, second: String, penta: Penta) -> PairingRow {
        let e = Estimate::reported(&penta);
        PairingRow {
            first,
            second,
            games: penta.pairs() * 2,
            penta,
            elo: e.elo,
            elo_ci95: e.elo_ci95,
            elo_lower: e.elo - e.elo_ci95,
            elo_upper: e.elo + e.elo_ci95,
            nelo: e.nelo,
            nelo_ci95: e.nelo_ci95,
            nelo_lower: e.nelo - e.nelo_ci95,
            nelo_upper: e.nelo + e.nelo_ci95,
            draw_ratio: e.draw_ratio,
        }
    }
}

/// One setting: its counts and estimates (the first pairing's at the top level, every
/// pairing's in `pairings`), its status and verdict.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub setting: String,
    pub label: String,
    pub dir: String,
    pub x: f64,
    /// The run's status (`finished`, `H1 accepted`, ...), `not started` for a point
    /// that has not played yet.
    pub status: String,
    /// The SPRT verdict (`H0`, `H1`, `continue`), `null` without an SPRT.
    pub verdict: Option<serde_json::Value>,
    pub llr: Option<f64>,
    pub games: u64,
    pub elo: f64,
    pub elo_ci95: f64,
    pub elo_lower: f64,
    pub elo_upper: f64,
    pub nelo: f64,
    pub nelo_ci95: f64,
    pub nelo_lower: f64,
    pub nelo_upper: f64,
    pub draw_ratio: f64,
    pub pairings: Vec<PairingRow>,
    /// Wall time played so far, and the estimate made before (`null` for a fixed
    /// depth or node count).
    pub duration_s: f64,
    pub estimated_s: Option<f64>,
}

/// `scaling.json`.
#[derive(Clone, Debug, Serialize)]
pub struct Results {
    pub kind: Kind,
    pub interleave: bool,
    pub log_axis: bool,
    pub points: Vec<Row>,
}

/// What a point's `summary.json` says, if it has one.
fn summary(dir: &Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("summary.json")).ok()?;
    serde_json::from_str(&text).ok()
}

fn pairings(summary: &serde_json::Value) -> Vec<PairingRow> {
    let Some(list) = summary.get("pairings").and_then(|p| p.as_array()) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|p| {
            let name = |k: &str| p.get(k).and_then(|v| v.as_str()).map(str::to_owned);
            let penta: Penta = serde_json::from_value(p.get("penta")?.clone()).ok()?;
            Some(PairingRow::new(name("first")?, name("second")?, penta))
        })
        .collect()
}

/// The results of every point, from their folders.
#[must_use]
pub fn collect(plan: &ScalingPlan) -> Results {
    let points = plan
        .points
        .iter()
        .map(|p| {
            let plan_ = &p.loaded.plan;
            let s = summary(&plan_.output.dir);
            let mut pairs = s.as_ref().map(pairings).unwrap_or_default();
            if pairs.is_empty() {
                // Not started: the engine pairs with no games.
                pairs = plan_
                    .pairings
                    .iter()
                    .map(|&(a, b)| {
                        let n = |i: usize| plan_.engines[i].spec.name.clone();
                        PairingRow::new(n(a), n(b), Penta::default())
                    })
                    .collect();
            }
            let first = pairs[0].clone();
            let field = |k: &str| s.as_ref().and_then(|s| s.get(k)).cloned();
            Row {
                setting: p.setting.clone(),
                label: p.label.clone(),
                dir: p.dir.clone(),
                x: p.x,
                status: field("status")
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_else(|| "not started".to_owned()),
                verdict: field("verdict").filter(|v| !v.is_null()),
                llr: field("llr").and_then(|v| v.as_f64()),
                games: first.games,
                elo: first.elo,
                elo_ci95: first.elo_ci95,
                elo_lower: first.elo_lower,
                elo_upper: first.elo_upper,
                nelo: first.nelo,
                nelo_ci95: first.nelo_ci95,
                nelo_lower: first.nelo_lower,
                nelo_upper: first.nelo_upper,
                draw_ratio: first.draw_ratio,
                pairings: pairs,
                duration_s: field("duration_s").and_then(|v| v.as_f64()).unwrap_or(0.0),
                estimated_s: estimate::point_seconds(plan_),
            }
        })
        .collect();
    Results {
        kind: plan.kind,
        interleave: plan.interleave,
        log_axis: plan.kind.log_axis(),
        points,
    }
}

/// Whether a point's SPRT has reached a verdict (it plays no more).
#[must_use]
pub fn has_verdict(dir: &Path) -> bool {
    summary(dir)
        .and_then(|s| s.get("verdict").and_then(|v| v.as_str()).map(str::to_owned))
        .is_some_and(|v| v == "H0" || v == "H1")
}

/// `12.3 +/- 4.5`, or `n/a` when undefined.
fn plus_minus(v: f64, ci: f64) -> String {
    if v.is_finite() && ci.is_finite() {
        format!("{v:.1} +/- {ci:.1}")
    } else {
        "n/a".to_owned()
    }
}

/// The table printed at the end of a scaling run.
#[must_use]
pub fn table(results: &Results) -> String {
    let mut out = format!(
        "{:<16} {:>7} {:>18} {:>18} {:>7}  {}\n",
        "Setting", "Games", "Elo", "nElo", "Draws", "Status"
    );
    for r in &results.points {
        for (i, p) in r.pairings.iter().enumerate() {
            let setting = if i == 0 { r.label.as_str() } else { "" };
            let status = if i == 0 {
                r.status.clone()
            } else {
                String::new()
            };
            let draws = if p.draw_ratio.is_finite() {
                format!("{:.1}%", p.draw_ratio * 100.0)
            } else {
                "n/a".to_owned()
            };
            let pair = if r.pairings.len() > 1 {
                format!("  ({} vs {})", p.first, p.second)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "{setting:<16} {:>7} {:>18} {:>18} {draws:>7}  {status}{pair}\n",
                p.games,
                plus_minus(p.elo, p.elo_ci95),
                plus_minus(p.nelo, p.nelo_ci95),
            ));
        }
    }
    out
}
