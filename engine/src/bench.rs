//! `xq-engine bench`: a fixed list of positions searched to a fixed depth from a cleared
//! state. The total node count is a signature of the build: the same on every run and
//! every machine, different as soon as search or evaluation changes.

use std::time::Duration;

use crate::board::Position;
use std::sync::Arc;

use crate::eval::nnue::Network;
use crate::eval::{Evaluator, MAX_LEVEL, NNUE_LEVEL};
use crate::search::{Control, GameSoFar, Limits, Searcher};

/// Default depth of `bench`.
pub const DEFAULT_DEPTH: i32 = 9;

/// The bench positions (the core's sample list).
pub use xq_core::samples::POSITIONS;

/// What one bench run measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1000 / self.time.as_millis().max(1)) as u64
    }
}

/// Searches every bench position to `depth` at an evaluation level, each from a cleared
/// table and cleared heuristics; `progress` is called after each position.
#[must_use]
pub fn run(depth: i32, level: u8, progress: &mut dyn FnMut(usize, &str, u64)) -> BenchResult {
    run_with_network(depth, level.min(MAX_LEVEL), None, progress)
}

/// [`run`] at any level up to [`NNUE_LEVEL`], level 7 with `network`.
#[must_use]
pub fn run_with_network(
    depth: i32,
    level: u8,
    network: Option<Arc<Network>>,
    progress: &mut dyn FnMut(usize, &str, u64),
) -> BenchResult {
    let mut searcher = Searcher::new(16, Evaluator::new(level.min(NNUE_LEVEL)));
    searcher.set_network(network);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut total = 0;
    let mut time = Duration::ZERO;
    for (index, fen) in POSITIONS.iter().enumerate() {
        let Ok(start_pos) = Position::from_fen(fen) else {
            continue;
        };
        searcher.clear();
        let game = GameSoFar {
            start: start_pos,
            moves: Vec::new(),
        };
        let result = searcher.think(
            &game,
            &limits,
            &[],
            Arc::new(Control::new(false)),
            &mut |_| {},
        );
        total += result.nodes;
        time += result.time;
        progress(index + 1, fen, result.nodes);
    }
    BenchResult { nodes: total, time }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid_and_the_count_is_deterministic() {
        for fen in POSITIONS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
        let first = run(3, MAX_LEVEL, &mut |_, _, _| {});
        let second = run(3, MAX_LEVEL, &mut |_, _, _| {});
        assert_eq!(first.nodes, second.nodes);
        assert!(first.nodes > 0);
    }
}
