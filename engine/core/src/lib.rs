//! `xq-core`: the Xiangqi core that the engine and the runner share — squares, pieces,
//! moves and positions ([`board`]), legal move generation and perft ([`movegen`]), the
//! game-end judge ([`rules`]), move notation ([`notation`]) and a small seeded random
//! number generator ([`rng`]). No search and no evaluation: those live in `xq-engine`.

pub mod board;
pub mod movegen;
pub mod notation;
pub mod rng;
pub mod rules;
pub mod samples;
pub mod training;
