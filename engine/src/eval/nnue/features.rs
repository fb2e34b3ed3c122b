//! The input features: 2 colours x 7 kinds x 90 squares = 1,260 per perspective.
//!
//! For a perspective, a piece is "own" or "other" and its square is seen from that side:
//! Red reads squares as they are, Black reads the board turned 180 degrees (square
//! `89 - i`), so both perspectives see their own pieces at the bottom and share one
//! weight matrix. No king buckets: the plain set needs the least data, the right start
//! for the few million positions this machine can generate.

use crate::board::{Color, Piece, Square};

/// Inputs per perspective.
pub const FEATURES: usize = 2 * 7 * Square::COUNT;

/// The feature of `piece` on `sq` seen from `perspective`.
#[must_use]
#[inline]
pub fn feature_index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let other = usize::from(piece.color() != perspective);
    let view = match perspective {
        Color::Red => sq.index(),
        Color::Black => Square::COUNT - 1 - sq.index(),
    };
    (other * 7 + piece.kind().index()) * Square::COUNT + view
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceKind;

    #[test]
    fn features_are_distinct_and_black_sees_the_board_turned() {
        let mut seen = vec![false; FEATURES];
        for piece in Piece::ALL {
            for sq in Square::ALL {
                let index = feature_index(Color::Red, piece, sq);
                assert!(!seen[index]);
                seen[index] = true;
                // Black's view of the colour-swapped, turned board is Red's view.
                let turned = Square::ALL[89 - sq.index()];
                assert_eq!(
                    feature_index(Color::Black, piece.flip_color(), turned),
                    index
                );
            }
        }
        assert!(seen.into_iter().all(|s| s));
        let e0 = Square::parse("e0").expect("square");
        let own_king = feature_index(Color::Red, Piece::new(Color::Red, PieceKind::King), e0);
        assert_eq!(own_king, e0.index());
    }
}
