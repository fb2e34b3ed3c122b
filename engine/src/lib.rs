//! `xq-engine`: Xiangqi board, legal move generation, rules judge, search and protocols.
//!
//! The runner (`xq-runner`) uses [`board`], [`movegen`], [`rules`] and [`notation`]; the
//! engine binary adds [`eval`], [`search`] and [`protocol`].

pub mod bench;
pub mod board;
pub mod eval;
pub mod movegen;
pub mod notation;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;
pub mod tunable;
