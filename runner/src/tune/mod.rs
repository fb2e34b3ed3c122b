//! `xq-runner tune`: fishtest's classic SPSA over an engine's spin options, played
//! locally through the runner's own game code.
//!
//! | file | what |
//! |---|---|
//! | `spsa.rs` | the formulas: gains, perturbation, update, stochastic rounding |
//! | `params.rs` | the parameters, fishtest's text format, their checks |
//! | `config.rs` | the `[tune]` section and the rest of a tune config |
//! | `options.rs` | the engine's announced spin options, and the parameters against them |
//! | `journal.rs` | `tune.jsonl`: one synced line per finished pair; resume |
//! | `folder.rs` | the output folder: a new tune, a resume |
//! | `iteration.rs` | one iteration: its assignment, its pair played, its result applied (local and on workers) |
//! | `driver.rs` | the loop: iterations handed out, pairs played, theta updated |
//! | `progress.rs` | the progress bar |
//! | `outputs.rs` | `tune.json`: final values, options line, fishtest lines, trajectory |
//! | `report.rs`, `charts.rs` | `report.html`, in the match report's style and with its chart code |

pub(crate) mod charts;
pub(crate) mod config;
pub(crate) mod driver;
pub(crate) mod folder;
pub mod iteration;
pub mod journal;
pub(crate) mod options;
pub(crate) mod outputs;
pub(crate) mod params;
pub(crate) mod progress;
pub(crate) mod report;
pub mod spsa;

pub use config::{load, TunePlan};
pub use driver::{tune, TuneFailure};
