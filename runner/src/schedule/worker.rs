//! A worker plays games one after another on its own engine processes, started when
//! first needed, reused across games (new game + isready) and restarted after a fault.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::{mpsc, watch};

use super::jobs::{Job, Pending};
use crate::client::{EngineError, EngineSession};
use crate::config::Plan;
use crate::game::{play_game, EndReason, GameStart, Outcome, PlayedGame, Player};
use crate::openings::{OpeningBook, Schedule};
use crate::output::journal::JournalEntry;

/// Whether workers may go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Running,
    /// Finish the games in progress, start no new one.
    Finishing,
    /// Drop the games in progress at once (they are not recorded) and end.
    Aborting,
}

/// A finished game on its way to the journal.
#[derive(Debug)]
pub struct Finished {
    pub job: Job,
    pub entry: JournalEntry,
}

/// What every worker shares.
#[derive(Debug)]
pub struct Shared {
    pub plan: Plan,
    /// The openings and the order they are played in, if the run has an opening file.
    pub openings: Option<(OpeningBook, Schedule)>,
    pub queue: Mutex<Pending>,
}

impl Shared {
    /// The opening (index in the file) and start of the pairs of a round.
    #[must_use]
    pub fn start_for(&self, round: u64) -> (Option<usize>, GameStart) {
        // The book keeps the opening of every round the run plays.
        let opening = self.openings.as_ref().and_then(|(book, schedule)| {
            let index = schedule.index(round);
            book.get(index).map(|opening| (index, opening))
        });
        match opening {
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
        }
    }
}

/// Runs jobs from the queue until it is empty or the run stops.
pub async fn worker(
    shared: Arc<Shared>,
    results: mpsc::Sender<Finished>,
    mut state: watch::Receiver<RunState>,
) {
    let mut sessions: HashMap<usize, EngineSession> = HashMap::new();
    loop {
        if *state.borrow() != RunState::Running {
            break;
        }
        let next = shared.queue.lock().ok().and_then(|mut q| q.next());
        let Some(job) = next else { break };
        let began = Instant::now();
        let (opening, start) = shared.start_for(job.round);
        let mut game = None;
        for engine in [job.red, job.black] {
            if sessions.contains_key(&engine) {
                continue;
            }
            let spec = &shared.plan.engines[engine].spec;
            match EngineSession::start(spec, shared.plan.timeouts).await {
                Ok(session) => {
                    sessions.insert(engine, session);
                }
                Err(e) => {
                    game = Some(start_failure(&shared.plan, &job, &start, engine, &e));
                    break;
                }
            }
        }
        let played = match game {
            Some(failed) => failed,
            None => {
                let (Some(mut red), Some(mut black)) =
                    (sessions.remove(&job.red), sessions.remove(&job.black))
                else {
                    break;
                };
                let players = [
                    Player {
                        engine: &mut red,
                        time_control: shared.plan.engines[job.red].time_control,
                    },
                    Player {
                        engine: &mut black,
                        time_control: shared.plan.engines[job.black].time_control,
                    },
                ];
                let outcome = tokio::select! {
                    outcome = play_game(&start, players, &shared.plan.settings) => Some(outcome),
                    _ = state.wait_for(|s| *s == RunState::Aborting) => None,
                };
                let Some(outcome) = outcome else {
                    red.kill().await;
                    black.kill().await;
                    break;
                };
                match outcome {
                    Ok(played) => {
                        for (index, session, color) in [
                            (job.red, red, xq_core::board::Color::Red),
                            (job.black, black, xq_core::board::Color::Black),
                        ] {
                            if played.faulted == Some(color) {
                                let mut session = session;
                                session.kill().await;
                            } else if shared.plan.engines[index].restart {
                                session.quit().await; // `restart = true`: a new one next game
                            } else {
                                sessions.insert(index, session);
                            }
                        }
                        played
                    }
                    Err(e) => {
                        tracing::error!("pair {} game {}: {e}", job.pair, job.game);
                        sessions.insert(job.red, red);
                        sessions.insert(job.black, black);
                        continue;
                    }
                }
            }
        };
        let duration = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX);
        let entry = JournalEntry::new(job.pair, job.game, opening, &played, duration);
        if results.send(Finished { job, entry }).await.is_err() {
            break;
        }
    }
    for (_, session) in sessions.drain() {
        session.quit().await;
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
    let red_failed = engine == job.red;
    let loser = if red_failed {
        xq_core::board::Color::Red
    } else {
        xq_core::board::Color::Black
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
    }
}
