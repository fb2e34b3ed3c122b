//! A fixed-capacity list of moves on the stack.

use std::ops::Deref;

use crate::board::{Move, Square};

/// More than the most moves any Xiangqi position has: two rooks and two cannons with 17
/// each, two horses with 8, the king 4, advisors 5, elephants 8, five pawns 3 = 116.
pub const MAX_MOVES: usize = 128;

/// A list of moves, filled by the generator without heap allocation.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[must_use]
    #[inline]
    pub fn new() -> MoveList {
        let filler = Move::new(Square::ALL[0], Square::ALL[1]);
        MoveList {
            moves: [filler; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. The generator never produces more than [`MAX_MOVES`]; an extra
    /// move would be dropped rather than overflow.
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Keeps, of the moves from index `start` on, only those for which `keep` holds, in
    /// their order (the moves before `start` stay as they are).
    #[inline]
    pub fn retain_from(&mut self, start: usize, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = start;
        for i in start..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
