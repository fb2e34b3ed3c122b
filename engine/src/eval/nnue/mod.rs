//! Evaluation level 7: a small efficiently updatable network (NNUE), `(1260 -> N) x 2 -> 1`
//! with output buckets.
//!
//! - [`features`]: one input per (piece kind, colour relative to the perspective, square
//!   seen from the perspective); Black sees the board turned 180 degrees with colours
//!   swapped, so one weight matrix serves both perspectives.
//! - [`embedded`]: the network the engine ships with, level 7's until `EvalFile` names another.
//! - [`network`]: the integer weights and their checks; [`file`] their versioned file.
//! - [`accumulator`]: the first layer's sums of both perspectives, updated on make and
//!   restored from a stack on unmake; [`forward`]: the output from them.
//! - [`activation`]: CReLU or SCReLU, named in the file; [`buckets`]: the output layer
//!   has one set of weights per bucket, chosen by the number of pieces on the board.
//!
//! `docs/nnue.md` gives the file layout and the quantisation.

pub mod accumulator;
pub mod activation;
pub mod buckets;
pub mod embedded;
pub mod features;
pub mod file;
pub mod forward;
pub mod network;

pub use accumulator::{Accumulators, Incremental};
pub use activation::Activation;
pub use buckets::{output_bucket, MAX_BUCKETS};
pub use features::{feature_index, FEATURES};
pub use file::{NetError, NET_MAGIC, NET_VERSION};
pub use network::{Network, NetworkParts};

/// First-layer quantisation: weights and biases times `QA`; the activations clip at `QA`.
pub const QA: i32 = 255;
/// Output-layer quantisation: weights times `QB`, the output bias times `QA * QB`.
pub const QB: i32 = 64;
/// The evaluation level that uses the network.
pub const NNUE_LEVEL: u8 = 7;
/// The network's evaluations are clamped to this, well inside the search's rule and
/// mate scores.
pub const EVAL_LIMIT: i32 = 15_000;
