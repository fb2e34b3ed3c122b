//! Runs on many machines, coordinated by PostgreSQL: a run is submitted once, workers
//! anywhere claim batches of whole pairs under a lease, play them with the same game code
//! as a local run, and hand in each batch's games; the server checks and counts them,
//! and the submit that reaches a verdict closes the run (`store/pg/schema_v3.sql`).
//!
//! | file | what |
//! |---|---|
//! | `prepare.rs` | a stored run made ready to play on this machine (config, openings, bench check) |
//! | `cache.rs`, `places.rs` | a worker's cache of the files runs carry, each engine's folder checked every time a run starts |
//! | `match_batches.rs` | a match run's batches back to back on the slot pool (`crate::play`): the next claimed before the last pair, submits while the slots play |
//! | `worker.rs` | the worker loop: claim, play, renew, submit, retry, stop |
//! | `submit.rs` | storing a run |
//! | `submitter.rs` | who submits it (`--submitter`, else `user@host`) |
//! | `status.rs` | the state of a run, as text or JSON |
//! | `about.rs` | what a run tests, who asked for it, each engine's build |
//! | `report.rs` | a run's games and counts written as a run folder |
//! | `verify.rs` | every stored game replayed with the rules judge, findings by worker |
//! | `fit.rs` | whether each worker's pairs fit the rest (fishtest's residuals), its faults per game |
//! | `purge.rs` | a worker's games removed from a run, their pairs handed out again |
//! | `roles.rs` | the role a command needs, named when the connected one may not |
//! | `tune_run.rs` | a tune run: stored, made ready, its batches applied to theta, status, report |
//! | `tune_batch.rs` | one batch of a tune's iterations played and submitted on a worker |

pub(crate) mod about;
pub(crate) mod cache;
pub(crate) mod fit;
mod match_batches;
mod places;
pub(crate) mod prepare;
pub(crate) mod purge;
pub(crate) mod report;
pub(crate) mod roles;
pub(crate) mod status;
pub(crate) mod submit;
pub(crate) mod submitter;
pub(crate) mod tune_batch;
pub mod tune_run;
pub(crate) mod uploads;
pub(crate) mod verify;
pub(crate) mod worker;
