//! `xq-runner`: a tournament and regression harness for Xiangqi engines.
//!
//! The runner plays engines against each other over UCCI or UCI, judges every
//! game itself with [`xq_core::rules`], and turns the results into Elo,
//! nElo, LOS and SPRT verdicts on pentanomial pair counts.

pub(crate) mod atomic_file;
pub(crate) mod bisect;
pub mod cli;
pub mod client;
pub mod config;
pub(crate) mod datagen;
pub(crate) mod exit;
pub mod fleet;
mod fnv;
pub mod game;
pub(crate) mod local_run;
pub mod openings;
pub mod output;
pub(crate) mod plain_file;
pub(crate) mod play;
pub(crate) mod scaling;
pub mod signals;
pub(crate) mod spelling;
pub mod stats;
pub(crate) mod stdout;
pub mod store;
pub mod tune;
pub(crate) mod web;
