//! A stored run's state kept between requests: the counts `status` shows (its tracker),
//! the report's reading (chart series, listed games) and each worker's results, made
//! from the batches committed so far. Each request reads which batches are committed
//! (one short statement) and folds in only the games of those it has not seen, so an
//! open page of a long run costs no replay at each poll. A folded batch that is no
//! longer committed as it was (a purge, maybe played again) makes the state start over.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use super::run_page::SLICE;
use crate::config::Plan;
use crate::fleet::status::{
    new_tracker, plan_of, record_stored, state_of, status_of, RunState, StateError, Status,
};
use crate::output::report::{HeadReading, RunHead};
use crate::store::journal::JournalEntry;
use crate::store::layout::Jobs;
use crate::store::pg::committed::{DoneBatch, StoredGame};
use crate::store::pg::runs::{PairStates, RunRow, RunWorker};
use crate::store::pg::workers::{add_results, WorkerResults};
use crate::store::pg::Db;
use crate::store::tracker::Tracker;

/// What is known of one match run.
#[derive(Clone, Debug)]
pub(crate) struct RunFold {
    plan: Plan,
    jobs: Jobs,
    tracker: Tracker,
    reading: HeadReading,
    /// The batches folded in: id and when it was done.
    folded: HashMap<i64, i64>,
    results: Vec<WorkerResults>,
}

impl RunFold {
    /// Nothing folded yet of match run `run`.
    ///
    /// # Errors
    /// Its stored config does not read here.
    pub(crate) fn new(run: &RunRow) -> Result<RunFold, String> {
        let plan = plan_of(run)?;
        let (tracker, jobs) = new_tracker(&plan);
        let label = PathBuf::from(format!("run {}", run.id));
        let head = RunHead::of_stored(&label, run.meta()).map_err(|e| e.to_string())?;
        Ok(RunFold {
            plan,
            jobs,
            tracker,
            reading: head.reading(),
            folded: HashMap::new(),
            results: Vec::new(),
        })
    }

    /// Folds in one stored game (one seen before counts once: the tracker and the
    /// reading skip it).
    pub(crate) fn add(&mut self, game: &StoredGame) {
        record_stored(&mut self.tracker, &self.jobs, &game.facts);
        // A line that is no entry is counted nowhere in the report (`verify` names it).
        if let Ok(entry) = serde_json::from_str::<JournalEntry>(&game.entry) {
            self.reading.add(&entry);
        }
    }

    /// The committed batches not folded in yet, by first pair.
    fn unseen(&self, done: &[DoneBatch]) -> Vec<DoneBatch> {
        let mut new: Vec<DoneBatch> = done
            .iter()
            .filter(|b| !self.folded.contains_key(&b.id))
            .copied()
            .collect();
        new.sort_by_key(|b| b.first_pair);
        new
    }

    /// Whether a folded batch is no longer committed as it was when folded.
    fn is_stale(&self, done: &[DoneBatch]) -> bool {
        let now: HashMap<i64, i64> = done.iter().map(|b| (b.id, b.done_us)).collect();
        self.folded.iter().any(|(id, at)| now.get(id) != Some(at))
    }

    /// The run's state, as `status --json` prints it.
    pub(crate) fn status(&self, run: &RunRow, pairs: PairStates, workers: &[RunWorker]) -> Status {
        status_of(
            run,
            &self.plan,
            &self.tracker,
            pairs,
            workers,
            &self.results,
        )
    }

    /// The report's reading of every game folded in.
    pub(crate) fn reading(&self) -> &HeadReading {
        &self.reading
    }
}

/// Ranges of pairs that cover `batches` (sorted by first pair), touching batches
/// merged, each range at most `slice` pairs long: one statement reads each.
fn windows(batches: &[DoneBatch], slice: i64) -> Vec<(i64, i64)> {
    let mut spans: Vec<(i64, i64)> = Vec::new();
    for b in batches {
        let (from, to) = (b.first_pair, b.first_pair + b.pairs);
        match spans.last_mut() {
            Some(last) if last.1 >= from => last.1 = last.1.max(to),
            _ => spans.push((from, to)),
        }
    }
    let slice = slice.max(1);
    let mut out = Vec::new();
    for (mut from, to) in spans {
        while from < to {
            out.push((from, (from + slice).min(to)));
            from += slice;
        }
    }
    out
}

/// The state of each match run a page asked for, by id; one request at a time brings
/// a run's up to date (the others wait for it rather than read the same games).
#[derive(Debug, Default)]
pub(crate) struct Folds {
    runs: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<Option<RunFold>>>>>,
}

impl Folds {
    /// Brings the state of match run `run` up to date and gives what `then` makes of it.
    ///
    /// # Errors
    /// [`StateError`]; the state is then made again from nothing at the next request.
    pub(crate) async fn updated<T>(
        &self,
        db: &Db,
        run: &RunRow,
        then: impl FnOnce(&RunFold) -> T,
    ) -> Result<T, StateError> {
        let slot = {
            let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(runs.entry(run.id).or_default())
        };
        let mut held = slot.lock().await;
        let done = db.done_batches(run.id).await?;
        let (mut fold, fresh) = match held.take() {
            Some(fold) if !fold.is_stale(&done) => (fold, false),
            _ => (RunFold::new(run).map_err(StateError::Stored)?, true),
        };
        let new = fold.unseen(&done);
        if fresh || !new.is_empty() {
            // A batch committed since `done` was read may be folded in here already;
            // folded again with its batch later, its games count once.
            for (from, to) in windows(&new, SLICE) {
                for game in db.stored_games(run.id, from, to).await? {
                    fold.add(&game);
                }
                // Only committed (or purged) batches change a worker's results, and a
                // window holds only pairs of batches not seen yet: each counted once.
                let results = db.worker_results(run.id, from..to).await?;
                add_results(&mut fold.results, &results);
            }
            fold.folded.extend(new.iter().map(|b| (b.id, b.done_us)));
        }
        let out = then(&fold);
        *held = Some(fold);
        Ok(out)
    }

    /// The state of match run `run` as `status --json` prints it, and what `then`
    /// makes of it with the kept state.
    ///
    /// # Errors
    /// [`StateError`].
    pub(crate) async fn match_status<T>(
        &self,
        db: &Db,
        run: &RunRow,
        then: impl FnOnce(&RunFold, Status) -> T,
    ) -> Result<T, StateError> {
        let pairs = db.pair_states(run).await?;
        let workers = db.run_workers(run.id).await?;
        self.updated(db, run, |fold| {
            then(fold, fold.status(run, pairs, &workers))
        })
        .await
    }

    /// The state of stored run `run` as `status --json` prints it, a match's from its
    /// kept state.
    ///
    /// # Errors
    /// [`StateError`].
    pub(crate) async fn state(&self, db: &Db, run: &RunRow) -> Result<RunState, StateError> {
        if run.is_tune() {
            return state_of(db, run).await;
        }
        self.match_status(db, run, |_, status| RunState::Match(Box::new(status)))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{EndReason, Outcome};
    use crate::store::tracker::GameFacts;

    fn batch(id: i64, first_pair: i64, pairs: i64) -> DoneBatch {
        DoneBatch {
            id,
            first_pair,
            pairs,
            done_us: id,
        }
    }

    #[test]
    fn windows_cover_the_batches_in_slices() {
        let batches = [batch(1, 0, 4), batch(2, 4, 4), batch(3, 20, 10)];
        assert_eq!(
            windows(&batches, 6),
            vec![(0, 6), (6, 8), (20, 26), (26, 30)]
        );
        assert!(windows(&[], 6).is_empty());
    }

    /// A run of `pairs` pairs whose games are stored as a worker would store them.
    fn stored(pairs: u64) -> (RunRow, Vec<StoredGame>) {
        let config = format!(
            "[tournament]\npairs = {pairs}\n[time]\ndepth = 1\n[sprt]\nelo0 = 0\nelo1 = 10\n\
             [[engine]]\nname = \"a\"\ncommand = [\"a\"]\n[[engine]]\nname = \"b\"\ncommand = [\"b\"]\n"
        );
        let run = RunRow {
            id: 7,
            title: "sample".to_owned(),
            config,
            config_hash: String::new(),
            openings_fingerprint: None,
            bench: std::collections::BTreeMap::new(),
            total_pairs: pairs,
            batch_pairs: 4,
            next_pair: pairs,
            pairs_done: pairs,
            games_done: 2 * pairs,
            state: "open".to_owned(),
            status: "open".to_owned(),
            exit_code: None,
            age_s: 1.0,
            kind: "match".to_owned(),
            tune: None,
            submitter: None,
            builds: std::collections::BTreeMap::new(),
            commits: std::collections::BTreeMap::new(),
        };
        let games = (0..pairs)
            .flat_map(|pair| {
                (0..2u8).map(move |game| {
                    let result = match (pair * 2 + u64::from(game)) % 5 {
                        0 | 3 => Outcome::RedWins,
                        1 => Outcome::BlackWins,
                        _ => Outcome::Draw,
                    };
                    let reason = if pair % 7 == 3 && game == 1 {
                        EndReason::TimeForfeit
                    } else {
                        EndReason::Checkmate
                    };
                    let mut entry = JournalEntry::sample(pair, game, result);
                    entry.reason = reason;
                    StoredGame {
                        facts: GameFacts::of(&entry),
                        entry: serde_json::to_string(&entry).unwrap_or_default(),
                    }
                })
            })
            .collect();
        (run, games)
    }

    /// What a page shows of a state: the status as JSON and the report's reading.
    fn shown(fold: &RunFold, run: &RunRow) -> (String, String) {
        let status = fold.status(run, PairStates::default(), &[]);
        let json = serde_json::to_string(&status).unwrap_or_default();
        (
            json,
            format!("{:?}", fold.reading().clone().finish(&Default::default())),
        )
    }

    #[test]
    fn folding_in_two_steps_gives_what_one_step_gives() {
        let (run, games) = stored(1500);
        let mut once = RunFold::new(&run).expect("the sample config reads");
        for game in &games {
            once.add(game);
        }
        let mut twice = RunFold::new(&run).expect("the sample config reads");
        let (first, rest) = games.split_at(1001);
        for game in first {
            twice.add(game);
        }
        let halfway = twice.tracker.games();
        for game in rest {
            twice.add(game);
        }
        assert_eq!(halfway, 1000, "an unfinished pair is not counted yet");
        assert_eq!(once.tracker.games(), 3000);
        assert_eq!(shown(&once, &run), shown(&twice, &run));
    }

    #[test]
    fn a_game_folded_twice_counts_once() {
        let (run, games) = stored(10);
        let mut fold = RunFold::new(&run).expect("the sample config reads");
        for game in games.iter().chain(&games[4..8]) {
            fold.add(game);
        }
        let mut once = RunFold::new(&run).expect("the sample config reads");
        for game in &games {
            once.add(game);
        }
        assert_eq!(shown(&fold, &run), shown(&once, &run));
    }

    #[test]
    fn a_purged_batch_makes_the_state_start_over() {
        let (run, _) = stored(4);
        let mut fold = RunFold::new(&run).expect("the sample config reads");
        fold.folded.insert(1, 100);
        fold.folded.insert(2, 200);
        let done = [
            DoneBatch {
                done_us: 100,
                ..batch(1, 0, 2)
            },
            batch(3, 4, 2),
        ];
        assert!(fold.is_stale(&done), "batch 2 is gone");
        fold.folded.remove(&2);
        assert!(!fold.is_stale(&done));
        assert_eq!(
            fold.unseen(&done).iter().map(|b| b.id).collect::<Vec<_>>(),
            vec![3]
        );
        let replayed = [DoneBatch {
            done_us: 150,
            ..done[0]
        }];
        assert!(fold.is_stale(&replayed), "batch 1 purged and played again");
    }
}
