//! The layout of a run: its pairs and games in a fixed order. Pair `p` is round `p / k`
//! of pairing `p % k` (with `k` pairings), so a run stopped early has played every
//! pairing about equally.
//! Both games of a pair play the same opening, the pairing's first engine Red in game 0
//! and Black in game 1. The opening of a pair depends only on its round, so in a gauntlet
//! or round robin every pairing meets the same openings.

use super::finished::{game_number, FinishedGames};

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

/// A pair to play: its number and which of its two games are still to be played (both,
/// except for a pair half played before an interruption).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PairJob {
    pub pair: u64,
    pub todo: [bool; 2],
}

impl PairJob {
    /// The games of the pair still to play, in order.
    pub fn games(self, jobs: &Jobs) -> impl Iterator<Item = Job> + '_ {
        (0..2u8)
            .filter(move |&g| self.todo[usize::from(g)])
            .map(move |g| jobs.job(self.pair, g))
    }
}

/// The pairs of a run not finished yet, in play order, made one at a time as workers
/// take them (a run of any length costs no memory up front). The pair is the unit of
/// work: both games of a pair are played by one worker, one after the other.
#[derive(Clone, Debug)]
pub struct Pending {
    next: u64,
    end: u64,
    step: u64,
    skip: FinishedGames,
}

impl Pending {
    /// The pairs of `jobs` with a game not in `skip`.
    #[must_use]
    pub fn new(jobs: &Jobs, skip: FinishedGames) -> Pending {
        Pending {
            next: 0,
            end: jobs.total_pairs(),
            step: 1,
            skip,
        }
    }

    /// Only the pairs `first..first + count` (a batch of a distributed run).
    #[must_use]
    pub fn within(mut self, first: u64, count: u64) -> Pending {
        self.next = self.next.max(first);
        self.end = self.end.min(first.saturating_add(count));
        self
    }

    /// Only shard `index` of `shards` (0-based): the pairs whose number is `index`
    /// modulo `shards`.
    #[must_use]
    pub fn shard(mut self, index: u64, shards: u64) -> Pending {
        let shards = shards.max(1);
        self.step = shards;
        let offset = (index % shards + shards - self.next % shards) % shards;
        self.next += offset;
        self
    }

    fn todo(&self, pair: u64) -> [bool; 2] {
        [0, 1].map(|g| !self.skip.contains(game_number(pair, g)))
    }

    /// Pairs left to hand out.
    #[must_use]
    pub fn remaining(&self) -> u64 {
        self.clone().count() as u64
    }

    /// Games left to play in the pairs left.
    #[must_use]
    pub fn remaining_games(&self) -> u64 {
        self.clone()
            .map(|p| p.todo.iter().filter(|&&t| t).count() as u64)
            .sum()
    }
}

impl Iterator for Pending {
    type Item = PairJob;

    fn next(&mut self) -> Option<PairJob> {
        while self.next < self.end {
            let pair = self.next;
            self.next += self.step;
            let todo = self.todo(pair);
            if todo != [false, false] {
                return Some(PairJob { pair, todo });
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
    fn pending_pairs_skip_the_finished_ones_and_keep_half_played_pairs() {
        let jobs = Jobs::new(vec![(0, 1)], 3);
        let mut done = FinishedGames::default();
        for n in [0, 1, 3] {
            done.insert(n);
        }
        let pending = Pending::new(&jobs, done);
        assert_eq!((pending.remaining(), pending.remaining_games()), (2, 3));
        let left: Vec<PairJob> = pending.collect();
        assert_eq!(
            left,
            vec![
                PairJob {
                    pair: 1,
                    todo: [true, false]
                },
                PairJob {
                    pair: 2,
                    todo: [true, true]
                },
            ]
        );
        let games: Vec<(u64, u8)> = left[0].games(&jobs).map(|j| (j.pair, j.game)).collect();
        assert_eq!(games, vec![(1, 0)]);
        let all: Vec<Job> = Pending::new(&jobs, FinishedGames::default())
            .flat_map(|p| p.games(&jobs).collect::<Vec<_>>())
            .collect();
        assert!(all.into_iter().eq(jobs.iter()));
    }

    #[test]
    fn batches_and_shards_take_their_own_pairs() {
        let jobs = Jobs::new(vec![(0, 1)], 10);
        let pairs = |p: Pending| p.map(|j| j.pair).collect::<Vec<_>>();
        let all = || Pending::new(&jobs, FinishedGames::default());
        assert_eq!(pairs(all().within(4, 3)), vec![4, 5, 6]);
        assert_eq!(pairs(all().within(8, 5)), vec![8, 9]);
        assert_eq!(pairs(all().shard(0, 3)), vec![0, 3, 6, 9]);
        assert_eq!(pairs(all().shard(2, 3)), vec![2, 5, 8]);
        assert_eq!(pairs(all().within(4, 5).shard(1, 3)), vec![4, 7]);
    }
}
