//! What a validated config is: the [`Plan`] of a run and its parts, and the [`Problem`]
//! that `validate/` reports when a value is wrong.

use std::path::PathBuf;

use serde::Serialize;

use crate::client::{EngineSpec, Timeouts};
use crate::config::MoveFormat;
use crate::config::PgnExtras;
use crate::game::{GameSettings, TimeControl};
use crate::openings::{BookFormat, Order};
use crate::stats::Sprt;

/// The most engines a run may have: the rating list keeps a table of every two engines
/// (16 bytes each), 16 MB at this size.
pub const MAX_ENGINES: usize = 1000;

/// The most pairings a run may have (a round robin of 447 engines): the run keeps the
/// counts of every pairing, and plays at least one pair of each.
pub const MAX_PAIRINGS: u64 = 100_000;

/// Tournament kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentKind {
    /// Two engines.
    Match,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
    /// Each engine against the next one in the list: the neighbouring matches of a ladder of
    /// settings (levels, depths); the rating list still anchors every rung to the first.
    Ladder,
}

impl TournamentKind {
    /// The name a config uses: `match`, `gauntlet`, `round_robin`, `ladder`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Match => "match",
            Self::Gauntlet => "gauntlet",
            Self::RoundRobin => "round_robin",
            Self::Ladder => "ladder",
        }
    }

    /// The kind named in a config, with the spellings people use.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "match" => Some(Self::Match),
            "gauntlet" => Some(Self::Gauntlet),
            "round_robin" | "roundrobin" | "round-robin" => Some(Self::RoundRobin),
            "ladder" => Some(Self::Ladder),
            _ => None,
        }
    }

    /// How many pairings `engines` engines make, without making them.
    #[must_use]
    pub fn pairing_count(self, engines: usize) -> u64 {
        let n = engines as u64;
        match self {
            Self::Match | Self::Gauntlet | Self::Ladder => n.saturating_sub(1),
            Self::RoundRobin => n * n.saturating_sub(1) / 2,
        }
    }

    /// The pairings of `engines` engines, as indices into the engine list, in playing order.
    #[must_use]
    pub fn pairings(self, engines: usize) -> Vec<(usize, usize)> {
        match self {
            Self::Match | Self::Gauntlet => (1..engines).map(|j| (0, j)).collect(),
            Self::RoundRobin => (0..engines)
                .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
                .collect(),
            Self::Ladder => (1..engines).map(|j| (j - 1, j)).collect(),
        }
    }
}

/// One engine, ready to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnginePlan {
    pub spec: EngineSpec,
    pub time_control: TimeControl,
    /// The depth a clocked search also stops at (`depth` beside `tc` in its `time`).
    pub depth_cap: Option<u32>,
    pub bench: Option<u64>,
    /// A new process for every game, instead of one reused across games.
    pub restart: bool,
    /// The program's file as found (`None` for a name found on `PATH` only when run).
    pub program: PathBuf,
    /// The files it needs beside it: where each goes in the engine's folder (as the
    /// config names it) and where it is here.
    pub files: Vec<(String, PathBuf)>,
    /// Whether `submit` stores the program and its files with the run.
    pub upload: bool,
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsPlan {
    pub path: PathBuf,
    pub format: BookFormat,
    /// Plies of each opening played at most; `None`: all.
    pub plies: Option<usize>,
    pub order: Order,
    pub seed: u64,
    /// 0-based index of the first opening used.
    pub start: usize,
}

/// How a run uses its opening file: the openings of its `plan.pairs` rounds.
#[must_use]
pub fn book_use(plan: &Plan, openings: &OpeningsPlan) -> crate::openings::BookUse {
    crate::openings::BookUse {
        format: openings.format,
        order: openings.order,
        seed: openings.seed,
        start: openings.start,
        rounds: plan.pairs,
        plies: openings.plies,
        rules: plan.settings.rules,
    }
}

/// Output settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputPlan {
    pub dir: PathBuf,
    /// Pairs between result blocks; `u64::MAX` for only the last one.
    pub report_interval: u64,
    pub pgn_format: MoveFormat,
    pub pgn_extras: PgnExtras,
    /// Where `games.pgn` is also written.
    pub pgnout: Option<PgnOut>,
}

/// A second place for `games.pgn`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnOut {
    pub path: PathBuf,
    /// Keep what the file held before the run (its games come after).
    pub append: bool,
}

/// Abort thresholds per engine (fishtest style).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultLimits {
    pub max_crashes: u32,
    pub max_time_losses: u32,
    pub max_illegal_moves: u32,
}

/// A validated run.
#[derive(Clone, Debug)]
pub struct Plan {
    pub kind: TournamentKind,
    pub engines: Vec<EnginePlan>,
    /// Engine index pairs; the first plays Red in the first game of each pair.
    pub pairings: Vec<(usize, usize)>,
    /// Pairs per pairing (the maximum when SPRT stops earlier).
    pub pairs: u64,
    pub concurrency: usize,
    /// Pin each game slot's engines to a core (`tournament.affinity`).
    pub affinity: bool,
    pub seed: u64,
    pub event: String,
    /// What the run tests, one line (`tournament.description`).
    pub description: Option<String>,
    pub openings: Option<OpeningsPlan>,
    pub settings: GameSettings,
    pub sprt: Option<Sprt>,
    /// Regression gate: without an SPRT verdict, fail when Elo is below this.
    pub gate_min_elo: Option<f64>,
    pub output: OutputPlan,
    pub faults: FaultLimits,
    pub timeouts: Timeouts,
}

/// A validation problem at a key (`engine.1.command`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub key: String,
    pub message: String,
}
