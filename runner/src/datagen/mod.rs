//! Data generation (`xq-runner datagen`): self-play games of one engine at fixed nodes
//! or depth, each from a book opening and a few random plies, every one kept whole in
//! the ledger (its moves, each engine move's score, the result); `datagen pack` turns
//! them into compressed chunks of game records (`xq_core::training`, `docs/nnue.md`)
//! in a data folder of the repository. A workload of the slot pool like a run or a
//! tune; resumable from its ledger.
//!
//! `config` reads `[datagen]`; `driver` is the loop; `game_line` makes a finished game
//! a ledger line and a ledger line a game record; `ledger` is the folder's one data
//! file and `folder` its record; `engine_build` names the build that plays; `pack` and
//! `data_folder` add chunks to a data folder, `repeats` keeps a game from being there twice.

pub mod config;
pub mod data_folder;
pub mod driver;
pub mod engine_build;
pub mod folder;
pub mod game_line;
pub mod ledger;
pub mod pack;
pub mod repeats;
