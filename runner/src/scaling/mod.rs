//! Scaling: one comparison across clocks, depths or node counts. A config's `[scaling]`
//! list (`tc = [...]`, `depth = [...]` or `nodes = [...]`) makes each setting a match of
//! its own, played by `local_run::run` exactly as `run` plays that match alone (its own
//! run folder inside the scaling folder: journal, SPRT, result block, report); this
//! module only decides which point plays next and gathers their results.
//!
//! | file | what |
//! |---|---|
//! | `config.rs` | `[scaling]` read and checked; a point's config is the run's with the setting in `[time]` |
//! | `estimate.rs` | the time a point takes, from its clock, before it plays |
//! | `folder.rs` | the scaling folder: `scaling-plan.json`, the points' folders and progress |
//! | `drive.rs` | the order of play (in turn or interleaved) and the results after each session |
//! | `results.rs` | `scaling.json` and the terminal table, from each point's `summary.json` |
//! | `report.rs` | `report.html`: Elo and nElo against the setting |

pub(crate) mod config;
pub(crate) mod drive;
pub(crate) mod estimate;
pub(crate) mod folder;
pub(crate) mod report;
pub(crate) mod results;

pub(crate) use config::{load, scaling_line, ScalingPlan};
pub(crate) use drive::{estimate_lines, is_scaling_folder, play, rewrite, Mode};
pub(crate) use folder::StoredPlan;
