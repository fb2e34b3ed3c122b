//! The first layer's sums ("accumulators"): the hidden biases plus the columns of the
//! active features, one set per perspective (Red's and Black's).
//!
//! [`Incremental`] keeps them along the search's line: a move subtracts the moved
//! piece's old feature and a captured piece's, and adds the new one, in both
//! perspectives (3 or 4 columns); unmake returns to the copy below on the stack. A full
//! refresh is only needed at the root. Beside the sums it keeps the number of pieces on
//! the board, which chooses the output bucket and changes only on a capture. The sums use wrapping `i16` arithmetic: the
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
    /// Pieces on the board (the output bucket's key).
    pieces: usize,
}

impl Accumulators {
    /// The sums of a position, computed from scratch.
    #[must_use]
    pub fn refresh(net: &Network, pos: &Position) -> Accumulators {
        let mut sums = Vec::with_capacity(2 * net.hidden);
        let pieces = pos.occupied().iter().count();
        for perspective in Color::ALL {
            let mut acc = net.hidden_bias.clone();
            for sq in pos.occupied().iter() {
                if let Some(piece) = pos.piece_at(sq) {
                    add(&mut acc, net.column(feature_index(perspective, piece, sq)));
                }
            }
            sums.extend_from_slice(&acc);
        }
        Accumulators { sums, pieces }
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
        net.output(self.of(side), self.of(!side), self.pieces)
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
    /// The pieces on the board of each entry.
    pieces: Vec<u8>,
    top: usize,
}

impl Incremental {
    /// Sums for `net`, refreshed from `pos`.
    #[must_use]
    pub fn new(net: Arc<Network>, pos: &Position) -> Incremental {
        let mut inc = Incremental {
            stack: Vec::new(),
            pieces: Vec::new(),
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
        // One piece count per entry of the stack, so `grow` only writes one.
        self.pieces.resize(self.stack.len() / self.width(), 0);
        // At most 32 pieces: a byte holds it.
        self.pieces[0] = fresh.pieces as u8;
    }

    /// Room for the entry above the top, and its piece count: the top's less `taken`.
    #[inline]
    fn grow(&mut self, taken: bool) {
        let width = self.width();
        let start = self.top * width;
        if self.stack.len() < start + 2 * width {
            self.stack.resize(start + 2 * width, 0);
            self.pieces.resize(self.top + 2, 0);
        }
        self.pieces[self.top + 1] = self.pieces[self.top].saturating_sub(u8::from(taken));
    }

    /// Pushes the sums after `m`, which `after` is the position after (`captured` as the
    /// move's undo record gives it).
    #[inline]
    pub fn make(&mut self, after: &Position, m: Move, captured: Option<Piece>) {
        let Some(mover) = after.piece_at(m.to()) else {
            return self.push_copy();
        };
        self.grow(captured.is_some());
        let width = self.width();
        let hidden = self.net.hidden;
        let start = self.top * width;
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
        self.grow(false);
        let width = self.width();
        let start = self.top * width;
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
        let pieces = usize::from(self.pieces[self.top]);
        self.net.output(self.sums(side), self.sums(!side), pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::{Activation, NetworkParts};
    use crate::movegen::legal_moves;
    use crate::rng::SplitMix64;

    /// A network with varied small weights (no training needed to test arithmetic).
    pub(crate) fn varied(hidden: usize, seed: u64) -> Network {
        varied_with(hidden, seed, Activation::CRelu, 1)
    }

    /// The same with an activation and output buckets (each bucket its own weights).
    pub(crate) fn varied_with(
        hidden: usize,
        seed: u64,
        activation: Activation,
        buckets: usize,
    ) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut small = |range: u64| (rng.below(2 * range + 1) as i64 - range as i64) as i16;
        let feature_weights = (0..super::super::FEATURES * hidden)
            .map(|_| small(300))
            .collect();
        let hidden_bias = (0..hidden).map(|_| small(300)).collect();
        let output_weights = (0..buckets * 2 * hidden).map(|_| small(127)).collect();
        let output_bias = (0..buckets).map(|b| 1000 - 300 * b as i32).collect();
        Network::from_layers(NetworkParts {
            hidden,
            activation,
            buckets,
            feature_weights,
            hidden_bias,
            output_weights,
            output_bias,
            scale: 400,
        })
        .expect("in range")
    }

    #[test]
    fn incremental_sums_equal_a_refresh_along_random_games_and_back() {
        for net in [
            varied(32, 7),
            varied_with(32, 8, Activation::SCRelu, 8),
            varied_with(16, 9, Activation::CRelu, 5),
        ] {
            along_random_games(&Arc::new(net));
        }
    }

    /// A bucketed network evaluates a position with the bucket of its piece count: the
    /// same sums give other outputs under other piece counts.
    #[test]
    fn the_piece_count_chooses_the_bucket() {
        let net = varied_with(32, 4, Activation::SCRelu, 8);
        let pos = Position::startpos();
        let acc = Accumulators::refresh(&net, &pos);
        assert_eq!(acc.pieces, 32);
        let (us, them) = (acc.of(Color::Red), acc.of(Color::Black));
        assert_eq!(net.evaluate(&pos), net.output(us, them, 32));
        let outputs: Vec<i32> = (2..=32)
            .step_by(4)
            .map(|p| net.output(us, them, p))
            .collect();
        assert!(outputs.windows(2).all(|w| w[0] != w[1]), "{outputs:?}");
        assert_eq!(net.output(us, them, 29), net.output(us, them, 32));
    }

    fn along_random_games(net: &Arc<Network>) {
        let mut rng = SplitMix64::new(11);
        for game in 0..20 {
            let mut pos = Position::startpos();
            let mut inc = Incremental::new(Arc::clone(net), &pos);
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
                let fresh = Accumulators::refresh(net, &pos);
                for color in Color::ALL {
                    assert_eq!(inc.sums(color), fresh.of(color));
                }
                assert_eq!(usize::from(inc.pieces[inc.top]), fresh.pieces);
                assert_eq!(inc.evaluate(pos.side_to_move()), net.evaluate(&pos));
            }
            // Unmake every move: each earlier position's sums come back exactly.
            while let Some((m, undo)) = line.pop() {
                pos.unmake_move(m, undo);
                inc.unmake();
                assert_eq!(inc.evaluate(pos.side_to_move()), net.evaluate(&pos));
                assert_eq!(
                    inc.sums(Color::Red),
                    Accumulators::refresh(net, &pos).of(Color::Red)
                );
            }
        }
    }

    #[test]
    fn the_evaluation_is_the_same_for_the_colour_swapped_turned_board() {
        for net in [varied(16, 3), varied_with(16, 3, Activation::SCRelu, 8)] {
            for fen in crate::bench::POSITIONS {
                let pos = Position::from_fen(fen).expect("sample");
                let turned = pos.color_flipped().mirrored();
                assert_eq!(net.evaluate(&pos), net.evaluate(&turned), "{fen}");
            }
        }
    }
}
