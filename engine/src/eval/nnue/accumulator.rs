//! The first layer's sums ("accumulators"): the hidden biases plus the columns of the
//! active features, one set per perspective (Red's and Black's).
//!
//! [`Incremental`] keeps them along the search's line: a move subtracts the moved
//! piece's old feature and a captured piece's, and adds the new one, in both
//! perspectives (3 or 4 columns); unmake returns to the copy below on the stack. A full
//! refresh is only needed at the root. The sums use wrapping `i16` arithmetic: the
//! loader's range check guarantees that a legal position's sums never wrap, and in
//! modular arithmetic the order of additions and subtractions does not matter.

use std::sync::Arc;

use super::features::feature_index;
use super::forward::CHUNK;
use super::Network;
use crate::board::{Color, Move, Piece, Position};

/// Both perspectives' sums of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulators {
    /// Red's perspective, then Black's, `hidden` each.
    sums: Vec<i16>,
}

impl Accumulators {
    /// The sums of a position, computed from scratch.
    #[must_use]
    pub fn refresh(net: &Network, pos: &Position) -> Accumulators {
        let mut sums = Vec::with_capacity(2 * net.hidden);
        for perspective in Color::ALL {
            let mut acc = net.hidden_bias.clone();
            for sq in pos.occupied().iter() {
                if let Some(piece) = pos.piece_at(sq) {
                    add(&mut acc, net.column(feature_index(perspective, piece, sq)));
                }
            }
            sums.extend_from_slice(&acc);
        }
        Accumulators { sums }
    }

    /// The sums of one perspective.
    #[must_use]
    pub fn of(&self, perspective: Color) -> &[i16] {
        let hidden = self.sums.len() / 2;
        &self.sums[perspective.index() * hidden..(perspective.index() + 1) * hidden]
    }

    /// The evaluation from `side`'s view.
    #[must_use]
    pub fn evaluate(&self, net: &Network, side: Color) -> i32 {
        net.output(self.of(side), self.of(!side))
    }
}

impl Network {
    /// The evaluation of a position from scratch, from the side to move's view.
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        Accumulators::refresh(self, pos).evaluate(self, pos.side_to_move())
    }
}

/// `acc += column`, in fixed chunks that vectorise.
#[inline]
fn add(acc: &mut [i16], column: &[i16]) {
    for (a, c) in acc.chunks_exact_mut(CHUNK).zip(column.chunks_exact(CHUNK)) {
        for i in 0..CHUNK {
            a[i] = a[i].wrapping_add(c[i]);
        }
    }
}

/// `dst = src + add - sub`, in fixed chunks.
#[inline]
fn shift(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
    let chunks = dst
        .chunks_exact_mut(CHUNK)
        .zip(src.chunks_exact(CHUNK))
        .zip(add.chunks_exact(CHUNK).zip(sub.chunks_exact(CHUNK)));
    for ((d, s), (a, b)) in chunks {
        for i in 0..CHUNK {
            d[i] = s[i].wrapping_add(a[i]).wrapping_sub(b[i]);
        }
    }
}

/// `dst = src + add - sub - taken`, in fixed chunks.
#[inline]
fn shift_capture(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16], taken: &[i16]) {
    let chunks = dst
        .chunks_exact_mut(CHUNK)
        .zip(src.chunks_exact(CHUNK))
        .zip(add.chunks_exact(CHUNK).zip(sub.chunks_exact(CHUNK)))
        .zip(taken.chunks_exact(CHUNK));
    for (((d, s), (a, b)), t) in chunks {
        for i in 0..CHUNK {
            d[i] = s[i]
                .wrapping_add(a[i])
                .wrapping_sub(b[i])
                .wrapping_sub(t[i]);
        }
    }
}

/// A network and a stack of sums along the current line: one entry per move made
/// since the last refresh.
#[derive(Clone, Debug)]
pub struct Incremental {
    net: Arc<Network>,
    /// Entries of `2 * hidden` sums (Red's, then Black's), `top + 1` of them in use.
    stack: Vec<i16>,
    top: usize,
}

impl Incremental {
    /// Sums for `net`, refreshed from `pos`.
    #[must_use]
    pub fn new(net: Arc<Network>, pos: &Position) -> Incremental {
        let mut inc = Incremental {
            stack: Vec::new(),
            net,
            top: 0,
        };
        inc.refresh(pos);
        inc
    }

    /// The network in use.
    #[must_use]
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    fn width(&self) -> usize {
        2 * self.net.hidden
    }

    /// Starts the stack afresh at `pos` (the root of a search).
    pub fn refresh(&mut self, pos: &Position) {
        let fresh = Accumulators::refresh(&self.net, pos);
        self.top = 0;
        if self.stack.len() < self.width() {
            self.stack.resize(self.width(), 0);
        }
        self.stack[..fresh.sums.len()].copy_from_slice(&fresh.sums);
    }

    /// Pushes the sums after `m`, which `after` is the position after (`captured` as the
    /// move's undo record gives it).
    #[inline]
    pub fn make(&mut self, after: &Position, m: Move, captured: Option<Piece>) {
        let Some(mover) = after.piece_at(m.to()) else {
            return self.push_copy();
        };
        let width = self.width();
        let hidden = self.net.hidden;
        let start = self.top * width;
        if self.stack.len() < start + 2 * width {
            self.stack.resize(start + 2 * width, 0);
        }
        let (below, above) = self.stack.split_at_mut(start + width);
        let (src, dst) = (&below[start..], &mut above[..width]);
        for perspective in Color::ALL {
            let part = perspective.index() * hidden..(perspective.index() + 1) * hidden;
            let added = self.net.column(feature_index(perspective, mover, m.to()));
            let removed = self.net.column(feature_index(perspective, mover, m.from()));
            match captured {
                Some(victim) => {
                    let taken = self.net.column(feature_index(perspective, victim, m.to()));
                    shift_capture(&mut dst[part.clone()], &src[part], added, removed, taken);
                }
                None => shift(&mut dst[part.clone()], &src[part], added, removed),
            }
        }
        self.top += 1;
    }

    /// Pushes an unchanged copy (a move that was not made on the board).
    fn push_copy(&mut self) {
        let width = self.width();
        let start = self.top * width;
        if self.stack.len() < start + 2 * width {
            self.stack.resize(start + 2 * width, 0);
        }
        self.stack.copy_within(start..start + width, start + width);
        self.top += 1;
    }

    /// Returns to the sums before the last [`Incremental::make`].
    #[inline]
    pub fn unmake(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// The current sums of one perspective.
    #[must_use]
    #[inline]
    pub fn sums(&self, perspective: Color) -> &[i16] {
        let hidden = self.net.hidden;
        let start = self.top * self.width() + perspective.index() * hidden;
        &self.stack[start..start + hidden]
    }

    /// The evaluation from `side`'s view (the side to move's).
    #[must_use]
    #[inline]
    pub fn evaluate(&self, side: Color) -> i32 {
        self.net.output(self.sums(side), self.sums(!side))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::rng::SplitMix64;

    /// A network with varied small weights (no training needed to test arithmetic).
    pub(crate) fn varied(hidden: usize, seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut small = |range: u64| (rng.below(2 * range + 1) as i64 - range as i64) as i16;
        let weights = (0..super::super::FEATURES * hidden)
            .map(|_| small(300))
            .collect();
        let bias = (0..hidden).map(|_| small(300)).collect();
        let out = (0..2 * hidden).map(|_| small(127)).collect();
        Network::from_parts(hidden, weights, bias, out, 1000, 400).expect("in range")
    }

    #[test]
    fn incremental_sums_equal_a_refresh_along_random_games_and_back() {
        let net = Arc::new(varied(32, 7));
        let mut rng = SplitMix64::new(11);
        for game in 0..20 {
            let mut pos = Position::startpos();
            let mut inc = Incremental::new(Arc::clone(&net), &pos);
            let mut line = Vec::new();
            for _ in 0..(40 + game * 3) {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.index(moves.len())];
                let undo = pos.make_move(m);
                inc.make(&pos, m, undo.captured);
                line.push((m, undo));
                let fresh = Accumulators::refresh(&net, &pos);
                for color in Color::ALL {
                    assert_eq!(inc.sums(color), fresh.of(color));
                }
                assert_eq!(inc.evaluate(pos.side_to_move()), net.evaluate(&pos));
            }
            // Unmake every move: each earlier position's sums come back exactly.
            while let Some((m, undo)) = line.pop() {
                pos.unmake_move(m, undo);
                inc.unmake();
                assert_eq!(inc.evaluate(pos.side_to_move()), net.evaluate(&pos));
                assert_eq!(
                    inc.sums(Color::Red),
                    Accumulators::refresh(&net, &pos).of(Color::Red)
                );
            }
        }
    }

    #[test]
    fn the_evaluation_is_the_same_for_the_colour_swapped_turned_board() {
        let net = varied(16, 3);
        for fen in crate::bench::POSITIONS {
            let pos = Position::from_fen(fen).expect("sample");
            let turned = pos.color_flipped().mirrored();
            assert_eq!(net.evaluate(&pos), net.evaluate(&turned), "{fen}");
        }
    }
}
