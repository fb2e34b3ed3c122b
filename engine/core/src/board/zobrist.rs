//! Zobrist keys, generated at compile time from a fixed seed (identical on every build).

use super::{Color, Piece, Square};
use crate::rng::step as splitmix64;

const PIECE_KEYS: [[u64; Square::COUNT]; Piece::INDEX_COUNT] = {
    let mut keys = [[0u64; Square::COUNT]; Piece::INDEX_COUNT];
    let mut state = 0x5851_f42d_4c95_7f2d_u64;
    let mut piece = 0;
    while piece < Piece::INDEX_COUNT {
        let mut sq = 0;
        while sq < Square::COUNT {
            let (next, value) = splitmix64(state);
            state = next;
            keys[piece][sq] = value;
            sq += 1;
        }
        piece += 1;
    }
    keys
};

const SIDE_KEY: u64 = splitmix64(0x2545_f491_4f6c_dd1d).1;

/// The key of a piece standing on a square.
#[must_use]
#[inline]
pub const fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.index()][sq.index()]
}

/// The key xor-ed in when Black is to move.
#[must_use]
#[inline]
pub const fn side_key(side: Color) -> u64 {
    match side {
        Color::Red => 0,
        Color::Black => SIDE_KEY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = Piece::ALL
            .iter()
            .flat_map(|&p| Square::ALL.iter().map(move |&sq| piece_key(p, sq)))
            .collect();
        all.push(side_key(Color::Black));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
