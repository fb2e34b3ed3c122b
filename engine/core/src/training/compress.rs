//! The compression of a chunk's payload: raw DEFLATE (RFC 1951) at level 9, by
//! `miniz_oxide` (pure Rust). Measured on level 6's self-play at 5,000 nodes (2.12 bytes a
//! position; docs/nnue.md): zstd (C) at level 19 is 1% smaller, xz (C) 8%, lz4_flex and
//! the pure-Rust zstd encoder larger; none is worth a C library. The chunk's own SHA-256
//! guards the payload, so the stream carries no checksum of its own.

/// The compression id in a chunk's header.
pub const ID: u32 = 1;

/// DEFLATE's strongest level short of the slow "uber" one (which gains 0.05%).
const LEVEL: u8 = 9;

/// The compressed bytes of `body`.
#[must_use]
pub fn compress(body: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec(body, LEVEL)
}

/// The bytes `payload` decompresses to, which must be `expected` long.
///
/// # Errors
/// One line when the payload does not decompress to that length.
pub fn decompress(payload: &[u8], expected: usize) -> Result<Vec<u8>, String> {
    let body = miniz_oxide::inflate::decompress_to_vec_with_limit(payload, expected)
        .map_err(|e| format!("cannot decompress: {:?}", e.status))?;
    if body.len() != expected {
        return Err(format!(
            "decompresses to {} bytes, its header announces {expected}",
            body.len()
        ));
    }
    Ok(body)
}
