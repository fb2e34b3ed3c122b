//! The transposition table: clusters of four 16-byte entries, one cache line each.
//!
//! Replacement keeps the deeper and the newer: a new result replaces the entry of the
//! same position, else the entry of the cluster with the lowest `depth - TT_AGE_WEIGHT *
//! age`, where age counts searches since the entry was written (see `params.rs`).

use super::params::{TT_AGE_WEIGHT, TT_KEEP_DEEPER_MARGIN};
use super::table_memory::PagedArray;
use crate::board::Move;

/// What a stored score means relative to the window it was found with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (fail low).
    Upper = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in bits 0-1, generation in bits 2-7.
    gen_bound: u8,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub mv: Option<Move>,
    /// Score in "plies from this node" form (see `score::from_tt`).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
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
        self.generation = (self.generation + 1) & 63;
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
            .find(|e| e.key == key && e.gen_bound & 3 != 0)?;
        let bound = match entry.gen_bound & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Hit {
            mv: Move::from_bits(entry.mv),
            score: i32::from(entry.score),
            eval: i32::from(entry.eval),
            depth: i32::from(entry.depth),
            bound,
        })
    }

    /// Stores a result. `score` must already be in table form (`score::to_tt`).
    #[inline(always)]
    pub fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation;
        let index = self.index(key);
        let cluster = &mut self.clusters[index];
        let age = |e: &Entry| i32::from((generation.wrapping_sub(e.gen_bound >> 2)) & 63);
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
        // Keep a deeper result of the same position unless the new one is exact or the old is stale.
        if old.key == key
            && bound != Bound::Exact
            && depth + TT_KEEP_DEEPER_MARGIN < i32::from(old.depth)
            && age(&old) == 0
        {
            return;
        }
        let mv_bits = match mv {
            Some(m) => m.bits(),
            None if old.key == key => old.mv,
            None => 0,
        };
        cluster.entries[slot] = Entry {
            key,
            mv: mv_bits,
            score: score.clamp(-32_000, 32_000) as i16,
            eval: eval.clamp(-32_000, 32_000) as i16,
            depth: depth.clamp(0, 255) as u8,
            gen_bound: generation << 2 | bound as u8,
        };
    }

    /// Permille of the first thousand entries written in this search (for `hashfull`).
    #[must_use]
    pub fn hashfull(&self) -> usize {
        self.clusters
            .iter()
            .take(250)
            .flat_map(|c| c.entries.iter())
            .filter(|e| e.gen_bound & 3 != 0 && e.gen_bound >> 2 == self.generation)
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
        tt.store(42, m, 17, 5, 6, Bound::Exact);
        let hit = tt.probe(42).expect("stored");
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (m, 17, 5, 6, Bound::Exact)
        );
        assert!(tt.probe(43).is_none());
        tt.clear();
        assert!(tt.probe(42).is_none());
    }
}
