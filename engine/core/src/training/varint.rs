//! The integers of a game record: LEB128 varints (7 bits a byte, low group first, the
//! high bit set on every byte but the last) and zigzag for signed values (0, -1, 1, -2,
//! 2, ... as 0, 1, 2, 3, 4, ...), so that small numbers of either sign take one byte.

use thiserror::Error;

/// Why bytes do not hold the varint expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum VarintError {
    #[error("ends inside a number")]
    Truncated,
    #[error("a number longer than 64 bits")]
    TooLong,
}

/// Appends `value` as a varint.
pub fn put_u64(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends `value` zigzagged as a varint.
pub fn put_i64(out: &mut Vec<u8>, value: i64) {
    put_u64(out, zigzag(value));
}

/// `value` with its sign in the lowest bit.
#[must_use]
pub fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// The inverse of [`zigzag`].
#[must_use]
pub fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// Reads bytes from a slice, front to back.
#[derive(Debug)]
pub struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes, at: 0 }
    }

    /// Bytes read so far (the offset of the next one).
    #[must_use]
    pub fn offset(&self) -> usize {
        self.at
    }

    /// Whether every byte has been read.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.at >= self.bytes.len()
    }

    /// The next `n` bytes.
    ///
    /// # Errors
    /// [`VarintError::Truncated`] when fewer are left.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], VarintError> {
        let end = self.at.checked_add(n).ok_or(VarintError::Truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or(VarintError::Truncated)?;
        self.at = end;
        Ok(slice)
    }

    /// The next byte.
    ///
    /// # Errors
    /// [`VarintError::Truncated`] at the end.
    pub fn byte(&mut self) -> Result<u8, VarintError> {
        Ok(self.take(1)?[0])
    }

    /// The next varint.
    ///
    /// # Errors
    /// [`VarintError`] when the bytes end inside it or it does not fit 64 bits.
    pub fn u64(&mut self) -> Result<u64, VarintError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            let bits = u64::from(byte & 0x7f);
            if shift == 63 && bits > 1 {
                return Err(VarintError::TooLong);
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(VarintError::TooLong)
    }

    /// The next zigzagged varint.
    ///
    /// # Errors
    /// As [`Cursor::u64`].
    pub fn i64(&mut self) -> Result<i64, VarintError> {
        self.u64().map(unzigzag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_small_ones_take_one_byte() {
        let values = [
            0i64,
            1,
            -1,
            63,
            -64,
            64,
            1000,
            -30_000,
            i64::from(i32::MAX),
            i64::MIN,
            i64::MAX,
        ];
        let mut out = Vec::new();
        for &v in &values {
            put_i64(&mut out, v);
        }
        put_u64(&mut out, u64::MAX);
        let mut cursor = Cursor::new(&out);
        for &v in &values {
            assert_eq!(cursor.i64(), Ok(v));
        }
        assert_eq!(cursor.u64(), Ok(u64::MAX));
        assert!(cursor.is_empty());
        let mut one = Vec::new();
        put_i64(&mut one, -64);
        assert_eq!(one.len(), 1);
    }

    #[test]
    fn cut_or_overlong_numbers_are_errors() {
        assert_eq!(Cursor::new(&[0x80]).u64(), Err(VarintError::Truncated));
        assert_eq!(Cursor::new(&[]).u64(), Err(VarintError::Truncated));
        assert_eq!(Cursor::new(&[0xff; 11]).u64(), Err(VarintError::TooLong));
        let mut ten = vec![0xff; 9];
        ten.push(0x02);
        assert_eq!(Cursor::new(&ten).u64(), Err(VarintError::TooLong));
    }
}
