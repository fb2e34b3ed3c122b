//! A chunk: many games' records ([`codec`](super::codec)) compressed as a whole, behind
//! an 80-byte header that says what it holds and lets a reader tell a cut or damaged
//! file from a good one before it decompresses anything. Little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `XQGAMES\0` |
//! | 8..12 | format version, `u32`, now 1 |
//! | 12..16 | compression, `u32` ([`super::compress::ID`]) |
//! | 16..24 | games, `u64` |
//! | 24..32 | positions an engine searched (moves with a score), `u64` |
//! | 32..40 | bytes of the games' records before compression, `u64` |
//! | 40..48 | bytes of the compressed payload, `u64` |
//! | 48..80 | SHA-256 of the payload |
//! | 80.. | the payload |

use std::path::Path;

use sha2::{Digest, Sha256};
use thiserror::Error;

use super::codec::{decode_game, encode_game, CodecError};
use super::compress;
use super::game::SelfPlayGame;
use super::varint::Cursor;

/// The first eight bytes of every chunk.
pub const CHUNK_MAGIC: [u8; 8] = *b"XQGAMES\0";
/// The chunk format this code writes and reads.
pub const CHUNK_VERSION: u32 = 1;
/// Bytes of the header.
pub const CHUNK_HEADER_BYTES: usize = 80;
/// The most bytes a chunk's records may take once decompressed (a header announcing
/// more is not one of ours, and is not given the memory).
pub const MAX_BODY_BYTES: u64 = 1 << 30;

/// Why a chunk cannot be written or read.
#[derive(Debug, Error)]
pub enum ChunkError {
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    #[error("not a game-record chunk (no XQGAMES header)")]
    NotChunk,
    #[error("chunk format version {found}, this build reads version {CHUNK_VERSION}")]
    Version { found: u32 },
    #[error("compression {found}, this build reads {}", compress::ID)]
    Compression { found: u32 },
    #[error("truncated: {found} bytes, its header announces {expected}")]
    Truncated { found: u64, expected: u64 },
    #[error("{extra} bytes after the payload its header announces")]
    Trailing { extra: u64 },
    #[error("damaged: the payload's SHA-256 does not match its header's")]
    HashMismatch,
    #[error("damaged: {0}")]
    Damaged(String),
    #[error("its header announces {0} bytes of records (at most {MAX_BODY_BYTES})")]
    TooLarge(u64),
    #[error("game {ordinal} of the chunk: {source}")]
    Game {
        ordinal: u64,
        #[source]
        source: CodecError,
    },
}

/// What a chunk's header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkHeader {
    pub games: u64,
    pub positions: u64,
    pub body_bytes: u64,
    pub payload_bytes: u64,
    pub payload_sha256: [u8; 32],
}

impl ChunkHeader {
    /// The whole chunk's size.
    #[must_use]
    pub fn file_bytes(&self) -> u64 {
        CHUNK_HEADER_BYTES as u64 + self.payload_bytes
    }
}

/// The bytes of a chunk holding `games`.
///
/// # Errors
/// [`ChunkError::Game`] when a game does not replay from its start.
pub fn write_chunk(games: &[SelfPlayGame]) -> Result<Vec<u8>, ChunkError> {
    let mut body = Vec::new();
    let mut positions = 0u64;
    for (ordinal, game) in games.iter().enumerate() {
        encode_game(game, &mut body).map_err(|source| ChunkError::Game {
            ordinal: ordinal as u64,
            source,
        })?;
        positions += game.searched() as u64;
    }
    let payload = compress::compress(&body);
    let mut out = Vec::with_capacity(CHUNK_HEADER_BYTES + payload.len());
    out.extend_from_slice(&CHUNK_MAGIC);
    out.extend_from_slice(&CHUNK_VERSION.to_le_bytes());
    out.extend_from_slice(&compress::ID.to_le_bytes());
    for n in [
        games.len() as u64,
        positions,
        body.len() as u64,
        payload.len() as u64,
    ] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    out.extend_from_slice(&Sha256::digest(&payload));
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Reads and checks a chunk's header (not its payload).
///
/// # Errors
/// [`ChunkError::NotChunk`] for another file, [`ChunkError::Version`] or
/// [`ChunkError::Compression`] for another format, [`ChunkError::Truncated`] for a
/// file shorter than its header.
pub fn read_header(bytes: &[u8]) -> Result<ChunkHeader, ChunkError> {
    if bytes.len() < CHUNK_MAGIC.len() || bytes[..8] != CHUNK_MAGIC {
        return Err(ChunkError::NotChunk);
    }
    if bytes.len() < CHUNK_HEADER_BYTES {
        return Err(ChunkError::Truncated {
            found: bytes.len() as u64,
            expected: CHUNK_HEADER_BYTES as u64,
        });
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let long = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(b)
    };
    if word(8) != CHUNK_VERSION {
        return Err(ChunkError::Version { found: word(8) });
    }
    if word(12) != compress::ID {
        return Err(ChunkError::Compression { found: word(12) });
    }
    let mut payload_sha256 = [0u8; 32];
    payload_sha256.copy_from_slice(&bytes[48..80]);
    Ok(ChunkHeader {
        games: long(16),
        positions: long(24),
        body_bytes: long(32),
        payload_bytes: long(40),
        payload_sha256,
    })
}

/// The games of a chunk's bytes, every check made: the length its header announces,
/// the payload's hash, the decompressed size, every game replayed, the counts.
///
/// # Errors
/// [`ChunkError`] naming the first thing that is wrong.
pub fn read_chunk(bytes: &[u8]) -> Result<(ChunkHeader, Vec<SelfPlayGame>), ChunkError> {
    let header = read_header(bytes)?;
    let found = bytes.len() as u64;
    let expected = header.file_bytes();
    if found < expected {
        return Err(ChunkError::Truncated { found, expected });
    }
    if found > expected {
        return Err(ChunkError::Trailing {
            extra: found - expected,
        });
    }
    let payload = &bytes[CHUNK_HEADER_BYTES..];
    if Sha256::digest(payload).as_slice() != header.payload_sha256 {
        return Err(ChunkError::HashMismatch);
    }
    if header.body_bytes > MAX_BODY_BYTES {
        return Err(ChunkError::TooLarge(header.body_bytes));
    }
    let body =
        compress::decompress(payload, header.body_bytes as usize).map_err(ChunkError::Damaged)?;
    let mut cursor = Cursor::new(&body);
    let mut games = Vec::new();
    let mut positions = 0u64;
    while !cursor.is_empty() {
        let game = decode_game(&mut cursor).map_err(|source| ChunkError::Game {
            ordinal: games.len() as u64,
            source,
        })?;
        positions += game.searched() as u64;
        games.push(game);
    }
    if games.len() as u64 != header.games || positions != header.positions {
        return Err(ChunkError::Damaged(format!(
            "its header counts {} games and {} positions, its records {} and {positions}",
            header.games,
            header.positions,
            games.len()
        )));
    }
    Ok((header, games))
}

/// The games of the chunk file at `path`.
///
/// # Errors
/// As [`read_chunk`]; [`ChunkError::Io`] when the file cannot be read.
pub fn read_chunk_file(path: &Path) -> Result<(ChunkHeader, Vec<SelfPlayGame>), ChunkError> {
    read_chunk(&std::fs::read(path)?)
}
