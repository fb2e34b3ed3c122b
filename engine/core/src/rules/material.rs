//! Insufficient material: neither side can ever give mate.

use crate::board::{Color, Position};

/// Whether neither side has a rook, horse, cannon or pawn: kings, advisors and
/// elephants alone can never cross the river, so no mate and no stalemate-by-force is
/// possible and the game is a draw.
#[must_use]
pub fn insufficient_material(pos: &Position) -> bool {
    !pos.has_attackers(Color::Red) && !pos.has_attackers(Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_defenders_left_is_a_draw() {
        let bare = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/2B1KA3 w").expect("fen");
        assert!(insufficient_material(&bare));
        let pawn = Position::from_fen("3akab2/9/4b4/9/9/9/p8/4B4/4A4/2B1KA3 w").expect("fen");
        assert!(!insufficient_material(&pawn));
        assert!(!insufficient_material(&Position::startpos()));
    }
}
