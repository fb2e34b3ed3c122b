//! Every default of the config, named once. `docs/configuration.md`'s key table shows
//! them too; the test below reads that table and fails when one of the two drifts.

use std::time::Duration;

use xq_core::rules::{LimitCounting, Rules, Ruleset};

use crate::client::{Coordinates, Protocol, Timeouts};
use crate::config::MoveFormat;
use crate::game::MarginMode;
use crate::openings::Order;
use crate::stats::{EloModel, Sprt};

use super::super::plan::TournamentKind;

/// `tournament.kind`.
pub const KIND: TournamentKind = TournamentKind::Match;
/// `tournament.pairs` of a run with an `[sprt]` section and neither pairs nor games:
/// a bound the SPRT nearly always stops before.
pub const SPRT_PAIRS: u64 = 20_000;
/// `tournament.concurrency` when the number of cores cannot be read.
pub const CONCURRENCY_FALLBACK: usize = 2;
/// The most games at once a config may ask for.
pub const MAX_CONCURRENCY: usize = 1024;
/// `tournament.seed`.
pub const SEED: u64 = 1;
/// `tournament.event`.
pub const EVENT: &str = "xq-runner";
/// `tournament.affinity`.
pub const AFFINITY: bool = false;

/// `time.margin`.
pub const TIME_MARGIN: Duration = Duration::from_millis(50);
/// `time.margin_mode`: clamped as fastchess does, so results compare with its.
pub const MARGIN_MODE: MarginMode = MarginMode::Clamp;
/// The deepest `time.depth`.
pub const MAX_DEPTH: u32 = 128;

/// `openings.order`.
pub const OPENINGS_ORDER: Order = Order::Sequential;
/// `openings.start`, 1-based as the config counts.
pub const OPENINGS_START: usize = 1;

/// `rules.ruleset`.
pub const RULESET: Ruleset = Ruleset::Asian;
/// `rules.move_limit`.
pub const MOVE_LIMIT: u32 = Rules::DEFAULT_MOVE_LIMIT;
/// `rules.limit_counting`.
pub const LIMIT_COUNTING: LimitCounting = LimitCounting::AllPlies;
/// `rules.banmoves`.
pub const BANMOVES: bool = true;

/// `sprt.elo0`, `sprt.elo1`, `sprt.alpha`, `sprt.beta`, `sprt.model`.
pub const SPRT: Sprt = Sprt {
    elo0: 0.0,
    elo1: 2.0,
    alpha: 0.05,
    beta: 0.05,
    model: EloModel::Normalized,
};

/// `output.report_interval`.
pub const REPORT_INTERVAL: u64 = 10;
/// `output.pgn_format`.
pub const PGN_FORMAT: MoveFormat = MoveFormat::Iccs;
/// `output.pgn_nodes`, `pgn_seldepth`, `pgn_nps`.
pub const PGN_EXTRAS: bool = false;
/// `output.pgnout_append`: add to the file, as fastchess does.
pub const PGNOUT_APPEND: bool = true;

/// `faults.max_crashes`.
pub const MAX_CRASHES: u32 = 5;
/// `faults.max_time_losses`.
pub const MAX_TIME_LOSSES: u32 = 20;
/// `faults.max_illegal_moves`.
pub const MAX_ILLEGAL_MOVES: u32 = 5;
/// `faults.startup_timeout`, `ping_timeout`, `stop_grace`, `move_timeout`.
pub const TIMEOUTS: Timeouts = Timeouts::DEFAULT;

/// `[[engine]] protocol`.
pub const PROTOCOL: Protocol = Protocol::Ucci;
/// `[[engine]] coordinates`.
pub const COORDINATES: Coordinates = Coordinates::Zero;
/// `[[engine]] restart`.
pub const RESTART: bool = false;

#[cfg(test)]
#[path = "defaults_docs_test.rs"]
mod docs_test;
