//! Output buckets: the output layer has one set of weights and a bias per bucket, and a
//! position's bucket is chosen by the number of pieces on the board (kings included,
//! 2..=32).
//!
//! Why the piece count rather than non-pawn material: it is the same for both
//! perspectives, it changes only on a capture (Xiangqi has no promotion), so the
//! incremental sums carry it for the cost of one byte a ply, and it needs no table of
//! piece values that a later change could make disagree between the trainer and the
//! engine. Pawns count as pieces: in Xiangqi a crossed pawn is a real attacker and the
//! endgames turn on them. With 8 buckets a bucket spans 4 piece counts, as in the
//! chess engines that introduced the idea: `(pieces - 1) / 4`.

/// The most buckets a network may have.
pub const MAX_BUCKETS: usize = 16;
/// The most pieces on a board.
pub const MAX_PIECES: usize = 32;

/// The bucket of a position with `pieces` pieces, for a network of `buckets` buckets:
/// the piece counts `1..=32` cut into `buckets` equal spans, the fewest pieces first.
/// One bucket is today's single output.
#[must_use]
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    let pieces = pieces.clamp(1, MAX_PIECES);
    ((pieces - 1) * buckets / MAX_PIECES).min(buckets.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_buckets_span_four_piece_counts_each() {
        assert_eq!(output_bucket(32, 8), 7);
        assert_eq!(output_bucket(29, 8), 7);
        assert_eq!(output_bucket(28, 8), 6);
        assert_eq!(output_bucket(5, 8), 1);
        assert_eq!(output_bucket(4, 8), 0);
        assert_eq!(output_bucket(2, 8), 0);
    }

    #[test]
    fn every_count_has_a_bucket_in_range_and_one_bucket_is_always_zero() {
        for buckets in 1..=MAX_BUCKETS {
            let mut last = 0;
            for pieces in 0..=40 {
                let b = output_bucket(pieces, buckets);
                assert!(
                    b < buckets && b >= last,
                    "{pieces} pieces, {buckets} buckets"
                );
                last = b;
            }
            assert_eq!(output_bucket(32, buckets), buckets - 1);
        }
        assert!((0..=32).all(|p| output_bucket(p, 1) == 0));
    }
}
