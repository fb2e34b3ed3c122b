//! Material values and piece-square tables, summed incrementally by
//! [`Position`](crate::board::Position) on every move.

use crate::board::{Color, Piece, PieceKind, Square};

/// Material value of each kind, in the engine's score unit (a pawn before the river = 100).
pub const MATERIAL: [i32; PieceKind::COUNT] = [0, 200, 200, 400, 900, 450, 100];

/// Red's piece-square values, `[kind][square]` with Red's squares; Black's are Red's
/// flipped top-bottom.
const RED_PLACEMENT: [[i32; Square::COUNT]; PieceKind::COUNT] =
    [[0; Square::COUNT]; PieceKind::COUNT];

const PLACEMENT: [[i32; Square::COUNT]; Piece::INDEX_COUNT] = {
    let mut table = [[0; Square::COUNT]; Piece::INDEX_COUNT];
    let mut p = 0;
    while p < Piece::ALL.len() {
        let piece = Piece::ALL[p];
        let mut sq = 0;
        while sq < Square::COUNT {
            let own_view = match piece.color() {
                Color::Red => Square::ALL[sq],
                Color::Black => Square::ALL[sq].flip(),
            };
            table[piece.index()][sq] = RED_PLACEMENT[piece.kind().index()][own_view.index()];
            sq += 1;
        }
        p += 1;
    }
    table
};

/// Material value of a kind.
#[must_use]
#[inline]
pub const fn material(kind: PieceKind) -> i32 {
    MATERIAL[kind.index()]
}

/// Piece-square value of a piece on a square, from its owner's view.
#[must_use]
#[inline]
pub const fn placement(piece: Piece, sq: Square) -> i32 {
    PLACEMENT[piece.index()][sq.index()]
}
