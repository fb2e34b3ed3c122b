//! Level 4: mobility of rooks, horses and cannons (`docs/evaluation.md`, M1; seed 002's
//! mobility table 「灵活性系数」: rook 3, horse 4, cannon 2 per move;
//! 「计算动能时，只计车马炮的动能，且不考虑威胁或被威胁的位置限制」).
//!
//! A move is a pseudo-legal one: an empty point or an enemy piece the piece reaches
//! (horse legs respected, a cannon captures over one screen); attacked destinations count.

use super::context::SideMaps;
use super::weights::{MOBILITY_CANNON, MOBILITY_HORSE, MOBILITY_ROOK};
use crate::board::{BitBoard, PieceKind};

/// The mobility weight of a kind (zero for the kinds seed 002 does not count).
#[must_use]
#[inline]
pub const fn weight(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Rook => MOBILITY_ROOK,
        PieceKind::Horse => MOBILITY_HORSE,
        PieceKind::Cannon => MOBILITY_CANNON,
        _ => 0,
    }
}

/// The mobility score of the side whose maps and pieces (`own`) are given.
#[must_use]
pub fn score(maps: &SideMaps, own: BitBoard) -> i32 {
    maps.majors()
        .iter()
        .map(|m| weight(m.kind) * (m.moves & !own).count() as i32)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Position};

    fn mobility(fen: &str, color: Color) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        score(&SideMaps::new(&pos, color), pos.color_bb(color))
    }

    #[test]
    fn start_position_mobility() {
        // Rooks: 2 moves each (a1, a2); horses: 2 each (a2, c2); cannons: 11 quiet moves
        // each (b3..b6, b1, a2, c2..g2) and one capture (the horse behind Black's cannon).
        let pos = Position::startpos();
        let maps = SideMaps::new(&pos, Color::Red);
        let own = pos.color_bb(Color::Red);
        let count = |kind| {
            maps.majors()
                .iter()
                .filter(|m| m.kind == kind)
                .map(|m| (m.moves & !own).count())
                .sum::<u32>() as i32
        };
        assert_eq!(count(PieceKind::Rook), 4);
        assert_eq!(count(PieceKind::Horse), 4);
        assert_eq!(count(PieceKind::Cannon), 24);
        assert_eq!(score(&maps, own), 3 * 4 + 4 * 4 + 2 * 24);
        assert_eq!(mobility(crate::board::START_FEN, Color::Black), 76);
    }

    #[test]
    fn a_free_rook_has_seventeen_moves() {
        // Rook e4 on an otherwise empty board (kings d0 and f9): 8 + 9 moves = 17 * 3.
        assert_eq!(mobility("5k3/9/9/9/9/4R4/9/9/9/3K5 w", Color::Red), 51);
        // A horse in the corner reaches b2 and c1.
        assert_eq!(mobility("5k3/9/9/9/9/9/9/9/9/N2K5 w", Color::Red), 2 * 4);
    }
}
