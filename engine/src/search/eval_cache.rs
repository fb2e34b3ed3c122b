//! A cache of static evaluations by position key, for the evaluation levels that build
//! attack maps (3..6): transpositions, re-searches and quiescence nodes (which do not
//! probe the transposition table) evaluate the same positions again.
//!
//! The evaluation is a function of the pieces and the side to move alone, which the
//! Zobrist key stands for, so a cached score is the score: the search, and the bench's
//! node count, are the same with the cache as without it.

/// Slots of the cache: a power of two, 16 bytes each (1 MiB in all).
const SLOTS: usize = 1 << 16;

#[derive(Clone, Copy, Debug)]
struct Slot {
    key: u64,
    score: i32,
}

/// Direct-mapped: the low bits of the key choose the slot, a new score replaces the old.
/// (The transposition table indexes by the high bits, so the two do not collide alike.)
#[derive(Debug)]
pub struct EvalCache {
    slots: Box<[Slot]>,
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache {
            slots: (0..SLOTS).map(empty_slot).collect(),
        }
    }
}

/// An unused slot. Its key belongs to another slot (its lowest bit flipped), so no
/// position that looks here can match it: the cache needs no separate "filled" flag.
fn empty_slot(index: usize) -> Slot {
    Slot {
        key: (index ^ 1) as u64,
        score: 0,
    }
}

impl EvalCache {
    /// The score cached for `key`, or `evaluate()`, cached.
    #[inline]
    pub fn get_or_insert_with(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.slots[key as usize & (SLOTS - 1)];
        if slot.key != key {
            *slot = Slot {
                key,
                score: evaluate(),
            };
        }
        slot.score
    }

    /// Asks the CPU to start loading the slot of `key` (no effect on the result): a node
    /// the table does not know evaluates its position, and its slot is otherwise a cache
    /// miss.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const Slot = &self.slots[key as usize & (SLOTS - 1)];
            // Safety: a prefetch is only a hint: it reads nothing into the program and
            // cannot fault, and SSE (which provides it) is part of every x86-64 CPU.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    slot.cast(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Forgets every score (the evaluation changed).
    pub fn clear(&mut self) {
        for (index, slot) in self.slots.iter_mut().enumerate() {
            *slot = empty_slot(index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_is_computed_once_per_key_until_replaced_or_cleared() {
        let mut cache = EvalCache::default();
        let mut calls = 0;
        let mut eval = |cache: &mut EvalCache, key: u64, score: i32| {
            cache.get_or_insert_with(key, || {
                calls += 1;
                score
            })
        };
        assert_eq!(eval(&mut cache, 7, 50), 50);
        assert_eq!(eval(&mut cache, 7, 99), 50);
        // Same slot, other key: replaced.
        let rival = 7 + SLOTS as u64;
        assert_eq!(eval(&mut cache, rival, -3), -3);
        assert_eq!(eval(&mut cache, 7, 60), 60);
        cache.clear();
        assert_eq!(eval(&mut cache, 7, 70), 70);
        assert_eq!(calls, 4);
    }

    #[test]
    fn empty_slots_match_no_key_that_maps_to_them() {
        let mut cache = EvalCache::default();
        // Keys equal to the initial contents of slots 0 and 1 (each other's index).
        for key in [0u64, 1] {
            assert_eq!(cache.get_or_insert_with(key, || 123), 123);
        }
    }
}
