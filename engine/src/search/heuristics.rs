//! Move-ordering memory: killer moves per ply and the history of quiet moves.

use super::params::{HISTORY_BONUS_MAX_DEPTH_SQUARED, HISTORY_BONUS_SCALE, HISTORY_MAX, MAX_PLY};
use crate::board::{Move, Piece, Square};

/// Killers and history, kept between iterations of one search and cleared per game.
#[derive(Clone, Debug)]
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    /// `history[piece][to]`: how often a quiet move of this piece to this square caused a
    /// cutoff, with gravity so old successes fade.
    history: Vec<[i32; Square::COUNT]>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![[0; Square::COUNT]; Piece::INDEX_COUNT],
        }
    }
}

impl Heuristics {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        *self = Heuristics::default();
    }

    /// Killers are position-specific; drop them between searches, keep history.
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// The killer moves of a ply.
    #[must_use]
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// The history score of a quiet move.
    #[must_use]
    #[inline]
    pub fn history(&self, piece: Piece, to: Square) -> i32 {
        self.history[piece.index()][to.index()]
    }

    /// Records a quiet move that caused a cutoff, and punishes the quiet moves tried
    /// before it at the same node.
    pub fn record_cutoff(
        &mut self,
        ply: usize,
        best: (Move, Piece),
        tried: &[(Move, Piece)],
        depth: i32,
    ) {
        let (mv, piece) = best;
        let slot = &mut self.killers[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX_DEPTH_SQUARED) * HISTORY_BONUS_SCALE;
        self.update(piece, mv.to(), bonus);
        for &(other, other_piece) in tried {
            if other != mv {
                self.update(other_piece, other.to(), -bonus);
            }
        }
    }

    #[inline]
    fn update(&mut self, piece: Piece, to: Square, bonus: i32) {
        let entry = &mut self.history[piece.index()][to.index()];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }
}
