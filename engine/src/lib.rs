//! `xq-engine`: a Xiangqi engine — iterative-deepening alpha-beta search ([`search`]),
//! evaluation levels 0..6 ([`eval`]), the UCCI and UCI loops ([`protocol`]) and the
//! `bench` signature ([`bench`]).
//!
//! The board, move generation, rules judge, notation and random numbers come from
//! `xq-core`, re-exported here under their own names so the engine reads
//! `crate::board`, `crate::movegen`, ... like one crate.

pub use xq_core::{board, movegen, notation, rng, rules};

pub mod bench;
pub mod eval;
pub mod protocol;
pub mod search;
pub mod tunable;
