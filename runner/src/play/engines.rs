//! The engines of one slot: one process per engine of the run, started when first
//! needed, reused across games (new game + isready) and restarted after a fault. Every
//! game of every workload is played through [`Engines::play`], so all are played and
//! judged by the same code.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::watch;
use xq_core::board::Color;

use super::random_plies::RandomPlies;
use super::RunState;
use crate::client::{EngineError, EngineSession};
use crate::config::Plan;
use crate::game::{play_game, EndReason, GameStart, Outcome, PlayedGame, Player, StartError};
use crate::openings::{OpeningBook, OpeningSequence};
use crate::store::journal::JournalEntry;
use crate::store::layout::Job;

/// What every game of a run needs besides its engines: the plan and the openings.
#[derive(Debug)]
pub struct RunContext {
    pub plan: Plan,
    /// The openings and the order they are played in, if the run has an opening file.
    pub openings: Option<(OpeningBook, OpeningSequence)>,
    /// Random plies played after the opening (data generation); `None` for a match.
    pub random_plies: Option<RandomPlies>,
}

impl RunContext {
    /// The opening (index in the file) and start of the pairs of a round.
    #[must_use]
    pub fn start_for(&self, round: u64) -> (Option<usize>, GameStart) {
        // The book keeps the opening of every round the run plays.
        let opening = self.openings.as_ref().and_then(|(book, schedule)| {
            let index = schedule.index(round);
            book.get(index).map(|opening| (index, opening))
        });
        let (index, mut start) = match opening {
            Some((index, opening)) => (
                Some(index),
                GameStart {
                    fen: opening.start.to_fen(),
                    moves: opening.moves.clone(),
                },
            ),
            None => (
                None,
                GameStart {
                    fen: xq_core::board::START_FEN.to_owned(),
                    moves: Vec::new(),
                },
            ),
        };
        if let Some(random) = self.random_plies {
            start.moves.extend(random_after(random, &start, round));
        }
        (index, start)
    }
}

/// The random plies of round `round` after `start`; none when the start is not a
/// position (the game then fails to start and says why).
fn random_after(random: RandomPlies, start: &GameStart, round: u64) -> Vec<xq_core::board::Move> {
    let Ok(mut position) = xq_core::board::Position::from_fen(&start.fen) else {
        return Vec::new();
    };
    for &m in &start.moves {
        if !xq_core::movegen::is_legal(&position, m) {
            return Vec::new();
        }
        position.make_move(m);
    }
    random.moves(position, round)
}

/// Each engine's options (by engine index) in place of the run's own, for one pair.
pub type PairOptions = Arc<Vec<Vec<(String, String)>>>;

/// The engine processes of one slot, by engine index.
#[derive(Debug, Default)]
pub struct Engines {
    sessions: HashMap<usize, EngineSession>,
    /// The core this slot's engines are pinned to (`tournament.affinity`).
    cpu: Option<usize>,
    /// The options engines start with when not the run's ([`Engines::restart_with`]).
    options: Option<PairOptions>,
}

impl Engines {
    /// The engines of game slot `slot` (0-based): pinned to the slot's core when the
    /// plan asks for affinity, unpinned otherwise.
    #[must_use]
    pub fn for_slot(plan: &Plan, slot: usize) -> Engines {
        Engines {
            sessions: HashMap::new(),
            options: None,
            cpu: plan
                .affinity
                .then(|| crate::client::affinity::core_for_slot(slot))
                .flatten(),
        }
    }

    /// Plays one game and returns its journal entry; `Ok(None)` when the run stops
    /// ([`RunState::Stopping`]) before the game ends: the game is dropped, its engines
    /// killed.
    ///
    /// # Errors
    /// [`StartError`] when the game cannot start from its opening (the opening file is
    /// checked when a run starts, so this means the file changed under the run).
    pub async fn play(
        &mut self,
        run: &RunContext,
        job: Job,
        state: &mut watch::Receiver<RunState>,
    ) -> Result<Option<JournalEntry>, StartError> {
        let began = Instant::now();
        let (opening, start) = run.start_for(job.round);
        let played = match self.start_engines(run, &job, &start).await {
            Some(failed) => failed,
            None => match self.play_started(run, &job, &start, state).await? {
                Some(played) => played,
                None => return Ok(None),
            },
        };
        let duration = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX);
        Ok(Some(JournalEntry::new(
            job.pair, job.game, opening, &played, duration,
        )))
    }

    /// Plays a game whose engines are running; `None` when the run stops first.
    async fn play_started(
        &mut self,
        run: &RunContext,
        job: &Job,
        start: &GameStart,
        state: &mut watch::Receiver<RunState>,
    ) -> Result<Option<PlayedGame>, StartError> {
        let (Some(mut red), Some(mut black)) = (
            self.sessions.remove(&job.red),
            self.sessions.remove(&job.black),
        ) else {
            return Ok(None);
        };
        let players = [
            Player {
                engine: &mut red,
                time_control: run.plan.engines[job.red].time_control,
                depth_cap: run.plan.engines[job.red].depth_cap,
            },
            Player {
                engine: &mut black,
                time_control: run.plan.engines[job.black].time_control,
                depth_cap: run.plan.engines[job.black].depth_cap,
            },
        ];
        let outcome = tokio::select! {
            outcome = play_game(start, players, &run.plan.settings) => Some(outcome),
            _ = state.wait_for(|s| *s == RunState::Stopping) => None,
        };
        let Some(outcome) = outcome else {
            red.kill().await;
            black.kill().await;
            return Ok(None);
        };
        let Ok(played) = outcome else {
            // The engines are fine: the opening is not.
            self.sessions.insert(job.red, red);
            self.sessions.insert(job.black, black);
            return outcome.map(Some);
        };
        for (index, mut session, color) in
            [(job.red, red, Color::Red), (job.black, black, Color::Black)]
        {
            if played.faulted == Some(color) {
                session.kill().await;
            } else if run.plan.engines[index].restart {
                session.quit().await; // `restart = true`: a new process for the next game
            } else {
                self.sessions.insert(index, session);
            }
        }
        Ok(Some(played))
    }

    /// Starts the engines of a game that are not running; the record of a lost game
    /// when one cannot be started.
    async fn start_engines(
        &mut self,
        run: &RunContext,
        job: &Job,
        start: &GameStart,
    ) -> Option<PlayedGame> {
        for engine in [job.red, job.black] {
            if self.sessions.contains_key(&engine) {
                continue;
            }
            let mut spec = run.plan.engines[engine].spec.clone();
            if let Some(options) = self.options.as_ref().and_then(|o| o.get(engine)) {
                spec.options.clone_from(options);
            }
            match EngineSession::start_pinned(&spec, run.plan.timeouts, self.cpu).await {
                Ok(session) => {
                    self.sessions.insert(engine, session);
                }
                Err(e) => return Some(start_failure(&run.plan, job, start, engine, &e)),
            }
        }
        None
    }

    /// Ends the running engines: the next game starts them with `options` (the run's
    /// own when `None`).
    pub async fn restart_with(&mut self, options: Option<PairOptions>) {
        self.quit_all().await;
        self.options = options;
    }

    async fn quit_all(&mut self) {
        for (_, session) in self.sessions.drain() {
            session.quit().await;
        }
    }

    /// Ends every engine politely.
    pub async fn close(mut self) {
        self.quit_all().await;
    }
}

/// The game record of an engine that could not be (re)started: a loss for it.
fn start_failure(
    plan: &Plan,
    job: &Job,
    start: &GameStart,
    engine: usize,
    error: &EngineError,
) -> PlayedGame {
    let loser = if engine == job.red {
        Color::Red
    } else {
        Color::Black
    };
    let reason = match error {
        EngineError::Timeout { .. } => EndReason::Stall,
        _ => EndReason::Crash,
    };
    PlayedGame {
        red: plan.engines[job.red].spec.name.clone(),
        black: plan.engines[job.black].spec.name.clone(),
        start_fen: start.fen.clone(),
        opening_moves: start.moves.clone(),
        moves: Vec::new(),
        outcome: Outcome::loss_for(loser),
        reason,
        faulted: Some(loser),
        detail: Some(format!("could not start: {error}")),
        over_clock: Default::default(),
    }
}
