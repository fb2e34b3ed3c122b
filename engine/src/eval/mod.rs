//! Evaluation: levels 0..6 of knowledge (see DESIGN.md), one module per term.
//!
//! Scores are in seed 002's unit (an unadvanced pawn = 50, a crossed pawn = 100, a rook =
//! 1000) and are given from the view of the side to move.

pub mod psqt;

use crate::board::{Color, Position};

/// The highest evaluation level (all knowledge).
pub const MAX_LEVEL: u8 = 6;

/// An evaluation function at a fixed level of knowledge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluator {
    level: u8,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator { level: MAX_LEVEL }
    }
}

impl Evaluator {
    /// The evaluator of a level; levels above [`MAX_LEVEL`] are clamped to it.
    #[must_use]
    pub fn new(level: u8) -> Evaluator {
        Evaluator {
            level: level.min(MAX_LEVEL),
        }
    }

    /// The level in use.
    #[must_use]
    pub fn level(self) -> u8 {
        self.level
    }

    /// The score of the position for the side to move.
    #[must_use]
    #[inline]
    pub fn evaluate(self, pos: &Position) -> i32 {
        let red = self.red_view(pos);
        match pos.side_to_move() {
            Color::Red => red,
            Color::Black => -red,
        }
    }

    /// The score for Red (positive: Red is better).
    #[must_use]
    pub fn red_view(self, pos: &Position) -> i32 {
        let material = pos.material(Color::Red) - pos.material(Color::Black);
        if self.level == 0 {
            return material;
        }
        material + pos.placement(Color::Red) - pos.placement(Color::Black)
    }
}
