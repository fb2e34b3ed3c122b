//! Coordinate move text: `h2e2` with ranks 0-9 (UCCI, ICCS, Pikafish UCI) or `h3e3` with
//! ranks 1-10 (Fairy-Stockfish in UCI mode).

use crate::board::{Move, MoveParseError, Square};

/// How an engine numbers ranks in coordinate moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RankBase {
    /// Ranks `0`..`9` (UCCI, ICCS, Pikafish): `h2e2`.
    #[default]
    Zero,
    /// Ranks `1`..`10` (Fairy-Stockfish UCI): `h3e3`, `a10a9`.
    One,
}

/// Writes a move in the given rank numbering.
#[must_use]
pub fn format_coords(m: Move, base: RankBase) -> String {
    match base {
        RankBase::Zero => m.to_string(),
        RankBase::One => {
            let sq = |s: Square| format!("{}{}", s.file().to_char(), s.rank().index() + 1);
            format!("{}{}", sq(m.from()), sq(m.to()))
        }
    }
}

/// Reads a move in the given rank numbering (lower or upper case, optional dash).
///
/// # Errors
/// [`MoveParseError`] when the text is not two board points in that numbering.
pub fn parse_coords(text: &str, base: RankBase) -> Result<Move, MoveParseError> {
    match base {
        RankBase::Zero => Move::parse(text),
        RankBase::One => {
            let syntax = || MoveParseError::syntax(text);
            let compact: String = text
                .chars()
                .filter(|&c| c != '-')
                .collect::<String>()
                .to_ascii_lowercase();
            if !compact.is_ascii() {
                return Err(syntax());
            }
            let bytes = compact.as_bytes();
            // Split at the second file letter: "a10a9" -> ("a10", "a9").
            let split = bytes
                .iter()
                .skip(1)
                .position(u8::is_ascii_alphabetic)
                .ok_or_else(syntax)?
                + 1;
            let (from, to) = compact.split_at(split);
            let square = |part: &str| -> Option<Square> {
                let mut chars = part.chars();
                let file = chars.next()?;
                let rank: u8 = chars.as_str().parse().ok()?;
                if !('a'..='i').contains(&file) || !(1..=10).contains(&rank) {
                    return None;
                }
                Square::new(file as u8 - b'a' + 9 * (rank - 1))
            };
            let (from, to) = (
                square(from).ok_or_else(syntax)?,
                square(to).ok_or_else(syntax)?,
            );
            Move::try_new(from, to).ok_or_else(|| MoveParseError::NullMove(text.to_owned()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_rank_bases_round_trip() {
        for from in Square::ALL {
            for to in Square::ALL.iter().step_by(7) {
                if let Some(m) = Move::try_new(from, *to) {
                    for base in [RankBase::Zero, RankBase::One] {
                        assert_eq!(parse_coords(&format_coords(m, base), base), Ok(m));
                    }
                }
            }
        }
        let m = Move::parse("a9a8").expect("move");
        assert_eq!(format_coords(m, RankBase::One), "a10a9");
        assert!(parse_coords("a11a9", RankBase::One).is_err());
        assert!(parse_coords("a0a9", RankBase::One).is_err());
        assert!(parse_coords("", RankBase::One).is_err());
        assert!(parse_coords("é", RankBase::One).is_err());
    }
}
