//! The games of a run, in a fixed order: pair `p` is round `p / k` of pairing `p % k`
//! (with `k` pairings), so a run stopped early has played every pairing about equally.
//! Both games of a pair play the same opening, the pairing's first engine Red in game 0
//! and Black in game 1. The opening of a pair depends only on its round, so in a gauntlet
//! or round robin every pairing meets the same openings.

use super::finished::FinishedGames;

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Job {
    pub pair: u64,
    /// 0 or 1: which game of the pair.
    pub game: u8,
    pub pairing: usize,
    pub round: u64,
    /// Engine indices.
    pub red: usize,
    pub black: usize,
}

/// The games of a run in play order.
#[derive(Clone, Debug)]
pub struct Jobs {
    pairings: Vec<(usize, usize)>,
    pairs_per_pairing: u64,
}

impl Jobs {
    /// The games of `pairs_per_pairing` pairs of each pairing.
    #[must_use]
    pub fn new(pairings: Vec<(usize, usize)>, pairs_per_pairing: u64) -> Jobs {
        Jobs {
            pairings,
            pairs_per_pairing,
        }
    }

    /// Number of pairs in the run.
    #[must_use]
    pub fn total_pairs(&self) -> u64 {
        self.pairs_per_pairing * self.pairings.len() as u64
    }

    /// The job of a pair and game.
    #[must_use]
    pub fn job(&self, pair: u64, game: u8) -> Job {
        let k = self.pairings.len().max(1) as u64;
        let pairing = (pair % k) as usize;
        let (a, b) = self.pairings.get(pairing).copied().unwrap_or((0, 1));
        let (red, black) = if game == 0 { (a, b) } else { (b, a) };
        Job {
            pair,
            game,
            pairing,
            round: pair / k,
            red,
            black,
        }
    }

    /// Every game, in play order.
    pub fn iter(&self) -> impl Iterator<Item = Job> + '_ {
        (0..self.total_pairs()).flat_map(move |pair| [self.job(pair, 0), self.job(pair, 1)])
    }
}

/// The games of a run not finished yet, in play order, made one at a time as workers
/// take them (a run of any length costs no memory up front).
#[derive(Clone, Debug)]
pub struct Pending {
    jobs: Jobs,
    next: u64,
    skip: FinishedGames,
}

impl Pending {
    /// The games of `jobs` except those in `skip`.
    #[must_use]
    pub fn new(jobs: Jobs, skip: FinishedGames) -> Pending {
        Pending {
            jobs,
            next: 0,
            skip,
        }
    }

    /// Games left to hand out.
    #[must_use]
    pub fn remaining(&self) -> u64 {
        let total = self.jobs.total_pairs() * 2;
        let skipped = self
            .skip
            .iter()
            .filter(|&n| n >= self.next && n < total)
            .count();
        total.saturating_sub(self.next) - skipped as u64
    }
}

impl Iterator for Pending {
    type Item = Job;

    fn next(&mut self) -> Option<Job> {
        let total = self.jobs.total_pairs() * 2;
        while self.next < total {
            let number = self.next;
            self.next += 1;
            if !self.skip.contains(number) {
                return Some(self.jobs.job(number / 2, (number % 2) as u8));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_alternate_pairings_and_swap_colours() {
        let jobs = Jobs::new(vec![(0, 1), (0, 2)], 2);
        let all: Vec<Job> = jobs.iter().collect();
        assert_eq!(all.len(), 8);
        assert_eq!(
            (all[0].red, all[0].black, all[1].red, all[1].black),
            (0, 1, 1, 0)
        );
        assert_eq!((all[2].pairing, all[2].red, all[2].black), (1, 0, 2));
        assert_eq!((all[4].pair, all[4].round, all[4].pairing), (2, 1, 0));
    }

    #[test]
    fn pending_games_skip_the_finished_ones_in_play_order() {
        let jobs = Jobs::new(vec![(0, 1)], 3);
        let mut done = FinishedGames::default();
        for n in [0, 1, 3] {
            done.insert(n);
        }
        let pending = Pending::new(jobs.clone(), done);
        assert_eq!(pending.remaining(), 3);
        let left: Vec<(u64, u8)> = pending.map(|j| (j.pair, j.game)).collect();
        assert_eq!(left, vec![(1, 0), (2, 0), (2, 1)]);
        let all = Pending::new(jobs.clone(), FinishedGames::default());
        assert!(all.eq(jobs.iter()));
    }
}
