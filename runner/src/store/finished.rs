//! Which games of a run have finished, in memory that does not grow with the run.
//!
//! Games are numbered `2 * pair + game` and finish nearly in that order (workers take
//! them in order; only the games in flight overtake each other). So the set is a low
//! watermark below which every game is done, plus the few finished games above it,
//! like the acknowledged window of a TCP stream. Its size follows the number of games
//! in flight, not the number played; only holes left by an interrupted run keep
//! games above the watermark until a resume plays them.

use std::collections::BTreeSet;

/// The finished games of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FinishedGames {
    /// Every game numbered below this has finished.
    below: u64,
    /// Finished games numbered above `below` (never `below` itself).
    above: BTreeSet<u64>,
}

/// The number of a game: the order games are scheduled in.
#[must_use]
pub fn game_number(pair: u64, game: u8) -> u64 {
    pair * 2 + u64::from(game)
}

impl FinishedGames {
    /// Whether a game has finished.
    #[must_use]
    pub fn contains(&self, number: u64) -> bool {
        number < self.below || self.above.contains(&number)
    }

    /// Marks a game finished; false if it already was.
    pub fn insert(&mut self, number: u64) -> bool {
        if self.contains(number) {
            return false;
        }
        if number == self.below {
            self.below += 1;
            while self.above.remove(&self.below) {
                self.below += 1;
            }
        } else {
            self.above.insert(number);
        }
        true
    }

    /// Number of finished games.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.below + self.above.len() as u64
    }

    /// Whether no game has finished.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Finished games held individually (above the watermark): what the set costs.
    #[must_use]
    pub fn held(&self) -> usize {
        self.above.len()
    }

    /// The finished games, in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.below).chain(self.above.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_order_games_hold_nothing() {
        let mut done = FinishedGames::default();
        for n in 0..10_000 {
            assert!(done.insert(n));
        }
        assert_eq!((done.len(), done.held()), (10_000, 0));
        assert!(done.contains(9_999) && !done.contains(10_000));
    }

    #[test]
    fn games_overtaking_each_other_are_held_until_the_gap_closes() {
        let mut done = FinishedGames::default();
        for n in [1, 3, 2] {
            assert!(done.insert(n));
        }
        assert_eq!(done.held(), 3);
        assert!(!done.contains(0) && done.contains(2));
        assert!(done.insert(0));
        assert_eq!((done.len(), done.held()), (4, 0));
        assert_eq!(done.iter().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    }

    #[test]
    fn a_game_is_recorded_once() {
        let mut done = FinishedGames::default();
        assert!(done.insert(5));
        assert!(!done.insert(5));
        assert!(done.insert(0));
        assert!(!done.insert(0));
        assert_eq!(done.len(), 2);
    }

    #[test]
    fn holes_keep_later_games_listed_in_order() {
        let mut done = FinishedGames::default();
        for n in [0, 1, 4, 6, 5] {
            done.insert(n);
        }
        assert_eq!(done.iter().collect::<Vec<_>>(), vec![0, 1, 4, 5, 6]);
        assert!(!done.contains(2) && !done.contains(3));
    }
}
