//! The results of a run so far, rebuilt from the journal on resume: pair and game
//! counts per pairing, points between engines for the rating list, and faults per
//! engine. Its size depends on the engines and the games in flight, not on the number
//! of games played.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::finished::{game_number, FinishedGames};
use crate::game::{EndReason, Outcome};
use crate::output::journal::JournalEntry;
use crate::stats::{Outcome as Result3, ScoreTable, Tally};

/// Faults of one engine, by reason code.
pub type Faults = BTreeMap<String, u64>;

/// Counts of a run.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    /// Engine names, in config order.
    names: Vec<String>,
    /// Per pairing: counts from the pairing's first engine's view.
    tallies: Vec<Tally>,
    /// Game 0 of a pair whose game 1 has not finished (or the reverse): its score for
    /// the pairing's first engine.
    waiting: HashMap<u64, f64>,
    /// Points and games between every two engines (the rating list's input).
    pub scores: ScoreTable,
    pub faults: Vec<Faults>,
    pub reasons: BTreeMap<String, u64>,
    done: FinishedGames,
}

/// Outcome of a game for the pairing's first engine.
fn first_engine_score(outcome: Outcome, first_is_red: bool) -> f64 {
    let red = outcome.score_for(xq_core::board::Color::Red);
    if first_is_red {
        red
    } else {
        1.0 - red
    }
}

fn as_result(score: f64) -> Result3 {
    if score > 0.75 {
        Result3::Win
    } else if score < 0.25 {
        Result3::Loss
    } else {
        Result3::Draw
    }
}

impl Tracker {
    /// An empty record for these engines and this many pairings.
    #[must_use]
    pub fn new(names: Vec<String>, pairings: usize) -> Tracker {
        let engines = names.len();
        Tracker {
            names,
            tallies: vec![Tally::default(); pairings],
            scores: ScoreTable::new(engines),
            faults: vec![Faults::new(); engines],
            ..Tracker::default()
        }
    }

    /// Records a finished game of pairing `pairing` between engines `first` (Red in
    /// game 0) and `second`. Returns false for a game recorded before (a duplicate).
    pub fn record(
        &mut self,
        entry: &JournalEntry,
        pairing: usize,
        first: usize,
        second: usize,
    ) -> bool {
        if !self.done.insert(game_number(entry.pair, entry.game)) {
            return false;
        }
        let score = first_engine_score(entry.result, entry.game == 0);
        if first.max(second) < self.scores.engines() && first != second {
            self.scores.add(first, second, score);
        }
        *self
            .reasons
            .entry(entry.reason.code().to_owned())
            .or_default() += 1;
        if entry.reason.is_fault() {
            if let Some(name) = &entry.faulted {
                if let Some(index) = self.names.iter().position(|n| n == name) {
                    *self.faults[index]
                        .entry(entry.reason.code().to_owned())
                        .or_default() += 1;
                }
            }
        }
        let Some(tally) = self.tallies.get_mut(pairing) else {
            return true;
        };
        match self.waiting.remove(&entry.pair) {
            Some(other) => {
                let (first_game, second_game) = if entry.game == 0 {
                    (score, other)
                } else {
                    (other, score)
                };
                tally.add_pair(as_result(first_game), as_result(second_game));
            }
            None => {
                self.waiting.insert(entry.pair, score);
            }
        }
        true
    }

    /// The complete pairs of a pairing (plus nothing of its unpaired games).
    #[must_use]
    pub fn tally(&self, pairing: usize) -> Tally {
        self.tallies.get(pairing).copied().unwrap_or_default()
    }

    /// Games whose partner game is not finished, per pairing... counted as games only.
    #[must_use]
    pub fn unpaired(&self) -> usize {
        self.waiting.len()
    }

    /// Games recorded.
    #[must_use]
    pub fn games_done(&self) -> usize {
        self.done.len() as usize
    }

    /// The finished games.
    #[must_use]
    pub fn finished(&self) -> &FinishedGames {
        &self.done
    }

    /// Faults of an engine of one kind.
    #[must_use]
    pub fn fault_count(&self, engine: usize, reason: EndReason) -> u64 {
        self.faults
            .get(engine)
            .and_then(|f| f.get(reason.code()))
            .copied()
            .unwrap_or(0)
    }

    /// Engine names.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// A serializable view of the faults of every engine.
#[derive(Clone, Debug, Serialize)]
pub struct FaultTable(pub BTreeMap<String, Faults>);

impl Tracker {
    /// Faults by engine name.
    #[must_use]
    pub fn fault_table(&self) -> FaultTable {
        FaultTable(
            self.names
                .iter()
                .cloned()
                .zip(self.faults.iter().cloned())
                .collect(),
        )
    }
}
