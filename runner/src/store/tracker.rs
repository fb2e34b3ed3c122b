//! The results of a run so far, rebuilt from the journal on resume: pair and game
//! counts per pairing, points between engines for the rating list, and faults per
//! engine. Its size depends on the engines and the games in flight, not on the number
//! of games played.
//!
//! The pair is the unit of the statistics: a game is counted (in the pentanomial and
//! game counts, the reasons and the rating list) once its partner game has finished
//! too. A game whose partner was not played (an interrupted run) is held apart,
//! reported as such once ([`Tracker::unpaired`]), and counted when a resume plays its
//! partner. Faults and moves over the clock are events, not estimates: they are taken
//! from every game as it ends ([`Tracker::live_fault_count`], [`Tracker::fault_table`]),
//! since an engine that crashes must stop the run at once, and the outputs must then
//! show the crash that stopped it.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::finished::{game_number, FinishedGames};
use super::journal::JournalEntry;
use crate::game::{EndReason, Outcome, OverClock};
use crate::stats::{ScoreTable, Tally, WinDrawLoss};

/// Faults of one engine, by reason code.
pub type FaultsByReason = BTreeMap<String, u64>;

/// What the counts take from a finished game: a journal entry, or the facts the
/// database keeps of a stored game (`store/pg`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFacts {
    pub pair: u64,
    pub game: u8,
    pub result: Outcome,
    pub reason: EndReason,
    /// The engine that faulted, by name.
    pub faulted: Option<String>,
    /// Red's and Black's moves over the clock.
    pub over_clock: [OverClock; 2],
}

impl GameFacts {
    /// The facts of a journal entry.
    #[must_use]
    pub fn of(entry: &JournalEntry) -> GameFacts {
        GameFacts {
            pair: entry.pair,
            game: entry.game,
            result: entry.result,
            reason: entry.reason,
            faulted: entry.faulted.clone(),
            over_clock: entry.over_clock,
        }
    }
}

/// An engine's moves over its clock in every game recorded: how many games it played,
/// how many of its moves took longer than the time left, and the time beyond.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OverClockTotal {
    pub games: u64,
    pub moves: u64,
    pub ms: u64,
}

impl OverClockTotal {
    fn add(&mut self, game: OverClock) {
        self.games += 1;
        self.moves += u64::from(game.moves);
        self.ms = self.ms.saturating_add(game.ms);
    }
}

/// What a game contributes to the counts once its pair is complete.
#[derive(Clone, Debug)]
struct Counted {
    /// Points of the pairing's first engine.
    score: f64,
    reason: EndReason,
    /// Index of the engine that faulted, if the game ended by a fault.
    faulted: Option<usize>,
}

/// Counts of a run.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    /// Engine names, in config order.
    names: Vec<String>,
    /// Per pairing: counts from the pairing's first engine's view.
    tallies: Vec<Tally>,
    /// Game 0 of a pair whose game 1 has not finished (or the reverse).
    waiting: HashMap<u64, Counted>,
    /// Points and games between every two engines (the rating list's input).
    pub scores: ScoreTable,
    /// Faults per engine in the counted games.
    pub faults: Vec<FaultsByReason>,
    /// End reasons of the counted games.
    pub reasons: BTreeMap<String, u64>,
    /// Faults per engine in every game recorded, paired or not: what the fault limits
    /// and the outputs count, so that a fault that stopped a run is never hidden.
    live_faults: Vec<FaultsByReason>,
    /// Moves over the clock per engine, in every game recorded.
    pub over_clock: Vec<OverClockTotal>,
    /// Every game recorded, paired or not.
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

fn as_result(score: f64) -> WinDrawLoss {
    if score > 0.75 {
        WinDrawLoss::Win
    } else if score < 0.25 {
        WinDrawLoss::Loss
    } else {
        WinDrawLoss::Draw
    }
}

fn add_fault(faults: &mut [FaultsByReason], engine: Option<usize>, reason: EndReason) {
    if let Some(f) = engine.and_then(|i| faults.get_mut(i)) {
        *f.entry(reason.code().to_owned()).or_default() += 1;
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
            faults: vec![FaultsByReason::new(); engines],
            live_faults: vec![FaultsByReason::new(); engines],
            over_clock: vec![OverClockTotal::default(); engines],
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
        self.record_facts(&GameFacts::of(entry), pairing, first, second)
    }

    /// As [`Tracker::record`], from the facts of a game.
    pub fn record_facts(
        &mut self,
        entry: &GameFacts,
        pairing: usize,
        first: usize,
        second: usize,
    ) -> bool {
        if !self.done.insert(game_number(entry.pair, entry.game)) {
            return false;
        }
        let faulted = if entry.reason.is_fault() {
            entry
                .faulted
                .as_ref()
                .and_then(|name| self.names.iter().position(|n| n == name))
        } else {
            None
        };
        add_fault(&mut self.live_faults, faulted, entry.reason);
        let (red, black) = if entry.game == 0 {
            (first, second)
        } else {
            (second, first)
        };
        for (engine, side) in [(red, entry.over_clock[0]), (black, entry.over_clock[1])] {
            if let Some(total) = self.over_clock.get_mut(engine) {
                total.add(side);
            }
        }
        let game = Counted {
            score: first_engine_score(entry.result, entry.game == 0),
            reason: entry.reason,
            faulted,
        };
        let Some(other) = self.waiting.remove(&entry.pair) else {
            self.waiting.insert(entry.pair, game);
            return true;
        };
        let (game0, game1) = if entry.game == 0 {
            (game, other)
        } else {
            (other, game)
        };
        for g in [&game0, &game1] {
            if first.max(second) < self.scores.engines() && first != second {
                self.scores.add(first, second, g.score);
            }
            *self.reasons.entry(g.reason.code().to_owned()).or_default() += 1;
            add_fault(&mut self.faults, g.faulted, g.reason);
        }
        if let Some(tally) = self.tallies.get_mut(pairing) {
            tally.add_pair(as_result(game0.score), as_result(game1.score));
        }
        true
    }

    /// The complete pairs of a pairing.
    #[must_use]
    pub fn tally(&self, pairing: usize) -> Tally {
        self.tallies.get(pairing).copied().unwrap_or_default()
    }

    /// Complete pairs over every pairing.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.tallies.iter().map(|t| t.penta.pairs()).sum()
    }

    /// Games counted: both games of every complete pair.
    #[must_use]
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Finished games whose partner game has not finished: recorded (and kept in the
    /// journal for a resume), not counted.
    #[must_use]
    pub fn unpaired(&self) -> usize {
        self.waiting.len()
    }

    /// Every game recorded, counted or not (what a resume skips).
    #[must_use]
    pub fn games_recorded(&self) -> u64 {
        self.done.len()
    }

    /// The finished games, counted or not.
    #[must_use]
    pub fn finished(&self) -> &FinishedGames {
        &self.done
    }

    /// The games counted: the finished games without those waiting for their partner.
    #[must_use]
    pub fn counted_games(&self) -> FinishedGames {
        let mut counted = FinishedGames::default();
        for number in self.done.iter() {
            if !self.waiting.contains_key(&(number / 2)) {
                counted.insert(number);
            }
        }
        counted
    }

    /// Faults of one kind of an engine in every game recorded so far, counted or not:
    /// what the fault limits of a run look at.
    #[must_use]
    pub fn live_fault_count(&self, engine: usize, reason: EndReason) -> u64 {
        self.live_faults
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
pub struct FaultTable(pub BTreeMap<String, FaultsByReason>);

impl Tracker {
    /// Faults by engine name in every game recorded, paired or not: a crash that
    /// stopped a run before its pair was complete is a fault all the same.
    #[must_use]
    pub fn fault_table(&self) -> FaultTable {
        FaultTable(
            self.names
                .iter()
                .cloned()
                .zip(self.live_faults.iter().cloned())
                .collect(),
        )
    }

    /// Faults per engine (config order) in every game recorded, paired or not.
    #[must_use]
    pub fn recorded_faults(&self) -> &[FaultsByReason] {
        &self.live_faults
    }
}
