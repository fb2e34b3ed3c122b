//! The transposition table: clusters of four 16-byte entries, one cache line each.
//!
//! An entry holds a search result (move, score, bound, depth), the node's static
//! evaluation, and whether the node was on a principal variation. A node writes its static
//! evaluation as soon as it has computed it (depth [`DEPTH_UNSEARCHED`], no bound), so that
//! a node that ends without a result (reverse futility, the null move, ProbCut) still saves
//! the evaluation for the next visit; the quiescence search stores its results at
//! [`DEPTH_QUIESCENCE`].
//!
//! Replacement keeps the deeper and the newer: a new result replaces the entry of the
//! same position, else the entry of the cluster with the lowest `depth - TT_AGE_WEIGHT *
//! age`, where age counts searches since the entry was written (see `params.rs`).

use super::params::{TT_AGE_WEIGHT, TT_KEEP_DEEPER_MARGIN};
use super::table_memory::PagedArray;
use crate::board::Move;

/// The depth of a quiescence search's result.
pub const DEPTH_QUIESCENCE: i32 = 0;
/// The depth of an entry that holds only a static evaluation (its bound is
/// [`Bound::None`]).
pub const DEPTH_UNSEARCHED: i32 = -1;
/// An entry's depth byte is `depth - DEPTH_BYTE_OFFSET`: 0 marks an empty slot, and every
/// depth from [`DEPTH_UNSEARCHED`] up is at least 1.
const DEPTH_BYTE_OFFSET: i32 = DEPTH_UNSEARCHED - 1;
/// Generations wrap at this count (five bits of the flags byte).
const GENERATIONS: u8 = 32;

/// What a stored score means relative to the window it was found with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No score: the entry holds only the static evaluation.
    None = 0,
    /// The true score is at most this (fail low).
    Upper = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound settles the window `alpha..beta` (the
    /// true score is outside it, or exactly known).
    #[must_use]
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }

    /// Whether a stored `score` with this bound says the true score is at least (when
    /// `above`) or at most `value`: a score above the static evaluation from a lower bound,
    /// or below it from an upper bound, is a better estimate than the evaluation.
    #[must_use]
    #[inline]
    pub fn bounds_from(self, above: bool) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => above,
            Bound::Upper => !above,
            Bound::None => false,
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    /// `depth - DEPTH_BYTE_OFFSET`; 0 when the slot is empty.
    depth: u8,
    /// Bound in bits 0-1, the principal-variation flag in bit 2, generation in bits 3-7.
    flags: u8,
}

impl Entry {
    #[inline]
    fn depth(&self) -> i32 {
        i32::from(self.depth) + DEPTH_BYTE_OFFSET
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.flags >> 3
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub mv: Option<Move>,
    /// Score in "plies from this node" form (see `score::from_tt`); meaningless when the
    /// bound is [`Bound::None`].
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The node was on a principal variation when it was stored.
    pub pv: bool,
}

#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Cluster {
    entries: [Entry; 4],
}

/// The transposition table.
#[derive(Debug)]
pub struct TranspositionTable {
    clusters: PagedArray<Cluster>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one cluster).
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable {
        let count = (megabytes.max(1) << 20) / size_of::<Cluster>();
        TranspositionTable {
            clusters: PagedArray::new(count),
            generation: 0,
        }
    }

    /// Size in MiB.
    #[must_use]
    pub fn megabytes(&self) -> usize {
        (self.clusters.len() * size_of::<Cluster>()) >> 20
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.clusters.fill(Cluster::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries age.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key uniformly onto any table size.
        ((u128::from(key) * self.clusters.len() as u128) >> 64) as usize
    }

    /// Asks the CPU to start loading the cluster of `key` (no effect on the result). The
    /// probe of a child node is otherwise a cache miss on most new positions.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let cluster: *const Cluster = &self.clusters[self.index(key)];
            // Safety: a prefetch is only a hint: it reads nothing into the program and
            // cannot fault, and SSE (which provides it) is part of every x86-64 CPU.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    cluster.cast(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a position up.
    #[must_use]
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let cluster = &self.clusters[self.index(key)];
        let entry = cluster
            .entries
            .iter()
            .find(|e| e.key == key && e.depth != 0)?;
        let bound = match entry.flags & 3 {
            0 => Bound::None,
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Hit {
            mv: Move::from_bits(entry.mv),
            score: i32::from(entry.score),
            eval: i32::from(entry.eval),
            depth: entry.depth(),
            bound,
            pv: entry.flags & 4 != 0,
        })
    }

    /// Stores a result. `score` must already be in table form (`score::to_tt`); `depth`
    /// is at least [`DEPTH_UNSEARCHED`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let generation = self.generation;
        let index = self.index(key);
        let cluster = &mut self.clusters[index];
        let age = |e: &Entry| i32::from(generation.wrapping_sub(e.generation()) % GENERATIONS);
        let slot = match cluster.entries.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => {
                let worth = |e: &Entry| i32::from(e.depth) - TT_AGE_WEIGHT * age(e);
                let mut best = 0;
                for i in 1..4 {
                    if worth(&cluster.entries[i]) < worth(&cluster.entries[best]) {
                        best = i;
                    }
                }
                best
            }
        };
        let old = cluster.entries[slot];
        let same = old.key == key && old.depth != 0;
        // An evaluation alone never replaces anything stored for its position.
        if same && bound == Bound::None {
            return;
        }
        // Keep a deeper result of the same position unless the new one is exact or the
        // old is stale; a principal variation's result counts two plies deeper.
        if same
            && bound != Bound::Exact
            && depth + 2 * i32::from(pv) + TT_KEEP_DEEPER_MARGIN < old.depth()
            && age(&old) == 0
        {
            return;
        }
        let mv_bits = match mv {
            Some(m) => m.bits(),
            None if same => old.mv,
            None => 0,
        };
        cluster.entries[slot] = Entry {
            key,
            mv: mv_bits,
            score: score.clamp(-32_000, 32_000) as i16,
            eval: eval.clamp(-32_000, 32_000) as i16,
            depth: (depth - DEPTH_BYTE_OFFSET).clamp(1, 255) as u8,
            flags: generation << 3 | u8::from(pv) << 2 | bound as u8,
        };
    }

    /// Permille of the first thousand entries written in this search (for `hashfull`).
    #[must_use]
    pub fn hashfull(&self) -> usize {
        self.clusters
            .iter()
            .take(250)
            .flat_map(|c| c.entries.iter())
            .filter(|e| e.depth != 0 && e.generation() == self.generation)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(size_of::<Cluster>(), 64);
        let m = Move::parse("h2e2").ok();
        tt.store(42, m, 17, 5, 6, Bound::Exact, true);
        let hit = tt.probe(42).expect("stored");
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound, hit.pv),
            (m, 17, 5, 6, Bound::Exact, true)
        );
        assert!(tt.probe(43).is_none());
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn an_evaluation_alone_is_found_and_keeps_the_move_of_an_earlier_result() {
        let mut tt = TranspositionTable::new(1);
        tt.store(7, None, 0, -40, DEPTH_UNSEARCHED, Bound::None, false);
        let hit = tt.probe(7).expect("stored");
        assert_eq!(
            (hit.eval, hit.depth, hit.bound),
            (-40, DEPTH_UNSEARCHED, Bound::None)
        );
        let m = Move::parse("b0c2").ok();
        tt.store(7, m, 12, -40, DEPTH_QUIESCENCE, Bound::Lower, false);
        tt.store(7, None, 0, -40, DEPTH_UNSEARCHED, Bound::None, false);
        // The evaluation alone is dropped: the result stays.
        let hit = tt.probe(7).expect("stored");
        assert_eq!((hit.mv, hit.bound), (m, Bound::Lower));
    }

    #[test]
    fn bounds_settle_windows_as_their_meaning_says() {
        assert!(Bound::Lower.settles(50, 0, 40));
        assert!(!Bound::Lower.settles(30, 0, 40));
        assert!(Bound::Upper.settles(-5, 0, 40));
        assert!(!Bound::None.settles(0, 0, 40));
        assert!(Bound::Lower.bounds_from(true) && !Bound::Lower.bounds_from(false));
    }
}
