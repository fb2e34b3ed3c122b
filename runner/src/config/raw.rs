//! Stage one of the config: the TOML as written, read by serde with unknown keys
//! rejected. Nothing here is checked beyond types; `plan.rs` validates.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::{DrawRule, ResignRule};

/// The whole file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConfig {
    #[serde(default)]
    pub tournament: RawTournament,
    #[serde(default)]
    pub time: RawTime,
    #[serde(default)]
    pub openings: Option<RawOpenings>,
    #[serde(default)]
    pub rules: RawRules,
    #[serde(default)]
    pub adjudication: RawAdjudication,
    #[serde(default)]
    pub sprt: Option<RawSprt>,
    #[serde(default)]
    pub output: RawOutput,
    #[serde(default)]
    pub faults: RawFaults,
    #[serde(default, rename = "engine")]
    pub engines: Vec<RawEngine>,
}

/// `[tournament]`
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTournament {
    /// `match`, `gauntlet`, `round_robin` or `ladder`.
    pub kind: Option<String>,
    /// Pairs per pairing of engines.
    pub pairs: Option<u64>,
    /// Games per pairing (an even number; an alternative to `pairs`).
    pub games: Option<u64>,
    /// Games played at once; default: the number of cores.
    pub concurrency: Option<usize>,
    pub seed: Option<u64>,
    /// PGN `Event` tag.
    pub event: Option<String>,
    /// What the run tests, in a line (shown by `status` and `serve`).
    pub description: Option<String>,
    /// Pin each game's engines to a core of their own (Linux); fastchess `-use-affinity`.
    pub affinity: Option<bool>,
}

/// `[time]` (also per engine as `[engine.time]`): exactly one of the limits.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTime {
    pub tc: Option<String>,
    pub movetime: Option<String>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Extra time a move may take beyond the clock (pipe latency), e.g. `"50ms"`.
    pub margin: Option<String>,
    /// `clamp` (the overshoot within the margin is forgiven, as fastchess does) or
    /// `cumulative` (it is owed).
    pub margin_mode: Option<String>,
}

/// `[openings]`
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOpenings {
    pub file: Option<String>,
    /// `epd` (FEN lines with optional moves and fields) or `pgn` (games in ICCS or WXF);
    /// default: by the file's extension (`.pgn`), else `epd`.
    pub format: Option<String>,
    /// `sequential` or `random`.
    pub order: Option<String>,
    pub seed: Option<u64>,
    /// First opening to use, 1-based.
    pub start: Option<usize>,
    /// Keep at most this many plies of each opening (default: all).
    pub plies: Option<usize>,
}

/// `[rules]`
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRules {
    /// `asian`, `computer` or `simple`.
    pub ruleset: Option<String>,
    /// Plies without capture before a draw; 0 turns the limit off.
    pub move_limit: Option<u32>,
    /// Which plies count towards `move_limit`: `all`, `chinese` or `league`.
    pub limit_counting: Option<String>,
    /// Send `banmoves` to UCCI engines.
    pub banmoves: Option<bool>,
}

/// `[adjudication]`
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAdjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub max_plies: Option<u32>,
}

/// `[sprt]`
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSprt {
    pub elo0: Option<f64>,
    pub elo1: Option<f64>,
    pub alpha: Option<f64>,
    pub beta: Option<f64>,
    /// `normalized` (default) or `logistic`.
    pub model: Option<String>,
    /// Gate mode for regression runs: fail (exit 1) when H0 is accepted or, without a
    /// verdict at the end, when the Elo is below this.
    pub min_elo: Option<f64>,
}

/// `[output]`
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOutput {
    pub dir: Option<String>,
    /// Print the result block every this many pairs; 0: only at the end.
    pub report_interval: Option<u64>,
    /// `iccs` or `wxf`.
    pub pgn_format: Option<String>,
    /// Nodes (`n=`), selective depth (`sd=`) and nps (`nps=`) in the PGN's move
    /// comments: fastchess's `-pgnout nodes=true seldepth=true nps=true`.
    pub pgn_nodes: Option<bool>,
    pub pgn_seldepth: Option<bool>,
    pub pgn_nps: Option<bool>,
    /// A second place for `games.pgn` (fastchess's `-pgnout file=`), written at the end
    /// of the run.
    pub pgnout: Option<String>,
    /// Add the games to what `pgnout` holds (default, as fastchess) instead of replacing it.
    pub pgnout_append: Option<bool>,
}

/// `[faults]`: abort the run when one engine has too many faults.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFaults {
    pub max_crashes: Option<u32>,
    pub max_time_losses: Option<u32>,
    pub max_illegal_moves: Option<u32>,
    pub startup_timeout: Option<String>,
    pub ping_timeout: Option<String>,
    pub stop_grace: Option<String>,
    /// A search without a clock (depth, nodes) taking longer than this is a stall.
    pub move_timeout: Option<String>,
}

/// `[[engine]]`
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEngine {
    pub name: Option<String>,
    pub command: Option<Vec<String>>,
    pub protocol: Option<String>,
    /// `0-9` (default) or `1-10`.
    pub coordinates: Option<String>,
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    pub dir: Option<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    pub time: Option<RawTime>,
    /// The engine's `bench` node count, recorded in the summary (a build signature).
    pub bench: Option<u64>,
    /// Start the engine afresh for every game (fastchess's `restart=on`).
    pub restart: Option<bool>,
    /// Files the engine needs beside its program (a network, a book), relative to the
    /// engine's `dir`, else to the program's folder; the engine then runs in that folder.
    #[serde(default)]
    pub files: Vec<String>,
    /// Whether `submit` stores the program and its files with the run (default true);
    /// false for an engine installed at the same path on every worker.
    pub upload: Option<bool>,
}
