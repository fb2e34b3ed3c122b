//! Level 6: tempo for the side to move (`docs/evaluation.md`, T5; seed 002's piece values:
//! 「先手分：约等于一个开局原位兵」, and its other knowledge: 「保持先手优势（先手分，大约为半个兵
//! 的价值，能够消除奇偶层估值摆动问题）」).
//!
//! The bonus goes to the side to move, so `evaluate` (from the side to move's view) stays
//! exactly antisymmetric under colour flipping: the flipped position has the other side
//! to move and gets the same bonus.

use super::weights::TEMPO;
use crate::board::{Color, Position};

/// The tempo bonus of side `color` in a position: [`TEMPO`] if it is to move.
#[must_use]
#[inline]
pub fn score(pos: &Position, color: Color) -> i32 {
    if pos.side_to_move() == color {
        TEMPO
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_side_to_move_gets_it() {
        let pos = Position::startpos();
        assert_eq!(score(&pos, Color::Red), 50);
        assert_eq!(score(&pos, Color::Black), 0);
        let flipped = pos.color_flipped();
        assert_eq!(score(&flipped, Color::Black), 50);
    }
}
