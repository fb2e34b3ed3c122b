//! Training data for a learned evaluation. `docs/nnue.md` gives every byte.
//!
//! - Game records, what datagen keeps: [`game`] (a self-play game: its start, every
//!   move with its search score, the result), [`codec`] (a game's bytes: moves as their
//!   index among the sorted legal moves, scores as varints), [`chunk`] (many games
//!   compressed as a whole behind a checked header), [`manifest`] and [`data_dir`] (a
//!   folder of chunks and its list), [`positions`] (the reader's filters: which
//!   positions of a game a trainer learns from).
//! - Position records, what a trainer holds in memory and the older data files are:
//!   [`record`] packs one position in 32 bytes; [`file`] writes and reads such files.

pub mod chunk;
pub mod codec;
mod compress;
pub mod data_dir;
pub mod file;
pub mod game;
pub mod manifest;
pub mod positions;
pub mod record;
pub mod varint;

pub use chunk::{read_chunk, read_chunk_file, write_chunk, ChunkError, ChunkHeader, CHUNK_MAGIC};
pub use data_dir::{
    chunks_of_dir, read_manifest, read_source, sha256_hex, ChunkSource, DataDirError,
};
pub use file::{DataError, DataReader, DataWriter, DATA_MAGIC, DATA_VERSION, HEADER_BYTES};
pub use game::{GameMove, SearchScore, SelfPlayGame};
pub use manifest::{Manifest, ManifestEntry, ManifestError, CHUNK_EXTENSION, MANIFEST_FILE};
pub use positions::{training_positions, FilterCounts, Filters, FAULT_ENDINGS};
pub use record::{GameResult, Record, RecordError, RECORD_BYTES};
