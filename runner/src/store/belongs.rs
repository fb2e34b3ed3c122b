//! Whether a journal line is one of this run's games. A resume rebuilds the counts from
//! the journal alone, so a line that does not fit the run (edited by hand, copied from
//! another run's folder, doubled) would otherwise be counted as if played here: a game
//! number of 2 would stand in for the next pair's first game, another run's engines
//! would score for this run's. A line fits when its pair and game are in the run (and in
//! the folder's shard), its engines are those the schedule puts on Red and Black there,
//! its opening is the one the run plays for that pair, and no earlier line holds the
//! same game.

use thiserror::Error;

use super::finished::{game_number, FinishedGames};
use super::journal::JournalEntry;
use super::layout::{Job, Jobs};
use super::meta::Shard;
use crate::openings::OpeningSequence;

/// Why a journal line is not one of this run's games. Pair and game numbers are those
/// the line writes (0-based), so that the line can be found by them.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Foreign {
    #[error("game {game} of pair {pair}: a pair has games 0 and 1 only")]
    Game { pair: u64, game: u8 },
    #[error("pair {pair} is beyond the run's {pairs} pairs: a run can be extended (more --pairs), not shortened")]
    Beyond { pair: u64, pairs: u64 },
    #[error("pair {pair} is not in shard {shard}, which this folder plays")]
    Shard { pair: u64, shard: Shard },
    #[error("pair {pair} game {game} is `{red}` against `{black}`; this run plays `{want_red}` against `{want_black}` there")]
    Engines {
        pair: u64,
        game: u8,
        red: String,
        black: String,
        want_red: String,
        want_black: String,
    },
    #[error("pair {pair} game {game} faulted `{name}`, which is not one of its engines")]
    Faulted { pair: u64, game: u8, name: String },
    #[error("pair {pair} game {game} played opening {found}; this run plays opening {want} there")]
    Opening {
        pair: u64,
        game: u8,
        found: OpeningIndex,
        want: OpeningIndex,
    },
    #[error("pair {pair} game {game} is on an earlier line too (a game is recorded once)")]
    Twice { pair: u64, game: u8 },
}

/// An opening index as a line holds it: `null` for the start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningIndex(pub Option<usize>);

impl std::fmt::Display for OpeningIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(i) => write!(f, "{i}"),
            None => f.write_str("null (the start position)"),
        }
    }
}

/// What a run's games are: the layout of its pairs, its engines' names, the folder's
/// shard and the openings' schedule.
#[derive(Clone, Copy, Debug)]
pub struct RunGames<'a> {
    pub jobs: &'a Jobs,
    /// Engine names, in config order.
    pub names: &'a [String],
    pub shard: Option<Shard>,
    pub openings: Openings<'a>,
}

/// Which opening each round plays, as far as the check knows it.
#[derive(Clone, Copy, Debug)]
pub enum Openings<'a> {
    /// A run without an opening file: every game starts from the start position.
    StartPosition,
    /// The run's schedule of openings.
    Schedule(&'a OpeningSequence),
    /// The run's opening file is not here as the run played it (a report of a copied
    /// folder): the openings are not checked.
    Unknown,
}

impl<'a> From<Option<&'a OpeningSequence>> for Openings<'a> {
    fn from(schedule: Option<&'a OpeningSequence>) -> Self {
        schedule.map_or(Self::StartPosition, Self::Schedule)
    }
}

impl RunGames<'_> {
    /// The job of `entry` when it is one of the run's games and not in `finished` yet.
    ///
    /// # Errors
    /// [`Foreign`]: the first way the line does not fit.
    pub fn check(&self, entry: &JournalEntry, finished: &FinishedGames) -> Result<Job, Foreign> {
        let (pair, game) = (entry.pair, entry.game);
        if game > 1 {
            return Err(Foreign::Game { pair, game });
        }
        let pairs = self.jobs.total_pairs();
        if pair >= pairs {
            return Err(Foreign::Beyond { pair, pairs });
        }
        if let Some(shard) = self.shard {
            if pair % shard.count.max(1) != shard.index.saturating_sub(1) {
                return Err(Foreign::Shard { pair, shard });
            }
        }
        let job = self.jobs.job(pair, game);
        let name = |i: usize| self.names.get(i).map_or("", String::as_str);
        let (want_red, want_black) = (name(job.red), name(job.black));
        if entry.red != want_red || entry.black != want_black {
            return Err(Foreign::Engines {
                pair,
                game,
                red: entry.red.clone(),
                black: entry.black.clone(),
                want_red: want_red.to_owned(),
                want_black: want_black.to_owned(),
            });
        }
        if let Some(faulted) = &entry.faulted {
            if *faulted != entry.red && *faulted != entry.black {
                return Err(Foreign::Faulted {
                    pair,
                    game,
                    name: faulted.clone(),
                });
            }
        }
        let want = match self.openings {
            Openings::StartPosition => Some(None),
            Openings::Schedule(schedule) => Some(Some(schedule.index(job.round))),
            Openings::Unknown => None,
        };
        if let Some(want) = want.filter(|want| entry.opening != *want) {
            return Err(Foreign::Opening {
                pair,
                game,
                found: OpeningIndex(entry.opening),
                want: OpeningIndex(want),
            });
        }
        if finished.contains(game_number(pair, game)) {
            return Err(Foreign::Twice { pair, game });
        }
        Ok(job)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::openings::Order;

    fn names() -> Vec<String> {
        vec!["a".to_owned(), "b".to_owned()]
    }

    /// `JournalEntry::sample` plays `a` against `b` from the start position.
    fn line(pair: u64, game: u8) -> JournalEntry {
        JournalEntry::sample(pair, game, Outcome::Draw)
    }

    #[test]
    fn every_way_a_line_can_miss_the_run_is_named() {
        let jobs = Jobs::new(vec![(0, 1)], 10);
        let names = names();
        let run = RunGames {
            jobs: &jobs,
            names: &names,
            shard: None,
            openings: Openings::StartPosition,
        };
        let none = FinishedGames::default();
        assert_eq!(run.check(&line(9, 1), &none).map(|j| j.pair), Ok(9));
        assert_eq!(
            run.check(&line(9, 2), &none),
            Err(Foreign::Game { pair: 9, game: 2 })
        );
        assert_eq!(
            run.check(&line(u64::MAX, 0), &none),
            Err(Foreign::Beyond {
                pair: u64::MAX,
                pairs: 10
            })
        );
        let swapped = JournalEntry {
            red: "b".to_owned(),
            black: "a".to_owned(),
            ..line(3, 0)
        };
        assert!(matches!(
            run.check(&swapped, &none),
            Err(Foreign::Engines {
                pair: 3,
                game: 0,
                ..
            })
        ));
        let other = JournalEntry {
            red: "stranger".to_owned(),
            ..line(3, 0)
        };
        assert!(run.check(&other, &none).is_err());
        let faulted = JournalEntry {
            faulted: Some("c".to_owned()),
            ..line(3, 0)
        };
        assert!(matches!(
            run.check(&faulted, &none),
            Err(Foreign::Faulted { .. })
        ));
        let with_opening = JournalEntry {
            opening: Some(0),
            ..line(3, 0)
        };
        assert!(matches!(
            run.check(&with_opening, &none),
            Err(Foreign::Opening { .. })
        ));
        let mut done = FinishedGames::default();
        done.insert(game_number(3, 1));
        assert_eq!(
            run.check(&line(3, 1), &done),
            Err(Foreign::Twice { pair: 3, game: 1 })
        );
    }

    #[test]
    fn openings_and_shards_are_those_of_the_pair() {
        let jobs = Jobs::new(vec![(0, 1)], 10);
        let names = names();
        let schedule = OpeningSequence::new(4, Order::Sequential, 0, 1);
        let run = RunGames {
            jobs: &jobs,
            names: &names,
            shard: Some(Shard { index: 2, count: 3 }),
            openings: Openings::Schedule(&schedule),
        };
        let none = FinishedGames::default();
        // Pair 4 is round 4: opening (1 + 4) mod 4 = 1; it is in shard 2/3 (4 mod 3 = 1).
        let at = |pair, opening| JournalEntry {
            opening,
            ..line(pair, 1)
        };
        assert!(run.check(&at(4, Some(1)), &none).is_ok());
        let wrong = run.check(&at(4, Some(2)), &none).map(|_| ());
        assert_eq!(
            wrong.map_err(|e| e.to_string()),
            Err("pair 4 game 1 played opening 2; this run plays opening 1 there".to_owned())
        );
        assert!(run.check(&at(4, None), &none).is_err());
        assert_eq!(
            run.check(&at(3, Some(0)), &none),
            Err(Foreign::Shard {
                pair: 3,
                shard: Shard { index: 2, count: 3 }
            })
        );
    }
}
