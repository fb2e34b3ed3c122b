//! Material values and piece-square tables: the [`VALUES`] table that
//! [`Position`] sums incrementally on every move (see [`Position::with_values`]).
//!
//! Material is seed 002's (its piece values; unit: an unadvanced pawn = 50, a rook = 1000;
//! horse and cannon at their middlegame value 450). `docs/evaluation.md`, levels 0 and 1,
//! describes both seeds and the tables. The piece-square tables are seed 000's
//! `PositionValues` for Red (transcribed and checked against the seed text; rank 0 is Red's
//! back rank), with one typo fixed: the rook table read 180 on c3 against 200 on g3 and on
//! the otherwise identical rank 7, so c3 is 200 and every table is left-right symmetric.
//! Black's tables are Red's flipped top-bottom.
//!
//! Seed 000's values include the piece's own worth (a rook is 150 to 250 there), so the
//! placement term is the difference to the value on the piece's start square, scaled by
//! [`PLACEMENT_SCALE`] to the unit of 002.

use std::borrow::Cow;

use crate::board::{Color, Piece, PieceKind, PieceValues, Position, Square};

/// Material value of each kind, in the engine's score unit (seed 002).
pub const MATERIAL: [i32; PieceKind::COUNT] = [0, 200, 200, 450, 1000, 450, 50];

/// How many score units one point of seed 000's tables is worth.
pub const PLACEMENT_SCALE: i32 = 3;

/// Seed 000's value on each kind's start square (king e0, advisor d0, elephant c0, horse b0,
/// rook a0, cannon b2, pawn a3): the placement term is measured from there.
const START_SQUARE_VALUE: [i32; PieceKind::COUNT] = [20, 30, 30, 70, 150, 100, 10];

/// Seed 000's tables for Red, `[kind][rank][file]`, rank 0 = Red's back rank.
#[rustfmt::skip]
const SEED_TABLES: [[[i32; 9]; 10]; PieceKind::COUNT] = [
    // king
    [
        [  0,   0,   0,  15,  20,  15,   0,   0,   0], // rank 0
        [  0,   0,   0,  10,  10,  10,   0,   0,   0], // rank 1
        [  0,   0,   0,   1,   1,   1,   0,   0,   0], // rank 2
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 3
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 4
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 5
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 6
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 7
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 8
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 9
    ],
    // advisor
    [
        [  0,   0,   0,  30,   0,  30,   0,   0,   0], // rank 0
        [  0,   0,   0,   0,  22,   0,   0,   0,   0], // rank 1
        [  0,   0,   0,  30,   0,  30,   0,   0,   0], // rank 2
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 3
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 4
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 5
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 6
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 7
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 8
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 9
    ],
    // elephant
    [
        [  0,   0,  30,   0,   0,   0,  30,   0,   0], // rank 0
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 1
        [ 20,   0,   0,   0,  35,   0,   0,   0,  20], // rank 2
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 3
        [  0,   0,  25,   0,   0,   0,  25,   0,   0], // rank 4
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 5
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 6
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 7
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 8
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 9
    ],
    // horse
    [
        [ 60,  70,  75,  70,  60,  70,  75,  70,  60], // rank 0
        [ 70,  75,  75,  70,  50,  70,  75,  75,  70], // rank 1
        [ 80,  80,  90,  90,  80,  90,  90,  80,  80], // rank 2
        [ 80,  90, 100, 100,  90, 100, 100,  90,  80], // rank 3
        [ 90, 100, 100, 110, 100, 110, 100, 100,  90], // rank 4
        [ 90, 110, 110, 120, 100, 120, 110, 110,  90], // rank 5
        [ 90, 100, 120, 130, 110, 130, 120, 100,  90], // rank 6
        [ 90, 100, 120, 125, 120, 125, 120, 100,  90], // rank 7
        [ 80, 110, 125,  90,  70,  90, 125, 110,  80], // rank 8
        [ 70,  80,  90,  80,  70,  80,  90,  80,  70], // rank 9
    ],
    // rook
    [
        [150, 160, 150, 160, 150, 160, 150, 160, 150], // rank 0
        [160, 170, 160, 160, 150, 160, 160, 170, 160], // rank 1
        [170, 180, 170, 170, 160, 170, 170, 180, 170], // rank 2
        [170, 190, 200, 220, 240, 220, 200, 190, 170], // rank 3
        [180, 220, 210, 240, 250, 240, 210, 220, 180], // rank 4
        [180, 220, 210, 240, 250, 240, 210, 220, 180], // rank 5
        [180, 220, 210, 240, 250, 240, 210, 220, 180], // rank 6
        [170, 190, 200, 220, 240, 220, 200, 190, 170], // rank 7
        [170, 180, 170, 190, 250, 190, 170, 180, 170], // rank 8
        [160, 170, 160, 150, 150, 150, 160, 170, 160], // rank 9
    ],
    // cannon
    [
        [ 80,  90,  80,  70,  60,  70,  80,  90,  80], // rank 0
        [ 80,  90,  80,  70,  65,  70,  80,  90,  80], // rank 1
        [ 90, 100,  80,  80,  70,  80,  80, 100,  90], // rank 2
        [ 90, 100,  90,  90, 110,  90,  90, 100,  90], // rank 3
        [ 90, 100,  90, 110, 130, 110,  90, 100,  90], // rank 4
        [ 90, 110,  90, 110, 130, 110,  90, 110,  90], // rank 5
        [ 90, 110,  90, 110, 130, 110,  90, 110,  90], // rank 6
        [100, 120,  90,  80,  80,  80,  90, 120, 100], // rank 7
        [110, 125, 100,  70,  60,  70, 100, 125, 110], // rank 8
        [125, 130, 100,  70,  60,  70, 100, 130, 125], // rank 9
    ],
    // pawn
    [
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 0
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 1
        [  0,   0,   0,   0,   0,   0,   0,   0,   0], // rank 2
        [ 10,   0,  10,   0,  15,   0,  10,   0,  10], // rank 3
        [ 10,   0,  15,   0,  15,   0,  15,   0,  10], // rank 4
        [ 15,  20,  20,  20,  20,  20,  20,  20,  15], // rank 5
        [ 20,  25,  25,  30,  30,  30,  25,  25,  20], // rank 6
        [ 25,  30,  30,  40,  40,  40,  30,  30,  25], // rank 7
        [ 25,  30,  40,  50,  60,  50,  40,  30,  25], // rank 8
        [ 10,  10,  10,  20,  25,  20,  10,  10,  10], // rank 9
    ],
];

const PLACEMENT: [[i32; Square::COUNT]; Piece::INDEX_COUNT] = {
    let mut table = [[0; Square::COUNT]; Piece::INDEX_COUNT];
    let mut p = 0;
    while p < Piece::ALL.len() {
        let piece = Piece::ALL[p];
        let kind = piece.kind().index();
        let mut sq = 0;
        while sq < Square::COUNT {
            let own_view = match piece.color() {
                Color::Red => Square::ALL[sq],
                Color::Black => Square::ALL[sq].flip(),
            };
            let seed = SEED_TABLES[kind][own_view.rank().index()][own_view.file().index()];
            table[piece.index()][sq] = PLACEMENT_SCALE * (seed - START_SQUARE_VALUE[kind]);
            sq += 1;
        }
        p += 1;
    }
    table
};

/// The table the evaluation has positions sum: [`MATERIAL`] and the placement tables.
pub static VALUES: PieceValues = PieceValues {
    material: MATERIAL,
    placement: PLACEMENT,
};

/// `pos` summing `values`: itself when it already does (every position of a search),
/// a copy with its sums computed otherwise (a position from outside the search).
#[must_use]
#[inline]
pub fn valued<'a>(pos: &'a Position, values: &'static PieceValues) -> Cow<'a, Position> {
    if std::ptr::eq(pos.values(), values) {
        Cow::Borrowed(pos)
    } else {
        Cow::Owned(pos.with_values(values))
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_left_right_symmetric_and_black_mirrors_red() {
        for piece in Piece::ALL {
            for sq in Square::ALL {
                assert_eq!(
                    placement(piece, sq),
                    placement(piece, sq.mirror()),
                    "{piece:?} {sq}"
                );
                assert_eq!(
                    placement(piece, sq),
                    placement(piece.flip_color(), sq.flip()),
                    "{piece:?} {sq}"
                );
            }
        }
    }

    #[test]
    fn seed_values_land_on_the_right_squares() {
        let sq = |s: &str| Square::parse(s).expect("square");
        // The king is worth most at home; a pawn gains after crossing the river.
        assert!(placement(Piece::RedKing, sq("e0")) > placement(Piece::RedKing, sq("e2")));
        assert!(placement(Piece::RedPawn, sq("e6")) > placement(Piece::RedPawn, sq("e3")));
        assert!(placement(Piece::BlackPawn, sq("e3")) > placement(Piece::BlackPawn, sq("e6")));
        // The corrected rook cell (c3) equals its mirror (g3).
        assert_eq!(
            placement(Piece::RedRook, sq("c3")),
            PLACEMENT_SCALE * (200 - 150)
        );
    }
}
