//! Board geometry the evaluation terms share: files, ranks and regions as masks, "own"
//! ranks, and the squares between two points on a line.
//!
//! Every rule of the terms is written for one side with its own ranks (rank 0 = its back
//! rank). Colour flipping turns the board top-bottom and keeps files, so masks defined
//! by own rank and absolute file keep the evaluation antisymmetric; wings are absolute
//! files (the seeds fix left and right with Red at the bottom; `docs/evaluation.md`).

use crate::board::{BitBoard, Color, Square};
use crate::movegen::tables::RAYS;

/// The nine files as masks, `a` first (the move generator's table).
pub use crate::movegen::tables::FILES;

/// The ten ranks as masks, rank 0 (Red's back rank) first.
pub const RANKS: [BitBoard; 10] = {
    let mut out = [BitBoard::EMPTY; 10];
    let mut r = 0;
    while r < 10 {
        out[r] = BitBoard(0x1ffu128 << (9 * r));
        r += 1;
    }
    out
};

/// The rank a side counts as its own rank `r` (0 = its back rank).
#[must_use]
#[inline]
pub const fn own_rank_mask(color: Color, r: usize) -> BitBoard {
    match color {
        Color::Red => RANKS[r],
        Color::Black => RANKS[9 - r],
    }
}

/// A square's rank counted from a side's own back rank.
#[must_use]
#[inline]
pub const fn own_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::Red => sq.rank().index(),
        Color::Black => 9 - sq.rank().index(),
    }
}

/// A square given by file and a side's own rank.
#[must_use]
#[inline]
pub const fn own_square(color: Color, file: usize, rank: usize) -> Square {
    let rank = match color {
        Color::Red => rank,
        Color::Black => 9 - rank,
    };
    Square::ALL[file + 9 * rank]
}

/// Squares across the river for a side (where its pawns have crossed).
#[must_use]
#[inline]
pub const fn enemy_half(color: Color) -> BitBoard {
    match color {
        Color::Red => BitBoard::home_half(Color::Black),
        Color::Black => BitBoard::home_half(Color::Red),
    }
}

/// Files a..e: the left wing (file e belongs to both wings, proposed).
pub const LEFT_WING: BitBoard =
    BitBoard(FILES[0].0 | FILES[1].0 | FILES[2].0 | FILES[3].0 | FILES[4].0);
/// Files e..i: the right wing.
pub const RIGHT_WING: BitBoard =
    BitBoard(FILES[4].0 | FILES[5].0 | FILES[6].0 | FILES[7].0 | FILES[8].0);
/// Both wings, left first.
pub const WINGS: [BitBoard; 2] = [LEFT_WING, RIGHT_WING];

/// The four edge lines: files a and i, ranks 0 and 9.
pub const EDGES: BitBoard = BitBoard(FILES[0].0 | FILES[8].0 | RANKS[0].0 | RANKS[9].0);

/// A side's palace centre (e1 / e8).
#[must_use]
#[inline]
pub const fn palace_centre(color: Color) -> Square {
    own_square(color, 4, 1)
}

/// A side's king home (e0 / e9).
#[must_use]
#[inline]
pub const fn king_home(color: Color) -> Square {
    own_square(color, 4, 0)
}

/// A side's two advisor homes, the bottom corners of its palace (d0, f0 / d9, f9).
#[must_use]
#[inline]
pub const fn advisor_homes(color: Color) -> [Square; 2] {
    [own_square(color, 3, 0), own_square(color, 5, 0)]
}

/// The file and the rank through each square, without the square.
const LINES: [BitBoard; Square::COUNT] = {
    let mut table = [BitBoard::EMPTY; Square::COUNT];
    let mut sq = 0;
    while sq < Square::COUNT {
        table[sq] = BitBoard(RAYS[0][sq].0 | RAYS[1][sq].0 | RAYS[2][sq].0 | RAYS[3][sq].0);
        sq += 1;
    }
    table
};

/// The file and the rank through a square, without the square.
#[must_use]
#[inline]
pub fn lines(sq: Square) -> BitBoard {
    LINES[sq.index()]
}

/// The squares strictly between two squares on one file or rank (empty otherwise).
#[must_use]
#[inline]
pub fn between(a: Square, b: Square) -> BitBoard {
    for dir in 0..4 {
        if RAYS[dir][a.index()].has(b) {
            return RAYS[dir][a.index()] & RAYS[(dir + 2) % 4][b.index()];
        }
    }
    BitBoard::EMPTY
}

/// Number of steps between two squares on one line (0 for the same square).
#[must_use]
#[inline]
pub fn line_distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// The ray from `from` in direction `dir` (0 north, 1 east, 2 south, 3 west).
#[must_use]
#[inline]
pub fn ray(dir: usize, from: Square) -> BitBoard {
    RAYS[dir][from.index()]
}

/// The direction that moves toward the enemy for a side (north for Red).
#[must_use]
#[inline]
pub const fn forward_dir(color: Color) -> usize {
    match color {
        Color::Red => 0,
        Color::Black => 2,
    }
}

/// The first occupied square on a ray from a square (nearest to it), if any.
#[must_use]
#[inline]
pub fn first_on_ray(dir: usize, from: Square, occ: BitBoard) -> Option<Square> {
    let blockers = RAYS[dir][from.index()] & occ;
    if dir < 2 {
        blockers.first()
    } else {
        blockers.last()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("square")
    }

    #[test]
    fn masks_and_own_ranks() {
        assert_eq!(FILES[4].count(), 10);
        assert_eq!(RANKS[9].count(), 9);
        assert_eq!(EDGES.count(), 2 * 10 + 2 * 7);
        assert_eq!((LEFT_WING & RIGHT_WING), FILES[4]);
        assert_eq!(own_rank(Color::Black, sq("e9")), 0);
        assert_eq!(own_square(Color::Black, 4, 1), sq("e8"));
        assert_eq!(palace_centre(Color::Red), sq("e1"));
        assert_eq!(advisor_homes(Color::Black), [sq("d9"), sq("f9")]);
        assert!(own_rank_mask(Color::Black, 0).has(sq("a9")));
        assert!(enemy_half(Color::Red).has(sq("a5")));
    }

    #[test]
    fn between_and_distance() {
        assert_eq!(between(sq("e0"), sq("e4")).count(), 3);
        assert_eq!(between(sq("e4"), sq("e0")), between(sq("e0"), sq("e4")));
        assert_eq!(between(sq("a0"), sq("i0")).count(), 7);
        assert!(between(sq("a0"), sq("b1")).is_empty());
        assert!(between(sq("a0"), sq("a1")).is_empty());
        assert_eq!(line_distance(sq("e0"), sq("e9")), 9);
        let occ = BitBoard::EMPTY.with(sq("e3")).with(sq("e6"));
        assert_eq!(first_on_ray(0, sq("e0"), occ), Some(sq("e3")));
        assert_eq!(first_on_ray(2, sq("e9"), occ), Some(sq("e6")));
        assert_eq!(lines(sq("e4")).count(), 8 + 9);
    }
}
