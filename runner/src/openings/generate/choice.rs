//! The random choices of the generator, all in integer arithmetic so that a seed
//! means the same file on every machine: per-line seeds, the line length, the
//! random candidate moves, and the temperature-weighted pick among scored moves.

use xq_core::rng::SplitMix64;

/// The increment of SplitMix64 (the golden ratio in 64 bits).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The weight of the best candidate; a candidate `T` units worse weighs half.
const FULL_WEIGHT: u64 = 1 << 40;

/// The seed of candidate line `index` of a run with `seed`: output `index + 1`
/// of SplitMix64 seeded with `seed`, computed directly. Every line has its own
/// generator, so a line does not depend on which worker made it or when.
#[must_use]
pub fn line_seed(seed: u64, index: u64) -> u64 {
    let state = seed.wrapping_add(index.wrapping_mul(GOLDEN));
    SplitMix64::new(state).next_u64()
}

/// A uniform number in `min..=max` (`min` when `max < min`).
pub fn uniform_in(rng: &mut SplitMix64, min: usize, max: usize) -> usize {
    if max <= min {
        return min;
    }
    let span = (max - min) as u64 + 1;
    min + rng.below(span) as usize
}

/// Picks `k` distinct items of `items` (all of them when there are fewer), in
/// the order drawn: a partial Fisher-Yates shuffle from the front.
pub fn pick_distinct<T: Copy>(rng: &mut SplitMix64, items: &[T], k: usize) -> Vec<T> {
    let mut pool = items.to_vec();
    let k = k.min(pool.len());
    for i in 0..k {
        let j = i + rng.below((pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(k);
    pool
}

/// The weight of a candidate `delta` units worse than the best one, when the
/// weight halves every `half_life` units: `2^(-delta / half_life)`, linear
/// between powers of two. `half_life` 0 gives all the weight to the best.
#[must_use]
pub fn weight(delta: u64, half_life: u64) -> u64 {
    if half_life == 0 {
        return if delta == 0 { FULL_WEIGHT } else { 0 };
    }
    let halvings = delta / half_life;
    if halvings >= 40 {
        return 0;
    }
    let high = FULL_WEIGHT >> halvings;
    let rest = u128::from(delta % half_life);
    // From `high` at the start of the interval down towards `high / 2` at its end.
    let drop = u128::from(high / 2) * rest / u128::from(half_life);
    high - drop as u64
}

/// Picks one of `values` (higher is better) with probability proportional to
/// [`weight`]`(best - value, half_life)`. `None` when `values` is empty.
///
/// For example, with half-life 20 a move 200 units worse than the best weighs 2^-10 of it.
pub fn pick_weighted(rng: &mut SplitMix64, values: &[i32], half_life: u64) -> Option<usize> {
    let best = *values.iter().max()?;
    let weights: Vec<u64> = values
        .iter()
        .map(|&v| weight(best.abs_diff(v).into(), half_life))
        .collect();
    // At most a few dozen candidates of at most 2^40 each: no overflow.
    let total: u64 = weights.iter().sum();
    let mut ticket = rng.below(total);
    for (i, &w) in weights.iter().enumerate() {
        if ticket < w {
            return Some(i);
        }
        ticket -= w;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_seeds_are_the_stream_of_the_run_seed() {
        let mut stream = SplitMix64::new(42);
        for index in 0..5 {
            assert_eq!(line_seed(42, index), stream.next_u64());
        }
        assert_ne!(line_seed(1, 0), line_seed(2, 0));
    }

    #[test]
    fn weights_halve_every_half_life() {
        assert_eq!(weight(0, 40), FULL_WEIGHT);
        assert_eq!(weight(40, 40), FULL_WEIGHT / 2);
        assert_eq!(weight(80, 40), FULL_WEIGHT / 4);
        assert_eq!(weight(20, 40), FULL_WEIGHT * 3 / 4);
        assert!(weight(39, 40) > weight(40, 40));
        assert_eq!(weight(40 * 40, 40), 0);
        assert_eq!(weight(u64::MAX, 1), 0);
        assert_eq!((weight(0, 0), weight(1, 0)), (FULL_WEIGHT, 0));
    }

    #[test]
    fn weighted_pick_follows_the_weights() {
        let mut rng = SplitMix64::new(3);
        let mut hits = [0u32; 3];
        for _ in 0..30_000 {
            let i = pick_weighted(&mut rng, &[0, -40, -80], 40).expect("non-empty");
            hits[i] += 1;
        }
        // Weights 4 : 2 : 1.
        assert!((16_000..18_300).contains(&hits[0]), "{hits:?}");
        assert!((7_800..9_400).contains(&hits[1]), "{hits:?}");
        assert!((3_800..4_800).contains(&hits[2]), "{hits:?}");
        assert_eq!(pick_weighted(&mut rng, &[], 40), None);
        assert_eq!(pick_weighted(&mut rng, &[5, 99_000, -99_000], 0), Some(1));
    }

    #[test]
    fn distinct_picks_and_uniform_lengths() {
        let mut rng = SplitMix64::new(9);
        let items: Vec<u32> = (0..10).collect();
        let picked = pick_distinct(&mut rng, &items, 4);
        assert_eq!(picked.len(), 4);
        let mut sorted = picked.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 4);
        assert_eq!(pick_distinct(&mut rng, &items[..2], 5).len(), 2);
        let mut seen = [false; 5];
        for _ in 0..200 {
            seen[uniform_in(&mut rng, 6, 10) - 6] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(uniform_in(&mut rng, 7, 7), 7);
    }
}
