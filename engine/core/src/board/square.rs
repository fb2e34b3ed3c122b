//! Squares, files and ranks of the 9x10 board.

use std::fmt;

/// A file (column) `a`..`i`, numbered 0..9 from Red's left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(u8);

/// A rank (row) `0`..`9`, numbered from Red's back rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl File {
    /// Number of files.
    pub const COUNT: usize = 9;

    /// The file with this index, if it is on the board.
    #[must_use]
    pub const fn new(index: u8) -> Option<File> {
        if index < 9 {
            Some(File(index))
        } else {
            None
        }
    }

    /// Index 0..9 from Red's left (file `a`).
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file seen from the other side (`a` <-> `i`).
    #[must_use]
    pub const fn mirror(self) -> File {
        File(8 - self.0)
    }

    /// The ICCS letter of the file.
    #[must_use]
    pub const fn to_char(self) -> char {
        (b'a' + self.0) as char
    }
}

impl Rank {
    /// Number of ranks.
    pub const COUNT: usize = 10;

    /// The rank with this index, if it is on the board.
    #[must_use]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 10 {
            Some(Rank(index))
        } else {
            None
        }
    }

    /// Index 0..10 from Red's back rank.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank seen from the other side (`0` <-> `9`).
    #[must_use]
    pub const fn flip(self) -> Rank {
        Rank(9 - self.0)
    }
}

/// One of the 90 points of the board, `file + 9 * rank` (see the module comment of
/// [`crate::board`] for why this order).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 90;

    /// Every square in index order.
    pub const ALL: [Square; 90] = {
        let mut all = [Square(0); 90];
        let mut i = 0;
        while i < 90 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index, if it is on the board.
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with an index the caller knows is below 90 (a set bit of a board mask,
    /// a field of a packed move). A wrong index cannot cause undefined behaviour, only a
    /// panic when the square indexes a table.
    #[must_use]
    #[inline(always)]
    pub(crate) const fn from_index_trusted(index: u8) -> Square {
        Square(index)
    }

    /// The square of a file and rank.
    #[must_use]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(file.0 + 9 * rank.0)
    }

    /// The square at file and rank indices, if both are on the board.
    #[must_use]
    pub const fn try_from_xy(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((file + 9 * rank) as u8))
        } else {
            None
        }
    }

    /// Index 0..90.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file of the square.
    #[must_use]
    pub const fn file(self) -> File {
        File(self.0 % 9)
    }

    /// The rank of the square.
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// The square reflected top-bottom (Red's view <-> Black's view), same file.
    #[must_use]
    pub const fn flip(self) -> Square {
        Square(self.0 % 9 + 9 * (9 - self.0 / 9))
    }

    /// The square reflected left-right, same rank.
    #[must_use]
    pub const fn mirror(self) -> Square {
        Square(8 - self.0 % 9 + 9 * (self.0 / 9))
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[must_use]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::try_from_xy((self.0 % 9) as i32 + df, (self.0 / 9) as i32 + dr)
    }

    /// Parses an ICCS coordinate such as `e0` or `h7`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f @ b'a'..=b'i', r @ b'0'..=b'9'] => Some(Square((f - b'a') + 9 * (r - b'0'))),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().0)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::ALL {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            assert_eq!(sq.flip().flip(), sq);
            assert_eq!(sq.mirror().mirror(), sq);
        }
        assert_eq!(Square::parse("a0").map(Square::index), Some(0));
        assert_eq!(Square::parse("i9").map(Square::index), Some(89));
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::parse("a10"), None);
    }

    #[test]
    fn flip_and_mirror_move_to_the_expected_points() {
        let e0 = Square::parse("e0");
        assert_eq!(e0.map(Square::flip), Square::parse("e9"));
        assert_eq!(Square::parse("b2").map(Square::mirror), Square::parse("h2"));
        assert_eq!(Square::parse("a0").and_then(|s| s.offset(-1, 0)), None);
    }
}
