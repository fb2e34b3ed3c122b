//! Data generation (`xq-runner datagen`): self-play games of one engine at fixed nodes
//! or depth, each from a book opening and a few random plies, whose quiet positions are
//! written with the engine's score and the game's result to `positions.bin` (the
//! training data format of `xq_core::training`, see `docs/nnue.md`). A workload of the
//! slot pool like a run or a tune; resumable from its ledger.
//!
//! `config` reads `[datagen]`; `driver` is the loop; `positions` turns a finished game
//! into records; `data_file` and `ledger` are its two files; `folder` its record.

pub mod config;
pub mod data_file;
pub mod driver;
pub mod folder;
pub mod ledger;
pub mod positions;
