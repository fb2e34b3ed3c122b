//! Reading and writing Xiangqi FEN.
//!
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`: ten rows from
//! rank 9 (Black's back rank) down to rank 0, upper case for Red. `B`/`E` both mean
//! elephant and `N`/`H` horse; the side is `w` or `r` for Red, `b` for Black. The two
//! castling/en-passant fields are ignored, the counters are optional.

use thiserror::Error;

use super::{BitBoard, Color, Piece, PieceKind, Position, Square};
use crate::movegen;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was rejected. Rows are counted from 1 at the top of the FEN (rank 9).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("the board has {0} rows; a Xiangqi FEN has 10 separated by '/'")]
    RowCount(usize),
    #[error("row {row} (rank {rank}) covers {columns} columns; it must cover 9")]
    ColumnCount {
        row: usize,
        rank: usize,
        columns: usize,
    },
    #[error("row {row} (rank {rank}): unknown piece letter '{letter}'")]
    UnknownPiece {
        row: usize,
        rank: usize,
        letter: char,
    },
    #[error("side to move '{0}' is not w, r or b")]
    BadSide(String),
    #[error("{field} '{value}' is not a number")]
    BadCounter { field: &'static str, value: String },
    #[error("too many fields ({0}); a FEN has at most 6")]
    FieldCount(usize),
    #[error("{color:?} has {count} kings; it must have exactly one")]
    KingCount { color: Color, count: u32 },
    #[error("{color:?} has {count} pieces of kind {kind:?}; at most {max} exist")]
    TooMany {
        color: Color,
        kind: PieceKind,
        count: u32,
        max: u32,
    },
    #[error("{piece:?} on {square} is on a square it can never reach")]
    Unreachable { piece: Piece, square: Square },
    #[error("the side not to move ({0:?}) is in check: its king could be captured")]
    OpponentInCheck(Color),
}

impl Position {
    /// Reads a FEN.
    ///
    /// # Errors
    /// [`FenError`] naming what is wrong and where: bad rows, unknown letters, a missing
    /// or extra king, pieces on squares they can never reach, too many pieces of a kind,
    /// or the side not to move standing in check.
    ///
    /// # Examples
    /// ```
    /// use xq_core::board::{Position, START_FEN};
    /// let pos = Position::from_fen(START_FEN).unwrap();
    /// assert_eq!(pos.to_fen(), START_FEN);
    /// assert!(Position::from_fen("9/9/9 w").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let Some(&board) = fields.first() else {
            return Err(FenError::Empty);
        };
        if fields.len() > 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        place_pieces(&mut pos, board)?;
        let side = match fields.get(1).copied().unwrap_or("w") {
            "w" | "r" | "W" | "R" => Color::Red,
            "b" | "B" => Color::Black,
            other => return Err(FenError::BadSide(other.to_owned())),
        };
        pos.set_side(side);
        let counter = |index: usize, field: &'static str, default: u16| match fields.get(index) {
            None | Some(&"-") => Ok(default),
            Some(text) => text.parse::<u16>().map_err(|_| FenError::BadCounter {
                field,
                value: (*text).to_owned(),
            }),
        };
        let halfmove = counter(4, "half-move counter", 0)?;
        let fullmove = counter(5, "full-move number", 1)?;
        pos.set_counters(halfmove, fullmove);
        validate(&pos)?;
        Ok(pos)
    }

    /// The position of pieces on distinct squares with a side to move (counters zero and
    /// one), checked as [`Position::from_fen`] checks a FEN's (training records use it).
    ///
    /// # Errors
    /// [`FenError`] as for a FEN: a missing or extra king, a piece where it cannot stand,
    /// too many of a kind, the side not to move in check; [`FenError::TooMany`] also for
    /// two pieces given on one square.
    pub fn from_pieces(pieces: &[(Square, Piece)], side: Color) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        for &(sq, piece) in pieces {
            if pos.piece_at(sq).is_some() {
                return Err(FenError::TooMany {
                    color: piece.color(),
                    kind: piece.kind(),
                    count: 2,
                    max: 1,
                });
            }
            pos.put(piece, sq);
        }
        pos.set_side(side);
        validate(&pos)?;
        Ok(pos)
    }

    /// Writes the FEN of the position (`w`/`b`, upper case for Red, `B`/`N` letters).
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match Square::try_from_xy(file, rank).and_then(|sq| self.piece_at(sq)) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(piece.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = self.side_to_move().fen_char();
        let (clock, fullmove) = (self.plies_since_capture(), self.fullmove_number());
        format!("{out} {side} - - {clock} {fullmove}")
    }
}

fn place_pieces(pos: &mut Position, board: &str) -> Result<(), FenError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 10 {
        return Err(FenError::RowCount(rows.len()));
    }
    for (row_index, text) in rows.iter().enumerate() {
        let rank = 9 - row_index;
        let row = row_index + 1;
        let mut file = 0usize;
        for letter in text.chars() {
            if let Some(skip) = letter.to_digit(10) {
                file += skip as usize;
                continue;
            }
            let piece =
                Piece::from_fen_char(letter).ok_or(FenError::UnknownPiece { row, rank, letter })?;
            let sq = Square::try_from_xy(file as i32, rank as i32);
            match sq {
                Some(sq) if file < 9 => pos.put(piece, sq),
                _ => {}
            }
            file += 1;
        }
        if file != 9 {
            return Err(FenError::ColumnCount {
                row,
                rank,
                columns: file,
            });
        }
    }
    Ok(())
}

/// Squares a piece of this colour and kind can ever stand on.
#[must_use]
pub(crate) fn reachable(color: Color, kind: PieceKind) -> BitBoard {
    let own_view = |squares: &[&str]| {
        squares
            .iter()
            .filter_map(|s| Square::parse(s))
            .map(|sq| if color == Color::Red { sq } else { sq.flip() })
            .fold(BitBoard::EMPTY, BitBoard::with)
    };
    match kind {
        PieceKind::King => BitBoard::palace(color),
        PieceKind::Advisor => own_view(&["d0", "f0", "e1", "d2", "f2"]),
        PieceKind::Elephant => own_view(&["c0", "g0", "a2", "e2", "i2", "c4", "g4"]),
        // Never behind the starting rank (rank 3 for Red, 6 for Black).
        PieceKind::Pawn => Square::ALL.iter().fold(BitBoard::EMPTY, |acc, &sq| {
            let own_rank = if color == Color::Red { sq } else { sq.flip() }
                .rank()
                .index();
            if own_rank >= 3 {
                acc.with(sq)
            } else {
                acc
            }
        }),
        PieceKind::Horse | PieceKind::Rook | PieceKind::Cannon => BitBoard::FULL,
    }
}

fn validate(pos: &Position) -> Result<(), FenError> {
    for color in Color::ALL {
        let kings = pos.pieces_of(color, PieceKind::King).count();
        if kings != 1 {
            return Err(FenError::KingCount {
                color,
                count: kings,
            });
        }
        for kind in PieceKind::ALL {
            let squares = pos.pieces_of(color, kind);
            let (count, max) = (squares.count(), kind.max_count());
            if count > max {
                return Err(FenError::TooMany {
                    color,
                    kind,
                    count,
                    max,
                });
            }
            if let Some(square) = (squares & !reachable(color, kind)).first() {
                let piece = Piece::new(color, kind);
                return Err(FenError::Unreachable { piece, square });
            }
        }
    }
    let waiting = !pos.side_to_move();
    if movegen::is_attacked_king(pos, waiting) {
        return Err(FenError::OpponentInCheck(waiting));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> FenError {
        match Position::from_fen(fen) {
            Ok(pos) => panic!("accepted bad FEN {fen}: {pos:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn start_position_round_trips() {
        let pos = Position::from_fen(START_FEN).expect("start FEN");
        assert_eq!(pos.to_fen(), START_FEN);
        assert_eq!(pos.occupied().count(), 32);
        assert_eq!(pos.king(Color::Red), Square::parse("e0").expect("e0"));
        assert_eq!(pos.king(Color::Black), Square::parse("e9").expect("e9"));
    }

    #[test]
    fn accepts_alternative_letters_and_short_forms() {
        let alt = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r";
        let pos = Position::from_fen(alt).expect("E/H letters and side r");
        assert_eq!(pos.to_fen(), START_FEN);
        let black = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 b").expect("short");
        assert_eq!(black.side_to_move(), Color::Black);
    }

    #[test]
    fn rejects_with_the_right_reason() {
        assert_eq!(err(""), FenError::Empty);
        assert!(matches!(err("9/9/9 w"), FenError::RowCount(3)));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3K4 w"),
            FenError::ColumnCount {
                row: 10,
                rank: 0,
                columns: 8
            }
        ));
        assert!(matches!(
            err("4k4/9/9/9/4x4/9/9/9/9/3K5 w"),
            FenError::UnknownPiece {
                row: 5,
                rank: 5,
                letter: 'x'
            }
        ));
        assert!(matches!(
            err("9/9/9/9/9/9/9/9/9/3K5 w"),
            FenError::KingCount {
                color: Color::Black,
                count: 0
            }
        ));
        assert!(matches!(
            err("3kk4/9/9/9/9/9/9/9/9/3K5 w"),
            FenError::KingCount { count: 2, .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/K8 w"),
            FenError::Unreachable { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/A8/3K5 w"),
            FenError::Unreachable { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3KB4 w"),
            FenError::Unreachable { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/P8/9/3K5 w"),
            FenError::Unreachable { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/4B4/9/9/9/3K5 w"),
            FenError::Unreachable { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 x"),
            FenError::BadSide(_)
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1"),
            FenError::BadCounter { .. }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/RRR1K4 w"),
            FenError::TooMany {
                kind: PieceKind::Rook,
                count: 3,
                ..
            }
        ));
        // Red to move, but Black's king stands on an open file facing Red's rook.
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3KR4 w"),
            FenError::OpponentInCheck(Color::Black)
        ));
        // Flying general: the kings face each other with Black to move means Red is in check.
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 b"),
            FenError::OpponentInCheck(Color::Red)
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 extra"),
            FenError::FieldCount(7)
        ));
    }
}
