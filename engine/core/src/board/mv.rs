//! A move from one square to another, packed in 16 bits.
//!
//! | bits  | 15  | 14      | 13..7 | 6..0 |
//! |-------|-----|---------|-------|------|
//! | value | 1   | 0       | to    | from |
//!
//! Bit 15 is always set so the value is never zero: `Option<Move>` is two bytes too
//! (niche of `NonZeroU16`). What moves and what is captured is read from the position.

use std::fmt;
use std::num::NonZeroU16;

use thiserror::Error;

use super::Square;

/// A move in coordinate form; legality depends on a position.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(NonZeroU16);

const MARK: u16 = 1 << 15;

/// Why a move text was rejected. The text kept is at most [`MoveParseError::SHOWN`]
/// characters of what was given: errors are one line, whatever the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveParseError {
    /// Not four characters `<file><rank><file><rank>`.
    #[error("move `{0}` is not in coordinate form like `h2e2` (files a-i, ranks 0-9)")]
    Syntax(String),
    /// The from and to squares are the same.
    #[error("move `{0}` does not move: from and to are the same square")]
    NullMove(String),
}

impl MoveParseError {
    /// The most characters of a rejected text that an error repeats.
    pub const SHOWN: usize = 24;

    /// A syntax error about `text`, shortened to [`Self::SHOWN`] characters.
    #[must_use]
    pub fn syntax(text: &str) -> MoveParseError {
        MoveParseError::Syntax(Self::shown(text))
    }

    /// `text`, or its first [`Self::SHOWN`] characters and an ellipsis.
    #[must_use]
    pub fn shown(text: &str) -> String {
        match text.char_indices().nth(Self::SHOWN) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text.to_owned(),
        }
    }
}

impl Move {
    /// The move from `from` to `to`; `None` when the squares are equal.
    #[must_use]
    pub const fn try_new(from: Square, to: Square) -> Option<Move> {
        if from.index() == to.index() {
            return None;
        }
        Move::from_bits(MARK | from.index() as u16 | (to.index() as u16) << 7)
    }

    /// The move from `from` to `to`. The squares must differ (a move generator's
    /// promise); equal squares would still give a valid but meaningless value.
    #[must_use]
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        match NonZeroU16::new(MARK | from.index() as u16 | (to.index() as u16) << 7) {
            Some(bits) => Move(bits),
            // Unreachable: MARK makes the value non-zero.
            None => Move(NonZeroU16::MIN),
        }
    }

    /// Rebuilds a move from [`Move::bits`]; `None` for values no move has.
    #[must_use]
    pub const fn from_bits(bits: u16) -> Option<Move> {
        let from = bits & 0x7f;
        let to = (bits >> 7) & 0x7f;
        if bits & 0xc000 != MARK || from >= 90 || to >= 90 || from == to {
            return None;
        }
        match NonZeroU16::new(bits) {
            Some(bits) => Some(Move(bits)),
            None => None,
        }
    }

    /// The packed value (for hash tables).
    #[must_use]
    pub const fn bits(self) -> u16 {
        self.0.get()
    }

    /// The square the piece leaves.
    #[must_use]
    #[inline]
    pub const fn from(self) -> Square {
        // Every constructor stores squares below 90.
        Square::from_index_trusted((self.0.get() & 0x7f) as u8)
    }

    /// The square the piece reaches.
    #[must_use]
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_trusted(((self.0.get() >> 7) & 0x7f) as u8)
    }

    /// The same move seen in the top-bottom flipped board.
    #[must_use]
    pub const fn flip(self) -> Move {
        Move::new(self.from().flip(), self.to().flip())
    }

    /// The same move seen in the left-right mirrored board.
    #[must_use]
    pub const fn mirror(self) -> Move {
        Move::new(self.from().mirror(), self.to().mirror())
    }

    /// Parses UCCI/ICCS coordinates: `h2e2`, also `H2-E2` (the ICCS form used in PGN).
    ///
    /// # Errors
    /// [`MoveParseError`] when the text is not a move between two board points.
    pub fn parse(text: &str) -> Result<Move, MoveParseError> {
        let compact: Vec<u8> = text
            .bytes()
            .filter(|&b| b != b'-')
            .map(|b| b.to_ascii_lowercase())
            .collect();
        let syntax = || MoveParseError::syntax(text);
        if compact.len() != 4 || text.len() > 5 {
            return Err(syntax());
        }
        let square = |f: u8, r: u8| match (f, r) {
            (b'a'..=b'i', b'0'..=b'9') => Square::new((f - b'a') + 9 * (r - b'0')),
            _ => None,
        };
        let from = square(compact[0], compact[1]).ok_or_else(syntax)?;
        let to = square(compact[2], compact[3]).ok_or_else(syntax)?;
        Move::try_new(from, to).ok_or_else(|| MoveParseError::NullMove(text.to_owned()))
    }

    /// The ICCS form with a dash and capitals (`H2-E2`), as PGN files write it.
    #[must_use]
    pub fn to_iccs_pgn(self) -> String {
        let mut text = String::with_capacity(5);
        self.push_iccs_pgn(&mut text);
        text
    }

    /// [`Move::to_iccs_pgn`], appended to `out` (for writers of many games).
    pub fn push_iccs_pgn(self, out: &mut String) {
        for (i, square) in [self.from(), self.to()].into_iter().enumerate() {
            if i == 1 {
                out.push('-');
            }
            out.push(square.file().to_char().to_ascii_uppercase());
            // Ranks are 0..=9: one digit.
            out.push(char::from_digit(square.rank().index() as u32, 10).unwrap_or('?'));
        }
    }
}

impl fmt::Display for Move {
    /// UCCI coordinates, e.g. `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_bad_move_is_shown_shortened() {
        let long = "x".repeat(100_000);
        let message = Move::parse(&long).map_err(|e| e.to_string()).err();
        assert!(
            message.as_ref().is_some_and(|m| m.len() < 120),
            "{message:?}"
        );
        assert_eq!(MoveParseError::shown("h2e2"), "h2e2");
        assert_eq!(
            MoveParseError::shown(&"é".repeat(30)),
            format!("{}…", "é".repeat(24))
        );
    }

    #[test]
    fn parse_and_print() {
        let m = Move::parse("h2e2").expect("valid");
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(m.to_iccs_pgn(), "H2-E2");
        assert_eq!(Move::parse("H2-E2"), Ok(m));
        assert_eq!(Move::from_bits(m.bits()), Some(m));
        assert!(Move::parse("h2e").is_err());
        assert!(Move::parse("h2e2 ").is_err());
        assert!(Move::parse("j2e2").is_err());
        assert!(Move::parse("e2e2").is_err());
        assert!(Move::parse("ééé").is_err());
        assert_eq!(size_of::<Option<Move>>(), 2);
    }

    #[test]
    fn every_square_pair_round_trips() {
        for from in Square::ALL {
            for to in Square::ALL {
                match Move::try_new(from, to) {
                    Some(m) => {
                        assert_eq!((m.from(), m.to()), (from, to));
                        assert_eq!(Move::parse(&m.to_string()), Ok(m));
                    }
                    None => assert_eq!(from, to),
                }
            }
        }
    }
}
