//! A set of squares as one `u128` (bit `n` = square `n`, 90 bits used).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::{Color, Square};

/// The bit of square index `index` (below 90).
///
/// Shifting a `u128` by a variable amount takes about seven x86-64 instructions;
/// shifting within the 64-bit half that holds the square is cheaper.
#[must_use]
#[inline(always)]
const fn bit(index: usize) -> u128 {
    let low = 1u64 << (index & 63);
    if index < 64 {
        low as u128
    } else {
        (low as u128) << 64
    }
}

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BitBoard(pub u128);

impl BitBoard {
    /// No square.
    pub const EMPTY: BitBoard = BitBoard(0);
    /// All 90 squares.
    pub const FULL: BitBoard = BitBoard((1u128 << 90) - 1);

    /// The set holding one square.
    #[must_use]
    #[inline]
    pub const fn from_square(sq: Square) -> BitBoard {
        BitBoard(bit(sq.index()))
    }

    /// Ranks 0..=4 for Red, 5..=9 for Black: the side of the river a side starts on.
    #[must_use]
    pub const fn home_half(color: Color) -> BitBoard {
        let red = (1u128 << 45) - 1;
        match color {
            Color::Red => BitBoard(red),
            Color::Black => BitBoard(BitBoard::FULL.0 & !red),
        }
    }

    /// The nine squares of a side's palace (files d..f, three ranks at its end).
    #[must_use]
    pub const fn palace(color: Color) -> BitBoard {
        let rows = 0b111_000u128 | (0b111_000u128 << 9) | (0b111_000u128 << 18);
        match color {
            Color::Red => BitBoard(rows),
            Color::Black => BitBoard(rows << 63),
        }
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[must_use]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether the square is in the set.
    #[must_use]
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        // Tests within the 64-bit half holding the square (see `from_square`).
        let index = sq.index();
        let half = if index < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        half >> (index & 63) & 1 != 0
    }

    /// Number of squares in the set.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square, if any.
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_trusted(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square, if any.
    #[must_use]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_trusted(
                (127 - self.0.leading_zeros()) as u8,
            ))
        }
    }

    /// The set with one square added.
    #[must_use]
    #[inline]
    pub const fn with(self, sq: Square) -> BitBoard {
        BitBoard(self.0 | BitBoard::from_square(sq).0)
    }

    /// The set with one square removed.
    #[must_use]
    #[inline]
    pub const fn without(self, sq: Square) -> BitBoard {
        BitBoard(self.0 & !BitBoard::from_square(sq).0)
    }

    /// Whether the set has more than one square.
    #[must_use]
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The squares of the set in increasing order.
    #[must_use]
    pub const fn iter(self) -> BitIter {
        BitIter {
            low: self.0 as u64,
            high: (self.0 >> 64) as u64,
        }
    }
}

/// Iterator over the squares of a [`BitBoard`], lowest first.
///
/// It walks the two 64-bit halves in turn: finding and clearing the lowest bit of a
/// `u64` takes about half the instructions it takes on a `u128`.
#[derive(Clone, Debug)]
pub struct BitIter {
    low: u64,
    high: u64,
}

impl Iterator for BitIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let index = if self.low != 0 {
            let index = self.low.trailing_zeros();
            self.low &= self.low - 1;
            index
        } else if self.high != 0 {
            let index = self.high.trailing_zeros();
            self.high &= self.high - 1;
            index + 64
        } else {
            return None;
        };
        // Bits of a board mask are below 90.
        Some(Square::from_index_trusted(index as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.low.count_ones() + self.high.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl IntoIterator for BitBoard {
    type Item = Square;
    type IntoIter = BitIter;

    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

macro_rules! binary_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for BitBoard {
            type Output = BitBoard;
            #[inline]
            fn $method(self, rhs: BitBoard) -> BitBoard {
                BitBoard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for BitBoard {
            #[inline]
            fn $assign_method(&mut self, rhs: BitBoard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for BitBoard {
    type Output = BitBoard;

    /// The complement within the 90 squares of the board.
    #[inline]
    fn not(self) -> BitBoard {
        BitBoard(!self.0 & BitBoard::FULL.0)
    }
}

impl fmt::Debug for BitBoard {
    /// Draws the board with rank 9 on top, as Red sees it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in (0..10).rev() {
            for file in 0..9 {
                let on = Square::try_from_xy(file, rank).is_some_and(|sq| self.has(sq));
                f.write_str(if on { "X" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_have_the_right_sizes() {
        assert_eq!(BitBoard::FULL.count(), 90);
        assert_eq!(BitBoard::home_half(Color::Red).count(), 45);
        assert_eq!(BitBoard::home_half(Color::Black).count(), 45);
        for color in Color::ALL {
            let palace = BitBoard::palace(color);
            assert_eq!(palace.count(), 9);
            assert!((palace & !BitBoard::home_half(color)).is_empty());
        }
        assert!(BitBoard::palace(Color::Black).has(Square::parse("e9").expect("e9")));
        assert!(BitBoard::palace(Color::Red).has(Square::parse("d2").expect("d2")));
    }

    #[test]
    fn iteration_first_last() {
        let set = BitBoard::EMPTY
            .with(Square::parse("a0").expect("a0"))
            .with(Square::parse("i9").expect("i9"));
        assert_eq!(set.iter().count(), 2);
        assert_eq!(set.first(), Square::parse("a0"));
        assert_eq!(set.last(), Square::parse("i9"));
        assert!(set.has_several());
        assert_eq!(!BitBoard::FULL, BitBoard::EMPTY);
    }
}
