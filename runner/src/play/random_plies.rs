//! Random plies after the opening, for a workload that wants every game to start
//! somewhere else (data generation): uniformly random legal moves from a generator
//! seeded by the workload's seed and the game's round, so a game's start depends only on
//! which game it is, and a resumed workload plays the same starts.

use xq_core::board::{Move, Position};
use xq_core::movegen::legal_moves;
use xq_core::rng::SplitMix64;

/// How many random plies to add after the opening, and the seed they are drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomPlies {
    pub count: u32,
    pub seed: u64,
}

impl RandomPlies {
    /// The random moves played from `position` (the opening's end) in round `round`:
    /// fewer than `count` when a position on the way has no legal move (the game is over
    /// there, and the judge says so).
    #[must_use]
    pub fn moves(self, mut position: Position, round: u64) -> Vec<Move> {
        // Two seeds one apart give unrelated streams: SplitMix64 mixes its state.
        let mut rng = SplitMix64::new(self.seed ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut moves = Vec::new();
        for _ in 0..self.count {
            let legal = legal_moves(&position);
            if legal.is_empty() {
                break;
            }
            let pick = usize::try_from(rng.below(legal.len() as u64)).unwrap_or(0);
            let m = legal[pick];
            position.make_move(m);
            moves.push(m);
        }
        moves
    }
}

#[cfg(test)]
mod tests {
    use xq_core::movegen::is_legal;

    use super::*;

    #[test]
    fn each_round_has_its_own_legal_plies_and_the_same_on_every_call() {
        let random = RandomPlies { count: 8, seed: 7 };
        let a = random.moves(Position::startpos(), 0);
        let b = random.moves(Position::startpos(), 1);
        assert_eq!(a.len(), 8);
        assert_ne!(a, b);
        assert_eq!(a, random.moves(Position::startpos(), 0));
        let mut position = Position::startpos();
        for m in a {
            assert!(is_legal(&position, m), "{m}");
            position.make_move(m);
        }
    }
}
