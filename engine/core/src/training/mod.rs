//! Training data for a learned evaluation: one fixed-size binary record per position
//! (a packed board, the side to move, the search's score and the game's result, all from
//! the side to move's view) after a small header. `docs/nnue.md` gives the byte layout.
//!
//! [`record`] packs and unpacks one position; [`file`] writes and reads whole files,
//! checking the header and stopping at the last whole record of a truncated file.

pub mod file;
pub mod record;

pub use file::{DataError, DataReader, DataWriter, DATA_MAGIC, DATA_VERSION, HEADER_BYTES};
pub use record::{GameResult, Record, RecordError, RECORD_BYTES};
