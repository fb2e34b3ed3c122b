//! `xq-nnue`: trains xq-engine's evaluation level 7 from self-play game records
//! (`xq_core::training`) and writes the quantised network file the engine loads.
//!
//! - [`sources`]: data folders, chunks and older position files read, games replayed
//!   and the reader's filters applied;
//! - [`dataset`]: the positions in memory, their features and training targets;
//! - [`model`]: the float network `(1260 -> N) x 2 -> 1` with output buckets by piece
//!   count and CReLU or SCReLU, its forward and backward passes, and its quantisation;
//! - [`train`]: Adam over mini-batches on threads, a held-out loss each epoch;
//! - [`quantised`]: the quantised network's forward pass, written again here from the
//!   file's integers so that tests can hold the engine's evaluation against it.

pub mod dataset;
pub mod model;
pub mod quantised;
pub mod sources;
pub mod train;
