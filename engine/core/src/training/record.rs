//! One training position in [`RECORD_BYTES`] bytes.
//!
//! Layout (little-endian):
//! - bytes 0..12: occupancy, bit `i` set when square `i` (`a0 = 0`, `i9 = 89`) holds a
//!   piece; bits 90..96 are zero;
//! - bytes 12..28: the occupied squares' pieces in ascending square order, four bits each,
//!   low nibble first, as [`Piece::index`] (Red 0..7, Black 8..15); unused nibbles zero;
//! - byte 28: side to move, 0 Red, 1 Black;
//! - bytes 29..31: the score, `i16`, from the side to move's view (engine units);
//! - byte 31: the game's result from the side to move's view: 0 loss, 1 draw, 2 win.
//!
//! At most 32 pieces stand on a Xiangqi board, so 16 bytes of nibbles always suffice.

use thiserror::Error;

use crate::board::{BitBoard, Color, Piece, Position, Square};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 32;
/// The most pieces a record holds (a full board).
const MAX_PIECES: usize = 32;
const OCCUPANCY_BYTES: usize = 12;
const PIECES_AT: usize = 12;
const SIDE_AT: usize = 28;
const SCORE_AT: usize = 29;
const RESULT_AT: usize = 31;

/// A game's result from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Loss,
    Draw,
    Win,
}

impl GameResult {
    /// The result as the training target uses it: 0, 0.5 or 1.
    #[must_use]
    pub fn as_fraction(self) -> f32 {
        match self {
            GameResult::Loss => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Win => 1.0,
        }
    }

    /// The same result from the other side's view.
    #[must_use]
    pub fn flipped(self) -> GameResult {
        match self {
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
            GameResult::Win => GameResult::Loss,
        }
    }

    fn to_byte(self) -> u8 {
        match self {
            GameResult::Loss => 0,
            GameResult::Draw => 1,
            GameResult::Win => 2,
        }
    }

    fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::Loss),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::Win),
            _ => None,
        }
    }
}

/// Why the bytes of a record are not a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordError {
    #[error("occupancy has bits past square 89")]
    OccupancyPastBoard,
    #[error("{0} pieces (at most {MAX_PIECES})")]
    TooManyPieces(u32),
    #[error("piece code {code} on square {square} is not a piece")]
    BadPiece { code: u8, square: Square },
    #[error("side-to-move byte {0} (0 Red, 1 Black)")]
    BadSide(u8),
    #[error("result byte {0} (0 loss, 1 draw, 2 win)")]
    BadResult(u8),
    #[error("not a legal position: {0}")]
    Illegal(#[from] crate::board::FenError),
}

/// One training position: the pieces, the side to move, the search's score and the
/// game's result (both from the side to move's view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pieces: Vec<(Square, Piece)>,
    side: Color,
    /// The search's score, from the side to move's view.
    pub score: i16,
    /// The game's result, from the side to move's view.
    pub result: GameResult,
}

impl Record {
    /// The record of a position with its score and result (side to move's view).
    #[must_use]
    pub fn new(pos: &Position, score: i16, result: GameResult) -> Record {
        let pieces = pos
            .occupied()
            .iter()
            .filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p)))
            .collect();
        Record {
            pieces,
            side: pos.side_to_move(),
            score,
            result,
        }
    }

    /// The pieces in ascending square order.
    #[must_use]
    pub fn pieces(&self) -> &[(Square, Piece)] {
        &self.pieces
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The position (counters zero and one: a record does not keep them).
    ///
    /// # Errors
    /// [`RecordError::Illegal`] when the pieces are not a legal position (two kings of a
    /// colour, a piece where it cannot stand, the side not to move in check).
    pub fn position(&self) -> Result<Position, RecordError> {
        Ok(Position::from_pieces(&self.pieces, self.side)?)
    }

    /// The record's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        let mut occupancy = 0u128;
        for (i, &(sq, piece)) in self.pieces.iter().take(MAX_PIECES).enumerate() {
            occupancy |= 1u128 << sq.index();
            out[PIECES_AT + i / 2] |= (piece.index() as u8) << (4 * (i % 2));
        }
        out[..OCCUPANCY_BYTES].copy_from_slice(&occupancy.to_le_bytes()[..OCCUPANCY_BYTES]);
        out[SIDE_AT] = self.side as u8;
        out[SCORE_AT..SCORE_AT + 2].copy_from_slice(&self.score.to_le_bytes());
        out[RESULT_AT] = self.result.to_byte();
        out
    }

    /// Reads a record's bytes.
    ///
    /// # Errors
    /// [`RecordError`] naming the first field that no record writes. The pieces are not
    /// checked for legality here (see [`Record::position`]): readers that only need the
    /// pieces, like a trainer, skip that cost.
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        let mut wide = [0u8; 16];
        wide[..OCCUPANCY_BYTES].copy_from_slice(&bytes[..OCCUPANCY_BYTES]);
        let occupancy = u128::from_le_bytes(wide);
        if occupancy & !BitBoard::FULL.0 != 0 {
            return Err(RecordError::OccupancyPastBoard);
        }
        let occupied = BitBoard(occupancy);
        if occupied.count() as usize > MAX_PIECES {
            return Err(RecordError::TooManyPieces(occupied.count()));
        }
        let mut pieces = Vec::with_capacity(occupied.count() as usize);
        for (i, square) in occupied.iter().enumerate() {
            let code = (bytes[PIECES_AT + i / 2] >> (4 * (i % 2))) & 0xf;
            let piece = Piece::ALL
                .into_iter()
                .find(|p| p.index() == usize::from(code))
                .ok_or(RecordError::BadPiece { code, square })?;
            pieces.push((square, piece));
        }
        let side = match bytes[SIDE_AT] {
            0 => Color::Red,
            1 => Color::Black,
            other => return Err(RecordError::BadSide(other)),
        };
        let score = i16::from_le_bytes([bytes[SCORE_AT], bytes[SCORE_AT + 1]]);
        let result = GameResult::from_byte(bytes[RESULT_AT])
            .ok_or(RecordError::BadResult(bytes[RESULT_AT]))?;
        Ok(Record {
            pieces,
            side,
            score,
            result,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::POSITIONS;

    #[test]
    fn every_sample_position_round_trips_through_its_bytes() {
        for (i, fen) in POSITIONS.iter().enumerate() {
            let pos = Position::from_fen(fen).expect("sample");
            let result = [GameResult::Loss, GameResult::Draw, GameResult::Win][i % 3];
            let record = Record::new(&pos, i as i16 * 37 - 500, result);
            let read = Record::from_bytes(&record.to_bytes()).expect("decodes");
            assert_eq!(read, record);
            let back = read.position().expect("legal");
            assert_eq!(
                back.to_fen().split(' ').take(2).collect::<Vec<_>>(),
                pos.to_fen().split(' ').take(2).collect::<Vec<_>>()
            );
            assert_eq!(back.key(), pos.key());
        }
    }

    #[test]
    fn bad_bytes_name_the_field() {
        let pos = Position::startpos();
        let good = Record::new(&pos, 12, GameResult::Draw).to_bytes();
        let mut bytes = good;
        bytes[11] = 0x80;
        assert_eq!(
            Record::from_bytes(&bytes),
            Err(RecordError::OccupancyPastBoard)
        );
        let mut bytes = good;
        bytes[12] = 0x07;
        assert!(matches!(
            Record::from_bytes(&bytes),
            Err(RecordError::BadPiece { code: 7, .. })
        ));
        let mut bytes = good;
        bytes[28] = 2;
        assert_eq!(Record::from_bytes(&bytes), Err(RecordError::BadSide(2)));
        let mut bytes = good;
        bytes[31] = 3;
        assert_eq!(Record::from_bytes(&bytes), Err(RecordError::BadResult(3)));
        // Two red kings: decodes, but is not a position.
        let mut bytes = good;
        let black_king = Square::parse("e9").expect("square");
        let index = Record::from_bytes(&good)
            .expect("good")
            .pieces()
            .iter()
            .position(|&(sq, _)| sq == black_king)
            .expect("king");
        bytes[12 + index / 2] &= !(0xf << (4 * (index % 2)));
        let record = Record::from_bytes(&bytes).expect("decodes");
        assert!(matches!(record.position(), Err(RecordError::Illegal(_))));
    }
}
