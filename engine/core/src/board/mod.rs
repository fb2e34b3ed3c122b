//! The Xiangqi board: squares, pieces, moves, positions, FEN and Zobrist keys.
//!
//! # Representation
//! A position keeps two views of the same facts, each used where it is fastest:
//! - a mailbox `[Option<Piece>; 90]` answers "what stands on this square" in one load
//!   (make/unmake, capture values, notation);
//! - `u128` bitboards per colour and per piece kind answer set questions: all targets of a
//!   piece are one table lookup or a few ray scans, legal-move filtering works on
//!   occupancy masks, and counting the legal moves of the last perft ply is a popcount.
//!
//! 90 squares fit in one `u128` (38 bits spare), so every set operation is two machine
//! words. Squares are numbered rank-major from Red's side (`a0 = 0`, `i0 = 8`, `a1 = 9`,
//! `i9 = 89`): one rank is then nine consecutive bits, moving one rank up is `+9`, and the
//! number reads directly as the ICCS coordinate (`file + 9 * rank`).
//! Sliding pieces (rook, cannon, the facing kings) use precomputed rays and a bit scan
//! for the first and second blocker, which keeps the tables small (a few KiB) and in L1.

mod bitboard;
mod fen;
mod mv;
mod piece;
mod position;
mod square;
mod values;
mod zobrist;

pub use bitboard::{BitBoard, BitIter};
pub use fen::{FenError, START_FEN};
pub use mv::{Move, MoveParseError};
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, Undo};
pub use square::{File, Rank, Square};
pub use values::{PieceValues, NO_VALUES};
pub use zobrist::{piece_key, side_key};
