//! Values a position sums incrementally as pieces come and go: one per piece kind
//! (material) and one per piece on each square (placement).
//!
//! The board does not know what the numbers mean. Whoever evaluates positions supplies
//! the table once ([`Position::with_values`](super::Position::with_values)), and every
//! move then keeps both sums per side up to date in a few additions, so an evaluation
//! reads them instead of walking the board. A position built without a table sums
//! [`NO_VALUES`], zeros.

use super::{Piece, PieceKind, Square};

/// The values a position sums.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceValues {
    /// The value of each kind, indexed by [`PieceKind::index`].
    pub material: [i32; PieceKind::COUNT],
    /// The value of each piece on each square from its owner's view, indexed by
    /// [`Piece::index`] and [`Square::index`].
    pub placement: [[i32; Square::COUNT]; Piece::INDEX_COUNT],
}

/// The table of a position built without one: every value is zero.
pub static NO_VALUES: PieceValues = PieceValues {
    material: [0; PieceKind::COUNT],
    placement: [[0; Square::COUNT]; Piece::INDEX_COUNT],
};

impl PieceValues {
    /// The material value of a kind.
    #[must_use]
    #[inline]
    pub fn material_of(&self, kind: PieceKind) -> i32 {
        self.material[kind.index()]
    }

    /// The placement value of a piece on a square.
    #[must_use]
    #[inline]
    pub fn placement_of(&self, piece: Piece, sq: Square) -> i32 {
        self.placement[piece.index()][sq.index()]
    }
}
