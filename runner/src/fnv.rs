//! FNV-1a (64-bit), as 16 hex digits: the fingerprint of configs (the resume hash, the
//! runs table's config hash) and of opening files. One implementation, so that a hash
//! written by one part of the runner is the hash another part computes; the values are
//! stored in `run.json` and the database, so the function never changes.

/// FNV-1a over bytes fed in any number of pieces (a file is hashed chunk by chunk).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv1a(u64);

impl Fnv1a {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0100_0000_01b3;

    pub(crate) fn new() -> Fnv1a {
        Fnv1a(Self::OFFSET_BASIS)
    }

    /// Feeds bytes.
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    /// The hash so far, as 16 lower-case hex digits.
    pub(crate) fn hex(self) -> String {
        format!("{:016x}", self.0)
    }
}

/// FNV-1a of `bytes`, as 16 lower-case hex digits.
pub(crate) fn fnv1a_hex(bytes: &[u8]) -> String {
    let mut hash = Fnv1a::new();
    hash.write(bytes);
    hash.hex()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_of_64_bit_fnv1a() {
        // The reference values of the FNV-1a specification (draft-eastlake-fnv).
        assert_eq!(fnv1a_hex(b""), "cbf29ce484222325");
        assert_eq!(fnv1a_hex(b"a"), "af63dc4c8601ec8c");
        assert_eq!(fnv1a_hex(b"foobar"), "85944171f73967e8");
    }

    #[test]
    fn pieces_hash_as_the_whole() {
        let mut hash = Fnv1a::new();
        hash.write(b"foo");
        hash.write(b"");
        hash.write(b"bar");
        assert_eq!(hash.hex(), fnv1a_hex(b"foobar"));
    }
}
